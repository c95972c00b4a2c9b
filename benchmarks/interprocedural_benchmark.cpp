// Module-level SCCP and integer ranges (kildall/ir/analysis/interprocedural.hpp on
// kildall/solver/call_graph.hpp), one context per function (MLIR's) against one per
// argument tuple (`CallGraphOptions::context_sensitive`, caps 8 and 16), on generated
// modules of N private functions (N = 100, 1000) and N public drivers: driver j calls
// @f<j>, @f<j+1>, @f<j+2>, @f<j+3> (mod N) with the constants 1, 2, 3, 4, so every
// function has four call sites with four different constants. Two call graphs:
//   - chain 1: the private functions call nothing (four contexts each);
//   - chain 10: they form chains of 10, @f<i> calling @f<i+1> with a value computed
//     from its argument, so each passes its contexts on and they pile up along the
//     chain until the cap sends further tuples to the merged context.
// Each timed iteration is the whole module-level solve and the final analysis of every
// function (no rewrite); parsing is not timed.
//
//   cmake --preset release && cmake --build --preset release --target interprocedural_benchmark
//   build/release/benchmarks/interprocedural_benchmark
//
// Counters: solves (function solves, every context), contexts (in all), merged (functions
// whose tuples overflowed the cap into a merged context), call_constants (call results the final analyses
// prove constant, of 4N + the chains' calls), summary_states (argument and result states
// the contexts hold: the memory the contexts add, besides the one function's analysis
// alive at a time; summary_KB: their bytes, without the vectors' headers and the
// worklist's bookkeeping).

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include <kildall/ir/analysis/interprocedural.hpp>
#include <kildall/ir/verifier.hpp>

namespace {

using namespace kildall::ir;

/// The module described above, with `n` private functions in chains of `chain`.
std::string generate(std::size_t n, std::size_t chain) {
  std::string text;
  const auto f = [](std::size_t i) { return "@f" + std::to_string(i); };
  for (std::size_t i = 0; i < n; ++i) {
    const std::string c = std::to_string(i % 7 + 2);
    text += "func.func private " + f(i) + "(%x: i32) -> i32 {\n";
    text += "  %c = arith.constant " + c + " : i32\n";
    text += "  %m = arith.muli %x, %c : i32\n";
    text += "  %a = arith.addi %m, %c : i32\n";
    text += "  %big = arith.cmpi sgt, %a, %c : i32\n";
    text += "  %s = arith.select %big, %a, %x : i32\n";
    if ((i + 1) % chain != 0 && i + 1 < n) {
      text += "  %r = func.call " + f(i + 1) + "(%s) : (i32) -> i32\n";
      text += "  %t = arith.addi %r, %x : i32\n";
      text += "  return %t : i32\n}\n";
    } else {
      text += "  return %s : i32\n}\n";
    }
  }
  for (std::size_t j = 0; j < n; ++j) {
    text += "func.func @driver" + std::to_string(j) + "() -> i32 {\n";
    for (std::size_t k = 0; k < 4; ++k) {
      text += "  %c" + std::to_string(k) + " = arith.constant " + std::to_string(k + 1) + " : i32\n";
      text += "  %r" + std::to_string(k) + " = func.call " + f((j + k) % n) + "(%c" + std::to_string(k) +
              ") : (i32) -> i32\n";
    }
    text += "  %s0 = arith.addi %r0, %r1 : i32\n  %s1 = arith.addi %r2, %r3 : i32\n";
    text += "  %s = arith.addi %s0, %s1 : i32\n  return %s : i32\n}\n";
  }
  return text;
}

/// The parsed module of `n` functions in chains of `chain` (the last one asked for only).
const Module& module_of(std::size_t n, std::size_t chain) {
  static const OpRegistry registry;
  static std::pair<std::size_t, std::size_t> cached;
  static Module module;
  if (cached != std::pair{n, chain}) {
    module = parse_and_verify(generate(n, chain), registry, "calls.mlir");
    cached = {n, chain};
  }
  return module;
}

/// range(0): functions; range(1): chain length; range(2): 0 for one context per function,
/// else the cap on contexts.
template <bool Sccp>
void run(benchmark::State& state) {
  const Module& module = module_of(static_cast<std::size_t>(state.range(0)), static_cast<std::size_t>(state.range(1)));
  kildall::CallGraphOptions options;
  options.context_sensitive = state.range(2) > 0;
  options.max_contexts_per_procedure = static_cast<std::uint32_t>(state.range(2));
  std::size_t solves = 0, contexts = 0, merged = 0, constants = 0, summary_states = 0;
  for (auto _ : state) {
    constants = 0;
    const auto count = [&](std::uint32_t, const auto& analysis) {
      const Function& fn = analysis.function();
      for (OpId op = 0; op < fn.ops.size(); ++op) {
        if (!is(fn.ops[op].code, BuiltinOp::call)) continue;
        const auto* s = analysis.lookup(fn.ops[op].result_begin);
        if constexpr (Sccp) constants += s != nullptr && s->is_constant();
        else constants += s != nullptr && !s->is_empty() && s->umin() == s->umax();
      }
    };
    const auto result = [&] {
      if constexpr (Sccp) return solve_module_sccp(module, *module.registry, {}, count, PlainConstruction{}, options);
      else return solve_module_int_ranges(module, *module.registry, {}, count, PlainConstruction{}, options);
    }();
    if (!result.converged()) state.SkipWithError("the call-graph solve did not converge");
    solves = result.solves;
    contexts = merged = summary_states = 0;
    for (std::uint32_t p = 0; p < result.contexts.contexts.size(); ++p) {
      contexts += result.contexts.contexts[p].size();
      merged += options.context_sensitive && result.contexts.has_merged(p);
      for (const auto& c : result.contexts.contexts[p]) summary_states += c.arguments.size() + c.results.size();
    }
    benchmark::DoNotOptimize(constants);
  }
  state.counters["solves"] = static_cast<double>(solves);
  state.counters["contexts"] = static_cast<double>(contexts);
  state.counters["merged"] = static_cast<double>(merged);
  state.counters["call_constants"] = static_cast<double>(constants);
  state.counters["summary_states"] = static_cast<double>(summary_states);
  using State = kildall::SummaryState<std::conditional_t<Sccp, ConstantState, kildall::Interval>>;
  state.counters["summary_KB"] = static_cast<double>(summary_states * sizeof(State)) / 1024.0;
}

void BM_ModuleSccp(benchmark::State& state) { run<true>(state); }
void BM_ModuleIntRanges(benchmark::State& state) { run<false>(state); }

void arguments(benchmark::internal::Benchmark* b) {
  for (const std::int64_t chain : {1, 10})
    for (const std::int64_t n : {100, 1000})
      for (const std::int64_t cap : {0, 8, 16}) b->Args({n, chain, cap});
  b->ArgNames({"functions", "chain", "max_contexts"})->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_ModuleSccp)->Apply(arguments);
BENCHMARK(BM_ModuleIntRanges)->Apply(arguments);

BENCHMARK_MAIN();
