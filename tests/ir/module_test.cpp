// Tests of kildall/ir/module.hpp: the accessors agree with the flat storage
// of parsed functions; walk_module visits a hand-built layout in the order of the text it stands for.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <kildall/ir/module.hpp>
#include <kildall/ir/verifier.hpp>

using namespace kildall::ir;

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
