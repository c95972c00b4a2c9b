#pragma once
/// \file
/// Strongly connected components by Tarjan's algorithm (R. E. Tarjan,
/// "Depth-first search and linear graph algorithms", SIAM J. Comput. 1(2),
/// 1972), run with an explicit stack so that graph depth never becomes
/// call-stack depth (a million-vertex chain or cycle is fine). Linear time:
/// every out-edge is visited once.
///
/// Components come out in **reverse topological order** of the condensation
/// (the graph of components): component 0 is a sink, and for every edge
/// u -> v between different components, `component_of(u) > component_of(v)`.
/// Iterating components from the last id to 0 is therefore a topological order.
///
/// Why not `boost::strong_components`: Boost's version (the same algorithm,
/// as a DFS visitor) needs Boost's full IncidenceGraph and VertexListGraph
/// (`graph_traits<G>::traversal_category`, `out_edge_iterator`,
/// `vertices_size_type`, a colour map), read-write property maps for the
/// component, root and discover-time, and default-constructible vertex
/// descriptors. kildall's concepts promise none of these (see
/// `kildall/graph/archetypes.hpp`), so a user CFG adapted with four free
/// functions could not call it. The implementation here asks only for
/// `ForwardAnalysisGraph`; the tests check it against `boost::strong_components`.

#include <algorithm>
#include <cstddef>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>

namespace kildall {

namespace detail {
struct SccBuilder;
}  // namespace detail

/// The strongly connected components of a graph, as computed by
/// `strongly_connected_components`. Vertices are referred to by their
/// `kildall::vertex_index`; component ids are `0 .. count()-1` in reverse
/// topological order (see the file comment).
template <class Vertex>
class StronglyConnectedComponents {
 public:
  /// The number of components.
  [[nodiscard]] std::size_t count() const noexcept { return offsets_.size() - 1; }

  /// The component of the vertex whose `vertex_index` is `index`.
  [[nodiscard]] std::size_t component_of(std::size_t index) const { return component_of_.at(index); }

  /// The component id of every vertex, indexed by `vertex_index`.
  [[nodiscard]] const std::vector<std::size_t>& component_ids() const noexcept { return component_of_; }

  /// The vertices of component `component`. The first is the vertex through
  /// which the depth-first search entered the component (for a reducible CFG
  /// searched from its entry, the loop header); the order of the rest is
  /// unspecified.
  [[nodiscard]] std::span<const Vertex> members(std::size_t component) const {
    const std::size_t first = offsets_.at(component);
    return std::span<const Vertex>(members_).subspan(first, offsets_.at(component + 1) - first);
  }

  /// True when component `component` contains a cycle: it has more than one
  /// vertex, or its single vertex has a self-loop.
  [[nodiscard]] bool is_cyclic(std::size_t component) const { return cyclic_.at(component); }

  /// True when the vertex whose `vertex_index` is `index` lies on a cycle
  /// (its component is cyclic).
  [[nodiscard]] bool in_cycle(std::size_t index) const { return is_cyclic(component_of(index)); }

 private:
  friend struct detail::SccBuilder;
  StronglyConnectedComponents() = default;

