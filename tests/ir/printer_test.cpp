// Tests of kildall/ir/printer.hpp: printing is a fixed point of parse . print
// on random programs, names are kept, and (when Debian's mlir-opt-16 is
// installed) the real mlir-opt accepts everything the printer writes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <kildall/ir/printer.hpp>
#include <kildall/ir/verifier.hpp>

#include "mlir_opt.hpp"
#include "random_programs.hpp"

using namespace kildall::ir;
using kildall::ir::testing::find_mlir_opt;
using kildall::ir::testing::through_mlir_opt;

namespace {

std::string random_module(std::uint64_t seed) {
  testing::ProgramShape shape;
  shape.widths = {1 + static_cast<unsigned>(seed % 64), 8};
  shape.arguments = static_cast<unsigned>(seed % 3);
  shape.blocks = 2 + static_cast<unsigned>(seed % 6);
  return testing::random_program(seed, shape);
}

}  // namespace

TEST_CASE("print . parse is the identity on printed random programs") {
  const OpRegistry registry;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const Module first = parse_and_verify(random_module(seed), registry, "r.mlir");
    const std::string printed = print_module(first);
    const Module second = parse_and_verify(printed, registry, "p.mlir");
    REQUIRE(print_module(second) == printed);
    REQUIRE(second.functions[0].ops.size() == first.functions[0].ops.size());
  }
}

TEST_CASE("ValueNamer keeps source names and labels blocks") {
  const OpRegistry registry;
  const Module m = parse_and_verify("func.func @f(%x: i1) {\n  cf.br ^loop\n^loop:\n  return\n}\n", registry);
  const ValueNamer namer(m.functions[0]);
  CHECK(namer.value(0) == "%x");
  CHECK(namer.block(1) == "^loop");
  CHECK(print_op(m.functions[0], 0, registry) == "cf.br ^loop");
}

TEST_CASE("unnamed blocks get the least ^bbN no label has taken (against a search over every label)") {
  // Oracle: the set of every label in use, and a counter that skips members.
  const OpRegistry registry;
  std::string text = "func.func @f(%c: i1) {\n  cf.br ^bb0\n";
  const char* labels[] = {"bb0", "bb2", "x", "bb01", "bb3", "bbx", "bb5", "b"};
  for (int i = 0; i < 8; ++i) {
    text += std::string("^") + labels[i] + ":\n";
    text += i + 1 < 8 ? std::string("  cf.br ^") + labels[i + 1] + "\n" : std::string("  return\n");
  }
  text += "}\n";
  for (unsigned mask = 0; mask < 256; ++mask) {  // which of the 8 labelled blocks lose their label
    CAPTURE(mask);
    Module m = parse_and_verify(text, registry);
    Function& fn = m.functions[0];
    REQUIRE(fn.blocks.size() == 9);
    std::vector<std::string> used;
    for (BlockId b = 1; b < 9; ++b) {
      if (mask & (1u << (b - 1))) fn.blocks[b].name_size = 0;
      else used.emplace_back(fn.block_name(b));
    }
    const ValueNamer namer(fn);
    std::size_t counter = 0;
    for (BlockId b = 0; b < 9; ++b) {  // the unlabelled entry block takes a number too
      if (fn.blocks[b].name_size != 0) {
        CHECK(namer.block(b) == "^" + std::string(fn.block_name(b)));
        continue;
      }
      std::string expected;
      do expected = "bb" + std::to_string(counter++);
      while (std::find(used.begin(), used.end(), expected) != used.end());
      CHECK(namer.block(b) == "^" + expected);
    }
  }
}

