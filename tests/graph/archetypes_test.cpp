// Tests of kildall/graph/archetypes.hpp: each archetype models exactly its concept, and the algorithms
// that promise to need only the concepts run on them (oracle: the same algorithm on a Boost adjacency_list).
#include <kildall/graph/archetypes.hpp>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/dominators.hpp>
#include <kildall/graph/reverse_postorder.hpp>
#include <kildall/graph/scc.hpp>
#include <kildall/graph/ssa_program.hpp>
#include <kildall/graph/vertex_map.hpp>
#include <kildall/graph/wto.hpp>
#include <kildall/solver/dense.hpp>
#include <kildall/solver/sparse.hpp>
#include <kildall/solver/verify.hpp>

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

// ---------------------------------------------------------------------------
// The algorithms that promise to need only the concepts run on the archetypes:
// the weak topological order, both solvers (both directions, with a shape whose
// values are opaque handles) and the verifier. Oracle: the same algorithm on a
// Boost.Graph `adjacency_list` built from the same edges.
// ---------------------------------------------------------------------------


namespace {

/// Path length from the roots, saturating at 100: a finite-height lattice (join = max).
struct Depth {
  int value = -1;
  [[nodiscard]] kildall::ChangeResult join(const Depth& o) {
    const int before = value;
    value = std::max(value, o.value);
    return kildall::change_if(before != value);
  }
  [[nodiscard]] bool leq(const Depth& o) const { return value <= o.value; }
  friend bool operator==(const Depth&, const Depth&) = default;
};

/// Dense: a vertex's depth is one more than its deepest reached predecessor's.
template <class G>
struct DenseDepth {
  using lattice_type = Depth;
  [[nodiscard]] Depth boundary(const kildall::vertex_t<G>&) const { return Depth{0}; }
  [[nodiscard]] Depth transfer(const kildall::vertex_t<G>&, const Depth& in) const {
    return Depth{std::min(in.value + 1, 100)};
  }
};

/// Sparse without a CFG: the same over a def-use graph (no operands: depth 0).
template <class G>
struct SparseDepth {
  using lattice_type = Depth;
  static constexpr bool visit_with_uninitialized_operands = true;
  [[nodiscard]] Depth transfer(const kildall::vertex_t<G>&, kildall::OperandStates<Depth> operands) const {
    Depth d{0};
    for (const Depth* s : operands) {
      if (s != nullptr) (void)d.join(Depth{std::min(s->value + 1, 100)});
    }
    return d;
  }
};

/// An opaque SSA value: copyable and comparable, not an integer.
struct OpaqueValue {
  std::size_t id;
  friend bool operator==(const OpaqueValue&, const OpaqueValue&) = default;
};

/// A shape over an archetype CFG: block b has one argument (value 2b) and one
/// result (value 2b+1, computed from the argument); every edge passes the
/// source's result to the target's argument.
template <class Cfg>
struct ArchetypeShape {
  using value_type = OpaqueValue;
  const Cfg* graph;
  std::size_t blocks;
  [[nodiscard]] const Cfg& cfg() const { return *graph; }
  [[nodiscard]] kildall::vertex_t<Cfg> entries() const { return graph->vertex_at(0); }
  [[nodiscard]] std::size_t value_count() const { return 2 * blocks; }
  [[nodiscard]] std::size_t value_index(const OpaqueValue& v) const { return v.id; }
  [[nodiscard]] std::vector<OpaqueValue> block_arguments(const kildall::vertex_t<Cfg>& b) const {
    return {OpaqueValue{2 * b.id()}};
  }
  [[nodiscard]] std::vector<OpaqueValue> block_values(const kildall::vertex_t<Cfg>& b) const {
    return {OpaqueValue{2 * b.id() + 1}};
  }
  [[nodiscard]] std::vector<OpaqueValue> operands(const OpaqueValue& v) const { return {OpaqueValue{v.id - 1}}; }
  [[nodiscard]] std::vector<OpaqueValue> forwarded_operands(const kildall::edge_t<Cfg>& e) const {
    return {OpaqueValue{2 * source(e, *graph).id() + 1}};
  }
};

struct ShapeDepth {
  using lattice_type = Depth;
  [[nodiscard]] Depth boundary(const OpaqueValue&) const { return Depth{0}; }
  [[nodiscard]] Depth transfer(const OpaqueValue&, kildall::OperandStates<Depth> operands) const {
    return Depth{std::min(operands[0].value + 1, 100)};
  }
};

}  // namespace

