#include <kildall/lp/expression.hpp>

#include <doctest/doctest.h>

#include <array>
#include <random>
#include <vector>

using namespace kildall::lp;

TEST_CASE("operators build affine expressions with constants folded") {
  const Var x(0), y(1);
  const LinExpr e = 2 * x + y - 3;
  CHECK(e.constant() == -3.0);
  REQUIRE(e.terms().size() == 2);
  const std::array<double, 2> at{5.0, 7.0};
  CHECK(e.evaluate(at) == 2 * 5.0 + 7.0 - 3);
  CHECK((x * 2 - 1 + 4).constant() == 3.0);
  CHECK((-(x - y)).evaluate(at) == 2.0);
  CHECK(((x + y) / 2).evaluate(at) == 6.0);
  CHECK(LinExpr(4.5).is_constant());
}

TEST_CASE("repeated variables are merged by normalize, zeros dropped") {
  const Var x(3), y(1);
  LinExpr e = x + x + y - y + 2 * x;
  e.normalize();
  REQUIRE(e.terms().size() == 1);
  CHECK(e.terms()[0].var.index() == 3);
  CHECK(e.terms()[0].coefficient == 4.0);
  // Sorted by variable and idempotent.
  LinExpr f = 5 * x + 1 * y + 2 * Var(2) + x;
  f.normalize();
  REQUIRE(f.terms().size() == 3);
  CHECK(f.terms()[0].var.index() == 1);
  CHECK(f.terms()[1].var.index() == 2);
  CHECK(f.terms()[2].var.index() == 3);
  CHECK(f.terms()[2].coefficient == 6.0);
  const LinExpr g = f.normalized();
  CHECK(g.terms().size() == f.terms().size());
}

TEST_CASE("sum and dot over ranges") {
  const std::vector<Var> v{Var(0), Var(1), Var(2), Var(1)};
  const std::array<double, 3> at{1.0, 10.0, 100.0};
  CHECK(sum(v).evaluate(at) == 121.0);
  const std::vector<double> c{1.0, 2.0, 3.0, -1.0};
  CHECK(dot(c, v).evaluate(at) == 1.0 + 20.0 + 300.0 - 10.0);
  CHECK(dot(c, v).normalized().terms().size() == 3);
  const std::vector<LinExpr> exprs{Var(0) + 1, 2 * Var(2)};
  CHECK(sum(exprs).evaluate(at) == 202.0);
  CHECK_THROWS_AS((void)dot(std::vector<double>{1.0}, v), std::invalid_argument);
}

TEST_CASE("random expression trees evaluate like the same arithmetic on numbers") {
  std::mt19937 rng(42);
  std::uniform_int_distribution<int> pick(0, 5);
  std::uniform_int_distribution<int> var(0, 4);
  std::uniform_real_distribution<double> num(-3.0, 3.0);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> at(5);
    for (double& a : at) a = num(rng);
    LinExpr e;
    double reference = 0.0;
    for (int step = 0; step < 12; ++step) {
      const Var v(static_cast<std::uint32_t>(var(rng)));
      const double k = num(rng);
      switch (pick(rng)) {
        case 0: e = e + v; reference += at[v.index()]; break;
        case 1: e = e - k * v; reference -= k * at[v.index()]; break;
        case 2: e = e * k; reference *= k; break;
        case 3: e += k; reference += k; break;
        case 4: e = v * k + e; reference += k * at[v.index()]; break;
        default: e = -e; reference = -reference; break;
      }
    }
    CHECK(e.evaluate(at) == doctest::Approx(reference).epsilon(1e-9));
    CHECK(e.normalized().evaluate(at) == doctest::Approx(reference).epsilon(1e-9));
  }
}
