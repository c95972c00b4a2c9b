#pragma once
/// \file
/// Interprocedural analysis over a call graph by procedure summaries,
/// context-insensitive: the functional approach of Sharir & Pnueli ("Two
/// Approaches to Interprocedural Data Flow Analysis", 1981) with one calling
/// context per procedure, which is what MLIR's SCCP does at module level.
///
/// Each procedure has a *summary*: the state of each of its arguments (the
/// join, over its call sites found executable, of the operands passed there;
/// unknown, i.e. top, for a *root*, which outside code may call) and the state
/// of each of its results (the join of what its executable returns return).
/// The caller's analysis of one procedure (any intraprocedural solve, e.g.
/// `solve_sparse` with the summary's argument states as its boundary and the
/// callees' result states as the states of its call results) reports what it
/// returns and what each executable call site passes to which callee. This
/// solver keeps a worklist of procedures and re-solves one whenever its
/// argument states or the result states of a callee it calls grow, until
/// nothing changes. Recursion (cycles of the call graph, its strongly
/// connected components) needs nothing special: the summaries only grow, so
/// a cycle is iterated to its fixpoint like a loop.
///
/// A procedure no root reaches through executable calls is never solved
/// (`CallGraphResult::reached`). Summaries grow by `join`, and by `widen`
/// (when the lattice has it) after `widening_delay` growths of one summary,
/// so lattices of infinite height (intervals) terminate through recursion.
/// A cap on solves per procedure reports `SolveStatus::visit_cap_reached`
/// instead of hanging.
///
/// The call graph is discovered, not declared: the solver only needs the
/// number of procedures, their roots and their argument and result counts
/// (`CallGraphShape`), and learns who calls whom from the reports.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <unordered_set>
#include <utility>
#include <vector>

#include <kildall/lattice/concepts.hpp>
#include <kildall/solver/status.hpp>

