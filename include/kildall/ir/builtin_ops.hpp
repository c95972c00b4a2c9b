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
/// Control flow (`cf.br`, `cf.cond_br`, `func.return`, `func.call`,
/// `func.call_indirect`) has no `eval`: what it does is structure
/// (successors, frames; `OpDefinition::calls`), which the interpreter and
/// the solvers read from the function's shape. Nor has `func.constant`: its
/// value is a function, which the interpreter takes from the symbol it names.

#include <algorithm>
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
  // Appended, not `"'" + std::string`: GCC 12 at -O3 reports a false -Wrestrict in that operator+.
  std::string quoted = "'";
  quoted += registry.type_name(t);
  quoted += '\'';
  return quoted;
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
    // Two different unknown operands decide nothing but `x & ~x` and `x | ~x` (the common case
    // of a solve over a large function: answered before the width is read).
    const bool logical = is(code, BuiltinOp::andi) || is(code, BuiltinOp::ori);
    if (known[0] == nullptr && known[1] == nullptr && ids[0] != ids[1] && !logical) return std::nullopt;
    const unsigned width = result_width(fn, op);
    if (const auto bits = fold_binary_identity(code, width, ids[0] == ids[1], known[0], known[1]))
      return Folded::constant(*bits);
    if (const auto operand = fold_binary_forwarding(code, width, ids[0] == ids[1], known[0], known[1]))
      return Folded::to_operand(*operand);
    if (logical && width != 0 &&
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
  def.constant_like = true;
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
    if (ids[1] == ids[2]) return Folded::to_operand(1);  // select(c, x, x) = x
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

/// The types of `values`, spelled `(T1, T2)` for messages.
[[nodiscard]] inline std::string quoted_types(const OpRegistry& registry, const Function& fn,
                                              std::span<const ValueId> values) {
  std::string text = "(";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) text += ", ";
    text += registry.type_name(fn.values[values[i]].type);
  }
  return text + ")";
}

/// The values `[begin, begin + count)` (consecutive results or arguments) as a list of ids.
[[nodiscard]] inline std::vector<ValueId> value_range(ValueId begin, std::uint32_t count) {
  std::vector<ValueId> values(count);
  for (std::uint32_t i = 0; i < count; ++i) values[i] = begin + i;
  return values;
}

/// Whether `a` and `b` have the same types, in order.
[[nodiscard]] inline bool same_types(const Function& fn, std::span<const ValueId> a, std::span<const ValueId> b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (fn.values[a[i]].type != fn.values[b[i]].type) return false;
  return true;
}

/// The checks every `scf` region shares: one block (MLIR's `SizedRegion<1>`) ending in
/// `terminator`; its entry arguments and the terminator's forwarded values typed as given.
[[nodiscard]] inline std::optional<std::string> check_scf_region(const Function& fn, const OpRegistry& registry,
                                                                  RegionId r, std::string_view region_name,
                                                                  std::span<const ValueId> argument_types_of,
                                                                  BuiltinOp terminator,
                                                                  std::span<const ValueId> forwarded_types_of) {
  const RegionData& region = fn.regions[r];
  if (region.block_count != 1) return "expects its " + std::string(region_name) + " region to have one block";
  const BlockData& block = fn.blocks[region.first_block];
  const auto arguments = value_range(block.argument_begin, block.argument_count);
  if (!same_types(fn, arguments, argument_types_of))
    return "expects its " + std::string(region_name) + " region's arguments to have types " +
           quoted_types(registry, fn, argument_types_of) + ", not " + quoted_types(registry, fn, arguments);
  const OpId last = block.last_op;
  if (last == no_index || !is(fn.ops[last].code, terminator))
    return "expects its " + std::string(region_name) + " region to end in '" +
           std::string(terminator == BuiltinOp::scf_yield ? "scf.yield" : "scf.condition") + "'";
  auto forwarded = fn.operands_of(last);
  if (terminator == BuiltinOp::scf_condition) forwarded = forwarded.subspan(1);
  if (!same_types(fn, forwarded, forwarded_types_of))
    return "expects its " + std::string(region_name) + " region to forward " +
           quoted_types(registry, fn, forwarded_types_of) + ", not " + quoted_types(registry, fn, forwarded);
  return std::nullopt;
}

/// The record of `scf.if`: a then region and an optional else region, each yielding the results.
[[nodiscard]] inline OpDefinition scf_if_definition() {
  OpDefinition def;
  def.name = "scf.if";
  def.format = OpFormat::scf_if;
  // then when the condition holds, else (or straight to the results) when not; each yields the results.
  def.region_flow.from_op = {{0, 1, 0}, {1, 1, 1}};
  def.region_flow.from_region = {{{RegionSuccessor::parent, 0, -1}}, {{RegionSuccessor::parent, 0, -1}}};
  def.region_flow.deciding_operand = 0;
  def.region_flow.region_deciding_operand = {-1, -1};
  def.verify = [](const Function& fn, OpId op, const OpRegistry& registry) -> std::optional<std::string> {
    const auto [first, last] = fn.regions_of(op);
    const auto results = value_range(fn.ops[op].result_begin, fn.ops[op].result_count);
    if (last - first == 1 && !results.empty()) return "must have an else region when it has results";
    for (RegionId r = first; r < last; ++r)
      if (auto message = check_scf_region(fn, registry, r, r == first ? "then" : "else", {}, BuiltinOp::scf_yield, results))
        return message;
    return std::nullopt;
  };
  return def;
}

