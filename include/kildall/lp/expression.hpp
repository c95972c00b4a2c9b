#pragma once
/// \file
/// Affine expressions `c0 + sum_i a_i x_i` over model variables, built with
/// ordinary operators (`2 * x + y - 3`), `sum(range)` and `dot(coeffs, vars)`.
/// Terms are appended as written; `normalize()` (which every model entry point
/// applies) sorts them by variable, adds the coefficients of repeated
/// variables and drops zeros, so `x + x` is simply `2 x`.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <ranges>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include <kildall/lp/variable.hpp>

namespace kildall::lp {

/// One `coefficient * variable` term of an expression.
struct Term {
  Var var;             ///< the variable
  double coefficient;  ///< its coefficient
};

/// An affine expression: a constant plus linear terms. A regular value type.
class LinExpr {
 public:
  /// The constant 0.
  LinExpr() = default;
  /// The constant `constant` (implicit: `x + 3` works).
  LinExpr(double constant) : constant_(constant) {}  // NOLINT(google-explicit-constructor)
  /// The expression `1 * var` (implicit: `x + y` works).
  LinExpr(Var var) : terms_{Term{var, 1.0}} {}  // NOLINT(google-explicit-constructor)

  /// The terms in their current order (normalized only after `normalize()`).
  [[nodiscard]] const std::vector<Term>& terms() const noexcept { return terms_; }
  /// The constant part.
  [[nodiscard]] double constant() const noexcept { return constant_; }
  /// Sets the constant part.
  void set_constant(double c) noexcept { constant_ = c; }
  /// True when the expression has no variable terms (after normalization
  /// this means it is a constant).
  [[nodiscard]] bool is_constant() const noexcept { return terms_.empty(); }

  /// Appends `coefficient * var` (repeated variables are merged by `normalize`).
  LinExpr& add_term(Var var, double coefficient) {
    terms_.push_back(Term{var, coefficient});
    return *this;
  }
  /// Reserves room for `n` terms.
  void reserve(std::size_t n) { terms_.reserve(n); }

  /// Sorts terms by variable index, adds up repeated variables and removes
  /// zero coefficients. Idempotent.
  LinExpr& normalize() {
    if (terms_.empty()) return *this;
    const bool sorted_unique = std::ranges::adjacent_find(terms_, [](const Term& a, const Term& b) {
                                 return a.var.index() >= b.var.index();
                               }) == terms_.end();
    if (!sorted_unique) {
      std::ranges::stable_sort(terms_, {}, [](const Term& t) { return t.var.index(); });
      std::size_t out = 0;
      for (std::size_t i = 0; i < terms_.size(); ++i) {
        if (out > 0 && terms_[out - 1].var.index() == terms_[i].var.index()) {
          terms_[out - 1].coefficient += terms_[i].coefficient;
        } else {
          terms_[out++] = terms_[i];
        }
      }
      terms_.resize(out);
    }
    std::erase_if(terms_, [](const Term& t) { return t.coefficient == 0.0; });
    return *this;
  }
  /// A normalized copy.
  [[nodiscard]] LinExpr normalized() const& {
    LinExpr copy = *this;
    copy.normalize();
    return copy;
  }
  /// Normalizes in place and returns the result.
  [[nodiscard]] LinExpr normalized() && {
    normalize();
    return std::move(*this);
  }

  /// Value of the expression for `values[var.index()]`.
  [[nodiscard]] double evaluate(std::span<const double> values) const {
    double v = constant_;
    for (const Term& t : terms_) v += t.coefficient * values[t.var.index()];
    return v;
  }

  /// Adds another expression.
  LinExpr& operator+=(const LinExpr& other) {
    terms_.insert(terms_.end(), other.terms_.begin(), other.terms_.end());
    constant_ += other.constant_;
    return *this;
  }
  /// Subtracts another expression.
  LinExpr& operator-=(const LinExpr& other) {
    terms_.reserve(terms_.size() + other.terms_.size());
    for (const Term& t : other.terms_) terms_.push_back(Term{t.var, -t.coefficient});
    constant_ -= other.constant_;
    return *this;
  }
  /// Scales by a constant.
  LinExpr& operator*=(double factor) {
    for (Term& t : terms_) t.coefficient *= factor;
    if (constant_ != 0.0) constant_ *= factor;  // a NaN factor must not hide in 0 * NaN

    return *this;
  }
  /// Divides by a constant.
  LinExpr& operator/=(double divisor) { return *this *= (1.0 / divisor); }

 private:
  std::vector<Term> terms_;
  double constant_ = 0.0;
};

// Free operators (not hidden friends): `2 * x` with `x` a Var must find them by
// ADL through Var's namespace and convert `x` to LinExpr.

/// Sum of two expressions.
[[nodiscard]] inline LinExpr operator+(LinExpr a, const LinExpr& b) {
  a += b;
  return a;
}
/// Difference of two expressions.
[[nodiscard]] inline LinExpr operator-(LinExpr a, const LinExpr& b) {
  a -= b;
  return a;
}
/// Negation.
[[nodiscard]] inline LinExpr operator-(LinExpr a) {
  a *= -1.0;
  return a;
}
/// Identity (`+x`).
[[nodiscard]] inline LinExpr operator+(LinExpr a) { return a; }
/// Scaling by a constant on the left (`2 * x`).
[[nodiscard]] inline LinExpr operator*(double factor, LinExpr a) {
  a *= factor;
  return a;
}
/// Scaling by a constant on the right (`x * 2`).
[[nodiscard]] inline LinExpr operator*(LinExpr a, double factor) {
  a *= factor;
  return a;
}
/// Division by a constant (`x / 2`).
[[nodiscard]] inline LinExpr operator/(LinExpr a, double divisor) {
  a /= divisor;
  return a;
}


/// Sum of a range of variables or expressions (anything convertible to LinExpr).
template <std::ranges::input_range R>
  requires std::convertible_to<std::ranges::range_reference_t<R>, LinExpr>
[[nodiscard]] LinExpr sum(R&& range) {
  LinExpr result;
  if constexpr (std::ranges::sized_range<R>) result.reserve(std::ranges::size(range));
  for (auto&& item : range) {
    if constexpr (std::same_as<std::remove_cvref_t<decltype(item)>, Var>) {
      result.add_term(item, 1.0);
    } else {
      result += LinExpr(item);
    }
  }
  return result;
}

/// `sum_i coeffs[i] * vars[i]`; throws std::invalid_argument on a length mismatch.
template <std::ranges::input_range C, std::ranges::input_range V>
  requires std::convertible_to<std::ranges::range_reference_t<C>, double> &&
           std::convertible_to<std::ranges::range_reference_t<V>, LinExpr>
[[nodiscard]] LinExpr dot(C&& coeffs, V&& vars) {
  LinExpr result;
  if constexpr (std::ranges::sized_range<V>) result.reserve(std::ranges::size(vars));
  auto c = std::ranges::begin(coeffs);
  auto ce = std::ranges::end(coeffs);
  auto v = std::ranges::begin(vars);
  auto ve = std::ranges::end(vars);
  for (; c != ce && v != ve; ++c, ++v) {
    const double a = static_cast<double>(*c);
    if constexpr (std::same_as<std::remove_cvref_t<decltype(*v)>, Var>) {
      result.add_term(*v, a);
    } else {
      result += a * LinExpr(*v);
    }
  }
  if (c != ce || v != ve) throw std::invalid_argument("kildall::lp::dot: coefficient and variable ranges differ in length");
  return result;
}

}  // namespace kildall::lp
