#pragma once
/// \file
/// The sparse (SSA) fixed-point solver: one lattice state per SSA value,
/// computed by a user transfer from the states of the value's operands, with
/// joins only at block arguments (phi nodes) and executable-edge tracking built
/// in. This is Wegman & Zadeck's sparse conditional constant propagation
/// (TOPLAS 1991) generalized to any join-semilattice, as in MLIR's sparse
/// dataflow framework, but over graphs instead of an IR:
///
/// * the **def-use graph** `Values` (any `AnalysisGraph`): one vertex per SSA
///   value; an edge `x -> y` when `y`'s state reads `x`'s. `in_edges(y)` lists
///   `y`'s operands in operand order (a value used twice has two edges). For a
///   block argument, the values passed to it by branches are its in-edges too,
///   so a change re-queues it.
/// * optionally a **CFG** `Cfg` (any `AnalysisGraph`) of blocks. A value is
///   visited only when its block is executable; a block becomes executable when
///   it is an entry or one of its in-edges is executable; the problem decides,
///   from the states of the block's branch operands (e.g. the condition of a
///   `cond_br`), which out-edges are executable. A block argument's state is
///   the join of the values passed to it over the *executable* incoming edges.
///
/// Executability is not a separate analysis that can be forgotten: it is part
/// of the solver, and values in blocks never found executable end
/// *uninitialized* (`lookup` returns nullptr), never "bottom pretending to be
/// reached". A problem without a CFG (a pure DAG of values, e.g. a Boost.Graph
/// of arithmetic ops) uses the overload without `Cfg`: every value is live.
///
/// Iteration: a priority worklist (`PriorityWorklist`) over the reverse
/// post-order (or the weak topological order) of the def-use graph, so
/// operands are visited before their users; widening at the widening points of
/// that order after `SolverOptions::widening_delay` visits; an optional
/// narrowing phase; a hard per-value visit cap.

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
#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>
#include <kildall/solver/detail/iteration_plan.hpp>
#include <kildall/solver/detail/large_array_allocator.hpp>
#include <kildall/solver/detail/roots.hpp>
#include <kildall/solver/observer.hpp>
#include <kildall/solver/options.hpp>
#include <kildall/solver/problem.hpp>
#include <kildall/solver/status.hpp>
#include <kildall/solver/worklist.hpp>

