#include <kildall/graph/wto.hpp>

#include <doctest/doctest.h>

#include <boost/graph/adjacency_list.hpp>

#include <cstddef>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

Graph make_graph(std::size_t n, const std::vector<std::pair<std::size_t, std::size_t>>& edges) {
  Graph g(n);
  for (auto [a, b] : edges) add_edge(a, b, g);
  return g;
}

std::string wto_string(const Graph& g, std::size_t entry) {
  return kildall::weak_topological_order(g, entry).to_string([](std::size_t v) { return std::to_string(v); });
}

// Vertices reachable from `entry`, by an independent breadth-first search.
std::vector<bool> reachable(const Graph& g, std::size_t entry) {
  std::vector<bool> seen(num_vertices(g), false);
  std::vector<std::size_t> queue{entry};
  seen[entry] = true;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    for (auto e : kildall::out_edge_range(g, queue[i])) {
      const std::size_t t = target(e, g);
      if (!seen[t]) {
        seen[t] = true;
        queue.push_back(t);
      }
    }
  }
  return seen;
}

// Checks the defining properties of a WTO (Bourdoncle 1993, Def. 3/4):
//  1. it orders exactly the vertices reachable from the entry, each once;
//  2. components are well nested intervals starting at their head;
//  3. every edge u -> v with v not after u goes to a head whose component contains u;
//  4. every component is strongly connected inside itself (each member reaches
//     the head and is reached from it without leaving the component).
void check_wto(const Graph& g, std::size_t entry) {
  const auto wto = kildall::weak_topological_order(g, entry);
  const auto seen = reachable(g, entry);
  std::size_t count = 0;
  for (std::size_t v = 0; v < num_vertices(g); ++v) {
    CHECK(wto.position(g, v).has_value() == seen[v]);
    count += seen[v] ? 1 : 0;
  }
  REQUIRE(wto.size() == count);
  const auto& order = wto.order();
  for (std::size_t p = 0; p < order.size(); ++p) {
    REQUIRE(wto.position(g, order[p]) == p);
    const std::size_t end = wto.component_end(p);
    REQUIRE(end > p);
    REQUIRE(end <= order.size());
    if (auto h = wto.enclosing_head(p)) {
      CHECK(*h < p);
      CHECK(wto.component_end(*h) >= end);
    }
  }
  auto in_component = [&](std::size_t head_pos, std::size_t pos) {
    return head_pos <= pos && pos < wto.component_end(head_pos);
  };
  for (std::size_t p = 0; p < order.size(); ++p) {
    for (auto e : kildall::out_edge_range(g, order[p])) {
      const std::size_t q = *wto.position(g, target(e, g));
      if (q > p) continue;
      CHECK(wto.is_head_at(q));
      CHECK(in_component(q, p));
    }
  }
  for (std::size_t h = 0; h < order.size(); ++h) {
    if (!wto.is_head_at(h)) continue;
    // Forward and backward search restricted to the component.
    for (int direction = 0; direction < 2; ++direction) {
      std::vector<bool> hit(order.size(), false);
      std::vector<std::size_t> stack{h};
      hit[h] = true;
      while (!stack.empty()) {
        const std::size_t p = stack.back();
        stack.pop_back();
        auto visit = [&](std::size_t w) {
          const auto q = wto.position(g, w);
          if (q && in_component(h, *q) && !hit[*q]) {
            hit[*q] = true;
            stack.push_back(*q);
          }
        };
        if (direction == 0) {
          for (auto e : kildall::out_edge_range(g, order[p])) visit(target(e, g));
        } else {
          for (auto e : kildall::in_edge_range(g, order[p])) visit(source(e, g));
        }
      }
      for (std::size_t p = h; p < wto.component_end(h); ++p) CHECK(hit[p]);
    }
  }
}

}  // namespace

