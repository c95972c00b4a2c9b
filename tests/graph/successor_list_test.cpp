// Tests kildall::SuccessorListGraph (graph/successor_list.hpp). Oracles: the successor lists themselves
// (out-edges), a brute-force inversion of them (in-edges), the vector form for the callable form, and a Boost
// adjacency_list built from the same edges in slot order for reverse post-order and the weak topological order.
#include <kildall/graph/successor_list.hpp>

#include <kildall/graph/reverse_postorder.hpp>
#include <kildall/graph/reversed.hpp>
#include <kildall/graph/wto.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <list>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "test_graphs.hpp"

namespace {

using kildall::SuccessorEdge;
using kildall::SuccessorListGraph;
using kildall::successor_list_graph;
using Lists = std::vector<std::vector<std::size_t>>;

// The concepts, modelled through the member descriptor types and hidden friends.
static_assert(kildall::AnalysisGraph<SuccessorListGraph>);
static_assert(kildall::ForwardAnalysisGraph<SuccessorListGraph>);
static_assert(kildall::BidirectionalGraph<SuccessorListGraph>);
static_assert(kildall::IndexedGraph<SuccessorListGraph>);
static_assert(kildall::AnalysisGraph<kildall::Reversed<SuccessorListGraph>>);
static_assert(std::same_as<kildall::vertex_t<SuccessorListGraph>, std::size_t>);
static_assert(std::same_as<kildall::edge_t<SuccessorListGraph>, SuccessorEdge>);
static_assert(std::forward_iterator<SuccessorListGraph::vertex_iterator>);
static_assert(std::contiguous_iterator<SuccessorListGraph::out_edge_iterator>);
static_assert(std::regular<SuccessorEdge>);
static_assert(std::regular<SuccessorListGraph>);
static_assert(std::is_nothrow_move_constructible_v<SuccessorListGraph>);

// What the factories accept: ranges of ranges of integers, and callables returning such ranges.
template <class... Args>
constexpr bool builds = requires(Args&&... args) {
  { successor_list_graph(std::forward<Args>(args)...) } -> std::same_as<SuccessorListGraph>;
};
static_assert(builds<const std::vector<std::vector<int>>&>);
static_assert(builds<std::vector<std::vector<std::uint8_t>>>);
static_assert(builds<const std::array<std::vector<unsigned>, 3>&>);
static_assert(builds<const std::list<std::deque<long>>&>);
static_assert(builds<const std::vector<std::array<std::int16_t, 2>>&>);
static_assert(builds<std::size_t, std::vector<int> (*)(std::size_t)>);
static_assert(builds<std::size_t, std::span<const std::uint32_t> (*)(std::size_t)>);
static_assert(!builds<const std::vector<std::vector<double>>&>);
static_assert(!builds<const std::vector<std::vector<bool>>&>);
static_assert(!builds<const std::vector<std::string>&>);  // characters are not vertex indices
static_assert(!builds<const std::vector<int>&>);
static_assert(!builds<std::size_t, int (*)(std::size_t)>);
static_assert(!builds<std::size_t, std::vector<int> (*)(const std::string&)>);

// (source, target, slot) of the edges of a span.
std::vector<SuccessorEdge> as_vector(std::span<const SuccessorEdge> edges) { return {edges.begin(), edges.end()}; }

// The in-edges by brute force: every slot of every list, in (source, slot) order.
std::vector<std::vector<SuccessorEdge>> invert(const Lists& lists) {
  std::vector<std::vector<SuccessorEdge>> preds(lists.size());
  for (std::size_t u = 0; u < lists.size(); ++u) {
    for (std::size_t k = 0; k < lists[u].size(); ++k) preds[lists[u][k]].push_back(SuccessorEdge{u, lists[u][k], k});
  }
  return preds;
}

// Random successor lists: `n` vertices, up to `max_degree` successors each (self-loops and repeats allowed).
Lists random_lists(std::mt19937& rng, std::size_t n, std::size_t max_degree) {
  Lists lists(n);
  if (n == 0) return lists;
  std::uniform_int_distribution<std::size_t> degree(0, max_degree);
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  for (auto& list : lists) {
    const std::size_t d = degree(rng);
    for (std::size_t k = 0; k < d; ++k) list.push_back(pick(rng));
  }
  return lists;
}

// The same graph as a Boost adjacency_list, edges added in (source, slot) order.
kildall::test::BoostGraph as_boost(const Lists& lists) {
  kildall::test::EdgeList edges;
  for (std::size_t u = 0; u < lists.size(); ++u) {
    for (std::size_t s : lists[u]) edges.emplace_back(u, s);
  }
  return kildall::test::make_boost_graph(lists.size(), edges);
}

// Checks every observable of `g` against `lists`.
void check_against_lists(const SuccessorListGraph& g, const Lists& lists) {
  const std::size_t n = lists.size();
  REQUIRE(g.vertex_count() == n);
  CHECK(num_vertices(g) == n);
  CHECK(kildall::vertex_count(g) == n);
  std::vector<std::size_t> listed;
  for (std::size_t v : kildall::vertex_range(g)) listed.push_back(v);
  std::vector<std::size_t> expected_vertices(n);
  for (std::size_t v = 0; v < n; ++v) expected_vertices[v] = v;
  CHECK(listed == expected_vertices);

  const auto preds = invert(lists);
  std::size_t edges = 0;
  std::vector<SuccessorEdge> all;
  for (std::size_t v = 0; v < n; ++v) {
    CHECK(kildall::vertex_index(g, v) == v);
    std::vector<SuccessorEdge> out;
    for (std::size_t k = 0; k < lists[v].size(); ++k) out.push_back(SuccessorEdge{v, lists[v][k], k});
    CHECK(as_vector(g.successors(v)) == out);
    CHECK(as_vector(g.predecessors(v)) == preds[v]);
    CHECK(out_degree(v, g) == lists[v].size());
    CHECK(in_degree(v, g) == preds[v].size());
    // The free functions agree with the accessors.
    std::vector<SuccessorEdge> via_out, via_in;
    for (const SuccessorEdge& e : kildall::out_edge_range(g, v)) {
      CHECK(source(e, g) == v);
      CHECK(target(e, g) == lists[v][e.slot]);
      via_out.push_back(e);
    }
    for (const SuccessorEdge& e : kildall::in_edge_range(g, v)) {
      CHECK(target(e, g) == v);
      via_in.push_back(e);
    }
    CHECK(via_out == out);
    CHECK(via_in == preds[v]);
    edges += lists[v].size();
    all.insert(all.end(), out.begin(), out.end());
  }
  CHECK(g.edge_count() == edges);
  CHECK(as_vector(g.edges()) == all);
}

}  // namespace

