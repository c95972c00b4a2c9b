// Every helper is checked exactly by brute force: for every integer point of
// a tiny model (inputs and all auxiliary binaries), the set of values the
// helper's result can take is computed with feasible_interval and must be
// exactly the intended value (or empty exactly when the semantics say so).
#include <kildall/lp/linearize.hpp>

#include "lp_test_support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

using namespace kildall::lp;
using kildall::lp::testing::feasible;
using kildall::lp::testing::feasible_interval;

namespace {

// Calls f(x) for every integer point of the variables `vars` (others keep x's values).
void for_each_point(const Model& m, const std::vector<Var>& vars, std::vector<double> x,
                    const std::function<void(const std::vector<double>&)>& f) {
  std::function<void(std::size_t)> rec = [&](std::size_t k) {
    if (k == vars.size()) {
      f(x);
      return;
    }
    for (double v = m.lower(vars[k]); v <= m.upper(vars[k]); v += 1.0) {
      x[vars[k].index()] = v;
      rec(k + 1);
    }
  };
  rec(0);
}

// Variables created after index `first` that are binary (auxiliaries).
std::vector<Var> aux_binaries(const Model& m, std::size_t first) {
  std::vector<Var> out;
  for (std::size_t j = first; j < m.num_vars(); ++j)
    if (m.vars()[j].type == VarType::binary) out.push_back(Var(static_cast<std::uint32_t>(j)));
  return out;
}

// The values `result` can take over all auxiliary binary assignments, as the
// hull [lo, hi] of the feasible intervals (empty: lo > hi), for inputs at x.
std::pair<double, double> reachable(const Model& m, const std::vector<double>& x, Var result, std::size_t first_aux) {
  double lo = INFINITY, hi = -INFINITY;
  for_each_point(m, aux_binaries(m, first_aux), x, [&](const std::vector<double>& y) {
    const auto [l, h] = feasible_interval(m, y, result);
    if (l <= h + 1e-9) {
      lo = std::min(lo, l);
      hi = std::max(hi, h);
    }
  });
  return {lo, hi};
}

}  // namespace

TEST_CASE("bounds_of is the exact range of an expression over the variable box") {
  Model m;
  const Var x = m.add_integer(-2, 3), y = m.add_integer(0, 4), z = m.add_integer(-1, 1);
  const LinExpr e = 2 * x - 3 * y + z + 1;
  const Interval r = bounds_of(m, e);
  double lo = INFINITY, hi = -INFINITY;
  for_each_point(m, {x, y, z}, std::vector<double>(3), [&](const std::vector<double>& p) {
    lo = std::min(lo, e.evaluate(p));
    hi = std::max(hi, e.evaluate(p));
  });
  CHECK(r.lower == lo);
  CHECK(r.upper == hi);
  const Var u = m.add_continuous(0, inf);
  CHECK(bounds_of(m, x - u).lower == -inf);
  CHECK(bounds_of(m, x - u).upper == 3.0);
}

TEST_CASE("implies enforces the constraint exactly when the literal is 1") {
  for (int negated = 0; negated < 2; ++negated) {
    for (int kind = 0; kind < 3; ++kind) {
      Model m;
      const Var b = m.add_binary("b");
      const Var x = m.add_integer(-3, 3, "x"), y = m.add_integer(-2, 2, "y");
      const LinExpr lit = negated ? logical_not(b) : LinExpr(b);
      const LinExpr e = x + 2 * y;
      const LinearConstraint c = kind == 0 ? (e <= 1) : kind == 1 ? (e >= -1) : (e == 2);
      const auto rows = implies(m, lit, c, "ind");
      CHECK(rows.size() == (kind == 2 ? 2u : 1u));
      for_each_point(m, {b, x, y}, std::vector<double>(3), [&](const std::vector<double>& p) {
        const bool active = lit.evaluate(p) > 0.5;
        const bool holds = c.satisfied_by(p);
        CHECK(feasible(m, p) == (!active || holds));
      });
      // The M is the smallest valid one: with the literal at 0, each added row is
      // tight at some point of the box (a smaller M would cut it off).
      for (const ConstraintRef r : rows) {
        double best = -INFINITY;
        const Row& row = m.row(r);
        for_each_point(m, {b, x, y}, std::vector<double>(3), [&](const std::vector<double>& p) {
          if (lit.evaluate(p) > 0.5) return;
          const double a = row.expr.evaluate(p);
          best = std::max(best, row.upper != inf ? a - row.upper : row.lower - a);
        });
        CHECK(best == 0.0);
      }
    }
  }
}