static_assert(kildall::SsaProgram<ArchetypeShape<ar::analysis_graph>>);

TEST_CASE("the WTO, both solvers and the verifier run on the minimal archetypes and match adjacency_list") {
  using Boost = decltype(kildall::test::make_boost_graph(1, {}));
  std::mt19937 rng(23);
  for (int trial = 0; trial < 150; ++trial) {
    CAPTURE(trial);
    const std::size_t n = 1 + rng() % 30;
    const EdgeList edges = kildall::test::random_edges(rng, n, rng() % (3 * n));
    const auto boost_graph = kildall::test::make_boost_graph(n, edges);
    const ar::forward_analysis_graph forward(n, edges);
    const ar::analysis_graph graph(n, edges);

    // WTO: same order and heads.
    const auto minimal_wto = kildall::weak_topological_order(forward, forward.vertex_at(0));
    const auto boost_wto = kildall::weak_topological_order(boost_graph, std::size_t{0});
    REQUIRE(minimal_wto.size() == boost_wto.size());
    for (std::size_t p = 0; p < boost_wto.size(); ++p) {
      CHECK(minimal_wto.order()[p].id() == boost_wto.order()[p]);
      CHECK(minimal_wto.is_head_at(p) == boost_wto.is_head_at(p));
    }

    // Dense, both directions.
    for (const bool backward : {false, true}) {
      const auto minimal = backward ? kildall::solve_backward(graph, graph.vertex_at(0), DenseDepth<ar::analysis_graph>{})
                                    : kildall::solve_forward(graph, graph.vertex_at(0), DenseDepth<ar::analysis_graph>{});
      const auto reference = backward ? kildall::solve_backward(boost_graph, std::size_t{0}, DenseDepth<Boost>{})
                                      : kildall::solve_forward(boost_graph, std::size_t{0}, DenseDepth<Boost>{});
      REQUIRE(minimal.converged());
      CHECK(kildall::verify_fixpoint(DenseDepth<ar::analysis_graph>{}, minimal).ok());
      for (std::size_t i = 0; i < n; ++i) {
        const Depth* a = minimal.after(graph.vertex_at(i));
        const Depth* b = reference.after(i);
        REQUIRE((a == nullptr) == (b == nullptr));
        if (a != nullptr) CHECK(a->value == b->value);
      }
    }

    // Sparse without a CFG: the archetype as a def-use graph.
    const auto values = kildall::solve_sparse(graph, SparseDepth<ar::analysis_graph>{});
    const auto values_reference = kildall::solve_sparse(boost_graph, SparseDepth<Boost>{});
    REQUIRE(values.converged());
    CHECK(kildall::verify_fixpoint(SparseDepth<ar::analysis_graph>{}, values).ok());
    for (std::size_t i = 0; i < n; ++i) CHECK(values.lookup(graph.vertex_at(i))->value == values_reference.lookup(i)->value);

    // Sparse over a shape whose CFG is the archetype and whose values are opaque: the
    // result of block b is its dense depth + 1 (argument = depth, result = depth + 1).
    const ArchetypeShape<ar::analysis_graph> shape{&graph, n};
    const auto ssa = kildall::solve_sparse(shape, ShapeDepth{});
    REQUIRE(ssa.converged());
    CHECK(kildall::verify_fixpoint(ShapeDepth{}, ssa).ok());
    const auto dense = kildall::solve_forward(boost_graph, std::size_t{0}, DenseDepth<Boost>{});
    for (std::size_t i = 0; i < n; ++i) {
      CHECK(ssa.block_reached(graph.vertex_at(i)) == dense.reached(i));
      const Depth* argument = ssa.lookup(OpaqueValue{2 * i});
      if (!dense.reached(i)) {
        CHECK(argument == nullptr);
        continue;
      }
      REQUIRE(argument != nullptr);
      CHECK(argument->value == dense.before(i)->value);
    }
  }
}
