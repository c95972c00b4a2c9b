#include <kildall/graph/scc.hpp>

#include <kildall/graph/archetypes.hpp>

#include <doctest/doctest.h>

#include <boost/graph/strong_components.hpp>

#include <map>
#include <random>
#include <stdexcept>

#include "test_graphs.hpp"

namespace {
using kildall::test::BoostGraph;
using kildall::test::EdgeList;

// True when the two labellings group the vertices identically.
bool same_partition(const std::vector<std::size_t>& a, const std::vector<std::size_t>& b) {
  if (a.size() != b.size()) return false;
  std::map<std::size_t, std::size_t> a_to_b, b_to_a;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto [ab, new_a] = a_to_b.emplace(a[i], b[i]);
    auto [ba, new_b] = b_to_a.emplace(b[i], a[i]);
    if (ab->second != b[i] || ba->second != a[i]) return false;
  }
  return true;
}

std::vector<std::size_t> boost_components(const BoostGraph& g) {
  std::vector<std::size_t> component(num_vertices(g));
  boost::strong_components(g, boost::make_iterator_property_map(component.begin(), get(boost::vertex_index, g)));
  return component;
}

// Checks every documented property of `scc` for the graph with `n` vertices and `edges`.
template <class Vertex>
void check_against_oracle(const kildall::StronglyConnectedComponents<Vertex>& scc, std::size_t n,
                          const EdgeList& edges, auto index_of) {
  const auto g = kildall::test::make_boost_graph(n, edges);
  const auto& ids = scc.component_ids();
  REQUIRE(ids.size() == n);
  CHECK(same_partition(ids, boost_components(g)));

  // Reverse topological order: edges never go to a higher component id.
  for (auto [u, v] : edges) CHECK(ids[u] >= ids[v]);

  // members() is the inverse of component_of(), and is_cyclic() is "more than
  // one vertex or a self-loop".
  std::vector<std::size_t> seen(n, 0);
  for (std::size_t c = 0; c < scc.count(); ++c) {
    const auto members = scc.members(c);
    REQUIRE_FALSE(members.empty());
    bool self_loop = false;
    for (const auto& v : members) {
      const std::size_t i = index_of(v);
      CHECK(scc.component_of(i) == c);
      ++seen[i];
      for (auto [a, b] : edges) self_loop = self_loop || (a == i && b == i);
    }
    CHECK(scc.is_cyclic(c) == (members.size() > 1 || self_loop));
  }
  for (std::size_t i = 0; i < n; ++i) CHECK(seen[i] == 1);
}
}  // namespace

TEST_CASE("SCCs of random graphs match boost::strong_components") {
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 1 + rng() % 50;
    // From sparse (mostly singletons) to dense (one big component).
    const std::size_t m = rng() % (3 * n + 1);
    const EdgeList edges = kildall::test::random_edges(rng, n, m);
    const auto g = kildall::test::make_boost_graph(n, edges);
    const auto scc = kildall::strongly_connected_components(g);
    check_against_oracle(scc, n, edges, [](std::size_t v) { return v; });

    // The minimal archetype gives the very same numbering (same traversal order).
    const kildall::archetypes::forward_analysis_graph minimal(n, edges);
    const auto minimal_scc = kildall::strongly_connected_components(minimal);
    CHECK(minimal_scc.component_ids() == scc.component_ids());
    check_against_oracle(minimal_scc, n, edges, [](const kildall::archetypes::vertex& v) { return v.id(); });
  }
}

TEST_CASE("SCCs of an irreducible CFG with a self-loop and an unreachable block") {
  const EdgeList edges = kildall::test::irreducible_cfg();
  const std::size_t n = kildall::test::irreducible_vertex_count;
  const auto g = kildall::test::make_boost_graph(n, edges);
  const auto scc = kildall::strongly_connected_components(g, std::vector<std::size_t>{0});
  check_against_oracle(scc, n, edges, [](std::size_t v) { return v; });
  // The loop entered at both 2 and 3 is one cyclic component; 5 loops on itself.
  CHECK(scc.count() == 6);
  CHECK(scc.component_of(2) == scc.component_of(3));
  CHECK(scc.in_cycle(2));
  CHECK(scc.in_cycle(5));
  CHECK_FALSE(scc.in_cycle(4));
  CHECK_FALSE(scc.in_cycle(6));
  CHECK(kildall::has_self_loop(g, std::size_t{5}));
  CHECK_FALSE(kildall::has_self_loop(g, std::size_t{3}));
}

