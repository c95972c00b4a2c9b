#pragma once
/// \file
/// `IndexIterator<Index>`: the vertex iterator of every graph whose vertices
/// are the dense indices `0 .. n-1` (the successor-list adaptor, the reference
/// IR's views, the sparse solver's derived index graph). It yields indices by
/// value, unlike `boost::counting_iterator`, whose references point into the
/// iterator and dangle when the iterator is a temporary.

#include <concepts>
#include <cstddef>
#include <iterator>

namespace kildall {

/// Consecutive indices of type `Index`, yielded by value.
template <std::unsigned_integral Index>
class IndexIterator {
 public:
  using value_type = Index;                            ///< Yielded type.
  using difference_type = std::ptrdiff_t;              ///< Distance type.
  using reference = Index;                             ///< Yields by value.
  using pointer = void;                                ///< No pointers.
  using iterator_category = std::input_iterator_tag;   ///< C++17 view: yields prvalues.
  using iterator_concept = std::forward_iterator_tag;  ///< C++20 view: multi-pass.
  /// At index 0.
  constexpr IndexIterator() = default;
  /// At index `i`.
  constexpr explicit IndexIterator(Index i) : i_(i) {}
  /// The index.
  [[nodiscard]] constexpr Index operator*() const { return i_; }
  /// Next index.
  constexpr IndexIterator& operator++() {
    ++i_;
    return *this;
  }
  /// Post-increment.
  constexpr IndexIterator operator++(int) {
    IndexIterator copy = *this;
    ++i_;
    return copy;
  }
  /// Iterators compare by index.
  [[nodiscard]] friend constexpr bool operator==(IndexIterator, IndexIterator) = default;

 private:
  Index i_ = 0;
};

}  // namespace kildall
