#pragma once
/// \file
/// `FunctionShape`: the reference IR's one adapter to kildall's `SsaProgram`
/// concept (`kildall/graph/ssa_program.hpp`). It says what a function looks
/// like to a sparse solver (values, the operands of the op defining each,
/// blocks and their arguments, the CFG, what each branch passes to which
/// argument, what a terminator branches on) and nothing about what it means;
/// every sparse analysis of the IR (SCCP, integer ranges, the noisy
/// dialect's noise analysis) is semantics only and runs on this shape.
///
/// The CFG is a `CfgView` built with the shape; values are `ValueId`s (their
/// own dense index). Built in O(blocks + edges), with the CFG; the values of each
/// block are read from its op list when asked. Rebuild after a rewrite.
///
/// Regions: the view's vertices are blocks and the continuations after ops
/// that own regions (cfg_view.hpp). A continuation's arguments are that op's
/// results, which the region edges forward to. A loop's induction variable
/// (`scf.for`'s `%iv`, `RegionFlow::induction_bounds`) is not forwarded by any
/// edge: it is the first value of the body's entry, computed from the
/// loop's lower bound, upper bound and step (its `operands`), so an analysis
/// sees it as a value whose defining "op" is the loop (`transfer` finds it a
/// block argument).
///
/// Opaque branches: an unregistered op ending a block says nothing of what it
/// passes to its successors' arguments (MLIR's SCCP marks the arguments of a
/// block such a terminator enters overdefined). The arguments of every block
/// an unregistered terminator enters are therefore values of that block with
/// no operands, not arguments: no edge forwards to them, and an analysis's
/// `transfer` finds them block arguments without bounds (unknown).

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <ranges>
#include <span>
#include <vector>

#include <kildall/ir/cfg_view.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>

namespace kildall::ir {

class FunctionShape;

/// The values a vertex of a `FunctionShape` defines, in program order (`FunctionShape::block_values`):
/// a run of leading values (arguments that no edge forwards to), then the results of the
/// vertex's ops, read from the function's op list while the range is walked.
class BlockValues {
 public:
  /// A forward iterator over the values (the current run of consecutive values, then the ops
  /// left to read).
  class iterator {
   public:
    using value_type = ValueId;                         ///< The values are `ValueId`s.
    using reference = ValueId;                          ///< Given by value.
    using pointer = void;                               ///< (None: given by value.)
    using difference_type = std::ptrdiff_t;             ///< (Required of an iterator.)
    using iterator_category = std::input_iterator_tag;  ///< As a C++17 iterator (given by value).
    using iterator_concept = std::forward_iterator_tag;  ///< As a C++20 iterator.
    /// The end of every range.
    iterator() = default;
    /// The value at hand.
    [[nodiscard]] ValueId operator*() const { return value_; }
    /// Advances to the next value.
    iterator& operator++() {
      if (++value_ == run_end_) next_run();
      return *this;
    }
    /// Post-increment.
    iterator operator++(int) {
      iterator copy = *this;
      ++*this;
      return copy;
    }
    /// Two ends are equal; others compare by the value at hand (a range repeats no value).
    friend bool operator==(const iterator& a, const iterator& b) {
      return a.at_end() ? b.at_end() : !b.at_end() && a.value_ == b.value_;
    }
    /// The operands of the value at hand, as `FunctionShape::operands` gives them (read from the
    /// op the walk is at: a solver deriving its arrays asks for them here).
    [[nodiscard, gnu::always_inline]] inline std::span<const ValueId> operands() const;

   private:
    friend class BlockValues;
    iterator(const FunctionShape& shape, const Function& fn, ValueId lead, ValueId lead_end, OpId first, OpId stop)
        : shape_(&shape), fn_(&fn), value_(lead), run_end_(lead_end), op_(first), stop_(stop) {
      if (value_ == run_end_) next_run();
    }
    [[nodiscard]] bool at_end() const { return value_ == run_end_; }
    // The results of the next op that has some, or an empty run (the end) when none is left.
    [[gnu::always_inline]] void next_run() {
      while (op_ != stop_ && op_ != no_index) {
        const OpData& o = fn_->ops[op_];
        if (o.result_count != 0) {
          owner_ = op_;
          op_ = o.next;
          value_ = o.result_begin;
          run_end_ = o.result_begin + o.result_count;
          return;
        }
        op_ = o.next;
      }
    }

