#pragma once
/// \file
/// Depth-first orders: reverse post-order (RPO) of the vertices reachable
/// from given roots. In RPO every vertex comes before its successors except
/// along back edges, which is the classic iteration order for forward
/// dataflow problems (Kildall 1973; Cooper, Harvey & Kennedy 2001 use it for
/// dominators). The search is iterative: graph depth never becomes call-stack
/// depth, so million-vertex chains are fine.

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>

namespace kildall {

/// Post-order of the vertices reachable from `roots` (each root explored in
/// turn, skipping already visited vertices). Successors are explored in
/// `out_edges` order.
template <class G, class Roots>
  requires ForwardAnalysisGraph<G> && detail::InputRange<const Roots>
[[nodiscard]] std::vector<vertex_t<G>> postorder(const G& g, const Roots& roots) {
  using Vertex = vertex_t<G>;
  using EdgeIt = decltype(out_edges(std::declval<Vertex>(), g).first);
  struct Frame {
    Vertex vertex;
    EdgeIt next;
    EdgeIt last;
  };
  std::vector<Vertex> order;
  std::vector<bool> visited(vertex_count(g), false);
  std::vector<Frame> stack;
  auto push = [&](const Vertex& v) {
    visited[vertex_index(g, v)] = true;
    auto [first, last] = out_edges(v, g);
    stack.push_back(Frame{v, first, last});
  };
  for (const Vertex& root : roots) {
    if (visited[vertex_index(g, root)]) continue;
    push(root);
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next != top.last) {
        Vertex succ = target(*top.next, g);
        ++top.next;
        if (!visited[vertex_index(g, succ)]) push(succ);  // may invalidate `top`
      } else {
        order.push_back(top.vertex);
        stack.pop_back();
      }
    }
  }
  return order;
}

/// Reverse post-order of the vertices reachable from `roots`.
template <class G, class Roots>
  requires ForwardAnalysisGraph<G> && detail::InputRange<const Roots>
[[nodiscard]] std::vector<vertex_t<G>> reverse_postorder(const G& g, const Roots& roots) {
  auto order = postorder(g, roots);
  std::reverse(order.begin(), order.end());
  return order;
}

/// Reverse post-order of the vertices reachable from `entry`.
template <ForwardAnalysisGraph G>
[[nodiscard]] std::vector<vertex_t<G>> reverse_postorder(const G& g, const vertex_t<G>& entry) {
  const vertex_t<G> roots[] = {entry};
  return reverse_postorder(g, roots);
}

/// Reverse post-order of every vertex: roots are tried in `vertices(g)`
/// order, so unreachable parts of the graph are ordered too.
template <ForwardAnalysisGraph G>
[[nodiscard]] std::vector<vertex_t<G>> reverse_postorder(const G& g) {
  return reverse_postorder(g, vertex_range(g));
}

/// The position of each vertex (by `vertex_index`) in `order`; vertices not in
/// `order` get `std::nullopt`.
template <ForwardAnalysisGraph G>
[[nodiscard]] std::vector<std::optional<std::size_t>> order_positions(const G& g,
                                                                     const std::vector<vertex_t<G>>& order) {
  std::vector<std::optional<std::size_t>> position(vertex_count(g));
  for (std::size_t i = 0; i < order.size(); ++i) position[vertex_index(g, order[i])] = i;
  return position;
}

}  // namespace kildall
