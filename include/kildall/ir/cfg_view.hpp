#pragma once
/// \file
/// The dense view: a function's blocks as a control-flow graph that models
/// kildall's graph concepts (`ForwardGraph`, `BackwardGraph`, `IndexedGraph`,
/// hence `AnalysisGraph`) through a `boost::graph_traits` specialization and
/// ADL free functions, with no copy of the function into another graph type.
/// Vertices are `BlockId`s (their own dense index); an edge is one successor
/// slot of a terminator, so `cond_br %c, ^bb1, ^bb1` has two parallel edges.
/// The view keeps the edges in two compressed arrays (out and in) built in
/// O(blocks + edges); rebuild it after a rewrite changes the CFG.
///
/// Regions (`scf.if`, `scf.for`, `scf.while`) become edges too: the function
/// models kildall's `RegionBranchProgram` (kildall/graph/region_branch.hpp)
/// through `FunctionRegions`, which reads each op's `RegionFlow`
/// (op_definition.hpp), and the view is the generic `RegionCfg` built from
/// it: a block that holds ops owning regions is cut after each of them, the
/// part after one being a *continuation* vertex (ids `blocks.size()` and up;
/// a block's own id is its first part), whose arguments are that op's
/// results. The op's part branches to its regions' entry blocks (or straight
/// to its continuation), and each region's terminator (`scf.yield`,
/// `scf.condition`) to where the flow says: a region's entry or the
/// continuation. These *region edges* forward the values the flow names
/// (`forwarded`) and may be taken only on one side of a deciding operand
/// (`arm`). So a solver needs nothing about regions: SCCP and the integer
/// ranges propagate through `scf` with executable regions as they do through
/// `cf`. Without regions the view is the plain block graph.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ranges>
#include <span>
#include <utility>

#include <boost/graph/graph_traits.hpp>

#include <kildall/graph/index_iterator.hpp>
#include <kildall/graph/region_branch.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>

namespace kildall::ir {

/// The vertex iterator of the IR's graph views (blocks, values): consecutive ids by value.
using IndexIterator = kildall::IndexIterator<std::uint32_t>;

/// A CFG edge: successor slot `successor` (index into `Function::successors`, or a region
/// edge's id from `Function::successors.size()` on) from vertex `source` to `target`.
using CfgEdge = kildall::RegionCfgEdge;

/// A function's control flow through ops owning regions, as kildall's `RegionBranchProgram`
/// (kildall/graph/region_branch.hpp), by the ops' records' `RegionFlow`: the one reading of the
/// flow records that the CFG view (hence the solvers and the verifier's dominance) and the
/// interpreter share. `fn` and `registry` must outlive it.
class FunctionRegions {
  /// A flow record as a `RegionBranch`: the entry block of the region it enters, or the parent.
  struct ToBranch {
    const Function* fn;
    OpId owner;
    std::span<const ValueId> operands;
    RegionBranch<ValueId> operator()(const RegionSuccessor& s) const {
      const std::optional<RegionId> region = entered_region(*fn, owner, s);
      return {region ? fn->regions[*region].first_block : RegionBranch<ValueId>::parent, s.forwarded(operands), s.arm};
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
  /// The successor slots of `b`'s terminator (none for a block without ops).
  [[nodiscard]] auto block_successors(BlockId b) const {
    const OpId term = fn_->blocks[b].last_op;
    const std::uint32_t begin = term == no_index ? 0 : fn_->ops[term].successor_begin;
    const std::uint32_t count = term == no_index ? 0 : fn_->ops[term].successor_count;
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
    const std::optional<RegionExit> exit = ir::region_exit(*fn_, op, *registry_);
    if (!exit) return flow_at(no_index, {}, -1, op);
    return flow_at(exit->owner, exit->successors(), exit->deciding_operand(), op);
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
  const Function* fn_;
  const OpRegistry* registry_;
};

static_assert(RegionBranchProgramWithInduction<FunctionRegions>);

/// The blocks of one function, and the continuations after its ops owning regions, as a
/// bidirectional, indexed graph: kildall's `RegionCfg` of the function's `FunctionRegions`.
class CfgView : public RegionCfg<OpId, ValueId> {
 public:
  /// The CFG of `fn` (which must outlive the view and not change while it is used); `registry`
  /// describes how control flows through ops that own regions (only read when `fn` has some).
  explicit CfgView(const Function& fn, const OpRegistry& registry = OpRegistry::builtins())
      : RegionCfg(FunctionRegions(fn, registry)), fn_(&fn) {}

  /// The function viewed.
  [[nodiscard]] const Function& function() const { return *fn_; }
  /// The first op of vertex `v` (`no_index` if none); its ops run up to the block's end or the
  /// first op owning regions (`part_end(v)`), included.
  [[nodiscard]] OpId first_op(std::uint32_t v) const {
    const std::optional<OpId> after = continuation_after(v);
    return after ? fn_->ops[*after].next : fn_->blocks[v].first_op;
  }

 private:
  const Function* fn_;
};

/// Boost.Graph traversal category of `CfgView`.
struct CfgTraversalCategory : boost::bidirectional_graph_tag, boost::vertex_list_graph_tag {};

}  // namespace kildall::ir

/// `CfgView` in Boost.Graph's vocabulary.
template <>
struct boost::graph_traits<kildall::ir::CfgView> {
  using vertex_descriptor = kildall::ir::BlockId;                       ///< A block.
  using edge_descriptor = kildall::ir::CfgEdge;                         ///< A successor slot.
  using out_edge_iterator = const kildall::ir::CfgEdge*;                ///< Iterates out-edges.
  using in_edge_iterator = const kildall::ir::CfgEdge*;                 ///< Iterates in-edges.
  using vertex_iterator = kildall::ir::IndexIterator;                   ///< Iterates blocks.
  using adjacency_iterator = void;                                      ///< Not provided.
  using edge_iterator = void;                                           ///< Not provided.
  using directed_category = boost::bidirectional_tag;                   ///< Directed, both ways.
  using edge_parallel_category = boost::allow_parallel_edge_tag;        ///< Parallel edges occur.
  using traversal_category = kildall::ir::CfgTraversalCategory;        ///< What can be traversed.
  using vertices_size_type = std::size_t;                               ///< Vertex count type.
  using edges_size_type = std::size_t;                                  ///< Edge count type.
  using degree_size_type = std::size_t;                                 ///< Degree type.
  /// The "no block" value.
  static kildall::ir::BlockId null_vertex() { return kildall::ir::no_index; }
};
