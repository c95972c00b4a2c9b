#pragma once
/// \file
/// Graph concepts: what a solver needs of a graph, in Boost.Graph's vocabulary.
///
/// kildall never asks a graph to inherit from anything. A type is a graph when
/// it names its `vertex_descriptor` and `edge_descriptor` (as member types,
/// or through a `boost::graph_traits` specialization), and the Boost.Graph
/// free functions below are found by argument-dependent lookup:
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
///
/// This header includes no Boost header: parsing Boost's graph vocabulary
/// costs about a second per translation unit. `boost::graph_traits` is only
/// declared here, so a user graph can specialize it without Boost installed.
/// Graphs whose dense index comes from Boost's `vertex_index` property
/// (`get(boost::vertex_index, g, v)`, e.g. an `adjacency_list` with `listS`
/// vertex storage) need `<kildall/graph/boost.hpp>`, which this header
/// includes by itself when Boost's `properties.hpp` was included before it.

#include <concepts>
#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

namespace boost {
/// Boost.Graph's traits class, declared (not defined) so that graphs can
/// specialize it without including Boost; `<boost/graph/graph_traits.hpp>`
/// defines the primary template later, and the two declarations agree.
template <typename G>
struct graph_traits;
}  // namespace boost

namespace kildall {

namespace detail {

template <class G>
concept HasMemberDescriptors = requires {
  typename G::vertex_descriptor;
  typename G::edge_descriptor;
};

template <class G>
concept HasTraitsDescriptors = requires {
  typename boost::graph_traits<G>::vertex_descriptor;
  typename boost::graph_traits<G>::edge_descriptor;
};

/// The descriptor types of `G`: its member types when it has them (every
/// Boost.Graph graph, where they agree with `boost::graph_traits`), otherwise
/// its `boost::graph_traits` specialization. Member types are asked first so
/// that Boost's primary `graph_traits` (not SFINAE-friendly) is never
/// instantiated for a graph that does not need it. Not a graph: no members.
template <class G>
struct graph_types {};

template <class G>
  requires HasMemberDescriptors<G>
struct graph_types<G> {
  using vertex = typename G::vertex_descriptor;  ///< the vertex handle
  using edge = typename G::edge_descriptor;      ///< the edge handle
};

template <class G>
  requires(!HasMemberDescriptors<G> && HasTraitsDescriptors<G>)
struct graph_types<G> {
  using vertex = typename boost::graph_traits<G>::vertex_descriptor;  ///< the vertex handle
  using edge = typename boost::graph_traits<G>::edge_descriptor;      ///< the edge handle
};

}  // namespace detail

/// The vertex (node) handle type of graph `G`.
template <class G>
using vertex_t = typename detail::graph_types<G>::vertex;

/// The edge handle type of graph `G`.
template <class G>
using edge_t = typename detail::graph_types<G>::edge;

namespace detail {

/// A Boost.Graph-style `std::pair<It, It>` whose iterators yield `Value`.
template <class P, class Value>
concept IteratorPairOf = requires(P p) {
  { *p.first } -> std::convertible_to<Value>;
} && std::input_iterator<decltype(std::declval<P>().first)> &&
    std::sentinel_for<decltype(std::declval<P>().second), decltype(std::declval<P>().first)>;

/// The iterator `std::ranges::begin` gives for an `R&`.
template <class R>
using range_iterator_t = decltype(std::ranges::begin(std::declval<R&>()));

/// `std::ranges::input_range`, spelled with what `<iterator>` provides: the
/// core does not include `<ranges>`, whose views cost every translation unit
/// about a fifth of a second of parsing.
template <class R>
concept InputRange = requires(R& r) {
  std::ranges::begin(r);
  std::ranges::end(r);
} && std::input_iterator<range_iterator_t<R>> &&
    std::sentinel_for<decltype(std::ranges::end(std::declval<R&>())), range_iterator_t<R>>;

/// An input range whose elements convert to `V`.
template <class R, class V>
concept RangeOf = InputRange<R> && std::convertible_to<std::iter_reference_t<range_iterator_t<R>>, V>;

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

/// The key of kildall's own vertex-index hook. A graph whose vertex
/// descriptors are not their own dense index gives one with a free function
/// found by argument-dependent lookup,
/// `std::size_t vertex_index_of(kildall::vertex_index_tag, const G& g, vertex_t<G> v)`:
/// Boost.Graph's `get(vertex_index, g, v)` under a name of kildall's own, so
/// that no Boost header is needed (Boost's `get` templates accept any key
/// and fail hard on a foreign one). `<kildall/graph/boost.hpp>` answers this
/// hook with Boost's property for every graph that has one.
struct vertex_index_tag {};

namespace detail {

template <class G>
concept HasVertexIndexHook = requires(const G& g, vertex_t<G> v) {
  { vertex_index_of(vertex_index_tag{}, g, v) } -> std::convertible_to<std::size_t>;
};

/// Customization point behind `kildall::vertex_index`.
struct VertexIndexFn {
  template <class G>
    requires HasVertexIndexHook<G> || std::integral<vertex_t<G>>
  [[nodiscard]] constexpr std::size_t operator()(const G& g, const vertex_t<G>& v) const {
    if constexpr (HasVertexIndexHook<G>) {
      return static_cast<std::size_t>(vertex_index_of(vertex_index_tag{}, g, v));
    } else {
      (void)g;
      return static_cast<std::size_t>(v);
    }
  }
};

}  // namespace detail

/// The dense index of vertex `v` in `[0, num_vertices(g))`, so solvers keep
/// per-vertex state in vectors rather than hash maps. Uses the graph's
/// `vertex_index_of(kildall::vertex_index_tag, g, v)` when argument-dependent
/// lookup finds one (with `<kildall/graph/boost.hpp>`, Boost's
/// `get(boost::vertex_index, g, v)` for every Boost.Graph graph with an index
/// map); otherwise an integral vertex descriptor is its own index.
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

// Boost's property vocabulary is already here: bridge it (see the file comment).
#if defined(BOOST_GRAPH_PROPERTIES_HPP)
#include <kildall/graph/boost.hpp>
#endif
