#include <kildall/lp/constraint.hpp>

#include <doctest/doctest.h>

#include <random>
#include <vector>

using namespace kildall::lp;

TEST_CASE("comparisons move variables left and constants into the bounds") {
  const Var x(0), y(1), z(2);
  const LinearConstraint c = 2 * x + y - 3 <= z;
  CHECK(c.lower() == -inf);
  CHECK(c.upper() == 3.0);
  CHECK(c.expr().constant() == 0.0);
  REQUIRE(c.expr().terms().size() == 3);
  CHECK(c.expr().terms()[2].coefficient == -1.0);

  const LinearConstraint ge = x + y >= 1;
  CHECK(ge.lower() == 1.0);
  CHECK(ge.upper() == inf);
  const LinearConstraint eq = (x == y + 4);
  CHECK(eq.lower() == 4.0);
  CHECK(eq.upper() == 4.0);
  const LinearConstraint flipped = 5 >= x;
  CHECK(flipped.upper() == 5.0);
  CHECK(flipped.lower() == -inf);
}

TEST_CASE("ranged constraints: lo <= expr <= hi and hi >= expr >= lo") {
  const Var x(0), y(1);
  const LinearConstraint r = 1 <= x - y + 2 <= 6;
  CHECK(r.lower() == -1.0);
  CHECK(r.upper() == 4.0);
  const LinearConstraint s = 6 >= x + 1 >= 2;
  CHECK(s.lower() == 1.0);
  CHECK(s.upper() == 5.0);
  const LinearConstraint t = range(-1.0, x + y, 1.0);
  CHECK(t.lower() == -1.0);
  CHECK(t.upper() == 1.0);
  // A chain whose first comparison is not "constant <= expression" is refused.
  CHECK_THROWS_AS((void)((x <= y) <= 3.0), ModelError);
  CHECK_THROWS_AS((void)((x >= y) >= 3.0), ModelError);
  CHECK_THROWS_AS((void)(((1 <= x) <= 3.0) <= 4.0), ModelError);
  CHECK((x <= LinExpr(inf)).upper() == inf);  // a constant side may be infinite (no bound)
  CHECK_THROWS_AS((void)(x + LinExpr(inf) <= y), ModelError);
}

TEST_CASE("satisfied_by agrees with evaluating both sides of the comparison") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> num(-4.0, 4.0);
  const Var x(0), y(1), z(2);
  for (int trial = 0; trial < 300; ++trial) {
    const std::vector<double> at{num(rng), num(rng), num(rng)};
    const double a = num(rng), b = num(rng);
    const LinExpr lhs = a * x + y - b;
    const LinExpr rhs = z + 0.5 * x;
    const double l = lhs.evaluate(at), r = rhs.evaluate(at);
    CHECK((lhs <= rhs).satisfied_by(at) == (l <= r + 1e-9));
    CHECK((lhs >= rhs).satisfied_by(at) == (l >= r - 1e-9));
    CHECK((b <= lhs <= b + 1).satisfied_by(at) == (l >= b - 1e-9 && l <= b + 1 + 1e-9));
  }
}

TEST_CASE("constraint handles compare by slot") {
  CHECK(ConstraintRef(3) == ConstraintRef(3));
  CHECK_FALSE(ConstraintRef(3) == ConstraintRef(4));
  CHECK_FALSE(ConstraintRef().valid());
}
