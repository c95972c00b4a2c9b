// Tests of kildall/ir/canonicalize.hpp. Oracles: hand-derived results of each pattern (as
// mlir-opt-16 --canonicalize prints them for the same input), the interpreter (thousands of
// random programs with loops, branches, identities and regions: the same results before and
// after), and mlir-opt-16 --canonicalize on generated single-block programs (the same ops and
// the same constants) and multi-block ones (also the same blocks and block arguments); skipped
// when mlir-opt-16 is not installed. fold_greedily (the driver without patterns): hand-derived.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <kildall/ir/canonicalize.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/verifier.hpp>

#include "mlir_opt.hpp"
#include "random_programs.hpp"

using namespace kildall::ir;
using namespace kildall::ir::testing;

namespace {

std::string canonical(const std::string& text, kildall::rewrite::RewriteResult* result = nullptr) {
  const OpRegistry registry;
  Module module = parse_and_verify(text, registry, "t.mlir");
  for (Function& fn : module.functions) {
    const auto r = canonicalize(fn, registry);
    CHECK_MESSAGE(r.converged(), r.message());
    if (result) *result = r;
  }
  verify(module);
  return print_module(module);
}

// The ops of a printed module (names with cmpi's predicate) and its constants ("5 : i32"), each sorted.
struct Shape {
  std::vector<std::string> ops;
  std::vector<std::string> constants;
  friend bool operator==(const Shape&, const Shape&) = default;
};
Shape shape_of(const std::string& text) {
  const auto is_lower = [](char c) { return c >= 'a' && c <= 'z'; };
  const auto word_end = [&](std::size_t at, bool underscore) {
    while (at < text.size() && (is_lower(text[at]) || (underscore && text[at] == '_'))) ++at;
    return at;
  };
  Shape shape;
  // Each "= dialect.op rest-of-line" (cmpi keeps its predicate in the name).
  for (std::size_t at = text.find("= "); at != std::string::npos; at = text.find("= ", at + 1)) {
    const std::size_t begin = at + 2;
    const std::size_t dialect_end = word_end(begin, false);
    if (dialect_end == begin || dialect_end >= text.size() || text[dialect_end] != '.') continue;
    std::size_t end = word_end(dialect_end + 1, true);
    if (end == dialect_end + 1) continue;
    if (text.compare(dialect_end + 1, end - dialect_end - 1, "cmpi") == 0 && end < text.size() && text[end] == ' ') {
      const std::size_t predicate_end = word_end(end + 1, false);
      if (predicate_end > end + 1) end = predicate_end;
    }
    if (end >= text.size() || text[end] != ' ') continue;
    const std::size_t line_end = std::min(text.find('\n', end), text.size());
    const std::string name = text.substr(begin, end - begin);
    if (name == "arith.constant") shape.constants.push_back(text.substr(end + 1, line_end - end - 1));
    else shape.ops.push_back(name);
    at = line_end;
  }
  std::sort(shape.ops.begin(), shape.ops.end());
  std::sort(shape.constants.begin(), shape.constants.end());
  return shape;
}
// `text` (unregistered ops allowed) after `fold_greedily` on its function @f, verified; the run
// must converge.
struct GreedilyFolded {
  Module module;
  kildall::rewrite::RewriteResult result;
  std::string printed;
  [[nodiscard]] Function& f() { return module.functions[*module.find_function("f")]; }
  [[nodiscard]] bool has(std::string_view needle) const { return printed.find(needle) != std::string::npos; }
};
GreedilyFolded fold_greedily_on(const std::string& text, const OpRegistry& registry) {
  GreedilyFolded out{parse_and_verify(text, registry, "t.mlir", {.allow_unregistered_ops = true}), {}, {}};
  out.result = fold_greedily(out.f(), registry);
  CHECK_MESSAGE(out.result.converged(), out.result.message());
  verify(out.module);
  out.printed = print_module(out.module);
  return out;
}
std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& s : items) text += s + "; ";
  return text;
}

}  // namespace

