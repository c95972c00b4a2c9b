#pragma once
/// \file
/// `Interval`: the integer interval lattice with both a signed and an
/// unsigned view of the same fixed-width two's-complement bits, after MLIR's
/// `ConstantIntRanges` (the integer range analysis of the MLIR RFC "Range
/// analysis when evaluating/lowering affine maps") and LLVM's
/// `ConstantRange`. The abstract domain is the interval domain of Cousot &
/// Cousot (POPL 1977), widening and narrowing included.
///
/// Representation. An `Interval` of bit width `w` (1..64) stores
///   umin, umax  (uint64: the bits read as unsigned, each < 2^w) and
///   smin, smax  (int64: the bits read as two's complement, in [-2^(w-1), 2^(w-1)-1])
/// and stands for the set  { x : umin <= x <= umax unsigned  AND  smin <= x <= smax signed }.
///
/// Why run-time width and not `Interval<Int>`: the bit width of an SSA value
/// is a property of the analysed program (i1, i5, i32, index, ...), known only
/// when the IR is read, and one analysis sees many widths at once; so the
/// width is data, checked at run time. `full_of<Int>()`, `constant_of(v)` and
/// `from_range_of<Int>(lo, hi)` cover fixed C++ types.
///
/// Canonical form. Every such set splits into a non-negative part (sign bit
/// clear) and a negative part (sign bit set); each part is one contiguous run
/// on which the signed and the unsigned orders agree, and conversely every
/// pair of such runs is representable. An `Interval` is always stored with
/// each of its four bounds attained by a member (umin is the least member read
/// unsigned, and so on), so two `Interval`s are `==` exactly when they stand
/// for the same set; the empty set has one value per width (`empty(w)`, with
/// the inverted limits umin = 2^w-1 > umax = 0 and smin = 2^(w-1)-1 > smax = -2^(w-1)).
///
/// Lattice. Ordered by set inclusion: `join` is the least representable
/// superset of the union (the per-view hull, like MLIR's `rangeUnion`), `meet`
/// the intersection (exact), `leq` inclusion. `widen`/`narrow` follow Cousot.
/// Bottom and top depend on the width, so `Interval` models
/// JoinSemiLattice, MeetSemiLattice, WidenableLattice and NarrowableLattice
/// but not HasBottom/HasTop: a solver that needs a width-free "uninitialized"
/// or "unknown" state wraps it in `Lifted<Interval>` (kildall/lattice/lifted.hpp).
/// Combining two intervals of different widths is a precondition violation
/// and throws `std::invalid_argument` (it is always a bug in the caller).
///
/// Transfer functions for MLIR `arith` operations are in
/// kildall/lattice/interval_transfer.hpp.

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>

namespace kildall {

namespace detail::interval {

/// All-ones mask of `width` bits (1..64).
[[nodiscard]] constexpr std::uint64_t mask(unsigned width) noexcept {
  return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

/// 2^(width-1) as bits: the least negative value, `-2^(width-1)` read unsigned.
[[nodiscard]] constexpr std::uint64_t half(unsigned width) noexcept { return std::uint64_t{1} << (width - 1); }

/// The largest signed value of `width` bits, 2^(width-1) - 1.
[[nodiscard]] constexpr std::int64_t signed_max(unsigned width) noexcept {
  return static_cast<std::int64_t>(half(width) - 1);
}

/// The least signed value of `width` bits, -2^(width-1).
[[nodiscard]] constexpr std::int64_t signed_min(unsigned width) noexcept { return -signed_max(width) - 1; }

/// Reads the low `width` bits of `bits` as a two's-complement number.
[[nodiscard]] constexpr std::int64_t to_signed(unsigned width, std::uint64_t bits) noexcept {
  const unsigned shift = 64 - width;
  return static_cast<std::int64_t>(bits << shift) >> shift;
}

/// The `width`-bit pattern of `value` (two's complement, truncated).
[[nodiscard]] constexpr std::uint64_t to_bits(unsigned width, std::int64_t value) noexcept {
  return static_cast<std::uint64_t>(value) & mask(width);
}

__extension__ typedef __int128 i128;           // exact sums and 64x64-bit products
__extension__ typedef unsigned __int128 u128;  //

class Accumulator;
struct Arcs;

}  // namespace detail::interval

class Interval;
[[nodiscard]] inline std::string to_string(const Interval& x);

/// A set of `width`-bit integers bounded both as unsigned and as signed
/// numbers (see the file comment for the representation and canonical form).
/// A plain regular value type; default construction gives `empty(64)`, which
/// exists only so that `Interval` is regular and carries no meaning.

class Interval {
 public:
  /// The least supported bit width.
  static constexpr unsigned min_width = 1;
  /// The greatest supported bit width.
  static constexpr unsigned max_width = 64;

