// Tests of kildall/ir/analysis/sccp.hpp. Oracle: the interpreter. Over
// hundreds of random programs with loops and branches, every value observed in
// any execution (all inputs of small-width programs, many random inputs of
// wide ones) must be allowed by the SCCP state, every executed block must be
// executable; on argument-free acyclic programs SCCP must be exact; and the
// rewritten program must compute the same results as the original.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string_view>
#include <utility>
#include <vector>
#include <string>

#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/printer.hpp>

#include "../random_programs.hpp"
#include "../value_named.hpp"

using namespace kildall::ir;
using namespace kildall::ir::testing;

namespace {

void check_sound(const Module& module, const SccpAnalysis& sccp, const Observations& obs, const std::string& text) {
  const Function& fn = module.functions[0];
  for (BlockId b = 0; b < fn.blocks.size(); ++b)
    if (obs.blocks[b] && !sccp.executable(b)) FAIL_CHECK("block " << b << " executed but not executable\n" << text);
  for (ValueId v = 0; v < fn.values.size(); ++v) {
    if (obs.values[v].empty()) continue;
    const ConstantState* state = sccp.lookup(v);
    if (!state) {
      FAIL_CHECK("value %" << fn.value_name(v) << " observed but uninitialized\n" << text);
      continue;
    }
    if (state->is_constant() && (obs.values[v].size() != 1 || *obs.values[v].begin() != state->constant()))
      FAIL_CHECK("value %" << fn.value_name(v) << " claimed constant " << state->constant() << "\n" << text);
  }
}

void check_sccp_rewrite(const Module& original, const std::vector<std::vector<std::uint64_t>>& tuples,
                   std::uint64_t max_steps, const std::string& text) {
  Module rewritten = parse_and_verify(text, *original.registry, "random.mlir");
  {
    const SccpAnalysis sccp(rewritten.functions[0], *rewritten.registry);
    REQUIRE(sccp.result().converged());
    (void)apply_sccp(rewritten.functions[0], sccp);
  }
  verify(rewritten);
  // Printing and re-parsing the result must work too.
  const std::string printed = print_module(rewritten);
  const Module reparsed = parse_and_verify(printed, *original.registry, "rewritten.mlir");
  const Interpreter before(original), after(reparsed);
  InterpreterOptions small, large;
  small.max_steps = max_steps;
  large.max_steps = 4 * max_steps + 64;
  for (const auto& args : tuples) {
    const ExecResult a = before.run(0u, args, small);
    if (a.status != ExecStatus::returned) continue;  // undefined or too long: any behaviour is allowed
    const ExecResult b = after.run(0u, args, large);
    if (b.status != ExecStatus::returned || b.results != a.results)
      FAIL_CHECK("rewrite changed the result\n" << text << "\n--- rewritten ---\n" << printed);
  }
}

}  // namespace

TEST_CASE("SCCP is sound on random small-width programs (brute force over all inputs)") {
  const OpRegistry registry;
  std::mt19937_64 rng(20261122);
  for (std::uint64_t seed = 0; seed < 250; ++seed) {
    ProgramShape shape;
    shape.widths = {1 + static_cast<unsigned>(seed % 4)};
    if (seed % 3 == 0) shape.widths.push_back(2 + static_cast<unsigned>(seed % 5));
    shape.arguments = static_cast<unsigned>(seed % 3);
    shape.blocks = 2 + static_cast<unsigned>(seed % 5);
    const std::string text = random_program(seed, shape);
    CAPTURE(text);
    const Module module = parse_and_verify(text, registry, "random.mlir");
    const SccpAnalysis sccp(module.functions[0], registry);
    REQUIRE(sccp.result().converged());
    const auto tuples = input_tuples(module.functions[0], 10, 0, rng);
    const Observations obs = observe(module, tuples, 200);
    check_sound(module, sccp, obs, text);
    check_sccp_rewrite(module, tuples, 200, text);
  }
}

