#pragma once
/// \file
/// `simplify_regions`: the control-flow half of canonicalization for the
/// reference IR, run by the greedy rewrite driver after each sweep (MLIR's
/// `simplifyRegions`, which its greedy driver calls unless
/// `enableRegionSimplification` is off, plus the `cf.br` / `cf.cond_br`
/// canonicalization patterns that need a block's predecessors). In every
/// region (the function body and the regions of `scf` ops), in this order:
///
/// 1. **Unreachable blocks** go: a block no path of successors reaches from
///    its region's entry, with its ops (and their regions).
/// 2. **Dead code** (MLIR's `runRegionDCE`, a liveness fixpoint, so cycles
///    through loop-carried block arguments die too): an op is live when it
///    has an effect (`has_no_effect` is false: a terminator, a call, an
///    opaque op, an `scf` op with such an op inside) or one of its results
///    is live; a live op's operands are live,
///    except what a `cf.br` / `cf.cond_br` forwards to a block argument,
///    which is live only when that argument is. Pure ops that are not live
///    are erased (with their regions); block arguments that are not live are removed with the
///    operands forwarded to them, except the arguments of a region's entry
///    block (the function's signature, an `scf` op's contract).
/// 3. **Branches past pass-through blocks** (MLIR's `collapseBranch`, used
///    by `SimplifyPassThroughBr` and `SimplifyPassThroughCondBranch`): a
///    `cf.br` / `cf.cond_br` successor whose block holds only a `cf.br` to
///    another block, its arguments used by nothing else, goes straight to
///    that block, with the arguments substituted. The blocks no longer
///    reached go at once, so that they count as no one's predecessor below.
/// 4. **`cf.cond_br` by what its predecessors say** (MLIR's
///    `SimplifyCondBranchFromCondBranchOnSameCondition`,
///    `SimplifyCondBranchIdenticalSuccessors`, `CondBranchTruthPropagation`).
/// 5. **A block with a single predecessor that branches to it with `cf.br`**
///    (MLIR's `SimplifyBrToBlockWithSinglePred`, `Block::mergeBlocks`) is
///    appended to that predecessor: its arguments become the forwarded
///    values, the branch goes; the blocks this leaves unreached go.
/// 6. **Identical blocks** merge (MLIR's `mergeIdenticalBlocks`).
/// 7. The blocks that went are dropped and the others renumbered
///    (`renumber_blocks`); the regions' block ranges follow.
///
/// Dead code goes first so that the blocks it empties are pass-through
/// blocks in the same call: on one generated function of 1e6 ops the greedy
/// driver then converges in one sweep fewer (see docs/performance.md).
/// Value and op ids stay valid (block ids do not); a kept block's arguments
/// are renumbered within its own argument range.
///
/// Cost: O(ops + operands + blocks) per call, the liveness fixpoint included
/// (each value is marked live once).

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include <kildall/ir/builtin_ops.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/rewriter.hpp>
#include <kildall/support/prefetch.hpp>

namespace kildall::ir {

/// What one `simplify_regions` call changed.
struct RegionSimplificationCounts {
  std::uint64_t blocks_erased = 0;       ///< Unreachable blocks dropped (merged blocks not counted).
  std::uint64_t branches_forwarded = 0;  ///< Successors redirected past a pass-through block.
  std::uint64_t branches_simplified = 0;  ///< `cf.cond_br`s decided or merged, conditions propagated.
  std::uint64_t blocks_merged = 0;       ///< Blocks appended to their single predecessor.
  std::uint64_t ops_erased = 0;          ///< Dead ops erased (ops of dropped blocks not counted).
  std::uint64_t arguments_erased = 0;    ///< Dead block arguments removed.
  std::uint64_t identical_blocks_merged = 0;  ///< Blocks replaced by an identical one.

  /// The number of changes in all (0: the function was left as it was).
  [[nodiscard]] std::uint64_t total() const {
    return blocks_erased + branches_forwarded + branches_simplified + blocks_merged + ops_erased + arguments_erased +
           identical_blocks_merged;
  }
};

namespace detail {

/// A branch edge: successor `successor` of the branch `op`.
struct RegionEdge {
  OpId op;                 ///< The branch.
  std::uint32_t successor;  ///< Which of its successors.
};

/// The branch edges into each block, in one flat array.
struct EdgesInto {
  std::vector<std::uint32_t> begin;  ///< By block, and one past the last: its first edge.
  std::vector<RegionEdge> edges;     ///< The edges, by target block.
  /// The edges into `b`.
  [[nodiscard]] std::span<const RegionEdge> operator[](BlockId b) const {
    return std::span<const RegionEdge>(edges).subspan(begin[b], begin[b + 1] - begin[b]);
  }
};

/// The successors of each block, in one compact array: walking it reads a few megabytes where
/// following every block to its terminator in the op array is a cache miss per block.
struct BlockSuccessors {
  std::vector<std::uint32_t> begin;  ///< By block, and one past the last: its first successor.
  std::vector<BlockId> targets;      ///< The successors, by block.
  std::vector<OpId> terminator;      ///< By block (`no_index`: none).
  std::vector<bool> branch;          ///< By block: its terminator is a `cf.br` / `cf.cond_br`.
  /// The successors of `b`.
  [[nodiscard]] std::span<const BlockId> operator[](BlockId b) const {
    return std::span<const BlockId>(targets).subspan(begin[b], begin[b + 1] - begin[b]);
  }
};

class RegionSimplifier;

}  // namespace detail

/// The arrays one `simplify_regions` call works in (by block, value and op of the function),
/// kept by a caller that simplifies the same function again and again (the greedy driver does,
/// after every sweep: `RewriteAdapter`), so that each call reuses the last one's memory instead
/// of allocating, and the kernel zeroing, arrays of the function's size anew. Holds no result
/// between calls.
class RegionSimplificationScratch {
 private:
  friend class detail::RegionSimplifier;
  std::vector<RegionId> region_of_block;
  std::vector<bool> removed;
  BodyArray<std::uint32_t> uses;
  std::vector<bool> escapes;
  detail::EdgesInto edges;
  std::vector<bool> opaque;
  detail::BlockSuccessors successors;
  std::vector<bool> reached, live_op, live_value;
  std::vector<std::uint32_t> stack, next, work, pure, dead;
};

namespace detail {

/// The state of one `simplify_regions` call over one function, in `scratch`'s arrays.
class RegionSimplifier {
 public:
  RegionSimplifier(Function& fn, const OpRegistry& registry, Rewriter& rewriter, RegionSimplificationScratch& scratch)
      : fn_(fn), registry_(registry), rewriter_(rewriter), scratch_(scratch), region_of_block_(scratch.region_of_block),
        removed_(scratch.removed), uses_(scratch.uses), escapes_(scratch.escapes), edges_(scratch.edges),
        opaque_(scratch.opaque), successors_(scratch.successors) {}

