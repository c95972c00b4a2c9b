#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <kildall/noisy/placement.hpp>

#include "noisy_test_support.hpp"

using namespace kildall::noisy;
using noisy_test::add;
using noisy_test::Dag;

TEST_CASE("least_possible_noise is the pointwise minimum over all placements (brute force)") {
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    const Dag g = noisy_test::random_program(seed, 3 + seed % 9);
    const auto red = noisy_test::reducible_vertices(g);
    std::vector<std::uint64_t> least(boost::num_vertices(g), UINT64_MAX);
    for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << red.size()); ++mask) {
      std::vector<bool> reduced(boost::num_vertices(g), false);
      for (std::size_t i = 0; i < red.size(); ++i) reduced[red[i]] = (mask >> i & 1) != 0;
      const auto e = noisy_test::evaluate(g, reduced);
      for (std::size_t v = 0; v < least.size(); ++v) least[v] = std::min(least[v], e.value[v]);
    }
    const auto best = least_possible_noise(g, {});
    for (std::size_t v = 0; v < least.size(); ++v) {
      CAPTURE(seed);
      CAPTURE(v);
      CHECK(best.noise_bound(v).value_or(0) == least[v]);
    }
    // Feasible exactly when some placement is legal.
    bool possible = true;
    try {
      (void)check_placement_possible(g, {});
    } catch (const PlacementError&) {
      possible = false;
    }
    CHECK(possible == (noisy_test::brute_force(g).count >= 0));
  }
}

TEST_CASE("a maximum below what two fresh values reach names the mul") {
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  const auto b = add(g, NoisyOp::encode);
  const auto s = add(g, NoisyOp::add, {a, b});
  const auto m = add(g, NoisyOp::mul, {a, b});
  (void)s;
  NoiseParameters p;
  p.maximum = 20;
  try {
    (void)check_placement_possible(g, p);
    FAIL("expected a PlacementError");
  } catch (const PlacementError& e) {
    CHECK(e.vertex_index() == m);
    CHECK(e.kind() == NoisyOp::mul);
    CHECK(std::string(e.what()).find("op #" + std::to_string(m) + " (mul)") == 0);
    CHECK(e.reason().find("its noise is 24, above the allowable maximum of 20") != std::string::npos);
  }
}

TEST_CASE("an initial noise above the maximum names the reduce_noise op") {
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  const auto r = add(g, NoisyOp::reduce_noise, {a});
  NoiseParameters p;
  p.initial = 27;
  CHECK_THROWS_AS((void)check_placement_possible(g, p), PlacementError);
  try {
    (void)check_placement_possible(g, p);
  } catch (const PlacementError& e) {
    CHECK(e.vertex_index() == r);
  }
}

TEST_CASE("placement_mask marks exactly the placed vertices") {
  const Dag g = noisy_test::add_chain(3);
  const auto mask = placement_mask(g, std::vector<std::size_t>{4, 6});
  REQUIRE(mask.size() == boost::num_vertices(g));
  for (std::size_t v = 0; v < mask.size(); ++v) CHECK(mask[v] == (v == 4 || v == 6));
}
