#pragma once
/// \file
/// Internal: the one fixpoint engine under both solvers. Kildall's worklist
/// iteration (POPL 1973) with a priority worklist over an iteration order,
/// delayed widening at widening points and an optional descending
/// (narrowing) phase (Cousot & Cousot, POPL 1977; Bourdoncle, FMPA 1993),
/// as SPARTA's fixpoint iterators share one base between their dense and
/// sparse front ends.
///
/// The engine owns the *policy* of a solve, in one place:
///   * the worklist (`PriorityWorklist`) and the initial sweep;
///   * the per-node visit cap (`SolveStatus::visit_cap_reached`, naming the node);
///   * delayed widening at the widening points of the order;
///   * the monotonicity check (`SolveStatus::non_monotone`);
///   * the update itself: a node's state is moved up by the lattice's own
///     `join` (or `widen`), and the `ChangeResult` that returns decides
///     whether dependents are re-queued (checked against `==` when
///     `SolverOptions::check_change_results` is on; when it is off and the
///     monotonicity check has just put the candidate above the state, the
///     join is the candidate: it is taken as it is, compared with `==`);
///   * statistics, stop handling and the narrowing passes;
///   * the affected-set closure of an incremental re-solve.
///
/// Besides the worklist, the engine can sweep: visit positions in order,
/// asking the front end at each whether anything it reads changed since its
/// last visit (`dirty`). A front end uses it when every node's inputs lie at
/// lower positions except for a few it names when they change (the sparse
/// solver's block arguments fed over back edges): those are queued behind
/// the sweep and visited before it goes on, and when such a visit changes a
/// state, the sweep goes back (`rewind`) to just after it and passes the
/// positions between again. No dependents are derived. This is the
/// iteration of a weak topological order's components by Bourdoncle's
/// recursive strategy, over the front end's own order. When the sweep has
/// passed again over more positions than its budget (an order whose loops
/// are far from contiguous), the front end derives its dependents and the
/// worklist takes over from the positions still dirty.
///
/// A front end (dense or sparse) derives from it (CRTP) and supplies only what
/// differs: how a node's candidate state is computed from the states it
/// depends on (`compute`), what happens after the node's state moved
/// (`settle`: the dense solver applies the transfer to its in-state there),
/// where its states live, and whom to re-queue (`propagate`).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>
#include <kildall/solver/detail/iteration_plan.hpp>
#include <kildall/solver/options.hpp>
#include <kildall/solver/status.hpp>
#include <kildall/solver/worklist.hpp>
#include <kildall/support/large_array_allocator.hpp>

namespace kildall::detail {

/// What the engine tells a front end about one ascending visit.
template <class L>
struct VisitInfo {
  std::size_t position;       ///< The node's position in the iteration order.
  std::size_t index;          ///< The node's dense index.
  std::uint32_t visit;        ///< 1-based visit number of the node.
  bool first;                 ///< The node had no state before this visit.
  bool widened;               ///< `widen` was applied.
  bool non_monotone;          ///< The candidate was not above the old state (the solve stops).
  ChangeResult change;        ///< Whether the node's state moved.
  const L* before;            ///< The state before the visit, when the front end asked for it (else nullptr).
};

/// How a front end's `settle` ended.
enum class Settled : std::uint8_t {
  unchanged,     ///< Nothing that dependents read moved.
  changed,       ///< Dependents must be re-queued.
  non_monotone,  ///< A state went down: stop with `SolveStatus::non_monotone`.
  wrong_change_result,  ///< A join's `ChangeResult` contradicted `==`: stop with `SolveStatus::wrong_change_result`.
};

/// The shared engine. It holds, for the solve, the states it moves (one per
/// node index: the dense in-states, the sparse value states) and which nodes
/// hold one. `Derived` provides:
///
/// ```
/// std::size_t index_at(std::size_t pos) const;      // node index at a position of the order
/// template <bool Fresh> bool compute(std::size_t pos, L& candidate);  // false: not computable yet
///                                                   // (Fresh: never visited, found `dirty`)
/// Settled settle(const VisitInfo<L>&);              // after the state moved (or did not)
/// void propagate(std::size_t pos);                  // re-queue what reads the node
/// bool narrow(std::size_t pos, std::size_t index, L& candidate);  // commit a strictly lower state
/// void drain();                                     // called before each pop (pending work)
/// void begin_narrowing();                           // the descending phase starts
/// void stopped_at(SolveStatus, std::size_t pos);    // record the offending node
/// // only for a front end that sweeps (`sweep_with_rewinds`):
/// bool dirty(std::size_t pos);                      // anything read changed since the last visit
/// void leave_sweep();                               // derive what `propagate` needs for a worklist
/// static constexpr bool wants_before;                // pass the old state to `settle`
/// ```
template <class Derived, class L>
class FixpointEngine {
 protected:
  FixpointEngine(const SolverOptions& options) : opt_(options) {}