  RegionSimplificationCounts run() {
    if (fn_.is_declaration()) return counts_;
    uses_.clear();  // (asked for again by the steps that need them)
    escapes_.clear();
    region_of_block_.resize(fn_.blocks.size());
    for (BlockId b = 0; b < fn_.blocks.size(); ++b) region_of_block_[b] = fn_.region_of(b);
    removed_.assign(fn_.blocks.size(), false);
    drop_unreachable(true);
    erase_dead_code();
    const std::uint64_t forwarded = counts_.branches_forwarded;
    forward_pass_through_branches();
    // The bypassed blocks go, so that they are no one's predecessors.
    if (counts_.branches_forwarded != forwarded) drop_unreachable(false);
    const std::uint64_t branch_changes = counts_.branches_simplified + counts_.blocks_merged;
    simplify_conditional_branches();
    merge_single_predecessor_blocks();
    if (counts_.branches_simplified + counts_.blocks_merged != branch_changes) drop_unreachable(false);
    merge_identical_blocks();
    compact();
    return counts_;
  }

 private:
  [[nodiscard]] bool is_branch(OpId op) const {
    return is(fn_.ops[op].code, BuiltinOp::br) || is(fn_.ops[op].code, BuiltinOp::cond_br);
  }
  [[nodiscard]] BlockId region_entry(BlockId b) const {
    return fn_.regions.empty() ? 0 : fn_.regions[region_of_block_[b]].first_block;
  }
  [[nodiscard]] bool region_removed(BlockId b) const {
    if (fn_.regions.size() < 2) return false;
    const OpId parent = fn_.regions[region_of_block_[b]].parent;
    return parent != no_index && fn_.ops[parent].erased;
  }

  // Step 1 (and again after steps 3 and 5, whose bypassed and merged blocks lose their
  // predecessors): every block not reached from its region's entry goes, with its ops.
  void drop_unreachable(bool count) {
    std::vector<bool>& reached = scratch_.reached;
    reached.assign(fn_.blocks.size(), false);
    const BlockSuccessors& successors = block_successors();
    std::vector<BlockId>& stack = scratch_.stack;
    stack.clear();
    for (BlockId b = 0; b < fn_.blocks.size(); ++b) {
      if (removed_[b] || region_entry(b) != b || region_removed(b)) continue;
      reached[b] = true;
      stack.push_back(b);
      while (!stack.empty()) {
        const BlockId x = stack.back();
        stack.pop_back();
        if (removed_[x]) continue;  // emptied: no terminator
        for (const BlockId s : successors[x]) {
          if (reached[s]) continue;
          reached[s] = true;
          stack.push_back(s);
        }
      }
    }
    // The regions of ops erased here were walked above (their parents were not erased yet):
    // a second loop drops them.
    for (BlockId b = 0; b < fn_.blocks.size(); ++b) {
      if (removed_[b] || reached[b]) continue;
      if (count && !region_removed(b)) ++counts_.blocks_erased;
      erase_block_ops(b);
      removed_[b] = true;
      edges_changed();
    }
    for (BlockId b = 0; b < fn_.blocks.size(); ++b) {
      if (removed_[b] || !region_removed(b)) continue;
      erase_block_ops(b);
      removed_[b] = true;
      edges_changed();
    }
  }
  void erase_block_ops(BlockId b) {
    std::vector<OpId> ops;
    for (const OpId op : fn_.ops_of(b)) ops.push_back(op);
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) rewriter_.erase(*it);
  }

