#pragma once
/// \file
/// `OpDefinition`: one op kind as data, the record the op table
/// (`OpRegistry`) holds for every op, built-in or dialect: how it is written
/// (`OpFormat` or parse/print hooks), whether it ends a block, how it is
/// verified, what it computes on known operands (`eval`), what it folds to on
/// partly known ones (`fold`), and its integer-range transfer
/// (`infer_ranges`). The parser, printer, verifier, interpreter, SCCP and the
/// integer-range analysis read these records instead of switching on op
/// codes: adding an op is one record (`builtin_ops.hpp` for the built-ins,
/// `OpRegistry::add_op` for a dialect's).

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <kildall/ir/module.hpp>
#include <kildall/ir/types.hpp>
#include <kildall/lattice/interval.hpp>

namespace kildall::ir {

class OpAsmParser;
class OpAsmPrinter;
class OpRegistry;
struct OperationState;

/// Op codes of the built-in ops, in registration order.
enum class BuiltinOp : OpCode {
  constant, addi, subi, muli, divsi, divui, remsi, remui, andi, ori, xori, shli, shrsi, shrui,
  minsi, maxsi, minui, maxui, floordivsi, ceildivsi, ceildivui, cmpi, select, extsi, extui, trunci, index_cast, index_castui,
  br, cond_br, return_, call, call_indirect, func_constant,
  scf_if, scf_for, scf_while, scf_yield, scf_condition,
  unregistered,  ///< An op of no registered dialect, written in the generic form (`--allow-unregistered-dialect`).
  count  ///< Number of built-in ops; dialect op codes start here.
};

/// The op code of built-in op `op`.
[[nodiscard]] constexpr OpCode code_of(BuiltinOp op) { return static_cast<OpCode>(op); }
/// True if `code` is the built-in `op`.
[[nodiscard]] constexpr bool is(OpCode code, BuiltinOp op) { return code == code_of(op); }

/// How an op is written after its name. Dialect ops use the first four or `custom`.
enum class OpFormat : std::uint8_t {
  binary,       ///< `%a, %b : T` -> one result of type T (operands of type T).
  unary,        ///< `%a : T` -> one result of type T.
  cast_arrow,   ///< `%a : T1 -> T2` -> one result of type T2.
  cast_to,      ///< `%a : T1 to T2` -> one result of type T2.
  custom,       ///< The definition's own `parse`/`print` hooks.
  constant,     ///< `arith.constant 42 : i32` / `true` / `false`.
  compare,      ///< `arith.cmpi slt, %a, %b : T` -> i1.
  select,       ///< `arith.select %c, %a, %b : T`.
  branch,       ///< `cf.br ^bb(%x : T)`.
  cond_branch,  ///< `cf.cond_br %c, ^bb1(...), ^bb2(...)`.
  return_op,    ///< `func.return %a, %b : T1, T2` (or no operands).
  call,         ///< `func.call @callee(%a) : (T) -> R`.
  call_indirect,  ///< `func.call_indirect %f(%a) : (T) -> R` (`%f` of that function type).
  function_constant,  ///< `func.constant @f : (T) -> R` -> one value of that function type.
  generic,      ///< `"dialect.op"(%a) [^bb1, ^bb2] {attrs} : (T) -> R`, MLIR's generic form (unregistered ops).
  scf_if,       ///< `scf.if %c -> (T) { ... } else { ... }`.
  scf_for,      ///< `scf.for %i = %lb to %ub step %s iter_args(%a = %x) -> (T) : T { ... }`.
  scf_while,    ///< `scf.while (%a = %x) : (T) -> R { ... } do { ^bb0(%b: R): ... }`.
  scf_yield,    ///< `scf.yield %a : T` (or nothing).
  scf_condition,  ///< `scf.condition(%c) %a : T`.
  index_binary,   ///< `index.add %a, %b` -> one `index` (operands `index`).
  index_compare,  ///< `index.cmp slt(%a, %b)` -> i1 (operands `index`).
  index_constant,  ///< `index.constant 42` -> `index`.
  bool_constant,   ///< `index.bool.constant true` -> i1.
};

/// How an op calls a function (MLIR's `CallOpInterface`), read by the interpreter, the verifier
/// and the module's call graph.
enum class CallKind : std::uint8_t {
  none,    ///< Not a call.
  symbol,  ///< Calls the function it names (`OpDefinition::names_function`); all operands are arguments (`func.call`).
  value,   ///< Calls the function operand 0 holds, a value of function type; the other operands are arguments (`func.call_indirect`).
};

/// What the interpreter reports for one op.
struct EvalStatus {
  bool ok = true;       ///< False when the op's behaviour is undefined for these operands.
  std::string message;  ///< Why, when not ok.
  /// Success.
  [[nodiscard]] static EvalStatus success() { return {}; }
  /// Undefined behaviour (e.g. division by zero), with a reason.
  [[nodiscard]] static EvalStatus undefined(std::string why) { return {false, std::move(why)}; }
};

/// Parses what follows the op name into `state` (custom format).
using ParseHook = std::function<void(OpAsmParser&, OperationState&)>;
/// Prints what follows the op name (custom format).
using PrintHook = std::function<void(OpAsmPrinter&, const Function&, OpId)>;
/// Op-specific verification: returns an error message, or nothing if valid. `registry` is the
/// op table of the module (for the spelling of types in messages: `registry.type_name(t)`).
using VerifyHook = std::function<std::optional<std::string>(const Function&, OpId, const OpRegistry& registry)>;
/// Interpreter semantics: operand bit patterns in, result bit patterns out
/// (integer-like values are zero-extended to 64 bits; dialect types choose their own encoding).
using EvalHook = std::function<EvalStatus(const Function&, OpId, std::span<const std::uint64_t> operands,
                                          std::span<std::uint64_t> results)>;

/// What a folder concluded about an op's (single) result when some operands
/// are unknown: a constant, or "always equals operand `operand`" (MLIR's
/// `OpFoldResult`: an attribute or an existing value).
struct Folded {
  /// Which of the two conclusions.
  enum class Kind : std::uint8_t {
    constant,  ///< The result is `bits` for every value of the unknown operands.
    operand,   ///< The result is always the value of operand number `operand`.
  };
  Kind kind = Kind::constant;  ///< Which conclusion.
  std::uint64_t bits = 0;      ///< The constant (zero-extended), for `Kind::constant`.
  std::uint32_t operand = 0;   ///< The operand number, for `Kind::operand`.
  /// The result is the constant `bits`.
  [[nodiscard]] static constexpr Folded constant(std::uint64_t bits) { return {Kind::constant, bits, 0}; }
  /// The result is always operand number `i`.
  [[nodiscard]] static constexpr Folded to_operand(std::uint32_t i) { return {Kind::operand, 0, i}; }
  /// Conclusions compare field by field.
  friend constexpr bool operator==(const Folded&, const Folded&) = default;
};

/// Folding with partly known operands (`known[i]`: operand `i`'s bits, or
/// nullptr when unknown): a conclusion that holds for every value of the
/// unknown operands (an algebraic identity, a decided choice), or nothing.
/// Never asked when every operand is known: `eval` answers then.
using FoldHook = std::function<std::optional<Folded>(const Function&, OpId, std::span<const std::uint64_t* const> known)>;

/// Integer-range transfer (MLIR's `InferIntRangeInterface::inferResultRanges`):
/// the interval of result number `result` of `op` given its operands' intervals
/// (each as wide as its operand's `OpRegistry::bit_width`).
using RangeHook =
    std::function<Interval(const Function& fn, OpId op, std::uint32_t result, std::span<const Interval> operands)>;

/// One place control can go from an op that owns regions, or from the terminator of one of
/// its regions (MLIR's `RegionSuccessor`).
struct RegionSuccessor {
  /// `region` value meaning "back to the op": its results receive the forwarded values.
  static constexpr std::uint32_t parent = 0xFFFFFFFFu;
  std::uint32_t region = parent;      ///< A region index of the owning op (one it lacks means `parent`), or `parent`.
  std::uint32_t first_forwarded = 0;  ///< The values passed on: the deciding op's operands from this index on.
  std::int8_t arm = -1;               ///< 0: taken when the deciding operand is true, 1: when false, -1: either.
  /// The values passed on, given the operands of the op that goes there (the owner for
  /// `RegionFlow::from_op`, the terminator for `from_region`).
  [[nodiscard]] std::span<const ValueId> forwarded(std::span<const ValueId> operands) const {
    return first_forwarded < operands.size() ? operands.subspan(first_forwarded) : std::span<const ValueId>{};
  }
};

/// How control flows through an op's regions (MLIR's `RegionBranchOpInterface`, as data):
/// where the op goes first, where each region's terminator goes, and which operand decides.
/// The IR's CFG view turns it into edges, so the solvers, the verifier and the interpreter
/// read one description.
struct RegionFlow {
  std::vector<RegionSuccessor> from_op;                   ///< Entering a region, or skipping to the results.
  std::vector<std::vector<RegionSuccessor>> from_region;  ///< Per region index: from its terminator.
  std::int32_t deciding_operand = -1;  ///< The op's operand the `arm`s of `from_op` read (-1: none).
  std::vector<std::int32_t> region_deciding_operand;  ///< Per region: the terminator's operand its `arm`s read.
  /// >= 0: region 0's first argument is an induction variable (`scf.for`'s `%iv`), not a
  /// forwarded value: it runs from operand `i` up to (excluding) operand `i + 1` by operand `i + 2`.
  std::int32_t induction_bounds = -1;
  /// True when the op owns regions whose control flow is described here.
  [[nodiscard]] bool described() const { return !from_op.empty(); }
};

/// One registered op kind.
struct OpDefinition {
  std::string name;                    ///< Full name, e.g. "noisy.add".
  OpFormat format = OpFormat::custom;  ///< Assembly format.
  bool terminator = false;             ///< True for block terminators.
  ParseHook parse;                     ///< Required for `OpFormat::custom`.
  PrintHook print;                     ///< Required for `OpFormat::custom`.
  VerifyHook verify;                   ///< Optional extra verification.
  /// Semantics on known operands: the interpreter runs it, SCCP and folders
  /// fold with it when every operand is constant. Ops without it are opaque.
  EvalHook eval;
  /// Optional: folding with some operands unknown (identities, decided choices).
  FoldHook fold;
  /// Optional: integer-range transfer; without it a result may be anything.
  RangeHook infer_ranges;
  /// Nonzero when the result is always one of operands `selects_from..` and
  /// operand 0 picks which (`arith.select`): constant propagation joins
  /// their states when the choice is unknown.
  std::uint32_t selects_from = 0;
  /// True when the op may end a block without being known to be a terminator (an unregistered
  /// op: MLIR cannot tell either); its successors, if any, are the block's CFG edges.
  bool may_terminate = false;
  /// For ops that own regions: how control flows through them (`scf.if`, `scf.for`, `scf.while`).
  RegionFlow region_flow;
  /// True for an op without operands whose result is a constant it carries (MLIR's
  /// `ConstantLike`: `arith.constant`, `index.constant`): rewrites leave it as it is.
  bool constant_like = false;
  /// Whether and how the op calls a function. A call has no `eval`: the interpreter runs the
  /// callee, the analyses read its results from the call graph at module level (direct calls)
  /// or find them unknown (per function; indirect calls always, as MLIR's SCCP does).
  CallKind calls = CallKind::none;
  /// True when the op names a function by symbol: `OpData::imm`/`aux` hold the name (without
  /// '@') in the function's arena, looked up in the symbol table of the function's module
  /// (`func.call`, `func.constant`). The verifier resolves it; a function named by an op that
  /// does not call it (`func.constant`) may be called from anywhere (a module-level root).
  bool names_function = false;
};

/// The records of the built-in ops, indexed by `BuiltinOp` (defined in builtin_ops.hpp, which
/// op_registry.hpp includes).
[[nodiscard]] inline std::vector<OpDefinition> builtin_op_definitions();
/// The records of the `index` dialect, registered after the built-ins (defined in index_ops.hpp,
/// which op_registry.hpp includes).
[[nodiscard]] inline std::vector<OpDefinition> index_op_definitions();

}  // namespace kildall::ir
