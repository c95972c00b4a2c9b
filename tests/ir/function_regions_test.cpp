// Tests of kildall/ir/function_regions.hpp: the reference IR's scf ops as a RegionBranchProgram
// (where scf.if, scf.for, scf.while and their yield/condition go, what they forward, what
// decides, a loop's bounds); oracle: the scf semantics (MLIR's scf dialect), written out per op.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <ranges>
#include <vector>

#include <kildall/graph/region_branch.hpp>
#include <kildall/ir/function_regions.hpp>
#include <kildall/ir/verifier.hpp>

using namespace kildall::ir;
using Branch = kildall::RegionBranch<ValueId>;

static_assert(kildall::RegionBranchProgramWithInduction<FunctionRegions>);

namespace {

/// The `nth` live op of kind `kind` in `fn`, in op order.
OpId find_op(const Function& fn, BuiltinOp kind, int nth = 0) {
  for (OpId op = 0; op < fn.ops.size(); ++op)
    if (!fn.ops[op].erased && is(fn.ops[op].code, kind) && nth-- == 0) return op;
  FAIL("no such op");
  return no_index;
}

/// The entry block of region `index` of `op`.
BlockId region_entry_block(const Function& fn, OpId op, std::uint32_t index) {
  return fn.regions[fn.regions_of(op).first + index].first_block;
}

/// A flow's successors, collected.
template <class Flow>
std::vector<Branch> branches(const Flow& flow) {
  std::vector<Branch> out;
  for (const Branch b : flow.successors) out.push_back(b);
  return out;
}

/// `b` goes to `target`, forwarding `values`, on `arm`.
void check_branch(const Branch& b, std::uint32_t target, const std::vector<ValueId>& values, int arm) {
  CHECK(b.target == target);
  CHECK(std::vector<ValueId>(b.forwarded.begin(), b.forwarded.end()) == values);
  CHECK(b.arm == arm);
}

}  // namespace

TEST_CASE("scf.if: enters then on true, else on false; each yield goes to the results") {
  const OpRegistry registry;
  const Module m = parse_and_verify(R"(func.func @f(%c: i1, %a: i32, %b: i32) -> i32 {
  %r = scf.if %c -> (i32) {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }
  scf.if %c {
    %x = arith.addi %a, %b : i32
  }
  return %r : i32
}
)",
                                    registry);
  const Function& fn = m.functions[0];
  const FunctionRegions regions(fn, registry);
  const ValueId c = fn.argument(0, 0), a = fn.argument(0, 1), b = fn.argument(0, 2);
  const OpId if_op = find_op(fn, BuiltinOp::scf_if);
  const auto entry = regions.region_entry(if_op);
  CHECK(entry.owner == if_op);
  CHECK(entry.deciding == c);
  const std::vector<Branch> enter = branches(entry);
  REQUIRE(enter.size() == 2);
  check_branch(enter[0], region_entry_block(fn, if_op, 0), {}, 0);
  check_branch(enter[1], region_entry_block(fn, if_op, 1), {}, 1);
  for (std::uint32_t r = 0; r < 2; ++r) {
    const OpId yield = fn.blocks[region_entry_block(fn, if_op, r)].last_op;
    const auto exit = regions.region_exit(yield);
    CHECK(exit.owner == if_op);
    CHECK_FALSE(exit.deciding.has_value());
    const std::vector<Branch> out = branches(exit);
    REQUIRE(out.size() == 1);
    check_branch(out[0], Branch::parent, {r == 0 ? a : b}, -1);
  }
  CHECK(regions.induction_bounds(if_op).empty());
  // Without an else, false skips to the results.
  const OpId no_else = find_op(fn, BuiltinOp::scf_if, 1);
  const std::vector<Branch> skip = branches(regions.region_entry(no_else));
  REQUIRE(skip.size() == 2);
  check_branch(skip[0], region_entry_block(fn, no_else, 0), {}, 0);
  check_branch(skip[1], Branch::parent, {}, 1);
  // Ops owning no regions, and terminators of no region, go nowhere by a flow.
  CHECK(branches(regions.region_entry(find_op(fn, BuiltinOp::addi))).empty());
  CHECK(branches(regions.region_exit(find_op(fn, BuiltinOp::return_))).empty());
  CHECK(regions.has_regions());
  CHECK(regions.block_count() == fn.blocks.size());
}

