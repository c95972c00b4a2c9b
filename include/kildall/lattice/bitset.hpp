#pragma once
/// \file
/// `Bitset`: a dynamic set of small non-negative integers stored as a
/// bit vector of 64-bit words, ordered by inclusion. The classic domain of
/// bit-vector dataflow problems (liveness, reaching definitions; Kildall,
/// POPL 1973; Aho, Lam, Sethi & Ullman, "Compilers", §9.2): join is union,
/// meet is intersection, and every operation works a word at a time.
///
/// Sets of different sizes combine as if the shorter were padded with zeros,
/// so a solver never has to agree on a universe size up front, and equality
/// ignores trailing zero words. That is why this is not
/// `boost::dynamic_bitset`, whose `|=`/`&=`/`is_subset_of` require equal
/// sizes, nor `std::vector<bool>`, which has no word-level operations.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <ostream>
#include <span>
#include <vector>

#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>

namespace kildall {

/// A set of non-negative integers as a bit vector. Models `HasBottom` (the
/// empty set) and `Lattice`; it has no top because the universe is open
/// (use `Bitset::full(n)` for "every element below n").
class Bitset {
 public:
  /// One storage word.
  using word_type = std::uint64_t;
  /// Bits per storage word.
  static constexpr std::size_t word_bits = 64;

  /// The empty set, of size 0.
  Bitset() = default;
  /// The empty set over the universe [0, size).
  explicit Bitset(std::size_t size) : words_(words_for(size)), size_(size) {}
  /// The set of `elements` (size one past the largest). Note `Bitset{5}` is
  /// the set {5}, while `Bitset(5)` is the empty set over [0, 5).
  Bitset(std::initializer_list<std::size_t> elements) {
    for (std::size_t e : elements) set(e);
  }

  /// The least element: the empty set.
  [[nodiscard]] static Bitset bottom() { return Bitset(); }
  /// Every element of [0, size).
  [[nodiscard]] static Bitset full(std::size_t size) {
    Bitset b(size);
    std::fill(b.words_.begin(), b.words_.end(), ~word_type{0});
    b.clear_tail();
    return b;
  }

  /// The universe size: bits addressable without growing. Grows with `set`,
  /// `resize` and `join`; not part of the value (`==` ignores it).
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// Sets the universe size; shrinking drops the elements at or above `size`.
  void resize(std::size_t size) {
    words_.resize(words_for(size), 0);
    size_ = size;
    clear_tail();
  }

  /// Adds `i`, growing the universe when `i >= size()`.
  void set(std::size_t i) {
    if (i >= size_) resize(i + 1);
    words_[i / word_bits] |= word_type{1} << (i % word_bits);
  }
  /// Removes `i` (nothing to do when `i >= size()`).
  void reset(std::size_t i) noexcept {
    if (i < size_) words_[i / word_bits] &= ~(word_type{1} << (i % word_bits));
  }
  /// True when `i` is in the set.
  [[nodiscard]] bool test(std::size_t i) const noexcept {
    return i < size_ && ((words_[i / word_bits] >> (i % word_bits)) & 1U) != 0;
  }
  /// True when `i` is in the set (same as `test`).
  [[nodiscard]] bool contains(std::size_t i) const noexcept { return test(i); }
  /// Removes every element; keeps the universe size.
  void clear() noexcept { std::fill(words_.begin(), words_.end(), 0); }

  /// Number of elements.
  [[nodiscard]] std::size_t count() const noexcept {
    std::size_t n = 0;
    for (word_type w : words_) n += static_cast<std::size_t>(std::popcount(w));
    return n;
  }
  /// True when the set has an element.
  [[nodiscard]] bool any() const noexcept {
    return std::any_of(words_.begin(), words_.end(), [](word_type w) { return w != 0; });
  }
  /// True when the set is empty.
  [[nodiscard]] bool none() const noexcept { return !any(); }
  /// True when the set is empty (the lattice's bottom).
  [[nodiscard]] bool is_bottom() const noexcept { return none(); }

