#pragma once
/// \file
/// Big-M linearizations of logical and piecewise constructs over a Model:
/// indicator constraints (`implies`), the bit-controlled multiplexer
/// (`if_then_else`), exact `max_of` / `min_of` / `abs_of`, and `and` / `or` /
/// `not` of 0/1 literals. These are the textbook formulations (e.g. Williams,
/// "Model Building in Mathematical Programming", ch. 9; Vielma, "Mixed
/// Integer Linear Programming Formulation Techniques", SIAM Review 2015).
/// Every M is computed from the variable bounds by interval arithmetic and is
/// the smallest value valid for those bounds; when a bound that M needs is
/// infinite, the helper throws ModelError naming the unbounded variable
/// instead of guessing a constant.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <kildall/lp/constraint.hpp>
#include <kildall/lp/error.hpp>
#include <kildall/lp/expression.hpp>
#include <kildall/lp/model.hpp>
#include <kildall/lp/variable.hpp>

namespace kildall::lp {

/// A closed interval `[lower, upper]` (bounds may be infinite).
struct Interval {
  double lower = -inf;  ///< smallest value (-inf if unbounded below)
  double upper = inf;   ///< largest value (+inf if unbounded above)
};

/// The range of `expr` over the box given by the variable bounds of `model`
/// (exact for the box: each term attains its extreme independently).
[[nodiscard]] inline Interval bounds_of(const Model& model, const LinExpr& expr) {
  Interval r{expr.constant(), expr.constant()};
  for (const Term& t : expr.terms()) {
    if (t.coefficient == 0.0) continue;
    const VarInfo& v = model.info(t.var);
    const double a = t.coefficient * (t.coefficient > 0 ? v.lower : v.upper);
    const double b = t.coefficient * (t.coefficient > 0 ? v.upper : v.lower);
    r.lower += a;
    r.upper += b;
  }
  return r;
}

namespace detail {

// Message naming the variable that makes `expr` unbounded in one direction.
[[nodiscard]] inline std::string unbounded_culprit(const Model& model, const LinExpr& expr, bool above) {
  for (const Term& t : expr.terms()) {
    const VarInfo& v = model.info(t.var);
    const bool up = (t.coefficient > 0) == above;
    if ((up && v.upper == inf) || (!up && v.lower == -inf)) {
      return "variable " + model.display_name(t.var) + " has no finite " + (up ? "upper" : "lower") + " bound";
    }
  }
  return "the expression is unbounded";
}

[[nodiscard]] inline double finite_max(const Model& model, const LinExpr& expr, const char* helper) {
  const double u = bounds_of(model, expr).upper;
  if (u == inf) {
    throw ModelError(std::string(helper) + ": cannot compute big-M: " + unbounded_culprit(model, expr, true));
  }
  return u;
}

[[nodiscard]] inline double finite_min(const Model& model, const LinExpr& expr, const char* helper) {
  const double l = bounds_of(model, expr).lower;
  if (l == -inf) {
    throw ModelError(std::string(helper) + ": cannot compute big-M: " + unbounded_culprit(model, expr, false));
  }
  return l;
}

[[nodiscard]] inline bool is_integral_number(double x) noexcept { return std::isfinite(x) && std::floor(x) == x; }

// Throws unless `lit` only takes the values 0 and 1: integral variables with
// integral coefficients and a range within [0, 1] (e.g. `b` or `1 - b`).
inline LinExpr checked_literal(const Model& model, const LinExpr& lit, const char* helper) {
  LinExpr e = lit.normalized();
  model.validate(e, helper);
  bool ok = is_integral_number(e.constant());
  for (const Term& t : e.terms()) ok = ok && model.info(t.var).is_integral() && is_integral_number(t.coefficient);
  const Interval range = bounds_of(model, e);
  if (!ok || range.lower < 0.0 || range.upper > 1.0) {
    throw ModelError(std::string(helper) +
                     ": indicator must be a 0/1 literal (a binary variable b or 1 - b, or another integral "
                     "expression with range within [0, 1])");
  }
  return e;
}

[[nodiscard]] inline std::string suffixed(const std::string& name, const char* suffix) {
  return name.empty() ? std::string() : name + suffix;
}

}  // namespace detail

/// Adds rows that enforce `constraint` when the 0/1 literal `indicator` is 1
/// and nothing (beyond the variable bounds) when it is 0:
/// `expr <= hi + M (1 - z)` with `M = max(expr) - hi`, and the mirror row for
/// a lower bound. Rows whose M would be <= 0 are implied by the bounds and
/// are not added. Returns the rows added (named `name_ub`, `name_lb`).
inline std::vector<ConstraintRef> implies(Model& model, const LinExpr& indicator, const LinearConstraint& constraint,
                                          const std::string& name = {}) {
  const LinExpr z = detail::checked_literal(model, indicator, "implies");
  const LinExpr& e = constraint.expr();
  model.validate(e, "implies");
  // Compute both M first so that a failure leaves the model unchanged.
  const double m_up = constraint.upper() != inf ? detail::finite_max(model, e, "implies") - constraint.upper() : 0.0;
  const double m_lo = constraint.lower() != -inf ? constraint.lower() - detail::finite_min(model, e, "implies") : 0.0;
  std::vector<ConstraintRef> rows;
  if (m_up > 0.0) rows.push_back(model.add(e + m_up * z <= constraint.upper() + m_up, detail::suffixed(name, "_ub")));
  if (m_lo > 0.0) rows.push_back(model.add(e - m_lo * z >= constraint.lower() - m_lo, detail::suffixed(name, "_lb")));
  return rows;
}

/// Constrains an existing variable `result` to equal `if_true` when the 0/1
/// literal `indicator` is 1 and `if_false` when it is 0 (up to four rows,
/// each with its smallest valid M). Note that `result`'s bounds still apply
/// to the selected branch (e.g. a noise bound of 26).
inline std::vector<ConstraintRef> constrain_if_then_else(Model& model, Var result, const LinExpr& indicator,
                                                         const LinExpr& if_true, const LinExpr& if_false,
                                                         const std::string& name = {}) {
  const LinExpr z = detail::checked_literal(model, indicator, "if_then_else");
  for (const LinExpr* branch : {&if_true, &if_false}) {  // fail before adding anything
    model.validate(*branch, "if_then_else");
    const LinExpr diff = LinExpr(result) - *branch;
    (void)detail::finite_max(model, diff, "if_then_else");
    (void)detail::finite_min(model, diff, "if_then_else");
  }
  std::vector<ConstraintRef> rows = implies(model, z, LinExpr(result) - if_true == 0.0, detail::suffixed(name, "_then"));
  std::vector<ConstraintRef> more = implies(model, 1.0 - z, LinExpr(result) - if_false == 0.0, detail::suffixed(name, "_else"));
  rows.insert(rows.end(), more.begin(), more.end());
  return rows;
}

/// A new continuous variable equal to `if_true` when the 0/1 literal
/// `indicator` is 1 and to `if_false` when it is 0 (the multiplexer
/// `z * if_true + (1 - z) * if_false`). Its bounds are the hull of both
/// branches; both branches need finite bounds.
[[nodiscard]] inline Var if_then_else(Model& model, const LinExpr& indicator, const LinExpr& if_true, const LinExpr& if_false,
                        std::string name = {}) {
  (void)detail::checked_literal(model, indicator, "if_then_else");
  const double lo = std::min(detail::finite_min(model, if_true, "if_then_else"),
                             detail::finite_min(model, if_false, "if_then_else"));
  const double hi = std::max(detail::finite_max(model, if_true, "if_then_else"),
                             detail::finite_max(model, if_false, "if_then_else"));
  const std::string row_name = name;
  const Var r = model.add_continuous(lo, hi, std::move(name));
  (void)constrain_if_then_else(model, r, indicator, if_true, if_false, row_name);
  return r;
}

namespace detail {

// r = sign * max_i(sign * e_i): max for sign = +1, min for sign = -1.
inline Var extremum(Model& model, const std::vector<LinExpr>& exprs, double sign, std::string name, const char* helper) {
  if (exprs.empty()) throw ModelError(std::string(helper) + ": needs at least one expression");
  std::vector<LinExpr> f;
  std::vector<Interval> range;
  f.reserve(exprs.size());
  for (const LinExpr& e : exprs) {
    model.validate(e, helper);
    f.push_back((sign * e).normalized());
    range.push_back(bounds_of(model, f.back()));
  }
  // The expression with the largest lower bound is always a candidate; any
  // other whose upper bound does not exceed that lower bound can never be the
  // strict maximum, and its `r >= f_j` row is implied.
  std::size_t lead = 0;
  for (std::size_t i = 1; i < f.size(); ++i)
    if (range[i].lower > range[lead].lower) lead = i;
  std::vector<std::size_t> cand{lead};
  for (std::size_t i = 0; i < f.size(); ++i)
    if (i != lead && range[i].upper > range[lead].lower) cand.push_back(i);
  if (cand.size() > 1) {
    for (std::size_t i : cand) {
      const bool no_lower = range[i].lower == -inf;
      if (no_lower || range[i].upper == inf) {
        throw ModelError(std::string(helper) + ": cannot compute big-M: " + unbounded_culprit(model, f[i], !no_lower));
      }
    }
  }
  double r_lo = range[lead].lower;
  double r_hi = -inf;
  for (std::size_t i : cand) r_hi = std::max(r_hi, range[i].upper);
  const std::string row_name = name;
  // result = sign * r, so its bounds are the (possibly swapped) image of [r_lo, r_hi].
  const Var result = sign > 0 ? model.add_continuous(r_lo, r_hi, std::move(name))
                              : model.add_continuous(-r_hi, -r_lo, std::move(name));
  const LinExpr r = sign * LinExpr(result);
  if (cand.size() == 1) {
    (void)model.add(r == f[lead], suffixed(row_name, "_eq"));
    return result;
  }
  for (std::size_t k = 0; k < cand.size(); ++k) {
    (void)model.add(r >= f[cand[k]], suffixed(row_name, (std::string("_ge").append(std::to_string(k))).c_str()));
  }
  // Selection: r <= f_i + M_i (1 - z_i), M_i = max(r) - min(f_i), exactly one z_i = 1.
  std::vector<LinExpr> z;
  if (cand.size() == 2) {
    const Var b = model.add_binary(suffixed(row_name, "_sel"));
    z = {LinExpr(b), 1.0 - LinExpr(b)};
  } else {
    LinExpr total;
    for (std::size_t k = 0; k < cand.size(); ++k) {
      const Var b = model.add_binary(suffixed(row_name, (std::string("_sel").append(std::to_string(k))).c_str()));
      z.emplace_back(b);
      total.add_term(b, 1.0);
    }
    (void)model.add(total == 1.0, suffixed(row_name, "_one"));
  }
  for (std::size_t k = 0; k < cand.size(); ++k) {
    const double m = r_hi - range[cand[k]].lower;
    (void)model.add(r - f[cand[k]] + m * z[k] <= m, suffixed(row_name, (std::string("_le").append(std::to_string(k))).c_str()));
  }
  return result;
}

}  // namespace detail

/// A new continuous variable equal to `max_i exprs[i]` exactly (not an upper
/// bound pushed down by the objective). Expressions that can never be the
/// maximum are dropped; when one expression dominates, no binary is used;
/// otherwise one binary (two candidates) or one per candidate selects the
/// maximum. Candidates need finite bounds.
[[nodiscard]] inline Var max_of(Model& model, const std::vector<LinExpr>& exprs, std::string name = {}) {
  return detail::extremum(model, exprs, 1.0, std::move(name), "max_of");
}

/// A new continuous variable equal to `min_i exprs[i]` exactly (see max_of).
[[nodiscard]] inline Var min_of(Model& model, const std::vector<LinExpr>& exprs, std::string name = {}) {
  return detail::extremum(model, exprs, -1.0, std::move(name), "min_of");
}

/// A new continuous variable equal to `|expr|` exactly (no binary when the
/// sign of `expr` is fixed by the bounds).
[[nodiscard]] inline Var abs_of(Model& model, const LinExpr& expr, std::string name = {}) {
  return detail::extremum(model, {expr, -expr}, 1.0, std::move(name), "abs_of");
}

/// The literal `1 - lit` (logical negation of a 0/1 literal).
[[nodiscard]] inline LinExpr logical_not(const LinExpr& lit) { return 1.0 - lit; }

/// A new binary equal to the conjunction of the 0/1 literals (1 for none).
[[nodiscard]] inline Var logical_and(Model& model, const std::vector<LinExpr>& literals, std::string name = {}) {
  std::vector<LinExpr> lits;
  for (const LinExpr& l : literals) lits.push_back(detail::checked_literal(model, l, "logical_and"));
  const std::string row_name = name;
  const Var r = model.add_binary(std::move(name));
  LinExpr total;
  for (std::size_t k = 0; k < lits.size(); ++k) {
    (void)model.add(LinExpr(r) <= lits[k], detail::suffixed(row_name, (std::string("_le").append(std::to_string(k))).c_str()));
    total += lits[k];
  }
  (void)model.add(LinExpr(r) >= total - static_cast<double>(lits.size()) + 1.0, detail::suffixed(row_name, "_ge"));
  return r;
}

/// A new binary equal to the disjunction of the 0/1 literals (0 for none).
[[nodiscard]] inline Var logical_or(Model& model, const std::vector<LinExpr>& literals, std::string name = {}) {
  std::vector<LinExpr> lits;
  for (const LinExpr& l : literals) lits.push_back(detail::checked_literal(model, l, "logical_or"));
  const std::string row_name = name;
  const Var r = model.add_binary(std::move(name));
  LinExpr total;
  for (std::size_t k = 0; k < lits.size(); ++k) {
    (void)model.add(LinExpr(r) >= lits[k], detail::suffixed(row_name, (std::string("_ge").append(std::to_string(k))).c_str()));
    total += lits[k];
  }
  (void)model.add(LinExpr(r) <= total, detail::suffixed(row_name, "_le"));
  return r;
}

}  // namespace kildall::lp
