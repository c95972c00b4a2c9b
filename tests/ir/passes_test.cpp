// The reference IR on the pass manager (kildall/ir/passes.hpp); oracles: the rewrites called directly (apply_sccp, apply_int_range_optimizations, canonicalize) on a copy, analysis construction counters, error texts written out by hand.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include <kildall/ir.hpp>
#include <kildall/ir/passes.hpp>
#include <kildall/pass/pass_manager.hpp>

#include <mlir_program_generator.hpp>

#include "random_programs.hpp"

using namespace kildall;
using namespace kildall::ir;

namespace {

// A module of `n` random functions @f0.. (the generator's @f, renamed).
std::string random_module(std::size_t n, std::uint64_t seed) {
  std::string text;
  for (std::size_t i = 0; i < n; ++i) {
    testing::ProgramShape shape;
    shape.widths = {static_cast<unsigned>(3 + (seed + i) % 6), 8};
    shape.blocks = 2 + static_cast<unsigned>((seed + i) % 6);
    std::string fn = testing::random_program(seed * 1000 + i, shape);
    const std::size_t at = fn.find("@f(");
    REQUIRE(at != std::string::npos);
    fn.replace(at, 3, "@f" + std::to_string(i) + "(");
    text += fn;
  }
  return text;
}

std::string run_pipeline(const std::string& text, const std::string& pipeline, pass::ThreadPool* pool) {
  IrPassRegistry registry;
  register_ir_passes(registry);
  Module m = parse_and_verify(text, OpRegistry::builtins());
  PassContext context;
  pass::ModuleAnalyses<IrPasses> analyses(m, context);
  pass::RunOptions<IrPasses> options;
  options.pool = pool;
  pass::PassManager<IrPasses>(pass::parse_pipeline(pipeline), registry).run(m, analyses, context, options);
  return print_module(m);
}

}  // namespace

TEST_CASE("sccp and int-range-optimizations are registered function passes") {
  IrPassRegistry registry;
  register_ir_passes(registry);
  REQUIRE(registry.find("sccp"));
  CHECK(registry.find("sccp")->is_function_pass());
  CHECK(registry.find("sccp")->display_name == "SCCP");
  REQUIRE(registry.find("int-range-optimizations"));
  CHECK(registry.find("int-range-optimizations")->display_name == "IntRangeOptimizations");
}

TEST_CASE("the pipeline does what the rewrites called directly do, in parallel or not") {
  const std::string text = random_module(12, 7);
  Module direct = parse_and_verify(text, OpRegistry::builtins());
  for (Function& fn : direct.functions) {
    {
      const SccpAnalysis a(fn, OpRegistry::builtins(), PassContext::default_solver_options());
      (void)apply_sccp(fn, a);
    }
    const IntRangeAnalysis r(fn, &OpRegistry::builtins(), PassContext::default_solver_options());
    (void)apply_int_range_optimizations(fn, r);
  }
  const std::string expected = print_module(direct);
  pass::ThreadPool pool(3);
  CHECK(run_pipeline(text, "builtin.module(func.func(sccp,int-range-optimizations))", nullptr) == expected);
  CHECK(run_pipeline(text, "builtin.module(func.func(sccp,int-range-optimizations))", &pool) == expected);
  CHECK(run_pipeline(text, "sccp,int-range-optimizations", &pool) == expected);
}

TEST_CASE("analyses are cached in the function's manager and dropped when a pass changes the function") {
  IrPassRegistry registry;
  register_ir_passes(registry);
  // @same: nothing to fold; @folds: the compare is decided by ranges.
  Module m = parse_and_verify(R"(func.func @same(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  return %b : i32
}
func.func @folds(%a: i8) -> i1 {
  %x = arith.extui %a : i8 to i32
  %c = arith.constant 300 : i32
  %lt = arith.cmpi ult, %x, %c : i32
  return %lt : i1
}
)", OpRegistry::builtins());
  PassContext context;
  pass::ModuleAnalyses<IrPasses> analyses(m, context);
  pass::PassManager<IrPasses>(pass::parse_pipeline("func.func(int-range-optimizations)"), registry).run(m, analyses, context);
  auto& same = analyses.function_manager(0);
  auto& folds = analyses.function_manager(1);
  CHECK(same.cached<IntRangeFunctionAnalysis>() != nullptr);  // unchanged: kept
  CHECK(folds.cached<IntRangeFunctionAnalysis>() == nullptr);  // rewritten: dropped
  CHECK(print_module(m).find("arith.constant true") != std::string::npos);
  // A second run computes again only for the changed function.
  pass::PassManager<IrPasses>(pass::parse_pipeline("func.func(int-range-optimizations)"), registry).run(m, analyses, context);
  CHECK(same.counters().computed == 1);
  CHECK(same.counters().cache_hits == 1);
  CHECK(folds.counters().computed == 2);
  // SCCP's analysis is a different entry of the same cache.
  const SccpAnalysis& sccp = same.get<SccpFunctionAnalysis>().get();
  CHECK(&sccp.function() == &m.functions[0]);
  CHECK(same.size() == 2);
}