TEST_CASE("successor_list_graph: the example of the file comment, slot by slot") {
  const std::vector<std::vector<int>> succ = {{1, 2}, {3}, {3}, {}};
  const SuccessorListGraph g = successor_list_graph(succ);
  REQUIRE(g.vertex_count() == 4);
  CHECK(as_vector(g.successors(0)) == std::vector<SuccessorEdge>{{0, 1, 0}, {0, 2, 1}});
  CHECK(as_vector(g.successors(1)) == std::vector<SuccessorEdge>{{1, 3, 0}});
  CHECK(g.successors(3).empty());
  CHECK(g.predecessors(0).empty());
  CHECK(as_vector(g.predecessors(3)) == std::vector<SuccessorEdge>{{1, 3, 0}, {2, 3, 0}});
  CHECK(g.edge_count() == 4);
  check_against_lists(g, Lists{{1, 2}, {3}, {3}, {}});
  // Braced lists go to the std::size_t overload.
  CHECK(successor_list_graph({{1, 2}, {3}, {3}, {}}) == g);
}

TEST_CASE("successor_list_graph: parallel edges are told apart by their slot") {
  // 0: cond_br ^1, ^1 (both ways to 1); 1: a self-loop and a back edge; 2 has no successors.
  const SuccessorListGraph g = successor_list_graph(Lists{{1, 1}, {1, 0}, {}});
  CHECK(as_vector(g.successors(0)) == std::vector<SuccessorEdge>{{0, 1, 0}, {0, 1, 1}});
  CHECK(as_vector(g.predecessors(1)) == std::vector<SuccessorEdge>{{0, 1, 0}, {0, 1, 1}, {1, 1, 0}});
  CHECK(as_vector(g.predecessors(0)) == std::vector<SuccessorEdge>{{1, 0, 1}});
  CHECK(out_degree(0, g) == 2);
  CHECK(in_degree(1, g) == 3);
  CHECK(g.successors(0)[0] != g.successors(0)[1]);  // same endpoints, different slots
  CHECK(g.successors(0)[1] == SuccessorEdge{0, 1, 1});
  CHECK(g.successors(0)[1] == g.predecessors(1)[1]);  // the same edge seen from both ends
  // Two successor lists that differ only in order are different graphs.
  CHECK(successor_list_graph(Lists{{1, 2}, {}, {}}) != successor_list_graph(Lists{{2, 1}, {}, {}}));
}

