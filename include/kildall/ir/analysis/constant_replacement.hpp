#pragma once
/// \file
/// `replace_with_constants`: the rewrite every analysis that proves values
/// constant ends with (SCCP's `apply_sccp`, the integer ranges'
/// `apply_int_range_optimizations`; MLIR's `replaceWithConstant` of both
/// passes). Every integer-like value of an executable block that the analysis
/// proves constant is replaced by an `arith.constant`: a single-result op with
/// semantics is turned into the constant in place (same value, name and
/// position: nothing to redirect); the other results (multi-result ops, calls,
/// ops owning regions) and block arguments get a new constant before the op or
/// at the start of the block, and the op is erased when all its results were
/// replaced and it has no effect (`has_no_effect`, op_registry.hpp). Replacements
/// are applied in one pass over the operands at the end, and the function's
/// arrays grow once.
///
/// The ops a replacement leaves dead stay: `apply_int_range_optimizations` then
/// runs the greedy driver (`fold_greedily`), as MLIR's `int-range-optimizations`
/// does; SCCP, whose MLIR pass runs no driver, leaves them.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/rewriter.hpp>

namespace kildall::ir {

/// What `replace_with_constants` changed.
struct ConstantReplacementStats {
  std::size_t values_replaced = 0;  ///< Values replaced by constants.
  std::size_t ops_erased = 0;       ///< Ops erased after their results were replaced (or turned into the constant).
};

namespace detail {

/// Whether a single-result op is turned into its constant in place (rather than replaced by a new one).
[[nodiscard]] inline bool constant_in_place(const Function& fn, OpId op, const OpRegistry& registry) {
  const OpData& o = fn.ops[op];
  if (o.code >= registry.op_count()) return false;  // an op of a dialect `registry` does not know
  const OpDefinition& def = registry.op(o.code);
  return o.result_count == 1 && def.eval && !def.terminator && !def.region_flow.described();
}

/// Whether op code `code` only carries a constant (`OpDefinition::constant_like`: left as it is).
[[nodiscard]] inline bool constant_like(const OpRegistry& registry, OpCode code) {
  return code < registry.op_count() && registry.op(code).constant_like;
}

/// The ops and named values `replace_with_constants` will add (to reserve them).
template <class Executable, class ConstantOf>
[[nodiscard]] std::size_t constant_additions(const Function& fn, const OpRegistry& registry, Executable executable,
                                             ConstantOf constant) {
  std::size_t added = 0;
  for (BlockId b = 0; b < fn.blocks.size(); ++b) {
    if (!executable(b)) continue;
    for (std::uint32_t i = 0; i < fn.blocks[b].argument_count; ++i) added += constant(fn.argument(b, i)) ? 1 : 0;
  }
  for (OpId op = 0; op < fn.ops.size(); ++op) {
    const OpData& o = fn.ops[op];
    if (o.erased || !executable(o.block) || constant_like(registry, o.code)) continue;
    if (constant_in_place(fn, op, registry)) continue;
    for (std::uint32_t r = 0; r < o.result_count; ++r) added += constant(o.result_begin + r) ? 1 : 0;
  }
  return added;
}

}  // namespace detail

/// Replaces every used integer-like value of an executable block (`executable(b)`) that
/// `constant(v)` (an `std::optional<std::uint64_t>`) proves constant by an `arith.constant` (see
/// the file comment); existing `arith.constant`s are left alone.
template <class Executable, class ConstantOf>
ConstantReplacementStats replace_with_constants(Function& fn, const OpRegistry& registry, Executable executable,
                                                ConstantOf constant) {
  ConstantReplacementStats stats;
  Rewriter rewriter(fn);
  const std::size_t added = detail::constant_additions(fn, registry, executable, constant);
  // Every new constant is named, e.g. `c-1234_i32` (16 bytes covers most).
  rewriter.reserve(added, added, 0, 0, 16 * added);
  const std::size_t block_count = fn.blocks.size();
  const std::size_t op_count = fn.ops.size();
  const BodyArray<std::uint32_t> uses = rewriter.use_counts();
  std::vector<ValueId> replacement_of(fn.values.size(), no_index);
  // Block arguments.
  for (BlockId b = 0; b < block_count; ++b) {
    if (!executable(b)) continue;
    for (std::uint32_t i = 0; i < fn.blocks[b].argument_count; ++i) {
      const ValueId arg = fn.argument(b, i);
      const std::optional<std::uint64_t> c = constant(arg);
      if (!c || !fn.values[arg].type.is_integer_like() || uses[arg] == 0) continue;
      const ValueId replacement = rewriter.constant_at_start(b, fn.values[arg].type, *c);
      replacement_of[arg] = replacement;
      rewriter.set_name(replacement, rewriter.constant_name(fn.values[arg].type, *c));
      ++stats.values_replaced;
    }
  }
  // Op results (only of the ops that existed before the rewrite).
  for (OpId op = 0; op < op_count; ++op) {
    const OpData o = fn.ops[op];
    if (o.erased || !executable(o.block)) continue;
    if (o.result_count == 0 || detail::constant_like(registry, o.code)) continue;
    if (detail::constant_in_place(fn, op, registry)) {
      // The op becomes the constant in place: same result value, name and position, so no new
      // op, no new value and no use to redirect (the arrays of the function do not grow).
      const std::optional<std::uint64_t> c = constant(o.result_begin);
      if (!c || !fn.values[o.result_begin].type.is_integer_like()) continue;
      rewriter.replace_with_constant(op, *c);
      ++stats.values_replaced;
      ++stats.ops_erased;
      continue;
    }
    if (o.code >= registry.op_count()) continue;  // an op of a dialect `registry` does not know: opaque
    bool all_replaced = true;
    for (std::uint32_t r = 0; r < o.result_count; ++r) {
      const ValueId v = o.result_begin + r;
      const std::optional<std::uint64_t> c = constant(v);
      if (!c || !fn.values[v].type.is_integer_like()) {
        all_replaced = false;
        continue;
      }
      const ValueId replacement = rewriter.constant_before(op, fn.values[v].type, *c);
      replacement_of[v] = replacement;
      rewriter.set_name(replacement, rewriter.constant_name(fn.values[v].type, *c));
      ++stats.values_replaced;
    }
    if (all_replaced && has_no_effect(fn, op, registry)) {
      rewriter.erase(op);
      ++stats.ops_erased;
    }
  }
  (void)rewriter.replace_all_uses(replacement_of);
  return stats;
}

}  // namespace kildall::ir
