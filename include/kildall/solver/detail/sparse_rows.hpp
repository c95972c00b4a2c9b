#pragma once
/// \file
/// Internal: a relation from rows `[0, n)` to targets in which few rows have any
/// (a terminator's branch operands among all values, a problem's extra operands
/// among all op results): a flag per row and the (row, target) pairs sorted by
/// row, instead of a `CsrGraph`'s offset per row. A row's targets are found by
/// binary search, after the flag said it has some.

#include <algorithm>
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
    flagged_.clear();
  }
  /// Adds `target` to row `row` (after the row's earlier targets).
  void add(std::uint32_t row, std::uint32_t target) { entries_.push_back({row, target}); }
  /// Sorts the pairs by row (keeping each row's targets in the order added) and flags the rows
  /// that have any; no flags at all when no row has one.
  void finish() {
    const auto by_row = [](const Entry& a, const Entry& b) { return a.row < b.row; };
    // Pairs mostly come in row order already: checking is one pass.
    if (!std::is_sorted(entries_.begin(), entries_.end(), by_row))
      std::stable_sort(entries_.begin(), entries_.end(), by_row);
    flagged_.clear();
    if (entries_.empty()) return;
    flagged_.assign(rows_, false);
    for (const Entry& e : entries_) flagged_[e.row] = true;
  }

  /// Number of rows.
  [[nodiscard]] std::size_t size() const noexcept { return rows_; }
  /// Whether no row has a target.
  [[nodiscard]] bool empty() const noexcept { return entries_.empty(); }
  /// Whether row `row` has a target (after `finish`).
  [[nodiscard]] bool has(std::size_t row) const noexcept { return !flagged_.empty() && flagged_[row]; }
  /// The pairs of row `row`, in the order added (after `finish`). (The flag is read inline: a
  /// solver asks once per visit, mostly of rows without targets.)
  [[nodiscard, gnu::always_inline]] std::span<const Entry> of(std::size_t row) const noexcept {
    if (!has(row)) return {};
    return find(row);
  }
  /// Every pair, by row.
  [[nodiscard]] std::span<const Entry> all() const noexcept { return {entries_.data(), entries_.size()}; }
  /// Bytes held.
  [[nodiscard]] std::size_t bytes() const noexcept { return entries_.capacity() * sizeof(Entry) + flagged_.capacity(); }

 private:
  [[gnu::noinline]] std::span<const Entry> find(std::size_t row) const noexcept {
    const auto first = std::lower_bound(entries_.begin(), entries_.end(), row,
                                        [](const Entry& e, std::size_t r) { return e.row < r; });
    auto last = first;
    while (last != entries_.end() && last->row == row) ++last;
    return {entries_.data() + (first - entries_.begin()), static_cast<std::size_t>(last - first)};
  }

  std::size_t rows_ = 0;
  LargeArray<Entry> entries_;
  FlagArray flagged_;
};

}  // namespace kildall::detail