  /// `empty(64)`: a placeholder so that `Interval` is `std::regular`.
  Interval() noexcept : Interval(Raw{}, 64) {}

  // ---------------------------------------------------------------- factories

  /// The empty set of `width`-bit integers: the bottom element, identity of
  /// `join`. Throws `std::invalid_argument` unless 1 <= width <= 64 (as do all
  /// factories).
  [[nodiscard]] static Interval empty(unsigned width) { return Interval(Raw{}, checked_width(width)); }

  /// Every `width`-bit integer: the top element.
  [[nodiscard]] static Interval full(unsigned width) {
    checked_width(width);
    using namespace detail::interval;
    return Interval(width, 0, mask(width), signed_min(width), signed_max(width));
  }

  /// The single value `value`. Non-negative values must fit in `width` bits
  /// unsigned (so `constant(4, 15)` is the pattern 1111, i.e. -1), negative
  /// values must fit in `width` bits signed (`constant(4, -8)`); anything
  /// else throws `std::invalid_argument`.
  template <std::integral T>
  [[nodiscard]] static Interval constant(unsigned width, T value) {
    const std::uint64_t bits = checked_bits(checked_width(width), value);
    return Interval(width, bits, bits, detail::interval::to_signed(width, bits), detail::interval::to_signed(width, bits));
  }

  /// The values whose unsigned reading is in [lo, hi]; empty when lo > hi.
  /// Throws `std::invalid_argument` if a bound is not below 2^width.
  [[nodiscard]] static Interval from_unsigned(unsigned width, std::uint64_t lo, std::uint64_t hi) {
    checked_width(width);
    check_unsigned(width, lo);
    check_unsigned(width, hi);
    using namespace detail::interval;
    return canonical(width, lo, hi, signed_min(width), signed_max(width));
  }

  /// The values whose signed reading is in [lo, hi]; empty when lo > hi.
  /// Throws `std::invalid_argument` if a bound is outside the signed range.
  [[nodiscard]] static Interval from_signed(unsigned width, std::int64_t lo, std::int64_t hi) {
    checked_width(width);
    check_signed(width, lo);
    check_signed(width, hi);
    return canonical(width, 0, detail::interval::mask(width), lo, hi);
  }

  /// The values in [umin, umax] read unsigned AND in [smin, smax] read signed,
  /// brought to canonical form (each bound tightened until it is attained).
  /// Empty when either view is empty or the views do not overlap.
  [[nodiscard]] static Interval from_bounds(unsigned width, std::uint64_t umin, std::uint64_t umax, std::int64_t smin,
                                            std::int64_t smax) {
    checked_width(width);
    check_unsigned(width, umin);
    check_unsigned(width, umax);
    check_signed(width, smin);
    check_signed(width, smax);
    return canonical(width, umin, umax, smin, smax);
  }

  /// The bit width of the C++ integer type `Int` (`bool` has width 1).
  template <std::integral Int>
  static constexpr unsigned width_of = std::same_as<Int, bool> ? 1u : unsigned{sizeof(Int) * 8};

  /// `full(width_of<Int>)`: every value of the C++ type `Int`.
  template <std::integral Int>
  [[nodiscard]] static Interval full_of() {
    return full(width_of<Int>);
  }

