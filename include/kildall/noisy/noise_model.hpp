#pragma once
/// \file
/// The noisy-integer-arithmetic model of Kun's "MLIR — A Global Optimization
/// and Dataflow Analysis" (the HEIR-motivated toy model): every noisy value
/// carries a bound on its noise, in bits. A fresh value (`encode`) and the
/// output of `reduce_noise` have `initial` bits (12); `add`/`sub` give one
/// bit more than the noisier input; `mul` gives the sum of the inputs; a
/// program is legal while every checked value stays at most `maximum` (26).
///
/// Noise is tracked in the interval lattice (`kildall::Interval`, as the
/// article reuses MLIR's integer range analysis): the upper bound `umax` is
/// the noise; the lower bound follows the same rules and is informative
/// only. The transfer functions below are reusable free functions, in the
/// style of MLIR's `inferAdd`/`inferMul`; they saturate at the lattice width
/// instead of wrapping, so noise never "overflows" back to small values.
///
/// The rules live in ONE table, `noise_rule(kind)`: what an op's noise is made
/// of (a constant, the largest operand plus a growth, or the sum of the
/// operands), whether a `reduce_noise` may follow it and whether verification
/// checks it. Everything else reads that table: the interval transfer
/// `infer_noise` (the analysis), the upper-bound fold `fold_noise` (the
/// compact evaluators, greedy, the cut certificates), the critical operands
/// of a cover cut and the ILP encoding. An op with any number of operands
/// follows the same rule everywhere: `add`/`sub` give 1 + the largest operand
/// noise, `mul` the sum of all of them.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include <kildall/lattice/interval.hpp>