  // Step 3: successors of branches go past blocks that only branch on.
  void forward_pass_through_branches() {
    std::vector<ValueId> forwarded;
    std::vector<std::uint32_t> seen(fn_.blocks.size(), 0);
    std::uint32_t stamp = 0;
    // The blocks whose only op is a `cf.br` (this step adds and removes no op): a successor that is
    // none of them is passed over without reading its block.
    const BlockSuccessors& successors = block_successors();  // kept up to date by `retargeted`
    std::vector<bool> lone_branch(fn_.blocks.size(), false);
    for (BlockId b = 0; b < fn_.blocks.size(); ++b) {
      const BlockData& block = fn_.blocks[b];
      lone_branch[b] = !removed_[b] && block.first_op != no_index && block.first_op == block.last_op &&
                       successors.branch[b] && successors[b].size() == 1;  // a `cf.br`
    }
    for (BlockId b = 0; b < fn_.blocks.size(); ++b) {
      if (const BlockId a = b + prefetch_distance; a < fn_.blocks.size() && !removed_[a] && successors.branch[a]) {
        for (const BlockId target : successors[a]) {
          if (!lone_branch[target]) continue;
          kildall::detail::prefetch_for_read(&fn_.ops[successors.terminator[a]]);
          kildall::detail::prefetch_for_read(&fn_.ops[fn_.blocks[target].first_op]);
        }
      }
      if (removed_[b] || !successors.branch[b]) continue;
      const OpId t = successors.terminator[b];
      const auto count = static_cast<std::uint32_t>(successors[b].size());
      for (std::uint32_t si = 0; si < count; ++si) {
        if (!lone_branch[successors[b][si]]) continue;  // not a pass-through block
        ++stamp;
        seen[b] = stamp;
        Successor s = fn_.successors[fn_.ops[t].successor_begin + si];
        const auto current = fn_.successor_operands(t, s);
        forwarded.assign(current.begin(), current.end());
        BlockId target = s.block;
        bool moved = false;
        while (seen[target] != stamp) {
          seen[target] = stamp;
          const OpId inner = pass_through_branch(target);
          if (inner == no_index) break;
          const Successor next = fn_.successors_of(inner)[0];
          std::vector<ValueId> substituted;
          for (const ValueId v : fn_.successor_operands(inner, next)) {
            const ValueData& data = fn_.values[v];
            substituted.push_back(data.is_block_argument && data.owner == target ? forwarded[data.position] : v);
          }
          forwarded = std::move(substituted);
          target = next.block;
          moved = true;
        }
        if (!moved) continue;
        set_successor(t, si, target, forwarded);
        retargeted(b, si, target);
        ++counts_.branches_forwarded;
      }
    }
    uses_.clear();
  }
  // The `cf.br` of `b` when it is the block's only op, targets another block and the block's
  // arguments are used by nothing else; else `no_index`.
  [[nodiscard]] OpId pass_through_branch(BlockId b) {
    const BlockData& block = fn_.blocks[b];
    const OpId op = block.first_op;
    if (op == no_index || op != block.last_op || !is(fn_.ops[op].code, BuiltinOp::br)) return no_index;
    if (fn_.successors_of(op)[0].block == b || region_entry(b) == b) return no_index;
    if (block.argument_count == 0) return op;
    if (uses_.empty()) rewriter_.use_counts(uses_);  // (in the scratch's memory)
    for (std::uint32_t i = 0; i < block.argument_count; ++i) {
      const ValueId a = block.argument_begin + i;
      std::uint32_t in_branch = 0;
      for (const ValueId v : fn_.operands_of(op)) in_branch += v == a;
      if (uses_[a] != in_branch) return no_index;
    }
    return op;
  }
  // Successor `si` of branch `op` now goes to `target` forwarding `forwarded`: the op's operand
  // list is rebuilt at the end of the operand array (the old slots become unused).
  void set_successor(OpId op, std::uint32_t si, BlockId target, std::span<const ValueId> forwarded) {
    OpData& o = fn_.ops[op];
    std::vector<ValueId> operands;
    const auto old = std::as_const(fn_).operands_of(op);
    const std::uint32_t regular = fn_.regular_operand_count(op);
    operands.assign(old.begin(), old.begin() + regular);
    for (std::uint32_t i = 0; i < o.successor_count; ++i) {
      Successor& s = fn_.successors[o.successor_begin + i];
      const auto values = i == si ? forwarded : std::span<const ValueId>(old.subspan(s.operand_begin, s.operand_count));
      if (!uses_.empty() && i == si) {
        for (const ValueId v : old.subspan(s.operand_begin, s.operand_count)) --uses_[v];
        for (const ValueId v : values) ++uses_[v];
      }
      const auto begin = static_cast<std::uint32_t>(operands.size());
      operands.insert(operands.end(), values.begin(), values.end());
      s.operand_begin = begin;
      s.operand_count = static_cast<std::uint32_t>(values.size());
      if (i == si) s.block = target;
    }
    o.operand_begin = static_cast<std::uint32_t>(fn_.operands.size());
    o.operand_count = static_cast<std::uint32_t>(operands.size());
    fn_.operands.insert(fn_.operands.end(), operands.begin(), operands.end());
  }

  // The branch edges into each block, in one flat array (`opaque` marks blocks a terminator
  // other than a branch enters).
  using Edge = RegionEdge;
  // How far ahead (in blocks or ops) a walk over blocks asks for the op records it will read.
  static constexpr std::uint32_t prefetch_distance = 8;

  // The blocks' successors, collected on first use and kept while no terminator is replaced or
  // moved (`terminators_changed`); a successor retargeted in place is updated (`retargeted`).
  // Blocks dropped since keep their entries: every reader skips `removed_` blocks (emptied).
  [[nodiscard]] const BlockSuccessors& block_successors() {
    if (!successors_valid_) {
      BlockSuccessors& out = successors_;
      const std::size_t n = fn_.blocks.size();
      out.begin.resize(n + 1);
      out.terminator.resize(n);
      out.branch.assign(n, false);
      out.targets.clear();
      for (BlockId b = 0; b < n; ++b) {
        if (b + prefetch_distance < n && fn_.terminator(b + prefetch_distance) != no_index)
          kildall::detail::prefetch_for_read(&fn_.ops[fn_.terminator(b + prefetch_distance)]);
        out.begin[b] = static_cast<std::uint32_t>(out.targets.size());
        const OpId t = removed_[b] ? no_index : fn_.terminator(b);
        out.terminator[b] = t;
        if (t == no_index) continue;
        out.branch[b] = is_branch(t);
        for (const Successor& x : fn_.successors_of(t)) out.targets.push_back(x.block);
      }
      out.begin[n] = static_cast<std::uint32_t>(out.targets.size());
      successors_valid_ = true;
    }
    return successors_;
  }
  // The edges into each block, derived from `block_successors` on first use and kept until a
  // block is dropped or a successor changes: most calls change none, and every step reads them.
  [[nodiscard]] const EdgesInto& edges_into() {
    if (!edges_valid_) {
      collect_edges();
      edges_valid_ = true;
    }
    return edges_;
  }
  // A block was dropped: the edges are collected again when next asked.
  void edges_changed() { edges_valid_ = false; }
  // A terminator was replaced or moved to another block: both are collected again.
  void terminators_changed() {
    edges_valid_ = false;
    successors_valid_ = false;
  }
  // Successor `si` of the terminator of `b` now goes to `target`.
  void retargeted(BlockId b, std::uint32_t si, BlockId target) {
    edges_valid_ = false;
    if (successors_valid_) successors_.targets[successors_.begin[b] + si] = target;
  }
  void collect_edges() {
    const BlockSuccessors& out = block_successors();
    EdgesInto& into = edges_;
    const std::size_t n = fn_.blocks.size();
    into.begin.assign(n + 1, 0);
    opaque_.assign(n, false);
    for (BlockId b = 0; b < n; ++b) {
      if (removed_[b]) continue;
      for (const BlockId target : out[b]) {
        if (out.branch[b]) ++into.begin[target + 1];
        else opaque_[target] = true;
      }
    }
    for (std::size_t b = 1; b < into.begin.size(); ++b) into.begin[b] += into.begin[b - 1];
    into.edges.resize(into.begin.back());
    std::vector<std::uint32_t>& next = scratch_.next;
    next.assign(into.begin.begin(), into.begin.end() - 1);
    for (BlockId b = 0; b < n; ++b) {
      if (removed_[b] || !out.branch[b]) continue;
      const auto targets = out[b];
      for (std::uint32_t si = 0; si < targets.size(); ++si) into.edges[next[targets[si]]++] = {out.terminator[b], si};
    }
  }
  // Whether `e` is still a live edge into `b`.
  [[nodiscard]] bool still_enters(const Edge& e, BlockId b) const {
    return !fn_.ops[e.op].erased && fn_.successors[fn_.ops[e.op].successor_begin + e.successor].block == b;
  }
  // Whether `e`'s branch was replaced since the edges were collected (a `cf.cond_br` decided into
  // a `cf.br` by step 4): its replacement may enter the block, so the edge is not known gone.
  [[nodiscard]] bool replaced(const Edge& e) const { return fn_.ops[e.op].erased; }
  // The one edge into `b`, if it has exactly one (nothing when one of them was replaced).
  [[nodiscard]] std::optional<Edge> single_edge(std::span<const Edge> edges, BlockId b) const {
    std::optional<Edge> only;
    for (const Edge& e : edges) {
      if (replaced(e)) return std::nullopt;
      if (!still_enters(e, b)) continue;
      if (only) return std::nullopt;
      only = e;
    }
    return only;
  }
  // The `arith.constant` `bit : i1` leading the entry block, made there if there is none.
  ValueId bool_constant(bool bit) {
    for (OpId op = fn_.blocks[0].first_op; op != no_index && is(fn_.ops[op].code, BuiltinOp::constant); op = fn_.ops[op].next)
      if (fn_.values[fn_.ops[op].result_begin].type == Type::i1() && (fn_.ops[op].imm & 1) == bit)
        return fn_.ops[op].result_begin;
    const ValueId v = rewriter_.constant_at_start(0, Type::i1(), bit);
    rewriter_.set_name(v, rewriter_.constant_name(Type::i1(), bit));
    return v;
  }

