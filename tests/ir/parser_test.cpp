// Tests of kildall/ir/parser.hpp: round trips (parse, print, parse, print) on
// every op and syntax form, and every parse error with its exact location.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <span>
#include <string>

#include <kildall/ir/parser.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/rewriter.hpp>
#include <kildall/ir/verifier.hpp>

using namespace kildall::ir;

namespace {

const char* const every_op = R"(// Every op of the subset, on several widths.
module @m {
  func.func @all(%a: i32, %b: i32, %w: i5, %n: index, %flag: i1) -> (i32, i5) {
    %c = arith.constant 5 : i32
    %neg = arith.constant -16 : i5
    %hex = arith.constant 0x7f : i8
    %t = arith.constant true
    %f = arith.constant false
    %big = arith.constant -9223372036854775808 : i64
    %idx = arith.constant 7 : index
    %0 = arith.addi %a, %b : i32
    %1 = arith.subi %0, %c : i32
    %2 = arith.muli %1, %1 : i32
    %3 = arith.divsi %2, %c : i32
    %4 = arith.divui %2, %c : i32
    %5 = arith.remsi %3, %c : i32
    %6 = arith.remui %4, %c : i32
    %7 = arith.andi %5, %6 : i32
    %8 = arith.ori %7, %a : i32
    %9 = arith.xori %8, %b : i32
    %10 = arith.shli %9, %c : i32
    %11 = arith.shrsi %10, %c : i32
    %12 = arith.shrui %11, %c : i32
    %13 = arith.minsi %12, %a : i32
    %14 = arith.maxsi %13, %b : i32
    %15 = arith.minui %14, %a : i32
    %16 = arith.maxui %15, %b : i32
    %e = arith.cmpi eq, %16, %a : i32
    %ne = arith.cmpi ne, %16, %a : i32
    %slt = arith.cmpi slt, %16, %a : i32
    %sle = arith.cmpi sle, %16, %a : i32
    %sgt = arith.cmpi sgt, %w, %neg : i5
    %sge = arith.cmpi sge, %w, %neg : i5
    %ult = arith.cmpi ult, %n, %idx : index
    %ule = arith.cmpi ule, %n, %idx : index
    %ugt = arith.cmpi ugt, %16, %a : i32
    %uge = arith.cmpi uge, %16, %a : i32
    %sel = arith.select %e, %16, %a : i32
    %ix = arith.addi %n, %idx : index
    %x = arith.extsi %w : i5 to i32
    %y = arith.extui %w : i5 to i64
    %z = arith.trunci %y : i64 to i5
    %r:2 = func.call @pair(%sel, %z) : (i32, i5) -> (i32, i5)
    %fi = arith.index_cast %r#0 : i32 to index
    %fu = arith.index_castui %fi : index to i32
    %fd = arith.floordivsi %fu, %c : i32
    %cd = arith.ceildivsi %fd, %c : i32
    %cu = arith.ceildivui %cd, %c : i32
    cf.cond_br %flag, ^bb1(%cu, %r#1 : i32, i5), ^bb2
  ^bb1(%p: i32, %q: i5):  // a comment after a label
    cf.br ^exit(%p, %q : i32, i5)
  ^bb2:
    cf.br ^exit(%sel, %w : i32, i5)
  ^exit(%u: i32, %v: i5):
    func.return %u, %v : i32, i5
  }
  func.func @pair(%a: i32, %b: i5) -> (i32, i5) {
    return %a, %b : i32, i5
  }
  func.func private @external(i32) -> i32
  func.func @nothing() {
    return
  }
}
)";

}  // namespace

TEST_CASE("parse - print - parse - print is a fixed point on every op") {
  OpRegistry registry;
  const std::string source = every_op;
  const Module first = parse_and_verify(source, registry, "every_op.mlir");
  const std::string printed = print_module(first);
  const Module second = parse_and_verify(printed, registry, "printed.mlir");
  const std::string reprinted = print_module(second);
  CHECK(printed == reprinted);
  // Structure survives.
  REQUIRE(second.functions.size() == 4);
  CHECK(second.name == "m");
  CHECK(second.functions[0].blocks.size() == 4);
  CHECK(second.functions[0].ops.size() == first.functions[0].ops.size());
  CHECK(second.functions[2].is_declaration());
  CHECK(second.functions[2].visibility == Visibility::private_);
  // Names are kept.
  CHECK(printed.find("%slt = arith.cmpi slt, %16, %a : i32") != std::string::npos);
  CHECK(printed.find("^exit(%u: i32, %v: i5):") != std::string::npos);
  CHECK(printed.find("%hex = arith.constant 127 : i8") != std::string::npos);
  CHECK(printed.find("%neg = arith.constant -16 : i5") != std::string::npos);
  CHECK(printed.find("%t = arith.constant true") != std::string::npos);
  CHECK(printed.find("%big = arith.constant -9223372036854775808 : i64") != std::string::npos);
  CHECK(printed.find("%r:2 = func.call @pair(%sel, %z) : (i32, i5) -> (i32, i5)") != std::string::npos);
  CHECK(printed.find("func.func private @external(i32) -> i32") != std::string::npos);
  // Comments are dropped.
  CHECK(printed.find("//") == std::string::npos);
}

