#pragma once
/// \file
/// Eigen export of a model and an independent check of a solution: the row
/// activities are recomputed as one sparse matrix-vector product `A x`
/// (Eigen::SparseMatrix), then every row bound, variable bound, integrality
/// and the reported objective value are compared with a tolerance, without
/// using any solver. Every MILP solution a kildall tool uses passes through
/// `check`. Needs the `kildall::eigen` target.

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <kildall/lp/model.hpp>
#include <kildall/lp/solution.hpp>

namespace kildall::lp {

/// A model as matrices: `row_lower <= A x <= row_upper`,
/// `col_lower <= x <= col_upper`, objective `cost . x + cost_constant`.
/// Infinite bounds are +-infinity.
struct EigenModel {
  Eigen::SparseMatrix<double> a;        ///< rows = live constraints, columns = variables
  Eigen::VectorXd row_lower;            ///< lower bound per row
  Eigen::VectorXd row_upper;            ///< upper bound per row
  Eigen::VectorXd col_lower;            ///< lower bound per variable
  Eigen::VectorXd col_upper;            ///< upper bound per variable
  Eigen::VectorXd cost;                 ///< primary objective coefficients
  double cost_constant = 0.0;           ///< primary objective constant
  Sense sense = Sense::minimize;        ///< primary objective sense
  std::vector<ConstraintRef> row_refs;  ///< constraint behind each matrix row
  std::vector<char> integral;           ///< 1 for integer/binary variables
};

/// Exports the live constraints, bounds and primary objective of `model`.
[[nodiscard]] inline EigenModel to_eigen(const Model& model) {
  EigenModel e;
  const auto n = static_cast<Eigen::Index>(model.num_vars());
  const auto m = static_cast<Eigen::Index>(model.num_constraints());
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(model.num_nonzeros());
  e.row_lower.resize(m);
  e.row_upper.resize(m);
  e.row_refs.reserve(static_cast<std::size_t>(m));
  Eigen::Index row = 0;
  for (std::size_t i = 0; i < model.num_row_slots(); ++i) {
    const Row& r = model.rows()[i];
    if (r.removed) continue;
    for (const Term& t : r.expr.terms()) triplets.emplace_back(row, static_cast<Eigen::Index>(t.var.index()), t.coefficient);
    e.row_lower[row] = r.lower;
    e.row_upper[row] = r.upper;
    e.row_refs.emplace_back(static_cast<std::uint32_t>(i));
    ++row;
  }
  e.a.resize(m, n);
  e.a.setFromTriplets(triplets.begin(), triplets.end());  // rows are normalized: no duplicates to sum
  e.col_lower.resize(n);
  e.col_upper.resize(n);
  e.integral.resize(static_cast<std::size_t>(n));
  for (Eigen::Index j = 0; j < n; ++j) {
    const VarInfo& v = model.vars()[static_cast<std::size_t>(j)];
    e.col_lower[j] = v.lower;
    e.col_upper[j] = v.upper;
    e.integral[static_cast<std::size_t>(j)] = v.is_integral() ? 1 : 0;
  }
  e.cost = Eigen::VectorXd::Zero(n);
  const Objective& obj = model.objective();
  for (const Term& t : obj.expr.terms()) e.cost[static_cast<Eigen::Index>(t.var.index())] += t.coefficient;
  e.cost_constant = obj.expr.constant();
  e.sense = obj.sense;
  return e;
}

/// What a check found worst.
enum class ViolationKind : std::uint8_t {
  none,          ///< everything within tolerance
  missing,       ///< no point, or the wrong number of values, or a NaN value
  row,           ///< a constraint's activity is outside its bounds
  bound,         ///< a variable is outside its bounds
  integrality,   ///< an integer variable is not integral
  objective,     ///< the reported objective differs from the recomputed one
};

/// Result of `check`.
struct CheckReport {
  bool ok = false;                                ///< true if nothing exceeds the tolerance
  double max_violation = 0.0;                     ///< worst violation (absolute, scaled by max(1, |bound|))
  ViolationKind kind = ViolationKind::none;       ///< what the worst violation is
  std::string worst;                              ///< its name, e.g. "constraint c3" or "variable x"
  double objective = Solution::nan;               ///< primary objective recomputed at the point
  double objective_error = 0.0;                   ///< |reported - recomputed| / max(1, |recomputed|)
  std::string message;                            ///< one-line summary
};

namespace detail {

inline void check_point(const Model& model, const EigenModel& e, const Eigen::Ref<const Eigen::VectorXd>& x, CheckReport& r) {
  auto note = [&](double violation, ViolationKind kind, auto&& name) {
    if (violation > r.max_violation) {
      r.max_violation = violation;
      r.kind = kind;
      r.worst = name();
    }
  };
  const Eigen::VectorXd activity = e.a * x;
  for (Eigen::Index i = 0; i < activity.size(); ++i) {
    const double lo = e.row_lower[i], hi = e.row_upper[i], v = activity[i];
    const double over = lo != -inf ? (lo - v) / std::max(1.0, std::abs(lo)) : 0.0;
    const double under = hi != inf ? (v - hi) / std::max(1.0, std::abs(hi)) : 0.0;
    note(std::max(over, under), ViolationKind::row,
         [&] { return "constraint " + model.display_name(e.row_refs[static_cast<std::size_t>(i)]); });
  }
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const double lo = e.col_lower[j], hi = e.col_upper[j], v = x[j];
    const Var var(static_cast<std::uint32_t>(j));
    const double over = lo != -inf ? (lo - v) / std::max(1.0, std::abs(lo)) : 0.0;
    const double under = hi != inf ? (v - hi) / std::max(1.0, std::abs(hi)) : 0.0;
    note(std::max(over, under), ViolationKind::bound, [&] { return "variable " + model.display_name(var); });
    if (e.integral[static_cast<std::size_t>(j)]) {
      note(std::abs(v - std::round(v)), ViolationKind::integrality, [&] { return "variable " + model.display_name(var); });
    }
  }
  r.objective = e.cost.dot(x) + e.cost_constant;
}

}  // namespace detail

