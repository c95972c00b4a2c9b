#pragma once
/// \file
/// A linear / mixed-integer linear model: variables with bounds and types,
/// linear constraints (rows) `lower <= expr <= upper`, and one objective or a
/// lexicographic list of objectives. The model only describes the problem;
/// solving is done by a backend (kildall/lp/glpk.hpp) and checking by
/// kildall/lp/eigen.hpp. Every entry point validates its input (NaN or
/// infinite coefficients, foreign handles) and throws ModelError.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kildall/lp/constraint.hpp>
#include <kildall/lp/error.hpp>
#include <kildall/lp/expression.hpp>
#include <kildall/lp/variable.hpp>

namespace kildall::lp {

/// Optimization direction.
enum class Sense : std::uint8_t {
  minimize,  ///< smaller is better
  maximize,  ///< larger is better
};

/// One objective (one level of a lexicographic objective).
struct Objective {
  Sense sense = Sense::minimize;  ///< direction
  LinExpr expr;                   ///< the (normalized) function, may have a constant
  std::string name;               ///< optional name
  /// When a later level is optimized, this level is held at
  /// `optimum + max(abs_tolerance, rel_tolerance * |optimum|)` (minimize; the
  /// mirror for maximize).
  double abs_tolerance = 1e-6;
  /// See `abs_tolerance`.
  double rel_tolerance = 1e-9;
};

/// One constraint slot of a model.
struct Row {
  LinExpr expr;          ///< normalized, constant 0
  double lower = -inf;   ///< lower bound of expr (-inf if none)
  double upper = inf;    ///< upper bound of expr (+inf if none)
  std::string name;      ///< optional name
  bool removed = false;  ///< removed rows keep their slot (handles stay valid)
};

/// A linear or mixed-integer linear model (owns its variables and rows).
class Model {
 public:
  /// An empty model with no objective (feasibility problem).
  Model() = default;

  // ----------------------------------------------------------------- variables

  /// Adds a variable with bounds `[lower, upper]` (either may be infinite).
  Var add_var(double lower, double upper, VarType type = VarType::continuous, std::string name = {}) {
    if (vars_.size() >= Var::invalid_index) throw ModelError("too many variables");
    check_var_bounds(lower, upper, type, name);
    vars_.push_back(VarInfo{lower, upper, type, std::move(name)});
    return Var(static_cast<std::uint32_t>(vars_.size() - 1));
  }
  /// Adds a continuous variable.
  Var add_continuous(double lower, double upper, std::string name = {}) {
    return add_var(lower, upper, VarType::continuous, std::move(name));
  }
  /// Adds an integer variable.
  Var add_integer(double lower, double upper, std::string name = {}) {
    return add_var(lower, upper, VarType::integer, std::move(name));
  }
  /// Adds a binary (0/1) variable.
  Var add_binary(std::string name = {}) { return add_var(0.0, 1.0, VarType::binary, std::move(name)); }
  /// Adds `n` variables of one kind; names are `prefix[i]` when a prefix is given.
  std::vector<Var> add_vars(std::size_t n, double lower, double upper, VarType type = VarType::continuous,
                            std::string_view prefix = {}) {
    std::vector<Var> out;
    out.reserve(n);
    vars_.reserve(vars_.size() + n);
    for (std::size_t i = 0; i < n; ++i) {
      std::string name;
      if (!prefix.empty()) name = std::string(prefix) + std::string("[").append(std::to_string(i)) + "]";
      out.push_back(add_var(lower, upper, type, std::move(name)));
    }
    return out;
  }

