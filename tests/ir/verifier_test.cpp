// Tests of kildall/ir/verifier.hpp: every structural, type and dominance rule
// reported with its exact location; valid programs pass.
#include <doctest/doctest.h>

#include <string>

#include <kildall/ir/verifier.hpp>

using namespace kildall::ir;

namespace {

std::string verifier_error_of(const std::string& source) {
  OpRegistry registry;
  (void)registry.add_type("toy.t");
  try {
    (void)parse_and_verify(source, registry, "v.mlir");
  } catch (const IrError& e) {
    return e.what();
  }
  return "";
}

const std::string head = "func.func @f(%a: i32, %c: i1) -> i32 {\n";

}  // namespace

TEST_CASE("valid programs verify, including uses in unreachable blocks and loops") {
  CHECK(verifier_error_of(head + R"(  cf.br ^loop(%a : i32)
^loop(%i: i32):
  %one = arith.constant 1 : i32
  %next = arith.addi %i, %one : i32
  %done = arith.cmpi sgt, %next, %a : i32
  cf.cond_br %done, ^exit, ^loop(%next : i32)
^exit:
  return %next : i32
^dead:
  return %ghost : i32
^dead2:
  %ghost = arith.addi %a, %a : i32
  cf.br ^dead
}
)") == "");
}

TEST_CASE("missing terminator") {
  CHECK(verifier_error_of(head + "  %x = arith.addi %a, %a : i32\n}\n") == "v.mlir:2:8: error: block with no terminator");
  CHECK(verifier_error_of("func.func @f() {\n}\n") == "v.mlir:1:16: error: block with no terminator");
  CHECK(verifier_error_of(head + "  return %a : i32\n^bb1:\n  %x = arith.addi %a, %a : i32\n}\n") ==
        "v.mlir:4:8: error: block with no terminator");
}

TEST_CASE("terminator in the middle of a block") {
  CHECK(verifier_error_of(head + "  return %a : i32\n  return %a : i32\n}\n") ==
        "v.mlir:2:3: error: 'func.return' op must be the last operation in its block");
}

TEST_CASE("branches: operand count and types, entry block") {
  CHECK(verifier_error_of(head + "  cf.br ^b(%a : i32)\n^b:\n  return %a : i32\n}\n") ==
        "v.mlir:2:3: error: 'cf.br' op passes 1 operand(s) to '^b', which takes 0 argument(s)");
  CHECK(verifier_error_of(head + "  cf.cond_br %c, ^b, ^b(%a : i32)\n^b(%x: i32):\n  return %x : i32\n}\n") ==
        "v.mlir:2:3: error: 'cf.cond_br' op passes 0 operand(s) to '^b', which takes 1 argument(s)");
  CHECK(verifier_error_of(head + "  cf.br ^b(%c : i1)\n^b(%x: i32):\n  return %x : i32\n}\n") ==
        "v.mlir:2:3: error: 'cf.br' op passes 'i1' as argument #0 of '^b', which has type 'i32'");
  CHECK(verifier_error_of("func.func @f() {\n^entry:\n  cf.br ^entry\n}\n") ==
        "v.mlir:3:3: error: 'cf.br' op branches to the entry block, which cannot have predecessors");
}

TEST_CASE("returns and calls match signatures") {
  CHECK(verifier_error_of(head + "  return\n}\n") ==
        "v.mlir:2:3: error: 'func.return' op has 0 operand(s), but the function returns 1 value(s)");
  CHECK(verifier_error_of(head + "  return %c : i1\n}\n") ==
        "v.mlir:2:3: error: 'func.return' op operand #0 has type 'i1', but the function returns 'i32'");
  CHECK(verifier_error_of(head + "  %r = func.call @g(%a) : (i32) -> i32\n  return %r : i32\n}\n") ==
        "v.mlir:2:8: error: 'func.call' op calls undefined function '@g'");
  const std::string g = "func.func @g(%x: i32) -> i32 {\n  return %x : i32\n}\n";
  CHECK(verifier_error_of(g + head + "  %r = func.call @g(%c) : (i1) -> i32\n  return %r : i32\n}\n") ==
        "v.mlir:5:8: error: 'func.call' op operand #0 has type 'i1', but '@g' expects 'i32'");
  CHECK(verifier_error_of(g + head + "  %r = func.call @g(%a, %a) : (i32, i32) -> i32\n  return %r : i32\n}\n") ==
        "v.mlir:5:8: error: 'func.call' op passes 2 operand(s), but '@g' takes 1");
  CHECK(verifier_error_of(g + head + "  %r = func.call @g(%a) : (i32) -> i1\n  return %a : i32\n}\n") ==
        "v.mlir:5:8: error: 'func.call' op result #0 has type 'i1', but '@g' returns 'i32'");
  CHECK(verifier_error_of("func.func @d(i32) -> i32\n") ==
        "v.mlir:1:1: error: a function declaration (no body) must be 'private' or 'nested'");
}

