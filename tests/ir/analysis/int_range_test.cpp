// Tests of kildall/ir/analysis/int_range.hpp. Oracle: the interpreter. Over
// hundreds of random programs with loops and branches, every value observed in
// any execution (all inputs of small-width programs, many random inputs of
// wide ones) must lie in the inferred interval, both signed and unsigned, and
// every executed block must be executable; on argument-free acyclic programs
// the ranges must be exact singletons; `int-range-optimizations` must keep the
// results of every run and fold every comparison that is constant over all runs
// of an argument-free program.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/printer.hpp>

#include "../random_programs.hpp"

using namespace kildall::ir;
using namespace kildall::ir::testing;
using kildall::Interval;

namespace {

kildall::SolverOptions options_with(std::uint32_t narrowing) {
  kildall::SolverOptions options;
  options.narrowing_passes = narrowing;
  return options;
}

void check_sound(const Module& module, const IntRangeAnalysis& ranges, const Observations& obs,
                 const std::string& text) {
  const Function& fn = module.functions[0];
  for (BlockId b = 0; b < fn.blocks.size(); ++b)
    if (obs.blocks[b] && !ranges.executable(b)) FAIL_CHECK("block " << b << " executed but not executable\n" << text);
  for (ValueId v = 0; v < fn.values.size(); ++v) {
    if (obs.values[v].empty()) continue;
    const Interval* range = ranges.lookup(v);
    if (!range) {
      FAIL_CHECK("value %" << fn.value_name(v) << " observed but uninitialized\n" << text);
      continue;
    }
    for (const std::uint64_t bits : obs.values[v])
      if (!range->contains(bits))
        FAIL_CHECK("value %" << fn.value_name(v) << " took " << bits << " outside " << *range << "\n" << text);
  }
}

void check_rewrite(const Module& original, const std::vector<std::vector<std::uint64_t>>& tuples,
                   std::uint64_t max_steps, const std::string& text) {
  Module rewritten = parse_and_verify(text, *original.registry, "random.mlir");
  {
    const IntRangeAnalysis ranges(rewritten.functions[0], nullptr, options_with(2));
    REQUIRE(ranges.result().converged());
    (void)apply_int_range_optimizations(rewritten.functions[0], ranges);
  }
  verify(rewritten);
  const std::string printed = print_module(rewritten);
  const Module reparsed = parse_and_verify(printed, *original.registry, "rewritten.mlir");
  const Interpreter before(original), after(reparsed);
  InterpreterOptions small, large;
  small.max_steps = max_steps;
  large.max_steps = 2 * max_steps + 64;
  for (const auto& args : tuples) {
    const ExecResult a = before.run(0u, args, small);
    if (a.status != ExecStatus::returned) continue;
    const ExecResult b = after.run(0u, args, large);
    if (b.status != ExecStatus::returned || b.results != a.results)
      FAIL_CHECK("rewrite changed the result\n" << text << "\n--- rewritten ---\n" << printed);
  }
}

}  // namespace

TEST_CASE("integer ranges are sound on random small-width programs (brute force over all inputs)") {
  const OpRegistry registry;
  std::mt19937_64 rng(11);
  for (std::uint64_t seed = 0; seed < 250; ++seed) {
    ProgramShape shape;
    shape.widths = {1 + static_cast<unsigned>(seed % 4)};
    if (seed % 3 == 0) shape.widths.push_back(2 + static_cast<unsigned>(seed % 5));
    shape.arguments = static_cast<unsigned>(seed % 3);
    shape.blocks = 2 + static_cast<unsigned>(seed % 5);
    const std::string text = random_program(seed, shape);
    CAPTURE(text);
    const Module module = parse_and_verify(text, registry, "random.mlir");
    const auto tuples = input_tuples(module.functions[0], 10, 0, rng);
    const Observations obs = observe(module, tuples, 200);
    for (const std::uint32_t narrowing : {0u, 2u}) {
      const IntRangeAnalysis ranges(module.functions[0], nullptr, options_with(narrowing));
      REQUIRE(ranges.result().converged());
      check_sound(module, ranges, obs, text);
    }
    check_rewrite(module, tuples, 200, text);
  }
}

TEST_CASE("integer ranges are sound through scf regions on random structured programs (brute force)") {
  const OpRegistry registry;
  std::mt19937_64 rng(24);
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const std::string text = random_program(seed, small_structured_shape(seed));
    CAPTURE(text);
    const Module module = parse_and_verify(text, registry, "random.mlir");
    const auto tuples = input_tuples(module.functions[0], 10, 0, rng);
    const Observations obs = observe(module, tuples, 2000);
    for (const std::uint32_t narrowing : {0u, 2u}) {
      const IntRangeAnalysis ranges(module.functions[0], nullptr, options_with(narrowing));
      REQUIRE(ranges.result().converged());
      check_sound(module, ranges, obs, text);
    }
    check_rewrite(module, tuples, 2000, text);
  }
}

TEST_CASE("integer ranges are sound on random wide programs (random inputs)") {
  const OpRegistry registry;
  std::mt19937_64 rng(12);
  for (std::uint64_t seed = 2000; seed < 2100; ++seed) {
    ProgramShape shape;
    static const unsigned wide[] = {8, 16, 32, 64};
    shape.widths = {wide[seed % 4], wide[(seed / 4) % 4]};
    shape.arguments = 1 + static_cast<unsigned>(seed % 2);
    shape.blocks = 3 + static_cast<unsigned>(seed % 4);
    const std::string text = random_program(seed, shape);
    CAPTURE(text);
    const Module module = parse_and_verify(text, registry, "random.mlir");
    const auto tuples = input_tuples(module.functions[0], 0, 60, rng);
    const Observations obs = observe(module, tuples, 200);
    const IntRangeAnalysis ranges(module.functions[0], nullptr, options_with(2));
    REQUIRE(ranges.result().converged());
    check_sound(module, ranges, obs, text);
    check_rewrite(module, tuples, 200, text);
  }
}

