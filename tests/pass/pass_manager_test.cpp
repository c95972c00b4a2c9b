// The pass manager (kildall/pass/pass_manager.hpp) on a toy IR; oracle: values computed by hand, analysis construction counters, the same module after parallel and sequential runs, error texts written out by hand.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include <kildall/pass/pass_manager.hpp>

#include "toy_ir.hpp"

using namespace kildall::pass;

namespace {

std::string build_error(const std::string& pipeline) {
  const auto registry = toy::registry();
  try {
    const PassManager<toy::Ir> pm(parse_pipeline(pipeline), registry);
  } catch (const PipelineError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("nesting: explicit, implicit, and what may not nest") {
  const auto registry = toy::registry();
  CHECK(PassManager<toy::Ir>(parse_pipeline("builtin.module(func.func(double,sum))"), registry).str() ==
        "builtin.module(func.func(double,sum))");
  // Function passes at module level join one implicit func.func stage; a module pass ends it.
  CHECK(PassManager<toy::Ir>(parse_pipeline("double,sum,add-function,noop"), registry).str() ==
        "builtin.module(func.func(double,sum),add-function,func.func(noop))");
  // An explicit stage is not extended by a later implicit one.
  CHECK(PassManager<toy::Ir>(parse_pipeline("func.func(double),sum"), registry).str() ==
        "builtin.module(func.func(double),func.func(sum))");
  CHECK(PassManager<toy::Ir>(parse_pipeline(""), registry).empty());
  CHECK(build_error("builtin.module(func.func(triple))") == "1:26: error: 'triple' does not refer to a registered pass");
  CHECK(build_error("builtin.module(func.func(add-function))") ==
        "1:26: error: 'add-function' is a module pass: it cannot run on 'func.func'");
  CHECK(build_error("builtin.module(scf.for(double))") ==
        "1:16: error: can't nest 'scf.for' in 'builtin.module' (pipelines nest 'func.func' in 'builtin.module')");
  CHECK(build_error("func.func(func.func(double))") ==
        "1:11: error: can't nest 'func.func' in 'func.func' (pipelines nest 'func.func' in 'builtin.module')");
  CHECK(build_error("double{factor}") == "1:8: error: option 'factor' of pass 'double' needs a value");
}

TEST_CASE("passes run in order on every function but declarations; the IR is verified after each stage") {
  const auto registry = toy::registry();
  toy::Module m = toy::module_of(3);
  m.functions[1].declaration = true;
  const PassManager<toy::Ir> pm(parse_pipeline("builtin.module(func.func(double{factor=3},sum{append=true}),add-function)"),
                                registry);
  toy::Context context;
  ModuleAnalyses<toy::Ir> analyses(m, context);
  pm.run(m, analyses, context);
  CHECK(m.functions[0].values == std::vector<long>{0, 3, 6, 9});
  CHECK(m.functions[1].values == std::vector<long>{1, 2, 3});
  CHECK(m.functions[2].values == std::vector<long>{6, 9, 12, 27});
  CHECK(m.functions.size() == 4);
  CHECK(m.verified == 2);
}

TEST_CASE("analyses are cached across passes and stages until a pass changes the function") {
  const auto registry = toy::registry();
  toy::Module m = toy::module_of(2);
  toy::Context context;
  ModuleAnalyses<toy::Ir> analyses(m, context);
  // sum (no append) preserves all: three reads, one computation per function.
  PassManager<toy::Ir>(parse_pipeline("func.func(sum,noop,sum),func.func(sum)"), registry).run(m, analyses, context);
  CHECK(context.sums_computed == 2);
  CHECK(analyses.function_manager(0).counters().cache_hits == 2);
  // double changes the values: the sum is recomputed, once per function, and is right.
  PassManager<toy::Ir>(parse_pipeline("func.func(double,sum,sum)"), registry).run(m, analyses, context);
  CHECK(context.sums_computed == 4);
  CHECK(analyses.function_manager(1).get<toy::SumAnalysis>().sum == 2 * (1 + 2 + 3));
  // double{factor=1} changes nothing and says so: the cached sum survives.
  PassManager<toy::Ir>(parse_pipeline("func.func(double{factor=1},sum)"), registry).run(m, analyses, context);
  CHECK(context.sums_computed == 4);
  // A module pass that preserves nothing drops every function's analyses.
  PassManager<toy::Ir>(parse_pipeline("add-function,sum"), registry).run(m, analyses, context);
  CHECK(context.sums_computed == 4 + 3);
}

TEST_CASE("parallel and sequential runs give the same module, timing and errors") {
  const auto registry = toy::registry();
  const PassManager<toy::Ir> pm(parse_pipeline("func.func(double,sum{append=true},double{factor=5})"), registry);
  toy::Module sequential = toy::module_of(100, 50);
  toy::Module parallel = sequential;
  toy::Context c1, c2;
  ModuleAnalyses<toy::Ir> a1(sequential, c1), a2(parallel, c2);
  ThreadPool pool(4);
  Timing timing;
  RunOptions<toy::Ir> options;
  options.pool = &pool;
  options.timing = &timing;
  pm.run(sequential, a1, c1);
  pm.run(parallel, a2, c2, options);
  for (std::size_t f = 0; f < 100; ++f) CHECK(parallel.functions[f].values == sequential.functions[f].values);
  CHECK(c2.sums_computed == 100);
  const std::size_t stage = timing.child(Timing::root, "'func.func' Pipeline");
  CHECK(timing.children(stage).size() == 2);  // Double (both instances) and Sum
  CHECK(timing.name(timing.children(stage)[0]) == "Double");
  // Several functions fail: the first one's error, as sequentially.
  const PassManager<toy::Ir> failing(parse_pipeline("func.func(fail-on{value=60})"), registry);
  toy::Module m = toy::module_of(100, 10);
  toy::Context c3;
  ModuleAnalyses<toy::Ir> a3(m, c3);
  for (int round = 0; round < 10; ++round) CHECK_THROWS_WITH(failing.run(m, a3, c3, options), "@f51 holds 60");
  CHECK_THROWS_WITH(failing.run(m, a3, c3), "@f51 holds 60");
  // The verifier runs after the stage.
  const PassManager<toy::Ir> huge(parse_pipeline("func.func(double{factor=100000})"), registry);
  CHECK_THROWS_WITH(huge.run(m, a3, c3, options), "verify: @f2 holds 1100000");
}

TEST_CASE("hooks see every pass in order, and make the run sequential") {
  const auto registry = toy::registry();
  const PassManager<toy::Ir> pm(parse_pipeline("func.func(double,noop),add-function"), registry);
  toy::Module m = toy::module_of(3);
  m.functions[2].declaration = true;
  toy::Context context;
  ModuleAnalyses<toy::Ir> analyses(m, context);
  std::vector<std::string> seen;
  ThreadPool pool(2);
  RunOptions<toy::Ir> options;
  options.pool = &pool;
  options.before = [&](const PassDefinition<toy::Ir>& d, const toy::Function* f, const toy::Module&) {
    seen.push_back("before " + d.argument + (f ? " @" + f->name : std::string()));
  };
  options.after = [&](const PassDefinition<toy::Ir>& d, const toy::Function* f, const toy::Module&) {
    seen.push_back("after " + d.argument + (f ? " @" + f->name + " " + std::to_string(f->values[1]) : std::string()));
  };
  pm.run(m, analyses, context, options);
  CHECK(seen == std::vector<std::string>{"before double @f0", "after double @f0 2", "before noop @f0", "after noop @f0 2",
                                         "before double @f1", "after double @f1 4", "before noop @f1", "after noop @f1 4",
                                         "before add-function", "after add-function"});
}
