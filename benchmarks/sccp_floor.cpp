// A floor for SCCP on one large function: constant propagation written by hand for the
// reference IR, timed beside `SccpAnalysis` on the same generated `cfg` function and checked
// against it value by value (docs/performance.md, "A hand-written floor for SCCP").
//
// The method is Wegman and Zadeck's (TOPLAS 1991): a value is uninitialized, one constant or
// overdefined, and only the edges a branch can take make blocks executable. It is iterated the
// plainest way, as Kildall's round robin (POPL 1973): every executable block in layout order,
// every op in order, whole passes until one changes nothing. No def-use lists, no renumbering,
// no dirty tests and no solver statistics: states are indexed by the IR's own value ids and
// operands read where the op keeps them. What it costs is what the IR itself costs to walk and
// evaluate, the thing a generic solver's views and bookkeeping add to.
//
// It covers the ops of the generated `cfg` shape (`arith.constant`, `addi`, `subi`, `muli`,
// `cmpi`, `cf.br`, `cf.cond_br`, `func.return`) with the same folds as SCCP: the forwarding
// identities (`fold_binary_forwarding`), `x * 0`, `x - x`, `cmpi` of one value with itself,
// and the look-through `(a + b) - b` (`forwarded_value`). Any other op is overdefined. If a
// single value differs from `SccpAnalysis`, it says which and exits with 1.
//
//   sccp_floor <ops> <runs> [hand|library]
// prints the values, constants and differences, the hand version's passes and evaluations per
// op, and the fastest run of each (ns per op), the two alternating in one process so the ratio
// holds on a noisy host. With `hand` or `library` only that one runs (for cachegrind: the
// difference between two numbers of runs is its instructions).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include <kildall/ir.hpp>
#include <kildall/ir/analysis/sccp.hpp>

#include "mlir_program_generator.hpp"

namespace {

using namespace kildall::ir;

/// A value's state: not yet reached, one constant, or overdefined.
enum class Known : std::uint8_t { uninitialized, constant, overdefined };

/// The hand-written solve's states, by the IR's value and block ids.
struct RoundRobinSccp {
  std::vector<Known> known;           ///< By value.
  std::vector<std::uint64_t> bits;    ///< By value: the constant (meaningful when `known` says so).
  std::vector<std::uint8_t> executable;  ///< By block.
  std::size_t passes = 0;             ///< Whole passes, the last one changing nothing.
  std::size_t evaluations = 0;        ///< Ops evaluated over all passes.

  /// Sets `v` to `k` (with `b` for a constant); whether it moved.
  bool set(ValueId v, Known k, std::uint64_t b) {
    if (known[v] == k && (k != Known::constant || bits[v] == b)) return false;
    known[v] = k;
    bits[v] = b;
    return true;
  }
  /// Joins the state of `from` into `into`; whether `into` moved.
  bool join(ValueId into, ValueId from) {
    if (known[from] == Known::uninitialized || known[into] == Known::overdefined) return false;
    if (known[into] == Known::uninitialized) return set(into, known[from], bits[from]);
    if (known[from] == Known::overdefined || bits[from] != bits[into]) return set(into, Known::overdefined, 0);
    return false;
  }

  /// `cmpi <p>, x, x`: true for eq, sle, sge, ule, uge.
  static bool compare_with_itself(std::uint64_t predicate) {
    using kildall::CmpPredicate;
    const auto p = static_cast<CmpPredicate>(predicate);
    return p == CmpPredicate::eq || p == CmpPredicate::sle || p == CmpPredicate::sge || p == CmpPredicate::ule ||
           p == CmpPredicate::uge;
  }

  /// Evaluates a terminator: marks the successors it can take and joins what it forwards.
  bool branch(const Function& fn, const OpData& o, const ValueId* x, bool conditional) {
    int only = -1;  // the one successor a known condition takes
    if (conditional) {
      if (known[x[0]] == Known::uninitialized) return false;
      if (known[x[0]] == Known::constant) only = (bits[x[0]] & 1) != 0 ? 0 : 1;
    }
    bool changed = false;
    const Successor* s = fn.successors.data() + o.successor_begin;
    for (int i = 0; i < o.successor_count; ++i) {
      if (only >= 0 && i != only) continue;
      if (executable[s[i].block] == 0) {
        executable[s[i].block] = 1;
        changed = true;
      }
      const ValueId first = fn.blocks[s[i].block].argument_begin;
      for (std::uint32_t j = 0; j < s[i].operand_count; ++j) changed |= join(first + j, x[s[i].operand_begin + j]);
    }
    return changed;
  }

  /// Evaluates `addi`, `subi`, `muli` or `cmpi` into its result `r`.
  bool arith(const Function& fn, OpId op, const OpData& o, const ValueId* x, ValueId r) {
    const auto kind = static_cast<BuiltinOp>(o.code);
    const unsigned width = fn.values[r].type.width();
    const std::uint64_t mask = width_mask(width);
    const std::uint64_t a = bits[x[0]], b = bits[x[1]];
    const bool ka = known[x[0]] == Known::constant, kb = known[x[1]] == Known::constant;
    if (kind == BuiltinOp::cmpi) {
      if (x[0] == x[1]) return set(r, Known::constant, compare_with_itself(o.imm) ? 1 : 0);
    } else {
      if (const auto f = fold_binary_forwarding(o.code, width, x[0] == x[1], ka ? &a : nullptr, kb ? &b : nullptr))
        return join(r, x[*f]);
      if ((kind == BuiltinOp::muli && ((ka && (a & mask) == 0) || (kb && (b & mask) == 0))) ||
          (kind == BuiltinOp::subi && x[0] == x[1]))
        return set(r, Known::constant, 0);
      if (const ValueId through = forwarded_value(fn, op); through != no_index) return join(r, through);
    }
    if (known[x[0]] == Known::uninitialized || known[x[1]] == Known::uninitialized) return false;
    if (!ka || !kb) return set(r, Known::overdefined, 0);
    std::uint64_t value = 0;
    switch (kind) {
      case BuiltinOp::addi: value = a + b; break;
      case BuiltinOp::subi: value = a - b; break;
      case BuiltinOp::muli: value = a * b; break;
      default:
        value = evaluate_compare(static_cast<kildall::CmpPredicate>(o.imm), a, b, fn.values[x[0]].type.width()) ? 1 : 0;
    }
    return set(r, Known::constant, value & mask);
  }

