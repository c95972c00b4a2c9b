#pragma once
// Brute-force oracles for Interval (test-only), shared by interval_test.cpp and
// interval_transfer_test.cpp: w-bit patterns as integers, member sets of small
// widths as bit masks, and the least representable superset of such a set.
// Independent of the header's own helpers: everything is arithmetic on values.

#include <kildall/lattice/interval.hpp>

#include <algorithm>
#include <cstdint>

namespace kildall::test {

/// The w low bits set (1 <= w <= 64).
[[nodiscard]] inline std::uint64_t mask_of(unsigned w) {
  return w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
}
/// The greatest signed w-bit value.
[[nodiscard]] inline std::int64_t smax_of(unsigned w) {
  return static_cast<std::int64_t>((std::uint64_t{1} << (w - 1)) - 1);
}
/// The least signed w-bit value.
[[nodiscard]] inline std::int64_t smin_of(unsigned w) { return -smax_of(w) - 1; }
/// The w-bit pattern `bits` read as a signed value (sign extension by arithmetic).
[[nodiscard]] inline std::int64_t signed_of(unsigned w, std::uint64_t bits) {
  if (w == 64) return static_cast<std::int64_t>(bits);
  return bits >= (std::uint64_t{1} << (w - 1)) ? -static_cast<std::int64_t>((std::uint64_t{1} << w) - bits)
                                               : static_cast<std::int64_t>(bits);
}
/// The w-bit pattern of the signed value v.
[[nodiscard]] inline std::uint64_t bits_of(unsigned w, std::int64_t v) { return static_cast<std::uint64_t>(v) & mask_of(w); }

/// The member set of an interval of width <= 6 as a bit mask over its 2^w patterns.
[[nodiscard]] inline std::uint64_t members(const Interval& x) {
  std::uint64_t m = 0;
  for (std::uint64_t v = 0; v <= mask_of(x.width()); ++v)
    if (x.contains(v)) m |= std::uint64_t{1} << v;
  return m;
}

/// The per-view hull of the w-bit patterns added: the tightest Interval that
/// contains them all (empty before the first), built without join.
struct IntervalHull {
  unsigned w;
  std::uint64_t umin, umax = 0;
  std::int64_t smin, smax;
  bool any = false;
  /// No pattern yet.
  explicit IntervalHull(unsigned width) : w(width), umin(mask_of(width)), smin(smax_of(width)), smax(smin_of(width)) {}
  /// Adds the pattern v.
  void add(std::uint64_t v) {
    any = true;
    umin = std::min(umin, v);
    umax = std::max(umax, v);
    smin = std::min(smin, signed_of(w, v));
    smax = std::max(smax, signed_of(w, v));
  }
  /// The hull of the patterns added so far.
  [[nodiscard]] Interval interval() const {
    return any ? Interval::from_bounds(w, umin, umax, smin, smax) : Interval::empty(w);
  }
};

/// The least representable superset of a set of w-bit patterns (w <= 6, the
/// set as a bit mask over the 2^w patterns): the hull of its members.
[[nodiscard]] inline Interval closure(unsigned w, std::uint64_t set) {
  IntervalHull hull(w);
  for (std::uint64_t v = 0; v <= mask_of(w); ++v)
    if ((set >> v) & 1) hull.add(v);
  return hull.interval();
}

}  // namespace kildall::test
