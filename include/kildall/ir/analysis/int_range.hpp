#pragma once
/// \file
/// Integer range analysis on a reference-IR function, after MLIR's
/// `IntegerRangeAnalysis` (the RFC "Range analysis when evaluating/lowering
/// affine maps"): every integer-like SSA value gets an `Interval` (signed and
/// unsigned bounds of the same bits, kildall/lattice/interval.hpp), computed
/// by kildall's generic sparse solver with the reusable transfer functions of
/// kildall/lattice/interval_transfer.hpp. Loops terminate by the solver's
/// widening at the widening points of the def-use graph; edges of a
/// `cf.cond_br` whose condition the ranges decide are not executable, so
/// ranges flow only along feasible paths (MLIR pairs the analysis with its
/// dead-code analysis for the same effect).
///
/// Dialect ops join in through an `IntRangeTransfers` table (op code ->
/// transfer), the counterpart of MLIR's `InferIntRangeInterface`; an op with
/// no entry gets the full range of its result type. Dialect types get a bit
/// width through the same table (default 64).
///
/// `apply_int_range_optimizations` is MLIR's `int-range-optimizations`: each
/// `arith.cmpi` whose outcome the operand ranges decide is replaced by a
/// constant `true`/`false`.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <kildall/ir/arith.hpp>
#include <kildall/ir/function_shape.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/rewriter.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/interval_transfer.hpp>
#include <kildall/solver/observer.hpp>
#include <kildall/solver/options.hpp>
#include <kildall/solver/sparse.hpp>

namespace kildall::ir {

/// A dialect op's range transfer: the interval of result `result` of `op`
/// given the intervals of its operands (MLIR's `inferResultRanges`).
using IntRangeTransfer =
    std::function<Interval(const Function& fn, OpId op, std::uint32_t result, std::span<const Interval> operands)>;

/// Range transfers and bit widths for dialect ops and types.
class IntRangeTransfers {
 public:
  /// Sets the transfer of op `code`.
  void add(OpCode code, IntRangeTransfer transfer) { transfers_[code] = std::move(transfer); }
  /// Gives dialect type `type` a bit width for the analysis (1..64).
  void set_width(Type type, unsigned width) { widths_[type.raw()] = width; }
  /// The transfer of `code`, or nullptr.
  [[nodiscard]] const IntRangeTransfer* find(OpCode code) const {
    const auto it = transfers_.find(code);
    return it == transfers_.end() ? nullptr : &it->second;
  }
  /// The analysis width of `type`: its own for integer-like types, else the registered one or 64.
  [[nodiscard]] unsigned width(Type type) const {
    if (type.is_integer_like()) return type.width();
    const auto it = widths_.find(type.raw());
    return it == widths_.end() ? 64 : it->second;
  }

 private:
  std::unordered_map<OpCode, IntRangeTransfer> transfers_;
  std::unordered_map<std::uint32_t, unsigned> widths_;
};

/// The interval of `value` given the intervals of `operands` for built-in op `code` of `fn`
/// (one result), or nullopt for ops this function does not know.
[[nodiscard]] inline std::optional<Interval> infer_builtin_range(const Function& fn, OpId op,
                                                                 std::span<const Interval> operands) {
  const OpData& o = fn.ops[op];
  const Type type = fn.values[o.result_begin].type;
  switch (static_cast<BuiltinOp>(o.code)) {
    case BuiltinOp::constant: return Interval::from_unsigned(type.width(), o.imm, o.imm);
    case BuiltinOp::addi: return infer_add(operands[0], operands[1]);
    case BuiltinOp::subi: return infer_sub(operands[0], operands[1]);
    case BuiltinOp::muli: return infer_mul(operands[0], operands[1]);
    case BuiltinOp::divsi: return infer_divs(operands[0], operands[1]);
    case BuiltinOp::divui: return infer_divu(operands[0], operands[1]);
    case BuiltinOp::remsi: return infer_rems(operands[0], operands[1]);
    case BuiltinOp::remui: return infer_remu(operands[0], operands[1]);
    case BuiltinOp::andi: return infer_and(operands[0], operands[1]);
    case BuiltinOp::ori: return infer_or(operands[0], operands[1]);
    case BuiltinOp::xori: return infer_xor(operands[0], operands[1]);
    case BuiltinOp::shli: return infer_shl(operands[0], operands[1]);
    case BuiltinOp::shrsi: return infer_shrs(operands[0], operands[1]);
    case BuiltinOp::shrui: return infer_shru(operands[0], operands[1]);
    case BuiltinOp::minsi: return infer_mins(operands[0], operands[1]);
    case BuiltinOp::maxsi: return infer_maxs(operands[0], operands[1]);
    case BuiltinOp::minui: return infer_minu(operands[0], operands[1]);
    case BuiltinOp::maxui: return infer_maxu(operands[0], operands[1]);
    case BuiltinOp::cmpi: {
      if (operands[0].is_empty() || operands[1].is_empty()) return Interval::empty(1);
      const auto decided =
          infer_cmp(static_cast<CmpPredicate>(static_cast<CmpIPredicate>(o.imm)), operands[0], operands[1]);
      if (!decided) return Interval::full(1);
      return Interval::from_unsigned(1, *decided ? 1 : 0, *decided ? 1 : 0);
    }
    case BuiltinOp::select: return infer_select(operands[0], operands[1], operands[2]);
    case BuiltinOp::extsi: return infer_sext(operands[0], type.width());
    case BuiltinOp::extui: return infer_zext(operands[0], type.width());
    case BuiltinOp::trunci: return infer_trunc(operands[0], type.width());
    default: return std::nullopt;
  }
}

/// The integer range problem of one function (models `kildall::SparseBranchProblem` over `FunctionShape`).
class IntRangeProblem {
 public:
  /// The lattice.
  using lattice_type = Interval;

