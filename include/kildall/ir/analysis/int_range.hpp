#pragma once
/// \file
/// Integer range analysis on a reference-IR function, after MLIR's
/// `IntegerRangeAnalysis` (the RFC "Range analysis when evaluating/lowering
/// affine maps"): every integer-like SSA value gets an `Interval` (signed and
/// unsigned bounds of the same bits, kildall/lattice/interval.hpp), computed
/// by kildall's generic sparse solver with the reusable transfer functions of
/// kildall/lattice/interval_transfer.hpp. Loops terminate by the solver's
/// widening at its widening points (the block arguments a back edge passes
/// to, as the solver sweeps the function in program order); edges of a
/// `cf.cond_br` whose condition the ranges decide are not executable, so
/// ranges flow only along feasible paths (MLIR pairs the analysis with its
/// dead-code analysis for the same effect).
///
/// Every op's transfer is its record's `infer_ranges` hook (op_definition.hpp:
/// the built-ins' in builtin_ops.hpp, a dialect's own), the counterpart of
/// MLIR's `InferIntRangeInterface`; an op without one gets the full range of
/// its result type. A dialect type's bit width is the one it was registered
/// with (`OpRegistry::add_type`, default 64).
///
/// `apply_int_range_optimizations` is MLIR's `int-range-optimizations`: each
/// integer value whose range is a single constant (a decided `arith.cmpi`, an
/// `addi` of bounded operands, a block argument) is replaced by an
/// `arith.constant` (`replace_with_constants`, constant_replacement.hpp); then,
/// as MLIR's pass runs its patterns through the greedy rewrite driver, the
/// driver runs on the function (`fold_greedily`, canonicalize.hpp): ops
/// folded, the ops left dead erased, control flow simplified, constants
/// uniqued at the entry.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <kildall/ir/analysis/call_context.hpp>
#include <kildall/ir/analysis/constant_replacement.hpp>
#include <kildall/ir/canonicalize.hpp>
#include <kildall/ir/function_shape.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/rewriter.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/solver/observer.hpp>
#include <kildall/solver/options.hpp>
#include <kildall/solver/sparse.hpp>

namespace kildall::ir {

/// The integer range problem of one function (models `kildall::SparseBranchProblem` over `FunctionShape`).
class IntRangeProblem {
 public:
  /// The lattice.
  using lattice_type = Interval;

  /// Ranges of the function of `shape`, whose ops are defined in `registry` (the built-in ops
  /// only when null); with a `context`, its arguments and the results of its calls are the
  /// module's summaries (interprocedural.hpp). All three must outlive the problem.
  explicit IntRangeProblem(const FunctionShape& shape, const OpRegistry* registry = nullptr,
                           const CallContext<Interval>* context = nullptr)
      : shape_(&shape), fn_(&shape.function()), registry_(registry ? registry : &OpRegistry::builtins()),
        context_(context) {}

  /// The analysis width of `v`'s type (`OpRegistry::bit_width`).
  [[nodiscard]] unsigned width_of(ValueId v) const { return registry_->bit_width(fn_->values[v].type); }
  /// Function arguments may be anything, or are what the calls pass (with a context).
  [[nodiscard]] Interval boundary(ValueId v) const {
    if (context_ != nullptr)
      if (const SummaryState<Interval>* s = context_->argument(*fn_, v)) return s->value_or(Interval::empty(width_of(v)));
    return Interval::full(width_of(v));
  }

  /// An edge of a `cf.cond_br` is executable when the condition's range allows its side.
  /// (The terminator, which says the arm, is read only for a condition that decides it: a
  /// condition that may be either takes both edges of any branch.)
  [[nodiscard]] bool edge_executable(const CfgEdge& e, OperandStates<Interval> branch) const {
    if (branch.empty()) return true;  // (without reading the terminator)
    if (branch[0].contains(0) && branch[0].contains(1)) return true;
    const auto arm = shape_->cond_branch_arm(e);
    if (!arm) return true;
    return branch[0].contains(*arm == 0 ? 1 : 0);
  }

