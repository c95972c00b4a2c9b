// Fuzz target: the MLIR-syntax parser and verifier of the reference IR
// (kildall/ir/parser.hpp, verifier.hpp), on arbitrary bytes. Properties:
//  - malformed input is rejected with an `IrError` whose text is a one-line
//    `fuzz.mlir:line:col: error: ...` (1-based position inside the input,
//    at most a few hundred bytes, no raw control bytes); any other exception,
//    crash, hang or sanitizer report is a bug;
//  - accepted input prints, and the printed module re-parses and prints to
//    the same text;
//  - small accepted modules go through the end-to-end oracle
//    (pipeline_check.hpp): interpreter, SCCP and int-range soundness, and
//    the rewrites (sccp, int-range-optimizations, greedy reduce-noise)
//    keeping the results.
// The registry has the noisy dialect (custom types and ops) besides the
// built-in ops, like kildall-opt's; unregistered ops in the generic form are
// allowed (`--allow-unregistered-dialect`).

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include <kildall/ir/parser.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/verifier.hpp>
#include <kildall/noisy/ir_dialect.hpp>

#include "fuzz_input.hpp"
#include "pipeline_check.hpp"

using namespace kildall;

namespace {

void check_diagnostic(const ir::IrError& e, std::string_view text) {
  const std::string what = e.what();
  const ir::Diagnostic& d = e.diagnostic();
  fuzz::fuzz_check(what.rfind("fuzz.mlir:", 0) == 0 && what.find(": error: ") != std::string::npos,
                   "diagnostic not in file:line:col: error: form", [&] { return what; });
  fuzz::fuzz_check(what.find('\n') == std::string::npos && what.size() < 1000, "diagnostic not one short line",
                   [&] { return what; });
  for (const char c : what)
    fuzz::fuzz_check(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f, "raw control byte in a diagnostic",
                     [&] { return what; });
  // The position lies inside the input (or just past its end).
  std::size_t lines = 1;
  for (const char c : text) lines += c == '\n';
  fuzz::fuzz_check(d.loc.line >= 1 && d.loc.line <= lines && d.loc.column >= 1 && d.loc.column <= text.size() + 1,
                   "diagnostic position outside the input", [&] { return what; });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ir::OpRegistry registry;
  static const noisy::IrDialect dialect = noisy::register_noisy_dialect(registry);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::optional<ir::Module> module;
  try {
    module.emplace(fuzz::parse_for_fuzz(text, registry, "fuzz.mlir"));
  } catch (const ir::IrError& e) {
    check_diagnostic(e, text);
    return 0;
  }
  const std::string printed = ir::print_module(*module);
  std::optional<ir::Module> reparsed;
  try {
    reparsed.emplace(fuzz::parse_for_fuzz(printed, registry, "fuzz.mlir"));
  } catch (const ir::IrError& e) {
    fuzz::fuzz_failure("the printed module does not parse", std::string(e.what()) + "\n--- printed ---\n" + printed);
  }
  const std::string again = ir::print_module(*reparsed);
  fuzz::fuzz_check(again == printed, "printing is not stable",
                   [&] { return "--- first ---\n" + printed + "--- second ---\n" + again; });
  std::size_t ops = 0;
  for (const ir::Function& fn : module->functions) ops += fn.ops.size();
  if (ops > 400) return 0;
  static const std::vector<fuzz::Pass> sequences[] = {
      {fuzz::Pass::sccp}, {fuzz::Pass::int_range}, {fuzz::Pass::reduce_noise_greedy}};
  std::mt19937_64 rng(size);
  fuzz::PipelineOptions options;
  options.max_steps = 300;
  options.exhaustive_bits = 6;
  options.random_inputs = 4;
  options.dialect = &dialect;
  fuzz::PipelineStats stats;
  const std::string error = fuzz::check_pipeline(*module, text, sequences, rng, options, stats);
  fuzz::fuzz_check(error.empty(), "end-to-end check failed", [&] { return error + "\n--- input ---\n" + std::string(text); });
  return 0;
}