  /// Ranges of the function of `shape`; `transfers` (optional) covers dialect ops. Both must outlive the problem.
  explicit IntRangeProblem(const FunctionShape& shape, const IntRangeTransfers* transfers = nullptr)
      : shape_(&shape), fn_(&shape.function()), transfers_(transfers) {}

  /// The analysis width of `v`'s type.
  [[nodiscard]] unsigned width_of(ValueId v) const {
    const Type t = fn_->values[v].type;
    return transfers_ ? transfers_->width(t) : (t.is_integer_like() ? t.width() : 64);
  }
  /// Function arguments may be anything.
  [[nodiscard]] Interval boundary(ValueId v) const { return Interval::full(width_of(v)); }

  /// An edge of a `cf.cond_br` is executable when the condition's range allows its side.
  [[nodiscard]] bool edge_executable(const CfgEdge& e, OperandStates<Interval> branch) const {
    const auto arm = shape_->cond_branch_arm(e);
    if (!arm || branch.empty()) return true;
    return branch[0].contains(*arm == 0 ? 1 : 0);
  }

  /// The range of result `v` from its op's operand ranges.
  [[nodiscard]] Interval transfer(ValueId v, OperandStates<Interval> operand_states) const {
    const Function& fn = *fn_;
    const OpId op = fn.values[v].owner;
    const OpData& o = fn.ops[op];
    std::vector<Interval> operands;
    operands.reserve(operand_states.size());
    for (const Interval* s : operand_states) operands.push_back(*s);
    if (transfers_) {
      if (const IntRangeTransfer* t = transfers_->find(o.code)) return (*t)(fn, op, fn.values[v].position, operands);
    }
    if (o.code < code_of(BuiltinOp::count) && o.result_count == 1) {
      if (auto r = infer_builtin_range(fn, op, operands)) return *r;
    }
    return Interval::full(width_of(v));
  }

 private:
  const FunctionShape* shape_;
  const Function* fn_;
  const IntRangeTransfers* transfers_;
};

/// The integer range result of one function.
class IntRangeAnalysis {
 public:
  /// The solver result type.
  using Result = SparseResult<FunctionShape, Interval>;

  /// Runs the analysis on `fn`; `transfers` (optional) covers dialect ops; `observer` sees every visit.
  template <class Observer = NoObserver>
  IntRangeAnalysis(const Function& fn, const IntRangeTransfers* transfers = nullptr,
                   const SolverOptions& options = {}, Observer&& observer = Observer{})
      : fn_(&fn), shape_(std::make_unique<FunctionShape>(fn)),
        problem_(std::make_unique<IntRangeProblem>(*shape_, transfers)),
        result_(solve_sparse(*shape_, *problem_, options, std::forward<Observer>(observer))) {}

  /// The range of `v`, or nullptr when uninitialized (dead or never computed).
  [[nodiscard]] const Interval* lookup(ValueId v) const { return result_.lookup(v); }
  /// Whether `b` was found executable.
  [[nodiscard]] bool executable(BlockId b) const { return result_.block_reached(b); }
  /// The solver's result.
  [[nodiscard]] const Result& result() const { return result_; }
  /// The function analysed.
  [[nodiscard]] const Function& function() const { return *fn_; }
  /// `[smin, smax] u[umin, umax]` or `uninitialized`: the `--dump-analysis=int-range` text.
  [[nodiscard]] std::string describe(ValueId v) const {
    const Interval* s = lookup(v);
    return s ? to_string(*s) : std::string("uninitialized");
  }

 private:
  const Function* fn_;
  std::unique_ptr<FunctionShape> shape_;  // stable addresses: the result points at the shape
  std::unique_ptr<IntRangeProblem> problem_;
  Result result_;
};

/// Replaces each `arith.cmpi` in an executable block whose outcome `analysis` decides by a
/// constant (the replacement takes over the name); returns how many were folded.
inline std::size_t apply_int_range_optimizations(Function& fn, const IntRangeAnalysis& analysis) {
  std::size_t folded = 0;
  Rewriter rewriter(fn);
  const std::size_t op_count = fn.ops.size();
  std::vector<ValueId> replacement_of(fn.values.size(), no_index);  // applied in one pass at the end
  for (OpId op = 0; op < op_count; ++op) {
    const OpData o = fn.ops[op];
    if (o.erased || !is(o.code, BuiltinOp::cmpi) || !analysis.executable(o.block)) continue;
    const Interval* range = analysis.lookup(o.result_begin);
    if (!range || !range->is_constant()) continue;
    const ValueId replacement = rewriter.constant_before(op, Type::i1(), *range->unsigned_constant());
    replacement_of[o.result_begin] = replacement;
    rewriter.transfer_name(o.result_begin, replacement);
    rewriter.erase(op);
    ++folded;
  }
  (void)rewriter.replace_all_uses(replacement_of);
  return folded;
}

}  // namespace kildall::ir