  /// Union (implicitly zero-extending the shorter set). Returns whether an element was added.
  [[nodiscard]] ChangeResult join(const Bitset& other) {
    if (other.size_ > size_) resize(other.size_);
    word_type added = 0;
    for (std::size_t i = 0; i < other.words_.size(); ++i) {
      added |= other.words_[i] & ~words_[i];
      words_[i] |= other.words_[i];
    }
    return change_if(added != 0);
  }
  /// Intersection. Returns whether an element was removed.
  [[nodiscard]] ChangeResult meet(const Bitset& other) {
    const std::size_t common = std::min(words_.size(), other.words_.size());
    word_type removed = 0;
    for (std::size_t i = 0; i < common; ++i) {
      removed |= words_[i] & ~other.words_[i];
      words_[i] &= other.words_[i];
    }
    for (std::size_t i = common; i < words_.size(); ++i) {
      removed |= words_[i];
      words_[i] = 0;
    }
    return change_if(removed != 0);
  }
  /// Set difference: removes every element of `other` (the "kill" of a
  /// gen/kill transfer function).
  void subtract(const Bitset& other) noexcept {
    const std::size_t common = std::min(words_.size(), other.words_.size());
    for (std::size_t i = 0; i < common; ++i) words_[i] &= ~other.words_[i];
  }
  /// Inclusion: every element of this set is in `other`.
  [[nodiscard]] bool leq(const Bitset& other) const noexcept {
    const std::size_t common = std::min(words_.size(), other.words_.size());
    for (std::size_t i = 0; i < common; ++i)
      if ((words_[i] & ~other.words_[i]) != 0) return false;
    for (std::size_t i = common; i < words_.size(); ++i)
      if (words_[i] != 0) return false;
    return true;
  }
  /// True when the two sets share an element.
  [[nodiscard]] bool intersects(const Bitset& other) const noexcept {
    const std::size_t common = std::min(words_.size(), other.words_.size());
    for (std::size_t i = 0; i < common; ++i)
      if ((words_[i] & other.words_[i]) != 0) return true;
    return false;
  }

  /// Same elements; sizes and trailing zero words do not matter.
  friend bool operator==(const Bitset& a, const Bitset& b) noexcept {
    const Bitset& shorter = a.words_.size() <= b.words_.size() ? a : b;
    const Bitset& longer = a.words_.size() <= b.words_.size() ? b : a;
    const std::size_t common = shorter.words_.size();
    if (!std::equal(shorter.words_.begin(), shorter.words_.end(), longer.words_.begin())) return false;
    return std::all_of(longer.words_.begin() + static_cast<std::ptrdiff_t>(common), longer.words_.end(),
                       [](word_type w) { return w == 0; });
  }

  /// The storage words; bit `i % 64` of word `i / 64` is element `i`. Bits at
  /// or above `size()` are always zero.
  [[nodiscard]] std::span<const word_type> words() const noexcept { return words_; }

  /// Forward iterator over the elements, in increasing order.
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;  ///< Multi-pass.
    using value_type = std::size_t;                       ///< An element.
    using difference_type = std::ptrdiff_t;               ///< Iterator distance.
    using reference = std::size_t;                        ///< Elements are computed, not stored.
    using pointer = void;                                 ///< No addressable element.

    /// A singular iterator.
    const_iterator() = default;
    /// The current element.
    [[nodiscard]] std::size_t operator*() const noexcept { return word_ * word_bits + static_cast<std::size_t>(std::countr_zero(bits_)); }
    /// Moves to the next element.
    const_iterator& operator++() noexcept {
      bits_ &= bits_ - 1;  // clear the lowest set bit
      skip_empty();
      return *this;
    }
    /// Moves to the next element, returning the old position.
    const_iterator operator++(int) noexcept {
      const_iterator old = *this;
      ++*this;
      return old;
    }
    /// Same position.
    friend bool operator==(const const_iterator& a, const const_iterator& b) noexcept {
      return a.word_ == b.word_ && a.bits_ == b.bits_;
    }

   private:
    friend class Bitset;
    const_iterator(std::span<const word_type> words, std::size_t word) : words_(words), word_(word) {
      bits_ = word_ < words_.size() ? words_[word_] : 0;
      skip_empty();
    }
    void skip_empty() noexcept {
      while (bits_ == 0 && word_ < words_.size()) {
        ++word_;
        bits_ = word_ < words_.size() ? words_[word_] : 0;
      }
    }
    std::span<const word_type> words_;
    std::size_t word_ = 0;
    word_type bits_ = 0;
  };
  /// The least element (or `end()`).
  [[nodiscard]] const_iterator begin() const noexcept { return const_iterator(words_, 0); }
  /// Past the last element.
  [[nodiscard]] const_iterator end() const noexcept { return const_iterator(words_, words_.size()); }

  /// Calls `f(i)` for every element `i`, in increasing order (the fastest traversal).
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t wi = 0; wi < words_.size(); ++wi)
      for (word_type w = words_[wi]; w != 0; w &= w - 1)
        f(wi * word_bits + static_cast<std::size_t>(std::countr_zero(w)));
  }

  /// Prints `{1, 4, 9}`.
  friend std::ostream& operator<<(std::ostream& os, const Bitset& b) {
    os << '{';
    bool first = true;
    for (std::size_t i : b) {
      os << (first ? "" : ", ") << i;
      first = false;
    }
    return os << '}';
  }

 private:
  [[nodiscard]] static std::size_t words_for(std::size_t bits) noexcept { return (bits + word_bits - 1) / word_bits; }
  void clear_tail() noexcept {
    if (size_ % word_bits != 0) words_.back() &= (word_type{1} << (size_ % word_bits)) - 1;
  }

  std::vector<word_type> words_;
  std::size_t size_ = 0;
};

}  // namespace kildall
