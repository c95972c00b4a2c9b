#pragma once
/// \file
/// Sparse conditional constant propagation (Wegman & Zadeck, "Constant
/// Propagation with Conditional Branches", TOPLAS 1991) on a reference-IR
/// function, as a `SparseBranchProblem` for kildall's generic sparse solver
/// (`kildall/solver/sparse.hpp`) over the function's shape
/// (`ir::FunctionShape`). The lattice is `Flat<std::uint64_t>` (Kildall 1973): a value is
/// uninitialized (its block is not executable, or its operands are not known
/// yet), one constant bit pattern, or overdefined (top). Ops are folded with
/// the interpreter's exact semantics (`arith.hpp`, or a dialect's `eval`
/// hook), so undefined cases (division by zero, ...) never fold. A `cf.cond_br`
/// on a constant makes only one edge executable.
///
/// Like MLIR's SCCP, which calls each op's folder with the operands it knows,
/// the transfer also applies the `arith` identities that decide a result from
/// partly unknown operands: `x - x = x ^ x = 0`, `x * 0 = x & 0 = 0`,
/// `x | ~0 = ~0`, `x % 1 = 0`, saturating min/max, `cmpi <pred>, x, x`,
/// `x & ~x = 0`, `x | ~x = ~0`, `select(a == b, a, b) = b`
/// (`fold_binary_identity`), and the ones that look through an operand's
/// defining op, `(a + b) - b = a`, `(a - b) + b = a`, `(x ^ a) ^ a = x`
/// (`forwarded_value`: the problem names `a` as an extra operand of the
/// result, so the result reads, and follows, `a`'s state). All hold for every value of the unknown
/// operands, so the lattice stays `Flat` and the transfer stays monotone.
///
/// `apply_sccp` then rewrites: every value found constant in an executable
/// block is replaced by an `arith.constant` (taking over the value's name), the
/// pure op that computed it is erased (a single-result op is turned into the
/// constant in place, which prints the same), and constant `cf.cond_br`s become
/// `cf.br`. Blocks found dead are left in place (as MLIR's SCCP does).

#include <algorithm>
#include <concepts>
#include <type_traits>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <kildall/ir/analysis/call_context.hpp>
#include <kildall/ir/analysis/constant_replacement.hpp>
#include <kildall/ir/arith.hpp>
#include <kildall/ir/function_shape.hpp>
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

/// The value op `op`'s result always equals by an identity that looks through the op defining
/// one of its operands (MLIR's `addi`/`subi`/`xori` folders): `(a + b) - b = a`,
/// `(a + b) - a = b`, `(a - b) + b = b + (a - b) = a`, `(x ^ a) ^ a = x` (either operand
/// order); `no_index` when there is none.
[[nodiscard]] inline ValueId forwarded_value(const Function& fn, OpId op) {
  const OpData& o = fn.ops[op];
  if (o.erased || o.result_count != 1 || o.operand_count != 2) return no_index;
  const auto defined_by = [&](ValueId v, BuiltinOp kind) -> std::span<const ValueId> {
    const ValueData& data = fn.values[v];
    if (data.is_block_argument || !is(fn.ops[data.owner].code, kind)) return {};
    return fn.operands_of(data.owner);
  };
  const auto ids = fn.operands_of(op);
  ValueId found = no_index;
  if (is(o.code, BuiltinOp::subi)) {
    if (const auto add = defined_by(ids[0], BuiltinOp::addi); !add.empty()) {
      if (ids[1] == add[1]) found = add[0];
      else if (ids[1] == add[0]) found = add[1];
    }
  } else if (is(o.code, BuiltinOp::addi)) {
    if (const auto sub = defined_by(ids[0], BuiltinOp::subi); !sub.empty() && ids[1] == sub[1]) found = sub[0];
    else if (const auto sub2 = defined_by(ids[1], BuiltinOp::subi); !sub2.empty() && ids[0] == sub2[1])
      found = sub2[0];
  } else if (is(o.code, BuiltinOp::xori)) {
    for (std::size_t side = 0; side < 2 && found == no_index; ++side) {
      const auto inner = defined_by(ids[side], BuiltinOp::xori);
      if (inner.empty()) continue;
      const ValueId other = ids[1 - side];
      if (other == inner[1]) found = inner[0];
      else if (other == inner[0]) found = inner[1];
    }
  }
  return found;
}

