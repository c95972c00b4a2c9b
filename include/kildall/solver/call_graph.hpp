#pragma once
/// \file
/// Interprocedural analysis over a call graph by procedure summaries: the
/// functional approach of Sharir & Pnueli ("Two Approaches to Interprocedural
/// Data Flow Analysis", 1981), context-insensitive by default (one calling
/// context per procedure, which is what MLIR's SCCP does at module level), or
/// with one context per distinct abstract argument tuple (their functional
/// approach proper, tabulated as the "value contexts" of Padhye & Khedker,
/// "Interprocedural Data Flow Analysis in Soot using Value Contexts", SOAP
/// 2013), bounded by a cap per procedure.
///
/// A *context* of a procedure is a summary: the state of each of its
/// arguments and the state of each of its results (the join of what its
/// executable returns return when solved with those arguments). The caller's
/// analysis of one procedure in one context (any intraprocedural solve, e.g.
/// `solve_sparse` with the context's argument states as its boundary) reads
/// the result of each call through `ContextInput::call_result`, given the
/// states of the call's operands, and reports what it returns and what each
/// executable call site passes to which callee. This solver keeps a worklist
/// of contexts and re-solves one whenever its arguments or the results of a
/// callee it calls grow, until nothing changes.
///
/// Context-insensitive (`CallGraphOptions::context_sensitive` false): each
/// procedure has one *merged* context whose arguments are the join, over its
/// call sites found executable, of the operands passed there (unknown, i.e.
/// top, for a *root*, which outside code may call); every call reads it.
///
/// Context-sensitive: each distinct tuple of operand states reported for a
/// procedure gets a *keyed* context whose arguments are that tuple (a root
/// starts with the tuple of unknown arguments, the outside callers'), up to
/// `max_contexts_per_procedure` of them; further tuples *overflow* into the
/// procedure's merged context (its arguments: their join), so a procedure has
/// at most the cap's keyed contexts plus one merged, and the first tuples keep
/// their precision (a bounded variant of the functional approach).
///
/// A call whose operands have the states `t` reads the join of the results of
/// (1) the keyed contexts whose key is below `t` (`t`'s own among them), and
/// (2) the merged context, unless `t` lies below the key of a keyed context
/// that no overflowed tuple lies below (such a context is *clean*). At the
/// fixpoint every reported tuple has its keyed context or overflowed (and an
/// overflowed tuple is below no clean key), so every read is sound. Both sets
/// of contexts only grow as `t` grows (a key below `t` stays below; the tuples
/// below clean keys are closed downwards), so a read is monotone in `t`, as a
/// sparse solver checks, although `t` grows during the solve of the caller
/// and a tuple has no context until that solve reports it; the keys below `t`
/// other than its own cost nothing at the least fixpoint, where a larger key
/// has larger results. Context-insensitive is the case without keyed
/// contexts: every call reads the merged one. Recursion (cycles of the call
/// graph, its strongly connected components) needs nothing special: a call
/// with the same tuple reads its own context's results, which only grow, so a
/// cycle is iterated to its fixpoint like a loop; a cycle that passes ever new
/// tuples (`f(n)` calling `f(n + 1)`) fills the cap, then overflows into the
/// merged context, whose arguments grow (widened, for intervals) until stable,
/// so the cap bounds the contexts of recursion too.
///
/// A procedure no root reaches through executable calls is never solved
/// (`CallGraphResult::reached`). Summaries grow by `join`, and by `widen`
/// (when the lattice has it) after `widening_delay` growths of one summary
/// entry, so lattices of infinite height (intervals) terminate through
/// recursion; a keyed context's arguments never change. A cap on solves per
/// procedure (over all its contexts) reports `SolveStatus::visit_cap_reached`
/// instead of hanging.
///
/// Cost: with a cap of `k`, a procedure is solved in up to `k + 1` contexts,
/// each possibly several times, and each call's read scans up to `k` keys;
/// memory is up to `k + 1` summaries per procedure (figures in
/// docs/performance.md).
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
#include <tuple>
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

/// Procedure summaries, one per procedure: `CallGraphResult::summaries` joins each procedure's
/// contexts into one.
template <class L>
struct ProcedureSummaries {
  std::vector<std::vector<SummaryState<L>>> arguments;  ///< By procedure: its arguments' states.
  std::vector<std::vector<SummaryState<L>>> results;    ///< By procedure: its results' states.
};

