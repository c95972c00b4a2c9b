// Floors for SCCP and the integer ranges on one large function: each analysis written by hand
// for the reference IR, timed beside the library's (`SccpAnalysis`, `IntRangeAnalysis`, views
// included) on the same generated `cfg` function and checked against it value by value
// (docs/performance.md, "Hand-written floors for SCCP and the integer ranges").
//
// Both are iterated the plainest way, as Kildall's round robin (POPL 1973): every executable
// block in layout order, every op in order, whole passes until one changes nothing. No def-use
// lists, no renumbering, no dirty tests and no solver statistics: states are indexed by the
// IR's own value ids and operands read where the op keeps them. What they cost is what the IR
// itself costs to walk and evaluate, the thing a generic solver's views and bookkeeping add to.
// Both cover the ops of the generated `cfg` shape (`arith.constant`, `addi`, `subi`, `muli`,
// `cmpi`, `cf.br`, `cf.cond_br`, `func.return`); any other op is overdefined / full.
//
// SCCP is Wegman and Zadeck's (TOPLAS 1991): a value is uninitialized, one constant or
// overdefined, and only the edges a branch can take make blocks executable, with the same folds
// as `SccpProblem`: the forwarding identities (`fold_binary_forwarding`), `x * 0`, `x - x`,
// `cmpi` of one value with itself, and the look-through `(a + b) - b` (`forwarded_value`). It
// must agree with `SccpAnalysis` on every value.
//
// The integer ranges use the library's free transfer functions (`infer_add`, ...,
// `infer_cmp_interval`) and `Interval`'s join and widening (Cousot and Cousot, POPL 1977): a
// block argument fed by a back edge (to a block at or before the branch's own, in layout order)
// is widened once it has changed `SolverOptions::widening_delay` times along back edges. Its
// widening points and counts are not the solver's, so a few loop values may end wider than
// `IntRangeAnalysis`'s; none may end narrower, and both must reach the same values.
//
//   analysis_floor <sccp|int-range> <ops> <runs> [hand|library]
// prints the values and how they compare, the hand version's passes and evaluations per op,
// and the fastest run of each (ns per op), the two alternating in one process so the ratio
// holds on a noisy host. With `hand` or `library` only that one runs (for cachegrind: the
// difference between two numbers of runs is its instructions). Exits 1 when the check fails.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kildall/ir.hpp>
#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/solver/options.hpp>

#include "mlir_program_generator.hpp"

namespace {

using namespace kildall::ir;

/// A value's state: not yet reached, one constant, or overdefined.
enum class Known : std::uint8_t { uninitialized, constant, overdefined };

/// Kildall's round robin over a function's body: every op of every executable block in layout
/// order, whole passes until one changes nothing. The analyses below supply the evaluation.
struct RoundRobin {
  std::vector<std::uint8_t> executable;  ///< By block; the entry block is.
  std::size_t passes = 0;                ///< Whole passes, the last one changing nothing.
  std::size_t evaluations = 0;           ///< Ops evaluated over all passes.

  explicit RoundRobin(const Function& fn) : executable(fn.blocks.size(), 0) { executable[0] = 1; }

  /// Runs the passes: `evaluate(block, op, data, operands)` returns whether anything moved.
  template <class Evaluate>
  void iterate(const Function& fn, Evaluate&& evaluate) {
    for (bool changed = true; changed;) {
      changed = false;
      ++passes;
      for (BlockId block = 0; block < fn.blocks.size(); ++block) {
        if (executable[block] == 0) continue;
        for (OpId op = fn.blocks[block].first_op; op != no_index; op = fn.ops[op].next) {
          const OpData& o = fn.ops[op];
          ++evaluations;
          changed |= evaluate(block, op, o, fn.operands.data() + o.operand_begin);
        }
      }
    }
  }
};

/// The hand-written SCCP's states, by the IR's value and block ids.
struct RoundRobinSccp : RoundRobin {
  std::vector<Known> known;           ///< By value.
  std::vector<std::uint64_t> bits;    ///< By value: the constant (meaningful when `known` says so).

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
      : RoundRobin(fn), known(fn.values.size(), Known::uninitialized), bits(fn.values.size(), 0) {
    for (std::uint32_t i = 0; i < fn.blocks[0].argument_count; ++i)
      known[fn.blocks[0].argument_begin + i] = Known::overdefined;
    iterate(fn, [&](BlockId, OpId op, const OpData& o, const ValueId* x) {
      const auto kind = static_cast<BuiltinOp>(o.code);
      if (kind == BuiltinOp::br || kind == BuiltinOp::cond_br) return branch(fn, o, x, kind == BuiltinOp::cond_br);
      if (o.result_count != 1 || known[o.result_begin] == Known::overdefined)
        return false;  // func.return, or nothing left to learn
      if (kind == BuiltinOp::constant) return set(o.result_begin, Known::constant, o.imm);
      if (kind == BuiltinOp::addi || kind == BuiltinOp::subi || kind == BuiltinOp::muli || kind == BuiltinOp::cmpi)
        return arith(fn, op, o, x, o.result_begin);
      return set(o.result_begin, Known::overdefined, 0);
    });
  }
};

/// The hand-written integer ranges' states, by the IR's value and block ids.
struct RoundRobinRanges : RoundRobin {
  std::vector<kildall::Interval> range;  ///< By value (meaningful when reached).
  std::vector<std::uint8_t> reached;     ///< By value.
  std::vector<std::uint8_t> back_changes;  ///< By value: changes of a block argument along back edges.
  std::size_t widenings = 0;             ///< Widenings applied.

