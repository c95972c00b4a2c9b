#pragma once
/// \file
/// SCCP and the integer ranges of a whole module, interprocedurally and
/// context-insensitively, as MLIR's `--sccp` and `--int-range-optimizations`
/// do on a `builtin.module`: the arguments of a private function are the join
/// of what its executable calls pass, the results of a call to a function with
/// a body are the join of what that function's executable returns return, and
/// a public function's arguments are unknown. Procedure summaries are solved
/// by `kildall::solve_call_graph` (Sharir & Pnueli 1981, one context per
/// function; recursion is iterated like a loop), each function by the one
/// sparse solver with a `CallContext` (call_context.hpp).
///
/// `solve_module` hands each function's final analysis to a callback, one at a
/// time, so memory stays one function's analysis: a public function that calls
/// no function of the module is final at its first solve; every other function
/// reached is solved once more with the final summaries. A private function
/// that no executable call reaches is never analysed (its code is dead, and
/// the rewrites leave it as it is).

#include <cstdint>
#include <optional>
#include <utility>

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
/// `construction.template make<Analysis>(fn, registry, options, context)` makes each analysis.
template <class Analysis, class OnFinal, class Construction = PlainConstruction>
[[nodiscard]] CallGraphResult<typename Analysis::lattice_type> solve_module(
    const Module& module, const OpRegistry& registry, const SolverOptions& options,
    typename ModuleCallGraph<typename Analysis::lattice_type>::UnknownState unknown, OnFinal&& on_final,
    const Construction& construction = {}, const CallGraphOptions& call_graph_options = {}) {
  using L = typename Analysis::lattice_type;
  const ModuleCallGraph<L> graph(module, std::move(unknown));
  std::vector<bool> done(module.functions.size(), false);
  const auto context_of = [&](std::uint32_t f, const ProcedureSummaries<L>& summaries) {
    return CallContext<L>{summaries.arguments[f], &summaries.results, graph.callee_of_op(f)};
  };
  const auto solve = [&](std::uint32_t f, const ProcedureSummaries<L>& summaries) {
    const Function& fn = module.functions[f];
    const CallContext<L> context = context_of(f, summaries);
    const Analysis analysis = construction.template make<Analysis>(fn, registry, options, context);
    ProcedureReport<L> report = detail::procedure_report(analysis, fn, graph.callee_of_op(f));
    if (graph.is_root(f) && !graph.calls_procedures(f)) {  // its inputs never change: final now
      on_final(f, analysis);
      done[f] = true;
    }
    return report;
  };
  CallGraphResult<L> result = solve_call_graph<L>(graph, solve, call_graph_options);
  if (!result.converged()) return result;
  for (std::uint32_t f = 0; f < module.functions.size(); ++f) {
    if (done[f] || !result.reached[f]) continue;
    const CallContext<L> context = context_of(f, result.summaries);
    const Analysis analysis = construction.template make<Analysis>(module.functions[f], registry, options, context);
    on_final(f, analysis);
  }
  return result;
}

/// `solve_module` with SCCP (arguments of public functions overdefined).
template <class OnFinal, class Construction = PlainConstruction>
[[nodiscard]] CallGraphResult<ConstantState> solve_module_sccp(const Module& module, const OpRegistry& registry,
                                                               const SolverOptions& options, OnFinal&& on_final,
                                                               const Construction& construction = {}) {
  return solve_module<SccpAnalysis>(
      module, registry, options, [](Type) { return ConstantState::top(); }, std::forward<OnFinal>(on_final),
      construction);
}

/// `solve_module` with the integer ranges (arguments of public functions: their whole type).
template <class OnFinal, class Construction = PlainConstruction>
[[nodiscard]] CallGraphResult<Interval> solve_module_int_ranges(const Module& module, const OpRegistry& registry,
                                                                const SolverOptions& options, OnFinal&& on_final,
                                                                const Construction& construction = {}) {
  return solve_module<IntRangeAnalysis>(
      module, registry, options, [&registry](Type t) { return Interval::full(registry.bit_width(t)); },
      std::forward<OnFinal>(on_final), construction);
}

}  // namespace kildall::ir