TEST_CASE("result packs: %r:N binds %r#0 .. %r#(N-1), mixes with plain names, and prints back as a pack") {
  OpRegistry registry;
  const std::string source = R"(func.func @f(%a: i32) -> (i32, i32, i32) {
  %x, %r:2 = func.call @g(%a) : (i32) -> (i32, i32, i32)
  %s = arith.addi %r#1, %r#0 : i32
  return %x, %s, %r#1 : i32, i32, i32
}
func.func private @g(i32) -> (i32, i32, i32)
)";
  const Module m = parse_and_verify(source, registry, "p.mlir");
  const Function& fn = m.functions[0];
  const OpData& call = fn.ops[fn.blocks[0].first_op];
  CHECK(fn.value_name(call.result_begin) == "x");
  CHECK(fn.value_name(call.result_begin + 1) == "r#0");
  CHECK(fn.value_name(call.result_begin + 2) == "r#1");
  const OpData& add = fn.ops[call.next];
  CHECK(fn.operands_of(fn.blocks[0].first_op).size() == 1);
  CHECK(fn.operands_of(call.next)[0] == call.result_begin + 2);  // %r#1
  CHECK(fn.operands_of(call.next)[1] == call.result_begin + 1);  // %r#0
  CHECK(add.result_count == 1);
  const std::string printed = print_module(m);
  CHECK(printed.find("%x, %r:2 = func.call @g(%a) : (i32) -> (i32, i32, i32)") != std::string::npos);
  CHECK(printed.find("%s = arith.addi %r#1, %r#0 : i32") != std::string::npos);
  CHECK(print_module(parse_and_verify(printed, registry, "printed.mlir")) == printed);
}

TEST_CASE("a pack member whose name a rewrite took over prints as a fresh number, consistently") {
  OpRegistry registry;
  Module m = parse_and_verify(R"(func.func @f(%a: i32) -> i32 {
  %r:2 = func.call @g(%a) : (i32) -> (i32, i32)
  %s = arith.addi %r#1, %r#0 : i32
  return %s : i32
}
func.func private @g(i32) -> (i32, i32)
)",
                              registry, "p.mlir");
  Function& fn = m.functions[0];
  const OpId call = fn.blocks[0].first_op;
  Rewriter rewriter(fn);
  const ValueId seven = rewriter.constant_before(call, Type::integer(32), 7);
  rewriter.transfer_name(fn.ops[call].result_begin + 1, seven);  // %r#1 now names the constant
  const std::string printed = print_module(m);
  // The constant cannot be defined as `%r#1`; it gets a number, and so do its uses.
  CHECK(printed.find("%r#1 = ") == std::string::npos);
  CHECK(printed.find("%r:2") == std::string::npos);
  const Module again = parse_and_verify(printed, registry, "printed.mlir");
  CHECK(print_module(again) == printed);
}

TEST_CASE("constants print as the signed reading of their bits") {
  OpRegistry registry;
  const Module m = parse_and_verify(
      "func.func @f() -> i8 {\n  %c = arith.constant 255 : i8\n  return %c : i8\n}\n", registry);
  CHECK(m.functions[0].ops[0].imm == 255);
  CHECK(print_module(m).find("arith.constant -1 : i8") != std::string::npos);
}

TEST_CASE("forward references to values and blocks resolve; blocks are numbered in layout order") {
  OpRegistry registry;
  const Module m = parse_and_verify(R"(func.func @f(%a: i32) -> i32 {
  cf.br ^second
^third:
  return %x : i32
^second:
  %x = arith.addi %a, %a : i32
  cf.br ^third
}
)",
                                    registry);
  const Function& fn = m.functions[0];
  REQUIRE(fn.blocks.size() == 3);
  CHECK(fn.block_name(1) == "third");
  CHECK(fn.block_name(2) == "second");
  CHECK(fn.successors_of(fn.terminator(0))[0].block == 2);
  CHECK(fn.successors_of(fn.terminator(2))[0].block == 1);
  const OpId ret = fn.terminator(1);
  CHECK(fn.value_name(fn.operands_of(ret)[0]) == "x");
}

TEST_CASE("the article's two noisy programs parse up to the unknown noisy op") {
  // Without the noisy dialect registered, the first noisy op is reported at its exact location.
  OpRegistry registry;
  const char* source =
      "func.func @test_op_syntax() -> i5 {\n"
      "  %0 = arith.constant 3 : i5\n"
      "  %1 = arith.constant 4 : i5\n"
      "  %2 = noisy.encode %0 : i5 -> !noisy.i32\n";
  try {
    (void)parse_module(source, registry, "noisy.mlir");
    FAIL("expected an error");
  } catch (const IrError& e) {
    CHECK(std::string(e.what()) == "noisy.mlir:4:8: error: unknown operation 'noisy.encode'");
  }
}