/// One calling context of a procedure: its arguments' and results' states.
template <class L>
struct ContextSummary {
  std::vector<SummaryState<L>> arguments;  ///< The arguments' states (a keyed context's key).
  std::vector<SummaryState<L>> results;    ///< The join of what its executable returns return.
  bool keyed = false;  ///< Keyed by its arguments (never change); false: the procedure's merged context.
  /// For a keyed context: a tuple that overflowed into the merged context lies below its key, so
  /// calls whose operands lie below its key also read the merged context (not *clean*).
  bool above_overflow = false;
};

namespace detail {

/// The state an operand handed to `call_result` has: a pointer (nullptr: uninitialized, as a
/// sparse solver's `OperandStates` iterates them) or a summary entry.
template <class L>
[[nodiscard]] const L* operand_state(const L* state) noexcept {
  return state;
}
/// \overload
template <class L>
[[nodiscard]] const L* operand_state(const SummaryState<L>& state) noexcept {
  return state ? &*state : nullptr;
}

/// Whether `key ⊑ operands`, entry by entry (nothing is below everything).
template <class L, class Operands>
[[nodiscard]] bool key_below(const std::vector<SummaryState<L>>& key, const Operands& operands) {
  std::size_t i = 0;
  for (const auto& operand : operands) {
    if (i == key.size()) break;
    const SummaryState<L>& k = key[i++];
    if (!k) continue;
    const L* o = operand_state<L>(operand);
    if (o == nullptr || !k->leq(*o)) return false;
  }
  return true;
}

/// Whether `operands ⊑ key`, entry by entry (nothing is below everything).
template <class L, class Operands>
[[nodiscard]] bool operands_below(const Operands& operands, const std::vector<SummaryState<L>>& key) {
  std::size_t i = 0;
  for (const auto& operand : operands) {
    if (i == key.size()) break;
    const SummaryState<L>& k = key[i++];
    const L* o = operand_state<L>(operand);
    if (o != nullptr && (!k || !o->leq(*k))) return false;
  }
  return true;
}

/// Whether two tuples are equal in the lattice order.
template <class L>
[[nodiscard]] bool same_tuple(const std::vector<SummaryState<L>>& a, const std::vector<SummaryState<L>>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].has_value() != b[i].has_value()) return false;
    if (a[i] && !(a[i]->leq(*b[i]) && b[i]->leq(*a[i]))) return false;
  }
  return true;
}

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

/// Every calling context of every procedure, and what a call reads from them.
template <class L>
struct CallGraphContexts {
  /// Marks a procedure without a merged context.
  static constexpr std::uint32_t no_context = 0xffffffffu;

  /// By procedure: its contexts (keyed ones in creation order, the merged one where it was made).
  std::vector<std::vector<ContextSummary<L>>> contexts;
  /// By procedure: the index of its merged context, or `no_context` (none yet).
  std::vector<std::uint32_t> merged;

  /// Whether procedure `p` has a merged context (always, solved context-insensitively; once a
  /// tuple overflowed, context-sensitively).
  [[nodiscard]] bool has_merged(std::uint32_t p) const { return merged[p] != no_context; }

  /// Whether a call to `callee` whose operands have the states `operands` reads the merged
  /// context of `callee`: it has one, and the operands lie below no clean keyed context's key.
  template <class Operands>
  [[nodiscard]] bool reads_merged(std::uint32_t callee, const Operands& operands) const {
    if (!has_merged(callee)) return false;
    for (const ContextSummary<L>& c : contexts[callee])
      if (c.keyed && !c.above_overflow && detail::operands_below<L>(operands, c.arguments)) return false;
    return true;
  }

  /// The state of result `r` of a call to `callee` whose operands have the states `operands`
  /// (a range of `const L*`, nullptr for an uninitialized operand, or of `SummaryState<L>`):
  /// the join of the results of the keyed contexts whose key is below `operands` and of the
  /// merged one when `reads_merged`; nothing when there is none yet. Monotone in `operands`.
  template <class Operands>
  [[nodiscard]] SummaryState<L> call_result(std::uint32_t callee, std::size_t r, const Operands& operands) const {
    if (callee >= contexts.size()) return std::nullopt;
    SummaryState<L> joined;
    const auto join = [&](const ContextSummary<L>& c) {
      if (r >= c.results.size() || !c.results[r]) return;
      if (!joined) joined = c.results[r];
      else (void)joined->join(*c.results[r]);
    };
    for (const ContextSummary<L>& c : contexts[callee])
      if (c.keyed && detail::key_below<L>(c.arguments, operands)) join(c);
    if (reads_merged(callee, operands)) join(contexts[callee][merged[callee]]);
    return joined;
  }
};