/// Checks a point (values indexed by variable) against every constraint,
/// bound and integrality requirement of `model`, independently of any
/// solver. Violations are scaled by max(1, |bound|); the point passes when
/// none exceeds `tol`.
[[nodiscard]] inline CheckReport check(const Model& model, std::span<const double> values, double tol = 1e-6) {
  CheckReport r;
  if (values.size() != model.num_vars()) {
    r.kind = ViolationKind::missing;
    r.max_violation = inf;
    r.message = std::string("expected ").append(std::to_string(model.num_vars())) + std::string(" values, got ").append(std::to_string(values.size()));
    return r;
  }
  for (std::size_t j = 0; j < values.size(); ++j) {
    if (!std::isfinite(values[j])) {
      r.kind = ViolationKind::missing;
      r.max_violation = inf;
      r.worst = "variable " + model.display_name(Var(static_cast<std::uint32_t>(j)));
      r.message = r.worst + " has no finite value";
      return r;
    }
  }
  const EigenModel e = to_eigen(model);
  const Eigen::Map<const Eigen::VectorXd> x(values.data(), static_cast<Eigen::Index>(values.size()));
  detail::check_point(model, e, x, r);
  r.ok = r.max_violation <= tol;
  r.message = r.ok ? std::string("ok (max violation ").append(std::to_string(r.max_violation)) + ")"
                   : "violated: " + r.worst + std::string(" by ").append(std::to_string(r.max_violation));
  return r;
}

/// Checks a solver's solution: it must carry a point (status optimal or
/// feasible), the point must pass `check(model, values, tol)`, and the
/// reported objective must match the recomputed one within `tol` (relative
/// to max(1, |objective|)).
[[nodiscard]] inline CheckReport check(const Model& model, const Solution& solution, double tol = 1e-6) {
  if (!solution.has_solution()) {
    CheckReport r;
    r.kind = ViolationKind::missing;
    r.max_violation = inf;
    r.message = std::string("solution has no point (status ") + to_string(solution.status) + ")";
    return r;
  }
  CheckReport r = check(model, std::span<const double>(solution.values), tol);
  if (r.kind == ViolationKind::missing) return r;
  r.objective_error = std::isnan(solution.objective)
                          ? inf
                          : std::abs(solution.objective - r.objective) / std::max(1.0, std::abs(r.objective));
  if (r.objective_error > tol) {
    r.ok = false;
    if (r.objective_error > r.max_violation) {
      r.max_violation = r.objective_error;
      r.kind = ViolationKind::objective;
      r.worst = "objective";
    }
    r.message = std::string("violated: reported objective ").append(std::to_string(solution.objective)) + " but recomputed " +
                std::to_string(r.objective);
  }
  return r;
}

}  // namespace kildall::lp
