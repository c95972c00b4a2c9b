// Tests detail::SparseRows (a relation in which few rows have targets); oracle: std::vector<std::vector<std::uint32_t>> lists, filled in the same order.
#include <kildall/solver/detail/sparse_rows.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <random>
#include <vector>

using kildall::detail::SparseRows;

TEST_CASE("SparseRows gives each row its targets in the order added, whatever the order of the rows") {
  for (unsigned seed = 0; seed < 200; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const std::size_t n = 1 + rng() % 300;  // (rows in up to five words of the rank directory)
    std::vector<std::vector<std::uint32_t>> lists(n);
    SparseRows rows;
    rows.reset(n);
    const bool in_row_order = seed % 2 == 0;  // both the one-pass check and the sort
    const std::size_t pairs = rng() % (2 * n);
    std::vector<std::uint32_t> row_of(pairs);
    for (auto& r : row_of) r = static_cast<std::uint32_t>(rng() % n);
    if (in_row_order) std::sort(row_of.begin(), row_of.end());
    for (const std::uint32_t r : row_of) {
      const auto t = static_cast<std::uint32_t>(rng() % 1000);
      rows.add(r, t);
      lists[r].push_back(t);
    }
    rows.finish();
    CHECK(rows.size() == n);
    CHECK(rows.empty() == (pairs == 0));
    CHECK(rows.all().size() == pairs);
    for (std::size_t r = 0; r < n; ++r) {
      CHECK(rows.has(r) == !lists[r].empty());
      std::vector<std::uint32_t> got;
      for (const auto& e : rows.of(r)) {
        CHECK(e.row == r);
        got.push_back(e.target);
      }
      CHECK(got == lists[r]);
    }
  }
}

TEST_CASE("SparseRows starts over on reset") {
  SparseRows rows;
  rows.reset(4);
  rows.add(2, 7);
  rows.finish();
  REQUIRE(rows.has(2));
  rows.reset(3);
  rows.finish();
  CHECK(rows.empty());
  CHECK(rows.size() == 3);
  for (std::size_t r = 0; r < 3; ++r) CHECK(rows.of(r).empty());
}
