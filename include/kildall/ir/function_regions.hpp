#pragma once
/// \file
/// `FunctionRegions`: the reference IR's model of kildall's
/// `RegionBranchProgram` (kildall/graph/region_branch.hpp), which says where
/// control goes from an op owning regions (`scf.if`, `scf.for`, `scf.while`)
/// and from the terminators of its regions (`scf.yield`, `scf.condition`),
/// which values go along, which operand decides, and a loop's
/// induction-variable bounds. It reads each op's record's `RegionFlow`
/// (op_definition.hpp), the flow as data: the one reading of those records
/// that the CFG view (cfg_view.hpp: the generic `RegionCfg` built from it,
/// hence the solvers and the verifier's dominance) and the interpreter share.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ranges>
#include <span>

#include <kildall/graph/region_branch.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/support/prefetch.hpp>

namespace kildall::ir {

/// A function's control flow through ops owning regions, as kildall's `RegionBranchProgram`, by
/// the ops' records' `RegionFlow` (see the file comment). `fn` and `registry` must outlive it.
class FunctionRegions {
  /// A flow record as a `RegionBranch`: the entry block of the region it enters, or the parent
  /// (`RegionSuccessor::parent`, or a region index the op does not have, e.g. a missing else).
  struct ToBranch {
    const Function* fn;
    OpId owner;
    std::span<const ValueId> operands;
    RegionBranch<ValueId> operator()(const RegionSuccessor& s) const {
      const auto [first, last] = fn->regions_of(owner);
      const bool parent = s.region == RegionSuccessor::parent || first + s.region >= last;
      return {parent ? RegionBranch<ValueId>::parent : fn->regions[first + s.region].first_block, s.forwarded(operands),
              s.arm};
    }
  };

  /// The successors `successors` of `op` (whose operands they forward) of the regions of `owner`,
  /// picked by `op`'s operand number `deciding` (-1: none).
  [[nodiscard]] auto flow_at(OpId owner, std::span<const RegionSuccessor> successors, std::int32_t deciding,
                             OpId op) const {
    const std::span<const ValueId> operands = fn_->operands_of(op);
    std::optional<ValueId> decided_by;
    if (deciding >= 0) decided_by = operands[static_cast<std::size_t>(deciding)];
    auto branches = successors | std::views::transform(ToBranch{fn_, owner, operands});
    return RegionFlowAt<OpId, ValueId, decltype(branches)>{owner, branches, decided_by};
  }

 public:
  using op_type = OpId;        ///< An op is its `OpId`.
  using value_type = ValueId;  ///< A value is its `ValueId`.

  /// The regions of `fn`, whose ops `registry` describes.
  FunctionRegions(const Function& fn, const OpRegistry& registry) : fn_(&fn), registry_(&registry) {}

  /// Number of blocks.
  [[nodiscard]] std::size_t block_count() const { return fn_->blocks.size(); }
  /// Number of successor slots (`Function::successors`); region edges are numbered after them.
  [[nodiscard]] std::size_t successor_slot_count() const { return fn_->successors.size(); }
  /// Whether any op owns regions.
  [[nodiscard]] bool has_regions() const { return !fn_->regions.empty(); }
  /// The ops of block `b`, in order.
  [[nodiscard]] Function::BlockOps ops(BlockId b) const { return fn_->ops_of(b); }
  /// The successor slots of `b`'s terminator (none for a block without ops). Asks for the
  /// terminator of the block `prefetch_distance` on as well: the CFG is built by calling this
  /// block after block, and each terminator is a cache miss in a large function. Notes an
  /// unregistered terminator with successors (`met_unregistered_branch`) while it reads one.
  [[nodiscard]] auto block_successors(BlockId b) const {
    if (const BlockId ahead = b + prefetch_distance; ahead < fn_->blocks.size()) {
      if (const OpId t = fn_->blocks[ahead].last_op; t != no_index) kildall::detail::prefetch_for_read(&fn_->ops[t]);
    }
    const OpId term = fn_->blocks[b].last_op;
    const std::uint32_t begin = term == no_index ? 0 : fn_->ops[term].successor_begin;
    const std::uint32_t count = term == no_index ? 0 : fn_->ops[term].successor_count;
    if (count != 0 && is(fn_->ops[term].code, BuiltinOp::unregistered))
      met_unregistered_branch_.store(true, std::memory_order_relaxed);
    return std::views::iota(begin, begin + count) |
           std::views::transform([fn = fn_](std::uint32_t s) { return BlockBranch{fn->successors[s].block, s}; });
  }
  /// Where `op` goes first, when it owns regions and its record describes their flow: its
  /// flow's `from_op`, decided by `deciding_operand`; nowhere for other ops.
  [[nodiscard]] auto region_entry(OpId op) const {
    const RegionFlow& flow = registry_->op(fn_->ops[op].code).region_flow;
    if (!flow.described()) return flow_at(no_index, {}, -1, op);
    return flow_at(op, flow.from_op, flow.deciding_operand, op);
  }
  /// Where `op` goes when it is the terminator of a region whose owner describes its flow
  /// (`scf.yield`, `scf.condition`): the region's `from_region`, decided by
  /// `region_deciding_operand`; nowhere for other ops.
  [[nodiscard]] auto region_exit(OpId op) const {
    const Function& fn = *fn_;
    const OpData& o = fn.ops[op];
    // A terminator without successors (not `func.return`) of a block of a region.
    const bool region_terminator = !fn.regions.empty() && o.successor_count == 0 && !is(o.code, BuiltinOp::return_) &&
                                   registry_->op(o.code).terminator;
    if (!region_terminator) return flow_at(no_index, {}, -1, op);
    const OpId owner = fn.parent_op(o.block);
    if (owner == no_index) return flow_at(no_index, {}, -1, op);
    const RegionFlow& flow = registry_->op(fn.ops[owner].code).region_flow;
    const std::uint32_t index = fn.regions[fn.region_of(o.block)].index;
    if (!flow.described() || index >= flow.from_region.size()) return flow_at(no_index, {}, -1, op);
    const auto& deciding = flow.region_deciding_operand;
    return flow_at(owner, flow.from_region[index], index < deciding.size() ? deciding[index] : -1, op);
  }
  /// Whether `block_successors` has met a block ending in an unregistered op with successors
  /// (an opaque branch: it says nothing of what it passes to its successors' arguments), so
  /// that the view built from this program tells its users without their reading every
  /// terminator again.
  [[nodiscard]] bool met_unregistered_branch() const {
    return met_unregistered_branch_.load(std::memory_order_relaxed);
  }
  /// For a loop (`RegionFlow::induction_bounds`) whose body's entry has arguments: its lower
  /// bound, upper bound and step; none otherwise.
  [[nodiscard]] std::span<const ValueId> induction_bounds(OpId op) const {
    const std::int32_t bounds = registry_->op(fn_->ops[op].code).region_flow.induction_bounds;
    if (bounds < 0) return {};
    const auto [first, last] = fn_->regions_of(op);
    if (first == last || fn_->blocks[fn_->regions[first].first_block].argument_count == 0) return {};
    return fn_->operands_of(op).subspan(static_cast<std::size_t>(bounds), 3);
  }

 private:
  static constexpr BlockId prefetch_distance = 8;  // blocks ahead whose terminator is asked for
  const Function* fn_;
  const OpRegistry* registry_;
  // A note taken while the CFG is read (`block_successors`); atomic, so that views built from one
  // program on several threads at once do not race on it.
  mutable std::atomic<bool> met_unregistered_branch_ = false;
};

static_assert(RegionBranchProgramWithInduction<FunctionRegions>);

}  // namespace kildall::ir
