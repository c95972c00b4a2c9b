#pragma once
/// \file
/// The bridge from Boost.Graph's property vocabulary to kildall's graph
/// concepts: with this header, every graph with Boost's vertex index
/// (`get(boost::vertex_index, g, v)` found by argument-dependent lookup) has
/// its `kildall::vertex_index`. Include it with any Boost.Graph graph whose
/// vertex descriptors are not integers (`adjacency_list` with `listS` vertex
/// storage) or whose index is not its descriptor; `<kildall/graph/concepts.hpp>`
/// includes it by itself when Boost's `properties.hpp` came first.
///
/// Kept apart from the concepts because Boost's graph headers cost about a
/// second of parsing per translation unit, which a compiler's own graph
/// should not pay.

#include <concepts>
#include <cstddef>

#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>

#include <kildall/graph/concepts.hpp>

namespace kildall {

namespace detail {

template <class G>
concept HasBoostVertexIndex = requires(const G& g, vertex_t<G> v) {
  { get(boost::vertex_index, g, v) } -> std::convertible_to<std::size_t>;
};

}  // namespace detail

/// kildall's vertex-index hook answered by Boost's `vertex_index` property.
/// A graph's own `vertex_index_of(kildall::vertex_index_tag, ...)`, when it has one, is
/// the better match and wins.
template <class G>
  requires detail::HasBoostVertexIndex<G>
[[nodiscard]] std::size_t vertex_index_of(vertex_index_tag, const G& g, const vertex_t<G>& v) {
  return static_cast<std::size_t>(get(boost::vertex_index, g, v));
}

}  // namespace kildall