TEST_CASE("add/sub with constants, constants uniqued and hoisted (as mlir-opt-16 prints it)") {
  const std::string out = canonical(R"(func.func @f(%x: i32) -> (i32, i32, i32, i32, i32, i32) {
  %c5 = arith.constant 5 : i32
  %c7 = arith.constant 7 : i32
  %a = arith.addi %x, %c5 : i32
  %b = arith.addi %a, %c7 : i32
  %m = arith.muli %c5, %x : i32
  %s = arith.subi %x, %c5 : i32
  %s2 = arith.subi %a, %c7 : i32
  %s3 = arith.subi %c7, %a : i32
  %u = arith.addi %s, %c5 : i32
  return %b, %m, %s, %s2, %s3, %u : i32, i32, i32, i32, i32, i32
})");
  CHECK(out.find("arith.addi %x, %c12_i32") != std::string::npos);   // (x + 5) + 7
  CHECK(out.find("arith.muli %x, %c5 : i32") != std::string::npos);   // constant moved right
  CHECK(out.find("arith.addi %x, %c-2_i32") != std::string::npos);   // (x + 5) - 7
  CHECK(out.find("arith.subi %c2_i32, %x") != std::string::npos);    // 7 - (x + 5)
  CHECK(out.find("return %0, %1, %s, %2, %3, %x") == std::string::npos);
  CHECK(out.find(", %x : i32, i32, i32, i32, i32, i32") != std::string::npos);  // (x - 5) + 5 = x
  CHECK(out.find("%c5_i32") == std::string::npos);  // the leading constants are the uniqued ones
  const std::string first_op = out.substr(out.find('{', out.find("func.func")) + 1, 40);
  CHECK(first_op.find("arith.constant") != std::string::npos);  // hoisted to the start
}

TEST_CASE("select, casts, xor, cond_br (as mlir-opt-16 prints it)") {
  const std::string out = canonical(R"(func.func @g(%x: i32, %y: i32, %c: i1, %d: i1) -> (i1, i1, i32, i32, i32, i1) {
  %t = arith.constant true
  %f = arith.constant false
  %s1 = arith.select %c, %t, %f : i1
  %s2 = arith.select %c, %f, %t : i1
  %e = arith.extui %x : i32 to i64
  %tr = arith.trunci %e : i64 to i32
  %n = arith.xori %c, %t : i1
  %n2 = arith.xori %n, %t : i1
  %s3 = arith.select %d, %x, %x : i32
  cf.cond_br %d, ^bb1(%x : i32), ^bb1(%x : i32)
^bb1(%z: i32):
  cf.cond_br %t, ^bb2, ^bb3
^bb2:
  return %s1, %s2, %tr, %z, %s3, %n2 : i1, i1, i32, i32, i32, i1
^bb3:
  return %s1, %s2, %tr, %z, %s3, %c : i1, i1, i32, i32, i32, i1
})");
  CHECK(out.find("arith.xori %c, %t : i1") != std::string::npos);  // select(c, false, true)
  CHECK(out.find("arith.select") == std::string::npos);
  CHECK(out.find("arith.trunci") == std::string::npos);
  CHECK(out.find("arith.extui") == std::string::npos);  // dead after trunci(extui(x)) = x
  CHECK(out.find("cf.cond_br") == std::string::npos);
  // Both branches became `cf.br`, and each target had one predecessor: one block is left.
  CHECK(out.find("cf.br") == std::string::npos);
  CHECK(out.find("^bb") == std::string::npos);
  CHECK(out.find(", %x, %x, %x, %c : i1, i1, i32, i32, i32, i1") != std::string::npos);
}

