#include <kildall/graph/archetypes.hpp>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/dominators.hpp>
#include <kildall/graph/reverse_postorder.hpp>
#include <kildall/graph/scc.hpp>
#include <kildall/graph/vertex_map.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <concepts>
#include <iterator>
#include <random>
#include <stdexcept>

#include "test_graphs.hpp"

namespace {
namespace ar = kildall::archetypes;
using kildall::test::EdgeList;

// Which of kildall's graph concepts `G` models, as a bit set, so that each
// archetype can be checked to model exactly its own concept and nothing more.
enum : unsigned {
  forward = 1,
  backward = 2,
  vertex_list = 4,
  indexed = 8,
};

template <class G>
constexpr unsigned modelled() {
  return (kildall::ForwardGraph<G> ? forward : 0u) | (kildall::BackwardGraph<G> ? backward : 0u) |
         (kildall::VertexListGraph<G> ? vertex_list : 0u) | (kildall::IndexedGraph<G> ? indexed : 0u);
}

static_assert(modelled<ar::forward_graph>() == forward);
static_assert(modelled<ar::backward_graph>() == backward);
static_assert(modelled<ar::bidirectional_graph>() == (forward | backward));
static_assert(modelled<ar::vertex_list_graph>() == vertex_list);
static_assert(modelled<ar::indexed_graph>() == (vertex_list | indexed));
static_assert(modelled<ar::forward_analysis_graph>() == (forward | vertex_list | indexed));
static_assert(modelled<ar::analysis_graph>() == (forward | backward | vertex_list | indexed));

static_assert(kildall::ForwardAnalysisGraph<ar::forward_analysis_graph>);
static_assert(!kildall::AnalysisGraph<ar::forward_analysis_graph>);
static_assert(kildall::AnalysisGraph<ar::analysis_graph>);
static_assert(kildall::BidirectionalGraph<ar::bidirectional_graph>);
static_assert(!kildall::ForwardAnalysisGraph<ar::bidirectional_graph>);

// The descriptors are opaque: no arithmetic, no default, no order, and edges
// cannot even be compared.
static_assert(!std::integral<ar::vertex> && !std::integral<ar::edge>);
static_assert(!std::default_initializable<ar::vertex> && !std::default_initializable<ar::edge>);
static_assert(!std::convertible_to<ar::vertex, std::size_t> && !std::convertible_to<std::size_t, ar::vertex>);
static_assert(std::equality_comparable<ar::vertex> && !std::totally_ordered<ar::vertex>);
static_assert(!std::equality_comparable<ar::edge>);
static_assert(std::copyable<ar::vertex> && std::copyable<ar::edge>);

// The iterators are single-pass.
static_assert(std::input_iterator<ar::analysis_graph::edge_iterator>);
static_assert(!std::forward_iterator<ar::analysis_graph::edge_iterator>);
static_assert(std::input_iterator<ar::analysis_graph::vertex_iterator>);
static_assert(!std::forward_iterator<ar::analysis_graph::vertex_iterator>);

// A graph is used by reference only.
static_assert(!std::copy_constructible<ar::analysis_graph> && !std::move_constructible<ar::analysis_graph>);
static_assert(!std::is_copy_assignable_v<ar::analysis_graph>);

// graph_traits names the two descriptors and nothing of Boost's traversal machinery.
template <class G>
concept HasTraversalCategory = requires { typename boost::graph_traits<G>::traversal_category; };
static_assert(!HasTraversalCategory<ar::analysis_graph>);

// Algorithms accept exactly the archetypes of the concept they require.
template <class G>
concept CanOrder = requires(const G& g) { kildall::reverse_postorder(g); };
template <class G>
concept CanFindComponents = requires(const G& g) { kildall::strongly_connected_components(g); };
template <class G>
concept CanDominate = requires(const G& g, kildall::vertex_t<G> v) { kildall::dominator_tree(g, v); };
template <class G>
concept CanMap = requires { typename kildall::VertexMap<G, int>; };
static_assert(CanOrder<ar::forward_analysis_graph> && !CanOrder<ar::bidirectional_graph> &&
              !CanOrder<ar::indexed_graph>);
static_assert(CanFindComponents<ar::forward_analysis_graph> && !CanFindComponents<ar::forward_graph>);
static_assert(CanDominate<ar::analysis_graph> && !CanDominate<ar::forward_analysis_graph>);
static_assert(CanMap<ar::indexed_graph> && !CanMap<ar::bidirectional_graph>);

// Collects the (source id, target id) pairs of `g` by following out_edges from every vertex.
template <class G>
EdgeList out_edge_list(const G& g, std::size_t n) {
  EdgeList out;
  for (std::size_t i = 0; i < n; ++i) {
    for (auto e : kildall::out_edge_range(g, g.vertex_at(i))) out.emplace_back(i, target(e, g).id());
  }
  return out;
}

template <class G>
EdgeList in_edge_list(const G& g, std::size_t n) {
  EdgeList in;
  for (std::size_t i = 0; i < n; ++i) {
    for (auto e : kildall::in_edge_range(g, g.vertex_at(i))) in.emplace_back(source(e, g).id(), i);
  }
  return in;
}

EdgeList sorted(EdgeList edges) {
  std::stable_sort(edges.begin(), edges.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return edges;
}
}  // namespace

TEST_CASE("archetypes expose exactly the edges they were built from") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t n = 1 + rng() % 20;
    const EdgeList edges = kildall::test::random_edges(rng, n, rng() % (3 * n));
    // Out-edges come grouped by source, in edge-list order within a source.
    const EdgeList by_source = sorted(edges);
    EdgeList by_target = edges;
    std::stable_sort(by_target.begin(), by_target.end(),
                     [](const auto& a, const auto& b) { return a.second < b.second; });

    ar::forward_graph fg(n, edges);
    CHECK(out_edge_list(fg, n) == by_source);
    ar::backward_graph bg(n, edges);
    CHECK(in_edge_list(bg, n) == by_target);
    ar::analysis_graph ag(n, edges);
    CHECK(out_edge_list(ag, n) == by_source);
    CHECK(in_edge_list(ag, n) == by_target);

    ar::indexed_graph ig(n, edges);
    CHECK(kildall::vertex_count(ig) == n);
    std::size_t expected = 0;
    for (auto v : kildall::vertex_range(ig)) {
      CHECK(kildall::vertex_index(ig, v) == expected);
      CHECK(v == ig.vertex_at(expected));
      ++expected;
    }
    CHECK(expected == n);
  }
}

TEST_CASE("bad edge lists are rejected with the offending edge") {
  CHECK_THROWS_WITH_AS(ar::analysis_graph(3, {{0, 1}, {1, 3}}),
                       doctest::Contains("edge 1 (1 -> 3)"), std::out_of_range);
  const ar::forward_graph g(2, {{0, 1}});
  CHECK_THROWS_AS((void)g.vertex_at(2), std::out_of_range);
}

TEST_CASE("reverse_postorder runs on the minimal archetype and matches adjacency_list") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + rng() % 40;
    const EdgeList edges = kildall::test::random_edges(rng, n, rng() % (3 * n));
    const auto boost_graph = kildall::test::make_boost_graph(n, edges);
    const ar::forward_analysis_graph minimal(n, edges);
    const std::size_t entry = rng() % n;
    CHECK(kildall::test::indices_of(minimal, kildall::reverse_postorder(minimal, minimal.vertex_at(entry))) ==
          kildall::reverse_postorder(boost_graph, entry));
    CHECK(kildall::test::indices_of(minimal, kildall::reverse_postorder(minimal)) ==
          kildall::reverse_postorder(boost_graph));
  }
}