namespace {

/// The `file:line:col: error: message` text for parsing `source` (named `file`, read with
/// `options`), or "" if it parses and verifies.
std::string error_of(const std::string& source, const ParseOptions& options = {}, const std::string& file = "t.mlir") {
  OpRegistry registry;
  try {
    (void)parse_and_verify(source, registry, file, options);
  } catch (const IrError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

namespace {

/// A function of `blocks` blocks in a chain of diamonds and back edges (forward and backward
/// references), each label spelled `<prefix>N`.
std::string labelled_cfg(const std::string& prefix, int blocks) {
  std::string text = "func.func @f(%a: i32, %c: i1) -> i32 {\n  cf.br ^" + prefix + "1(%a : i32)\n";
  for (int b = 1; b < blocks; ++b) {
    const std::string n = std::to_string(b);
    text += "^" + prefix + n + "(%v" + n + ": i32):\n";
    text += "  %s" + n + " = arith.addi %v" + n + ", %a : i32\n";
    if (b + 1 == blocks) {
      text += "  return %s" + n + " : i32\n";
    } else if (b % 3 == 0) {  // a back edge and a forward one
      text += "  cf.cond_br %c, ^" + prefix + std::to_string(b - 2) + "(%s" + n + " : i32), ^" + prefix +
              std::to_string(b + 1) + "(%s" + n + " : i32)\n";
    } else {
      text += "  cf.cond_br %c, ^" + prefix + std::to_string(b + 1) + "(%s" + n + " : i32), ^" + prefix +
              std::to_string(std::min(b + 2, blocks - 1)) + "(%a : i32)\n";
    }
  }
  return text + "}\n";
}

/// `text` with every `from` replaced by `to`.
std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

TEST_CASE("fast paths agree with the general ones: ^bbN labels, op names, iN types, blocks named before defined") {
  // Oracle: the general paths (labels in the hash table, op names through the registry, types
  // through the full type parser), which the same programs spelled differently take.
  OpRegistry registry;
  // `^bbN` labels (a dense table) against `^L_N` labels (the hash table): the same blocks,
  // successors and text up to the spelling of the labels.
  for (const int blocks : {2, 3, 10, 257}) {
    const Module dense = parse_and_verify(labelled_cfg("bb", blocks), registry, "t.mlir");
    const Module hashed = parse_and_verify(labelled_cfg("L_", blocks), registry, "t.mlir");
    const Function& d = dense.functions.at(0);
    const Function& h = hashed.functions.at(0);
    REQUIRE(d.blocks.size() == h.blocks.size());
    REQUIRE(d.successors.size() == h.successors.size());
    for (std::size_t s = 0; s < d.successors.size(); ++s) CHECK(d.successors[s].block == h.successors[s].block);
    for (BlockId b = 1; b < d.blocks.size(); ++b) {  // blocks numbered in textual order
      CHECK(d.block_name(b) == "bb" + std::to_string(b));
      CHECK(h.block_name(b) == "L_" + std::to_string(b));
    }
    CHECK(print_module(dense) == replace_all(print_module(hashed), "^L_", "^bb"));
  }
  // Labels that look numeric but are not canonical stay distinct (`^bb01` is not `^bb1`), a
  // number past the dense table's limit and the same label in a region's own scope work.
  const Module mixed = parse_and_verify(R"(func.func @f(%c: i1) -> i32 {
  cf.cond_br %c, ^bb01, ^bb1
^bb1:
  cf.br ^bb999999999
^bb01:
  %r = scf.if %c -> (i32) {
  ^bb1:
    %one = arith.constant 1 : i32
    scf.yield %one : i32
  } else {
    %two = arith.constant 2 : i32
    scf.yield %two : i32
  }
  cf.br ^bb999999999
^bb999999999:
  %z = arith.constant 0 : i32
  return %z : i32
}
)",
                                        registry, "t.mlir");
  const Function& fn = mixed.functions.at(0);
  REQUIRE(fn.blocks.size() == 6);  // entry, ^bb1, ^bb01, ^bb999999999, then the region's two
  CHECK(fn.block_name(1) == "bb1");
  CHECK(fn.block_name(2) == "bb01");
  CHECK(fn.block_name(3) == "bb999999999");
  CHECK(fn.successors_of(fn.terminator(0))[0].block == 2);
  CHECK(fn.successors_of(fn.terminator(0))[1].block == 1);
  CHECK(fn.successors_of(fn.terminator(1))[0].block == 3);
  CHECK(fn.successors_of(fn.terminator(2))[0].block == 3);
  CHECK(fn.block_name(4) == "bb1");  // the region's own ^bb1, not the body's
  CHECK(fn.region_of(4) == 1);
  CHECK(print_module(parse_and_verify(print_module(mixed), registry, "t.mlir")) == print_module(mixed));
  // Errors of the fast paths are those of the general ones.
  const std::string head = "func.func @f(%a: i32, %c: i1) -> i32 {\n";
  CHECK(error_of(head + "  cf.cond_br %c, ^bb2, ^bb7\n^bb2:\n  return %a : i32\n}\n") ==
        "t.mlir:2:24: error: reference to an undefined block '^bb7'");
  CHECK(error_of(head + "  cf.br ^bb99999999\n}\n") == "t.mlir:2:9: error: reference to an undefined block '^bb99999999'");
  CHECK(error_of(head + "  cf.br ^bb1\n^bb1:\n  cf.br ^bb1\n^bb1:\n  return %a : i32\n}\n") ==
        "t.mlir:5:1: error: redefinition of block '^bb1'");
  // An op name cached for the parse, then a name of the same length and ending (the same slot
  // of the cache) that is not registered.
  CHECK(error_of(head + "  %x = arith.addi %a, %a : i32\n  %y = arxth.addi %x, %a : i32\n  return %y : i32\n}\n") ==
        "t.mlir:3:8: error: unknown operation 'arxth.addi'");
  // Integer types: the common spellings and the errors of the general type parser.
  for (const char* type : {"i1", "i8", "i16", "i32", "i64", "i7"}) {
    const Module m = parse_and_verify(head + "  %x = arith.constant 1 : " + type + "\n  return %a : i32\n}\n", registry, "t.mlir");
    CHECK(m.functions.at(0).values.at(2).type == Type::integer(static_cast<unsigned>(std::stoi(type + 1))));
  }
  const auto constant_of_type = [&](const std::string& type) {
    return error_of(head + "  %x = arith.constant 1 : " + type + "\n  return %a : i32\n}\n");
  };
  CHECK(constant_of_type("i0") == "t.mlir:2:27: error: integer bitwidth 0 is not supported (1 to 64)");
  CHECK(constant_of_type("i08") == "t.mlir:2:27: error: expected a type, found 'i08'");
  CHECK(constant_of_type("i9x") == "t.mlir:2:27: error: expected a type, found 'i9x'");
  CHECK(constant_of_type("i65") == "t.mlir:2:27: error: integer bitwidth 65 is not supported (1 to 64)");
  CHECK(constant_of_type("i99") == "t.mlir:2:27: error: integer bitwidth 99 is not supported (1 to 64)");
}

TEST_CASE("parse errors carry file:line:col") {
  const std::string head = "func.func @f(%a: i32, %c: i1) -> i32 {\n";
  CHECK(error_of(head + "  %x = arith.frobnicate %a : i32\n  return %x : i32\n}\n") ==
        "t.mlir:2:8: error: unknown operation 'arith.frobnicate'");
  CHECK(error_of(head + "  %x = arith.addi %a, %y : i32\n  return %x : i32\n}\n") ==
        "t.mlir:2:23: error: use of undefined value '%y'");
  CHECK(error_of(head + "  %x = arith.addi %a, %a : i32\n  %x = arith.addi %a, %a : i32\n  return %x : i32\n}\n") ==
        "t.mlir:3:3: error: redefinition of SSA value '%x'");
  CHECK(error_of(head + "  %x = arith.addi %a, %a : i64\n  return %a : i32\n}\n") ==
        "t.mlir:2:19: error: use of value '%a' expects different type than prior uses: 'i64' vs 'i32'");
  CHECK(error_of(head + "  %x = arith.addi %a : i32\n  return %x : i32\n}\n") ==
        "t.mlir:2:8: error: 'arith.addi' takes 2 operand(s), but 1 were given");
  CHECK(error_of(head + "  %x = arith.addi %a, %a, %a : i32\n  return %x : i32\n}\n") ==
        "t.mlir:2:8: error: 'arith.addi' takes 2 operand(s), but 3 were given");
  CHECK(error_of(head + "  cf.br ^nowhere\n}\n") == "t.mlir:2:9: error: reference to an undefined block '^nowhere'");
  CHECK(error_of(head + "  %x = arith.constant 256 : i8\n  return %a : i32\n}\n") ==
        "t.mlir:2:23: error: integer literal out of range for type 'i8'");
  CHECK(error_of(head + "  %x = arith.constant -129 : i8\n  return %a : i32\n}\n") ==
        "t.mlir:2:23: error: integer literal out of range for type 'i8'");
  CHECK(error_of(head + "  %x = arith.constant 99999999999999999999 : i64\n  return %a : i32\n}\n") ==
        "t.mlir:2:23: error: integer literal out of range for type 'i64'");
  CHECK(error_of(head + "  %x = arith.constant 1 : i65\n  return %a : i32\n}\n") ==
        "t.mlir:2:27: error: integer bitwidth 65 is not supported (1 to 64)");
  CHECK(error_of(head + "  %x = arith.cmpi lt, %a, %a : i32\n  return %a : i32\n}\n") ==
        "t.mlir:2:19: error: unknown comparison predicate 'lt'");
  CHECK(error_of(head + "  %x:0 = arith.addi %a, %a : i32\n  return %a : i32\n}\n") ==
        "t.mlir:2:6: error: a result pack has 1 to 65535 results");
  CHECK(error_of(head + "  %x:2 = arith.addi %a, %a : i32\n  return %a : i32\n}\n") ==
        "t.mlir:2:10: error: 'arith.addi' produces 1 result(s) but 2 name(s) are bound");
  CHECK(error_of(head + "  %x#1 = arith.addi %a, %a : i32\n  return %a : i32\n}\n") ==
        "t.mlir:2:3: error: a result name cannot have a '#N' suffix (a pack is written '%name:N')");
  CHECK(error_of(head + "  %x = arith.addi %a, %a : i32\n  return %x#1 : i32\n}\n") ==
        "t.mlir:3:10: error: use of undefined value '%x#1'");
  CHECK(error_of(head + "  %x = arith.addi %a#, %a : i32\n  return %x : i32\n}\n") ==
        "t.mlir:2:19: error: expected a result number after '#'");
  CHECK(error_of("func.func @f(%a#1: i32) -> i32 {\n  return %a#1 : i32\n}\n") ==
        "t.mlir:1:14: error: an argument name cannot have a '#N' suffix");
  CHECK(error_of(head + "  %x, %y = arith.addi %a, %a : i32\n  return %a : i32\n}\n") ==
        "t.mlir:2:12: error: 'arith.addi' produces 1 result(s) but 2 name(s) are bound");
  CHECK(error_of(head + "  %x = arith.addi %a, %a : !foo.bar\n  return %a : i32\n}\n") ==
        "t.mlir:2:28: error: unknown type '!foo.bar'");
  CHECK(error_of(head + "  return %a : i32\n^bb1:\n  return %a : i32\n^bb1:\n  return %a : i32\n}\n") ==
        "t.mlir:5:1: error: redefinition of block '^bb1'");
  CHECK(error_of(head + "  return %a : i32\n") == "t.mlir:3:1: error: expected '}' to end the function body, found end of file");
  CHECK(error_of("func.func @f() {\n  return\n}\nfunc.func @f() {\n  return\n}\n") ==
        "t.mlir:4:1: error: redefinition of symbol '@f'");
  CHECK(error_of("func.func @f() {\n  return ?\n}\n") == "t.mlir:2:10: error: unexpected character '?'");
  CHECK(error_of("module {\n  func.func @f() {\n    return\n  }\n") ==
        "t.mlir:5:1: error: expected 'func.func', 'module' or '}', found end of file");
  CHECK(error_of(head + "  %x = \"arith.addi\"(%a, %a) : (i32, i32) -> i32\n  return %x : i32\n}\n") ==
        "t.mlir:2:8: error: the generic form of the registered op 'arith.addi' is not supported: write its custom form");
  CHECK(error_of(head + "  %x = \"foo.op\"(%a) : (i32) -> i32\n  return %x : i32\n}\n") ==
        "t.mlir:2:8: error: unregistered operation 'foo.op' (pass --allow-unregistered-dialect to treat unknown ops as opaque)");
  CHECK(error_of("func.func @f() attributes {tag = {a\n") ==
        "t.mlir:1:27: error: expected '}' to end the attribute dictionary, found end of file");
  CHECK(error_of(head + "  %x = arith.addi %a, %a {k = \"v} : i32\n  return %x : i32\n}\n") ==
        "t.mlir:2:26: error: unterminated string literal in an attribute dictionary");
  CHECK(error_of("func.func @f() attributes return\n") ==
        "t.mlir:1:27: error: expected '{' to begin an attribute dictionary, found 'return'");
  CHECK(error_of(head + "  cf.br ^b\n^u:\n  return %y : i32\n^b:\n  %y = arith.extsi %a : i32 to i64\n  cf.br ^u\n}\n") ==
        "t.mlir:6:3: error: definition of SSA value '%y' has type 'i64' but prior uses expect 'i32'");
}

TEST_CASE("mutated inputs either parse and verify or fail with an IrError (fuzz, fixed seed)") {
  OpRegistry registry;
  const std::string base = every_op;
  std::mt19937_64 rng(424242);
  const std::string alphabet = "%^@!:,=()[]{}<>-0123456789aix. \n\"/";
  std::size_t accepted = 0, rejected = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t pos = rng() % text.size();
      switch (rng() % 3) {
        case 0: text.erase(pos, 1 + rng() % 8); break;
        case 1: text.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
        default: text[pos] = alphabet[rng() % alphabet.size()]; break;
      }
    }
    try {
      const Module m = parse_and_verify(text, registry, "fuzz.mlir");
      const std::string printed = print_module(m);
      CHECK(print_module(parse_and_verify(printed, registry, "fuzz2.mlir")) == printed);
      ++accepted;
    } catch (const IrError& e) {
      const std::string what = e.what();
      CHECK(what.starts_with("fuzz.mlir:"));
      CHECK(what.find(": error: ") != std::string::npos);
      ++rejected;
    }
  }
  CHECK(accepted > 0);
  CHECK(rejected > 0);
}