TEST_CASE("scf.for: enters the body or skips with the initial values; the yield iterates or leaves; bounds") {
  const OpRegistry registry;
  const Module m = parse_and_verify(R"(func.func @f(%lb: index, %ub: index, %s: index, %x: i32) -> i32 {
  %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %x) -> (i32) {
    %y = arith.addi %acc, %acc : i32
    scf.yield %y : i32
  }
  return %r : i32
}
)",
                                    registry);
  const Function& fn = m.functions[0];
  const FunctionRegions regions(fn, registry);
  const OpId loop = find_op(fn, BuiltinOp::scf_for);
  const BlockId body = region_entry_block(fn, loop, 0);
  const ValueId x = fn.argument(0, 3);
  const auto entry = regions.region_entry(loop);
  CHECK_FALSE(entry.deciding.has_value());  // the induction variable decides, not an operand
  const std::vector<Branch> enter = branches(entry);
  REQUIRE(enter.size() == 2);
  check_branch(enter[0], body, {x}, -1);
  check_branch(enter[1], Branch::parent, {x}, -1);
  const std::vector<ValueId> bounds(regions.induction_bounds(loop).begin(), regions.induction_bounds(loop).end());
  CHECK(bounds == std::vector<ValueId>{fn.argument(0, 0), fn.argument(0, 1), fn.argument(0, 2)});
  const OpId yield = fn.blocks[body].last_op;
  const ValueId y = fn.result(find_op(fn, BuiltinOp::addi), 0);
  const auto exit = regions.region_exit(yield);
  CHECK(exit.owner == loop);
  const std::vector<Branch> out = branches(exit);
  REQUIRE(out.size() == 2);
  check_branch(out[0], body, {y}, -1);
  check_branch(out[1], Branch::parent, {y}, -1);
}

TEST_CASE("scf.while: before, then scf.condition to after (true) or the results (false); after back to before") {
  const OpRegistry registry;
  const Module m = parse_and_verify(R"(func.func @f(%x: i32, %n: i32) -> i32 {
  %r = scf.while (%a = %x) : (i32) -> i32 {
    %c = arith.cmpi slt, %a, %n : i32
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    %y = arith.addi %b, %b : i32
    scf.yield %y : i32
  }
  return %r : i32
}
)",
                                    registry);
  const Function& fn = m.functions[0];
  const FunctionRegions regions(fn, registry);
  const OpId loop = find_op(fn, BuiltinOp::scf_while);
  const BlockId before = region_entry_block(fn, loop, 0), after = region_entry_block(fn, loop, 1);
  const std::vector<Branch> enter = branches(regions.region_entry(loop));
  REQUIRE(enter.size() == 1);
  check_branch(enter[0], before, {fn.argument(0, 0)}, -1);
  CHECK(regions.induction_bounds(loop).empty());
  const OpId condition = fn.blocks[before].last_op;
  const auto exit = regions.region_exit(condition);
  const ValueId c = fn.result(find_op(fn, BuiltinOp::cmpi), 0), a = fn.argument(before, 0);
  CHECK(exit.owner == loop);
  CHECK(exit.deciding == c);
  const std::vector<Branch> out = branches(exit);
  REQUIRE(out.size() == 2);
  check_branch(out[0], after, {a}, 0);
  check_branch(out[1], Branch::parent, {a}, 1);
  const std::vector<Branch> again = branches(regions.region_exit(fn.blocks[after].last_op));
  REQUIRE(again.size() == 1);
  check_branch(again[0], before, {fn.result(find_op(fn, BuiltinOp::addi), 0)}, -1);
}

TEST_CASE("a function without regions: block successors are its branch slots") {
  const OpRegistry registry;
  const Module m = parse_and_verify(R"(func.func @f(%c: i1) {
  cf.cond_br %c, ^a, ^b
^a:
  cf.br ^b
^b:
  return
}
)",
                                    registry);
  const Function& fn = m.functions[0];
  const FunctionRegions regions(fn, registry);
  CHECK_FALSE(regions.has_regions());
  CHECK(regions.successor_slot_count() == 3);
  std::vector<std::uint32_t> targets;
  for (const kildall::BlockBranch s : regions.block_successors(0)) {
    CHECK(fn.successors[s.id].block == s.target);
    targets.push_back(s.target);
  }
  CHECK(targets == std::vector<std::uint32_t>{1, 2});
  CHECK(std::ranges::distance(regions.block_successors(2)) == 0);
}
