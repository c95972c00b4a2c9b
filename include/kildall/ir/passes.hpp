#pragma once
/// \file
/// The reference IR on the generic pass manager (`kildall/pass/`): `IrPasses`
/// (the `PassIr` traits: `builtin.module` holds `func.func`s, declarations are
/// skipped, `verify` after each pass), the `PassContext` every pass and
/// analysis reads, the cached analyses `SccpFunctionAnalysis` and
/// `IntRangeFunctionAnalysis`, and the function passes `sccp` and
/// `int-range-optimizations`, registered by `register_ir_passes`. A pass that
/// changes nothing preserves every analysis, so a later pass (or a dump)
/// reuses the cached result.

#include <memory>
#include <string_view>
#include <type_traits>
#include <ostream>
#include <string>

#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/analysis_trace.hpp>
#include <kildall/ir/diagnostics.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/verifier.hpp>
#include <kildall/pass/analysis_manager.hpp>
#include <kildall/pass/pass.hpp>
#include <kildall/solver/options.hpp>

namespace kildall::ir {

/// What the IR's passes and analyses read besides their unit.
struct PassContext {
  const OpRegistry* registry = &OpRegistry::builtins();  ///< The op table of the module.
  SolverOptions solver = default_solver_options();       ///< Options of every analysis's solver.
  std::ostream* trace = nullptr;  ///< `--debug-analysis`: where analyses trace each visit (null: silent).
  std::ostream* log = nullptr;    ///< Where passes write summaries (null: nowhere).
  std::string file;               ///< The source name diagnostics of passes name.

  /// The driver's solver options: two narrowing passes after widening.
  [[nodiscard]] static SolverOptions default_solver_options() {
    SolverOptions options;
    options.narrowing_passes = 2;
    return options;
  }
};

/// The reference IR as the pass manager sees it (a `kildall::pass::PassIr`).
struct IrPasses {
  using Module = ir::Module;          ///< The root unit.
  using Function = ir::Function;      ///< The unit of function passes.
  using Context = PassContext;        ///< What passes and analyses read.
  static constexpr std::string_view module_anchor = "builtin.module";  ///< The module's op name.
  static constexpr std::string_view function_anchor = "func.func";     ///< A function's op name.
  /// The number of functions.
  [[nodiscard]] static std::size_t function_count(const Module& m) { return m.functions.size(); }
  /// Function `i`.
  [[nodiscard]] static Function& function(Module& m, std::size_t i) { return m.functions[i]; }
  /// Declarations have no body for a pass to run on.
  [[nodiscard]] static bool skipped(const Function& f) { return f.is_declaration(); }
  /// Throws `IrError` at the first violation (a pass must leave valid IR).
  static void verify(const Module& m) { ir::verify(m); }
};

namespace detail {

/// Throws `IrError` at `fn` when the solver stopped before a fixpoint.
inline void check_converged(const SolveOutcome<ValueId>& outcome, const PassContext& context, const Function& fn) {
  if (outcome.converged()) return;
  throw IrError(Diagnostic{context.file, fn.loc,
                           "analysis of '@" + fn.name + "' stopped: " + std::string(to_string(outcome.status))});
}

/// A solver-backed analysis of one function, built with the context's options, traced to
/// `context.trace` when set (`verb` and `describe` shape the trace), checked for convergence.
template <class Analysis, class Describe>
[[nodiscard]] std::unique_ptr<Analysis> run_traced(const Function& fn, const PassContext& context,
                                                   std::string_view verb, Describe describe) {
  std::unique_ptr<Analysis> out;
  const auto make = [&](auto&&... observer) {
    if constexpr (std::is_constructible_v<Analysis, const Function&, const OpRegistry&, const SolverOptions&>)
      return std::make_unique<Analysis>(fn, *context.registry, context.solver, observer...);
    else
      return std::make_unique<Analysis>(fn, context.registry, context.solver, observer...);
  };
  if (context.trace) {
    TraceObserver trace(fn, *context.registry, verb, describe, *context.trace);
    out = make(trace);
  } else {
    out = make();
  }
  check_converged(out->result().outcome(), context, fn);
  return out;
}

}  // namespace detail

/// SCCP of one function, as the analysis manager caches it (throws `IrError`
/// when the solver does not converge).
class SccpFunctionAnalysis {
 public:
  /// Runs SCCP on `fn`.
  SccpFunctionAnalysis(const Function& fn, const PassContext& context)
      : analysis_(detail::run_traced<SccpAnalysis>(fn, context, "Inferring constant", describe_constant)) {}
  /// The result.
  [[nodiscard]] const SccpAnalysis& get() const noexcept { return *analysis_; }

 private:
  std::unique_ptr<SccpAnalysis> analysis_;
};

/// Integer-range analysis of one function, as the analysis manager caches it
/// (throws `IrError` when the solver does not converge).
class IntRangeFunctionAnalysis {
 public:
  /// Runs the analysis on `fn`.
  IntRangeFunctionAnalysis(const Function& fn, const PassContext& context)
      : analysis_(detail::run_traced<IntRangeAnalysis>(fn, context, "Inferring ranges", describe_range)) {}
  /// The result.
  [[nodiscard]] const IntRangeAnalysis& get() const noexcept { return *analysis_; }

 private:
  std::unique_ptr<IntRangeAnalysis> analysis_;
};

/// The IR's pass registry type.
using IrPassRegistry = pass::PassRegistry<IrPasses>;

/// Registers the IR's function passes: `sccp` (SCCP, then constants and
/// branches folded: `apply_sccp`) and `int-range-optimizations` (`arith.cmpi`
/// decided by ranges folded: `apply_int_range_optimizations`). Each reads its
/// analysis through the function's analysis manager and preserves everything
/// when it changed nothing.
inline void register_ir_passes(IrPassRegistry& registry) {
  using pass::PreservedAnalyses;
  pass::PassDefinition<IrPasses> sccp;
  sccp.argument = "sccp";
  sccp.display_name = "SCCP";
  sccp.description = "Sparse conditional constant propagation, then fold constants and branches";
  sccp.make_function_pass = [](const pass::PassOptionValues&) -> pass::FunctionPassBody<IrPasses> {
    return [](Function& fn, pass::FunctionAnalysisManager<IrPasses>& am, const PassContext&) {
      const SccpRewriteStats stats = apply_sccp(fn, am.get<SccpFunctionAnalysis>().get());
      const bool changed = stats.values_replaced + stats.ops_erased + stats.branches_folded > 0;
      return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
    };
  };
  registry.add(std::move(sccp));
  pass::PassDefinition<IrPasses> ranges;
  ranges.argument = "int-range-optimizations";
  ranges.display_name = "IntRangeOptimizations";
  ranges.description = "Fold arith.cmpi whose outcome integer range analysis decides";
  ranges.make_function_pass = [](const pass::PassOptionValues&) -> pass::FunctionPassBody<IrPasses> {
    return [](Function& fn, pass::FunctionAnalysisManager<IrPasses>& am, const PassContext&) {
      const std::size_t folded = apply_int_range_optimizations(fn, am.get<IntRangeFunctionAnalysis>().get());
      return folded > 0 ? PreservedAnalyses::none() : PreservedAnalyses::all();
    };
  };
  registry.add(std::move(ranges));
}

}  // namespace kildall::ir