  /// `constant(width_of<Int>, value)`.
  template <std::integral Int>
  [[nodiscard]] static Interval constant_of(Int value) {
    return constant(width_of<Int>, value);
  }

  /// The values of `Int` in [lo, hi] in `Int`'s own order: `from_signed` for
  /// signed `Int`, `from_unsigned` for unsigned `Int`.
  template <std::integral Int>
  [[nodiscard]] static Interval from_range_of(Int lo, Int hi) {
    if constexpr (std::is_signed_v<Int>) {
      return from_signed(width_of<Int>, lo, hi);
    } else {
      return from_unsigned(width_of<Int>, lo, hi);
    }
  }

  // ---------------------------------------------------------------- accessors

  /// The bit width, 1..64.
  [[nodiscard]] unsigned width() const noexcept { return width_; }
  /// The least member read unsigned (2^w - 1 when empty).
  [[nodiscard]] std::uint64_t umin() const noexcept { return umin_; }
  /// The greatest member read unsigned (0 when empty).
  [[nodiscard]] std::uint64_t umax() const noexcept { return umax_; }
  /// The least member read signed (2^(w-1) - 1 when empty).
  [[nodiscard]] std::int64_t smin() const noexcept { return smin_; }
  /// The greatest member read signed (-2^(w-1) when empty).
  [[nodiscard]] std::int64_t smax() const noexcept { return smax_; }

  /// True for the empty set.
  [[nodiscard]] bool is_empty() const noexcept { return umin_ > umax_; }
  /// True when every `width`-bit value is a member.
  [[nodiscard]] bool is_full() const noexcept {
    using namespace detail::interval;
    return umin_ == 0 && umax_ == mask(width_) && smin_ == signed_min(width_) && smax_ == signed_max(width_);
  }
  /// True when there is exactly one member.
  [[nodiscard]] bool is_constant() const noexcept { return umin_ == umax_; }
  /// The single member's bits, if there is exactly one.
  [[nodiscard]] std::optional<std::uint64_t> unsigned_constant() const {
    return is_constant() ? std::optional<std::uint64_t>(umin_) : std::nullopt;
  }
  /// The single member read signed, if there is exactly one.
  [[nodiscard]] std::optional<std::int64_t> signed_constant() const {
    return is_constant() ? std::optional<std::int64_t>(smin_) : std::nullopt;
  }
  /// True when the `width`-bit pattern `bits` is a member (false when `bits`
  /// does not fit in `width` bits).
  [[nodiscard]] bool contains(std::uint64_t bits) const noexcept {
    if (bits > detail::interval::mask(width_)) return false;
    const std::int64_t s = detail::interval::to_signed(width_, bits);
    return umin_ <= bits && bits <= umax_ && smin_ <= s && s <= smax_;
  }
  /// True when the signed number `value` is a member (false when it is
  /// outside the signed range of the width).
  [[nodiscard]] bool contains_signed(std::int64_t value) const noexcept {
    using namespace detail::interval;
    if (value < signed_min(width_) || value > signed_max(width_)) return false;
    return contains(to_bits(width_, value));
  }
  /// True when every member is >= 0 read signed (vacuously for empty): the
  /// signed and unsigned readings of every member agree.
  [[nodiscard]] bool is_nonnegative() const noexcept { return is_empty() || smin_ >= 0; }
  /// True when every member is < 0 read signed (vacuously for empty).
  [[nodiscard]] bool is_negative() const noexcept { return is_empty() || smax_ < 0; }
  /// The members with sign bit clear: one contiguous run in both orders.
  [[nodiscard]] Interval nonnegative_part() const {
    using namespace detail::interval;
    if (is_empty() || smax_ < 0) return Interval(Raw{}, width_);
    return Interval(width_, umin_, static_cast<std::uint64_t>(smax_), static_cast<std::int64_t>(umin_), smax_);
  }
  /// The members with sign bit set: one contiguous run in both orders.
  [[nodiscard]] Interval negative_part() const {
    using namespace detail::interval;
    if (is_empty() || smin_ >= 0) return Interval(Raw{}, width_);
    return Interval(width_, to_bits(width_, smin_), umax_, smin_, to_signed(width_, umax_));
  }
  /// The number of members, or `std::nullopt` for the one set whose count,
  /// 2^64, does not fit: `full(64)`.
  [[nodiscard]] std::optional<std::uint64_t> cardinality() const noexcept {
    if (is_empty()) return std::uint64_t{0};
    if (width_ == 64 && is_full()) return std::nullopt;
    const Interval nonneg = nonnegative_part();
    const Interval neg = negative_part();
    std::uint64_t count = 0;
    if (!nonneg.is_empty()) count += nonneg.umax_ - nonneg.umin_ + 1;
    if (!neg.is_empty()) count += neg.umax_ - neg.umin_ + 1;
    return count;
  }

