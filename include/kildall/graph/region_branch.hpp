#pragma once
/// \file
/// `RegionBranchProgram`: ops that own regions and branch into and out of
/// them (MLIR's `RegionBranchOpInterface`: which region, or the op's own
/// results, receive which values from the op's entry operands and from each
/// region's terminator), described once per IR; and `RegionCfg`, the one
/// construction that flattens such a program into a control-flow graph the
/// solvers run on unchanged. An IR with structured control flow (`scf.if`,
/// `scf.for`, `scf.while`) models the concept, builds a `RegionCfg` and
/// presents it as the CFG of its `SsaProgram` shape (ssa_program.hpp): the
/// region edges forward values like branch operands and carry the arm a
/// deciding operand takes them on, so SCCP and interval analyses propagate
/// through regions, with regions never entered left unreached, as through
/// `cf` branches. No solver knows about regions.
///
/// The flattening (the method of MLIR's dataflow framework, which visits a
/// region-branch op's `getSuccessorRegions` and its terminators'
/// `getSuccessorOperands`, here done once into edges): a block holding ops
/// that own regions is cut after each of them, the part after one being a
/// *continuation* vertex (numbered after the blocks; a block's own number is
/// its first part) whose arguments are that op's results. The op's part
/// branches to the entry blocks of the regions it enters (or straight to its
/// continuation), and the terminator of a region's block to where it says:
/// a region's entry, or the continuation after the op owning the region.
///
/// A program is one class with these members (`O` a copyable, hashable op
/// handle, `V` a copyable value handle, blocks numbered `[0, block_count())`,
/// "range" anything iterable):
///
/// ```
/// struct MyRegions {
///   using op_type = O;
///   using value_type = V;
///   std::size_t block_count() const;
///   std::size_t successor_slot_count() const;       // ids of the program's own branch slots
///   bool has_regions() const;                       // false: no op owns regions (the plain block graph)
///   range<O> ops(std::uint32_t b) const;            // b's ops in order; the last one is its terminator
///   range<BlockBranch> block_successors(std::uint32_t b) const;  // b's terminator's own branch slots
///   RegionFlowAt<O, V, range<RegionBranch<V>>> region_entry(O o) const;  // see below
///   RegionFlowAt<O, V, range<RegionBranch<V>>> region_exit(O o) const;
///   // optional:
///   range<V> induction_bounds(O o) const;           // a loop's lower bound, upper bound, step (or none)
/// };
/// ```
///
/// Both say where control goes from `o` (`successors`), which operand's
/// value picks among them by their arms (`deciding`), and which op owns the
/// regions (`owner`, whose results a successor to `parent` reaches).
/// `region_entry(o)`, asked of every op but the last of its block: the
/// regions `o` enters first, or straight to its results (`owner` is `o`; no
/// successors: `o` owns no regions). `region_exit(o)`, asked of the last op
/// of each block: the places it goes as the terminator of a region (`owner`
/// is the op owning that region; no successors: it is no region's
/// terminator and branches by `block_successors`, or returns).
/// `induction_bounds(o)`, for a loop op, names three operands: the first
/// argument of the entry of each region `o` enters is then an induction
/// variable running from the first up to (excluding) the second by the
/// third, which no edge forwards (the region edges into that block forward
/// to its other arguments); an analysis computes it from the three
/// (`RegionCfg::induction_bounds`).
///
/// The graph is built in O(blocks + ops + edges); rebuild it after a rewrite.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/index_iterator.hpp>
#include <kildall/support/large_array_allocator.hpp>

