#pragma once
/// \file
/// Linear constraints `lower <= expr <= upper`, built with the comparison
/// operators on expressions: `2 * x + y - 3 <= z`, `x + y >= 1`, `x == y`, and
/// the ranged form `lo <= expr <= hi` (or `hi >= expr >= lo`). Whatever the
/// side the variables were written on, the constraint is stored with all
/// variables in `expr` (normalized, no constant) and the constants moved into
/// the bounds.

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>

#include <kildall/lp/error.hpp>
#include <kildall/lp/expression.hpp>
#include <kildall/lp/variable.hpp>

namespace kildall::lp {

/// A linear constraint `lower <= expr <= upper` (an infinite bound is absent).
class LinearConstraint {
 public:
  /// `lower <= expr <= upper`; the constant of `expr` is moved into the bounds.
  LinearConstraint(LinExpr expr, double lower, double upper)
      : expr_(std::move(expr)), lower_(lower), upper_(upper) {
    expr_.normalize();
    const double c = expr_.constant();
    if (!std::isfinite(c)) throw ModelError("constraint: the expression's constant is not finite (use an infinite bound instead)");
    expr_.set_constant(0.0);
    lower_ -= c;
    upper_ -= c;
  }

  /// The variable part (normalized, constant 0).
  [[nodiscard]] const LinExpr& expr() const& noexcept { return expr_; }
  /// The variable part, moved out.
  [[nodiscard]] LinExpr expr() && noexcept { return std::move(expr_); }
  /// Lower bound of `expr` (-inf if none).
  [[nodiscard]] double lower() const noexcept { return lower_; }
  /// Upper bound of `expr` (+inf if none).
  [[nodiscard]] double upper() const noexcept { return upper_; }
  /// True when `lower <= value <= upper` up to the absolute tolerance `tol`.
  [[nodiscard]] bool satisfied_by(std::span<const double> values, double tol = 1e-9) const {
    const double a = expr_.evaluate(values);
    return a >= lower_ - tol && a <= upper_ + tol;
  }

  /// `a <= b`. When `a` is a constant, the result may be chained: `a <= b <= c`.
  friend LinearConstraint operator<=(const LinExpr& a, const LinExpr& b);
  /// `a >= b`. When `a` is a constant, the result may be chained: `a >= b >= c`.
  friend LinearConstraint operator>=(const LinExpr& a, const LinExpr& b);
  /// Completes `lo <= expr` into the ranged `lo <= expr <= hi`.
  friend LinearConstraint operator<=(LinearConstraint c, double hi);
  /// Completes `hi >= expr` into the ranged `hi >= expr >= lo`.
  friend LinearConstraint operator>=(LinearConstraint c, double lo);

 private:
  enum class Chain : std::uint8_t { none, add_upper, add_lower };
  LinExpr expr_;
  double lower_;
  double upper_;
  Chain chain_ = Chain::none;
  double chain_offset_ = 0.0;  // constant of the expression the bounds were shifted by
};

/// `a <= b` (all variables are moved to one side).
inline LinearConstraint operator<=(const LinExpr& a, const LinExpr& b) {
  if (a.is_constant()) {
    LinearConstraint c(b, a.constant(), inf);
    c.chain_ = LinearConstraint::Chain::add_upper;
    c.chain_offset_ = b.constant();
    return c;
  }
  if (b.is_constant()) return LinearConstraint(a, -inf, b.constant());
  return LinearConstraint(a - b, -inf, 0.0);
}

/// `a >= b` (all variables are moved to one side).
inline LinearConstraint operator>=(const LinExpr& a, const LinExpr& b) {
  if (a.is_constant()) {
    LinearConstraint c(b, -inf, a.constant());
    c.chain_ = LinearConstraint::Chain::add_lower;
    c.chain_offset_ = b.constant();
    return c;
  }
  if (b.is_constant()) return LinearConstraint(a, b.constant(), inf);
  return LinearConstraint(a - b, 0.0, inf);
}

/// `a == b` (all variables are moved to one side).
[[nodiscard]] inline LinearConstraint operator==(const LinExpr& a, const LinExpr& b) {
  if (b.is_constant()) return LinearConstraint(a, b.constant(), b.constant());
  if (a.is_constant()) return LinearConstraint(b, a.constant(), a.constant());
  return LinearConstraint(a - b, 0.0, 0.0);
}

/// Completes `lo <= expr` into `lo <= expr <= hi`; throws ModelError for any
/// other chain (e.g. `x <= y <= 3`, whose left part is not a constant bound).
inline LinearConstraint operator<=(LinearConstraint c, double hi) {
  if (c.chain_ != LinearConstraint::Chain::add_upper) {
    throw ModelError("chained '<=' is only valid as 'constant <= expression <= constant'");
  }
  c.upper_ = hi - c.chain_offset_;
  c.chain_ = LinearConstraint::Chain::none;
  return c;
}

/// Completes `hi >= expr` into `hi >= expr >= lo`; throws ModelError otherwise.
inline LinearConstraint operator>=(LinearConstraint c, double lo) {
  if (c.chain_ != LinearConstraint::Chain::add_lower) {
    throw ModelError("chained '>=' is only valid as 'constant >= expression >= constant'");
  }
  c.lower_ = lo - c.chain_offset_;
  c.chain_ = LinearConstraint::Chain::none;
  return c;
}

/// `lower <= expr <= upper` spelled as a function.
[[nodiscard]] inline LinearConstraint range(double lower, LinExpr expr, double upper) {
  return LinearConstraint(std::move(expr), lower, upper);
}

/// Handle of a constraint (row) of a model: an index that stays valid when
/// other constraints are removed.
class ConstraintRef {
 public:
  /// Index value of a default-constructed (invalid) handle.
  static constexpr std::uint32_t invalid_index = std::numeric_limits<std::uint32_t>::max();
  /// An invalid handle.
  constexpr ConstraintRef() noexcept = default;
  /// The handle of row slot `index`.
  constexpr explicit ConstraintRef(std::uint32_t index) noexcept : index_(index) {}
  /// Row slot index in the model (removed rows keep their slot).
  [[nodiscard]] constexpr std::uint32_t index() const noexcept { return index_; }
  /// True unless default-constructed.
  [[nodiscard]] constexpr bool valid() const noexcept { return index_ != invalid_index; }
  /// Handles are equal when they name the same slot.
  [[nodiscard]] friend constexpr bool operator==(ConstraintRef, ConstraintRef) noexcept = default;

 private:
  std::uint32_t index_ = invalid_index;
};

}  // namespace kildall::lp
