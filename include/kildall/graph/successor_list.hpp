#pragma once
/// \file
/// A successor list as a graph: a one-off CFG written as
/// `std::vector<std::vector<Index>>` (the successors of vertex `v` are
/// `succ[v]`), or as a callable `succs(v)` returning a range of successor
/// indices plus a vertex count, becomes a `SuccessorListGraph` that models
/// `AnalysisGraph` (bidirectional, vertex list, indexed) in one line:
///
///   auto g = kildall::successor_list_graph(succ);
///   auto h = kildall::successor_list_graph(n, [&](std::size_t v) { return succ[v]; });
///
/// Vertices are the indices `0 .. n-1` (`std::size_t`, their own dense
/// index). An edge is one *slot* of a successor list: `SuccessorEdge{source,
/// target, slot}` with `slot` the position of `target` in the source's list,
/// so a conditional branch's true and false successors stay apart, and
/// `{1, 1}` gives two parallel edges (slots 0 and 1). The lists are copied
/// once into two compressed arrays (out-edges grouped by source in slot
/// order, in-edges grouped by target in (source, slot) order), so the
/// predecessors are computed once at construction, in O(V + E); the graph
/// owns its edges and does not refer to the input afterwards.
///
/// Boost ships the same adaptor as `boost/graph/vector_as_graph.hpp`
/// (a `std::vector` of successor containers as a Boost.Graph, successors
/// only). kildall ships its own because the core includes no Boost header
/// (docs/architecture.md, rule 6), because kildall's solvers also need the
/// predecessors, and because an edge here remembers its slot.

#include <concepts>
#include <cstddef>
#include <iterator>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/index_iterator.hpp>

namespace kildall {

/// An edge of a `SuccessorListGraph`: successor slot `slot` of vertex
/// `source`, leading to `target` (`target` is the `slot`-th entry of the
/// successor list of `source`).
struct SuccessorEdge {
  std::size_t source = 0;  ///< The vertex whose successor list holds the edge.
  std::size_t target = 0;  ///< The successor.
  std::size_t slot = 0;    ///< Position of `target` in the successor list of `source`.
  /// Edges are equal when source, target and slot are.
  [[nodiscard]] friend bool operator==(const SuccessorEdge&, const SuccessorEdge&) = default;
};

namespace detail {

/// A successor index: an integer type (`std::cmp_less` accepts it: not
/// `bool`, not a character type).
template <class I>
concept SuccessorIndex =
    std::integral<I> && !std::same_as<std::remove_cv_t<I>, bool> && !std::same_as<std::remove_cv_t<I>, char> &&
    !std::same_as<std::remove_cv_t<I>, wchar_t> && !std::same_as<std::remove_cv_t<I>, char8_t> &&
    !std::same_as<std::remove_cv_t<I>, char16_t> && !std::same_as<std::remove_cv_t<I>, char32_t>;

/// A range whose elements are successor indices.
template <class R>
concept SuccessorRange = InputRange<R> && SuccessorIndex<std::iter_value_t<range_iterator_t<R>>>;

/// A range of successor ranges (e.g. `std::vector<std::vector<int>>`).
template <class R>
concept SuccessorLists =
    InputRange<R> && SuccessorRange<std::remove_reference_t<std::iter_reference_t<range_iterator_t<R>>>>;

/// A callable mapping a vertex index to the range of its successor indices.
template <class F>
concept SuccessorFunction =
    std::invocable<F&, std::size_t> && SuccessorRange<std::remove_reference_t<std::invoke_result_t<F&, std::size_t>>>;

}  // namespace detail

/// A graph over vertices `0 .. n-1` given by successor lists, owning its
/// edges in two compressed arrays. Models `AnalysisGraph`: the member types
/// `vertex_descriptor` (`std::size_t`, its own index) and `edge_descriptor`
/// (`SuccessorEdge`), and the hidden friends `out_edges`, `in_edges`,
/// `source`, `target`, `vertices`, `num_vertices`, `out_degree`, `in_degree`
/// found by argument-dependent lookup. Build one with `successor_list_graph`.
class SuccessorListGraph {
 public:
  /// A vertex: its index in `[0, vertex_count())`.
  using vertex_descriptor = std::size_t;
  /// An edge: one successor slot.
  using edge_descriptor = SuccessorEdge;
  /// The iterator of `out_edges` (Boost.Graph's name).
  using out_edge_iterator = const SuccessorEdge*;
  /// The iterator of `in_edges` (Boost.Graph's name).
  using in_edge_iterator = const SuccessorEdge*;
  /// The iterator of `vertices`.
  using vertex_iterator = IndexIterator<std::size_t>;

  /// The graph with no vertices.
  SuccessorListGraph() = default;