namespace kildall {

/// Where control goes from an op owning regions, or from the terminator of one of its regions.
template <class V>
struct RegionBranch {
  /// `target` meaning "back to the op owning the regions": its results receive the values.
  static constexpr std::uint32_t parent = 0xFFFFFFFFu;
  std::uint32_t target = parent;  ///< The entry block of the region entered, or `parent`.
  /// The values passed on: to the target's arguments (after an induction variable), or to the
  /// op's results.
  std::span<const V> forwarded;
  std::int8_t arm = -1;  ///< 0: taken only when the deciding operand is true, 1: only when false, -1: either.
};

/// What `region_entry(o)` and `region_exit(o)` return: where control goes from op `o` of a
/// `RegionBranchProgram`.
template <class O, class V, class Successors>
struct RegionFlowAt {
  O owner{};                  ///< The op owning the regions: `o`, or the owner of the region `o` ends.
  Successors successors{};    ///< Where control goes (a range of `RegionBranch<V>`); empty: nowhere.
  std::optional<V> deciding;  ///< The operand whose value the successors' arms read, if any.
};

/// One branch slot of a block's own terminator (a `cf.br`'s, a `cf.cond_br`'s two).
struct BlockBranch {
  std::uint32_t target = 0;  ///< The successor block.
  std::uint32_t id = 0;      ///< The slot's id, in `[0, successor_slot_count())`.
};

/// The op handle of a region-branch program `P`.
template <class P>
using region_op_t = typename P::op_type;

/// The value handle of a region-branch program `P`.
template <class P>
using region_value_t = typename P::value_type;

/// A program whose ops may own regions: see the file comment for the members.
template <class P>
concept RegionBranchProgram =
    requires {
      typename region_op_t<P>;
      typename region_value_t<P>;
    } && std::copyable<region_op_t<P>> && std::copyable<region_value_t<P>> &&
    requires(const P& p, std::uint32_t b, const region_op_t<P>& o) {
      { std::hash<region_op_t<P>>{}(o) } -> std::convertible_to<std::size_t>;
      { p.block_count() } -> std::convertible_to<std::size_t>;
      { p.successor_slot_count() } -> std::convertible_to<std::size_t>;
      { p.has_regions() } -> std::convertible_to<bool>;
      { p.ops(b) } -> detail::RangeOf<region_op_t<P>>;
      { p.block_successors(b) } -> detail::RangeOf<BlockBranch>;
      { p.region_entry(o).owner } -> std::convertible_to<region_op_t<P>>;
      { p.region_entry(o).successors } -> detail::RangeOf<RegionBranch<region_value_t<P>>>;
      { p.region_entry(o).deciding } -> std::convertible_to<std::optional<region_value_t<P>>>;
      { p.region_exit(o).owner } -> std::convertible_to<region_op_t<P>>;
      { p.region_exit(o).successors } -> detail::RangeOf<RegionBranch<region_value_t<P>>>;
      { p.region_exit(o).deciding } -> std::convertible_to<std::optional<region_value_t<P>>>;
    };

/// Whether program `P` has loops with induction variables (`induction_bounds(o)`).
template <class P>
concept RegionBranchProgramWithInduction =
    RegionBranchProgram<P> && requires(const P& p, const region_op_t<P>& o) {
      { p.induction_bounds(o) } -> detail::RangeOf<region_value_t<P>>;
    };

/// An edge of a `RegionCfg`: branch slot `successor` from vertex `source` to `target`; a slot
/// id of at least the program's `successor_slot_count()` is a region edge.
struct RegionCfgEdge {
  std::uint32_t source = 0xFFFFFFFFu;     ///< The vertex whose terminator (or op owning regions) branches.
  std::uint32_t target = 0xFFFFFFFFu;     ///< The vertex entered.
  std::uint32_t successor = 0xFFFFFFFFu;  ///< The program's branch slot, or a region edge's id.
  /// Edges compare field by field.
  friend bool operator==(const RegionCfgEdge&, const RegionCfgEdge&) = default;
};

/// The flattened control-flow graph of a `RegionBranchProgram` with op handles `O` and value
/// handles `V` (see the file comment): a bidirectional, indexed graph (`AnalysisGraph`) whose
/// vertices are the blocks, then the continuations after ops owning regions, plus what its
/// region edges forward and on which arm they are taken. It keeps no reference to the program.
template <class O, class V>
class RegionCfg {
 public:
  using vertex_descriptor = std::uint32_t;   ///< A block, or a continuation.
  using edge_descriptor = RegionCfgEdge;     ///< A branch slot or a region edge.
  /// "No vertex".
  static constexpr std::uint32_t no_vertex = 0xFFFFFFFFu;

  /// An empty graph.
  RegionCfg() = default;

  /// The graph of program `p`.
  template <RegionBranchProgram P>
    requires std::same_as<region_op_t<P>, O> && std::same_as<region_value_t<P>, V>
  explicit RegionCfg(const P& p)
      : block_count_(static_cast<std::uint32_t>(p.block_count())),
        successor_slots_(static_cast<std::uint32_t>(p.successor_slot_count())) {
    if (p.has_regions()) {
      build_with_regions(p);
      return;
    }
    const std::uint32_t n = block_count_;
    vertex_count_ = n;
    out_begin_.assign(n + 1, 0);
    in_begin_.assign(n + 1, 0);
    out_.reserve(successor_slots_);
    for (std::uint32_t b = 0; b < n; ++b) {
      for (const BlockBranch s : p.block_successors(b)) {
        out_.push_back({b, s.target, s.id});
        ++in_begin_[s.target + 1];
      }
      out_begin_[b + 1] = static_cast<std::uint32_t>(out_.size());
    }
    finish_in_edges();
  }

