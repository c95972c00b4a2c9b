#pragma once
/// \file
/// Sparse conditional constant propagation (Wegman & Zadeck, "Constant
/// Propagation with Conditional Branches", TOPLAS 1991) on a reference-IR
/// function, as a `SparseBranchProblem` for kildall's generic sparse solver
/// (`kildall/solver/sparse.hpp`) over the function's def-use view and CFG
/// view. The lattice is `Flat<std::uint64_t>` (Kildall 1973): a value is
/// uninitialized (its block is not executable, or its operands are not known
/// yet), one constant bit pattern, or overdefined (top). Ops are folded with
/// the interpreter's exact semantics (`arith.hpp`, or a dialect's `eval`
/// hook), so undefined cases (division by zero, ...) never fold. A `cf.cond_br`
/// on a constant makes only one edge executable.
///
/// `apply_sccp` then rewrites: every value found constant in an executable
/// block is replaced by an `arith.constant` (taking over the value's name), the
/// pure op that computed it is erased, and constant `cf.cond_br`s become
/// `cf.br`. Blocks found dead are left in place (as MLIR's SCCP does).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <kildall/ir/analysis/function_problem.hpp>
#include <kildall/ir/arith.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/rewriter.hpp>
#include <kildall/lattice/flat.hpp>
#include <kildall/solver/observer.hpp>
#include <kildall/solver/options.hpp>
#include <kildall/solver/sparse.hpp>

namespace kildall::ir {

/// The SCCP lattice: uninitialized is the solver's "no state"; bottom of
/// `Flat` is never produced; a constant is a zero-extended bit pattern; top is
/// overdefined.
using ConstantState = Flat<std::uint64_t>;

/// The SCCP problem of one function (models `kildall::SparseBranchProblem`).
class SccpProblem : public FunctionProblemBase {
 public:
  /// The lattice.
  using lattice_type = ConstantState;

  /// SCCP of `fn`, whose ops are defined in `registry`.
  SccpProblem(const Function& fn, const OpRegistry& registry) : FunctionProblemBase(fn), registry_(&registry) {}

  /// Function arguments are unknown.
  [[nodiscard]] ConstantState entry_argument_state(ValueId) const { return ConstantState::top(); }

  /// An edge of a `cf.cond_br` is executable when the condition may take its side.
  [[nodiscard]] bool edge_executable(const CfgEdge& e, OperandStates<ConstantState> branch) const {
    const auto arm = cond_branch_arm(e);
    if (!arm || branch.empty()) return true;
    const ConstantState& condition = branch[0];
    if (const std::uint64_t* c = condition.if_constant()) return (*c != 0) == (*arm == 0);
    return !condition.is_bottom();
  }

  /// The constant state of result `v` from its op's operand states.
  [[nodiscard]] ConstantState transfer(ValueId v, OperandStates<ConstantState> operands) const {
    const Function& fn = *fn_;
    const ValueData& value = fn.values[v];
    const OpId op = value.owner;
    const OpData& o = fn.ops[op];
    const OpCode code = o.code;
    if (is(code, BuiltinOp::constant)) return ConstantState::of(o.imm);
    if (is(code, BuiltinOp::call)) return ConstantState::top();
    if (is(code, BuiltinOp::select)) {
      const ConstantState& c = operands[0];
      if (const std::uint64_t* bit = c.if_constant()) return *bit ? operands[1] : operands[2];
      ConstantState joined = operands[1];
      (void)joined.join(operands[2]);
      return joined;
    }
    // Everything else folds only when every operand is a constant.
    std::vector<std::uint64_t> bits;
    bits.reserve(operands.size());
    for (std::size_t i = 0; i < operands.size(); ++i) {
      const std::uint64_t* c = operands[i].if_constant();
      if (!c) return operands[i].is_bottom() ? ConstantState::bottom() : ConstantState::top();
      bits.push_back(*c);
    }
    const auto operand_width = [&](std::size_t i) { return fn.values[fn.operands_of(op)[i]].type.width(); };
    if (is_binary_arith(code)) {
      const ArithResult r = evaluate_binary(code, value.type.width(), bits[0], bits[1]);
      return r.defined() ? ConstantState::of(r.value) : ConstantState::top();
    }
    if (is(code, BuiltinOp::cmpi))
      return ConstantState::of(
          evaluate_compare(static_cast<CmpIPredicate>(o.imm), bits[0], bits[1], operand_width(0)) ? 1 : 0);
    if (is_cast(code)) return ConstantState::of(evaluate_cast(code, operand_width(0), value.type.width(), bits[0]));
    const OpDefinition& def = registry_->op(code);
    if (!def.eval || def.terminator) return ConstantState::top();
    std::vector<std::uint64_t> results(o.result_count, 0);
    if (!def.eval(fn, op, bits, results).ok) return ConstantState::top();
    return ConstantState::of(results[value.position]);
  }

 private:
  const OpRegistry* registry_;
};

/// The SCCP result of one function: per-value states and executable blocks.
class SccpAnalysis {
 public:
  /// The solver result type.
  using Result = SparseResult<DefUseView, ConstantState, CfgView>;

