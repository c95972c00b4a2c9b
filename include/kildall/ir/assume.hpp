#pragma once
/// \file
/// User-asserted bounds that the integer-range analysis trusts (seed 003: "a
/// mechanism that allows annotating new or custom operations with range
/// information", and an `assume_bound`-style op). Two ways:
///
/// - **An op of your dialect states its result range**: its record's
///   `infer_ranges` hook (`OpDefinition`, MLIR's `InferIntRangeInterface`) may
///   ignore its operands; `stated_range(min, max)` is that hook for a fixed
///   signed range (e.g. a thread id in `[0, 1023]`).
/// - **`kildall.assume`**, an op of the reference IR registered by
///   `add_assume_op(registry)`:
///   `%y = kildall.assume %x in [%lo, %hi] : T` is `%x` (same bits), with the
///   assertion `lo <= x <= hi` read signed. The integer-range analysis gives
///   `%y` the range of `%x` meet `[smin(lo), smax(hi)]`; the interpreter stops
///   with undefined behaviour when the assertion does not hold, so a rewrite
///   that relies on it (e.g. `--arith-unsigned-when-equivalent`) keeps every
///   defined execution. Bounds are SSA values (usually `arith.constant`s), so
///   bounds of any width up to 64 bits need no attribute storage.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <kildall/ir/lexer.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_definition.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/parser.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/lattice/interval.hpp>

namespace kildall::ir {

/// An `infer_ranges` hook stating that result values lie in `[min, max]` read signed (clamped to
/// the result's width), whatever the operands: for an op of a user's dialect that knows its
/// bounds (a thread id, a size).
[[nodiscard]] inline RangeHook stated_range(std::int64_t min, std::int64_t max) {
  return [min, max](const Function& fn, OpId op, std::uint32_t result, std::span<const Interval>) {
    const unsigned width = fn.values[fn.result(op, result)].type.width();
    if (width == 0) return Interval::full(64);
    const Interval full = Interval::full(width);
    return Interval::from_signed(width, std::max(min, full.smin()), std::min(max, full.smax()));
  };
}

/// The name of the assume op.
inline constexpr std::string_view assume_op_name = "kildall.assume";

/// The record of `kildall.assume` (see the file comment).
[[nodiscard]] inline OpDefinition assume_op_definition() {
  OpDefinition def;
  def.name = std::string(assume_op_name);
  def.format = OpFormat::custom;
  def.parse = [](OpAsmParser& p, OperationState& state) {
    const UnresolvedOperand x = p.parse_operand();
    p.expect_keyword("in");
    p.expect(TokenKind::l_square, "'[' before the bounds");
    const UnresolvedOperand lo = p.parse_operand();
    p.expect(TokenKind::comma, "',' between the bounds");
    const UnresolvedOperand hi = p.parse_operand();
    p.expect(TokenKind::r_square, "']' after the bounds");
    state.attributes = p.parse_optional_attribute_dictionary();
    p.expect(TokenKind::colon, "':' and the type");
    const Type t = p.parse_type();
    p.resolve_operand(x, t, state);
    p.resolve_operand(lo, t, state);
    p.resolve_operand(hi, t, state);
    state.result_types.push_back(t);
  };
  def.print = [](OpAsmPrinter& p, const Function& fn, OpId op) {
    const auto operands = fn.operands_of(op);
    p << " ";
    p.print_operand(operands[0]);
    p << " in [";
    p.print_operand(operands[1]);
    p << ", ";
    p.print_operand(operands[2]);
    p << "]";
    if (const std::string_view attributes = fn.attributes_of(op); !attributes.empty()) p << " " << attributes;
    p << " : ";
    p.print_type(fn.values[fn.result(op)].type);
  };
  def.verify = [](const Function& fn, OpId op, const OpRegistry& registry) -> std::optional<std::string> {
    const Type t = fn.values[fn.operands_of(op)[0]].type;
    if (t.is_integer_like()) return std::nullopt;
    return "operand must be signless-integer-like, but got '" + registry.type_name(t) + "'";
  };
  def.eval = [](const Function& fn, OpId op, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
    const unsigned width = fn.values[fn.result(op)].type.width();
    const std::int64_t x = sign_extend(in[0], width);
    if (x < sign_extend(in[1], width) || x > sign_extend(in[2], width))
      return EvalStatus::undefined("assumption violated: the value is outside [lo, hi]");
    out[0] = in[0] & width_mask(width);
    return EvalStatus::success();
  };
  def.infer_ranges = [](const Function&, OpId, std::uint32_t, std::span<const Interval> in) {
    Interval range = in[0];
    if (in[1].is_empty() || in[2].is_empty()) return Interval::empty(range.width());
    if (in[1].smin() > in[2].smax()) return Interval::empty(range.width());
    (void)range.meet(Interval::from_signed(range.width(), in[1].smin(), in[2].smax()));
    return range;
  };
  return def;
}

/// Registers `kildall.assume` in `registry` (once: an existing record is reused); returns its code.
inline OpCode add_assume_op(OpRegistry& registry) {
  if (const std::optional<OpCode> code = registry.find_op(assume_op_name)) return *code;
  return registry.add_op(assume_op_definition());
}

}  // namespace kildall::ir
