// Tests of kildall/ir/function_shape.hpp: the shape agrees with the function (oracle: the
// function's own arrays, read by hand; for the value iterator's operands, `operands(v)`), and both
// IR analyses model the solver's concepts on it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <string>
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

// MLIR's upstream @unknown_terminator (written here): ^bb2's argument gets 1 from ^bb1, and
// whatever the unknown op passes on its own edge. The second function has a region, which
// builds the shape the other way.
const char* const unknown_terminator_program = R"(func.func @f(%a: i32, %c: i1) -> i32 {
  %one = arith.constant 1 : i32
  "foo.cond_br"() [^bb1, ^bb2] : () -> ()
^bb1:
  cf.br ^bb2(%one : i32)
^bb2(%arg: i32):
  %s = arith.addi %arg, %one : i32
  return %s : i32
}
func.func @g(%a: i32, %c: i1) -> i32 {
  %one = arith.constant 1 : i32
  scf.if %c {
  }
  "foo.cond_br"() [^bb1, ^bb2] : () -> ()
^bb1:
  cf.br ^bb2(%one : i32)
^bb2(%arg: i32):
  %s = arith.addi %arg, %one : i32
  return %s : i32
}
)";

TEST_CASE("a block an unregistered terminator enters: its arguments are values without operands, unknown to SCCP and ranges") {
  const OpRegistry registry;
  const Module m =
      parse_and_verify(unknown_terminator_program, registry, "t.mlir", {.allow_unregistered_ops = true});
  for (const Function& fn : m.functions) {
    CAPTURE(fn.name);
    const FunctionShape shape(fn, registry);
    BlockId bb2 = 0;
    while (fn.block_name(bb2) != "bb2") ++bb2;
    const ValueId arg = fn.argument(bb2, 0);
    CHECK(std::ranges::empty(shape.block_arguments(bb2)));
    const std::vector<ValueId> values(shape.block_values(bb2).begin(), shape.block_values(bb2).end());
    REQUIRE(values.size() == 2);
    CHECK(values[0] == arg);  // first, then the block's op results
    CHECK(shape.operands(arg).empty());
    for (const CfgEdge& e : shape.cfg().predecessors(bb2)) CHECK(shape.forwarded_operands(e).empty());
    const SccpAnalysis sccp(fn, registry);
    CHECK_FALSE(sccp.constant(arg).has_value());
    CHECK_FALSE(sccp.constant(fn.result(fn.blocks[bb2].first_op)).has_value());
    const IntRangeAnalysis ranges(fn, &registry);
    CHECK(ranges.describe(arg).find("[-2147483648, 2147483647]") == 0);
  }
}

TEST_CASE("with regions: each part's values come from its own ops, a loop body's induction variable first") {
  const OpRegistry registry;
  const Module m = parse_and_verify(R"(func.func @f(%lb: index, %ub: index, %s: index, %x: i32, %c: i1) -> i32 {
  %a = arith.addi %x, %x : i32
  %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %a) -> (i32) {
    %y = arith.addi %acc, %acc : i32
    scf.yield %y : i32
  }
  %t = scf.if %c -> (i32) {
    scf.yield %r : i32
  } else {
    scf.yield %a : i32
  }
  %z = arith.muli %t, %t : i32
  return %z : i32
}
)",
                                    registry);
  const Function& fn = m.functions[0];
  const FunctionShape shape(fn, registry);
  const auto collect = [](const auto& range) {
    std::vector<ValueId> out;
    for (const ValueId v : range) out.push_back(v);
    return out;
  };
  const auto op_of = [&](BuiltinOp kind) {
    OpId op = 0;
    while (op < fn.ops.size() && !is(fn.ops[op].code, kind)) ++op;
    REQUIRE(op < fn.ops.size());
    return op;
  };
  const OpId loop = op_of(BuiltinOp::scf_for), branch = op_of(BuiltinOp::scf_if), add = op_of(BuiltinOp::addi);
  const OpId mul = op_of(BuiltinOp::muli);
  const BlockId body = fn.regions[fn.regions_of(loop).first].first_block;
  const BlockId then_block = fn.regions[fn.regions_of(branch).first].first_block;
  const BlockId else_block = fn.regions[fn.regions_of(branch).first + 1].first_block;
  const std::uint32_t after_loop = shape.cfg().continuation_of(loop), after_if = shape.cfg().continuation_of(branch);
  // The entry block's part ends at the loop, which is left out (its result is the next part's argument).
  CHECK(collect(shape.block_values(0)) == std::vector<ValueId>{fn.result(add)});
  CHECK(collect(shape.block_values(body)) ==
        std::vector<ValueId>{fn.argument(body, 0), fn.result(fn.blocks[body].first_op)});  // %i, %y
  CHECK(collect(shape.block_arguments(body)) == std::vector<ValueId>{fn.argument(body, 1)});  // %acc
  CHECK(collect(shape.block_values(then_block)).empty());  // only a yield, which has no results
  CHECK(collect(shape.block_values(else_block)).empty());
  CHECK(collect(shape.block_arguments(after_loop)) == std::vector<ValueId>{fn.result(loop)});
  CHECK(collect(shape.block_values(after_loop)).empty());  // up to the scf.if, left out
  CHECK(collect(shape.block_arguments(after_if)) == std::vector<ValueId>{fn.result(branch)});
  CHECK(collect(shape.block_values(after_if)) == std::vector<ValueId>{fn.result(mul)});
  // Every value of the function is presented exactly once, by exactly one vertex.
  std::vector<int> seen(fn.values.size(), 0);
  for (std::uint32_t v = 0; v < shape.cfg().vertex_count(); ++v) {
    for (const ValueId a : shape.block_arguments(v)) ++seen[a];
    for (const ValueId x : shape.block_values(v)) ++seen[x];
  }
  CHECK(std::ranges::count(seen, 1) == static_cast<std::ptrdiff_t>(seen.size()));
}

TEST_CASE("block_values' iterator gives each value's operands as operands(v) does: op results, induction variables, opaque arguments") {
  const OpRegistry registry;
  const Module m = parse_and_verify(R"(func.func @loop(%lb: index, %ub: index, %s: index, %x: i32, %c: i1) -> i32 {
  %a = arith.addi %x, %x : i32
  %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %a) -> (i32) {
    %y = arith.subi %acc, %x : i32
    scf.yield %y : i32
  }
  cf.cond_br %c, ^bb1(%r : i32), ^bb1(%a : i32)
^bb1(%m: i32):
  %z = arith.muli %m, %r : i32
  return %z : i32
}
)" + std::string(unknown_terminator_program),
                                    registry, "t.mlir", {.allow_unregistered_ops = true});
  for (const Function& fn : m.functions) {
    CAPTURE(fn.name);
    const FunctionShape shape(fn, registry);
    std::size_t values = 0, with_operands = 0;
    for (std::uint32_t b = 0; b < shape.cfg().vertex_count(); ++b) {
      const BlockValues range = shape.block_values(b);
      for (auto it = range.begin(); it != range.end(); ++it) {
        CAPTURE(*it);
        const std::span<const ValueId> got = it.operands(), expected = shape.operands(*it);
        CHECK(std::vector<ValueId>(got.begin(), got.end()) == std::vector<ValueId>(expected.begin(), expected.end()));
        ++values;
        with_operands += expected.empty() ? 0 : 1;
      }
    }
    // (@loop: %a, %i (its bounds), %y, %z; @f and @g: %one, %arg (a leading value), %s)
    CHECK(values == (fn.name == "loop" ? 4u : 3u));
    CHECK(with_operands == (fn.name == "loop" ? 4u : 1u));
  }
}
