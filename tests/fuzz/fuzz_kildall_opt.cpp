// Fuzz target: kildall-opt's passes end to end on random well-formed programs
// decoded from the fuzz bytes (program_generator.hpp: several functions,
// calls and recursion, direct and indirect, functions in a nested module, loops and irreducible control flow, block arguments,
// every arith op, widths 1..64 and index, and, for one input in two, values
// of the noisy dialect). For each program the oracle of pipeline_check.hpp
// runs: the interpreter on many inputs; SCCP and int-range sound (and SCCP
// exact on argument-free acyclic code); and pass sequences kildall-opt can
// run (--sccp, --int-range-optimizations, both in either order,
// --canonicalize alone and after --sccp, and --noisy-reduce-noise=greedy
// alone and after --sccp) must keep the
// interpreter's results, verify, leave no noise error, and print to text
// that re-parses to the same text. A generated program that does not parse
// is a generator bug and fails too. (The ILP placement needs GLPK and is
// slower: tests/differential runs it.) Then a random textual pipeline, built
// from the bytes out of well-formed and broken pieces (anchors, pass names,
// options, stray punctuation), goes through the pass manager as
// `--pass-pipeline` does: parsing it either fails with a `PipelineError` or
// gives a tree whose printed text parses back to the same text; building the
// pass manager either fails with a `PipelineError` or succeeds; a built
// pipeline run on 2 threads and run sequentially must print the same module
// as the passes applied directly in the pipeline's order, at module level or per
// function as the pipeline nests them (pipeline_check.hpp's
// `rewrite`, an implementation that does not use the pass manager).

#include <cstdint>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <kildall/ir/parser.hpp>
#include <kildall/ir/verifier.hpp>
#include <kildall/ir/passes.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/noisy/ir_dialect.hpp>
#include <kildall/pass/pass_manager.hpp>

#include "fuzz_input.hpp"
#include "pipeline_check.hpp"
#include "program_generator.hpp"

using namespace kildall;

namespace {

// A pipeline text from the fuzz bytes: half the time a well-formed nest of the
// IR's passes, else a run of pieces that may or may not form a pipeline.
std::string random_pipeline(std::mt19937_64& rng) {
  static constexpr const char* passes[] = {"sccp", "int-range-optimizations", "canonicalize"};
  static constexpr const char* pieces[] = {"builtin.module(", "func.func(", "sccp", "int-range-optimizations", ",",
                                           ")", "{", "}", "x=1", " ", "scf.for(", "\"", "=", "sccp{}", "-", "canonicalize"};
  std::string text;
  if (rng() % 2 == 0) {
    const bool anchored = rng() % 2 == 0;
    if (anchored) text += "builtin.module(func.func(";
    const std::size_t n = rng() % 5;
    for (std::size_t i = 0; i < n; ++i) text += std::string(i ? "," : "") + passes[rng() % std::size(passes)];
    if (anchored) text += "))";
    return text;
  }
  const std::size_t n = rng() % 12;
  for (std::size_t i = 0; i < n; ++i) text += pieces[rng() % std::size(pieces)];
  return text;
}

// Runs `text` through the pass manager on copies of `module`; "" when every check holds.
// `compare_direct`: also against the passes applied directly (whose range analysis reads only the
// built-in ops: not for programs with noisy values).
std::string check_random_pipeline(const ir::Module& module, const std::string& text, const fuzz::PipelineOptions& options,
                                  bool compare_direct) {
  static const ir::IrPassRegistry registry = [] {
    ir::IrPassRegistry r;
    ir::register_ir_passes(r);
    return r;
  }();
  std::vector<pass::PipelineElement> tree;
  try {
    tree = pass::parse_pipeline(text);
  } catch (const pass::PipelineError& e) {
    if (e.column() == 0 || e.column() > text.size() + 1) return "pipeline error outside the text: " + std::string(e.what());
    return {};
  }
  const std::string printed = pass::print_pipeline(tree);
  if (pass::print_pipeline(pass::parse_pipeline(printed)) != printed)
    return "pipeline '" + text + "' prints as '" + printed + "', which does not read back the same";
  std::optional<pass::PassManager<ir::IrPasses>> manager;
  try {
    manager.emplace(tree, registry);
  } catch (const pass::PipelineError&) {
    return {};
  }
  // The pipeline's passes in order, each with where it runs: at module level (interprocedural)
  // or inside `func.func(...)` (one function at a time).
  std::vector<std::pair<fuzz::Pass, bool>> sequence;
  const std::string order = manager->str();
  int depth = 0;
  for (std::size_t at = 0; at < order.size(); ++at) {
    if (order[at] == '(') ++depth;
    if (order[at] == ')') --depth;
    if (order[at] != '(' && order[at] != ',') continue;
    const std::string_view rest = std::string_view(order).substr(at + 1);
    const bool module_level = depth == 1;
    if (rest.starts_with("sccp")) sequence.emplace_back(fuzz::Pass::sccp, module_level);
    else if (rest.starts_with("int-range-optimizations")) sequence.emplace_back(fuzz::Pass::int_range, module_level);
    else if (rest.starts_with("canonicalize")) sequence.emplace_back(fuzz::Pass::canonicalize, module_level);
  }
  const auto run = [&](pass::ThreadPool* pool) -> std::string {
    ir::Module copy = module;
    ir::PassContext context;
    context.registry = copy.registry;
    pass::ModuleAnalyses<ir::IrPasses> analyses(copy, context);
    pass::RunOptions<ir::IrPasses> run_options;
    run_options.pool = pool;
    try {
      manager->run(copy, analyses, context, run_options);
    } catch (const ir::IrError& e) {
      return std::string("error: ") + e.what();
    }
    return ir::print_module(copy);
  };
  static pass::ThreadPool pool(2);
  const std::string parallel = run(&pool);
  if (parallel != run(nullptr)) return "pipeline '" + text + "': the parallel run differs from the sequential one";
  if (!compare_direct) return {};
  ir::Module direct = module;
  fuzz::PipelineStats ignored;
  std::string error;
  for (const auto& [pass, module_level] : sequence) {
    const fuzz::Pass one[] = {pass};
    error = module_level ? fuzz::detail::rewrite(direct, one, options, ignored)
                         : fuzz::detail::rewrite_each_function(direct, pass, ignored);
    if (!error.empty()) break;
  }
  if (!error.empty()) return parallel.starts_with("error: ") ? std::string() : "direct passes failed: " + error;
  if (ir::print_module(direct) != parallel)
    return "pipeline '" + text + "' (" + order + ") differs from its passes applied directly:\n" + parallel;
  return {};
}

}  // namespace

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
  limits.indirect_calls = (flags & 16) != 0;
  limits.nested_modules = (flags & 32) != 0;
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
                                                {Pass::canonicalize},
                                                {Pass::sccp, Pass::canonicalize},
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
  const std::string pipeline = random_pipeline(rng);
  const std::string pipeline_error = check_random_pipeline(*module, pipeline, options, !limits.noisy);
  fuzz::fuzz_check(pipeline_error.empty(), "kildall-opt random pipeline check failed",
                   [&] { return pipeline_error + "\n--- pipeline ---\n" + pipeline + "\n--- program ---\n" + program.text; });
  return 0;
}