  /// Number of vertices: the blocks, then the continuations.
  [[nodiscard]] std::size_t vertex_count() const { return vertex_count_; }
  /// Number of blocks (the vertices below it are blocks, the others continuations).
  [[nodiscard]] std::size_t block_count() const { return block_count_; }
  /// The entry block (0).
  [[nodiscard]] static constexpr std::uint32_t entry() { return 0; }
  /// Out-edges of `v`, in branch order.
  [[nodiscard]] std::span<const RegionCfgEdge> successors(std::uint32_t v) const {
    return {out_.data() + out_begin_[v], out_begin_[v + 1] - out_begin_[v]};
  }
  /// In-edges of `v`.
  [[nodiscard]] std::span<const RegionCfgEdge> predecessors(std::uint32_t v) const {
    return {in_.data() + in_begin_[v], in_begin_[v + 1] - in_begin_[v]};
  }
  /// All edges, grouped by source vertex.
  [[nodiscard]] std::span<const RegionCfgEdge> edges() const { return out_; }

  /// The block vertex `v` is a part of (itself for a block).
  [[nodiscard]] std::uint32_t block_of(std::uint32_t v) const {
    return v < block_count_ ? v : continuation_block_[v - block_count_];
  }
  /// For a continuation vertex, the op owning regions it follows; nothing for a block.
  [[nodiscard]] std::optional<O> continuation_after(std::uint32_t v) const {
    if (v < block_count_) return std::nullopt;
    return continuation_after_[v - block_count_];
  }
  /// The op owning regions that ends vertex `v` (its results are the next part's arguments);
  /// nothing when `v` ends with its block's terminator.
  [[nodiscard]] std::optional<O> part_end(std::uint32_t v) const {
    if (next_part_.empty() || next_part_[v] == no_vertex) return std::nullopt;
    return continuation_after_[next_part_[v] - block_count_];
  }
  /// The continuation vertex after `op`, which owns regions and is not its block's last op.
  [[nodiscard]] std::uint32_t continuation_of(const O& op) const { return continuation_.at(op); }
  /// Whether `e` is a region edge (not one of the program's own branch slots).
  [[nodiscard]] bool is_region_edge(const RegionCfgEdge& e) const { return e.successor >= successor_slots_; }
  /// The values region edge `e` passes to its target's arguments (after an induction variable)
  /// or, into a continuation, to the results of the op it follows.
  [[nodiscard]] std::span<const V> forwarded(const RegionCfgEdge& e) const {
    const RegionEdge& r = region_edges_[e.successor - successor_slots_];
    return {region_forwarded_.data() + r.forwarded_begin, r.forwarded_count};
  }
  /// For region edge `e`: 0 when taken only if the deciding operand is true, 1 only if false;
  /// nothing when either.
  [[nodiscard]] std::optional<std::uint32_t> arm(const RegionCfgEdge& e) const {
    const RegionEdge& r = region_edges_[e.successor - successor_slots_];
    if (r.arm < 0) return std::nullopt;
    return static_cast<std::uint32_t>(r.arm);
  }
  /// The operand deciding which region edges leave `v` (the `deciding` of the program's flow at the
  /// op ending it): one value, or none.
  [[nodiscard]] std::span<const V> deciding_operands(std::uint32_t v) const {
    if (deciding_index_.empty() || deciding_index_[v] == no_vertex) return {};
    return {deciding_values_.data() + deciding_index_[v], 1};
  }
  /// For a block whose first argument is a loop's induction variable: the loop's lower bound,
  /// upper bound and step; none for other blocks.
  [[nodiscard]] std::span<const V> induction_bounds(std::uint32_t b) const {
    if (induction_begin_.empty() || b >= block_count_ || induction_begin_[b] == no_vertex) return {};
    return {induction_values_.data() + induction_begin_[b], 3};
  }

  // Boost.Graph-style free functions, found by argument-dependent lookup (also for classes
  // derived from a `RegionCfg`).

