#pragma once
/// \file
/// The sparse (SSA) fixed-point solver: one lattice state per SSA value,
/// computed by a user transfer from the states of the value's operands, with
/// joins only at block arguments (phi nodes) and executable-edge tracking built
/// in. This is Wegman & Zadeck's sparse conditional constant propagation
/// (TOPLAS 1991) generalized to any join-semilattice, as in MLIR's sparse
/// dataflow framework, but over any IR:
///
/// * the program's **shape** is an `SsaProgram` (`kildall/graph/ssa_program.hpp`),
///   written once per IR: values, the operands of the op defining each, blocks,
///   block arguments, the CFG, and what each branch passes to which argument.
///   The solver derives the def-use edges from it, including the ones from a
///   forwarded operand to the block argument it reaches.
/// * the **analysis** is a `SparseProblem`: a lattice, the transfer of an op's
///   result from its operands' states, the `boundary` state of the entry
///   block's arguments, and optionally which CFG edges a terminator can take
///   given its operands' states (`edge_executable`) and how a value is refined
///   along an edge (`transfer_edge`).
///
/// A value is visited only when its block is executable; a block becomes
/// executable when it is an entry or one of its in-edges is executable. A
/// block argument's state is the join of the values passed to it over the
/// *executable* incoming edges. Values in blocks never found executable end
/// *uninitialized* (`lookup` returns nullptr), never "bottom pretending to be
/// reached".
///
/// A program with no CFG (a pure DAG of values, e.g. a Boost.Graph of
/// arithmetic ops) is a def-use `AnalysisGraph` whose `in_edges(v)` list `v`'s
/// operands in order; every value is live.
///
/// Iteration: the shared fixpoint engine (`detail/fixpoint.hpp`): a priority
/// worklist over the weak topological order (default) or reverse post-order
/// of the def-use graph, so operands are visited before their users; widening
/// at the widening points of that order after `SolverOptions::widening_delay`
/// visits; an optional narrowing phase; a hard per-value visit cap.
///
/// A fresh solve over a shape whose numbering is forward (every op result's
/// operands have lower indices, as in an IR numbered in program order whose
/// blocks are listed in dominance order) sweeps instead, in the weak
/// topological order's stead: the values are visited in index order. Only a
/// block argument that a back edge passes a changed value to, and a block
/// that becomes executable behind the sweep, lie behind it: they are queued
/// and visited before it goes on, and when such a visit changes a state, the
/// sweep goes back to just after it and visits again only the values with an
/// operand changed since their own last visit (a stamp per value and per
/// edge). Such a solve derives no dependents and computes no order. This is
/// Bourdoncle's recursive iteration strategy (FMPA 1993) over the shape's
/// own order: the widening points are the arguments a back edge passes to,
/// and the widening delay counts the visits of one entry of the loop (the
/// sweep passing the argument on its way forward starts an entry). A sweep
/// that has gone back over more than `sweep_rescan_factor` times the values
/// (loops far from contiguous in the numbering) derives the dependents and
/// hands the rest to the worklist, so the cost stays linear. Without
/// widening the answer is the least fixpoint either way; with widening it
/// may differ from the worklist's in the weak topological order of the
/// def-use graph as any two widening orders may (the reference IR's analyses
/// print the same facts on the generated benchmark programs, see
/// docs/performance.md). A problem with `transfer_edge`, an incremental
/// re-solve, and reverse post-order with widening take the worklist.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/ssa_program.hpp>
#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>
#include <kildall/solver/detail/csr_graph.hpp>
#include <kildall/solver/detail/fixpoint.hpp>
#include <kildall/solver/detail/iteration_plan.hpp>
#include <kildall/support/large_array_allocator.hpp>
#include <kildall/solver/detail/roots.hpp>
#include <kildall/solver/detail/sparse_rows.hpp>
#include <kildall/solver/detail/ssa_arrays.hpp>
#include <kildall/solver/observer.hpp>
#include <kildall/solver/options.hpp>
#include <kildall/solver/problem.hpp>
#include <kildall/solver/ssa_program_index.hpp>
#include <kildall/solver/status.hpp>

namespace kildall {

// ---------------------------------------------------------------------------
// Operand states
// ---------------------------------------------------------------------------

/// The states of a value's operands, in operand order, as handed to a sparse
/// transfer. An operand may be uninitialized (its block not yet executable,
/// or its own operands not yet known); by default the solver only calls a
/// transfer when all operands are initialized (see `SparseProblem`).
template <class L>
class OperandStates {
 public:
  /// Wraps one pointer per operand; nullptr marks an uninitialized operand.
  explicit constexpr OperandStates(std::span<const L* const> states) noexcept : states_(states) {}

  /// Number of operands.
  [[nodiscard]] constexpr std::size_t size() const noexcept { return states_.size(); }
  /// Whether there are no operands.
  [[nodiscard]] constexpr bool empty() const noexcept { return states_.empty(); }
  /// Whether operand `i` has a state.
  [[nodiscard]] constexpr bool initialized(std::size_t i) const noexcept { return states_[i] != nullptr; }
  /// Whether every operand has a state.
  [[nodiscard]] constexpr bool all_initialized() const noexcept {
    for (const L* s : states_) {
      if (s == nullptr) return false;
    }
    return true;
  }
  /// The state of operand `i`. Precondition: `initialized(i)`.
  [[nodiscard]] constexpr const L& operator[](std::size_t i) const noexcept { return *states_[i]; }
  /// The state of operand `i`, or nullptr when uninitialized.
  [[nodiscard]] constexpr const L* get(std::size_t i) const noexcept { return states_[i]; }
  /// Iterates the operands as `const L*` (nullptr: uninitialized).
  [[nodiscard]] constexpr auto begin() const noexcept { return states_.begin(); }
  /// End of the operand iteration.
  [[nodiscard]] constexpr auto end() const noexcept { return states_.end(); }

