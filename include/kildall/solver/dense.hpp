#pragma once
/// \file
/// The dense (program-point) fixed-point solver: Kildall's algorithm (POPL
/// 1973) with a priority worklist, executable-edge tracking, widening,
/// narrowing and a visit cap.
///
/// Every vertex `v` of a graph has an in-state and an out-state:
///
///     in[v]  = boundary(v) (if v is a root)  ⊔  ⊔ { edge(e, out[u]) : e = u -> v executable, u reached }
///     out[v] = transfer(v, in[v])
///
/// where `edge(e, s)` is `problem.transfer_edge(e, s)` when the problem refines
/// states along edges (on the true edge of `x < 10`, `x` is narrowed) and `s`
/// otherwise, and an edge is executable unless `problem.edge_executable(e, s)`
/// says it is not (a branch on a known constant). A vertex is visited only
/// once an executable edge (or being a root) reaches it; vertices never reached
/// end *uninitialized*: `before`/`after` return nullptr, never a bottom
/// pretending to have been reached.
///
/// A backward problem (liveness) runs the same engine on `Reversed<G>`, a
/// non-owning view: `solve_backward(g, exits, problem)`; edges handed to the
/// problem are still `G`'s edges. Results speak in program order in both
/// directions: `before(v)` is the state at the top of `v` (live-in),
/// `after(v)` at its bottom (live-out).
///
/// The iteration policy (worklist, visit cap, widening, monotonicity check,
/// narrowing, statistics) is the shared engine of `detail/fixpoint.hpp`; this
/// header supplies the dense equations. The worklist is a `PriorityWorklist`
/// over Bourdoncle's weak topological order (default) or the reverse
/// post-order of the vertices reachable from the roots; entries are
/// deduplicated. Widening applies at widening points (WTO
/// heads, retreating-edge targets) after `SolverOptions::widening_delay`
/// visits; an optional narrowing phase follows; a per-vertex visit cap stops
/// anything that does not converge with a status naming the vertex.
/// Incremental re-solve (`resolve_forward`/`resolve_backward`) starts from a
/// previous result and re-visits only what a change can affect.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/reversed.hpp>
#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>
#include <kildall/solver/detail/fixpoint.hpp>
#include <kildall/solver/detail/iteration_plan.hpp>
#include <kildall/support/large_array_allocator.hpp>
#include <kildall/solver/detail/roots.hpp>
#include <kildall/solver/observer.hpp>
#include <kildall/solver/options.hpp>
#include <kildall/solver/problem.hpp>
#include <kildall/solver/status.hpp>

namespace kildall {

/// The direction a dense problem flows in.
enum class Direction : std::uint8_t {
  forward,   ///< Along edges: roots are entries, in-states join predecessors.
  backward,  ///< Against edges: roots are exits, in-states join successors.
};

/// A dense problem over graph `G`:
///
/// ```
/// struct P {
///   using lattice_type = L;                      // a JoinSemiLattice
///   L boundary(vertex_t<G> root) const;          // state entering a root
///   L transfer(vertex_t<G> v, const L& in) const;
///   // optional:
///   bool edge_executable(edge_t<G> e, const L& from) const;  // false: e is dead given `from`
///   L transfer_edge(edge_t<G> e, const L& from) const;      // refine along e
/// };
/// ```
///
/// `from` is the out-state of the edge's origin in the analysis direction
/// (its source for forward problems, its target for backward ones).
/// `transfer`, `transfer_edge` and `edge_executable` must be monotone.
template <class P, class G>
concept DenseProblem = IndexedGraph<G> && requires { typename lattice_t<P>; } && JoinSemiLattice<lattice_t<P>> &&
                       requires(const P& p, const vertex_t<G>& v, const lattice_t<P>& s) {
                         { p.boundary(v) } -> std::convertible_to<lattice_t<P>>;
                         { p.transfer(v, s) } -> std::convertible_to<lattice_t<P>>;
                       };

/// A dense problem that can declare edges dead from the state at their origin.
template <class P, class G>
concept DenseEdgeExecutability = DenseProblem<P, G> && requires(const P& p, const edge_t<G>& e, const lattice_t<P>& s) {
  { p.edge_executable(e, s) } -> std::convertible_to<bool>;
};

/// A dense problem that refines states along edges.
template <class P, class G>
concept DenseEdgeTransfer = DenseProblem<P, G> && requires(const P& p, const edge_t<G>& e, const lattice_t<P>& s) {
  { p.transfer_edge(e, s) } -> std::convertible_to<lattice_t<P>>;
};

namespace detail {
template <class G, class TG, class P, class O>
class DenseEngine;
}  // namespace detail

/// The outcome of a dense solve over graph `G`: per-vertex states before and
/// after each vertex *in program order* (or "never reached"), visit counts,
/// statistics and status. Holds a pointer to the graph, which must outlive it.
///
/// For a forward problem `before(v)` is the join over `v`'s executable
/// in-edges (the state `v`'s transfer reads) and `after(v)` what the transfer
/// produced. For a backward problem (liveness) it is the other way round:
/// `after(v)` is the join over `v`'s successors (live-out) and `before(v)` the
/// transfer's result (live-in). Either way, `before` is the state at the top
/// of `v` and `after` at its bottom.
template <class G, class L>
class DenseResult {
 public:
  /// The vertex handle.
  using vertex_type = vertex_t<G>;
  /// The lattice.
  using lattice_type = L;

