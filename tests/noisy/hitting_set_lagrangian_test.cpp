// hitting_set_lagrangian (the Lagrangian bound of a minimum hitting set by blocks of elements, implied own sets left out of a block's model, unfinished blocks solved again with the time left, adjacent blocks merged into pairs); oracle: brute force over all subsets of small random instances, the LP bound of hitting_set_lp, and instances with a known optimum.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include <kildall/noisy/hitting_set_lagrangian.hpp>
#include <kildall/noisy/hitting_set_lp.hpp>
#include <kildall/noisy/zero_half_cuts.hpp>

#include "hitting_set_oracle.hpp"

using namespace kildall::noisy;

namespace {

using hitting_set_test::brute_force;
using hitting_set_test::lp_seconds;
using hitting_set_test::random_instance;
using hitting_set_test::Sets;

std::chrono::steady_clock::time_point later() { return std::chrono::steady_clock::now() + std::chrono::seconds(60); }

/// Blocks of `size` consecutive elements of `0..n-1`.
std::vector<std::uint32_t> consecutive_blocks(std::size_t n, std::size_t size) {
  std::vector<std::uint32_t> block(n);
  for (std::size_t e = 0; e < n; ++e) block[e] = static_cast<std::uint32_t>(e / size);
  return block;
}

HittingSetLagrangianOptions limited(double block_seconds, bool again = true, double pair_seconds = 0.0) {
  HittingSetLagrangianOptions options;
  options.block_seconds = block_seconds;
  options.solve_unfinished_again = again;
  options.pair_seconds = pair_seconds;
  return options;
}

}  // namespace

TEST_CASE("at most the brute-force minimum for any multipliers; at least the LP bound with the LP's duals") {
  std::mt19937 rng(1981);
  int above_lp = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const auto [n, sets] = random_instance(rng);
    const std::vector<std::uint32_t> block = consecutive_blocks(n, 1 + rng() % n);
    CAPTURE(trial);
    const int best = brute_force(n, sets);
    const HittingSetLpBound lp = hitting_set_lp_bound(n, sets, lp_seconds);
    REQUIRE(lp.solved);
    const HittingSetLagrangianBound with_duals = hitting_set_lagrangian_bound(n, sets, lp.duals, block, later());
    CHECK(with_duals.bound <= static_cast<double>(best));
    CHECK(with_duals.certified >= lp.certified - 1e-6);
    CHECK(with_duals.exact_blocks == with_duals.blocks);
    above_lp += with_duals.certified > lp.lp + 1e-6 ? 1 : 0;
    // Blocks with a microsecond each and not solved again (GLPK stopped with or without a
    // point counts with its bound of the open nodes, or the duals' fallback): still a bound.
    const HittingSetLagrangianBound hurried = hitting_set_lagrangian_bound(n, sets, lp.duals, block, later(), {}, limited(1e-6, false));
    CHECK(hurried.second_tries == 0);
    CHECK(hurried.bound <= static_cast<double>(best));
    CHECK(hurried.certified >= lp.certified - 1e-6);
    // Any multipliers >= 0 (here random, some far too large): still a bound.
    std::vector<double> random(sets.size());
    for (double& y : random) y = static_cast<double>(rng() % 5) / 2.0;
    CHECK(hitting_set_lagrangian_bound(n, sets, random, block, later()).bound <= static_cast<double>(best));
    // With {0,1/2}-cuts as further rows and the LP's duals of both.
    const std::vector<HittingSetInequality> cuts = zero_half_cuts(n, sets, lp.values);
    const HittingSetLpBound strong = hitting_set_lp_bound(n, sets, lp_seconds, cuts);
    REQUIRE(strong.solved);
    const HittingSetLagrangianBound with_cuts = hitting_set_lagrangian_bound(n, sets, strong.duals, block, later(), cuts, limited(2.0));
    CHECK(with_cuts.bound <= static_cast<double>(best));
    CHECK(with_cuts.certified >= strong.certified - 1e-6);
  }
  CHECK(above_lp > 0);  // the blocks' integrality gaps raise it above the LP (else the checks above prove little)
}

TEST_CASE("supersets and repeats of a block's own sets (left out of its model as implied): in one block the bound is still the brute-force minimum") {
  std::mt19937 rng(1974);
  for (int trial = 0; trial < 200; ++trial) {
    auto [n, sets] = random_instance(rng, 12);
    CAPTURE(trial);
    hitting_set_test::add_implied_sets(rng, n, sets, 4);
    const int best = brute_force(n, sets);
    // No multipliers, one block: the bound is the block's exact minimum.
    const HittingSetLagrangianBound one =
        hitting_set_lagrangian_bound(n, sets, std::vector<double>(sets.size(), 0.0), std::vector<std::uint32_t>(n, 0), later());
    CHECK(one.bound == static_cast<double>(best));
    CHECK(one.exact_blocks == one.blocks);
  }
}