  /// Out-edges of `v` as an iterator pair.
  [[nodiscard]] friend std::pair<const RegionCfgEdge*, const RegionCfgEdge*> out_edges(std::uint32_t v,
                                                                                     const RegionCfg& g) {
    const auto s = g.successors(v);
    return {s.data(), s.data() + s.size()};
  }
  /// In-edges of `v` as an iterator pair.
  [[nodiscard]] friend std::pair<const RegionCfgEdge*, const RegionCfgEdge*> in_edges(std::uint32_t v,
                                                                                    const RegionCfg& g) {
    const auto s = g.predecessors(v);
    return {s.data(), s.data() + s.size()};
  }
  /// Target vertex of `e`.
  [[nodiscard]] friend std::uint32_t target(const RegionCfgEdge& e, const RegionCfg&) { return e.target; }
  /// Source vertex of `e`.
  [[nodiscard]] friend std::uint32_t source(const RegionCfgEdge& e, const RegionCfg&) { return e.source; }
  /// All vertices as an iterator pair.
  [[nodiscard]] friend std::pair<IndexIterator<std::uint32_t>, IndexIterator<std::uint32_t>> vertices(
      const RegionCfg& g) {
    return {IndexIterator<std::uint32_t>(0), IndexIterator<std::uint32_t>(static_cast<std::uint32_t>(g.vertex_count_))};
  }
  /// Number of vertices.
  [[nodiscard]] friend std::size_t num_vertices(const RegionCfg& g) { return g.vertex_count_; }
  /// Number of edges.
  [[nodiscard]] friend std::size_t num_edges(const RegionCfg& g) { return g.out_.size(); }
  /// Number of out-edges of `v`.
  [[nodiscard]] friend std::size_t out_degree(std::uint32_t v, const RegionCfg& g) { return g.successors(v).size(); }
  /// Number of in-edges of `v`.
  [[nodiscard]] friend std::size_t in_degree(std::uint32_t v, const RegionCfg& g) { return g.predecessors(v).size(); }

 private:
  template <class T>
  using Array = detail::LargeArray<T>;

  struct RegionEdge {
    std::uint32_t forwarded_begin = 0;
    std::uint32_t forwarded_count = 0;
    std::int32_t arm = -1;
  };

  template <class R>
  [[nodiscard]] static bool empty_range(R&& r) {
    return std::ranges::begin(r) == std::ranges::end(r);
  }

  void finish_in_edges() {
    const std::size_t n = vertex_count_;
    for (std::size_t v = 0; v < n; ++v) in_begin_[v + 1] += in_begin_[v];
    in_.resize(out_.size());
    Array<std::uint32_t> fill(in_begin_.begin(), in_begin_.end() - 1);
    for (const RegionCfgEdge& e : out_) in_[fill[e.target]++] = e;
  }

