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
/// Regions (`scf.if`, `scf.for`, `scf.while`) become edges too, by their ops'
/// `RegionFlow` (op_definition.hpp): a block that holds ops owning regions is
/// cut after each of them, the part after one being a *continuation* vertex
/// (ids `blocks.size()` and up; a block's own id is its first part), whose
/// arguments are that op's results. The op's part branches to its regions'
/// entry blocks (or straight to its continuation), and each region's
/// terminator (`scf.yield`, `scf.condition`) to where the flow says: a
/// region's entry or the continuation. These *region edges* forward the
/// values the flow names (`forwarded`) and may be taken only on one side of a
/// deciding operand (`arm`). So a solver needs nothing about regions: SCCP and
/// the integer ranges propagate through `scf` with executable regions as they
/// do through `cf`. Without regions the view is the plain block graph.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <iterator>
#include <span>
#include <utility>
#include <vector>

#include <boost/graph/graph_traits.hpp>

#include <kildall/graph/index_iterator.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>

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
  /// The CFG of `fn` (which must outlive the view and not change while it is used); `registry`
  /// describes how control flows through ops that own regions (only read when `fn` has some).
  explicit CfgView(const Function& fn, const OpRegistry& registry = OpRegistry::builtins()) : fn_(&fn) {
    const std::size_t n = fn.blocks.size();
    if (!fn.regions.empty()) {
      build_with_regions(registry);
      return;
    }
    vertex_count_ = static_cast<std::uint32_t>(n);
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
    finish_in_edges();
  }

  /// The function viewed.
  [[nodiscard]] const Function& function() const { return *fn_; }
  /// Number of vertices: the blocks, then the continuations after ops that own regions.
  [[nodiscard]] std::size_t vertex_count() const { return vertex_count_; }
  /// The block vertex `v` is a part of (itself for a block id).
  [[nodiscard]] BlockId block_of(std::uint32_t v) const {
    return v < fn_->blocks.size() ? v : fn_->ops[continuation_after_[v - fn_->blocks.size()]].block;
  }
  /// For a continuation vertex, the op owning regions it follows; `no_index` for a block.
  [[nodiscard]] OpId continuation_after(std::uint32_t v) const {
    return v < fn_->blocks.size() ? no_index : continuation_after_[v - fn_->blocks.size()];
  }
  /// The first op of vertex `v` (`no_index` if none); its ops run up to the block's end or the
  /// first op owning regions, included.
  [[nodiscard]] OpId first_op(std::uint32_t v) const {
    return v < fn_->blocks.size() ? fn_->blocks[v].first_op : fn_->ops[continuation_after(v)].next;
  }
  /// The op owning regions that ends vertex `v` (its results are the next part's arguments), or
  /// `no_index` when `v` ends with its block's terminator.
  [[nodiscard]] OpId part_end(std::uint32_t v) const { return part_end_.empty() ? no_index : part_end_[v]; }
  /// The continuation vertex after `op`, which owns regions.
  [[nodiscard]] std::uint32_t continuation_of(OpId op) const { return continuation_.at(op); }
  /// Whether `e` is a region edge (not a successor of a `cf`-style terminator).
  [[nodiscard]] bool is_region_edge(const CfgEdge& e) const { return e.successor >= fn_->successors.size(); }
  /// The values region edge `e` forwards to its target's arguments (see the file comment).
  [[nodiscard]] std::span<const ValueId> forwarded(const CfgEdge& e) const {
    const RegionEdge& r = region_edges_[e.successor - fn_->successors.size()];
    return {region_forwarded_.data() + r.forwarded_begin, r.forwarded_count};
  }
  /// For region edge `e`: 0 when taken only if the deciding operand is true, 1 only if false;
  /// nullopt when either.
  [[nodiscard]] std::optional<std::uint32_t> arm(const CfgEdge& e) const {
    const RegionEdge& r = region_edges_[e.successor - fn_->successors.size()];
    if (r.arm < 0) return std::nullopt;
    return static_cast<std::uint32_t>(r.arm);
  }
  /// The operand that decides which region edges leave `v` (`scf.if`'s or `scf.condition`'s
  /// condition): one value, or none.
  [[nodiscard]] std::span<const ValueId> deciding_operands(std::uint32_t v) const {
    if (deciding_.empty() || deciding_[v] == no_index) return {};
    return {deciding_.data() + v, 1};
  }
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
  struct RegionEdge {
    std::uint32_t forwarded_begin = 0;
    std::uint32_t forwarded_count = 0;
    std::int32_t arm = -1;
  };

  void finish_in_edges() {
    const std::size_t n = vertex_count_;
    for (std::size_t b = 0; b < n; ++b) in_begin_[b + 1] += in_begin_[b];
    in_.resize(out_.size());
    BodyArray<std::uint32_t> fill(in_begin_.begin(), in_begin_.end() - 1);
    for (const CfgEdge& e : out_) in_[fill[e.target]++] = e;
  }

  void build_with_regions(const OpRegistry& registry) {
    const Function& fn = *fn_;
    const auto n = static_cast<std::uint32_t>(fn.blocks.size());
    const auto has_flow = [&](OpId op) { return registry.op(fn.ops[op].code).region_flow.described(); };
    // Vertices: cut each block after every op that owns regions.
    part_end_.assign(n, no_index);
    for (BlockId b = 0; b < n; ++b) {
      std::uint32_t v = b;
      for (const OpId op : fn.ops_of(b)) {
        if (!has_flow(op) || op == fn.blocks[b].last_op) continue;
        part_end_[v] = op;
        v = n + static_cast<std::uint32_t>(continuation_after_.size());
        continuation_after_.push_back(op);
        continuation_.emplace(op, v);
        part_end_.push_back(no_index);
      }
    }
    vertex_count_ = n + static_cast<std::uint32_t>(continuation_after_.size());
    deciding_.assign(vertex_count_, no_index);
    // Edges, grouped by source vertex.
    out_begin_.assign(vertex_count_ + 1, 0);
    in_begin_.assign(vertex_count_ + 1, 0);
    const auto total_successors = static_cast<std::uint32_t>(fn.successors.size());
    const auto add_region_edge = [&](std::uint32_t source, std::uint32_t target, std::span<const ValueId> values,
                                     std::int32_t arm) {
      out_.push_back({source, target, total_successors + static_cast<std::uint32_t>(region_edges_.size())});
      region_edges_.push_back({static_cast<std::uint32_t>(region_forwarded_.size()),
                               static_cast<std::uint32_t>(values.size()), arm});
      region_forwarded_.insert(region_forwarded_.end(), values.begin(), values.end());
      ++in_begin_[target + 1];
    };
    // The edge of successor `s` of `owner` (an op owning regions) from vertex `source`, whose
    // deciding op has `operands`.
    const auto follow = [&](std::uint32_t source, OpId owner, const RegionSuccessor& s, std::span<const ValueId> operands) {
      const std::optional<RegionId> region = entered_region(fn, owner, s);
      add_region_edge(source, region ? fn.regions[*region].first_block : continuation_.at(owner), s.forwarded(operands),
                      s.arm);
    };
    for (BlockId b = 0; b < n; ++b) {
      // The parts of b end in its ops owning regions, then its terminator.
      std::uint32_t v = b;
      for (const OpId op : fn.ops_of(b)) {
        if (op == part_end_[v]) {
          const RegionFlow& flow = registry.op(fn.ops[op].code).region_flow;
          const auto operands = fn.operands_of(op);
          if (flow.deciding_operand >= 0) deciding_[v] = operands[static_cast<std::size_t>(flow.deciding_operand)];
          for (const RegionSuccessor& s : flow.from_op) follow(v, op, s, operands);
          v = continuation_.at(op);
          continue;
        }
        if (op != fn.blocks[b].last_op) continue;
        // The terminator: a region's (by its owner's flow) or a `cf`-style one.
        if (const std::optional<RegionExit> exit = region_exit(fn, op, registry)) {
          const auto operands = fn.operands_of(op);
          if (exit->deciding_operand() >= 0) deciding_[v] = operands[static_cast<std::size_t>(exit->deciding_operand())];
          for (const RegionSuccessor& s : exit->successors()) follow(v, exit->owner, s, operands);
        } else {
          for (std::uint32_t i = 0; i < fn.ops[op].successor_count; ++i) {
            const std::uint32_t s = fn.ops[op].successor_begin + i;
            out_.push_back({v, fn.successors[s].block, s});
            ++in_begin_[fn.successors[s].block + 1];
          }
        }
      }
    }
    // Vertices are numbered blocks first, but their edges were pushed block by block: group them.
    std::vector<std::uint32_t> count(vertex_count_ + 1, 0);
    for (const CfgEdge& e : out_) ++count[e.source + 1];
    for (std::size_t v = 0; v < vertex_count_; ++v) count[v + 1] += count[v];
    out_begin_.assign(count.begin(), count.end());
    BodyArray<CfgEdge> grouped(out_.size());
    for (const CfgEdge& e : out_) grouped[count[e.source]++] = e;
    out_ = std::move(grouped);
    finish_in_edges();
  }

  const Function* fn_;
  std::uint32_t vertex_count_ = 0;
  BodyArray<OpId> continuation_after_;               // by continuation vertex - blocks: the op it follows
  std::unordered_map<OpId, std::uint32_t> continuation_;  // op owning regions -> its continuation vertex
  BodyArray<OpId> part_end_;                         // by vertex (regions only): the op owning regions ending it
  BodyArray<ValueId> deciding_;                      // by vertex (regions only): the deciding operand
  std::vector<RegionEdge> region_edges_;             // by successor id - successors.size()
  BodyArray<ValueId> region_forwarded_;
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
  return {IndexIterator(0), IndexIterator(static_cast<BlockId>(g.vertex_count()))};
}
/// Number of blocks.
[[nodiscard]] inline std::size_t num_vertices(const CfgView& g) { return g.vertex_count(); }
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
