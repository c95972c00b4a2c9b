#pragma once
// Test support for the hitting-set tests: the size of a minimum hitting set by
// trying every subset of the elements (small instances only, n <= 20), an
// oracle that shares no code with the library.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
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

}  // namespace hitting_set_test