/// What one solve of a procedure in one context reads (valid during that solve).
template <class L>
struct ContextInput {
  std::uint32_t procedure = 0;                 ///< The procedure solved.
  std::uint32_t context = 0;                   ///< Its context (index into its contexts).
  std::span<const SummaryState<L>> arguments;  ///< The context's arguments' states.
  const CallGraphContexts<L>* summaries = nullptr;  ///< Every context, for the calls' results.

  /// The state of result `r` of a call to `callee` whose operands have the states `operands`
  /// (`CallGraphContexts::call_result`).
  template <class Operands>
  [[nodiscard]] SummaryState<L> call_result(std::uint32_t callee, std::size_t r, const Operands& operands) const {
    return summaries->call_result(callee, r, operands);
  }
};

/// Options of `solve_call_graph`.
struct CallGraphOptions {
  /// A summary entry joins on its first `widening_delay` growths and widens on later ones (when
  /// the lattice models `WidenableLattice`).
  std::uint32_t widening_delay = 3;
  /// Cap on solves of one procedure (over all its contexts): reaching it stops with
  /// `SolveStatus::visit_cap_reached`.
  std::uint32_t max_solves_per_procedure = 10'000;
  /// One context per distinct tuple of argument states (true), or one per procedure (false:
  /// context-insensitive, MLIR's).
  bool context_sensitive = false;
  /// With `context_sensitive`: the keyed contexts a procedure may have; further tuples join its
  /// merged context (0: context-insensitive).
  std::uint32_t max_contexts_per_procedure = 8;
};

/// The answer of `solve_call_graph`.
template <class L>
struct CallGraphResult {
  SolveOutcome<std::uint32_t> outcome;  ///< `converged`, or which procedure hit the cap.
  CallGraphContexts<L> contexts;        ///< Every context at the fixpoint.
  /// By procedure: the join of its contexts (its only one when solved context-insensitively).
  ProcedureSummaries<L> summaries;
  std::vector<bool> reached;            ///< By procedure: solved at least once.
  std::size_t solves = 0;               ///< Solves of procedures in all (every context).
  /// True when the summaries are a fixpoint.
  [[nodiscard]] bool converged() const noexcept { return outcome.converged(); }
};

namespace detail {

/// The worklist state of `solve_call_graph`: contexts numbered globally, and which contexts read
/// which (a context is solved again when the results of one it reads grow).
template <class L>
class CallGraphWorklist {
 public:
  CallGraphWorklist(CallGraphContexts<L>& contexts, const CallGraphOptions& options)
      : contexts_(&contexts), options_(&options), ids_(contexts.contexts.size()) {}