 private:
  std::span<const L* const> states_;
};

// ---------------------------------------------------------------------------
// Programs and problem concepts
// ---------------------------------------------------------------------------

namespace detail {
/// Whether `Prog` is a def-use graph. A type with a `cfg()` member is meant as
/// a shape, and an `SsaProgramIndex` as a prepared shape; neither is tried as
/// a graph (the partial specialization keeps `AnalysisGraph` from being
/// instantiated for it), so a shape that misses a member fails with the
/// shape's concept, not inside Boost's `graph_traits`.
template <class T>
inline constexpr bool is_ssa_program_index = false;
template <class Prog>
inline constexpr bool is_ssa_program_index<SsaProgramIndex<Prog>> = true;

template <class Prog, bool = requires(const Prog& p) { p.cfg(); } || is_ssa_program_index<Prog>>
inline constexpr bool is_def_use_graph = false;
template <class Prog>
inline constexpr bool is_def_use_graph<Prog, false> = AnalysisGraph<Prog>;
}  // namespace detail

/// What the sparse solver runs over: an `SsaProgram` shape (values in the
/// blocks of a CFG), or a def-use `AnalysisGraph` (no CFG; `in_edges(v)` are
/// `v`'s operands in order).
template <class Prog>
concept SparseProgram = SsaProgram<Prog> || detail::is_def_use_graph<Prog>;

namespace detail {

/// How the solver reads a program: a shape (with a CFG) or a def-use graph.
template <class Prog>
struct ProgramTraits;

template <class Prog>
  requires SsaProgram<Prog>
struct ProgramTraits<Prog> {
  static constexpr bool has_cfg = true;
  using value_type = ssa_value_t<Prog>;
  using cfg_type = ssa_cfg_t<Prog>;
  using block_type = vertex_t<cfg_type>;
  static std::size_t index(const Prog& p, const value_type& v) { return kildall::value_index(p, v); }
  static std::size_t count(const Prog& p) { return static_cast<std::size_t>(p.value_count()); }
};

template <class Prog>
  requires(!SsaProgram<Prog> && SparseProgram<Prog>)
struct ProgramTraits<Prog> {
  static constexpr bool has_cfg = false;
  using value_type = vertex_t<Prog>;
  using cfg_type = void;
  using block_type = std::size_t;
  static std::size_t index(const Prog& g, const value_type& v) { return vertex_index(g, v); }
  static std::size_t count(const Prog& g) { return vertex_count(g); }
};

}  // namespace detail

/// The value handle of a sparse program (a shape's `value_type`, or a def-use graph's vertex).
template <SparseProgram Prog>
using program_value_t = typename detail::ProgramTraits<Prog>::value_type;

/// A sparse problem over program `Prog`:
///
/// ```
/// struct P {
///   using lattice_type = L;                            // a JoinSemiLattice
///   L transfer(Value v, OperandStates<L> operands) const;  // an op result from its operands
///   L boundary(Value argument) const;                 // with a CFG: the entry block's arguments
///   // optional:
///   bool edge_executable(CfgEdge e, OperandStates<L> branch_operands) const;
///   L transfer_edge(CfgEdge e, Value argument, const L& incoming, OperandStates<L> branch_operands) const;
///   range<Value> extra_operands(Value v) const;      // more values v's transfer reads
///   static constexpr bool visit_with_uninitialized_operands = true;
/// };
/// ```
///
/// `transfer` computes `v`'s state from its operands' states (ordered, not
/// joined; then the states of `extra_operands(v)`, if the problem has it). It
/// must be monotone. Unless the problem sets
/// `visit_with_uninitialized_operands`, it is only called once every operand
/// is initialized (SCCP's rule); values without operands (constants) are
/// computed once their block is executable. Block arguments are never
/// transferred: an entry block's arguments start at `boundary(argument)`,
/// and every argument joins what the executable in-edges of its block pass
/// to it.
///
/// `edge_executable(e, states)` decides, from the states of the branch
/// operands of `e`'s source block (the shape's `branch_operands`; it is asked
/// once they are all initialized), whether `e` can be taken: a `cond_br` on a
/// constant `true` enables only its first edge. It must be monotone (more
/// edges as states grow). Without it every out-edge of an executable block is
/// executable. `transfer_edge` refines the state a value carries along `e` to
/// `argument` (e.g. on the true edge of `x < 10`); it must be monotone in
/// `incoming`.
template <class P, class Prog>
concept SparseProblem =
    SparseProgram<Prog> && requires { typename lattice_t<P>; } && JoinSemiLattice<lattice_t<P>> &&
    requires(const P& p, const program_value_t<Prog>& v, OperandStates<lattice_t<P>> ops) {
      { p.transfer(v, ops) } -> std::convertible_to<lattice_t<P>>;
    } &&
    (!detail::ProgramTraits<Prog>::has_cfg || requires(const P& p, const program_value_t<Prog>& v) {
      { p.boundary(v) } -> std::convertible_to<lattice_t<P>>;
    });

/// A sparse problem that decides which CFG edges a terminator can take.
template <class P, class Prog>
concept SparseBranchProblem =
    SparseProblem<P, Prog> && SsaProgram<Prog> &&
    requires(const P& p, const edge_t<ssa_cfg_t<Prog>>& e, OperandStates<lattice_t<P>> ops) {
      { p.edge_executable(e, ops) } -> std::convertible_to<bool>;
    };

/// A sparse problem that refines values along CFG edges.
template <class P, class Prog>
concept SparseEdgeTransfer =
    SparseProblem<P, Prog> && SsaProgram<Prog> &&
    requires(const P& p, const edge_t<ssa_cfg_t<Prog>>& e, const ssa_value_t<Prog>& v, const lattice_t<P>& s,
             OperandStates<lattice_t<P>> ops) {
      { p.transfer_edge(e, v, s, ops) } -> std::convertible_to<lattice_t<P>>;
    };

namespace detail {

template <class P>
constexpr bool visit_with_uninitialized_operands() {
  if constexpr (requires { P::visit_with_uninitialized_operands; }) {
    return static_cast<bool>(P::visit_with_uninitialized_operands);
  } else {
    return false;
  }
}

/// Whether problem `P` reads more than the operands of a value.
template <class P, class V>
concept HasExtraOperands = requires(const P& p, const V& v) {
  { p.extra_operands(v) } -> RangeOf<V>;
};

/// The shape's derived arrays (an empty placeholder without a CFG).
template <class Prog, bool = ProgramTraits<Prog>::has_cfg>
struct ShapeArraysOf {
  struct type {};
};
template <class Prog>
struct ShapeArraysOf<Prog, true> {
  using type = SsaArrays<Prog>;
};

/// The prepared index of a shape (`void` without a CFG).
template <class Prog, bool = ProgramTraits<Prog>::has_cfg>
struct PreparedIndexOf {
  using type = void;
};
template <class Prog>
struct PreparedIndexOf<Prog, true> {
  using type = SsaProgramIndex<Prog>;
};

}  // namespace detail

// ---------------------------------------------------------------------------
// Result
// ---------------------------------------------------------------------------

/// The outcome of a sparse solve: one state per value (or "uninitialized"),
/// which blocks were reached, visit counts, statistics and the status. Holds
/// a pointer to the program, which must outlive it.
template <SparseProgram Prog, class L>
class SparseResult {
  using Traits = detail::ProgramTraits<Prog>;

