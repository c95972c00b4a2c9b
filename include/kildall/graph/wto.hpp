#pragma once
/// \file
/// Weak topological order (WTO), after F. Bourdoncle, "Efficient chaotic
/// iteration strategies with widenings", FMPA 1993.
///
/// A WTO is a hierarchical ordering of the vertices reachable from the roots:
/// a well-parenthesized linear order such as `1 2 (3 4 (5 6) 7) 8` where each
/// parenthesized component starts with its *head*, every edge u -> v with v
/// not after u ("feedback edge") goes to the head of a component containing
/// u, and the heads therefore cut every cycle, reducible or irreducible. Heads
/// are where a solver widens; iterating each component until its head is
/// stable is the "recursive iteration strategy".
///
/// The construction is Bourdoncle's depth-first algorithm (hierarchical
/// decomposition by strongly connected components), rewritten with an explicit
/// stack of frames: graph depth never becomes call-stack depth, so
/// million-vertex chains and deeply nested loops are fine. Cost is
/// O(depth * E), where depth is the loop-nesting depth.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/support/large_array_allocator.hpp>

namespace kildall {

namespace detail {
struct WtoBuilder;
}  // namespace detail

/// A weak topological order of the vertices of a graph `G` reachable from
/// some roots. Positions are indices into `order()`.
template <ForwardAnalysisGraph G>
class WeakTopologicalOrder {
 public:
  /// The graph's vertex handle.
  using vertex_type = vertex_t<G>;
  /// Marks "no position" / "no head".
  static constexpr std::uint32_t npos = std::numeric_limits<std::uint32_t>::max();

  /// The linear order: components are contiguous and start with their head.
  [[nodiscard]] const std::vector<vertex_type>& order() const noexcept { return order_; }

  /// Number of ordered (reachable) vertices.
  [[nodiscard]] std::size_t size() const noexcept { return order_.size(); }

  /// Position of `v` in `order()`, or nullopt when `v` is not reachable from the roots.
  [[nodiscard]] std::optional<std::size_t> position(const G& g, const vertex_type& v) const {
    const std::uint32_t p = position_[vertex_index(g, v)];
    if (p == npos) return std::nullopt;
    return p;
  }

  /// Whether the vertex at `position` heads a component.
  [[nodiscard]] bool is_head_at(std::size_t position) const { return component_end_[position] != position + 1 || self_head_[position]; }

  /// Whether `v` is reachable and heads a component (its widening point).
  [[nodiscard]] bool is_head(const G& g, const vertex_type& v) const {
    const auto p = position(g, v);
    return p && is_head_at(*p);
  }

  /// One past the last position of the component headed at `position`;
  /// `position + 1` for a vertex that is not a head.
  [[nodiscard]] std::size_t component_end(std::size_t position) const { return component_end_[position]; }

  /// Position of the head of the innermost component that strictly contains
  /// the vertex at `position` (for a head: the component around its own), or
  /// nullopt at the top level.
  [[nodiscard]] std::optional<std::size_t> enclosing_head(std::size_t position) const {
    const std::uint32_t h = parent_[position];
    if (h == npos) return std::nullopt;
    return h;
  }

  /// Number of components containing the vertex at `position` (a head is
  /// inside its own component).
  [[nodiscard]] std::size_t depth(std::size_t position) const {
    std::size_t d = is_head_at(position) ? 1 : 0;
    for (auto h = enclosing_head(position); h; h = enclosing_head(*h)) ++d;
    return d;
  }

  /// Bourdoncle's notation, e.g. `1 2 (3 4 (5 6) 7) 8`, naming each vertex
  /// with `name(v)` (anything convertible to `std::string`).
  template <class Name>
  [[nodiscard]] std::string to_string(Name&& name) const {
    std::string out;
    std::vector<std::size_t> open_ends;
    for (std::size_t p = 0; p < order_.size(); ++p) {
      if (!out.empty()) out += ' ';
      if (is_head_at(p)) {
        out += '(';
        open_ends.push_back(component_end_[p]);
      }
      out += std::string(name(order_[p]));
      while (!open_ends.empty() && open_ends.back() == p + 1) {
        out += ')';
        open_ends.pop_back();
      }
    }
    return out;
  }

