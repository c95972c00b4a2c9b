#pragma once
// Test support for the hitting-set tests: the size of a minimum hitting set by
// trying every subset of the elements (small instances only, n <= 20), an
// oracle that shares no code with the library, and the random instances.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace hitting_set_test {

/// Sets of element indices over `0 .. n - 1`.
using Sets = std::vector<std::vector<std::uint32_t>>;

/// The size of a minimum hitting set of `sets` over `n` elements (n <= 20), or
/// `n + 1` when an empty set makes every choice fail.
inline int brute_force(std::size_t n, const Sets& sets) {
  int best = static_cast<int>(n) + 1;
  for (std::uint32_t s = 0; s < (std::uint32_t{1} << n); ++s) {
    const int count = std::popcount(s);
    if (count >= best) continue;
    const bool hits = std::all_of(sets.begin(), sets.end(), [&](const auto& set) {
      return std::any_of(set.begin(), set.end(), [&](std::uint32_t e) { return (s >> e & 1u) != 0; });
    });
    if (hits) best = count;
  }
  return best;
}

/// Every hitting set of `sets` over `n` elements (n <= 20), as bit masks.
inline std::vector<std::uint32_t> all_hitting_sets(std::size_t n, const Sets& sets) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t s = 0; s < (std::uint32_t{1} << n); ++s)
    if (std::all_of(sets.begin(), sets.end(), [&](const auto& set) {
          return std::any_of(set.begin(), set.end(), [&](std::uint32_t e) { return (s >> e & 1u) != 0; });
        }))
      out.push_back(s);
  return out;
}

/// `count` random sets of 1-4 elements over `n` elements, near each other
/// (the shape of cover cuts along a program).
inline Sets random_sets(std::mt19937& rng, std::size_t n, std::size_t count) {
  Sets sets;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t first = static_cast<std::uint32_t>(rng() % n);
    std::vector<std::uint32_t> set{first};
    for (std::size_t k = rng() % 4; k > 0; --k) set.push_back(static_cast<std::uint32_t>(std::min<std::size_t>(n - 1, first + rng() % 4)));
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    sets.push_back(set);
  }
  return sets;
}

/// A random instance of the tests: its element count and sets.
struct Instance {
  std::size_t n = 0;  ///< Elements (3 to 14).
  Sets sets;          ///< 1 to `max_sets` sets of `random_sets`.
};

/// A random instance: 3 to 14 elements, 1 to `max_sets` sets of `random_sets`.
inline Instance random_instance(std::mt19937& rng, std::size_t max_sets = 16) {
  Instance instance;
  instance.n = 3 + rng() % 12;
  instance.sets = random_sets(rng, instance.n, 1 + rng() % max_sets);
  return instance;
}

/// Appends `count` sets implied by sets of `sets`: copies of random ones,
/// every second one with a random element added (a superset, or a repeat when
/// the element is in it already), in shuffled order.
inline void add_implied_sets(std::mt19937& rng, std::size_t n, Sets& sets, int count) {
  std::uniform_int_distribution<std::size_t> pick(0, sets.size() - 1);
  std::uniform_int_distribution<std::uint32_t> element(0, static_cast<std::uint32_t>(n - 1));
  for (int k = 0; k < count; ++k) {
    std::vector<std::uint32_t> bigger = sets[pick(rng)];
    if (k % 2 == 1) bigger.push_back(element(rng));
    std::shuffle(bigger.begin(), bigger.end(), rng);
    sets.push_back(bigger);
  }
}

/// GLPK's time limit of the tests' LPs, seconds (never reached on these sizes).
constexpr double lp_seconds = 30.0;

}  // namespace hitting_set_test