TEST_CASE("a solver that stops early is a diagnostic at the function; --debug-analysis traces go to the context's stream") {
  IrPassRegistry registry;
  register_ir_passes(registry);
  Module m = parse_and_verify(R"(func.func @loop(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^head(%c0 : i32)
^head(%i: i32):
  %more = arith.cmpi slt, %i, %n : i32
  %next = arith.addi %i, %c1 : i32
  cf.cond_br %more, ^head(%next : i32), ^done
^done:
  return %i : i32
}
)", OpRegistry::builtins(), "loop.mlir");
  PassContext context;
  context.file = "loop.mlir";
  context.solver.widening = false;
  context.solver.max_visits_per_node = 3;
  pass::ModuleAnalyses<IrPasses> analyses(m, context);
  const pass::PassManager<IrPasses> pm(pass::parse_pipeline("int-range-optimizations"), registry);
  try {
    pm.run(m, analyses, context);
    FAIL("no error");
  } catch (const IrError& e) {
    CHECK(std::string(e.what()).starts_with("loop.mlir:1:1: error: analysis of '@loop' stopped: "));
  }
  std::ostringstream trace;
  PassContext traced;
  traced.trace = &trace;
  pass::ModuleAnalyses<IrPasses> fresh(m, traced);
  pass::PassManager<IrPasses>(pass::parse_pipeline("sccp"), registry).run(m, fresh, traced);
  CHECK(trace.str().find("Inferring constant for %c1 = arith.constant 1 : i32\nInferred constant 1\n") != std::string::npos);
}

namespace {

// A module where the ranges decide a comparison only interprocedurally (@less_than_ten's %x is
// 3 at its one call) and where each function has an op dead from the start.
const char* const dead_ops_module = R"(func.func private @less_than_ten(%x: i32) -> i1 {
  %c10 = arith.constant 10 : i32
  %w = arith.addi %x, %x : i32
  %lt = arith.cmpi ult, %x, %c10 : i32
  return %lt : i1
}
func.func @main(%a: i32) -> i1 {
  %c3 = arith.constant 3 : i32
  %r = func.call @less_than_ten(%c3) : (i32) -> i1
  %dead = arith.muli %a, %a : i32
  return %r : i1
}
)";

}  // namespace

TEST_CASE("int-range-optimizations erases the ops left dead at both anchors; sccp erases none (as MLIR 16)") {
  // Module level: @less_than_ten's comparison is decided (%x = 3), its %c10 and %w go with it;
  // @main's %dead goes; the call's result is true too, the call (an effect) and the constant it
  // passes stay.
  const std::string module_level = R"(module {
  func.func private @less_than_ten(%x: i32) -> i1 {
    %lt = arith.constant true
    return %lt : i1
  }
  func.func @main(%a: i32) -> i1 {
    %c3 = arith.constant 3 : i32
    %true = arith.constant true
    %r = func.call @less_than_ten(%c3) : (i32) -> i1
    return %true : i1
  }
}
)";
  CHECK(run_pipeline(dead_ops_module, "int-range-optimizations", nullptr) == module_level);
  CHECK(run_pipeline(dead_ops_module, "builtin.module(int-range-optimizations)", nullptr) == module_level);
  // One function at a time: %x is unknown, nothing is decided, but the dead ops still go.
  const std::string per_function = R"(module {
  func.func private @less_than_ten(%x: i32) -> i1 {
    %c10 = arith.constant 10 : i32
    %lt = arith.cmpi ult, %x, %c10 : i32
    return %lt : i1
  }
  func.func @main(%a: i32) -> i1 {
    %c3 = arith.constant 3 : i32
    %r = func.call @less_than_ten(%c3) : (i32) -> i1
    return %r : i1
  }
}
)";
  pass::ThreadPool pool(2);
  CHECK(run_pipeline(dead_ops_module, "builtin.module(func.func(int-range-optimizations))", nullptr) == per_function);
  CHECK(run_pipeline(dead_ops_module, "builtin.module(func.func(int-range-optimizations))", &pool) == per_function);
  // SCCP replaces the same comparison but leaves every dead op (mlir-opt-16 --sccp does too).
  const std::string sccp = run_pipeline(dead_ops_module, "sccp", nullptr);
  CHECK(sccp.find("%w = arith.constant 6 : i32") != std::string::npos);
  CHECK(sccp.find("%dead = arith.muli %a, %a : i32") != std::string::npos);
  CHECK(sccp.find("%lt = arith.constant true") != std::string::npos);
}

