// Tests of kildall/ir/op_definition.hpp (the op record's vocabulary: built-in op codes, fold conclusions, an op's hooks run by the analyses); oracles: the enum's declared order and a dialect record whose fold and choice SCCP must follow, checked against the interpreter.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <kildall/ir.hpp>

#include "value_named.hpp"

using namespace kildall::ir;

TEST_CASE("built-in op codes are the enum's values, and only equal codes match") {
  CHECK(code_of(BuiltinOp::constant) == 0);
  CHECK(is(code_of(BuiltinOp::cmpi), BuiltinOp::cmpi));
  CHECK_FALSE(is(code_of(BuiltinOp::cmpi), BuiltinOp::select));
  CHECK(code_of(BuiltinOp::count) == static_cast<OpCode>(builtin_op_definitions().size()));
}

TEST_CASE("a fold concludes a constant or an operand, and conclusions compare by kind and payload") {
  CHECK(Folded::constant(7).kind == Folded::Kind::constant);
  CHECK(Folded::constant(7).bits == 7);
  CHECK(Folded::to_operand(2).kind == Folded::Kind::operand);
  CHECK(Folded::to_operand(2).operand == 2);
  CHECK(Folded::constant(2) != Folded::to_operand(2));
  CHECK(Folded::constant(0) == Folded::constant(0));
}

namespace {

/// `toy.pick %c, %a, %b : T`: `%a` when `%c` is odd, else `%b`, with a fold for a known `%c`
/// and `selects_from = 1`; `toy.zero_if %a, %b : T`: 0 when `%b` is 0, else `%a` (fold: a known 0).
struct Toy {
  OpCode pick, zero_if;
};

Toy register_toy(OpRegistry& registry) {
  Toy t{};
  OpDefinition pick;
  pick.name = "toy.pick";
  pick.format = OpFormat::select;  // written like arith.select
  pick.eval = [](const Function&, OpId, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
    out[0] = (in[0] & 1) != 0 ? in[1] : in[2];
    return EvalStatus::success();
  };
  pick.fold = [](const Function&, OpId, std::span<const std::uint64_t* const> known) -> std::optional<Folded> {
    if (known[0] == nullptr) return std::nullopt;
    return Folded::to_operand((*known[0] & 1) != 0 ? 1 : 2);
  };
  pick.selects_from = 1;
  t.pick = registry.add_op(std::move(pick));
  OpDefinition zero_if;
  zero_if.name = "toy.zero_if";
  zero_if.format = OpFormat::binary;
  zero_if.eval = [](const Function&, OpId, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
    out[0] = in[1] == 0 ? 0 : in[0];
    return EvalStatus::success();
  };
  zero_if.fold = [](const Function&, OpId, std::span<const std::uint64_t* const> known) -> std::optional<Folded> {
    if (known[1] != nullptr && *known[1] == 0) return Folded::constant(0);
    return std::nullopt;
  };
  t.zero_if = registry.add_op(std::move(zero_if));
  return t;
}


}  // namespace

TEST_CASE("SCCP follows a dialect op's fold and its choice among operands, as the interpreter does") {
  OpRegistry registry;
  const Toy toy = register_toy(registry);
  const char* text = R"(func.func @f(%a: i8, %c: i1) -> (i8, i8, i8, i8) {
  %one = arith.constant 1 : i1
  %zero = arith.constant 0 : i8
  %five = arith.constant 5 : i8
  %p = toy.pick %one, %five, %a : i8
  %q = toy.pick %c, %five, %five : i8
  %z = toy.zero_if %a, %zero : i8
  %u = toy.pick %c, %five, %a : i8
  return %p, %q, %z, %u : i8, i8, i8, i8
}
)";
  const Module module = parse_and_verify(text, registry, "toy.mlir");
  const Function& fn = module.functions[0];
  CHECK(fn.ops[fn.values[value_named(fn, "p")].owner].code == toy.pick);
  CHECK(fn.ops[fn.values[value_named(fn, "z")].owner].code == toy.zero_if);
  const SccpAnalysis sccp(fn, registry);
  CHECK(sccp.constant(value_named(fn, "p")) == 5u);  // fold: a known condition picks %five
  CHECK(sccp.constant(value_named(fn, "q")) == 5u);  // selects_from: both choices are 5
  CHECK(sccp.constant(value_named(fn, "z")) == 0u);  // fold with %a unknown
  CHECK(sccp.constant(value_named(fn, "u")) == std::nullopt);
  // The interpreter agrees on every input.
  const Interpreter interpreter(module);
  for (std::uint64_t a = 0; a < 256; a += 51)
    for (std::uint64_t c = 0; c < 2; ++c) {
      const std::uint64_t args[] = {a, c};
      const ExecResult r = interpreter.run("f", args);
      REQUIRE(r.status == ExecStatus::returned);
      CHECK(r.results[0] == 5);
      CHECK(r.results[1] == 5);
      CHECK(r.results[2] == 0);
      CHECK(r.results[3] == (c != 0 ? 5 : a));
    }
}
