// Tests of kildall/ir/module.hpp: the accessors agree with the flat storage
// of parsed functions; walk_module visits a hand-built layout in the order of the text it stands for;
// compact_body keeps the printed text and, by the interpreter, every result of random programs.
#include <doctest/doctest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/rewriter.hpp>
#include <kildall/ir/verifier.hpp>

#include "random_programs.hpp"

using namespace kildall::ir;
using namespace kildall::ir::testing;

TEST_CASE("accessors over the flat arrays") {
  const OpRegistry registry;
  const Module m = parse_and_verify(R"(func.func @f(%a: i8, %c: i1) -> i8 {
  %x = arith.addi %a, %a : i8
  cf.cond_br %c, ^b(%x, %a : i8, i8), ^b(%a, %x : i8, i8)
^b(%p: i8, %q: i8):
  return %p : i8
}
func.func @g() {
  return
}
)",
                                    registry);
  CHECK(m.find_function("g") == 1u);
  CHECK_FALSE(m.find_function("h").has_value());
  const Function& fn = m.functions[0];
  const OpId br = fn.terminator(0);
  CHECK(fn.regular_operand_count(br) == 1);
  const auto succ = fn.successors_of(br);
  REQUIRE(succ.size() == 2);
  CHECK(std::vector<ValueId>(fn.successor_operands(br, succ[0]).begin(), fn.successor_operands(br, succ[0]).end()) ==
        std::vector<ValueId>{2, 0});
  CHECK(std::vector<ValueId>(fn.successor_operands(br, succ[1]).begin(), fn.successor_operands(br, succ[1]).end()) ==
        std::vector<ValueId>{0, 2});
  CHECK(fn.argument(1, 1) == 4);
  CHECK(fn.value_name(fn.argument(1, 1)) == "q");
  CHECK(fn.defining_block(fn.argument(1, 0)) == 1);
  CHECK(fn.defining_block(2) == 0);
  CHECK(fn.block_name(1) == "b");
  std::vector<OpId> ops;
  for (const OpId op : fn.ops_of(0)) ops.push_back(op);
  CHECK(ops == std::vector<OpId>{0, 1});
  CHECK(m.functions[1].ops.size() == 1);
}

TEST_CASE("walk_module: functions, module-level ops and nested modules in the order they were written") {
  // Built by hand (the parser's own numbering is tested in parser_test): positions count the
  // functions before an item, `modules_before` orders a module-level op among nested modules
  // opened at the same place. Oracle: the order of the text this layout stands for,
  //   "x"()  f0  module @a { "y"()  module @b { f1 }  "z"()  f2 }  module @c { }  "w"()  f3
  Module m;
  m.functions.resize(4);
  m.functions[1].parent_module = 1;
  m.functions[2].parent_module = 0;
  m.nested_modules = {{"a", "", no_index, 1, {}}, {"b", "", 0, 1, {}}, {"c", "", no_index, 3, {}}};
  m.opaque_ops = {{"x", "", 0, {}, no_index, 0}, {"y", "", 1, {}, 0, 1}, {"z", "", 2, {}, 0, 2},
                  {"w", "", 3, {}, no_index, 3}};
  std::string order;
  struct Recorder {
    const Module& m;
    std::string& out;
    void open(std::uint32_t i) { out += "module @" + m.nested_modules[i].name + " { "; }
    void close(std::uint32_t) { out += "} "; }
    void function(std::uint32_t f) { out += "f" + std::to_string(f) + " "; }
    void opaque_op(std::uint32_t i) { out += "\"" + m.opaque_ops[i].name + "\"() "; }
  };
  walk_module(m, Recorder{m, order});
  CHECK(order == "\"x\"() f0 module @a { \"y\"() module @b { f1 } \"z\"() f2 } module @c { } \"w\"() f3 ");
}

namespace {

// Erases ops without effect whose results nobody uses, in rounds, until none is left, and
// returns how many went (the ops of a rewrite that leaves most of a function erased).
std::size_t erase_dead_ops(Function& fn, const OpRegistry& registry) {
  Rewriter rewriter(fn);
  std::size_t erased = 0;
  BodyArray<std::uint32_t> uses;
  for (bool again = true; again;) {
    again = false;
    rewriter.use_counts(uses);
    for (OpId op = 0; op < fn.ops.size(); ++op) {
      const OpData& o = fn.ops[op];
      if (o.erased || o.result_count == 0 || !has_no_effect(fn, op, registry)) continue;
      bool used = false;
      for (std::uint32_t i = 0; i < o.result_count; ++i) used = used || uses[o.result_begin + i] != 0;
      if (used) continue;
      rewriter.erase(op);
      ++erased;
      again = true;
    }
  }
  return erased;
}

}  // namespace

