#include <kildall/lp/solution.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using namespace kildall::lp;

TEST_CASE("a solution without a point refuses values") {
  Solution s;
  s.status = SolveStatus::infeasible;
  CHECK_FALSE(s.has_solution());
  CHECK_THROWS_AS((void)s.value(Var(0)), ModelError);
  CHECK(std::isnan(s.dual(ConstraintRef(0))));
  CHECK(std::isnan(s.reduced_cost(Var(0))));
}

TEST_CASE("a solution with a point evaluates variables and expressions") {
  Solution s;
  s.status = SolveStatus::feasible;
  s.values = {1.0, 2.9999999};
  s.row_duals = {0.5};
  CHECK(s.has_solution());
  CHECK(s.value(Var(1)) == 2.9999999);
  CHECK(s.int_value(Var(1)) == 3);
  CHECK(s.value(2 * Var(0) + Var(1) + 1) == doctest::Approx(5.9999999));
  CHECK(s.dual(ConstraintRef(0)) == 0.5);
  CHECK_THROWS_AS((void)s.value(Var(2)), ModelError);
}

TEST_CASE("statuses have names and gaps are relative") {
  CHECK(std::string(to_string(SolveStatus::no_solution)) == "no_solution");
  CHECK(std::string(to_string(SolveStatus::optimal)) == "optimal");
  CHECK(relative_gap(10.0, 10.0) == 0.0);
  CHECK(relative_gap(10.0, 8.0) == doctest::Approx(0.2));
  CHECK(relative_gap(-10.0, -12.0) == doctest::Approx(0.2));
  CHECK(std::isnan(relative_gap(Solution::nan, 1.0)));
}