  // ---------------------------------------------------------- lattice ops

  /// this := the least interval containing this and `other` (per-view hull,
  /// then canonical form). `empty` is the identity. Throws
  /// `std::invalid_argument` if the widths differ.
  [[nodiscard]] ChangeResult join(const Interval& other) {
    check_same_width(other, "join");
    if (other.is_empty()) return ChangeResult::unchanged;
    if (is_empty()) return assign(other);
    // One within the other: the hull is the larger one, already canonical (no tightening; a
    // loop's incoming values mostly are, once it is stable).
    if (other.bounds_within(*this)) return ChangeResult::unchanged;
    if (bounds_within(other)) return assign(other);
    return assign(canonical(width_, std::min(umin_, other.umin_), std::max(umax_, other.umax_),
                            std::min(smin_, other.smin_), std::max(smax_, other.smax_)));
  }

  /// this := this ∩ `other` (exact). Throws if the widths differ.
  [[nodiscard]] ChangeResult meet(const Interval& other) {
    check_same_width(other, "meet");
    if (is_empty()) return ChangeResult::unchanged;
    if (other.is_empty()) return assign(other);
    return assign(canonical(width_, std::max(umin_, other.umin_), std::min(umax_, other.umax_),
                            std::max(smin_, other.smin_), std::min(smax_, other.smax_)));
  }

  /// Set inclusion: every member of this is a member of `other`. Throws if
  /// the widths differ.
  [[nodiscard]] bool leq(const Interval& other) const {
    check_same_width(other, "leq");
    if (is_empty()) return true;
    if (other.is_empty()) return false;
    return bounds_within(other);
  }

  /// Cousot widening: this := this ∇ `other`. Every bound of `join(this,
  /// other)` that moved beyond this's bound jumps to the width's limit (0,
  /// 2^w-1, -2^(w-1), 2^(w-1)-1), then the result is made canonical.
  /// `empty ∇ x = x`. Because each of the two parts (non-negative,
  /// negative) can appear once and then each of its two ends can jump once,
  /// every widening chain x0, x0∇x1, ... changes at most 6 times after its
  /// first non-empty element. Throws if the widths differ.
  [[nodiscard]] ChangeResult widen(const Interval& other) {
    check_same_width(other, "widen");
    if (other.is_empty()) return ChangeResult::unchanged;
    if (is_empty()) return assign(other);
    using namespace detail::interval;
    Interval hull = *this;
    (void)hull.join(other);
    return assign(canonical(width_, hull.umin_ < umin_ ? 0 : umin_, hull.umax_ > umax_ ? mask(width_) : umax_,
                            hull.smin_ < smin_ ? signed_min(width_) : smin_,
                            hull.smax_ > smax_ ? signed_max(width_) : smax_));
  }