 public:
  /// The value handle.
  using value_type = typename Traits::value_type;
  /// The block handle (`std::size_t` placeholder without a CFG).
  using block_type = typename Traits::block_type;
  /// The lattice.
  using lattice_type = L;

  /// The state of `v`, or nullptr when `v` was never computed (its block is
  /// unreachable, or its operands never became known).
  [[nodiscard]] const L* lookup(const value_type& v) const {
    const std::size_t i = Traits::index(*program_, v);
    return i < reached_.size() && reached_[i] ? &states_[i] : nullptr;
  }

  /// Whether `v` holds a state.
  [[nodiscard]] bool reached(const value_type& v) const { return lookup(v) != nullptr; }

  /// Whether block `b` was reached: it is an entry or an executable edge leads to it.
  template <class B>
    requires Traits::has_cfg && std::convertible_to<const B&, block_type>
  [[nodiscard]] bool block_reached(const B& b) const {
    const std::size_t i = vertex_index(program_->cfg(), static_cast<block_type>(b));
    return i < block_reached_.size() && block_reached_[i];
  }

  /// How many times `v`'s transfer (or join) was applied.
  [[nodiscard]] std::uint32_t visits(const value_type& v) const {
    const std::size_t i = Traits::index(*program_, v);
    return i < visits_.size() ? visits_[i] : 0;
  }

  /// Status of the solve.
  [[nodiscard]] SolveStatus status() const noexcept { return outcome_.status; }
  /// True when the states form a post-fixpoint.
  [[nodiscard]] bool converged() const noexcept { return outcome_.converged(); }
  /// Status plus the value that stopped the solve, if any.
  [[nodiscard]] const SolveOutcome<value_type>& outcome() const noexcept { return outcome_; }
  /// Counters of the solve.
  [[nodiscard]] const SolveStatistics& statistics() const noexcept { return stats_; }
  /// The program the result is about.
  [[nodiscard]] const Prog& program() const noexcept { return *program_; }
  /// The entry blocks the solve started from (empty without a CFG).
  [[nodiscard]] const std::vector<block_type>& roots() const noexcept { return roots_; }

 private:
  template <class, class, class>
  friend class detail::SparseEngine;

  const Prog* program_ = nullptr;
  std::vector<block_type> roots_;
  detail::LargeArray<L> states_;
  detail::FlagArray reached_;
  detail::FlagArray block_reached_;
  detail::LargeArray<std::uint32_t> visits_;
  SolveOutcome<value_type> outcome_;
  SolveStatistics stats_;
};

// ---------------------------------------------------------------------------
// Engine
// ---------------------------------------------------------------------------

namespace detail {

/// The sparse front end of the fixpoint engine. With a CFG it first derives,
/// from the shape, compact index arrays: each value's block and argument
/// position, its operands (unless the shape's own rows are read,
/// `SsaArrays::shares_operand_rows`), its dependents (users, and the arguments it is
/// forwarded to), each argument's incoming (edge, value) pairs, the CFG's
/// edges and each block's branch operands. Without a CFG it reads the
/// def-use graph directly.
template <class Prog, class P, class O>
class SparseEngine : public FixpointEngine<SparseEngine<Prog, P, O>, lattice_t<P>> {
  using Base = FixpointEngine<SparseEngine<Prog, P, O>, lattice_t<P>>;
  friend Base;
  using Traits = ProgramTraits<Prog>;

 public:
  static constexpr bool has_cfg = Traits::has_cfg;
  static constexpr bool has_branches = [] {
    if constexpr (has_cfg) {
      return SparseBranchProblem<P, Prog>;
    } else {
      return false;
    }
  }();
  static constexpr bool has_edge_transfer = [] {
    if constexpr (has_cfg) {
      return SparseEdgeTransfer<P, Prog>;
    } else {
      return false;
    }
  }();
  static constexpr bool wants_before = observer_enabled<O>;
  /// A sweep goes back over at most this many times the values (plus `sweep_rescan_slack`)
  /// before the worklist takes over.
  static constexpr std::size_t sweep_rescan_factor = 8;
  /// Rescans any sweep may make, whatever the program's size.
  static constexpr std::size_t sweep_rescan_slack = 4096;
  /// Stamps are renumbered when the clock passes this (a 32-bit clock; see `renumber_stamps`).
  static constexpr std::uint32_t default_stamp_limit = std::uint32_t{1} << 31;
  using L = lattice_t<P>;
  using Value = typename Traits::value_type;
  using Block = typename Traits::block_type;
  using Result = SparseResult<Prog, L>;
  static constexpr std::uint32_t none = no_position;

  /// The prepared index of the shape (`SsaProgramIndex`), or `void` without a CFG.
  using Prepared = typename PreparedIndexOf<Prog>::type;