  /// Bytes held by the order (for solver memory accounting).
  [[nodiscard]] std::size_t bytes() const noexcept {
    return order_.capacity() * sizeof(vertex_type) +
           (position_.capacity() + component_end_.capacity() + parent_.capacity()) * sizeof(std::uint32_t) +
           self_head_.capacity() / 8;
  }

 private:
  friend struct detail::WtoBuilder;  // weak_topological_order() fills the arrays

  std::vector<vertex_type> order_;
  std::vector<std::uint32_t> position_;       // by vertex index
  std::vector<std::uint32_t> component_end_;  // by position
  std::vector<std::uint32_t> parent_;         // by position: innermost strictly enclosing head
  std::vector<bool> self_head_;               // by position: a head whose component is just itself
};

namespace detail {

/// What Bourdoncle's construction produces, before it is laid out: the
/// vertices in *reverse* order, and each component's head and first member
/// as indices into that reversed sequence, innermost-first (by increasing
/// head index, so by decreasing head position).
template <class Vertex>
struct WtoSequence {
  /// A component: its head is `reversed[head_index]`, its members are
  /// `reversed[start .. head_index]`.
  struct Component {
    std::size_t head_index;  ///< Index in `reversed` of the head (the last of its members appended).
    std::size_t start;       ///< First index in `reversed` of the component.
  };
  LargeArray<Vertex> reversed;           ///< The order, last vertex first.
  std::vector<Component> components;     ///< By increasing `head_index`.
};

/// Builds weak topological orders (a friend of `WeakTopologicalOrder`; a class
/// rather than a friend function template, which not every compiler matches
/// to its constrained definition).
struct WtoBuilder {
  /// Bourdoncle's depth-first construction from `roots`: the sequence that
  /// `build` lays out (the solvers' iteration plans read it directly).
  template <class G, class Roots>
  [[nodiscard]] static WtoSequence<vertex_t<G>> sequence(const G& g, const Roots& roots) {
    using Vertex = vertex_t<G>;
    using EdgeIt = decltype(out_edges(std::declval<Vertex>(), g).first);
    using Component = typename WtoSequence<Vertex>::Component;
    constexpr std::uint32_t done = std::numeric_limits<std::uint32_t>::max();

    struct Frame {  // 32-bit head and part start: 48 bytes over a CSR graph, not 56 (the stack can be n deep)
      Vertex vertex;
      std::uint32_t head;
      EdgeIt next;
      EdgeIt last;
      std::uint32_t part_start;
      bool loop;
      bool in_component;  // second phase: building the component of `vertex`
    };

    const std::size_t n = vertex_count(g);
    // Per-vertex arrays and the two stacks (as deep as the graph, on a long chain) on the
    // huge-page allocator, the stacks reserved once: address space, not memory, until used.
    LargeArray<std::uint32_t> dfn(n, 0);  // 0: unvisited, done: finished (n < 2^32 - 1: vertex indices are 32-bit)
    std::uint32_t counter = 0;
    LargeArray<Vertex> dfs_stack;
    LargeArray<Frame> frames;
    dfs_stack.reserve(n);
    frames.reserve(n);
    WtoSequence<Vertex> out;
    LargeArray<Vertex>& appended = out.reversed;  // reverse of the final order
    std::vector<Component>& components = out.components;
    appended.reserve(n);

    auto start_visit = [&](const Vertex& v) {
      dfs_stack.push_back(v);
      dfn[vertex_index(g, v)] = ++counter;
      auto [first, last] = out_edges(v, g);
      frames.push_back(Frame{v, counter, first, last, 0, false, false});
    };
    auto finish_frame = [&](std::uint32_t returned) {
      frames.pop_back();
      if (!frames.empty() && !frames.back().in_component && returned <= frames.back().head) {
        frames.back().head = returned;
        frames.back().loop = true;
      }
    };

    for (const Vertex& root : roots) {
      if (dfn[vertex_index(g, root)] != 0) continue;
      start_visit(root);
      while (!frames.empty()) {
        Frame& f = frames.back();
        if (f.next != f.last) {
          const Vertex w = target(*f.next, g);
          ++f.next;
          const std::uint32_t d = dfn[vertex_index(g, w)];
          if (d == 0) {
            start_visit(w);  // invalidates `f`; the result comes back through finish_frame
          } else if (!f.in_component && d <= f.head) {
            f.head = d;
            f.loop = true;
          }
          continue;
        }
        if (f.in_component) {
          components.push_back(Component{appended.size(), f.part_start});
          appended.push_back(f.vertex);
          finish_frame(f.head);
          continue;
        }
        const std::size_t vi = vertex_index(g, f.vertex);
        if (f.head == dfn[vi]) {
          dfn[vi] = done;
          Vertex element = dfs_stack.back();
          dfs_stack.pop_back();
          if (f.loop) {
            while (!(element == f.vertex)) {
              dfn[vertex_index(g, element)] = 0;
              element = dfs_stack.back();
              dfs_stack.pop_back();
            }
            f.in_component = true;
            f.part_start = static_cast<std::uint32_t>(appended.size());
            auto [first, last] = out_edges(f.vertex, g);
            f.next = first;
            f.last = last;
            continue;
          }
          appended.push_back(f.vertex);
        }
        finish_frame(f.head);
      }
    }
    return out;
  }