  /// The range of result `v` from its op's operand ranges: its record's `infer_ranges`
  /// (op_definition.hpp), or anything of its width for an op without one.
  [[nodiscard, gnu::always_inline]] Interval transfer(ValueId v, OperandStates<Interval> operand_states) const {
    const Function& fn = *fn_;
    if (fn.values[v].is_block_argument) {  // a loop's induction variable, from its bounds (FunctionShape)
      if (operand_states.size() != 3) return Interval::full(width_of(v));
      return infer_induction_variable(operand_states[0], operand_states[1], operand_states[2]);
    }
    if (context_ != nullptr)  // a call to a function of the module: what it returns
      if (std::optional<Interval> s = context_->call_result(fn, v, operand_states, Interval::empty(width_of(v)))) return *s;
    const OpId op = fn.values[v].owner;
    const OpCode code = fn.ops[op].code;
    const RangeHook* infer = code < registry_->op_count() ? &registry_->op(code).infer_ranges : nullptr;
    if (infer == nullptr || !*infer) return Interval::full(width_of(v));
    // The operands' intervals, copied into a span: on the stack for up to four (no heap
    // allocation per visit; the stack slots are constructed as copies, not first as empty
    // intervals), on the heap beyond.
    constexpr std::size_t inline_operands = 4;
    static_assert(std::is_trivially_destructible_v<Interval>);
    const std::size_t count = operand_states.size();
    if (count > inline_operands) [[unlikely]] return infer_wide(*infer, op, fn.values[v].position, operand_states);
    alignas(Interval) std::byte few[inline_operands * sizeof(Interval)];
    Interval* copied = reinterpret_cast<Interval*>(few);
    for (std::size_t i = 0; i < count; ++i) std::construct_at(copied + i, operand_states[i]);
    return (*infer)(fn, op, fn.values[v].position, std::span<const Interval>(std::launder(copied), count));
  }

 private:
  /// `transfer`'s `infer` of result `position` of `op` with more operands than fit on the stack.
  [[gnu::noinline]] Interval infer_wide(const RangeHook& infer, OpId op, std::uint32_t position,
                                        OperandStates<Interval> operand_states) const {
    std::vector<Interval> many;
    many.reserve(operand_states.size());
    for (std::size_t i = 0; i < operand_states.size(); ++i) many.push_back(operand_states[i]);
    return infer(*fn_, op, position, std::span<const Interval>(many));
  }

  const FunctionShape* shape_;
  const Function* fn_;
  const OpRegistry* registry_;
  const CallContext<Interval>* context_;  // null: per function
};

/// The integer range result of one function.
class IntRangeAnalysis {
 public:
  /// The solver result type.
  using Result = SparseResult<FunctionShape, Interval>;

  /// Runs the analysis on `fn`, whose ops are defined in `registry` (the built-in ops only
  /// when null); `observer` sees every visit.
  template <class Observer = NoObserver>
    requires(!std::same_as<std::remove_cvref_t<Observer>, CallContext<Interval>>)
  IntRangeAnalysis(const Function& fn, const OpRegistry* registry = nullptr, const SolverOptions& options = {},
                   Observer&& observer = Observer{})
      : fn_(&fn), shape_(std::make_unique<FunctionShape>(fn, registry ? *registry : OpRegistry::builtins())),
        registry_(registry ? registry : &OpRegistry::builtins()),
        problem_(std::make_unique<IntRangeProblem>(*shape_, registry)),
        result_(solve_sparse(*shape_, *problem_, options, std::forward<Observer>(observer))) {}

  /// Runs the analysis on `fn` as one function of its module: its arguments and call results
  /// are `context`'s (interprocedural.hpp), which must outlive the construction.
  template <class Observer = NoObserver>
  IntRangeAnalysis(const Function& fn, const OpRegistry& registry, const SolverOptions& options,
                   const CallContext<Interval>& context, Observer&& observer = Observer{})
      : fn_(&fn), shape_(std::make_unique<FunctionShape>(fn, registry)), registry_(&registry),
        problem_(std::make_unique<IntRangeProblem>(*shape_, &registry, &context)),
        result_(solve_sparse(*shape_, *problem_, options, std::forward<Observer>(observer))) {}

