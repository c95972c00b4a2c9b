#include <kildall/lp/variable.hpp>

#include <doctest/doctest.h>

#include <unordered_set>

using namespace kildall::lp;

TEST_CASE("Var handles are small index values; the default handle is invalid") {
  static_assert(sizeof(Var) == 4);
  constexpr Var none;
  CHECK_FALSE(none.valid());
  constexpr Var v(7);
  CHECK(v.valid());
  CHECK(v.index() == 7);
  std::unordered_set<Var> set{Var(1), Var(2), Var(1)};
  CHECK(set.size() == 2);
}

TEST_CASE("VarInfo defaults to a continuous variable in [0, inf) and knows integrality") {
  VarInfo info;
  CHECK(info.lower == 0.0);
  CHECK(info.upper == inf);
  CHECK_FALSE(info.is_integral());
  info.type = VarType::integer;
  CHECK(info.is_integral());
  info.type = VarType::binary;
  CHECK(info.is_integral());
  CHECK(std::string(to_string(VarType::binary)) == "binary");
  CHECK(std::string(to_string(VarType::continuous)) == "continuous");
}