TEST_CASE("successor_list_graph: predecessors match a brute-force inversion on random graphs") {
  for (std::size_t n : {0, 1, 2, 3, 8, 31, 200}) {
    for (std::uint32_t seed : {1u, 2u, 3u, 4u, 5u}) {
      std::mt19937 rng(seed * 7919u + static_cast<std::uint32_t>(n));
      const Lists lists = random_lists(rng, n, seed == 5 ? 12 : 3);
      CAPTURE(n);
      CAPTURE(seed);
      check_against_lists(successor_list_graph(lists), lists);
    }
  }
}

TEST_CASE("successor_list_graph: zero and one vertex") {
  const SuccessorListGraph none = successor_list_graph(Lists{});
  CHECK(none.vertex_count() == 0);
  CHECK(none.edge_count() == 0);
  CHECK(kildall::reverse_postorder(none).empty());
  CHECK(none == SuccessorListGraph{});
  CHECK(successor_list_graph(0, [](std::size_t) { return std::vector<int>{}; }) == none);

  const SuccessorListGraph loop = successor_list_graph(Lists{{0}});
  CHECK(as_vector(loop.predecessors(0)) == std::vector<SuccessorEdge>{{0, 0, 0}});
  CHECK(kildall::reverse_postorder(loop, std::size_t{0}) == std::vector<std::size_t>{0});
  CHECK(kildall::weak_topological_order(loop, std::size_t{0}).to_string([](std::size_t v) {
    return std::to_string(v);
  }) == "(0)");

  // Moved from: a valid graph with no vertices.
  SuccessorListGraph from = successor_list_graph(Lists{{1}, {0}});
  const SuccessorListGraph to = std::move(from);
  CHECK(to.vertex_count() == 2);
  CHECK(from.vertex_count() == 0);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  CHECK(kildall::reverse_postorder(from).empty());
}

TEST_CASE("successor_list_graph: the callable form equals the vector form") {
  for (std::size_t n : {0, 1, 5, 64}) {
    std::mt19937 rng(static_cast<std::uint32_t>(1000 + n));
    const Lists lists = random_lists(rng, n, 4);
    const SuccessorListGraph from_vector = successor_list_graph(lists);

    // A callable returning a copy, as in the file comment; called once per vertex, in order.
    std::vector<std::size_t> calls;
    const SuccessorListGraph by_value = successor_list_graph(n, [&](std::size_t v) {
      calls.push_back(v);
      return lists[v];
    });
    std::vector<std::size_t> expected_calls(n);
    for (std::size_t v = 0; v < n; ++v) expected_calls[v] = v;
    CHECK(calls == expected_calls);
    CHECK(by_value == from_vector);
    check_against_lists(by_value, lists);

    // A callable returning a reference, another returning a span of another integer type.
    CHECK(successor_list_graph(n, [&](std::size_t v) -> const std::vector<std::size_t>& { return lists[v]; }) ==
          from_vector);
    std::vector<std::vector<std::uint16_t>> narrow(n);
    for (std::size_t v = 0; v < n; ++v) narrow[v].assign(lists[v].begin(), lists[v].end());
    CHECK(successor_list_graph(n, [&](std::size_t v) { return std::span<const std::uint16_t>(narrow[v]); }) ==
          from_vector);
    CHECK(successor_list_graph(narrow) == from_vector);
    // A mutable callable passed as an lvalue (it relies on the calls coming in vertex order).
    auto in_order = [&lists, next = std::size_t{0}](std::size_t) mutable { return lists[next++]; };
    CHECK(successor_list_graph(n, in_order) == from_vector);
  }
}

