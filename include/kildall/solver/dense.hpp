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
/// end *uninitialized*: `lookup_in`/`lookup_out` return nullptr, never a
/// bottom pretending to have been reached.
///
/// A backward problem (liveness) runs the same engine on `Reversed<G>`, a
/// non-owning view: `solve_backward(g, exits, problem)`. Then "in" is the
/// state after the vertex in program order (e.g. live-out) and "out" the state
/// before it (live-in); edges handed to the problem are still `G`'s edges.
///
/// The worklist is a `PriorityWorklist` over the reverse post-order (default)
/// or Bourdoncle's weak topological order of the vertices reachable from the
/// roots; entries are deduplicated. Widening applies at widening points (WTO
/// heads, retreating-edge targets) after `SolverOptions::widening_delay`
/// visits; an optional narrowing phase follows; a per-vertex visit cap stops
/// anything that does not converge with a status naming the vertex.
/// Incremental re-solve (`resolve_forward`/`resolve_backward`) starts from a
/// previous result and re-visits only what a change can affect.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/reversed.hpp>
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

/// The outcome of a dense solve over graph `G`: per-vertex in/out states (or
/// "never reached"), visit counts, statistics and status. Holds a pointer to
/// the graph, which must outlive it.
template <class G, class L>
class DenseResult {
 public:
  /// The vertex handle.
  using vertex_type = vertex_t<G>;
  /// The lattice.
  using lattice_type = L;

  /// The state entering `v`'s transfer (the join over its executable
  /// incoming edges in the analysis direction), or nullptr if `v` was never reached.
  [[nodiscard]] const L* lookup_in(const vertex_type& v) const {
    const std::size_t i = index(v);
    return i < reached_.size() && reached_[i] ? &in_[i] : nullptr;
  }
  /// The state `v`'s transfer produced, or nullptr if `v` was never reached.
  [[nodiscard]] const L* lookup_out(const vertex_type& v) const {
    const std::size_t i = index(v);
    return i < reached_.size() && reached_[i] ? &out_[i] : nullptr;
  }
  /// Same as `lookup_out`.
  [[nodiscard]] const L* lookup(const vertex_type& v) const { return lookup_out(v); }
  /// Whether `v` was reached (holds states).
  [[nodiscard]] bool reached(const vertex_type& v) const { return lookup_out(v) != nullptr; }
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
  /// The roots (entries for forward, exits for backward problems).
  [[nodiscard]] const std::vector<vertex_type>& roots() const noexcept { return roots_; }
  /// The graph the result is about.
  [[nodiscard]] const G& graph() const noexcept { return *graph_; }

 private:
  template <class, class, class, class>
  friend class detail::DenseEngine;

  [[nodiscard]] std::size_t index(const vertex_type& v) const { return vertex_index(*graph_, v); }

  const G* graph_ = nullptr;
  Direction direction_ = Direction::forward;
  std::vector<vertex_type> roots_;
  std::vector<L, detail::LargeArrayAllocator<L>> in_;
  std::vector<L, detail::LargeArrayAllocator<L>> out_;
  std::vector<bool> reached_;
  std::vector<std::uint32_t, detail::LargeArrayAllocator<std::uint32_t>> visits_;
  SolveOutcome<vertex_type> outcome_;
  SolveStatistics stats_;
};

namespace detail {

/// The engine: runs over the traversal graph `TG` (`G` or `Reversed<G>`),
/// fills a `DenseResult<G, L>`.
template <class G, class TG, class P, class O>
class DenseEngine {
 public:
  using L = lattice_t<P>;
  using Vertex = vertex_t<G>;
  using Result = DenseResult<G, L>;
  static constexpr bool has_executability = DenseEdgeExecutability<P, G>;
  static constexpr bool has_edge_transfer = DenseEdgeTransfer<P, G>;

  DenseEngine(const G& g, const TG& tg, Direction dir, const P& problem, const SolverOptions& options, O& observer)
      : g_(g), tg_(tg), dir_(dir), p_(problem), opt_(options), obs_(observer) {}

