#pragma once
/// \file
/// `DenseValues<Sparse>`: a sparse analysis of a reference-IR function (SCCP,
/// integer ranges: anything modelling `SparseProblem` over `FunctionShape`)
/// run the *dense* way, as Kildall (POPL 1973) formulated dataflow: one
/// environment per block boundary, value -> state, by the dense solver over
/// the function's CFG. The semantics are the sparse problem's own free
/// transfer functions (`transfer`, `boundary`, `edge_executable`,
/// `extra_operands`); block arguments are parallel assignments on the CFG
/// edges (`transfer_edge`).
///
/// The environment is kildall's persistent `Environment` (a radix tree of 16-way nodes,
/// `kildall/lattice/environment.hpp`): a block's transfer copies it in O(1) and
/// the results it carries cost one O(log n) path copy, so memory at the fixpoint grows
/// with what the blocks define, not with blocks x values, and joins at merge
/// points skip the subtrees both sides share. It carries only the values read
/// outside the op sequence of their block and the block arguments, keyed by a
/// dense index of their own (`state_in` translates), so its trees hold about
/// half the values in full leaves.
///
/// On SSA programs the dense and the sparse solutions of a finite-height
/// problem coincide (a value is defined once, in a block that dominates its
/// uses, so every path carries the same state of it); `test_ir_analysis_dense_values`
/// checks that on generated programs. With widening they may differ, since
/// the two solvers widen at different points (loop heads vs. def-use cycles).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <kildall/ir/cfg_view.hpp>
#include <kildall/ir/function_shape.hpp>
#include <kildall/lattice/concepts.hpp>
#include <kildall/lattice/environment.hpp>
#include <kildall/lattice/lifted.hpp>
#include <kildall/solver/dense.hpp>
#include <kildall/solver/options.hpp>
#include <kildall/solver/sparse.hpp>

namespace kildall::ir {

/// The dense problem over `FunctionShape::cfg()` built from the sparse problem
/// `Sparse` (models `kildall::DenseProblem` with edge executability and edge transfer).
///
/// Environments carry only the values read outside the op sequence of their
/// block (by an op of another block, a branch condition, a forwarded operand:
/// about half the values of the generated programs) and block arguments. A
/// value used only by later ops of its own block never enters an environment:
/// the transfer keeps it in a scratch array, and `state_of` recomputes it from
/// the block's in-state. Dropping it changes no state that is carried, so the
/// dense and the sparse solutions still coincide.
template <class Sparse>
  requires SparseProblem<Sparse, FunctionShape>
class DenseValues {
 public:
  /// The sparse problem's lattice.
  using state_type = lattice_t<Sparse>;
  /// What the environment stores per value: the state, lifted when it has no bottom
  /// of its own (an absent value is "not computed on any path to here").
  using value_lattice = std::conditional_t<HasBottom<state_type>, state_type, Lifted<state_type>>;
  /// The dense lattice: carried value (by its key, see `state_in`) -> state, absent = not computed.
  using lattice_type = Environment<std::uint32_t, value_lattice>;

  /// The dense form of `sparse` over `shape` (both must outlive it); finds the values
  /// environments carry (O(values + operands)).
  DenseValues(const FunctionShape& shape, const Sparse& sparse) : shape_(&shape), sparse_(&sparse) {
    const Function& fn = shape.function();
    def_block_.resize(fn.values.size());
    slot_.assign(fn.values.size(), kArgument);
    result_count_.assign(shape.cfg().vertex_count(), 0);
    for (BlockId b = 0; b < shape.cfg().vertex_count(); ++b) {  // blocks, then continuations (cfg_view.hpp)
      for (const ValueId a : shape.block_arguments(b)) def_block_[a] = b;
      std::uint32_t i = 0;
      for (const ValueId v : shape.block_values(b)) {
        def_block_[v] = b;
        slot_[v] = i++;
      }
      result_count_[b] = i;
    }
    // A value read outside the op sequence of its block: by a later block, by a terminator.
    std::vector<bool> escapes(fn.values.size(), false);
    for (BlockId b = 0; b < shape.cfg().vertex_count(); ++b) {  // blocks, then continuations (cfg_view.hpp)
      for (const ValueId v : shape.block_values(b)) {
        for (const ValueId x : shape.operands(v))
          if (!defined_by_op_in(x, b)) escapes[x] = true;
        for (const ValueId x : extra_operands(v))
          if (!defined_by_op_in(x, b)) escapes[x] = true;
      }
      for (const ValueId x : shape.branch_operands(b)) escapes[x] = true;
      for (const CfgEdge& e : shape.cfg().successors(b))
        for (const ValueId x : shape.forwarded_operands(e)) escapes[x] = true;
    }
    // Carried values (and every block argument) get consecutive keys in value order.
    key_.assign(fn.values.size(), kNotCarried);
    std::uint32_t next = 0;
    for (ValueId v = 0; v < fn.values.size(); ++v) {
      if (escapes[v] || slot_[v] == kArgument) key_[v] = next++;
    }
  }

