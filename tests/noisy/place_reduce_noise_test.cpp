// place_reduce_noise, the one entry point (every strategy, one result type); oracle: brute force over all placements with the independent evaluator.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include <kildall/noisy/place_reduce_noise.hpp>

#include "article_programs.hpp"
#include "noisy_test_support.hpp"

using namespace kildall::noisy;
using noisy_test::add;
using noisy_test::Dag;

namespace {

PlacementOptions with(PlacementStrategy strategy) {
  PlacementOptions o;
  o.strategy = strategy;
  return o;
}

}  // namespace

TEST_CASE("every strategy: legal, one result type, consistent fields; lazy and ilp give both objective levels of the brute force") {
  int compared = 0;
  for (std::uint32_t seed = 1; seed <= 60; ++seed) {
    const Dag g = noisy_test::random_program(seed, 4 + seed % 10);
    const auto best = noisy_test::brute_force(g);
    CAPTURE(seed);
    if (best.count < 0) {
      for (const auto s : {PlacementStrategy::lazy, PlacementStrategy::ilp, PlacementStrategy::greedy})
        CHECK_THROWS_AS((void)place_reduce_noise(g, {}, with(s)), PlacementError);
      continue;
    }
    for (const auto s : {PlacementStrategy::lazy, PlacementStrategy::ilp, PlacementStrategy::greedy}) {
      CAPTURE(to_string(s));
      const auto r = place_reduce_noise(g, {}, with(s));
      const auto e = noisy_test::evaluate(g, placement_mask(g, r.reduce_after));
      CHECK(e.legal);
      CHECK(r.statistics.total_noise == e.total);
      CHECK(r.reduce_after.size() <= r.greedy_count);
      CHECK(r.best_bound <= best.count + 1e-9);
      if (s == PlacementStrategy::greedy) continue;
      REQUIRE(r.status == PlacementStatus::optimal);
      CHECK(static_cast<int>(r.reduce_after.size()) == best.count);
      CHECK(r.best_bound == doctest::Approx(best.count));
      CHECK(r.gap == 0.0);
      CHECK(e.total == best.total);  // the second objective: least total noise among the fewest
      CHECK(r.statistics.tie_break_optimal);
    }
    ++compared;
  }
  CHECK(compared > 40);
}

TEST_CASE("lazy without the program's frontier DP: the cut loop proves the count, the bounded DP breaks the tie") {
  int compared = 0;
  for (std::uint32_t seed = 100; seed <= 160; ++seed) {
    const Dag g = noisy_test::random_program(seed, 6 + seed % 9, 0.35);
    const auto best = noisy_test::brute_force(g);
    if (best.count <= 0) continue;
    CAPTURE(seed);
    PlacementOptions o;
    o.lazy.program_frontier_states = 0;
    const auto r = place_reduce_noise(g, {}, o);
    REQUIRE(r.status == PlacementStatus::optimal);
    CHECK_FALSE(r.statistics.frontier_exact);
    CHECK(r.statistics.tie_break_optimal);
    const auto e = noisy_test::evaluate(g, placement_mask(g, r.reduce_after));
    CHECK(e.legal);
    CHECK(static_cast<int>(r.reduce_after.size()) == best.count);
    CHECK(e.total == best.total);
    ++compared;
  }
  CHECK(compared > 30);
}

TEST_CASE("the greedy strategy is the baseline: greedy's placement, feasible unless it inserts nothing") {
  Dag g;
  (void)noisy_test::article_branching(g);
  const auto r = place_reduce_noise(g, {}, with(PlacementStrategy::greedy));
  CHECK(r.reduce_after == place_reduce_noise_greedy(g));
  CHECK(r.status == PlacementStatus::feasible);
  CHECK(r.greedy_count == 2);
  const auto none = place_reduce_noise(noisy_test::add_chain(14), {}, with(PlacementStrategy::greedy));
  CHECK(none.reduce_after.empty());
  CHECK(none.status == PlacementStatus::optimal);
}

TEST_CASE("the ilp with no time falls back to greedy and says so") {
  Dag g;
  (void)noisy_test::article_branching(g);
  PlacementOptions o = with(PlacementStrategy::ilp);
  o.time_limit_seconds = 0.0;
  const auto r = place_reduce_noise(g, {}, o);
  CHECK(r.status == PlacementStatus::fallback);
  CHECK(r.reduce_after == place_reduce_noise_greedy(g));
  CHECK_FALSE(r.message.empty());
}

TEST_CASE("docs/noisy.md: the entry point's snippet (verbatim), on the article's branching program") {
  Dag program;
  const auto m = noisy_test::article_branching(program);
  kildall::noisy::PlacementOptions options;         // strategy lazy, 60 s, prefer_early
  const auto r = kildall::noisy::place_reduce_noise(program, {}, options);
  // r.reduce_after: the ops after which a reduce_noise goes (legal, verified)
  // r.status: optimal / feasible (time limit: r.best_bound, r.gap) / fallback (ilp only)
  // r.greedy_count, r.statistics (total_noise, tie_break_optimal, cuts, rounds, ...)
  CHECK(r.reduce_after == std::vector<std::size_t>{m});
  CHECK(r.status == PlacementStatus::optimal);
  CHECK(r.greedy_count == 2);
}