TEST_CASE("a function changed only by the erasure of dead ops drops its analyses") {
  IrPassRegistry registry;
  register_ir_passes(registry);
  Module m = parse_and_verify(dead_ops_module, OpRegistry::builtins());
  PassContext context;
  pass::ModuleAnalyses<IrPasses> analyses(m, context);
  const pass::PassManager<IrPasses> pm(pass::parse_pipeline("func.func(int-range-optimizations)"), registry);
  pm.run(m, analyses, context);
  // Both functions lost a dead op (nothing was replaced): both analyses are stale, so dropped.
  CHECK(analyses.function_manager(0).cached<IntRangeFunctionAnalysis>() == nullptr);
  CHECK(analyses.function_manager(1).cached<IntRangeFunctionAnalysis>() == nullptr);
  // The second run changes nothing: the analyses it computes are kept.
  pm.run(m, analyses, context);
  CHECK(analyses.function_manager(0).cached<IntRangeFunctionAnalysis>() != nullptr);
  CHECK(analyses.function_manager(1).cached<IntRangeFunctionAnalysis>() != nullptr);
  CHECK(analyses.function_manager(0).counters().computed == 2);
}

TEST_CASE("canonicalize is best effort, as MLIR's: stopping at the sweep limit fails only with test-convergence") {
  // One 10,000-op function of the benchmarks' cfg shape needs more than 2 sweeps (a branch
  // decided in one exposes constants to fold in the next); `max-iterations=2` stops there.
  IrPassRegistry registry;
  register_ir_passes(registry);
  const std::string text = bench::generate_mlir_program(bench::ProgramShape::cfg, 10'000, 1, 10'000);
  Module reference = parse_and_verify(text, OpRegistry::builtins(), "cfg.mlir");
  kildall::rewrite::GreedyConfig two_sweeps;
  two_sweeps.max_iterations = 2;
  REQUIRE_FALSE(canonicalize(reference.functions[0], OpRegistry::builtins(), two_sweeps).converged());  // the premise
  for (std::size_t f = 1; f < reference.functions.size(); ++f)
    (void)canonicalize(reference.functions[f], OpRegistry::builtins(), two_sweeps);
  PassContext context;
  context.file = "cfg.mlir";
  {
    Module m = parse_and_verify(text, OpRegistry::builtins(), "cfg.mlir");
    pass::ModuleAnalyses<IrPasses> analyses(m, context);
    pass::PassManager<IrPasses>(pass::parse_pipeline("func.func(canonicalize{max-iterations=2})"), registry)
        .run(m, analyses, context);
    CHECK(print_module(m) == print_module(reference));  // what the sweeps did is kept
  }
  {
    // With the default 10 sweeps the function converges: `test-convergence` passes.
    Module m = parse_and_verify(text, OpRegistry::builtins(), "cfg.mlir");
    pass::ModuleAnalyses<IrPasses> analyses(m, context);
    pass::PassManager<IrPasses>(pass::parse_pipeline("func.func(canonicalize{test-convergence=true})"), registry)
        .run(m, analyses, context);
    CHECK(canonicalize(m.functions[0]).statistics.iterations == 1);  // nothing left to do
  }
  Module m = parse_and_verify(text, OpRegistry::builtins(), "cfg.mlir");
  pass::ModuleAnalyses<IrPasses> analyses(m, context);
  const pass::PassManager<IrPasses> strict(
      pass::parse_pipeline("func.func(canonicalize{test-convergence=true max-iterations=2})"), registry);
  try {
    strict.run(m, analyses, context);
    FAIL("no error");
  } catch (const IrError& e) {
    CHECK(std::string(e.what()).starts_with("cfg.mlir:2:3: error: canonicalize of '@f0': did not converge within 2 sweep(s)"));
  }
  // A limit of no sweep is refused where the pipeline names it.
  try {
    (void)pass::PassManager<IrPasses>(pass::parse_pipeline("func.func(canonicalize{max-iterations=0})"), registry);
    FAIL("no error");
  } catch (const pass::PipelineError& e) {
    CHECK(std::string(e.what()).find("invalid value '0' for option 'max-iterations' of pass 'canonicalize' (expected a count: 1 to") !=
          std::string::npos);
  }
}