  /// The state at the top of `v` in program order, or nullptr if `v` was never reached.
  [[nodiscard]] const L* before(const vertex_type& v) const {
    return direction_ == Direction::forward ? input(v) : output(v);
  }
  /// The state at the bottom of `v` in program order, or nullptr if `v` was never reached.
  [[nodiscard]] const L* after(const vertex_type& v) const {
    return direction_ == Direction::forward ? output(v) : input(v);
  }
  /// Whether `v` was reached (holds states).
  [[nodiscard]] bool reached(const vertex_type& v) const {
    const std::size_t i = index(v);
    return i < reached_.size() && reached_[i];
  }
  /// How many times `v` was visited (ascending phase).
  [[nodiscard]] std::uint32_t visits(const vertex_type& v) const {
    const std::size_t i = index(v);
    return i < visits_.size() ? visits_[i] : 0;
  }
  /// Status of the solve.
  [[nodiscard]] SolveStatus status() const noexcept { return outcome_.status; }
  /// True when the states form a post-fixpoint.
  [[nodiscard]] bool converged() const noexcept { return outcome_.converged(); }
  /// Status plus the vertex that stopped the solve, if any.
  [[nodiscard]] const SolveOutcome<vertex_type>& outcome() const noexcept { return outcome_; }
  /// Counters of the solve.
  [[nodiscard]] const SolveStatistics& statistics() const noexcept { return stats_; }
  /// The direction of the problem.
  [[nodiscard]] Direction direction() const noexcept { return direction_; }
  /// The roots the solve started from (entries for forward, exits for backward problems).
  [[nodiscard]] const std::vector<vertex_type>& roots() const noexcept { return roots_; }
  /// The graph the result is about.
  [[nodiscard]] const G& graph() const noexcept { return *graph_; }

 private:
  template <class, class, class, class>
  friend class detail::DenseEngine;

  [[nodiscard]] std::size_t index(const vertex_type& v) const { return vertex_index(*graph_, v); }
  // The state the transfer read (the join in the analysis direction) and the one it produced.
  [[nodiscard]] const L* input(const vertex_type& v) const {
    const std::size_t i = index(v);
    return i < reached_.size() && reached_[i] ? &in_[i] : nullptr;
  }
  [[nodiscard]] const L* output(const vertex_type& v) const {
    const std::size_t i = index(v);
    return i < reached_.size() && reached_[i] ? &out_[i] : nullptr;
  }

  const G* graph_ = nullptr;
  Direction direction_ = Direction::forward;
  std::vector<vertex_type> roots_;
  detail::LargeArray<L> in_;
  detail::LargeArray<L> out_;
  detail::FlagArray reached_;
  detail::LargeArray<std::uint32_t> visits_;
  SolveOutcome<vertex_type> outcome_;
  SolveStatistics stats_;
};

namespace detail {

/// The dense front end of the fixpoint engine: runs over the traversal graph
/// `TG` (`G` or `Reversed<G>`), fills a `DenseResult<G, L>`. The engine moves
/// a vertex's in-state; `settle` applies the transfer to it.
template <class G, class TG, class P, class O>
class DenseEngine : public FixpointEngine<DenseEngine<G, TG, P, O>, lattice_t<P>> {
  using Base = FixpointEngine<DenseEngine<G, TG, P, O>, lattice_t<P>>;
  friend Base;

 public:
  using L = lattice_t<P>;
  using Vertex = vertex_t<G>;
  using Result = DenseResult<G, L>;
  static constexpr bool has_executability = DenseEdgeExecutability<P, G>;
  static constexpr bool has_edge_transfer = DenseEdgeTransfer<P, G>;
  static constexpr bool wants_before = false;

