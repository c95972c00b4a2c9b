#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <kildall/noisy/local_search.hpp>

#include "noisy_test_support.hpp"

using namespace kildall::noisy;
using noisy_test::Dag;

TEST_CASE("evaluate_placement equals the independent evaluation") {
  std::mt19937 rng(1);
  for (std::uint32_t seed = 1; seed <= 80; ++seed) {
    const Dag g = noisy_test::random_program(seed, 5 + seed % 30);
    const CompactNoisyProgram p = compact_program(g);
    std::vector<bool> reduced(p.size(), false);
    for (const auto v : noisy_test::reducible_vertices(g)) reduced[v] = rng() % 3 == 0;
    const auto mine = evaluate_placement(p, reduced, {});
    const auto oracle = noisy_test::evaluate(g, reduced);
    CHECK(mine.own == oracle.own);
    CHECK(mine.value == oracle.value);
    CHECK(is_legal_placement(p, mine, {}) == oracle.legal);
  }
}

TEST_CASE("repair completes any placement to a legal superset; drop keeps it legal and 1-minimal") {
  std::mt19937 rng(2);
  int repaired = 0;
  for (std::uint32_t seed = 1; seed <= 150; ++seed) {
    const Dag g = noisy_test::random_program(seed, 5 + seed % 40);
    CAPTURE(seed);
    const CompactNoisyProgram p = compact_program(g);
    const auto red = noisy_test::reducible_vertices(g);
    std::vector<bool> start(p.size(), false);
    for (const auto v : red) start[v] = rng() % 5 == 0;
    const auto fixed = repair_placement(p, start, {});
    if (!fixed) continue;  // (no promise: the caller falls back)
    ++repaired;
    CHECK(noisy_test::evaluate(g, *fixed).legal);
    for (const auto v : red) CHECK((!start[v] || (*fixed)[v]));
    const auto pruned = drop_redundant_reductions(p, *fixed, {});
    CHECK(noisy_test::evaluate(g, pruned).legal);
    for (const auto v : red) {
      CHECK((!pruned[v] || (*fixed)[v]));
      if (!pruned[v]) continue;
      auto fewer = pruned;
      fewer[v] = false;
      CHECK_FALSE(noisy_test::evaluate(g, fewer).legal);  // 1-minimal
    }
  }
  CHECK(repaired > 120);
}

TEST_CASE("loops: no local search (nothing claimed)") {
  Dag g;
  const auto a = noisy_test::add(g, NoisyOp::encode);
  const auto j = noisy_test::add(g, NoisyOp::join, {a});
  const auto x = noisy_test::add(g, NoisyOp::mul, {j, a});
  boost::add_edge(x, j, g);
  const CompactNoisyProgram p = compact_program(g);
  const std::vector<bool> reduced(p.size(), false);
  CHECK_FALSE(repair_placement(p, reduced, {}).has_value());
  CHECK(drop_redundant_reductions(p, reduced, {}) == reduced);
}