namespace kildall {

// ---------------------------------------------------------------------------
// Operand states
// ---------------------------------------------------------------------------

/// The states of a value's operands, in operand order (the order of
/// `in_edges` in the def-use graph), as handed to a sparse transfer. An
/// operand may be uninitialized (its block not yet executable, or its own
/// operands not yet known); by default the solver only calls a transfer when
/// all operands are initialized (see `SparseProblem`).
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
// Problem concepts
// ---------------------------------------------------------------------------

/// A sparse problem over def-use graph `Values`:
///
/// ```
/// struct P {
///   using lattice_type = L;                      // a JoinSemiLattice
///   L transfer(vertex_t<Values> v, OperandStates<L> operands) const;
///   // optional:
///   static constexpr bool visit_with_uninitialized_operands = true;
/// };
/// ```
///
/// `transfer` computes `v`'s state from its operands' states (ordered, not
/// joined). It must be monotone. Unless the problem sets
/// `visit_with_uninitialized_operands`, it is only called once every operand
/// is initialized (SCCP's rule); values without operands (constants, inputs)
/// are computed once their block is executable.
template <class P, class Values>
concept SparseProblem = AnalysisGraph<Values> && requires { typename lattice_t<P>; } &&
                        JoinSemiLattice<lattice_t<P>> &&
                        requires(const P& p, const vertex_t<Values>& v, OperandStates<lattice_t<P>> ops) {
                          { p.transfer(v, ops) } -> std::convertible_to<lattice_t<P>>;
                        };

/// A sparse problem whose values live in the blocks of a CFG `Cfg`:
///
/// ```
/// struct P {
///   using lattice_type = L;
///   L transfer(Value v, OperandStates<L> operands) const;   // non-argument values
///   Block block_of(Value v) const;                          // the block defining v
///   bool is_block_argument(Value v) const;                  // phi-like: joined, not transferred
///   Range<Value> block_arguments(Block b) const;            // b's arguments
///   Range<Value> block_values(Block b) const;               // b's other values (op results)
///   std::optional<Value> incoming_value(Value arg, CfgEdge e) const;  // what e passes to arg
///   L entry_argument_state(Value arg) const;                // arguments of entry blocks
///   // optional, together:
///   Range<Value> branch_operands(Block b) const;            // what b's terminator reads
///   bool edge_executable(CfgEdge e, OperandStates<L> branch_operands) const;
/// };
/// ```
///
/// A block argument's state is `entry_argument_state(arg)` if its block is an
/// entry, joined with the states of `incoming_value(arg, e)` over every
/// executable in-edge `e` whose incoming value is initialized. Without
/// `edge_executable` every out-edge of an executable block is executable.
/// With it, an out-edge `e` of block `b` is executable when all of `b`'s
/// branch operands are initialized and `edge_executable(e, their states)`
/// holds (e.g. a `cond_br` on a constant `true` enables only its first edge);
/// the solver re-asks whenever a branch operand's state changes. The answer
/// must be monotone (more edges as states grow).
template <class P, class Values, class Cfg>
concept SparseCfgProblem =
    SparseProblem<P, Values> && AnalysisGraph<Cfg> &&
    requires(const P& p, const vertex_t<Values>& v, const vertex_t<Cfg>& b, const edge_t<Cfg>& e) {
      { p.block_of(v) } -> std::convertible_to<vertex_t<Cfg>>;
      { p.is_block_argument(v) } -> std::convertible_to<bool>;
      { p.block_arguments(b) } -> detail::RangeOf<vertex_t<Values>>;
      { p.block_values(b) } -> detail::RangeOf<vertex_t<Values>>;
      { p.incoming_value(v, e) } -> std::convertible_to<std::optional<vertex_t<Values>>>;
      { p.entry_argument_state(v) } -> std::convertible_to<lattice_t<P>>;
    };

/// Whether a `SparseCfgProblem` decides edge executability itself.
template <class P, class Values, class Cfg>
concept SparseBranchProblem =
    SparseCfgProblem<P, Values, Cfg> &&
    requires(const P& p, const vertex_t<Cfg>& b, const edge_t<Cfg>& e, OperandStates<lattice_t<P>> ops) {
      { p.branch_operands(b) } -> detail::RangeOf<vertex_t<Values>>;
      { p.edge_executable(e, ops) } -> std::convertible_to<bool>;
    };

/// The CFG type of a sparse solve without a CFG.
struct NoCfg {};

namespace detail {

/// The block handle of `Cfg` (a placeholder for `NoCfg`).
template <class Cfg>
struct BlockOf {
  using type = vertex_t<Cfg>;
};
template <>
struct BlockOf<NoCfg> {
  using type = std::size_t;
};

}  // namespace detail

// ---------------------------------------------------------------------------
// Result
// ---------------------------------------------------------------------------

namespace detail {
template <class Values, class Cfg, class P, class O>
class SparseEngine;
}  // namespace detail

/// The outcome of a sparse solve: one state per value (or "uninitialized"),
/// block executability, visit counts, statistics and the status. Holds a
/// pointer to the def-use graph (and CFG), which must outlive it.
template <class Values, class L, class Cfg = NoCfg>
class SparseResult {
 public:
  /// The value handle.
  using value_type = vertex_t<Values>;
  /// The lattice.
  using lattice_type = L;

  /// The state of `v`, or nullptr when `v` was never computed (its block is
  /// unreachable, or its operands never became known).
  [[nodiscard]] const L* lookup(const value_type& v) const {
    const std::size_t i = vertex_index(*values_, v);
    return i < initialized_.size() && initialized_[i] ? &states_[i] : nullptr;
  }

  /// Whether `v` has a state.
  [[nodiscard]] bool is_initialized(const value_type& v) const { return lookup(v) != nullptr; }

  /// Whether block `b` was found executable (always true without a CFG).
  template <class B>
    requires(!std::same_as<Cfg, NoCfg>) && std::convertible_to<const B&, typename detail::BlockOf<Cfg>::type>
  [[nodiscard]] bool block_executable(const B& b) const {
    const std::size_t i = vertex_index(*cfg_, static_cast<typename detail::BlockOf<Cfg>::type>(b));
    return i < executable_.size() && executable_[i];
  }

