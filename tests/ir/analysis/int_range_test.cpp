// Tests of kildall/ir/analysis/int_range.hpp. Oracle: the interpreter. Over
// hundreds of random programs with loops and branches, every value observed in
// any execution (all inputs of small-width programs, many random inputs of
// wide ones) must lie in the inferred interval, both signed and unsigned, and
// every executed block must be executable; on argument-free acyclic programs
// the ranges must be exact singletons; `int-range-optimizations` must keep the
// results of every run and fold every comparison that is constant over all runs
// of an argument-free program.
#include <doctest/doctest.h>

#include <cstddef>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/printer.hpp>

#include "../mlir_opt.hpp"
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

// Whether some live op of `fn` is trivially dead: no effect and no result used.
bool has_trivially_dead_op(const Function& fn, const OpRegistry& registry) {
  std::vector<std::uint32_t> uses(fn.values.size(), 0);
  for (OpId op = 0; op < fn.ops.size(); ++op)
    if (!fn.ops[op].erased)
      for (const ValueId v : fn.operands_of(op)) ++uses[v];
  for (OpId op = 0; op < fn.ops.size(); ++op) {
    const OpData& o = fn.ops[op];
    if (o.erased || fn.in_erased_region(o.block) || !has_no_effect(fn, op, registry)) continue;
    bool used = false;
    for (std::uint32_t r = 0; r < o.result_count; ++r) used = used || uses[o.result_begin + r] > 0;
    if (!used) return true;
  }
  return false;
}

// Runs `int-range-optimizations` on `text` and checks that every run of `original` on `tuples`
// returns the same after it, and that no trivially dead op is left; returns how many dead ops
// the rewrite erased.
std::size_t check_int_range_rewrite(const Module& original, const std::vector<std::vector<std::uint64_t>>& tuples,
                          std::uint64_t max_steps, const std::string& text) {
  Module rewritten = parse_and_verify(text, *original.registry, "random.mlir");
  std::size_t dead_erased = 0;
  {
    const IntRangeAnalysis ranges(rewritten.functions[0], nullptr, options_with(2));
    REQUIRE(ranges.result().converged());
    dead_erased = apply_int_range_optimizations(rewritten.functions[0], ranges).cleanup.statistics.dead_erased;
  }
  verify(rewritten);
  CHECK_FALSE(has_trivially_dead_op(rewritten.functions[0], *original.registry));
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
  return dead_erased;
}

}  // namespace

TEST_CASE("integer ranges are sound on random small-width programs (brute force over all inputs)") {
  std::size_t dead_erased = 0;
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
    dead_erased += check_int_range_rewrite(module, tuples, 200, text);
  }
  CHECK(dead_erased > 0);  // the programs exercise the erasure
}

TEST_CASE("integer ranges are sound through scf regions on random structured programs (brute force)") {
  std::size_t dead_erased = 0;
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
    dead_erased += check_int_range_rewrite(module, tuples, 2000, text);
  }
  CHECK(dead_erased > 0);  // the programs exercise the erasure
}

TEST_CASE("integer ranges are sound on random wide programs (random inputs)") {
  std::size_t dead_erased = 0;
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
    dead_erased += check_int_range_rewrite(module, tuples, 200, text);
  }
  CHECK(dead_erased > 0);  // the programs exercise the erasure
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
  CHECK(apply_int_range_optimizations(fn, ranges).values_replaced == 1);
  verify(module);
  const std::string printed = print_module(module);
  // %lt is true, so `%lt & %open` folds to %open, as MLIR's driver folds it; %big goes with %lt.
  CHECK(printed.find("return %open : i1") != std::string::npos);
  CHECK(printed.find("%open = arith.cmpi sge, %2, %c0_i32 : i32") != std::string::npos);
  CHECK(printed.find("arith.andi") == std::string::npos);
  CHECK(printed.find("255") == std::string::npos);
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
  const IntRangeRewriteStats stats = apply_int_range_optimizations(fn, ranges);
  CHECK(stats.values_replaced == 3);  // %1 = 1, %3 = 2, %4 = 3, each in place
  CHECK(stats.ops_erased == 3);
  // Then dead: %0 and %2 (their users are constants now), %1 and %3 (their user %4 is), %c1, %c2;
  // the constant 3 is uniqued at the entry under MLIR's name for it.
  CHECK(stats.cleanup.statistics.dead_erased == 6);
  CHECK(stats.changed());
  verify(module);
  CHECK(print_module(module) == R"(module {
  func.func @add_min_max(%a: index, %b: index) -> index {
    %c3 = arith.constant 3 : index
    return %c3 : index
  }
}
)");
}