  /// A solve of `problem` over `program`; with a CFG, `prepared` (optional)
  /// is the shape's index, derived once beforehand.
  /// `rescan_budget` and `stamp_limit` (tests only) replace the sweep's budget of rescans and
  /// the clock value at which its stamps are renumbered.
  SparseEngine(const Prog& program, const P& problem, const SolverOptions& options, O& observer,
               const Prepared* prepared = nullptr, std::optional<std::size_t> rescan_budget = std::nullopt,
               std::uint32_t stamp_limit = default_stamp_limit)
      : Base(options),
        prog_(program),
        p_(problem),
        obs_(observer),
        prepared_(prepared),
        rescan_budget_(rescan_budget),
        stamp_limit_(stamp_limit) {}

  /// A fresh solve from the program's entry blocks (or of every value without a CFG).
  Result run() {
    Result r;
    r_ = &r;
    r.program_ = &prog_;
    const std::size_t n = Traits::count(prog_);
    r.states_.assign(n, L{});
    r.reached_.assign(n, false);
    r.visits_.assign(n, 0);
    r.stats_.nodes = n;
    if constexpr (has_cfg) {
      if (!use_shape(r, /*may_sweep=*/true)) return r;
      prepare(r);
      for (const std::uint32_t b : s_->entry_indices) mark_executable(b);
    } else {
      prepare(r);
      // Every value is pending: rather than queueing them all, sweep the
      // order once; the worklist only holds values re-queued behind the sweep.
      this->sweep_all();
    }
    this->iterate();
    finish(r);
    return r;
  }

  /// Re-solves after a change, reusing `previous`: `changed_values` lists
  /// values whose transfer changed or that gained/lost operands,
  /// `changed_blocks` the targets of CFG edges added or removed. Everything
  /// that can depend on a change (dependent values, blocks after a changed
  /// branch, the values of such blocks) is reset and recomputed; the rest is
  /// kept and not visited.
  Result rerun(Result previous, const std::vector<Value>& changed_values, const std::vector<Block>& changed_blocks) {
    Result r = std::move(previous);
    r_ = &r;
    r.program_ = &prog_;
    r.outcome_ = {};
    r.stats_ = {};
    const std::size_t n = Traits::count(prog_);
    r.stats_.nodes = n;
    r.states_.resize(n);
    r.reached_.resize(n, false);
    r.visits_.assign(n, 0);
    detail::FlagArray was_reached_block = std::move(r.block_reached_);
    std::vector<std::size_t> seeds;
    for (const auto& v : changed_values) {
      const std::size_t vi = Traits::index(prog_, v);
      if (vi >= n) {
        r.outcome_.status = SolveStatus::invalid_input;
        return r;
      }
      seeds.push_back(vi);
    }
    if constexpr (has_cfg) {
      if (!use_shape(r, /*may_sweep=*/false)) return r;
      const auto& cfg = prog_.cfg();
      const std::size_t nb = s_->block_count;
      for (const auto& b : changed_blocks) {
        const std::size_t bi = vertex_index(cfg, b);
        if (bi >= nb) {
          r.outcome_.status = SolveStatus::invalid_input;
          return r;
        }
        seeds.push_back(n + bi);
      }
      prepare(r);
      // One closure over values [0, n) and blocks [n, n + nb).
      const std::vector<bool> affected = affected_closure(n + nb, seeds, [&](std::size_t i, auto&& touch) {
        if (i < n) {
          for (const std::uint32_t w : dependents_->targets(i)) touch(w);
          for (const auto& use : s_->branch_users(i)) {
            for (const std::uint32_t k : s_->out_edges_of(use.target)) touch(n + s_->edge_target[k]);
          }
        } else {
          const std::size_t b = i - n;
          for (const std::uint32_t v : s_->block_members.row(b)) touch(v);
          for (const std::uint32_t k : s_->out_edges_of(b)) touch(n + s_->edge_target[k]);
        }
      });
      reset_values(r, affected);
      was_reached_block.resize(nb, false);
      // Unaffected blocks keep their executability; their out-edges are re-decided
      // from their (final) branch operands. Affected blocks start over.
      for (std::size_t b = 0; b < nb; ++b) r.block_reached_[b] = was_reached_block[b] && !affected[n + b];
      for (std::size_t b = 0; b < nb; ++b) {
        if (r.block_reached_[b]) evaluate_out_edges(static_cast<std::uint32_t>(b), /*enqueue_targets=*/false);
      }
      for (const std::uint32_t b : s_->entry_indices) mark_executable(b);
      for (std::size_t pos = 0; pos < plan_->size(); ++pos) {
        if (affected[plan_->vertex_at(pos)]) enqueue_value(plan_->vertex_at(pos));
      }
    } else {
      (void)changed_blocks;
      prepare(r);
      const std::vector<bool> affected = affected_closure(n, seeds, [&](std::size_t i, auto&& touch) {
        for (const auto& e : out_edge_range(prog_, value_at(i))) touch(Traits::index(prog_, target(e, prog_)));
      });
      reset_values(r, affected);
      for (std::size_t pos = 0; pos < plan_->size(); ++pos) {
        if (affected[index_at(pos)]) this->enqueue(static_cast<std::uint32_t>(pos));
      }
    }
    this->iterate();
    finish(r);
    return r;
  }

 private:
  // --- what the engine asks of a front end -------------------------------

  [[nodiscard]] std::size_t index_at(std::size_t pos) const {
    if constexpr (has_cfg) {
      return plan_->vertex_at(pos);
    } else {
      return Traits::index(prog_, plan_->vertex_at(pos));
    }
  }
  void begin_narrowing() { narrowing_ = true; }
  void stopped_at(SolveStatus, std::size_t pos) {
    const std::size_t vi = index_at(pos);
    r_->outcome_.offending_node.emplace(value_at(vi));
    r_->outcome_.offending_index = vi;
  }