  /// The weak topological order of `g` from `roots`, laid out.
  template <class G, class Roots>
  [[nodiscard]] static WeakTopologicalOrder<G> build(const G& g, const Roots& roots) {
    using Wto = WeakTopologicalOrder<G>;
    auto seq = sequence(g, roots);
    const std::size_t n = vertex_count(g);
    Wto wto;
    const std::size_t m = seq.reversed.size();
    wto.order_.assign(seq.reversed.rbegin(), seq.reversed.rend());
    wto.position_.assign(n, Wto::npos);
    for (std::size_t p = 0; p < m; ++p) wto.position_[vertex_index(g, wto.order_[p])] = static_cast<std::uint32_t>(p);
    wto.component_end_.resize(m);
    for (std::size_t p = 0; p < m; ++p) wto.component_end_[p] = static_cast<std::uint32_t>(p + 1);
    wto.self_head_.assign(m, false);
    for (const auto& c : seq.components) {
      const std::size_t head_pos = m - 1 - c.head_index;
      wto.component_end_[head_pos] = static_cast<std::uint32_t>(m - c.start);
      if (c.head_index == c.start) wto.self_head_[head_pos] = true;
    }
    wto.parent_.assign(m, Wto::npos);
    std::vector<std::uint32_t> open;  // positions of heads whose component is open
    for (std::size_t p = 0; p < m; ++p) {
      while (!open.empty() && wto.component_end_[open.back()] <= p) open.pop_back();
      if (!open.empty()) wto.parent_[p] = open.back();
      if (wto.is_head_at(p)) open.push_back(static_cast<std::uint32_t>(p));
    }
    return wto;
  }
};
}  // namespace detail

/// The weak topological order of the vertices reachable from `roots` (each
/// root explored in turn, skipping vertices already ordered). Successors are
/// explored in `out_edges` order.
template <ForwardAnalysisGraph G, class Roots>
  requires detail::InputRange<const Roots>
[[nodiscard]] WeakTopologicalOrder<G> weak_topological_order(const G& g, const Roots& roots) {
  return detail::WtoBuilder::build(g, roots);
}

/// The weak topological order of the vertices reachable from `entry`.
template <ForwardAnalysisGraph G>
[[nodiscard]] WeakTopologicalOrder<G> weak_topological_order(const G& g, const vertex_t<G>& entry) {
  const vertex_t<G> roots[] = {entry};
  return weak_topological_order(g, roots);
}

/// The weak topological order of every vertex: roots are tried in
/// `vertices(g)` order.
template <ForwardAnalysisGraph G>
[[nodiscard]] WeakTopologicalOrder<G> weak_topological_order(const G& g) {
  return weak_topological_order(g, vertex_range(g));
}

}  // namespace kildall