TEST_CASE("the greedy driver runs afterwards: dead ops go, iteratively, unreachable blocks too; ops with effects, opaque ops and used values stay") {
  const OpRegistry registry;
  Module module = parse_and_verify(R"(func.func private @g(i32) -> i32
func.func @f(%a: i32, %p: i1) -> i32 {
  %c15 = arith.constant 15 : i32
  %c1 = arith.constant 1 : i32
  %c100 = arith.constant 100 : i32
  %m = arith.andi %a, %c15 : i32
  %s = arith.addi %m, %c1 : i32
  %lt = arith.cmpi ult, %s, %c100 : i32
  %call = func.call @g(%m) : (i32) -> i32
  %u = "foo.bar"(%m) : (i32) -> i32
  %pure = scf.if %p -> (i32) {
    %x = arith.addi %s, %c1 : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %effect = scf.if %lt -> (i32) {
    %t = func.call @g(%a) : (i32) -> i32
    scf.yield %t : i32
  } else {
    scf.yield %a : i32
  }
  %dead = arith.muli %a, %a : i32
  cf.br ^bb1
^bb1:
  return %call : i32
^bb2:
  %y = arith.subi %a, %a : i32
  return %y : i32
})",
                                   registry, "t.mlir", {.allow_unregistered_ops = true});
  Function& fn = module.functions[1];
  const IntRangeAnalysis ranges(fn);
  const IntRangeRewriteStats stats = apply_int_range_optimizations(fn, ranges);
  CHECK(stats.values_replaced == 1);  // %lt: %s is in [1, 16]
  // The greedy driver then erases %pure (with %x), %s (its users %lt and %x gone), %dead and the
  // constants left unused, uniques `true` at the entry, merges ^bb1 into its one predecessor and
  // drops the unreachable ^bb2. Calls, the opaque op and the scf.if holding a call stay.
  CHECK(stats.cleanup.statistics.dead_erased > 0);
  CHECK(stats.cleanup.statistics.region_simplifications > 0);
  verify(module);
  CHECK(print_module(module) == R"(module {
  func.func private @g(i32) -> i32
  func.func @f(%a: i32, %p: i1) -> i32 {
    %true = arith.constant true
    %c15 = arith.constant 15 : i32
    %m = arith.andi %a, %c15 : i32
    %call = func.call @g(%m) : (i32) -> i32
    %u = "foo.bar"(%m) : (i32) -> i32
    %effect = scf.if %true -> (i32) {
      %t = func.call @g(%a) : (i32) -> i32
      scf.yield %t : i32
    } else {
      scf.yield %a : i32
    }
    return %call : i32
  }
}
)");
  // Nothing changes on a second run: no value left to replace, no op left dead.
  CHECK_FALSE(apply_int_range_optimizations(fn, IntRangeAnalysis(fn)).changed());
}

namespace {

// The ops of printed `text` by name, in order, `arith.constant` and the function ops aside
// (MLIR's short `call`/`return` spelled `func.call`/`func.return`; an unregistered op by its
// quoted name). A scan by hand: no std::regex in the tests.
std::vector<std::string> op_names(const std::string& text) {
  std::vector<std::string> names;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + at, end - at);
    at = end + 1;
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    if (line.starts_with("%")) {
      const std::size_t eq = line.find(" = ");
      if (eq == std::string_view::npos) continue;
      line.remove_prefix(eq + 3);
    }
    std::string name(line.substr(0, line.find(' ')));
    if (name.starts_with("\"")) name = name.substr(1, name.find('"', 1) - 1);
    if (name == "call") name = "func.call";
    if (name == "return") name = "func.return";
    if (name.find('.') == std::string::npos || name == "func.func" || name == "arith.constant") continue;
    names.push_back(name);
  }
  return names;
}

