#include <kildall/lp/lp_format.hpp>

#include "lp_test_support.hpp"

#include <doctest/doctest.h>

#include <random>
#include <sstream>
#include <string>

using namespace kildall::lp;
using namespace kildall::lp::testing;

TEST_CASE("random models survive an LP write/read round trip") {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 60; ++trial) {
    const Model m = random_model(rng);
    std::stringstream file;
    const NameTable names = write_lp(m, file);
    const std::string text = file.str();
    const Model back = read_lp(file, "round_trip.lp");
    CHECK_MESSAGE(equivalent(m, names, back, rng), text);
    // Writing the read model again gives the same file up to row splitting.
    std::stringstream again;
    (void)write_lp(back, again);
    const Model back2 = read_lp(again);
    CHECK(back2.num_vars() == back.num_vars());
    CHECK(back2.num_constraints() == back.num_constraints());
  }
}

TEST_CASE("the LP reader accepts the common syntax") {
  std::istringstream in(R"(\* a block
   comment *\
\ line comment
MAXIMIZE
 profit: 3 x + 2y - z + 4
SUBJECT TO
 c1: x + y <= 4
 -x + 2 y >= -2
 c3: x - z = 1
 range: -1 <= y - z <= 5
 c5: 2 x + 3 >= 1
 c6: 3 >= x
Bounds
 -inf <= z <= 10
 y <= 3
 x >= -1
 w free
Generals
 y
Binaries
 b
End
)");
  const Model m = read_lp(in);
  REQUIRE(m.num_vars() == 5);  // x y z w b in order of appearance
  CHECK(m.display_name(m.var(0)) == "x");
  CHECK(m.objective().sense == Sense::maximize);
  CHECK(m.objective().name == "profit");
  CHECK(m.objective().expr.constant() == 4.0);
  CHECK(m.lower(m.var(2)) == -inf);
  CHECK(m.upper(m.var(2)) == 10.0);
  CHECK(m.upper(m.var(1)) == 3.0);
  CHECK(m.type(m.var(1)) == VarType::integer);
  CHECK(m.lower(m.var(0)) == -1.0);
  CHECK(m.lower(m.var(3)) == -inf);
  CHECK(m.type(m.var(4)) == VarType::binary);
  REQUIRE(m.num_constraints() == 6);
  CHECK(m.rows()[1].name.empty());
  CHECK(m.rows()[1].lower == -2.0);
  CHECK(m.rows()[3].lower == -1.0);
  CHECK(m.rows()[3].upper == 5.0);
  CHECK(m.rows()[4].lower == -2.0);  // 2x + 3 >= 1  ->  2x >= -2
  CHECK(m.rows()[5].upper == 3.0);   // 3 >= x
}

TEST_CASE("LP parse errors point at file:line:col") {
  auto error_of = [](const std::string& text) -> std::string {
    std::istringstream in(text);
    try {
      (void)read_lp(in, "bad.lp");
    } catch (const ParseError& e) {
      return e.what();
    }
    return "no error";
  };
  CHECK(error_of("Minimize\n obj: x\nSubject To\n c1: x + <= 3\nEnd\n").rfind("bad.lp:4:", 0) == 0);
  CHECK(error_of("Minimize\n obj: x\nSubject To\n c1: x + y 3\nEnd\n") == "bad.lp:4:12: expected '<=', '>=' or '='");
  CHECK(error_of("hello\n").rfind("bad.lp:1:1:", 0) == 0);
  CHECK(error_of("Minimize\n obj: x\nBounds\n x <= -inf\nEnd\n").rfind("bad.lp:4:", 0) == 0);
  CHECK(error_of("Minimize\n obj: x ^ 2\nEnd\n") == "bad.lp:2:9: unexpected character '^'");
  CHECK(error_of("Minimize\n obj: x\nSubject To\n c: x <= 1e999\nEnd\n").rfind("bad.lp:4:", 0) == 0);
}

TEST_CASE("glpsol solves the written LP file to the same optimum as exhaustive search") {
#ifdef KILDALL_GLPSOL
  std::mt19937 rng(9);
  const auto dir = temp_dir("lp_format");
  int compared = 0;
  for (int trial = 0; trial < 25; ++trial) {
    const Model m = random_model(rng, 6, 4);
    const Solution want = BruteForceBackend{}.solve(m);
    const auto path = dir / (std::string("model").append(std::to_string(trial)) + ".lp");
    (void)write_lp_file(m, path);
    const GlpsolResult got = run_glpsol(KILDALL_GLPSOL, "--lp", path);
    REQUIRE_MESSAGE(got.ran, path.string());
    if (want.status == SolveStatus::optimal) {
      REQUIRE_MESSAGE(got.objective.has_value(), got.status);
      CHECK(*got.objective == doctest::Approx(want.objective));
      ++compared;
    } else {
      CHECK_FALSE(got.objective.has_value());
    }
  }
  CHECK(compared > 5);
  std::filesystem::remove_all(dir);
#else
  MESSAGE("glpsol not found: LP cross-check skipped");
#endif
}