    const FunctionShape* shape_ = nullptr;
    const Function* fn_ = nullptr;
    ValueId value_ = 0, run_end_ = 0;       // the current run [value_, run_end_)
    OpId owner_ = no_index;                 // the op whose results the run is (none: leading values)
    OpId op_ = no_index, stop_ = no_index;  // the next op to read; the op the walk stops at
  };

  /// The first value.
  [[nodiscard]] iterator begin() const { return {*shape_, *fn_, lead_, lead_end_, first_, stop_}; }
  /// The end.
  [[nodiscard]] static iterator end() { return {}; }

 private:
  friend class FunctionShape;
  BlockValues(const FunctionShape& shape, const Function& fn, ValueId lead, ValueId lead_end, OpId first, OpId stop)
      : shape_(&shape), fn_(&fn), lead_(lead), lead_end_(lead_end), first_(first), stop_(stop) {}
  const FunctionShape* shape_;
  const Function* fn_;
  ValueId lead_, lead_end_;
  OpId first_, stop_;
};

/// The shape of one function (models `kildall::SsaProgram`). The function
/// must outlive the shape and not change while it is used.
class FunctionShape {
 public:
  /// A value is its `ValueId`.
  using value_type = ValueId;

  /// The shape of `fn`, whose ops owning regions `registry` describes.
  explicit FunctionShape(const Function& fn, const OpRegistry& registry = OpRegistry::builtins())
      : fn_(&fn), cfg_(fn, registry) {
    // Opaque branches are rare: without regions, the view says whether it met one while it read
    // the terminators (a second walk over them was a cache miss per block on a large function).
    if (!fn.regions.empty() || cfg_.has_unregistered_branch()) find_opaque_entries();
  }

