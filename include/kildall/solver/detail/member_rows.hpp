#pragma once
/// \file
/// Internal: the members of each block of a shape (its arguments, then its op
/// results) as value indices, row by row, for the sparse solver's derived
/// arrays (`SsaArrays::block_members`). An IR numbered in program order
/// places every value at its own member position (member `m` is value `m`):
/// while that holds, only where each row starts is kept, and a member is
/// its position. The first member out of place writes the positions so far
/// out, and the rows are a `CsrGraph`'s from then on. On one function of a
/// million values that saves a 4-byte array written and read once per value.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>

#include <kildall/graph/concepts.hpp>
#include <kildall/support/large_array_allocator.hpp>

namespace kildall::detail {

/// Rows of value indices, pushed row by row, that keep no targets while every member is its
/// own position (see the file comment).
class MemberRows {
 public:
  /// Iterates the members of one row (or of all rows) by value.
  class iterator {
   public:
    using value_type = std::uint32_t;                    ///< A value index.
    using reference = std::uint32_t;                     ///< Yielded by value.
    using pointer = void;                                ///< (None: yielded by value.)
    using difference_type = std::ptrdiff_t;              ///< Distance type.
    using iterator_category = std::input_iterator_tag;   ///< As a C++17 iterator (yields prvalues).
    using iterator_concept = std::forward_iterator_tag;  ///< As a C++20 iterator.
    /// A singular iterator.
    iterator() = default;
    /// The member at hand.
    [[nodiscard]] std::uint32_t operator*() const noexcept { return members_ == nullptr ? m_ : members_[m_]; }
    /// The next member.
    iterator& operator++() noexcept {
      ++m_;
      return *this;
    }
    /// Post-increment.
    iterator operator++(int) noexcept {
      iterator copy = *this;
      ++m_;
      return copy;
    }
    /// Iterators of one range compare by position.
    [[nodiscard]] friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.m_ == b.m_; }

   private:
    friend class MemberRows;
    iterator(const std::uint32_t* members, std::uint32_t m) noexcept : members_(members), m_(m) {}
    const std::uint32_t* members_ = nullptr;  // null: each member is its position
    std::uint32_t m_ = 0;                     // the member position
  };
  /// The members of a row (or of all rows).
  using range = IteratorRange<iterator>;

  /// Starts over with room for `rows` rows (they grow past it).
  void start_rows(std::size_t rows) {
    begin_.assign(rows + 1, 0);
    rows_end_ = 1;
    members_.clear();
    pushed_ = 0;
    identity_ = true;
  }
  /// Appends member `v` to the current row.
  [[gnu::always_inline]] void push(std::uint32_t v) {
    if (identity_ && v == pushed_) [[likely]] {
      ++pushed_;
      return;
    }
    push_listed(v);
  }
  /// Closes the current row.
  [[gnu::always_inline]] void end_row() {
    if (rows_end_ == begin_.size()) [[unlikely]] begin_.resize(std::max<std::size_t>(16, 2 * begin_.size()));
    begin_[rows_end_++] = static_cast<std::uint32_t>(pushed_);
  }
  /// Members pushed so far (the next member's position).
  [[nodiscard]] std::size_t pushed() const noexcept { return pushed_; }
  /// Whether every member so far is its own position (no members listed).
  [[nodiscard]] bool identity() const noexcept { return identity_; }
  /// The members of row `r`.
  [[nodiscard]] range row(std::size_t r) const noexcept {
    return {iterator(data(), begin_[r]), iterator(data(), begin_[r + 1])};
  }
  /// Position of row `r`'s first member.
  [[nodiscard]] std::uint32_t row_begin(std::size_t r) const noexcept { return begin_[r]; }
  /// Number of members of row `r`.
  [[nodiscard]] std::size_t row_size(std::size_t r) const noexcept { return begin_[r + 1] - begin_[r]; }
  /// Every member, row after row.
  [[nodiscard]] range all() const noexcept {
    return {iterator(data(), 0), iterator(data(), static_cast<std::uint32_t>(pushed_))};
  }
  /// Bytes held.
  [[nodiscard]] std::size_t bytes() const noexcept {
    return (begin_.capacity() + members_.capacity()) * sizeof(std::uint32_t);
  }

 private:
  [[nodiscard]] const std::uint32_t* data() const noexcept { return identity_ ? nullptr : members_.data(); }

  // The first member out of place writes the positions so far out; each later one is listed.
  [[gnu::noinline]] void push_listed(std::uint32_t v) {
    if (identity_) {
      members_.resize(pushed_);
      for (std::size_t m = 0; m < pushed_; ++m) members_[m] = static_cast<std::uint32_t>(m);
      identity_ = false;
    }
    members_.push_back(v);
    ++pushed_;
  }

  LargeArray<std::uint32_t> begin_;    // by row, and one past the last: its first member's position
  LargeArray<std::uint32_t> members_;  // by position, unless `identity_`
  std::size_t rows_end_ = 0;           // entries of `begin_` in use
  std::size_t pushed_ = 0;             // members pushed
  bool identity_ = true;               // every member so far is its position
};

}  // namespace kildall::detail