TEST_CASE("huge numeric value names are looked up without a table of that size") {
  // Found by fuzzing: one use of %999999999 used to size a dense table to 10^9 entries.
  CHECK(error_of("func.func @f() -> i32 {\n  return %999999999 : i32\n}\n") ==
        "t.mlir:2:10: error: use of undefined value '%999999999'");
  CHECK(error_of("func.func @f() -> i32 {\n  %4294967295 = arith.constant 7 : i32\n  return %4294967295 : i32\n}\n") ==
        "");
  // Small and large numbers in one function resolve to their own definitions.
  OpRegistry registry;
  const Module m = parse_and_verify(
      "func.func @f() -> i32 {\n  %0 = arith.constant 1 : i32\n  %123456789 = arith.addi %0, %0 : i32\n"
      "  %1 = arith.addi %123456789, %0 : i32\n  return %1 : i32\n}\n",
      registry, "t.mlir");
  const Function& fn = m.functions.at(0);
  REQUIRE(fn.values.size() == 3);
  CHECK(fn.operands_of(2)[0] == fn.result(1));
  CHECK(fn.operands_of(2)[1] == fn.result(0));
}

TEST_CASE("attribute dictionaries are kept as written where each op's format puts them, and print back") {
  // Oracle: the text of each dictionary, found again at its place in the printed module; the
  // printed module parses to the same print (a fixed point).
  const char* const source = R"(module @m attributes {test.mod = 1 : i64} {
  func.func private @decl(i32) -> i32 attributes {tag = "baz"}
  func.func nested @n(%a: i32) -> i32 attributes {llvm.emit_c_interface} {
    %c = arith.constant {name = "c"} 1 : i32
    %s = arith.addi %a, %c {overflow = "x\"}", f = 2.5} : i32
    %b = arith.cmpi slt, %a, %c {k} : i32
    %e = arith.extui %b {z = [1, {w = 2}]} : i1 to i32
    %r = func.call @decl(%e) {callee_attr} : (i32) -> i32
    %t = arith.select %b, %s, %r {q = #foo<bar>} : i32
    cf.cond_br %b, ^bb1, ^bb2(%t : i32) {weights = dense<[1, 2]> : vector<2xi32>}
  ^bb1:
    cf.br ^bb2(%s : i32) {}
  ^bb2(%x: i32):
    return {true} %x : i32
  }
}
)";
  OpRegistry registry;
  const Module module = parse_and_verify(source, registry, "attrs.mlir");
  const std::string printed = print_module(module);
  CAPTURE(printed);
  for (const char* line : {"module @m attributes {test.mod = 1 : i64} {",
                           "func.func private @decl(i32) -> i32 attributes {tag = \"baz\"}",
                           "func.func nested @n(%a: i32) -> i32 attributes {llvm.emit_c_interface} {",
                           "%c = arith.constant {name = \"c\"} 1 : i32",
                           "%s = arith.addi %a, %c {overflow = \"x\\\"}\", f = 2.5} : i32",
                           "%b = arith.cmpi slt, %a, %c {k} : i32", "%e = arith.extui %b {z = [1, {w = 2}]} : i1 to i32",
                           "%r = func.call @decl(%e) {callee_attr} : (i32) -> i32",
                           "%t = arith.select %b, %s, %r {q = #foo<bar>} : i32",
                           "cf.cond_br %b, ^bb1, ^bb2(%t : i32) {weights = dense<[1, 2]> : vector<2xi32>}",
                           "    cf.br ^bb2(%s : i32)\n", "return {true} %x : i32"})
    CHECK(printed.find(line) != std::string::npos);
  CHECK(module.functions[1].visibility == Visibility::nested);
  CHECK(module.functions[1].attributes_of(module.functions[1].blocks[0].first_op) == "{name = \"c\"}");
  CHECK(print_module(parse_and_verify(printed, registry, "printed.mlir")) == printed);
}

