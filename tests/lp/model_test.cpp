#include <kildall/lp/model.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

using namespace kildall::lp;

TEST_CASE("variables: kinds, bounds, names") {
  Model m;
  const Var x = m.add_continuous(-inf, inf, "x");
  const Var n = m.add_integer(-3, 7);
  const Var b = m.add_binary("b");
  CHECK(m.num_vars() == 3);
  CHECK(m.lower(x) == -inf);
  CHECK(m.type(n) == VarType::integer);
  CHECK(m.upper(b) == 1.0);
  CHECK(m.display_name(n) == "x1");
  CHECK(m.display_name(b) == "b");
  CHECK(m.is_mip());
  m.set_bounds(n, 0, 2);
  CHECK(m.upper(n) == 2.0);
  m.set_type(x, VarType::binary);
  CHECK(m.lower(x) == 0.0);
  CHECK(m.upper(x) == 1.0);
  const auto many = m.add_vars(3, 0, 1, VarType::continuous, "noise");
  CHECK(m.display_name(many[2]) == "noise[2]");
  CHECK(m.var(4).index() == many[1].index());
}

TEST_CASE("invalid variables and handles are refused with ModelError") {
  Model m;
  CHECK_THROWS_AS(m.add_continuous(std::nan(""), 1), ModelError);
  CHECK_THROWS_AS(m.add_continuous(inf, inf), ModelError);
  CHECK_THROWS_AS(m.add_var(-1, 1, VarType::binary), ModelError);
  CHECK_THROWS_AS((void)m.info(Var(0)), ModelError);
  CHECK_THROWS_AS((void)m.info(Var()), ModelError);
  CHECK_THROWS_AS((void)m.var(5), ModelError);
}

TEST_CASE("constraints: added normalized, validated, removed, rebounded") {
  Model m;
  const Var x = m.add_continuous(0, 10, "x");
  const Var y = m.add_continuous(0, 10, "y");
  const ConstraintRef c = m.add(x + x + y <= 4, "c");
  CHECK(m.row(c).expr.terms().size() == 2);  // x + x merged
  CHECK(m.row(c).expr.terms()[0].coefficient == 2.0);
  CHECK(m.num_nonzeros() == 2);
  const ConstraintRef d = m.add(1 <= x - y <= 3);
  CHECK(m.display_name(d) == "r1");
  CHECK(m.num_constraints() == 2);
  m.set_bounds(c, -1, 5);
  CHECK(m.row(c).lower == -1.0);
  m.remove(c);
  CHECK(m.is_removed(c));
  CHECK(m.num_constraints() == 1);
  CHECK(m.num_row_slots() == 2);
  CHECK(m.num_nonzeros() == 2);
  m.remove(c);  // idempotent
  CHECK(m.num_constraints() == 1);

  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(m.add(nan * x <= 1), ModelError);
  CHECK_THROWS_AS(m.add(inf * x <= 1), ModelError);
  CHECK_THROWS_AS(m.add(x <= nan), ModelError);
  CHECK_THROWS_AS(m.add(Var(99) <= 1), ModelError);
  CHECK_THROWS_AS(m.set_bounds(d, nan, 1), ModelError);
  CHECK_THROWS_AS((void)m.row(ConstraintRef(17)), ModelError);
  try {
    m.add(nan * y + x <= 1, "bad");
    FAIL("expected ModelError");
  } catch (const ModelError& e) {
    CHECK(std::string(e.what()).find("bad") != std::string::npos);
    CHECK(std::string(e.what()).find("y") != std::string::npos);
  }
  CHECK(m.num_constraints() == 1);  // failed adds leave the model unchanged
}

TEST_CASE("objectives: single and lexicographic") {
  Model m;
  const Var x = m.add_continuous(0, 1, "x");
  CHECK(m.objectives().empty());
  CHECK(m.objective().expr.is_constant());
  m.minimize(x + x + 1, "cost");
  REQUIRE(m.objectives().size() == 1);
  CHECK(m.objective().expr.terms().size() == 1);
  CHECK(m.objective().name == "cost");
  m.add_objective(Sense::maximize, x, "tie");
  CHECK(m.objectives().size() == 2);
  m.maximize(x);
  CHECK(m.objectives().size() == 1);
  CHECK(m.objective().sense == Sense::maximize);
  CHECK_THROWS_AS(m.add_objective(Objective{Sense::minimize, x, "", -1.0, 0.0}), ModelError);
  m.clear_objectives();
  CHECK(m.objectives().empty());
  const std::vector<double> at{0.25};
  CHECK(m.evaluate(3 * x + 1, at) == 1.75);
  CHECK_THROWS_AS((void)m.evaluate(x, std::vector<double>{}), ModelError);
}
