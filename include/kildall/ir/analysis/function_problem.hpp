#pragma once
/// \file
/// What every sparse analysis of a reference-IR function shares: the two graph
/// views (CFG of blocks, def-use graph of values) and the block/argument/
/// branch bookkeeping that `kildall::solve_sparse` asks of a
/// `SparseCfgProblem` (`block_of`, `block_arguments`, `block_values`,
/// `incoming_value`, `branch_operands`). A concrete analysis (SCCP, integer
/// ranges) derives from `FunctionProblemBase` and adds `lattice_type`,
/// `transfer`, `entry_argument_state` and `edge_executable`.

#include <cstdint>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <vector>

#include <kildall/ir/cfg_view.hpp>
#include <kildall/ir/def_use_view.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>

namespace kildall::ir {

/// The graph views of one function, at stable addresses (solver results point into them).
struct FunctionGraphs {
  /// Builds both views of `fn`.
  explicit FunctionGraphs(const Function& fn)
      : cfg(std::make_unique<CfgView>(fn)), values(std::make_unique<DefUseView>(fn)) {}
  /// Builds both views of `fn`, the def-use view with the extra dependencies `extra_dependency`
  /// (see `DefUseView(const Function&, std::span<const ValueId>)`).
  FunctionGraphs(const Function& fn, std::span<const ValueId> extra_dependency)
      : cfg(std::make_unique<CfgView>(fn)), values(std::make_unique<DefUseView>(fn, extra_dependency)) {}
  std::unique_ptr<CfgView> cfg;        ///< The blocks.
  std::unique_ptr<DefUseView> values;  ///< The values.
};

/// The block bookkeeping of a sparse problem over one function.
class FunctionProblemBase {
 public:
  /// Bookkeeping for `fn` (which must outlive the problem).
  explicit FunctionProblemBase(const Function& fn) : fn_(&fn) {
    const std::size_t n = fn.blocks.size();
    value_begin_.assign(n + 1, 0);
    for (BlockId b = 0; b < n; ++b) {
      for (const OpId op : fn.ops_of(b))
        for (std::uint32_t r = 0; r < fn.ops[op].result_count; ++r) block_values_.push_back(fn.result(op, r));
      value_begin_[b + 1] = static_cast<std::uint32_t>(block_values_.size());
    }
  }

  /// The function analysed.
  [[nodiscard]] const Function& function() const { return *fn_; }
  /// The block defining `v`.
  [[nodiscard]] BlockId block_of(ValueId v) const { return fn_->defining_block(v); }
  /// True for block arguments (joined over incoming edges rather than transferred).
  [[nodiscard]] bool is_block_argument(ValueId v) const { return fn_->values[v].is_block_argument; }
  /// The arguments of `b`.
  [[nodiscard]] auto block_arguments(BlockId b) const {
    const BlockData& block = fn_->blocks[b];
    return std::views::iota(block.argument_begin, block.argument_begin + block.argument_count);
  }
  /// The op results of `b`, in order.
  [[nodiscard]] std::span<const ValueId> block_values(BlockId b) const {
    return {block_values_.data() + value_begin_[b], value_begin_[b + 1] - value_begin_[b]};
  }
  /// The value that CFG edge `e` passes to block argument `argument`.
  [[nodiscard]] std::optional<ValueId> incoming_value(ValueId argument, const CfgEdge& e) const {
    const Successor& s = fn_->successors[e.successor];
    const std::uint32_t position = fn_->values[argument].position;
    if (position >= s.operand_count) return std::nullopt;
    const OpId terminator = fn_->terminator(e.source);
    return fn_->operands_of(terminator)[s.operand_begin + position];
  }
  /// The operands the terminator of `b` decides its successors with (the condition of `cf.cond_br`;
  /// none for terminators without successors).
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

 protected:
  const Function* fn_;              ///< The function.

 private:
  std::vector<ValueId> block_values_;
  std::vector<std::uint32_t> value_begin_;
};

}  // namespace kildall::ir