TEST_CASE("unregistered ops in the generic form: opaque, kept, printed back, ending blocks when allowed") {
  const char* const source = R"(func.func @f(%a: i32, %c: i1) -> i32 {
  %x = "foo.op"(%a, %a) {k = 1} : (i32, i32) -> i32
  %p:2 = "foo.pair"() : () -> (i32, i1)
  "foo.effect"() : () -> ()
  "foo.cond_br"(%c) [^bb1, ^bb2] : (i1) -> ()
^bb1:
  return %a : i32
^bb2:
  %s = arith.addi %x, %p#0 : i32
  "unknown.return"(%s) : (i32) -> ()
}
)";
  OpRegistry registry;
  const ParseOptions unregistered{.allow_unregistered_ops = true};
  const Module module = parse_and_verify(source, registry, "generic.mlir", unregistered);
  const Function& fn = module.functions[0];
  const std::string printed = print_module(module);
  CAPTURE(printed);
  CHECK(printed.find("%x = \"foo.op\"(%a, %a) {k = 1} : (i32, i32) -> i32") != std::string::npos);
  CHECK(printed.find("%p:2 = \"foo.pair\"() : () -> (i32, i1)") != std::string::npos);
  CHECK(printed.find("\"foo.effect\"() : () -> ()") != std::string::npos);
  CHECK(printed.find("\"foo.cond_br\"(%c) [^bb1, ^bb2] : (i1) -> ()") != std::string::npos);
  CHECK(op_name(fn, fn.blocks[0].first_op, registry) == "foo.op");
  // The unknown terminator's successors are the block's CFG edges.
  REQUIRE(fn.successors_of(fn.blocks[0].last_op).size() == 2);
  CHECK(print_module(parse_and_verify(printed, registry, "printed.mlir", unregistered)) == printed);
  // What the verifier still checks: an unknown op with successors ends its block. It may enter a
  // block with arguments (it passes nothing: what they hold is unknown, as in MLIR).
  const auto verify_error = [&](const std::string& text) { return error_of(text, unregistered, "v.mlir"); };
  CHECK(verify_error("func.func @g() {\n  \"foo.br\"() [^bb1] : () -> ()\n^bb1(%v: i32):\n  return\n}\n") == "");
  CHECK(verify_error("func.func @g() {\n  \"foo.br\"() [^bb1] : () -> ()\n  return\n^bb1:\n  return\n}\n") ==
        "v.mlir:2:3: error: 'foo.br' op must be the last operation in its block");
  CHECK(verify_error("func.func @g() {\n  \"foo.br\"() [^bb1(%x : i32)] : () -> ()\n^bb1:\n  return\n}\n") ==
        "v.mlir:2:19: error: expected ']' or ',', found '('");
}

