// Differential tests of kildall-opt's rewrites at volume. Programs come from
// tests/fuzz/program_generator.hpp (the kildall-opt fuzz target's generator,
// here driven by seeded std::mt19937_64), the oracle from
// tests/fuzz/pipeline_check.hpp:
//  - every pass sequence kildall-opt can run (--sccp, --int-range-optimizations,
//    both in either order, --canonicalize alone and after --sccp) must keep the interpreter's results on every input
//    where the original returns (all inputs when the arguments have at most
//    8 bits, else 8 boundary-biased random tuples), and print to text that
//    re-parses to the same text;
//  - SCCP and the ranges must be sound for everything the interpreter saw
//    (brute force: small widths, all inputs), and SCCP exact on
//    argument-free acyclic functions without calls;
//  - on programs with noisy-dialect values, the reduce-noise placements
//    (greedy, and the optimal ILP when built with GLPK) must keep the results,
//    leave no op above the maximum noise, and the ILP never insert more ops
//    than the greedy placement.
// KILDALL_DIFF_CASES (environment) sets the number of programs per test case.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <kildall/ir/parser.hpp>
#include <kildall/ir/verifier.hpp>
#include <kildall/noisy/ir_dialect.hpp>

#include "../fuzz/pipeline_check.hpp"
#include "../fuzz/program_generator.hpp"

using namespace kildall;
using fuzz::Pass;

namespace {

std::size_t case_count() {
  if (const char* env = std::getenv("KILDALL_DIFF_CASES")) return std::strtoull(env, nullptr, 10);
  return KILDALL_DIFF_DEFAULT_CASES;
}

struct Totals {
  std::size_t programs = 0;
  fuzz::PipelineStats stats;
};

/// Runs `cases` programs from consecutive seeds; `limits_of(seed)` shapes each.
template <class LimitsOf>
Totals run_cases(std::uint64_t first_seed, std::size_t cases, LimitsOf limits_of, fuzz::PipelineOptions options,
                 std::span<const std::vector<Pass>> sequences) {
  ir::OpRegistry registry;
  const noisy::IrDialect dialect = noisy::register_noisy_dialect(registry);
  options.dialect = &dialect;
  Totals totals;
  std::size_t failures = 0;
  for (std::uint64_t seed = first_seed; seed < first_seed + cases && failures < 3; ++seed) {
    std::mt19937_64 rng(seed);
    const fuzz::ProgramLimits limits = limits_of(seed);
    const fuzz::GeneratedProgram program = fuzz::generate_program(rng, limits);
    ir::Module module;
    try {
      module = ir::parse_and_verify(program.text, registry, "random.mlir");
    } catch (const ir::IrError& e) {
      ++failures;
      FAIL_CHECK("generated program rejected (seed " << seed << "): " << e.what() << "\n" << program.text);
      continue;
    }
    options.acyclic = !program.has_backward_branches;
    const std::string error = fuzz::check_pipeline(module, program.text, sequences, rng, options, totals.stats);
    if (!error.empty()) {
      ++failures;
      FAIL_CHECK("seed " << seed << ": " << error << "\n--- program ---\n" << program.text);
    }
    ++totals.programs;
  }
  return totals;
}

}  // namespace

TEST_CASE("every kildall-opt rewrite keeps the interpreter's results on random programs") {
  static const std::vector<Pass> sequences[] = {
      {Pass::sccp},         {Pass::int_range}, {Pass::sccp, Pass::int_range}, {Pass::int_range, Pass::sccp},
      {Pass::canonicalize}, {Pass::sccp, Pass::canonicalize}};
  const std::size_t cases = case_count();
  fuzz::PipelineOptions options;
  options.max_steps = 400;
  options.exhaustive_bits = 8;
  options.random_inputs = 8;
  const Totals t = run_cases(
      1'000'000, cases,
      [](std::uint64_t seed) {
        fuzz::ProgramLimits l;
        l.calls = seed % 3 != 0;
        l.wide_types = seed % 4 != 0;
        l.backward_branches = seed % 5 != 0;
        return l;
      },
      options, sequences);
  MESSAGE(t.programs << " programs x 6 pass sequences (sccp, int-range-optimizations, both orders; canonicalize "
                      "alone and after sccp): "
                     << t.stats.runs << " original runs, " << t.stats.returned_runs << " returned, "
                     << t.stats.compared << " rewritten runs compared, " << t.stats.folded << " rewrites applied");
  CHECK(t.programs == cases);
  CHECK(t.stats.compared > cases);  // the comparison is not vacuous
  CHECK(t.stats.folded > cases / 4);
}

TEST_CASE("SCCP and int-range are sound against brute force on small programs; SCCP exact when acyclic") {
  static const std::vector<Pass> sequences[] = {{Pass::sccp}, {Pass::int_range}};
  const std::size_t cases = case_count() / 2;
  fuzz::PipelineOptions options;
  options.max_steps = 300;
  options.exhaustive_bits = 10;  // every input of up to 10 argument bits
  options.random_inputs = 8;
  const Totals t = run_cases(
      2'000'000, cases,
      [](std::uint64_t seed) {
        fuzz::ProgramLimits l;
        l.wide_types = false;  // widths 1..8: brute force covers every input
        l.max_arguments = 2;
        l.calls = seed % 2 == 0;
        l.backward_branches = seed % 3 == 0;  // two thirds acyclic: the exactness check applies
        if (seed % 3 == 1) l.max_arguments = 0;
        return l;
      },
      options, sequences);
  MESSAGE(t.programs << " small programs: " << t.stats.runs << " brute-force runs, " << t.stats.exact_functions
                     << " functions checked for SCCP exactness, " << t.stats.compared << " rewritten runs compared");
  CHECK(t.programs == cases);
  CHECK(t.stats.exact_functions > cases / 10);
}

TEST_CASE("the reduce-noise placements keep the results and leave every noisy op legal") {
  std::vector<std::vector<Pass>> sequences = {{Pass::reduce_noise_greedy}, {Pass::sccp, Pass::reduce_noise_greedy}};
#if defined(KILDALL_FUZZ_WITH_GLPK)
  sequences.push_back({Pass::reduce_noise_ilp});
#endif
  const std::size_t cases = case_count() / 4;
  fuzz::PipelineOptions options;
  options.max_steps = 300;
  options.random_inputs = 6;
  const Totals t = run_cases(
      3'000'000, cases,
      [](std::uint64_t seed) {
        fuzz::ProgramLimits l;
        l.noisy = true;
        l.calls = seed % 2 == 0;
        l.backward_branches = seed % 3 != 0;
        l.max_functions = 2;
        return l;
      },
      options, sequences);
  MESSAGE(t.programs << " noisy programs x " << sequences.size() << " placements: " << t.stats.placed_functions
                     << " functions placed, " << t.stats.unplaceable << " proven unplaceable, " << t.stats.folded
                     << " ops inserted or folded, " << t.stats.compared << " rewritten runs compared");
  CHECK(t.programs == cases);
  CHECK(t.stats.placed_functions > cases / 2);
}
