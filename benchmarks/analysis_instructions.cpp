// Runs SCCP or the integer-range analysis a given number of times on one generated `cfg`
// function, for benchmarks/analysis_instructions.sh: cachegrind counts the instructions and
// first-level misses of the whole process, and the difference between two numbers of runs is
// what the analyses cost (generating and parsing the function cancels out). Deterministic, so
// it compares two commits where wall time is too noisy (docs/performance.md, "Instructions
// per op").
//
// Two more modes run only the views a sparse solve builds before it iterates (the
// `FunctionShape` and the arrays the solver derives from it, `detail::SsaArrays`, as for a
// sweep): `views` without extra operands (as for the integer ranges), `sccp-views` with SCCP's
// look-through extra operands. Each run is also timed: the fastest run's ns per op is printed,
// a wall figure for a quiet host (docs/performance.md, "Where the time goes").
//   analysis_instructions <sccp|int-range|views|sccp-views> <ops> <runs> [widening delay]
// A widening delay (integer ranges only; the solver's default is 3) also compares each value's
// range with the default's: the cost and the precision of the knob (docs/performance.md,
// "Where the integer ranges' visits go").
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <kildall/ir.hpp>
#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/solver/detail/ssa_arrays.hpp>

#include "mlir_program_generator.hpp"

int main(int argc, char** argv) {
  using namespace kildall::ir;
  const std::string_view analysis = argc == 4 || argc == 5 ? argv[1] : "";
  if ((analysis != "sccp" && analysis != "int-range" && analysis != "views" && analysis != "sccp-views") ||
      (argc == 5 && analysis != "int-range")) {
    std::fprintf(stderr,
                 "usage: analysis_instructions <sccp|int-range|views|sccp-views> <ops> <runs>\n"
                 "       analysis_instructions int-range <ops> <runs> <widening delay>\n");
    return 2;
  }
  kildall::SolverOptions options;
  if (argc == 5) options.widening_delay = static_cast<std::uint32_t>(std::strtoul(argv[4], nullptr, 10));
  const auto ops = static_cast<std::size_t>(std::strtoull(argv[2], nullptr, 10));
  const auto runs = static_cast<std::size_t>(std::strtoull(argv[3], nullptr, 10));
  if (ops < 64) {
    std::fprintf(stderr, "analysis_instructions: <ops> must be at least 64\n");
    return 2;
  }
  const OpRegistry registry;
  const Module module = parse_and_verify(
      kildall::bench::generate_mlir_program(kildall::bench::ProgramShape::cfg, ops, 1, ops), registry, "generated.mlir");
  const Function& fn = module.functions.at(0);
  std::size_t visits = 0, values = 0, rescans = 0, widenings = 0;
  double fastest = 0;  // ns per op of the fastest run
  for (std::size_t i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    if (analysis == "sccp") {
      const SccpAnalysis a(fn, registry);
      visits += a.result().statistics().visits;
      rescans += a.result().statistics().rescans;
    } else if (analysis == "int-range") {
      const IntRangeAnalysis a(fn, &registry, options);
      visits += a.result().statistics().visits;
      rescans += a.result().statistics().rescans;
      widenings += a.result().statistics().widenings;
    } else {
      const FunctionShape shape(fn, registry);
      kildall::detail::SsaArrays<FunctionShape> arrays;
      if (analysis == "views") {
        (void)arrays.derive(shape, kildall::detail::NoExtraOperands{}, kildall::detail::DependentsNeed::sweep);
      } else {
        const SccpProblem sccp(shape, registry);
        (void)arrays.derive(
            shape,
            [&](const ValueId& v, auto&& add) {
              for (const ValueId x : sccp.extra_operands(v)) {
                if (!add(x)) return false;
              }
              return true;
            },
            kildall::detail::DependentsNeed::sweep);
      }
      values += arrays.value_count;
    }
    const double ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
        static_cast<double>(fn.ops.size());
    fastest = i == 0 ? ns : std::min(fastest, ns);
  }
  std::printf("%zu visits, %zu rescans, %zu widenings, %zu values derived; fastest run %.1f ns per op (%zu ops)\n",
              visits, rescans, widenings, values, fastest, fn.ops.size());
  if (argc == 5) {  // the knob's precision: each value's range against the default delay's
    const IntRangeAnalysis tuned(fn, &registry, options), reference(fn, &registry, kildall::SolverOptions{});
    std::size_t known = 0, wider = 0, narrower = 0, other = 0;
    for (ValueId v = 0; v < fn.values.size(); ++v) {
      const kildall::Interval* mine = tuned.lookup(v);
      const kildall::Interval* theirs = reference.lookup(v);
      if (mine == nullptr || theirs == nullptr) continue;
      ++known;
      if (*mine == *theirs) continue;
      if (theirs->leq(*mine)) ++wider;
      else if (mine->leq(*theirs)) ++narrower;
      else ++other;
    }
    std::printf("widening delay %u against %u: of %zu values, %zu wider, %zu narrower, %zu neither\n",
                options.widening_delay, kildall::SolverOptions{}.widening_delay, known, wider, narrower, other);
  }
  return 0;
}