TEST_CASE("unregistered ops at module level: kept in place, printed back; what they may not have") {
  const OpRegistry registry;
  ParseOptions unregistered;
  unregistered.allow_unregistered_ops = true;
  const char* const source = R"("first.op"() : () -> ()
func.func private @f(%x: i32) -> i32 {
  return %x : i32
}
"live.user"() {uses = [@f], note = "@not_a_use"} : () -> ()
func.func @g() {
  return
}
"last.op"() : () -> ()
)";
  const Module m = parse_and_verify(source, registry, "m.mlir", unregistered);
  REQUIRE(m.opaque_ops.size() == 3);
  CHECK(m.opaque_ops[0].position == 0);
  CHECK(m.opaque_ops[1].name == "live.user");
  CHECK(m.opaque_ops[1].attributes == "{uses = [@f], note = \"@not_a_use\"}");
  CHECK(m.opaque_ops[1].position == 1);
  CHECK(m.opaque_ops[2].position == 2);
  CHECK(m.opaque_ops[1].loc.line == 5);
  std::vector<std::string> uses;
  for_each_symbol_reference(m.opaque_ops[1].attributes,
                            [&](std::span<const std::string_view> names) { uses.emplace_back(names[0]); });
  CHECK(uses == std::vector<std::string>{"f"});
  const std::string printed = print_module(m);
  CHECK(printed == R"(module {
  "first.op"() : () -> ()
  func.func private @f(%x: i32) -> i32 {
    return %x : i32
  }
  "live.user"() {uses = [@f], note = "@not_a_use"} : () -> ()
  func.func @g() {
    return
  }
  "last.op"() : () -> ()
}
)");
  CHECK(print_module(parse_and_verify(printed, registry, "printed.mlir", unregistered)) == printed);
  const auto parse_error = [](const std::string& text, const ParseOptions& options) {
    return error_of(text, options, "m.mlir");
  };
  CHECK(parse_error("\"live.user\"() : () -> ()\n", {}) ==
        "m.mlir:1:1: error: unregistered operation 'live.user' (pass --allow-unregistered-dialect to treat unknown ops as opaque)");
  CHECK(parse_error("\"a.b\"(%x) : (i32) -> ()\n", unregistered) ==
        "m.mlir:1:7: error: an operation at module level takes no operands, found '%x'");
  CHECK(parse_error("\"a.b\"() : () -> i32\n", unregistered) ==
        "m.mlir:1:17: error: expected '(' (an operation at module level has no results), found 'i32'");
  CHECK(parse_error("\"a.b\"() [^bb1] : () -> ()\n", unregistered) ==
        "m.mlir:1:9: error: an operation at module level takes no successors, found '['");
  CHECK(parse_error("\"a.b\"() ({}) : () -> ()\n", unregistered) ==
        "m.mlir:1:9: error: an operation at module level takes no regions, found '('");
  CHECK(parse_error("\"arith.addi\"() : () -> ()\n", unregistered) ==
        "m.mlir:1:1: error: the generic form of the registered op 'arith.addi' is not supported: write its custom form");
}

