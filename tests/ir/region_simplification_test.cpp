// Tests of kildall/ir/region_simplification.hpp. Oracles: hand-derived results of each step (the
// blocks and ops left, the counts), the verifier and a print/parse fixed point on every result,
// and the interpreter (random programs with loops, block arguments and regions compute the same
// results after `simplify_regions` alone, repeated to its fixpoint); a scratch reused across calls
// against fresh arrays for each call.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include <kildall/ir/printer.hpp>
#include <kildall/ir/region_simplification.hpp>
#include <kildall/ir/verifier.hpp>

#include "random_programs.hpp"

using namespace kildall::ir;
using namespace kildall::ir::testing;

namespace {

// `text` with `simplify_regions` applied once to each function; `counts` gets the last one's.
std::string simplified(const std::string& text, RegionSimplificationCounts* counts = nullptr) {
  const OpRegistry registry;
  Module module = parse_and_verify(text, registry, "t.mlir");
  for (Function& fn : module.functions) {
    const RegionSimplificationCounts c = simplify_regions(fn, registry);
    if (counts) *counts = c;
  }
  verify(module);
  const std::string printed = print_module(module);
  const Module reparsed = parse_and_verify(printed, registry, "simplified.mlir");
  CHECK_MESSAGE(print_module(reparsed) == printed, "printing is a fixed point");
  return printed;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("unreachable blocks go with their ops and the regions of those ops") {
  RegionSimplificationCounts counts;
  const std::string out = simplified(R"(func.func @f(%x: i32, %c: i1) -> i32 {
  cf.br ^exit(%x : i32)
^dead(%y: i32):
  %r = scf.if %c -> (i32) {
    %s = arith.addi %y, %y : i32
    scf.yield %s : i32
  } else {
    scf.yield %y : i32
  }
  cf.br ^exit(%r : i32)
^exit(%z: i32):
  return %z : i32
})",
                                     &counts);
  CHECK(counts.blocks_erased == 1);
  CHECK_FALSE(has(out, "scf.if"));
  CHECK_FALSE(has(out, "arith.addi"));
  // ^exit then had one predecessor, the entry's `cf.br`: it was merged into the entry.
  CHECK(counts.blocks_merged == 1);
  CHECK(has(out, "return %x : i32"));
  CHECK_FALSE(has(out, "^"));
}

TEST_CASE("a branch goes past a block that only branches on, its arguments substituted") {
  RegionSimplificationCounts counts;
  const std::string out = simplified(R"(func.func @f(%x: i32, %y: i32, %c: i1) -> i32 {
  cf.cond_br %c, ^hop(%x : i32), ^other
^hop(%h: i32):
  cf.br ^join(%h, %y : i32, i32)
^other:
  cf.br ^join(%y, %x : i32, i32)
^join(%a: i32, %b: i32):
  %s = arith.subi %a, %b : i32
  return %s : i32
})",
                                     &counts);
  CHECK(counts.branches_forwarded == 2);  // both successors of the cond_br
  // The bypassed blocks went at once, so in the same call the cond_br, now
  // `cf.cond_br %c, ^join(%x, %y), ^join(%y, %x)` into a block only it enters, forwards
  // selects, and ^join, left with one predecessor, is merged into the entry.
  CHECK(counts.branches_simplified == 1);
  CHECK(counts.blocks_merged == 1);
  CHECK(has(out, "arith.select %c, %x, %y : i32"));
  CHECK(has(out, "arith.select %c, %y, %x : i32"));
  CHECK_FALSE(has(out, "^"));
}

TEST_CASE("a chain of blocks with one predecessor each becomes one block") {
  RegionSimplificationCounts counts;
  const std::string out = simplified(R"(func.func @f(%x: i32) -> i32 {
  %one = arith.constant 1 : i32
  cf.br ^a(%x : i32)
^a(%p: i32):
  %q = arith.addi %p, %one : i32
  cf.br ^b(%q : i32)
^b(%r: i32):
  %s = arith.muli %r, %r : i32
  cf.br ^c
^c:
  return %s : i32
})",
                                     &counts);
  CHECK(counts.blocks_merged == 3);
  CHECK_FALSE(has(out, "^"));
  CHECK(has(out, "arith.addi %x, %one : i32"));
  CHECK(has(out, "arith.muli %q, %q : i32"));
}

TEST_CASE("dead code dies through loop-carried block arguments; what is used stays") {
  RegionSimplificationCounts counts;
  const std::string out = simplified(R"(func.func @f(%n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %unused = arith.muli %n, %n : i32
  cf.br ^loop(%zero, %zero : i32, i32)
^loop(%i: i32, %junk: i32):
  %more = arith.cmpi slt, %i, %n : i32
  %next = arith.addi %i, %one : i32
  %junk2 = arith.xori %junk, %next : i32
  cf.cond_br %more, ^loop(%next, %junk2 : i32, i32), ^done
^done:
  return %i : i32
})",
                                     &counts);
  CHECK(counts.arguments_erased == 1);
  CHECK(counts.ops_erased == 2);  // %unused, %junk2
  CHECK(has(out, "^loop(%i: i32):"));
  CHECK_FALSE(has(out, "%junk"));
  CHECK_FALSE(has(out, "%unused"));
  CHECK(has(out, "cf.cond_br %more, ^loop(%next : i32), ^done"));
}