  /// The function.
  [[nodiscard]] const Function& function() const { return *fn_; }
  /// The blocks and their edges.
  [[nodiscard]] const CfgView& cfg() const { return cfg_; }
  /// The entry block.
  [[nodiscard]] static constexpr BlockId entries() { return CfgView::entry(); }
  /// Number of values (block arguments and op results).
  [[nodiscard]] std::size_t value_count() const { return fn_->values.size(); }
  /// The arguments of vertex `b`, in order: a block's (without a loop's induction variable;
  /// none for a block an unregistered terminator enters), or for a continuation the results of
  /// the op it follows.
  [[nodiscard]] auto block_arguments(BlockId b) const {
    if (b >= fn_->blocks.size()) {
      const OpData& op = fn_->ops[*cfg_.continuation_after(b)];
      return std::views::iota(op.result_begin, op.result_begin + op.result_count);
    }
    const BlockData& block = fn_->blocks[b];
    const ValueId end = block.argument_begin + block.argument_count;
    if (any_opaque_entry_ && opaque_entered_[b]) return std::views::iota(end, end);
    const ValueId skip = cfg_.induction_bounds(b).empty() ? 0 : 1;
    return std::views::iota(block.argument_begin + skip, end);
  }
  /// The results of `b`'s ops, in program order (after, for a loop's body entry, its induction
  /// variable, and for a block an unregistered terminator enters, its arguments): read from the
  /// function's op list as the range is walked, so the shape keeps no per-value table and a
  /// solver deriving its arrays reads each op once.
  [[nodiscard, gnu::always_inline]] BlockValues block_values(BlockId b) const {
    const Function& fn = *fn_;
    ValueId lead = 0, lead_end = 0;  // a block's arguments presented as its values (none for a continuation)
    if (b < fn.blocks.size()) {
      const BlockData& block = fn.blocks[b];
      lead = lead_end = block.argument_begin;
      if (any_opaque_entry_ && opaque_entered_[b]) lead_end += block.argument_count;
      else if (!cfg_.induction_bounds(b).empty()) lead_end += 1;
    }
    if (fn.regions.empty()) return BlockValues(*this, fn, lead, lead_end, fn.blocks[b].first_op, no_index);  // (a block's ops)
    // (the op ending the part is left out: its results are the continuation's arguments)
    return BlockValues(*this, fn, lead, lead_end, cfg_.first_op(b), cfg_.part_end(b).value_or(no_index));
  }
  /// The operands of the op defining result `v` (its successor operands, which a branch passes
  /// to block arguments, excluded); for a loop's induction variable, the loop's lower bound,
  /// upper bound and step. (Inline: a sparse solver reads it at every visit.)
  [[nodiscard, gnu::always_inline]] std::span<const ValueId> operands(ValueId v) const {
    const ValueData& value = fn_->values[v];
    if (value.is_block_argument) {
      if (value.position != 0) return {};
      return cfg_.induction_bounds(value.owner);  // a loop's induction variable, or none
    }
    return fn_->operands_of(value.owner).subspan(0, fn_->regular_operand_count(value.owner));
  }
  /// The values CFG edge `e` passes to its target's arguments, in order.
  [[nodiscard, gnu::always_inline]] std::span<const ValueId> forwarded_operands(const CfgEdge& e) const {
    if (cfg_.is_region_edge(e)) return cfg_.forwarded(e);
    if (any_opaque_entry_ && opaque_entered_[e.target]) return {};  // its arguments are unknown
    const Successor& s = fn_->successors[e.successor];
    if (s.operand_count == 0) return {};  // (without reading the terminator)
    return fn_->operands_of(fn_->terminator(cfg_.block_of(e.source))).subspan(s.operand_begin, s.operand_count);
  }
  /// The operands the terminator of `b` decides its successors with (the condition of
  /// `cf.cond_br`; none for terminators without successors).
  [[nodiscard, gnu::always_inline]] std::span<const ValueId> branch_operands(BlockId b) const {
    if (!fn_->regions.empty()) {
      if (const std::span<const ValueId> deciding = cfg_.deciding_operands(b); !deciding.empty()) return deciding;
      if (cfg_.part_end(b)) return {};  // ends in an op owning regions, deciding nothing
      b = cfg_.block_of(b);
    }
    const OpId terminator = fn_->terminator(b);
    if (terminator == no_index || fn_->ops[terminator].successor_count == 0) return {};
    return fn_->operands_of(terminator).subspan(0, fn_->regular_operand_count(terminator));
  }
  /// For a `cf.cond_br` edge, whether it is the true (0) or false (1) successor; nullopt otherwise.
  [[nodiscard]] std::optional<std::uint32_t> cond_branch_arm(const CfgEdge& e) const {
    if (cfg_.is_region_edge(e)) return cfg_.arm(e);
    const OpId terminator = fn_->terminator(cfg_.block_of(e.source));
    if (!is(fn_->ops[terminator].code, BuiltinOp::cond_br)) return std::nullopt;
    return e.successor - fn_->ops[terminator].successor_begin;
  }

 private:
  /// Marks the blocks with arguments that an unregistered terminator enters (`opaque_entered_`,
  /// left empty when there is none).
  void find_opaque_entries() {
    const Function& fn = *fn_;
    for (BlockId b = 0; b < fn.blocks.size(); ++b) {
      if (fn.in_erased_region(b)) continue;
      const OpId t = fn.terminator(b);
      if (t == no_index || !is(fn.ops[t].code, BuiltinOp::unregistered)) continue;
      for (const Successor& s : fn.successors_of(t)) {
        if (fn.blocks[s.block].argument_count == 0) continue;
        if (opaque_entered_.empty()) opaque_entered_.assign(fn.blocks.size(), false);
        opaque_entered_[s.block] = true;
        any_opaque_entry_ = true;
      }
    }
  }

  const Function* fn_;
  CfgView cfg_;
  std::vector<bool> opaque_entered_;  // by block, when any: an unregistered terminator enters it (see the file comment)
  bool any_opaque_entry_ = false;     // `opaque_entered_` is kept (one test, not a `std::vector<bool>`'s two ends)
};

std::span<const ValueId> BlockValues::iterator::operands() const {
  if (owner_ == no_index) return shape_->operands(value_);  // a leading value
  return fn_->operands_of(owner_).subspan(0, fn_->regular_operand_count(owner_));
}

}  // namespace kildall::ir