TEST_CASE("scf regions: every form parses, prints back as a fixed point, and keeps its structure") {
  const char* const source = R"(func.func @s(%c: i1, %a: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.if %c -> (i32) {
    %x = arith.addi %a, %a : i32
    scf.yield %x : i32
  } else {
    %x = arith.subi %a, %a : i32
    scf.yield %x : i32
  }
  scf.if %c {
    %unused = arith.muli %r, %r : i32
  }
  %sum:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %r, %t = %a) -> (i32, i32) {
    %inner = scf.if %c -> (i32) {
      scf.yield %s : i32
    } else {
      scf.yield %t : i32
    }
    scf.yield %inner, %s : i32, i32
  } {tag}
  %k = arith.constant 3 : i32
  scf.for %j = %k to %k step %k : i32 {
  }
  %w:2 = scf.while (%p = %sum#0) : (i32) -> (i32, i32) {
    %lt = arith.cmpi slt, %p, %a : i32
    scf.condition(%lt) %p, %p : i32, i32
  } do {
  ^bb0(%q: i32, %q2: i32):
    %next = arith.addi %q, %q2 : i32
    scf.yield %next : i32
  } attributes {tag = "w"}
  return %w#1 : i32
}
)";
  OpRegistry registry;
  const Module module = parse_and_verify(source, registry, "scf.mlir");
  const std::string printed = print_module(module);
  CAPTURE(printed);
  CHECK(print_module(parse_and_verify(printed, registry, "printed.mlir")) == printed);
  for (const char* line : {"%r = scf.if %c -> (i32) {", "  } else {", "    scf.if %c {\n      %unused = arith.muli %r, %r : i32\n    }\n",
                           "%sum:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %r, %t = %a) -> (i32, i32) {",
                           "      scf.yield %s : i32\n", "    } {tag}\n",
                           "    scf.for %j = %k to %k step %k : i32 {\n    }\n",
                           "%w:2 = scf.while (%p = %sum#0) : (i32) -> (i32, i32) {",
                           "      scf.condition(%lt) %p, %p : i32, i32\n    } do {\n    ^bb0(%q: i32, %q2: i32):\n",
                           "    } attributes {tag = \"w\"}\n"})
    CHECK(printed.find(line) != std::string::npos);
  // Structure: 9 regions besides the body, the ops' regions consecutive, nested parents right.
  const Function& fn = module.functions[0];
  REQUIRE(fn.regions.size() == 10);
  CHECK(fn.regions[0].parent == no_index);
  CHECK(fn.body_block_count() == 1);
  for (RegionId r = 1; r < fn.regions.size(); ++r) {
    const RegionData& region = fn.regions[r];
    REQUIRE(region.block_count == 1);
    CHECK(fn.region_of(region.first_block) == r);
    CHECK(fn.parent_op(region.first_block) == region.parent);
    const auto [first, last] = fn.regions_of(region.parent);
    CHECK((first <= r && r < last && r - first == region.index));
  }
  // The names of sibling regions are their own: two `%x`s.
  std::size_t xs = 0;
  for (ValueId v = 0; v < fn.values.size(); ++v) xs += fn.value_name(v) == "x";
  CHECK(xs == 2);
}

TEST_CASE("scf regions: scoping, labels and nesting errors carry file:line:col") {
  const std::string head = "func.func @f(%c: i1, %a: i32) -> i32 {\n";
  CHECK(error_of(head + "  scf.if %c {\n    %x = arith.addi %a, %a : i32\n  }\n  return %x : i32\n}\n") ==
        "t.mlir:5:10: error: use of undefined value '%x'");
  CHECK(error_of(head + "  scf.if %c {\n    %a = arith.addi %c, %c : i1\n  }\n  return %a : i32\n}\n") ==
        "t.mlir:3:5: error: redefinition of SSA value '%a'");
  CHECK(error_of(head + "  scf.if %c {\n    %y = arith.addi %z, %a : i32\n  }\n  %z = arith.addi %a, %a : i32\n  return %z : i32\n}\n") ==
        "t.mlir:3:21: error: use of undefined value '%z'");
  CHECK(error_of(head + "  cf.br ^bb1\n^bb1:\n  scf.if %c {\n    cf.br ^bb1\n  }\n  return %a : i32\n}\n") ==
        "t.mlir:5:11: error: reference to an undefined block '^bb1'");
  CHECK(error_of(head + "  %r = scf.for %i = %a to %a step %a iter_args(%s = %a) -> (i32, i32) : i32 {\n    scf.yield %s : i32\n  }\n  return %a : i32\n}\n") ==
        "t.mlir:2:60: error: 'scf.for' has 1 iteration argument(s) but 2 result type(s)");
  CHECK(error_of(head + "  %r = scf.for %i = %a to %a step %a : i32 {\n  ^bb0(%j: i32):\n    scf.yield\n  }\n  return %a : i32\n}\n") ==
        "t.mlir:3:7: error: the entry block takes its arguments from the op");
  std::string deep = head;
  for (int i = 0; i < 300; ++i) deep += "scf.if %c {\n";
  CHECK(error_of(deep).find("error: regions nested more than 256 deep") != std::string::npos);
  // Verifier rules of the records and of regions.
  CHECK(error_of(head + "  %r = scf.if %c -> (i32) {\n    scf.yield %a : i32\n  }\n  return %r : i32\n}\n") ==
        "t.mlir:2:8: error: 'scf.if' op must have an else region when it has results");
  CHECK(error_of(head + "  %r = scf.if %c -> (i32) {\n    scf.yield %c : i1\n  } else {\n    scf.yield %a : i32\n  }\n  return %r : i32\n}\n") ==
        "t.mlir:2:8: error: 'scf.if' op expects its then region to forward (i32), not (i1)");
  CHECK(error_of(head + "  scf.if %c {\n    return %a : i32\n  }\n  return %a : i32\n}\n") ==
        "t.mlir:3:5: error: 'func.return' op expects parent op 'func.func'");
  CHECK(error_of(head + "  scf.condition(%c)\n}\n") ==
        "t.mlir:2:3: error: 'scf.condition' op is not where its parent op expects it");
  CHECK(error_of(head + "  %r = scf.while (%x = %a) : (i32) -> i32 {\n    scf.yield %x : i32\n  } do {\n  ^bb0(%y: i32):\n    scf.yield %y : i32\n  }\n  return %r : i32\n}\n") ==
        "t.mlir:3:5: error: 'scf.yield' op is not where its parent op expects it");
}