/// The record of `scf.for`: `%iv` from the lower bound up to (excluding) the upper one by the
/// step, the body's arguments `(%iv, iter_args...)`, yielding the next iteration's arguments.
[[nodiscard]] inline OpDefinition scf_for_definition() {
  OpDefinition def;
  def.name = "scf.for";
  def.format = OpFormat::scf_for;
  // The body or (no iteration) the results get the iter_args; the body yields to itself or the results.
  def.region_flow.from_op = {{0, 3, -1}, {RegionSuccessor::parent, 3, -1}};
  def.region_flow.from_region = {{{0, 0, -1}, {RegionSuccessor::parent, 0, -1}}};
  def.region_flow.region_deciding_operand = {-1};
  def.region_flow.induction_bounds = 0;
  def.verify = [](const Function& fn, OpId op, const OpRegistry& registry) -> std::optional<std::string> {
    const auto operands = fn.operands_of(op);
    const Type type = fn.values[operands[0]].type;
    if (!type.is_integer_like()) return "expects an integer or index induction variable, not " + quoted_type(registry, type);
    const auto results = value_range(fn.ops[op].result_begin, fn.ops[op].result_count);
    std::vector<ValueId> arguments{operands[0]};  // typed as the bounds
    arguments.insert(arguments.end(), results.begin(), results.end());
    return check_scf_region(fn, registry, fn.regions_of(op).first, "body", arguments, BuiltinOp::scf_yield, results);
  };
  return def;
}

/// The record of `scf.while`: the before region computes a condition and forwards values to
/// the after region (or the results), the after region yields the next before arguments.
[[nodiscard]] inline OpDefinition scf_while_definition() {
  OpDefinition def;
  def.name = "scf.while";
  def.format = OpFormat::scf_while;
  // before gets the operands; its scf.condition passes its values to after (true) or the results
  // (false); after yields the next before arguments.
  def.region_flow.from_op = {{0, 0, -1}};
  def.region_flow.from_region = {{{1, 1, 0}, {RegionSuccessor::parent, 1, 1}}, {{0, 0, -1}}};
  def.region_flow.region_deciding_operand = {0, -1};
  def.verify = [](const Function& fn, OpId op, const OpRegistry& registry) -> std::optional<std::string> {
    const auto [first, last] = fn.regions_of(op);
    (void)last;
    const auto inits = fn.operands_of(op);
    const auto results = value_range(fn.ops[op].result_begin, fn.ops[op].result_count);
    if (auto message = check_scf_region(fn, registry, first, "before", inits, BuiltinOp::scf_condition, results))
      return message;
    return check_scf_region(fn, registry, first + 1, "after", results, BuiltinOp::scf_yield, inits);
  };
  return def;
}

/// The record of a terminator that ends the regions of `parents` only.
[[nodiscard]] inline OpDefinition scf_terminator_definition(std::string name, OpFormat format,
                                                             std::vector<BuiltinOp> parents) {
  OpDefinition def;
  def.name = std::move(name);
  def.format = format;
  def.terminator = true;
  def.verify = [parents = std::move(parents), name = def.name](const Function& fn, OpId op,
                                                                const OpRegistry&) -> std::optional<std::string> {
    const BlockId block = fn.ops[op].block;
    const OpId parent = fn.parent_op(block);
    const bool ok = parent != no_index && std::any_of(parents.begin(), parents.end(), [&](BuiltinOp p) {
      // scf.condition ends the before region of scf.while, scf.yield its after region.
      if (!is(fn.ops[parent].code, p)) return false;
      if (p != BuiltinOp::scf_while) return true;
      return fn.regions[fn.region_of(block)].index == (name == "scf.condition" ? 0u : 1u);
    });
    if (!ok) return "is not where its parent op expects it";
    return std::nullopt;
  };
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
  OpDefinition call = detail::control_definition("func.call", OpFormat::call, false);
  call.calls = CallKind::symbol;
  call.names_function = true;
  defs.push_back(std::move(call));
  OpDefinition call_indirect = detail::control_definition("func.call_indirect", OpFormat::call_indirect, false);
  call_indirect.calls = CallKind::value;
  defs.push_back(std::move(call_indirect));
  // `func.constant` has no `eval`: a function is no integer constant for SCCP (MLIR's SCCP does
  // fold it to its symbol, which it can do nothing with but materialize again).
  OpDefinition function_constant = detail::control_definition("func.constant", OpFormat::function_constant, false);
  function_constant.names_function = true;
  defs.push_back(std::move(function_constant));
  defs.push_back(detail::scf_if_definition());
  defs.push_back(detail::scf_for_definition());
  defs.push_back(detail::scf_while_definition());
  defs.push_back(detail::scf_terminator_definition(
      "scf.yield", OpFormat::scf_yield, {BuiltinOp::scf_if, BuiltinOp::scf_for, BuiltinOp::scf_while}));
  defs.push_back(detail::scf_terminator_definition("scf.condition", OpFormat::scf_condition, {BuiltinOp::scf_while}));
  // Unregistered ops (the generic form): opaque, no semantics; each op's own name is in its function's
  // arena (`OpData::imm`, `aux`). The record's name cannot be written as an op name.
  OpDefinition unregistered = detail::control_definition("<unregistered>", OpFormat::generic, false);
  unregistered.may_terminate = true;
  defs.push_back(std::move(unregistered));
  static_assert(static_cast<std::size_t>(BuiltinOp::count) == 40, "one record per built-in op, in code order");
  return defs;
}

}  // namespace kildall::ir

// The index dialect's records are built from these.
#include <kildall/ir/index_ops.hpp>
