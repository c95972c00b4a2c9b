// Tests of kildall/ir/analysis/function_problem.hpp: the bookkeeping the
// sparse solver asks for agrees with the function, and both IR analyses model
// the solver's problem concepts over the IR's two views.
#include <doctest/doctest.h>

#include <vector>

#include <kildall/ir/analysis/function_problem.hpp>
#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/verifier.hpp>

using namespace kildall::ir;

static_assert(kildall::SparseBranchProblem<SccpProblem, DefUseView, CfgView>);
static_assert(kildall::SparseBranchProblem<IntRangeProblem, DefUseView, CfgView>);

TEST_CASE("block values, arguments, incoming values and branch operands") {
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
  const FunctionProblemBase base(fn);
  const CfgView cfg(fn);
  CHECK(std::vector<ValueId>(base.block_values(0).begin(), base.block_values(0).end()) == std::vector<ValueId>{2});
  CHECK(std::vector<ValueId>(base.block_values(1).begin(), base.block_values(1).end()) == std::vector<ValueId>{4});
  std::vector<ValueId> args;
  for (const ValueId v : base.block_arguments(1)) args.push_back(v);
  CHECK(args == std::vector<ValueId>{3});
  CHECK(base.is_block_argument(3));
  CHECK(base.block_of(3) == 1);
  const auto edges = cfg.successors(0);
  REQUIRE(edges.size() == 2);
  CHECK(base.incoming_value(3, edges[0]) == ValueId{2});
  CHECK(base.incoming_value(3, edges[1]) == ValueId{0});
  CHECK(base.cond_branch_arm(edges[0]) == 0u);
  CHECK(base.cond_branch_arm(edges[1]) == 1u);
  CHECK(std::vector<ValueId>(base.branch_operands(0).begin(), base.branch_operands(0).end()) == std::vector<ValueId>{1});
  CHECK(base.branch_operands(1).empty());
}
