// Floors for SCCP and the integer ranges on one large function: each analysis written by hand
// for the reference IR, timed beside the library's (`SccpAnalysis`, `IntRangeAnalysis`, views
// included) on the same generated `cfg` function and checked against it value by value
// (docs/performance.md, "Hand-written floors for SCCP and the integer ranges").
//
// States are indexed by the IR's own value ids and operands read where the op keeps them: no
// def-use lists, no renumbering, no solver statistics, caps or hooks. What they cost is what the
// IR itself costs to walk and evaluate, the thing a generic solver's views and bookkeeping add
// to. Each runs in two orders (`Order`): Kildall's round robin (POPL 1973), whole passes over the
// executable blocks in layout order until one changes nothing; and the library's own strategy
// by hand, one sweep that goes back over a loop when a back edge changes its head (Bourdoncle's
// recursive strategy, FMPA 1993) and evaluates an op only when an operand moved. Both cover the
// ops of the generated `cfg` shape (`arith.constant`, `addi`, `subi`, `muli`, `cmpi`, `cf.br`,
// `cf.cond_br`, `func.return`); any other op is overdefined / full.
//
// SCCP is Wegman and Zadeck's (TOPLAS 1991): a value is uninitialized, one constant or
// overdefined, and only the edges a branch can take make blocks executable, with the same folds
// as `SccpProblem`, from arith.hpp and sccp.hpp: the forwarding identities
// (`fold_binary_forwarding`), the constant ones (`fold_binary_identity`: `x * 0`, `x - x`),
// `cmpi` of one value with itself (`compare_of_equal_operands`), and the look-through
// `(a + b) - b` (`forwarded_value`). Both orders must agree with `SccpAnalysis` on every value.
//
// The integer ranges use the library's free transfer functions (`infer_add`, ...,
// `infer_cmp_interval`) and `Interval`'s join and widening (Cousot and Cousot, POPL 1977): a
// block argument fed by a back edge (to a block at or before the branch's own, in layout order)
// is widened once it has changed `SolverOptions::widening_delay` times along back edges. The
// round robin's widening points and counts are not the solver's, so a few loop values may end
// wider than `IntRangeAnalysis`'s; in either order none may end narrower, and the same values
// must be reached.
//
//   analysis_floor <sccp|int-range> <ops> <runs> [passes|sweep|library]
// prints the values and how they compare, each hand-written order's passes (or rewinds) and
// evaluations per op, and the fastest run of each solve (ns per op), all alternating in one
// process so the ratios hold on a noisy host. With `passes`, `sweep` or `library` only that one
// runs (for cachegrind: the difference between two numbers of runs is its instructions). Exits 1
// when a check fails.
#include <algorithm>
#include <array>
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

/// How a hand-written solve orders its evaluations.
enum class Order : std::uint8_t {
  passes,  ///< Kildall's round robin: whole passes over the function until one changes nothing.
  sweep,   ///< One sweep in layout order that goes back to a block a branch changed behind it,
           ///< evaluating an op only when an operand moved since its last evaluation.
};

/// A hand-written solve's iteration over a function's body: every op of every executable block
/// in layout order, by whole passes or by one sweep with rewinds (`Order`). The analyses below
/// supply the evaluation, their branches through `branch_to`.
/// The sweep is Bourdoncle's recursive strategy over the layout order: when a back edge changes
/// a loop's head, the loop is passed again before the sweep goes on; as the library's sweep, it
/// skips an op none of whose operands moved since it was last evaluated (stamps by value and by
/// op). It is a fixpoint when every value is defined earlier in the layout than its uses, except
/// block arguments fed by back edges, as in the generated programs; the checks against the
/// library's results confirm it.
struct HandSolve {
  std::vector<std::uint8_t> executable;  ///< By block; the entry block is.
  std::vector<std::uint32_t> moved_at;   ///< By value: the stamp of its last move (sweep).
  std::vector<std::uint32_t> seen_at;    ///< By op: the stamp of its last evaluation (sweep; 0: never).
  std::vector<std::uint8_t> reads_more;  ///< By op: it read a state beyond its operands (sweep).
  std::uint32_t stamp = 0;               ///< The current evaluation's stamp.
  Order order;                           ///< How the evaluations are ordered.
  std::size_t passes = 0;                ///< Whole passes (the last one changing nothing), or 1 sweep.
  std::size_t rewinds = 0;               ///< Times the sweep went back.
  std::size_t evaluations = 0;           ///< Ops evaluated in all.
  BlockId rewind_to = no_index;          ///< The earliest block changed behind the sweep.

