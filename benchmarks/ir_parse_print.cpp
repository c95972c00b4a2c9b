// Parse, verify and print throughput of the reference IR on a generated
// 1,000,000-op MLIR file (~42 MB; benchmarks/ir_generator.hpp, seed 42).
// Also: `ir_parse_print --write=<path>` writes that file, so mlir-opt can be
// timed on the same input (`mlir-opt-16 <path> -o /dev/null --mlir-timing`).
#include <benchmark/benchmark.h>

#include <cstring>
#include <fstream>
#include <string>

#include <kildall/ir.hpp>

#include "ir_generator.hpp"

namespace {

using namespace kildall::ir;

const std::string& million_op_file() {
  static const std::string text = kildall::bench::generate_mlir(1'000'000, 42);
  return text;
}

void BM_Parse1M(benchmark::State& state) {
  const std::string& text = million_op_file();
  const OpRegistry registry;
  for (auto _ : state) {
    Module module = parse_module(text, registry, "generated.mlir");
    benchmark::DoNotOptimize(module.functions.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_Parse1M)->Unit(benchmark::kMillisecond);

void BM_Verify1M(benchmark::State& state) {
  const OpRegistry registry;
  const Module module = parse_module(million_op_file(), registry, "generated.mlir");
  for (auto _ : state) verify(module);
  state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_Verify1M)->Unit(benchmark::kMillisecond);

void BM_Print1M(benchmark::State& state) {
  const OpRegistry registry;
  const Module module = parse_module(million_op_file(), registry, "generated.mlir");
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::string out;
    out.reserve(million_op_file().size());
    print_module(module, out);
    bytes = out.size();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_Print1M)->Unit(benchmark::kMillisecond);

void BM_Sccp1M(benchmark::State& state) {
  const OpRegistry registry;
  const Module module = parse_module(million_op_file(), registry, "generated.mlir");
  for (auto _ : state)
    for (const Function& fn : module.functions) {
      const SccpAnalysis sccp(fn, registry);
      benchmark::DoNotOptimize(sccp.result().statistics().visits);
    }
  state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_Sccp1M)->Unit(benchmark::kMillisecond);

void BM_IntRange1M(benchmark::State& state) {
  const OpRegistry registry;
  const Module module = parse_module(million_op_file(), registry, "generated.mlir");
  for (auto _ : state)
    for (const Function& fn : module.functions) {
      const IntRangeAnalysis ranges(fn);
      benchmark::DoNotOptimize(ranges.result().statistics().visits);
    }
  state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_IntRange1M)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--write=", 8) == 0) {
      std::ofstream(argv[i] + 8, std::ios::binary) << million_op_file();
      return 0;
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