TEST_CASE("successor_list_graph: a successor out of range is named with its vertex and slot") {
  const std::string message =
      "kildall::successor_list_graph: successor 7 of vertex 2 (slot 1) is out of range: the graph has 4 vertices";
  const std::vector<std::vector<int>> bad = {{1, 2}, {3}, {0, 7}, {9}};
  CHECK_THROWS_WITH_AS((void)successor_list_graph(bad), message.c_str(), std::out_of_range);
  CHECK_THROWS_WITH_AS((void)successor_list_graph(4, [&](std::size_t v) { return bad[v]; }), message.c_str(),
                       std::out_of_range);
  // The callable form stops at the first bad successor: later vertices are not asked.
  std::size_t asked = 0;
  CHECK_THROWS_AS((void)successor_list_graph(4,
                                             [&](std::size_t v) {
                                               ++asked;
                                               return bad[v];
                                             }),
                  std::out_of_range);
  CHECK(asked == 3);

  // Negative indices, and the first bad successor wins whatever its kind.
  CHECK_THROWS_WITH_AS((void)successor_list_graph(std::vector<std::vector<int>>{{1}, {-1}}),
                       "kildall::successor_list_graph: successor -1 of vertex 1 (slot 0) is out of range: the graph "
                       "has 2 vertices",
                       std::out_of_range);
  CHECK_THROWS_WITH_AS((void)successor_list_graph(std::vector<std::vector<long>>{{1, 3}, {-5}, {}}),
                       "kildall::successor_list_graph: successor 3 of vertex 0 (slot 1) is out of range: the graph "
                       "has 3 vertices",
                       std::out_of_range);
  const auto third_negative = [](std::size_t v) { return std::vector<int>{0, v == 1 ? -3 : 1}; };
  CHECK_THROWS_WITH_AS((void)successor_list_graph(2, third_negative),
                       "kildall::successor_list_graph: successor -3 of vertex 1 (slot 1) is out of range: the graph "
                       "has 2 vertices",
                       std::out_of_range);
  // The boundary: n is not a vertex of an n-vertex graph, in either form.
  const char* const boundary =
      "kildall::successor_list_graph: successor 3 of vertex 0 (slot 0) is out of range: the graph has 3 vertices";
  CHECK_THROWS_WITH_AS((void)successor_list_graph(Lists{{3}, {}, {}}), boundary, std::out_of_range);
  CHECK_THROWS_WITH_AS((void)successor_list_graph(3, [](std::size_t) { return std::array<unsigned, 1>{3}; }), boundary,
                       std::out_of_range);
  CHECK_NOTHROW((void)successor_list_graph(3, [](std::size_t) { return std::array<unsigned, 1>{2}; }));
  // The largest std::size_t is no vertex either (the graph uses it internally as "unknown").
  const std::size_t huge = std::numeric_limits<std::size_t>::max();
  CHECK_THROWS_WITH_AS((void)successor_list_graph(Lists{{0}, {huge}}),
                       ("kildall::successor_list_graph: successor " + std::to_string(huge) +
                        " of vertex 1 (slot 0) is out of range: the graph has 2 vertices")
                           .c_str(),
                       std::out_of_range);
  CHECK_THROWS_WITH_AS((void)successor_list_graph(std::vector<std::vector<long long>>{{-1}, {-2}}),
                       "kildall::successor_list_graph: successor -1 of vertex 0 (slot 0) is out of range: the graph "
                       "has 2 vertices",
                       std::out_of_range);
}

TEST_CASE("successor_list_graph: reverse post-order and the weak topological order run on it") {
  // The irreducible CFG of the other graph tests, as successor lists.
  const Lists irreducible = {{1, 2}, {3}, {3}, {2, 4}, {5}, {5}, {4}};
  std::mt19937 rng(42);
  std::vector<Lists> cases = {irreducible, Lists{{1}, {2}, {0}}, Lists{{1, 1}, {}}};
  for (std::size_t n : {1, 2, 10, 60}) cases.push_back(random_lists(rng, n, 3));
  const auto name = [](std::size_t v) { return std::to_string(v); };
  for (const Lists& lists : cases) {
    const SuccessorListGraph g = successor_list_graph(lists);
    const kildall::test::BoostGraph b = as_boost(lists);
    CHECK(kildall::reverse_postorder(g) == kildall::reverse_postorder(b));
    for (std::size_t root = 0; root < lists.size(); ++root) {
      CAPTURE(root);
      CHECK(kildall::reverse_postorder(g, root) == kildall::reverse_postorder(b, root));
      CHECK(kildall::reverse_postorder(kildall::Reversed(g), root) ==
            kildall::reverse_postorder(kildall::Reversed(b), root));
      const auto wto = kildall::weak_topological_order(g, root);
      CHECK(wto.to_string(name) == kildall::weak_topological_order(b, root).to_string(name));
      CHECK(wto.order() == kildall::weak_topological_order(b, root).order());
    }
  }
  const SuccessorListGraph g = successor_list_graph(irreducible);
  // 3 explores 2 (its slot 0) before 4 (slot 1), so 2 finishes first and comes last; 3, entered first, heads {2, 3}.
  CHECK(kildall::reverse_postorder(g, std::size_t{0}) == std::vector<std::size_t>{0, 1, 3, 4, 5, 2});
  CHECK(kildall::weak_topological_order(g, std::size_t{0}).to_string(name) == "0 1 (3 2) 4 (5)");
}
