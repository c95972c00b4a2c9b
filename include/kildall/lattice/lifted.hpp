#pragma once
/// \file
/// `Lifted<L>`: any value type plus a distinct `uninitialized` bottom and an
/// overdefined `top`, after the lattice element of MLIR's dataflow framework
/// (an analysis state starts uninitialized, holds a value once something is
/// known, and falls to a pessimistic state when nothing can be said).
///
///             top                 (overdefined: give up)
///              |
///       value(l) for l in L       (ordered by L when L is a lattice)
///              |
///        uninitialized            (nothing known yet / unreachable)
///
/// If `L` is itself a `JoinSemiLattice`, its join combines two values (and its
/// `leq`, `meet`, `widen`, `narrow` are forwarded where it has them). Otherwise
/// values form a flat layer: two different values join to top and meet to
/// uninitialized, so `Lifted<int>` is the constant-propagation lattice.
/// Either way `Lifted<L>` models `BoundedLattice`, so it also gives a bottom
/// and a top to lattices that lack them (e.g. a width-dependent `Interval`).

#include <ostream>
#include <stdexcept>
#include <utility>

#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>

namespace kildall {

/// `L` with an added bottom (`uninitialized`) and top (`overdefined`).
template <std::regular L>
class Lifted {
 public:
  /// The wrapped value type.
  using value_type = L;
  /// True when values are combined by `L`'s own join rather than flatly.
  static constexpr bool lattice_values = JoinSemiLattice<L>;

  /// Uninitialized (bottom).
  Lifted() = default;
  /// The value `value`.
  explicit Lifted(L value) : kind_(Kind::value), value_(std::move(value)) {}

  /// The least element: nothing known yet.
  [[nodiscard]] static Lifted bottom() { return Lifted(); }
  /// The least element (same as `bottom()`).
  [[nodiscard]] static Lifted uninitialized() { return Lifted(); }
  /// The greatest element: overdefined.
  [[nodiscard]] static Lifted top() {
    Lifted l;
    l.kind_ = Kind::top;
    return l;
  }
  /// The value `value` (same as the constructor).
  [[nodiscard]] static Lifted of(L value) { return Lifted(std::move(value)); }

  /// True when uninitialized.
  [[nodiscard]] bool is_uninitialized() const noexcept { return kind_ == Kind::uninitialized; }
  /// True when uninitialized (same as `is_uninitialized`).
  [[nodiscard]] bool is_bottom() const noexcept { return kind_ == Kind::uninitialized; }
  /// True when overdefined.
  [[nodiscard]] bool is_top() const noexcept { return kind_ == Kind::top; }
  /// True when holding a value.
  [[nodiscard]] bool has_value() const noexcept { return kind_ == Kind::value; }
  /// The value. Throws `std::logic_error` when `!has_value()`.
  [[nodiscard]] const L& value() const {
    if (!has_value())
      throw std::logic_error(is_top() ? "kildall::Lifted::value() on top" : "kildall::Lifted::value() on uninitialized");
    return value_;
  }
  /// A pointer to the value, or null when `!has_value()`.
  [[nodiscard]] const L* if_value() const noexcept { return has_value() ? &value_ : nullptr; }

  /// Least upper bound. Two values combine with `L::join` when `L` is a
  /// lattice, else stay when equal and go to top when different.
  [[nodiscard]] ChangeResult join(const Lifted& other) {
    if (other.is_bottom() || is_top()) return ChangeResult::unchanged;
    if (is_bottom() || other.is_top()) {
      *this = other;
      return ChangeResult::changed;
    }
    if constexpr (lattice_values) {
      return value_.join(other.value_);
    } else {
      if (value_ == other.value_) return ChangeResult::unchanged;
      *this = top();
      return ChangeResult::changed;
    }
  }

  /// Greatest lower bound. Two values combine with `L::meet` when `L` is a
  /// lattice with meet, else stay when equal and go to uninitialized when different.
  [[nodiscard]] ChangeResult meet(const Lifted& other)
    requires(!JoinSemiLattice<L> || MeetSemiLattice<L>)
  {
    if (other.is_top() || is_bottom()) return ChangeResult::unchanged;
    if (is_top() || other.is_bottom()) {
      *this = other;
      return ChangeResult::changed;
    }
    if constexpr (lattice_values) {
      return value_.meet(other.value_);
    } else {
      if (value_ == other.value_) return ChangeResult::unchanged;
      *this = bottom();
      return ChangeResult::changed;
    }
  }

  /// The partial order: uninitialized below everything, top above, values by
  /// `L::leq` (or equality when `L` is not a lattice).
  [[nodiscard]] bool leq(const Lifted& other) const {
    if (is_bottom() || other.is_top()) return true;
    if (is_top() || other.is_bottom()) return false;
    if constexpr (lattice_values) {
      return value_.leq(other.value_);
    } else {
      return value_ == other.value_;
    }
  }

  /// Widening: like join, with `L::widen` between two values.
  [[nodiscard]] ChangeResult widen(const Lifted& other)
    requires WidenableLattice<L>
  {
    if (has_value() && other.has_value()) return value_.widen(other.value_);
    return join(other);
  }

  /// Narrowing (for `other ⊑ *this`): top narrows to `other`'s value, two
  /// values narrow with `L::narrow`, anything else is kept.
  [[nodiscard]] ChangeResult narrow(const Lifted& other)
    requires NarrowableLattice<L>
  {
    if (has_value() && other.has_value()) return value_.narrow(other.value_);
    if (is_top() && other.has_value()) {
      *this = other;
      return ChangeResult::changed;
    }
    return ChangeResult::unchanged;
  }

  /// Same state and, for values, equal values.
  friend bool operator==(const Lifted& a, const Lifted& b) {
    return a.kind_ == b.kind_ && (a.kind_ != Kind::value || a.value_ == b.value_);
  }

  /// Prints `uninitialized`, `top` or the value (when `L` is printable).
  friend std::ostream& operator<<(std::ostream& os, const Lifted& l)
    requires requires(std::ostream& s, const L& v) { s << v; }
  {
    if (l.is_bottom()) return os << "uninitialized";
    if (l.is_top()) return os << "top";
    return os << l.value_;
  }

 private:
  enum class Kind : unsigned char { uninitialized, value, top };
  Kind kind_ = Kind::uninitialized;
  L value_{};  // meaningful only when kind_ == value (not std::optional: g++ 12 false -Wmaybe-uninitialized)
};

}  // namespace kildall