TEST_CASE("searching from the entry puts each natural loop's header first") {
  // 0 -> 1 -> 2 -> 3 -> 1 (loop headed by 1), 3 -> 4 -> 5 -> 4 (loop headed by 4).
  // Vertex order is scrambled so that plain vertices() order would start inside loops.
  const EdgeList edges = {{5, 1}, {1, 2}, {2, 3}, {3, 1}, {3, 4}, {4, 0}, {0, 4}};
  //                      entry 5; loop {1,2,3} header 1; loop {4,0} header 4
  const auto g = kildall::test::make_boost_graph(6, edges);
  const auto scc = kildall::strongly_connected_components(g, std::vector<std::size_t>{5});
  CHECK(scc.members(scc.component_of(2)).front() == 1);
  CHECK(scc.members(scc.component_of(0)).front() == 4);
  // The same on a bidirectional archetype through the roots overload.
  const kildall::archetypes::analysis_graph minimal(6, edges);
  const kildall::archetypes::vertex entry[] = {minimal.vertex_at(5)};
  const auto minimal_scc = kildall::strongly_connected_components(minimal, entry);
  CHECK(minimal_scc.members(minimal_scc.component_of(2)).front().id() == 1);
  CHECK(minimal_scc.members(minimal_scc.component_of(0)).front().id() == 4);
}

TEST_CASE("1M-vertex chain and cycle need no recursion") {
  const std::size_t n = 1'000'000;
  const kildall::archetypes::forward_analysis_graph chain(n, kildall::test::chain(n, false));
  const auto chain_scc = kildall::strongly_connected_components(chain);
  REQUIRE(chain_scc.count() == n);
  bool decreasing = true;
  for (std::size_t i = 0; i + 1 < n; ++i) decreasing = decreasing && chain_scc.component_of(i) > chain_scc.component_of(i + 1);
  CHECK(decreasing);
  CHECK_FALSE(chain_scc.in_cycle(n / 2));

  const kildall::archetypes::forward_analysis_graph cycle(n, kildall::test::chain(n, true));
  const auto cycle_scc = kildall::strongly_connected_components(cycle);
  REQUIRE(cycle_scc.count() == 1);
  CHECK(cycle_scc.members(0).size() == n);
  CHECK(cycle_scc.members(0).front().id() == 0);
  CHECK(cycle_scc.in_cycle(n - 1));
}

namespace {
// An adapter with a bug: vertex_index(1) is out of range.
struct BrokenIndexGraph {
  std::size_t n = 2;
};
}  // namespace

template <>
struct boost::graph_traits<BrokenIndexGraph> {
  using vertex_descriptor = std::size_t;
  using edge_descriptor = std::pair<std::size_t, std::size_t>;
};

namespace {
using BrokenEdges = std::vector<std::pair<std::size_t, std::size_t>>;
const BrokenEdges broken_edges = {{0, 1}};
const BrokenEdges no_edges;
std::pair<BrokenEdges::const_iterator, BrokenEdges::const_iterator> out_edges(std::size_t v, const BrokenIndexGraph&) {
  const auto& list = v == 0 ? broken_edges : no_edges;
  return {list.begin(), list.end()};
}
std::size_t target(const std::pair<std::size_t, std::size_t>& e, const BrokenIndexGraph&) { return e.second; }
std::pair<std::vector<std::size_t>::const_iterator, std::vector<std::size_t>::const_iterator> vertices(
    const BrokenIndexGraph&) {
  static const std::vector<std::size_t> vs = {0, 1};
  return {vs.begin(), vs.end()};
}
std::size_t num_vertices(const BrokenIndexGraph& g) { return g.n; }
std::size_t vertex_index_of(kildall::vertex_index_tag, const BrokenIndexGraph&, std::size_t v) { return v == 1 ? 7 : v; }
}  // namespace

TEST_CASE("an adapter whose vertex_index is out of range gets a clear error, not a crash") {
  static_assert(kildall::ForwardAnalysisGraph<BrokenIndexGraph>);
  CHECK_THROWS_WITH_AS((void)kildall::strongly_connected_components(BrokenIndexGraph{}),
                       "kildall::strongly_connected_components: vertex_index 7 is not below num_vertices 2",
                       std::out_of_range);
}