  /// Blocks that became executable: queue their values, decide their out-edges. (Called
  /// before every visit: the common case, nothing pending, stays inlined in the engine.)
  void drain() {
    if constexpr (has_cfg) {
      if (work_pending_) [[unlikely]] drain_pending();
    }
  }

  /// `drain`'s work: stamps renumbered when due; each block made executable has its values
  /// queued and its out-edges decided.
  [[gnu::noinline]] void drain_pending() {
    if (renumber_due_) renumber_stamps();
    while (!pending_blocks_.empty()) {
      const std::uint32_t b = pending_blocks_.back();
      pending_blocks_.pop_back();
      if constexpr (observer_enabled<O>) notify_reached(obs_, block_at(b));
      // (the block is executable now: no need to ask, as `enqueue_value` does; and a block
      // ahead of a sweep is left to it)
      const auto members = s_->block_members.row(b);
      const bool ahead = sweep_ && s_->members_in_order && !members.empty() && *members.begin() >= this->sweep_cursor();
      if (!ahead) {
        for (const std::uint32_t v : members) this->enqueue(plan_->position_of(v));
      }
      evaluate_out_edges(b, /*enqueue_targets=*/true);
    }
    work_pending_ = renumber_due_;
  }

  /// The candidate state of the value at `pos`; false when it cannot be computed yet. (Inlined
  /// into the engine's `visit`, as `propagate` is: see there.) `Fresh`: the sweep's first pass,
  /// which found the value's block executable (`dirty`).
  template <bool Fresh>
  [[gnu::always_inline]] bool compute(std::size_t pos, L& out) {
    const std::size_t vi = index_at(pos);
    if constexpr (has_cfg) {
      const std::uint32_t b = s_->block_of[vi];
      if (!Fresh && (b == none || !r_->block_reached_[b])) return false;
      if (Fresh || sweep_) visited_at_[vi] = clock_;
      if (s_->is_argument[vi]) return join_incoming(vi, b, out);
    }
    const Result& r = *r_;
    bool all = true;
    const auto state_of = [&](std::size_t oi) -> const L* {  // an operand's state, nullptr when none yet
      const bool init = r.reached_[oi];
      all = all && init;
      return init ? &r.states_[oi] : nullptr;
    };
    std::span<const L* const> states;
    if constexpr (has_cfg) {
      // A row's length is known: the scratch is written by index (a `push_back` per operand
      // checked the capacity each time).
      const auto row = s_->shape_operands(prog_, vi);
      const auto extra = extras_->of(vi);
      const std::size_t count = row.size() + extra.size();
      if (operand_scratch_.size() < count) operand_scratch_.resize(count);
      for (std::size_t i = 0; i < row.size(); ++i) operand_scratch_[i] = state_of(static_cast<std::size_t>(row[i]));
      for (std::size_t i = 0; i < extra.size(); ++i) operand_scratch_[row.size() + i] = state_of(extra[i].target);
      states = {operand_scratch_.data(), count};
    } else {
      operand_scratch_.clear();
      for (const auto& e : in_edge_range(prog_, plan_->vertex_at(pos)))
        operand_scratch_.push_back(state_of(Traits::index(prog_, source(e, prog_))));
      states = operand_scratch_;
    }
    if (!all && !visit_with_uninitialized_operands<P>()) return false;
    if constexpr (has_cfg) {
      out = static_cast<L>(p_.transfer(value_at(vi), OperandStates<L>(states)));
    } else {
      out = static_cast<L>(p_.transfer(plan_->vertex_at(pos), OperandStates<L>(states)));
    }
    return true;
  }

  Settled settle(const VisitInfo<L>& info) {
    if constexpr (observer_enabled<O>) {
      const L* after = info.non_monotone ? &this->candidate_ : &r_->states_[info.index];
      obs_.on_visit(VisitEvent<Value, L>{value_at(info.index), VisitPhase::ascending, info.visit, nullptr,
                                         info.before, after, info.widened, info.change});
    }
    if (info.non_monotone) return Settled::non_monotone;
    return is_changed(info.change) ? Settled::changed : Settled::unchanged;
  }

  [[gnu::always_inline]] void propagate(std::size_t pos) {
    const std::size_t vi = index_at(pos);
    if constexpr (has_cfg) {
      if (sweep_) {
        // The users of an op result lie after it (a forward numbering): the sweep passes them
        // next, or again from just after it when it lay behind. Only the arguments it is
        // forwarded to (over a back edge: behind it) must be named.
        changed_at_[vi] = tick();
        this->rewind(pos + 1);
        for (const std::uint32_t a : s_->forwarded_to.targets(vi)) enqueue_value(a);
      } else {
        for (const std::uint32_t w : dependents_->targets(vi)) enqueue_value(w);
      }
      if constexpr (has_branches) {
        for (const auto& use : s_->branch_users(vi)) {
          if (r_->block_reached_[use.target]) evaluate_out_edges(use.target, /*enqueue_targets=*/true);
        }
      }
    } else {
      for (const auto& e : out_edge_range(prog_, plan_->vertex_at(pos))) {
        this->enqueue(plan_->position_of(Traits::index(prog_, target(e, prog_))));
      }
    }
  }

  bool narrow(std::size_t pos, std::size_t vi, L& candidate) {
    Result& r = *r_;
    if constexpr (observer_enabled<O>) {
      obs_.on_visit(VisitEvent<Value, L>{value_at(vi), VisitPhase::narrowing, r.visits_[vi], nullptr, &r.states_[vi],
                                         &candidate, false, ChangeResult::changed});
    }
    (void)pos;
    std::swap(r.states_[vi], candidate);
    return true;
  }

  // --- the sweep (see the file comment) -----------------------------------