TEST_CASE("compact_body drops erased ops and dead values, numbers the rest in program order, and prints the same") {
  const OpRegistry registry;
  std::mt19937_64 rng(7);
  std::size_t compacted = 0, dropped_ops = 0;
  for (std::uint64_t seed = 0; seed < 120; ++seed) {
    ProgramShape shape;
    shape.widths = {4, 8};
    shape.blocks = 1 + static_cast<unsigned>(seed % 6);
    shape.ops_per_block = 3 + static_cast<unsigned>(seed % 5);
    const std::string text = random_program(seed, shape);
    const Module original = parse_and_verify(text, registry, "random.mlir");
    Module module = parse_and_verify(text, registry, "random.mlir");
    Function& fn = module.functions[0];
    dropped_ops += erase_dead_ops(fn, registry);
    // A constant made by a rewrite sits first in the entry block with the last id: out of order.
    Rewriter rewriter(fn);
    const ValueId made = rewriter.constant_at_start(0, Type::integer(8), 5);
    rewriter.set_name(made, "made");
    const std::string before = print_module(module);
    const std::size_t slots = fn.ops.size();
    std::vector<std::string> kept_names;  // the names of the values kept, in program order
    for (BlockId b = 0; b < fn.blocks.size(); ++b) {
      for (std::uint32_t i = 0; i < fn.blocks[b].argument_count; ++i) kept_names.emplace_back(fn.value_name(fn.argument(b, i)));
      for (const OpId op : fn.ops_of(b))
        for (std::uint32_t i = 0; i < fn.ops[op].result_count; ++i) kept_names.emplace_back(fn.value_name(fn.ops[op].result_begin + i));
    }
    const std::vector<OpData> old_ops(fn.ops.begin(), fn.ops.end());
    const std::optional<BodyRenumbering> map = compact_body(fn);
    REQUIRE(map.has_value());
    ++compacted;
    CHECK(map->op.size() == slots);
    // Every op is live, the ops and values are numbered in program order.
    OpId next_op = 0;
    ValueId next_value = 0;
    for (BlockId b = 0; b < fn.blocks.size(); ++b) {
      CHECK(fn.blocks[b].argument_begin == next_value);
      next_value += fn.blocks[b].argument_count;
      for (const OpId op : fn.ops_of(b)) {
        CHECK(op == next_op++);
        CHECK_FALSE(fn.ops[op].erased);
        CHECK(fn.ops[op].result_begin == next_value);
        for (std::uint32_t i = 0; i < fn.ops[op].result_count; ++i) CHECK(fn.values[next_value + i].owner == op);
        next_value += fn.ops[op].result_count;
      }
    }
    CHECK(next_op == fn.ops.size());
    CHECK(next_value == fn.values.size());
    for (ValueId v = 0; v < fn.values.size(); ++v) CHECK(fn.value_name(v) == kept_names[v]);
    // The map sends each kept op and value where it went, and the erased ones nowhere.
    CHECK(map->value[made] == 0 + fn.blocks[0].argument_count);
    for (OpId op = 0; op < slots; ++op) {
      CHECK((map->op[op] == no_index) == old_ops[op].erased);
      if (map->op[op] == no_index) continue;
      CHECK(fn.ops[map->op[op]].loc == old_ops[op].loc);
      CHECK(fn.ops[map->op[op]].code == old_ops[op].code);
      if (old_ops[op].result_count != 0) CHECK(map->value[old_ops[op].result_begin] == fn.ops[map->op[op]].result_begin);
    }
    verify(module);
    CHECK(print_module(module) == before);
    const auto tuples = input_tuples(original.functions[0], 10, 30, rng);
    const auto difference = first_difference(original, module, tuples, 300);
    CHECK_MESSAGE(!difference.has_value(), "compaction changed a result\n" << text);
  }
  CHECK(compacted == 120);
  CHECK(dropped_ops > 100);  // the programs had dead ops to drop
}

TEST_CASE("compact_body keeps op attributes with their ops, leaves functions with regions alone, and rejects a use of a dropped value") {
  const OpRegistry registry;
  SUBCASE("attributes") {
    Module module = parse_and_verify(R"(func.func @f(%a: i8) -> i8 {
  %dead = arith.addi %a, %a : i8
  %x = arith.muli %a, %a {tag = 1} : i8
  %y = arith.addi %x, %a {tag = 2} : i8
  return %y : i8
}
)",
                                     registry, "attributes.mlir");
    Function& fn = module.functions[0];
    const std::string expected = [&] {
      Module copy = module;
      Rewriter(copy.functions[0]).erase(0);
      return print_module(copy);
    }();
    Rewriter(fn).erase(0);
    REQUIRE(compact_body(fn).has_value());
    CHECK(fn.ops.size() == 3);
    REQUIRE(fn.op_attributes.size() == 2);
    CHECK(fn.op_attributes[0].op == 0);
    CHECK(fn.op_attributes[1].op == 1);
    CHECK(print_module(module) == expected);
    CHECK(print_module(module).find("{tag = 2}") != std::string::npos);
  }
  SUBCASE("regions") {
    Module module = parse_and_verify(R"(func.func @f(%c: i1, %a: i8) -> i8 {
  %dead = arith.addi %a, %a : i8
  %r = scf.if %c -> (i8) {
    scf.yield %a : i8
  } else {
    scf.yield %a : i8
  }
  return %r : i8
}
)",
                                     registry, "regions.mlir");
    Function& fn = module.functions[0];
    Rewriter(fn).erase(0);
    const std::size_t ops = fn.ops.size();
    CHECK_FALSE(compact_body(fn).has_value());
    CHECK(fn.ops.size() == ops);
    CHECK(fn.ops[0].erased);
  }
  SUBCASE("a live op using a dropped value") {
    Module module = parse_and_verify(R"(func.func @f(%a: i8) -> i8 {
  %x = arith.addi %a, %a : i8
  return %x : i8
}
)",
                                     registry, "broken.mlir");
    Function& fn = module.functions[0];
    Rewriter(fn).erase(0);  // still used by the return: the IR is broken
    const std::size_t ops = fn.ops.size();
    CHECK_THROWS_AS((void)compact_body(fn), std::invalid_argument);
    CHECK(fn.ops.size() == ops);
  }
}
