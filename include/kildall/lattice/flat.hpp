#pragma once
/// \file
/// `Flat<T>`: the flat lattice over a value type, the domain of Kildall's
/// constant propagation (Kildall, POPL 1973; Wegman & Zadeck, TOPLAS 1991):
///
///     top                     not a constant: two different values met
///     ... c1  c2  c3 ...      exactly this constant (pairwise incomparable)
///     bottom                  no value seen yet / unreachable
///
/// Two different constants join to top and meet to bottom. The lattice has
/// height 2, so it needs no widening.

#include <ostream>
#include <stdexcept>
#include <utility>

#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>

namespace kildall {

/// The flat lattice over `T`: bottom, one element per value of `T`, and top.
/// Models `BoundedLattice` and `MeetSemiLattice`. `T` needs only to be
/// regular (copyable and equality comparable); it is never ordered.
template <std::regular T>
class Flat {
 public:
  /// The value type of the constants.
  using value_type = T;

  /// Bottom.
  Flat() = default;
  /// The constant `value`.
  explicit Flat(T value) : kind_(Kind::constant), value_(std::move(value)) {}

  /// The least element: no value seen.
  [[nodiscard]] static Flat bottom() { return Flat(); }
  /// The greatest element: not a constant.
  [[nodiscard]] static Flat top() {
    Flat f;
    f.kind_ = Kind::top;
    return f;
  }
  /// The constant `value` (same as the constructor).
  [[nodiscard]] static Flat of(T value) { return Flat(std::move(value)); }

  /// True for bottom.
  [[nodiscard]] bool is_bottom() const noexcept { return kind_ == Kind::bottom; }
  /// True for top.
  [[nodiscard]] bool is_top() const noexcept { return kind_ == Kind::top; }
  /// True when this is exactly one constant.
  [[nodiscard]] bool is_constant() const noexcept { return kind_ == Kind::constant; }
  /// The constant. Throws `std::logic_error` when `!is_constant()`.
  [[nodiscard]] const T& constant() const {
    if (!is_constant()) throw std::logic_error(is_top() ? "kildall::Flat::constant() on top" : "kildall::Flat::constant() on bottom");
    return value_;
  }
  /// A pointer to the constant, or null when `!is_constant()`.
  [[nodiscard]] const T* if_constant() const noexcept { return is_constant() ? &value_ : nullptr; }

  /// Least upper bound: equal constants stay, different ones go to top.
  [[nodiscard]] ChangeResult join(const Flat& other) {
    if (other.is_bottom() || is_top()) return ChangeResult::unchanged;
    if (is_bottom() || other.is_top()) {
      *this = other;
      return ChangeResult::changed;
    }
    if (value_ == other.value_) return ChangeResult::unchanged;
    *this = top();
    return ChangeResult::changed;
  }

  /// Greatest lower bound: equal constants stay, different ones go to bottom.
  [[nodiscard]] ChangeResult meet(const Flat& other) {
    if (other.is_top() || is_bottom()) return ChangeResult::unchanged;
    if (is_top() || other.is_bottom()) {
      *this = other;
      return ChangeResult::changed;
    }
    if (value_ == other.value_) return ChangeResult::unchanged;
    *this = bottom();
    return ChangeResult::changed;
  }

  /// The partial order: bottom below everything, top above, constants only
  /// below themselves.
  [[nodiscard]] bool leq(const Flat& other) const {
    if (is_bottom() || other.is_top()) return true;
    if (is_top() || other.is_bottom()) return false;
    return value_ == other.value_;
  }

  /// Same kind, and for constants the same constant.
  friend bool operator==(const Flat& a, const Flat& b) {
    return a.kind_ == b.kind_ && (a.kind_ != Kind::constant || a.value_ == b.value_);
  }

  /// Prints `bottom`, `top` or the constant (when `T` is printable).
  friend std::ostream& operator<<(std::ostream& os, const Flat& f)
    requires requires(std::ostream& s, const T& v) { s << v; }
  {
    if (f.is_bottom()) return os << "bottom";
    if (f.is_top()) return os << "top";
    return os << f.value_;
  }

 private:
  enum class Kind : unsigned char { bottom, constant, top };
  Kind kind_ = Kind::bottom;
  T value_{};  // meaningful only when kind_ == constant (not std::optional: g++ 12 false -Wmaybe-uninitialized)
};

}  // namespace kildall
