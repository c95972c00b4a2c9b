// A knapsack as a MILP: kildall::lp builds it, GLPK solves it, lp::check re-checks the answer.
#include <kildall/lp.hpp>
#include <kildall/lp/eigen.hpp>
#include <kildall/lp/glpk.hpp>
#include <iostream>
namespace lp = kildall::lp;

int main() {
  const std::vector<double> weight{3, 4, 5, 6}, value{4, 5, 7, 8};
  lp::Model m;
  const std::vector<lp::Var> take = m.add_vars(4, 0, 1, lp::VarType::binary, "take");  // take[i] in {0, 1}
  m.add(lp::dot(weight, take) <= 10, "capacity");
  m.maximize(lp::dot(value, take));
  const lp::Solution s = lp::GlpkSolver().solve(m);
  if (!s.has_solution() || !lp::check(m, s).ok) return 1;  // check(): Eigen, independent of GLPK
  std::cout << lp::to_string(s.status) << ": value " << s.objective << ", take items";
  for (std::size_t i = 0; i < take.size(); ++i) if (s.int_value(take[i]) == 1) std::cout << ' ' << i;
  std::cout << '\n';
}