  /// The graph whose vertex `v` has the successors `lists[v]`, in order (so
  /// `lists` has one entry per vertex). Throws `std::out_of_range` naming the
  /// first successor (in vertex, then slot order) that is negative or not
  /// below the number of vertices.
  template <class Lists>
    requires detail::SuccessorLists<const Lists>
  explicit SuccessorListGraph(const Lists& lists) {
    // The vertex count is known only once the whole range is read: a bad
    // successor is stored as `unknown` and reported afterwards.
    out_begin_.push_back(0);
    std::string first_unknown;
    for (auto&& list : lists) append_vertex(list, unknown, &first_unknown);
    const std::size_t n = vertex_count();
    for (const SuccessorEdge& e : out_) {
      if (e.target >= n) {
        // Edges before `e` are good, so an `unknown` one is the first stored.
        throw out_of_range(e.target == unknown ? first_unknown : std::to_string(e.target), e.source, e.slot, n);
      }
    }
    build_predecessors();
  }

  /// The graph on `n` vertices whose vertex `v` has the successors
  /// `succs(v)`, in order; `succs` is called once per vertex, in increasing
  /// `v`, and its result need not outlive the call. Throws
  /// `std::out_of_range` naming the first successor that is negative or not
  /// below `n`, and at once, before asking the vertices after it.
  template <class Succs>
    requires detail::SuccessorFunction<Succs>
  SuccessorListGraph(std::size_t n, Succs&& succs) {
    if (n == unknown) throw std::length_error("kildall::successor_list_graph: too many vertices");
    out_begin_.reserve(n + 1);
    out_begin_.push_back(0);
    for (std::size_t v = 0; v < n; ++v) append_vertex(succs(v), n, nullptr);
    build_predecessors();
  }

  /// The number of vertices.
  [[nodiscard]] std::size_t vertex_count() const noexcept {
    return out_begin_.empty() ? 0 : out_begin_.size() - 1;  // empty: default-constructed or moved from
  }
  /// The number of edges (successor slots over all vertices).
  [[nodiscard]] std::size_t edge_count() const noexcept { return out_.size(); }

  /// The out-edges of `v`, in slot order (`successors(v)[k].slot == k`).
  /// `v` must be a vertex (unchecked, like indexing a vector).
  [[nodiscard]] std::span<const SuccessorEdge> successors(std::size_t v) const noexcept {
    return {out_.data() + out_begin_[v], out_begin_[v + 1] - out_begin_[v]};
  }
  /// The in-edges of `v`, ordered by source, then slot. `v` must be a vertex
  /// (unchecked).
  [[nodiscard]] std::span<const SuccessorEdge> predecessors(std::size_t v) const noexcept {
    return {in_.data() + in_begin_[v], in_begin_[v + 1] - in_begin_[v]};
  }
  /// All edges, grouped by source vertex in slot order.
  [[nodiscard]] std::span<const SuccessorEdge> edges() const noexcept { return out_; }

  /// ForwardGraph: the out-edges of `v`, in slot order.
  [[nodiscard]] friend std::pair<out_edge_iterator, out_edge_iterator> out_edges(
      std::size_t v, const SuccessorListGraph& g) noexcept {
    const auto s = g.successors(v);
    return {s.data(), s.data() + s.size()};
  }
  /// BackwardGraph: the in-edges of `v`, ordered by source, then slot.
  [[nodiscard]] friend std::pair<in_edge_iterator, in_edge_iterator> in_edges(
      std::size_t v, const SuccessorListGraph& g) noexcept {
    const auto s = g.predecessors(v);
    return {s.data(), s.data() + s.size()};
  }
  /// ForwardGraph: the vertex `e` leads to.
  [[nodiscard]] friend std::size_t target(const SuccessorEdge& e, const SuccessorListGraph&) noexcept {
    return e.target;
  }
  /// BackwardGraph: the vertex `e` comes from.
  [[nodiscard]] friend std::size_t source(const SuccessorEdge& e, const SuccessorListGraph&) noexcept {
    return e.source;
  }
  /// VertexListGraph: the vertices `0 .. n-1`.
  [[nodiscard]] friend std::pair<vertex_iterator, vertex_iterator> vertices(const SuccessorListGraph& g) noexcept {
    return {vertex_iterator(0), vertex_iterator(g.vertex_count())};
  }
  /// VertexListGraph: the number of vertices.
  [[nodiscard]] friend std::size_t num_vertices(const SuccessorListGraph& g) noexcept { return g.vertex_count(); }
  /// The number of successor slots of `v`.
  [[nodiscard]] friend std::size_t out_degree(std::size_t v, const SuccessorListGraph& g) noexcept {
    return g.successors(v).size();
  }
  /// The number of in-edges of `v`.
  [[nodiscard]] friend std::size_t in_degree(std::size_t v, const SuccessorListGraph& g) noexcept {
    return g.predecessors(v).size();
  }

  /// Graphs are equal when they have the same number of vertices and the
  /// same successor lists.
  [[nodiscard]] friend bool operator==(const SuccessorListGraph& a, const SuccessorListGraph& b) noexcept {
    return a.vertex_count() == b.vertex_count() && a.out_ == b.out_;
  }