  /// Cousot narrowing: this := this Δ `other` (intended for `other ⊑ this`).
  /// Every bound of this that sits at the width's limit is replaced by
  /// `other`'s bound, then the result is made canonical; `x Δ empty =
  /// empty`. The result is always ⊑ this and, when other ⊑ this, ⊒ other;
  /// a narrowing chain changes at most 4 times. Throws if the widths differ.
  [[nodiscard]] ChangeResult narrow(const Interval& other) {
    check_same_width(other, "narrow");
    if (is_empty()) return ChangeResult::unchanged;
    if (other.is_empty()) return assign(other);
    using namespace detail::interval;
    return assign(canonical(width_, umin_ == 0 ? other.umin_ : umin_, umax_ == mask(width_) ? other.umax_ : umax_,
                            smin_ == signed_min(width_) ? other.smin_ : smin_,
                            smax_ == signed_max(width_) ? other.smax_ : smax_));
  }

  /// Structural equality, which the canonical form makes set equality (the
  /// width is part of the value: `empty(4) != empty(8)`).
  friend bool operator==(const Interval&, const Interval&) = default;

  /// Prints `[smin, smax] u[umin, umax]` (signed view first), or `empty`.
  friend std::ostream& operator<<(std::ostream& out, const Interval& x) { return out << to_string(x); }

 private:
  friend class detail::interval::Accumulator;  // builds canonical values from part hulls
  friend struct detail::interval::Arcs;        // builds canonical values from arcs
  struct Raw {};

  // The empty set of `width` bits (the inverted limits).
  Interval(Raw, unsigned width) noexcept
      : width_(width),
        umin_(detail::interval::mask(width)),
        umax_(0),
        smin_(detail::interval::signed_max(width)),
        smax_(detail::interval::signed_min(width)) {}

  // Whether each bound of this lies within `other`'s: set inclusion of two non-empty
  // intervals (`leq`, and `join`'s test for one operand containing the other).
  [[nodiscard]] bool bounds_within(const Interval& other) const noexcept {
    return other.umin_ <= umin_ && umax_ <= other.umax_ && other.smin_ <= smin_ && smax_ <= other.smax_;
  }

  // Stores already-canonical bounds as given.
  Interval(unsigned width, std::uint64_t umin, std::uint64_t umax, std::int64_t smin, std::int64_t smax) noexcept
      : width_(width), umin_(umin), umax_(umax), smin_(smin), smax_(smax) {}

  // Canonical form of the set  [umin, umax] (unsigned) ∩ [smin, smax] (signed);
  // bounds are in range for the width. The non-negative members are the
  // unsigned run [max(umin, smin⁺), min(umax, 2^(w-1)-1, smax)], the negative
  // members the run [max(smin, umin - 2^w), min(smax, -1, umax - 2^w)].
  [[nodiscard]] static Interval canonical(unsigned width, std::uint64_t umin, std::uint64_t umax, std::int64_t smin,
                                          std::int64_t smax) noexcept {
    using namespace detail::interval;
    if (umin > umax || smin > smax) return Interval(Raw{}, width);
    const std::uint64_t h = half(width);
    bool has_nonneg = false;
    std::uint64_t p_lo = 0, p_hi = 0;
    if (smax >= 0 && umin < h) {
      p_lo = std::max(umin, smin > 0 ? static_cast<std::uint64_t>(smin) : 0);
      p_hi = std::min({umax, h - 1, static_cast<std::uint64_t>(smax)});
      has_nonneg = p_lo <= p_hi;
    }
    bool has_neg = false;
    std::uint64_t n_lo = 0, n_hi = 0;  // as bits, >= 2^(w-1)
    if (smin < 0 && umax >= h) {
      n_lo = std::max({umin, h, to_bits(width, smin)});
      n_hi = std::min(umax, to_bits(width, std::min<std::int64_t>(smax, -1)));
      has_neg = n_lo <= n_hi;
    }
    if (!has_nonneg && !has_neg) return Interval(Raw{}, width);
    return Interval(width, has_nonneg ? p_lo : n_lo, has_neg ? n_hi : p_hi,
                    has_neg ? to_signed(width, n_lo) : static_cast<std::int64_t>(p_lo),
                    has_nonneg ? static_cast<std::int64_t>(p_hi) : to_signed(width, n_hi));
  }

