#include <kildall/graph/reversed.hpp>

#include <kildall/graph/archetypes.hpp>
#include <kildall/graph/reverse_postorder.hpp>
#include <kildall/graph/scc.hpp>

#include <doctest/doctest.h>

#include <boost/graph/reverse_graph.hpp>

#include <random>

#include "test_graphs.hpp"

namespace {
namespace ar = kildall::archetypes;
using kildall::Reversed;
using kildall::test::BoostGraph;
using kildall::test::EdgeList;
using DirectedOnly = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

// The view swaps exactly the two directions and passes the rest through.
static_assert(kildall::AnalysisGraph<Reversed<BoostGraph>>);
static_assert(kildall::AnalysisGraph<Reversed<ar::analysis_graph>>);
static_assert(kildall::AnalysisGraph<Reversed<Reversed<ar::analysis_graph>>>);
static_assert(kildall::BidirectionalGraph<Reversed<ar::bidirectional_graph>>);
static_assert(!kildall::VertexListGraph<Reversed<ar::bidirectional_graph>>);
static_assert(kildall::ForwardGraph<Reversed<ar::backward_graph>>);
static_assert(!kildall::BackwardGraph<Reversed<ar::backward_graph>>);
static_assert(kildall::BackwardGraph<Reversed<ar::forward_graph>>);
static_assert(!kildall::ForwardGraph<Reversed<ar::forward_graph>>);
static_assert(kildall::BackwardGraph<Reversed<ar::forward_analysis_graph>> &&
              kildall::IndexedGraph<Reversed<ar::forward_analysis_graph>> &&
              !kildall::ForwardGraph<Reversed<ar::forward_analysis_graph>>);
static_assert(kildall::BackwardGraph<Reversed<DirectedOnly>> && !kildall::ForwardGraph<Reversed<DirectedOnly>>);
static_assert(std::same_as<kildall::vertex_t<Reversed<ar::analysis_graph>>, ar::vertex>);
static_assert(std::same_as<kildall::edge_t<Reversed<BoostGraph>>, kildall::edge_t<BoostGraph>>);
// A view, not a copy.
static_assert(sizeof(Reversed<BoostGraph>) == sizeof(void*));

EdgeList flipped(const EdgeList& edges) {
  EdgeList out;
  for (auto [a, b] : edges) out.emplace_back(b, a);
  return out;
}

// The (source, target) ids of every out-edge of `g`, in out_edges order.
template <class G>
EdgeList out_edge_list(const G& g) {
  EdgeList out;
  for (auto v : kildall::vertex_range(g)) {
    for (auto e : kildall::out_edge_range(g, v)) {
      CHECK(source(e, g) == v);
      out.emplace_back(kildall::vertex_index(g, v), kildall::vertex_index(g, target(e, g)));
    }
  }
  return out;
}
}  // namespace

TEST_CASE("Reversed flips every edge of an adjacency_list and of the archetype") {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + rng() % 30;
    const EdgeList edges = kildall::test::random_edges(rng, n, rng() % (3 * n));
    // Oracle: a graph built from the flipped edge list, and boost::reverse_graph.
    const BoostGraph flipped_graph = kildall::test::make_boost_graph(n, flipped(edges));
    const BoostGraph g = kildall::test::make_boost_graph(n, edges);
    const Reversed rg(g);
    CHECK(&rg.base() == &g);
    CHECK(kildall::vertex_count(rg) == n);
    CHECK(out_edge_list(rg) == out_edge_list(flipped_graph));
    CHECK(out_edge_list(rg) == out_edge_list(boost::make_reverse_graph(g)));
    // Reversing twice gives back the original adjacency. (`Reversed(rg)` would
    // deduce a copy of `rg`, as class template argument deduction prefers copying.)
    static_assert(std::same_as<decltype(Reversed(rg)), Reversed<BoostGraph>>);
    static_assert(std::same_as<decltype(kildall::reversed(rg)), Reversed<Reversed<BoostGraph>>>);
    CHECK(out_edge_list(kildall::reversed(rg)) == out_edge_list(g));

    const ar::analysis_graph minimal(n, edges);
    const Reversed rm(minimal);
    CHECK(out_edge_list(rm) == out_edge_list(flipped_graph));

    // Algorithms run on the views as on the flipped graph.
    const std::size_t exit = rng() % n;
    CHECK(kildall::reverse_postorder(rg, exit) == kildall::reverse_postorder(flipped_graph, exit));
    CHECK(kildall::test::indices_of(rm, kildall::reverse_postorder(rm, minimal.vertex_at(exit))) ==
          kildall::reverse_postorder(flipped_graph, exit));
    CHECK(kildall::strongly_connected_components(rm).component_ids() ==
          kildall::strongly_connected_components(flipped_graph).component_ids());
  }
}

TEST_CASE("Reversed of a forward-only graph has only in-edges") {
  const EdgeList edges = kildall::test::irreducible_cfg();
  const ar::forward_analysis_graph g(kildall::test::irreducible_vertex_count, edges);
  const Reversed rg(g);
  // In-edges of the view are the out-edges of g, with source/target swapped.
  for (auto v : kildall::vertex_range(rg)) {
    auto g_out = out_edges(v, g);
    for (auto e : kildall::in_edge_range(rg, v)) {
      REQUIRE(g_out.first != g_out.second);
      CHECK(source(e, rg) == target(*g_out.first, g));
      CHECK(kildall::vertex_index(rg, v) == kildall::vertex_index(g, v));
      ++g_out.first;
    }
    CHECK(g_out.first == g_out.second);
  }
}

TEST_CASE("Reversed views a 1M-vertex chain without copying it") {
  const std::size_t n = 1'000'000;
  const ar::analysis_graph chain(n, kildall::test::chain(n, false));
  const Reversed backward(chain);
  const auto order = kildall::reverse_postorder(backward, chain.vertex_at(n - 1));
  REQUIRE(order.size() == n);
  CHECK(order.front().id() == n - 1);
  CHECK(order.back().id() == 0);
  const auto scc = kildall::strongly_connected_components(backward);
  CHECK(scc.count() == n);
  // Reversal turns the reverse topological numbering around: 0 is now the sink.
  CHECK(scc.component_of(0) == 0);
}
