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
/// each op result costs one O(log n) update, so memory at the fixpoint grows
/// with what the blocks define, not with blocks x values, and joins at merge
/// points skip the subtrees both sides share.
///
/// On SSA programs the dense and the sparse solutions of a finite-height
/// problem coincide (a value is defined once, in a block that dominates its
/// uses, so every path carries the same state of it); `test_ir_analysis_dense_values`
/// checks that on generated programs. With widening they may differ, since
/// the two solvers widen at different points (loop heads vs. def-use cycles).

#include <cstddef>
#include <cstdint>
#include <memory>
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
template <class Sparse>
  requires SparseProblem<Sparse, FunctionShape>
class DenseValues {
 public:
  /// The sparse problem's lattice.
  using state_type = lattice_t<Sparse>;
  /// What the environment stores per value: the state, lifted when it has no bottom
  /// of its own (an absent value is "not computed on any path to here").
  using value_lattice = std::conditional_t<HasBottom<state_type>, state_type, Lifted<state_type>>;
  /// The dense lattice: value -> state, absent = not computed.
  using lattice_type = Environment<ValueId, value_lattice>;

  /// The dense form of `sparse` over `shape` (both must outlive it).
  DenseValues(const FunctionShape& shape, const Sparse& sparse) : shape_(&shape), sparse_(&sparse) {}

  /// The entry block's arguments at the sparse problem's boundary.
  [[nodiscard]] lattice_type boundary(BlockId entry) const {
    lattice_type env;
    for (const ValueId a : shape_->block_arguments(entry)) env.set(a, lift(sparse_->boundary(a)));
    return env;
  }

  /// Every op result of `b` in order, by the sparse transfer from the operands' states in `in`
  /// (a result whose operands are not all computed stays absent, SCCP's rule).
  [[nodiscard]] lattice_type transfer(BlockId b, const lattice_type& in) const {
    lattice_type env = in;
    for (const ValueId v : shape_->block_values(b)) {
      scratch_.clear();
      bool all = true;
      for (const ValueId x : shape_->operands(v)) all = gather(env, x) && all;
      if constexpr (kildall::detail::HasExtraOperands<Sparse, ValueId>) {
        for (const ValueId x : sparse_->extra_operands(v)) all = gather(env, x) && all;
      }
      if (!all && !kildall::detail::visit_with_uninitialized_operands<Sparse>()) continue;
      const OperandStates<state_type> operands{std::span<const state_type* const>(scratch_)};
      env.set(v, lift(static_cast<state_type>(sparse_->transfer(v, operands))));
    }
    return env;
  }

  /// The sparse problem's decision, from the branch operands' states at the end of the source;
  /// an edge whose branch operands are not all computed is not (yet) executable.
  [[nodiscard]] bool edge_executable(const CfgEdge& e, const lattice_type& from) const {
    if constexpr (SparseBranchProblem<Sparse, FunctionShape>) {
      scratch_.clear();
      for (const ValueId x : shape_->branch_operands(e.source)) {
        if (!gather(from, x)) return false;
      }
      return sparse_->edge_executable(e, OperandStates<state_type>{std::span<const state_type* const>(scratch_)});
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
      if (const value_lattice* s = from.find(forwarded[i])) {
        env.set(a, *s);
      } else {
        env.erase(a);
      }
      ++i;
    }
    return env;
  }

  /// The state of `v` in `env`, or nullptr when absent.
  [[nodiscard]] static const state_type* state_in(const lattice_type& env, ValueId v) {
    const value_lattice* s = env.find(v);
    if (s == nullptr) return nullptr;
    if constexpr (std::is_same_v<value_lattice, state_type>) {
      return s;
    } else {
      return s->if_value();
    }
  }

 private:
  [[nodiscard]] static value_lattice lift(state_type s) {
    if constexpr (std::is_same_v<value_lattice, state_type>) {
      return s;
    } else {
      return value_lattice::of(std::move(s));
    }
  }

  /// Appends the state of `x` in `env` to the scratch operands; false when absent.
  bool gather(const lattice_type& env, ValueId x) const {
    const state_type* s = state_in(env, x);
    scratch_.push_back(s);
    return s != nullptr;
  }

  const FunctionShape* shape_;
  const Sparse* sparse_;
  mutable std::vector<const state_type*> scratch_;  // one solve at a time per problem object
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

  /// The state of `v` where its block defines it (after the block for op results, before it
  /// for block arguments), or nullptr when never computed.
  [[nodiscard]] const lattice_t<Sparse>* lookup(ValueId v) const {
    const Function& fn = shape_->function();
    const ValueData& data = fn.values[v];
    const BlockId b = data.is_block_argument ? data.owner : fn.ops[data.owner].block;
    const auto* env = data.is_block_argument ? result_.before(b) : result_.after(b);
    return env == nullptr ? nullptr : Problem::state_in(*env, v);
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