  // Step 4: `cf.cond_br` simplified by what its block's predecessors say (MLIR's
  // `SimplifyCondBranchFromCondBranchOnSameCondition`, `SimplifyCondBranchIdenticalSuccessors`,
  // `CondBranchTruthPropagation`).
  void simplify_conditional_branches() {
    // The blocks' successors as the step starts: only the terminator of the block at hand is
    // replaced, so the blocks ending in a `cf.cond_br` are those with two branch successors.
    const BlockSuccessors& successors = block_successors();
    const EdgesInto& into = edges_into();
    const auto ends_in_cond_br = [&](BlockId b) {
      return !removed_[b] && successors.branch[b] && successors[b].size() == 2;
    };
    for (BlockId b = 0; b < fn_.blocks.size(); ++b) {
      if (const BlockId a = b + prefetch_distance; a < fn_.blocks.size() && ends_in_cond_br(a))
        kildall::detail::prefetch_for_read(&fn_.ops[successors.terminator[a]]);
      if (!ends_in_cond_br(b)) continue;
      OpId t = fn_.terminator(b);
      if (t == no_index || !is(fn_.ops[t].code, BuiltinOp::cond_br)) continue;
      const ValueId condition = fn_.operands_of(t)[0];
      // The only predecessor branches on the same condition: which way it went is known here.
      if (const auto e = single_edge(into[b], b); e && is(fn_.ops[e->op].code, BuiltinOp::cond_br) &&
                                                  fn_.operands_of(e->op)[0] == condition) {
        const Successor taken = fn_.successors_of(t)[e->successor];
        const auto forwarded = fn_.successor_operands(t, taken);
        rewriter_.replace_with_branch(t, taken.block, forwarded);
        terminators_changed();
        ++counts_.branches_simplified;
        continue;
      }
      const Successor on_true = fn_.successors_of(t)[0], on_false = fn_.successors_of(t)[1];
      // Both ways to one block that only this branch enters: selects of what differs.
      if (on_true.block == on_false.block) {
        bool only_here = true;
        for (const Edge& e : into[on_true.block])
          only_here = only_here && !replaced(e) && (!still_enters(e, on_true.block) || e.op == t);
        const auto a = fn_.successor_operands(t, on_true), c = fn_.successor_operands(t, on_false);
        if (!only_here || std::equal(a.begin(), a.end(), c.begin(), c.end())) continue;  // equal: a pattern's
        std::vector<ValueId> merged;
        for (std::size_t i = 0; i < a.size(); ++i) {
          const ValueId x = fn_.successor_operands(t, on_true)[i], y = fn_.successor_operands(t, on_false)[i];
          if (x == y) {
            merged.push_back(x);
            continue;
          }
          const ValueId operands[] = {condition, x, y};
          const Type types[] = {fn_.values[x].type};
          merged.push_back(fn_.result(rewriter_.create_before(t, code_of(BuiltinOp::select), operands, types)));
        }
        rewriter_.replace_with_branch(t, on_true.block, merged);
        terminators_changed();
        ++counts_.branches_simplified;
        continue;
      }
      // The condition is true in a successor only this edge enters, false in the other's (a
      // constant condition is a pattern's: `cf.cond_br` to `cf.br`).
      const ValueData& condition_data = fn_.values[condition];
      if (!condition_data.is_block_argument && is(fn_.ops[condition_data.owner].code, BuiltinOp::constant)) continue;
      for (std::uint32_t si = 0; si < 2; ++si) {
        const BlockId d = fn_.successors_of(t)[si].block;
        const auto e = single_edge(into[d], d);
        if (!e || e->op != t || d == b) continue;
        ValueId known = no_index;
        for (const OpId op : fn_.ops_of(d)) {
          for (ValueId& v : fn_.operands_of(op)) {
            if (v != condition) continue;
            if (known == no_index) known = bool_constant(si == 0);
            v = known;
          }
        }
        if (known != no_index) ++counts_.branches_simplified;
      }
    }
  }