  ChangeResult assign(const Interval& next) noexcept {
    const bool changed = !(*this == next);
    *this = next;
    return change_if(changed);
  }

  // The throwing paths are out of line so that the checks inline cheaply.
  [[noreturn, gnu::cold, gnu::noinline]] static void throw_bad_width(unsigned width) {
    throw std::invalid_argument("kildall::Interval: bit width " + std::to_string(width) + " is not in 1..64");
  }
  [[noreturn, gnu::cold, gnu::noinline]] static void throw_bad_bound(unsigned width, const std::string& bound) {
    throw std::invalid_argument("kildall::Interval: bound " + bound + " does not fit in " + std::to_string(width) +
                                " bits");
  }
  [[noreturn, gnu::cold, gnu::noinline]] static void throw_width_mismatch(const char* operation, unsigned a,
                                                                          unsigned b) {
    throw std::invalid_argument(std::string("kildall::Interval::") + operation + ": bit widths differ (" +
                                std::to_string(a) + " vs " + std::to_string(b) + ")");
  }

  static unsigned checked_width(unsigned width) {
    if (width < min_width || width > max_width) [[unlikely]] throw_bad_width(width);
    return width;
  }

  static void check_unsigned(unsigned width, std::uint64_t bits) {
    if (bits > detail::interval::mask(width)) [[unlikely]] throw_bad_bound(width, std::to_string(bits));
  }

  static void check_signed(unsigned width, std::int64_t value) {
    if (value < detail::interval::signed_min(width) || value > detail::interval::signed_max(width)) [[unlikely]] {
      throw_bad_bound(width, std::to_string(value));
    }
  }

  template <std::integral T>
  static std::uint64_t checked_bits(unsigned width, T value) {
    if constexpr (std::is_signed_v<T>) {
      if (value < 0) {
        check_signed(width, static_cast<std::int64_t>(value));
        return detail::interval::to_bits(width, static_cast<std::int64_t>(value));
      }
    }
    const auto bits = static_cast<std::uint64_t>(value);
    check_unsigned(width, bits);
    return bits;
  }

  void check_same_width(const Interval& other, const char* operation) const {
    if (width_ != other.width_) [[unlikely]] throw_width_mismatch(operation, width_, other.width_);
  }

  unsigned width_;
  std::uint64_t umin_;
  std::uint64_t umax_;
  std::int64_t smin_;
  std::int64_t smax_;
};

namespace detail::interval {

/// Collects runs of values and yields the least interval containing them
/// all: it keeps the hull of the non-negative members and the hull of the
/// negative members, which is exactly what a canonical `Interval` stores.
class Accumulator {
 public:
  explicit Accumulator(unsigned width) noexcept : width_(width), half_(half(width)) {}

  /// Adds the bit patterns [lo, hi] (unsigned, lo <= hi). When every value
  /// added is a multiple of 2^step_log2 (lo and hi too), the run is assumed
  /// to hold exactly those multiples and the part ends are rounded to them.
  void add_run(std::uint64_t lo, std::uint64_t hi, unsigned step_log2 = 0) noexcept {
    if (lo < half_) {
      const std::uint64_t align = ~((std::uint64_t{1} << step_log2) - 1);
      add_part(nonneg_, lo, std::min(hi, half_ - 1) & align);
    }
    if (hi >= half_) add_part(neg_, std::max(lo, half_), hi);
  }

  /// Adds the values whose signed reading is in [lo, hi] (lo <= hi).
  void add_signed(std::int64_t lo, std::int64_t hi) noexcept {
    if (lo < 0 && hi >= 0) {
      add_part(neg_, to_bits(width_, lo), mask(width_));
      add_part(nonneg_, 0, static_cast<std::uint64_t>(hi));
    } else {
      add_run(to_bits(width_, lo), to_bits(width_, hi));
    }
  }