  /// The entry block's arguments at the sparse problem's boundary.
  [[nodiscard]] lattice_type boundary(BlockId entry) const {
    lattice_type env;
    for (const ValueId a : shape_->block_arguments(entry)) env.set(key_[a], lift(sparse_->boundary(a)));
    return env;
  }

  /// Every op result of `b` in order, by the sparse transfer from the operands' states (a
  /// result whose operands are not all computed stays absent, SCCP's rule); the out-state
  /// is `in` with the results that are read outside this op sequence.
  [[nodiscard]] lattice_type transfer(BlockId b, const lattice_type& in) const {
    evaluate(b, in, work_, no_index);
    lattice_type env = in;
    std::uint32_t i = 0;
    for (const ValueId v : shape_->block_values(b)) {
      if (work_.locals[i] && carried(v)) env.set(key_[v], lift(*work_.locals[i]));
      ++i;
    }
    return env;
  }

  /// The state of op result `v` of block `b` when `b` starts in `in` (the block's transfer
  /// replayed up to `v`), or nullopt when its operands are not all computed there.
  [[nodiscard]] std::optional<state_type> state_of(ValueId v, BlockId b, const lattice_type& in) const {
    if (!defined_by_op_in(v, b)) return std::nullopt;
    Workspace work;
    evaluate(b, in, work, v);
    return std::move(work.locals[slot_[v]]);
  }

  /// The sparse problem's decision, from the branch operands' states at the end of the source;
  /// an edge whose branch operands are not all computed is not (yet) executable.
  [[nodiscard]] bool edge_executable(const CfgEdge& e, const lattice_type& from) const {
    if constexpr (SparseBranchProblem<Sparse, FunctionShape>) {
      work_.operands.clear();
      for (const ValueId x : shape_->branch_operands(e.source)) {
        const state_type* s = state_in(from, x);
        if (s == nullptr) return false;
        work_.operands.push_back(s);
      }
      return sparse_->edge_executable(
          e, OperandStates<state_type>{std::span<const state_type* const>(work_.operands)});
    } else {
      (void)e;
      (void)from;
      return true;
    }
  }

  /// The target's arguments take what `e` forwards (a parallel assignment: all read from `from`).
  [[nodiscard]] lattice_type transfer_edge(const CfgEdge& e, const lattice_type& from) const {
    lattice_type env = from;
    const auto forwarded = shape_->forwarded_operands(e);
    std::uint32_t i = 0;
    for (const ValueId a : shape_->block_arguments(e.target)) {
      if (i >= forwarded.size()) break;
      if (const value_lattice* s = from.find(key_[forwarded[i]])) {
        env.set(key_[a], *s);
      } else {
        env.erase(key_[a]);
      }
      ++i;
    }
    return env;
  }

  /// True when environments carry `v`: a block argument, or a result read by an op of
  /// another block, a branch condition or a forwarded operand.
  [[nodiscard]] bool carried(ValueId v) const { return key_[v] != kNotCarried; }
  /// The CFG vertex defining `v` (its block, or a continuation after an op owning regions).
  [[nodiscard]] BlockId defining_vertex(ValueId v) const { return def_block_[v]; }
  /// Whether the shape presents `v` as an argument of its vertex (a loop's induction variable is
  /// a value of its body, not an argument).
  [[nodiscard]] bool is_argument(ValueId v) const { return slot_[v] == kArgument; }

  /// The state of `v` in `env` (an environment of this problem: its keys are the carried
  /// values' own dense indices, not `ValueId`s), or nullptr when absent or not carried.
  [[nodiscard]] const state_type* state_in(const lattice_type& env, ValueId v) const {
    if (!carried(v)) return nullptr;
    const value_lattice* s = env.find(key_[v]);
    if (s == nullptr) return nullptr;
    if constexpr (std::is_same_v<value_lattice, state_type>) {
      return s;
    } else {
      return s->if_value();
    }
  }

 private:
  static constexpr std::uint32_t kArgument = ~std::uint32_t{0};
  static constexpr std::uint32_t kNotCarried = ~std::uint32_t{0};

  /// A block's evaluation: its results' states by position, the operand pointers of one op.
  struct Workspace {
    std::vector<std::optional<state_type>> locals;
    std::vector<const state_type*> operands;
  };