TEST_CASE("type rules of arith ops") {
  CHECK(verifier_error_of(head + "  %x = arith.extsi %a : i32 to i16\n  return %a : i32\n}\n") ==
        "v.mlir:2:8: error: 'arith.extsi' op result type 'i16' must be wider than operand type 'i32'");
  CHECK(verifier_error_of(head + "  %x = arith.trunci %a : i32 to i32\n  return %a : i32\n}\n") ==
        "v.mlir:2:8: error: 'arith.trunci' op result type 'i32' must be narrower than operand type 'i32'");
  CHECK(verifier_error_of(head + "  %x = arith.extui %a : i32 to index\n  return %a : i32\n}\n") ==
        "v.mlir:2:8: error: 'arith.extui' op result must be a signless integer, but got 'index'");
  CHECK(verifier_error_of("func.func @f(%a: !toy.t) {\n  %x = arith.addi %a, %a : !toy.t\n  return\n}\n") ==
        "v.mlir:2:8: error: 'arith.addi' op operand must be signless-integer-like, but got '!toy.t'");
}

TEST_CASE("uses must be dominated by their definitions") {
  // Same block, use before definition.
  CHECK(verifier_error_of(head + "  %y = arith.addi %x, %a : i32\n  %x = arith.addi %a, %a : i32\n  return %y : i32\n}\n") ==
        "v.mlir:2:8: error: 'arith.addi' op operand #0 ('%x') does not dominate this use");
  // An op using its own result.
  CHECK(verifier_error_of(head + "  %y = arith.addi %y, %a : i32\n  return %y : i32\n}\n") ==
        "v.mlir:2:8: error: 'arith.addi' op operand #0 ('%y') does not dominate this use");
  // Defined in one arm of a diamond, used at the join.
  CHECK(verifier_error_of(head + R"(  cf.cond_br %c, ^l, ^r
^l:
  %x = arith.addi %a, %a : i32
  cf.br ^j
^r:
  cf.br ^j
^j:
  return %x : i32
}
)") == "v.mlir:9:3: error: 'func.return' op operand #0 ('%x') does not dominate this use");
  // Defined in an unreachable block, used in a reachable one.
  CHECK(verifier_error_of(head + "  return %x : i32\n^dead:\n  %x = arith.addi %a, %a : i32\n  return %x : i32\n}\n") ==
        "v.mlir:2:3: error: 'func.return' op operand #0 ('%x') does not dominate this use");
}

TEST_CASE("a call looks its callee up in its own module only") {
  // @inner's call names @g, which only the top-level module defines: MLIR's
  // lookupNearestSymbolFrom stops at the nearest symbol table, and so does the verifier.
  const std::string text = "func.func @g() {\n  return\n}\nmodule @m {\n  func.func @inner() {\n    func.call @g() : () -> ()\n    return\n  }\n}\n";
  CHECK(verifier_error_of(text) ==
        "v.mlir:6:5: error: 'func.call' op calls undefined function '@g' (not in the symbol table of module '@m')");
  // The same call with @g defined inside @m is fine, the top level's @g notwithstanding.
  CHECK(verifier_error_of("func.func @g() {\n  return\n}\nmodule @m {\n  func.func @g() {\n    return\n  }\n"
                 "  func.func @inner() {\n    func.call @g() : () -> ()\n    return\n  }\n}\n") == "");
}

TEST_CASE("func.constant and func.call_indirect agree with their function types") {
  const std::string g = "func.func @g(%x: i32) -> i32 {\n  return %x : i32\n}\n";
  CHECK(verifier_error_of(g + head + "  %f = func.constant @g : (i32) -> i32\n  %r = func.call_indirect %f(%a) : (i32) -> i32\n"
                            "  return %r : i32\n}\n") == "");
  CHECK(verifier_error_of(g + head + "  %f = func.constant @g : (i1) -> i32\n  return %a : i32\n}\n") ==
        "v.mlir:5:8: error: 'func.constant' op has type '(i1) -> i32', but '@g' has type '(i32) -> i32'");
  CHECK(verifier_error_of(head + "  %f = func.constant @nobody : () -> ()\n  return %a : i32\n}\n") ==
        "v.mlir:2:8: error: 'func.constant' op names undefined function '@nobody'");
  const std::string apply = "func.func @apply(%f: (i32) -> (i32, i1), %a: i32) -> i32 {\n";
  CHECK(verifier_error_of(apply + "  %r:2 = func.call_indirect %f(%a) : (i32) -> (i32, i1)\n  return %r#0 : i32\n}\n") == "");
  // The parser types the operands by the written type, so a callee of another type is a use of
  // a value at the wrong type.
  CHECK(verifier_error_of(apply + "  %r = func.call_indirect %f(%a) : (i32) -> i32\n  return %r : i32\n}\n") ==
        "v.mlir:2:27: error: use of value '%f' expects different type than prior uses: '(i32) -> i32' vs '(i32) -> (i32, i1)'");
  CHECK(verifier_error_of(head + "  %r = func.call_indirect %a(%a) : i32\n  return %r : i32\n}\n") ==
        "v.mlir:2:36: error: expected a function type, found 'i32'");
}
