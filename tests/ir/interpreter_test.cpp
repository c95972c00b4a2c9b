// Tests of kildall/ir/interpreter.hpp: results checked against direct C++
// computations, parallel block-argument copies, calls (direct, indirect, into nested modules) and deep recursion on
// the explicit frame stack, the step budget, undefined behaviour reported with
// its location, and the observer.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include <kildall/ir/interpreter.hpp>
#include <kildall/ir/verifier.hpp>

using namespace kildall::ir;

namespace {

Module parse(const char* source, const OpRegistry& registry) { return parse_and_verify(source, registry, "i.mlir"); }

}  // namespace

TEST_CASE("a loop computes what the same C++ loop computes") {
  const OpRegistry registry;
  // Sum of i*i for i in [0, n), wrapping at 16 bits.
  const Module m = parse(R"(func.func @sumsq(%n: i16) -> i16 {
  %c0 = arith.constant 0 : i16
  %c1 = arith.constant 1 : i16
  cf.br ^head(%c0, %c0 : i16, i16)
^head(%i: i16, %acc: i16):
  %more = arith.cmpi ult, %i, %n : i16
  cf.cond_br %more, ^body, ^exit
^body:
  %sq = arith.muli %i, %i : i16
  %acc2 = arith.addi %acc, %sq : i16
  %i2 = arith.addi %i, %c1 : i16
  cf.br ^head(%i2, %acc2 : i16, i16)
^exit:
  return %acc : i16
}
)",
                         registry);
  const Interpreter interpreter(m);
  for (std::uint64_t n : {0u, 1u, 5u, 100u, 1000u}) {
    std::uint16_t acc = 0;
    for (std::uint16_t i = 0; i < n; ++i) acc = static_cast<std::uint16_t>(acc + i * i);
    const ExecResult r = interpreter.run("sumsq", std::vector<std::uint64_t>{n});
    REQUIRE(r.status == ExecStatus::returned);
    CHECK(r.results[0] == acc);
  }
}

TEST_CASE("block arguments are assigned in parallel (a swap through a loop)") {
  const OpRegistry registry;
  const Module m = parse(R"(func.func @swap(%a: i8, %b: i8, %k: i8) -> (i8, i8) {
  %c0 = arith.constant 0 : i8
  %c1 = arith.constant 1 : i8
  cf.br ^loop(%a, %b, %k : i8, i8, i8)
^loop(%x: i8, %y: i8, %n: i8):
  %done = arith.cmpi eq, %n, %c0 : i8
  %n2 = arith.subi %n, %c1 : i8
  cf.cond_br %done, ^exit, ^loop(%y, %x, %n2 : i8, i8, i8)
^exit:
  return %x, %y : i8, i8
}
)",
                         registry);
  CHECK(interpret(m, "swap", std::vector<std::uint64_t>{3, 9, 0}).results == std::vector<std::uint64_t>{3, 9});
  CHECK(interpret(m, "swap", std::vector<std::uint64_t>{3, 9, 1}).results == std::vector<std::uint64_t>{9, 3});
  CHECK(interpret(m, "swap", std::vector<std::uint64_t>{3, 9, 7}).results == std::vector<std::uint64_t>{9, 3});
}

