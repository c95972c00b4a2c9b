// Tests of kildall/ir/arith.hpp against an independent reference: the
// mathematical result computed on unbounded (128-bit) integers, then reduced
// modulo 2^w; exhaustive over all operand pairs for widths 1..6, random pairs
// for 64 bits.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <random>

#include <kildall/ir/arith.hpp>

using namespace kildall::ir;
using kildall::CmpPredicate;
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

namespace {

std::uint64_t reduce(i128 value, unsigned w) {
  const i128 modulus = i128{1} << w;
  i128 r = value % modulus;
  if (r < 0) r += modulus;
  return static_cast<std::uint64_t>(r);
}
i128 as_signed(std::uint64_t bits, unsigned w) {
  const i128 u = bits;
  return u >= (i128{1} << (w - 1)) ? u - (i128{1} << w) : u;
}
i128 floor_div(i128 a, i128 b) {  // b > 0
  i128 q = a / b;
  if ((a % b != 0) && (a < 0)) --q;
  return q;
}
i128 floor_div_any(i128 a, i128 b) {  // toward negative infinity, b != 0
  const i128 q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
i128 ceil_div_any(i128 a, i128 b) {  // toward positive infinity, b != 0: -floor(-a / b)
  return -floor_div_any(-a, b);
}
i128 trunc_div(i128 a, i128 b) {  // toward zero, by magnitudes
  const i128 ma = a < 0 ? -a : a, mb = b < 0 ? -b : b;
  const i128 q = ma / mb;
  return ((a < 0) != (b < 0)) ? -q : q;
}
i128 bitwise(std::uint64_t a, std::uint64_t b, unsigned w, int which) {
  i128 r = 0;
  for (unsigned i = 0; i < w; ++i) {
    const bool x = (a >> i) & 1, y = (b >> i) & 1;
    const bool z = which == 0 ? (x && y) : which == 1 ? (x || y) : (x != y);
    if (z) r += i128{1} << i;
  }
  return r;
}

/// The reference result of binary op `op`, or nullopt when undefined.
std::optional<std::uint64_t> reference(BuiltinOp op, unsigned w, std::uint64_t a, std::uint64_t b) {
  const i128 ua = a, ub = b, sa = as_signed(a, w), sb = as_signed(b, w);
  const i128 smin = -(i128{1} << (w - 1));
  switch (op) {
    case BuiltinOp::addi: return reduce(ua + ub, w);
    case BuiltinOp::subi: return reduce(ua - ub, w);
    case BuiltinOp::muli:  // the product of two 64-bit values needs 128 unsigned bits
      return static_cast<std::uint64_t>(static_cast<u128>(a) * static_cast<u128>(b) % (u128{1} << w));
    case BuiltinOp::divsi:
      if (sb == 0 || (sa == smin && sb == -1)) return std::nullopt;
      return reduce(trunc_div(sa, sb), w);
    case BuiltinOp::divui:
      if (ub == 0) return std::nullopt;
      return reduce(ua / ub, w);
    case BuiltinOp::remsi:
      if (sb == 0 || (sa == smin && sb == -1)) return std::nullopt;
      return reduce(sa - trunc_div(sa, sb) * sb, w);
    case BuiltinOp::remui:
      if (ub == 0) return std::nullopt;
      return reduce(ua - (ua / ub) * ub, w);
    case BuiltinOp::andi: return reduce(bitwise(a, b, w, 0), w);
    case BuiltinOp::ori: return reduce(bitwise(a, b, w, 1), w);
    case BuiltinOp::xori: return reduce(bitwise(a, b, w, 2), w);
    case BuiltinOp::shli:
      if (ub >= w) return std::nullopt;
      return reduce(ua * (i128{1} << static_cast<unsigned>(ub)), w);
    case BuiltinOp::shrui:
      if (ub >= w) return std::nullopt;
      return reduce(ua / (i128{1} << static_cast<unsigned>(ub)), w);
    case BuiltinOp::shrsi:
      if (ub >= w) return std::nullopt;
      return reduce(floor_div(sa, i128{1} << static_cast<unsigned>(ub)), w);
    case BuiltinOp::minsi: return reduce(sa < sb ? sa : sb, w);
    case BuiltinOp::maxsi: return reduce(sa > sb ? sa : sb, w);
    case BuiltinOp::minui: return reduce(ua < ub ? ua : ub, w);
    case BuiltinOp::maxui: return reduce(ua > ub ? ua : ub, w);
    case BuiltinOp::floordivsi:
      if (sb == 0 || (sa == smin && sb == -1)) return std::nullopt;
      return reduce(floor_div_any(sa, sb), w);
    case BuiltinOp::ceildivsi:
      if (sb == 0 || (sa == smin && sb == -1)) return std::nullopt;
      return reduce(ceil_div_any(sa, sb), w);
    case BuiltinOp::ceildivui:
      if (ub == 0) return std::nullopt;
      return reduce(ceil_div_any(ua, ub), w);
    default: return std::nullopt;
  }
}

bool reference_compare(CmpPredicate p, unsigned w, std::uint64_t a, std::uint64_t b) {
  const i128 ua = a, ub = b, sa = as_signed(a, w), sb = as_signed(b, w);
  switch (p) {
    case CmpPredicate::eq: return ua == ub;
    case CmpPredicate::ne: return ua != ub;
    case CmpPredicate::slt: return sa < sb;
    case CmpPredicate::sle: return sa <= sb;
    case CmpPredicate::sgt: return sa > sb;
    case CmpPredicate::sge: return sa >= sb;
    case CmpPredicate::ult: return ua < ub;
    case CmpPredicate::ule: return ua <= ub;
    case CmpPredicate::ugt: return ua > ub;
    case CmpPredicate::uge: return ua >= ub;
  }
  return false;
}

void check_pair(unsigned w, std::uint64_t a, std::uint64_t b) {
  for (OpCode code = code_of(BuiltinOp::addi); code <= code_of(BuiltinOp::ceildivui); ++code) {
    const auto want = reference(static_cast<BuiltinOp>(code), w, a, b);
    const ArithResult got = evaluate_binary(code, w, a, b);
    CAPTURE(code);
    CAPTURE(w);
    CAPTURE(a);
    CAPTURE(b);
    REQUIRE(got.defined() == want.has_value());
    if (want) REQUIRE(got.value == *want);
  }
  for (std::size_t p = 0; p < 10; ++p) {
    const auto predicate = static_cast<CmpPredicate>(p);
    REQUIRE(evaluate_compare(predicate, a, b, w) == reference_compare(predicate, w, a, b));
  }
}

}  // namespace

TEST_CASE("binary ops and comparisons match mathematical integers, exhaustively for widths 1..6") {
  for (unsigned w = 1; w <= 6; ++w)
    for (std::uint64_t a = 0; a < (std::uint64_t{1} << w); ++a)
      for (std::uint64_t b = 0; b < (std::uint64_t{1} << w); ++b) check_pair(w, a, b);
}

TEST_CASE("binary ops and comparisons match mathematical integers on random 8..64-bit pairs") {
  std::mt19937_64 rng(99);
  const std::uint64_t edge[] = {0, 1, 2, ~std::uint64_t{0}, std::uint64_t{1} << 63, (std::uint64_t{1} << 63) - 1};
  for (const unsigned w : {8u, 13u, 32u, 63u, 64u}) {
    for (int i = 0; i < 3000; ++i) {
      const std::uint64_t a = (i % 3 == 0 ? edge[rng() % 6] : rng()) & width_mask(w);
      const std::uint64_t b = (i % 5 == 0 ? edge[rng() % 6] : i % 7 == 0 ? rng() % 70 : rng()) & width_mask(w);
      check_pair(w, a, b);
    }
  }
}

TEST_CASE("casts: sign extension, zero extension, truncation") {
  for (unsigned from = 1; from <= 6; ++from)
    for (unsigned to = 1; to <= 8; ++to)
      for (std::uint64_t a = 0; a < (std::uint64_t{1} << from); ++a) {
        if (to > from) {
          CHECK(evaluate_cast(code_of(BuiltinOp::extsi), from, to, a) == reduce(as_signed(a, from), to));
          CHECK(evaluate_cast(code_of(BuiltinOp::extui), from, to, a) == a);
        } else if (to < from) {
          CHECK(evaluate_cast(code_of(BuiltinOp::trunci), from, to, a) == reduce(a, to));
        }
      }
  CHECK(evaluate_cast(code_of(BuiltinOp::extsi), 32, 64, 0x80000000u) == 0xFFFFFFFF80000000u);
}

TEST_CASE("predicate names round-trip") {
  for (std::size_t p = 0; p < 10; ++p) {
    const auto predicate = static_cast<CmpPredicate>(p);
    CHECK(parse_predicate(predicate_name(predicate)) == predicate);
  }
  CHECK_FALSE(parse_predicate("lt").has_value());
}

TEST_CASE("identity folds hold for every value of the unknown operand (exhaustive, widths 1..6)") {
  // Oracle: the reference semantics over all values of the unknown operand(s). A fold must
  // agree with every defined outcome and never be claimed where some outcome is undefined; and
  // the table of identities MLIR's folders apply must be found (completeness on these cases).
  std::size_t folds = 0;
  for (unsigned w = 1; w <= 6; ++w) {
    const std::uint64_t n = std::uint64_t{1} << w;
    for (OpCode code = code_of(BuiltinOp::addi); code <= code_of(BuiltinOp::ceildivui); ++code) {
      const auto op = static_cast<BuiltinOp>(code);
      CAPTURE(code);
      CAPTURE(w);
      // Same SSA value on both sides, value unknown.
      if (const auto r = fold_binary_identity(code, w, true, nullptr, nullptr)) {
        ++folds;
        for (std::uint64_t x = 0; x < n; ++x) REQUIRE(reference(op, w, x, x) == *r);
      }
      // One side known, the other unknown (different values).
      for (std::uint64_t k = 0; k < n; ++k) {
        for (int side = 0; side < 2; ++side) {
          const std::uint64_t* a = side == 0 ? &k : nullptr;
          const std::uint64_t* b = side == 1 ? &k : nullptr;
          const auto r = fold_binary_identity(code, w, false, a, b);
          if (!r) continue;
          ++folds;
          for (std::uint64_t x = 0; x < n; ++x) REQUIRE(reference(op, w, side == 0 ? k : x, side == 0 ? x : k) == *r);
        }
      }
      // Nothing known about two different values: no identity.
      CHECK_FALSE(fold_binary_identity(code, w, false, nullptr, nullptr).has_value());
    }
    const std::uint64_t mask = width_mask(w), zero = 0, one = 1, smax = mask >> 1, smin = smax + 1;
    CHECK(fold_binary_identity(code_of(BuiltinOp::subi), w, true, nullptr, nullptr) == 0u);
    CHECK(fold_binary_identity(code_of(BuiltinOp::xori), w, true, nullptr, nullptr) == 0u);
    CHECK(fold_binary_identity(code_of(BuiltinOp::muli), w, false, &zero, nullptr) == 0u);
    CHECK(fold_binary_identity(code_of(BuiltinOp::andi), w, false, nullptr, &zero) == 0u);
    CHECK(fold_binary_identity(code_of(BuiltinOp::ori), w, false, nullptr, &mask) == mask);
    CHECK(fold_binary_identity(code_of(BuiltinOp::remui), w, false, nullptr, &one) == 0u);
    if (w > 1) CHECK(fold_binary_identity(code_of(BuiltinOp::remsi), w, false, nullptr, &one) == 0u);
    CHECK(fold_binary_identity(code_of(BuiltinOp::maxsi), w, false, &smax, nullptr) == smax);
    CHECK(fold_binary_identity(code_of(BuiltinOp::minsi), w, false, nullptr, &smin) == smin);
    CHECK(fold_binary_identity(code_of(BuiltinOp::maxui), w, false, nullptr, &mask) == mask);
    CHECK(fold_binary_identity(code_of(BuiltinOp::minui), w, false, &zero, nullptr) == 0u);
  }
  CHECK(folds > 100);
  // Undefined for some value of the unknown operand: never folded (x / x, x % x, shifts).
  CHECK_FALSE(fold_binary_identity(code_of(BuiltinOp::divui), 8, true, nullptr, nullptr).has_value());
  CHECK_FALSE(fold_binary_identity(code_of(BuiltinOp::remui), 8, true, nullptr, nullptr).has_value());
  const std::uint64_t zero = 0;
  CHECK_FALSE(fold_binary_identity(code_of(BuiltinOp::shli), 8, false, &zero, nullptr).has_value());
}

TEST_CASE("cmpi of a value with itself") {
  for (std::size_t p = 0; p < 10; ++p) {
    const auto predicate = static_cast<CmpPredicate>(p);
    for (unsigned w : {1u, 3u, 64u})
      for (std::uint64_t x : {std::uint64_t{0}, std::uint64_t{1}, width_mask(w)})
        CHECK(compare_of_equal_operands(predicate) == reference_compare(predicate, w, x, x));
  }
}
