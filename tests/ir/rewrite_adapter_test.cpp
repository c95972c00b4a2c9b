// Tests of kildall/ir/rewrite_adapter.hpp. Oracles: use lists recounted from the operand array
// after each mutation (random mutation sequences and region simplifications included), the
// printed text of small folded functions, and the interpreter: folding random programs with the
// generic greedy driver (no patterns) keeps every result, bodies compacted on the way included.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>

#include <kildall/ir/interpreter.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/rewrite_adapter.hpp>
#include <kildall/ir/verifier.hpp>
#include <kildall/rewrite/greedy_driver.hpp>

#include "random_programs.hpp"

using namespace kildall::ir;
using namespace kildall::ir::testing;

namespace {

// The adapter's use lists equal the uses counted from the live ops' operands.
void check_use_lists(const RewriteAdapter& ir) {
  const Function& fn = ir.function();
  std::vector<std::vector<OpId>> expected(fn.values.size());
  for (BlockId b = 0; b < fn.blocks.size(); ++b) {
    if (fn.in_erased_region(b)) continue;
    for (const OpId op : fn.ops_of(b))
      for (const ValueId v : fn.operands_of(op)) expected[v].push_back(op);
  }
  for (ValueId v = 0; v < fn.values.size(); ++v) {
    const auto users = ir.users(v);
    std::vector<OpId> got(users.begin(), users.end());
    CHECK(ir.use_count(v) == got.size());
    std::sort(got.begin(), got.end());
    std::sort(expected[v].begin(), expected[v].end());
    CHECK_MESSAGE(got == expected[v], "use list of value " << v);
  }
}

std::string fold_only(std::string_view text) {
  const OpRegistry registry;
  Module module = parse_and_verify(text, registry, "t.mlir");
  RewriteAdapter ir(module.functions[0], registry);
  const kildall::rewrite::PatternSet<RewriteAdapter> none;
  const auto result = kildall::rewrite::apply_patterns_greedily(ir, none);
  CHECK(result.converged());
  check_use_lists(ir);
  verify(module);
  return print_module(module);
}

}  // namespace

TEST_CASE("the adapter models the rewrite concepts") {
  static_assert(kildall::rewrite::FoldableIr<RewriteAdapter>);
  static_assert(kildall::rewrite::WorklistIr<RewriteAdapter>);
  static_assert(kildall::rewrite::IndexedOps<RewriteAdapter>);
}

TEST_CASE("use lists, replacement and erasure") {
  const OpRegistry registry;
  Module module = parse_and_verify(R"(func.func @f(%a: i32, %b: i32) -> i32 {
  %s = arith.addi %a, %a : i32
  %t = arith.muli %s, %b : i32
  return %t : i32
})",
                                   registry, "t.mlir");
  Function& fn = module.functions[0];
  RewriteAdapter ir(fn, registry);
  check_use_lists(ir);
  const ValueId a = fn.argument(0, 0), b = fn.argument(0, 1);
  CHECK(ir.users(a).size() == 2);  // one entry per use
  CHECK_FALSE(ir.defining_op(a).has_value());
  const OpId add = fn.values[fn.operands_of(fn.values[fn.result(fn.blocks[0].first_op)].owner)[0]].owner;
  CHECK(ir.kind(add) == code_of(BuiltinOp::addi));
  CHECK_FALSE(ir.is_trivially_dead(add));
  const OpId mul = fn.ops[add].next;
  ir.replace_all_uses(fn.result(add), b);  // %t = muli %b, %b
  check_use_lists(ir);
  CHECK(ir.is_trivially_dead(add));
  CHECK(ir.users(b).size() == 2);
  ir.erase(add);
  check_use_lists(ir);
  CHECK(ir.users(a).empty());
  CHECK_FALSE(ir.is_trivially_dead(fn.ops[mul].next));  // the return
  ir.set_operand(mul, 1, a);
  check_use_lists(ir);
  verify(module);
  CHECK(print_module(module).find("arith.muli %b, %a") != std::string::npos);
}

TEST_CASE("folding by the op records: constants, identities, decided choices; undefined cases stay") {
  // Constant chain folds to one constant at the start of the entry block; dead ops are erased.
  const std::string chain = fold_only(R"(func.func @f() -> i8 {
  %a = arith.constant 100 : i8
  %b = arith.constant 100 : i8
  %s = arith.addi %a, %b : i8
  %m = arith.muli %s, %a : i8
  return %m : i8
})");
  // (100 + 100) wraps to -56; -56 * 100 = -5600 = 32 mod 256.
  CHECK(chain.find("arith.constant 32 : i8") != std::string::npos);
  CHECK(chain.find("arith.addi") == std::string::npos);
  CHECK(chain.find("arith.muli") == std::string::npos);
  CHECK(chain.find("arith.constant 100") == std::string::npos);

  // x * 0 is 0 (the fold hook), select on a known condition is its side.
  const std::string identities = fold_only(R"(func.func @f(%x: i32, %y: i32) -> (i32, i32) {
  %z = arith.constant 0 : i32
  %t = arith.constant true
  %m = arith.muli %x, %z : i32
  %s = arith.select %t, %y, %x : i32
  return %m, %s : i32, i32
})");
  CHECK(identities.find("arith.muli") == std::string::npos);
  CHECK(identities.find("arith.select") == std::string::npos);
  CHECK(identities.find("return %z, %y : i32, i32") != std::string::npos);  // %z leads the entry block: the uniqued 0

  // Division by zero is undefined: never folded.
  const std::string division = fold_only(R"(func.func @f() -> i32 {
  %a = arith.constant 7 : i32
  %z = arith.constant 0 : i32
  %d = arith.divsi %a, %z : i32
  return %d : i32
})");
  CHECK(division.find("arith.divsi") != std::string::npos);
}

