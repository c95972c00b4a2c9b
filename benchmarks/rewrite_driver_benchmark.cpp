// The greedy pattern-rewrite driver (kildall/rewrite/greedy_driver.hpp) on the
// toy expression IR of tests/rewrite/toy_ir.hpp (add/mul/neg/constant over
// 64-bit integers, intrusive use lists), with its five patterns (x+0, x*1, x*0,
// neg(neg x), constants to the right) and constant folding:
//   - one function of 1e3..1e6 ops, and the same number of ops as functions
//     of 100 ops each, one driver run per function;
//   - the same one function once it is at its fixpoint (one sweep that
//     changes nothing: the cost of visiting, folding and matching alone).
// Inputs: `toy::random_function(rng, ops, 3 arguments, ops / 3 outputs)`,
// seed 1: a third of the ops are rewritten, folded or erased.
//
//   cmake --preset release && cmake --build --preset release --target rewrite_driver_benchmark
//   build/release/benchmarks/rewrite_driver_benchmark
//
// Counters: ns_per_op (per op of the input), changes (pattern applications +
// folds), erased, sweeps, visits_per_op (ops taken from the worklist). Copying the input before each run is not timed.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <kildall/rewrite/greedy_driver.hpp>

#include "toy_ir.hpp"

namespace {

namespace rw = kildall::rewrite;

toy::Function make_function(std::size_t ops, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return toy::random_function(rng, ops, 3, ops / 3 + 1);
}

const toy::PatternSet& patterns() {
  static const toy::PatternSet set = [] {
    toy::PatternSet s;
    toy::add_toy_patterns(s);
    return s;
  }();
  return set;
}

void report(benchmark::State& state, std::size_t ops, const rw::RewriteStatistics& s) {
  state.counters["ns_per_op"] = benchmark::Counter(static_cast<double>(ops),
                                                   benchmark::Counter::kIsIterationInvariantRate |
                                                       benchmark::Counter::kInvert);
  state.counters["changes"] = static_cast<double>(s.rewrites() + s.folds);
  state.counters["erased"] = static_cast<double>(s.erased);
  state.counters["sweeps"] = static_cast<double>(s.iterations);
  state.counters["visits_per_op"] = static_cast<double>(s.visits) / static_cast<double>(ops);
}

void BM_OneFunction(benchmark::State& state) {
  const auto ops = static_cast<std::size_t>(state.range(0));
  const toy::Function input = make_function(ops, 1);
  const rw::PatternApplicator<toy::Function> applicator(patterns());
  rw::RewriteStatistics last;
  for (auto _ : state) {
    state.PauseTiming();
    toy::Function fn = input;
    fn.reserve(ops / 2);  // room for the ops the run creates: the toy's growth is not the driver's cost
    state.ResumeTiming();
    rw::RewriteResult result = rw::apply_patterns_greedily(fn, applicator);
    if (!result.converged()) state.SkipWithError(result.message().c_str());
    last = std::move(result.statistics);
    benchmark::DoNotOptimize(fn);
  }
  report(state, ops, last);
}

void BM_ManySmallFunctions(benchmark::State& state) {
  const auto ops = static_cast<std::size_t>(state.range(0));
  constexpr std::size_t per_function = 100;
  std::vector<toy::Function> inputs;
  for (std::size_t f = 0; f < ops / per_function; ++f) inputs.push_back(make_function(per_function, 1 + f));
  const rw::PatternApplicator<toy::Function> applicator(patterns());
  rw::RewriteStatistics total;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<toy::Function> fns = inputs;
    for (toy::Function& fn : fns) fn.reserve(per_function / 2);
    state.ResumeTiming();
    total = {};
    for (toy::Function& fn : fns) {
      const rw::RewriteResult result = rw::apply_patterns_greedily(fn, applicator);
      if (!result.converged()) state.SkipWithError(result.message().c_str());
      total.folds += result.statistics.folds;
      total.erased += result.statistics.erased;
      total.iterations += result.statistics.iterations;
      total.visits += result.statistics.visits;
      for (const rw::PatternApplications& a : result.statistics.applications) total.applications.push_back(a);
    }
    benchmark::DoNotOptimize(fns);
  }
  report(state, ops, total);
}

void BM_OneFunctionAtFixpoint(benchmark::State& state) {
  const auto ops = static_cast<std::size_t>(state.range(0));
  toy::Function input = make_function(ops, 1);
  const rw::PatternApplicator<toy::Function> applicator(patterns());
  (void)rw::apply_patterns_greedily(input, applicator);
  rw::RewriteStatistics last;
  for (auto _ : state) {
    rw::RewriteResult result = rw::apply_patterns_greedily(input, applicator);  // changes nothing
    if (result.statistics.iterations != 1) state.SkipWithError("not at a fixpoint");
    last = std::move(result.statistics);
  }
  report(state, ops, last);
}

}  // namespace

BENCHMARK(BM_OneFunction)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ManySmallFunctions)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OneFunctionAtFixpoint)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