  /// How many times `v`'s transfer (or join) was applied.
  [[nodiscard]] std::uint32_t visits(const value_type& v) const {
    const std::size_t i = vertex_index(*values_, v);
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
  /// The def-use graph the result is about.
  [[nodiscard]] const Values& values_graph() const noexcept { return *values_; }
  /// The CFG the result is about (nullptr without a CFG).
  [[nodiscard]] const Cfg* cfg() const noexcept { return cfg_; }
  /// The entry blocks the solve started from (empty without a CFG).
  [[nodiscard]] const std::vector<typename detail::BlockOf<Cfg>::type>& entries() const noexcept { return entries_; }

 private:
  template <class, class, class, class>
  friend class detail::SparseEngine;

  const Values* values_ = nullptr;
  const Cfg* cfg_ = nullptr;
  std::vector<typename detail::BlockOf<Cfg>::type> entries_;
  std::vector<L, detail::LargeArrayAllocator<L>> states_;
  std::vector<bool> initialized_;
  std::vector<bool> executable_;
  std::vector<std::uint32_t, detail::LargeArrayAllocator<std::uint32_t>> visits_;
  SolveOutcome<value_type> outcome_;
  SolveStatistics stats_;
};

// ---------------------------------------------------------------------------
// Engine
// ---------------------------------------------------------------------------

namespace detail {

template <class P>
constexpr bool visit_with_uninitialized_operands() {
  if constexpr (requires { P::visit_with_uninitialized_operands; }) {
    return static_cast<bool>(P::visit_with_uninitialized_operands);
  } else {
    return false;
  }
}

template <class Values, class Cfg, class P, class O>
class SparseEngine {
 public:
  static constexpr bool has_cfg = !std::same_as<Cfg, NoCfg>;
  static constexpr bool has_branches = [] {
    if constexpr (has_cfg) {
      return SparseBranchProblem<P, Values, Cfg>;
    } else {
      return false;
    }
  }();
  using L = lattice_t<P>;
  using Value = vertex_t<Values>;
  using Result = SparseResult<Values, L, Cfg>;
  using Block = typename BlockOf<Cfg>::type;

  SparseEngine(const Values& values, const Cfg* cfg, const P& problem, const SolverOptions& options, O& observer)
      : g_(values), cfg_(cfg), p_(problem), opt_(options), obs_(observer) {}

  /// A fresh solve from the entry blocks (or from every value without a CFG).
  template <class Root>
  Result run(const std::vector<Root>& entries) {
    Result r;
    r.values_ = &g_;
    r.cfg_ = cfg_;
    const std::size_t n = vertex_count(g_);
    r.states_.assign(n, L{});
    r.initialized_.assign(n, false);
    r.visits_.assign(n, 0);
    r.stats_.nodes = n;
    prepare(r);
    if constexpr (has_cfg) {
      const std::size_t bad = first_invalid_root(*cfg_, entries);
      if (bad != entries.size()) {
        r.outcome_.status = SolveStatus::invalid_input;
        return r;
      }
      r.entries_.assign(entries.begin(), entries.end());
      for (const auto& b : entries) is_entry_[vertex_index(*cfg_, b)] = true;
      for (const auto& b : entries) mark_executable(r, b);
    } else {
      // Every value is pending: rather than queueing them all, sweep the
      // order once; the worklist only holds values re-queued behind the sweep.
      sweep_end_ = plan_.order.size();
    }
    iterate(r);
    finish(r);
    return r;
  }