  HandSolve(const Function& fn, Order o)
      : executable(fn.blocks.size(), 0),
        moved_at(o == Order::sweep ? fn.values.size() : 0, 0),
        seen_at(o == Order::sweep ? fn.ops.size() : 0, 0),
        reads_more(o == Order::sweep ? fn.ops.size() : 0, 0),
        order(o) {
    executable[0] = 1;
  }

  /// Value `v`'s state moved (analyses call it on every move).
  void moved(ValueId v) {
    if (order == Order::sweep) moved_at[v] = stamp;
  }

  /// `op`'s evaluation read a state that is not one of its operands (SCCP's look-through): the
  /// sweep evaluates it whenever it passes (the library names such states as extra operands).
  void read_beyond_operands(OpId op) {
    if (order == Order::sweep) reads_more[op] = 1;
  }

  /// Whether the sweep must evaluate `op`: never evaluated, reading more than its operands, or
  /// an operand moved since.
  [[nodiscard]] bool dirty(OpId op, const OpData& o, const ValueId* x) const {
    const std::uint32_t seen = seen_at[op];
    if (seen == 0 || reads_more[op] != 0) return true;
    for (std::uint32_t i = 0; i < o.operand_count; ++i)
      if (moved_at[x[i]] >= seen) return true;
    return false;
  }

  /// Evaluates branch `o` in block `from` (operands `x`): each successor it can take (`take`)
  /// becomes executable, and `forward(argument, value, back)` moves each of its arguments by the
  /// value passed (`back`: along a back edge, to a block at or before `from`) and says whether
  /// it moved. A successor that changed behind the sweep is where the sweep goes back to.
  template <class Forward>
  bool branch_to(const Function& fn, BlockId from, const OpData& o, const ValueId* x, std::array<bool, 2> take,
                 Forward&& forward) {
    bool changed = false;
    const Successor* s = fn.successors.data() + o.successor_begin;
    for (std::size_t i = 0; i < o.successor_count && i < take.size(); ++i) {
      if (!take[i]) continue;
      const BlockId target = s[i].block;
      bool target_moved = executable[target] == 0;
      executable[target] = 1;
      const bool back = target <= from;
      const ValueId first = fn.blocks[target].argument_begin;
      for (std::uint32_t j = 0; j < s[i].operand_count; ++j)
        target_moved |= forward(first + j, x[s[i].operand_begin + j], back);
      if (target_moved && back) rewind_to = std::min(rewind_to, target);
      changed |= target_moved;
    }
    return changed;
  }

  /// Runs the solve: `evaluate(block, op, data, operands)` returns whether anything moved.
  template <class Evaluate>
  void iterate(const Function& fn, Evaluate&& evaluate) {
    for (bool again = true; again;) {
      again = false;
      ++passes;
      for (BlockId block = 0; block < fn.blocks.size();) {
        if (executable[block] != 0) {
          for (OpId op = fn.blocks[block].first_op; op != no_index; op = fn.ops[op].next) {
            const OpData& o = fn.ops[op];
            const ValueId* x = fn.operands.data() + o.operand_begin;
            if (order == Order::sweep) {
              if (!dirty(op, o, x)) continue;
              seen_at[op] = ++stamp;
            }
            ++evaluations;
            again |= evaluate(block, op, o, x);
          }
        }
        if (order == Order::sweep && rewind_to != no_index) {
          block = rewind_to;
          ++rewinds;
        } else {
          ++block;
        }
        rewind_to = no_index;
      }
      if (order == Order::sweep) break;  // one sweep: its rewinds passed every change again
    }
  }
};

/// The hand-written SCCP's states, by the IR's value and block ids.
struct HandSccp : HandSolve {
  std::vector<Known> known;           ///< By value.
  std::vector<std::uint64_t> bits;    ///< By value: the constant (meaningful when `known` says so).

