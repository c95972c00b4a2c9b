#pragma once
/// \file
/// SCCP and the integer ranges of a whole module, interprocedurally, as MLIR's
/// `--sccp` and `--int-range-optimizations` do on a `builtin.module`: the
/// arguments of a private function are the join of what its executable calls
/// pass, the results of a call to a function with a body are the join of what
/// that function's executable returns return, and a public function's
/// arguments are unknown. Procedure summaries are solved by
/// `kildall::solve_call_graph` (Sharir & Pnueli 1981; recursion is iterated
/// like a loop), each function by the one sparse solver with a `CallContext`
/// (call_context.hpp).
///
/// By default context-insensitively, as MLIR: one context per function. With
/// `CallGraphOptions::context_sensitive`, one context per distinct tuple of
/// argument states a function is called with (up to
/// `max_contexts_per_procedure`, beyond which its contexts collapse into
/// one): a call reads the results of the context its own operands select, so
/// `f(1)` and `f(2)` of `f(x) = x + 1` are 2 and 3, not unknown. A function's
/// body is shared by its contexts, so what rewrites it is one final solve
/// with the join over its contexts of its arguments and of what each call
/// read (the precision is gained at call results; a value whose state
/// differs between contexts is the join of them, or above it where the
/// contexts correlate).
///
/// `solve_module` hands each function's final analysis to a callback, one at a
/// time, so memory stays one function's analysis (plus, per function, the
/// states its calls read): a public function that calls no function of the
/// module is final at its first solve (its context of unknown arguments is
/// above any other); every other function reached is solved once more with the
/// final summaries. A private function that no executable call reaches is
/// never analysed (its code is dead, and the rewrites leave it as it is).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <kildall/ir/analysis/call_context.hpp>
#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/solver/call_graph.hpp>
#include <kildall/solver/options.hpp>

