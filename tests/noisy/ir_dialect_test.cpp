#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <kildall/ir.hpp>
#include <kildall/noisy/greedy.hpp>
#include <kildall/noisy/ir_dialect.hpp>

#include "ir_test_support.hpp"

using namespace kildall;
using namespace kildall::noisy;
using noisy_ir_test::read_example;

namespace {

struct Noisy {
  ir::OpRegistry registry;
  IrDialect dialect = register_noisy_dialect(registry);
  ir::Module parse(const std::string& text, const std::string& name = "test.mlir") const {
    return ir::parse_and_verify(text, registry, name);
  }
};

const char* const examples[] = {"mul_chain.mlir", "single_insertion_branching.mlir", "add_chain.mlir",
                                "branches_rejoin.mlir", "loop.mlir"};

// Every placement over the reducible values of `fn` (virtual, CFG analysis):
// the least number of inserted ops of a legal one (-1 if none).
int brute_force_minimum(const ir::Function& fn, const IrDialect& dialect) {
  const IrNoisyProgram program(fn, dialect);
  std::vector<ir::ValueId> reducible;
  for (ir::ValueId v = 0; v < fn.values.size(); ++v)
    if (is_reducible(program.kind(v))) reducible.push_back(v);
  REQUIRE(reducible.size() <= 14);
  int best = -1;
  for (std::uint32_t mask = 0; mask < (1u << reducible.size()); ++mask) {
    const int count = __builtin_popcount(mask);
    if (best >= 0 && count >= best) continue;
    NoiseAnalysisOptions options;
    options.reduce_after.assign(fn.values.size(), false);
    for (std::size_t i = 0; i < reducible.size(); ++i) options.reduce_after[reducible[i]] = (mask >> i & 1) != 0;
    if (is_legal(analyze_ir_noise(program, {}, options))) best = count;
  }
  return best;
}

std::vector<std::uint64_t> run(const ir::Module& m, std::vector<std::uint64_t> args) {
  const ir::ExecResult r = ir::interpret(m, m.functions[0].name, args);
  REQUIRE(r.status == ir::ExecStatus::returned);
  return r.results;
}

}  // namespace

TEST_CASE("the dialect's ops parse, print and re-parse unchanged (every shipped example)") {
  const Noisy n;
  for (const char* name : examples) {
    CAPTURE(name);
    const ir::Module m = n.parse(read_example(name), name);
    const std::string printed = ir::print_module(m);
    CHECK(printed.find("noisy.") != std::string::npos);
    CHECK(ir::print_module(n.parse(printed)) == printed);
  }
  const ir::Module m = n.parse(read_example("mul_chain.mlir"));
  const std::string text = ir::print_module(m);
  CHECK(text.find("%2 = noisy.encode %0 : i5 -> !noisy.i32") != std::string::npos);
  CHECK(text.find("%5 = noisy.mul %4, %4 : !noisy.i32") != std::string::npos);
  CHECK(text.find("%8 = noisy.decode %7 : !noisy.i32 -> i5") != std::string::npos);
}