/// The SCCP problem of one function (models `kildall::SparseBranchProblem` over `FunctionShape`).
class SccpProblem {
 public:
  /// The lattice.
  using lattice_type = ConstantState;

  /// SCCP of the function of `shape`, whose ops are defined in `registry`; with a `context`, its
  /// arguments and the results of its calls are the module's summaries (interprocedural.hpp).
  /// All three must outlive the problem.
  SccpProblem(const FunctionShape& shape, const OpRegistry& registry,
              const CallContext<ConstantState>* context = nullptr)
      : shape_(&shape), fn_(&shape.function()), registry_(&registry), context_(context) {}

  /// Function arguments are unknown, or what the calls pass (with a context).
  [[nodiscard]] ConstantState boundary(ValueId v) const {
    if (context_ != nullptr)
      if (const SummaryState<ConstantState>* s = context_->argument(*fn_, v)) return s->value_or(ConstantState::bottom());
    return ConstantState::top();
  }

  /// The value op result `v` always equals by a look-through identity (`forwarded_value` of its
  /// op), read after its operands; none for other values. Found when asked (the solve asks once
  /// per value, while it reads the op's operands anyway), so the problem keeps no table.
  [[nodiscard]] auto extra_operands(ValueId v) const {
    const ValueData& value = fn_->values[v];
    const ValueId found = value.is_block_argument ? no_index : forwarded_value(*fn_, value.owner);
    return std::views::single(found) | std::views::take(found == no_index ? 0 : 1);
  }

  /// An edge of a `cf.cond_br` is executable when the condition may take its side.
  /// (The terminator, which says the arm, is read only for a condition that decides it: a
  /// condition that may be either takes both edges of any branch.)
  [[nodiscard]] bool edge_executable(const CfgEdge& e, OperandStates<ConstantState> branch) const {
    if (branch.empty()) return true;  // (without reading the terminator)
    const ConstantState& condition = branch[0];
    const std::uint64_t* c = condition.if_constant();
    if (c == nullptr && !condition.is_bottom()) return true;
    const auto arm = shape_->cond_branch_arm(e);
    if (!arm) return true;
    return c != nullptr && (*c != 0) == (*arm == 0);
  }

  /// The constant state of result `v` from its op's operand states, by its op's record
  /// (op_definition.hpp): `eval` when every operand is constant, else the `fold` of the
  /// known ones, else the join of the operands an `arith.select`-like op chooses among. When
  /// `v` has an extra operand (`extra_operands`), the state of the value `v` always equals
  /// comes last and is the answer of last resort.
  [[nodiscard, gnu::always_inline]] ConstantState transfer(ValueId v, OperandStates<ConstantState> operands) const {
    const Function& fn = *fn_;
    const ValueData& value = fn.values[v];
    if (value.is_block_argument) return ConstantState::top();  // a loop's induction variable (FunctionShape)
    const OpId op = value.owner;
    const OpData& o = fn.ops[op];
    const OpDefinition& def = registry_->op(o.code);
    if (context_ != nullptr)  // a call to a function of the module: what it returns
      if (std::optional<ConstantState> s = context_->call_result(fn, v, operands, ConstantState::bottom())) return *s;
    if (!def.eval || def.terminator) return ConstantState::top();  // opaque: calls, ops without semantics
    // The op's own operands (a trailing extra one is the forwarded value's state).
    const std::size_t count = std::min<std::size_t>(operands.size(), fn.regular_operand_count(op));
    if (count > inline_scratch || o.result_count > inline_scratch) [[unlikely]]
      return transfer_of_wide_op(value, def, count, operands);
    // Operand and result bits on the stack (written before read: not zeroed).
    std::array<const std::uint64_t*, inline_scratch> known;
    std::array<std::uint64_t, inline_scratch> bits, results;
    return transfer_with(value, def, operands, std::span(known.data(), count), std::span(bits.data(), count),
                         std::span(results.data(), o.result_count));
  }

