#include <kildall/lp/print.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace kildall::lp;

TEST_CASE("models print as readable algebra with the user's names") {
  Model m;
  const Var x = m.add_integer(0, 10, "x");
  const Var y = m.add_continuous(-inf, inf, "y");
  const Var b = m.add_binary();
  m.minimize(2 * x + 3 * y + 1, "cost");
  m.add_objective(Sense::maximize, b);
  (void)m.add(x + y >= 2, "c1");
  (void)m.add(1 <= x - y <= 4);
  const ConstraintRef gone = m.add(x <= 3, "gone");
  m.remove(gone);
  (void)m.add(-x + 0.5 * b == -1, "eq");
  CHECK(to_string(2 * x - y - 1.5, m) == "2 x - y - 1.5");
  CHECK(to_string(LinExpr(0.0), m) == "0");
  CHECK(to_string(-x, m) == "-x");
  const std::string expected =
      "minimize cost: 2 x + 3 y + 1\n"
      "then maximize x2\n"
      "subject to\n"
      "  c1: x + y >= 2\n"
      "  r1: 1 <= x - y <= 4\n"
      "  eq: -x + 0.5 x2 = -1\n"
      "bounds\n"
      "  0 <= x <= 10, integer\n"
      "  y free\n"
      "  0 <= x2 <= 1, binary\n";
  CHECK(to_string(m) == expected);
}
