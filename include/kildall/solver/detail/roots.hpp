#pragma once
/// \file
/// Internal: roots given as one vertex or as a range of vertices.

#include <concepts>
#include <vector>

#include <kildall/graph/concepts.hpp>

namespace kildall {

/// Where a solve starts: one vertex of `G`, or an input range of them.
template <class Roots, class G>
concept RootsOf = std::convertible_to<const Roots&, vertex_t<G>> ||
                  detail::RangeOf<const Roots, vertex_t<G>>;

namespace detail {

/// Copies the roots into a vector.
template <class G, class Roots>
  requires RootsOf<Roots, G>
[[nodiscard]] std::vector<vertex_t<G>> collect_roots(const Roots& roots) {
  std::vector<vertex_t<G>> out;
  if constexpr (std::convertible_to<const Roots&, vertex_t<G>>) {
    out.push_back(static_cast<vertex_t<G>>(roots));
  } else {
    for (const auto& r : roots) out.push_back(static_cast<vertex_t<G>>(r));
  }
  return out;
}

/// The first root whose index is out of range, as an index into `roots`, or `roots.size()`.
template <IndexedGraph G>
[[nodiscard]] std::size_t first_invalid_root(const G& g, const std::vector<vertex_t<G>>& roots) {
  const std::size_t n = vertex_count(g);
  for (std::size_t i = 0; i < roots.size(); ++i) {
    if (vertex_index(g, roots[i]) >= n) return i;
  }
  return roots.size();
}

}  // namespace detail
}  // namespace kildall