 private:
  /// Operands and results an op may have for `transfer` to keep its scratch on the stack.
  static constexpr std::size_t inline_scratch = 8;

  /// `transfer` of an op with more operands or results than `inline_scratch`: scratch on the heap.
  [[gnu::noinline]] ConstantState transfer_of_wide_op(const ValueData& value, const OpDefinition& def,
                                                      std::size_t count, OperandStates<ConstantState> operands) const {
    std::vector<const std::uint64_t*> known(count);
    std::vector<std::uint64_t> bits(count), results(fn_->ops[value.owner].result_count);
    return transfer_with(value, def, operands, known, bits, results);
  }

  /// `transfer` of op result `value`, defined by `def`, given scratch for its own operands'
  /// known bits (`known`, `bits`: one per operand the op reads) and its results' bits.
  [[nodiscard, gnu::always_inline]] ConstantState transfer_with(const ValueData& value, const OpDefinition& def,
                                            OperandStates<ConstantState> operands,
                                            std::span<const std::uint64_t*> known, std::span<std::uint64_t> bits,
                                            std::span<std::uint64_t> results) const {
    const Function& fn = *fn_;
    const OpId op = value.owner;
    const std::size_t count = known.size();
    bool all_constant = true, any_bottom = false;
    for (std::size_t i = 0; i < count; ++i) {
      known[i] = operands[i].if_constant();
      all_constant = all_constant && known[i] != nullptr;
      any_bottom = any_bottom || operands[i].is_bottom();
    }
    if (all_constant) {
      for (std::size_t i = 0; i < count; ++i) bits[i] = *known[i];
      if (!def.eval(fn, op, bits, results).ok) return ConstantState::top();  // undefined: no constant
      return ConstantState::of(results[value.position]);
    }
    if (def.fold && results.size() == 1) {
      if (const std::optional<Folded> folded = def.fold(fn, op, known)) {
        if (folded->kind == Folded::Kind::constant) return ConstantState::of(folded->bits);
        return operands[folded->operand];
      }
    }
    if (any_bottom) return ConstantState::bottom();
    if (def.selects_from != 0 && def.selects_from < count) {
      ConstantState joined = operands[def.selects_from];
      for (std::size_t i = def.selects_from + 1; i < count; ++i) (void)joined.join(operands[i]);
      return joined;
    }
    if (operands.size() == count + 1) return operands[count];  // e.g. (a + b) - b: the state of a
    return ConstantState::top();
  }

  const FunctionShape* shape_;
  const Function* fn_;
  const OpRegistry* registry_;
  const CallContext<ConstantState>* context_;  // null: per function
};

/// The SCCP result of one function: per-value states and executable blocks.
class SccpAnalysis {
 public:
  /// The solver result type.
  using Result = SparseResult<FunctionShape, ConstantState>;

  /// Runs SCCP on `fn` (ops from `registry`), per function: arguments and call results
  /// unknown; `observer` sees every solver visit.
  template <class Observer = NoObserver>
    requires(!std::same_as<std::remove_cvref_t<Observer>, CallContext<ConstantState>>)
  SccpAnalysis(const Function& fn, const OpRegistry& registry, const SolverOptions& options = {},
               Observer&& observer = Observer{})
      : fn_(&fn), registry_(&registry), shape_(std::make_unique<FunctionShape>(fn, registry)), problem_(std::make_unique<SccpProblem>(*shape_, registry)),
        result_(solve_sparse(*shape_, *problem_, options, std::forward<Observer>(observer))) {}