  /// Adds { (start + i * 2^step_log2) mod 2^w : 0 <= i <= steps }: the
  /// multiples of 2^step_log2 met walking from `start` (itself such a
  /// multiple) around the circle of `width`-bit patterns.
  void add_arc(u128 start, u128 steps, unsigned step_log2 = 0) noexcept {
    const std::uint64_t m = mask(width_);
    const std::uint64_t top = m & ~((std::uint64_t{1} << step_log2) - 1);  // largest multiple
    if (steps >= (u128{1} << (width_ - step_log2)) - 1) {                  // the whole circle
      add_run(0, top, step_log2);
      return;
    }
    const auto s = static_cast<std::uint64_t>(start & m);
    const u128 end = u128{s} + (steps << step_log2);
    if (end <= m) {
      add_run(s, static_cast<std::uint64_t>(end), step_log2);
    } else {
      add_run(s, top, step_log2);
      add_run(0, static_cast<std::uint64_t>(end - (u128{1} << width_)), step_log2);
    }
  }

  /// Adds { v mod 2^w : lo <= v <= hi } for mathematical integers lo <= hi.
  void add_wrapped(i128 lo, i128 hi) noexcept { add_arc(static_cast<u128>(lo), static_cast<u128>(hi - lo)); }

  /// Adds every member of `x` (of this width).
  void add(const Interval& x) noexcept {
    if (x.is_empty()) return;
    if (x.smax() >= 0) add_part(nonneg_, x.umin(), static_cast<std::uint64_t>(x.smax()));
    if (x.smin() < 0) add_part(neg_, to_bits(width_, x.smin()), x.umax());
  }

  /// The least interval containing everything added.
  /// (The part hulls are the canonical form: no further tightening needed.)
  [[nodiscard]] Interval interval() const noexcept {
    if (!nonneg_.present && !neg_.present) return Interval(Interval::Raw{}, width_);
    const std::uint64_t umin = nonneg_.present ? nonneg_.lo : neg_.lo;
    const std::uint64_t umax = neg_.present ? neg_.hi : nonneg_.hi;
    const std::int64_t smin = neg_.present ? to_signed(width_, neg_.lo) : static_cast<std::int64_t>(nonneg_.lo);
    const std::int64_t smax = nonneg_.present ? static_cast<std::int64_t>(nonneg_.hi) : to_signed(width_, neg_.hi);
    return Interval(width_, umin, umax, smin, smax);
  }

 private:
  struct Hull {
    bool present = false;
    std::uint64_t lo = 0, hi = 0;
  };
  static void add_part(Hull& h, std::uint64_t lo, std::uint64_t hi) noexcept {
    if (lo > hi) return;
    if (!h.present) {
      h = {true, lo, hi};
    } else {
      h.lo = std::min(h.lo, lo);
      h.hi = std::max(h.hi, hi);
    }
  }

  unsigned width_;
  std::uint64_t half_;
  Hull nonneg_, neg_;
};

}  // namespace detail::interval

namespace detail::interval {

/// Fast exact conversions between an `Interval` and one arc of the circle of
/// `width`-bit patterns, { (start + i) mod 2^w : 0 <= i <= length }. Most
/// intervals are one arc (a single part, a run around 0 read signed, or a run
/// around 2^(w-1) read unsigned), and exact arithmetic on arcs (add, sub) is
/// a couple of integer operations, with no per-part loop.
struct Arcs {
  /// An arc: `length + 1` consecutive patterns from `start` (both < 2^w).
  struct Arc {
    std::uint64_t start;   ///< first pattern
    std::uint64_t length;  ///< patterns after the first
  };

  /// Whether the non-empty `x` is one arc; if so stores it in `out`. The
  /// only intervals that are not are those with both parts and a gap both
  /// below 0 and below 2^(w-1).
  [[nodiscard, gnu::always_inline]] static bool of(const Interval& x, Arc& out) noexcept {
    const unsigned w = x.width_;
    if (x.smin_ >= 0 || x.smax_ < 0 || (x.smin_ == signed_min(w) && x.smax_ == signed_max(w))) {
      out = {x.umin_, x.umax_ - x.umin_};  // one unsigned run
      return true;
    }
    if (x.umin_ == 0 && x.umax_ == mask(w)) {  // one signed run through 0
      const std::uint64_t start = to_bits(w, x.smin_);
      out = {start, (static_cast<std::uint64_t>(x.smax_) - start) & mask(w)};
      return true;
    }
    return false;
  }

