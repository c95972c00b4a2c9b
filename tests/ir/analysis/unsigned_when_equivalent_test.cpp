// Tests of kildall/ir/analysis/unsigned_when_equivalent.hpp. Oracles: the interpreter (random
// programs, all or many random inputs: the same results before and after), hand-written
// functions whose conversions follow from the ranges by hand, and mlir-opt-16's
// --arith-unsigned-when-equivalent on generated programs (the same ops and predicates in the
// same order; skipped when mlir-opt-16 is not installed).
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <kildall/ir/analysis/unsigned_when_equivalent.hpp>
#include <kildall/ir/assume.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/verifier.hpp>

#include "../mlir_opt.hpp"
#include "../random_programs.hpp"

using namespace kildall::ir;
using namespace kildall::ir::testing;

namespace {

std::string convert(const std::string& text, const OpRegistry& registry, std::size_t* converted = nullptr) {
  Module module = parse_and_verify(text, registry, "t.mlir");
  std::size_t total = 0;
  for (Function& fn : module.functions) {
    if (fn.is_declaration()) continue;
    const IntRangeAnalysis ranges(fn, &registry);
    total += apply_arith_unsigned_when_equivalent(fn, ranges);
  }
  verify(module);
  if (converted) *converted = total;
  return print_module(module);
}

// The `arith` ops of a printed module in order, with cmpi's predicate: "divui", "cmpi ult", ...
std::vector<std::string> arith_ops(const std::string& text) {
  const auto is_lower = [](char c) { return c >= 'a' && c <= 'z'; };
  const auto word_end = [&](std::size_t at, bool underscore) {
    while (at < text.size() && (is_lower(text[at]) || (underscore && text[at] == '_'))) ++at;
    return at;
  };
  std::vector<std::string> ops;
  for (std::size_t at = text.find("arith."); at != std::string::npos; at = text.find("arith.", at)) {
    const std::size_t begin = at + 6;
    std::size_t end = word_end(begin, true);
    at = end;
    if (end == begin) continue;
    std::string name = text.substr(begin, end - begin);
    if (name == "cmpi" && end < text.size() && text[end] == ' ') {
      const std::size_t predicate_end = word_end(end + 1, false);
      if (predicate_end > end + 1) name = text.substr(begin, predicate_end - begin), at = predicate_end;
    }
    if (name != "constant") ops.push_back(name);
  }
  return ops;
}

// The unsigned form of an op as `arith_ops` spells it ("divsi" -> "divui", "cmpi slt" -> "cmpi ult").
std::string unsigned_form(const std::string& op) {
  for (const UnsignedEquivalent& e : unsigned_equivalents) {
    const std::string from = OpRegistry::builtins().op(code_of(e.signed_op)).name.substr(6);
    if (op == from) return OpRegistry::builtins().op(code_of(e.unsigned_op)).name.substr(6);
  }
  if (op.size() == 8 && op.compare(0, 6, "cmpi s") == 0) return "cmpi u" + op.substr(6);
  return op;
}

// A comparison with its operands swapped, as the fold that moves a constant right writes it.
std::string swapped_form(const std::string& op) {
  if (op.compare(0, 5, "cmpi ") != 0) return op;
  return "cmpi " + std::string(predicate_name(swapped_predicate(*parse_predicate(op.substr(5)))));
}

// Whether every block of `fn` (no regions) is reachable from the entry.
bool all_blocks_reachable(const Function& fn) {
  std::vector<bool> seen(fn.blocks.size(), false);
  std::vector<BlockId> stack{0};
  seen[0] = true;
  while (!stack.empty()) {
    const BlockId b = stack.back();
    stack.pop_back();
    for (const Successor& s : fn.successors_of(fn.terminator(b)))
      if (!seen[s.block]) {
        seen[s.block] = true;
        stack.push_back(s.block);
      }
  }
  return std::find(seen.begin(), seen.end(), false) == seen.end();
}

}  // namespace

TEST_CASE("signed ops on operands proved non-negative become unsigned; others stay") {
  const OpRegistry registry;
  std::size_t converted = 0;
  const std::string out = convert(R"(func.func @f(%a: i8, %b: i32) -> (i32, i32, i32, i1, i1, i64, i32, i32) {
  %x = arith.extui %a : i8 to i32
  %c3 = arith.constant 3 : i32
  %d = arith.divsi %x, %c3 : i32
  %f = arith.floordivsi %x, %c3 : i32
  %r = arith.remsi %b, %c3 : i32
  %lt = arith.cmpi slt, %x, %c3 : i32
  %eq = arith.cmpi sge, %b, %c3 : i32
  %w = arith.extsi %x : i32 to i64
  %m = arith.maxsi %x, %b : i32
  %n = arith.minsi %x, %c3 : i32
  return %d, %f, %r, %lt, %eq, %w, %m, %n : i32, i32, i32, i1, i1, i64, i32, i32
})",
                                  registry, &converted);
  CHECK(out.find("%d = arith.divui %x, %c3") != std::string::npos);
  CHECK(out.find("%f = arith.divui %x, %c3") != std::string::npos);  // floordivsi -> divui, as MLIR
  CHECK(out.find("%r = arith.remsi %b, %c3") != std::string::npos);  // %b may be negative
  CHECK(out.find("%lt = arith.cmpi ult, %x, %c3") != std::string::npos);
  CHECK(out.find("%eq = arith.cmpi sge, %b, %c3") != std::string::npos);
  CHECK(out.find("%w = arith.extui %x") != std::string::npos);
  CHECK(out.find("%m = arith.maxsi %x, %b") != std::string::npos);
  CHECK(out.find("%n = arith.minui %x, %c3") != std::string::npos);
  CHECK(converted == 5);
}