  /// Runs SCCP on `fn` as one function of its module: its arguments and call results are
  /// `context`'s (interprocedural.hpp), which must outlive the construction.
  template <class Observer = NoObserver>
  SccpAnalysis(const Function& fn, const OpRegistry& registry, const SolverOptions& options,
               const CallContext<ConstantState>& context, Observer&& observer = Observer{})
      : fn_(&fn), registry_(&registry), shape_(std::make_unique<FunctionShape>(fn, registry)),
        problem_(std::make_unique<SccpProblem>(*shape_, registry, &context)),
        result_(solve_sparse(*shape_, *problem_, options, std::forward<Observer>(observer))) {}

  /// The lattice.
  using lattice_type = ConstantState;

  /// The state of `v`, or nullptr when uninitialized.
  [[nodiscard]] const ConstantState* lookup(ValueId v) const { return result_.lookup(v); }
  /// The constant bits of `v`, if it is a constant.
  [[nodiscard]] std::optional<std::uint64_t> constant(ValueId v) const {
    const ConstantState* s = lookup(v);
    if (!s || !s->is_constant()) return std::nullopt;
    return s->constant();
  }
  /// Whether `b` was found executable.
  [[nodiscard]] bool executable(BlockId b) const { return result_.block_reached(b); }
  /// The solver's result (status, statistics, visits).
  [[nodiscard]] const Result& result() const { return result_; }
  /// The function analysed.
  [[nodiscard]] const Function& function() const { return *fn_; }
  /// The op table the analysis read.
  [[nodiscard]] const OpRegistry& registry() const { return *registry_; }
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
  const OpRegistry* registry_;
  std::unique_ptr<FunctionShape> shape_;  // stable addresses: the result points at the shape
  std::unique_ptr<SccpProblem> problem_;
  Result result_;
};

/// What `apply_sccp` changed.
struct SccpRewriteStats {
  std::size_t values_replaced = 0;    ///< Values replaced by constants.
  std::size_t ops_erased = 0;         ///< Ops erased after their results were replaced (or turned into the constant).
  std::size_t branches_folded = 0;    ///< `cf.cond_br` turned into `cf.br`.
};

/// Rewrites `fn` with the facts of `analysis` (which must be of `fn`, unchanged since):
/// constant `cf.cond_br`s become `cf.br`, then `replace_with_constants`.
inline SccpRewriteStats apply_sccp(Function& fn, const SccpAnalysis& analysis) {
  SccpRewriteStats stats;
  Rewriter rewriter(fn);
  const auto executable = [&analysis](BlockId b) { return analysis.executable(b); };
  const auto constant = [&analysis](ValueId v) { return analysis.constant(v); };
  // Count what the rewrite adds, so that each array of the function grows once, exactly.
  {
    std::size_t new_ops = 0, new_operands = 0, new_successors = 0;
    for (BlockId b = 0; b < fn.blocks.size(); ++b) {
      if (!analysis.executable(b)) continue;
      const OpId op = fn.terminator(b);
      if (op != no_index && is(fn.ops[op].code, BuiltinOp::cond_br) && analysis.constant(fn.operands_of(op)[0])) {
        ++new_ops;
        ++new_successors;
        new_operands += fn.ops[op].operand_count;
      }
    }
    const std::size_t new_names = detail::constant_additions(fn, analysis.registry(), executable, constant);
    // Every new constant but the branches' is named, e.g. `c-1234_i32` (16 bytes covers most).
    rewriter.reserve(new_ops + new_names, new_names, new_operands, new_successors, 16 * new_names);
  }
  // Branches first, while every operand is still a value the analysis knows.
  for (BlockId b = 0; b < fn.blocks.size(); ++b) {
    const OpId op = fn.terminator(b);
    if (op == no_index || !analysis.executable(b) || !is(fn.ops[op].code, BuiltinOp::cond_br)) continue;
    if (const auto c = analysis.constant(fn.operands_of(op)[0])) {
      rewriter.replace_with_branch(op, *c ? 0 : 1);
      ++stats.branches_folded;
    }
  }
  const ConstantReplacementStats replaced = replace_with_constants(fn, analysis.registry(), executable, constant);
  stats.values_replaced = replaced.values_replaced;
  stats.ops_erased = replaced.ops_erased;
  return stats;
}

}  // namespace kildall::ir
