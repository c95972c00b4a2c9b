// hitting_set_lp (the certified LP relaxation bound of a minimum hitting set, whole and by parts, with further valid inequalities, implied sets left out, and of a growing family re-solved from its last bases); oracle: brute force over all subsets of small random instances, instances with a known LP optimum, a direct subset check, and a solve from scratch.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include <kildall/noisy/hitting_set_lp.hpp>
#include <kildall/noisy/zero_half_cuts.hpp>

#include "hitting_set_oracle.hpp"

using namespace kildall::noisy;

namespace {

using hitting_set_test::brute_force;
using hitting_set_test::random_instance;
using hitting_set_test::random_sets;
using hitting_set_test::Sets;

constexpr double seconds = hitting_set_test::lp_seconds;

}  // namespace

TEST_CASE("the certified LP bound is at most the brute-force minimum, and at least the LP optimum rounded down") {
  std::mt19937 rng(18);
  int below = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const auto [n, sets] = random_instance(rng, 14);
    CAPTURE(trial);
    const HittingSetLpBound lp = hitting_set_lp_bound(n, sets, seconds);
    REQUIRE(lp.solved);
    const int best = brute_force(n, sets);
    CHECK(lp.bound <= static_cast<double>(best));
    CHECK(lp.certified <= lp.lp + 1e-9);
    CHECK(lp.bound >= std::floor(lp.lp + 1e-6));  // the dual's value is the LP optimum (strong duality)
    below += lp.bound < best ? 1 : 0;
  }
  CHECK(below > 0);  // the relaxation is not exact on every instance (else the test above proves little)
}

TEST_CASE("known LP optima: an odd cycle of pairs (LP 2.5, bound 3), a set and its elements, no sets") {
  const Sets cycle{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}};
  const HittingSetLpBound five = hitting_set_lp_bound(5, cycle, seconds);
  CHECK(five.lp == doctest::Approx(2.5));
  CHECK(five.bound == 3.0);
  const HittingSetLpBound disjoint = hitting_set_lp_bound(6, {{0, 1, 2}, {3}, {4}, {5, 0}}, seconds);
  CHECK(disjoint.bound == 3.0);
  const HittingSetLpBound none = hitting_set_lp_bound(4, {}, seconds);
  CHECK(none.bound == 0.0);
  CHECK_FALSE(none.solved);
  CHECK_THROWS_AS((void)hitting_set_lp_bound(2, {{0, 2}}, seconds), std::invalid_argument);
  CHECK_THROWS_AS((void)hitting_set_lp_bound(2, {{0}, {}}, seconds), std::invalid_argument);  // never hit
}

TEST_CASE("by parts: at most the brute-force minimum; the sum of the parts' bounds when no set crosses two parts") {
  std::mt19937 rng(7);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 4 + rng() % 12;
    const Sets sets = random_sets(rng, n, 1 + rng() % 14);
    std::vector<std::uint32_t> part(n);
    const std::size_t cut = 1 + rng() % (n - 1);
    for (std::size_t e = 0; e < n; ++e) part[e] = e < cut ? 0 : 1;
    CAPTURE(trial);
    const HittingSetLpBound parts = hitting_set_lp_bound_by_parts(n, sets, part, deadline);
    CHECK(parts.bound <= static_cast<double>(brute_force(n, sets)));
    Sets first, second;  // sets are sorted: in part 0 iff the largest element is
    bool crossing = false;
    for (const auto& set : sets) {
      if (part[set.back()] == 0) first.push_back(set);
      else if (part[set.front()] == 1) second.push_back(set);
      else crossing = true;
    }
    if (!crossing)
      CHECK(parts.bound == hitting_set_lp_bound(n, first, seconds).bound + hitting_set_lp_bound(n, second, seconds).bound);
  }
  CHECK_THROWS_AS((void)hitting_set_lp_bound_by_parts(3, {{0}}, {0, 0}, deadline), std::invalid_argument);
}

