#pragma once
/// \file
/// `canonicalize`: MLIR's `--canonicalize` for the reference IR, on the
/// generic greedy pattern-rewrite driver (`kildall/rewrite/greedy_driver.hpp`)
/// over the IR's adapter (`RewriteAdapter`). What it does, as MLIR 16 does it
/// for the supported ops:
///
/// - **Folding** (the driver's first step, by the op records): constant
///   operands evaluated with wrap-around (`arith.hpp`'s `evaluate_binary`,
///   the interpreter's own semantics; undefined cases never fold), the
///   identities of `fold_binary_identity` / `fold_binary_forwarding`
///   (`x * 0`, `x + 0`, `x & x`, ...), `select` on a known condition or of
///   equal values, a constant moved to the right of a commutative op or a
///   comparison.
/// - **Patterns** (MLIR's `ArithCanonicalization.td` and the `cf` ones):
///   constants uniqued and hoisted to the entry block; `(a + b) - b = a`,
///   `(a - b) + b = a`, `(x ^ a) ^ a = x`; `(x + c0) + c1 = x + (c0 + c1)`,
///   `(x + c0) - c1 = x + (c0 - c1)`, `c1 - (x + c0) = (c1 - c0) - x`,
///   `(x - c0) + c1 = x + (c1 - c0)`, `(c0 - x) + c1 = (c0 + c1) - x`,
///   `(x - c0) - c1 = x - (c0 + c1)`, `(c0 - x) - c1 = (c0 - c1) - x`,
///   `c1 - (x - c0) = (c1 + c0) - x`, `c1 - (c0 - x) = x + (c1 - c0)`;
///   `select(c, true, false) = c`, `select(c, false, true) = c ^ true`;
///   `trunci(ext(x)) = x` when the types match; `ext(ext(x))` of the same
///   kind extends `x` directly; `cf.cond_br` on a constant, or to the same
///   block with the same operands, becomes `cf.br`.
/// - **Dead code**: ops without effect whose results are unused are erased.
/// - **Control flow**, after each sweep (the driver calls the adapter's
///   `simplify_regions`, `region_simplification.hpp`): unreachable blocks,
///   pass-through blocks, branches their predecessors decide, single-
///   predecessor blocks merged, dead ops and block arguments by liveness,
///   identical blocks merged.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/arith.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/rewrite_adapter.hpp>
#include <kildall/rewrite/greedy_driver.hpp>
#include <kildall/rewrite/pattern_set.hpp>
#include <kildall/rewrite/rewriter.hpp>