TEST_CASE("the arguments of a region's entry block stay, used or not") {
  const std::string out = simplified(R"(func.func @f(%x: i32, %unused: i32, %lb: index, %ub: index, %step: index) -> i32 {
  %r = scf.for %iv = %lb to %ub step %step iter_args(%acc = %x) -> (i32) {
    %dead = arith.addi %acc, %acc : i32
    scf.yield %acc : i32
  }
  return %r : i32
})");
  CHECK(has(out, "%unused: i32"));
  CHECK(has(out, "iter_args(%acc = %x)"));
  CHECK_FALSE(has(out, "%dead"));
}

TEST_CASE("identical blocks merge, the differing operand becoming an argument; one-way branches become selects") {
  const OpRegistry registry;
  const std::string text = R"(func.func @f(%a: i32, %b: i32, %c: i1) -> i32 {
  cf.cond_br %c, ^t, ^e
^t:
  %s = arith.addi %a, %a : i32
  return %s : i32
^e:
  %u = arith.addi %b, %b : i32
  return %u : i32
})";
  Module module = parse_and_verify(text, registry, "t.mlir");
  Function& fn = module.functions[0];
  std::uint64_t identical = 0, simplified_branches = 0, calls = 0;
  for (RegionSimplificationCounts c; (c = simplify_regions(fn, registry)).total() != 0 && calls < 10; ++calls) {
    identical += c.identical_blocks_merged;
    simplified_branches += c.branches_simplified;
  }
  CHECK(calls < 10);
  CHECK(identical == 1);
  CHECK(simplified_branches == 1);  // cond_br %c, ^t(%a), ^t(%b) -> br ^t(select)
  verify(module);
  const std::string out = print_module(module);
  CHECK(has(out, "arith.select %c, %a, %b : i32"));
  CHECK(count_of(out, "arith.addi") == 1);
  CHECK_FALSE(has(out, "^"));
  std::mt19937_64 rng(7);
  const Module original = parse_and_verify(text, registry, "t.mlir");
  CHECK_FALSE(first_difference(original, module, input_tuples(original.functions[0], 8, 64, rng), 100).has_value());
}

TEST_CASE("a branch on a condition its only predecessor decided, and the condition inside its successors") {
  RegionSimplificationCounts counts;
  // ^t has one predecessor, the entry's branch on %c to it: %c is true there (its `cf.cond_br`
  // reads %true, which canonicalize's constant-branch pattern then folds); ^e has two.
  const std::string out = simplified(R"(func.func @f(%c: i1, %x: i32, %y: i32) -> (i32, i1) {
  cf.cond_br %c, ^t, ^e
^t:
  cf.cond_br %c, ^t2, ^e
^t2:
  %w = arith.extui %c : i1 to i32
  %s = arith.addi %x, %w : i32
  return %s, %c : i32, i1
^e:
  return %y, %c : i32, i1
})",
                                     &counts);
  CHECK(counts.branches_simplified == 1);
  CHECK(has(out, "cf.cond_br %true, ^t2, ^e"));
  CHECK(has(out, "return %y, %c : i32, i1"));
  // A branch on the condition its only predecessor branched on is decided (^t is laid out
  // before that predecessor, so the rule meets it before the condition is propagated).
  const std::string decided = simplified(R"(func.func @g(%c: i1, %x: i32, %y: i32) -> i32 {
  cf.br ^p
^t:
  cf.cond_br %c, ^v, ^e
^p:
  cf.cond_br %c, ^t, ^e
^v:
  %s = arith.addi %x, %x : i32
  return %s : i32
^e:
  return %y : i32
})",
                                         &counts);
  CHECK(counts.branches_simplified == 1);
  CHECK(count_of(decided, "cf.cond_br") == 1);
  CHECK(has(decided, "return %s : i32"));
  CHECK(has(decided, "return %y : i32"));
}

