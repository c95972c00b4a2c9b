// The noise model's rule table and transfers; oracle: the model's definition written out independently, exhaustive small intervals.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include <kildall/noisy/noise_model.hpp>

using namespace kildall;
using namespace kildall::noisy;

namespace {

// Every noise interval [lo, hi] with hi <= limit.
std::vector<Interval> small_intervals(std::uint64_t limit) {
  std::vector<Interval> out{no_noise_yet()};
  for (std::uint64_t lo = 0; lo <= limit; ++lo)
    for (std::uint64_t hi = lo; hi <= limit; ++hi) out.push_back(noise_interval(lo, hi));
  return out;
}

}  // namespace

TEST_CASE("fresh, input and plain noise follow the parameters") {
  const NoiseParameters defaults;
  CHECK(defaults.initial == 12);
  CHECK(defaults.maximum == 26);
  CHECK(infer_fresh_noise(defaults).umax() == 12);
  CHECK(infer_fresh_noise(defaults).umin() == 0);
  NoiseParameters p;
  p.initial = 7;
  p.input = 3;
  CHECK(infer_fresh_noise(p).umax() == 7);
  CHECK(infer_input_noise(p).umax() == 3);
  CHECK(infer_plain_noise().umax() == 0);
}

TEST_CASE("add is one bit more than the noisier input, mul the sum, as in the article's trace") {
  const Interval fresh = infer_fresh_noise({});
  const Interval product = infer_mul_noise(fresh, fresh);
  CHECK(to_mlir_debug_string(product) == "unsigned : [0, 24] signed : [0, 24]");
  CHECK(infer_mul_noise(product, product).umax() == 48);
  CHECK(infer_add_noise(product, fresh).umax() == 25);
  CHECK(infer_add_noise(fresh, product).umax() == 25);
  CHECK(infer_add_noise(noise_interval(3, 5), noise_interval(1, 9)).umin() == 1);
}

TEST_CASE("transfers are exact on the upper bound and monotone (exhaustive up to 10 bits of noise)") {
  const auto all = small_intervals(10);
  for (const Interval& a : all)
    for (const Interval& b : all) {
      const Interval add = infer_add_noise(a, b);
      const Interval mul = infer_mul_noise(a, b);
      if (a.is_empty() || b.is_empty()) {
        CHECK(add.is_empty());
        CHECK(mul.is_empty());
        continue;
      }
      CHECK(add.umax() == std::max(a.umax(), b.umax()) + 1);
      CHECK(mul.umax() == a.umax() + b.umax());
      // Monotone in each argument: a <= a2 implies f(a, b) <= f(a2, b).
      for (const Interval& a2 : all) {
        if (!a.leq(a2)) continue;
        CHECK(add.leq(infer_add_noise(a2, b)));
        CHECK(mul.leq(infer_mul_noise(a2, b)));
      }
    }
}

TEST_CASE("noise saturates instead of wrapping") {
  const Interval huge = noise_interval(0, noise_saturation);
  CHECK(infer_add_noise(huge, huge).umax() == noise_saturation);
  CHECK(infer_mul_noise(huge, noise_interval(5, 5)).umax() == noise_saturation);
  CHECK(saturating_noise_add(noise_saturation, 1) == noise_saturation);
  CHECK(saturating_noise_add(std::uint64_t{1} << 40, 0) == noise_saturation);
  // A doubling chain never comes back below its previous value.
  Interval x = infer_fresh_noise({});
  for (int i = 0; i < 40; ++i) {
    const Interval next = infer_mul_noise(x, x);
    CHECK(x.leq(next));
    x = next;
  }
  CHECK(x.umax() == noise_saturation);
}

TEST_CASE("infer_noise dispatches by kind and treats unknown operands as empty") {
  const NoiseParameters p;
  const Interval a = noise_interval(0, 20);
  const Interval b = noise_interval(0, 12);
  const std::vector<const Interval*> both{&a, &b};
  const std::vector<const Interval*> half{&a, nullptr};
  CHECK(infer_noise(NoisyOp::add, both, p).umax() == 21);
  CHECK(infer_noise(NoisyOp::sub, both, p).umax() == 21);
  CHECK(infer_noise(NoisyOp::mul, both, p).umax() == 32);
  CHECK(infer_noise(NoisyOp::join, both, p).umax() == 20);
  CHECK(infer_noise(NoisyOp::join, half, p).umax() == 20);  // a join waits for nobody
  CHECK(infer_noise(NoisyOp::add, half, p).is_empty());     // an op needs all its operands
  CHECK(infer_noise(NoisyOp::reduce_noise, both, p).umax() == 12);
  CHECK(infer_noise(NoisyOp::encode, half, p).umax() == 12);
  CHECK(infer_noise(NoisyOp::decode, both, p).umax() == 0);
  CHECK(infer_noise(NoisyOp::plain, both, p).umax() == 0);
  CHECK(infer_noise(NoisyOp::input, both, p).umax() == p.input);
}

