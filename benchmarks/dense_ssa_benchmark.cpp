// Dense analyses over SSA programs, with kildall's defaults and shipped lattices:
// constant propagation and integer ranges run the dense way (one persistent
// `Environment` per block boundary of the values a later block can read,
// `ir::DenseValues`) over ONE generated function of 1e3..1e6 ops (`cfg`
// shape: loops, diamonds, block arguments), side by side with the sparse
// solver on the same function.
//
//   cmake --preset release && cmake --build --preset release --target dense_ssa_benchmark
//   build/release/benchmarks/dense_ssa_benchmark
//
// Counters: ns_per_op, visits_per_block, blocks, peak_MB (the peak extra heap
// of one iteration: shape, problem and result, every block's environments
// alive at the end). Each timed iteration is a complete solve (shape and
// problem included) and its teardown; parsing is not timed.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <new>
#include <string>

#include <kildall/ir/analysis/dense_values.hpp>
#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/verifier.hpp>
#include <kildall/support/large_array_allocator.hpp>

#include "heap_accounting.hpp"
#include "mlir_program_generator.hpp"


namespace {

using namespace kildall::ir;
namespace heap = kildall::bench::heap;

/// One generated function of `ops` ops (seed 1, `cfg` shape), parsed once per size.
const Module& single_function(std::size_t ops) {
  static const OpRegistry registry;
  static std::size_t cached_ops = 0;
  static Module module;
  if (cached_ops != ops) {
    module = parse_and_verify(kildall::bench::generate_mlir_program(kildall::bench::ProgramShape::cfg, ops, 1, ops),
                              registry);
    cached_ops = ops;
  }
  return module;
}

void counters(benchmark::State& state, std::size_t ops, std::size_t blocks, std::size_t visits, std::size_t peak) {
  state.counters["ns_per_op"] = benchmark::Counter(static_cast<double>(ops),
                                                   benchmark::Counter::kIsIterationInvariantRate |
                                                       benchmark::Counter::kInvert);
  state.counters["blocks"] = static_cast<double>(blocks);
  state.counters["visits_per_block"] = static_cast<double>(visits) / static_cast<double>(blocks);
  state.counters["peak_MB"] = static_cast<double>(peak) / 1e6;
}

/// One dense solve of `fn` (0 = constants, 1 = integer ranges), shape and problem included; its visits.
std::size_t solve_dense(const Function& fn, const OpRegistry& registry, std::int64_t analysis) {
  const FunctionShape shape(fn);
  if (analysis == 0) {
    const SccpProblem problem(shape, registry);
    const DenseValueAnalysis<SccpProblem> dense(shape, problem);
    benchmark::DoNotOptimize(dense.result().converged());
    return dense.result().statistics().visits;
  }
  const IntRangeProblem problem(shape);
  const DenseValueAnalysis<IntRangeProblem> dense(shape, problem);
  benchmark::DoNotOptimize(dense.result().converged());
  return dense.result().statistics().visits;
}

/// `range(1)`: 0 = constants (SCCP's lattice), 1 = integer ranges.
void BM_Dense_SingleFunction(benchmark::State& state) {
  const auto ops = static_cast<std::size_t>(state.range(0));
  const Function& fn = single_function(ops).functions.at(0);
  const OpRegistry registry;
  std::size_t visits = 0;
  std::size_t peak = 0;
  for (auto _ : state) {
    const std::size_t base = heap::in_use();
    heap::peak = base;
    visits = solve_dense(fn, registry, state.range(1));
    peak = heap::peak - base;
  }
  counters(state, ops, fn.blocks.size(), visits, peak);
}

/// The sparse solver on the same function (views included), for comparison.
void BM_Sparse_SingleFunction(benchmark::State& state) {
  const auto ops = static_cast<std::size_t>(state.range(0));
  const Function& fn = single_function(ops).functions.at(0);
  const OpRegistry registry;
  std::size_t visits = 0;
  std::size_t peak = 0;
  for (auto _ : state) {
    const std::size_t base = heap::in_use();
    heap::peak = base;
    if (state.range(1) == 0) {
      const SccpAnalysis sparse(fn, registry);
      visits = sparse.result().statistics().visits;
    } else {
      const IntRangeAnalysis sparse(fn);
      visits = sparse.result().statistics().visits;
    }
    peak = heap::peak - base;
  }
  counters(state, ops, fn.blocks.size(), visits, peak);
}

}  // namespace

BENCHMARK(BM_Dense_SingleFunction)
    ->ArgsProduct({{1'000, 10'000, 100'000, 1'000'000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Sparse_SingleFunction)
    ->ArgsProduct({{1'000, 10'000, 100'000, 1'000'000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