  /// Empties the worklist for `positions` positions, the visit counters for
  /// `nodes` nodes, and points the statistics and status at the result.
  /// `components` (the plan's, sorted by head; empty for reverse post-order)
  /// makes the widening delay count the visits of each entry of a component.
  template <class Visits, class States, class Plan>
  void reset(std::size_t positions, Visits& visits, SolveStatistics& stats, SolveStatus& status, States& states,
             FlagArray& reached, const Plan& plan) {
    states_ = states.data();
    reached_ = &reached;
    widening_point_ = &plan.widening_point;
    const std::vector<PlanComponent>& components = plan.components;
    head_component_ = plan.head_component.data();
    worklist_.reset(positions);
    positions_ = positions;
    cursor_ = 0;
    sweep_end_ = 0;
    rewinding_ = false;
    visits_ = visits.data();
    stats_ = &stats;
    status_ = &status;
    components_ = &components;
    entry_visits_.assign(components.size(), 0);
    last_changed_position_ = no_position;
  }

  /// Sweeps every position once in order before the worklist takes over (all
  /// nodes start pending; cheaper than queueing them all).
  void sweep_all() noexcept { sweep_end_ = positions_; }

  /// Sweeps the positions in order, visiting each position the front end finds `dirty` and
  /// what `enqueue` names behind the sweep first; after `rescan_budget` positions passed
  /// again, the worklist takes over (see the file comment).
  void sweep_with_rewinds(std::size_t rescan_budget) noexcept {
    sweep_end_ = positions_;
    rewinding_ = true;
    rescan_budget_ = rescan_budget;
    if (!widening_point_->empty()) sweep_entry_visits_.assign(positions_, 0);
    stats_->swept = true;
  }

  /// The sweep's next position (meaningful while it sweeps: `sweep_with_rewinds`).
  [[nodiscard]] std::size_t sweep_cursor() const noexcept { return cursor_; }

  /// Queues position `pos` (ignored when out of the order or still ahead of the sweep).
  void enqueue(std::uint32_t pos) {
    if (pos == no_position || (pos >= cursor_ && pos < sweep_end_)) return;
    (void)worklist_.push(pos);
  }

  /// While sweeping (`sweep_with_rewinds`): the sweep goes on from `pos` if it is past it.
  void rewind(std::size_t pos) noexcept {
    if (rewinding_) cursor_ = std::min(cursor_, pos);
  }

  /// Whether the solve stopped (anything but converged so far).
  [[nodiscard]] bool stopped() const noexcept { return *status_ != SolveStatus::converged; }

  /// Stops the solve with `status` at position `pos`.
  void stop(SolveStatus status, std::size_t pos) {
    *status_ = status;
    self().stopped_at(status, pos);
  }

  /// The ascending phase, then the narrowing passes.
  void iterate() {
    if constexpr (requires(Derived& d, std::size_t pos) {
                    d.dirty(pos);
                    d.leave_sweep();
                  }) {
      if (rewinding_) sweep();
    }
    while (!stopped()) {
      self().drain();
      if (stopped()) break;
      if (!worklist_.empty()) {
        visit(worklist_.pop_min());  // everything queued lies behind the sweep
      } else if (cursor_ < sweep_end_) {
        visit(cursor_++);
      } else {
        break;
      }
    }
    if (stopped() || opt_.narrowing_passes == 0) return;
    self().begin_narrowing();
    narrow_passes();
  }

  /// Whether node `i` holds a state.
  [[nodiscard]] bool has_state(std::size_t i) const { return (*reached_)[i]; }
  /// The state of node `i` (meaningful when `has_state(i)`).
  [[nodiscard]] L& state(std::size_t i) { return states_[i]; }
  /// Gives node `i` its first state.
  void initialize(std::size_t i, L&& s) {
    states_[i] = std::move(s);
    (*reached_)[i] = true;
  }
  /// Whether position `pos` is a widening point of the order.
  [[nodiscard]] bool widening_point(std::size_t pos) const {
    return pos < widening_point_->size() && (*widening_point_)[pos];  // an identity plan has none
  }

  /// Bytes of the engine's own bookkeeping.
  [[nodiscard]] std::size_t engine_bytes() const noexcept { return worklist_.bytes(); }

  const SolverOptions& opt_;  ///< The options of the solve.
  L candidate_{};             ///< Scratch: the candidate state of the node being visited.

 private:
  Derived& self() { return static_cast<Derived&>(*this); }