TEST_CASE("blocks GLPK does not finish in their limit are solved again with the time left: the bound of blocks solved in full") {
  std::mt19937 rng(1976);
  std::size_t retried = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const auto [n, sets] = random_instance(rng);
    const std::vector<std::uint32_t> block = consecutive_blocks(n, 4 + rng() % 8);
    CAPTURE(trial);
    const HittingSetLpBound lp = hitting_set_lp_bound(n, sets, lp_seconds);
    REQUIRE(lp.solved);
    const HittingSetLagrangianBound full = hitting_set_lagrangian_bound(n, sets, lp.duals, block, later(), {}, limited(60.0));
    REQUIRE(full.exact_blocks == full.blocks);
    REQUIRE(full.second_tries == 0);
    // A microsecond a block, a minute in all: the blocks GLPK stops are solved again.
    const HittingSetLagrangianBound hurried = hitting_set_lagrangian_bound(n, sets, lp.duals, block, later(), {}, limited(1e-6));
    CHECK(hurried.exact_blocks == hurried.blocks);
    CHECK(hurried.certified == doctest::Approx(full.certified).epsilon(1e-9));
    CHECK(hurried.second_tries <= hurried.blocks);
    retried += hurried.second_tries;
  }
  CHECK(retried > 0);  // some blocks were stopped by their limit (else the checks above prove little)
}

TEST_CASE("known: an odd cycle of five pairs in one block is bounded by its optimum 3 (LP 2.5); split, the crossing pairs are priced") {
  const Sets cycle{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}};
  const HittingSetLpBound lp = hitting_set_lp_bound(5, cycle, lp_seconds);
  const HittingSetLagrangianBound one = hitting_set_lagrangian_bound(5, cycle, lp.duals, {0, 0, 0, 0, 0}, later());
  CHECK(one.bound == 3.0);
  CHECK(one.certified == doctest::Approx(3.0).epsilon(1e-6));
  CHECK(one.blocks == 1);
  CHECK(one.exact_blocks == 1);
  // Every element its own block: every pair crosses, the bound is the LP's dual value, 2.5.
  const HittingSetLagrangianBound apart = hitting_set_lagrangian_bound(5, cycle, lp.duals, {0, 1, 2, 3, 4}, later());
  CHECK(apart.certified == doctest::Approx(2.5).epsilon(1e-6));
  CHECK(apart.bound == 3.0);
  // No time: every block counts with its fallback (the LP dual value).
  const HittingSetLagrangianBound late = hitting_set_lagrangian_bound(5, cycle, lp.duals, {0, 0, 0, 0, 0}, std::chrono::steady_clock::now());
  CHECK(late.certified == doctest::Approx(2.5).epsilon(1e-6));
  CHECK(late.exact_blocks == 0);
}

TEST_CASE("known: two odd cycles of five pairs, each split across two blocks: 5 by the blocks (LP 5), 6 with the two blocks merged into a pair") {
  // Block 0 holds elements 0-2 and 5-7, block 1 holds 3-4 and 8-9: four pairs cross, only between the two.
  const Sets cycles{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}, {5, 6}, {6, 7}, {7, 8}, {8, 9}, {5, 9}};
  const std::vector<std::uint32_t> block{0, 0, 0, 1, 1, 0, 0, 0, 1, 1};
  const HittingSetLpBound lp = hitting_set_lp_bound(10, cycles, lp_seconds);
  REQUIRE(lp.solved);
  CHECK(lp.lp == doctest::Approx(5.0).epsilon(1e-6));
  const HittingSetLagrangianBound blocks = hitting_set_lagrangian_bound(10, cycles, lp.duals, block, later());
  CHECK(blocks.bound == 5.0);
  CHECK(blocks.pair_tries == 0);
  const HittingSetLagrangianBound paired = hitting_set_lagrangian_bound(10, cycles, lp.duals, block, later(), {}, limited(2.0, true, 10.0));
  CHECK(paired.bound == 6.0);
  CHECK(paired.pair_tries == 1);
  CHECK(paired.merged_pairs == 1);
  // The pair's minimiser hits every set (all are its own).
  for (const auto& set : cycles) {
    bool hit = false;
    for (const std::uint32_t e : set) hit = hit || paired.chosen[e];
    CHECK(hit);
  }
  // Enough already: no pair is tried.
  HittingSetLagrangianOptions enough = limited(2.0, true, 10.0);
  enough.enough = 5.0;
  CHECK(hitting_set_lagrangian_bound(10, cycles, lp.duals, block, later(), {}, enough).pair_tries == 0);
  // No time left: none either.
  CHECK(hitting_set_lagrangian_bound(10, cycles, lp.duals, block, std::chrono::steady_clock::now(), {}, limited(2.0, true, 10.0)).pair_tries == 0);
}