  /// Adds a context to procedure `p`, queued when `queue`; its index in `p`'s contexts. A keyed
  /// one is read by whoever reads a keyed context of `p` whose key is above its own: their
  /// calls' operands are above its key too. (A merged one starts unread: `spread_to_merged`.)
  std::uint32_t add(std::uint32_t p, ContextSummary<L> context, bool queue = true) {
    const auto index = static_cast<std::uint32_t>(contexts_->contexts[p].size());
    const auto id = static_cast<std::uint32_t>(where_.size());
    growths_.push_back({std::vector<std::uint32_t>(context.arguments.size(), 0),
                        std::vector<std::uint32_t>(context.results.size(), 0)});
    readers_.emplace_back();
    for (std::uint32_t other = 0; other < index; ++other) {
      const ContextSummary<L>& existing = contexts_->contexts[p][other];
      if (!context.keyed || !existing.keyed || !key_below<L>(context.arguments, existing.arguments)) continue;
      for (const std::uint32_t reader : std::vector<std::uint32_t>(readers_[ids_[p][other]])) add_reader(id, reader);
    }
    contexts_->contexts[p].push_back(std::move(context));
    ids_[p].push_back(id);
    where_.emplace_back(p, index);
    queued_.push_back(false);
    if (queue) enqueue(p, index);
    return index;
  }
  /// Queues context `c` of `p` (once).
  void enqueue(std::uint32_t p, std::uint32_t c) { enqueue_id(ids_[p][c]); }
  /// Queues every context that reads context `c` of `p`.
  void enqueue_readers(std::uint32_t p, std::uint32_t c) {
    for (const std::uint32_t id : readers_[ids_[p][c]]) enqueue_id(id);
  }
  /// The readers of keyed context `d` of `p` read its merged context too (a key above theirs is
  /// no longer clean): recorded, and queued.
  void spread_to_merged(std::uint32_t p, std::uint32_t d) {
    const std::uint32_t merged = ids_[p][contexts_->merged[p]];
    for (const std::uint32_t reader : std::vector<std::uint32_t>(readers_[ids_[p][d]])) {
      add_reader(merged, reader);
      enqueue_id(reader);
    }
  }
  /// The next context to solve, or false.
  bool pop(std::uint32_t& p, std::uint32_t& c) {
    if (worklist_.empty()) return false;
    const std::uint32_t id = worklist_.front();
    worklist_.pop_front();
    queued_[id] = false;
    std::tie(p, c) = where_[id];
    return true;
  }
  /// Records that context `c` of `p` calls `q` with operands of states `operands`: it reads the
  /// contexts of `q` that `CallGraphContexts::call_result` joins for them.
  void record_call(std::uint32_t p, std::uint32_t c, std::uint32_t q, const std::vector<SummaryState<L>>& operands) {
    const std::uint32_t reader = ids_[p][c];
    for (std::uint32_t d = 0; d < contexts_->contexts[q].size(); ++d) {
      const ContextSummary<L>& context = contexts_->contexts[q][d];
      if (context.keyed && key_below<L>(context.arguments, operands)) add_reader(ids_[q][d], reader);
    }
    if (contexts_->reads_merged(q, operands)) add_reader(ids_[q][contexts_->merged[q]], reader);
  }
  /// Grows argument `a` of context `c` of `p` by `from`; true when it changed.
  bool grow_argument(std::uint32_t p, std::uint32_t c, std::size_t a, const SummaryState<L>& from) {
    std::vector<SummaryState<L>>& arguments = contexts_->contexts[p][c].arguments;
    if (a >= arguments.size()) return false;
    return grow_summary(arguments[a], from, growths_[ids_[p][c]].first[a], options_->widening_delay);
  }
  /// Grows result `r` of context `c` of `p` by `from`; true when it changed.
  bool grow_result(std::uint32_t p, std::uint32_t c, std::size_t r, const SummaryState<L>& from) {
    std::vector<SummaryState<L>>& results = contexts_->contexts[p][c].results;
    if (r >= results.size()) return false;
    return grow_summary(results[r], from, growths_[ids_[p][c]].second[r], options_->widening_delay);
  }

 private:
  void enqueue_id(std::uint32_t id) {
    if (queued_[id]) return;
    queued_[id] = true;
    worklist_.push_back(id);
  }
  void add_reader(std::uint32_t read, std::uint32_t reader) {
    if (edges_.insert(std::uint64_t{reader} << 32 | read).second) readers_[read].push_back(reader);
  }

  CallGraphContexts<L>* contexts_;
  const CallGraphOptions* options_;
  std::vector<std::vector<std::uint32_t>> ids_;                 // by procedure, by context: global id
  std::vector<std::pair<std::uint32_t, std::uint32_t>> where_;  // by global id: (procedure, context)
  std::vector<std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>> growths_;  // by id: (arguments, results)
  std::vector<bool> queued_;                                    // by global id
  std::deque<std::uint32_t> worklist_;
  std::vector<std::vector<std::uint32_t>> readers_;  // by global id: the contexts whose calls read it
  std::unordered_set<std::uint64_t> edges_;          // (reader << 32 | read): each reader listed once
};

}  // namespace detail

/// Solves the program of `graph` interprocedurally: `solve(input)` analyses procedure
/// `input.procedure` in one of its contexts (its arguments: `input.arguments`; a call's
/// results: `input.call_result(callee, r, operand_states)`) and returns a
/// `ProcedureReport<L>`. It must be monotone: larger arguments and call results give larger
/// reports. Roots start with unknown arguments; others with nothing, and are solved once a
/// solved procedure reports an executable call to them. The last call of `solve` for each
/// context saw the final summaries, so a caller that joins, per procedure, the last solve of
/// each of its contexts has the interprocedural fixpoint.
template <JoinSemiLattice L, CallGraphShape<L> G, class Solve>
  requires std::invocable<Solve&, const ContextInput<L>&>
