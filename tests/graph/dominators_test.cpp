#include <kildall/graph/dominators.hpp>

#include <kildall/graph/archetypes.hpp>
#include <kildall/graph/reversed.hpp>

#include <doctest/doctest.h>

#include <boost/graph/dominator_tree.hpp>

#include <deque>
#include <limits>
#include <random>

#include "test_graphs.hpp"

namespace {
using kildall::test::BoostGraph;
using kildall::test::EdgeList;
constexpr std::size_t no_vertex = static_cast<std::size_t>(-1);

// Boost's Lengauer-Tarjan immediate dominators (no_vertex for the entry and
// unreachable vertices). Boost 1.74's three-argument overload starts every
// discover time at 0, which its own precondition forbids for unreachable
// vertices (they must be "max"): a reachable vertex with an unreachable
// predecessor then gets no dominator. So the maps are passed explicitly.
std::vector<std::size_t> boost_idoms(const BoostGraph& g, std::size_t entry) {
  const std::size_t n = num_vertices(g);
  const auto null = boost::graph_traits<BoostGraph>::null_vertex();
  const auto index = get(boost::vertex_index, g);
  std::vector<std::size_t> dfnum(n, std::numeric_limits<std::size_t>::max());
  std::vector<std::size_t> parent(n, null);
  std::vector<std::size_t> by_dfnum(n, null);
  std::vector<std::size_t> idom(n, null);
  boost::lengauer_tarjan_dominator_tree(g, entry, index, boost::make_iterator_property_map(dfnum.begin(), index),
                                        boost::make_iterator_property_map(parent.begin(), index), by_dfnum,
                                        boost::make_iterator_property_map(idom.begin(), index));
  for (auto& d : idom) {
    if (d == null) d = no_vertex;
  }
  return idom;
}

// True when `goal` is reachable from `entry` without passing through `avoid`.
bool reaches_avoiding(const BoostGraph& g, std::size_t entry, std::size_t goal, std::size_t avoid) {
  if (entry == avoid) return false;
  std::vector<bool> seen(num_vertices(g), false);
  std::deque<std::size_t> queue{entry};
  seen[entry] = true;
  while (!queue.empty()) {
    const std::size_t v = queue.front();
    queue.pop_front();
    if (v == goal) return true;
    for (auto e : boost::make_iterator_range(out_edges(v, g))) {
      const std::size_t w = target(e, g);
      if (w != avoid && !seen[w]) {
        seen[w] = true;
        queue.push_back(w);
      }
    }
  }
  return false;
}

template <class Vertex>
std::vector<std::size_t> idoms_of(const kildall::DominatorTree<Vertex>& tree, std::size_t n, auto index_of) {
  std::vector<std::size_t> out;
  for (std::size_t v = 0; v < n; ++v) {
    const auto d = tree.immediate_dominator(v);
    out.push_back(d ? index_of(*d) : no_vertex);
  }
  return out;
}

// Checks idoms against Boost and dominates() against the brute-force definition.
void check_against_oracles(std::size_t n, const EdgeList& edges, std::size_t entry) {
  const BoostGraph g = kildall::test::make_boost_graph(n, edges);
  const auto tree = kildall::dominator_tree(g, entry);
  const auto identity = [](std::size_t v) { return v; };
  CHECK(idoms_of(tree, n, identity) == boost_idoms(g, entry));
  for (std::size_t b = 0; b < n; ++b) {
    const bool reachable = reaches_avoiding(g, entry, b, no_vertex);
    CHECK(tree.is_reachable(b) == reachable);
    for (std::size_t a = 0; a < n; ++a) {
      const bool expected = reachable && (a == b || !reaches_avoiding(g, entry, b, a));
      CHECK(tree.dominates(a, b) == expected);
    }
    if (reachable) {
      // The depth is the number of strict dominators.
      std::size_t strict = 0;
      for (std::size_t a = 0; a < n; ++a) strict += tree.strictly_dominates(a, b) ? 1 : 0;
      CHECK(tree.depth(b) == strict);
    }
  }
  // The archetype gives the same tree.
  const kildall::archetypes::analysis_graph minimal(n, edges);
  const auto minimal_tree = kildall::dominator_tree(minimal, minimal.vertex_at(entry));
  CHECK(idoms_of(minimal_tree, n, [](const kildall::archetypes::vertex& v) { return v.id(); }) ==
        idoms_of(tree, n, identity));
}
}  // namespace