  /// Sets `v` to `r`; whether it moved.
  bool set(ValueId v, const kildall::Interval& r) {
    if (reached[v] != 0 && range[v] == r) return false;
    range[v] = r;
    reached[v] = 1;
    return true;
  }

  /// Evaluates a terminator: marks the successors the condition's range allows and joins (or,
  /// along a back edge past the delay, widens) what it forwards into their arguments.
  bool branch(const Function& fn, BlockId from, const OpData& o, const ValueId* x, bool conditional,
              std::uint32_t delay) {
    bool take[2] = {true, true};
    if (conditional) {
      if (reached[x[0]] == 0) return false;
      take[0] = range[x[0]].contains(1);
      take[1] = range[x[0]].contains(0);
    }
    bool changed = false;
    const Successor* s = fn.successors.data() + o.successor_begin;
    for (int i = 0; i < o.successor_count && i < 2; ++i) {
      if (!take[i]) continue;
      if (executable[s[i].block] == 0) {
        executable[s[i].block] = 1;
        changed = true;
      }
      const bool back = s[i].block <= from;
      const ValueId first = fn.blocks[s[i].block].argument_begin;
      for (std::uint32_t j = 0; j < s[i].operand_count; ++j) {
        const ValueId arg = first + j, value = x[s[i].operand_begin + j];
        if (reached[value] == 0) continue;
        if (reached[arg] == 0) {
          changed |= set(arg, range[value]);
          continue;
        }
        const bool widen = back && back_changes[arg] >= delay;
        widenings += widen ? 1 : 0;
        if (is_changed(widen ? range[arg].widen(range[value]) : range[arg].join(range[value]))) {
          changed = true;
          back_changes[arg] += back && back_changes[arg] < 255 ? 1 : 0;
        }
      }
    }
    return changed;
  }

  /// Solves `fn` (its function body only) with widening delay `delay`.
  RoundRobinRanges(const Function& fn, std::uint32_t delay)
      : RoundRobin(fn),
        range(fn.values.size(), kildall::Interval::empty(1)),
        reached(fn.values.size(), 0),
        back_changes(fn.values.size(), 0) {
    for (std::uint32_t i = 0; i < fn.blocks[0].argument_count; ++i) {
      const ValueId v = fn.blocks[0].argument_begin + i;
      (void)set(v, kildall::Interval::full(fn.values[v].type.width()));
    }
    iterate(fn, [&](BlockId block, OpId, const OpData& o, const ValueId* x) {
      const auto kind = static_cast<BuiltinOp>(o.code);
      if (kind == BuiltinOp::br || kind == BuiltinOp::cond_br)
        return branch(fn, block, o, x, kind == BuiltinOp::cond_br, delay);
      if (o.result_count != 1) return false;  // func.return
      const ValueId r = o.result_begin;
      const unsigned width = fn.values[r].type.width();
      if (kind == BuiltinOp::constant) return set(r, kildall::Interval::constant(width, o.imm));
      if (kind != BuiltinOp::addi && kind != BuiltinOp::subi && kind != BuiltinOp::muli && kind != BuiltinOp::cmpi)
        return set(r, kildall::Interval::full(width));
      if (reached[x[0]] == 0 || reached[x[1]] == 0) return false;
      const kildall::Interval& a = range[x[0]];
      const kildall::Interval& b = range[x[1]];
      switch (kind) {
        case BuiltinOp::addi: return set(r, kildall::infer_add(a, b));
        case BuiltinOp::subi: return set(r, kildall::infer_sub(a, b));
        case BuiltinOp::muli: return set(r, kildall::infer_mul(a, b));
        default: return set(r, kildall::infer_cmp_interval(static_cast<kildall::CmpPredicate>(o.imm), a, b));
      }
    });
  }
};

double ns_per_op(std::chrono::steady_clock::time_point start, std::size_t ops) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
         static_cast<double>(ops);
}

/// The fastest of `runs` runs of the hand version and of the library's, alternating (0: not run).
template <class Hand, class Library>
std::pair<double, double> fastest(std::size_t runs, std::size_t ops, std::string_view only, Hand&& hand,
                                  Library&& library) {
  double hand_best = 0, library_best = 0;
  for (std::size_t i = 0; i < runs; ++i) {
    if (only != "library") {
      const auto start = std::chrono::steady_clock::now();
      hand();
      const double t = ns_per_op(start, ops);
      hand_best = i == 0 ? t : std::min(hand_best, t);
    }
    if (only != "hand") {
      const auto start = std::chrono::steady_clock::now();
      library();
      const double t = ns_per_op(start, ops);
      library_best = i == 0 ? t : std::min(library_best, t);
    }
  }
  return {hand_best, library_best};
}

