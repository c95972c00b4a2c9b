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

  /// The shape of `fn`.
  explicit FunctionShape(const Function& fn) : fn_(&fn), cfg_(fn) {
    const std::size_t n = fn.blocks.size();
    value_begin_.assign(n + 1, 0);
    block_values_.reserve(fn.values.size());  // op results are at most the values
    for (BlockId b = 0; b < n; ++b) {
      for (const OpId op : fn.ops_of(b))
        for (std::uint32_t r = 0; r < fn.ops[op].result_count; ++r) block_values_.push_back(fn.result(op, r));
      value_begin_[b + 1] = static_cast<std::uint32_t>(block_values_.size());
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
  /// The arguments of `b`, in order.
  [[nodiscard]] auto block_arguments(BlockId b) const {
    const BlockData& block = fn_->blocks[b];
    return std::views::iota(block.argument_begin, block.argument_begin + block.argument_count);
  }
  /// The results of `b`'s ops, in program order.
  [[nodiscard]] std::span<const ValueId> block_values(BlockId b) const {
    return {block_values_.data() + value_begin_[b], value_begin_[b + 1] - value_begin_[b]};
  }
  /// The operands of the op defining result `v` (its successor operands, which a branch passes
  /// to block arguments, excluded).
  [[nodiscard]] std::span<const ValueId> operands(ValueId v) const {
    const ValueData& value = fn_->values[v];
    if (value.is_block_argument) return {};
    return fn_->operands_of(value.owner).subspan(0, fn_->regular_operand_count(value.owner));
  }
  /// The values CFG edge `e` passes to its target's arguments, in order.
  [[nodiscard]] std::span<const ValueId> forwarded_operands(const CfgEdge& e) const {
    const Successor& s = fn_->successors[e.successor];
    return fn_->operands_of(fn_->terminator(e.source)).subspan(s.operand_begin, s.operand_count);
  }
  /// The operands the terminator of `b` decides its successors with (the condition of
  /// `cf.cond_br`; none for terminators without successors).
  [[nodiscard]] std::span<const ValueId> branch_operands(BlockId b) const {
    const OpId terminator = fn_->terminator(b);
    if (terminator == no_index || fn_->ops[terminator].successor_count == 0) return {};
    return fn_->operands_of(terminator).subspan(0, fn_->regular_operand_count(terminator));
  }
  /// For a `cf.cond_br` edge, whether it is the true (0) or false (1) successor; nullopt otherwise.
  [[nodiscard]] std::optional<std::uint32_t> cond_branch_arm(const CfgEdge& e) const {
    const OpId terminator = fn_->terminator(e.source);
    if (!is(fn_->ops[terminator].code, BuiltinOp::cond_br)) return std::nullopt;
    return e.successor - fn_->ops[terminator].successor_begin;
  }

 private:
  const Function* fn_;
  CfgView cfg_;
  BodyArray<ValueId> block_values_;
  BodyArray<std::uint32_t> value_begin_;
};

}  // namespace kildall::ir
