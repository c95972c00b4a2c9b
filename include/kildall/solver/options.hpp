#pragma once
/// \file
/// Solver options: iteration order and termination policy shared by the dense
/// and the sparse fixed-point solvers.
///
/// Termination is a policy, not a hope: widening is applied at widening points
/// (heads of the weak topological order, or targets of retreating edges in
/// reverse post-order) once a point has been visited `widening_delay` times; an
/// optional narrowing phase recovers precision afterwards; and a hard cap on the
/// number of visits per node turns a non-terminating iteration (a non-monotone
/// transfer, an infinite-height lattice without widening) into a result whose
/// status says so and names the node.

#include <cstdint>

namespace kildall {

/// The order in which the worklist hands out pending nodes.
///
/// Without widening points in use (a lattice that does not model
/// `WidenableLattice`, or `SolverOptions::widening` off, and no narrowing of
/// a `NarrowableLattice`), the order changes how many visits a solve takes,
/// not its result (the least fixpoint; Kildall 1973). A sparse solve over an
/// `SsaProgram` shape then takes the shape's own value numbering as its
/// order and computes none: a finite-height lattice bounds each value's
/// visits by its height times its operands whatever the order (Wegman &
/// Zadeck 1991), and an IR's numbering in program order is close to a
/// topological order already, so the order's construction (a depth-first
/// search over every def-use edge) would cost more than it saves.
enum class IterationOrder : std::uint8_t {
  /// Lowest position in Bourdoncle's weak topological order first (Bourdoncle
  /// 1993, `kildall/graph/wto.hpp`; the default). Because a component's nodes
  /// are contiguous and follow its head, a priority worklist in this order
  /// stabilizes each component before anything after it is visited (the
  /// "recursive iteration strategy"): on a chain of K loops the visits grow
  /// linearly in K. Widening points are the component heads.
  weak_topological_order,
  /// Lowest reverse-post-order position first (Kildall 1973). Widening points
  /// are the targets of retreating edges of the depth-first search, which cut
  /// every cycle, reducible or not. Cheaper to compute than the weak
  /// topological order, but a loop whose body the search placed after the
  /// code following the loop re-runs that code on every iteration: on a chain
  /// of K loops the visits can grow as K^2.
  reverse_postorder,
};

/// Tuning knobs of `solve_forward`, `solve_backward` and `solve_sparse`.
struct SolverOptions {
  /// Worklist priority; see `IterationOrder`.
  IterationOrder order = IterationOrder::weak_topological_order;
  /// Apply `widen` at widening points (only when the lattice models
  /// `WidenableLattice`; ignored otherwise).
  bool widening = true;
  /// A widening point joins normally on its first `widening_delay` visits and
  /// widens on later ones (delayed widening keeps short loops precise). In
  /// the weak topological order the visits are counted per *entry* of the
  /// head's component (Bourdoncle's recursive strategy): an inner loop that
  /// its outer loop enters again starts over with joins, so values the outer
  /// loop changed are joined, not widened at once. In reverse post-order
  /// (which has no components) they are counted over the whole solve.
  std::uint32_t widening_delay = 3;
  /// Descending passes run after the ascending phase has converged: every
  /// reached node is re-evaluated in iteration order, widening points combine
  /// with `narrow` (when the lattice models `NarrowableLattice`) and other nodes
  /// take the recomputed state. Stops early once a pass changes nothing. The
  /// result stays a post-fixpoint (sound); only precision improves.
  std::uint32_t narrowing_passes = 0;
  /// Hard cap on visits (transfer applications) per node in the ascending
  /// phase. Reaching it stops the solve with `SolveStatus::visit_cap_reached`
  /// naming the node: never a hang.
  std::uint32_t max_visits_per_node = 10'000;
  /// Check on every visit that a node's candidate state is above its old one
  /// (it must be, for monotone transfers over growing inputs). A violation
  /// stops the solve with `SolveStatus::non_monotone` naming the node. Costs
  /// one `leq` per visit. When off, a state still only moves up: the engine
  /// updates it with the lattice's `join` (Kildall's `in := in join f(...)`),
  /// so a non-monotone transfer cannot make the iteration oscillate; the
  /// result is a post-fixpoint, just not the least one the transfer's author
  /// may have meant.
  bool check_monotonicity = true;
  /// Check on every visit that the `ChangeResult` a lattice's `join`/`widen`
  /// reported agrees with `==` on the states before and after (the solvers
  /// re-queue dependents on that report, not on a comparison). A
  /// disagreement stops the solve with `SolveStatus::wrong_change_result`
  /// naming the node. Costs a copy and a comparison per visit; on by default
  /// in builds without `NDEBUG`. The law kit (`lattice/laws.hpp`) checks the
  /// same property of a lattice on its own.
#ifdef NDEBUG
  bool check_change_results = false;
#else
  bool check_change_results = true;
#endif
};

}  // namespace kildall
