#pragma once
/// \file
/// The built-in ops (`arith`, `cf`, `func`) as data: one `OpDefinition`
/// record per op, in `BuiltinOp` order, with its assembly format, its
/// semantics on known operands (`eval`, the functions of `arith.hpp`), its
/// folder on partly known operands (the identities MLIR's `arith` folders
/// apply) and its integer-range transfer (`kildall/lattice/interval_transfer.hpp`,
/// the counterparts of MLIR's `inferAdd` and friends). `OpRegistry` registers
/// these records first, so the parser, printer, interpreter, SCCP and the
/// integer-range analysis treat built-in and dialect ops alike.
///
/// Control flow (`cf.br`, `cf.cond_br`, `func.return`, `func.call`) has no
/// `eval`: what it does is structure (successors, frames), which the
/// interpreter and the solvers read from the function's shape.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kildall/ir/arith.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_definition.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/interval_transfer.hpp>

namespace kildall::ir {

/// One two-operand `arith` op: its code, name and range transfer.
struct BinaryArithRecord {
  BuiltinOp code;                                            ///< Its op code.
  std::string_view name;                                     ///< Its name.
  Interval (*infer_ranges)(const Interval&, const Interval&);  ///< Its range transfer.
};

/// The twenty two-operand `arith` ops, in `BuiltinOp` order (`binary_arith_ops[code -
/// code_of(BuiltinOp::addi)]`); their range transfers serve any IR that maps its ops onto them.
inline constexpr std::array<BinaryArithRecord, 20> binary_arith_ops = {{
    {BuiltinOp::addi, "arith.addi", &infer_add},
    {BuiltinOp::subi, "arith.subi", &infer_sub},
    {BuiltinOp::muli, "arith.muli", &infer_mul},
    {BuiltinOp::divsi, "arith.divsi", &infer_divs},
    {BuiltinOp::divui, "arith.divui", &infer_divu},
    {BuiltinOp::remsi, "arith.remsi", &infer_rems},
    {BuiltinOp::remui, "arith.remui", &infer_remu},
    {BuiltinOp::andi, "arith.andi", &infer_and},
    {BuiltinOp::ori, "arith.ori", &infer_or},
    {BuiltinOp::xori, "arith.xori", &infer_xor},
    {BuiltinOp::shli, "arith.shli", &infer_shl},
    {BuiltinOp::shrsi, "arith.shrsi", &infer_shrs},
    {BuiltinOp::shrui, "arith.shrui", &infer_shru},
    {BuiltinOp::minsi, "arith.minsi", &infer_mins},
    {BuiltinOp::maxsi, "arith.maxsi", &infer_maxs},
    {BuiltinOp::minui, "arith.minui", &infer_minu},
    {BuiltinOp::maxui, "arith.maxui", &infer_maxu},
    {BuiltinOp::floordivsi, "arith.floordivsi", &infer_floordivs},
    {BuiltinOp::ceildivsi, "arith.ceildivsi", &infer_ceildivs},
    {BuiltinOp::ceildivui, "arith.ceildivui", &infer_ceildivu},
}};

// The records are in op-code order (their position is their code).
static_assert([] {
  for (std::size_t i = 0; i < binary_arith_ops.size(); ++i)
    if (code_of(binary_arith_ops[i].code) != code_of(BuiltinOp::addi) + i) return false;
  return true;
}());
static_assert(code_of(BuiltinOp::ceildivui) + 1 == code_of(BuiltinOp::cmpi));

namespace detail {

/// The width of `op`'s first result.
[[nodiscard]] inline unsigned result_width(const Function& fn, OpId op) {
  return fn.values[fn.ops[op].result_begin].type.width();
}

/// Whether `v` is `arith.xori x, c` or `arith.xori c, x` with `c` an `arith.constant` of all ones (`~x`).
[[nodiscard]] inline bool is_not_of(const Function& fn, ValueId v, ValueId x, unsigned width) {
  const ValueData& data = fn.values[v];
  if (data.is_block_argument || !is(fn.ops[data.owner].code, BuiltinOp::xori)) return false;
  const auto xor_operands = fn.operands_of(data.owner);
  for (std::size_t i = 0; i < 2; ++i) {
    if (xor_operands[i] != x) continue;
    const ValueData& other = fn.values[xor_operands[1 - i]];
    if (other.is_block_argument) continue;
    const OpData& def = fn.ops[other.owner];
    if (is(def.code, BuiltinOp::constant) && (def.imm & width_mask(width)) == width_mask(width)) return true;
  }
  return false;
}

/// `'<type>'` as the registry spells it (messages).
[[nodiscard]] inline std::string quoted_type(const OpRegistry& registry, Type t) {
  return "'" + registry.type_name(t) + "'";
}

/// Verification of an op whose first operand must be a signless integer or `index`.
[[nodiscard]] inline std::optional<std::string> verify_integer_like_operand(const Function& fn, OpId op,
                                                                            const OpRegistry& registry) {
  const Type t = fn.values[fn.operands_of(op)[0]].type;
  if (t.is_integer_like()) return std::nullopt;
  return "operand must be signless-integer-like, but got " + quoted_type(registry, t);
}

/// The record of a two-operand `arith` op.
[[nodiscard]] inline OpDefinition binary_arith_definition(const BinaryArithRecord& r) {
  OpDefinition def;
  def.name = std::string(r.name);
  def.format = OpFormat::binary;
  def.verify = verify_integer_like_operand;
  const OpCode code = code_of(r.code);
  def.eval = [code](const Function& fn, OpId op, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
    const ArithResult result = evaluate_binary(code, result_width(fn, op), in[0], in[1]);
    if (!result.defined()) return EvalStatus::undefined(std::string(result.undefined_reason));
    out[0] = result.value;
    return EvalStatus::success();
  };
  // `fold_binary_identity`, and `x & ~x = 0`, `x | ~x = ~0` (with `~x` written `arith.xori x, <all ones>`).
  def.fold = [code](const Function& fn, OpId op, std::span<const std::uint64_t* const> known) -> std::optional<Folded> {
    const auto ids = fn.operands_of(op);
    const unsigned width = result_width(fn, op);
    if (const auto bits = fold_binary_identity(code, width, ids[0] == ids[1], known[0], known[1]))
      return Folded::constant(*bits);
    if ((is(code, BuiltinOp::andi) || is(code, BuiltinOp::ori)) && width != 0 &&
        (is_not_of(fn, ids[1], ids[0], width) || is_not_of(fn, ids[0], ids[1], width)))
      return Folded::constant(is(code, BuiltinOp::andi) ? 0 : width_mask(width));
    return std::nullopt;
  };
  const auto infer = r.infer_ranges;
  def.infer_ranges = [infer](const Function&, OpId, std::uint32_t, std::span<const Interval> in) {
    return infer(in[0], in[1]);
  };
  return def;
}

/// The record of a cast (`extsi`, `extui`, `trunci`) with range transfer `infer`: between
/// signless integers, to a wider type (`widens`) or a narrower one.
[[nodiscard]] inline OpDefinition cast_definition(BuiltinOp op_code, std::string name,
                                                  Interval (*infer)(const Interval&, unsigned)) {
  OpDefinition def;
  def.name = std::move(name);
  def.format = OpFormat::cast_to;
  const OpCode code = code_of(op_code);
  const bool widens = op_code != BuiltinOp::trunci;
  def.verify = [widens](const Function& fn, OpId op, const OpRegistry& registry) -> std::optional<std::string> {
    const Type from = fn.values[fn.operands_of(op)[0]].type, to = fn.values[fn.ops[op].result_begin].type;
    if (!from.is_integer()) return "operand must be a signless integer, but got " + quoted_type(registry, from);
    if (!to.is_integer()) return "result must be a signless integer, but got " + quoted_type(registry, to);
    if (widens && to.width() <= from.width())
      return "result type " + quoted_type(registry, to) + " must be wider than operand type " +
             quoted_type(registry, from);
    if (!widens && to.width() >= from.width())
      return "result type " + quoted_type(registry, to) + " must be narrower than operand type " +
             quoted_type(registry, from);
    return std::nullopt;
  };
  def.eval = [code](const Function& fn, OpId op, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
    const unsigned from = fn.values[fn.operands_of(op)[0]].type.width();
    out[0] = evaluate_cast(code, from, result_width(fn, op), in[0]);
    return EvalStatus::success();
  };
  def.infer_ranges = [infer](const Function& fn, OpId op, std::uint32_t, std::span<const Interval> in) {
    return infer(in[0], result_width(fn, op));
  };
  return def;
}

/// The record of `arith.index_cast` (`sign_extends`) or `arith.index_castui`: between a signless
/// integer and `index` (64 bits here), extending the narrower side (by its sign bit, or with
/// zeros) or truncating the wider one.
[[nodiscard]] inline OpDefinition index_cast_definition(std::string name, bool sign_extends) {
  OpDefinition def;
  def.name = std::move(name);
  def.format = OpFormat::cast_to;
  def.verify = [](const Function& fn, OpId op, const OpRegistry& registry) -> std::optional<std::string> {
    const Type from = fn.values[fn.operands_of(op)[0]].type, to = fn.values[fn.ops[op].result_begin].type;
    if ((from.is_index() && to.is_integer()) || (from.is_integer() && to.is_index())) return std::nullopt;
    return "casts between a signless integer and 'index', not from " + quoted_type(registry, from) + " to " +
           quoted_type(registry, to);
  };
  // `evaluate_cast` of `extsi`/`extui` serves both directions: truncating keeps the low bits either way.
  const OpCode as_cast = code_of(sign_extends ? BuiltinOp::extsi : BuiltinOp::extui);
  def.eval = [as_cast](const Function& fn, OpId op, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
    out[0] = evaluate_cast(as_cast, fn.values[fn.operands_of(op)[0]].type.width(), result_width(fn, op), in[0]);
    return EvalStatus::success();
  };
  def.infer_ranges = [sign_extends](const Function& fn, OpId op, std::uint32_t, std::span<const Interval> in) {
    const unsigned from = in[0].width(), to = result_width(fn, op);
    if (to < from) return infer_trunc(in[0], to);
    if (to == from) return in[0];
    return sign_extends ? infer_sext(in[0], to) : infer_zext(in[0], to);
  };
  return def;
}

/// The record of `arith.constant` (its value is the op's immediate).
[[nodiscard]] inline OpDefinition constant_definition() {
  OpDefinition def;
  def.name = "arith.constant";
  def.format = OpFormat::constant;
  def.eval = [](const Function& fn, OpId op, std::span<const std::uint64_t>, std::span<std::uint64_t> out) {
    out[0] = fn.ops[op].imm;
    return EvalStatus::success();
  };
  def.infer_ranges = [](const Function& fn, OpId op, std::uint32_t, std::span<const Interval>) {
    return Interval::from_unsigned(result_width(fn, op), fn.ops[op].imm, fn.ops[op].imm);
  };
  return def;
}

/// The record of `arith.cmpi` (its predicate is the op's immediate, numbered as `CmpPredicate`).
[[nodiscard]] inline OpDefinition compare_definition() {
  OpDefinition def;
  def.name = "arith.cmpi";
  def.format = OpFormat::compare;
  def.verify = verify_integer_like_operand;
  const auto predicate_of = [](const Function& fn, OpId op) { return static_cast<CmpPredicate>(fn.ops[op].imm); };
  def.eval = [predicate_of](const Function& fn, OpId op, std::span<const std::uint64_t> in,
                            std::span<std::uint64_t> out) {
    const unsigned width = fn.values[fn.operands_of(op)[0]].type.width();
    out[0] = evaluate_compare(predicate_of(fn, op), in[0], in[1], width) ? 1 : 0;
    return EvalStatus::success();
  };
  // `cmpi <pred>, x, x` is decided by the predicate alone.
  def.fold = [predicate_of](const Function& fn, OpId op, std::span<const std::uint64_t* const>) -> std::optional<Folded> {
    const auto ids = fn.operands_of(op);
    if (ids[0] != ids[1]) return std::nullopt;
    return Folded::constant(compare_of_equal_operands(predicate_of(fn, op)) ? 1 : 0);
  };
  def.infer_ranges = [predicate_of](const Function& fn, OpId op, std::uint32_t, std::span<const Interval> in) {
    if (in[0].is_empty() || in[1].is_empty()) return Interval::empty(1);
    const auto decided = infer_cmp(predicate_of(fn, op), in[0], in[1]);
    if (!decided) return Interval::full(1);
    return Interval::from_unsigned(1, *decided ? 1 : 0, *decided ? 1 : 0);
  };
  return def;
}

/// The record of `arith.select`.
[[nodiscard]] inline OpDefinition select_definition() {
  OpDefinition def;
  def.name = "arith.select";
  def.format = OpFormat::select;
  def.selects_from = 1;
  def.eval = [](const Function&, OpId, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
    out[0] = in[0] != 0 ? in[1] : in[2];
    return EvalStatus::success();
  };
  // A known condition picks its side; `select(a == b, a, b) = b` and `select(a != b, a, b) = a`.
  def.fold = [](const Function& fn, OpId op, std::span<const std::uint64_t* const> known) -> std::optional<Folded> {
    if (known[0] != nullptr) return Folded::to_operand(*known[0] != 0 ? 1 : 2);
    const auto ids = fn.operands_of(op);
    const ValueData& condition = fn.values[ids[0]];
    if (condition.is_block_argument || !is(fn.ops[condition.owner].code, BuiltinOp::cmpi)) return std::nullopt;
    const auto compared = fn.operands_of(condition.owner);
    const bool same_pair =
        (compared[0] == ids[1] && compared[1] == ids[2]) || (compared[0] == ids[2] && compared[1] == ids[1]);
    if (!same_pair) return std::nullopt;
    const auto predicate = static_cast<CmpPredicate>(fn.ops[condition.owner].imm);
    if (predicate == CmpPredicate::eq) return Folded::to_operand(2);
    if (predicate == CmpPredicate::ne) return Folded::to_operand(1);
    return std::nullopt;
  };
  def.infer_ranges = [](const Function&, OpId, std::uint32_t, std::span<const Interval> in) {
    return infer_select(in[0], in[1], in[2]);
  };
  return def;
}

/// The record of control-flow op `name` (no semantics of its own: structure).
[[nodiscard]] inline OpDefinition control_definition(std::string name, OpFormat format, bool terminator) {
  OpDefinition def;
  def.name = std::move(name);
  def.format = format;
  def.terminator = terminator;
  return def;
}

}  // namespace detail

/// The records of the built-in ops, indexed by `BuiltinOp` (their op codes).
[[nodiscard]] inline std::vector<OpDefinition> builtin_op_definitions() {
  std::vector<OpDefinition> defs;
  defs.reserve(static_cast<std::size_t>(BuiltinOp::count));
  defs.push_back(detail::constant_definition());
  for (const BinaryArithRecord& r : binary_arith_ops) defs.push_back(detail::binary_arith_definition(r));
  defs.push_back(detail::compare_definition());
  defs.push_back(detail::select_definition());
  defs.push_back(detail::cast_definition(BuiltinOp::extsi, "arith.extsi", &infer_sext));
  defs.push_back(detail::cast_definition(BuiltinOp::extui, "arith.extui", &infer_zext));
  defs.push_back(detail::cast_definition(BuiltinOp::trunci, "arith.trunci", &infer_trunc));
  defs.push_back(detail::index_cast_definition("arith.index_cast", true));
  defs.push_back(detail::index_cast_definition("arith.index_castui", false));
  defs.push_back(detail::control_definition("cf.br", OpFormat::branch, true));
  defs.push_back(detail::control_definition("cf.cond_br", OpFormat::cond_branch, true));
  defs.push_back(detail::control_definition("func.return", OpFormat::return_op, true));
  defs.push_back(detail::control_definition("func.call", OpFormat::call, false));
  // Unregistered ops (the generic form): opaque, no semantics; each op's own name is in its function's
  // arena (`OpData::imm`, `aux`). The record's name cannot be written as an op name.
  OpDefinition unregistered = detail::control_definition("<unregistered>", OpFormat::generic, false);
  unregistered.may_terminate = true;
  defs.push_back(std::move(unregistered));
  static_assert(static_cast<std::size_t>(BuiltinOp::count) == 33, "one record per built-in op, in code order");
  return defs;
}

}  // namespace kildall::ir