  /// The least interval containing the arc of `length + 1` patterns from
  /// `start` (< 2^w); `length` may be anything (>= 2^w - 1 is every pattern).
  [[nodiscard]] static Interval interval(unsigned width, std::uint64_t start, std::uint64_t length) noexcept {
    const std::uint64_t m = mask(width), h = half(width);
    if (length >= m) return Interval(width, 0, m, signed_min(width), signed_max(width));
    if (length <= m - start) {  // no wrap past 2^w - 1
      const std::uint64_t end = start + length;
      if (start >= h || end < h) return Interval(width, start, end, to_signed(width, start), to_signed(width, end));
      return Interval(width, start, end, signed_min(width), signed_max(width));  // crosses 2^(w-1)
    }
    const std::uint64_t end = start + length - m - 1;  // (start + length) - 2^w, modulo 2^64
    if (start >= h && end < h) {  // a signed run through 0
      return Interval(width, 0, m, to_signed(width, start), static_cast<std::int64_t>(end));
    }
    return Interval(width, 0, m, signed_min(width), signed_max(width));  // wraps and crosses 2^(w-1)
  }

  /// The single value `bits` (< 2^w).
  [[nodiscard]] static Interval constant(unsigned width, std::uint64_t bits) noexcept {
    const std::int64_t s = to_signed(width, bits);
    return Interval(width, bits, bits, s, s);
  }

  /// The non-negative run [lo, hi] (lo <= hi < 2^(w-1)).
  [[nodiscard]] static Interval nonnegative_run(unsigned width, std::uint64_t lo, std::uint64_t hi) noexcept {
    return Interval(width, lo, hi, static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi));
  }

  /// The hull of the multiples of 2^k (k < w): every part from its first to
  /// its last multiple.
  [[nodiscard]] static Interval multiples(unsigned width, unsigned k) noexcept {
    const std::uint64_t align = ~((std::uint64_t{1} << k) - 1);
    return Interval(width, 0, mask(width) & align, signed_min(width),
                    static_cast<std::int64_t>((half(width) - 1) & align));
  }

  /// The empty set of `width` bits.
  [[nodiscard]] static Interval empty(unsigned width) noexcept { return Interval(Interval::Raw{}, width); }
};

}  // namespace detail::interval

static_assert(JoinSemiLattice<Interval>);
static_assert(MeetSemiLattice<Interval>);
static_assert(Lattice<Interval>);
static_assert(WidenableLattice<Interval>);
static_assert(NarrowableLattice<Interval>);
static_assert(!HasBottom<Interval> && !HasTop<Interval>, "bottom and top depend on the width: use Lifted<Interval>");

/// `x` as text: `[smin, smax] u[umin, umax]`, or `empty`.
[[nodiscard]] inline std::string to_string(const Interval& x) {
  if (x.is_empty()) return "empty";
  return '[' + std::to_string(x.smin()) + ", " + std::to_string(x.smax()) + "] u[" + std::to_string(x.umin()) + ", " +
         std::to_string(x.umax()) + ']';
}

/// `x` in the text MLIR's integer range analysis prints in its debug output,
/// `unsigned : [umin, umax] signed : [smin, smax]` (`empty` for the empty set),
/// so that logs can be compared line by line with `mlir-opt
/// --debug-only=int-range-analysis`.
[[nodiscard]] inline std::string to_mlir_debug_string(const Interval& x) {
  if (x.is_empty()) return "empty";
  return "unsigned : [" + std::to_string(x.umin()) + ", " + std::to_string(x.umax()) + "] signed : [" +
         std::to_string(x.smin()) + ", " + std::to_string(x.smax()) + ']';
}

}  // namespace kildall