  /// The lattice.
  using lattice_type = Interval;

  /// The range of `v`, or nullptr when uninitialized (dead or never computed).
  [[nodiscard]] const Interval* lookup(ValueId v) const { return result_.lookup(v); }
  /// Whether `b` was found executable.
  [[nodiscard]] bool executable(BlockId b) const { return result_.block_reached(b); }
  /// The solver's result.
  [[nodiscard]] const Result& result() const { return result_; }
  /// The function analysed.
  [[nodiscard]] const Function& function() const { return *fn_; }
  /// The op table the analysis read.
  [[nodiscard]] const OpRegistry& registry() const { return *registry_; }
  /// The constant bits of `v` when its range is a single value.
  [[nodiscard]] std::optional<std::uint64_t> constant(ValueId v) const {
    const Interval* s = lookup(v);
    if (!s || !s->is_constant()) return std::nullopt;
    return s->unsigned_constant();
  }
  /// `[smin, smax] u[umin, umax]` or `uninitialized`: the `--dump-analysis=int-range` text.
  [[nodiscard]] std::string describe(ValueId v) const {
    const Interval* s = lookup(v);
    return s ? to_string(*s) : std::string("uninitialized");
  }

 private:
  const Function* fn_;
  std::unique_ptr<FunctionShape> shape_;  // stable addresses: the result points at the shape
  const OpRegistry* registry_;
  std::unique_ptr<IntRangeProblem> problem_;
  Result result_;
};

/// What `apply_int_range_optimizations` changed.
struct IntRangeRewriteStats {
  std::size_t values_replaced = 0;  ///< Values replaced by constants.
  std::size_t ops_erased = 0;       ///< Ops erased after their results were replaced (or turned into the constant).
  kildall::rewrite::RewriteResult cleanup;  ///< The greedy driver's run afterwards (`fold_greedily`).
  /// Whether the function changed.
  [[nodiscard]] bool changed() const { return values_replaced + ops_erased > 0 || cleanup.statistics.changed(); }
};

/// Replaces each used integer value of an executable block whose range `analysis` (of `fn`,
/// unchanged since) proves a single constant by an `arith.constant`, then runs the greedy driver
/// with folding and region simplification (`fold_greedily`), as MLIR's `int-range-optimizations`
/// does: the ops left dead are erased, what the constants decide is folded, unreachable blocks
/// go. `config` is the driver's (its iteration limit; `cleanup.converged()` says whether it was
/// reached).
inline IntRangeRewriteStats apply_int_range_optimizations(Function& fn, const IntRangeAnalysis& analysis,
                                                          const kildall::rewrite::GreedyConfig& config = {});

/// The first half of `apply_int_range_optimizations`: replaces each used integer value of an
/// executable block whose range `analysis` (of `fn`, unchanged since) proves a single constant
/// by an `arith.constant`, without the greedy run after it. For a caller that frees the analysis
/// before folding (`int-range-optimizations` over a module does: the analysis of a 1e6-op
/// function is larger than the fold's own state), then runs `fold_greedily(fn, registry)`.
inline ConstantReplacementStats replace_int_range_constants(Function& fn, const IntRangeAnalysis& analysis) {
  return replace_with_constants(
      fn, analysis.registry(), [&analysis](BlockId b) { return analysis.executable(b); },
      [&analysis](ValueId v) { return analysis.constant(v); });
}

inline IntRangeRewriteStats apply_int_range_optimizations(Function& fn, const IntRangeAnalysis& analysis,
                                                          const kildall::rewrite::GreedyConfig& config) {
  const ConstantReplacementStats replaced = replace_int_range_constants(fn, analysis);
  IntRangeRewriteStats stats;
  stats.values_replaced = replaced.values_replaced;
  stats.ops_erased = replaced.ops_erased;
  stats.cleanup = fold_greedily(fn, analysis.registry(), config);
  return stats;
}

}  // namespace kildall::ir