TEST_CASE("SCCP is sound through scf regions on random structured programs (brute force over all inputs)") {
  const OpRegistry registry;
  std::mt19937_64 rng(20261124);
  std::size_t regions = 0;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const std::string text = random_program(seed, small_structured_shape(seed));
    CAPTURE(text);
    const Module module = parse_and_verify(text, registry, "random.mlir");
    regions += module.functions[0].regions.size();
    const SccpAnalysis sccp(module.functions[0], registry);
    REQUIRE(sccp.result().converged());
    const auto tuples = input_tuples(module.functions[0], 10, 0, rng);
    const Observations obs = observe(module, tuples, 2000);
    check_sound(module, sccp, obs, text);
    check_sccp_rewrite(module, tuples, 2000, text);
  }
  CHECK(regions > 200);  // the programs do hold regions
}

TEST_CASE("SCCP is sound on random wide programs (random inputs)") {
  const OpRegistry registry;
  std::mt19937_64 rng(7);
  for (std::uint64_t seed = 1000; seed < 1100; ++seed) {
    ProgramShape shape;
    static const unsigned wide[] = {8, 16, 32, 64};
    shape.widths = {wide[seed % 4], wide[(seed / 4) % 4]};
    shape.arguments = 1 + static_cast<unsigned>(seed % 2);
    shape.blocks = 3 + static_cast<unsigned>(seed % 4);
    const std::string text = random_program(seed, shape);
    CAPTURE(text);
    const Module module = parse_and_verify(text, registry, "random.mlir");
    const SccpAnalysis sccp(module.functions[0], registry);
    REQUIRE(sccp.result().converged());
    const auto tuples = input_tuples(module.functions[0], 0, 60, rng);
    const Observations obs = observe(module, tuples, 200);
    check_sound(module, sccp, obs, text);
    check_sccp_rewrite(module, tuples, 200, text);
  }
}

TEST_CASE("SCCP is exact on argument-free acyclic programs") {
  const OpRegistry registry;
  std::mt19937_64 rng(3);
  std::size_t exact_runs = 0;
  for (std::uint64_t seed = 5000; seed < 5150; ++seed) {
    ProgramShape shape;
    shape.widths = {1 + static_cast<unsigned>(seed % 8), 1 + static_cast<unsigned>(seed % 13)};
    shape.arguments = 0;
    shape.blocks = 2 + static_cast<unsigned>(seed % 6);
    shape.backward_branches = false;
    const std::string text = random_program(seed, shape);
    CAPTURE(text);
    const Module module = parse_and_verify(text, registry, "random.mlir");
    const Function& fn = module.functions[0];
    const SccpAnalysis sccp(fn, registry);
    const Observations obs = observe(module, {std::vector<std::uint64_t>{}}, 1000);
    if (obs.returned != 1) continue;  // undefined behaviour cut the run short
    ++exact_runs;
    for (BlockId b = 0; b < fn.blocks.size(); ++b) CHECK(sccp.executable(b) == obs.blocks[b]);
    for (ValueId v = 0; v < fn.values.size(); ++v) {
      if (obs.values[v].empty()) {
        CHECK(sccp.lookup(v) == nullptr);
      } else {
        REQUIRE(obs.values[v].size() == 1);
        CHECK(sccp.constant(v) == *obs.values[v].begin());
      }
    }
    // After the rewrite, every live op is a constant or a terminator.
    Module rewritten = parse_and_verify(text, registry, "random.mlir");
    (void)apply_sccp(rewritten.functions[0], SccpAnalysis(rewritten.functions[0], registry));
    verify(rewritten);
    const Function& r = rewritten.functions[0];
    for (BlockId b = 0; b < r.blocks.size(); ++b) {
      if (!obs.blocks[b]) continue;
      for (const OpId op : r.ops_of(b)) {
        const OpCode code = r.ops[op].code;
        CHECK((is(code, BuiltinOp::constant) || is(code, BuiltinOp::br) || is(code, BuiltinOp::return_)));
      }
    }
  }
  CHECK(exact_runs > 50);
}

