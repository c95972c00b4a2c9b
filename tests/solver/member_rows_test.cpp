// Tests detail::MemberRows (rows of value indices that keep no list while each member is its own position); oracle: std::vector<std::vector<std::uint32_t>> rows, filled in the same order.
#include <kildall/solver/detail/member_rows.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

using kildall::detail::MemberRows;

namespace {

std::vector<std::uint32_t> listed(MemberRows::range r) {
  std::vector<std::uint32_t> out;
  for (const std::uint32_t v : r) out.push_back(v);
  return out;
}

}  // namespace

TEST_CASE("MemberRows gives each row its members, in place or out of place from any member on") {
  for (unsigned seed = 0; seed < 300; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const std::size_t rows_count = rng() % 40;
    // Members in place (member m is value m) up to `out_of_place_from`, then any values.
    const std::size_t out_of_place_from = seed % 3 == 0 ? std::size_t(-1) : rng() % 200;
    std::vector<std::vector<std::uint32_t>> expected(rows_count);
    MemberRows rows;
    rows.start_rows(seed % 2 == 0 ? rows_count : 0);  // (the rows grow past a small hint)
    std::size_t m = 0;
    for (std::size_t r = 0; r < rows_count; ++r) {
      const std::size_t size = rng() % 7;
      for (std::size_t i = 0; i < size; ++i, ++m) {
        const auto v = static_cast<std::uint32_t>(m < out_of_place_from ? m : rng() % 1000);
        rows.push(v);
        expected[r].push_back(v);
      }
      rows.end_row();
    }
    CHECK(rows.pushed() == m);
    bool in_place = true;
    std::vector<std::uint32_t> all;
    for (std::size_t r = 0; r < rows_count; ++r) {
      CHECK(listed(rows.row(r)) == expected[r]);
      CHECK(rows.row_size(r) == expected[r].size());
      CHECK(rows.row(r).empty() == expected[r].empty());
      CHECK(rows.row_begin(r) == all.size());
      for (const std::uint32_t v : expected[r]) {
        in_place = in_place && v == all.size();
        all.push_back(v);
      }
    }
    CHECK(listed(rows.all()) == all);
    CHECK(rows.identity() == in_place);
  }
}

TEST_CASE("MemberRows in place holds only where each row starts") {
  MemberRows in_place, listed_rows;
  in_place.start_rows(1);
  listed_rows.start_rows(1);
  for (std::uint32_t v = 0; v < 1000; ++v) {
    in_place.push(v);
    listed_rows.push(999 - v);
  }
  in_place.end_row();
  listed_rows.end_row();
  CHECK(in_place.bytes() == 2 * sizeof(std::uint32_t));
  CHECK(listed_rows.bytes() >= 1000 * sizeof(std::uint32_t));
}

TEST_CASE("MemberRows starts over") {
  MemberRows rows;
  rows.start_rows(1);
  rows.push(5);  // out of place
  rows.end_row();
  CHECK_FALSE(rows.identity());
  rows.start_rows(1);
  rows.push(0);
  rows.push(1);
  rows.end_row();
  CHECK(rows.identity());
  CHECK(listed(rows.row(0)) == std::vector<std::uint32_t>{0, 1});
}