namespace kildall::noisy {

/// What a node of a noisy program is, as far as noise is concerned.
enum class NoisyOp : std::uint8_t {
  encode,        ///< a fresh noisy value: `initial` bits of noise
  reduce_noise,  ///< resets the noise of its operand to `initial` bits
  add,           ///< 1 + the larger noise of its operands
  sub,           ///< 1 + the larger noise of its operands
  mul,           ///< the sum of its operands' noise
  decode,        ///< noisy -> plain integer: no noise of its own
  join,          ///< a block argument (phi): the join of the values flowing into it
  input,         ///< a noisy value from outside (e.g. a function argument): `input` bits
  plain,         ///< not a noisy value (constants, ordinary integer arithmetic): no noise
};

/// The op's name in the article's dialect ("add", "reduce_noise", ...).
[[nodiscard]] constexpr std::string_view to_string(NoisyOp kind) noexcept {
  switch (kind) {
    case NoisyOp::encode: return "encode";
    case NoisyOp::reduce_noise: return "reduce_noise";
    case NoisyOp::add: return "add";
    case NoisyOp::sub: return "sub";
    case NoisyOp::mul: return "mul";
    case NoisyOp::decode: return "decode";
    case NoisyOp::join: return "join";
    case NoisyOp::input: return "input";
    case NoisyOp::plain: return "plain";
  }
  return "?";
}

/// What an op's noise is made of.
enum class NoiseCombine : std::uint8_t {
  zero,     ///< no noise (not a noisy value): 0
  initial,  ///< `NoiseParameters::initial` (a fresh value, `reduce_noise`)
  input,    ///< `NoiseParameters::input` (a noisy value from outside)
  max,      ///< the largest operand noise plus `NoiseRule::growth` (waits for every operand unless `joins_known`)
  sum,      ///< the sum of the operands' noise (waits for every operand)
};

/// The noise rule of one op kind: the single source of the model's rules.
struct NoiseRule {
  NoiseCombine combine = NoiseCombine::zero;  ///< How the noise follows from the operands.
  std::uint8_t growth = 0;                    ///< Added to the largest operand noise (`max` only).
  bool joins_known = false;  ///< `max` over the operands known so far (a block argument) instead of waiting for all.
  bool reducible = false;    ///< A `reduce_noise` may be inserted after it.
  bool checked = false;      ///< Verification checks its result against the maximum.
  bool noisy = true;         ///< Its value is a noisy integer.
};

/// The rule of every `NoisyOp`, indexed by the enum's value.
inline constexpr std::array<NoiseRule, 9> noise_rules = {{
    /* encode       */ {NoiseCombine::initial, 0, false, false, false, true},
    /* reduce_noise */ {NoiseCombine::initial, 0, false, false, true, true},
    /* add          */ {NoiseCombine::max, 1, false, true, true, true},
    /* sub          */ {NoiseCombine::max, 1, false, true, true, true},
    /* mul          */ {NoiseCombine::sum, 0, false, true, true, true},
    /* decode       */ {NoiseCombine::zero, 0, false, false, false, false},
    /* join         */ {NoiseCombine::max, 0, true, false, false, true},
    /* input        */ {NoiseCombine::input, 0, false, false, false, true},
    /* plain        */ {NoiseCombine::zero, 0, false, false, false, false},
}};

/// The noise rule of `kind` (one row of `noise_rules`).
[[nodiscard]] constexpr const NoiseRule& noise_rule(NoisyOp kind) noexcept {
  return noise_rules[static_cast<std::size_t>(kind)];
}

/// True for the ops after which a `reduce_noise` may be inserted: the ops
/// that make noise grow (`add`, `sub`, `mul`).
[[nodiscard]] constexpr bool is_reducible(NoisyOp kind) noexcept { return noise_rule(kind).reducible; }

/// True for the ops whose result verification checks against the maximum
/// (`add`, `sub`, `mul`, `reduce_noise`, as in the article).
[[nodiscard]] constexpr bool is_checked(NoisyOp kind) noexcept { return noise_rule(kind).checked; }

/// True for the kinds whose value is a noisy integer.
[[nodiscard]] constexpr bool is_noisy_value(NoisyOp kind) noexcept { return noise_rule(kind).noisy; }

/// True when an op's noise depends on its operands' noise (`max` or `sum`).
[[nodiscard]] constexpr bool depends_on_operands(NoisyOp kind) noexcept {
  const NoiseCombine c = noise_rule(kind).combine;
  return c == NoiseCombine::max || c == NoiseCombine::sum;
}

/// The parameters of the model (the article hard-codes 12 and 26).
struct NoiseParameters {
  std::uint64_t initial = 12;  ///< noise of a fresh value and after `reduce_noise`
  std::uint64_t maximum = 26;  ///< largest legal noise of a checked value
  std::uint64_t input = 12;    ///< noise assumed for a noisy value of unknown origin (`NoisyOp::input`)
};

/// Bit width of the noise intervals: noise bounds saturate at 2^32 - 1.
inline constexpr unsigned noise_width = 32;

/// The largest noise bound representable (saturation point of the transfers).
inline constexpr std::uint64_t noise_saturation = (std::uint64_t{1} << noise_width) - 1;

/// `a + b`, saturated at `noise_saturation`.
[[nodiscard]] constexpr std::uint64_t saturating_noise_add(std::uint64_t a, std::uint64_t b) noexcept {
  const std::uint64_t x = std::min(a, noise_saturation);
  const std::uint64_t y = std::min(b, noise_saturation);
  return std::min(x + y, noise_saturation);
}

/// The noise interval `[lo, hi]` (both saturated).
[[nodiscard]] inline Interval noise_interval(std::uint64_t lo, std::uint64_t hi) {
  hi = std::min(hi, noise_saturation);
  return Interval::from_unsigned(noise_width, std::min(lo, hi), hi);
}

/// The "nothing known yet" noise state (empty interval of the noise width).
[[nodiscard]] inline Interval no_noise_yet() { return Interval::empty(noise_width); }

/// Noise of a plain (non-noisy) value: exactly 0.
[[nodiscard]] inline Interval infer_plain_noise() { return noise_interval(0, 0); }

/// Noise of a fresh value (`encode`) and of `reduce_noise`'s result: `[0, initial]`.
[[nodiscard]] inline Interval infer_fresh_noise(const NoiseParameters& parameters) {
  return noise_interval(0, parameters.initial);
}

/// Noise of a noisy value from outside: `[0, input]`.
[[nodiscard]] inline Interval infer_input_noise(const NoiseParameters& parameters) {
  return noise_interval(0, parameters.input);
}

/// Noise of `add`/`sub`: the hull of both inputs with its upper bound raised by
/// one bit (the article's `unionPlusOne`). Empty if an input is empty.
[[nodiscard]] inline Interval infer_add_noise(const Interval& lhs, const Interval& rhs) {
  if (lhs.is_empty() || rhs.is_empty()) return no_noise_yet();
  return noise_interval(std::min(lhs.umin(), rhs.umin()), saturating_noise_add(std::max(lhs.umax(), rhs.umax()), 1));
}

/// Noise of `mul`: the bounds of both inputs added. Empty if an input is empty.
[[nodiscard]] inline Interval infer_mul_noise(const Interval& lhs, const Interval& rhs) {
  if (lhs.is_empty() || rhs.is_empty()) return no_noise_yet();
  return noise_interval(saturating_noise_add(lhs.umin(), rhs.umin()), saturating_noise_add(lhs.umax(), rhs.umax()));
}

/// The noise of an op of `kind` when it has no operand-dependent part
/// (`zero`, `initial`, `input` rows) as a number.
[[nodiscard]] constexpr std::uint64_t fixed_noise(NoisyOp kind, const NoiseParameters& parameters) noexcept {
  switch (noise_rule(kind).combine) {
    case NoiseCombine::initial: return parameters.initial;
    case NoiseCombine::input: return parameters.input;
    default: return 0;
  }
}

/// The noise of a node of kind `kind` from its operands' noise, in operand
/// order, by `noise_rule(kind)`. `operands` is a range of `const Interval*`
/// (nullptr: not known yet, treated as empty), e.g. the solver's
/// `OperandStates<Interval>`. A `join` joins the known operands (empty if
/// none); `add`/`sub`/`mul` are empty until every operand is known and
/// otherwise combine all of them (`add`/`sub`: the hull, its upper bound
/// raised by one bit; `mul`: the bounds added); `reduce_noise` and `encode`
/// ignore their operands.
template <class Operands>
[[nodiscard]] Interval infer_noise(NoisyOp kind, const Operands& operands, const NoiseParameters& parameters) {
  const NoiseRule& rule = noise_rule(kind);
  switch (rule.combine) {
    case NoiseCombine::zero: return infer_plain_noise();
    case NoiseCombine::initial: return infer_fresh_noise(parameters);
    case NoiseCombine::input: return infer_input_noise(parameters);
    case NoiseCombine::max:
    case NoiseCombine::sum: break;
  }
  const bool sum = rule.combine == NoiseCombine::sum;
  std::uint64_t lo = sum ? 0 : noise_saturation, hi = 0;
  bool any = false;
  for (const Interval* x : operands) {
    if (x == nullptr || x->is_empty()) {
      if (rule.joins_known) continue;
      return no_noise_yet();
    }
    lo = sum ? saturating_noise_add(lo, x->umin()) : std::min(lo, x->umin());
    hi = sum ? saturating_noise_add(hi, x->umax()) : std::max(hi, x->umax());
    any = true;
  }
  if (!any) {
    if (rule.joins_known) return no_noise_yet();  // nothing flows in yet
    lo = 0;                                       // no operand at all: the rule over the empty set
  }
  return noise_interval(lo, saturating_noise_add(hi, rule.growth));
}

/// The noise (upper bound) of an op of `kind` from its operands' noise, by
/// `noise_rule(kind)`: the same rule as `infer_noise` on numbers (a `join`
/// of nothing is 0).
[[nodiscard]] inline std::uint64_t fold_noise(NoisyOp kind, std::span<const std::uint64_t> operands,
                                              const NoiseParameters& parameters) {
  const NoiseRule& rule = noise_rule(kind);
  if (rule.combine == NoiseCombine::max) {
    std::uint64_t m = 0;
    for (const std::uint64_t x : operands) m = std::max(m, x);
    return saturating_noise_add(m, rule.growth);
  }
  if (rule.combine == NoiseCombine::sum) {
    std::uint64_t m = 0;
    for (const std::uint64_t x : operands) m = saturating_noise_add(m, x);
    return m;
  }
  return fixed_noise(kind, parameters);
}

/// True when `noise` (its upper bound) is within the model's maximum. The
/// empty interval (never computed) is legal.
[[nodiscard]] inline bool is_legal_noise(const Interval& noise, const NoiseParameters& parameters) {
  return noise.is_empty() || noise.umax() <= parameters.maximum;
}

}  // namespace kildall::noisy