TEST_CASE("control flow: conditions propagated, blocks merged, identical blocks and one-way branches (as mlir-opt-16 prints it)") {
  const std::string out = canonical(R"(func.func @f(%c: i1, %x: i32, %y: i32) -> (i32, i1) {
  cf.cond_br %c, ^t, ^e
^t:
  cf.cond_br %c, ^t2, ^e
^t2:
  %w = arith.extui %c : i1 to i32
  %s = arith.addi %x, %w : i32
  return %s, %c : i32, i1
^e:
  return %y, %c : i32, i1
}
func.func @g(%a: i32, %b: i32, %c: i1) -> i32 {
  cf.cond_br %c, ^t, ^e
^t:
  return %a : i32
^e:
  return %b : i32
})");
  // @f: %c is true in ^t, so ^t branches to ^t2, which merges into it; then %c is true there too.
  CHECK(out.find("arith.extui") == std::string::npos);
  CHECK(out.find("arith.addi %x, %c1_i32 : i32") != std::string::npos);
  CHECK(out.find("return %s, %true") != std::string::npos);  // `%true` or `%true_N`: names are never reused
  CHECK(out.find("return %y, %false") != std::string::npos);
  // @g: the two returns are one block with an argument, entered both ways: a select.
  CHECK(out.find("arith.select %c, %a, %b : i32") != std::string::npos);
  CHECK(out.find("cf.cond_br %c, ^") == out.rfind("cf.cond_br %c, ^"));  // only @f's is left
}

TEST_CASE("ext(ext(x)) extends x directly; undefined cases do not fold; statistics name the patterns") {
  kildall::rewrite::RewriteResult result;
  const std::string out = canonical(R"(func.func @h(%x: i8) -> (i64, i32) {
  %a = arith.extsi %x : i8 to i16
  %b = arith.extsi %a : i16 to i64
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %d = arith.divui %one, %z : i32
  return %b, %d : i64, i32
})",
                                    &result);
  CHECK(out.find("arith.extsi %x : i8 to i64") != std::string::npos);
  CHECK(out.find("arith.extsi %x : i8 to i16") == std::string::npos);  // now dead
  CHECK(out.find("arith.divui %c1_i32, %c0_i32") != std::string::npos);
  CHECK(result.statistics.applications_of("extsi_of_same") == 1);
  CHECK(result.statistics.applications_of("unique_constant") == 2);
}

TEST_CASE("fold_greedily: folds, dead ops, unreachable blocks and uniqued constants, but no canonicalization pattern") {
  const OpRegistry registry;
  GreedilyFolded folded = fold_greedily_on(R"(func.func private @g(i32) -> i32
func.func @f(%a: i32, %c: i1) -> (i32, i32) {
  %k = arith.constant 7 : i32
  %unused_k = arith.constant 9 : i32
  %d1 = arith.addi %a, %k : i32
  %d2 = arith.muli %d1, %d1 : i32
  %d3 = arith.divsi %d2, %a : i32
  %call = func.call @g(%a) : (i32) -> i32
  %u = "foo.bar"(%a) : (i32) -> i32
  %k2 = arith.constant 7 : i32
  %used = arith.subi %a, %k2 : i32
  %p = arith.addi %used, %k : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %used, %p : i32, i32
^bb2:
  %e = arith.xori %a, %a : i32
  %f = arith.ori %a, %a : i32
  return %f, %e : i32, i32
^bb3:
  %g = arith.andi %a, %a : i32
  return %a, %g : i32, i32
})",
                                           registry);
  const auto has = [&folded](std::string_view needle) { return folded.has(needle); };
  const kildall::rewrite::RewriteResult& result = folded.result;
  // Dead chains go (%d3, then %d2 and %d1), and the constant nothing uses.
  for (const char* gone : {"%d1", "%d2", "%d3", "%unused_k", "%c9"}) CHECK_MESSAGE(!has(gone), gone);
  CHECK(has("%call = func.call @g(%a)"));  // a call may have effects
  CHECK(has("%u = \"foo.bar\"(%a)"));     // an unregistered op is opaque
  // The two 7s are one constant (the leading one adopted); no canonicalization pattern: (a - 7) + 7
  // stays (canonicalize makes it %a).
  CHECK(has("%k = arith.constant 7 : i32"));
  CHECK_FALSE(has("%k2"));
  CHECK(has("%used = arith.subi %a, %k : i32"));
  CHECK(has("%p = arith.addi %used, %k : i32"));
  CHECK(result.statistics.rewrites() == result.statistics.applications_of("unique_constant"));
  CHECK(result.statistics.applications_of("unique_constant") >= 1);
  // Region simplification: the unreachable block goes, and the two returns, now alike once
  // x | x folded to x and x ^ x to 0, are one block entered both ways: selects (as mlir-opt-16
  // --canonicalize prints it for this input).
  CHECK_FALSE(has("arith.andi"));
  CHECK_FALSE(has("cf.cond_br"));
  CHECK(has("arith.select %c, %used, %a : i32"));
  CHECK(has("arith.select %c, %p, %c0_i32 : i32"));
  CHECK(result.statistics.region_simplifications > 0);
  // A fixed point: a second run changes nothing.
  CHECK_FALSE(fold_greedily(folded.f(), registry).statistics.changed());
  CHECK(print_module(folded.module) == folded.printed);
}

