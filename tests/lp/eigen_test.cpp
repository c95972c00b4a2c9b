#include <kildall/lp/eigen.hpp>
#include <kildall/lp/linearize.hpp>

#include "lp_test_support.hpp"

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#ifdef KILDALL_TEST_WITH_GLPK
#include <kildall/lp/glpk.hpp>
#endif

using namespace kildall::lp;

TEST_CASE("to_eigen exports live rows, bounds and the objective") {
  Model m;
  const Var x = m.add_continuous(-1, 4, "x"), y = m.add_integer(0, inf, "y");
  const ConstraintRef a = m.add(x + 2 * y <= 5, "a");
  const ConstraintRef gone = m.add(x >= 0, "gone");
  const ConstraintRef c = m.add(1 <= 3 * x - y <= 2, "c");
  m.remove(gone);
  m.maximize(2 * x - y + 7);
  const EigenModel e = to_eigen(m);
  REQUIRE(e.a.rows() == 2);
  REQUIRE(e.a.cols() == 2);
  CHECK(e.a.nonZeros() == 4);
  CHECK(e.a.coeff(0, 1) == 2.0);
  CHECK(e.a.coeff(1, 0) == 3.0);
  CHECK(e.row_upper[0] == 5.0);
  CHECK(e.row_lower[0] == -inf);
  CHECK(e.row_lower[1] == 1.0);
  CHECK(e.row_refs[0] == a);
  CHECK(e.row_refs[1] == c);
  CHECK(e.col_upper[1] == inf);
  CHECK(e.integral[1] == 1);
  CHECK(e.cost[0] == 2.0);
  CHECK(e.cost_constant == 7.0);
  CHECK(e.sense == Sense::maximize);
}

TEST_CASE("check finds the worst violation of each kind by name") {
  Model m;
  const Var x = m.add_continuous(0, 10, "x"), n = m.add_integer(0, 5, "n");
  (void)m.add(x + n <= 8, "cap");
  (void)m.add(x - n >= -1, "diff");
  m.minimize(x + n);
  auto at = [](std::vector<double> v) { return v; };
  CheckReport r = check(m, at({3, 2}));
  CHECK(r.ok);
  CHECK(r.kind == ViolationKind::none);
  CHECK(r.objective == 5.0);
  r = check(m, at({7, 3}));  // cap: 10 > 8
  CHECK_FALSE(r.ok);
  CHECK(r.kind == ViolationKind::row);
  CHECK(r.worst == "constraint cap");
  CHECK(r.max_violation == doctest::Approx(2.0 / 8.0));
  r = check(m, at({-0.5, 0}));
  CHECK(r.kind == ViolationKind::bound);
  CHECK(r.worst == "variable x");
  r = check(m, at({2, 2.5}));
  CHECK(r.kind == ViolationKind::integrality);
  CHECK(r.worst == "variable n");
  CHECK(check(m, at({1})).kind == ViolationKind::missing);
  CHECK(check(m, at({1, NAN})).kind == ViolationKind::missing);

  Solution s;
  s.status = SolveStatus::optimal;
  s.values = {3, 2};
  s.objective = 5.0;
  CHECK(check(m, s).ok);
  s.objective = 6.0;
  r = check(m, s);
  CHECK_FALSE(r.ok);
  CHECK(r.kind == ViolationKind::objective);
  s.status = SolveStatus::infeasible;
  CHECK(check(m, s).kind == ViolationKind::missing);
}

TEST_CASE("check agrees with the row-by-row oracle on random points") {
  std::mt19937 rng(21);
  std::uniform_real_distribution<double> jitter(-0.01, 0.01);
  for (int trial = 0; trial < 50; ++trial) {
    const Model m = kildall::lp::testing::random_model(rng);
    std::vector<double> x(m.num_vars());
    for (std::size_t j = 0; j < x.size(); ++j) {
      std::uniform_int_distribution<int> d(static_cast<int>(m.vars()[j].lower), static_cast<int>(m.vars()[j].upper));
      x[j] = d(rng);
    }
    CHECK(check(m, x, 1e-9).ok == kildall::lp::testing::feasible(m, x));
    x[0] += jitter(rng);  // non-integral: must fail
    CHECK_FALSE(check(m, x, 1e-9).ok);
  }
}

#ifdef KILDALL_TEST_WITH_GLPK
TEST_CASE("every GLPK solution of random MILPs passes the independent check") {
  std::mt19937 rng(33);
  int checked = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const Model m = kildall::lp::testing::random_model(rng, 8, 6);
    const Solution s = solve_glpk(m);
    if (!s.has_solution()) continue;
    const CheckReport r = check(m, s);
    CHECK_MESSAGE(r.ok, r.message);
    ++checked;
    // Moving a variable to break a row is caught and named.
    Solution broken = s;
    broken.values[0] = m.vars()[0].upper + 1;
    CHECK_FALSE(check(m, broken).ok);
  }
  CHECK(checked > 10);
}
#endif