TEST_CASE("dominators of random graphs match Lengauer-Tarjan and the definition") {
  std::mt19937 rng(31);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + rng() % 25;
    check_against_oracles(n, kildall::test::random_edges(rng, n, rng() % (3 * n)), rng() % n);
  }
}

TEST_CASE("dominators of an irreducible CFG: neither loop entry dominates the other") {
  const EdgeList edges = kildall::test::irreducible_cfg();
  check_against_oracles(kildall::test::irreducible_vertex_count, edges, 0);
  const auto tree = kildall::dominator_tree(kildall::test::make_boost_graph(7, edges), std::size_t{0});
  CHECK_FALSE(tree.dominates(2, 3));
  CHECK_FALSE(tree.dominates(3, 2));
  CHECK(tree.immediate_dominator(2) == std::size_t{0});
  CHECK(tree.immediate_dominator(3) == std::size_t{0});
  CHECK_FALSE(tree.is_reachable(6));
  CHECK_THROWS_AS((void)tree.depth(6), std::out_of_range);
}

TEST_CASE("post-dominators are the dominators of the reversed graph") {
  // entry 0 -> {1, 2} -> 3 (exit): 3 post-dominates everything, 1 and 2 nothing else.
  const BoostGraph g = kildall::test::make_boost_graph(4, {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
  const auto post = kildall::dominator_tree(kildall::Reversed(g), std::size_t{3});
  for (std::size_t v = 0; v < 4; ++v) CHECK(post.dominates(3, v));
  CHECK(post.immediate_dominator(0) == std::size_t{3});
  CHECK_FALSE(post.dominates(1, 0));
}

TEST_CASE("dominators of a 1M-vertex chain and cycle") {
  const std::size_t n = 1'000'000;
  for (bool closed : {false, true}) {
    const kildall::archetypes::analysis_graph chain(n, kildall::test::chain(n, closed));
    const auto tree = kildall::dominator_tree(chain, chain.vertex_at(0));
    CHECK(tree.immediate_dominator(n - 1)->id() == n - 2);
    CHECK(tree.depth(n - 1) == n - 1);
    CHECK(tree.dominates(n / 2, n - 1));
    CHECK_FALSE(tree.dominates(n - 1, n / 2));
  }
}

TEST_CASE("dominators of larger random graphs match Lengauer-Tarjan; the RPO is kildall's") {
  std::mt19937 rng(77);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 50 + rng() % 1500;
    const EdgeList edges = kildall::test::random_edges(rng, n, n + rng() % (3 * n));
    const std::size_t entry = rng() % n;
    const BoostGraph g = kildall::test::make_boost_graph(n, edges);
    const auto tree = kildall::dominator_tree(g, entry);
    CHECK(idoms_of(tree, n, [](std::size_t v) { return v; }) == boost_idoms(g, entry));
    CHECK(tree.reverse_postorder() == kildall::reverse_postorder(g, entry));
  }
}

TEST_CASE("dominators of a deep chain whose blocks all branch to one shared exit (near-linear)") {
  // 0 -> 1 -> ... -> n-2, and every chain vertex also -> n-1 (the exit): the iterative
  // Cooper-Harvey-Kennedy algorithm intersects n paths of length O(n) here. Oracles: Boost's
  // Lengauer-Tarjan on a small instance (its path compression recurses along the chain, so not
  // on the large one), and the tree by construction (k's idom is k-1, the exit's is 0).
  for (const std::size_t n : {std::size_t{3000}, std::size_t{300'000}}) {
    for (bool exit_first : {false, true}) {
      EdgeList edges;
      for (std::size_t k = 0; k + 2 < n; ++k) {
        if (exit_first) edges.push_back({k, n - 1});
        edges.push_back({k, k + 1});
        if (!exit_first) edges.push_back({k, n - 1});
      }
      edges.push_back({n - 2, n - 1});
      const BoostGraph g = kildall::test::make_boost_graph(n, edges);
      const auto tree = kildall::dominator_tree(g, std::size_t{0});
      std::vector<std::size_t> expected(n, no_vertex);
      for (std::size_t k = 1; k + 1 < n; ++k) expected[k] = k - 1;
      expected[n - 1] = 0;
      CHECK(idoms_of(tree, n, [](std::size_t v) { return v; }) == expected);
      if (n <= 3000) CHECK(boost_idoms(g, 0) == expected);
      CHECK(tree.depth(n - 2) == n - 2);
      CHECK(tree.depth(n - 1) == 1);
    }
  }
}