  // Step 5: a block whose only predecessor ends in `cf.br` to it is appended to it.
  void merge_single_predecessor_blocks() {
    // As at the step's start: a merge moves an edge's terminator to another block; the counts stay.
    const EdgesInto& into = edges_into();
    const std::vector<bool>& opaque = opaque_;
    std::vector<ValueId> replacement;  // by value: a merged block's argument -> the value forwarded to it
    for (BlockId b = 0; b < fn_.blocks.size(); ++b) {
      if (removed_[b]) continue;
      for (;;) {
        const OpId br = fn_.terminator(b);
        if (br == no_index || !is(fn_.ops[br].code, BuiltinOp::br)) break;
        const Successor s = fn_.successors_of(br)[0];
        const BlockId d = s.block;
        if (d == b || into[d].size() != 1 || opaque[d] || region_entry(d) == d) break;
        const auto forwarded = fn_.successor_operands(br, s);
        if (replacement.size() < fn_.values.size()) replacement.resize(fn_.values.size(), no_index);
        for (std::uint32_t i = 0; i < fn_.blocks[d].argument_count; ++i)
          replacement[fn_.blocks[d].argument_begin + i] = forwarded[i];
        rewriter_.erase(br);
        std::vector<OpId> moved;
        for (const OpId op : fn_.ops_of(d)) moved.push_back(op);
        fn_.blocks[d].first_op = fn_.blocks[d].last_op = no_index;
        for (const OpId op : moved) {
          fn_.ops[op].prev = fn_.ops[op].next = no_index;
          rewriter_.append(b, op);
        }
        removed_[d] = true;
        terminators_changed();
        ++counts_.blocks_merged;
      }
    }
    if (replacement.empty()) return;
    // A forwarded value may be a merged block's argument itself: follow the chain.
    for (ValueId& r : replacement) {
      while (r != no_index && r < replacement.size() && replacement[r] != no_index) r = replacement[r];
    }
    rewriter_.replace_all_uses(replacement);
    uses_.clear();
  }

