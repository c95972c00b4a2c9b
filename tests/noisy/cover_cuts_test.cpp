// Certified cover cuts; oracle: every legal placement enumerated with the independent evaluator must hit every cut.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <kildall/noisy/compact_program.hpp>
#include <kildall/noisy/cover_cuts.hpp>
#include <kildall/noisy/placement.hpp>
#include <kildall/noisy/verify.hpp>

#include "article_programs.hpp"
#include "noisy_test_support.hpp"

using namespace kildall;
using namespace kildall::noisy;
using noisy_test::add;
using noisy_test::Dag;

TEST_CASE("certified cuts hold for every legal placement (brute force, 120 random DAGs, 6 placements each)") {
  std::mt19937 rng(11);
  std::size_t cuts = 0, singletons = 0;
  for (std::uint32_t seed = 1; seed <= 120; ++seed) {
    const Dag g = noisy_test::random_program(seed, 4 + seed % 9);
    CAPTURE(seed);
    const NoiseParameters parameters;
    if (noisy_test::brute_force(g).count < 0) continue;
    const auto least = check_placement_possible(g, parameters);
    const CompactNoisyProgram p = compact_program(g);
    CoverCutSeparator separator(p, noise_lower_bounds(least), parameters);
    const auto legal = noisy_test::legal_placements(g);
    const auto red = noisy_test::reducible_vertices(g);
    for (int trial = 0; trial < 6; ++trial) {
      std::vector<bool> reduced(p.size(), false);
      for (const auto v : red) reduced[v] = rng() % 4 == 0;
      const auto e = noisy_test::evaluate(g, reduced);
      for (std::uint32_t u = 0; u < p.size(); ++u) {
        if (!is_checked(p.kind[u]) || e.own[u] <= parameters.maximum) continue;
        const auto cut = separator.separate(u, e.value, reduced);
        if (!cut) continue;
        ++cuts;
        singletons += cut->ops.size() == 1 ? 1 : 0;
        CHECK(cut->certified_noise > parameters.maximum);
        for (const auto v : cut->ops) {
          CHECK(is_reducible(p.kind[v]));
          CHECK_FALSE(reduced[v]);  // the cut excludes the placement it came from
        }
        std::size_t missed = 0;
        for (const auto& placement : legal) {
          bool hit = false;
          for (const auto v : cut->ops) hit = hit || placement[v];
          missed += hit ? 0 : 1;
        }
        CHECK(missed == 0);
      }
    }
  }
  MESSAGE(cuts << " cuts checked against every legal placement, " << singletons << " of one op");
  CHECK(cuts > 100);
}

TEST_CASE("certified_own_noise is a lower bound over every placement that leaves the set unreduced") {
  std::mt19937 rng(5);
  for (std::uint32_t seed = 1; seed <= 60; ++seed) {
    const Dag g = noisy_test::random_program(seed, 6 + seed % 8);
    if (noisy_test::brute_force(g).count < 0) continue;
    const NoiseParameters parameters;
    const CompactNoisyProgram p = compact_program(g);
    CoverCutSeparator separator(p, noise_lower_bounds(check_placement_possible(g, parameters)), parameters);
    const auto red = noisy_test::reducible_vertices(g);
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<std::uint32_t> transparent;
      std::vector<bool> in_set(p.size(), false);
      for (const auto v : p.topological)
        if ((is_reducible(p.kind[v]) || p.kind[v] == NoisyOp::join) && rng() % 2 == 0) {
          transparent.push_back(v);
          in_set[v] = true;
        }
      const std::uint32_t u = static_cast<std::uint32_t>(red[rng() % red.size()]);
      const std::uint64_t bound = separator.certified_own_noise(u, transparent);
      std::size_t below = 0;
      for (int sample = 0; sample < 20; ++sample) {
        std::vector<bool> reduced(p.size(), false);
        for (const auto v : red) reduced[v] = !in_set[v] && rng() % 2 == 0;
        below += noisy_test::evaluate(g, reduced).own[u] < bound ? 1 : 0;
      }
      CHECK(below == 0);
    }
  }
}

TEST_CASE("the article's branching example: the cut is the shared mul or its first consumers") {
  Dag g;
  const auto c0 = add(g, NoisyOp::encode);
  const auto c1 = add(g, NoisyOp::encode);
  const auto m = add(g, NoisyOp::mul, {c0, c1});
  std::size_t b = m;
  for (int i = 0; i < 4; ++i) b = add(g, NoisyOp::add, {b, c1});
  const NoiseParameters parameters;
  const CompactNoisyProgram p = compact_program(g);
  CoverCutSeparator separator(p, noise_lower_bounds(check_placement_possible(g, parameters)), parameters);
  const std::vector<bool> none(p.size(), false);
  const auto e = noisy_test::evaluate(g, none);
  const auto cut = separator.separate(static_cast<std::uint32_t>(m + 3), e.value, none);  // the first add over 26
  CHECK(e.own[b] == 28);
  REQUIRE(cut.has_value());
  // 24 + 3 adds = 27 at the third add: one of the mul and the first two adds must be reduced.
  CHECK(cut->ops == std::vector<std::uint32_t>{static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(m + 1),
                                              static_cast<std::uint32_t>(m + 2)});
  CHECK(cut->certified_noise == 27);
}

TEST_CASE("loops: the violating op may be in its own cut, and the cut holds for every legal placement") {
  Dag g;
  const auto [a, j, x, y] = noisy_test::feedback_loop(g);  // the loop blows up unless x or y is reduced
  const NoiseParameters parameters;
  const CompactNoisyProgram p = compact_program(g);
  REQUIRE_FALSE(p.acyclic());
  CoverCutSeparator separator(p, noise_lower_bounds(check_placement_possible(g, parameters)), parameters);
  const std::vector<bool> none(p.size(), false);
  const auto analysis = analyze_noise(g, parameters);  // widened: saturated noise in the loop
  std::vector<std::uint64_t> noise(p.size());
  for (std::uint32_t v = 0; v < p.size(); ++v) noise[v] = analysis.noise_bound(v).value_or(0);
  const auto cut = separator.separate(static_cast<std::uint32_t>(x), noise, none);
  REQUIRE(cut.has_value());
  CHECK(cut->ops == std::vector<std::uint32_t>{static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)});
  // Each of the two single reductions is legal (the analysis decides: loops need the fixpoint).
  for (const auto r : {x, y}) {
    std::vector<bool> mask(p.size(), false);
    mask[r] = true;
    CHECK(verify_noise(g, parameters, mask).empty());
  }
}
