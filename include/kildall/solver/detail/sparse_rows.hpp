#pragma once
/// \file
/// Internal: a relation from rows `[0, n)` to targets in which few rows have any
/// (a terminator's branch operands among all values, a problem's extra operands
/// among all op results): the (row, target) pairs sorted by row, a bit per row
/// (whether it has any), and per 64 rows the number of rows with pairs before
/// them, instead of a `CsrGraph`'s offset per row. A row's pairs are found in
/// constant time: its rank among the rows with pairs (the count before its
/// word plus a popcount within it) indexes the start of each such row's pairs
/// (Jacobson's rank directory, FOCS 1989, in its simplest form), where a
/// binary search of the pairs misses the cache at its last levels on every
/// visit of a large function's value.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include <kildall/support/large_array_allocator.hpp>

namespace kildall::detail {

/// Targets of a few of `n` rows (see the file comment). Built by `reset`, `add` in any row
/// order, then `finish`.
class SparseRows {
 public:
  /// One (row, target) pair.
  struct Entry {
    std::uint32_t row;     ///< The row.
    std::uint32_t target;  ///< One of its targets.
  };

  /// Starts over with `rows` rows, none with a target, with room for `pairs` pairs (a hint:
  /// an array grown by doubling is allocated again at every size, each a fresh mapping on a
  /// large function).
  void reset(std::size_t rows, std::size_t pairs = 0) {
    rows_ = rows;
    entries_.clear();
    entries_.reserve(pairs);
    bits_.clear();
    rank_.clear();
    row_begin_.clear();
  }
  /// Adds `target` to row `row` (after the row's earlier targets).
  void add(std::uint32_t row, std::uint32_t target) { entries_.push_back({row, target}); }
  /// Sorts the pairs by row (keeping each row's targets in the order added) and indexes the rows
  /// that have any; no index at all when no row has one.
  void finish() {
    const auto by_row = [](const Entry& a, const Entry& b) { return a.row < b.row; };
    // Pairs mostly come in row order already: checking is one pass.
    if (!std::is_sorted(entries_.begin(), entries_.end(), by_row))
      std::stable_sort(entries_.begin(), entries_.end(), by_row);
    bits_.clear();
    rank_.clear();
    row_begin_.clear();
    if (entries_.empty()) return;
    const std::size_t words = (rows_ + 63) / 64;
    bits_.assign(words, 0);
    rank_.assign(words, 0);
    row_begin_.reserve(entries_.size() + 1);
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const std::uint32_t row = entries_[i].row;
      if (i != 0 && entries_[i - 1].row == row) continue;
      bits_[row / 64] |= std::uint64_t{1} << (row % 64);
      row_begin_.push_back(static_cast<std::uint32_t>(i));
    }
    row_begin_.push_back(static_cast<std::uint32_t>(entries_.size()));
    std::uint32_t before = 0;  // rows with pairs in the words so far
    for (std::size_t w = 0; w < words; ++w) {
      rank_[w] = before;
      before += static_cast<std::uint32_t>(std::popcount(bits_[w]));
    }
  }

  /// Number of rows.
  [[nodiscard]] std::size_t size() const noexcept { return rows_; }
  /// Whether no row has a target.
  [[nodiscard]] bool empty() const noexcept { return entries_.empty(); }
  /// Whether row `row` has a target (after `finish`).
  [[nodiscard]] bool has(std::size_t row) const noexcept {
    return !bits_.empty() && ((bits_[row / 64] >> (row % 64)) & 1) != 0;
  }
  /// The pairs of row `row`, in the order added (after `finish`), in constant time (see the
  /// file comment).
  [[nodiscard, gnu::always_inline]] std::span<const Entry> of(std::size_t row) const noexcept {
    if (!has(row)) return {};
    const std::uint64_t below = bits_[row / 64] & ((std::uint64_t{1} << (row % 64)) - 1);
    const std::size_t rank = rank_[row / 64] + static_cast<std::size_t>(std::popcount(below));
    return {entries_.data() + row_begin_[rank], static_cast<std::size_t>(row_begin_[rank + 1] - row_begin_[rank])};
  }
  /// Every pair, by row.
  [[nodiscard]] std::span<const Entry> all() const noexcept { return {entries_.data(), entries_.size()}; }
  /// Bytes held.
  [[nodiscard]] std::size_t bytes() const noexcept {
    return entries_.capacity() * sizeof(Entry) + bits_.capacity() * sizeof(std::uint64_t) +
           (rank_.capacity() + row_begin_.capacity()) * sizeof(std::uint32_t);
  }

 private:
  std::size_t rows_ = 0;
  LargeArray<Entry> entries_;
  LargeArray<std::uint64_t> bits_;       // a bit per row: it has pairs (empty: no row has)
  LargeArray<std::uint32_t> rank_;       // per 64 rows: the rows with pairs before them
  LargeArray<std::uint32_t> row_begin_;  // per row with pairs, by rank, and one past: its first pair
};

}  // namespace kildall::detail