TEST_CASE("materialized constants are unique per type and value") {
  const OpRegistry registry;
  Module module = parse_and_verify(R"(func.func @f(%x: i16) -> i16 {
  %a = arith.constant 3 : i16
  cf.br ^bb1
^bb1:
  %b = arith.constant 4 : i16
  %s = arith.addi %a, %a : i16
  %u = arith.subi %b, %a : i16
  %v = arith.subi %s, %s : i16
  %w = arith.muli %u, %x : i16
  %r = arith.addi %w, %v : i16
  return %r : i16
})",
                                   registry, "t.mlir");
  Function& fn = module.functions[0];
  RewriteAdapter ir(fn, registry);
  const ValueId one = ir.constant(Type::integer(16), 1);
  CHECK(ir.take_created_constant() == fn.values[one].owner);
  CHECK(ir.constant(Type::integer(16), 1) == one);
  CHECK(ir.take_created_constant() == no_index);  // not made again
  CHECK(ir.constant(Type::integer(16), 0x10001) == one);  // bits beyond the width are dropped
  CHECK(ir.constant(Type::integer(8), 1) != one);
  CHECK(fn.value_name(one) == "c1_i16");
  CHECK(fn.ops[fn.values[one].owner].block == 0);
  const kildall::rewrite::PatternSet<RewriteAdapter> none;
  const auto result = kildall::rewrite::apply_patterns_greedily(ir, none);
  CHECK(result.converged());
  check_use_lists(ir);
  verify(module);
  const std::string text = print_module(module);
  // 3 + 3 = 6; 4 - 3 = 1 (the uniqued %c1_i16); 6 - 6 = 0; r = (1 * x) + 0 = x (identities).
  CHECK(text.find("return %x : i16") != std::string::npos);
  CHECK(text.find("arith.muli") == std::string::npos);
  CHECK(text.find("arith.subi") == std::string::npos);
}

TEST_CASE("folding random programs with the generic driver keeps every result (interpreter)") {
  const OpRegistry registry;
  std::mt19937_64 rng(20);
  std::size_t compactions = 0;  // folds that erased at least half of a function compact it
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    ProgramShape shape;
    shape.widths = {1 + static_cast<unsigned>(seed % 4), 8};
    shape.identities = seed % 2 == 0;
    shape.structured = seed % 3 == 0;
    const std::string text = random_program(seed, shape);
    const Module original = parse_and_verify(text, registry, "random.mlir");
    Module folded = parse_and_verify(text, registry, "random.mlir");
    RewriteAdapter ir(folded.functions[0], registry);
    const kildall::rewrite::PatternSet<RewriteAdapter> none;
    const auto result = kildall::rewrite::apply_patterns_greedily(ir, none);
    REQUIRE_MESSAGE(result.converged(), result.message() << "\n" << text);
    check_use_lists(ir);
    verify(folded);
    compactions += ir.compactions();
    const Module reparsed = parse_and_verify(print_module(folded), registry, "folded.mlir");
    const auto tuples = input_tuples(original.functions[0], 10, 40, rng);
    const auto difference = first_difference(original, reparsed, tuples, 300);
    CHECK_MESSAGE(!difference.has_value(), "folding changed a result\n" << text << "\n--- folded ---\n"
                                                                        << print_module(folded));
  }
  CHECK(compactions > 10);
}

TEST_CASE("use lists stay right through random mutations that outgrow their room, and through rebuilds") {
  // Uses move onto few values (their lists outgrow the room they were laid out with, again and
  // again), move back, and go; region simplification in between makes the adapter rebuild the
  // lists in place. The lists are recounted from the operands after every step.
  const OpRegistry registry;
  std::mt19937_64 rng(31);
  std::size_t mutations = 0, rebuilds = 0;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    ProgramShape shape;
    shape.widths = {8};
    shape.arguments = 1 + static_cast<unsigned>(seed % 3);
    shape.blocks = 1 + static_cast<unsigned>(seed % 4);
    const std::string text = random_program(seed, shape);
    Module module = parse_and_verify(text, registry, "random.mlir");
    Function& fn = module.functions[0];
    RewriteAdapter ir(fn, registry);
    check_use_lists(ir);
    // The values an op result of the entry block may be replaced by without breaking dominance:
    // the function's arguments.
    const std::uint32_t arguments = fn.blocks[0].argument_count;
    if (arguments == 0) continue;
    for (int step = 0; step < 40; ++step) {
      std::vector<OpId> ops;
      for (const OpId op : fn.ops_of(0))
        if (fn.ops[op].result_count == 1 && fn.values[fn.result(op)].type == fn.values[fn.argument(0, 0)].type) ops.push_back(op);
      if (ops.empty()) break;
      const OpId op = ops[rng() % ops.size()];
      const ValueId to = fn.argument(0, static_cast<std::uint32_t>(rng() % arguments));
      if (fn.values[to].type != fn.values[fn.result(op)].type) continue;
      switch (rng() % 3) {
        case 0: ir.replace_all_uses(fn.result(op), to); break;
        case 1:
          if (fn.ops[op].operand_count != 0 && fn.values[fn.operands_of(op)[0]].type == fn.values[to].type &&
              fn.ops[op].successor_count == 0)
            ir.set_operand(op, 0, to);
          break;
        default:
          ir.replace_all_uses(fn.result(op), to);
          if (ir.is_trivially_dead(op)) ir.erase(op);
          break;
      }
      ++mutations;
      check_use_lists(ir);
      if (step % 10 == 9 && ir.simplify_regions() != 0) {
        ++rebuilds;
        check_use_lists(ir);
      }
    }
    verify(module);
  }
  CHECK(mutations > 1000);
  CHECK(rebuilds > 10);
}