namespace kildall::ir {

namespace detail {

using CanonicalRewriter = kildall::rewrite::Rewriter<RewriteAdapter>;

/// The uniqued constant `bits : type`, announced when it is new.
inline ValueId canonical_constant(CanonicalRewriter& rewriter, Type type, std::uint64_t bits) {
  RewriteAdapter& ir = rewriter.ir();
  const ValueId v = ir.constant(type, bits);
  if (const OpId made = ir.take_created_constant(); made != no_index) rewriter.inserted(made);
  return v;
}

/// A new op `code` before `before` with one result of `type`, announced; returns its result.
inline ValueId canonical_op(CanonicalRewriter& rewriter, OpId before, BuiltinOp code,
                            std::span<const ValueId> operands, Type type, std::uint64_t imm = 0) {
  RewriteAdapter& ir = rewriter.ir();
  const Type types[] = {type};
  const OpId op = ir.create(before, code_of(code), operands, types, imm);
  rewriter.inserted(op);
  return ir.function().result(op);
}

/// The operands of `v`'s defining op when it is a `kind` op, else empty.
[[nodiscard]] inline std::span<const ValueId> defined_by(const Function& fn, ValueId v, BuiltinOp kind) {
  const ValueData& data = fn.values[v];
  if (data.is_block_argument || !is(fn.ops[data.owner].code, kind)) return {};
  return fn.operands_of(data.owner);
}

/// One of the add/sub-with-constants rewrites: the root is `outer(inner(...), ...)` (or with
/// the inner op on the right, `inner_on_left` false), `c` the outer constant and `x`, `c0` the
/// inner op's value and constant, `x_on_left` whether the inner op computes `x - c0` or `c0 - x`.
/// The result is `result_op(x, k)` or `result_op(k, x)` (`k_on_left`) with `k` from `combine`.
struct AddSubRule {
  const char* name;            ///< The pattern's name (MLIR's).
  BuiltinOp outer;             ///< The root op.
  bool inner_on_left;          ///< The inner op is the root's left operand (else its right).
  BuiltinOp inner;             ///< The inner op.
  bool x_on_left;              ///< The inner op is `x op c0` (else `c0 op x`).
  BuiltinOp result_op;         ///< The op of the result.
  bool k_on_left;              ///< The result is `k op x` (else `x op k`).
  std::int8_t c0_sign, c_sign;  ///< `k = c0_sign * c0 + c_sign * c` (wrapping).
};

/// MLIR's `ArithCanonicalization.td` rules for `addi`/`subi` with constants, as data.
inline constexpr AddSubRule add_sub_rules[] = {
    {"AddIAddConstant", BuiltinOp::addi, true, BuiltinOp::addi, true, BuiltinOp::addi, false, 1, 1},
    {"AddISubConstantRHS", BuiltinOp::addi, true, BuiltinOp::subi, true, BuiltinOp::addi, false, -1, 1},
    {"AddISubConstantLHS", BuiltinOp::addi, true, BuiltinOp::subi, false, BuiltinOp::subi, true, 1, 1},
    {"SubIRHSAddConstant", BuiltinOp::subi, true, BuiltinOp::addi, true, BuiltinOp::addi, false, 1, -1},
    {"SubILHSAddConstant", BuiltinOp::subi, false, BuiltinOp::addi, true, BuiltinOp::subi, true, -1, 1},
    {"SubIRHSSubConstantRHS", BuiltinOp::subi, true, BuiltinOp::subi, true, BuiltinOp::addi, false, -1, -1},
    {"SubIRHSSubConstantLHS", BuiltinOp::subi, true, BuiltinOp::subi, false, BuiltinOp::subi, true, 1, -1},
    {"SubILHSSubConstantRHS", BuiltinOp::subi, false, BuiltinOp::subi, true, BuiltinOp::subi, true, 1, 1},
    {"SubILHSSubConstantLHS", BuiltinOp::subi, false, BuiltinOp::subi, false, BuiltinOp::addi, false, -1, 1},
};

/// Applies `rule` at `op` if it matches.
inline bool apply_add_sub_rule(const AddSubRule& rule, OpId op, CanonicalRewriter& rewriter) {
  RewriteAdapter& ir = rewriter.ir();
  const Function& fn = ir.function();
  const auto ids = fn.operands_of(op);
  const ValueId inner_value = ids[rule.inner_on_left ? 0 : 1];
  const std::optional<std::uint64_t> c = ir.constant_of(ids[rule.inner_on_left ? 1 : 0]);
  if (!c) return false;
  const auto inner = defined_by(fn, inner_value, rule.inner);
  if (inner.empty()) return false;
  const ValueId x = inner[rule.x_on_left ? 0 : 1];
  const std::optional<std::uint64_t> c0 = ir.constant_of(inner[rule.x_on_left ? 1 : 0]);
  if (!c0 || ir.constant_of(x)) return false;  // all constant: folding's job
  const Type type = fn.values[fn.result(op)].type;
  const std::uint64_t k = static_cast<std::uint64_t>(rule.c0_sign) * *c0 + static_cast<std::uint64_t>(rule.c_sign) * *c;
  const ValueId kv = canonical_constant(rewriter, type, k);
  const ValueId operands[] = {rule.k_on_left ? kv : x, rule.k_on_left ? x : kv};
  rewriter.replace_op(op, canonical_op(rewriter, op, rule.result_op, operands, type));
  return true;
}

}  // namespace detail

/// Adds the one pattern every greedy run on the reference IR has: an `arith.constant` is replaced
/// by the uniqued one of its type and value at the start of the entry block (MLIR's driver does
/// this through its `OperationFolder`, whatever patterns a pass hands it).
inline void add_constant_uniquing(kildall::rewrite::PatternSet<RewriteAdapter>& set) {
  using detail::CanonicalRewriter;
  set.add("unique_constant", code_of(BuiltinOp::constant), kildall::rewrite::Benefit{1},
          [](OpId op, CanonicalRewriter& rewriter) {
            RewriteAdapter& ir = rewriter.ir();
            const Function& fn = ir.function();
            const ValueId v = fn.result(op);
            const Type type = fn.values[v].type;
            if (!type.is_integer_like()) return false;
            if (ir.known_constant(type, fn.ops[op].imm) == v) return false;
            rewriter.replace_op(op, detail::canonical_constant(rewriter, type, fn.ops[op].imm));
            return true;
          });
}

/// The canonicalization patterns of the reference IR's built-in ops (see the file comment).
[[nodiscard]] inline kildall::rewrite::PatternSet<RewriteAdapter> canonicalization_patterns() {
  using detail::CanonicalRewriter;
  using kildall::rewrite::Benefit;
  kildall::rewrite::PatternSet<RewriteAdapter> set;
  // Constants: one per type and value, at the start of the entry block.
  add_constant_uniquing(set);
  // (a + b) - b = a, (a - b) + b = a, (x ^ a) ^ a = x.
  for (const BuiltinOp root : {BuiltinOp::addi, BuiltinOp::subi, BuiltinOp::xori}) {
    set.add(std::string("forward_") + std::string(OpRegistry::builtins().op(code_of(root)).name.substr(6)),
            code_of(root), Benefit{2}, [](OpId op, CanonicalRewriter& rewriter) {
              const ValueId v = forwarded_value(rewriter.ir().function(), op);
              if (v == no_index) return false;
              rewriter.replace_op(op, v);
              return true;
            });
  }
  for (const detail::AddSubRule& rule : detail::add_sub_rules) {
    set.add(rule.name, code_of(rule.outer), Benefit{1}, [&rule](OpId op, CanonicalRewriter& rewriter) {
      return detail::apply_add_sub_rule(rule, op, rewriter);
    });
  }
  // select(c, true, false) = c; select(c, false, true) = c ^ true (i1).
  set.add("select_i1_constants", code_of(BuiltinOp::select), Benefit{1}, [](OpId op, CanonicalRewriter& rewriter) {
    RewriteAdapter& ir = rewriter.ir();
    const Function& fn = ir.function();
    const auto ids = fn.operands_of(op);
    if (fn.values[fn.result(op)].type != Type::i1()) return false;
    const auto t = ir.constant_of(ids[1]), f = ir.constant_of(ids[2]);
    if (!t || !f || (*t & 1) == (*f & 1)) return false;
    if (*t & 1) {
      rewriter.replace_op(op, ids[0]);
    } else {
      const ValueId operands[] = {ids[0], detail::canonical_constant(rewriter, Type::i1(), 1)};
      rewriter.replace_op(op, detail::canonical_op(rewriter, op, BuiltinOp::xori, operands, Type::i1()));
    }
    return true;
  });
  // trunci(extui(x)) = trunci(extsi(x)) = x when x has the result's type.
  set.add("trunc_of_ext", code_of(BuiltinOp::trunci), Benefit{1}, [](OpId op, CanonicalRewriter& rewriter) {
    const Function& fn = rewriter.ir().function();
    const ValueId in = fn.operands_of(op)[0];
    for (const BuiltinOp ext : {BuiltinOp::extui, BuiltinOp::extsi}) {
      const auto inner = detail::defined_by(fn, in, ext);
      if (inner.empty() || fn.values[inner[0]].type != fn.values[fn.result(op)].type) continue;
      rewriter.replace_op(op, inner[0]);
      return true;
    }
    return false;
  });
  // ext(ext(x)) of the same kind extends x directly (in place).
  for (const BuiltinOp ext : {BuiltinOp::extui, BuiltinOp::extsi}) {
    set.add(std::string(OpRegistry::builtins().op(code_of(ext)).name.substr(6)) + "_of_same",
            code_of(ext), Benefit{1}, [ext](OpId op, CanonicalRewriter& rewriter) {
              RewriteAdapter& ir = rewriter.ir();
              const auto inner = detail::defined_by(ir.function(), ir.function().operands_of(op)[0], ext);
              if (inner.empty()) return false;
              const ValueId x = inner[0];
              rewriter.modify_in_place(op, [&] { ir.set_operand(op, 0, x); });
              return true;
            });
  }
  // cf.cond_br on a constant, or to one block with the same operands on both sides: cf.br.
  set.add("cond_br_to_br", code_of(BuiltinOp::cond_br), Benefit{1}, [](OpId op, CanonicalRewriter& rewriter) {
    RewriteAdapter& ir = rewriter.ir();
    const Function& fn = ir.function();
    const auto successors = fn.successors_of(op);
    std::optional<std::uint32_t> taken;
    if (const auto c = ir.constant_of(fn.operands_of(op)[0])) {
      taken = (*c & 1) ? 0 : 1;
    } else if (successors[0].block == successors[1].block) {
      const auto a = fn.successor_operands(op, successors[0]), b = fn.successor_operands(op, successors[1]);
      if (std::equal(a.begin(), a.end(), b.begin(), b.end())) taken = 0;
    }
    if (!taken) return false;
    const Successor chosen = successors[*taken];
    const auto forwarded = fn.successor_operands(op, chosen);
    const std::vector<ValueId> operands(forwarded.begin(), forwarded.end());
    rewriter.inserted(ir.create_branch(op, chosen.block, operands));
    rewriter.erase_op(op);
    return true;
  });
  return set;
}

/// Canonicalizes `fn` (ops from `registry`) to a fixpoint with the greedy driver; returns how the
/// run ended (statistics per pattern).
inline kildall::rewrite::RewriteResult canonicalize(Function& fn, const OpRegistry& registry = OpRegistry::builtins(),
                                                   const kildall::rewrite::GreedyConfig& config = {}) {
  if (fn.is_declaration()) return {};
  RewriteAdapter ir(fn, registry);
  static const kildall::rewrite::PatternSet<RewriteAdapter> patterns = canonicalization_patterns();
  return kildall::rewrite::apply_patterns_greedily(ir, patterns, config);
}

/// Runs the greedy driver on `fn` with no pattern but constant uniquing (`add_constant_uniquing`):
/// ops folded by their records, dead ops erased, control flow simplified after each sweep
/// (`GreedyConfig::simplify_regions`), constants uniqued at the entry. This is what MLIR's
/// `applyPatternsAndFoldGreedily` does for a pass that hands it only a few patterns of its own
/// (`int-range-optimizations` runs it after replacing values: `apply_int_range_optimizations`).
inline kildall::rewrite::RewriteResult fold_greedily(Function& fn, const OpRegistry& registry = OpRegistry::builtins(),
                                                    const kildall::rewrite::GreedyConfig& config = {}) {
  if (fn.is_declaration()) return {};
  RewriteAdapter ir(fn, registry);
  static const kildall::rewrite::PatternSet<RewriteAdapter> patterns = [] {
    kildall::rewrite::PatternSet<RewriteAdapter> set;
    add_constant_uniquing(set);
    return set;
  }();
  return kildall::rewrite::apply_patterns_greedily(ir, patterns, config);
}

}  // namespace kildall::ir
