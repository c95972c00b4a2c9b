// Tests of kildall/ir/def_use_view.hpp: the view models kildall's graph
// concepts; in-edges list a value's operands in operand order (block arguments:
// the values branches pass to them); users are the ops using a value; checked
// against a direct scan on random programs.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/ir/def_use_view.hpp>
#include <kildall/ir/verifier.hpp>

#include "random_programs.hpp"

using namespace kildall::ir;

static_assert(kildall::AnalysisGraph<DefUseView>);

TEST_CASE("operands in order, block arguments fed by branches, users") {
  const OpRegistry registry;
  const Module m = parse_and_verify(R"(func.func @f(%a: i8, %b: i8) -> i8 {
  %s = arith.subi %b, %a : i8
  %t = arith.muli %s, %s : i8
  cf.br ^next(%t : i8)
^next(%x: i8):
  return %x : i8
}
)",
                                    registry);
  const Function& fn = m.functions[0];
  const DefUseView g(fn);
  // Values: %a=0 %b=1 %s=2 %t=3 %x=4.
  std::vector<ValueId> operands;
  for (const auto& e : kildall::in_edge_range(g, ValueId{2})) operands.push_back(source(e, g));
  CHECK(operands == std::vector<ValueId>{1, 0});
  operands.clear();
  for (const auto& e : kildall::in_edge_range(g, ValueId{3})) operands.push_back(source(e, g));
  CHECK(operands == std::vector<ValueId>{2, 2});  // used twice: two edges
  operands.clear();
  for (const auto& e : kildall::in_edge_range(g, ValueId{4})) operands.push_back(source(e, g));
  CHECK(operands == std::vector<ValueId>{3});
  CHECK(g.users(2).size() == 2);
  CHECK(g.users(3).size() == 1);
  CHECK(g.users(4).size() == 1);
  CHECK(g.dependents(4).empty());  // used only by the return, which defines nothing
}

TEST_CASE("the def-use view agrees with a direct scan of operands (random programs)") {
  const OpRegistry registry;
  for (std::uint64_t seed = 100; seed < 160; ++seed) {
    testing::ProgramShape shape;
    shape.blocks = 2 + static_cast<unsigned>(seed % 6);
    const Module m = parse_and_verify(testing::random_program(seed, shape), registry, "r.mlir");
    const Function& fn = m.functions[0];
    const DefUseView g(fn);
    std::vector<std::vector<ValueId>> expected(fn.values.size());
    std::vector<std::size_t> use_count(fn.values.size(), 0);
    for (OpId op = 0; op < fn.ops.size(); ++op) {
      const auto operands = fn.operands_of(op);
      for (const ValueId v : operands) ++use_count[v];
      const std::uint32_t regular = fn.regular_operand_count(op);
      for (std::uint32_t r = 0; r < fn.ops[op].result_count; ++r)
        for (std::uint32_t i = 0; i < regular; ++i) expected[fn.result(op, r)].push_back(operands[i]);
      for (const Successor& s : fn.successors_of(op))
        for (std::uint32_t i = 0; i < s.operand_count; ++i)
          expected[fn.argument(s.block, i)].push_back(operands[s.operand_begin + i]);
    }
    for (ValueId v = 0; v < fn.values.size(); ++v) {
      std::vector<ValueId> got;
      for (const auto& e : kildall::in_edge_range(g, v)) got.push_back(source(e, g));
      if (!fn.values[v].is_block_argument) {
        CHECK(got == expected[v]);  // operand order
      } else {
        std::ranges::sort(got);
        std::ranges::sort(expected[v]);
        CHECK(got == expected[v]);
      }
      CHECK(g.users(v).size() == use_count[v]);
      for (const auto& e : kildall::out_edge_range(g, v)) CHECK(source(e, g) == v);
    }
  }
}
