// Tests of kildall/ir/analysis/constant_replacement.hpp. Oracle: hand-chosen "proofs" (a
// lambda naming constant values) on small functions, checked on the printed result (what was
// turned into a constant in place, what got a new constant, what was kept or erased) and by the
// verifier.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include <kildall/ir/analysis/constant_replacement.hpp>
#include <kildall/ir/parser.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/verifier.hpp>

using namespace kildall::ir;

namespace {

const char* const program = R"(func.func private @g(i32) -> (i32, i32)
func.func @f(%a: i32, %c: i1) -> (i32, i32, i32) {
  %s = arith.addi %a, %a : i32
  %r:2 = func.call @g(%s) : (i32) -> (i32, i32)
  cf.cond_br %c, ^bb1(%s : i32), ^bb2
^bb1(%x: i32):
  %y = arith.muli %x, %x : i32
  return %y, %r#0, %r#1 : i32, i32, i32
^bb2:
  %z = arith.subi %a, %a : i32
  return %z, %z, %z : i32, i32, i32
})";

// The value named `name` in function `f` (index 1).
ValueId named(const Function& fn, std::string_view name) {
  for (ValueId v = 0; v < fn.values.size(); ++v)
    if (fn.value_name(v) == name) return v;
  FAIL("no value %" << name);
  return no_index;
}

}  // namespace

TEST_CASE("in place, before the op, at the start of a block; dead blocks and calls kept") {
  const OpRegistry registry;
  Module module = parse_and_verify(program, registry, "t.mlir");
  Function& fn = module.functions[1];
  const ValueId s = named(fn, "s"), x = named(fn, "x"), z = named(fn, "z");
  const ValueId r0 = fn.ops[fn.values[s].owner].next;  // the call op
  const ValueId call_first = fn.result(r0, 0);
  const auto constant = [&](ValueId v) -> std::optional<std::uint64_t> {
    if (v == s) return 6;
    if (v == x) return 6;
    if (v == call_first) return 7;
    if (v == z) return 0;
    return std::nullopt;
  };
  const auto executable = [](BlockId b) { return b != 2; };  // ^bb2 is dead
  const ConstantReplacementStats stats = replace_with_constants(fn, registry, executable, constant);
  verify(module);
  const std::string text = print_module(module);
  CHECK(text.find("%s = arith.constant 6 : i32") != std::string::npos);  // in place, name kept
  CHECK(text.find("%c6_i32 = arith.constant 6 : i32") != std::string::npos);  // block argument %x
  CHECK(text.find("arith.muli %c6_i32, %c6_i32") != std::string::npos);
  CHECK(text.find("%c7_i32 = arith.constant 7 : i32") != std::string::npos);  // call result: a new constant
  CHECK(text.find("func.call @g") != std::string::npos);                     // a call is never erased
  CHECK(text.find("arith.subi %a, %a") != std::string::npos);                // dead block untouched
  CHECK(stats.values_replaced == 3);
  CHECK(stats.ops_erased == 1);
}

TEST_CASE("values without uses, existing constants and non-integer proofs are left alone") {
  const OpRegistry registry;
  Module module = parse_and_verify(R"(func.func @f(%a: i8) -> i8 {
  %k = arith.constant 5 : i8
  cf.br ^bb1(%a : i8)
^bb1(%unused: i8):
  return %k : i8
})",
                                   registry, "t.mlir");
  Function& fn = module.functions[0];
  // Every value but the argument %a (which is used) is "proved" 5.
  const auto all_five = [&fn](ValueId v) -> std::optional<std::uint64_t> {
    if (fn.value_name(v) == "a") return std::nullopt;
    return 5;
  };
  const ConstantReplacementStats stats =
      replace_with_constants(fn, registry, [](BlockId) { return true; }, all_five);
  verify(module);
  CHECK(stats.values_replaced == 0);
  CHECK(print_module(module).find("c5_i8") == std::string::npos);
}

TEST_CASE("ops of a dialect the registry does not know are left alone (no out-of-range lookup)") {
  OpRegistry with_dialect;
  OpDefinition op;
  op.name = "my.op";
  op.format = OpFormat::unary;
  (void)with_dialect.add_op(std::move(op));
  Module module = parse_and_verify(R"(func.func @f(%a: i8) -> i8 {
  %y = my.op %a : i8
  return %y : i8
})",
                                   with_dialect, "t.mlir");
  Function& fn = module.functions[0];
  // A proof for %y, read against the built-in ops only: the op is opaque, nothing is replaced.
  const auto constant = [&fn](ValueId v) -> std::optional<std::uint64_t> {
    return fn.value_name(v) == "y" ? std::optional<std::uint64_t>(3) : std::nullopt;
  };
  const ConstantReplacementStats stats =
      replace_with_constants(fn, OpRegistry::builtins(), [](BlockId) { return true; }, constant);
  CHECK(stats.values_replaced == 0);
  CHECK(fn.ops[fn.blocks[0].first_op].code == *with_dialect.find_op("my.op"));  // my.op is still there
}