/// A loop counting up behind a `cond_br` on a constant: two of the tests below read it.
constexpr std::string_view counting_loop_behind_a_decided_branch = R"(func.func @f(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %is = arith.cmpi eq, %c0, %c1 : i32
  cf.cond_br %is, ^dead, ^loop(%c0 : i32)
^dead:
  return %n : i32
^loop(%i: i32):
  %next = arith.addi %i, %c1 : i32
  %more = arith.cmpi slt, %next, %n : i32
  cf.cond_br %more, ^loop(%next : i32), ^exit
^exit:
  return %next : i32
}
)";

TEST_CASE("SCCP folds a constant branch and leaves the loop counter alone") {
  const OpRegistry registry;
  Module module = parse_and_verify(counting_loop_behind_a_decided_branch, registry);
  Function& fn = module.functions[0];
  const SccpAnalysis sccp(fn, registry);
  CHECK(sccp.executable(0));
  CHECK_FALSE(sccp.executable(1));
  CHECK(sccp.executable(2));
  CHECK(sccp.describe(3) == "0");  // %is (false) prints as a signed number
  CHECK(sccp.describe(4) == "overdefined");  // %i
  const SccpRewriteStats stats = apply_sccp(fn, sccp);
  CHECK(stats.branches_folded == 1);
  CHECK(stats.values_replaced == 1);
  verify(module);
  CHECK(print_module(module).find("cf.br ^loop(%c0 : i32)") != std::string::npos);
}

TEST_CASE("SCCP sweeps a function in program order, and queues one whose blocks are out of dominance order") {
  const OpRegistry registry;
  // In program order: the solver sweeps, and passes the loop again after its back edge.
  const Module in_order = parse_and_verify(counting_loop_behind_a_decided_branch, registry);
  const SccpAnalysis swept(in_order.functions[0], registry);
  CHECK(swept.result().statistics().swept);
  CHECK(swept.result().statistics().rescans > 0);
  CHECK(swept.describe(value_named(in_order.functions[0], "i")) == "overdefined");
  // `%y` is used in a block written before the one defining `%x` (which dominates it): the
  // numbering is not forward, so the solver takes the worklist, with the same answer.
  const Module out_of_order = parse_and_verify(R"(func.func @g(%a: i32) -> i32 {
  cf.br ^def
^use:
  %y = arith.addi %x, %x : i32
  return %y : i32
^def:
  %x = arith.constant 1 : i32
  cf.br ^use
}
)",
                                               registry);
  const SccpAnalysis queued(out_of_order.functions[0], registry);
  CHECK_FALSE(queued.result().statistics().swept);
  CHECK(queued.describe(value_named(out_of_order.functions[0], "y")) == "2");
  CHECK(queued.executable(1));
}