// The number of `arith.constant`s in printed `text`.
std::size_t constant_count(const std::string& text) {
  std::size_t n = 0;
  for (std::size_t at = text.find("= arith.constant "); at != std::string::npos; at = text.find("= arith.constant ", at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("the ops left match mlir-opt-16 --int-range-optimizations (skipped when it is not installed)") {
  const std::string mlir_opt = find_mlir_opt();
  if (mlir_opt.empty()) {
    MESSAGE("SKIPPED: mlir-opt-16 is not installed (Debian package mlir-16-tools)");
    return;
  }
  const OpRegistry registry;
  // Cases where MLIR 16's greedy driver only erases dead ops (it folds nothing the ranges left).
  const char* const cases[] = {
      R"(func.func @decided(%x: i8) -> i1 {
  %w = arith.extui %x : i8 to i32
  %c = arith.constant 300 : i32
  %lt = arith.cmpi ult, %w, %c : i32
  return %lt : i1
}
)",
      R"(func.func @masked(%a: i32) -> i1 {
  %c15 = arith.constant 15 : i32
  %c1 = arith.constant 1 : i32
  %c100 = arith.constant 100 : i32
  %m = arith.andi %a, %c15 : i32
  %s = arith.addi %m, %c1 : i32
  %lt = arith.cmpi ult, %s, %c100 : i32
  return %lt : i1
}
)",
      R"(func.func private @g(i32) -> i32
func.func @kept(%a: i32, %p: i1) -> i32 {
  %c5 = arith.constant 5 : i32
  %m = arith.remui %a, %c5 : i32
  %lt = arith.cmpi ult, %m, %c5 : i32
  %call = func.call @g(%m) : (i32) -> i32
  %u = "foo.bar"(%m) : (i32) -> i32
  %r = scf.if %p -> (i32) {
    %s = arith.addi %m, %c5 : i32
    scf.yield %s : i32
  } else {
    scf.yield %a : i32
  }
  %e = scf.if %lt -> (i32) {
    %t = func.call @g(%a) : (i32) -> i32
    scf.yield %t : i32
  } else {
    scf.yield %a : i32
  }
  return %call : i32
}
)",
      R"(func.func @loop(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^head(%c0 : i32)
^head(%i: i32):
  %more = arith.cmpi slt, %i, %n : i32
  %sq = arith.muli %i, %i : i32
  %next = arith.addi %i, %c1 : i32
  cf.cond_br %more, ^head(%next : i32), ^done
^done:
  %nonneg = arith.cmpi sge, %i, %c0 : i32
  %z = arith.extui %nonneg : i1 to i32
  return %z : i32
}
)",
      R"(func.func @none_dead(%a: i16, %b: i16) -> i16 {
  %s = arith.addi %a, %b : i16
  %unused = arith.xori %s, %a : i16
  %m = arith.muli %s, %s : i16
  return %m : i16
}
)"};
  for (const char* text : cases) {
    CAPTURE(text);
    Module module = parse_and_verify(text, registry, "case.mlir", {.allow_unregistered_ops = true});
    for (Function& fn : module.functions) {
      if (fn.is_declaration()) continue;
      (void)apply_int_range_optimizations(fn, IntRangeAnalysis(fn));
    }
    verify(module);
    const std::string ours = print_module(module);
    const std::optional<std::string> theirs =
        through_mlir_opt(mlir_opt, "--allow-unregistered-dialect --int-range-optimizations", text);
    REQUIRE(theirs.has_value());
    CAPTURE(ours);
    CAPTURE(*theirs);
    CHECK(op_names(ours) == op_names(*theirs));
    CHECK(constant_count(ours) == constant_count(*theirs));
  }
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