  /// How many times the head at `pos` has been visited in the current entry
  /// of its component (Bourdoncle's recursive strategy: the component was
  /// entered anew when the last visit that *changed* a state lay outside it),
  /// counting this one; its overall visit count `visit_number` without
  /// components. Visits that change nothing do not count as leaving: the
  /// priority worklist visits an outer head (a lower position) between two
  /// rounds of an inner loop whenever the inner loop feeds it, and if that
  /// visit left the outer state as it was, nothing new entered the inner
  /// loop. Counting it as a re-entry would restart the inner delay on every
  /// round, so the inner head would never widen (a fuzzer-found hang: two
  /// nested self-loops, the inner one counting up by 15). With this rule an
  /// entry restarts only on a real change outside the component, and such
  /// changes stop by induction from the outermost component inwards (the
  /// outer heads widen), so every head eventually widens.
  std::uint32_t entry_visit(std::size_t pos, std::size_t previous, std::uint32_t visit_number) {
    if (rewinding_) {
      // A sweep enters a loop when it passes the head on its way forward, and iterates it when
      // a back edge queued the head behind it (see `sweep`).
      std::uint32_t& count = sweep_entry_visits_[pos];
      count = from_cursor_ ? 1 : count + 1;
      return count;
    }
    if (components_->empty()) return visit_number;
    // (by the plan's per-position index: a search of the components was a twentieth of the
    // instructions of an interval analysis with many loops)
    const std::uint32_t c = head_component_[pos];
    if (c == no_position) return visit_number;
    const PlanComponent& component = (*components_)[c];
    std::uint32_t& count = entry_visits_[c];
    const bool same_entry =
        count > 0 && previous != no_position && previous >= component.head && previous < component.end;
    count = same_entry ? count + 1 : 1;
    return count;
  }

  // Inlined into the loops that visit (the sweep's and the worklist's), and the front end's
  // `compute` and `propagate` into it: as calls, their prologues and epilogues were 3% of
  // SCCP's instructions on one large function (docs/performance.md, "Edges numbered as walked").
  // `Fresh`: the node was never visited and the front end found it computable (`dirty`) just
  // before (the sweep's first pass over a position): its first state is set without asking.
  template <bool Fresh = false>
  [[gnu::always_inline]] void visit(std::size_t pos) {
    Derived& d = self();
    const std::size_t previous = last_changed_position_;
    const std::size_t idx = d.index_at(pos);
    if (!d.template compute<Fresh>(pos, candidate_)) return;
    if (visits_[idx] >= opt_.max_visits_per_node) {
      stop(SolveStatus::visit_cap_reached, pos);
      return;
    }
    const std::uint32_t visit_number = ++visits_[idx];
    ++stats_->visits;
    if (!Fresh || stats_->max_visits == 0) stats_->max_visits = std::max<std::size_t>(stats_->max_visits, visit_number);
    VisitInfo<L> info{pos, idx, visit_number, false, false, false, ChangeResult::changed, nullptr};
    if (Fresh || !has_state(idx)) {
      info.first = true;
      ++stats_->nodes_reached;
      initialize(idx, std::move(candidate_));
    } else {
      L& current = this->state(idx);
      const bool keep_before = Derived::wants_before || opt_.check_change_results;
      if (keep_before) {
        before_ = current;
        info.before = &*before_;
      }
      bool widen_now = false;
      if constexpr (WidenableLattice<L>) {
        widen_now = opt_.widening && widening_point(pos) &&
                    entry_visit(pos, previous, visit_number) > opt_.widening_delay;
      }
      if (widen_now) {
        if constexpr (WidenableLattice<L>) info.change = current.widen(candidate_);
        info.widened = true;
        ++stats_->widenings;
      } else if (opt_.check_monotonicity && !current.leq(candidate_)) {
        info.non_monotone = true;
        (void)d.settle(info);
        stop(SolveStatus::non_monotone, pos);
        return;
      } else if (opt_.check_monotonicity && !opt_.check_change_results) {
        // current ⊑ candidate was just checked: their join is the candidate itself (no merge).
        info.change = current == candidate_ ? ChangeResult::unchanged : ChangeResult::changed;
        if (is_changed(info.change)) std::swap(current, candidate_);
      } else {
        info.change = current.join(candidate_);
      }
      if (opt_.check_change_results && (*before_ == current) == is_changed(info.change)) {
        stop(SolveStatus::wrong_change_result, pos);
        return;
      }
    }
    const Settled settled = d.settle(info);
    if (settled == Settled::non_monotone || settled == Settled::wrong_change_result) {
      stop(settled == Settled::non_monotone ? SolveStatus::non_monotone : SolveStatus::wrong_change_result, pos);
      return;
    }
    if (settled == Settled::unchanged) return;
    ++stats_->changed_visits;
    last_changed_position_ = pos;
    d.propagate(pos);
  }

