#pragma once
// Shared fixtures of the graph tests: edge lists (random, irreducible CFGs,
// chains, cycles) and the same edges as a Boost adjacency_list (the oracle
// side) or as an archetype (the minimal side).

#include <kildall/graph/boost.hpp>
#include <kildall/graph/concepts.hpp>

#include <boost/graph/adjacency_list.hpp>

#include <cstddef>
#include <random>
#include <utility>
#include <vector>

namespace kildall::test {

using EdgeList = std::vector<std::pair<std::size_t, std::size_t>>;
using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

/// A graph with `n` vertices and `edges`, added in order.
inline BoostGraph make_boost_graph(std::size_t n, const EdgeList& edges) {
  BoostGraph g(n);
  for (auto [a, b] : edges) add_edge(a, b, g);
  return g;
}

/// `m` random edges over `n` vertices (self-loops and parallel edges allowed).
inline EdgeList random_edges(std::mt19937& rng, std::size_t n, std::size_t m) {
  EdgeList edges;
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  for (std::size_t k = 0; k < m; ++k) edges.emplace_back(pick(rng), pick(rng));
  return edges;
}

/// An irreducible CFG: the loop {2, 3} is entered both at 2 and at 3, so
/// neither dominates the other. Vertex 6 is unreachable from the entry 0 and
/// 5 has a self-loop.
///   0 -> 1, 0 -> 2 (first entry), 1 -> 3 (second entry), 2 -> 3, 3 -> 2,
///   3 -> 4, 4 -> 5, 5 -> 5, 6 -> 4
inline constexpr std::size_t irreducible_vertex_count = 7;
inline EdgeList irreducible_cfg() {
  return {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 2}, {3, 4}, {4, 5}, {5, 5}, {6, 4}};
}

/// 0 -> 1 -> ... -> n-1, closed into a cycle by n-1 -> 0 when `closed`.
inline EdgeList chain(std::size_t n, bool closed) {
  EdgeList edges;
  edges.reserve(n);
  for (std::size_t i = 0; i + 1 < n; ++i) edges.emplace_back(i, i + 1);
  if (closed && n > 0) edges.emplace_back(n - 1, 0);
  return edges;
}

/// The `vertex_index` of each vertex in `vs`.
template <class G>
std::vector<std::size_t> indices_of(const G& g, const std::vector<vertex_t<G>>& vs) {
  std::vector<std::size_t> out;
  out.reserve(vs.size());
  for (const auto& v : vs) out.push_back(kildall::vertex_index(g, v));
  return out;
}

}  // namespace kildall::test