  /// Re-solves after a change, reusing `previous`: `changed_values` lists
  /// values whose transfer changed or that gained/lost operands,
  /// `changed_blocks` the targets of CFG edges added or removed. Everything
  /// that can depend on a change (def-use successors, blocks after a changed
  /// branch, the values of such blocks) is reset and recomputed; the rest is
  /// kept and not visited.
  template <class Root>
  Result rerun(Result previous, const std::vector<Root>& entries, const std::vector<Value>& changed_values,
               const std::vector<Block>& changed_blocks) {
    Result r = std::move(previous);
    r.values_ = &g_;
    r.cfg_ = cfg_;
    r.outcome_ = {};
    r.stats_ = {};
    const std::size_t n = vertex_count(g_);
    r.stats_.nodes = n;
    r.states_.resize(n);
    r.initialized_.resize(n, false);
    r.visits_.assign(n, 0);
    std::vector<bool> executable = std::move(r.executable_);
    prepare(r);
    if (first_invalid_root(g_, changed_values) != changed_values.size()) {
      r.outcome_.status = SolveStatus::invalid_input;
      return r;
    }
    std::vector<bool> affected_value(n, false);
    std::vector<Value> value_stack;
    auto touch_value = [&](const Value& v) {
      const std::size_t vi = vertex_index(g_, v);
      if (!affected_value[vi]) {
        affected_value[vi] = true;
        value_stack.push_back(v);
      }
    };
    for (const auto& v : changed_values) touch_value(v);
    if constexpr (has_cfg) {
      if (first_invalid_root(*cfg_, entries) != entries.size() ||
          first_invalid_root(*cfg_, changed_blocks) != changed_blocks.size()) {
        r.outcome_.status = SolveStatus::invalid_input;
        return r;
      }
      executable.resize(r.executable_.size(), false);
      r.executable_ = std::move(executable);
      r.entries_.assign(entries.begin(), entries.end());
      for (const auto& b : entries) is_entry_[vertex_index(*cfg_, b)] = true;
      std::vector<bool> affected_block(r.executable_.size(), false);
      std::vector<Block> block_stack;
      auto touch_block = [&](const Block& b) {
        const std::size_t bi = vertex_index(*cfg_, b);
        if (!affected_block[bi]) {
          affected_block[bi] = true;
          block_stack.push_back(b);
        }
      };
      for (const auto& b : changed_blocks) touch_block(b);
      while (!value_stack.empty() || !block_stack.empty()) {
        while (!value_stack.empty()) {
          const Value v = value_stack.back();
          value_stack.pop_back();
          for (const auto& e : out_edge_range(g_, v)) touch_value(target(e, g_));
          if constexpr (has_branches) {
            for_each_branch_user(vertex_index(g_, v), [&](const Block& p) {
              for (const auto& e : out_edge_range(*cfg_, p)) touch_block(target(e, *cfg_));
            });
          }
        }
        while (!block_stack.empty()) {
          const Block b = block_stack.back();
          block_stack.pop_back();
          for (const auto& a : p_.block_arguments(b)) touch_value(a);
          for (const auto& v : p_.block_values(b)) touch_value(v);
          for (const auto& e : out_edge_range(*cfg_, b)) touch_block(target(e, *cfg_));
        }
      }
      reset_values(r, affected_value);
      for (const auto& b : vertex_range(*cfg_)) {
        if (affected_block[vertex_index(*cfg_, b)]) r.executable_[vertex_index(*cfg_, b)] = false;
      }
      for (const auto& b : vertex_range(*cfg_)) {
        const std::size_t bi = vertex_index(*cfg_, b);
        if (!affected_block[bi]) continue;
        bool live = is_entry_[bi];
        for (const auto& e : in_edge_range(*cfg_, b)) live = live || edge_is_executable(r, e);
        if (live) mark_executable(r, b);
      }
    } else {
      while (!value_stack.empty()) {
        const Value v = value_stack.back();
        value_stack.pop_back();
        for (const auto& e : out_edge_range(g_, v)) touch_value(target(e, g_));
      }
      reset_values(r, affected_value);
    }
    for (std::size_t pos = 0; pos < plan_.order.size(); ++pos) {
      if (affected_value[vertex_index(g_, plan_.order[pos])]) enqueue(r, plan_.order[pos]);
    }
    iterate(r);
    finish(r);
    return r;
  }

 private:
  void reset_values(Result& r, const std::vector<bool>& affected) {
    std::size_t reached = 0;
    for (std::size_t i = 0; i < affected.size(); ++i) {
      if (affected[i]) {
        r.initialized_[i] = false;
        r.states_[i] = L{};
      }
      reached += r.initialized_[i] ? 1 : 0;
    }
    r.stats_.nodes_reached = reached;
  }

  /// Calls `f(block)` for every block whose terminator reads value index `vi`.
  template <class F>
  void for_each_branch_user(std::size_t vi, F&& f) {
    if constexpr (has_branches) {
      if (!is_branch_operand_[vi]) return;
      auto it = std::ranges::lower_bound(branch_users_, static_cast<std::uint32_t>(vi), {},
                                         &std::pair<std::uint32_t, Block>::first);
      for (; it != branch_users_.end() && it->first == vi; ++it) f(it->second);
    } else {
      (void)vi;
      (void)f;
    }
  }

