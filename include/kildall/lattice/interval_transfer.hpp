#pragma once
/// \file
/// Reusable transfer functions of `Interval` for the integer operations of
/// MLIR's `arith` dialect (named after MLIR's `inferAdd`, `inferMul`, ...):
/// two's-complement arithmetic that wraps at the operands' bit width.
///
/// Method. Each operand is split into its non-negative part and its negative
/// part (see interval.hpp): on each part the signed and the unsigned orders
/// agree, so monotone arithmetic on a pair of parts has its extremes at the
/// corners. Each pair of parts contributes the mathematical range of its
/// results (computed in 128 bits where 64 could overflow), wrapped modulo
/// 2^w, and the answer is the least interval containing all contributions
/// of the at most four pairs. This is never looser than MLIR's
/// InferIntRangeCommon, which computes the signed and the unsigned view each
/// from the same view of the operands and makes a view full as soon as it can
/// overflow (the tests check this against a re-implementation). Bitwise
/// and/or/xor use the exact minimum/maximum algorithms of Warren, "Hacker's
/// Delight", 2nd ed., §4-3, on each pair of parts; shifts enumerate the (at
/// most 64) valid shift amounts; mul intersects the wrapped signed and
/// unsigned corner ranges and keeps the trailing zeros of constant operands;
/// remainders treat x < y (result x) and x >= y (result < y and <= x - y)
/// apart.
///
/// Fast paths. add/sub first try to see each operand as one arc of the circle
/// of w-bit patterns (every interval but those with two parts and gaps both
/// below 0 and below 2^(w-1)): the sums of two arcs are one arc, computed
/// with two additions, whose hull is the exact answer. mul folds two
/// constants, multiplies non-negative operands whose products stay below
/// 2^(w-1) directly, and answers `full * y` with the multiples of 2^k (k the
/// trailing zeros every member of y has). Each fast path returns exactly what
/// the general method returns (checked against it exhaustively at small
/// widths and on random operands at widths up to 64).
///
/// Contract shared by all functions:
///   - operands of a binary operation must have equal widths, else
///     `std::invalid_argument` is thrown;
///   - an empty operand gives an empty result (no value flows);
///   - results are sound: every concrete result of every pair of members is a
///     member of the result; operations whose behaviour MLIR leaves undefined
///     or poison for some operands (division by zero, signed division
///     overflow, shift amounts >= width) have those operand pairs excluded,
///     and when no defined pair is left the result is empty.
/// Measured precision (exhaustive over all 4-bit operand pairs) is listed in
/// docs/lattices.md, section "Interval".

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include <kildall/lattice/interval.hpp>

