// Fuzz target: kildall-opt's passes end to end on random well-formed programs
// decoded from the fuzz bytes (program_generator.hpp: several functions,
// calls and recursion, loops and irreducible control flow, block arguments,
// every arith op, widths 1..64 and index, and, for one input in two, values
// of the noisy dialect). For each program the oracle of pipeline_check.hpp
// runs: the interpreter on many inputs; SCCP and int-range sound (and SCCP
// exact on argument-free acyclic code); and pass sequences kildall-opt can
// run (--sccp, --int-range-optimizations, both in either order, and
// --noisy-reduce-noise=greedy alone and after --sccp) must keep the
// interpreter's results, verify, leave no noise error, and print to text
// that re-parses to the same text. A generated program that does not parse
// is a generator bug and fails too. (The ILP placement needs GLPK and is
// slower: tests/differential runs it.)

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <kildall/ir/parser.hpp>
#include <kildall/ir/verifier.hpp>
#include <kildall/noisy/ir_dialect.hpp>

#include "fuzz_input.hpp"
#include "pipeline_check.hpp"
#include "program_generator.hpp"

using namespace kildall;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ir::OpRegistry registry;
  static const noisy::IrDialect dialect = noisy::register_noisy_dialect(registry);
  fuzz::FuzzInput in(data, size);
  const std::uint8_t flags = in.byte();
  fuzz::ProgramLimits limits;
  limits.backward_branches = (flags & 1) == 0;
  limits.calls = (flags & 2) == 0;
  limits.wide_types = (flags & 4) == 0;
  limits.noisy = (flags & 8) != 0;
  const fuzz::GeneratedProgram program = fuzz::generate_program(in, limits);
  std::optional<ir::Module> module;
  try {
    module.emplace(ir::parse_and_verify(program.text, registry, "fuzz.mlir"));
  } catch (const ir::IrError& e) {
    fuzz::fuzz_failure("generated program rejected (generator bug?)", std::string(e.what()) + "\n" + program.text);
  }
  using fuzz::Pass;
  static const std::vector<Pass> sequences[] = {{Pass::sccp},
                                                {Pass::int_range},
                                                {Pass::sccp, Pass::int_range},
                                                {Pass::int_range, Pass::sccp},
                                                {Pass::reduce_noise_greedy},
                                                {Pass::sccp, Pass::reduce_noise_greedy}};
  std::uint64_t seed = size;
  for (const char c : in.rest()) seed = seed * 1099511628211u + static_cast<unsigned char>(c);
  std::mt19937_64 rng(seed);
  fuzz::PipelineOptions options;
  // Fewer inputs per program than tests/differential: libFuzzer gains more from
  // many programs than from many inputs of one.
  options.max_steps = 200;
  options.exhaustive_bits = 4;
  options.random_inputs = 3;
  options.acyclic = !program.has_backward_branches;
  options.dialect = &dialect;
  fuzz::PipelineStats stats;
  const std::string error = fuzz::check_pipeline(*module, program.text, sequences, rng, options, stats);
  fuzz::fuzz_check(error.empty(), "kildall-opt pipeline check failed",
                   [&] { return error + "\n--- program ---\n" + program.text; });
  return 0;
}