  /// Sets `v` to `k` (with `b` for a constant); whether it moved.
  bool set(ValueId v, Known k, std::uint64_t b) {
    if (known[v] == k && (k != Known::constant || bits[v] == b)) return false;
    known[v] = k;
    bits[v] = b;
    moved(v);
    return true;
  }
  /// Joins the state of `from` into `into`; whether `into` moved.
  bool join(ValueId into, ValueId from) {
    if (known[from] == Known::uninitialized || known[into] == Known::overdefined) return false;
    if (known[into] == Known::uninitialized) return set(into, known[from], bits[from]);
    if (known[from] == Known::overdefined || bits[from] != bits[into]) return set(into, Known::overdefined, 0);
    return false;
  }

  /// Evaluates a terminator: marks the successors it can take and joins what it forwards.
  bool branch(const Function& fn, BlockId from, const OpData& o, const ValueId* x, bool conditional) {
    std::array<bool, 2> take = {true, true};
    if (conditional) {
      if (known[x[0]] == Known::uninitialized) return false;
      if (known[x[0]] == Known::constant) take = {(bits[x[0]] & 1) != 0, (bits[x[0]] & 1) == 0};
    }
    return branch_to(fn, from, o, x, take, [&](ValueId arg, ValueId value, bool) { return join(arg, value); });
  }

  /// Evaluates `addi`, `subi`, `muli` or `cmpi` into its result `r`.
  bool arith(const Function& fn, OpId op, const OpData& o, const ValueId* x, ValueId r) {
    const auto kind = static_cast<BuiltinOp>(o.code);
    const unsigned width = fn.values[r].type.width();
    const std::uint64_t a = bits[x[0]], b = bits[x[1]];
    const bool ka = known[x[0]] == Known::constant, kb = known[x[1]] == Known::constant;
    if (kind == BuiltinOp::cmpi) {
      if (x[0] == x[1])
        return set(r, Known::constant, compare_of_equal_operands(static_cast<kildall::CmpPredicate>(o.imm)) ? 1 : 0);
    } else {
      const std::uint64_t* known_a = ka ? &a : nullptr;
      const std::uint64_t* known_b = kb ? &b : nullptr;
      if (const auto f = fold_binary_forwarding(o.code, width, x[0] == x[1], known_a, known_b)) return join(r, x[*f]);
      if (const auto bits_of = fold_binary_identity(o.code, width, x[0] == x[1], known_a, known_b))
        return set(r, Known::constant, *bits_of);
      if (const ValueId through = forwarded_value(fn, op); through != no_index) {
        read_beyond_operands(op);
        return join(r, through);
      }
    }
    if (known[x[0]] == Known::uninitialized || known[x[1]] == Known::uninitialized) return false;
    if (!ka || !kb) return set(r, Known::overdefined, 0);
    if (kind == BuiltinOp::cmpi)
      return set(r, Known::constant,
                 evaluate_compare(static_cast<kildall::CmpPredicate>(o.imm), a, b, fn.values[x[0]].type.width()) ? 1 : 0);
    return set(r, Known::constant, evaluate_binary(o.code, width, a, b).value);  // (add, sub, mul: always defined)
  }