namespace kildall::ir {

namespace detail {

/// The state of `v` in `analysis`, or nothing when uninitialized.
template <class Analysis>
[[nodiscard]] auto summary_state_of(const Analysis& analysis, ValueId v) {
  using L = typename Analysis::lattice_type;
  const L* s = analysis.lookup(v);
  return s ? SummaryState<L>(*s) : SummaryState<L>();
}

/// What `analysis` of `fn` reports to the call-graph solver: the join of the operands of its
/// executable `func.return`s, and the operands of its executable calls to functions of the module.
template <class Analysis>
[[nodiscard]] ProcedureReport<typename Analysis::lattice_type> procedure_report(
    const Analysis& analysis, const Function& fn, std::span<const std::uint32_t> callee_of_op) {
  using L = typename Analysis::lattice_type;
  ProcedureReport<L> report;
  report.returned.resize(fn.result_types.size());
  for (OpId op = 0; op < fn.ops.size(); ++op) {
    const OpData& o = fn.ops[op];
    if (o.erased || !analysis.executable(o.block)) continue;
    const auto operands = fn.operands_of(op);
    if (is(o.code, BuiltinOp::return_)) {
      for (std::size_t i = 0; i < operands.size() && i < report.returned.size(); ++i) {
        const SummaryState<L> s = summary_state_of(analysis, operands[i]);
        if (!s) continue;
        if (!report.returned[i]) report.returned[i] = s;
        else (void)report.returned[i]->join(*s);
      }
    } else if (op < callee_of_op.size() && callee_of_op[op] != no_index) {
      CallSiteReport<L>& call = report.calls.emplace_back();
      call.callee = callee_of_op[op];
      for (const ValueId v : operands) call.operands.push_back(summary_state_of(analysis, v));
    }
  }
  return report;
}

}  // namespace detail

/// How `solve_module` analyses one function: by default `Analysis(fn, registry, options,
/// context)`; a caller may pass its own, e.g. to attach a tracing observer.
struct PlainConstruction {
  /// Constructs the analysis of `fn` in `context`.
  template <class Analysis, class L>
  [[nodiscard]] Analysis make(const Function& fn, const OpRegistry& registry, const SolverOptions& options,
                              const CallContext<L>& context) const {
    return Analysis(fn, registry, options, context);
  }
};

/// Analyses every function of `module` reached from its public functions, interprocedurally,
/// with `Analysis` (`SccpAnalysis` or `IntRangeAnalysis`: constructible from a function, the
/// registry, solver options and a `CallContext`), and calls `on_final(f, analysis)` once per
/// reached function `f` with its analysis at the interprocedural fixpoint (not at all when the
/// call-graph solve did not converge). `unknown(t)` is the state of an argument of type `t`
/// of a public function. `on_final` may rewrite function `f` (not another one).
/// `construction.template make<Analysis>(fn, registry, options, context)` makes each analysis;
/// `call_graph_options` chooses one context per function or per argument tuple.
template <class Analysis, class OnFinal, class Construction = PlainConstruction>
[[nodiscard]] CallGraphResult<typename Analysis::lattice_type> solve_module(
    const Module& module, const OpRegistry& registry, const SolverOptions& options,
    typename ModuleCallGraph<typename Analysis::lattice_type>::UnknownState unknown, OnFinal&& on_final,
    const Construction& construction = {}, const CallGraphOptions& call_graph_options = {}) {
  using L = typename Analysis::lattice_type;
  const ModuleCallGraph<L> graph(module, std::move(unknown));
  const std::size_t n = module.functions.size();
  std::vector<bool> done(n, false);
  // By function: the results of its calls to functions of the module (sorted), and the join of
  // what they read in every solve of every context (what they read only grows).
  std::vector<std::vector<ValueId>> call_values(n);
  std::vector<std::vector<SummaryState<L>>> call_reads(n);
  for (std::uint32_t f = 0; f < n; ++f) {
    const Function& fn = module.functions[f];
    const std::span<const std::uint32_t> callees = graph.callee_of_op(f);
    for (OpId op = 0; op < callees.size() && op < fn.ops.size(); ++op)
      if (callees[op] != no_index && !fn.ops[op].erased)
        for (std::uint32_t r = 0; r < fn.ops[op].result_count; ++r) call_values[f].push_back(fn.ops[op].result_begin + r);
    std::sort(call_values[f].begin(), call_values[f].end());
    call_reads[f].resize(call_values[f].size());
  }
  const auto solve = [&](const ContextInput<L>& input) {
    const std::uint32_t f = input.procedure;
    const Function& fn = module.functions[f];
    const CallContext<L> context{input.arguments, input.summaries, {}, {}, graph.callee_of_op(f)};
    const Analysis analysis = construction.template make<Analysis>(fn, registry, options, context);
    ProcedureReport<L> report = detail::procedure_report(analysis, fn, graph.callee_of_op(f));
    for (std::size_t k = 0; k < call_values[f].size(); ++k) {
      const SummaryState<L> read = detail::summary_state_of(analysis, call_values[f][k]);
      if (!read) continue;
      if (!call_reads[f][k]) call_reads[f][k] = read;
      else (void)call_reads[f][k]->join(*read);
    }
    if (graph.is_root(f) && !graph.calls_procedures(f) && !done[f]) {  // its inputs never change: final now
      on_final(f, analysis);
      done[f] = true;
    }
    return report;
  };
  CallGraphResult<L> result = solve_call_graph<L>(graph, solve, call_graph_options);
  if (!result.converged()) return result;
  for (std::uint32_t f = 0; f < n; ++f) {
    if (done[f] || !result.reached[f]) continue;
    const CallContext<L> context{result.summaries.arguments[f], nullptr, call_values[f], call_reads[f],
                                 graph.callee_of_op(f)};
    const Analysis analysis = construction.template make<Analysis>(module.functions[f], registry, options, context);
    on_final(f, analysis);
  }
  return result;
}

/// `solve_module` with SCCP (arguments of public functions overdefined).
template <class OnFinal, class Construction = PlainConstruction>
[[nodiscard]] CallGraphResult<ConstantState> solve_module_sccp(const Module& module, const OpRegistry& registry,
                                                               const SolverOptions& options, OnFinal&& on_final,
                                                               const Construction& construction = {},
                                                               const CallGraphOptions& call_graph_options = {}) {
  return solve_module<SccpAnalysis>(
      module, registry, options, [](Type) { return ConstantState::top(); }, std::forward<OnFinal>(on_final),
      construction, call_graph_options);
}

/// `solve_module` with the integer ranges (arguments of public functions: their whole type).
template <class OnFinal, class Construction = PlainConstruction>
[[nodiscard]] CallGraphResult<Interval> solve_module_int_ranges(const Module& module, const OpRegistry& registry,
                                                                const SolverOptions& options, OnFinal&& on_final,
                                                                const Construction& construction = {},
                                                                const CallGraphOptions& call_graph_options = {}) {
  return solve_module<IntRangeAnalysis>(
      module, registry, options, [&registry](Type t) { return Interval::full(registry.bit_width(t)); },
      std::forward<OnFinal>(on_final), construction, call_graph_options);
}

}  // namespace kildall::ir