TEST_CASE("fold_greedily: an op owning regions goes when every op in them has no effect") {
  const OpRegistry registry;
  const GreedilyFolded folded = fold_greedily_on(R"(func.func private @g(i32) -> i32
func.func @f(%a: i32, %c: i1) -> i32 {
  %k = arith.constant 3 : i32
  %pure = scf.if %c -> (i32) {
    %x = arith.addi %a, %k : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %calls = scf.if %c -> (i32) {
    %y = func.call @g(%a) : (i32) -> i32
    scf.yield %y : i32
  } else {
    scf.yield %a : i32
  }
  %opaque = scf.if %c -> (i32) {
    %z = "foo.bar"(%a) : (i32) -> i32
    scf.yield %z : i32
  } else {
    scf.yield %a : i32
  }
  return %a : i32
})",
                                                 registry);
  const auto has = [&folded](std::string_view needle) { return folded.has(needle); };
  CHECK_FALSE(has("%pure"));
  CHECK_FALSE(has("%x = "));
  CHECK_FALSE(has("arith.constant 3"));  // its only user was %x
  CHECK(has("%calls = scf.if"));         // a call inside: kept
  CHECK(has("%opaque = scf.if"));        // an unregistered op inside: kept
}

TEST_CASE("canonicalize keeps every result on thousands of random programs (interpreter)") {
  const OpRegistry registry;
  std::mt19937_64 rng(42);
  std::size_t removed = 0;
  for (std::uint64_t seed = 0; seed < 2000; ++seed) {
    ProgramShape shape;
    shape.widths = {1 + static_cast<unsigned>(seed % 6), 8};
    shape.arguments = static_cast<unsigned>(seed % 3);
    shape.identities = seed % 2 == 0;
    shape.structured = seed % 5 == 0;
    const std::string text = random_program(seed, shape);
    const Module original = parse_and_verify(text, registry, "random.mlir");
    Module rewritten = parse_and_verify(text, registry, "random.mlir");
    const auto result = canonicalize(rewritten.functions[0], registry);
    REQUIRE_MESSAGE(result.converged(), result.message() << "\n" << text);
    removed += result.statistics.erased;
    verify(rewritten);
    const std::string printed = print_module(rewritten);
    const Module reparsed = parse_and_verify(printed, registry, "canonical.mlir");
    CHECK_MESSAGE(print_module(reparsed) == printed, "printing is a fixed point");
    const auto tuples = input_tuples(original.functions[0], 8, 24, rng);
    CHECK_MESSAGE(!first_difference(original, reparsed, tuples, 300).has_value(),
                  "canonicalize changed a result\n" << text << "\n--- canonical ---\n" << printed);
    // A second run finds nothing more to do.
    const auto again = canonicalize(rewritten.functions[0], registry);
    CHECK_MESSAGE(again.statistics.rewrites() + again.statistics.folds + again.statistics.erased == 0,
                  "not a fixpoint\n" << printed);
  }
  CHECK(removed > 1000);
}

