#pragma once
/// \file
/// `apply_arith_unsigned_when_equivalent`: MLIR's
/// `--arith-unsigned-when-equivalent` (seed 003's "replacing signed operations
/// with unsigned ones where their inputs are known non-negative"). A signed op
/// whose operands and results the integer-range analysis proves non-negative
/// (signed lower bound >= 0) computes the same bits as its unsigned
/// counterpart, so it is changed in place: `divsi`, `floordivsi` -> `divui`,
/// `ceildivsi` -> `ceildivui`, `remsi` -> `remui`, `minsi` -> `minui`,
/// `maxsi` -> `maxui`, `extsi` -> `extui`; and `cmpi slt/sle/sgt/sge` ->
/// `ult/ule/ugt/uge` when both operands are non-negative (its `i1` result is
/// not asked). Values the analysis never reached (dead code) are not
/// converted, as in MLIR. `index` is 64 bits wide, as in MLIR's analysis.
///
/// The rewrites are patterns of the generic rewrite library over the
/// reference IR's adapter (`RewriteAdapter`), applied once to every op, as
/// MLIR 16 runs them (a dialect conversion): an op to convert is folded
/// instead when it folds (`fold_op`: constant operands, identities, a
/// constant moved to the right of a comparison), and nothing else is folded
/// or erased.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/arith.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/rewrite_adapter.hpp>
#include <kildall/rewrite/applicator.hpp>
#include <kildall/rewrite/pattern_set.hpp>
#include <kildall/rewrite/rewriter.hpp>

namespace kildall::ir {

/// A signed op and the unsigned op that computes the same bits on non-negative operands.
struct UnsignedEquivalent {
  BuiltinOp signed_op;    ///< The signed op.
  BuiltinOp unsigned_op;  ///< Its unsigned counterpart.
};

/// The ops `--arith-unsigned-when-equivalent` converts (MLIR's list; `cmpi` is by predicate).
inline constexpr std::array<UnsignedEquivalent, 7> unsigned_equivalents = {{
    {BuiltinOp::divsi, BuiltinOp::divui},
    {BuiltinOp::ceildivsi, BuiltinOp::ceildivui},
    {BuiltinOp::floordivsi, BuiltinOp::divui},
    {BuiltinOp::remsi, BuiltinOp::remui},
    {BuiltinOp::minsi, BuiltinOp::minui},
    {BuiltinOp::maxsi, BuiltinOp::maxui},
    {BuiltinOp::extsi, BuiltinOp::extui},
}};

/// The unsigned predicate of a signed ordering predicate (`slt` -> `ult`, ...), none for the others.
[[nodiscard]] constexpr std::optional<CmpPredicate> unsigned_predicate(CmpPredicate predicate) {
  constexpr std::array<std::pair<CmpPredicate, CmpPredicate>, 4> pairs = {{
      {CmpPredicate::slt, CmpPredicate::ult},
      {CmpPredicate::sle, CmpPredicate::ule},
      {CmpPredicate::sgt, CmpPredicate::ugt},
      {CmpPredicate::sge, CmpPredicate::uge},
  }};
  for (const auto& [from, to] : pairs)
    if (from == predicate) return to;
  return std::nullopt;
}

/// Whether `analysis` proves `v` non-negative read signed (reached, and its signed minimum >= 0).
[[nodiscard]] inline bool statically_non_negative(const IntRangeAnalysis& analysis, ValueId v) {
  const Interval* range = analysis.lookup(v);
  return range != nullptr && !range->is_empty() && range->smin() >= 0;
}

/// The patterns of `--arith-unsigned-when-equivalent` over `analysis` (which must outlive them
/// and be of the function the adapter rewrites): one per signed op, and one for `cmpi`.
[[nodiscard]] inline kildall::rewrite::PatternSet<RewriteAdapter> unsigned_when_equivalent_patterns(
    const IntRangeAnalysis& analysis) {
  using Rewriter = kildall::rewrite::Rewriter<RewriteAdapter>;
  kildall::rewrite::PatternSet<RewriteAdapter> set;
  for (const UnsignedEquivalent& e : unsigned_equivalents) {
    const OpCode to = code_of(e.unsigned_op);
    set.add(OpRegistry::builtins().op(code_of(e.signed_op)).name.substr(6) + "_to_unsigned", code_of(e.signed_op),
            kildall::rewrite::Benefit{1}, [&analysis, to](OpId op, Rewriter& rewriter) {
              RewriteAdapter& ir = rewriter.ir();
              for (const ValueId v : ir.operands(op))
                if (!statically_non_negative(analysis, v)) return false;
              for (const ValueId v : ir.results(op))
                if (!statically_non_negative(analysis, v)) return false;
              if (fold_op(rewriter, op) == kildall::rewrite::FoldOutcome::folded) return true;
              rewriter.modify_in_place(op, [&] { ir.set_kind(op, to, ir.function().ops[op].imm); });
              return true;
            });
  }
  set.add("cmpi_to_unsigned", code_of(BuiltinOp::cmpi), kildall::rewrite::Benefit{1},
          [&analysis](OpId op, Rewriter& rewriter) {
            RewriteAdapter& ir = rewriter.ir();
            if (!unsigned_predicate(static_cast<CmpPredicate>(ir.function().ops[op].imm))) return false;
            for (const ValueId v : ir.operands(op))
              if (!statically_non_negative(analysis, v)) return false;
            if (fold_op(rewriter, op) == kildall::rewrite::FoldOutcome::folded) return true;
            const auto predicate = unsigned_predicate(static_cast<CmpPredicate>(ir.function().ops[op].imm));
            rewriter.modify_in_place(op, [&] { ir.set_kind(op, code_of(BuiltinOp::cmpi), static_cast<std::uint64_t>(*predicate)); });
            return true;
          });
  return set;
}

/// Converts every signed op of `fn` that `analysis` (of `fn`, unchanged since) proves equivalent
/// to its unsigned counterpart (see the file comment); returns how many ops were converted.
inline std::size_t apply_arith_unsigned_when_equivalent(Function& fn, const IntRangeAnalysis& analysis) {
  RewriteAdapter ir(fn, analysis.registry());
  const kildall::rewrite::PatternSet<RewriteAdapter> patterns = unsigned_when_equivalent_patterns(analysis);
  const kildall::rewrite::PatternApplicator<RewriteAdapter> applicator(patterns);
  kildall::rewrite::Rewriter<RewriteAdapter> rewriter(ir);
  std::vector<OpId> ops;
  ir.for_each_op([&ops](OpId op) { ops.push_back(op); });
  std::size_t converted = 0;
  for (const OpId op : ops) converted += applicator.match_and_rewrite(op, rewriter).has_value() ? 1 : 0;
  return converted;
}

}  // namespace kildall::ir