TEST_CASE("print_function with a drain gives the same text as without, a megabyte at a time") {
  const OpRegistry registry;
  std::size_t total_drains = 0;
  for (std::uint64_t seed = 0; seed < 4; ++seed) {
    // Functions of a few megabytes of text, so that several drains happen.
    testing::ProgramShape shape;
    shape.widths = {1 + static_cast<unsigned>(seed % 64), 8};
    shape.arguments = 2;
    shape.blocks = 4000 + 3000 * static_cast<unsigned>(seed);
    const Module m = parse_and_verify(testing::random_program(seed, shape), registry, "r.mlir");
    std::string whole;
    print_function(m.functions[0], registry, whole);
    std::string drained_text;
    std::string buffer;
    std::size_t drains = 0;
    const auto drain = [&](std::string& out) {
      CHECK(out.size() >= print_drain_bytes);
      drained_text += out;
      out.clear();
      ++drains;
    };
    print_function(m.functions[0], registry, buffer, 2, drain);
    drained_text += buffer;
    CHECK(drained_text == whole);
    CHECK(drains <= whole.size() / print_drain_bytes);  // at most one drain per megabyte
    CHECK(buffer.size() < print_drain_bytes + whole.size() / 1000);  // what is left is about a block
    total_drains += drains;
  }
  CHECK(total_drains >= 4);
  // One block of ~3 MB of text: drained within the block, a line at a time.
  std::string text = "func.func @line(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n";
  for (int i = 1; i < 100000; ++i)
    text += "  %" + std::to_string(i) + " = arith.addi %" + std::to_string(i - 1) + ", %a : i32\n";
  text += "  return %99999 : i32\n}\n";
  const Module line = parse_and_verify(text, registry, "line.mlir");
  std::string whole;
  print_function(line.functions[0], registry, whole);
  REQUIRE(whole.size() > 2 * print_drain_bytes);
  std::string drained_text;
  std::string buffer;
  std::size_t drains = 0;
  print_function(line.functions[0], registry, buffer, 2, [&](std::string& out) {
    CHECK(out.size() < print_drain_bytes + 100);  // one op line past the mark at most
    drained_text += out;
    out.clear();
    ++drains;
  });
  drained_text += buffer;
  CHECK(drained_text == whole);
  CHECK(drains == whole.size() / print_drain_bytes);
  CHECK(buffer.size() < print_drain_bytes);
}

TEST_CASE("mlir-opt-16 accepts the printed output") {
  const std::string mlir_opt = find_mlir_opt();
  if (mlir_opt.empty()) {
    MESSAGE("SKIPPED: mlir-opt-16 is not installed (Debian package mlir-16-tools)");
    return;
  }
  const OpRegistry registry;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const std::string printed = print_module(parse_and_verify(random_module(seed), registry, "r.mlir"));
    CAPTURE(printed);
    CHECK(through_mlir_opt(mlir_opt, "", printed).has_value());
  }
  // Result packs, index casts and the rounding divisions, printed back.
  const char* const packs = R"(func.func @packs(%a: i32, %b: i32) -> (i32, i32, index) {
  %x, %r:2 = func.call @three(%a, %b) : (i32, i32) -> (i32, i32, i32)
  %f = arith.floordivsi %r#0, %b : i32
  %c = arith.ceildivsi %r#1, %b : i32
  %u = arith.ceildivui %x, %b : i32
  %i = arith.index_cast %f : i32 to index
  %j = arith.index_castui %c : i32 to index
  %k = arith.addi %i, %j : index
  return %u, %r#1, %k : i32, i32, index
}
func.func private @three(i32, i32) -> (i32, i32, i32)
)";
  const std::string printed = print_module(parse_and_verify(packs, registry, "packs.mlir"));
  CHECK(printed.find("%x, %r:2 = func.call") != std::string::npos);
  CAPTURE(printed);
  CHECK(through_mlir_opt(mlir_opt, "", printed).has_value());
}

TEST_CASE("mlir-opt-16 accepts printed programs with scf regions, and kildall reads its output back") {
  const std::string mlir_opt = find_mlir_opt();
  if (mlir_opt.empty()) {
    MESSAGE("SKIPPED: mlir-opt-16 is not installed (Debian package mlir-16-tools)");
    return;
  }
  const OpRegistry registry;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    testing::ProgramShape shape;
    shape.widths = {8 + static_cast<unsigned>(seed % 3) * 8};
    shape.arguments = 1 + static_cast<unsigned>(seed % 2);
    shape.blocks = 1 + static_cast<unsigned>(seed % 3);
    shape.structured = true;
    const Module module = parse_and_verify(testing::random_program(seed, shape), registry, "r.mlir");
    const std::string printed = print_module(module);
    CAPTURE(printed);
    const std::optional<std::string> theirs = through_mlir_opt(mlir_opt, "", printed);
    REQUIRE(theirs.has_value());
    CAPTURE(*theirs);
    const Module back = parse_and_verify(*theirs, registry, "mlir-opt.mlir");
    CHECK(back.functions[0].regions.size() == module.functions[0].regions.size());
    CHECK(back.functions[0].ops.size() == module.functions[0].ops.size());
  }
}

