// Solver-only cost of kildall's SCCP and integer-range analyses on the
// programs of benchmarks/compare_mlir.sh (benchmarks/mlir_program_generator.hpp,
// seed 1), per shape, size and function size (the second argument: ops per
// function; 10,000 as in compare_mlir.sh's split files, or the whole size in
// one function): parsing is done once, outside the timed loop;
// every iteration runs the analysis of every function of the module (building
// the def-use and CFG views included, as a pass would). Counters:
//   time_per_op         CPU time per op of the input (terminators included)
//   alloc_B_per_op      heap bytes allocated by one iteration, per op
//   peak_B_per_fn_op    peak extra heap of one iteration (one function's analysis
//                       alive at a time) per op of the largest function
//   visits_per_op       transfer applications per op (fixpoint rounds)
// The figure to put next to MLIR's SCCP / int-range pass rows of
// `mlir-opt-16 --mlir-timing` on the same file.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <new>
#include <string>
#include <type_traits>
#include <tuple>
#include <utility>

#include <kildall/ir.hpp>
#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>

#include "heap_accounting.hpp"
#include "mlir_program_generator.hpp"


namespace {

using namespace kildall::ir;
using kildall::bench::ProgramShape;
namespace heap = kildall::bench::heap;

/// The parsed module of one shape, size and function size (parsed once per process; the last one only).
const Module& program(ProgramShape shape, std::size_t ops, std::size_t per_function) {
  static const OpRegistry registry;
  static std::map<std::tuple<int, std::size_t, std::size_t>, Module> modules;
  const auto key = std::tuple{static_cast<int>(shape), ops, per_function};
  auto it = modules.find(key);
  if (it == modules.end()) {
    modules.clear();  // one 1e6-op module at a time
    const std::string text = kildall::bench::generate_mlir_program(shape, ops, 1, per_function);
    it = modules.emplace(key, parse_and_verify(text, registry, "generated.mlir")).first;
  }
  return it->second;
}

template <class Analysis>
void run(benchmark::State& state, ProgramShape shape) {
  const auto ops = static_cast<std::size_t>(state.range(0));
  const Module& module = program(shape, ops, static_cast<std::size_t>(state.range(1)));
  std::size_t visits = 0;
  std::size_t peak = 0;
  std::size_t allocated = 0;
  std::size_t largest_function = 0;
  for (const Function& fn : module.functions) largest_function = std::max(largest_function, fn.ops.size());
  for (auto _ : state) {
    const std::size_t base = heap::in_use();
    const std::size_t allocated_before = heap::allocated;
    heap::peak = base;
    visits = 0;
    for (const Function& fn : module.functions) {
      if constexpr (std::is_same_v<Analysis, SccpAnalysis>) {
        const SccpAnalysis analysis(fn, *module.registry);
        visits += analysis.result().statistics().visits;
      } else {
        const IntRangeAnalysis analysis(fn);
        visits += analysis.result().statistics().visits;
      }
    }
    peak = heap::peak - base;
    allocated = heap::allocated - allocated_before;
  }
  const double n = static_cast<double>(ops);
  state.counters["time_per_op"] =
      benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["alloc_B_per_op"] = static_cast<double>(allocated) / n;
  state.counters["peak_B_per_fn_op"] = static_cast<double>(peak) / static_cast<double>(largest_function);
  state.counters["visits_per_op"] = static_cast<double>(visits) / n;
}

void BM_Sccp_Dag(benchmark::State& s) { run<SccpAnalysis>(s, ProgramShape::dag); }
void BM_Sccp_Cfg(benchmark::State& s) { run<SccpAnalysis>(s, ProgramShape::cfg); }
void BM_Sccp_Const(benchmark::State& s) { run<SccpAnalysis>(s, ProgramShape::constant_heavy); }
void BM_IntRange_Dag(benchmark::State& s) { run<IntRangeAnalysis>(s, ProgramShape::dag); }
void BM_IntRange_Cfg(benchmark::State& s) { run<IntRangeAnalysis>(s, ProgramShape::cfg); }
void BM_IntRange_Const(benchmark::State& s) { run<IntRangeAnalysis>(s, ProgramShape::constant_heavy); }

/// {ops, ops per function}: the split layout at every size, and one function at 1e5 and 1e6.
void sizes(benchmark::internal::Benchmark* b) {
  for (const std::int64_t ops : {1'000, 10'000, 100'000, 1'000'000}) b->Args({ops, std::min<std::int64_t>(ops, 10'000)});
  for (const std::int64_t ops : {100'000, 1'000'000}) b->Args({ops, ops});
  b->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_Sccp_Dag)->Apply(sizes);
BENCHMARK(BM_Sccp_Cfg)->Apply(sizes);
BENCHMARK(BM_Sccp_Const)->Apply(sizes);
BENCHMARK(BM_IntRange_Dag)->Apply(sizes);
BENCHMARK(BM_IntRange_Cfg)->Apply(sizes);
BENCHMARK(BM_IntRange_Const)->Apply(sizes);

}  // namespace

BENCHMARK_MAIN();
