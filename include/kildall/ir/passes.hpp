#pragma once
/// \file
/// The reference IR on the generic pass manager (`kildall/pass/`): `IrPasses`
/// (the `PassIr` traits: `builtin.module` holds `func.func`s, declarations are
/// skipped, `verify` after each pass), the `PassContext` every pass and
/// analysis reads, the cached analyses `SccpFunctionAnalysis` and
/// `IntRangeFunctionAnalysis`, and the passes `sccp` and
/// `int-range-optimizations` (module-level and interprocedural at module level,
/// per function inside `func.func`), `arith-unsigned-when-equivalent` and
/// `canonicalize` (function passes), registered by `register_ir_passes`. A pass that
/// changes nothing preserves every analysis, so a later pass (or a dump)
/// reuses the cached result.

#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>
#include <ostream>
#include <string>

#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/interprocedural.hpp>
#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/analysis/unsigned_when_equivalent.hpp>
#include <kildall/ir/canonicalize.hpp>
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
  /// Passes may use more than one thread (`kildall-opt --mlir-disable-threading` turns it off).
  bool threading = true;

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

/// Throws `IrError` at `fn` when a greedy rewrite run (`pass`: the pass's name) did not converge.
inline void check_rewrite_converged(const kildall::rewrite::RewriteResult& result, std::string_view pass,
                                    const PassContext& context, const Function& fn) {
  if (result.converged()) return;
  throw IrError(Diagnostic{context.file, fn.loc, std::string(pass) + " of '@" + fn.name + "': " + result.message()});
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

namespace detail {

/// Makes each function's analysis of a module-level solve, traced to `context.trace` when set
/// (every solve of every function, iterations of the call graph included).
template <class Describe>
struct TracedConstruction {
  const PassContext* context;  ///< Where the trace goes.
  std::string_view verb;       ///< "Inferring constant" / "Inferring ranges".
  Describe describe;           ///< How a state is printed.
  /// The analysis of `fn` in `call_context`.
  template <class Analysis, class L>
  [[nodiscard]] Analysis make(const Function& fn, const OpRegistry& registry, const SolverOptions& options,
                              const CallContext<L>& call_context) const {
    if (context->trace == nullptr) return Analysis(fn, registry, options, call_context);
    TraceObserver trace(fn, registry, verb, describe, *context->trace);
    return Analysis(fn, registry, options, call_context, trace);
  }
};
/// Deduces `Describe` from a braced initializer (clang 16 has no aggregate deduction).
template <class Describe>
TracedConstruction(const PassContext*, std::string_view, Describe) -> TracedConstruction<Describe>;

/// Throws `IrError` at the function where the call-graph solve stopped, if it did.
template <class L>
void check_converged(const CallGraphResult<L>& result, const PassContext& context, const Module& module) {
  if (result.converged()) return;
  const Function& fn = module.functions[*result.outcome.offending_node];
  throw IrError(Diagnostic{context.file, fn.loc,
                           "interprocedural analysis stopped at '@" + fn.name + "': " +
                               std::string(to_string(result.outcome.status))});
}

/// Declares the options of a module-level interprocedural pass: `context-sensitive` (one
/// context per argument tuple, `CallGraphOptions::context_sensitive`) and `max-contexts` (its cap).
inline void add_call_graph_options(std::vector<pass::PassOption>& options) {
  const CallGraphOptions defaults;
  options.push_back(pass::PassOption{
      "context-sensitive",
      "At module level: one summary per tuple of argument states a function is called with (false: one "
      "per function, as MLIR's)",
      defaults.context_sensitive ? "true" : "false", {"true", "false"}});
  options.push_back(pass::PassOption{"max-contexts",
                                     "With context-sensitive: summaries a function may have; one more merges them",
                                     std::to_string(defaults.max_contexts_per_procedure), {}, true});
}

/// The call-graph options a pass's `add_call_graph_options` values ask for.
[[nodiscard]] inline CallGraphOptions call_graph_options(const pass::PassOptionValues& values) {
  CallGraphOptions options;
  options.context_sensitive = values.get("context-sensitive") == "true";
  options.max_contexts_per_procedure = values.get_count("max-contexts");
  return options;
}

}  // namespace detail

/// Registers the IR's passes: `sccp` (SCCP, then constants and branches
/// folded: `apply_sccp`) and `int-range-optimizations` (values whose range is one
/// constant, decided `arith.cmpi` among them, replaced by constants, then the
/// greedy driver's folding, dead-op erasure and region simplification, as
/// MLIR's pass runs it: `apply_int_range_optimizations`; it fails, naming the
/// function, when the driver does not converge; SCCP erases no dead op, as
/// MLIR's does not).
/// Each runs on either anchor,
/// as MLIR's do: written at module level (`-sccp`,
/// `builtin.module(sccp)`) it analyses the whole module interprocedurally
/// (`analysis/interprocedural.hpp`: private functions' arguments and call
/// results follow the calls); inside `func.func(...)` one function at a time,
/// reading its analysis through the function's analysis manager and preserving
/// everything when it changed nothing. At module level both take
/// `context-sensitive` (default false, MLIR's behaviour) and `max-contexts`
/// (default 8): `sccp{context-sensitive=true max-contexts=8}` solves one
/// summary per argument tuple a function is called with (solver/call_graph.hpp).
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
  detail::add_call_graph_options(sccp.options);
  sccp.make_module_pass = [](const pass::PassOptionValues& values) -> pass::ModulePassBody<IrPasses> {
    return [call_graph = detail::call_graph_options(values)](Module& module, pass::ModuleAnalysisManager<IrPasses>&,
                                                             const PassContext& context) {
      bool changed = false;
      const auto result = solve_module_sccp(
          module, *context.registry, context.solver,
          [&](std::uint32_t f, const SccpAnalysis& analysis) {
            detail::check_converged(analysis.result().outcome(), context, module.functions[f]);
            const SccpRewriteStats stats = apply_sccp(module.functions[f], analysis);
            changed = changed || stats.values_replaced + stats.ops_erased + stats.branches_folded > 0;
          },
          detail::TracedConstruction{&context, "Inferring constant", describe_constant}, call_graph);
      detail::check_converged(result, context, module);
      return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
    };
  };
  registry.add(std::move(sccp));
  pass::PassDefinition<IrPasses> ranges;
  ranges.argument = "int-range-optimizations";
  ranges.display_name = "IntRangeOptimizations";
  ranges.description = "Replace values integer ranges prove constant (decided arith.cmpi among them), then fold, drop dead code";
  ranges.make_function_pass = [](const pass::PassOptionValues&) -> pass::FunctionPassBody<IrPasses> {
    return [](Function& fn, pass::FunctionAnalysisManager<IrPasses>& am, const PassContext& context) {
      const IntRangeRewriteStats stats = apply_int_range_optimizations(fn, am.get<IntRangeFunctionAnalysis>().get());
      detail::check_rewrite_converged(stats.cleanup, "int-range-optimizations", context, fn);
      return stats.changed() ? PreservedAnalyses::none() : PreservedAnalyses::all();
    };
  };
  detail::add_call_graph_options(ranges.options);
  ranges.make_module_pass = [](const pass::PassOptionValues& values) -> pass::ModulePassBody<IrPasses> {
    return [call_graph = detail::call_graph_options(values)](Module& module, pass::ModuleAnalysisManager<IrPasses>&,
                                                             const PassContext& context) {
      bool changed = false;
      // Constants are replaced while each function's final analysis exists; the fold afterwards
      // needs none, so it runs once the analyses are gone (peak memory: the larger of the two
      // phases, not their sum).
      std::vector<std::uint32_t> to_fold;
      const auto result = solve_module_int_ranges(
          module, *context.registry, context.solver,
          [&](std::uint32_t f, const IntRangeAnalysis& analysis) {
            detail::check_converged(analysis.result().outcome(), context, module.functions[f]);
            const ConstantReplacementStats replaced = replace_int_range_constants(module.functions[f], analysis);
            changed = replaced.values_replaced + replaced.ops_erased > 0 || changed;
            to_fold.push_back(f);
          },
          detail::TracedConstruction{&context, "Inferring ranges", describe_range}, call_graph);
      detail::check_converged(result, context, module);
      for (const std::uint32_t f : to_fold) {
        const kildall::rewrite::RewriteResult cleanup = fold_greedily(module.functions[f], *context.registry);
        detail::check_rewrite_converged(cleanup, "int-range-optimizations", context, module.functions[f]);
        changed = cleanup.statistics.changed() || changed;
      }
      return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
    };
  };
  registry.add(std::move(ranges));
  pass::PassDefinition<IrPasses> unsigned_ops;
  unsigned_ops.argument = "arith-unsigned-when-equivalent";
  unsigned_ops.display_name = "ArithUnsignedWhenEquivalent";
  unsigned_ops.description = "Signed ops on operands proved non-negative become unsigned";
  unsigned_ops.make_function_pass = [](const pass::PassOptionValues&) -> pass::FunctionPassBody<IrPasses> {
    return [](Function& fn, pass::FunctionAnalysisManager<IrPasses>& am, const PassContext&) {
      const std::size_t changed = apply_arith_unsigned_when_equivalent(fn, am.get<IntRangeFunctionAnalysis>().get());
      return changed > 0 ? PreservedAnalyses::none() : PreservedAnalyses::all();
    };
  };
  registry.add(std::move(unsigned_ops));
  pass::PassDefinition<IrPasses> canonicalizer;
  canonicalizer.argument = "canonicalize";
  canonicalizer.display_name = "Canonicalizer";
  canonicalizer.description = "Fold, simplify arith and cf (MLIR's canonicalization patterns), drop dead code";
  canonicalizer.options.push_back(pass::PassOption{
      "test-convergence", "Fail when the rewrites do not converge (otherwise best effort, as MLIR's)", "false",
      {"true", "false"}});
  canonicalizer.options.push_back(pass::PassOption{
      "max-iterations", "The most sweeps of the greedy driver (at least 1)",
      std::to_string(kildall::rewrite::GreedyConfig{}.max_iterations), {}, true, 1});
  canonicalizer.make_function_pass = [](const pass::PassOptionValues& options) -> pass::FunctionPassBody<IrPasses> {
    const bool test_convergence = options.get("test-convergence") == "true";
    kildall::rewrite::GreedyConfig config;
    config.max_iterations = options.get_count("max-iterations");
    return [test_convergence, config](Function& fn, pass::FunctionAnalysisManager<IrPasses>&, const PassContext& context) {
      const kildall::rewrite::RewriteResult result = canonicalize(fn, *context.registry, config);
      // Canonicalization is best effort: stopping at the iteration limit is no failure unless
      // asked (MLIR's `test-convergence`).
      if (test_convergence) detail::check_rewrite_converged(result, "canonicalize", context, fn);
      return result.statistics.changed() ? PreservedAnalyses::none() : PreservedAnalyses::all();
    };
  };
  registry.add(std::move(canonicalizer));
}

}  // namespace kildall::ir
