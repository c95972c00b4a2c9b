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

#include <algorithm>
#include <cstdint>
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

/// True for the ops after which a `reduce_noise` may be inserted: the ops
/// that make noise grow (`add`, `sub`, `mul`).
[[nodiscard]] constexpr bool is_reducible(NoisyOp kind) noexcept {
  return kind == NoisyOp::add || kind == NoisyOp::sub || kind == NoisyOp::mul;
}

/// True for the ops whose result verification checks against the maximum
/// (`add`, `sub`, `mul`, `reduce_noise`, as in the article).
[[nodiscard]] constexpr bool is_checked(NoisyOp kind) noexcept {
  return is_reducible(kind) || kind == NoisyOp::reduce_noise;
}

/// True for the kinds whose value is a noisy integer.
[[nodiscard]] constexpr bool is_noisy_value(NoisyOp kind) noexcept {
  return kind != NoisyOp::decode && kind != NoisyOp::plain;
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

/// The noise of a node of kind `kind` from its operands' noise, in operand
/// order. `operands` is a range of `const Interval*` (nullptr: not known yet,
/// treated as empty), e.g. the solver's `OperandStates<Interval>`. A `join`
/// joins the known operands; `add`/`sub`/`mul` fold over all operands (two in
/// the dialect); `reduce_noise` and `encode` ignore their operands.
template <class Operands>
[[nodiscard]] Interval infer_noise(NoisyOp kind, const Operands& operands, const NoiseParameters& parameters) {
  switch (kind) {
    case NoisyOp::encode:
    case NoisyOp::reduce_noise: return infer_fresh_noise(parameters);
    case NoisyOp::input: return infer_input_noise(parameters);
    case NoisyOp::decode:
    case NoisyOp::plain: return infer_plain_noise();
    case NoisyOp::join: {
      Interval out = no_noise_yet();
      for (const Interval* x : operands)
        if (x != nullptr) (void)out.join(*x);
      return out;
    }
    case NoisyOp::add:
    case NoisyOp::sub:
    case NoisyOp::mul: {
      bool first = true;
      Interval out = no_noise_yet();
      for (const Interval* x : operands) {
        const Interval operand = x != nullptr ? *x : no_noise_yet();
        if (first) {
          out = operand;
          first = false;
        } else {
          out = kind == NoisyOp::mul ? infer_mul_noise(out, operand) : infer_add_noise(out, operand);
        }
      }
      if (first) return no_noise_yet();  // no operand at all: nothing to compute from
      return out;
    }
  }
  return no_noise_yet();
}

/// True when `noise` (its upper bound) is within the model's maximum. The
/// empty interval (never computed) is legal.
[[nodiscard]] inline bool is_legal_noise(const Interval& noise, const NoiseParameters& parameters) {
  return noise.is_empty() || noise.umax() <= parameters.maximum;
}

}  // namespace kildall::noisy