  /// Fast path of the plan: when every def-use edge goes forward in
  /// `vertices(g)` order (values numbered in program order, no cycles), that
  /// order *is* the reverse post-order of the search below and has no back
  /// edges, so one pass over the edges replaces the search.
  bool plan_in_vertex_order() {
    const std::size_t n = vertex_count(g_);
    plan_.position.assign(n, no_position);
    plan_.order.clear();
    plan_.order.reserve(n);
    for (const auto& v : vertex_range(g_)) {
      plan_.position[vertex_index(g_, v)] = static_cast<std::uint32_t>(plan_.order.size());
      plan_.order.push_back(v);
    }
    for (std::size_t p = 0; p < plan_.order.size(); ++p) {
      for (const auto& e : out_edge_range(g_, plan_.order[p])) {
        if (plan_.position[vertex_index(g_, target(e, g_))] <= p) return false;
      }
    }
    plan_.widening_point.assign(plan_.order.size(), false);
    return true;
  }

  void prepare(Result& r) {
    if (opt_.order == IterationOrder::reverse_postorder && plan_in_vertex_order()) {
      prepare_bookkeeping(r);
      return;
    }
    // Every value is a root. Trying roots from the last vertex to the first
    // makes the order exactly the vertex order wherever that order is already
    // topological (values numbered in program order), so visits, traces and
    // debug logs follow the program; otherwise it is still a valid order.
    std::vector<Value> roots;
    roots.reserve(vertex_count(g_));
    for (const auto& v : vertex_range(g_)) roots.push_back(v);
    std::reverse(roots.begin(), roots.end());
    plan_ = make_iteration_plan(g_, roots, opt_.order);
    prepare_bookkeeping(r);
  }

  void prepare_bookkeeping(Result& r) {
    worklist_.reset(plan_.order.size());
    if constexpr (has_cfg) {
      const std::size_t nb = vertex_count(*cfg_);
      r.executable_.assign(nb, false);
      is_entry_.assign(nb, false);
      if constexpr (has_branches) {
        is_branch_operand_.assign(vertex_count(g_), false);
        for (const auto& b : vertex_range(*cfg_)) {
          for (const auto& x : p_.branch_operands(b)) {
            const std::size_t xi = vertex_index(g_, x);
            is_branch_operand_[xi] = true;
            branch_users_.emplace_back(static_cast<std::uint32_t>(xi), b);
          }
        }
        std::ranges::sort(branch_users_, {}, &std::pair<std::uint32_t, Block>::first);
      }
    }
  }

  void finish(Result& r) {
    r.stats_.bookkeeping_bytes = plan_.bytes() + worklist_.bytes() + r.initialized_.capacity() / 8 +
                                 r.visits_.capacity() * sizeof(std::uint32_t) + r.executable_.capacity() / 8 +
                                 is_entry_.capacity() / 8 + is_branch_operand_.capacity() / 8 +
                                 branch_users_.capacity() * sizeof(branch_users_[0]) +
                                 operand_scratch_.capacity() * sizeof(const L*);
  }

  [[nodiscard]] bool stopped(const Result& r) const { return r.outcome_.status != SolveStatus::converged; }

  void stop(Result& r, SolveStatus s, const Value& v) {
    r.outcome_.status = s;
    r.outcome_.offending_node = v;
    r.outcome_.offending_index = vertex_index(g_, v);
  }

  void enqueue(const Result& r, const Value& v) {
    if constexpr (has_cfg) {
      if (!r.executable_[vertex_index(*cfg_, static_cast<Block>(p_.block_of(v)))]) return;
    }
    const std::uint32_t pos = plan_.position[vertex_index(g_, v)];
    if (pos == no_position || (pos >= cursor_ && pos < sweep_end_)) return;  // the sweep will get there
    (void)worklist_.push(pos);
  }

  void mark_executable(Result& r, const Block& b) {
    const std::size_t bi = vertex_index(*cfg_, b);
    if (r.executable_[bi]) return;
    r.executable_[bi] = true;
    pending_blocks_.push_back(b);
  }

  /// Gathers the states of `b`'s branch operands; false if one is uninitialized.
  bool gather_branch_operands(const Result& r, const Block& b) {
    branch_scratch_.clear();
    for (const auto& x : p_.branch_operands(b)) {
      const std::size_t xi = vertex_index(g_, x);
      if (!r.initialized_[xi]) return false;
      branch_scratch_.push_back(&r.states_[xi]);
    }
    return true;
  }

