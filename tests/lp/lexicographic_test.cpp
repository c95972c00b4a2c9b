#include <kildall/lp/lexicographic.hpp>

#include "lp_test_support.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

using namespace kildall::lp;
using kildall::lp::testing::BruteForceBackend;
using kildall::lp::testing::feasible;

namespace {

// Oracle: enumerate all points, keep the optimal ones level by level.
std::vector<double> lexicographic_optimum(const Model& m) {
  std::vector<std::vector<double>> points;
  std::vector<double> x(m.num_vars());
  for (std::size_t j = 0; j < x.size(); ++j) x[j] = m.vars()[j].lower;
  for (;;) {
    if (feasible(m, x)) points.push_back(x);
    std::size_t j = 0;
    for (; j < x.size(); ++j) {
      if (x[j] + 1 <= m.vars()[j].upper) {
        x[j] += 1;
        break;
      }
      x[j] = m.vars()[j].lower;
    }
    if (j == x.size()) break;
  }
  std::vector<double> values;
  for (const Objective& o : m.objectives()) {
    const double dir = o.sense == Sense::minimize ? 1.0 : -1.0;
    double best = INFINITY;
    for (const auto& p : points) best = std::min(best, dir * o.expr.evaluate(p));
    std::erase_if(points, [&](const auto& p) { return dir * o.expr.evaluate(p) > best + 1e-9; });
    values.push_back(dir * best);
  }
  return values;
}

// A backend that records the warm starts it receives.
struct RecordingBackend {
  BruteForceBackend inner;
  std::vector<std::vector<double>> starts;
  Solution solve(const Model& m) {
    starts.emplace_back();
    return inner.solve(m);
  }
  Solution solve(const Model& m, std::span<const double> start) {
    starts.emplace_back(start.begin(), start.end());
    return inner.solve(m);
  }
};
static_assert(WarmStartBackend<RecordingBackend>);
static_assert(!WarmStartBackend<BruteForceBackend>);

}  // namespace

TEST_CASE("lexicographic levels on random small integer models match exhaustive enumeration") {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> coef(-3, 3);
  for (int trial = 0; trial < 40; ++trial) {
    Model m;
    std::vector<Var> v;
    for (int j = 0; j < 4; ++j) v.push_back(m.add_integer(0, 3));
    for (int i = 0; i < 2; ++i) {
      LinExpr e;
      for (const Var x : v) e.add_term(x, coef(rng));
      (void)m.add(e <= 4);
    }
    for (int k = 0; k < 3; ++k) {
      LinExpr e;
      for (const Var x : v) e.add_term(x, coef(rng));
      m.add_objective(k == 1 ? Sense::maximize : Sense::minimize, e);
    }
    BruteForceBackend backend;
    const Solution s = solve_lexicographic(m, backend);
    const std::vector<double> want = lexicographic_optimum(m);
    REQUIRE(s.status == SolveStatus::optimal);
    REQUIRE(s.level_objectives.size() == 3);
    for (std::size_t k = 0; k < 3; ++k) CHECK(s.level_objectives[k] == doctest::Approx(want[k]));
    CHECK(s.objective == doctest::Approx(want[0]));
    CHECK(backend.calls == 3);
  }
}

TEST_CASE("a tie-break level never changes the primary optimum (a small weighted sum does)") {
  // minimize count of chosen items subject to covering 3 units; tie-break:
  // maximize a large secondary value. A 0.001-weighted sum trades the primary
  // away once the secondary is large enough.
  Model m;
  const Var a = m.add_integer(0, 1), b = m.add_integer(0, 1), c = m.add_integer(0, 1);
  (void)m.add(3 * a + 2 * b + 1 * c >= 3);
  const LinExpr primary = a + b + c;
  const LinExpr secondary = 100 * a + 2000 * b + 2000 * c;
  Model weighted = m;
  weighted.minimize(primary - 0.001 * secondary);
  m.minimize(primary);
  m.add_objective(Sense::maximize, secondary);
  BruteForceBackend backend;
  const Solution lex = solve_lexicographic(m, backend);
  const Solution sum = backend.solve(weighted);
  CHECK(lex.objective == 1.0);                       // primary optimum kept
  CHECK(lex.level_objectives[1] == 100.0);
  CHECK(primary.evaluate(sum.values) == 2.0);        // the weighted sum gave it up
}

TEST_CASE("a failing level is reported with its name; warm starts chain levels") {
  Model m;
  const Var x = m.add_integer(0, 3), y = m.add_integer(0, 3);
  (void)m.add(x + y >= 2);
  m.minimize(x + y, "first");
  m.add_objective(Sense::maximize, x, "second");
  RecordingBackend backend;
  const Solution s = solve_lexicographic(m, backend, std::vector<double>{2.0, 0.0});
  REQUIRE(s.status == SolveStatus::optimal);
  REQUIRE(backend.starts.size() == 2);
  CHECK(backend.starts[0] == std::vector<double>{2.0, 0.0});  // the user's start for level 1
  CHECK(backend.starts[1].size() == 2);                         // level 1's point for level 2
  CHECK(s.value(x) == 2.0);

  Model bad = m;
  (void)bad.add(x + y <= 1);
  BruteForceBackend brute;
  const Solution f = solve_lexicographic(bad, brute);
  CHECK(f.status == SolveStatus::infeasible);
  CHECK(f.message.find("level 1 (first)") != std::string::npos);
}

TEST_CASE("single-level and objective-free models go straight to the backend") {
  Model m;
  const Var x = m.add_integer(0, 2);
  m.maximize(x);
  BruteForceBackend backend;
  const Solution s = solve_lexicographic(m, backend);
  CHECK(backend.calls == 1);
  CHECK(s.objective == 2.0);
  REQUIRE(s.level_objectives.size() == 1);
}