  /// Number of variables.
  [[nodiscard]] std::size_t num_vars() const noexcept { return vars_.size(); }
  /// The handle of variable `index`.
  [[nodiscard]] Var var(std::size_t index) const {
    if (index >= vars_.size()) throw ModelError(std::string("variable index ").append(std::to_string(index)) + " out of range");
    return Var(static_cast<std::uint32_t>(index));
  }
  /// Type, bounds and name of a variable.
  [[nodiscard]] const VarInfo& info(Var v) const { return vars_[checked(v)]; }
  /// All variables, indexed by `Var::index()`.
  [[nodiscard]] const std::vector<VarInfo>& vars() const noexcept { return vars_; }
  /// Lower bound of a variable.
  [[nodiscard]] double lower(Var v) const { return info(v).lower; }
  /// Upper bound of a variable.
  [[nodiscard]] double upper(Var v) const { return info(v).upper; }
  /// Type of a variable.
  [[nodiscard]] VarType type(Var v) const { return info(v).type; }
  /// The name given to a variable, or `x<index>` for an unnamed one.
  [[nodiscard]] std::string display_name(Var v) const {
    const VarInfo& i = info(v);
    return i.name.empty() ? std::string("x").append(std::to_string(v.index())) : i.name;
  }
  /// Changes the bounds of a variable.
  void set_bounds(Var v, double lower, double upper) {
    VarInfo& i = vars_[checked(v)];
    check_var_bounds(lower, upper, i.type, i.name);
    i.lower = lower;
    i.upper = upper;
  }
  /// Changes the type of a variable (binary also intersects the bounds with [0, 1]).
  void set_type(Var v, VarType type) {
    VarInfo& i = vars_[checked(v)];
    if (type == VarType::binary) {
      i.lower = std::max(i.lower, 0.0);
      i.upper = std::min(i.upper, 1.0);
    }
    i.type = type;
  }
  /// Renames a variable.
  void set_name(Var v, std::string name) { vars_[checked(v)].name = std::move(name); }
  /// True when any variable is integer or binary.
  [[nodiscard]] bool is_mip() const noexcept {
    for (const VarInfo& v : vars_)
      if (v.is_integral()) return true;
    return false;
  }

  // --------------------------------------------------------------- constraints

  /// Adds a constraint; throws ModelError for NaN/infinite coefficients, NaN
  /// bounds or variables this model does not have.
  ConstraintRef add(LinearConstraint c, std::string name = {}) {
    if (rows_.size() >= ConstraintRef::invalid_index) throw ModelError("too many constraints");
    const double lo = c.lower();
    const double hi = c.upper();
    LinExpr expr = std::move(c).expr();
    validate(expr, name.empty() ? std::string("constraint r").append(std::to_string(rows_.size())) : "constraint " + name);
    check_row_bounds(lo, hi, name);
    nonzeros_ += expr.terms().size();
    rows_.push_back(Row{std::move(expr), lo, hi, std::move(name), false});
    ++live_rows_;
    return ConstraintRef(static_cast<std::uint32_t>(rows_.size() - 1));
  }
  /// Removes a constraint (its handle stays valid but refers to a removed row).
  void remove(ConstraintRef r) {
    Row& row = rows_[checked(r)];
    if (row.removed) return;
    row.removed = true;
    nonzeros_ -= row.expr.terms().size();
    --live_rows_;
  }
  /// True when the constraint was removed.
  [[nodiscard]] bool is_removed(ConstraintRef r) const { return rows_[checked(r)].removed; }
  /// Changes the bounds of a constraint's expression.
  void set_bounds(ConstraintRef r, double lower, double upper) {
    Row& row = rows_[checked(r)];
    check_row_bounds(lower, upper, row.name);
    row.lower = lower;
    row.upper = upper;
  }
  /// The row behind a handle.
  [[nodiscard]] const Row& row(ConstraintRef r) const { return rows_[checked(r)]; }
  /// All row slots, including removed ones (check `Row::removed`).
  [[nodiscard]] const std::vector<Row>& rows() const noexcept { return rows_; }
  /// Number of row slots (including removed rows).
  [[nodiscard]] std::size_t num_row_slots() const noexcept { return rows_.size(); }
  /// Number of constraints that are not removed.
  [[nodiscard]] std::size_t num_constraints() const noexcept { return live_rows_; }
  /// Number of nonzero coefficients in the live constraints.
  [[nodiscard]] std::size_t num_nonzeros() const noexcept { return nonzeros_; }
  /// The name given to a row, or `r<index>` for an unnamed one.
  [[nodiscard]] std::string display_name(ConstraintRef r) const {
    const Row& row = rows_[checked(r)];
    return row.name.empty() ? std::string("r").append(std::to_string(r.index())) : row.name;
  }
  /// Renames a row.
  void set_name(ConstraintRef r, std::string name) { rows_[checked(r)].name = std::move(name); }

  // ---------------------------------------------------------------- objectives