  /// The sweep with rewinds (`sweep_with_rewinds`), until it ends or its budget runs out.
  void sweep() {
    Derived& d = self();
    std::size_t frontier = 0;  // one past the highest position the sweep has passed
    while (!stopped()) {
      d.drain();
      if (stopped()) return;
      std::size_t pos = 0;
      from_cursor_ = false;
      if (!worklist_.empty() && worklist_.peek_min() < cursor_) {
        pos = worklist_.pop_min();  // named behind the sweep: visited before it goes on
      } else if (cursor_ < positions_) {
        pos = cursor_++;
        from_cursor_ = true;
        if (pos >= frontier) {
          // Never passed, so never visited: only positions behind the sweep are queued.
          frontier = pos + 1;
          if (d.dirty(pos)) visit<true>(pos);
          continue;
        }
        if (++stats_->rescans > rescan_budget_) {
          abandon_sweep();
          return;
        }
      } else {
        break;
      }
      if (d.dirty(pos)) visit(pos);
    }
    rewinding_ = false;
    sweep_end_ = 0;
  }

  /// Hands the rest of a sweep to the worklist: the front end derives what `propagate` needs,
  /// and every position still dirty is queued.
  void abandon_sweep() {
    Derived& d = self();
    rewinding_ = false;
    stats_->sweep_abandoned = true;
    d.leave_sweep();
    for (std::size_t pos = 0; pos < positions_; ++pos) {
      if (d.dirty(pos)) (void)worklist_.push(static_cast<std::uint32_t>(pos));
    }
    cursor_ = 0;
    sweep_end_ = 0;
  }

  void narrow_passes() {
    Derived& d = self();
    for (std::uint32_t pass = 0; pass < opt_.narrowing_passes; ++pass) {
      bool any = false;
      for (std::size_t pos = 0; pos < positions_; ++pos) {
        const std::size_t idx = d.index_at(pos);
        if (!has_state(idx)) continue;
        if (!d.template compute<false>(pos, candidate_)) continue;
        ++stats_->visits;
        ++stats_->narrowing_visits;
        L& current = this->state(idx);
        if constexpr (NarrowableLattice<L>) {
          if (widening_point(pos)) {
            L narrowed = current;
            (void)narrowed.narrow(candidate_);
            candidate_ = std::move(narrowed);
          }
        }
        // Only ever move strictly down, so the states stay a post-fixpoint.
        if (!candidate_.leq(current) || current.leq(candidate_)) continue;
        if (d.narrow(pos, idx, candidate_)) any = true;
      }
      if (!any) break;
    }
  }

  PriorityWorklist worklist_;
  std::size_t positions_ = 0;
  std::size_t cursor_ = 0;     // sweep position: positions at or after it are still pending
  std::size_t sweep_end_ = 0;  // end of the initial sweep (0: no sweep)
  bool rewinding_ = false;     // sweeping with rewinds (`sweep_with_rewinds`)
  bool from_cursor_ = false;   // the sweep's current visit is its way forward (not a queued one)
  std::size_t rescan_budget_ = 0;
  LargeArray<std::uint32_t> sweep_entry_visits_;  // by position: visits of a widening point in its entry
  std::uint32_t* visits_ = nullptr;
  SolveStatistics* stats_ = nullptr;
  SolveStatus* status_ = nullptr;
  std::optional<L> before_;
  const std::vector<PlanComponent>* components_ = nullptr;
  const std::uint32_t* head_component_ = nullptr;  // the plan's, by position (with components)
  L* states_ = nullptr;
  FlagArray* reached_ = nullptr;
  const FlagArray* widening_point_ = nullptr;
  std::vector<std::uint32_t> entry_visits_;  // by component: visits of its head in the current entry
  std::size_t last_changed_position_ = no_position;  // the position of the last visit that changed a state

};

/// Everything reachable from `seeds` over `for_each_neighbour(node, visit)`, as
/// one flag per node in `[0, count)`: the nodes an incremental re-solve resets.
template <class Seeds, class Neighbours>
[[nodiscard]] std::vector<bool> affected_closure(std::size_t count, const Seeds& seeds, Neighbours&& for_each_neighbour) {
  std::vector<bool> affected(count, false);
  std::vector<std::size_t> stack;
  auto touch = [&](std::size_t i) {
    if (affected[i]) return;
    affected[i] = true;
    stack.push_back(i);
  };
  for (const std::size_t s : seeds) touch(s);
  while (!stack.empty()) {
    const std::size_t i = stack.back();
    stack.pop_back();
    for_each_neighbour(i, touch);
  }
  return affected;
}

}  // namespace kildall::detail