  [[nodiscard]] static value_lattice lift(state_type s) {
    if constexpr (std::is_same_v<value_lattice, state_type>) {
      return s;
    } else {
      return value_lattice::of(std::move(s));
    }
  }

  /// True when `v` is the result of an op of `b` (not one of its arguments).
  [[nodiscard]] bool defined_by_op_in(ValueId v, BlockId b) const { return def_block_[v] == b && slot_[v] != kArgument; }

  [[nodiscard]] auto extra_operands(ValueId v) const {
    if constexpr (kildall::detail::HasExtraOperands<Sparse, ValueId>) {
      return sparse_->extra_operands(v);
    } else {
      (void)v;
      return std::span<const ValueId>{};
    }
  }

  /// The states of `b`'s results in order into `work.locals`, from `in` (operands defined
  /// before `b`, `b`'s arguments) and the results before them; stops after `stop`.
  void evaluate(BlockId b, const lattice_type& in, Workspace& work, ValueId stop) const {
    work.locals.assign(result_count_[b], std::nullopt);
    const auto gather = [&](ValueId x) {
      const state_type* s = !defined_by_op_in(x, b) ? state_in(in, x)
                            : work.locals[slot_[x]] ? &*work.locals[slot_[x]]
                                                    : nullptr;
      work.operands.push_back(s);
      return s != nullptr;
    };
    std::uint32_t i = 0;
    for (const ValueId v : shape_->block_values(b)) {
      work.operands.clear();
      bool all = true;
      for (const ValueId x : shape_->operands(v)) all = gather(x) && all;
      for (const ValueId x : extra_operands(v)) all = gather(x) && all;
      if (all || kildall::detail::visit_with_uninitialized_operands<Sparse>()) {
        const OperandStates<state_type> operands{std::span<const state_type* const>(work.operands)};
        work.locals[i].emplace(static_cast<state_type>(sparse_->transfer(v, operands)));
      }
      if (v == stop) return;
      ++i;
    }
  }

  const FunctionShape* shape_;
  const Sparse* sparse_;
  BodyArray<BlockId> def_block_;     // the block defining each value
  BodyArray<std::uint32_t> slot_;    // an op result's position among its block's results (kArgument: an argument)
  BodyArray<std::uint32_t> result_count_;  // by vertex: how many values `block_values` gives
  BodyArray<std::uint32_t> key_;     // a carried value's key in the environments (kNotCarried: used in its block only)
  mutable Workspace work_;           // one solve at a time per problem object
};

/// The dense solution of sparse problem `Sparse` on a function: the shape, the problem and the
/// dense solver's result (one environment before and after each block).
template <class Sparse>
class DenseValueAnalysis {
 public:
  /// The dense problem.
  using Problem = DenseValues<Sparse>;
  /// The solver result.
  using Result = DenseResult<CfgView, typename Problem::lattice_type>;

  /// Solves `sparse`, a problem over `shape`, densely (both must outlive the analysis).
  DenseValueAnalysis(const FunctionShape& shape, const Sparse& sparse, const SolverOptions& options = {})
      : shape_(&shape), problem_(std::make_unique<Problem>(shape, sparse)),
        result_(solve_forward(shape.cfg(), FunctionShape::entries(), *problem_, options)) {}

  /// The state of `v` where its block defines it, or nullopt when never computed: a carried
  /// value's from the state before (a block argument) or after (an op result) its block, O(log n);
  /// another op result's by replaying its block's transfer from the state before it (O(results
  /// before it in the block)).
  [[nodiscard]] std::optional<lattice_t<Sparse>> lookup(ValueId v) const {
    const BlockId b = problem_->defining_vertex(v);
    const auto* before = result_.before(b);
    if (before == nullptr) return std::nullopt;
    if (!problem_->carried(v)) return problem_->state_of(v, b, *before);
    const lattice_t<Sparse>* s = problem_->state_in(problem_->is_argument(v) ? *before : *result_.after(b), v);
    return s == nullptr ? std::nullopt : std::optional<lattice_t<Sparse>>(*s);
  }
  /// Whether block `b` was reached.
  [[nodiscard]] bool reached(BlockId b) const { return result_.reached(b); }
  /// The dense solver's result.
  [[nodiscard]] const Result& result() const { return result_; }
  /// The shape.
  [[nodiscard]] const FunctionShape& shape() const { return *shape_; }
  /// The dense problem.
  [[nodiscard]] const Problem& problem() const { return *problem_; }

 private:
  const FunctionShape* shape_;
  std::unique_ptr<Problem> problem_;  // at a stable address: `problem()` references survive a move of the analysis
  Result result_;
};

}  // namespace kildall::ir