  /// Marks the targets of `b`'s executable out-edges executable and re-queues
  /// their arguments (a new incoming edge may have appeared).
  void evaluate_out_edges(Result& r, const Block& b) {
    if constexpr (has_branches) {
      if (!gather_branch_operands(r, b)) return;
    }
    for (const auto& e : out_edge_range(*cfg_, b)) {
      if constexpr (has_branches) {
        if (!p_.edge_executable(e, OperandStates<L>(std::span<const L* const>(branch_scratch_)))) continue;
      }
      const auto t = target(e, *cfg_);
      if (!r.executable_[vertex_index(*cfg_, t)]) {
        mark_executable(r, t);
      } else {
        for (const auto& a : p_.block_arguments(t)) enqueue(r, a);
      }
    }
  }

  void process_new_block(Result& r, const Block& b) {
    if constexpr (observer_enabled<O>) notify_reached(obs_, b);
    for (const auto& a : p_.block_arguments(b)) enqueue(r, a);
    for (const auto& v : p_.block_values(b)) enqueue(r, v);
    evaluate_out_edges(r, b);
  }

  template <class Edge>
  bool edge_is_executable(const Result& r, const Edge& e) {
    const auto s = source(e, *cfg_);
    if (!r.executable_[vertex_index(*cfg_, s)]) return false;
    if constexpr (has_branches) {
      if (!gather_branch_operands(r, s)) return false;
      return p_.edge_executable(e, OperandStates<L>(std::span<const L* const>(branch_scratch_)));
    } else {
      return true;
    }
  }

  /// Computes the candidate state of `v` into `out`; false when `v` cannot be
  /// computed yet (stays as it is).
  bool compute(const Result& r, const Value& v, L& out) {
    if constexpr (has_cfg) {
      if (p_.is_block_argument(v)) {
        const Block b = static_cast<Block>(p_.block_of(v));
        bool have = false;
        if (is_entry_[vertex_index(*cfg_, b)]) {
          out = static_cast<L>(p_.entry_argument_state(v));
          have = true;
        }
        for (const auto& e : in_edge_range(*cfg_, b)) {
          if (!edge_is_executable(r, e)) continue;
          const std::optional<Value> in = p_.incoming_value(v, e);
          if (!in) continue;
          const std::size_t ii = vertex_index(g_, *in);
          if (!r.initialized_[ii]) continue;
          if (!have) {
            out = r.states_[ii];
            have = true;
          } else {
            (void)out.join(r.states_[ii]);
          }
        }
        return have;
      }
    }
    operand_scratch_.clear();
    bool all = true;
    for (const auto& e : in_edge_range(g_, v)) {
      const std::size_t si = vertex_index(g_, source(e, g_));
      const bool init = r.initialized_[si];
      all = all && init;
      operand_scratch_.push_back(init ? &r.states_[si] : nullptr);
    }
    if (!all && !visit_with_uninitialized_operands<P>()) return false;
    out = static_cast<L>(p_.transfer(v, OperandStates<L>(std::span<const L* const>(operand_scratch_))));
    return true;
  }

  void propagate(Result& r, const Value& v) {
    for (const auto& e : out_edge_range(g_, v)) enqueue(r, target(e, g_));
    if constexpr (has_branches) {
      for_each_branch_user(vertex_index(g_, v), [&](const Block& p) {
        if (r.executable_[vertex_index(*cfg_, p)]) evaluate_out_edges(r, p);
      });
    }
  }

