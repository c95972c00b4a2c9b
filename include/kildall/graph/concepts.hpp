#pragma once
/// \file
/// Graph concepts: what a solver needs of a graph, in Boost.Graph's vocabulary.
///
/// kildall never asks a graph to inherit from anything. A type is a graph when
/// `boost::graph_traits<G>` names its `vertex_descriptor` and
/// `edge_descriptor`, and the Boost.Graph free functions below are found by
/// argument-dependent lookup:
///
///   ForwardGraph    out_edges(v, g) -> pair of iterators over edges, target(e, g)
///   BackwardGraph   in_edges(v, g)  -> pair of iterators over edges, source(e, g)
///   VertexListGraph vertices(g)     -> pair of iterators over vertices, num_vertices(g)
///   IndexedGraph    kildall::vertex_index(g, v) in [0, num_vertices(g))
///
/// Every Boost.Graph graph (`adjacency_list`, `compressed_sparse_row_graph`,
/// `reverse_graph`, ...) models them unchanged; a compiler's own CFG struct
/// models them after a `graph_traits` specialization and four or five free
/// functions (see `examples/custom_graph/`). The concepts ask for less than
/// Boost's own IncidenceGraph/VertexListGraph (no degree functions, no
/// traversal category), so archetypes (`kildall/graph/archetypes.hpp`) can be
/// truly minimal.

#include <concepts>
#include <cstddef>
#include <iterator>
#include <ranges>
#include <type_traits>
#include <utility>

#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>

namespace kildall {

/// The vertex (node) handle type of graph `G`.
template <class G>
using vertex_t = typename boost::graph_traits<G>::vertex_descriptor;

/// The edge handle type of graph `G`.
template <class G>
using edge_t = typename boost::graph_traits<G>::edge_descriptor;

namespace detail {

/// A Boost.Graph-style `std::pair<It, It>` whose iterators yield `Value`.
template <class P, class Value>
concept IteratorPairOf = requires(P p) {
  { *p.first } -> std::convertible_to<Value>;
} && std::input_iterator<decltype(std::declval<P>().first)> &&
    std::sentinel_for<decltype(std::declval<P>().second), decltype(std::declval<P>().first)>;

/// A minimal range over an iterator pair, usable in range-for. (Not
/// `std::ranges::subrange`: clang 14 cannot compile that with libstdc++ 12.)
template <class It, class Sentinel = It>
struct IteratorRange {
  It first;       ///< Start of the range.
  Sentinel last;  ///< End of the range.
  /// Start of the range.
  [[nodiscard]] constexpr It begin() const { return first; }
  /// End of the range.
  [[nodiscard]] constexpr Sentinel end() const { return last; }
  /// Whether the range has no elements.
  [[nodiscard]] constexpr bool empty() const { return first == last; }
};

}  // namespace detail

/// Vertex and edge handles exist and behave as values. Only class types are
/// considered (Boost's primary `graph_traits` template is not SFINAE-friendly).
template <class G>
concept Graph = std::is_class_v<G> && requires {
  typename vertex_t<G>;
  typename edge_t<G>;
} && std::copyable<vertex_t<G>> && std::equality_comparable<vertex_t<G>> && std::copyable<edge_t<G>>;

/// The successors of a vertex can be enumerated: `out_edges(v, g)` and `target(e, g)`.
template <class G>
concept ForwardGraph = Graph<G> && requires(const G& g, vertex_t<G> v, edge_t<G> e) {
  { out_edges(v, g) } -> detail::IteratorPairOf<edge_t<G>>;
  { target(e, g) } -> std::convertible_to<vertex_t<G>>;
};

/// The predecessors of a vertex can be enumerated: `in_edges(v, g)` and `source(e, g)`.
template <class G>
concept BackwardGraph = Graph<G> && requires(const G& g, vertex_t<G> v, edge_t<G> e) {
  { in_edges(v, g) } -> detail::IteratorPairOf<edge_t<G>>;
  { source(e, g) } -> std::convertible_to<vertex_t<G>>;
};

/// Both directions.
template <class G>
concept BidirectionalGraph = ForwardGraph<G> && BackwardGraph<G>;

/// All vertices can be enumerated and counted: `vertices(g)`, `num_vertices(g)`.
template <class G>
concept VertexListGraph = Graph<G> && requires(const G& g) {
  { vertices(g) } -> detail::IteratorPairOf<vertex_t<G>>;
  { num_vertices(g) } -> std::convertible_to<std::size_t>;
};

namespace detail {

template <class G>
concept HasBoostVertexIndex = requires(const G& g, vertex_t<G> v) {
  { get(boost::vertex_index, g, v) } -> std::convertible_to<std::size_t>;
};

/// Customization point behind `kildall::vertex_index`.
struct VertexIndexFn {
  template <class G>
    requires HasBoostVertexIndex<G> || std::integral<vertex_t<G>>
  [[nodiscard]] constexpr std::size_t operator()(const G& g, const vertex_t<G>& v) const {
    if constexpr (HasBoostVertexIndex<G>) {
      return static_cast<std::size_t>(get(boost::vertex_index, g, v));
    } else {
      (void)g;
      return static_cast<std::size_t>(v);
    }
  }
};

}  // namespace detail

/// The dense index of vertex `v` in `[0, num_vertices(g))`, so solvers keep
/// per-vertex state in vectors rather than hash maps. Uses Boost's
/// `get(boost::vertex_index, g, v)` when it is found by ADL (every Boost.Graph
/// graph with an index map; a user graph may define its own); otherwise an
/// integral vertex descriptor is its own index.
inline constexpr detail::VertexIndexFn vertex_index{};

/// Vertices can be enumerated and each has a dense index.
template <class G>
concept IndexedGraph = VertexListGraph<G> && requires(const G& g, vertex_t<G> v) {
  { kildall::vertex_index(g, v) } -> std::same_as<std::size_t>;
};

/// What a forward dataflow solver needs: successors, enumeration, a dense index.
template <class G>
concept ForwardAnalysisGraph = ForwardGraph<G> && IndexedGraph<G>;

/// What a solver that joins over predecessors needs: both directions,
/// enumeration and a dense index.
template <class G>
concept AnalysisGraph = BidirectionalGraph<G> && IndexedGraph<G>;

/// A range over the out-edges of `v` (wraps Boost's iterator pair).
template <ForwardGraph G>
[[nodiscard]] auto out_edge_range(const G& g, const vertex_t<G>& v) {
  auto [first, last] = out_edges(v, g);
  return detail::IteratorRange<decltype(first), decltype(last)>{first, last};
}

/// A range over the in-edges of `v` (wraps Boost's iterator pair).
template <BackwardGraph G>
[[nodiscard]] auto in_edge_range(const G& g, const vertex_t<G>& v) {
  auto [first, last] = in_edges(v, g);
  return detail::IteratorRange<decltype(first), decltype(last)>{first, last};
}

/// A range over all vertices of `g` (wraps Boost's iterator pair).
template <VertexListGraph G>
[[nodiscard]] auto vertex_range(const G& g) {
  auto [first, last] = vertices(g);
  return detail::IteratorRange<decltype(first), decltype(last)>{first, last};
}

/// The number of vertices of `g` as a `std::size_t`.
template <VertexListGraph G>
[[nodiscard]] std::size_t vertex_count(const G& g) {
  return static_cast<std::size_t>(num_vertices(g));
}

}  // namespace kildall
