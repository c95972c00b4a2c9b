#include <kildall/graph/reverse_postorder.hpp>

#include <doctest/doctest.h>

#include <kildall/graph/archetypes.hpp>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include <deque>
#include <random>

#include "test_graphs.hpp"

namespace {
using G = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

// In an RPO, every edge u->v with v not an ancestor of u on the DFS tree goes forward.
// Equivalently: for an acyclic graph every edge goes forward.
bool all_edges_forward(const G& g, const std::vector<std::size_t>& order) {
  auto pos = kildall::order_positions(g, order);
  for (auto e : boost::make_iterator_range(edges(g))) {
    auto u = source(e, g), v = target(e, g);
    if (!pos[u] || !pos[v]) continue;
    if (*pos[u] >= *pos[v]) return false;
  }
  return true;
}
}  // namespace

TEST_CASE("RPO of a diamond puts the join last and skips unreachable vertices") {
  G g(5);
  add_edge(0, 1, g);
  add_edge(0, 2, g);
  add_edge(1, 3, g);
  add_edge(2, 3, g);  // vertex 4 is unreachable from 0
  auto order = kildall::reverse_postorder(g, std::size_t{0});
  REQUIRE(order.size() == 4);
  CHECK(order.front() == 0);
  CHECK(order.back() == 3);
  CHECK(all_edges_forward(g, order));
  auto every = kildall::reverse_postorder(g);
  CHECK(every.size() == 5);
}

TEST_CASE("RPO of random DAGs orders every edge forward") {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + rng() % 30;
    G g(n);
    for (std::size_t k = 0; k < 2 * n; ++k) {
      std::size_t a = rng() % n, b = rng() % n;
      if (a < b) add_edge(a, b, g);  // acyclic by construction
    }
    auto order = kildall::reverse_postorder(g);
    CHECK(order.size() == n);
    CHECK(all_edges_forward(g, order));
  }
}

TEST_CASE("RPO handles self-loops and a 1M-vertex chain without recursion") {
  G loop(2);
  add_edge(0, 0, loop);
  add_edge(0, 1, loop);
  add_edge(1, 1, loop);
  CHECK(kildall::reverse_postorder(loop, std::size_t{0}) == std::vector<std::size_t>{0, 1});

  const std::size_t n = 1'000'000;
  G chain(n);
  for (std::size_t i = 0; i + 1 < n; ++i) add_edge(i, i + 1, chain);
  auto order = kildall::reverse_postorder(chain, std::size_t{0});
  REQUIRE(order.size() == n);
  CHECK(order.front() == 0);
  CHECK(order.back() == n - 1);
}

namespace {
// Vertices reachable from `entry`, by breadth-first search (an independent oracle).
std::vector<bool> reachable_from(const G& g, std::size_t entry) {
  std::vector<bool> seen(num_vertices(g), false);
  std::deque<std::size_t> queue{entry};
  seen[entry] = true;
  while (!queue.empty()) {
    const std::size_t v = queue.front();
    queue.pop_front();
    for (auto e : boost::make_iterator_range(out_edges(v, g))) {
      if (!seen[target(e, g)]) {
        seen[target(e, g)] = true;
        queue.push_back(target(e, g));
      }
    }
  }
  return seen;
}

// Checks the defining properties of an RPO from `entry`: it lists exactly the
// reachable vertices, once each, starting at `entry`; every other vertex has
// a predecessor before it (its DFS parent); and an edge may only go backwards
// inside a cycle (both ends in one strongly connected component, by Boost's
// strong_components).
void check_rpo(const G& g, std::size_t entry, const std::vector<std::size_t>& order) {
  const auto reachable = reachable_from(g, entry);
  const auto pos = kildall::order_positions(g, order);
  REQUIRE_FALSE(order.empty());
  CHECK(order.front() == entry);
  std::size_t reachable_count = 0;
  for (std::size_t v = 0; v < num_vertices(g); ++v) {
    CHECK(reachable[v] == pos[v].has_value());
    reachable_count += reachable[v] ? 1 : 0;
  }
  CHECK(order.size() == reachable_count);  // no duplicates
  std::vector<std::size_t> component(num_vertices(g));
  boost::strong_components(g, boost::make_iterator_property_map(component.begin(), get(boost::vertex_index, g)));
  for (std::size_t v : order) {
    bool has_earlier_predecessor = v == entry;
    for (auto e : boost::make_iterator_range(in_edges(v, g))) {
      const std::size_t u = source(e, g);
      if (pos[u] && *pos[u] < *pos[v]) has_earlier_predecessor = true;
      if (pos[u] && *pos[u] >= *pos[v]) CHECK(component[u] == component[v]);
    }
    CHECK(has_earlier_predecessor);
  }
}
}  // namespace

TEST_CASE("RPO of an irreducible CFG (a loop with two entries), a self-loop and a dead block") {
  const auto edges = kildall::test::irreducible_cfg();
  const G g = kildall::test::make_boost_graph(kildall::test::irreducible_vertex_count, edges);
  const auto order = kildall::reverse_postorder(g, std::size_t{0});
  check_rpo(g, 0, order);
  // 6 only reaches into the graph; nothing reaches it from the entry.
  CHECK_FALSE(kildall::order_positions(g, order)[6].has_value());
  // The graph has two simple cycles (2 <-> 3 and 5 -> 5); each must have a
  // retreating edge, and a DFS order needs no more than that here.
  const auto pos = kildall::order_positions(g, order);
  std::size_t retreating = 0;
  for (auto [u, v] : edges) retreating += (pos[u] && *pos[u] >= *pos[v]) ? 1 : 0;
  CHECK(retreating == 2);
}

TEST_CASE("RPO of random graphs with cycles satisfies its defining properties") {
  std::mt19937 rng(77);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 1 + rng() % 40;
    const auto edges = kildall::test::random_edges(rng, n, rng() % (3 * n));
    const G g = kildall::test::make_boost_graph(n, edges);
    const std::size_t entry = rng() % n;
    check_rpo(g, entry, kildall::reverse_postorder(g, entry));
  }
}

TEST_CASE("RPO runs on the minimal archetype, including a 1M-vertex cycle") {
  const auto edges = kildall::test::irreducible_cfg();
  const kildall::archetypes::forward_analysis_graph minimal(kildall::test::irreducible_vertex_count, edges);
  const G g = kildall::test::make_boost_graph(kildall::test::irreducible_vertex_count, edges);
  CHECK(kildall::test::indices_of(minimal, kildall::reverse_postorder(minimal, minimal.vertex_at(0))) ==
        kildall::reverse_postorder(g, std::size_t{0}));
  // Several roots: a root already visited from an earlier one is skipped.
  const kildall::archetypes::vertex roots[] = {minimal.vertex_at(6), minimal.vertex_at(0), minimal.vertex_at(4)};
  const auto all = kildall::reverse_postorder(minimal, roots);
  CHECK(all.size() == kildall::test::irreducible_vertex_count);

  const std::size_t n = 1'000'000;
  const kildall::archetypes::forward_analysis_graph cycle(n, kildall::test::chain(n, true));
  const auto order = kildall::reverse_postorder(cycle, cycle.vertex_at(n / 2));
  REQUIRE(order.size() == n);
  CHECK(order.front().id() == n / 2);
  CHECK(order.back().id() == n / 2 - 1);
}