TEST_CASE("simplify_regions alone keeps every result on random programs, and reaches a fixpoint") {
  const OpRegistry registry;
  std::mt19937_64 rng(11);
  RegionSimplificationCounts all;
  for (std::uint64_t seed = 0; seed < 1500; ++seed) {
    ProgramShape shape;
    shape.widths = {1 + static_cast<unsigned>(seed % 5), 8};
    shape.arguments = static_cast<unsigned>(seed % 3);
    shape.blocks = 1 + static_cast<unsigned>(seed % 8);
    shape.identities = seed % 2 == 0;
    shape.structured = seed % 4 == 0;
    const std::string text = random_program(seed, shape);
    const Module original = parse_and_verify(text, registry, "random.mlir");
    Module module = parse_and_verify(text, registry, "random.mlir");
    std::size_t calls = 0;
    for (RegionSimplificationCounts c; (c = simplify_regions(module.functions[0], registry)).total() != 0; ++calls) {
      REQUIRE_MESSAGE(calls < 20, "no fixpoint\n" << text);
      all.blocks_erased += c.blocks_erased;
      all.branches_forwarded += c.branches_forwarded;
      all.branches_simplified += c.branches_simplified;
      all.blocks_merged += c.blocks_merged;
      all.ops_erased += c.ops_erased;
      all.arguments_erased += c.arguments_erased;
      all.identical_blocks_merged += c.identical_blocks_merged;
    }
    verify(module);
    const std::string printed = print_module(module);
    const Module reparsed = parse_and_verify(printed, registry, "simplified.mlir");
    CHECK_MESSAGE(print_module(reparsed) == printed, "printing is a fixed point");
    const auto tuples = input_tuples(original.functions[0], 8, 24, rng);
    CHECK_MESSAGE(!first_difference(original, reparsed, tuples, 300).has_value(),
                  "simplify_regions changed a result\n" << text << "\n--- simplified ---\n" << printed);
  }
  // Every step had work on these programs.
  CHECK(all.blocks_erased > 0);
  CHECK(all.branches_forwarded > 0);
  CHECK(all.branches_simplified > 0);
  CHECK(all.blocks_merged > 0);
  CHECK(all.ops_erased > 0);
  CHECK(all.arguments_erased > 0);
  CHECK(all.identical_blocks_merged > 0);
}

TEST_CASE("a cond_br decided into a br still enters its successor: the other one's single-edge reasoning waits") {
  // ^a's only predecessor is the entry's true edge on the same condition, so ^a's cond_br
  // becomes `cf.br ^b`. That br is new: ^b's edges, collected before, must not then count the
  // entry's false edge as ^b's only one (it would decide ^b's cond_br false, returning %y where
  // the function returns %x; found by the differential test of int-range-optimizations).
  const OpRegistry registry;
  const std::string text = R"(func.func @f(%x: i32, %y: i32) -> i32 {
  %t = arith.constant true
  cf.cond_br %t, ^a, ^b
^a:
  cf.cond_br %t, ^b, ^exit(%y : i32)
^b:
  cf.cond_br %t, ^exit(%x : i32), ^exit(%y : i32)
^exit(%r: i32):
  return %r : i32
})";
  const Module original = parse_and_verify(text, registry, "t.mlir");
  Module module = parse_and_verify(text, registry, "t.mlir");
  for (int calls = 0; simplify_regions(module.functions[0], registry).total() != 0; ++calls) REQUIRE(calls < 20);
  verify(module);
  const Module reparsed = parse_and_verify(print_module(module), registry, "simplified.mlir");
  std::mt19937_64 rng(7);
  const auto tuples = input_tuples(original.functions[0], 8, 8, rng);
  CHECK_MESSAGE(!first_difference(original, reparsed, tuples, 100).has_value(), print_module(module));
}

TEST_CASE("one scratch reused from call to call and function to function gives what fresh arrays give") {
  // The oracle: the same calls, each in arrays of its own. One scratch serves every call on
  // programs of different sizes (larger and smaller than the last), as the greedy driver's does.
  const OpRegistry registry;
  RegionSimplificationScratch scratch;
  std::size_t calls = 0;
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    ProgramShape shape;
    shape.widths = {1 + static_cast<unsigned>(seed % 5), 8};
    shape.arguments = static_cast<unsigned>(seed % 3);
    shape.blocks = 1 + static_cast<unsigned>((seed * 7) % 9);
    shape.identities = seed % 2 == 0;
    shape.structured = seed % 4 == 0;
    const std::string text = random_program(seed, shape);
    Module fresh = parse_and_verify(text, registry, "random.mlir");
    Module reused = parse_and_verify(text, registry, "random.mlir");
    Rewriter rewriter(reused.functions[0]);
    for (int call = 0; call < 20; ++call) {
      const RegionSimplificationCounts a = simplify_regions(fresh.functions[0], registry);
      const RegionSimplificationCounts b = simplify_regions(reused.functions[0], registry, rewriter, scratch);
      ++calls;
      REQUIRE_MESSAGE(a.total() == b.total(), text);
      CHECK(a.ops_erased == b.ops_erased);
      CHECK(a.arguments_erased == b.arguments_erased);
      CHECK(a.blocks_merged == b.blocks_merged);
      REQUIRE_MESSAGE(print_module(fresh) == print_module(reused), text);
      if (a.total() == 0) break;
    }
  }
  CHECK(calls > 300);
}