 private:
  /// The target stored for a successor that is no `std::size_t` (negative or
  /// too large); never a vertex, as no graph has that many.
  static constexpr std::size_t unknown = static_cast<std::size_t>(-1);

  /// The error for successor `value` of vertex `v` in slot `slot`.
  [[nodiscard]] static std::out_of_range out_of_range(const std::string& value, std::size_t v, std::size_t slot,
                                                      std::size_t n) {
    return std::out_of_range("kildall::successor_list_graph: successor " + value + " of vertex " +
                             std::to_string(v) + " (slot " + std::to_string(slot) +
                             ") is out of range: the graph has " + std::to_string(n) + " vertices");
  }

  /// `s` as decimal text.
  template <class I>
  [[nodiscard]] static std::string to_text(I s) {
    if constexpr (std::is_signed_v<I>) {
      return std::to_string(static_cast<long long>(s));
    } else {
      return std::to_string(static_cast<unsigned long long>(s));
    }
  }

  /// Appends the next vertex, with successors `list`. With a known vertex
  /// count `n`, a bad successor throws at once. With `n == unknown`, the
  /// caller checks the targets afterwards: a successor that is no
  /// `std::size_t` (negative, or too large) is stored as target `unknown`,
  /// and the text of the first such goes to `*first_unknown`.
  template <class List>
  void append_vertex(List&& list, std::size_t n, std::string* first_unknown) {
    const std::size_t v = vertex_count();
    std::size_t slot = 0;
    using I = std::iter_value_t<detail::range_iterator_t<std::remove_reference_t<List>>>;
    for (auto&& s : list) {
      const I value = s;
      std::size_t target = unknown;
      if (std::cmp_greater_equal(value, 0) && std::cmp_less(value, unknown)) target = static_cast<std::size_t>(value);
      if (n != unknown && target >= n) throw out_of_range(to_text(value), v, slot, n);
      if (target == unknown && first_unknown != nullptr && first_unknown->empty()) *first_unknown = to_text(value);
      out_.push_back(SuccessorEdge{v, target, slot});
      ++slot;
    }
    out_begin_.push_back(out_.size());
  }

  /// Fills the in-edge arrays from the out-edge arrays: a stable counting
  /// sort by target, so each vertex's in-edges come by source, then slot.
  void build_predecessors() {
    const std::size_t n = vertex_count();
    in_begin_.assign(n + 1, 0);
    for (const SuccessorEdge& e : out_) ++in_begin_[e.target + 1];
    for (std::size_t v = 0; v < n; ++v) in_begin_[v + 1] += in_begin_[v];
    in_.resize(out_.size());
    std::vector<std::size_t> fill(in_begin_.begin(), in_begin_.end() - 1);
    for (const SuccessorEdge& e : out_) in_[fill[e.target]++] = e;
  }

  std::vector<SuccessorEdge> out_;      // out-edges, grouped by source, in slot order
  std::vector<SuccessorEdge> in_;       // in-edges, grouped by target, by (source, slot)
  std::vector<std::size_t> out_begin_;  // out_[out_begin_[v] .. out_begin_[v + 1]); empty: no vertices
  std::vector<std::size_t> in_begin_;   // in_[in_begin_[v] .. in_begin_[v + 1])
};

/// The graph whose vertex `v` has the successors `lists[v]`, in order:
/// `kildall::successor_list_graph({{1, 2}, {3}, {3}, {}})`. Copies the lists;
/// throws `std::out_of_range` naming the first successor not below
/// `lists.size()`.
[[nodiscard]] inline SuccessorListGraph successor_list_graph(const std::vector<std::vector<std::size_t>>& lists) {
  return SuccessorListGraph(lists);
}

/// The graph whose vertex `v` has the successors `lists[v]`, in order, for
/// any range of ranges of integral indices (`std::vector<std::vector<int>>`,
/// `std::array<std::vector<std::uint32_t>, 4>`, ...). Copies the lists;
/// throws `std::out_of_range` naming the first successor that is negative or
/// not below the number of lists.
template <class Lists>
  requires detail::SuccessorLists<const Lists>
[[nodiscard]] SuccessorListGraph successor_list_graph(const Lists& lists) {
  return SuccessorListGraph(lists);
}

/// The graph on `vertex_count` vertices whose vertex `v` has the successors
/// `succs(v)` (any range of integral indices), in order. `succs` is called
/// once per vertex; throws `std::out_of_range` naming the first successor
/// that is negative or not below `vertex_count`.
template <class Succs>
  requires detail::SuccessorFunction<Succs>
[[nodiscard]] SuccessorListGraph successor_list_graph(std::size_t vertex_count, Succs&& succs) {
  return SuccessorListGraph(vertex_count, succs);
}

}  // namespace kildall
