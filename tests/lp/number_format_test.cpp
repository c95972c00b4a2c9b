#include <kildall/lp/number_format.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

using namespace kildall::lp;

TEST_CASE("format_number round-trips every double exactly") {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t bits = rng();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (!std::isfinite(x)) continue;
    const auto back = parse_number(format_number(x));
    REQUIRE(back.has_value());
    CHECK((*back == x || (x == 0.0 && *back == 0.0)));
  }
  CHECK(format_number(1.0) == "1");
  CHECK(format_number(-0.0) == "0");
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(HUGE_VAL) == "inf");
}

TEST_CASE("parse_number accepts signs and infinities, rejects junk and NaN") {
  CHECK(parse_number("-2.5e3") == -2500.0);
  CHECK(parse_number("+7") == 7.0);
  CHECK(parse_number("-INF") == -HUGE_VAL);
  CHECK(parse_number("Infinity") == HUGE_VAL);
  CHECK_FALSE(parse_number("").has_value());
  CHECK_FALSE(parse_number("1x").has_value());
  CHECK_FALSE(parse_number("--1").has_value());
  CHECK_FALSE(parse_number("nan").has_value());
  CHECK_FALSE(parse_number("1e999").has_value());
}
