#include <kildall/lp/names.hpp>

#include <doctest/doctest.h>

#include <set>
#include <string>

using namespace kildall::lp;

namespace {
bool valid_file_name(const std::string& n) {
  if (n.empty() || n.size() > max_name_length) return false;
  if (std::isdigit(static_cast<unsigned char>(n[0])) || n[0] == '.') return false;
  for (char c : n) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '(' || c == ')')) return false;
  }
  return true;
}
}  // namespace

TEST_CASE("sanitize_name keeps readable names valid") {
  CHECK(sanitize_name("noise[3]") == "noise(3)");
  CHECK(sanitize_name("a b-c") == "a_b_c");
  CHECK(sanitize_name("3x") == "_3x");
  CHECK(sanitize_name("free") == "_free");
  CHECK(sanitize_name("Subject") == "_Subject");
  CHECK(sanitize_name("e12") == "_e12");
  CHECK(sanitize_name("eps") == "eps");
  CHECK(sanitize_name(std::string(1000, 'a')).size() == max_name_length);
}

TEST_CASE("NameTable gives valid, unique, deterministic names and keeps given names first") {
  Model m;
  const Var a = m.add_continuous(0, 1);            // unnamed: x0 is taken by the user below
  const Var b = m.add_continuous(0, 1, "x0");
  const Var c = m.add_continuous(0, 1, "dup");
  const Var d = m.add_continuous(0, 1, "dup");
  const Var e = m.add_continuous(0, 1, "d u p");
  const Var f = m.add_continuous(0, 1, std::string(300, 'v'));
  const Var g = m.add_continuous(0, 1, std::string(300, 'v'));
  const Var h = m.add_continuous(0, 1, "kildall_objective_constant");
  const ConstraintRef r0 = m.add(a + b <= 1, "obj");  // clashes with the objective row name
  const ConstraintRef r1 = m.add(1 <= a + c <= 2, "rng");
  const ConstraintRef r2 = m.add(a <= 1, "rng_hi");
  const NameTable t(m, /*split_ranges=*/true);
  const NameTable again(m, true);
  std::set<std::string> cols, rows;
  for (const Var v : {a, b, c, d, e, f, g, h}) {
    CHECK(valid_file_name(t.var(v)));
    CHECK(t.var(v) == again.var(v));
    cols.insert(t.var(v));
  }
  cols.insert(t.constant_column());
  CHECK(cols.size() == 9);
  CHECK(t.var(b) == "x0");
  CHECK(t.var(a) != "x0");
  CHECK(t.var(c) == "dup");
  CHECK(t.var(d) == "dup_2");
  CHECK(t.var(h) != "kildall_objective_constant");
  CHECK(t.constant_column() == "kildall_objective_constant");
  for (const ConstraintRef r : {r0, r1, r2}) rows.insert(t.row(r));
  rows.insert(t.row_upper(r1));
  rows.insert(t.objective());
  CHECK(rows.size() == 5);
  CHECK(t.objective() == "obj");
  CHECK(t.row(r2) == "rng_hi");
  CHECK(t.row_upper(r1) == "rng_hi_2");
}