TEST_CASE("SCCP over loops far apart in program order gives up the sweep within its budget") {
  // Every loop's header comes first and every body after all headers: each back edge changes an
  // argument whose users' body lies after all the other headers and bodies before it, so a sweep
  // would pass back over O(loops) values per loop. It hands over to the worklist instead.
  constexpr int loops = 1500;
  std::string text = "func.func @far(%n: i32) -> i32 {\n  %c0 = arith.constant 0 : i32\n"
                     "  %c1 = arith.constant 1 : i32\n  cf.br ^h0(%c0 : i32)\n";
  for (int k = 0; k < loops; ++k) {
    const std::string i = std::to_string(k);
    const std::string next = k + 1 < loops ? "^h" + std::to_string(k + 1) + "(%c0 : i32)" : "^exit";
    text += "^h" + i + "(%i" + i + ": i32):\n  %m" + i + " = arith.cmpi slt, %i" + i + ", %n : i32\n  cf.cond_br %m" +
            i + ", ^b" + i + ", " + next + "\n";
  }
  for (int k = 0; k < loops; ++k) {
    const std::string i = std::to_string(k);
    text += "^b" + i + ":\n  %x" + i + " = arith.addi %i" + i + ", %c1 : i32\n  cf.br ^h" + i + "(%x" + i + " : i32)\n";
  }
  text += "^exit:\n  return %c0 : i32\n}\n";
  const OpRegistry registry;
  const Module module = parse_and_verify(text, registry);
  const Function& fn = module.functions[0];
  const SccpAnalysis sccp(fn, registry);
  const kildall::SolveStatistics& stats = sccp.result().statistics();
  CHECK(stats.swept);
  CHECK(stats.sweep_abandoned);
  CHECK(stats.rescans <= 8 * fn.values.size() + 4096 + 1);  // the budget, then the worklist
  CHECK(sccp.result().converged());
  for (int k = 0; k < loops; k += 97) {
    CHECK(sccp.describe(value_named(fn, "i" + std::to_string(k))) == "overdefined");
    CHECK(sccp.describe(value_named(fn, "x" + std::to_string(k))) == "overdefined");
  }
  CHECK(sccp.describe(value_named(fn, "c1")) == "1");
}

TEST_CASE("SCCP is sound on random programs full of algebraic identities") {
  const OpRegistry registry;
  std::mt19937_64 rng(11);
  for (std::uint64_t seed = 9000; seed < 9200; ++seed) {
    ProgramShape shape;
    shape.widths = {2 + static_cast<unsigned>(seed % 4)};
    if (seed % 2 == 0) shape.widths.push_back(1 + static_cast<unsigned>(seed % 6));
    shape.arguments = 1 + static_cast<unsigned>(seed % 2);
    shape.blocks = 2 + static_cast<unsigned>(seed % 5);
    shape.identities = true;
    const std::string text = random_program(seed, shape);
    CAPTURE(text);
    const Module module = parse_and_verify(text, registry, "random.mlir");
    const SccpAnalysis sccp(module.functions[0], registry);
    REQUIRE(sccp.result().converged());
    const auto tuples = input_tuples(module.functions[0], 10, 40, rng);
    const Observations obs = observe(module, tuples, 200);
    check_sound(module, sccp, obs, text);
    check_sccp_rewrite(module, tuples, 200, text);
  }
}

