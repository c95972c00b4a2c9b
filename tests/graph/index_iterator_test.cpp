// Tests IndexIterator (the C++20 iterator concepts, values and equality); oracle: the arithmetic of the indices it stands for.
#include <kildall/graph/index_iterator.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <vector>

static_assert(std::forward_iterator<kildall::IndexIterator<std::size_t>>);
static_assert(std::forward_iterator<kildall::IndexIterator<std::uint32_t>>);
static_assert(std::is_same_v<std::iter_reference_t<kildall::IndexIterator<std::uint32_t>>, std::uint32_t>,
              "yields by value: no reference into a temporary iterator");

TEST_CASE("IndexIterator walks consecutive indices, pre- and post-increment alike") {
  using It = kildall::IndexIterator<std::uint32_t>;
  for (std::uint32_t first : {0u, 1u, 7u, 4'000'000'000u}) {
    for (std::uint32_t count : {0u, 1u, 5u}) {
      CAPTURE(first);
      CAPTURE(count);
      std::vector<std::uint32_t> seen(It(first), It(first + count));
      REQUIRE(seen.size() == count);
      for (std::uint32_t k = 0; k < count; ++k) CHECK(seen[k] == first + k);
      It it(first);
      const It before = it++;
      CHECK(*before == first);
      CHECK(*it == first + 1);
      CHECK(*++it == first + 2);
      CHECK(std::distance(It(first), It(first + count)) == static_cast<std::ptrdiff_t>(count));
    }
  }
  CHECK(*It() == 0u);
  CHECK(It(3) == It(3));
  CHECK(It(3) != It(4));
}

TEST_CASE("IndexIterator is usable in constant expressions") {
  constexpr auto third = [] {
    kildall::IndexIterator<std::size_t> it(10);
    ++it;
    ++it;
    return *it;
  }();
  static_assert(third == 12);
  CHECK(third == 12);
}