  // Step 2: liveness, then dead ops and dead block arguments go.
  void erase_dead_code() {
    std::vector<bool>& live_op = scratch_.live_op;
    std::vector<bool>& live_value = scratch_.live_value;
    live_op.assign(fn_.ops.size(), false);
    live_value.assign(fn_.values.size(), false);
    // Values marked live whose definer or forwarders are still to be marked, taken first in, first
    // out (the live set does not depend on the order): the values, ops and operands a few places
    // ahead are prefetched, so their cache misses overlap instead of following one another.
    std::vector<ValueId>& work = scratch_.work;
    work.clear();
    std::size_t head = 0;
    // Predecessor edges by block, for the arguments.
    const EdgesInto& into = edges_into();
    const std::vector<bool>& opaque_predecessor = opaque_;  // a terminator other than a branch enters it
    const auto mark_value = [&](ValueId v) {
      if (live_value[v]) return;
      live_value[v] = true;
      work.push_back(v);
    };
    const auto mark_op = [&](OpId op) {
      if (live_op[op]) return;
      live_op[op] = true;
      const auto operands = std::as_const(fn_).operands_of(op);
      const std::uint32_t regular = is_branch(op) ? fn_.regular_operand_count(op) : static_cast<std::uint32_t>(operands.size());
      for (std::uint32_t i = 0; i < regular; ++i) mark_value(operands[i]);
    };
    // The ops without effect, block by block (each block's run ended by `no_index`): the only
    // ones that may be dead, found in the same walk, so the dead ones are not looked for in
    // another walk of every op.
    std::vector<OpId>& pure = scratch_.pure;
    pure.clear();
    for (BlockId b = 0; b < fn_.blocks.size(); ++b) {
      if (removed_[b]) continue;
      const std::size_t before = pure.size();
      for (const OpId op : fn_.ops_of(b)) {
        if (!has_no_effect(fn_, op, registry_)) mark_op(op);
        else pure.push_back(op);
      }
      if (pure.size() != before) pure.push_back(no_index);
    }
    // What an opaque terminator forwards is live (its operands are), so its block's arguments are.
    for (BlockId b = 0; b < fn_.blocks.size(); ++b) {
      if (!opaque_predecessor[b] || removed_[b]) continue;
      for (std::uint32_t i = 0; i < fn_.blocks[b].argument_count; ++i) mark_value(fn_.blocks[b].argument_begin + i);
    }
    while (head < work.size()) {
      // Four stages ahead: a value 64 places on; 32 on, the op defining it or the branches
      // entering its block (an argument); 16 on, their operand lists or successors; 8 on, the
      // operands the branches forward.
      if (head + 64 < work.size()) kildall::detail::prefetch_for_read(&fn_.values[work[head + 64]]);
      for (const std::size_t distance : {std::size_t{32}, std::size_t{16}, std::size_t{8}}) {
        if (head + distance >= work.size()) continue;
        const ValueData& ahead = fn_.values[work[head + distance]];
        if (!ahead.is_block_argument) {
          if (distance == 32) kildall::detail::prefetch_for_read(&fn_.ops[ahead.owner]);
          else if (distance == 16) kildall::detail::prefetch_for_read(fn_.operands.data() + fn_.ops[ahead.owner].operand_begin);
          continue;
        }
        for (const Edge& e : into[ahead.owner]) {
          const OpData& branch = fn_.ops[e.op];
          if (distance == 32) kildall::detail::prefetch_for_read(&branch);
          else if (distance == 16) kildall::detail::prefetch_for_read(&fn_.successors[branch.successor_begin + e.successor]);
          else
            kildall::detail::prefetch_for_read(fn_.operands.data() + branch.operand_begin +
                                               fn_.successors[branch.successor_begin + e.successor].operand_begin);
        }
      }
      const ValueId v = work[head++];
      const ValueData& data = fn_.values[v];
      if (!data.is_block_argument) {
        mark_op(data.owner);
        continue;
      }
      for (const Edge& e : into[data.owner]) {
        const Successor& s = fn_.successors[fn_.ops[e.op].successor_begin + e.successor];
        mark_value(fn_.successor_operands(e.op, s)[data.position]);
      }
    }
    // Dead ops, last first (users before their operands' definers).
    // (An op of a region whose owner was erased before it is erased already.)
    std::vector<OpId>& dead = scratch_.dead;
    dead.clear();
    for (const OpId op : pure) {
      if (op != no_index) {
        if (!live_op[op] && !fn_.ops[op].erased) dead.push_back(op);
        continue;
      }
      for (auto it = dead.rbegin(); it != dead.rend(); ++it) rewriter_.erase(*it);
      counts_.ops_erased += dead.size();
      dead.clear();
    }
    // An op erased with its regions takes their blocks' terminators (and their edges) along.
    if (fn_.regions.size() >= 2 && counts_.ops_erased != 0) terminators_changed();
    // Dead arguments of blocks other than a region's entry, with what is forwarded to them.
    std::vector<ValueId> replacement;
    std::vector<bool> keep;
    for (BlockId b = 0; b < fn_.blocks.size(); ++b) {
      BlockData& block = fn_.blocks[b];
      if (removed_[b] || region_entry(b) == b || block.argument_count == 0) continue;
      keep.assign(block.argument_count, false);
      std::uint32_t kept = 0;
      for (std::uint32_t i = 0; i < block.argument_count; ++i) kept += (keep[i] = live_value[block.argument_begin + i]);
      if (kept == block.argument_count) continue;
      for (const Edge& e : into[b]) {
        const Successor& s = fn_.successors[fn_.ops[e.op].successor_begin + e.successor];
        std::vector<ValueId> kept_operands;
        const auto forwarded = fn_.successor_operands(e.op, s);
        for (std::uint32_t k = 0; k < forwarded.size(); ++k)
          if (keep[k]) kept_operands.push_back(forwarded[k]);
        set_successor(e.op, e.successor, b, kept_operands);
      }
      if (replacement.size() < fn_.values.size()) replacement.resize(fn_.values.size(), no_index);
      std::uint32_t next = 0;
      for (std::uint32_t i = 0; i < block.argument_count; ++i) {
        const ValueId from = block.argument_begin + i;
        if (!keep[i]) continue;
        const ValueId to = block.argument_begin + next;
        if (to != from) {
          fn_.values[to] = fn_.values[from];
          replacement[from] = to;
        }
        fn_.values[to].position = next++;
      }
      for (ValueId v = block.argument_begin + kept; v < block.argument_begin + block.argument_count; ++v) {
        fn_.values[v].owner = no_index;
        fn_.values[v].name_size = 0;
      }
      counts_.arguments_erased += block.argument_count - kept;
      block.argument_count = kept;
    }
    if (!replacement.empty()) rewriter_.replace_all_uses(replacement);
  }
  // Step 6 (MLIR's `mergeIdenticalBlocks`): blocks other than a region's entry that branch to
  // the same successors and are the same op for op, up to operands defined outside them, are
  // one block: the first (the leader) takes a new argument for each operand that differs, its
  // predecessors and the others' forward what each block used there, and the others go.
  void merge_identical_blocks() {
    // Candidates by successors and by a hash of their ops ignoring operands (MLIR's
    // `BlockEquivalenceData`), so that only likely matches are compared. A first pass keys each
    // block by one hash of both and keeps the blocks whose key another block shares: on most
    // functions none, and the rest of the step is skipped.
    // Before that, a block merges only with one of the same successors: each block's successor
    // list is hashed into a bitmap, and only the blocks whose bit was set twice are keyed (a
    // false positive costs a keying, nothing else), so most blocks' ops are not read.
    const BlockSuccessors& successors = block_successors();
    const auto candidate = [&](BlockId b) {
      return !removed_[b] && region_entry(b) != b && successors.terminator[b] != no_index;
    };
    const int filter_bits = std::max(6, static_cast<int>(std::bit_width(4 * fn_.blocks.size())));
    const auto slot = [&](BlockId b) {
      std::uint64_t h = successors[b].size();
      for (const BlockId x : successors[b]) h = (h ^ x) * 0x9E3779B97F4A7C15ull;
      return static_cast<std::size_t>(h >> (64 - filter_bits));
    };
    std::vector<bool> seen_once(std::size_t{1} << filter_bits, false), seen_twice(std::size_t{1} << filter_bits, false);
    for (BlockId b = 0; b < fn_.blocks.size(); ++b) {
      if (!candidate(b)) continue;
      const std::size_t at = slot(b);
      if (seen_once[at]) seen_twice[at] = true;
      else seen_once[at] = true;
    }
    std::vector<BlockId> shared;
    for (BlockId b = 0; b < fn_.blocks.size(); ++b)
      if (candidate(b) && seen_twice[slot(b)]) shared.push_back(b);
    std::vector<std::pair<std::uint64_t, BlockId>> keyed;
    for (std::size_t i = 0; i < shared.size(); ++i) {
      if (i + prefetch_distance < shared.size())
        kildall::detail::prefetch_for_read(&fn_.ops[fn_.blocks[shared[i + prefetch_distance]].first_op]);
      const BlockId b = shared[i];
      if (!mergeable(b)) continue;
      std::uint64_t key = shape_hash(b);
      for (const Successor& x : fn_.successors_of(fn_.terminator(b))) key = (key ^ x.block) * 0x9E3779B97F4A7C15ull + (key >> 31);
      keyed.emplace_back(key, b);
    }
    std::sort(keyed.begin(), keyed.end());
    std::map<std::pair<std::vector<BlockId>, std::uint64_t>, std::vector<BlockId>> by_successors;
    for (std::size_t i = 0; i < keyed.size();) {
      std::size_t end = i + 1;
      while (end < keyed.size() && keyed[end].first == keyed[i].first) ++end;
      if (end - i == 1) {
        i = end;
        continue;
      }
      for (; i < end; ++i) {
        const BlockId b = keyed[i].second;
        std::vector<BlockId> successors;
        for (const Successor& x : fn_.successors_of(fn_.terminator(b))) successors.push_back(x.block);
        by_successors[{std::move(successors), shape_hash(b)}].push_back(b);
      }
    }
    if (by_successors.empty()) return;
    const EdgesInto& into = edges_into();
    const std::vector<bool>& opaque = opaque_;
    std::vector<ValueId> replacement;  // moved leader arguments, applied once at the end
    for (const auto& group : by_successors) {
      const std::vector<BlockId>& blocks = group.second;
      std::vector<bool> taken(blocks.size(), false);
      for (std::size_t l = 0; l < blocks.size(); ++l) {
        if (taken[l]) continue;
        const BlockId leader = blocks[l];
        std::vector<BlockId> members;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> differing;  // (op position, operand)
        for (std::size_t m = l + 1; m < blocks.size(); ++m) {
          if (taken[m]) continue;
          std::vector<std::pair<std::uint32_t, std::uint32_t>> here;
          if (!equivalent(leader, blocks[m], here)) continue;
          taken[m] = true;
          members.push_back(blocks[m]);
          differing.insert(differing.end(), here.begin(), here.end());
        }
        if (members.empty()) continue;
        std::sort(differing.begin(), differing.end());
        differing.erase(std::unique(differing.begin(), differing.end()), differing.end());
        if (!differing.empty()) {
          bool updatable = !opaque[leader];
          for (const BlockId m : members) updatable = updatable && !opaque[m];
          if (!updatable) continue;
        }
        merge_into(leader, members, differing, into, replacement);
      }
    }
    if (!replacement.empty()) rewriter_.replace_all_uses(replacement);
  }
  // Whether `b` may take part: a terminator, no op owning a region, no op unknown to the
  // registry or with an attribute dictionary (compared as written, not by meaning).
  [[nodiscard]] bool mergeable(BlockId b) const {
    if (fn_.terminator(b) == no_index) return false;
    for (const OpId op : fn_.ops_of(b)) {
      const OpData& o = fn_.ops[op];
      if (o.code >= registry_.op_count() || is(o.code, BuiltinOp::unregistered)) return false;
      if (fn_.regions.size() >= 2 && fn_.regions_of(op).first != fn_.regions_of(op).second) return false;
      if (!fn_.attributes_of(op).empty()) return false;
    }
    return true;
  }
  // A hash of `b`'s argument count and of its ops' kinds, attributes and counts (not operands).
  [[nodiscard]] std::uint64_t shape_hash(BlockId b) const {
    std::uint64_t h = fn_.blocks[b].argument_count;
    const auto mix = [&h](std::uint64_t x) { h = (h ^ x) * 0x100000001B3ull + (h >> 29); };
    for (const OpId op : fn_.ops_of(b)) {
      const OpData& o = fn_.ops[op];
      mix(o.code);
      mix(o.imm);
      mix(o.aux);
      mix((std::uint64_t{o.result_count} << 32) | o.operand_count);
    }
    return h;
  }
  // The position of `v`, defined in its block, in MLIR's order: the block's arguments, then the
  // results of its ops in order (`offsets`: the ops walked so far -> their first position).
  [[nodiscard]] std::uint32_t order_in_block(ValueId v, const std::unordered_map<OpId, std::uint32_t>& offsets) const {
    const ValueData& data = fn_.values[v];
    if (data.is_block_argument) return data.position;
    const auto it = offsets.find(data.owner);
    return it == offsets.end() ? no_index : it->second + data.position;
  }
  // Whether `m` is `leader` op for op (MLIR's `BlockMergeCluster::addToCluster`); `differing`
  // gets the operands that differ and are defined outside both.
  [[nodiscard]] bool equivalent(BlockId leader, BlockId m, std::vector<std::pair<std::uint32_t, std::uint32_t>>& differing) {
    const BlockData &x = fn_.blocks[leader], &y = fn_.blocks[m];
    if (x.argument_count != y.argument_count) return false;
    for (std::uint32_t i = 0; i < x.argument_count; ++i)
      if (fn_.values[x.argument_begin + i].type != fn_.values[y.argument_begin + i].type) return false;
    std::unordered_map<OpId, std::uint32_t> leader_offsets, m_offsets;
    std::uint32_t next_offset = x.argument_count;
    OpId p = x.first_op, q = y.first_op;
    for (std::uint32_t position = 0; p != no_index && q != no_index; ++position, p = fn_.ops[p].next, q = fn_.ops[q].next) {
      const OpData &a = fn_.ops[p], &c = fn_.ops[q];
      if (a.code != c.code || a.imm != c.imm || a.aux != c.aux || a.result_count != c.result_count ||
          a.operand_count != c.operand_count || a.successor_count != c.successor_count)
        return false;
      for (std::uint32_t r = 0; r < a.result_count; ++r)
        if (fn_.values[a.result_begin + r].type != fn_.values[c.result_begin + r].type) return false;
      for (std::uint32_t s = 0; s < a.successor_count; ++s) {
        const Successor &sa = fn_.successors[a.successor_begin + s], &sc = fn_.successors[c.successor_begin + s];
        if (sa.block != sc.block || sa.operand_begin != sc.operand_begin || sa.operand_count != sc.operand_count)
          return false;
      }
      const auto lhs = fn_.operands_of(p), rhs = fn_.operands_of(q);
      for (std::uint32_t k = 0; k < lhs.size(); ++k) {
        if (lhs[k] == rhs[k]) continue;
        if (fn_.values[lhs[k]].type != fn_.values[rhs[k]].type) return false;
        const bool lhs_inside = fn_.defining_block(lhs[k]) == leader, rhs_inside = fn_.defining_block(rhs[k]) == m;
        if (lhs_inside != rhs_inside) return false;
        if (lhs_inside) {
          const std::uint32_t order = order_in_block(lhs[k], leader_offsets);
          if (order == no_index || order != order_in_block(rhs[k], m_offsets)) return false;
          continue;
        }
        differing.emplace_back(position, k);
      }
      if (a.result_count != 0) {
        leader_offsets.emplace(p, next_offset);
        m_offsets.emplace(q, next_offset);
        next_offset += a.result_count;
      }
    }
    if (p != no_index || q != no_index) return false;
    // A merged op's result must not be used outside its block (asked last: it scans the function).
    for (const BlockId b : {leader, m})
      for (const OpId op : fn_.ops_of(b))
        for (std::uint32_t r = 0; r < fn_.ops[op].result_count; ++r)
          if (escapes(fn_.ops[op].result_begin + r)) return false;
    return true;
  }
  // Whether `v` is used outside the block that defines it (computed for the whole function on
  // the first call).
  [[nodiscard]] bool escapes(ValueId v) {
    if (escapes_.empty()) {
      escapes_.assign(fn_.values.size(), false);
      for (BlockId b = 0; b < fn_.blocks.size(); ++b) {
        if (removed_[b]) continue;
        for (const OpId op : fn_.ops_of(b))
          for (const ValueId u : fn_.operands_of(op))
            if (fn_.defining_block(u) != b) escapes_[u] = true;
      }
    }
    return escapes_[v];
  }
  // `members` go into `leader`: the leader's arguments move to fresh values with one more per
  // differing operand (arguments are consecutive values), every predecessor forwards its block's
  // operand there, and the members' predecessors branch to the leader.
  void merge_into(BlockId leader, const std::vector<BlockId>& members,
                  const std::vector<std::pair<std::uint32_t, std::uint32_t>>& differing,
                  const EdgesInto& into, std::vector<ValueId>& replacement) {
    // What each block (leader first) uses at each differing operand.
    std::vector<BlockId> cluster{leader};
    cluster.insert(cluster.end(), members.begin(), members.end());
    std::vector<std::vector<ValueId>> extra(cluster.size());
    for (std::size_t i = 0; i < cluster.size(); ++i) {
      OpId op = fn_.blocks[cluster[i]].first_op;
      std::uint32_t position = 0;
      for (const auto& [at, k] : differing) {
        for (; position < at; ++position) op = fn_.ops[op].next;
        extra[i].push_back(fn_.operands_of(op)[k]);
      }
    }
    if (!differing.empty()) {
      BlockData& block = fn_.blocks[leader];
      const auto first = static_cast<ValueId>(fn_.values.size());
      const std::uint32_t old_count = block.argument_count;
      if (replacement.size() < first) replacement.resize(first, no_index);
      for (std::uint32_t i = 0; i < old_count; ++i) {
        const ValueId from = block.argument_begin + i;
        fn_.values.push_back(fn_.values[from]);
        replacement[from] = first + i;
        fn_.values[from].owner = no_index;
        fn_.values[from].name_size = 0;
      }
      for (std::size_t i = 0; i < differing.size(); ++i) {
        ValueData arg;
        arg.type = fn_.values[extra[0][i]].type;
        arg.owner = leader;
        arg.position = old_count + static_cast<std::uint32_t>(i);
        arg.is_block_argument = true;
        fn_.values.push_back(arg);
      }
      block.argument_begin = first;
      block.argument_count = old_count + static_cast<std::uint32_t>(differing.size());
      OpId op = block.first_op;
      std::uint32_t position = 0;
      for (std::size_t i = 0; i < differing.size(); ++i) {
        for (; position < differing[i].first; ++position) op = fn_.ops[op].next;
        fn_.operands_of(op)[differing[i].second] = first + old_count + static_cast<std::uint32_t>(i);
      }
    }
    for (std::size_t i = 0; i < cluster.size(); ++i) {
      for (const Edge& e : into[cluster[i]]) {
        if (!still_enters(e, cluster[i])) continue;
        const Successor s = fn_.successors[fn_.ops[e.op].successor_begin + e.successor];
        const auto old = fn_.successor_operands(e.op, s);
        std::vector<ValueId> forwarded(old.begin(), old.end());
        forwarded.insert(forwarded.end(), extra[i].begin(), extra[i].end());
        set_successor(e.op, e.successor, leader, forwarded);
      }
    }
    terminators_changed();
    for (const BlockId m : members) {
      erase_block_ops(m);
      removed_[m] = true;
      ++counts_.identical_blocks_merged;
    }
  }