  void visit(Result& r, std::size_t pos) {
    const Value v = plan_.order[pos];
    const std::size_t vi = vertex_index(g_, v);
    if constexpr (has_cfg) {
      if (!r.executable_[vertex_index(*cfg_, static_cast<Block>(p_.block_of(v)))]) return;
    }
    if (!compute(r, v, candidate_)) return;
    if (r.visits_[vi] >= opt_.max_visits_per_node) {
      stop(r, SolveStatus::visit_cap_reached, v);
      return;
    }
    const std::uint32_t visit_number = ++r.visits_[vi];
    ++r.stats_.visits;
    r.stats_.max_visits = std::max<std::size_t>(r.stats_.max_visits, visit_number);
    const bool was_initialized = r.initialized_[vi];
    bool widened = false;
    if constexpr (WidenableLattice<L>) {
      if (opt_.widening && was_initialized && plan_.widening_point[pos] && visit_number > opt_.widening_delay) {
        L w = r.states_[vi];
        (void)w.widen(candidate_);
        candidate_ = std::move(w);
        widened = true;
        ++r.stats_.widenings;
      }
    }
    const bool changed = !was_initialized || !(candidate_ == r.states_[vi]);
    if (changed && was_initialized && opt_.check_monotonicity && !r.states_[vi].leq(candidate_)) {
      if constexpr (observer_enabled<O>) report(v, VisitPhase::ascending, visit_number, r, vi, widened, changed);
      stop(r, SolveStatus::non_monotone, v);
      return;
    }
    if constexpr (observer_enabled<O>) report(v, VisitPhase::ascending, visit_number, r, vi, widened, changed);
    if (!changed) return;
    ++r.stats_.changed_visits;
    r.states_[vi] = std::move(candidate_);
    if (!was_initialized) ++r.stats_.nodes_reached;
    r.initialized_[vi] = true;
    propagate(r, v);
  }

  void report(const Value& v, VisitPhase phase, std::uint32_t visit_number, const Result& r, std::size_t vi,
              bool widened, bool changed) {
    const L* before = r.initialized_[vi] ? &r.states_[vi] : nullptr;
    obs_.on_visit(VisitEvent<Value, L>{v, phase, visit_number, nullptr, before, &candidate_, widened,
                                       change_if(changed)});
  }

  void iterate(Result& r) {
    while (!stopped(r)) {
      if constexpr (has_cfg) {
        while (!pending_blocks_.empty()) {
          const auto b = pending_blocks_.back();
          pending_blocks_.pop_back();
          process_new_block(r, b);
        }
      }
      if (!worklist_.empty()) {
        visit(r, worklist_.pop_min());  // everything queued lies behind the sweep
      } else if (cursor_ < sweep_end_) {
        visit(r, cursor_++);
      } else {
        break;
      }
    }
    if (stopped(r)) return;
    narrow(r);
  }

  void narrow(Result& r) {
    for (std::uint32_t pass = 0; pass < opt_.narrowing_passes; ++pass) {
      bool any = false;
      for (std::size_t pos = 0; pos < plan_.order.size(); ++pos) {
        const Value v = plan_.order[pos];
        const std::size_t vi = vertex_index(g_, v);
        if (!r.initialized_[vi]) continue;
        if (!compute(r, v, candidate_)) continue;
        ++r.stats_.visits;
        ++r.stats_.narrowing_visits;
        if constexpr (NarrowableLattice<L>) {
          if (plan_.widening_point[pos]) {
            L narrowed = r.states_[vi];
            (void)narrowed.narrow(candidate_);
            candidate_ = std::move(narrowed);
          }
        }
        // Only ever move down: a descending step must stay below the post-fixpoint.
        if (!candidate_.leq(r.states_[vi]) || candidate_ == r.states_[vi]) continue;
        if constexpr (observer_enabled<O>) {
          report(v, VisitPhase::narrowing, r.visits_[vi], r, vi, false, true);
        }
        r.states_[vi] = std::move(candidate_);
        any = true;
      }
      if (!any) break;
    }
  }