/// Prints the hand version's counts and the timings.
void print_times(std::size_t passes, std::size_t evaluations, std::size_t ops, std::pair<double, double> t,
                 std::string_view only, const char* library) {
  std::printf("; by hand: %zu passes, %.2f evaluations per op", passes,
              static_cast<double>(evaluations) / static_cast<double>(ops));
  if (only != "library") std::printf("; by hand %.1f ns/op", t.first);
  if (only != "hand") std::printf("; %s %.1f ns/op", library, t.second);
  if (only.empty()) std::printf(" (%.2fx)", t.second / t.first);
  std::printf(" (%zu ops)\n", ops);
}

int sccp_floor(const Function& fn, const OpRegistry& registry, std::size_t ops, std::size_t runs,
               std::string_view only) {
  const auto t = fastest(
      runs, ops, only, [&] { (void)RoundRobinSccp(fn); }, [&] { (void)SccpAnalysis(fn, registry); });
  const RoundRobinSccp hand(fn);
  const SccpAnalysis analysis(fn, registry);
  std::size_t constants = 0, differ = 0;
  for (ValueId v = 0; v < fn.values.size(); ++v) {
    const ConstantState* s = analysis.lookup(v);
    const Known k = s == nullptr ? Known::uninitialized : s->is_constant() ? Known::constant : Known::overdefined;
    constants += k == Known::constant ? 1 : 0;
    if (k == hand.known[v] && (k != Known::constant || s->constant() == hand.bits[v])) continue;
    if (differ++ == 0)
      std::fprintf(stderr, "analysis_floor: value %u (%s) differs: SccpAnalysis %d, by hand %d\n", v,
                   std::string(fn.value_name(v)).c_str(), static_cast<int>(k), static_cast<int>(hand.known[v]));
  }
  std::printf("%zu values, %zu constants, %zu differ", fn.values.size(), constants, differ);
  print_times(hand.passes, hand.evaluations, ops, t, only, "SccpAnalysis");
  return differ == 0 ? 0 : 1;
}

int int_range_floor(const Function& fn, const OpRegistry& registry, std::size_t ops, std::size_t runs,
                    std::string_view only) {
  const std::uint32_t delay = kildall::SolverOptions{}.widening_delay;
  const auto t = fastest(
      runs, ops, only, [&] { (void)RoundRobinRanges(fn, delay); }, [&] { (void)IntRangeAnalysis(fn, &registry); });
  const RoundRobinRanges hand(fn, delay);
  const IntRangeAnalysis analysis(fn, &registry);
  std::size_t reached = 0, wider = 0, narrower = 0, unordered = 0;
  for (ValueId v = 0; v < fn.values.size(); ++v) {
    const kildall::Interval* s = analysis.lookup(v);
    if ((s != nullptr) != (hand.reached[v] != 0)) {
      ++unordered;  // reached by one only
      continue;
    }
    if (s == nullptr) continue;
    ++reached;
    if (*s == hand.range[v]) continue;
    if (s->leq(hand.range[v])) ++wider;
    else if (hand.range[v].leq(*s)) ++narrower;
    else ++unordered;
  }
  std::printf("%zu values, %zu reached, by hand %zu wider, %zu narrower, %zu unordered or reached by one only, "
              "%zu widenings", fn.values.size(), reached, wider, narrower, unordered, hand.widenings);
  print_times(hand.passes, hand.evaluations, ops, t, only, "IntRangeAnalysis");
  return narrower == 0 && unordered == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view analysis = argc == 4 || argc == 5 ? argv[1] : "";
  const std::string_view only = argc == 5 ? argv[4] : "";
  if ((analysis != "sccp" && analysis != "int-range") || (argc == 5 && only != "hand" && only != "library")) {
    std::fprintf(stderr, "usage: analysis_floor <sccp|int-range> <ops> <runs> [hand|library]\n");
    return 2;
  }
  const auto ops = static_cast<std::size_t>(std::strtoull(argv[2], nullptr, 10));
  const auto runs = static_cast<std::size_t>(std::strtoull(argv[3], nullptr, 10));
  if (ops < 64 || runs == 0) {
    std::fprintf(stderr, "analysis_floor: <ops> must be at least 64 and <runs> at least 1\n");
    return 2;
  }
  const OpRegistry registry;
  const Module module = parse_and_verify(
      kildall::bench::generate_mlir_program(kildall::bench::ProgramShape::cfg, ops, 1, ops), registry, "generated.mlir");
  const Function& fn = module.functions.at(0);
  return analysis == "sccp" ? sccp_floor(fn, registry, ops, runs, only) : int_range_floor(fn, registry, ops, runs, only);
}
