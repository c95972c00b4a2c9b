// HittingSetSolver (minimum hitting set: enumeration, frontier DP, parts, hard-part hook); oracle: brute force over all subsets of small random instances.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include <kildall/noisy/hitting_set.hpp>

#include "hitting_set_oracle.hpp"

using namespace kildall::noisy;

namespace {

using hitting_set_test::brute_force;
using hitting_set_test::Sets;

bool hits_all(const Sets& sets, const std::vector<std::uint32_t>& chosen) {
  return std::all_of(sets.begin(), sets.end(), [&](const auto& set) {
    return std::any_of(set.begin(), set.end(),
                       [&](std::uint32_t e) { return std::find(chosen.begin(), chosen.end(), e) != chosen.end(); });
  });
}

// Random sets over n elements; `local`: elements near each other (the shape of cover cuts along a program).
Sets random_sets(std::mt19937& rng, std::size_t n, std::size_t count, bool local) {
  Sets out;
  for (std::size_t k = 0; k < count; ++k) {
    std::vector<std::uint32_t> set;
    const std::size_t size = 1 + rng() % 4;
    const std::uint32_t base = static_cast<std::uint32_t>(rng() % n);
    for (std::size_t j = 0; j < size; ++j) {
      const std::uint32_t e = local ? static_cast<std::uint32_t>(std::min<std::size_t>(n - 1, base + rng() % 4))
                                    : static_cast<std::uint32_t>(rng() % n);
      set.push_back(e);
    }
    out.push_back(set);
  }
  return out;
}

// A brute-force HardPartSolver (the hook's contract: hit every set of the part).
HittingSetResult brute_force_part(const HittingSetPart& part, std::chrono::steady_clock::time_point,
                                  const std::vector<bool>&) {
  const auto& e = part.elements;
  HittingSetResult best;
  int best_count = static_cast<int>(e.size()) + 1;
  for (std::uint32_t s = 0; s < (std::uint32_t{1} << e.size()); ++s) {
    if (std::popcount(s) >= best_count) continue;
    std::vector<std::uint32_t> chosen;
    for (std::size_t j = 0; j < e.size(); ++j)
      if (s >> j & 1u) chosen.push_back(e[j]);
    if (!hits_all(part.sets, chosen)) continue;
    best_count = std::popcount(s);
    best.chosen = chosen;
  }
  best.bound = best_count;
  best.optimal = true;
  return best;
}

}  // namespace

TEST_CASE("every exact route equals the brute force on 400 small random instances") {
  std::mt19937 rng(7);
  int compared = 0, dp_used = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t n = 4 + rng() % 13;
    const Sets sets = random_sets(rng, n, 1 + rng() % 14, trial % 2 == 0);
    const int expected = brute_force(n, sets);
    CAPTURE(trial);
    HittingSetOptions enumeration, dp, whole;
    enumeration.enumerate_up_to = 20;
    dp.enumerate_up_to = 0;  // every part of two or more sets by the frontier DP
    whole.decompose = false;
    for (const HittingSetOptions& options : {HittingSetOptions{}, enumeration, dp, whole}) {
      HittingSetSolver solver(n);
      for (const auto& set : sets) (void)solver.add(set);
      const HittingSetResult r = solver.solve(options);
      CHECK(r.optimal);
      CHECK(static_cast<int>(r.chosen.size()) == expected);
      CHECK(r.bound == doctest::Approx(expected));
      CHECK(hits_all(sets, r.chosen));
      dp_used += solver.statistics().dp_solves > 0 ? 1 : 0;
    }
    ++compared;
  }
  CHECK(compared == 400);
  CHECK(dp_used > 100);
}

TEST_CASE("without the exact routes: a valid cover and a lower bound that is a bound; the hard-part hook is exact") {
  std::mt19937 rng(11);
  int not_proven = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 6 + rng() % 11;
    const Sets sets = random_sets(rng, n, 2 + rng() % 14, trial % 3 != 0);
    const int expected = brute_force(n, sets);
    CAPTURE(trial);
    HittingSetOptions none;
    none.enumerate_up_to = 0;
    none.frontier_states = 0;
    HittingSetSolver greedy(n);
    for (const auto& set : sets) (void)greedy.add(set);
    const HittingSetResult g = greedy.solve(none);
    CHECK(hits_all(sets, g.chosen));
    CHECK(g.bound <= expected + 1e-9);
    if (g.optimal) CHECK(static_cast<int>(g.chosen.size()) == expected);
    else ++not_proven;
    HittingSetSolver hooked(n);
    for (const auto& set : sets) (void)hooked.add(set);
    const HittingSetResult h = hooked.solve(none, {}, brute_force_part);
    CHECK(h.optimal);
    CHECK(static_cast<int>(h.chosen.size()) == expected);
    CHECK(hits_all(sets, h.chosen));
  }
  CHECK(not_proven > 0);  // the greedy route is exercised where it is not optimal
}

TEST_CASE("sets added between solves: the cache follows, one-element sets are forced, duplicates ignored") {
  HittingSetSolver solver(6);
  CHECK(solver.add({0, 1}));
  CHECK_FALSE(solver.add({1, 0, 1}));  // the same set
  CHECK(solver.add({1, 2}));
  auto r = solver.solve();
  CHECK(r.chosen == std::vector<std::uint32_t>{1});
  CHECK(solver.add({3}));
  CHECK(solver.add({4, 5}));
  CHECK(solver.add({0, 5}));
  r = solver.solve();
  CHECK(r.optimal);
  CHECK(r.chosen.size() == 3);  // 3, then {0,1},{1,2},{4,5},{0,5}: two more (e.g. 1 and 5)
  CHECK(hits_all({{0, 1}, {1, 2}, {3}, {4, 5}, {0, 5}}, r.chosen));
  CHECK(solver.fixed_count() == 1);
  CHECK(solver.sets() == 5);
  CHECK(solver.elements_in_sets() == 6);
}

TEST_CASE("the hint picks among equals") {
  HittingSetSolver solver(4);
  (void)solver.add({0, 1, 2, 3});
  std::vector<bool> hint(4, false);
  hint[2] = true;
  CHECK(solver.solve({}, hint).chosen == std::vector<std::uint32_t>{2});
}

TEST_CASE("bad input: an empty set or an element out of range is a clear error") {
  HittingSetSolver solver(3);
  CHECK_THROWS_AS((void)solver.add({}), std::invalid_argument);
  CHECK_THROWS_WITH_AS((void)solver.add({1, 3}), "HittingSetSolver: element 3 out of range (n = 3)", std::invalid_argument);
  CHECK_THROWS_AS(HittingSetSolver(3, {0, 1}), std::invalid_argument);
  CHECK(solver.solve().chosen.empty());  // nothing to hit
}