TEST_CASE("known: a pair whose blocks' minimisers meet its rows, exactly where priced, is not solved; over-met where priced, it is") {
  // {1} is block 0's own set, {2} block 1's; {1, 2} crosses between them.
  const Sets sets{{1}, {2}, {1, 2}};
  const std::vector<std::uint32_t> block{0, 0, 1, 1};
  // Not priced: the minimisers {1} and {2} meet it (twice), and the pair could gain nothing.
  const HittingSetLagrangianBound unpriced =
      hitting_set_lagrangian_bound(4, sets, {1.0, 1.0, 0.0}, block, later(), {}, limited(2.0, true, 10.0));
  CHECK(unpriced.pair_tries == 0);
  CHECK(unpriced.certified == doctest::Approx(2.0).epsilon(1e-6));
  // Priced at 1/2, met twice: the pair's own minimum 2 exceeds 1/2 + 1/2 for the blocks and 1/2 priced.
  const HittingSetLagrangianBound blocks = hitting_set_lagrangian_bound(4, sets, {0.5, 0.5, 0.5}, block, later());
  CHECK(blocks.certified == doctest::Approx(1.5).epsilon(1e-6));
  const HittingSetLagrangianBound priced =
      hitting_set_lagrangian_bound(4, sets, {0.5, 0.5, 0.5}, block, later(), {}, limited(2.0, true, 10.0));
  CHECK(priced.pair_tries == 1);
  CHECK(priced.merged_pairs == 1);
  CHECK(priced.certified == doctest::Approx(2.0).epsilon(1e-6));
}

TEST_CASE("pairs of adjacent blocks: still at most the brute-force minimum, never below the blocks alone, and above them on some instances") {
  std::mt19937 rng(1990);
  int raised = 0;
  std::size_t merged = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const auto [n, sets] = random_instance(rng);
    const std::vector<std::uint32_t> block = consecutive_blocks(n, 2 + rng() % 4);
    CAPTURE(trial);
    const int best = brute_force(n, sets);
    const HittingSetLpBound lp = hitting_set_lp_bound(n, sets, lp_seconds);
    REQUIRE(lp.solved);
    const HittingSetLagrangianBound alone = hitting_set_lagrangian_bound(n, sets, lp.duals, block, later());
    const HittingSetLagrangianBound paired = hitting_set_lagrangian_bound(n, sets, lp.duals, block, later(), {}, limited(2.0, true, 2.0));
    CHECK(paired.bound <= static_cast<double>(best));
    CHECK(paired.certified >= alone.certified - 1e-9);
    CHECK(paired.merged_pairs <= paired.pair_tries);
    CHECK(2 * paired.merged_pairs <= static_cast<std::size_t>(block.back()) + 1);  // each block in at most one pair
    raised += paired.certified > alone.certified + 1e-6 ? 1 : 0;
    merged += paired.merged_pairs;
  }
  CHECK(raised > 0);  // pairs raised the bound on some instances (else the checks above prove little)
  CHECK(merged > 0);
}

TEST_CASE("errors: sizes that do not match, an empty set, an element out of range, a negative multiplier") {
  const auto t = later();
  CHECK_THROWS_AS((void)hitting_set_lagrangian_bound(3, {{0, 1}}, {}, {0, 0, 0}, t), std::invalid_argument);
  CHECK_THROWS_AS((void)hitting_set_lagrangian_bound(3, {{0, 1}}, {1.0}, {0, 0}, t), std::invalid_argument);
  CHECK_THROWS_AS((void)hitting_set_lagrangian_bound(3, {{}}, {1.0}, {0, 0, 0}, t), std::invalid_argument);
  CHECK_THROWS_AS((void)hitting_set_lagrangian_bound(3, {{0, 3}}, {1.0}, {0, 0, 0}, t), std::invalid_argument);
  CHECK_THROWS_AS((void)hitting_set_lagrangian_bound(3, {{0, 1}}, {-1.0}, {0, 0, 0}, t), std::invalid_argument);
  CHECK_THROWS_AS((void)hitting_set_lagrangian_bound(3, {{0, 1}}, {1.0, 1.0}, {0, 0, 0}, t, {{{0}, {1, 1}, 1}}), std::invalid_argument);
}