TEST_CASE("kind predicates match the article's verification") {
  CHECK(is_reducible(NoisyOp::add));
  CHECK(is_reducible(NoisyOp::sub));
  CHECK(is_reducible(NoisyOp::mul));
  CHECK_FALSE(is_reducible(NoisyOp::reduce_noise));
  CHECK(is_checked(NoisyOp::reduce_noise));
  CHECK_FALSE(is_checked(NoisyOp::encode));
  CHECK_FALSE(is_checked(NoisyOp::join));
  CHECK_FALSE(is_noisy_value(NoisyOp::decode));
  CHECK(is_noisy_value(NoisyOp::join));
  CHECK(to_string(NoisyOp::reduce_noise) == "reduce_noise");
  CHECK(is_legal_noise(noise_interval(0, 26), {}));
  CHECK_FALSE(is_legal_noise(noise_interval(0, 27), {}));
  CHECK(is_legal_noise(no_noise_yet(), {}));
}

TEST_CASE("one rule per kind for any number of operands: fold_noise and infer_noise agree with the model's definition") {
  // The definition, written out independently: add/sub = 1 + the largest
  // operand noise, mul = the sum, join = the largest, for 0..4 operands.
  std::mt19937 rng(3);
  const NoiseParameters p;
  for (int trial = 0; trial < 2000; ++trial) {
    const NoisyOp kind = std::array{NoisyOp::add, NoisyOp::sub, NoisyOp::mul, NoisyOp::join}[rng() % 4];
    std::vector<std::uint64_t> bounds(rng() % 5);
    std::vector<Interval> intervals;
    std::uint64_t largest = 0, sum = 0, least = 1000, least_sum = 0;
    for (auto& b : bounds) {
      b = rng() % 40;
      const std::uint64_t lo = rng() % (b + 1);
      intervals.push_back(noise_interval(lo, b));
      largest = std::max(largest, b);
      sum += b;
      least = std::min(least, lo);
      least_sum += lo;
    }
    const std::uint64_t expected = kind == NoisyOp::mul ? sum : kind == NoisyOp::join ? largest : largest + 1;
    CAPTURE(to_string(kind));
    CAPTURE(bounds.size());
    CHECK(fold_noise(kind, bounds, p) == expected);
    std::vector<const Interval*> operands;
    for (const auto& i : intervals) operands.push_back(&i);
    const Interval inferred = infer_noise(kind, operands, p);
    if (kind == NoisyOp::join && bounds.empty()) {
      CHECK(inferred.is_empty());  // nothing flows in
      continue;
    }
    REQUIRE_FALSE(inferred.is_empty());
    CHECK(inferred.umax() == expected);
    const std::uint64_t expected_lo = bounds.empty() ? 0 : kind == NoisyOp::mul ? least_sum : least;
    CHECK(inferred.umin() == expected_lo);
  }
}

TEST_CASE("the rule table: reducible, checked and noisy kinds, and what each rule combines") {
  for (const NoisyOp k : {NoisyOp::add, NoisyOp::sub, NoisyOp::mul}) {
    CHECK(noise_rule(k).reducible);
    CHECK(depends_on_operands(k));
  }
  CHECK(noise_rule(NoisyOp::add).combine == NoiseCombine::max);
  CHECK(noise_rule(NoisyOp::add).growth == 1);
  CHECK(noise_rule(NoisyOp::mul).combine == NoiseCombine::sum);
  CHECK(noise_rule(NoisyOp::join).joins_known);
  CHECK_FALSE(noise_rule(NoisyOp::join).checked);
  CHECK(fixed_noise(NoisyOp::encode, NoiseParameters{}) == 12);
  CHECK(fixed_noise(NoisyOp::decode, NoiseParameters{}) == 0);
}