  /// Runs SCCP on `fn` (ops from `registry`); `observer` sees every solver visit.
  template <class Observer = NoObserver>
  SccpAnalysis(const Function& fn, const OpRegistry& registry, const SolverOptions& options = {},
               Observer&& observer = Observer{})
      : fn_(&fn), graphs_(fn), problem_(fn, registry),
        result_(solve_sparse(*graphs_.values, *graphs_.cfg, CfgView::entry(), problem_, options,
                             std::forward<Observer>(observer))) {}

  /// The state of `v`, or nullptr when uninitialized.
  [[nodiscard]] const ConstantState* lookup(ValueId v) const { return result_.lookup(v); }
  /// The constant bits of `v`, if it is a constant.
  [[nodiscard]] std::optional<std::uint64_t> constant(ValueId v) const {
    const ConstantState* s = lookup(v);
    if (!s || !s->is_constant()) return std::nullopt;
    return s->constant();
  }
  /// Whether `b` was found executable.
  [[nodiscard]] bool executable(BlockId b) const { return result_.block_executable(b); }
  /// The solver's result (status, statistics, visits).
  [[nodiscard]] const Result& result() const { return result_; }
  /// The function analysed.
  [[nodiscard]] const Function& function() const { return *fn_; }
  /// `uninitialized`, `overdefined` or the signed decimal constant: the `--dump-analysis=sccp` text.
  [[nodiscard]] std::string describe(ValueId v) const {
    const ConstantState* s = lookup(v);
    if (!s || s->is_bottom()) return "uninitialized";
    if (s->is_top()) return "overdefined";
    const unsigned width = fn_->values[v].type.width();
    return width ? std::to_string(sign_extend(s->constant(), width)) : std::to_string(s->constant());
  }

 private:
  const Function* fn_;
  FunctionGraphs graphs_;
  SccpProblem problem_;
  Result result_;
};

/// What `apply_sccp` changed.
struct SccpRewriteStats {
  std::size_t values_replaced = 0;    ///< Values replaced by constants.
  std::size_t ops_erased = 0;         ///< Ops erased after their results were replaced.
  std::size_t branches_folded = 0;    ///< `cf.cond_br` turned into `cf.br`.
};

/// Rewrites `fn` with the facts of `analysis` (which must be of `fn`, unchanged since).
inline SccpRewriteStats apply_sccp(Function& fn, const SccpAnalysis& analysis) {
  SccpRewriteStats stats;
  Rewriter rewriter(fn);
  const std::size_t block_count = fn.blocks.size();
  const std::size_t op_count = fn.ops.size();
  // Branches first, while every operand is still a value the analysis knows.
  for (BlockId b = 0; b < block_count; ++b) {
    const OpId op = fn.terminator(b);
    if (op == no_index || !analysis.executable(b) || !is(fn.ops[op].code, BuiltinOp::cond_br)) continue;
    if (const auto c = analysis.constant(fn.operands_of(op)[0])) {
      rewriter.replace_with_branch(op, *c ? 0 : 1);
      ++stats.branches_folded;
    }
  }
  // Replacements are collected and applied in one pass over the operands at the end (one
  // `replace_all_uses` per value would make the rewrite quadratic in the function's size).
  const std::vector<std::uint32_t> uses = rewriter.use_counts();
  std::vector<ValueId> replacement_of(fn.values.size(), no_index);
  // Block arguments.
  for (BlockId b = 0; b < block_count; ++b) {
    if (!analysis.executable(b)) continue;
    for (std::uint32_t i = 0; i < fn.blocks[b].argument_count; ++i) {
      const ValueId arg = fn.argument(b, i);
      const auto c = analysis.constant(arg);
      if (!c || !fn.values[arg].type.is_integer_like()) continue;
      if (uses[arg] == 0) continue;
      const ValueId replacement = rewriter.constant_at_start(b, fn.values[arg].type, *c);
      replacement_of[arg] = replacement;
      rewriter.set_name(replacement, rewriter.constant_name(fn.values[arg].type, *c));
      ++stats.values_replaced;
    }
  }
  // Op results and branches (only the ops that existed before the rewrite).
  for (OpId op = 0; op < op_count; ++op) {
    const OpData o = fn.ops[op];
    if (o.erased || !analysis.executable(o.block)) continue;
    if (o.result_count == 0 || is(o.code, BuiltinOp::constant)) continue;
    bool all_replaced = true;
    for (std::uint32_t r = 0; r < o.result_count; ++r) {
      const ValueId v = o.result_begin + r;
      const auto c = analysis.constant(v);
      if (!c || !fn.values[v].type.is_integer_like()) {
        all_replaced = false;
        continue;
      }
      const ValueId replacement = rewriter.constant_before(op, fn.values[v].type, *c);
      replacement_of[v] = replacement;
      ++stats.values_replaced;
      if (o.result_count == 1 && !is(o.code, BuiltinOp::call)) {
        rewriter.transfer_name(v, replacement);
      } else {
        rewriter.set_name(replacement, rewriter.constant_name(fn.values[v].type, *c));
      }
    }
    if (all_replaced && !is(o.code, BuiltinOp::call)) {
      rewriter.erase(op);
      ++stats.ops_erased;
    }
  }
  (void)rewriter.replace_all_uses(replacement_of);
  return stats;
}

}  // namespace kildall::ir