namespace kildall {

/// The procedures of a program as the call-graph solver sees them: numbered
/// `[0, procedure_count())`, the roots that outside code may call, how many
/// arguments and results each has, and the state of argument `a` of a root,
/// which may be anything (`unknown_argument(p, a)`: top of its type; lattices
/// such as intervals need the type for that).
template <class G, class L>
concept CallGraphShape = requires(const G& g, std::uint32_t p) {
  { g.procedure_count() } -> std::convertible_to<std::size_t>;
  { g.is_root(p) } -> std::convertible_to<bool>;
  { g.argument_count(p) } -> std::convertible_to<std::size_t>;
  { g.result_count(p) } -> std::convertible_to<std::size_t>;
  { g.unknown_argument(p, p) } -> std::convertible_to<L>;
};

/// A summary entry: a state, or nothing yet (bottom: no executable call passed it, no
/// executable return returned it).
template <class L>
using SummaryState = std::optional<L>;

/// What one executable call site passes: the callee and its operands' states.
template <class L>
struct CallSiteReport {
  std::uint32_t callee = 0;                 ///< The procedure called.
  std::vector<SummaryState<L>> operands;    ///< One state per argument of the callee.
};

/// What one solve of a procedure found: the states it returns (one per result, the join over
/// its executable returns; nothing when none is executable) and its executable call sites.
template <class L>
struct ProcedureReport {
  std::vector<SummaryState<L>> returned;  ///< One state per result.
  std::vector<CallSiteReport<L>> calls;   ///< Executable call sites (to procedures of the program).
};

/// The summaries the solve of a procedure reads, and the call-graph solver's answer.
template <class L>
struct ProcedureSummaries {
  std::vector<std::vector<SummaryState<L>>> arguments;  ///< By procedure: its arguments' states.
  std::vector<std::vector<SummaryState<L>>> results;    ///< By procedure: its results' states.
};

/// Options of `solve_call_graph`.
struct CallGraphOptions {
  /// A summary joins on its first `widening_delay` growths and widens on later ones (when the
  /// lattice models `WidenableLattice`).
  std::uint32_t widening_delay = 3;
  /// Cap on solves of one procedure: reaching it stops with `SolveStatus::visit_cap_reached`.
  std::uint32_t max_solves_per_procedure = 10'000;
};

/// The answer of `solve_call_graph`.
template <class L>
struct CallGraphResult {
  SolveOutcome<std::uint32_t> outcome;  ///< `converged`, or which procedure hit the cap.
  ProcedureSummaries<L> summaries;      ///< The summaries at the fixpoint.
  std::vector<bool> reached;            ///< By procedure: solved at least once.
  std::size_t solves = 0;               ///< Solves of procedures in all.
  /// True when the summaries are a fixpoint.
  [[nodiscard]] bool converged() const noexcept { return outcome.converged(); }
};

namespace detail {

/// `into := into ⊔ from` (or `∇` once `growths` exceeds `delay`); true when `into` changed.
template <class L>
bool grow_summary(SummaryState<L>& into, const SummaryState<L>& from, std::uint32_t& growths, std::uint32_t delay) {
  if (!from) return false;
  if (!into) {
    into = *from;
    ++growths;
    return true;
  }
  if (from->leq(*into)) return false;
  if constexpr (WidenableLattice<L>) {
    if (growths >= delay) {
      (void)into->widen(*from);
      ++growths;
      return true;
    }
  }
  (void)into->join(*from);
  ++growths;
  return true;
}

}  // namespace detail

/// Solves the program of `graph` interprocedurally: `solve(p, summaries)` analyses procedure
/// `p` given the current summaries (its arguments: `summaries.arguments[p]`; a callee `q`'s
/// results: `summaries.results[q]`) and returns a `ProcedureReport<L>`. It must be monotone:
/// larger summaries give larger reports. Roots start with unknown arguments; others with
/// nothing, and are solved once a solved procedure reports an executable call to them. The last
/// call of `solve` for each reached procedure saw the final summaries, so a caller that keeps
/// each procedure's last solve has the interprocedural fixpoint.
template <JoinSemiLattice L, CallGraphShape<L> G, class Solve>
  requires std::invocable<Solve&, std::uint32_t, const ProcedureSummaries<L>&>
[[nodiscard]] CallGraphResult<L> solve_call_graph(const G& graph, Solve&& solve, const CallGraphOptions& options = {}) {
  const auto n = static_cast<std::uint32_t>(graph.procedure_count());
  CallGraphResult<L> result;
  ProcedureSummaries<L>& summaries = result.summaries;
  summaries.arguments.resize(n);
  summaries.results.resize(n);
  result.reached.assign(n, false);
  std::vector<std::vector<std::uint32_t>> argument_growths(n), result_growths(n);
  std::vector<std::vector<std::uint32_t>> callers(n);  // discovered from the reports
  std::unordered_set<std::uint64_t> call_edges;         // (caller << 32 | callee): each caller listed once
  std::vector<std::uint32_t> solves(n, 0);
  std::vector<bool> queued(n, false);
  std::deque<std::uint32_t> worklist;
  const auto enqueue = [&](std::uint32_t p) {
    if (queued[p]) return;
    queued[p] = true;
    worklist.push_back(p);
  };
  for (std::uint32_t p = 0; p < n; ++p) {
    const bool root = graph.is_root(p);
    summaries.arguments[p].resize(graph.argument_count(p));
    if (root)
      for (std::uint32_t a = 0; a < summaries.arguments[p].size(); ++a) summaries.arguments[p][a] = graph.unknown_argument(p, a);
    summaries.results[p].resize(graph.result_count(p));
    argument_growths[p].assign(graph.argument_count(p), 0);
    result_growths[p].assign(graph.result_count(p), 0);
    if (root) {
      result.reached[p] = true;
      enqueue(p);
    }
  }
  while (!worklist.empty()) {
    const std::uint32_t p = worklist.front();
    worklist.pop_front();
    queued[p] = false;
    if (++solves[p] > options.max_solves_per_procedure) {
      result.outcome.status = SolveStatus::visit_cap_reached;
      result.outcome.offending_node = p;
      result.outcome.offending_index = p;
      return result;
    }
    ++result.solves;
    const ProcedureReport<L> report = solve(p, std::as_const(summaries));
    // What p passes: its callees read it. (Callers are recorded first: p may read its own
    // results, through recursion, and must be solved again when they grow below.)
    for (const CallSiteReport<L>& call : report.calls) {
      const std::uint32_t q = call.callee;
      if (q >= n) continue;
      // (p read q's results as they are now; it is solved again when they grow)
      if (call_edges.insert(std::uint64_t{p} << 32 | q).second) callers[q].push_back(p);
      bool arguments_grew = !result.reached[q];
      result.reached[q] = true;
      for (std::size_t a = 0; a < call.operands.size() && a < summaries.arguments[q].size(); ++a)
        arguments_grew |= detail::grow_summary(summaries.arguments[q][a], call.operands[a], argument_growths[q][a],
                                               options.widening_delay);
      if (arguments_grew) enqueue(q);
    }
    // What p returns: its callers read it.
    bool returns_grew = false;
    for (std::size_t r = 0; r < report.returned.size() && r < summaries.results[p].size(); ++r)
      returns_grew |= detail::grow_summary(summaries.results[p][r], report.returned[r], result_growths[p][r],
                                           options.widening_delay);
    if (returns_grew)
      for (const std::uint32_t caller : callers[p]) enqueue(caller);
  }
  return result;
}

}  // namespace kildall