  /// Whether the value at `pos` must be visited by the sweep: its block is executable and it
  /// was never visited since, or something it reads changed after its last visit (an operand;
  /// for an argument, an incoming edge that became executable with a value over it, or the
  /// value passed over an executable one).
  [[nodiscard, gnu::always_inline]] bool dirty(std::size_t pos) const {
    if constexpr (has_cfg) {
      const std::size_t vi = index_at(pos);
      const std::uint32_t b = s_->block_of[vi];
      if (b == none || !r_->block_reached_[b]) return false;
      const std::uint32_t seen = visited_at_[vi];
      if (seen == 0) return true;
      if (s_->is_argument[vi]) {
        for (const std::uint32_t j : s_->incoming_of(vi, b)) {
          // (a value not yet computed passes nothing: its first state is a change too)
          const std::uint32_t live = edge_live_at_[s_->incoming_edge[j]];
          const std::uint32_t x = s_->incoming_value[j];
          if (live != 0 && r_->reached_[x] && (live > seen || changed_at_[x] > seen)) return true;
        }
        return false;
      }
      for (const auto& x : s_->shape_operands(prog_, vi)) {
        if (changed_at_[static_cast<std::size_t>(x)] > seen) return true;
      }
      for (const auto& e : extras_->of(vi)) {
        if (changed_at_[e.target] > seen) return true;
      }
      return false;
    } else {
      (void)pos;
      return true;
    }
  }

  /// The worklist takes over from the sweep: the dependents the sweep did without.
  void leave_sweep() {
    if constexpr (has_cfg) {
      if (dependents_ == nullptr) {  // the solve's own arrays, derived without them
        own_.derive_dependents(prog_);
        dependents_ = &own_.dependents;
      }
      sweep_ = false;
    }
  }

  /// The next stamp of the sweep's clock (past `stamp_limit_`, the stamps are renumbered
  /// before the next visit).
  std::uint32_t tick() noexcept {
    if (++clock_ >= stamp_limit_) [[unlikely]] {
      renumber_due_ = sweep_;
      work_pending_ = work_pending_ || sweep_;
    }
    return clock_;
  }

  /// Restarts the clock at 2, keeping what `dirty` answers: a value dirty now (or never
  /// visited) gets visit stamp 0, a clean one 2; every value that changed and every live edge
  /// gets stamp 1. Called between visits once the clock passes `stamp_limit_`, so that one
  /// visit's stamps (at most one per edge and one for the value) cannot wrap around.
  void renumber_stamps() {
    const std::size_t n = visited_at_.size();
    FlagArray dirty_now(n, false);
    for (std::size_t pos = 0; pos < plan_->size(); ++pos) dirty_now[index_at(pos)] = dirty(pos);
    for (std::size_t vi = 0; vi < n; ++vi) {
      visited_at_[vi] = visited_at_[vi] == 0 || dirty_now[vi] ? 0 : 2;
      if (changed_at_[vi] != 0) changed_at_[vi] = 1;
    }
    for (std::uint32_t& live : edge_live_at_) {
      if (live != 0) live = 1;
    }
    clock_ = 2;
    renumber_due_ = false;
  }

  // --- values and operands -----------------------------------------------

  /// The value handle with index `vi`.
  [[nodiscard]] Value value_at(std::size_t vi) const {
    if constexpr (has_cfg) {
      return s_->value_at(vi);
    } else {
      return plan_->vertex_at(plan_->position_of(vi));
    }
  }

  void enqueue_value(std::size_t vi) {
    if constexpr (has_cfg) {
      const std::uint32_t b = s_->block_of[vi];
      if (b == none || !r_->block_reached_[b]) return;
    }
    this->enqueue(plan_->position_of(vi));
  }

  // --- blocks and edges (with a CFG) ---------------------------------------

  [[nodiscard]] Block block_at(std::uint32_t b) const { return s_->block_at(b); }

  void mark_executable(std::uint32_t b) {
    if (r_->block_reached_[b]) return;
    r_->block_reached_[b] = true;
    pending_blocks_.push_back(b);
    work_pending_ = true;
  }

  /// Gathers the states of block `b`'s branch operands into `branch_scratch_`; false if one is uninitialized.
  bool gather_branch_operands(std::uint32_t b) {
    branch_scratch_.clear();
    for (const std::uint32_t x : s_->branch_operands.targets(b)) {
      if (!r_->reached_[x]) return false;
      branch_scratch_.push_back(&r_->states_[x]);
    }
    return true;
  }

  /// Marks `b`'s out-edges that its terminator can take live; makes their
  /// targets executable, or re-queues the targets' arguments (a new incoming
  /// edge) when they already were.
  void evaluate_out_edges(std::uint32_t b, bool enqueue_targets) {
    if constexpr (has_branches) {
      if (!gather_branch_operands(b)) return;
    }
    for (const std::uint32_t k : s_->out_edges_of(b)) {
      if (edge_live_at_[k] != 0) continue;
      if constexpr (has_branches) {
        if (!p_.edge_executable(s_->edges[k], OperandStates<L>(std::span<const L* const>(branch_scratch_)))) continue;
      }
      edge_live_at_[k] = tick();
      const std::uint32_t t = s_->edge_target[k];
      if (!r_->block_reached_[t]) {
        mark_executable(t);
      } else if (enqueue_targets) {
        for (const std::uint32_t a : s_->block_members.row(t)) {
          if (!s_->is_argument[a]) break;  // arguments come first
          enqueue_value(a);
        }
      }
    }
  }

  /// Whether edge `k` is executable now: cached while ascending (edges only
  /// ever become executable), decided afresh while narrowing (states go down).
  bool edge_executable_now(std::uint32_t k) {
    if constexpr (has_branches) {
      if (narrowing_) {
        const std::uint32_t s = s_->edge_source[k];
        if (!r_->block_reached_[s] || !gather_branch_operands(s)) return false;
        return p_.edge_executable(s_->edges[k], OperandStates<L>(std::span<const L* const>(branch_scratch_)));
      }
    }
    return edge_live_at_[k] != 0;
  }