TEST_CASE("SCCP folds the identities MLIR's arith folders apply, with unknown operands") {
  // Oracle: the interpreter over every pair of i4 arguments. Each `%z*` value takes one value in
  // every run; SCCP must find exactly that constant although %x and %y are unknown.
  const OpRegistry registry;
  const std::string text = R"(func.func @f(%x: i4, %y: i4, %b: i1) -> i4 {
  %c0 = arith.constant 0 : i4
  %c1 = arith.constant 1 : i4
  %cm1 = arith.constant -1 : i4
  %cmax = arith.constant 7 : i4
  %cmin = arith.constant -8 : i4
  %c5 = arith.constant 5 : i4
  %z0 = arith.subi %x, %x : i4
  %z1 = arith.xori %x, %x : i4
  %z2 = arith.muli %x, %c0 : i4
  %z3 = arith.muli %c0, %x : i4
  %z4 = arith.andi %x, %z0 : i4
  %z5 = arith.ori %cm1, %x : i4
  %z6 = arith.remui %x, %c1 : i4
  %z7 = arith.remsi %x, %c1 : i4
  %z8 = arith.maxsi %x, %cmax : i4
  %z9 = arith.minsi %cmin, %x : i4
  %z10 = arith.maxui %x, %cm1 : i4
  %z11 = arith.minui %x, %c0 : i4
  %z12 = arith.cmpi sle, %x, %x : i4
  %z13 = arith.cmpi ult, %x, %x : i4
  %s0 = arith.addi %c5, %y : i4
  %z14 = arith.subi %s0, %y : i4
  %s1 = arith.addi %y, %c5 : i4
  %z15 = arith.subi %s1, %y : i4
  %d0 = arith.subi %c5, %y : i4
  %z16 = arith.addi %d0, %y : i4
  %z17 = arith.addi %y, %d0 : i4
  %x0 = arith.xori %c5, %y : i4
  %z18 = arith.xori %x0, %y : i4
  %x1 = arith.xori %y, %c5 : i4
  %z19 = arith.xori %y, %x1 : i4
  %n = arith.xori %x, %cm1 : i4
  %z20 = arith.andi %x, %n : i4
  %z21 = arith.ori %n, %x : i4
  %q = arith.cmpi eq, %x, %c5 : i4
  %z22 = arith.select %q, %x, %c5 : i4
  %r = arith.cmpi ne, %c5, %x : i4
  %z23 = arith.select %r, %c5, %x : i4
  %s2 = arith.addi %z14, %x : i4
  %z24 = arith.subi %s2, %x : i4
  %z25 = arith.select %b, %z24, %c5 : i4
  return %z25 : i4
}
)";
  const Module module = parse_and_verify(text, registry, "identities.mlir");
  const Function& fn = module.functions[0];
  const SccpAnalysis sccp(fn, registry);
  REQUIRE(sccp.result().converged());
  std::mt19937_64 rng(1);
  const Observations obs = observe(module, input_tuples(fn, 9, 0, rng), 100);
  REQUIRE(obs.returned == 512);
  std::size_t checked = 0;
  for (ValueId v = 0; v < fn.values.size(); ++v) {
    const std::string_view name = fn.value_name(v);
    if (name.empty() || name[0] != 'z') continue;
    CAPTURE(name);
    REQUIRE(obs.values[v].size() == 1);
    CHECK(sccp.constant(v) == *obs.values[v].begin());
    ++checked;
  }
  CHECK(checked == 26);
  // The unknown inputs stay unknown.
  CHECK(sccp.describe(fn.argument(0, 0)) == "overdefined");
}

TEST_CASE("SCCP's forwarded value follows a loop-carried value that stops being constant") {
  // %i starts at 3 and changes in the loop; (i + y) - y must not keep the first round's 3.
  const OpRegistry registry;
  Module module = parse_and_verify(R"(func.func @f(%y: i32, %n: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^loop(%c3 : i32)
^loop(%i: i32):
  %s = arith.addi %i, %y : i32
  %back = arith.subi %s, %y : i32
  %next = arith.addi %back, %c1 : i32
  %more = arith.cmpi slt, %next, %n : i32
  cf.cond_br %more, ^loop(%next : i32), ^exit
^exit:
  return %back : i32
}
)",
                                   registry);
  const Function& fn = module.functions[0];
  const SccpAnalysis sccp(fn, registry);
  REQUIRE(sccp.result().converged());
  for (ValueId v = 0; v < fn.values.size(); ++v)
    if (fn.value_name(v) == "back" || fn.value_name(v) == "i") CHECK(sccp.describe(v) == "overdefined");
  // Without the loop the same shape folds: (3 + y) - y = 3.
  const Module straight = parse_and_verify(R"(func.func @g(%y: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %s = arith.addi %c3, %y : i32
  %back = arith.subi %s, %y : i32
  return %back : i32
}
)",
                                           registry);
  const SccpAnalysis folded(straight.functions[0], registry);
  CHECK(folded.describe(straight.functions[0].result(2)) == "3");
}