TEST_CASE("implies adds nothing when the bounds already imply the constraint") {
  Model m;
  const Var b = m.add_binary();
  const Var x = m.add_integer(0, 3);
  CHECK(implies(m, b, x <= 5).empty());
  CHECK(m.num_constraints() == 0);
}

TEST_CASE("helpers refuse infinite big-M with the variable's name and leave the model unchanged") {
  Model m;
  const Var b = m.add_binary("b");
  const Var x = m.add_continuous(0, inf, "unbounded_x");
  const Var y = m.add_continuous(0, 5, "y");
  const std::size_t vars = m.num_vars();
  try {
    (void)implies(m, b, x + y <= 3);
    FAIL("expected ModelError");
  } catch (const ModelError& e) {
    CHECK(std::string(e.what()).find("unbounded_x") != std::string::npos);
    CHECK(std::string(e.what()).find("upper") != std::string::npos);
  }
  CHECK_THROWS_AS((void)if_then_else(m, b, x, y), ModelError);
  CHECK_THROWS_AS((void)max_of(m, {x, y}), ModelError);
  CHECK_THROWS_AS((void)min_of(m, {x, y}), ModelError);
  const Var r = m.add_continuous(0, 10, "r");
  CHECK_THROWS_AS((void)constrain_if_then_else(m, r, b, x, y), ModelError);
  CHECK(m.num_vars() == vars + 1);
  CHECK(m.num_constraints() == 0);
  // But a lower bound that M does not need may be infinite.
  const Var w = m.add_continuous(-inf, 4, "w");
  CHECK_NOTHROW((void)implies(m, b, w <= 2));
}

TEST_CASE("indicators must be 0/1 literals") {
  Model m;
  const Var b = m.add_binary(), c = m.add_continuous(0, 1), n = m.add_integer(0, 2);
  const Var x = m.add_integer(0, 3);
  CHECK_THROWS_AS((void)implies(m, c, x <= 1), ModelError);
  CHECK_THROWS_AS((void)implies(m, 2 * b, x <= 1), ModelError);
  CHECK_THROWS_AS((void)implies(m, n, x <= 1), ModelError);
  CHECK_THROWS_AS((void)logical_and(m, {b, c}), ModelError);
  CHECK_NOTHROW((void)implies(m, 1 - b, x <= 1));
}

TEST_CASE("if_then_else is exactly the multiplexer z ? t : f") {
  for (int negated = 0; negated < 2; ++negated) {
    Model m;
    const Var b = m.add_binary("b");
    const Var x = m.add_integer(-2, 3, "x"), y = m.add_integer(0, 4, "y");
    const LinExpr lit = negated ? logical_not(b) : LinExpr(b);
    const LinExpr t = x + y, f = 2 * x - 1;
    const std::size_t first = m.num_vars();
    const Var r = if_then_else(m, lit, t, f, "mux");
    CHECK(aux_binaries(m, first).empty());
    for_each_point(m, {b, x, y}, std::vector<double>(m.num_vars()), [&](const std::vector<double>& p) {
      const double want = lit.evaluate(p) > 0.5 ? t.evaluate(p) : f.evaluate(p);
      const auto [lo, hi] = feasible_interval(m, p, r);
      CHECK(lo == doctest::Approx(want));
      CHECK(hi == doctest::Approx(want));
    });
  }
}

TEST_CASE("constrain_if_then_else on a bounded result: the selected branch must fit the bounds") {
  // The article's shape: noise = reduce ? 12 : lhs + rhs, with noise <= 26.
  Model m;
  const Var reduce = m.add_binary("reduce");
  const Var lhs = m.add_integer(10, 16, "lhs"), rhs = m.add_integer(10, 16, "rhs");
  const Var noise = m.add_continuous(0, 26, "noise");
  (void)constrain_if_then_else(m, noise, reduce, 12, lhs + rhs, "mul");
  CHECK(m.num_constraints() <= 4);
  for_each_point(m, {reduce, lhs, rhs}, std::vector<double>(m.num_vars()), [&](const std::vector<double>& p) {
    const double want = p[reduce.index()] > 0.5 ? 12.0 : p[lhs.index()] + p[rhs.index()];
    const auto [lo, hi] = feasible_interval(m, p, noise);
    if (want <= 26.0) {
      CHECK(lo == doctest::Approx(want));
      CHECK(hi == doctest::Approx(want));
    } else {
      CHECK(lo > hi);
    }
  });
}