[[nodiscard]] CallGraphResult<L> solve_call_graph(const G& graph, Solve&& solve, const CallGraphOptions& options = {}) {
  const auto n = static_cast<std::uint32_t>(graph.procedure_count());
  const bool sensitive = options.context_sensitive && options.max_contexts_per_procedure > 0;
  CallGraphResult<L> result;
  CallGraphContexts<L>& contexts = result.contexts;
  contexts.contexts.resize(n);
  contexts.merged.assign(n, CallGraphContexts<L>::no_context);
  result.reached.assign(n, false);
  detail::CallGraphWorklist<L> worklist(contexts, options);
  std::vector<std::uint32_t> solves(n, 0);
  const auto empty_context = [&](std::uint32_t p, bool keyed) {
    ContextSummary<L> c;
    c.arguments.resize(graph.argument_count(p));
    c.results.resize(graph.result_count(p));
    c.keyed = keyed;
    return c;
  };
  for (std::uint32_t p = 0; p < n; ++p) {
    const bool root = graph.is_root(p);
    ContextSummary<L> first = empty_context(p, sensitive);
    if (root)
      for (std::uint32_t a = 0; a < first.arguments.size(); ++a) first.arguments[a] = graph.unknown_argument(p, a);
    if (!sensitive) contexts.merged[p] = worklist.add(p, std::move(first), root);
    else if (root) (void)worklist.add(p, std::move(first));
    result.reached[p] = root;
  }
  std::uint32_t p = 0, c = 0;
  while (worklist.pop(p, c)) {
    if (++solves[p] > options.max_solves_per_procedure) {
      result.outcome.status = SolveStatus::visit_cap_reached;
      result.outcome.offending_node = p;
      result.outcome.offending_index = p;
      break;
    }
    ++result.solves;
    const ProcedureReport<L> report = solve(ContextInput<L>{p, c, contexts.contexts[p][c].arguments, &contexts});
    // What p passes: the context of each callee it reaches. (Calls are recorded before what p
    // returns: p may read its own results, through recursion, and must be solved again when
    // they grow below.)
    for (const CallSiteReport<L>& call : report.calls) {
      const std::uint32_t q = call.callee;
      if (q >= n) continue;
      const bool first = !result.reached[q];
      result.reached[q] = true;
      std::vector<ContextSummary<L>>& of = contexts.contexts[q];
      ContextSummary<L> keyed = empty_context(q, true);
      for (std::size_t a = 0; a < call.operands.size() && a < keyed.arguments.size(); ++a)
        keyed.arguments[a] = call.operands[a];
      bool known = false;
      for (const ContextSummary<L>& existing : of)
        known = known || (existing.keyed && detail::same_tuple(existing.arguments, keyed.arguments));
      if (sensitive && !known && !contexts.has_merged(q) && of.size() < options.max_contexts_per_procedure) {
        (void)worklist.add(q, std::move(keyed));
      } else if (!known) {  // into the merged context (the only one, context-insensitively)
        if (!contexts.has_merged(q)) contexts.merged[q] = worklist.add(q, empty_context(q, false));
        const std::uint32_t m = contexts.merged[q];
        bool grew = first;
        for (std::size_t a = 0; a < keyed.arguments.size(); ++a)
          grew |= worklist.grow_argument(q, m, a, keyed.arguments[a]);
        if (grew) worklist.enqueue(q, m);
        // The keyed contexts above the tuple are no longer clean: whoever reads one below them
        // reads the merged context too.
        for (std::uint32_t k = 0; k < of.size(); ++k) {
          if (!of[k].keyed || of[k].above_overflow || !detail::operands_below<L>(keyed.arguments, of[k].arguments)) continue;
          of[k].above_overflow = true;
          for (std::uint32_t d = 0; d < of.size(); ++d)
            if (of[d].keyed && detail::key_below<L>(of[d].arguments, of[k].arguments)) worklist.spread_to_merged(q, d);
        }
      }
      worklist.record_call(p, c, q, call.operands);
    }
    // What p returns: its readers read it.
    bool returns_grew = false;
    for (std::size_t r = 0; r < report.returned.size(); ++r)
      returns_grew |= worklist.grow_result(p, c, r, report.returned[r]);
    if (returns_grew) worklist.enqueue_readers(p, c);
  }
  // One summary per procedure: the join of its contexts.
  result.summaries.arguments.resize(n);
  result.summaries.results.resize(n);
  for (std::uint32_t q = 0; q < n; ++q) {
    result.summaries.arguments[q].resize(graph.argument_count(q));
    result.summaries.results[q].resize(graph.result_count(q));
    for (const ContextSummary<L>& context : contexts.contexts[q]) {
      const auto join_into = [](std::vector<SummaryState<L>>& into, const std::vector<SummaryState<L>>& from) {
        for (std::size_t i = 0; i < into.size() && i < from.size(); ++i) {
          if (!from[i]) continue;
          if (!into[i]) into[i] = from[i];
          else (void)into[i]->join(*from[i]);
        }
      };
      join_into(result.summaries.arguments[q], context.arguments);
      join_into(result.summaries.results[q], context.results);
    }
  }
  return result;
}

}  // namespace kildall
