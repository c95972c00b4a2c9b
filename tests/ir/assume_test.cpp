// Tests of kildall/ir/assume.hpp. Oracles: the interpreter (a violated assumption is undefined
// behaviour, a kept one returns the operand), the printer (prints back what was parsed), the
// integer-range analysis on hand-computed bounds, and the parser's diagnostics on bad input.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/assume.hpp>
#include <kildall/ir/interpreter.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/verifier.hpp>

using namespace kildall::ir;

namespace {

const char* const assume_program = R"(func.func @f(%a: i32, %b: i32) -> i32 {
  %lo = arith.constant -5 : i32
  %hi = arith.constant 100 : i32
  %y = kildall.assume %a in [%lo, %hi] {note = "user"} : i32
  %z = kildall.assume %b in [%hi, %lo] : i32
  %s = arith.addi %y, %y : i32
  return %s : i32
}
)";

}  // namespace

TEST_CASE("registered once; parses and prints back as written") {
  OpRegistry registry;
  const OpCode code = add_assume_op(registry);
  CHECK(add_assume_op(registry) == code);
  CHECK(registry.op(code).name == "kildall.assume");
  const Module module = parse_and_verify(assume_program, registry, "t.mlir");
  const std::string printed = print_module(module);
  CHECK(printed.find("%y = kildall.assume %a in [%lo, %hi] {note = \"user\"} : i32") != std::string::npos);
  CHECK(print_module(parse_and_verify(printed, registry, "printed.mlir")) == printed);
}

TEST_CASE("the range analysis trusts the bounds; contradictory bounds leave nothing") {
  OpRegistry registry;
  (void)add_assume_op(registry);
  const Module module = parse_and_verify(assume_program, registry, "t.mlir");
  const Function& fn = module.functions[0];
  const IntRangeAnalysis ranges(fn, &registry);
  const ValueId y = fn.result(fn.values[fn.operands_of(fn.terminator(0))[0]].owner) - 2;  // %y: two ops before %s
  CHECK(fn.value_name(y) == "y");
  CHECK(ranges.describe(y) == "[-5, 100] u[0, 4294967295]");
  CHECK(ranges.lookup(y + 1)->is_empty());  // %z in [100, -5]: no value satisfies it
  CHECK(ranges.describe(y + 2) == "[-10, 200] u[0, 4294967295]");
}

TEST_CASE("the interpreter: the operand when the assumption holds, undefined behaviour otherwise") {
  OpRegistry registry;
  (void)add_assume_op(registry);
  const Module module = parse_and_verify(R"(func.func @f(%a: i8) -> i8 {
  %lo = arith.constant -5 : i8
  %hi = arith.constant 100 : i8
  %y = kildall.assume %a in [%lo, %hi] : i8
  return %y : i8
})",
                                         registry, "t.mlir");
  const Interpreter interpreter(module);
  for (std::uint64_t a = 0; a < 256; ++a) {
    const ExecResult r = interpreter.run(0u, std::vector<std::uint64_t>{a});
    const std::int64_t signed_a = sign_extend(a, 8);
    if (signed_a >= -5 && signed_a <= 100) {
      REQUIRE(r.status == ExecStatus::returned);
      CHECK(r.results[0] == a);
    } else {
      CHECK(r.status == ExecStatus::undefined_behavior);
    }
  }
}

TEST_CASE("bad input: clear errors with file:line:col") {
  OpRegistry registry;
  (void)add_assume_op(registry);
  CHECK_THROWS_WITH((void)parse_and_verify("func.func @g(%a: i32, %b: i8) -> i32 {\n  %y = kildall.assume %a in [%b, %b] : i32\n  return %y : i32\n}\n",
                                     registry, "bad.mlir"),
                    doctest::Contains("bad.mlir:2:"));
  CHECK_THROWS_WITH((void)parse_and_verify("func.func @g(%a: i32) -> i32 {\n  %y = kildall.assume %a [%a, %a] : i32\n  return %y : i32\n}\n",
                                     registry, "bad.mlir"),
                    doctest::Contains("expected 'in'"));
  CHECK_THROWS_WITH((void)parse_and_verify("func.func @g(%a: i32) -> i32 {\n  %y = kildall.assume %a in [%a %a] : i32\n  return %y : i32\n}\n",
                                     registry, "bad.mlir"),
                    doctest::Contains("',' between the bounds"));
  // Without registering it, it is an unknown op.
  const OpRegistry plain;
  CHECK_THROWS_WITH((void)parse_and_verify(assume_program, plain, "plain.mlir"), doctest::Contains("plain.mlir:4:"));
}