  const Values& g_;
  const Cfg* cfg_;
  const P& p_;
  const SolverOptions& opt_;
  O& obs_;
  IterationPlan<Value> plan_;
  PriorityWorklist worklist_;
  std::vector<bool> is_entry_;
  std::vector<bool> is_branch_operand_;
  std::vector<std::pair<std::uint32_t, Block>> branch_users_;
  std::vector<Block> pending_blocks_;
  std::size_t cursor_ = 0;     // sweep position: values at or after it are still pending
  std::size_t sweep_end_ = 0;  // end of the initial sweep (0: no sweep, with a CFG)
  std::vector<const L*> operand_scratch_;
  std::vector<const L*> branch_scratch_;
  L candidate_{};
};

}  // namespace detail

// ---------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------

/// Solves a sparse problem without a CFG: every value is live, each value's
/// state is `problem.transfer(v, operand states)`; values on def-use cycles
/// (if any) iterate to a fixpoint, widening at the order's widening points.
/// `observer` (optional) sees every visit.
template <AnalysisGraph Values, class P, class O = NoObserver>
  requires SparseProblem<P, Values>
[[nodiscard]] SparseResult<Values, lattice_t<P>> solve_sparse(const Values& values, const P& problem,
                                                              const SolverOptions& options = {},
                                                              O&& observer = O{}) {
  detail::SparseEngine<Values, NoCfg, P, std::remove_reference_t<O>> engine(values, nullptr, problem, options,
                                                                            observer);
  return engine.run(std::vector<int>{});
}

/// Solves a sparse problem over the def-use graph `values` whose values live
/// in the blocks of `cfg`, starting from the executable block(s) `entries`
/// (one block or a range). Blocks never found executable keep their values
/// uninitialized. `observer` (optional) sees every visit and, through an
/// optional `on_reached(block)`, every block that becomes executable.
///
/// (The first constraint keeps `solve_sparse(values, problem, options,
/// observer)` from being read as this overload with `Cfg = P`: it is checked
/// before `AnalysisGraph<Cfg>`, whose `boost::graph_traits<P>` would be a hard
/// error.)
template <class Values, class Cfg, class Entries, class P, class O = NoObserver>
  requires(!std::is_convertible_v<const Entries&, const SolverOptions&>) && AnalysisGraph<Values> &&
          AnalysisGraph<Cfg> && SparseCfgProblem<P, Values, Cfg> && RootsOf<Entries, Cfg>
[[nodiscard]] SparseResult<Values, lattice_t<P>, Cfg> solve_sparse(const Values& values, const Cfg& cfg,
                                                                   const Entries& entries, const P& problem,
                                                                   const SolverOptions& options = {},
                                                                   O&& observer = O{}) {
  detail::SparseEngine<Values, Cfg, P, std::remove_reference_t<O>> engine(values, &cfg, problem, options, observer);
  return engine.run(detail::collect_roots<Cfg>(entries));
}

/// Incremental re-solve without a CFG: `previous` is the result of an earlier
/// `solve_sparse(values, problem)` (moved in and reused); `changed` lists the
/// values whose transfer changed or that gained or lost operands. Only values
/// reachable from `changed` in the def-use graph are reset and re-visited;
/// the answer equals a fresh solve whenever the fixpoint does not depend on
/// the iteration order (always without widening). `values` may have grown.
template <AnalysisGraph Values, class P, class Changed, class O = NoObserver>
  requires SparseProblem<P, Values> && RootsOf<Changed, Values>
[[nodiscard]] SparseResult<Values, lattice_t<P>> resolve_sparse(const Values& values, const P& problem,
                                                                SparseResult<Values, lattice_t<P>> previous,
                                                                const Changed& changed,
                                                                const SolverOptions& options = {},
                                                                O&& observer = O{}) {
  detail::SparseEngine<Values, NoCfg, P, std::remove_reference_t<O>> engine(values, nullptr, problem, options,
                                                                            observer);
  return engine.rerun(std::move(previous), std::vector<int>{}, detail::collect_roots<Values>(changed),
                      std::vector<std::size_t>{});
}

/// Incremental re-solve with a CFG: as `solve_sparse(values, cfg, entries,
/// problem)`, reusing `previous`. `changed_values` lists values whose transfer
/// changed or that gained or lost operands (def-use edges);
/// `changed_blocks` lists the targets of CFG edges added or removed (pass an
/// empty range if none). Values and blocks that can depend on a change are
/// reset and recomputed; the rest is kept and not visited.
template <AnalysisGraph Values, AnalysisGraph Cfg, class Entries, class P, class ChangedValues, class ChangedBlocks,
          class O = NoObserver>
  requires SparseCfgProblem<P, Values, Cfg> && RootsOf<Entries, Cfg> && RootsOf<ChangedValues, Values> &&
           RootsOf<ChangedBlocks, Cfg>
[[nodiscard]] SparseResult<Values, lattice_t<P>, Cfg> resolve_sparse(
    const Values& values, const Cfg& cfg, const Entries& entries, const P& problem,
    SparseResult<Values, lattice_t<P>, Cfg> previous, const ChangedValues& changed_values,
    const ChangedBlocks& changed_blocks, const SolverOptions& options = {}, O&& observer = O{}) {
  detail::SparseEngine<Values, Cfg, P, std::remove_reference_t<O>> engine(values, &cfg, problem, options, observer);
  return engine.rerun(std::move(previous), detail::collect_roots<Cfg>(entries),
                      detail::collect_roots<Values>(changed_values), detail::collect_roots<Cfg>(changed_blocks));
}

}  // namespace kildall