  DenseEngine(const G& g, const TG& tg, Direction dir, const P& problem, const SolverOptions& options, O& observer)
      : Base(options), g_(g), tg_(tg), dir_(dir), p_(problem), obs_(observer) {}

  /// A fresh solve from `roots`.
  Result run(std::vector<Vertex> roots) {
    Result r;
    r_ = &r;
    init_result(r, std::move(roots));
    const std::size_t n = vertex_count(g_);
    r.in_.assign(n, L{});
    r.out_.assign(n, L{});
    r.reached_.assign(n, false);
    r.visits_.assign(n, 0);
    if (!valid_roots(r)) return r;
    prepare(r);
    for (const auto& root : r.roots_) this->enqueue(plan_.position[vertex_index(g_, root)]);
    this->iterate();
    finish(r);
    return r;
  }

  /// Re-solves after a change at `changed` (vertices whose transfer changed,
  /// or targets of added/removed edges, in the analysis direction), reusing
  /// `previous` for every vertex the change cannot reach.
  Result rerun(Result previous, std::vector<Vertex> roots, const std::vector<Vertex>& changed) {
    Result r = std::move(previous);
    r_ = &r;
    init_result(r, std::move(roots));
    const std::size_t n = vertex_count(g_);
    r.in_.resize(n);
    r.out_.resize(n);
    r.reached_.resize(n, false);
    r.visits_.assign(n, 0);
    if (!valid_roots(r) || first_invalid_root(g_, changed) != changed.size()) {
      r.outcome_.status = SolveStatus::invalid_input;
      return r;
    }
    prepare(r);
    // Everything reachable from a change may move (up or down): reset it to
    // "not reached" and recompute it from the unaffected rest.
    std::vector<std::size_t> seeds;
    for (const auto& v : changed) seeds.push_back(vertex_index(g_, v));
    const std::vector<Vertex>& vertex_at = vertices_by_index();
    const std::vector<bool> affected = affected_closure(n, seeds, [&](std::size_t i, auto&& touch) {
      for (const auto& e : out_edge_range(tg_, vertex_at[i])) touch(vertex_index(g_, target(e, tg_)));
    });
    for (std::size_t i = 0; i < n; ++i) {
      if (!affected[i]) continue;
      r.reached_[i] = false;
      r.in_[i] = L{};
      r.out_[i] = L{};
    }
    for (std::size_t pos = 0; pos < plan_.order.size(); ++pos) {
      if (affected[vertex_index(g_, plan_.order[pos])]) this->enqueue(static_cast<std::uint32_t>(pos));
    }
    this->iterate();
    finish(r);
    return r;
  }

 private:
  // --- what the engine asks of a front end -------------------------------

  [[nodiscard]] std::size_t index_at(std::size_t pos) const { return vertex_index(g_, plan_.order[pos]); }
  void drain() {}
  void begin_narrowing() {}
  void stopped_at(SolveStatus, std::size_t pos) {
    const Vertex v = plan_.order[pos];
    r_->outcome_.offending_node = v;
    r_->outcome_.offending_index = vertex_index(g_, v);
  }

  /// The in-state of the vertex at `pos`: its boundary (a root) joined with
  /// what its executable incoming edges carry; false when nothing reaches it. (The dense solve
  /// never sweeps with rewinds, so never visits `Fresh`.)
  template <bool Fresh>
  bool compute(std::size_t pos, L& out) const {
    static_assert(!Fresh);
    const Vertex v = plan_.order[pos];
    const Result& r = *r_;
    bool have = false;
    if (is_root_[vertex_index(g_, v)]) {
      out = static_cast<L>(p_.boundary(v));
      have = true;
    }
    for (const auto& e : in_edge_range(tg_, v)) {
      const std::size_t ui = vertex_index(g_, source(e, tg_));
      if (!r.reached_[ui]) continue;
      const L& from = r.out_[ui];
      if (!executable(e, from)) continue;
      if constexpr (has_edge_transfer) {
        L refined = static_cast<L>(p_.transfer_edge(e, from));
        if (!have) {
          out = std::move(refined);
          have = true;
        } else {
          (void)out.join(refined);
        }
      } else {
        if (!have) {
          out = from;
          have = true;
        } else {
          (void)out.join(from);
        }
      }
    }
    return have;
  }

