// `canonicalize` (kildall/ir/canonicalize.hpp: the reference IR's adapter on the greedy
// pattern-rewrite driver) on generated `const`-shape programs (benchmarks/mlir_program_generator.hpp:
// constant-heavy diamonds and counted loops, so folding, constant uniquing and dead code all fire):
//   - one function of 1e4..1e6 ops;
//   - the same number of ops as functions of 1,000 ops each, one run per function.
// Parsing and copying the module are not timed (the adapter's use lists, built per run, are).
//
//   cmake --preset release && cmake --build --preset release --target canonicalize_benchmark
//   build/release/benchmarks/canonicalize_benchmark
//
// Counters: ns_per_op (per op of the input), changes (folds + pattern applications), erased, sweeps.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include <kildall/ir/canonicalize.hpp>
#include <kildall/ir/verifier.hpp>

#include "mlir_program_generator.hpp"

namespace {

kildall::ir::Module make_module(std::size_t ops, std::size_t ops_per_function) {
  static const kildall::ir::OpRegistry registry;
  const std::string text =
      kildall::bench::generate_mlir_program(kildall::bench::ProgramShape::constant_heavy, ops, 1, ops_per_function);
  return kildall::ir::parse_and_verify(text, registry, "generated.mlir");
}

void run(benchmark::State& state, std::size_t ops_per_function) {
  const auto ops = static_cast<std::size_t>(state.range(0));
  const kildall::ir::Module input = make_module(ops, ops_per_function);
  std::uint64_t changes = 0, erased = 0, sweeps = 0;
  for (auto _ : state) {
    state.PauseTiming();
    kildall::ir::Module module = input;
    state.ResumeTiming();
    changes = erased = sweeps = 0;
    for (kildall::ir::Function& fn : module.functions) {
      const kildall::rewrite::RewriteResult result = kildall::ir::canonicalize(fn, *module.registry);
      if (!result.converged()) state.SkipWithError(result.message().c_str());
      changes += result.statistics.rewrites() + result.statistics.folds;
      erased += result.statistics.erased;
      sweeps += result.statistics.iterations;
    }
    benchmark::DoNotOptimize(module);
  }
  state.counters["ns_per_op"] = benchmark::Counter(static_cast<double>(ops), benchmark::Counter::kIsIterationInvariantRate |
                                                                                  benchmark::Counter::kInvert);
  state.counters["changes"] = static_cast<double>(changes);
  state.counters["erased"] = static_cast<double>(erased);
  state.counters["sweeps"] = static_cast<double>(sweeps);
}

void BM_CanonicalizeOneFunction(benchmark::State& state) { run(state, static_cast<std::size_t>(state.range(0))); }
void BM_CanonicalizeFunctionsOf1000(benchmark::State& state) { run(state, 1'000); }

}  // namespace

BENCHMARK(BM_CanonicalizeOneFunction)->RangeMultiplier(10)->Range(10'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CanonicalizeFunctionsOf1000)->RangeMultiplier(10)->Range(10'000, 1'000'000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