  std::vector<std::size_t> component_of_;  // by vertex index
  std::vector<Vertex> members_;            // grouped by component id
  std::vector<std::size_t> offsets_{0};    // members_[offsets_[c] .. offsets_[c+1])
  std::vector<bool> cyclic_;               // by component id
};

namespace detail {

/// `vertex_index(g, v)`, checked against the vertex count so that a broken
/// adapter gets an exception naming the offending index instead of a crash.
template <class G>
[[nodiscard]] std::size_t checked_vertex_index(const G& g, const vertex_t<G>& v, std::size_t count,
                                               const char* algorithm) {
  const std::size_t index = vertex_index(g, v);
  if (index >= count) {
    throw std::out_of_range(std::string(algorithm) + ": vertex_index " + std::to_string(index) +
                            " is not below num_vertices " + std::to_string(count));
  }
  return index;
}

/// The algorithm behind `strongly_connected_components` (a friend of the result).
struct SccBuilder {
  template <class G, class Roots>
  [[nodiscard]] static StronglyConnectedComponents<vertex_t<G>> run(const G& g, const Roots& roots) {
    using Vertex = vertex_t<G>;
    using EdgeIt = decltype(out_edges(std::declval<Vertex>(), g).first);
    constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
    constexpr const char* name = "kildall::strongly_connected_components";

    struct Frame {
      Vertex vertex;
      std::size_t index;
      EdgeIt next;
      EdgeIt last;
    };

    const std::size_t n = vertex_count(g);
    StronglyConnectedComponents<Vertex> result;
    result.component_of_.assign(n, none);
    result.members_.reserve(n);

    std::vector<std::size_t> preorder(n, none);  // discovery number; none = unvisited
    std::vector<std::size_t> low(n, 0);          // smallest preorder reachable while on the stack
    std::vector<bool> self_loop(n, false);
    std::vector<Vertex> open;  // Tarjan's stack: visited vertices whose component is not yet known
    std::vector<std::size_t> open_index;
    std::vector<Frame> frames;  // the depth-first search path
    std::size_t counter = 0;

    auto discover = [&](const Vertex& v, std::size_t vi) {
      preorder[vi] = low[vi] = counter++;
      open.push_back(v);
      open_index.push_back(vi);
      auto [first, last] = out_edges(v, g);
      frames.push_back(Frame{v, vi, first, last});
    };

    auto search_from = [&](const Vertex& root) {
      const std::size_t ri = checked_vertex_index(g, root, n, name);
      if (preorder[ri] != none) return;
      discover(root, ri);
      while (!frames.empty()) {
        Frame& top = frames.back();
        if (top.next != top.last) {
          const Vertex succ = target(*top.next, g);
          ++top.next;
          const std::size_t si = checked_vertex_index(g, succ, n, name);
          if (si == top.index) self_loop[si] = true;
          if (preorder[si] == none) {
            discover(succ, si);  // invalidates `top`
          } else if (result.component_of_[si] == none) {
            // `succ` is still open, hence on the current path's strongly connected part.
            low[top.index] = std::min(low[top.index], preorder[si]);
          }
          continue;
        }
        const std::size_t vi = top.index;
        frames.pop_back();
        if (!frames.empty()) low[frames.back().index] = std::min(low[frames.back().index], low[vi]);
        if (low[vi] != preorder[vi]) continue;
        // `vi` is the root of a component: everything above it on `open` belongs to it.
        const std::size_t id = result.offsets_.size() - 1;
        auto first = open_index.end();
        do {
          --first;
          result.component_of_[*first] = id;
        } while (*first != vi);
        const auto size = static_cast<std::size_t>(open_index.end() - first);
        const auto first_open = open.end() - static_cast<std::ptrdiff_t>(size);
        // Root first, then the others in discovery order.
        for (auto it = first_open; it != open.end(); ++it) result.members_.push_back(*it);
        result.offsets_.push_back(result.members_.size());
        result.cyclic_.push_back(size > 1 || self_loop[vi]);
        open.erase(first_open, open.end());
        open_index.erase(first, open_index.end());
      }
    };

    for (const Vertex& root : roots) search_from(root);
    for (const Vertex& v : vertex_range(g)) search_from(v);
    return result;
  }
};

}  // namespace detail

/// The strongly connected components of `g` (all vertices). The depth-first
/// search starts from each vertex in `vertices(g)` order.
template <ForwardAnalysisGraph G>
[[nodiscard]] StronglyConnectedComponents<vertex_t<G>> strongly_connected_components(const G& g) {
  const std::vector<vertex_t<G>> no_roots;
  return detail::SccBuilder::run(g, no_roots);
}

/// The strongly connected components of `g` (all vertices), with the
/// depth-first search started from `roots` first (e.g. a CFG's entry, so
/// that each loop's first member is its header), then from every other
/// vertex in `vertices(g)` order. The partition does not depend on `roots`;
/// ids may (among components that no edge orders).
template <class G, class Roots>
  requires ForwardAnalysisGraph<G> && detail::RangeOf<const Roots, vertex_t<G>>
[[nodiscard]] StronglyConnectedComponents<vertex_t<G>> strongly_connected_components(const G& g,
                                                                                     const Roots& roots) {
  return detail::SccBuilder::run(g, roots);
}

/// True when `v` has an edge to itself.
template <ForwardGraph G>
[[nodiscard]] bool has_self_loop(const G& g, const vertex_t<G>& v) {
  auto [first, last] = out_edges(v, g);
  for (; first != last; ++first) {
    if (target(*first, g) == v) return true;
  }
  return false;
}

}  // namespace kildall