TEST_CASE("with further valid inequalities ({0,1/2}-cuts at the LP point): still at most the brute-force minimum, never below the LP without them") {
  std::mt19937 rng(1996);
  int raised = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const auto [n, sets] = random_instance(rng);
    CAPTURE(trial);
    const HittingSetLpBound plain = hitting_set_lp_bound(n, sets, seconds);
    REQUIRE(plain.solved);
    const std::vector<HittingSetInequality> cuts = zero_half_cuts(n, sets, plain.values);
    const HittingSetLpBound strong = hitting_set_lp_bound(n, sets, seconds, cuts);
    REQUIRE(strong.solved);
    CHECK(strong.bound <= static_cast<double>(brute_force(n, sets)));
    CHECK(strong.lp >= plain.lp - 1e-9);
    CHECK(strong.lp <= static_cast<double>(brute_force(n, sets)) + 1e-9);
    CHECK(strong.certified <= strong.lp + 1e-9);
    CHECK(strong.bound >= std::floor(strong.lp + 1e-6));  // the certificate recovers the LP optimum with the new rows' duals
    raised += strong.lp > plain.lp + 1e-6 ? 1 : 0;
    // By parts, the same inequalities: at most the brute-force minimum.
    std::vector<std::uint32_t> part(n);
    for (std::size_t e = 0; e < n; ++e) part[e] = e < n / 2 ? 0 : 1;
    const HittingSetLpBound parts =
        hitting_set_lp_bound_by_parts(n, sets, part, std::chrono::steady_clock::now() + std::chrono::seconds(30), cuts);
    CHECK(parts.bound <= static_cast<double>(brute_force(n, sets)));
    // The duals: one per row (sets, then inequalities), >= 0; by parts, 0 for the rows left out.
    CHECK(strong.duals.size() == sets.size() + cuts.size());
    CHECK(parts.duals.size() == sets.size() + cuts.size());
    for (std::size_t i = 0; i < sets.size(); ++i) {
      CHECK(strong.duals[i] >= 0.0);
      if (part[sets[i].front()] != part[sets[i].back()]) CHECK(parts.duals[i] == 0.0);
    }
  }
  CHECK(raised >= 3);  // the cuts close some integrality gaps (5 of the 5 here whose LP is below the minimum)
}

TEST_CASE("known: the odd cycle of five pairs with its {0,1/2}-cut (x_0 + ... + x_4 >= 3) has LP 3; inequality rows are checked") {
  const Sets cycle{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}};
  const HittingSetInequality odd{{0, 1, 2, 3, 4}, {1, 1, 1, 1, 1}, 3};
  const HittingSetLpBound five = hitting_set_lp_bound(5, cycle, seconds, {odd});
  CHECK(five.lp == doctest::Approx(3.0));
  CHECK(five.bound == 3.0);
  // A coefficient of 2 (valid: every hitting set of the triangle holds two of its elements): LP 1.5, bound 2.
  const HittingSetLpBound weighted = hitting_set_lp_bound(3, {{0, 1}, {1, 2}, {0, 2}}, seconds, {{{0, 1, 2}, {2, 1, 1}, 2}});
  CHECK(weighted.lp == doctest::Approx(1.5));
  CHECK(weighted.bound == 2.0);
  CHECK_THROWS_AS((void)hitting_set_lp_bound(5, cycle, seconds, {{{0, 1}, {1}, 1}}), std::invalid_argument);
  CHECK_THROWS_AS((void)hitting_set_lp_bound(5, cycle, seconds, {{{0, 5}, {1, 1}, 1}}), std::invalid_argument);
  CHECK_THROWS_AS((void)hitting_set_lp_bound(5, cycle, seconds, {{{}, {}, 1}}), std::invalid_argument);
}

