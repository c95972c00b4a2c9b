#pragma once
/// \file
/// How a solve ended (`SolveStatus`) and what it cost (`SolveStatistics`).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kildall {

/// Why a solve stopped. Only `converged` promises a (post-)fixpoint; every
/// other status names the offending node in the result.
enum class SolveStatus : std::uint8_t {
  converged,          ///< Every reachable node is stable: the states form a post-fixpoint.
  visit_cap_reached,  ///< A node hit `SolverOptions::max_visits_per_node`; states are partial.
  non_monotone,       ///< A node's new state was not above its old one (a non-monotone transfer).
  invalid_input,      ///< A root or a vertex index is out of range; nothing was solved.
  wrong_change_result,  ///< A lattice's join/widen reported a change that `==` contradicts (`check_change_results`).
};

/// A short, stable name for `status` ("converged", "visit cap reached", ...).
[[nodiscard]] constexpr std::string_view to_string(SolveStatus status) noexcept {
  switch (status) {
    case SolveStatus::converged: return "converged";
    case SolveStatus::visit_cap_reached: return "visit cap reached";
    case SolveStatus::non_monotone: return "non-monotone transfer";
    case SolveStatus::invalid_input: return "invalid input";
    case SolveStatus::wrong_change_result: return "join reported a wrong change result";
  }
  return "unknown";
}

/// Counters of one solve. `visits` counts transfer applications (including
/// visits that changed nothing); `bookkeeping_bytes` is the memory of the
/// solver's own per-node data (order, positions, worklist, flags, counters),
/// i.e. everything except the lattice values themselves.
struct SolveStatistics {
  std::size_t nodes = 0;              ///< Nodes (vertices or values) of the problem.
  std::size_t nodes_reached = 0;      ///< Nodes that hold a state (reached/executable).
  std::size_t visits = 0;             ///< Transfer applications in all phases.
  std::size_t changed_visits = 0;     ///< Visits whose state changed.
  std::size_t widenings = 0;          ///< Visits that applied `widen`.
  std::size_t narrowing_visits = 0;   ///< Visits of the descending (narrowing) phase.
  std::size_t max_visits = 0;         ///< Largest per-node visit count.
  std::size_t bookkeeping_bytes = 0;  ///< Solver memory beyond the lattice values.
  /// The ascending phase swept the nodes in index order, going back only where a change reached
  /// behind the sweep, instead of a worklist of dependents (the sparse solver, when it can).
  bool swept = false;
  /// Positions the sweep checked again after going back.
  std::size_t rescans = 0;
  /// The sweep went back over too many positions and handed the rest of the solve to the worklist.
  bool sweep_abandoned = false;
};

/// How a solve over nodes `Node` ended: the status and, unless it
/// converged, the node that stopped it.
template <class Node>
struct SolveOutcome {
  SolveStatus status = SolveStatus::converged;  ///< Why the solve stopped.
  std::optional<Node> offending_node;           ///< The node that hit the cap / went down.
  std::size_t offending_index = 0;              ///< `vertex_index` of `offending_node` (0 if none).

  /// True when the solve reached a fixpoint.
  [[nodiscard]] bool converged() const noexcept { return status == SolveStatus::converged; }

  /// A one-line explanation, e.g. "visit cap reached at node #17".
  [[nodiscard]] std::string message() const {
    std::string text(to_string(status));
    if (offending_node) text += " at node #" + std::to_string(offending_index);
    return text;
  }
};

}  // namespace kildall