  /// After the in-state moved: apply the transfer and move the out-state up.
  Settled settle(const VisitInfo<L>& info) {
    Result& r = *r_;
    const Vertex v = plan_.order[info.position];
    const std::size_t vi = info.index;
    if (info.non_monotone) return Settled::non_monotone;
    if (!info.first && !is_changed(info.change)) {
      if constexpr (observer_enabled<O>) {
        obs_.on_visit(VisitEvent<Vertex, L>{v, VisitPhase::ascending, info.visit, &r.in_[vi], &r.out_[vi],
                                            &r.out_[vi], info.widened, ChangeResult::unchanged});
      }
      return Settled::unchanged;
    }
    out_candidate_ = static_cast<L>(p_.transfer(v, r.in_[vi]));
    if (info.first) {
      if constexpr (observer_enabled<O>) {
        notify_reached(obs_, v);
        obs_.on_visit(VisitEvent<Vertex, L>{v, VisitPhase::ascending, info.visit, &r.in_[vi], nullptr,
                                            &out_candidate_, info.widened, ChangeResult::changed});
      }
      std::swap(r.out_[vi], out_candidate_);
      return Settled::changed;
    }
    L& out = r.out_[vi];
    if (this->opt_.check_monotonicity && !out.leq(out_candidate_)) return Settled::non_monotone;
    const bool check = this->opt_.check_change_results;
    if (observer_enabled<O> || check) old_out_ = out;
    ChangeResult change;
    if (this->opt_.check_monotonicity && !check) {
      // out ⊑ candidate was just checked: their join is the candidate itself.
      change = out == out_candidate_ ? ChangeResult::unchanged : ChangeResult::changed;
      if (is_changed(change)) std::swap(out, out_candidate_);
    } else {
      change = out.join(out_candidate_);
    }
    if (check && (old_out_ == out) == is_changed(change)) return Settled::wrong_change_result;
    if constexpr (observer_enabled<O>) {
      obs_.on_visit(VisitEvent<Vertex, L>{v, VisitPhase::ascending, info.visit, &r.in_[vi], &old_out_, &out,
                                          info.widened, change});
    }
    return is_changed(change) ? Settled::changed : Settled::unchanged;
  }

  void propagate(std::size_t pos) {
    const Vertex v = plan_.order[pos];
    const L& from = r_->out_[vertex_index(g_, v)];
    for (const auto& e : out_edge_range(tg_, v)) {
      if (!executable(e, from)) continue;
      this->enqueue(plan_.position[vertex_index(g_, target(e, tg_))]);
    }
  }

  /// Narrowing: commit the strictly lower in-state `in` if its transfer stays below the out-state.
  bool narrow(std::size_t pos, std::size_t vi, L& in) {
    Result& r = *r_;
    out_candidate_ = static_cast<L>(p_.transfer(plan_.order[pos], in));
    if (!out_candidate_.leq(r.out_[vi])) return false;
    if constexpr (observer_enabled<O>) {
      obs_.on_visit(VisitEvent<Vertex, L>{plan_.order[pos], VisitPhase::narrowing, r.visits_[vi], &in, &r.out_[vi],
                                          &out_candidate_, false, change_if(!r.out_[vi].leq(out_candidate_))});
    }
    std::swap(r.in_[vi], in);
    std::swap(r.out_[vi], out_candidate_);
    return true;
  }

  // --- the rest ----------------------------------------------------------

  void init_result(Result& r, std::vector<Vertex> roots) {
    r.graph_ = &g_;
    r.direction_ = dir_;
    r.roots_ = std::move(roots);
    r.outcome_ = {};
    r.stats_ = {};
    r.stats_.nodes = vertex_count(g_);
  }

  bool valid_roots(Result& r) {
    const std::size_t bad = first_invalid_root(g_, r.roots_);
    if (bad == r.roots_.size()) return true;
    r.outcome_.status = SolveStatus::invalid_input;
    return false;
  }

  void prepare(Result& r) {
    plan_ = make_iteration_plan(tg_, r.roots_, this->opt_.order);
    this->reset(plan_.order.size(), r.visits_, r.stats_, r.outcome_.status, r.in_, r.reached_, plan_);
    is_root_.assign(vertex_count(g_), false);
    for (const auto& root : r.roots_) is_root_[vertex_index(g_, root)] = true;
  }

  /// Every vertex by its index (for the closure of a re-solve).
  std::vector<Vertex> vertices_by_index() const {
    std::vector<std::optional<Vertex>> slots(vertex_count(g_));
    for (const auto& v : vertex_range(g_)) slots[vertex_index(g_, v)].emplace(v);
    std::vector<Vertex> out;
    out.reserve(slots.size());
    for (auto& s : slots) out.push_back(*s);
    return out;
  }

