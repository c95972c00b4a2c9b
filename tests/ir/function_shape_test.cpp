// Tests of kildall/ir/function_shape.hpp: the shape agrees with the function (oracle: the
// function's own arrays, read by hand), and both IR analyses model the solver's concepts on it.
#include <doctest/doctest.h>

#include <vector>

#include <kildall/graph/ssa_program.hpp>
#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/function_shape.hpp>
#include <kildall/ir/verifier.hpp>

using namespace kildall::ir;

static_assert(kildall::SsaProgramWithBranchOperands<FunctionShape>);
static_assert(kildall::SparseBranchProblem<SccpProblem, FunctionShape>);
static_assert(kildall::SparseBranchProblem<IntRangeProblem, FunctionShape>);

TEST_CASE("block values, arguments, operands, forwarded operands and branch operands") {
  const OpRegistry registry;
  const Module m = parse_and_verify(R"(func.func @f(%a: i8, %c: i1) -> i8 {
  %x = arith.addi %a, %a : i8
  cf.cond_br %c, ^b(%x : i8), ^b(%a : i8)
^b(%p: i8):
  %y = arith.muli %p, %p : i8
  return %y : i8
}
)",
                                    registry);
  const Function& fn = m.functions[0];
  const FunctionShape shape(fn);
  CHECK(shape.value_count() == 5);
  CHECK(kildall::value_index(shape, ValueId{4}) == 4);
  CHECK(std::vector<ValueId>(shape.block_values(0).begin(), shape.block_values(0).end()) == std::vector<ValueId>{2});
  CHECK(std::vector<ValueId>(shape.block_values(1).begin(), shape.block_values(1).end()) == std::vector<ValueId>{4});
  std::vector<ValueId> args;
  for (const ValueId v : shape.block_arguments(1)) args.push_back(v);
  CHECK(args == std::vector<ValueId>{3});
  CHECK(std::vector<ValueId>(shape.operands(2).begin(), shape.operands(2).end()) == std::vector<ValueId>{0, 0});
  CHECK(shape.operands(3).empty());  // a block argument has no defining op
  const auto edges = shape.cfg().successors(0);
  REQUIRE(edges.size() == 2);
  CHECK(std::vector<ValueId>(shape.forwarded_operands(edges[0]).begin(), shape.forwarded_operands(edges[0]).end()) ==
        std::vector<ValueId>{2});
  CHECK(std::vector<ValueId>(shape.forwarded_operands(edges[1]).begin(), shape.forwarded_operands(edges[1]).end()) ==
        std::vector<ValueId>{0});
  CHECK(shape.cond_branch_arm(edges[0]) == 0u);
  CHECK(shape.cond_branch_arm(edges[1]) == 1u);
  CHECK(std::vector<ValueId>(shape.branch_operands(0).begin(), shape.branch_operands(0).end()) ==
        std::vector<ValueId>{1});
  CHECK(shape.branch_operands(1).empty());
  CHECK(shape.entries() == 0);
}