  /// A block argument: its boundary (entry block) joined with what each executable in-edge passes.
  bool join_incoming(std::size_t vi, std::uint32_t b, L& out) {
    const Result& r = *r_;
    bool have = false;
    if (s_->is_entry[b]) {
      out = static_cast<L>(p_.boundary(value_at(vi)));
      have = true;
    }
    for (const std::uint32_t j : s_->incoming_of(vi, b)) {
      const std::uint32_t k = s_->incoming_edge[j];
      const std::uint32_t x = s_->incoming_value[j];
      if (!r.reached_[x] || !edge_executable_now(k)) continue;
      if constexpr (has_edge_transfer) {
        (void)gather_branch_operands(s_->edge_source[k]);
        L refined = static_cast<L>(p_.transfer_edge(s_->edges[k], value_at(vi), r.states_[x],
                                                    OperandStates<L>(std::span<const L* const>(branch_scratch_))));
        if (!have) {
          out = std::move(refined);
          have = true;
        } else {
          (void)out.join(refined);
        }
      } else if (!have) {
        out = r.states_[x];
        have = true;
      } else {
        (void)out.join(r.states_[x]);
      }
    }
    return have;
  }

  /// Points the solve at the shape's arrays: the prepared index's, or
  /// arrays derived here (with the problem's extra operands). A problem with
  /// extra operands over a prepared index gets its own relation of them and
  /// dependents over the union. False (status `invalid_input`) when the
  /// shape names a value or block outside its own numbering.
  /// `may_sweep`: a fresh solve, which sweeps when it can (see the file comment).
  bool use_shape(Result& r, bool may_sweep) {
    auto extra = [&] {  // `this` only when the problem has extra operands
      if constexpr (HasExtraOperands<P, Value>) {
        return [this](const Value& v, auto&& add) {
          for (const auto& x : p_.extra_operands(v)) {
            if (!add(x)) return false;
          }
          return true;
        };
      } else {
        return NoExtraOperands{};
      }
    }();
    // A fresh solve sweeps over a forward numbering (its extra operands included), for a
    // problem that refines nothing along edges (a refinement reads the branch operands too,
    // which the sweep's stamps do not follow), unless it widens in reverse post-order.
    const bool may = may_sweep && !has_edge_transfer &&
                     (!uses_widening_points() || this->opt_.order == IterationOrder::weak_topological_order);
    if (prepared_ != nullptr) {
      s_ = &prepared_->arrays_;
    } else {
      (void)own_.derive(prog_, extra, may ? DependentsNeed::sweep : DependentsNeed::worklist);
      s_ = &own_;
    }
    if (!s_->valid) return invalid(r);
    bool forward = s_->operands_forward;
    extras_ = &s_->extra_operands;
    dependents_ = s_->has_dependents ? &s_->dependents : nullptr;
    if constexpr (HasExtraOperands<P, Value>) {
      bool any = false;
      if (prepared_ != nullptr) {
        if (!s_->with_extra_operands(prog_, extra, own_extras_, own_dependents_, any, forward)) return invalid(r);
        if (any) {
          extras_ = &own_extras_;
          dependents_ = &own_dependents_;
        }
      }
    }
    sweep_ = may && forward;
    r.roots_ = s_->roots;
    r.block_reached_.assign(s_->block_count, false);
    edge_live_at_.assign(s_->edge_target.size(), 0);
    return true;
  }

  bool invalid(Result& r) {
    r.outcome_.status = SolveStatus::invalid_input;
    return false;
  }

  /// Whether the solve can widen or narrow at widening points: otherwise the
  /// order changes how many visits it takes, not its result.
  [[nodiscard]] bool uses_widening_points() const {
    bool uses = false;
    if constexpr (WidenableLattice<L>) uses = this->opt_.widening;
    if constexpr (NarrowableLattice<L>) uses = uses || this->opt_.narrowing_passes > 0;
    return uses;
  }

  void prepare(Result& r) {
    if constexpr (has_cfg) {
      // A solve without widening points visits values in the shape's own
      // numbering, and computes no order (see `IterationOrder`). Otherwise
      // the prepared index's plan serves when the solve reads the index's own
      // dependents (no extra operands layered on) in the index's order.
      if (sweep_ || !uses_widening_points()) {
        own_plan_ = identity_plan<std::uint32_t>(s_->value_count);
        if (uses_widening_points()) {
          // A sweep widens at the arguments a back edge passes a value to (a higher index):
          // every cycle of the def-use graph goes through one, as every other use lies ahead.
          own_plan_.widening_point.assign(s_->value_count, false);
          for (std::size_t j = 0; j < s_->incoming_value.size(); ++j) {
            const std::uint32_t argument = s_->incoming_argument[j];
            if (s_->incoming_value[j] >= argument) own_plan_.widening_point[argument] = true;
          }
        }
        plan_ = &own_plan_;
      } else if (prepared_ != nullptr && dependents_ == &prepared_->arrays_.dependents &&
          prepared_->order() == this->opt_.order) {
        plan_ = &prepared_->plan_;
      } else {
        own_plan_ = plan_of_every_vertex(*dependents_, this->opt_.order);
        plan_ = &own_plan_;
      }
    } else {
      own_plan_ = plan_of_every_vertex(prog_, this->opt_.order);
      plan_ = &own_plan_;
    }
    this->reset(plan_->size(), r.visits_, r.stats_, r.outcome_.status, r.states_, r.reached_, *plan_);
    narrowing_ = false;
    if constexpr (has_cfg) {
      if (sweep_) {
        visited_at_.assign(s_->value_count, 0);
        changed_at_.assign(s_->value_count, 0);
        clock_ = 1;
        renumber_due_ = false;
        this->sweep_with_rewinds(rescan_budget_.value_or(sweep_rescan_factor * s_->value_count + sweep_rescan_slack));
      }
    }
  }

  void reset_values(Result& r, const std::vector<bool>& affected) {
    std::size_t reached = 0;
    for (std::size_t i = 0; i < r.reached_.size(); ++i) {
      if (affected[i]) {
        r.reached_[i] = false;
        r.states_[i] = L{};
      }
      reached += r.reached_[i] ? 1 : 0;
    }
    r.stats_.nodes_reached = reached;
  }

