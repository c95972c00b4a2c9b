#pragma once
/// \file
/// `PriorityWorklist`: the solvers' worklist, a set of pending positions that
/// always hands out the lowest one first.
///
/// Positions are a node's rank in the iteration order (reverse post-order or
/// weak topological order), so "lowest first" is the classic priority
/// iteration of Kildall's algorithm. The set is a hierarchical bitset (one bit
/// per position plus one bit per 64-bit word of the level below), so an entry
/// is never queued twice (a join point with N changed predecessors is queued
/// once), `push`/`pop_min` cost O(log64 n) word operations, and the whole
/// structure takes about 1.02 bits per node. Same idea as the van Emde Boas
/// layout of "hierarchical bitmaps" used by many schedulers; it is written
/// here because neither std nor Boost ships a bounded integer priority set.
/// `pop_min` first looks at the lowest word that may hold a position (a hint
/// kept by `push` and `pop_min`): a solve taking positions in order, as a
/// sparse solve in program order mostly does, reads one word per pop.

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kildall {

/// A set of positions in `[0, capacity)` with ordered extraction of the
/// minimum; duplicate pushes are absorbed.
class PriorityWorklist {
 public:
  /// An empty worklist for positions in `[0, capacity)`.
  explicit PriorityWorklist(std::size_t capacity = 0) { reset(capacity); }

  /// Empties the worklist and sets its capacity.
  void reset(std::size_t capacity) {
    capacity_ = capacity;
    size_ = 0;
    low_word_ = 0;
    levels_.clear();
    std::size_t bits = capacity == 0 ? 1 : capacity;
    do {
      const std::size_t words = (bits + 63) / 64;
      levels_.emplace_back(words, std::uint64_t{0});
      bits = words;
    } while (bits > 1);
  }

  /// The positions the worklist accepts: `[0, capacity())`.
  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }

  /// Number of pending positions.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }

  /// Whether nothing is pending.
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }

  /// Whether `position` is pending.
  [[nodiscard]] bool contains(std::size_t position) const noexcept {
    assert(position < capacity_);
    return (levels_[0][position >> 6] >> (position & 63)) & 1U;
  }

  /// Adds `position`; returns false (and does nothing) when it was pending.
  bool push(std::size_t position) noexcept {
    assert(position < capacity_);
    if (contains(position)) return false;
    ++size_;
    low_word_ = std::min(low_word_, position >> 6);
    std::size_t i = position;
    for (auto& level : levels_) {
      std::uint64_t& word = level[i >> 6];
      const bool was_empty = word == 0;
      word |= std::uint64_t{1} << (i & 63);
      if (!was_empty) break;
      i >>= 6;
    }
    return true;
  }

  /// The lowest pending position, left pending. Precondition: `!empty()`.
  [[nodiscard]] std::size_t peek_min() const noexcept {
    assert(!empty());
    if (const std::uint64_t word = levels_[0][low_word_]; word != 0) {
      // No position lies below `low_word_`'s word: its lowest bit is the minimum.
      return (low_word_ << 6) | static_cast<std::size_t>(std::countr_zero(word));
    }
    std::size_t i = 0;
    for (std::size_t l = levels_.size(); l-- > 0;) {
      i = (i << 6) | static_cast<std::size_t>(std::countr_zero(levels_[l][i]));
    }
    return i;
  }

  /// Removes and returns the lowest pending position. Precondition: `!empty()`.
  [[nodiscard]] std::size_t pop_min() noexcept {
    const std::size_t i = peek_min();
    low_word_ = i >> 6;
    erase_present(i);
    return i;
  }

  /// Removes `position` if pending; returns whether it was.
  bool erase(std::size_t position) noexcept {
    if (!contains(position)) return false;
    erase_present(position);
    return true;
  }

  /// Bytes held by the bitsets.
  [[nodiscard]] std::size_t bytes() const noexcept {
    std::size_t total = 0;
    for (const auto& level : levels_) total += level.capacity() * sizeof(std::uint64_t);
    return total;
  }

 private:
  void erase_present(std::size_t position) noexcept {
    --size_;
    std::size_t i = position;
    for (auto& level : levels_) {
      std::uint64_t& word = level[i >> 6];
      word &= ~(std::uint64_t{1} << (i & 63));
      if (word != 0) break;
      i >>= 6;
    }
  }

  std::size_t capacity_ = 0;
  std::size_t size_ = 0;
  std::size_t low_word_ = 0;  // no position pending below this word of level 0 (a hint for `pop_min`)
  std::vector<std::vector<std::uint64_t>> levels_;  // levels_[0]: one bit per position
};

}  // namespace kildall