TEST_CASE("the verifier rejects ill-typed noisy ops at their location") {
  const Noisy n;
  const auto error_of = [&](const std::string& body) {
    try {
      (void)n.parse("func.func @f(%x: i32, %y: i64, %z: !noisy.i32) {\n" + body + "\n  return\n}\n");
    } catch (const ir::IrError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of("  %a = noisy.add %x, %x : i32") ==
        "test.mlir:2:8: error: 'noisy.add' op operands and result must have type '!noisy.i32', but got 'i32'");
  CHECK(error_of("  %a = noisy.encode %y : i64 -> !noisy.i32").find(
            "'noisy.encode' op operand must be an integer of at most 32 bits, but got 'i64'") != std::string::npos);
  CHECK(error_of("  %a = noisy.decode %x : i32 -> i5").find("'noisy.decode' op operand must have type '!noisy.i32'") !=
        std::string::npos);
  CHECK(error_of("  %a = noisy.reduce_noise %x : i32").find("'noisy.reduce_noise' op") != std::string::npos);
  CHECK(error_of("  %a = noisy.mul %z, %z : !noisy.i32") == "no error");
}

TEST_CASE("registering twice is a clear error") {
  ir::OpRegistry registry;
  (void)register_noisy_dialect(registry);
  CHECK_THROWS_AS((void)register_noisy_dialect(registry), ir::RegistryError);
}

TEST_CASE("the interpreter treats the ops as plain integers") {
  const Noisy n;
  // 3 * 4 = 12; branch 1: 12 + 4 * 4 = 28; branch 2: 12 - 3 - 4 - 4 - 4 = -3 -> 29 (5 bits); 28 + 29 = 57 -> 25.
  CHECK(run(n.parse(read_example("single_insertion_branching.mlir")), {}) == std::vector<std::uint64_t>{25});
  // x^(n+1) in 32 bits, truncated to 5 bits.
  CHECK(run(n.parse(read_example("loop.mlir")), {3, 4}) == std::vector<std::uint64_t>{243 % 32});
  CHECK(run(n.parse(read_example("add_chain.mlir")), {1, 2}) == std::vector<std::uint64_t>{(1 + 14 * 2) % 32});
}

TEST_CASE("verification reports the article's error at %5 of the mul chain") {
  const Noisy n;
  const std::string text = read_example("mul_chain.mlir");
  const ir::Module m = n.parse(text, "mul_chain.mlir");
  const auto error = find_noise_error(m, m.functions[0], n.dialect);
  REQUIRE(error.has_value());
  const auto [line, column] = noisy_ir_test::position_of(text, "noisy.mul %4, %4");
  CHECK(error->loc.line == line);
  CHECK(error->loc.column == column);
  const std::string first_line = error->str().substr(0, error->str().find('\n'));
  CHECK(first_line == "mul_chain.mlir:" + std::to_string(line) + ":" + std::to_string(column) +
                          ": error: 'noisy.mul' op Found op after which the noise exceeds the allowable maximum of "
                          "26; it was: 48");
  CHECK(error->message.find("note: see current operation: %5 = noisy.mul %4, %4 : !noisy.i32") != std::string::npos);
  CHECK_THROWS_AS(verify_module_noise(m, n.dialect), ir::IrError);
  // With a larger maximum the same program is legal up to %5 and fails at %6.
  NoiseParameters p;
  p.maximum = 50;
  CHECK(find_noise_error(m, m.functions[0], n.dialect, p)->message.find("it was: 96") != std::string::npos);
}

TEST_CASE("the CFG analysis joins block arguments over executable edges and skips dead blocks") {
  const Noisy n;
  const ir::Module m = n.parse(read_example("branches_rejoin.mlir"));
  const ir::Function& fn = m.functions[0];
  const IrNoisyProgram program(fn, n.dialect);
  const auto analysis = analyze_ir_noise(program);
  REQUIRE(analysis.converged());
  const ir::ValueId join = fn.argument(3, 0);
  CHECK(program.kind(join) == NoisyOp::join);
  CHECK(analysis.noise_bound(join) == 25u);
  CHECK(program.kind(fn.argument(0, 0)) == NoisyOp::plain);

  // A block nobody branches to is dead: its ops are neither analysed nor reported.
  const ir::Module dead = n.parse(
      "func.func @f(%x: !noisy.i32) -> !noisy.i32 {\n  return %x : !noisy.i32\n^dead:\n"
      "  %m = noisy.mul %x, %x : !noisy.i32\n  %m2 = noisy.mul %m, %m : !noisy.i32\n  return %m2 : !noisy.i32\n}\n");
  const IrNoisyProgram dead_program(dead.functions[0], n.dialect);
  const auto dead_analysis = analyze_ir_noise(dead_program);
  CHECK(dead_program.kind(0) == NoisyOp::input);
  CHECK(dead_analysis.noise_bound(0) == 12u);
  CHECK(dead_analysis.noise(dead.functions[0].result(1)) == nullptr);
  CHECK_FALSE(find_noise_error(dead, dead.functions[0], n.dialect).has_value());
}

TEST_CASE("a loop: the analysis converges, and greedy plus the rewrite make it legal") {
  const Noisy n;
  ir::Module m = n.parse(read_example("loop.mlir"));
  REQUIRE(find_noise_error(m, m.functions[0], n.dialect).has_value());
  std::vector<ir::ValueId> placement;
  {
    const IrNoisyProgram program(m.functions[0], n.dialect);
    placement = place_reduce_noise_greedy(program);
  }
  CHECK(placement.size() == 1);
  (void)apply_reduce_noise(m.functions[0], n.dialect, placement);
  ir::verify(m);
  CHECK_FALSE(find_noise_error(m, m.functions[0], n.dialect).has_value());
  CHECK(run(m, {3, 4}) == std::vector<std::uint64_t>{243 % 32});
}

TEST_CASE("the rewrite puts reduce_noise right after its op and redirects the other uses") {
  const Noisy n;
  ir::Module m = n.parse(read_example("single_insertion_branching.mlir"));
  ir::Function& fn = m.functions[0];
  const ir::ValueId mul = fn.result(4);  // %4: the ops are 2 constants, 2 encodes, then the mul
  REQUIRE(n.dialect.kind_of_op(fn.ops[fn.values[mul].owner].code) == NoisyOp::mul);
  const auto reduced = apply_reduce_noise(fn, n.dialect, {mul});
  REQUIRE(reduced.size() == 1);
  ir::verify(m);
  const std::string text = ir::print_module(m);
  CHECK(text.find("    %4 = noisy.mul %2, %3 : !noisy.i32\n    %5 = noisy.reduce_noise %4 : !noisy.i32\n"
                  "    %b1 = noisy.add %5, %3 : !noisy.i32\n") != std::string::npos);
  CHECK(text.find("%c1 = noisy.sub %5, %2 : !noisy.i32") != std::string::npos);
  CHECK_FALSE(find_noise_error(m, fn, n.dialect).has_value());
}

TEST_CASE("greedy on the shipped examples: legal, never below the brute-force optimum") {
  const Noisy n;
  const int optimum[] = {3, 1, 0, 1, 1};
  for (std::size_t e = 0; e < std::size(examples); ++e) {
    CAPTURE(examples[e]);
    ir::Module m = n.parse(read_example(examples[e]));
    CHECK(brute_force_minimum(m.functions[0], n.dialect) == optimum[e]);
    std::vector<ir::ValueId> placement;
    {
      const IrNoisyProgram program(m.functions[0], n.dialect);
      placement = place_reduce_noise_greedy(program);
    }
    CHECK(static_cast<int>(placement.size()) >= optimum[e]);
    (void)apply_reduce_noise(m.functions[0], n.dialect, placement);
    ir::verify(m);
    CHECK_FALSE(find_noise_error(m, m.functions[0], n.dialect).has_value());
  }
}

TEST_CASE("differential: inserting reduce_noise never changes what a program computes (interpreter)") {
  const Noisy n;
  std::mt19937 rng(2024);
  for (unsigned seed = 1; seed <= 40; ++seed) {
    const std::string text = noisy_ir_test::random_function(seed, 4 + static_cast<int>(seed % 8));
    CAPTURE(text);
    const ir::Module original = n.parse(text);
    ir::Module greedy = n.parse(text);
    ir::Module random = n.parse(text);
    std::vector<ir::ValueId> everything;
    {
      const IrNoisyProgram program(greedy.functions[0], n.dialect);
      for (ir::ValueId v = 0; v < greedy.functions[0].values.size(); ++v)
        if (is_reducible(program.kind(v)) && rng() % 2 == 0) everything.push_back(v);
      try {
        (void)apply_reduce_noise(greedy.functions[0], n.dialect, place_reduce_noise_greedy(program));
        ir::verify(greedy);
        CHECK_FALSE(find_noise_error(greedy, greedy.functions[0], n.dialect).has_value());
      } catch (const PlacementError&) {
        // Some random programs cannot be made legal; the rewrite is still compared below.
      }
    }
    (void)apply_reduce_noise(random.functions[0], n.dialect, everything);
    ir::verify(random);
    for (int trial = 0; trial < 8; ++trial) {
      const std::vector<std::uint64_t> args{rng() % 32, rng() % 32, rng() % 32, rng() % 2};
      const auto expected = run(original, args);
      CHECK(run(greedy, args) == expected);
      CHECK(run(random, args) == expected);
    }
  }
}

TEST_CASE("a PlacementError becomes a diagnostic at the offending op") {
  const Noisy n;
  const std::string text = read_example("single_insertion_branching.mlir");
  const ir::Module m = n.parse(text, "branching.mlir");
  const IrNoisyProgram program(m.functions[0], n.dialect);
  NoiseParameters p;
  p.maximum = 20;
  try {
    (void)place_reduce_noise_greedy(program, p);
    FAIL("expected a PlacementError");
  } catch (const PlacementError& e) {
    const ir::Diagnostic d = placement_diagnostic(m, program, e);
    const auto [line, column] = noisy_ir_test::position_of(text, "noisy.mul %2, %3");
    CHECK(d.loc.line == line);
    CHECK(d.loc.column == column);
    CHECK(d.message.find("'noisy.mul' op no placement of reduce_noise can make this op legal") == 0);
  }
}