TEST_CASE("max_of and min_of are exact, with binaries only among possible maxima") {
  for (int use_min = 0; use_min < 2; ++use_min) {
    Model m;
    const Var x = m.add_integer(-2, 3, "x"), y = m.add_integer(0, 2, "y"), z = m.add_integer(-1, 1, "z");
    const std::vector<LinExpr> exprs{x, y + 1, 2 - x, z - 5};  // z - 5 never wins a max
    const std::size_t first = m.num_vars();
    const Var r = use_min ? min_of(m, exprs, "ext") : max_of(m, exprs, "ext");
    CHECK(aux_binaries(m, first).size() <= exprs.size());
    for_each_point(m, {x, y, z}, std::vector<double>(m.num_vars()), [&](const std::vector<double>& p) {
      double want = exprs[0].evaluate(p);
      for (const LinExpr& e : exprs) want = use_min ? std::min(want, e.evaluate(p)) : std::max(want, e.evaluate(p));
      const auto [lo, hi] = reachable(m, p, r, first);
      CHECK(lo == doctest::Approx(want));
      CHECK(hi == doctest::Approx(want));
    });
  }
}

TEST_CASE("max_of with two candidates uses one binary, and none when one dominates") {
  Model m;
  const Var x = m.add_integer(0, 5), y = m.add_integer(0, 5);
  std::size_t first = m.num_vars();
  (void)max_of(m, {x, y});
  CHECK(aux_binaries(m, first).size() == 1);
  first = m.num_vars();
  const Var r = max_of(m, {x, LinExpr(7.0), y + 2});
  CHECK(aux_binaries(m, first).empty());
  CHECK(m.lower(r) == 7.0);
  CHECK(m.upper(r) == 7.0);
  // The article's add op: 1 + max(lhs, rhs) needs no objective penalty.
  first = m.num_vars();
  const Var big = m.add_continuous(-inf, inf);
  const Var only = max_of(m, {big});  // a single expression may be unbounded
  CHECK(m.lower(only) == -inf);
}

TEST_CASE("abs_of is exact, and binary-free when the sign is known") {
  Model m;
  const Var x = m.add_integer(-3, 2, "x"), y = m.add_integer(-1, 2, "y");
  const std::size_t first = m.num_vars();
  const Var a = abs_of(m, x - y, "a");
  CHECK(aux_binaries(m, first).size() == 1);
  for_each_point(m, {x, y}, std::vector<double>(m.num_vars()), [&](const std::vector<double>& p) {
    const double want = std::abs(p[x.index()] - p[y.index()]);
    const auto [lo, hi] = reachable(m, p, a, first);
    CHECK(lo == doctest::Approx(want));
    CHECK(hi == doctest::Approx(want));
  });
  const std::size_t before = m.num_vars();
  const Var pos = m.add_integer(1, 4);
  (void)abs_of(m, pos - 5);
  CHECK(aux_binaries(m, before).empty());
}

TEST_CASE("logical and / or / not of literals are exact") {
  for (int op = 0; op < 2; ++op) {
    for (std::size_t n = 0; n <= 3; ++n) {
      Model m;
      std::vector<Var> bs;
      std::vector<LinExpr> lits;
      for (std::size_t k = 0; k < n; ++k) {
        bs.push_back(m.add_binary());
        lits.push_back(k == 1 ? logical_not(bs.back()) : LinExpr(bs.back()));
      }
      const Var r = op == 0 ? logical_and(m, lits) : logical_or(m, lits);
      for_each_point(m, bs, std::vector<double>(m.num_vars()), [&](const std::vector<double>& p) {
        bool want = op == 0;
        for (const LinExpr& l : lits) want = op == 0 ? (want && l.evaluate(p) > 0.5) : (want || l.evaluate(p) > 0.5);
        std::vector<double> q = p;
        q[r.index()] = want ? 1.0 : 0.0;
        CHECK(feasible(m, q));
        q[r.index()] = want ? 0.0 : 1.0;
        CHECK_FALSE(feasible(m, q));
      });
    }
  }
}
