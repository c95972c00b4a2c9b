// zero_half_cuts ({0,1/2}-Chvátal-Gomory cuts of the hitting-set LP); oracle: every hitting set of small random instances, enumerated, satisfies every cut, and each cut is violated at its point as computed by hand.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include <kildall/noisy/zero_half_cuts.hpp>

#include "hitting_set_oracle.hpp"

using namespace kildall::noisy;

namespace {

using hitting_set_test::all_hitting_sets;
using hitting_set_test::random_instance;
using hitting_set_test::Sets;

double lhs(const HittingSetInequality& cut, const std::vector<double>& x) {
  double sum = 0.0;
  for (std::size_t i = 0; i < cut.elements.size(); ++i) sum += cut.coefficients[i] * x[cut.elements[i]];
  return sum;
}

}  // namespace

TEST_CASE("every cut holds for every hitting set, and is violated at the point by the least violation") {
  std::mt19937 rng(74);
  std::size_t cuts_seen = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const auto [n, sets] = random_instance(rng);
    // Points of the shape of LP optima: mostly 0, 1/2 and 1, some other fractions.
    std::vector<double> x(n);
    for (double& v : x) {
      const unsigned r = rng() % 8;
      v = r < 3 ? 0.0 : r < 6 ? 0.5 : r < 7 ? 1.0 : static_cast<double>(rng() % 100) / 100.0;
    }
    ZeroHalfOptions options;
    options.min_violation = trial % 2 == 0 ? 0.05 : 0.2;
    CAPTURE(trial);
    const std::vector<HittingSetInequality> cuts = zero_half_cuts(n, sets, x, options);
    const std::vector<std::uint32_t> hitting = all_hitting_sets(n, sets);
    for (const HittingSetInequality& cut : cuts) {
      REQUIRE(cut.elements.size() == cut.coefficients.size());
      CHECK(cut.rhs >= 2);
      CHECK(lhs(cut, x) <= cut.rhs - options.min_violation + 1e-9);
      for (const std::uint32_t h : hitting) {
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < cut.elements.size(); ++i) sum += (h >> cut.elements[i] & 1u) != 0 ? cut.coefficients[i] : 0;
        CHECK(sum >= cut.rhs);
      }
    }
    cuts_seen += cuts.size();
  }
  CHECK(cuts_seen > 10);  // the instances do have violated cuts (else the checks above prove little)
}

TEST_CASE("known cuts: the odd cycle of five pairs at 1/2, a triangle whose rows hold elements at 0; none at an integral point") {
  const Sets cycle{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}};
  const std::vector<HittingSetInequality> five = zero_half_cuts(5, cycle, std::vector<double>(5, 0.5));
  REQUIRE(five.size() == 1);
  CHECK(five.front().elements == std::vector<std::uint32_t>{0, 1, 2, 3, 4});
  CHECK(five.front().coefficients == std::vector<std::uint32_t>{1, 1, 1, 1, 1});
  CHECK(five.front().rhs == 3);
  // {0,1,3}, {1,2,4}, {0,2,5}: at x = (1/2, 1/2, 1/2, 0, 0, 0) the cut x_0 + ... + x_5 >= 2 is violated by 1/2.
  const Sets triangle{{0, 1, 3}, {1, 2, 4}, {0, 2, 5}};
  const std::vector<HittingSetInequality> three = zero_half_cuts(6, triangle, {0.5, 0.5, 0.5, 0.0, 0.0, 0.0});
  REQUIRE(three.size() == 1);
  CHECK(three.front().elements == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5});
  CHECK(three.front().rhs == 2);
  CHECK(zero_half_cuts(5, cycle, {1.0, 0.0, 1.0, 1.0, 0.0}).empty());
  // Heavier slack than the least violation allows: none.
  ZeroHalfOptions strict;
  strict.min_violation = 0.3;
  CHECK(zero_half_cuts(5, cycle, {0.6, 0.6, 0.6, 0.6, 0.6}, strict).empty());  // violated by 0 (3 - 3): none at all
  CHECK(zero_half_cuts(5, cycle, {0.5, 0.5, 0.5, 0.5, 0.5}, strict).size() == 1);
}

TEST_CASE("errors: a point of the wrong size, an empty set, an element out of range") {
  CHECK_THROWS_AS((void)zero_half_cuts(3, {{0, 1}}, {0.5, 0.5}), std::invalid_argument);
  CHECK_THROWS_AS((void)zero_half_cuts(3, {{0, 1}, {}}, {0.5, 0.5, 0.5}), std::invalid_argument);
  CHECK_THROWS_AS((void)zero_half_cuts(3, {{0, 3}}, {0.5, 0.5, 0.5}), std::invalid_argument);
}