  /// A fresh solve from `roots`.
  Result run(std::vector<Vertex> roots) {
    Result r;
    init_result(r, std::move(roots));
    const std::size_t n = vertex_count(g_);
    r.in_.assign(n, L{});
    r.out_.assign(n, L{});
    r.reached_.assign(n, false);
    r.visits_.assign(n, 0);
    if (!valid_roots(r)) return r;
    prepare(r);
    for (const auto& root : r.roots_) (void)worklist_.push(plan_.position[vertex_index(g_, root)]);
    iterate(r);
    finish(r);
    return r;
  }

  /// Re-solves after a change at `changed` (vertices whose transfer changed,
  /// or targets of added/removed edges, in the analysis direction), reusing
  /// `previous` for every vertex the change cannot reach.
  Result rerun(Result previous, std::vector<Vertex> roots, const std::vector<Vertex>& changed) {
    Result r = std::move(previous);
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
    std::vector<bool> affected(n, false);
    std::vector<Vertex> stack(changed.begin(), changed.end());
    for (const auto& v : changed) affected[vertex_index(g_, v)] = true;
    while (!stack.empty()) {
      const Vertex v = stack.back();
      stack.pop_back();
      for (const auto& e : out_edge_range(tg_, v)) {
        const Vertex w = target(e, tg_);
        const std::size_t wi = vertex_index(g_, w);
        if (!affected[wi]) {
          affected[wi] = true;
          stack.push_back(w);
        }
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (!affected[i]) continue;
      r.reached_[i] = false;
      r.in_[i] = L{};
      r.out_[i] = L{};
    }
    for (std::size_t pos = 0; pos < plan_.order.size(); ++pos) {
      if (affected[vertex_index(g_, plan_.order[pos])]) (void)worklist_.push(pos);
    }
    iterate(r);
    finish(r);
    return r;
  }

 private:
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
    plan_ = make_iteration_plan(tg_, r.roots_, opt_.order);
    worklist_.reset(plan_.order.size());
    is_root_.assign(vertex_count(g_), false);
    for (const auto& root : r.roots_) is_root_[vertex_index(g_, root)] = true;
  }

  void finish(Result& r) {
    std::size_t reached = 0;
    std::size_t max_visits = 0;
    for (std::size_t i = 0; i < r.reached_.size(); ++i) {
      reached += r.reached_[i] ? 1 : 0;
      max_visits = std::max<std::size_t>(max_visits, r.visits_[i]);
    }
    r.stats_.nodes_reached = reached;
    r.stats_.max_visits = max_visits;
    r.stats_.bookkeeping_bytes = plan_.bytes() + worklist_.bytes() + r.reached_.capacity() / 8 +
                                 r.visits_.capacity() * sizeof(std::uint32_t) + is_root_.capacity() / 8;
  }

  [[nodiscard]] bool stopped(const Result& r) const { return r.outcome_.status != SolveStatus::converged; }

  void stop(Result& r, SolveStatus s, const Vertex& v) {
    r.outcome_.status = s;
    r.outcome_.offending_node = v;
    r.outcome_.offending_index = vertex_index(g_, v);
  }

  /// Whether edge `e` of the traversal graph, leaving reached vertex `u`, is executable.
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

