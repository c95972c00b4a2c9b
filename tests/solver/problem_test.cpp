#include <kildall/solver/problem.hpp>

#include <doctest/doctest.h>

#include <type_traits>
#include <vector>

namespace {
struct Problem {
  using lattice_type = int;
};
}  // namespace

TEST_CASE("lattice_t names a problem's lattice") {
  static_assert(std::is_same_v<kildall::lattice_t<Problem>, int>);
  static_assert(kildall::detail::RangeOf<std::vector<int>, long>);
  static_assert(!kildall::detail::RangeOf<int, int>);
  CHECK(true);
}
