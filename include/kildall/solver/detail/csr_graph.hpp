#pragma once
/// \file
/// Internal: a compressed-sparse-row graph over dense `std::uint32_t`
/// indices, the form the sparse solver derives from an SSA program shape
/// (operands, dependents). Models `ForwardAnalysisGraph` so that the
/// iteration orders of `graph/` run on it unchanged.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/index_iterator.hpp>
#include <kildall/support/large_array_allocator.hpp>

namespace kildall::detail {

/// Adjacency lists of `[0, n)` in two arrays: `begin[v]..begin[v+1]` indexes `target`.
class CsrGraph {
 public:
  using vertex_descriptor = std::uint32_t;  ///< A node index.
  /// An edge: its source and target indices.
  struct edge_descriptor {
    std::uint32_t source;  ///< Source index.
    std::uint32_t target;  ///< Target index.
  };

  /// Starts building row by row (rows in order): `push` targets, `end_row` after each row. The
  /// hints size the arrays up front; they grow (doubling) past them.
  void start_rows(std::size_t rows_hint = 0, std::size_t targets_hint = 0) {
    begin_.assign(rows_hint + 1, 0);
    rows_end_ = 1;  // begin_[0] = 0
    target_.assign(targets_hint, 0);
    pushed_ = 0;
  }
  /// Appends a target to the current row.
  [[gnu::always_inline]] void push(std::uint32_t t) {
    // Writes into arrays sized ahead: a `push_back` per target was an out-of-line call in the
    // large loops that build the solver's arrays.
    if (pushed_ == target_.size()) [[unlikely]] grow(target_);
    target_[pushed_++] = t;
  }
  /// Closes the current row.
  [[gnu::always_inline]] void end_row() {
    if (rows_end_ == begin_.size()) [[unlikely]] grow(begin_);
    begin_[rows_end_++] = static_cast<std::uint32_t>(pushed_);
  }
  /// Number of targets pushed so far.
  [[nodiscard]] std::size_t pushed() const noexcept { return pushed_; }

  /// Builds the lists of `n` nodes from the `(source, target)` pairs that
  /// `for_each_pair(emit)` emits (called twice: to count, then to fill),
  /// keeping their order per source. No pair list is materialized.
  template <class ForEachPair>
  void assign_counted(std::size_t n, ForEachPair&& for_each_pair) {
    assign_counted(
        n, [&](auto&& count) { for_each_pair([&](std::uint32_t s, std::uint32_t) { count(s); }); }, for_each_pair);
  }

  /// As `assign_counted(n, for_each_pair)`, counting with `for_each_source(count)`,
  /// which calls `count(s)` once for the source of every pair `for_each_pair`
  /// emits: a caller whose sources lie in flat arrays counts without walking
  /// its rows.
  template <class ForEachSource, class ForEachPair>
  void assign_counted(std::size_t n, ForEachSource&& for_each_source, ForEachPair&& for_each_pair) {
    begin_.assign(n + 1, 0);
    for_each_source([&](std::uint32_t s) { ++begin_[s + 1]; });
    for (std::size_t v = 0; v < n; ++v) begin_[v + 1] += begin_[v];
    target_.resize(begin_[n]);
    // begin_[s] serves as the fill cursor of row s, then everything shifts back by one row.
    for_each_pair([&](std::uint32_t s, std::uint32_t t) { target_[begin_[s]++] = t; });
    for (std::size_t v = n; v > 0; --v) begin_[v] = begin_[v - 1];
    begin_[0] = 0;
    rows_end_ = n + 1;
    pushed_ = target_.size();
  }
  /// Number of nodes.
  [[nodiscard]] std::size_t size() const noexcept { return rows_end_ == 0 ? 0 : rows_end_ - 1; }
  /// The targets of `v`'s edges, in insertion order.
  [[nodiscard]] std::span<const std::uint32_t> targets(std::size_t v) const noexcept {
    return {target_.data() + begin_[v], begin_[v + 1] - begin_[v]};
  }
  /// Every row's targets, back to back.
  [[nodiscard]] std::span<const std::uint32_t> targets_all() const noexcept { return {target_.data(), pushed_}; }
  /// Bytes held.
  [[nodiscard]] std::size_t bytes() const noexcept {
    return begin_.capacity() * sizeof(std::uint32_t) + target_.capacity() * sizeof(std::uint32_t);
  }

  /// Iterates the out-edges of one node.
  class edge_iterator {
   public:
    using value_type = edge_descriptor;
    using difference_type = std::ptrdiff_t;
    using reference = edge_descriptor;
    using pointer = void;
    using iterator_category = std::input_iterator_tag;
    using iterator_concept = std::forward_iterator_tag;
    edge_iterator() = default;
    edge_iterator(std::uint32_t source, const std::uint32_t* at) : source_(source), at_(at) {}
    edge_descriptor operator*() const { return {source_, *at_}; }
    edge_iterator& operator++() {
      ++at_;
      return *this;
    }
    edge_iterator operator++(int) {
      edge_iterator copy = *this;
      ++at_;
      return copy;
    }
    friend bool operator==(const edge_iterator& a, const edge_iterator& b) { return a.at_ == b.at_; }

   private:
    std::uint32_t source_ = 0;
    const std::uint32_t* at_ = nullptr;
  };

  /// Iterates node indices.
  using vertex_iterator = IndexIterator<std::uint32_t>;

  friend std::pair<edge_iterator, edge_iterator> out_edges(std::uint32_t v, const CsrGraph& g) {
    const std::uint32_t* base = g.target_.data();
    return {edge_iterator(v, base + g.begin_[v]), edge_iterator(v, base + g.begin_[v + 1])};
  }
  friend std::uint32_t target(const edge_descriptor& e, const CsrGraph&) { return e.target; }
  friend std::uint32_t source(const edge_descriptor& e, const CsrGraph&) { return e.source; }
  friend std::pair<vertex_iterator, vertex_iterator> vertices(const CsrGraph& g) {
    return {vertex_iterator(0), vertex_iterator(static_cast<std::uint32_t>(g.size()))};
  }
  friend std::size_t num_vertices(const CsrGraph& g) { return g.size(); }

 private:
  // Out of line, so that `push` and `end_row` stay small enough to be inlined in every caller's
  // loop (in the interval analysis's instantiation `push` had become a call per operand).
  [[gnu::cold, gnu::noinline]] static void grow(LargeArray<std::uint32_t>& a) {
    a.resize(std::max<std::size_t>(16, 2 * a.size()));
  }

  // Rows and targets in use: the arrays may be longer (sized ahead by `start_rows`).
  LargeArray<std::uint32_t> begin_;
  LargeArray<std::uint32_t> target_;
  std::size_t rows_end_ = 0;  // entries of `begin_` in use (rows + 1; 0 when never built)
  std::size_t pushed_ = 0;    // entries of `target_` in use
};

}  // namespace kildall::detail
