#pragma once
/// \file
/// Semantics of the `arith` ops on signless integers, exactly as MLIR defines
/// them: two's-complement arithmetic wrapping at the type's bit width, with
/// the signedness chosen by the op, not the type. Values are bit patterns
/// zero-extended into a `std::uint64_t`. The cases MLIR leaves undefined
/// (division or remainder by zero, signed `INT_MIN / -1` and `INT_MIN % -1`,
/// shift amounts not below the bit width) are reported, never computed.
/// The interpreter and SCCP's constant folding both use these functions.

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include <kildall/ir/op_definition.hpp>
#include <kildall/ir/types.hpp>
#include <kildall/lattice/interval_transfer.hpp>

namespace kildall::ir {

// `arith.cmpi`'s predicate is the lattice's `CmpPredicate` (one enum for the IR and the
// range transfers), stored in the op's immediate with MLIR's numbering.
static_assert(static_cast<int>(CmpPredicate::eq) == 0 && static_cast<int>(CmpPredicate::ne) == 1 &&
                  static_cast<int>(CmpPredicate::slt) == 2 && static_cast<int>(CmpPredicate::sle) == 3 &&
                  static_cast<int>(CmpPredicate::sgt) == 4 && static_cast<int>(CmpPredicate::sge) == 5 &&
                  static_cast<int>(CmpPredicate::ult) == 6 && static_cast<int>(CmpPredicate::ule) == 7 &&
                  static_cast<int>(CmpPredicate::ugt) == 8 && static_cast<int>(CmpPredicate::uge) == 9,
              "CmpPredicate must number the predicates as MLIR's arith::CmpPredicate does");

/// The spellings of the predicates, indexed by `CmpPredicate`.
inline constexpr std::array<std::string_view, 10> predicate_names = {"eq",  "ne",  "slt", "sle", "sgt",
                                                                     "sge", "ult", "ule", "ugt", "uge"};

/// The spelling of `predicate` (`slt`, ...).
[[nodiscard]] constexpr std::string_view predicate_name(CmpPredicate predicate) {
  return predicate_names[static_cast<std::size_t>(predicate)];
}

/// The predicate spelled `name`, if any.
[[nodiscard]] constexpr std::optional<CmpPredicate> parse_predicate(std::string_view name) {
  for (std::size_t i = 0; i < predicate_names.size(); ++i)
    if (predicate_names[i] == name) return static_cast<CmpPredicate>(i);
  return std::nullopt;
}

/// `a <predicate> b` on `width`-bit values.
[[nodiscard]] constexpr bool evaluate_compare(CmpPredicate predicate, std::uint64_t a, std::uint64_t b,
                                              unsigned width) {
  const std::uint64_t ua = a & width_mask(width), ub = b & width_mask(width);
  const std::int64_t sa = sign_extend(a, width), sb = sign_extend(b, width);
  switch (predicate) {
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

/// True for the twenty two-operand `arith` ops (`addi` .. `ceildivui`).
[[nodiscard]] constexpr bool is_binary_arith(OpCode code) {
  return code >= code_of(BuiltinOp::addi) && code <= code_of(BuiltinOp::ceildivui);
}

/// True for `extsi`, `extui`, `trunci`.
[[nodiscard]] constexpr bool is_cast(OpCode code) {
  return code >= code_of(BuiltinOp::extsi) && code <= code_of(BuiltinOp::trunci);
}

/// Result of a binary `arith` op: the value, or nothing when undefined.
struct ArithResult {
  std::uint64_t value = 0;                ///< Result bits (zero-extended), when defined.
  std::string_view undefined_reason = {};  ///< Non-empty when the result is undefined.
  /// True when the result is defined.
  [[nodiscard]] constexpr bool defined() const { return undefined_reason.empty(); }
};

/// Evaluates binary op `code` (see `is_binary_arith`) on `width`-bit operands.
[[nodiscard]] constexpr ArithResult evaluate_binary(OpCode code, unsigned width, std::uint64_t a,
                                                    std::uint64_t b) {
  const std::uint64_t mask = width_mask(width);
  a &= mask;
  b &= mask;
  const std::int64_t sa = sign_extend(a, width), sb = sign_extend(b, width);
  const std::int64_t smin = sign_extend(std::uint64_t{1} << (width - 1), width);
  const auto wrap = [mask](std::uint64_t v) { return ArithResult{v & mask}; };
  const auto wrap_signed = [mask](std::int64_t v) { return ArithResult{static_cast<std::uint64_t>(v) & mask}; };
  switch (static_cast<BuiltinOp>(code)) {
    case BuiltinOp::addi: return wrap(a + b);
    case BuiltinOp::subi: return wrap(a - b);
    case BuiltinOp::muli: return wrap(a * b);
    case BuiltinOp::divsi:
      if (b == 0) return {0, "division by zero"};
      if (sa == smin && sb == -1) return {0, "signed division overflow"};
      return wrap_signed(sa / sb);
    case BuiltinOp::divui:
      if (b == 0) return {0, "division by zero"};
      return wrap(a / b);
    case BuiltinOp::remsi:
      if (b == 0) return {0, "remainder by zero"};
      if (sa == smin && sb == -1) return {0, "signed remainder overflow"};
      return wrap_signed(sa % sb);
    case BuiltinOp::remui:
      if (b == 0) return {0, "remainder by zero"};
      return wrap(a % b);
    case BuiltinOp::andi: return wrap(a & b);
    case BuiltinOp::ori: return wrap(a | b);
    case BuiltinOp::xori: return wrap(a ^ b);
    case BuiltinOp::shli:
      if (b >= width) return {0, "shift amount not below the bit width"};
      return wrap(a << b);
    case BuiltinOp::shrui:
      if (b >= width) return {0, "shift amount not below the bit width"};
      return wrap(a >> b);
    case BuiltinOp::shrsi:
      if (b >= width) return {0, "shift amount not below the bit width"};
      return wrap_signed(sa >> b);  // arithmetic shift (C++20)
    case BuiltinOp::minsi: return wrap_signed(std::min(sa, sb));
    case BuiltinOp::maxsi: return wrap_signed(std::max(sa, sb));
    case BuiltinOp::minui: return wrap(std::min(a, b));
    case BuiltinOp::maxui: return wrap(std::max(a, b));
    case BuiltinOp::floordivsi:
    case BuiltinOp::ceildivsi: {
      if (b == 0) return {0, "division by zero"};
      if (sa == smin && sb == -1) return {0, "signed division overflow"};
      const std::int64_t q = sa / sb;
      const bool inexact = sa % sb != 0, same_sign = (sa < 0) == (sb < 0);
      if (is(code, BuiltinOp::floordivsi)) return wrap_signed(inexact && !same_sign ? q - 1 : q);
      return wrap_signed(inexact && same_sign ? q + 1 : q);
    }
    case BuiltinOp::ceildivui:
      if (b == 0) return {0, "division by zero"};
      return wrap(a / b + (a % b != 0 ? 1 : 0));
    default: return {0, "not a binary arith op"};
  }
}

/// The answer of `arith.cmpi <predicate>, x, x` (both operands the same value): true for
/// `eq`, `sle`, `sge`, `ule`, `uge`, false for the strict predicates and `ne`.
[[nodiscard]] constexpr bool compare_of_equal_operands(CmpPredicate predicate) {
  switch (predicate) {
    case CmpPredicate::eq:
    case CmpPredicate::sle:
    case CmpPredicate::sge:
    case CmpPredicate::ule:
    case CmpPredicate::uge: return true;
    default: return false;
  }
}

/// The result of binary op `code` (see `is_binary_arith`) on `width`-bit operands when at
/// least one operand is unknown, if an algebraic identity of the op decides it anyway (the
/// identities MLIR's `arith` folders apply, on either side for commutative ops):
/// `x - x = x ^ x = 0`, `x * 0 = x & 0 = 0`, `x | ~0 = ~0`, `x % 1 = 0` (`remui`;
/// `remsi` above `i1`), `maxsi(x, INT_MAX) = INT_MAX`, `minsi(x, INT_MIN) = INT_MIN`,
/// `maxui(x, ~0) = ~0`, `minui(x, 0) = 0`. `same_operand` says whether both operands are
/// the same SSA value; `a`, `b` are the known operand bits (nullptr: unknown). Every
/// answer holds for every value of the unknown operand (and is never undefined).
[[nodiscard]] constexpr std::optional<std::uint64_t> fold_binary_identity(OpCode code, unsigned width,
                                                                          bool same_operand, const std::uint64_t* a,
                                                                          const std::uint64_t* b) {
  if (width == 0 || width > 64) return std::nullopt;
  const std::uint64_t mask = width_mask(width);
  const std::uint64_t smax = mask >> 1, smin = (mask >> 1) + 1;
  const auto either_is = [&](std::uint64_t bits) {
    return (a && (*a & mask) == bits) || (b && (*b & mask) == bits);
  };
  switch (static_cast<BuiltinOp>(code)) {
    case BuiltinOp::subi:
    case BuiltinOp::xori:
      if (same_operand) return 0;
      break;
    case BuiltinOp::muli:
    case BuiltinOp::andi:
      if (either_is(0)) return 0;
      break;
    case BuiltinOp::ori:
      if (either_is(mask)) return mask;
      break;
    case BuiltinOp::remui:
      if (b && (*b & mask) == 1) return 0;
      break;
    case BuiltinOp::remsi:  // at width 1 the bits 1 are -1 = INT_MIN, and INT_MIN % -1 is undefined
      if (b && (*b & mask) == 1 && width > 1) return 0;
      break;
    case BuiltinOp::maxsi:
      if (either_is(smax)) return smax;
      break;
    case BuiltinOp::minsi:
      if (either_is(smin)) return smin;
      break;
    case BuiltinOp::maxui:
      if (either_is(mask)) return mask;
      break;
    case BuiltinOp::minui:
      if (either_is(0)) return 0;
      break;
    default: break;
  }
  return std::nullopt;
}

/// Evaluates cast `code` (see `is_cast`) of a `from`-bit value to `to` bits.
[[nodiscard]] constexpr std::uint64_t evaluate_cast(OpCode code, unsigned from, unsigned to, std::uint64_t a) {
  a &= width_mask(from);
  if (is(code, BuiltinOp::extsi)) return static_cast<std::uint64_t>(sign_extend(a, from)) & width_mask(to);
  return a & width_mask(to);  // extui keeps the bits, trunci drops the high ones
}

/// True for the commutative binary `arith` ops (MLIR's `Commutative` trait): `addi`, `muli`,
/// `andi`, `ori`, `xori` and the four min/max.
[[nodiscard]] constexpr bool is_commutative(OpCode code) {
  constexpr std::array<BuiltinOp, 9> commutative = {BuiltinOp::addi,  BuiltinOp::muli,  BuiltinOp::andi,
                                                    BuiltinOp::ori,   BuiltinOp::xori,  BuiltinOp::minsi,
                                                    BuiltinOp::maxsi, BuiltinOp::minui, BuiltinOp::maxui};
  for (const BuiltinOp op : commutative)
    if (is(code, op)) return true;
  return false;
}

/// The predicate that compares the same way with the operands swapped (`a slt b` is `b sgt a`;
/// `eq` and `ne` stay).
[[nodiscard]] constexpr CmpPredicate swapped_predicate(CmpPredicate predicate) {
  constexpr std::array<CmpPredicate, 10> swapped = {CmpPredicate::eq,  CmpPredicate::ne,  CmpPredicate::sgt,
                                                    CmpPredicate::sge, CmpPredicate::slt, CmpPredicate::sle,
                                                    CmpPredicate::ugt, CmpPredicate::uge, CmpPredicate::ult,
                                                    CmpPredicate::ule};
  return swapped[static_cast<std::size_t>(predicate)];
}

/// When binary op `code` on `width`-bit operands always equals one of its operands (with at
/// least one operand unknown), the operand's number: the identities of MLIR's `arith` folders
/// that answer an existing value, on either side for commutative ops: `x + 0`, `x - 0`,
/// `x * 1`, `x / 1` (all divisions), `x & ~0`, `x | 0`, `x ^ 0`, shifts by 0, `x & x`,
/// `x | x`, min/max of `x, x`, `maxsi(x, INT_MIN)`, `minsi(x, INT_MAX)`, `maxui(x, 0)`,
/// `minui(x, ~0)`. `same_operand`, `a`, `b` as for `fold_binary_identity`.
[[nodiscard]] constexpr std::optional<std::uint32_t> fold_binary_forwarding(OpCode code, unsigned width,
                                                                             bool same_operand, const std::uint64_t* a,
                                                                             const std::uint64_t* b) {
  if (width == 0 || width > 64) return std::nullopt;
  const std::uint64_t mask = width_mask(width);
  const std::uint64_t smax = mask >> 1, smin = (mask >> 1) + 1;
  // The other operand's number when one operand is the known constant `bits` (the right one,
  // or either for a commutative op).
  const auto neutral = [&](std::uint64_t bits, bool either_side) -> std::optional<std::uint32_t> {
    if (b && (*b & mask) == bits) return 0;
    if (either_side && a && (*a & mask) == bits) return 1;
    return std::nullopt;
  };
  const BuiltinOp op = static_cast<BuiltinOp>(code);
  switch (op) {
    case BuiltinOp::andi:
    case BuiltinOp::ori:
    case BuiltinOp::minsi:
    case BuiltinOp::maxsi:
    case BuiltinOp::minui:
    case BuiltinOp::maxui:
      if (same_operand) return 0;
      break;
    default: break;
  }
  switch (op) {
    case BuiltinOp::addi:
    case BuiltinOp::ori:
    case BuiltinOp::xori:
    case BuiltinOp::maxui: return neutral(0, true);
    case BuiltinOp::subi:
    case BuiltinOp::shli:
    case BuiltinOp::shrsi:
    case BuiltinOp::shrui: return neutral(0, false);
    case BuiltinOp::muli: return neutral(1, true);
    case BuiltinOp::divsi:
      if (width == 1) return std::nullopt;  // the bits 1 are -1 at width 1: x / -1 is not x
      return neutral(1, false);
    case BuiltinOp::floordivsi:
    case BuiltinOp::ceildivsi:
      if (width == 1) return std::nullopt;
      return neutral(1, false);
    case BuiltinOp::divui:
    case BuiltinOp::ceildivui: return neutral(1, false);
    case BuiltinOp::andi:
    case BuiltinOp::minui: return neutral(mask, true);
    case BuiltinOp::maxsi: return neutral(smin, true);
    case BuiltinOp::minsi: return neutral(smax, true);
    default: return std::nullopt;
  }
}

}  // namespace kildall::ir