  /// Solves `fn` (its function body only: the generated shape has no regions) in order `how`.
  HandSccp(const Function& fn, Order how)
      : HandSolve(fn, how), known(fn.values.size(), Known::uninitialized), bits(fn.values.size(), 0) {
    for (std::uint32_t i = 0; i < fn.blocks[0].argument_count; ++i)
      known[fn.blocks[0].argument_begin + i] = Known::overdefined;
    iterate(fn, [&](BlockId block, OpId op, const OpData& o, const ValueId* x) {
      const auto kind = static_cast<BuiltinOp>(o.code);
      if (kind == BuiltinOp::br || kind == BuiltinOp::cond_br)
        return branch(fn, block, o, x, kind == BuiltinOp::cond_br);
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
struct HandRanges : HandSolve {
  std::vector<kildall::Interval> range;  ///< By value (meaningful when reached).
  std::vector<std::uint8_t> reached;     ///< By value.
  std::vector<std::uint8_t> back_changes;  ///< By value: changes of a block argument along back edges.
  std::size_t widenings = 0;             ///< Widenings applied.

  /// Sets `v` to `r`; whether it moved.
  bool set(ValueId v, const kildall::Interval& r) {
    if (reached[v] != 0 && range[v] == r) return false;
    range[v] = r;
    reached[v] = 1;
    moved(v);
    return true;
  }

  /// Evaluates a terminator: marks the successors the condition's range allows and joins (or,
  /// along a back edge past the delay, widens) what it forwards into their arguments.
  bool branch(const Function& fn, BlockId from, const OpData& o, const ValueId* x, bool conditional,
              std::uint32_t delay) {
    std::array<bool, 2> take = {true, true};
    if (conditional) {
      if (reached[x[0]] == 0) return false;
      take = {range[x[0]].contains(1), range[x[0]].contains(0)};
    }
    return branch_to(fn, from, o, x, take, [&](ValueId arg, ValueId value, bool back) {
      if (reached[value] == 0) return false;
      if (reached[arg] == 0) return set(arg, range[value]);
      const bool widen = back && back_changes[arg] >= delay;
      widenings += widen ? 1 : 0;
      if (!is_changed(widen ? range[arg].widen(range[value]) : range[arg].join(range[value]))) return false;
      moved(arg);
      back_changes[arg] += back && back_changes[arg] < 255 ? 1 : 0;
      return true;
    });
  }

  /// Solves `fn` (its function body only) with widening delay `delay`, in order `how`.
  HandRanges(const Function& fn, std::uint32_t delay, Order how)
      : HandSolve(fn, how),
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

/// Which solves a run times: both hand-written orders and the library's, or one of them.
struct Selection {
  bool passes = true, sweep = true, library = true;
};

/// The fastest of `runs` runs of each selected solve, alternating (ns per op; 0: not run).
struct Times {
  double passes = 0, sweep = 0, library = 0;
};

template <class Hand, class Library>
Times fastest(std::size_t runs, std::size_t ops, Selection which, Hand&& hand, Library&& library) {
  Times best;
  const auto time = [&](double& into, std::size_t i, auto&& solve) {
    const auto start = std::chrono::steady_clock::now();
    solve();
    const double t = ns_per_op(start, ops);
    into = i == 0 ? t : std::min(into, t);
  };
  for (std::size_t i = 0; i < runs; ++i) {
    if (which.passes) time(best.passes, i, [&] { hand(Order::passes); });
    if (which.sweep) time(best.sweep, i, [&] { hand(Order::sweep); });
    if (which.library) time(best.library, i, library);
  }
  return best;
}

/// Prints the hand-written solves' counts and the timings of those that ran.
void print_times(const HandSolve& passes, const HandSolve& sweep, std::size_t ops, const Times& t, Selection which,
                 const char* library) {
  const auto per_op = [&](std::size_t n) { return static_cast<double>(n) / static_cast<double>(ops); };
  std::printf("\n  by hand, passes: %zu passes, %.2f evaluations per op", passes.passes, per_op(passes.evaluations));
  if (which.passes) std::printf(", %.1f ns/op", t.passes);
  std::printf("\n  by hand, sweep: %zu rewinds, %.2f evaluations per op", sweep.rewinds, per_op(sweep.evaluations));
  if (which.sweep) std::printf(", %.1f ns/op", t.sweep);
  if (which.library) std::printf("\n  %s: %.1f ns/op", library, t.library);
  if (which.passes && which.sweep && which.library)
    std::printf("\n  library / passes %.2fx, library / sweep %.2fx", t.library / t.passes, t.library / t.sweep);
  std::printf("\n");
}

/// SCCP: both hand-written orders must agree with `SccpAnalysis` on every value.
int sccp_floor(const Function& fn, const OpRegistry& registry, std::size_t ops, std::size_t runs, Selection which) {
  const Times t = fastest(
      runs, ops, which, [&](Order order) { (void)HandSccp(fn, order); }, [&] { (void)SccpAnalysis(fn, registry); });
  const SccpAnalysis analysis(fn, registry);
  const HandSccp passes(fn, Order::passes), sweep(fn, Order::sweep);
  std::size_t constants = 0, differ = 0;
  for (ValueId v = 0; v < fn.values.size(); ++v) {
    const ConstantState* s = analysis.lookup(v);
    const Known k = s == nullptr ? Known::uninitialized : s->is_constant() ? Known::constant : Known::overdefined;
    constants += k == Known::constant ? 1 : 0;
    for (const HandSccp* hand : {&passes, &sweep}) {
      if (k == hand->known[v] && (k != Known::constant || s->constant() == hand->bits[v])) continue;
      if (differ++ == 0)
        std::fprintf(stderr, "analysis_floor: value %u (%s) differs: SccpAnalysis %d, by hand (%s) %d\n", v,
                     std::string(fn.value_name(v)).c_str(), static_cast<int>(k),
                     hand == &passes ? "passes" : "sweep", static_cast<int>(hand->known[v]));
    }
  }
  std::printf("sccp, %zu ops: %zu values, %zu constants, %zu differences", ops, fn.values.size(), constants, differ);
  print_times(passes, sweep, ops, t, which, "SccpAnalysis");
  return differ == 0 ? 0 : 1;
}

/// Integer ranges: both hand-written orders must reach the values `IntRangeAnalysis` reaches,
/// none narrower (their widening points are not the solver's, so some may be wider).
int int_range_floor(const Function& fn, const OpRegistry& registry, std::size_t ops, std::size_t runs,
                    Selection which) {
  const std::uint32_t delay = kildall::SolverOptions{}.widening_delay;
  const Times t = fastest(
      runs, ops, which, [&](Order order) { (void)HandRanges(fn, delay, order); },
      [&] { (void)IntRangeAnalysis(fn, &registry); });
  const IntRangeAnalysis analysis(fn, &registry);
  const HandRanges passes(fn, delay, Order::passes), sweep(fn, delay, Order::sweep);
  std::size_t reached = 0, failures = 0;
  std::printf("int-range, %zu ops: %zu values", ops, fn.values.size());
  for (const HandRanges* hand : {&passes, &sweep}) {
    std::size_t wider = 0, narrower = 0, unordered = 0;
    reached = 0;
    for (ValueId v = 0; v < fn.values.size(); ++v) {
      const kildall::Interval* s = analysis.lookup(v);
      if ((s != nullptr) != (hand->reached[v] != 0)) {
        ++unordered;  // reached by one only
        continue;
      }
      if (s == nullptr) continue;
      ++reached;
      if (*s == hand->range[v]) continue;
      if (s->leq(hand->range[v])) ++wider;
      else if (hand->range[v].leq(*s)) ++narrower;
      else ++unordered;
    }
    std::printf(", %s: %zu wider, %zu narrower, %zu unordered or reached by one only (%zu widenings)",
                hand == &passes ? "passes" : "sweep", wider, narrower, unordered, hand->widenings);
    failures += narrower + unordered;
  }
  std::printf(", %zu reached by the library", reached);
  print_times(passes, sweep, ops, t, which, "IntRangeAnalysis");
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view analysis = argc == 4 || argc == 5 ? argv[1] : "";
  const std::string_view only = argc == 5 ? argv[4] : "";
  if ((analysis != "sccp" && analysis != "int-range") ||
      (argc == 5 && only != "passes" && only != "sweep" && only != "library")) {
    std::fprintf(stderr, "usage: analysis_floor <sccp|int-range> <ops> <runs> [passes|sweep|library]\n");
    return 2;
  }
  const auto ops = static_cast<std::size_t>(std::strtoull(argv[2], nullptr, 10));
  const auto runs = static_cast<std::size_t>(std::strtoull(argv[3], nullptr, 10));
  if (ops < 64 || runs == 0) {
    std::fprintf(stderr, "analysis_floor: <ops> must be at least 64 and <runs> at least 1\n");
    return 2;
  }
  Selection which;
  if (!only.empty()) which = Selection{only == "passes", only == "sweep", only == "library"};
  const OpRegistry registry;
  const Module module = parse_and_verify(
      kildall::bench::generate_mlir_program(kildall::bench::ProgramShape::cfg, ops, 1, ops), registry, "generated.mlir");
  const Function& fn = module.functions.at(0);
  return analysis == "sccp" ? sccp_floor(fn, registry, ops, runs, which)
                            : int_range_floor(fn, registry, ops, runs, which);
}