  // Step 7: the blocks that went are dropped; regions of erased ops go; block ranges follow.
  void compact() {
    for (BlockId b = 0; b < fn_.blocks.size(); ++b)
      if (!removed_[b] && region_removed(b)) removed_[b] = true;  // a region of an op erased as dead
    bool any = false;
    for (const bool r : removed_) any = any || r;
    if (!any) return;
    std::vector<BlockId> new_id(fn_.blocks.size(), no_index);
    std::vector<BlockId> kept_before(fn_.blocks.size() + 1, 0);  // kept blocks with a smaller id
    BlockId next = 0;
    for (BlockId b = 0; b < fn_.blocks.size(); ++b) {
      kept_before[b] = next;
      if (!removed_[b]) new_id[b] = next++;
    }
    kept_before[fn_.blocks.size()] = next;
    if (fn_.regions.size() >= 2) {
      std::vector<RegionData> regions;
      for (const RegionData& r : fn_.regions) {
        if (r.parent != no_index && fn_.ops[r.parent].erased) continue;
        RegionData kept = r;
        kept.first_block = kept_before[r.first_block];
        kept.block_count = 0;
        for (BlockId b = r.first_block; b < r.first_block + r.block_count; ++b) kept.block_count += !removed_[b];
        regions.push_back(kept);
      }
      if (regions.size() < 2) regions.clear();
      fn_.regions = std::move(regions);
    }
    renumber_blocks(fn_, new_id);
  }