TEST_CASE("kildall.assume: the asserted bounds are trusted") {
  OpRegistry registry;
  (void)add_assume_op(registry);
  const std::string text = R"(func.func @f(%a: i32) -> (i32, i32) {
  %lo = arith.constant 0 : i32
  %hi = arith.constant 100 : i32
  %y = kildall.assume %a in [%lo, %hi] : i32
  %c7 = arith.constant 7 : i32
  %r = arith.remsi %y, %c7 : i32
  %s = arith.remsi %a, %c7 : i32
  return %r, %s : i32, i32
})";
  const Module original = parse_and_verify(text, registry, "t.mlir");
  CHECK(IntRangeAnalysis(original.functions[0], &registry).describe(3) == "[0, 100] u[0, 100]");
  const std::string out = convert(text, registry);
  CHECK(out.find("%r = arith.remui %y, %c7") != std::string::npos);
  CHECK(out.find("%s = arith.remsi %a, %c7") != std::string::npos);
}

TEST_CASE("an op of a user's dialect states its result range (stated_range)") {
  OpRegistry registry;
  OpDefinition thread_id;
  thread_id.name = "gpu.tid";
  thread_id.format = OpFormat::custom;
  thread_id.parse = [](OpAsmParser& p, OperationState& state) {
    p.expect(TokenKind::colon);
    state.result_types.push_back(p.parse_type());
  };
  thread_id.print = [](OpAsmPrinter& p, const Function& fn, OpId op) {
    p << " : ";
    p.print_type(fn.values[fn.result(op)].type);
  };
  thread_id.infer_ranges = stated_range(0, 1023);
  (void)registry.add_op(std::move(thread_id));
  const std::string out = convert(R"(func.func @f() -> (index, index) {
  %t = gpu.tid : index
  %c32 = arith.constant 32 : index
  %q = arith.divsi %t, %c32 : index
  %n = arith.constant -32 : index
  %p = arith.divsi %t, %n : index
  return %q, %p : index, index
})",
                                  registry);
  CHECK(out.find("%q = arith.divui %t, %c32") != std::string::npos);
  CHECK(out.find("%p = arith.divsi %t, %n") != std::string::npos);  // a negative operand
}

TEST_CASE("the conversion keeps every result on random programs (interpreter)") {
  const OpRegistry registry;
  std::mt19937_64 rng(3);
  std::size_t converted_total = 0;
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    ProgramShape shape;
    shape.widths = {1 + static_cast<unsigned>(seed % 5), 8};
    shape.structured = seed % 4 == 0;
    const std::string text = random_program(seed, shape);
    const Module original = parse_and_verify(text, registry, "random.mlir");
    std::size_t converted = 0;
    const std::string out = convert(text, registry, &converted);
    converted_total += converted;
    const Module rewritten = parse_and_verify(out, registry, "rewritten.mlir");
    const auto tuples = input_tuples(original.functions[0], 10, 40, rng);
    CHECK_MESSAGE(!first_difference(original, rewritten, tuples, 300).has_value(),
                  "conversion changed a result\n" << text << "\n--- converted ---\n" << out);
  }
  CHECK(converted_total > 100);  // the programs exercise the rewrite
}

TEST_CASE("the same conversions as mlir-opt-16 --arith-unsigned-when-equivalent on generated programs") {
  const std::string mlir_opt = find_mlir_opt();
  if (mlir_opt.empty()) {
    MESSAGE("SKIPPED: mlir-opt-16 is not installed (Debian package mlir-16-tools)");
    return;
  }
  const OpRegistry registry;
  std::size_t compared = 0, same = 0;
  for (std::uint64_t seed = 0; seed < 2000 && compared < 60; ++seed) {
    ProgramShape shape;
    shape.widths = {2 + static_cast<unsigned>(seed % 7), 16};
    shape.backward_branches = seed % 3 != 0;
    const std::string text = random_program(seed, shape);
    // MLIR 16's conversion fails on unreachable blocks ("unreachable blocks were not converted").
    if (!all_blocks_reachable(parse_and_verify(text, registry, "random.mlir").functions[0])) continue;
    const std::string ours = convert(text, registry);
    const std::optional<std::string> theirs = through_mlir_opt(mlir_opt, "--arith-unsigned-when-equivalent", text);
    REQUIRE_MESSAGE(theirs.has_value(), text);
    ++compared;
    const std::vector<std::string> a = arith_ops(ours), b = arith_ops(*theirs);
    if (a == b) {
      ++same;
      continue;
    }
    // Where they differ, kildall's ranges proved more (e.g. the exact wrapped sum of two constants,
    // where MLIR 16's inferAdd gives up on overflow): each difference is an op MLIR left signed
    // that kildall converted, never the other way.
    REQUIRE_MESSAGE(a.size() == b.size(), ours << "\n--- mlir-opt-16 ---\n" << *theirs);
    for (std::size_t i = 0; i < a.size(); ++i)
      CHECK_MESSAGE((a[i] == b[i] || a[i] == unsigned_form(b[i]) || a[i] == unsigned_form(swapped_form(b[i]))), "seed " << seed << ": kildall " << a[i]
                                                                          << ", mlir-opt-16 " << b[i]);
  }
  MESSAGE("arith-unsigned-when-equivalent: " << same << " of " << compared
                                              << " generated programs identical to mlir-opt-16, the others convert more");
  CHECK(compared == 60);
  CHECK(same * 10 >= compared * 9);
}