  /// Solves `fn` (its function body only: the generated shape has no regions).
  explicit RoundRobinSccp(const Function& fn)
      : known(fn.values.size(), Known::uninitialized), bits(fn.values.size(), 0), executable(fn.blocks.size(), 0) {
    executable[0] = 1;
    for (std::uint32_t i = 0; i < fn.blocks[0].argument_count; ++i)
      known[fn.blocks[0].argument_begin + i] = Known::overdefined;
    for (bool changed = true; changed;) {
      changed = false;
      ++passes;
      for (BlockId block = 0; block < fn.blocks.size(); ++block) {
        if (executable[block] == 0) continue;
        for (OpId op = fn.blocks[block].first_op; op != no_index; op = fn.ops[op].next) {
          const OpData& o = fn.ops[op];
          const ValueId* x = fn.operands.data() + o.operand_begin;
          ++evaluations;
          const auto kind = static_cast<BuiltinOp>(o.code);
          if (kind == BuiltinOp::br || kind == BuiltinOp::cond_br) {
            changed |= branch(fn, o, x, kind == BuiltinOp::cond_br);
          } else if (o.result_count != 1 || known[o.result_begin] == Known::overdefined) {
            continue;  // func.return, or nothing left to learn
          } else if (kind == BuiltinOp::constant) {
            changed |= set(o.result_begin, Known::constant, o.imm);
          } else if (kind == BuiltinOp::addi || kind == BuiltinOp::subi || kind == BuiltinOp::muli ||
                     kind == BuiltinOp::cmpi) {
            changed |= arith(fn, op, o, x, o.result_begin);
          } else {
            changed |= set(o.result_begin, Known::overdefined, 0);
          }
        }
      }
    }
  }
};

double ns_per_op(std::chrono::steady_clock::time_point start, std::size_t ops) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
         static_cast<double>(ops);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view only = argc == 4 ? argv[3] : "";
  if ((argc != 3 && argc != 4) || (argc == 4 && only != "hand" && only != "library")) {
    std::fprintf(stderr, "usage: sccp_floor <ops> <runs> [hand|library]\n");
    return 2;
  }
  const auto ops = static_cast<std::size_t>(std::strtoull(argv[1], nullptr, 10));
  const auto runs = static_cast<std::size_t>(std::strtoull(argv[2], nullptr, 10));
  if (ops < 64 || runs == 0) {
    std::fprintf(stderr, "sccp_floor: <ops> must be at least 64 and <runs> at least 1\n");
    return 2;
  }
  const OpRegistry registry;
  const Module module = parse_and_verify(
      kildall::bench::generate_mlir_program(kildall::bench::ProgramShape::cfg, ops, 1, ops), registry, "generated.mlir");
  const Function& fn = module.functions.at(0);
  double hand_best = 0, library_best = 0;
  for (std::size_t i = 0; i < runs; ++i) {
    if (only != "library") {
      const auto start = std::chrono::steady_clock::now();
      const RoundRobinSccp hand(fn);
      const double t = ns_per_op(start, ops);
      hand_best = i == 0 ? t : std::min(hand_best, t);
    }
    if (only != "hand") {
      const auto start = std::chrono::steady_clock::now();
      const SccpAnalysis analysis(fn, registry);
      const double t = ns_per_op(start, ops);
      library_best = i == 0 ? t : std::min(library_best, t);
    }
  }
  const RoundRobinSccp hand(fn);
  const SccpAnalysis analysis(fn, registry);
  std::size_t constants = 0, differ = 0;
  for (ValueId v = 0; v < fn.values.size(); ++v) {
    const ConstantState* s = analysis.lookup(v);
    const Known k = s == nullptr ? Known::uninitialized : s->is_constant() ? Known::constant : Known::overdefined;
    constants += k == Known::constant ? 1 : 0;
    if (k == hand.known[v] && (k != Known::constant || s->constant() == hand.bits[v])) continue;
    if (differ++ == 0)
      std::fprintf(stderr, "sccp_floor: value %u (%s) differs: SccpAnalysis %d, by hand %d\n", v,
                   std::string(fn.value_name(v)).c_str(), static_cast<int>(k), static_cast<int>(hand.known[v]));
  }
  std::printf("%zu values, %zu constants, %zu differ; by hand: %zu passes, %.2f evaluations per op", fn.values.size(),
              constants, differ, hand.passes, static_cast<double>(hand.evaluations) / static_cast<double>(ops));
  if (only != "library") std::printf("; by hand %.1f ns/op", hand_best);
  if (only != "hand") std::printf("; SccpAnalysis %.1f ns/op", library_best);
  if (only.empty()) std::printf(" (%.2fx)", library_best / hand_best);
  std::printf(" (%zu ops)\n", ops);
  return differ == 0 ? 0 : 1;
}