  /// Joins the contributions of `v`'s executable incoming edges (and its
  /// boundary, for a root) into `out`; false when nothing reaches `v`.
  bool pull(const Result& r, const Vertex& v, L& out) const {
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

  void push_successors(const Result& r, const Vertex& v) {
    const L& from = r.out_[vertex_index(g_, v)];
    for (const auto& e : out_edge_range(tg_, v)) {
      if (!executable(e, from)) continue;
      const std::uint32_t q = plan_.position[vertex_index(g_, target(e, tg_))];
      if (q != no_position) (void)worklist_.push(q);
    }
  }

  void visit(Result& r, std::size_t pos) {
    const Vertex v = plan_.order[pos];
    const std::size_t vi = vertex_index(g_, v);
    if (!pull(r, v, in_candidate_)) return;  // not reached (yet)
    if (r.visits_[vi] >= opt_.max_visits_per_node) {
      stop(r, SolveStatus::visit_cap_reached, v);
      return;
    }
    const std::uint32_t visit_number = ++r.visits_[vi];
    ++r.stats_.visits;
    const bool was_reached = r.reached_[vi];
    bool widened = false;
    if constexpr (WidenableLattice<L>) {
      if (opt_.widening && was_reached && plan_.widening_point[pos] && visit_number > opt_.widening_delay) {
        L w = r.in_[vi];
        (void)w.widen(in_candidate_);
        in_candidate_ = std::move(w);
        widened = true;
        ++r.stats_.widenings;
      }
    }
    if (was_reached && in_candidate_ == r.in_[vi]) {
      if constexpr (observer_enabled<O>) {
        obs_.on_visit(VisitEvent<Vertex, L>{v, VisitPhase::ascending, visit_number, &r.in_[vi], &r.out_[vi],
                                            &r.out_[vi], widened, ChangeResult::unchanged});
      }
      return;
    }
    if (was_reached && opt_.check_monotonicity && !r.in_[vi].leq(in_candidate_)) {
      stop(r, SolveStatus::non_monotone, v);
      return;
    }
    out_candidate_ = static_cast<L>(p_.transfer(v, in_candidate_));
    const bool changed = !was_reached || !(out_candidate_ == r.out_[vi]);
    if constexpr (observer_enabled<O>) {
      if (!was_reached) notify_reached(obs_, v);
      obs_.on_visit(VisitEvent<Vertex, L>{v, VisitPhase::ascending, visit_number, &in_candidate_,
                                          was_reached ? &r.out_[vi] : nullptr, &out_candidate_, widened,
                                          change_if(changed)});
    }
    if (changed && was_reached && opt_.check_monotonicity && !r.out_[vi].leq(out_candidate_)) {
      stop(r, SolveStatus::non_monotone, v);
      return;
    }
    std::swap(r.in_[vi], in_candidate_);
    r.reached_[vi] = true;
    if (!changed) return;
    ++r.stats_.changed_visits;
    std::swap(r.out_[vi], out_candidate_);
    push_successors(r, v);
  }

  void iterate(Result& r) {
    while (!worklist_.empty() && !stopped(r)) visit(r, worklist_.pop_min());
    if (!stopped(r)) narrow(r);
  }

  void narrow(Result& r) {
    for (std::uint32_t pass = 0; pass < opt_.narrowing_passes; ++pass) {
      bool any = false;
      for (std::size_t pos = 0; pos < plan_.order.size(); ++pos) {
        const Vertex v = plan_.order[pos];
        const std::size_t vi = vertex_index(g_, v);
        if (!r.reached_[vi]) continue;
        if (!pull(r, v, in_candidate_)) continue;
        ++r.stats_.visits;
        ++r.stats_.narrowing_visits;
        if constexpr (NarrowableLattice<L>) {
          if (plan_.widening_point[pos]) {
            L narrowed = r.in_[vi];
            (void)narrowed.narrow(in_candidate_);
            in_candidate_ = std::move(narrowed);
          }
        }
        // Only ever move down, so the states stay a post-fixpoint.
        if (!in_candidate_.leq(r.in_[vi]) || in_candidate_ == r.in_[vi]) continue;
        out_candidate_ = static_cast<L>(p_.transfer(v, in_candidate_));
        if (!out_candidate_.leq(r.out_[vi])) continue;
        if constexpr (observer_enabled<O>) {
          obs_.on_visit(VisitEvent<Vertex, L>{v, VisitPhase::narrowing, r.visits_[vi], &in_candidate_, &r.out_[vi],
                                              &out_candidate_, false, change_if(!(out_candidate_ == r.out_[vi]))});
        }
        std::swap(r.in_[vi], in_candidate_);
        std::swap(r.out_[vi], out_candidate_);
        any = true;
      }
      if (!any) break;
    }
  }

  const G& g_;
  const TG& tg_;
  Direction dir_;
  const P& p_;
  const SolverOptions& opt_;
  O& obs_;
  IterationPlan<Vertex> plan_;
  PriorityWorklist worklist_;
  std::vector<bool> is_root_;
  L in_candidate_{};
  L out_candidate_{};
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
