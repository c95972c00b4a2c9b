#pragma once
/// \file
/// The result of solving a model, independent of the backend: a status with a
/// message, the objective value, the best bound and gap of a MIP search, the
/// primal point, and (for LPs) row duals, reduced costs and the simplex basis.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <kildall/lp/constraint.hpp>
#include <kildall/lp/error.hpp>
#include <kildall/lp/expression.hpp>
#include <kildall/lp/variable.hpp>

namespace kildall::lp {

/// Outcome of a solve.
enum class SolveStatus : std::uint8_t {
  optimal,      ///< proven optimal (within the requested MIP gap of 0)
  feasible,     ///< a feasible point, optimality not proven (time limit or MIP gap reached): see `gap`
  infeasible,   ///< proven infeasible
  /// the objective is unbounded. For a MIP: its relaxation is unbounded and
  /// an integer point exists; if the backend could not decide the latter,
  /// the message says "unbounded or infeasible".
  unbounded,
  no_solution,  ///< a limit (time) was reached before any feasible point was found
  error,        ///< the solver failed or rejected the input: see `message`
};

/// Name of a status ("optimal", "feasible", ...).
[[nodiscard]] constexpr const char* to_string(SolveStatus status) noexcept {
  switch (status) {
    case SolveStatus::optimal: return "optimal";
    case SolveStatus::feasible: return "feasible";
    case SolveStatus::infeasible: return "infeasible";
    case SolveStatus::unbounded: return "unbounded";
    case SolveStatus::no_solution: return "no_solution";
    case SolveStatus::error: return "error";
  }
  return "?";
}

/// Where a variable (or a row's activity) sits in a simplex basis.
enum class BasisStatus : std::uint8_t {
  basic,     ///< basic
  at_lower,  ///< nonbasic at its lower bound
  at_upper,  ///< nonbasic at its upper bound
  free,      ///< nonbasic and free (no bound)
  fixed,     ///< nonbasic and fixed (equal bounds)
};

/// A simplex basis: the status of every variable (by `Var::index()`) and of
/// every row slot (by `ConstraintRef::index()`). An LP's optimal basis, to
/// re-solve from after rows or variables were added (warm start).
struct Basis {
  std::vector<BasisStatus> variables;  ///< per variable
  std::vector<BasisStatus> rows;       ///< per row slot (removed slots: basic)
  /// True when there is no basis (no statuses).
  [[nodiscard]] bool empty() const noexcept { return variables.empty() && rows.empty(); }
};

/// Result of solving a model. Vectors are indexed like the model: `values`
/// by `Var::index()`, `row_duals` by `ConstraintRef::index()` (removed rows
/// get NaN).
struct Solution {
  /// Quiet NaN, the value of every number that is not available.
  static constexpr double nan = std::numeric_limits<double>::quiet_NaN();

  SolveStatus status = SolveStatus::error;  ///< outcome
  std::string message;                      ///< human-readable detail (always set on error)
  /// Value of the model's primary objective at `values` (NaN without a point).
  double objective = nan;
  /// Best proven bound on the primary objective (equals `objective` when
  /// optimal; NaN when unknown).
  double best_bound = nan;
  /// Relative gap |objective - best_bound| / max(1e-10, |objective|) (0 when optimal).
  double gap = nan;
  /// For lexicographic models: the value of every level at `values`.
  std::vector<double> level_objectives;
  std::vector<double> values;         ///< primal point (empty without a point)
  std::vector<double> row_duals;      ///< LP only: dual value per row slot (empty for MIPs)
  std::vector<double> reduced_costs;  ///< LP only: reduced cost per variable (empty for MIPs)
  /// LP solved by the simplex method to optimality: its final basis (empty
  /// otherwise), e.g. the start of a re-solve after adding rows.
  Basis basis;
  double seconds = 0.0;               ///< wall time spent in the solver
  std::int64_t nodes = 0;             ///< branch-and-bound nodes (MIP only)

  /// True when the solution carries a feasible point (optimal or feasible).
  [[nodiscard]] bool has_solution() const noexcept {
    return (status == SolveStatus::optimal || status == SolveStatus::feasible) && !values.empty();
  }
  /// Value of a variable; throws ModelError without a point.
  [[nodiscard]] double value(Var v) const {
    if (!v.valid() || v.index() >= values.size()) {
      throw ModelError(std::string("Solution::value: no value for this variable (status ") + to_string(status) + ")");
    }
    return values[v.index()];
  }
  /// Value of an expression; throws ModelError without a point.
  [[nodiscard]] double value(const LinExpr& expr) const {
    for (const Term& t : expr.terms()) (void)value(t.var);
    return expr.evaluate(values);
  }
  /// A binary or integer variable's value rounded to the nearest integer.
  [[nodiscard]] long long int_value(Var v) const { return std::llround(value(v)); }
  /// Dual value of a row (LP only; NaN when unavailable).
  [[nodiscard]] double dual(ConstraintRef r) const {
    return r.valid() && r.index() < row_duals.size() ? row_duals[r.index()] : nan;
  }
  /// Reduced cost of a variable (LP only; NaN when unavailable).
  [[nodiscard]] double reduced_cost(Var v) const {
    return v.valid() && v.index() < reduced_costs.size() ? reduced_costs[v.index()] : nan;
  }
};

/// Relative gap between an objective value and a bound, as reported in `Solution::gap`.
[[nodiscard]] inline double relative_gap(double objective, double bound) noexcept {
  if (std::isnan(objective) || std::isnan(bound)) return Solution::nan;
  if (objective == bound) return 0.0;
  return std::abs(objective - bound) / std::max(1e-10, std::abs(objective));
}

}  // namespace kildall::lp
