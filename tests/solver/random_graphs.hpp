#pragma once
// Random directed graphs for the solver tests (fixed seeds, small sizes).

#include <boost/graph/adjacency_list.hpp>

#include <cstddef>
#include <random>
#include <vector>

namespace solver_test {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

/// A random graph on `n` vertices: a mostly-unbroken spine 0 -> 1 -> ... plus
/// `extra` random edges (self-loops, back edges, irreducible entries and
/// unreachable vertices all occur).
inline Graph random_graph(std::mt19937& rng, std::size_t n, std::size_t extra) {
  Graph g(n);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    if (rng() % 5 != 0) add_edge(i, i + 1, g);
  }
  for (std::size_t i = 0; i < extra; ++i) add_edge(rng() % n, rng() % n, g);
  return g;
}

/// Vertices reachable from `root` along edges (forward) or against them.
inline std::vector<bool> reachable_from(const Graph& g, std::size_t root, bool forward = true) {
  std::vector<bool> seen(num_vertices(g), false);
  std::vector<std::size_t> stack{root};
  seen[root] = true;
  while (!stack.empty()) {
    const std::size_t v = stack.back();
    stack.pop_back();
    auto push = [&](std::size_t w) {
      if (!seen[w]) {
        seen[w] = true;
        stack.push_back(w);
      }
    };
    if (forward) {
      for (auto [it, end] = out_edges(v, g); it != end; ++it) push(target(*it, g));
    } else {
      for (auto [it, end] = in_edges(v, g); it != end; ++it) push(source(*it, g));
    }
  }
  return seen;
}

}  // namespace solver_test
