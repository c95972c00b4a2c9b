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

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <utility>
#include <vector>

#include <boost/graph/graph_traits.hpp>

#include <kildall/graph/index_iterator.hpp>
#include <kildall/ir/module.hpp>

namespace kildall::ir {

/// The vertex iterator of the IR's graph views (blocks, values): consecutive ids by value.
using IndexIterator = kildall::IndexIterator<std::uint32_t>;

/// A CFG edge: successor slot `successor` (index into `Function::successors`) from `source` to `target`.
struct CfgEdge {
  BlockId source = no_index;             ///< Block whose terminator branches.
  BlockId target = no_index;             ///< Successor block.
  std::uint32_t successor = no_index;    ///< Index into `Function::successors`.
  /// Edges compare field by field.
  friend bool operator==(const CfgEdge&, const CfgEdge&) = default;
};

/// The blocks of one function as a bidirectional, indexed graph.
class CfgView {
 public:
  /// The CFG of `fn` (which must outlive the view and not change while it is used).
  explicit CfgView(const Function& fn) : fn_(&fn) {
    const std::size_t n = fn.blocks.size();
    out_begin_.assign(n + 1, 0);
    in_begin_.assign(n + 1, 0);
    out_.reserve(fn.successors.size());  // every edge is a successor (erased terminators' are skipped)
    for (BlockId b = 0; b < n; ++b) {
      const OpId term = fn.blocks[b].last_op;
      const std::uint32_t count = term == no_index ? 0 : fn.ops[term].successor_count;
      for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint32_t s = fn.ops[term].successor_begin + i;
        out_.push_back({b, fn.successors[s].block, s});
        ++in_begin_[fn.successors[s].block + 1];
      }
      out_begin_[b + 1] = static_cast<std::uint32_t>(out_.size());
    }
    for (std::size_t b = 0; b < n; ++b) in_begin_[b + 1] += in_begin_[b];
    in_.resize(out_.size());
    BodyArray<std::uint32_t> fill(in_begin_.begin(), in_begin_.end() - 1);
    for (const CfgEdge& e : out_) in_[fill[e.target]++] = e;
  }

  /// The function viewed.
  [[nodiscard]] const Function& function() const { return *fn_; }
  /// Number of blocks.
  [[nodiscard]] std::size_t block_count() const { return fn_->blocks.size(); }
  /// The entry block (0).
  [[nodiscard]] static constexpr BlockId entry() { return 0; }
  /// Out-edges of `b`, in successor order.
  [[nodiscard]] std::span<const CfgEdge> successors(BlockId b) const {
    return {out_.data() + out_begin_[b], out_begin_[b + 1] - out_begin_[b]};
  }
  /// In-edges of `b`.
  [[nodiscard]] std::span<const CfgEdge> predecessors(BlockId b) const {
    return {in_.data() + in_begin_[b], in_begin_[b + 1] - in_begin_[b]};
  }
  /// All edges, grouped by source block.
  [[nodiscard]] std::span<const CfgEdge> edges() const { return out_; }

 private:
  const Function* fn_;
  BodyArray<CfgEdge> out_;
  BodyArray<CfgEdge> in_;
  BodyArray<std::uint32_t> out_begin_;
  BodyArray<std::uint32_t> in_begin_;
};

/// Boost.Graph traversal category of `CfgView`.
struct CfgTraversalCategory : boost::bidirectional_graph_tag, boost::vertex_list_graph_tag {};

// Boost.Graph-style free functions, found by argument-dependent lookup.

/// Out-edges of `b` as an iterator pair.
[[nodiscard]] inline std::pair<const CfgEdge*, const CfgEdge*> out_edges(BlockId b, const CfgView& g) {
  const auto s = g.successors(b);
  return {s.data(), s.data() + s.size()};
}
/// In-edges of `b` as an iterator pair.
[[nodiscard]] inline std::pair<const CfgEdge*, const CfgEdge*> in_edges(BlockId b, const CfgView& g) {
  const auto s = g.predecessors(b);
  return {s.data(), s.data() + s.size()};
}
/// Target block of `e`.
[[nodiscard]] inline BlockId target(const CfgEdge& e, const CfgView&) { return e.target; }
/// Source block of `e`.
[[nodiscard]] inline BlockId source(const CfgEdge& e, const CfgView&) { return e.source; }
/// All blocks as an iterator pair.
[[nodiscard]] inline std::pair<IndexIterator, IndexIterator> vertices(const CfgView& g) {
  return {IndexIterator(0), IndexIterator(static_cast<BlockId>(g.block_count()))};
}
/// Number of blocks.
[[nodiscard]] inline std::size_t num_vertices(const CfgView& g) { return g.block_count(); }
/// Number of successor slots of `b`.
[[nodiscard]] inline std::size_t out_degree(BlockId b, const CfgView& g) { return g.successors(b).size(); }
/// Number of predecessor edges of `b`.
[[nodiscard]] inline std::size_t in_degree(BlockId b, const CfgView& g) { return g.predecessors(b).size(); }

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
