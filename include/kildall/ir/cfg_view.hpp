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
/// through `FunctionRegions` (function_regions.hpp), which reads each op's `RegionFlow`
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
#include <span>
#include <utility>

#include <boost/graph/graph_traits.hpp>

#include <kildall/graph/index_iterator.hpp>
#include <kildall/graph/region_branch.hpp>
#include <kildall/ir/function_regions.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>

namespace kildall::ir {

/// The vertex iterator of the IR's graph views (blocks, values): consecutive ids by value.
using IndexIterator = kildall::IndexIterator<std::uint32_t>;

/// A CFG edge: successor slot `successor` (index into `Function::successors`, or a region
/// edge's id from `Function::successors.size()` on) from vertex `source` to `target`.
using CfgEdge = kildall::RegionCfgEdge;

/// The blocks of one function, and the continuations after its ops owning regions, as a
/// bidirectional, indexed graph: kildall's `RegionCfg` of the function's `FunctionRegions`.
class CfgView : public RegionCfg<OpId, ValueId> {
 public:
  /// The CFG of `fn` (which must outlive the view and not change while it is used); `registry`
  /// describes how control flows through ops that own regions (only read when `fn` has some).
  explicit CfgView(const Function& fn, const OpRegistry& registry = OpRegistry::builtins())
      : CfgView(fn, FunctionRegions(fn, registry)) {}

  /// The function viewed.
  [[nodiscard]] const Function& function() const { return *fn_; }
  /// The first op of vertex `v` (`no_index` if none); its ops run up to the block's end or the
  /// first op owning regions (`part_end(v)`), included.
  [[nodiscard]] OpId first_op(std::uint32_t v) const {
    const std::optional<OpId> after = continuation_after(v);
    return after ? fn_->ops[*after].next : fn_->blocks[v].first_op;
  }
  /// Whether some block ends in an unregistered op with successors (an opaque branch), as
  /// found while the view was built.
  [[nodiscard]] bool has_unregistered_branch() const { return unregistered_branch_; }

 private:
  CfgView(const Function& fn, const FunctionRegions& regions)
      : RegionCfg(regions), fn_(&fn), unregistered_branch_(regions.met_unregistered_branch()) {}

  const Function* fn_;
  bool unregistered_branch_;
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