TEST_CASE("SCCP's extra operands are the look-through identities, one per value that has one (against the ops' definitions)") {
  // Oracle: for every op result, the identity checked directly on the op and the op defining
  // one of its operands, worked out by hand for each of the identities and operand orders.
  const OpRegistry registry;
  const Module m = parse_and_verify(R"(func.func @f(%a: i32, %b: i32) -> i32 {
  %s = arith.addi %a, %b : i32
  %d = arith.subi %s, %b : i32
  %e = arith.subi %s, %a : i32
  %t = arith.subi %a, %b : i32
  %u = arith.addi %t, %b : i32
  %v = arith.addi %b, %t : i32
  %x = arith.xori %a, %b : i32
  %y = arith.xori %x, %b : i32
  %z = arith.xori %a, %x : i32
  %n = arith.muli %d, %e : i32
  return %n : i32
}
)",
                                    registry);
  const Function& fn = m.functions[0];
  const FunctionShape shape(fn, registry);
  const SccpProblem problem(shape, registry);
  const auto value_named = [&](std::string_view name) {
    for (ValueId v = 0; v < fn.values.size(); ++v)
      if (fn.value_name(v) == name) return v;
    FAIL("no value named " << name);
    return no_index;
  };
  const std::vector<std::pair<std::string_view, std::string_view>> expected = {
      {"d", "a"}, {"e", "b"}, {"u", "a"}, {"v", "a"}, {"y", "a"}, {"z", "b"}};
  std::size_t with_extra = 0;
  for (ValueId v = 0; v < fn.values.size(); ++v) {
    const auto extra = problem.extra_operands(v);
    const std::vector<ValueId> found(extra.begin(), extra.end());
    const auto it = std::find_if(expected.begin(), expected.end(),
                                 [&](const auto& e) { return value_named(e.first) == v; });
    if (it == expected.end()) {
      CHECK_MESSAGE(found.empty(), "value " << fn.value_name(v));
      continue;
    }
    ++with_extra;
    REQUIRE(found.size() == 1);
    CHECK(found[0] == value_named(it->second));
  }
  CHECK(with_extra == expected.size());
  // A function without such identities has none.
  const Module plain = parse_and_verify("func.func @g(%a: i32) -> i32 {\n  %b = arith.addi %a, %a : i32\n  return %b : i32\n}\n", registry);
  const FunctionShape plain_shape(plain.functions[0], registry);
  const SccpProblem plain_problem(plain_shape, registry);
  for (ValueId v = 0; v < plain.functions[0].values.size(); ++v) CHECK(plain_problem.extra_operands(v).empty());
}

TEST_CASE("an unregistered op is opaque to SCCP: its results are unknown, its successors all reachable") {
  // Oracle: MLIR's rule for ops without semantics (results overdefined; an unknown terminator
  // may take any successor), checked value by value; constants around it still fold.
  const OpRegistry registry;
  const char* const source = R"(func.func @f(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %x = "foo.op"(%c1) : (i32) -> i32
  %y = arith.addi %x, %c1 : i32
  %z = arith.addi %c1, %c2 : i32
  "foo.br"(%c1) [^bb1, ^bb2] : (i32) -> ()
^bb1:
  return %y : i32
^bb2:
  return %z : i32
}
)";
  Module module = parse_and_verify(source, registry, "u.mlir", {.allow_unregistered_ops = true});
  Function& fn = module.functions[0];
  const SccpAnalysis sccp(fn, registry);
  CHECK(sccp.executable(1));
  CHECK(sccp.executable(2));
  CHECK(sccp.describe(value_named(fn, "x")) == "overdefined");
  CHECK(sccp.describe(value_named(fn, "y")) == "overdefined");
  CHECK(sccp.describe(value_named(fn, "z")) == "3");
  (void)apply_sccp(fn, sccp);
  verify(module);
  const std::string printed = print_module(module);
  CAPTURE(printed);
  CHECK(printed.find("\"foo.op\"(%c1) : (i32) -> i32") != std::string::npos);
  CHECK(printed.find("\"foo.br\"(%c1) [^bb1, ^bb2] : (i32) -> ()") != std::string::npos);
}
