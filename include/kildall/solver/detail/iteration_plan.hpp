#pragma once
/// \file
/// Internal: the iteration plan of a solve (order, positions, widening points).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/wto.hpp>
#include <kildall/support/large_array_allocator.hpp>
#include <kildall/solver/options.hpp>

namespace kildall::detail {

/// "Not in the plan" (unreachable from the roots).
inline constexpr std::uint32_t no_position = std::numeric_limits<std::uint32_t>::max();

/// A component of the weak topological order: its head's position and the
/// end of its positions (the component is `[head, end)`).
struct PlanComponent {
  std::uint32_t head;  ///< Position of the head.
  std::uint32_t end;   ///< One past the component's last position.
};

/// The order nodes are prioritized in, each node's position in it, which
/// positions are widening points and, for the weak topological order, the
/// components (sorted by head) whose entries the widening delay counts.
///
/// An *identity* plan (integral vertices only) orders the vertices by their
/// own index and stores neither array: `order`, `position` and
/// `widening_point` stay empty and the accessors answer for them.
template <class Vertex>
struct IterationPlan {
  LargeArray<Vertex> order;                // by position (empty in an identity plan)
  LargeArray<std::uint32_t> position;      // by vertex index; no_position when unordered
  FlagArray widening_point;            // by position (empty: none)
  std::vector<PlanComponent> components;  // WTO only: one per head, by head position
  LargeArray<std::uint32_t> head_component;  // WTO only, by position: the index in `components` of
                                             // the component a head heads (no_position elsewhere)
  std::size_t identity_count = 0;         // an identity plan's number of vertices
  bool identity = false;                  // position == vertex index for every vertex

  /// Number of positions.
  [[nodiscard]] std::size_t size() const noexcept { return identity ? identity_count : order.size(); }
  /// The vertex at position `pos`.
  [[nodiscard]] Vertex vertex_at(std::size_t pos) const {
    if constexpr (std::is_integral_v<Vertex>) {
      if (identity) return static_cast<Vertex>(pos);
    }
    return order[pos];
  }
  /// The position of the vertex with index `index` (`no_position` when unordered).
  [[nodiscard]] std::uint32_t position_of(std::size_t index) const {
    return identity ? static_cast<std::uint32_t>(index) : position[index];
  }
  [[nodiscard]] std::size_t bytes() const noexcept {
    return order.capacity() * sizeof(Vertex) + position.capacity() * sizeof(std::uint32_t) +
           widening_point.capacity() + components.capacity() * sizeof(PlanComponent) +
           head_component.capacity() * sizeof(std::uint32_t);
  }
};

/// The plan of `count` vertices numbered `0 .. count - 1` in their own order,
/// without widening points: for a solve that never widens, where the order
/// changes how many visits it takes but not its result, and the vertex
/// numbering (a program's values in program order) is a good order already.
template <class Vertex>
  requires std::is_integral_v<Vertex>
[[nodiscard]] IterationPlan<Vertex> identity_plan(std::size_t count) {
  IterationPlan<Vertex> plan;
  plan.identity = true;
  plan.identity_count = count;
  return plan;
}

/// Builds the plan of `g` from `roots` in the requested order. Widening points
/// are WTO heads, or targets of back edges of the depth-first search (the
/// edges that do not go forward in reverse post-order).
template <ForwardAnalysisGraph G, class Roots>
  requires detail::InputRange<const Roots>
[[nodiscard]] IterationPlan<vertex_t<G>> make_iteration_plan(const G& g, const Roots& roots, IterationOrder how) {
  IterationPlan<vertex_t<G>> plan;
  const std::size_t n = vertex_count(g);
  if (how == IterationOrder::weak_topological_order) {
    // Laid out straight from Bourdoncle's sequence (no `WeakTopologicalOrder`
    // in between: the plan needs neither its parents nor a second copy).
    auto seq = WtoBuilder::sequence(g, roots);
    const std::size_t m = seq.reversed.size();
    plan.order.assign(seq.reversed.rbegin(), seq.reversed.rend());
    plan.position.assign(n, no_position);
    for (std::size_t p = 0; p < m; ++p) plan.position[vertex_index(g, plan.order[p])] = static_cast<std::uint32_t>(p);
    plan.widening_point.assign(m, false);
    plan.components.resize(seq.components.size());
    if (!seq.components.empty()) plan.head_component.assign(m, no_position);
    // Components come innermost-first by decreasing head position: reversed, they are by head.
    for (std::size_t i = 0; i < seq.components.size(); ++i) {
      const auto& c = seq.components[seq.components.size() - 1 - i];
      const auto head = static_cast<std::uint32_t>(m - 1 - c.head_index);
      plan.widening_point[head] = true;
      plan.components[i] = PlanComponent{head, static_cast<std::uint32_t>(m - c.start)};
      plan.head_component[head] = static_cast<std::uint32_t>(i);
    }
    return plan;
  }
  // Reverse post-order by one iterative depth-first search. `position` holds
  // the post-order number while searching (`on_stack` marks vertices whose
  // search is open); an edge to a vertex on the stack is a back edge, whose
  // target is a widening point. Back edges are exactly the edges that do not
  // go forward in reverse post-order.
  using Vertex = vertex_t<G>;
  using EdgeIt = decltype(out_edges(std::declval<Vertex>(), g).first);
  struct Frame {
    Vertex vertex;
    EdgeIt next;
    EdgeIt last;
  };
  constexpr std::uint32_t on_stack = no_position - 1;
  plan.position.assign(n, no_position);
  std::vector<bool> head(n, false);
  std::vector<Frame> stack;
  std::uint32_t counter = 0;
  plan.order.reserve(n);
  for (const auto& root_ref : roots) {
    const Vertex root = root_ref;
    const std::size_t ri = vertex_index(g, root);
    if (plan.position[ri] != no_position) continue;
    plan.position[ri] = on_stack;
    {
      auto [first, last] = out_edges(root, g);
      stack.push_back(Frame{root, first, last});
    }
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next != top.last) {
        const Vertex w = target(*top.next, g);
        ++top.next;
        const std::size_t wi = vertex_index(g, w);
        const std::uint32_t pw = plan.position[wi];
        if (pw == no_position) {
          plan.position[wi] = on_stack;
          auto [first, last] = out_edges(w, g);
          stack.push_back(Frame{w, first, last});  // invalidates `top`
        } else if (pw == on_stack) {
          head[wi] = true;
        }
      } else {
        plan.position[vertex_index(g, top.vertex)] = counter++;
        plan.order.push_back(top.vertex);
        stack.pop_back();
      }
    }
  }
  std::reverse(plan.order.begin(), plan.order.end());
  plan.order.shrink_to_fit();
  const std::uint32_t m = counter;
  plan.widening_point.assign(m, false);
  for (std::uint32_t p = 0; p < m; ++p) {
    const std::size_t vi = vertex_index(g, plan.order[p]);
    plan.position[vi] = p;
    if (head[vi]) plan.widening_point[p] = true;
  }
  return plan;
}