  Function& fn_;
  const OpRegistry& registry_;
  Rewriter& rewriter_;
  RegionSimplificationScratch& scratch_;  // the call's arrays
  RegionSimplificationCounts counts_;
  std::vector<RegionId>& region_of_block_;
  std::vector<bool>& removed_;             // by block: dropped at the end
  BodyArray<std::uint32_t>& uses_;         // by value, once asked for (step 3)
  std::vector<bool>& escapes_;             // by value, once asked for (step 6)
  EdgesInto& edges_;                       // the branch edges into each block (`edges_into`)
  std::vector<bool>& opaque_;              // by block: a terminator other than a branch enters it
  bool edges_valid_ = false;              // whether `edges_` and `opaque_` describe the function
  BlockSuccessors& successors_;           // the blocks' successors (`block_successors`)
  bool successors_valid_ = false;         // whether `successors_` describes the function
};

}  // namespace detail

/// Simplifies the control flow of `fn` (ops from `registry`) as the file comment says; returns
/// what changed. Block ids change; value and op ids stay valid.
/// `rewriter` must be `fn`'s (it keeps the names in use; the made constants are named with it).
/// `scratch` holds the call's arrays (reused from an earlier call, of this function or another).
inline RegionSimplificationCounts simplify_regions(Function& fn, const OpRegistry& registry, Rewriter& rewriter,
                                                   RegionSimplificationScratch& scratch) {
  return detail::RegionSimplifier(fn, registry, rewriter, scratch).run();
}

/// `simplify_regions` in arrays of its own.
inline RegionSimplificationCounts simplify_regions(Function& fn, const OpRegistry& registry, Rewriter& rewriter) {
  RegionSimplificationScratch scratch;
  return simplify_regions(fn, registry, rewriter, scratch);
}

/// `simplify_regions` with a rewriter of its own.
inline RegionSimplificationCounts simplify_regions(Function& fn, const OpRegistry& registry = OpRegistry::builtins()) {
  Rewriter rewriter(fn);
  return simplify_regions(fn, registry, rewriter);
}

}  // namespace kildall::ir
