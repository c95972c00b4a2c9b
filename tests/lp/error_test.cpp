#include <kildall/lp/error.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace kildall::lp;

TEST_CASE("ParseError carries source:line:col and is a ModelError") {
  const ParseError e("model.lp", 3, 14, "expected a number");
  CHECK(std::string(e.what()) == "model.lp:3:14: expected a number");
  CHECK(e.line() == 3);
  CHECK(e.column() == 14);
  const ModelError& base = e;
  CHECK(std::string(base.what()).find("expected a number") != std::string::npos);
  CHECK_THROWS_AS(throw ParseError("f", 1, 1, "m"), std::invalid_argument);
}
