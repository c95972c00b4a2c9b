// Function passes in parallel (issue 20): the pipeline
// `builtin.module(func.func(sccp,int-range-optimizations))` on a generated
// file of 100 functions (the `cfg` shape of mlir_program_generator.hpp:
// diamonds, counted loops, block arguments; 2,000 ops each), run
// sequentially and on a pool of 2 threads in the same binary, so the ratio
// is measured in one run (docs/performance.md, "Parallel function passes").
// Each iteration starts from a fresh copy of the parsed module (the copy is
// not timed).
#include <benchmark/benchmark.h>

#include <optional>
#include <string>

#include <kildall/ir.hpp>
#include <kildall/ir/passes.hpp>
#include <kildall/pass/pass_manager.hpp>

#include "mlir_program_generator.hpp"

namespace {

using namespace kildall;

constexpr std::size_t functions = 100;
constexpr std::size_t ops_per_function = 2000;

const ir::Module& parsed() {
  static const ir::Module module = ir::parse_and_verify(
      kildall::bench::generate_mlir_program(kildall::bench::ProgramShape::cfg, functions * ops_per_function, 1,
                                            ops_per_function),
      ir::OpRegistry::builtins(), "parallel.mlir");
  return module;
}

void BM_FunctionPipeline(benchmark::State& state) {
  const unsigned threads = static_cast<unsigned>(state.range(0));
  ir::IrPassRegistry registry;
  ir::register_ir_passes(registry);
  const pass::PassManager<ir::IrPasses> pm(
      pass::parse_pipeline("builtin.module(func.func(sccp,int-range-optimizations))"), registry);
  std::optional<pass::ThreadPool> pool;
  pass::RunOptions<ir::IrPasses> options;
  if (threads > 1) options.pool = &pool.emplace(threads);
  const ir::PassContext context;
  std::size_t blocks = 0;
  for (const ir::Function& fn : parsed().functions) blocks += fn.blocks.size();
  for (auto _ : state) {
    state.PauseTiming();
    ir::Module module = parsed();
    state.ResumeTiming();
    pass::ModuleAnalyses<ir::IrPasses> analyses(module, context);
    pm.run(module, analyses, context, options);
    benchmark::DoNotOptimize(module.functions.data());
    state.PauseTiming();
    { ir::Module gone = std::move(module); }  // freeing is not timed either
    state.ResumeTiming();
  }
  state.counters["functions"] = static_cast<double>(parsed().functions.size());
  state.counters["blocks"] = static_cast<double>(blocks);
}

}  // namespace

BENCHMARK(BM_FunctionPipeline)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