TEST_CASE("implied sets (a superset or a repeat of another): found as a direct check finds them, left out with dual 0, the LP and its bound unchanged") {
  std::mt19937 rng(46);
  int implied_seen = 0;
  for (int trial = 0; trial < 200; ++trial) {
    auto [n, sets] = random_instance(rng, 12);
    CAPTURE(trial);
    // Add supersets and repeats of some sets.
    const std::size_t original = sets.size();
    hitting_set_test::add_implied_sets(rng, n, sets, 4);
    const std::vector<bool> implied = implied_sets(n, sets);
    REQUIRE(implied.size() == sets.size());
    for (std::size_t i = 0; i < sets.size(); ++i) {
      bool expected = false;
      for (std::size_t j = 0; j < sets.size() && !expected; ++j) {
        if (j == i) continue;
        const bool subset = std::all_of(sets[j].begin(), sets[j].end(), [&](std::uint32_t e) {
          return std::find(sets[i].begin(), sets[i].end(), e) != sets[i].end();
        });
        const bool superset = std::all_of(sets[i].begin(), sets[i].end(), [&](std::uint32_t e) {
          return std::find(sets[j].begin(), sets[j].end(), e) != sets[j].end();
        });
        expected = subset && (!superset || j < i);  // a proper subset, or an equal set before it
      }
      CHECK(implied[i] == expected);
      implied_seen += implied[i] ? 1 : 0;
    }
    const HittingSetLpBound with = hitting_set_lp_bound(n, sets, seconds);
    const Sets first(sets.begin(), sets.begin() + static_cast<std::ptrdiff_t>(original));
    const HittingSetLpBound without = hitting_set_lp_bound(n, first, seconds);
    REQUIRE(with.solved);
    REQUIRE(without.solved);
    CHECK(with.lp == doctest::Approx(without.lp));
    CHECK(with.bound == without.bound);
    CHECK(with.bound <= static_cast<double>(brute_force(n, sets)));
    for (std::size_t i = 0; i < sets.size(); ++i)
      if (implied[i]) CHECK(with.duals[i] == 0.0);
  }
  CHECK(implied_seen >= 800);  // every added set is implied (four a trial)
  CHECK_THROWS_AS((void)implied_sets(3, {{0, 1}, {}}), std::invalid_argument);
  CHECK_THROWS_AS((void)implied_sets(3, {{0, 3}}), std::invalid_argument);
}

TEST_CASE("a growing family: each solve from the parts' last bases equals a solve of the whole family from scratch; a shrunk family is rejected") {
  std::mt19937 rng(1973);
  int grew = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const std::size_t n = 6 + rng() % 10;
    const Sets all = random_sets(rng, n, 6 + rng() % 18);
    std::vector<std::uint32_t> part(n);
    const std::size_t cut = trial % 3 == 0 ? n : 1 + rng() % (n - 1);  // one part, or two
    for (std::size_t e = 0; e < n; ++e) part[e] = e < cut ? 0 : 1;
    CAPTURE(trial);
    GrowingHittingSetLp growing(n, part);
    Sets sets;
    std::vector<HittingSetInequality> inequalities;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    double last = 0.0;
    for (std::size_t i = 0; i < all.size(); ++i) {
      sets.push_back(all[i]);
      if (i % 5 == 0) sets.push_back(all[i]);  // a repeat: left out
      if (i % 4 != 3 && i + 1 != all.size()) continue;
      const HittingSetLpBound warm = growing.solve(sets, inequalities, deadline);
      const HittingSetLpBound cold = hitting_set_lp_bound_by_parts(n, sets, part, deadline, inequalities);
      REQUIRE(warm.solved);
      REQUIRE(cold.solved);
      CHECK(warm.lp == doctest::Approx(cold.lp));
      CHECK(warm.bound == cold.bound);
      CHECK(warm.bound >= last);  // more rows: never a weaker LP
      CHECK(warm.bound <= static_cast<double>(brute_force(n, sets)));
      CHECK(warm.duals.size() == sets.size() + inequalities.size());
      grew += last > 0.0 && warm.bound > last ? 1 : 0;  // rose after an earlier solve
      last = warm.bound;
      // {0,1/2}-cuts at the point join as further rows.
      for (HittingSetInequality& cut : zero_half_cuts(n, sets, warm.values)) inequalities.push_back(std::move(cut));
    }
    if (trial == 0) {
      Sets fewer(sets.begin(), sets.end() - 1);
      CHECK_THROWS_AS((void)growing.solve(fewer, inequalities, deadline), std::invalid_argument);
    }
  }
  CHECK(grew >= 150);  // the bound rose after an earlier solve in many trials (259 here)
}

TEST_CASE("a growing family past its deadline: the last solution's duals, 0 for the new rows, still certify its bound") {
  const Sets cycle{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}};
  GrowingHittingSetLp growing(6);
  const auto later = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  const HittingSetLpBound first = growing.solve(cycle, {}, later);
  REQUIRE(first.solved);
  CHECK(first.bound == 3.0);
  Sets more = cycle;
  more.push_back({5});
  const HittingSetLpBound stale = growing.solve(more, {}, std::chrono::steady_clock::now() - std::chrono::seconds(1));
  CHECK_FALSE(stale.solved);
  CHECK(stale.bound == 3.0);
  REQUIRE(stale.duals.size() == more.size());
  CHECK(stale.duals.back() == 0.0);
  const HittingSetLpBound fresh = growing.solve(more, {}, later);
  CHECK(fresh.solved);
  CHECK(fresh.bound == 4.0);
}