  template <class P>
  void build_with_regions(const P& p) {
    const std::uint32_t n = block_count_;
    // Vertices: cut each block after every op that owns regions but its last; remember each
    // block's last op (its terminator) and where its continuations start.
    std::vector<std::optional<O>> last(n);
    std::vector<std::uint32_t> first_continuation(n + 1, 0);
    next_part_.assign(n, no_vertex);
    for (std::uint32_t b = 0; b < n; ++b) {
      first_continuation[b] = static_cast<std::uint32_t>(continuation_after_.size());
      std::uint32_t v = b;
      auto&& ops = p.ops(b);
      auto it = std::ranges::begin(ops);
      const auto end = std::ranges::end(ops);
      while (it != end) {
        O op = *it;
        if (++it == end) {
          last[b] = std::move(op);
          break;
        }
        if (empty_range(p.region_entry(op).successors)) continue;
        const auto c = n + static_cast<std::uint32_t>(continuation_after_.size());
        next_part_[v] = c;
        v = c;
        continuation_.emplace(op, c);
        continuation_after_.push_back(std::move(op));
        continuation_block_.push_back(b);
        next_part_.push_back(no_vertex);
      }
    }
    first_continuation[n] = static_cast<std::uint32_t>(continuation_after_.size());
    vertex_count_ = n + static_cast<std::uint32_t>(continuation_after_.size());
    deciding_index_.assign(vertex_count_, no_vertex);
    // Edges, pushed block by block.
    in_begin_.assign(vertex_count_ + 1, 0);
    const auto add_region_edge = [&](std::uint32_t source, std::uint32_t target, std::span<const V> values,
                                     std::int32_t arm) {
      out_.push_back({source, target, successor_slots_ + static_cast<std::uint32_t>(region_edges_.size())});
      region_edges_.push_back({static_cast<std::uint32_t>(region_forwarded_.size()),
                               static_cast<std::uint32_t>(values.size()), arm});
      region_forwarded_.insert(region_forwarded_.end(), values.begin(), values.end());
      ++in_begin_[target + 1];
    };
    // The region edges leaving vertex `v` by the flow at `o` (an op owning regions, or a
    // region's terminator); `parent()` is the continuation after the op owning the regions.
    const auto follow = [&](std::uint32_t v, const auto& flow, const auto& parent) {
      if (flow.deciding) {
        deciding_index_[v] = static_cast<std::uint32_t>(deciding_values_.size());
        deciding_values_.push_back(*flow.deciding);
      }
      for (const RegionBranch<V> s : flow.successors)
        add_region_edge(v, s.target == RegionBranch<V>::parent ? parent() : s.target, s.forwarded, s.arm);
    };
    for (std::uint32_t b = 0; b < n; ++b) {
      std::uint32_t v = b;
      for (std::uint32_t c = first_continuation[b]; c < first_continuation[b + 1]; ++c) {
        const O& op = continuation_after_[c];
        const auto flow = p.region_entry(op);
        follow(v, flow, [&] { return n + c; });
        if constexpr (RegionBranchProgramWithInduction<P>) note_induction(p, op, flow.successors);
        v = n + c;
      }
      if (!last[b]) continue;
      const auto flow = p.region_exit(*last[b]);
      if (!empty_range(flow.successors)) {
        // A region's terminator: to a region of its owner, or back to the owner's continuation.
        follow(v, flow, [&] { return continuation_.at(flow.owner); });
        continue;
      }
      for (const BlockBranch s : p.block_successors(b)) {
        out_.push_back({v, s.target, s.id});
        ++in_begin_[s.target + 1];
      }
    }
    // Vertices are numbered blocks first, but their edges were pushed block by block: group them.
    Array<std::uint32_t> count(vertex_count_ + 1, 0);
    for (const RegionCfgEdge& e : out_) ++count[e.source + 1];
    for (std::size_t v = 0; v < vertex_count_; ++v) count[v + 1] += count[v];
    out_begin_.assign(count.begin(), count.end());
    Array<RegionCfgEdge> grouped(out_.size());
    for (const RegionCfgEdge& e : out_) grouped[count[e.source]++] = e;
    out_ = std::move(grouped);
    finish_in_edges();
  }

  /// Records the induction variable of the regions loop `op` enters, if it has one.
  template <class P, class Successors>
  void note_induction(const P& p, const O& op, const Successors& successors) {
    auto&& bounds = p.induction_bounds(op);
    auto it = std::ranges::begin(bounds);
    if (it == std::ranges::end(bounds)) return;
    const auto begin = static_cast<std::uint32_t>(induction_values_.size());
    for (int i = 0; i < 3; ++i, ++it) induction_values_.push_back(*it);
    for (const RegionBranch<V> s : successors) {
      if (s.target == RegionBranch<V>::parent) continue;
      if (induction_begin_.empty()) induction_begin_.assign(block_count_, no_vertex);
      induction_begin_[s.target] = begin;
    }
  }

  std::uint32_t block_count_ = 0;
  std::uint32_t vertex_count_ = 0;
  std::uint32_t successor_slots_ = 0;
  Array<O> continuation_after_;                  // by continuation - blocks: the op it follows
  Array<std::uint32_t> continuation_block_;      // by continuation - blocks: its block
  std::unordered_map<O, std::uint32_t> continuation_;  // op owning regions -> its continuation
  Array<std::uint32_t> next_part_;               // by vertex (regions only): the continuation after it
  Array<std::uint32_t> deciding_index_;          // by vertex (regions only): its deciding operand in deciding_values_
  Array<V> deciding_values_;
  Array<std::uint32_t> induction_begin_;         // by block, when any: its bounds in induction_values_
  Array<V> induction_values_;
  std::vector<RegionEdge> region_edges_;         // by region edge id - successor_slots_
  Array<V> region_forwarded_;
  Array<RegionCfgEdge> out_;
  Array<RegionCfgEdge> in_;
  Array<std::uint32_t> out_begin_;
  Array<std::uint32_t> in_begin_;
};

}  // namespace kildall