TEST_CASE("integer ranges are exact on argument-free acyclic programs, and decided comparisons fold") {
  const OpRegistry registry;
  std::size_t exact_runs = 0;
  for (std::uint64_t seed = 7000; seed < 7150; ++seed) {
    ProgramShape shape;
    shape.widths = {1 + static_cast<unsigned>(seed % 8), 1 + static_cast<unsigned>(seed % 13)};
    shape.arguments = 0;
    shape.blocks = 2 + static_cast<unsigned>(seed % 6);
    shape.backward_branches = false;
    const std::string text = random_program(seed, shape);
    CAPTURE(text);
    const Module module = parse_and_verify(text, registry, "random.mlir");
    const Function& fn = module.functions[0];
    const IntRangeAnalysis ranges(fn);
    const Observations obs = observe(module, {std::vector<std::uint64_t>{}}, 1000);
    if (obs.returned != 1) continue;
    ++exact_runs;
    for (BlockId b = 0; b < fn.blocks.size(); ++b) CHECK(ranges.executable(b) == obs.blocks[b]);
    for (ValueId v = 0; v < fn.values.size(); ++v) {
      if (obs.values[v].empty()) continue;
      REQUIRE(ranges.lookup(v) != nullptr);
      CHECK(ranges.lookup(v)->unsigned_constant() == *obs.values[v].begin());
    }
    Module rewritten = parse_and_verify(text, registry, "random.mlir");
    (void)apply_int_range_optimizations(rewritten.functions[0], IntRangeAnalysis(rewritten.functions[0]));
    verify(rewritten);
    const Function& r = rewritten.functions[0];
    for (BlockId b = 0; b < r.blocks.size(); ++b) {
      if (!obs.blocks[b]) continue;
      for (const OpId op : r.ops_of(b)) CHECK_FALSE(is(r.ops[op].code, BuiltinOp::cmpi));
    }
  }
  CHECK(exact_runs > 50);
}

TEST_CASE("the seed's example: extsi then addi stays within 9 signed bits") {
  const OpRegistry registry;
  Module module = parse_and_verify(R"(func.func @f(%x: i8) -> i1 {
  %1 = arith.extsi %x : i8 to i32
  %2 = arith.addi %1, %1 : i32
  %big = arith.constant 255 : i32
  %lt = arith.cmpi sle, %2, %big : i32
  %zero = arith.constant 0 : i32
  %open = arith.cmpi sge, %2, %zero : i32
  %r = arith.andi %lt, %open : i1
  return %r : i1
}
)",
                                   registry);
  Function& fn = module.functions[0];
  const IntRangeAnalysis ranges(fn);
  CHECK(ranges.describe(2) == "[-256, 254] u[0, 4294967295]");
  CHECK(apply_int_range_optimizations(fn, ranges) == 1);
  verify(module);
  const std::string printed = print_module(module);
  CHECK(printed.find("%lt = arith.constant true") != std::string::npos);
  CHECK(printed.find("%open = arith.cmpi sge, %2, %zero : i32") != std::string::npos);
}

TEST_CASE("every value whose range is one constant is replaced, not only comparisons (MLIR's @add_min_max)") {
  const OpRegistry registry;
  Module module = parse_and_verify(R"(func.func @add_min_max(%a: index, %b: index) -> index {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %0 = arith.minsi %a, %c1 : index
  %1 = arith.maxsi %0, %c1 : index
  %2 = arith.minui %b, %c2 : index
  %3 = arith.maxui %2, %c2 : index
  %4 = arith.addi %1, %3 : index
  func.return %4 : index
}
)",
                                   registry);
  Function& fn = module.functions[0];
  const IntRangeAnalysis ranges(fn);
  CHECK_FALSE(ranges.constant(fn.argument(0, 0)).has_value());
  CHECK(apply_int_range_optimizations(fn, ranges) == 3);  // %1 = 1, %3 = 2, %4 = 3
  verify(module);
  const std::string printed = print_module(module);
  CHECK(printed.find("%4 = arith.constant 3 : index") != std::string::npos);
  CHECK(printed.find("%1 = arith.constant 1 : index") != std::string::npos);
  CHECK(printed.find("%0 = arith.minsi %a, %c1 : index") != std::string::npos);  // not one constant
}

TEST_CASE("a counting loop terminates by widening and stays sound") {
  const OpRegistry registry;
  const Module module = parse_and_verify(R"(func.func @f(%n: i16) -> i16 {
  %c0 = arith.constant 0 : i16
  %c1 = arith.constant 1 : i16
  cf.br ^loop(%c0 : i16)
^loop(%i: i16):
  %next = arith.addi %i, %c1 : i16
  %more = arith.cmpi ult, %next, %n : i16
  cf.cond_br %more, ^loop(%next : i16), ^exit
^exit:
  return %next : i16
}
)",
                                         registry);
  kildall::SolverOptions options;
  options.widening_delay = 1;
  const IntRangeAnalysis ranges(module.functions[0], nullptr, options);
  REQUIRE(ranges.result().converged());
  CHECK(ranges.result().statistics().widenings > 0);
  std::mt19937_64 rng(5);
  const auto tuples = input_tuples(module.functions[0], 0, 50, rng);
  check_sound(module, ranges, observe(module, tuples, 100000), "counting loop");
}