TEST_CASE("mlir-opt-16 reads the printed attribute dictionaries and unregistered ops, and kildall reads its output") {
  const std::string mlir_opt = find_mlir_opt();
  if (mlir_opt.empty()) {
    MESSAGE("SKIPPED: mlir-opt-16 is not installed (Debian package mlir-16-tools)");
    return;
  }
  const char* const source = R"(module attributes {test.mod = 1 : i64} {
  func.func private @decl(i32) -> i32 attributes {tag = "baz"}
  func.func @f(%a: i32, %c: i1) -> i32 attributes {llvm.emit_c_interface} {
    %k = arith.constant {name = "k"} 1 : i32
    %x = "foo.op"(%a, %k) {w = [1, 2]} : (i32, i32) -> i32
    %p:2 = "foo.pair"() : () -> (i32, i1)
    %s = arith.addi %x, %p#0 {tag} : i32
    %r = func.call @decl(%s) {callee_attr} : (i32) -> i32
    "foo.cond_br"(%c) [^bb1, ^bb2] : (i1) -> ()
  ^bb1:
    return {first} %r : i32
  ^bb2:
    "foo.return"(%s) : (i32) -> ()
  }
}
)";
  const OpRegistry registry;
  const auto parse = [&](const std::string& text, const char* file) {
    return parse_and_verify(text, registry, file, {.allow_unregistered_ops = true});
  };
  const std::string printed = print_module(parse(source, "attrs.mlir"));
  CAPTURE(printed);
  const std::optional<std::string> theirs = through_mlir_opt(mlir_opt, "--allow-unregistered-dialect", printed);
  REQUIRE(theirs.has_value());
  CAPTURE(*theirs);
  const Module back = parse(*theirs, "mlir-opt.mlir");  // MLIR's own spelling of the same module
  REQUIRE(back.functions.size() == 2);
  CHECK(back.functions[1].ops.size() == 8);
  CHECK(print_module(back).find("\"foo.cond_br\"(%arg1) [^bb1, ^bb2] : (i1) -> ()") != std::string::npos);
}

TEST_CASE("mlir-opt-16 prints nested modules, function types and indirect calls as kildall prints them") {
  const std::string mlir_opt = find_mlir_opt();
  if (mlir_opt.empty()) {
    MESSAGE("SKIPPED: mlir-opt-16 is not installed (Debian package mlir-16-tools)");
    return;
  }
  const char* const source = R"(module {
  "live.user"() {uses = [@m::@g]} : () -> ()
  module @m attributes {sym_visibility = "private"} {
    func.func nested @g(%x: i32) -> i32 {
      return %x : i32
    }
    module {
    }
    func.func @h(%f: (i32) -> i32, %x: i32) -> (i32, () -> ((i32) -> i32)) {
      %r = func.call_indirect %f(%x) {tag} : (i32) -> i32
      %k = func.constant @make : () -> ((i32) -> i32)
      return %r, %k : i32, () -> ((i32) -> i32)
    }
    func.func private @make() -> ((i32) -> i32) {
      %g = func.constant @g : (i32) -> i32
      return %g : (i32) -> i32
    }
  }
  func.func @g() {
    return
  }
}
)";
  const OpRegistry registry;
  const auto parse = [&](const std::string& text, const char* file) {
    return parse_and_verify(text, registry, file, {.allow_unregistered_ops = true});
  };
  const std::string printed = print_module(parse(source, "nested.mlir"));
  const std::optional<std::string> theirs = through_mlir_opt(mlir_opt, "--allow-unregistered-dialect", printed);
  const std::optional<std::string> of_source = through_mlir_opt(mlir_opt, "--allow-unregistered-dialect", source);
  REQUIRE(theirs.has_value());
  CHECK(theirs == of_source);
  // kildall reads MLIR's spelling (`constant`, `call_indirect`, `%arg0`) back to the same structure.
  const Module back = parse(*theirs, "mlir-opt.mlir");
  CHECK(back.nested_modules.size() == 2);
  CHECK(back.functions.size() == 4);
  CHECK(print_module(back).find("func.call_indirect %arg0(%arg1) {tag} : (i32) -> i32") != std::string::npos);
}
