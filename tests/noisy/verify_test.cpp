#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include <kildall/noisy/verify.hpp>

#include "noisy_test_support.hpp"

using namespace kildall::noisy;
using noisy_test::add;
using noisy_test::Dag;

TEST_CASE("the article's message") {
  CHECK(noise_violation_message(26, 48) ==
        "Found op after which the noise exceeds the allowable maximum of 26; it was: 48");
}

TEST_CASE("the mul chain's violations start at the second mul") {
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  const auto b = add(g, NoisyOp::encode);
  const auto m1 = add(g, NoisyOp::mul, {a, b});
  const auto m2 = add(g, NoisyOp::mul, {m1, m1});
  const auto m3 = add(g, NoisyOp::mul, {m2, m2});
  const auto violations = verify_noise(g);
  REQUIRE(violations.size() == 2);
  CHECK(violations[0].value == m2);
  CHECK(violations[0].noise == 48);
  CHECK(violations[1].value == m3);
  CHECK(violations[1].noise == 96);
}

TEST_CASE("verification agrees with the independent oracle on random programs and placements") {
  for (std::uint32_t seed = 100; seed < 180; ++seed) {
    const Dag g = noisy_test::random_program(seed, 3 + seed % 10);
    std::vector<bool> reduced(boost::num_vertices(g), false);
    for (std::size_t v = 0; v < reduced.size(); ++v) reduced[v] = (v + seed) % 3 == 0;
    CAPTURE(seed);
    CHECK(verify_noise(g, {}, reduced).empty() == noisy_test::evaluate(g, reduced).legal);
    CHECK(verify_noise(g).empty() == noisy_test::evaluate(g, {}).legal);
  }
}

TEST_CASE("a placed reduction does not hide its op's own excess") {
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  const auto m = add(g, NoisyOp::mul, {a, a});
  const auto m2 = add(g, NoisyOp::mul, {m, a});  // 36 before any reduction
  std::vector<bool> reduced(boost::num_vertices(g), false);
  reduced[m2] = true;
  const auto violations = verify_noise(g, {}, reduced);
  REQUIRE(violations.size() == 1);
  CHECK(violations[0].value == m2);
  CHECK(violations[0].noise == 36);
  CHECK(violations[0].before_reduction);
}

TEST_CASE("reduce_noise itself is checked; encodes and joins are not") {
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  const auto r = add(g, NoisyOp::reduce_noise, {a});
  NoiseParameters p;
  p.initial = 30;
  const auto violations = verify_noise(g, p);
  REQUIRE(violations.size() == 1);
  CHECK(violations[0].value == r);
}