/// The plan of every vertex of `g`, all of them roots. When every edge goes
/// forward in the graph's vertex order (values numbered in program order, no
/// cycles), that order is a topological order without widening points, as
/// both orders would be, and is taken as is (the identity plan when vertices
/// are listed by their own indices). Otherwise the order `how`, the roots tried
/// from the last vertex to the first, which makes it exactly the vertex order wherever
/// that order is already topological, so visits, traces and debug logs
/// follow the program.
template <ForwardAnalysisGraph G>
[[nodiscard]] IterationPlan<vertex_t<G>> plan_of_every_vertex(const G& g, IterationOrder how) {
  using Vertex = vertex_t<G>;
  // Vertices listed in the order of their own indices (an index graph, as the sparse solver's
  // dependents are) have their indices as positions: nothing is laid out to check the edges,
  // and a forward graph gets the identity plan (no arrays at all).
  bool index_order = std::is_integral_v<Vertex>;
  std::size_t count = 0;
  if (index_order) {
    for (const auto& v : vertex_range(g)) index_order = index_order && vertex_index(g, v) == count++;
  }
  IterationPlan<Vertex> plan;
  if (!index_order) {
    plan.position.assign(vertex_count(g), no_position);
    plan.order.reserve(vertex_count(g));
    for (const auto& v : vertex_range(g)) {
      plan.position[vertex_index(g, v)] = static_cast<std::uint32_t>(plan.order.size());
      plan.order.push_back(v);
    }
  }
  const auto position_of = [&](const Vertex& v) -> std::size_t {
    return index_order ? vertex_index(g, v) : plan.position[vertex_index(g, v)];
  };
  for (const auto& v : vertex_range(g)) {
    for (const auto& e : out_edge_range(g, v)) {
      if (position_of(target(e, g)) > position_of(v)) continue;
      // A backward edge: the order `how` from the roots, the last vertex first.
      if constexpr (std::is_integral_v<Vertex>) {
        if (index_order) {
          std::vector<Vertex> roots(count);
          std::iota(roots.rbegin(), roots.rend(), Vertex{0});
          return make_iteration_plan(g, roots, how);
        }
      }
      return make_iteration_plan(g, std::vector<Vertex>(plan.order.rbegin(), plan.order.rend()), how);
    }
  }
  if constexpr (std::is_integral_v<Vertex>) {
    if (index_order) return identity_plan<Vertex>(count);
  }
  plan.widening_point.assign(plan.order.size(), false);
  return plan;
}

}  // namespace kildall::detail