  void finish(Result& r) {
    std::size_t reached = 0;
    for (std::size_t i = 0; i < r.reached_.size(); ++i) reached += r.reached_[i] ? 1 : 0;
    r.stats_.nodes_reached = reached;
    r.stats_.bookkeeping_bytes = plan_.bytes() + this->engine_bytes() + r.reached_.capacity() +
                                 r.visits_.capacity() * sizeof(std::uint32_t) + is_root_.capacity() / 8;
  }

  /// Whether edge `e` of the traversal graph, leaving a reached vertex with out-state `from`, is executable.
  template <class Edge>
  bool executable(const Edge& e, const L& from) const {
    if constexpr (has_executability) {
      return static_cast<bool>(p_.edge_executable(e, from));
    } else {
      (void)e;
      (void)from;
      return true;
    }
  }

  const G& g_;
  const TG& tg_;
  Direction dir_;
  const P& p_;
  O& obs_;
  Result* r_ = nullptr;
  IterationPlan<Vertex> plan_;
  std::vector<bool> is_root_;
  L out_candidate_{};
  L old_out_{};
};

}  // namespace detail

/// Solves a forward dense problem on `g` from `entries` (one vertex or a range).
/// `observer` (optional) sees every visit.
template <AnalysisGraph G, class Entries, class P, class O = NoObserver>
  requires DenseProblem<P, G> && RootsOf<Entries, G>
[[nodiscard]] DenseResult<G, lattice_t<P>> solve_forward(const G& g, const Entries& entries, const P& problem,
                                                         const SolverOptions& options = {}, O&& observer = O{}) {
  detail::DenseEngine<G, G, P, std::remove_reference_t<O>> engine(g, g, Direction::forward, problem, options,
                                                                  observer);
  return engine.run(detail::collect_roots<G>(entries));
}

/// Solves a backward dense problem on `g` from `exits` (one vertex or a
/// range): the forward engine on the non-owning view `Reversed<G>`.
template <AnalysisGraph G, class Exits, class P, class O = NoObserver>
  requires DenseProblem<P, G> && RootsOf<Exits, G>
[[nodiscard]] DenseResult<G, lattice_t<P>> solve_backward(const G& g, const Exits& exits, const P& problem,
                                                          const SolverOptions& options = {}, O&& observer = O{}) {
  const Reversed<G> view(g);
  detail::DenseEngine<G, Reversed<G>, P, std::remove_reference_t<O>> engine(g, view, Direction::backward, problem,
                                                                            options, observer);
  return engine.run(detail::collect_roots<G>(exits));
}

/// Incremental forward re-solve: `previous` is the result of an earlier
/// `solve_forward` of `problem` on `g` (moved in and reused); `changed` lists
/// the vertices whose transfer changed and the targets of edges added or
/// removed since. Only vertices reachable from `changed` are reset and
/// re-visited; the answer equals a fresh solve whenever the fixpoint does not
/// depend on the iteration order (always without widening). `g` may have
/// gained vertices.
template <AnalysisGraph G, class Entries, class P, class Changed, class O = NoObserver>
  requires DenseProblem<P, G> && RootsOf<Entries, G> && RootsOf<Changed, G>
[[nodiscard]] DenseResult<G, lattice_t<P>> resolve_forward(const G& g, const Entries& entries, const P& problem,
                                                           DenseResult<G, lattice_t<P>> previous,
                                                           const Changed& changed, const SolverOptions& options = {},
                                                           O&& observer = O{}) {
  detail::DenseEngine<G, G, P, std::remove_reference_t<O>> engine(g, g, Direction::forward, problem, options,
                                                                  observer);
  return engine.rerun(std::move(previous), detail::collect_roots<G>(entries), detail::collect_roots<G>(changed));
}

/// Incremental backward re-solve; as `resolve_forward`, with `changed` listing
/// the vertices whose transfer changed and the *sources* of edges added or
/// removed (the targets in the analysis direction).
template <AnalysisGraph G, class Exits, class P, class Changed, class O = NoObserver>
  requires DenseProblem<P, G> && RootsOf<Exits, G> && RootsOf<Changed, G>
[[nodiscard]] DenseResult<G, lattice_t<P>> resolve_backward(const G& g, const Exits& exits, const P& problem,
                                                            DenseResult<G, lattice_t<P>> previous,
                                                            const Changed& changed,
                                                            const SolverOptions& options = {}, O&& observer = O{}) {
  const Reversed<G> view(g);
  detail::DenseEngine<G, Reversed<G>, P, std::remove_reference_t<O>> engine(g, view, Direction::backward, problem,
                                                                            options, observer);
  return engine.rerun(std::move(previous), detail::collect_roots<G>(exits), detail::collect_roots<G>(changed));
}

}  // namespace kildall