TEST_CASE("nested modules: parsed into their own symbol tables, printed back in place") {
  const OpRegistry registry;
  const char* const source = R"(module @top attributes {top.attr} {
  "first.op"() : () -> ()
  func.func private @f() {
    return
  }
  builtin.module @m attributes {sym_visibility = "private"} {
    "in.m"() {uses = [@f]} : () -> ()
    module {
      func.func @f() {
        return
      }
    }
    func.func nested @f() {
      return
    }
  }
  module @empty {
  }
  "after.modules"() {uses = [@m::@f]} : () -> ()
}
)";
  const Module m = parse_and_verify(source, registry, "n.mlir", {.allow_unregistered_ops = true});
  REQUIRE(m.functions.size() == 3);
  REQUIRE(m.nested_modules.size() == 3);
  CHECK(m.nested_modules[0].name == "m");
  CHECK(m.nested_modules[0].attributes == "{sym_visibility = \"private\"}");
  CHECK(m.nested_modules[0].parent_module == no_index);
  CHECK(m.nested_modules[0].loc.line == 6);
  CHECK(m.nested_modules[1].name.empty());
  CHECK(m.nested_modules[1].parent_module == 0);
  CHECK(m.functions[0].parent_module == no_index);
  CHECK(m.functions[1].parent_module == 1);
  CHECK(m.functions[2].parent_module == 0);
  CHECK(m.opaque_ops[1].parent_module == 0);
  // `builtin.module` prints as `module`, as mlir-opt prints it; everything else in place.
  std::string expected = source;
  expected.replace(expected.find("builtin.module"), 14, "module");
  CHECK(print_module(m) == expected);
  CHECK(print_module(parse_and_verify(print_module(m), registry, "n2.mlir", {.allow_unregistered_ops = true})) == expected);
}

TEST_CASE("nested modules: symbols are unique per table, errors carry file:line:col") {
  // The same name in two tables is fine; twice in one table (a function and a module too) is not.
  CHECK(error_of("func.func @f() {\n  return\n}\nmodule @m {\n  func.func @f() {\n    return\n  }\n}\n") == "");
  CHECK(error_of("module @m {\n  func.func @f() {\n    return\n  }\n  func.func @f() {\n    return\n  }\n}\n") ==
        "t.mlir:5:3: error: redefinition of symbol '@f'");
  CHECK(error_of("func.func @m() {\n  return\n}\nmodule @m {\n}\n") == "t.mlir:4:8: error: redefinition of symbol '@m'");
  CHECK(error_of("module {\n  module @m {\n    func.func @f() {\n      return\n    }\n") ==
        "t.mlir:6:1: error: expected 'func.func', 'module' or '}', found end of file");
  CHECK(error_of("module {\n  module @m attributes {a} [\n  }\n}\n") ==
        "t.mlir:2:28: error: expected '{' to begin the module body, found '['");
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += "module {";
  CHECK(error_of(deep) == "t.mlir:1:2057: error: modules nested more than 256 deep");
}

TEST_CASE("function types: as value types, nested, and as results; func.constant and func.call_indirect") {
  const OpRegistry registry;
  const char* const source = R"(module {
  func.func private @ext(i32) -> i32
  func.func @make() -> ((i32) -> i32) {
    %f = func.constant {tag} @ext : (i32) -> i32
    return %f : (i32) -> i32
  }
  func.func @apply(%g: ((i32) -> i32, i32) -> (i32, i1), %f: (i32) -> i32, %x: i32) -> (i32, i1) {
    %r:2 = func.call_indirect %g(%f, %x) {note} : ((i32) -> i32, i32) -> (i32, i1)
    %u = func.call_indirect %f(%x) : (i32) -> i32
    %n = func.constant @none : () -> ()
    func.call_indirect %n() : () -> ()
    return %r#0, %r#1 : i32, i1
  }
  func.func @none() {
    return
  }
}
)";
  const Module m = parse_and_verify(source, registry, "f.mlir");
  const Function& apply = m.functions[2];
  const Type g = apply.argument_types[0];
  REQUIRE(g.is_function());
  CHECK(registry.type_name(g) == "((i32) -> i32, i32) -> (i32, i1)");
  CHECK(registry.signature(g).inputs[0] == apply.argument_types[1]);  // interned: one type per signature
  CHECK(m.functions[1].result_types[0] == apply.argument_types[1]);
  CHECK(print_module(m) == source);
  // Errors: a function type where one is needed, and its syntax.
  CHECK(error_of("func.func @f(%x: i32) {\n  %c = func.constant @f : i32\n  return\n}\n") ==
        "t.mlir:2:27: error: expected a function type, found 'i32'");
  CHECK(error_of("func.func @f(%x: (i32) i32) {\n  return\n}\n") ==
        "t.mlir:1:24: error: expected '->' in a function type, found 'i32'");
  CHECK(error_of("func.func @f(%g: (i32) -> i32, %x: i32) {\n  %r = func.call_indirect %g(%x, %x) : (i32) -> i32\n  return\n}\n") ==
        "t.mlir:2:40: error: 'func.call_indirect' has 2 argument(s) but its type lists 1");
  std::string deep = "func.func private @f(";
  for (int i = 0; i < 70; ++i) deep += "(";
  CHECK(error_of(deep) == "t.mlir:1:86: error: function types nested more than 64 deep");
}
