// Runs SCCP or the integer-range analysis a given number of times on one generated `cfg`
// function, for benchmarks/analysis_instructions.sh: cachegrind counts the instructions and
// first-level misses of the whole process, and the difference between two numbers of runs is
// what the analyses cost (generating and parsing the function cancels out). Deterministic, so
// it compares two commits where wall time is too noisy (docs/performance.md, "Instructions
// per op").
//   analysis_instructions <sccp|int-range> <ops> <runs>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <kildall/ir.hpp>
#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>

#include "mlir_program_generator.hpp"

int main(int argc, char** argv) {
  using namespace kildall::ir;
  const std::string_view analysis = argc == 4 ? argv[1] : "";
  if (analysis != "sccp" && analysis != "int-range") {
    std::fprintf(stderr, "usage: analysis_instructions <sccp|int-range> <ops> <runs>\n");
    return 2;
  }
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
  std::size_t visits = 0;
  for (std::size_t i = 0; i < runs; ++i) {
    if (analysis == "sccp") {
      const SccpAnalysis a(fn, registry);
      visits += a.result().statistics().visits;
    } else {
      const IntRangeAnalysis a(fn);
      visits += a.result().statistics().visits;
    }
  }
  std::printf("%zu visits\n", visits);
  return 0;
}
