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
/// own dense index). Built in O(blocks + ops); rebuild after a rewrite.
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

#include <cstdint>
#include <optional>
#include <ranges>
#include <span>
#include <vector>

#include <kildall/ir/cfg_view.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>

namespace kildall::ir {

/// The shape of one function (models `kildall::SsaProgram`). The function
/// must outlive the shape and not change while it is used.
class FunctionShape {
 public:
  /// A value is its `ValueId`.
  using value_type = ValueId;

  /// The shape of `fn`, whose ops owning regions `registry` describes.
  explicit FunctionShape(const Function& fn, const OpRegistry& registry = OpRegistry::builtins())
      : fn_(&fn), cfg_(fn, registry) {
    const std::size_t n = cfg_.vertex_count();
    value_begin_.assign(n + 1, 0);
    block_values_.reserve(fn.values.size());  // op results are at most the values
    const auto push_unforwarded_arguments = [&](BlockId b) {
      if (opaque_entered_.empty() || !opaque_entered_[b]) return;
      for (std::uint32_t i = 0; i < fn.blocks[b].argument_count; ++i) block_values_.push_back(fn.argument(b, i));
    };
    if (fn.regions.empty()) {
      // Opaque branches are rare: this walk notices one ending a block (it reads the block's
      // last op), and only then are the blocks it enters marked and the walk repeated.
      bool opaque_branch = false;
      const auto walk = [&] {
        block_values_.clear();
        for (BlockId b = 0; b < n; ++b) {
          push_unforwarded_arguments(b);
          for (const OpId op : fn.ops_of(b)) {
            const OpData& o = fn.ops[op];
            for (std::uint32_t r = 0; r < o.result_count; ++r) block_values_.push_back(o.result_begin + r);
          }
          if (const OpId t = fn.blocks[b].last_op; t != no_index) {
            const OpData& o = fn.ops[t];
            opaque_branch = opaque_branch || (o.successor_count != 0 && is(o.code, BuiltinOp::unregistered));
          }
          value_begin_[b + 1] = static_cast<std::uint32_t>(block_values_.size());
        }
      };
      walk();
      if (opaque_branch && (find_opaque_entries(), !opaque_entered_.empty())) walk();
      return;
    }
    find_opaque_entries();
    for (std::uint32_t v = 0; v < n; ++v) {
      if (!cfg_.induction_bounds(v).empty()) block_values_.push_back(fn.argument(v, 0));
      if (v < fn.blocks.size()) push_unforwarded_arguments(v);
      const std::optional<OpId> end = cfg_.part_end(v);
      for (OpId op = cfg_.first_op(v); op != no_index && op != end; op = fn.ops[op].next) {
        // (the op ending the part is left out: its results are the continuation's arguments)
        for (std::uint32_t r = 0; r < fn.ops[op].result_count; ++r) block_values_.push_back(fn.result(op, r));
      }
      value_begin_[v + 1] = static_cast<std::uint32_t>(block_values_.size());
    }
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
    if (!opaque_entered_.empty() && opaque_entered_[b]) return std::views::iota(end, end);
    const ValueId skip = cfg_.induction_bounds(b).empty() ? 0 : 1;
    return std::views::iota(block.argument_begin + skip, end);
  }
  /// The results of `b`'s ops, in program order.
  [[nodiscard]] std::span<const ValueId> block_values(BlockId b) const {
    return {block_values_.data() + value_begin_[b], value_begin_[b + 1] - value_begin_[b]};
  }
  /// The operands of the op defining result `v` (its successor operands, which a branch passes
  /// to block arguments, excluded); for a loop's induction variable, the loop's lower bound,
  /// upper bound and step.
  [[nodiscard]] std::span<const ValueId> operands(ValueId v) const {
    const ValueData& value = fn_->values[v];
    if (value.is_block_argument) {
      if (value.position != 0) return {};
      return cfg_.induction_bounds(value.owner);  // a loop's induction variable, or none
    }
    return fn_->operands_of(value.owner).subspan(0, fn_->regular_operand_count(value.owner));
  }
  /// The values CFG edge `e` passes to its target's arguments, in order.
  [[nodiscard]] std::span<const ValueId> forwarded_operands(const CfgEdge& e) const {
    if (cfg_.is_region_edge(e)) return cfg_.forwarded(e);
    if (!opaque_entered_.empty() && opaque_entered_[e.target]) return {};  // its arguments are unknown
    const Successor& s = fn_->successors[e.successor];
    if (s.operand_count == 0) return {};  // (without reading the terminator)
    return fn_->operands_of(fn_->terminator(cfg_.block_of(e.source))).subspan(s.operand_begin, s.operand_count);
  }
  /// The operands the terminator of `b` decides its successors with (the condition of
  /// `cf.cond_br`; none for terminators without successors).
  [[nodiscard]] std::span<const ValueId> branch_operands(BlockId b) const {
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
      }
    }
  }

  const Function* fn_;
  CfgView cfg_;
  std::vector<bool> opaque_entered_;  // by block, when any: an unregistered terminator enters it (see the file comment)
  BodyArray<ValueId> block_values_;
  BodyArray<std::uint32_t> value_begin_;
};

}  // namespace kildall::ir