TEST_CASE("calls, multiple results and deep recursion on the explicit frame stack") {
  const OpRegistry registry;
  const Module m = parse(R"(func.func @depth(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %base = arith.cmpi eq, %n, %c0 : i32
  cf.cond_br %base, ^done, ^recurse
^done:
  return %c0 : i32
^recurse:
  %m = arith.subi %n, %c1 : i32
  %r = func.call @depth(%m) : (i32) -> i32
  %r1 = arith.addi %r, %c1 : i32
  return %r1 : i32
}
func.func @divmod(%a: i32, %b: i32) -> (i32, i32) {
  %q = arith.divui %a, %b : i32
  %r = arith.remui %a, %b : i32
  return %q, %r : i32, i32
}
func.func @use(%a: i32) -> i32 {
  %c7 = arith.constant 7 : i32
  %q, %r = func.call @divmod(%a, %c7) : (i32, i32) -> (i32, i32)
  %s = arith.addi %q, %r : i32
  return %s : i32
}
)",
                         registry);
  const Interpreter interpreter(m);
  InterpreterOptions options;
  options.max_steps = 10'000'000;
  const ExecResult deep = interpreter.run("depth", std::vector<std::uint64_t>{200'000}, options);
  REQUIRE(deep.status == ExecStatus::returned);
  CHECK(deep.results[0] == 200'000);
  CHECK(interpreter.run("use", std::vector<std::uint64_t>{100}).results[0] == 100 / 7 + 100 % 7);
}

TEST_CASE("undefined behaviour, step limits and bad requests are reported, not executed") {
  const OpRegistry registry;
  const Module m = parse(R"(func.func @div(%a: i8, %b: i8) -> i8 {
  %q = arith.divsi %a, %b : i8
  return %q : i8
}
func.func @shift(%a: i8, %b: i8) -> i8 {
  %s = arith.shli %a, %b : i8
  return %s : i8
}
func.func @forever() {
  cf.br ^spin
^spin:
  cf.br ^spin
}
func.func private @external(i8) -> i8
func.func @calls_external(%a: i8) -> i8 {
  %r = func.call @external(%a) : (i8) -> i8
  return %r : i8
}
)",
                         registry);
  const Interpreter interpreter(m);
  ExecResult r = interpreter.run("div", std::vector<std::uint64_t>{5, 0});
  CHECK(r.status == ExecStatus::undefined_behavior);
  CHECK(r.message == "division by zero");
  CHECK(r.loc == SourceLoc{2, 8});
  r = interpreter.run("div", std::vector<std::uint64_t>{0x80, 0xFF});  // -128 / -1
  CHECK(r.status == ExecStatus::undefined_behavior);
  CHECK(r.message == "signed division overflow");
  CHECK(interpreter.run("div", std::vector<std::uint64_t>{0xF9, 2}).results[0] == 0xFD);  // -7 / 2 = -3
  CHECK(interpreter.run("shift", std::vector<std::uint64_t>{1, 8}).status == ExecStatus::undefined_behavior);
  CHECK(interpreter.run("shift", std::vector<std::uint64_t>{1, 7}).results[0] == 0x80);
  InterpreterOptions options;
  options.max_steps = 1000;
  r = interpreter.run("forever", {}, options);
  CHECK(r.status == ExecStatus::step_limit);
  CHECK(r.steps == 1001);
  CHECK(interpreter.run("calls_external", std::vector<std::uint64_t>{1}).status == ExecStatus::error);
  CHECK(interpreter.run("nope", {}).status == ExecStatus::error);
  CHECK(interpreter.run("div", std::vector<std::uint64_t>{1}).status == ExecStatus::error);
  // Arguments are truncated to their width.
  CHECK(interpreter.run("div", std::vector<std::uint64_t>{0x1FE, 0x102}).results[0] == 0xFF);  // -2 / 2
}

TEST_CASE("the observer sees every value definition and block entry") {
  const OpRegistry registry;
  const Module m = parse(R"(func.func @f(%a: i4) -> i4 {
  %c = arith.constant 3 : i4
  %s = arith.addi %a, %c : i4
  %big = arith.cmpi ugt, %s, %c : i4
  cf.cond_br %big, ^yes(%s : i4), ^no
^yes(%x: i4):
  return %x : i4
^no:
  return %c : i4
}
)",
                         registry);
  std::vector<std::vector<std::uint64_t>> seen(m.functions[0].values.size());
  std::vector<int> entered(3, 0);
  InterpreterOptions options;
  options.on_value = [&](std::uint32_t, ValueId v, std::uint64_t bits) { seen[v].push_back(bits); };
  options.on_block = [&](std::uint32_t, BlockId b) { ++entered[b]; };
  const ExecResult r = interpret(m, "f", std::vector<std::uint64_t>{14}, options);  // 14 + 3 = 1 (mod 16)
  CHECK(r.results[0] == 3);
  CHECK(seen[0] == std::vector<std::uint64_t>{14});
  CHECK(seen[2] == std::vector<std::uint64_t>{1});
  CHECK(seen[3] == std::vector<std::uint64_t>{0});
  CHECK(seen[4].empty());  // %x never defined
  CHECK(entered == std::vector<int>{1, 0, 1});
}