TEST_CASE("WTO of Bourdoncle's example and of small shapes") {
  // The example graph of Bourdoncle's paper (Fig. 1), 1-based vertices 1..8.
  const Graph paper = make_graph(9, {{1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {7, 3}, {6, 5}, {2, 8}});
  CHECK(wto_string(paper, 1) == "1 2 (3 4 (5 6) 7) 8");
  check_wto(paper, 1);

  CHECK(wto_string(make_graph(3, {{0, 1}, {1, 2}}), 0) == "0 1 2");
  CHECK(wto_string(make_graph(2, {{0, 1}, {1, 1}}), 0) == "0 (1)");  // self-loop: a head alone
  CHECK(wto_string(make_graph(1, {{0, 0}}), 0) == "(0)");
  // Unreachable vertex 3 is not ordered.
  const Graph with_dead = make_graph(4, {{0, 1}, {3, 1}});
  const auto wto = kildall::weak_topological_order(with_dead, std::size_t{0});
  CHECK(wto.size() == 2);
  CHECK_FALSE(wto.position(with_dead, 3).has_value());
  CHECK_FALSE(wto.is_head(with_dead, 1));
}

TEST_CASE("WTO of an irreducible loop has one head that cuts both entries") {
  // 0 -> 1, 0 -> 2, 1 <-> 2: the loop {1, 2} has two entries.
  const Graph g = make_graph(4, {{0, 1}, {0, 2}, {1, 2}, {2, 1}, {2, 3}});
  check_wto(g, 0);
  const auto wto = kildall::weak_topological_order(g, std::size_t{0});
  CHECK((wto.is_head(g, 1) != wto.is_head(g, 2)));
}

TEST_CASE("WTO of nested loops reports depth and enclosing heads") {
  // 0 -> (1 -> (2 -> 3 -> 2) -> 4 -> 1) -> 5
  const Graph g = make_graph(6, {{0, 1}, {1, 2}, {2, 3}, {3, 2}, {3, 4}, {4, 1}, {4, 5}});
  const auto wto = kildall::weak_topological_order(g, std::size_t{0});
  CHECK(wto.to_string([](std::size_t v) { return std::to_string(v); }) == "0 (1 (2 3) 4) 5");
  const auto p3 = *wto.position(g, 3);
  CHECK(wto.depth(p3) == 2);
  CHECK(wto.order()[*wto.enclosing_head(p3)] == 2);
  CHECK(wto.order()[*wto.enclosing_head(*wto.position(g, 2))] == 1);
  CHECK(wto.depth(*wto.position(g, 5)) == 0);
  check_wto(g, 0);
}

TEST_CASE("WTO properties hold on random graphs (300 seeds)") {
  for (unsigned seed = 0; seed < 300; ++seed) {
    std::mt19937 rng(seed);
    const std::size_t n = 2 + rng() % 14;
    const std::size_t m = rng() % (3 * n);
    Graph g(n);
    for (std::size_t i = 0; i + 1 < n; ++i) {
      if (rng() % 4 != 0) add_edge(i, i + 1, g);  // mostly a spine, sometimes broken
    }
    for (std::size_t i = 0; i < m; ++i) add_edge(rng() % n, rng() % n, g);
    CAPTURE(seed);
    check_wto(g, 0);
  }
}

TEST_CASE("WTO of a million vertices needs no deep recursion") {
  constexpr std::size_t n = 1'000'000;
  Graph chain(n);
  for (std::size_t i = 0; i + 1 < n; ++i) add_edge(i, i + 1, chain);
  add_edge(n - 1, 0, chain);  // one big loop around the whole chain
  const auto big = kildall::weak_topological_order(chain, std::size_t{0});
  REQUIRE(big.size() == n);
  CHECK(big.is_head_at(0));
  CHECK(big.component_end(0) == n);

  // Many small loops in sequence (depth 1), and 1000 nested loops (depth 1000).
  Graph loops(n);
  for (std::size_t i = 0; i + 1 < n; ++i) add_edge(i, i + 1, loops);
  for (std::size_t i = 0; i + 10 < n; i += 10) add_edge(i + 9, i, loops);
  const auto many = kildall::weak_topological_order(loops, std::size_t{0});
  REQUIRE(many.size() == n);
  CHECK(many.is_head_at(0));
  CHECK(many.component_end(0) == 10);

  constexpr std::size_t depth = 1000;
  Graph nested(2 * depth);
  for (std::size_t i = 0; i + 1 < 2 * depth; ++i) add_edge(i, i + 1, nested);
  for (std::size_t i = 0; i < depth; ++i) add_edge(2 * depth - 1 - i, i, nested);
  const auto deep = kildall::weak_topological_order(nested, std::size_t{0});
  CHECK(deep.depth(*deep.position(nested, depth)) == depth);
}