TEST_CASE("the same ops and constants as mlir-opt-16 --canonicalize on generated single-block programs") {
  const std::string mlir_opt = find_mlir_opt();
  if (mlir_opt.empty()) {
    MESSAGE("SKIPPED: mlir-opt-16 is not installed (Debian package mlir-16-tools)");
    return;
  }
  std::size_t compared = 0, same = 0;
  std::map<std::string, std::size_t> differences;
  for (std::uint64_t seed = 0; seed < 80; ++seed) {
    ProgramShape shape;
    shape.widths = {2 + static_cast<unsigned>(seed % 30), 16};
    shape.arguments = 1 + static_cast<unsigned>(seed % 3);
    shape.blocks = 1;
    shape.ops_per_block = 12;
    shape.identities = seed % 2 == 0;
    const std::string text = random_program(seed, shape);
    const std::string ours = canonical(text);
    const std::optional<std::string> theirs = through_mlir_opt(mlir_opt, "--canonicalize", text);
    REQUIRE_MESSAGE(theirs.has_value(), text);
    ++compared;
    const Shape a = shape_of(ours), b = shape_of(*theirs);
    if (a == b) ++same;
    else
      MESSAGE("seed " << seed << " differs:\nkildall:   " << joined(a.ops) << "| " << joined(a.constants)
                      << "\nmlir-opt:  " << joined(b.ops) << "| " << joined(b.constants) << "\n" << text);
  }
  MESSAGE("canonicalize: " << same << " of " << compared << " generated programs identical to mlir-opt-16");
  CHECK(same == compared);
}

namespace {

// The blocks of a printed function and their arguments ("^bb1(%x: i32)" has one), comments dropped.
struct BlockShape {
  std::size_t blocks = 0;
  std::size_t arguments = 0;
  friend bool operator==(const BlockShape&, const BlockShape&) = default;
};
BlockShape block_shape_of(const std::string& text) {
  BlockShape shape;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string line = text.substr(at, end - at);
    at = end + 1;
    line = line.substr(0, line.find("//"));
    const std::size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos || line[first] != '^') continue;
    ++shape.blocks;
    const std::size_t open = line.find('('), close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    line = line.substr(open, close - open);
    for (std::size_t p = line.find(": "); p != std::string::npos; p = line.find(": ", p + 1)) ++shape.arguments;
  }
  return shape;
}

}  // namespace

TEST_CASE("the same blocks, block arguments and ops as mlir-opt-16 --canonicalize on generated multi-block programs") {
  const std::string mlir_opt = find_mlir_opt();
  if (mlir_opt.empty()) {
    MESSAGE("SKIPPED: mlir-opt-16 is not installed (Debian package mlir-16-tools)");
    return;
  }
  std::size_t compared = 0, same = 0, fewer_ops = 0;
  for (std::uint64_t seed = 0; seed < 150; ++seed) {
    ProgramShape shape;
    shape.widths = {2 + static_cast<unsigned>(seed % 30), 16};
    shape.arguments = 1 + static_cast<unsigned>(seed % 3);
    shape.blocks = 2 + static_cast<unsigned>(seed % 7);
    shape.ops_per_block = 3 + static_cast<unsigned>(seed % 5);
    shape.identities = seed % 2 == 0;
    const std::string text = random_program(1000 + seed, shape);
    const std::string ours = canonical(text);
    const std::optional<std::string> theirs = through_mlir_opt(mlir_opt, "--canonicalize", text);
    REQUIRE_MESSAGE(theirs.has_value(), text);
    ++compared;
    const Shape a = shape_of(ours), b = shape_of(*theirs);
    const BlockShape ab = block_shape_of(ours), bb = block_shape_of(*theirs);
    CHECK_MESSAGE(ab == bb, "seed " << seed << ": " << ab.blocks << " blocks, " << ab.arguments << " arguments; mlir-opt "
                                    << bb.blocks << ", " << bb.arguments << "\n" << text << "\n--- kildall ---\n" << ours
                                    << "\n--- mlir-opt ---\n" << *theirs);
    if (a == b && ab == bb) {
      ++same;
      continue;
    }
    // Otherwise kildall may only have folded more (e.g. `(x ^ -1) | x` to -1, which MLIR 16 keeps).
    CHECK_MESSAGE(a.ops.size() < b.ops.size(), "seed " << seed << " differs:\nkildall:   " << joined(a.ops) << "| "
                                                       << joined(a.constants) << "\nmlir-opt:  " << joined(b.ops) << "| "
                                                       << joined(b.constants) << "\n" << text);
    fewer_ops += a.ops.size() < b.ops.size();
  }
  MESSAGE("canonicalize, multi-block: " << same << " of " << compared << " identical to mlir-opt-16, " << fewer_ops
                                        << " with fewer ops");
  CHECK(same * 10 >= compared * 9);
}