TEST_CASE("scf regions run by their flow: loops by their bounds, if by its condition, while until its condition fails") {
  // Oracle: closed forms (the sum 0 + 1 + ... + (n-1) in steps of 2, a count by 2 past a
  // bound, a choice), for every n in 0..9 and both conditions.
  const OpRegistry registry;
  const Module module = parse_and_verify(R"(func.func @f(%n: index, %c: i1) -> (i32, i32, i32) {
  %lb = arith.constant 0 : index
  %st = arith.constant 2 : index
  %zero = arith.constant 0 : i32
  %two = arith.constant 2 : i32
  %bound = arith.constant 5 : i32
  %sum = scf.for %i = %lb to %n step %st iter_args(%s = %zero) -> (i32) {
    %iv = arith.index_cast %i : index to i32
    %next = arith.addi %s, %iv : i32
    scf.yield %next : i32
  }
  %count = scf.while (%x = %zero) : (i32) -> i32 {
    %more = arith.cmpi slt, %x, %bound : i32
    scf.condition(%more) %x : i32
  } do {
  ^bb0(%y: i32):
    %z = arith.addi %y, %two : i32
    scf.yield %z : i32
  }
  %pick = scf.if %c -> (i32) {
    %seven = arith.constant 7 : i32
    scf.yield %seven : i32
  } else {
    %nine = arith.constant 9 : i32
    scf.yield %nine : i32
  }
  return %sum, %count, %pick : i32, i32, i32
}
)",
                                         registry, "scf.mlir");
  for (std::uint64_t n = 0; n < 10; ++n) {
    for (const std::uint64_t c : {0u, 1u}) {
      const std::uint64_t args[] = {n, c};
      const ExecResult r = interpret(module, "f", args);
      REQUIRE(r.status == ExecStatus::returned);
      std::uint64_t sum = 0;
      for (std::uint64_t i = 0; i < n; i += 2) sum += i;
      CHECK(r.results[0] == sum);
      CHECK(r.results[1] == 6);
      CHECK(r.results[2] == (c ? 7u : 9u));
    }
  }
}

TEST_CASE("indirect calls run the function their operand holds; functions of nested modules run by their path") {
  const OpRegistry registry;
  const Module m = parse_and_verify(R"(func.func private @inc(%x: i32) -> i32 {
  %one = arith.constant 1 : i32
  %r = arith.addi %x, %one : i32
  return %r : i32
}
func.func private @dbl(%x: i32) -> i32 {
  %r = arith.addi %x, %x : i32
  return %r : i32
}
func.func private @ext(i32) -> i32
func.func @pick(%c: i1, %x: i32) -> i32 {
  %i = func.constant @inc : (i32) -> i32
  %d = func.constant @dbl : (i32) -> i32
  cf.cond_br %c, ^call(%i : (i32) -> i32), ^call(%d : (i32) -> i32)
^call(%f: (i32) -> i32):
  %r = func.call_indirect %f(%x) : (i32) -> i32
  return %r : i32
}
func.func @external(%x: i32) -> i32 {
  %e = func.constant @ext : (i32) -> i32
  %r = func.call_indirect %e(%x) : (i32) -> i32
  return %r : i32
}
module @m {
  func.func @inc(%x: i32) -> i32 {
    %ten = arith.constant 10 : i32
    %r = arith.addi %x, %ten : i32
    return %r : i32
  }
}
)",
                                    registry, "i.mlir");
  const Interpreter interpreter(m);
  for (const std::uint64_t x : {0u, 7u, 0xFFFFFFFFu}) {
    CHECK(interpreter.run("pick", std::vector<std::uint64_t>{1, x}).results[0] == ((x + 1) & 0xFFFFFFFFu));
    CHECK(interpreter.run("pick", std::vector<std::uint64_t>{0, x}).results[0] == ((2 * x) & 0xFFFFFFFFu));
    CHECK(interpreter.run("m::@inc", std::vector<std::uint64_t>{x}).results[0] == ((x + 10) & 0xFFFFFFFFu));
  }
  const ExecResult external = interpreter.run("external", std::vector<std::uint64_t>{1});
  CHECK(external.status == ExecStatus::error);
  CHECK(external.message == "call to a function without body");
  CHECK(interpreter.run("m::@nope", std::vector<std::uint64_t>{1}).status == ExecStatus::error);
  CHECK(interpreter.run("inc::@m", std::vector<std::uint64_t>{1}).status == ExecStatus::error);
}