namespace kildall {

namespace detail::interval {

/// A run of bit patterns [lo, hi] that does not cross the sign boundary, so
/// that its unsigned and signed orders agree.
struct Part {
  std::uint64_t lo;
  std::uint64_t hi;
};

/// The at most two parts of a canonical interval: non-negative, then negative.
struct Parts {
  std::array<Part, 2> part{};
  unsigned count = 0;
  [[nodiscard]] const Part* begin() const noexcept { return part.data(); }
  [[nodiscard]] const Part* end() const noexcept { return part.data() + count; }
};

/// The parts of `x`: [umin, smax] if it has non-negative members, and
/// [smin, umax] (as bits) if it has negative ones.
[[nodiscard]] inline Parts parts_of(const Interval& x) {
  Parts parts;
  if (x.is_empty()) return parts;
  if (x.smax() >= 0) parts.part[parts.count++] = {x.umin(), static_cast<std::uint64_t>(x.smax())};
  if (x.smin() < 0) parts.part[parts.count++] = {to_bits(x.width(), x.smin()), x.umax()};
  return parts;
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_width_mismatch(const char* operation, unsigned a,
                                                                       unsigned b) {
  throw std::invalid_argument(std::string("kildall::") + operation + ": operand bit widths differ (" +
                              std::to_string(a) + " vs " + std::to_string(b) + ")");
}

/// Throws `std::invalid_argument` naming `operation` unless a and b have equal widths.
inline void require_same_width(const Interval& a, const Interval& b, const char* operation) {
  if (a.width() != b.width()) [[unlikely]] throw_width_mismatch(operation, a.width(), b.width());
}

/// Calls `add_results(acc, x, y)` for every pair of parts x of `a`, y of `b`
/// and returns the least interval containing what was added.
template <class AddResults>
[[nodiscard]] Interval over_part_pairs(const Interval& a, const Interval& b, const char* operation,
                                       AddResults add_results) {
  require_same_width(a, b, operation);
  Accumulator acc(a.width());
  const Parts pa = parts_of(a), pb = parts_of(b);
  for (const Part& x : pa) {
    for (const Part& y : pb) add_results(acc, x, y);
  }
  return acc.interval();
}

/// The signed reading of `bits`, widened to 128 bits for exact arithmetic.
[[nodiscard]] inline i128 signed_value(unsigned width, std::uint64_t bits) { return to_signed(width, bits); }

/// Exact least value of x | y for x in [a, b], y in [c, d] (Warren §4-3).
[[nodiscard]] inline std::uint64_t min_or(unsigned width, std::uint64_t a, std::uint64_t b, std::uint64_t c,
                                          std::uint64_t d) {
  for (std::uint64_t m = half(width); m != 0; m >>= 1) {
    if (~a & c & m) {
      const std::uint64_t t = (a | m) & (0 - m);
      if (t <= b) {
        a = t;
        break;
      }
    } else if (a & ~c & m) {
      const std::uint64_t t = (c | m) & (0 - m);
      if (t <= d) {
        c = t;
        break;
      }
    }
  }
  return a | c;
}

/// Exact greatest value of x | y for x in [a, b], y in [c, d] (Warren §4-3).
[[nodiscard]] inline std::uint64_t max_or(unsigned width, std::uint64_t a, std::uint64_t b, std::uint64_t c,
                                          std::uint64_t d) {
  for (std::uint64_t m = half(width); m != 0; m >>= 1) {
    if (b & d & m) {
      std::uint64_t t = (b - m) | (m - 1);
      if (t >= a) {
        b = t;
        break;
      }
      t = (d - m) | (m - 1);
      if (t >= c) {
        d = t;
        break;
      }
    }
  }
  return b | d;
}

/// Exact least value of x & y for x in [a, b], y in [c, d] (Warren §4-3).
[[nodiscard]] inline std::uint64_t min_and(unsigned width, std::uint64_t a, std::uint64_t b, std::uint64_t c,
                                           std::uint64_t d) {
  for (std::uint64_t m = half(width); m != 0; m >>= 1) {
    if (~a & ~c & m) {
      std::uint64_t t = (a | m) & (0 - m);
      if (t <= b) {
        a = t;
        break;
      }
      t = (c | m) & (0 - m);
      if (t <= d) {
        c = t;
        break;
      }
    }
  }
  return a & c;
}

/// Exact greatest value of x & y for x in [a, b], y in [c, d] (Warren §4-3).
[[nodiscard]] inline std::uint64_t max_and(unsigned width, std::uint64_t a, std::uint64_t b, std::uint64_t c,
                                           std::uint64_t d) {
  for (std::uint64_t m = half(width); m != 0; m >>= 1) {
    if (b & ~d & m) {
      const std::uint64_t t = (b & ~m) | (m - 1);
      if (t >= a) {
        b = t;
        break;
      }
    } else if (~b & d & m) {
      const std::uint64_t t = (d & ~m) | (m - 1);
      if (t >= c) {
        d = t;
        break;
      }
    }
  }
  return b & d;
}

/// Exact least value of x ^ y for x in [a, b], y in [c, d] (Warren §4-3).
[[nodiscard]] inline std::uint64_t min_xor(unsigned width, std::uint64_t a, std::uint64_t b, std::uint64_t c,
                                           std::uint64_t d) {
  for (std::uint64_t m = half(width); m != 0; m >>= 1) {
    if (~a & c & m) {
      const std::uint64_t t = (a | m) & (0 - m);
      if (t <= b) a = t;
    } else if (a & ~c & m) {
      const std::uint64_t t = (c | m) & (0 - m);
      if (t <= d) c = t;
    }
  }
  return a ^ c;
}

/// Exact greatest value of x ^ y for x in [a, b], y in [c, d] (Warren §4-3).
[[nodiscard]] inline std::uint64_t max_xor(unsigned width, std::uint64_t a, std::uint64_t b, std::uint64_t c,
                                           std::uint64_t d) {
  for (std::uint64_t m = half(width); m != 0; m >>= 1) {
    if (b & d & m) {
      std::uint64_t t = (b - m) | (m - 1);
      if (t >= a) {
        b = t;
      } else {
        t = (d - m) | (m - 1);
        if (t >= c) d = t;
      }
    }
  }
  return b ^ d;
}

/// Calls `emit(lo, hi)` with runs that together hold x mod y for every x in
/// [x_lo, x_hi] and y in [y_lo, y_hi] (all read unsigned, 1 <= y_lo <= y_hi).
/// Pairs with x < y give x itself: the exact run [x_lo, min(x_hi, y_hi - 1)].
/// Pairs with x >= y give r <= min(y - 1, x - y) <= (x - 1) / 2; when every
/// such pair has the same quotient q, r = x - q*y exactly; otherwise the run
/// starts at 0. Exact when y is a constant.
template <class Emit>
void remainder_runs(std::uint64_t x_lo, std::uint64_t x_hi, std::uint64_t y_lo, std::uint64_t y_hi, Emit emit) {
  if (x_lo < y_hi) emit(x_lo, std::min(x_hi, y_hi - 1));  // x < y
  if (x_hi < y_lo) return;                                // no pair with x >= y
  const std::uint64_t big_lo = std::max(x_lo, y_lo);      // x >= y needs x >= y_lo ...
  const std::uint64_t small_hi = std::min(y_hi, x_hi);    // ... and y <= x_hi
  const std::uint64_t q_lo = big_lo / small_hi, q_hi = x_hi / y_lo;
  if (q_lo == q_hi) {  // one quotient q >= 1 on the whole box: every pair has x >= y
    emit(big_lo - q_lo * small_hi, x_hi - q_lo * y_lo);
  } else if (y_lo == y_hi) {  // x spans several multiples of y: 0 and y - 1 both occur
    emit(0, y_lo - 1);
  } else {
    emit(0, std::min({small_hi - 1, x_hi - y_lo, (x_hi - 1) / 2}));
  }
}

/// The trailing zero bits every value of part `p` has (`width` for {0}).
[[nodiscard]] inline unsigned trailing_zeros(unsigned width, const Part& p) noexcept {
  if (p.lo != p.hi) return 0;
  if (p.lo == 0) return width;
  return static_cast<unsigned>(std::countr_zero(p.lo));
}

/// |v| of a signed number as unsigned (exact for v = -2^63 too).
[[nodiscard]] constexpr std::uint64_t magnitude(std::int64_t v) noexcept {
  return v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

/// The valid shift amounts of part `y` for width `width`: [lo, hi] with
/// hi < width, or nullopt when every amount is >= width (poison).
[[nodiscard]] inline std::optional<std::array<unsigned, 2>> shift_amounts(unsigned width, const Part& y) {
  if (y.lo >= width) return std::nullopt;
  return std::array<unsigned, 2>{static_cast<unsigned>(y.lo),
                                 static_cast<unsigned>(std::min<std::uint64_t>(y.hi, width - 1))};
}

}  // namespace detail::interval

/// x + y, wrapping at the width (MLIR `arith.addi`). Exact: the result is the
/// least interval containing every sum.
[[nodiscard]] inline Interval infer_add(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  require_same_width(a, b, "infer_add");
  const unsigned w = a.width();
  if (a.is_empty() || b.is_empty()) return Arcs::empty(w);
  // Fast path: both operands are one arc each, so the sums are exactly one
  // arc (start sa + sb, length la + lb); its hull is the answer.
  Arcs::Arc x, y;
  if (Arcs::of(a, x) && Arcs::of(b, y)) [[likely]] {
    const std::uint64_t length = x.length >= ~y.length ? ~std::uint64_t{0} : x.length + y.length;
    return Arcs::interval(w, (x.start + y.start) & mask(w), length);
  }
  return over_part_pairs(a, b, "infer_add", [w](Accumulator& acc, const Part& p, const Part& q) {
    acc.add_wrapped(signed_value(w, p.lo) + signed_value(w, q.lo), signed_value(w, p.hi) + signed_value(w, q.hi));
  });
}

/// x - y, wrapping at the width (MLIR `arith.subi`). Exact.
[[nodiscard]] inline Interval infer_sub(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  require_same_width(a, b, "infer_sub");
  const unsigned w = a.width();
  if (a.is_empty() || b.is_empty()) return Arcs::empty(w);
  // Fast path: -y is the arc (-(sb + lb), lb), then as for add.
  Arcs::Arc x, y;
  if (Arcs::of(a, x) && Arcs::of(b, y)) [[likely]] {
    const std::uint64_t length = x.length >= ~y.length ? ~std::uint64_t{0} : x.length + y.length;
    return Arcs::interval(w, (x.start - y.start - y.length) & mask(w), length);
  }
  return over_part_pairs(a, b, "infer_sub", [w](Accumulator& acc, const Part& p, const Part& q) {
    acc.add_wrapped(signed_value(w, p.lo) - signed_value(w, q.hi), signed_value(w, p.hi) - signed_value(w, q.lo));
  });
}

/// x * y, wrapping at the width (MLIR `arith.muli`): per pair of parts, the
/// range of the corner products read signed and the one read unsigned, each
/// wrapped, intersected. Not exact (products leave gaps).
[[nodiscard]] inline Interval infer_mul(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  require_same_width(a, b, "infer_mul");
  const unsigned w = a.width();
  if (a.is_empty() || b.is_empty()) return Arcs::empty(w);
  // Fast paths, each giving exactly what the general method below gives:
  if (a.is_constant() && b.is_constant()) return Arcs::constant(w, (a.umin() * b.umin()) & mask(w));  // folding
  if (a.is_full() || b.is_full()) {  // full times y: the multiples of 2^k, k = the trailing zeros y surely has
    unsigned k = w;
    for (const Part& p : parts_of(a.is_full() ? b : a)) k = std::min(k, trailing_zeros(w, p));
    return k >= w ? Arcs::constant(w, 0) : Arcs::multiples(w, k);
  }
  if (a.smin() >= 0 && b.smin() >= 0) {  // non-negative operands whose products stay below 2^(w-1)
    std::uint64_t hi = 0;
    if (!__builtin_mul_overflow(a.umax(), b.umax(), &hi) && hi < half(w)) {
      return Arcs::nonnegative_run(w, a.umin() * b.umin(), hi);
    }
  }
  return over_part_pairs(a, b, "infer_mul", [w](Accumulator& acc, const Part& x, const Part& y) {
    const std::array<i128, 4> corners = {
        signed_value(w, x.lo) * signed_value(w, y.lo), signed_value(w, x.lo) * signed_value(w, y.hi),
        signed_value(w, x.hi) * signed_value(w, y.lo), signed_value(w, x.hi) * signed_value(w, y.hi)};
    const auto [lo, hi] = std::minmax_element(corners.begin(), corners.end());
    // Every product is a multiple of 2^k, k = the trailing zeros the operands
    // surely have (a run of two or more values holds an odd one).
    const unsigned k = std::min(w, trailing_zeros(w, x) + trailing_zeros(w, y));
    if (k == w) {
      acc.add_run(0, 0);
      return;
    }
    Accumulator by_signed(w), by_unsigned(w);
    by_signed.add_arc(static_cast<u128>(*lo), static_cast<u128>(*hi - *lo) >> k, k);
    const u128 unsigned_lo = u128{x.lo} * y.lo;
    const u128 unsigned_hi = u128{x.hi} * y.hi;
    by_unsigned.add_arc(unsigned_lo, (unsigned_hi - unsigned_lo) >> k, k);
    Interval product = by_signed.interval();
    (void)product.meet(by_unsigned.interval());
    acc.add(product);
  });
}

/// x & y (MLIR `arith.andi`). Exact.
[[nodiscard]] inline Interval infer_and(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  const unsigned w = a.width();
  return over_part_pairs(a, b, "infer_and", [w](Accumulator& acc, const Part& x, const Part& y) {
    acc.add_run(min_and(w, x.lo, x.hi, y.lo, y.hi), max_and(w, x.lo, x.hi, y.lo, y.hi));
  });
}

/// x | y (MLIR `arith.ori`). Exact.
[[nodiscard]] inline Interval infer_or(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  const unsigned w = a.width();
  return over_part_pairs(a, b, "infer_or", [w](Accumulator& acc, const Part& x, const Part& y) {
    acc.add_run(min_or(w, x.lo, x.hi, y.lo, y.hi), max_or(w, x.lo, x.hi, y.lo, y.hi));
  });
}

/// x ^ y (MLIR `arith.xori`). Exact.
[[nodiscard]] inline Interval infer_xor(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  const unsigned w = a.width();
  return over_part_pairs(a, b, "infer_xor", [w](Accumulator& acc, const Part& x, const Part& y) {
    acc.add_run(min_xor(w, x.lo, x.hi, y.lo, y.hi), max_xor(w, x.lo, x.hi, y.lo, y.hi));
  });
}

/// x << y, wrapping (MLIR `arith.shli`). The amount y is read unsigned;
/// amounts >= width are poison and excluded. Exact.
[[nodiscard]] inline Interval infer_shl(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  const unsigned w = a.width();
  return over_part_pairs(a, b, "infer_shl", [w](Accumulator& acc, const Part& x, const Part& y) {
    if (const auto amounts = shift_amounts(w, y)) {
      for (unsigned k = (*amounts)[0]; k <= (*amounts)[1]; ++k) acc.add_arc(u128{x.lo} << k, x.hi - x.lo, k);
    }
  });
}

/// x >> y, logical (MLIR `arith.shrui`); amounts >= width are poison and
/// excluded. Exact.
[[nodiscard]] inline Interval infer_shru(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  const unsigned w = a.width();
  return over_part_pairs(a, b, "infer_shru", [w](Accumulator& acc, const Part& x, const Part& y) {
    if (const auto amounts = shift_amounts(w, y)) {
      for (unsigned k = (*amounts)[0]; k <= (*amounts)[1]; ++k) acc.add_run(x.lo >> k, x.hi >> k);
    }
  });
}

/// x >> y, arithmetic (MLIR `arith.shrsi`); amounts >= width are poison and
/// excluded. Exact.
[[nodiscard]] inline Interval infer_shrs(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  const unsigned w = a.width();
  return over_part_pairs(a, b, "infer_shrs", [w](Accumulator& acc, const Part& x, const Part& y) {
    if (const auto amounts = shift_amounts(w, y)) {
      for (unsigned k = (*amounts)[0]; k <= (*amounts)[1]; ++k) {
        acc.add_signed(to_signed(w, x.lo) >> k, to_signed(w, x.hi) >> k);
      }
    }
  });
}

/// x / y, unsigned (MLIR `arith.divui`). Division by zero is undefined
/// behaviour and excluded; `infer_divu(x, {0})` is empty. Exact.
[[nodiscard]] inline Interval infer_divu(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  return over_part_pairs(a, b, "infer_divu", [](Accumulator& acc, const Part& x, const Part& y) {
    std::uint64_t y_lo = std::max<std::uint64_t>(y.lo, 1);
    if (y_lo == 1 && y.hi >= 1) {  // x / 1 = x keeps x's sign bit; every other quotient is non-negative
      acc.add_run(x.lo, x.hi);
      y_lo = 2;
    }
    if (y_lo <= y.hi) acc.add_run(x.lo / y.hi, x.hi / y_lo);
  });
}

namespace detail::interval {

/// Signed division with the rounding `round(x, y)` (x, y 64-bit, y never 0 or
/// -1): the quotients of every pair of members, without division by zero and
/// the overflowing -2^(w-1) / -1 (undefined behaviour, excluded). Exact: on a
/// pair of sign-consistent parts the real quotient, hence its rounding, is
/// monotone in each operand, so the extremes lie at the corners.
template <class Round>
[[nodiscard]] Interval signed_division(const Interval& a, const Interval& b, const char* name, Round round) {
  const unsigned w = a.width();
  return over_part_pairs(a, b, name, [w, round](Accumulator& acc, const Part& x, const Part& y) {
    const std::int64_t x_lo = to_signed(w, x.lo);
    const std::int64_t x_hi = to_signed(w, x.hi);
    std::int64_t y_lo = to_signed(w, y.lo);
    std::int64_t y_hi = to_signed(w, y.hi);
    if (y_lo >= 0) y_lo = std::max<std::int64_t>(y_lo, 1);
    if (y_lo <= -1 && -1 <= y_hi) {  // y = -1: -x (every rounding), without the overflowing x = -2^(w-1)
      const std::int64_t x_lo_defined = std::max(x_lo, signed_min(w) + 1);
      if (x_lo_defined <= x_hi) acc.add_signed(-x_hi, -x_lo_defined);
      y_hi = -2;
    }
    if (y_lo > y_hi) return;
    const std::array<std::int64_t, 4> corners = {round(x_lo, y_lo), round(x_lo, y_hi), round(x_hi, y_lo),
                                                 round(x_hi, y_hi)};
    const auto [lo, hi] = std::minmax_element(corners.begin(), corners.end());
    acc.add_signed(*lo, *hi);
  });
}

}  // namespace detail::interval

/// x / y, signed, rounding toward zero (MLIR `arith.divsi`). Division by zero
/// and the overflowing -2^(w-1) / -1 are undefined behaviour and excluded.
/// Exact.
[[nodiscard]] inline Interval infer_divs(const Interval& a, const Interval& b) {
  return detail::interval::signed_division(a, b, "infer_divs", [](std::int64_t x, std::int64_t y) { return x / y; });
}

/// x / y, signed, rounding toward negative infinity (MLIR `arith.floordivsi`,
/// MLIR's `inferFloorDivS`). Division by zero and -2^(w-1) / -1 are undefined
/// behaviour and excluded. Exact.
[[nodiscard]] inline Interval infer_floordivs(const Interval& a, const Interval& b) {
  return detail::interval::signed_division(a, b, "infer_floordivs", [](std::int64_t x, std::int64_t y) {
    const std::int64_t q = x / y;
    return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
  });
}

/// x / y, signed, rounding toward positive infinity (MLIR `arith.ceildivsi`,
/// MLIR's `inferCeilDivS`). Division by zero and -2^(w-1) / -1 are undefined
/// behaviour and excluded. Exact.
[[nodiscard]] inline Interval infer_ceildivs(const Interval& a, const Interval& b) {
  return detail::interval::signed_division(a, b, "infer_ceildivs", [](std::int64_t x, std::int64_t y) {
    const std::int64_t q = x / y;
    return (x % y != 0 && ((x < 0) == (y < 0))) ? q + 1 : q;
  });
}

/// x / y, unsigned, rounding up (MLIR `arith.ceildivui`, MLIR's
/// `inferCeilDivU`). Division by zero is undefined behaviour and excluded.
/// Exact.
[[nodiscard]] inline Interval infer_ceildivu(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  const std::uint64_t all_ones = mask(a.width());
  const std::uint64_t half = (all_ones >> 1) + 1;  // 2^(w-1): the sign bit
  return over_part_pairs(a, b, "infer_ceildivu", [all_ones, half](Accumulator& acc, const Part& x, const Part& y) {
    const auto ceil_div = [](std::uint64_t n, std::uint64_t d) { return n / d + (n % d != 0 ? 1 : 0); };
    std::uint64_t y_lo = std::max<std::uint64_t>(y.lo, 1);
    if (y_lo == 1 && y.hi >= 1) {  // x / 1 = x keeps x's sign bit
      acc.add_run(x.lo, x.hi);
      y_lo = 2;
    }
    if (y_lo > y.hi) return;
    // Every other quotient is below 2^(w-1) but ceil((2^w - 1) / 2) = 2^(w-1): that one apart,
    // so that the runs stay on one side of the sign bit (the signed view stays exact).
    if (y_lo == 2 && x.hi == all_ones) {
      acc.add_run(half, half);
      if (x.lo < all_ones) acc.add_run(ceil_div(x.lo, 2), ceil_div(all_ones - 1, 2));
      if (y.hi >= 3) acc.add_run(ceil_div(x.lo, y.hi), ceil_div(all_ones, 3));
      return;
    }
    acc.add_run(ceil_div(x.lo, y.hi), ceil_div(x.hi, y_lo));
  });
}

/// x % y, unsigned (MLIR `arith.remui`). Division by zero is undefined
/// behaviour and excluded; `infer_remu(x, {0})` is empty. Exact when y is a
/// constant or when x < y throughout.
[[nodiscard]] inline Interval infer_remu(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  return over_part_pairs(a, b, "infer_remu", [](Accumulator& acc, const Part& x, const Part& y) {
    const std::uint64_t y_lo = std::max<std::uint64_t>(y.lo, 1);
    if (y_lo > y.hi) return;
    remainder_runs(x.lo, x.hi, y_lo, y.hi, [&acc](std::uint64_t lo, std::uint64_t hi) { acc.add_run(lo, hi); });
  });
}

/// x rem y, signed; the result has the sign of x (MLIR `arith.remsi`).
/// Division by zero and -2^(w-1) rem -1 (overflow, undefined behaviour in
/// LLVM's `srem` that `arith.remsi` lowers to) are excluded. Exact when y is
/// a constant or when |x| < |y| throughout.
[[nodiscard]] inline Interval infer_rems(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  const unsigned w = a.width();
  return over_part_pairs(a, b, "infer_rems", [w](Accumulator& acc, const Part& x, const Part& y) {
    const std::int64_t x_lo = to_signed(w, x.lo);
    const std::int64_t x_hi = to_signed(w, x.hi);
    std::int64_t y_lo = to_signed(w, y.lo);
    const std::int64_t y_hi = to_signed(w, y.hi);
    if (y_lo >= 0) y_lo = std::max<std::int64_t>(y_lo, 1);
    if (y_lo > y_hi) return;
    if (x_lo == signed_min(w) && x_hi == x_lo && y_lo == -1 && y_hi == -1) return;
    // The remainder of x by y is that of |x| by |y| with the sign of x; on a
    // part, |x| and |y| are runs.
    const std::uint64_t y_mag_lo = y_lo > 0 ? magnitude(y_lo) : magnitude(y_hi);
    const std::uint64_t y_mag_hi = y_lo > 0 ? magnitude(y_hi) : magnitude(y_lo);
    if (x_lo >= 0) {
      remainder_runs(magnitude(x_lo), magnitude(x_hi), y_mag_lo, y_mag_hi, [&acc](std::uint64_t lo, std::uint64_t hi) {
        acc.add_signed(static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi));
      });
    } else {  // |remainder| < 2^(w-1) except for x = -2^(w-1) itself (x < y case): negate as unsigned
      remainder_runs(magnitude(x_hi), magnitude(x_lo), y_mag_lo, y_mag_hi, [&acc](std::uint64_t lo, std::uint64_t hi) {
        acc.add_signed(static_cast<std::int64_t>(0 - hi), static_cast<std::int64_t>(0 - lo));
      });
    }
  });
}

/// min(x, y) read signed (MLIR `arith.minsi`). Exact.
[[nodiscard]] inline Interval infer_mins(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  const unsigned w = a.width();
  return over_part_pairs(a, b, "infer_mins", [w](Accumulator& acc, const Part& x, const Part& y) {
    acc.add_signed(std::min(to_signed(w, x.lo), to_signed(w, y.lo)), std::min(to_signed(w, x.hi), to_signed(w, y.hi)));
  });
}

/// max(x, y) read signed (MLIR `arith.maxsi`). Exact.
[[nodiscard]] inline Interval infer_maxs(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  const unsigned w = a.width();
  return over_part_pairs(a, b, "infer_maxs", [w](Accumulator& acc, const Part& x, const Part& y) {
    acc.add_signed(std::max(to_signed(w, x.lo), to_signed(w, y.lo)), std::max(to_signed(w, x.hi), to_signed(w, y.hi)));
  });
}

/// min(x, y) read unsigned (MLIR `arith.minui`). Exact.
[[nodiscard]] inline Interval infer_minu(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  return over_part_pairs(a, b, "infer_minu", [](Accumulator& acc, const Part& x, const Part& y) {
    acc.add_run(std::min(x.lo, y.lo), std::min(x.hi, y.hi));
  });
}

/// max(x, y) read unsigned (MLIR `arith.maxui`). Exact.
[[nodiscard]] inline Interval infer_maxu(const Interval& a, const Interval& b) {
  using namespace detail::interval;
  return over_part_pairs(a, b, "infer_maxu", [](Accumulator& acc, const Part& x, const Part& y) {
    acc.add_run(std::max(x.lo, y.lo), std::max(x.hi, y.hi));
  });
}

/// The low `new_width` bits of x (MLIR `arith.trunci`); 1 <= new_width <=
/// x.width() (equal widths give x itself), else `std::invalid_argument`. Exact.
[[nodiscard]] inline Interval infer_trunc(const Interval& x, unsigned new_width) {
  using namespace detail::interval;
  if (new_width < 1 || new_width > x.width()) {
    throw std::invalid_argument("kildall::infer_trunc: cannot truncate " + std::to_string(x.width()) + " bits to " +
                                std::to_string(new_width));
  }
  Accumulator acc(new_width);
  for (const Part& p : parts_of(x)) acc.add_arc(p.lo, p.hi - p.lo);
  return acc.interval();
}

/// x sign-extended to `new_width` bits (MLIR `arith.extsi`); x.width() <=
/// new_width <= 64, else `std::invalid_argument`. Exact.
[[nodiscard]] inline Interval infer_sext(const Interval& x, unsigned new_width) {
  using namespace detail::interval;
  if (new_width < x.width() || new_width > Interval::max_width) {
    throw std::invalid_argument("kildall::infer_sext: cannot sign-extend " + std::to_string(x.width()) +
                                " bits to " + std::to_string(new_width));
  }
  Accumulator acc(new_width);
  for (const Part& p : parts_of(x)) acc.add_signed(to_signed(x.width(), p.lo), to_signed(x.width(), p.hi));
  return acc.interval();
}

/// x zero-extended to `new_width` bits (MLIR `arith.extui`); x.width() <=
/// new_width <= 64, else `std::invalid_argument`. Exact.
[[nodiscard]] inline Interval infer_zext(const Interval& x, unsigned new_width) {
  using namespace detail::interval;
  if (new_width < x.width() || new_width > Interval::max_width) {
    throw std::invalid_argument("kildall::infer_zext: cannot zero-extend " + std::to_string(x.width()) +
                                " bits to " + std::to_string(new_width));
  }
  Accumulator acc(new_width);
  for (const Part& p : parts_of(x)) acc.add_run(p.lo, p.hi);
  return acc.interval();
}

/// cond ? t : f (MLIR `arith.select` on a scalar i1 condition): the join of
/// the arms the condition allows. `cond` must have width 1 and `t`, `f` equal
/// widths, else `std::invalid_argument`. Exact.
[[nodiscard]] inline Interval infer_select(const Interval& cond, const Interval& t, const Interval& f) {
  if (cond.width() != 1) {
    throw std::invalid_argument("kildall::infer_select: condition has width " + std::to_string(cond.width()) +
                                ", not 1");
  }
  detail::interval::require_same_width(t, f, "infer_select");
  Interval result = Interval::empty(t.width());
  if (cond.contains(1)) (void)result.join(t);
  if (cond.contains(0)) (void)result.join(f);
  return result;
}

/// The ten predicates of MLIR's `arith.cmpi`.
enum class CmpPredicate {
  eq,   ///< equal
  ne,   ///< not equal
  slt,  ///< signed less than
  sle,  ///< signed less or equal
  sgt,  ///< signed greater than
  sge,  ///< signed greater or equal
  ult,  ///< unsigned less than
  ule,  ///< unsigned less or equal
  ugt,  ///< unsigned greater than
  uge,  ///< unsigned greater or equal
};

/// The value of `x pred y` when it is the same for every member x of `a` and
/// y of `b`; `std::nullopt` when it depends on the members or when an operand
/// is empty. Exact: it answers whenever the answer is determined.
[[nodiscard]] inline std::optional<bool> infer_cmp(CmpPredicate pred, const Interval& a, const Interval& b) {
  detail::interval::require_same_width(a, b, "infer_cmp");
  if (a.is_empty() || b.is_empty()) return std::nullopt;
  const auto answer = [](bool always_true, bool always_false) -> std::optional<bool> {
    if (always_true) return true;
    if (always_false) return false;
    return std::nullopt;
  };
  switch (pred) {
    case CmpPredicate::eq:
    case CmpPredicate::ne: {
      Interval common = a;
      (void)common.meet(b);
      const bool always_equal = a.is_constant() && a == b;
      const std::optional<bool> eq = answer(always_equal, common.is_empty());
      if (pred == CmpPredicate::eq || !eq) return eq;
      return !*eq;
    }
    case CmpPredicate::slt: return answer(a.smax() < b.smin(), a.smin() >= b.smax());
    case CmpPredicate::sle: return answer(a.smax() <= b.smin(), a.smin() > b.smax());
    case CmpPredicate::sgt: return answer(a.smin() > b.smax(), a.smax() <= b.smin());
    case CmpPredicate::sge: return answer(a.smin() >= b.smax(), a.smax() < b.smin());
    case CmpPredicate::ult: return answer(a.umax() < b.umin(), a.umin() >= b.umax());
    case CmpPredicate::ule: return answer(a.umax() <= b.umin(), a.umin() > b.umax());
    case CmpPredicate::ugt: return answer(a.umin() > b.umax(), a.umax() <= b.umin());
    case CmpPredicate::uge: return answer(a.umin() >= b.umax(), a.umax() < b.umin());
  }
  throw std::invalid_argument("kildall::infer_cmp: unknown predicate");
}

/// The induction variable of a loop that starts at `lower`, runs while it is below `upper`
/// (signed) and adds `step` each time (`scf.for`; MLIR's `IntegerRangeAnalysis` on loop
/// induction variables): every value it takes inside the loop lies in
/// [`lower.smin`, `upper.smax` - 1] when `step` is non-negative and stepping past the bound
/// cannot wrap; only below `upper.smax` otherwise; anything when the loop cannot run.
[[nodiscard]] inline Interval infer_induction_variable(const Interval& lower, const Interval& upper,
                                                       const Interval& step) {
  const unsigned w = lower.width();
  if (lower.is_empty() || upper.is_empty() || step.is_empty()) return Interval::empty(w);
  const std::int64_t min = detail::interval::signed_min(w), max = detail::interval::signed_max(w);
  if (upper.smax() == min) return Interval::full(w);  // no value is below it
  const std::int64_t high = upper.smax() - 1;
  // Past the last value below `upper`, the next one is at most high + step.smax: no wrap when it fits.
  const bool no_wrap = step.smin() >= 0 && (step.smax() <= 0 || high <= max - step.smax());
  const std::int64_t low = no_wrap ? lower.smin() : min;
  if (low > high) return Interval::full(w);
  return Interval::from_signed(w, low, high);
}

/// `infer_cmp` as an i1 interval, the result range of `arith.cmpi`:
/// `constant(1, 1)` or `constant(1, 0)` when determined, `full(1)` when not,
/// `empty(1)` when an operand is empty.
[[nodiscard]] inline Interval infer_cmp_interval(CmpPredicate pred, const Interval& a, const Interval& b) {
  const std::optional<bool> known = infer_cmp(pred, a, b);
  if (known) return Interval::constant(1, *known ? 1u : 0u);
  return a.is_empty() || b.is_empty() ? Interval::empty(1) : Interval::full(1);
}

}  // namespace kildall