TEST_CASE("module-level sccp and int-range-optimizations take context-sensitive and max-contexts") {
  // @inc is called with 1, 2 and 3: one context per argument tuple proves the three results.
  const std::string text = R"(func.func private @inc(%x: i32) -> i32 {
  %one = arith.constant 1 : i32
  %r = arith.addi %x, %one : i32
  return %r : i32
}
func.func @main() -> (i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %a = func.call @inc(%c1) : (i32) -> i32
  %b = func.call @inc(%c2) : (i32) -> i32
  %c = func.call @inc(%c3) : (i32) -> i32
  return %a, %b, %c : i32, i32, i32
}
)";
  // The oracle: the module-level solve called directly with the same options, then the rewrite.
  const auto direct = [&](bool use_sccp, const CallGraphOptions& options) {
    Module m = parse_and_verify(text, OpRegistry::builtins());
    if (use_sccp)
      (void)solve_module_sccp(
          m, *m.registry, {}, [&](std::uint32_t f, const SccpAnalysis& a) { (void)apply_sccp(m.functions[f], a); },
          PlainConstruction{}, options);
    else
      (void)solve_module_int_ranges(
          m, *m.registry, {},
          [&](std::uint32_t f, const IntRangeAnalysis& a) { (void)apply_int_range_optimizations(m.functions[f], a); },
          PlainConstruction{}, options);
    return print_module(m);
  };
  CallGraphOptions sensitive;
  sensitive.context_sensitive = true;
  CallGraphOptions one_context = sensitive;
  one_context.max_contexts_per_procedure = 1;
  for (const bool use_sccp : {true, false}) {
    const std::string name = use_sccp ? "sccp" : "int-range-optimizations";
    CAPTURE(name);
    const std::string by_default = run_pipeline(text, "builtin.module(" + name + ")", nullptr);
    CHECK(by_default == direct(use_sccp, {}));  // MLIR's: context-insensitive
    CHECK(run_pipeline(text, "builtin.module(" + name + "{context-sensitive=false})", nullptr) == by_default);
    const std::string per_tuple = run_pipeline(text, "builtin.module(" + name + "{context-sensitive=true})", nullptr);
    CHECK(per_tuple == direct(use_sccp, sensitive));
    CHECK(per_tuple != by_default);
    CHECK(per_tuple.find("arith.constant 4 : i32") != std::string::npos);  // @inc(3), folded in @main
    CHECK(by_default.find("arith.constant 4 : i32") == std::string::npos);
    // One keyed context: @inc(1) keeps it, @inc(2) and @inc(3) join the merged one (unknown).
    const std::string capped =
        run_pipeline(text, "builtin.module(" + name + "{context-sensitive=true max-contexts=1})", nullptr);
    CHECK(capped == direct(use_sccp, one_context));
    CHECK(capped != by_default);
    CHECK(capped != per_tuple);
    CHECK(capped.find("arith.constant 4 : i32") == std::string::npos);
  }
  CHECK_THROWS_WITH_AS((void)run_pipeline(text, "builtin.module(sccp{max-contexts=many})", nullptr),
                       "1:21: error: invalid value 'many' for option 'max-contexts' of pass 'sccp' (expected a count: "
                       "0 to 4294967295)",
                       pass::PipelineError);
  IrPassRegistry registry;
  register_ir_passes(registry);
  const std::string help = registry.help();
  CHECK(help.find("        context-sensitive=true|false") != std::string::npos);
  CHECK(help.find("        max-contexts=<count>") != std::string::npos);
}