  void finish(Result& r) {
    std::size_t bytes = plan_->bytes() + this->engine_bytes() + r.reached_.capacity() +
                        r.visits_.capacity() * sizeof(std::uint32_t) + operand_scratch_.capacity() * sizeof(const L*);
    if constexpr (has_cfg) {
      bytes += s_->bytes() + own_extras_.bytes() + own_dependents_.bytes() + r.block_reached_.capacity() +
               (edge_live_at_.capacity() + visited_at_.capacity() + changed_at_.capacity()) * sizeof(std::uint32_t);
    }
    r.stats_.bookkeeping_bytes = bytes;
  }

  using PlanVertex = std::conditional_t<has_cfg, std::uint32_t, Value>;

  const Prog& prog_;
  const P& p_;
  O& obs_;
  const Prepared* prepared_;
  Result* r_ = nullptr;
  IterationPlan<PlanVertex> own_plan_;
  const IterationPlan<PlanVertex>* plan_ = &own_plan_;
  std::vector<const L*> operand_scratch_;
  bool narrowing_ = false;
  // The shape's arrays (with a CFG): the prepared index's or `own_`.
  typename ShapeArraysOf<Prog>::type own_;
  const typename ShapeArraysOf<Prog>::type* s_ = &own_;
  SparseRows own_extras_;                    // over a prepared shape: the problem's extra operands
  CsrGraph own_dependents_;                  // over a prepared shape: with the problem's extra operands
  const SparseRows* extras_ = nullptr;       // by value: the extra operands of op results
  const CsrGraph* dependents_ = nullptr;     // by value: values computed from it (none while sweeping)
  LargeArray<std::uint32_t> edge_live_at_;  // by edge: 0, or the stamp at which it became executable
  // The sweep (with a CFG): whether this solve sweeps, the stamp of each value's last visit
  // (0: never) and last change (0: never), and the clock the stamps come from.
  bool sweep_ = false;
  LargeArray<std::uint32_t> visited_at_, changed_at_;
  std::uint32_t clock_ = 1;
  bool renumber_due_ = false;
  bool work_pending_ = false;  // blocks pending, or stamps due to be renumbered (one test per visit)
  std::optional<std::size_t> rescan_budget_;
  std::uint32_t stamp_limit_;
  std::vector<std::uint32_t> pending_blocks_;
  std::vector<const L*> branch_scratch_;
};

}  // namespace detail

// ---------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------

/// Solves a sparse problem over `program`: an `SsaProgram` shape (values in
/// the blocks of a CFG, solved from its entry blocks; blocks never found
/// executable keep their values uninitialized) or a def-use graph (every
/// value is live; values on def-use cycles, if any, iterate to a fixpoint,
/// widening at the order's widening points). `observer` (optional) sees every
/// visit and, through an optional `on_reached(block)`, every block that
/// becomes executable.
template <SparseProgram Prog, class P, class O = NoObserver>
  requires SparseProblem<P, Prog>
[[nodiscard]] SparseResult<Prog, lattice_t<P>> solve_sparse(const Prog& program, const P& problem,
                                                            const SolverOptions& options = {}, O&& observer = O{}) {
  detail::SparseEngine<Prog, P, std::remove_reference_t<O>> engine(program, problem, options, observer);
  return engine.run();
}

/// Solves a sparse problem over a shape prepared once (`SsaProgramIndex`):
/// the same answer as `solve_sparse(index.program(), problem, options)`,
/// without deriving the shape's arrays again (nor its plan, when
/// `options.order` is the index's order and the problem has no
/// `extra_operands`). An index whose shape was invalid gives `invalid_input`.
template <SsaProgram Prog, class P, class O = NoObserver>
  requires SparseProblem<P, Prog>
[[nodiscard]] SparseResult<Prog, lattice_t<P>> solve_sparse(const SsaProgramIndex<Prog>& index, const P& problem,
                                                            const SolverOptions& options = {}, O&& observer = O{}) {
  detail::SparseEngine<Prog, P, std::remove_reference_t<O>> engine(index.program(), problem, options, observer,
                                                                    &index);
  return engine.run();
}

/// Incremental re-solve: as `solve_sparse(program, problem)`, reusing
/// `previous` (moved in). `changed_values` lists values whose transfer
/// changed or that gained or lost operands; `changed_blocks` (with a CFG)
/// lists the targets of CFG edges added or removed (pass an empty range if
/// none). Values and blocks that can depend on a change are reset and
/// recomputed; the rest is kept and not visited. The answer equals a fresh
/// solve whenever the fixpoint does not depend on the iteration order
/// (always without widening). The program may have grown.
template <SparseProgram Prog, class P, class ChangedValues, class ChangedBlocks = std::vector<std::size_t>,
          class O = NoObserver>
  requires SparseProblem<P, Prog> &&
           (std::convertible_to<const ChangedValues&, program_value_t<Prog>> ||
            detail::RangeOf<const ChangedValues, program_value_t<Prog>>) &&
           detail::InputRange<const ChangedBlocks>
[[nodiscard]] SparseResult<Prog, lattice_t<P>> resolve_sparse(const Prog& program, const P& problem,
                                                              SparseResult<Prog, lattice_t<P>> previous,
                                                              const ChangedValues& changed_values,
                                                              const ChangedBlocks& changed_blocks = {},
                                                              const SolverOptions& options = {}, O&& observer = O{}) {
  using Traits = detail::ProgramTraits<Prog>;
  std::vector<typename Traits::value_type> values;
  if constexpr (std::convertible_to<const ChangedValues&, program_value_t<Prog>>) {
    values.push_back(changed_values);
  } else {
    for (const auto& v : changed_values) values.push_back(v);
  }
  std::vector<typename Traits::block_type> blocks;
  for (const auto& b : changed_blocks) blocks.push_back(static_cast<typename Traits::block_type>(b));
  detail::SparseEngine<Prog, P, std::remove_reference_t<O>> engine(program, problem, options, observer);
  return engine.rerun(std::move(previous), values, blocks);
}

}  // namespace kildall