  /// Sets a single objective `minimize expr` (replacing all levels).
  void minimize(LinExpr expr, std::string name = {}) { set_single(Sense::minimize, std::move(expr), std::move(name)); }
  /// Sets a single objective `maximize expr` (replacing all levels).
  void maximize(LinExpr expr, std::string name = {}) { set_single(Sense::maximize, std::move(expr), std::move(name)); }
  /// Appends a lexicographic level (levels are optimized in order, each
  /// without worsening the earlier ones beyond their tolerance).
  void add_objective(Objective objective) {
    validate(objective.expr, objective.name.empty() ? std::string("objective") : "objective " + objective.name);
    if (!(objective.abs_tolerance >= 0.0) || !(objective.rel_tolerance >= 0.0)) {
      throw ModelError("objective tolerances must be >= 0");
    }
    objective.expr.normalize();
    objectives_.push_back(std::move(objective));
  }
  /// Appends a lexicographic level from its parts.
  void add_objective(Sense sense, LinExpr expr, std::string name = {}, double abs_tolerance = 1e-6) {
    add_objective(Objective{sense, std::move(expr), std::move(name), abs_tolerance, 1e-9});
  }
  /// Removes every objective (feasibility problem).
  void clear_objectives() noexcept { objectives_.clear(); }
  /// All levels, most important first (empty: feasibility problem).
  [[nodiscard]] const std::vector<Objective>& objectives() const noexcept { return objectives_; }
  /// The primary objective (minimize 0 when none was set).
  [[nodiscard]] const Objective& objective() const noexcept {
    static const Objective none{};
    return objectives_.empty() ? none : objectives_.front();
  }

  // ------------------------------------------------------------------- helpers

  /// Throws ModelError unless every term refers to a variable of this model
  /// and has a finite coefficient, and the constant is finite. `what` names
  /// the expression in the message.
  void validate(const LinExpr& expr, const std::string& what) const {
    if (!std::isfinite(expr.constant())) throw ModelError(what + ": constant is not finite");
    for (const Term& t : expr.terms()) {
      if (!t.var.valid() || t.var.index() >= vars_.size()) {
        throw ModelError(what + ": refers to a variable this model does not have");
      }
      if (!std::isfinite(t.coefficient)) {
        throw ModelError(what + ": coefficient of " + display_name(t.var) + " is not finite");
      }
    }
  }
  /// Value of an expression for a point (`values[i]` = value of variable i).
  [[nodiscard]] double evaluate(const LinExpr& expr, std::span<const double> values) const {
    if (values.size() < vars_.size()) throw ModelError("evaluate: fewer values than variables");
    return expr.evaluate(values);
  }

 private:
  [[nodiscard]] std::size_t checked(Var v) const {
    if (!v.valid() || v.index() >= vars_.size()) throw ModelError("variable handle does not belong to this model");
    return v.index();
  }
  [[nodiscard]] std::size_t checked(ConstraintRef r) const {
    if (!r.valid() || r.index() >= rows_.size()) throw ModelError("constraint handle does not belong to this model");
    return r.index();
  }
  static void check_var_bounds(double lower, double upper, VarType type, const std::string& name) {
    const std::string who = name.empty() ? std::string("variable") : "variable " + name;
    if (std::isnan(lower) || std::isnan(upper)) throw ModelError(who + ": NaN bound");
    if (lower == inf || upper == -inf) throw ModelError(who + ": lower bound +inf or upper bound -inf");
    if (type == VarType::binary && (lower < 0.0 || upper > 1.0)) {
      throw ModelError(who + ": binary variable bounds must lie within [0, 1]");
    }
  }
  static void check_row_bounds(double lower, double upper, const std::string& name) {
    const std::string who = name.empty() ? std::string("constraint") : "constraint " + name;
    if (std::isnan(lower) || std::isnan(upper)) throw ModelError(who + ": NaN bound");
    if (lower == inf || upper == -inf) throw ModelError(who + ": lower bound +inf or upper bound -inf");
  }
  void set_single(Sense sense, LinExpr expr, std::string name) {
    objectives_.clear();
    add_objective(Objective{sense, std::move(expr), std::move(name)});
  }

  std::vector<VarInfo> vars_;
  std::vector<Row> rows_;
  std::vector<Objective> objectives_;
  std::size_t live_rows_ = 0;
  std::size_t nonzeros_ = 0;
};

}  // namespace kildall::lp
