#include <kildall/lp/glpk.hpp>
#include <kildall/lp/linearize.hpp>

#include "lp_test_support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace kildall::lp;
using kildall::lp::testing::BruteForceBackend;
using kildall::lp::testing::feasible;

namespace {

// 0/1 knapsack with n items (random weights/values from `seed`).
Model knapsack(int n, unsigned seed, std::vector<Var>* items = nullptr) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> w(3, 20), v(5, 40);
  Model m;
  LinExpr weight, value;
  int total = 0;
  for (int i = 0; i < n; ++i) {
    const Var x = m.add_binary(std::string("item").append(std::to_string(i)));
    if (items) items->push_back(x);
    const int wi = w(rng);
    total += wi;
    weight.add_term(x, wi);
    value.add_term(x, v(rng));
  }
  (void)m.add(weight <= total / 2, "capacity");
  m.maximize(value);
  return m;
}

// Certificate of LP optimality from the reported duals, computed here: the
// Lagrangian bound L(y) = min over the variable box of (c - A^T y) x + sum_i
// y_i * (bound of row i that y_i prices) equals the objective (minimization).
double lagrangian_bound(const Model& m, const Solution& s) {
  const Objective& o = m.objective();
  const double dir = o.sense == Sense::minimize ? 1.0 : -1.0;
  std::vector<double> reduced(m.num_vars(), 0.0);
  for (const Term& t : o.expr.terms()) reduced[t.var.index()] += dir * t.coefficient;
  double bound = dir * o.expr.constant();
  for (std::size_t i = 0; i < m.num_row_slots(); ++i) {
    const Row& r = m.rows()[i];
    if (r.removed) continue;
    const double y = dir * s.row_duals[i];
    for (const Term& t : r.expr.terms()) reduced[t.var.index()] -= y * t.coefficient;
    if (std::abs(y) < 1e-12) continue;
    const double b = y > 0 ? r.lower : r.upper;
    if (!std::isfinite(b)) return -INFINITY;  // dual sign inconsistent with the row: no certificate
    bound += y * b;
  }
  for (std::size_t j = 0; j < m.num_vars(); ++j) {
    const double d = reduced[j];
    if (std::abs(d) < 1e-12) continue;
    const double b = d > 0 ? m.vars()[j].lower : m.vars()[j].upper;
    if (!std::isfinite(b)) return -INFINITY;
    bound += d * b;
  }
  return dir * bound;
}

// A MILP that GLPK cannot finish quickly: sum 2 x_i + y = odd with binaries,
// y costly. Any solution needs y = 1; proving it needs ~2^n nodes.
Model parity(int n, bool with_escape) {
  Model m;
  LinExpr e;
  for (int i = 0; i < n; ++i) e.add_term(m.add_binary(), 2.0);
  LinExpr obj;
  if (with_escape) {
    const Var y = m.add_binary("escape");
    e.add_term(y, 1.0);
    obj.add_term(y, 1.0);
  }
  (void)m.add(e == n + 1 - (n % 2), "odd");
  m.minimize(obj);
  return m;
}

}  // namespace

TEST_CASE("knapsack: GLPK matches exhaustive search, with and without presolve") {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const Model m = knapsack(12, seed);
    const Solution want = BruteForceBackend{}.solve(m);
    for (const bool presolve : {true, false}) {
      const Solution got = solve_glpk(m, GlpkOptions{.presolve = presolve});
      REQUIRE(got.status == SolveStatus::optimal);
      CHECK(got.objective == doctest::Approx(want.objective));
      CHECK(got.best_bound == doctest::Approx(want.objective));
      CHECK(got.gap == 0.0);
      CHECK(feasible(m, got.values, 1e-6));
      CHECK(got.row_duals.empty());  // MIP: no duals
    }
  }
}

TEST_CASE("assignment: GLPK matches the best permutation") {
  const int n = 5;
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> c(1, 30);
  std::vector<std::vector<int>> cost(n, std::vector<int>(n));
  for (auto& row : cost)
    for (int& v : row) v = c(rng);
  Model m;
  std::vector<std::vector<Var>> x(n);
  LinExpr total;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      x[i].push_back(m.add_binary());
      total.add_term(x[i][j], cost[i][j]);
    }
  for (int i = 0; i < n; ++i) {
    LinExpr row, col;
    for (int j = 0; j < n; ++j) {
      row += x[i][j];
      col += x[j][i];
    }
    (void)m.add(row == 1);
    (void)m.add(col == 1);
  }
  m.minimize(total);
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  int best = 1 << 30;
  do {
    int s = 0;
    for (int i = 0; i < n; ++i) s += cost[i][perm[i]];
    best = std::min(best, s);
  } while (std::next_permutation(perm.begin(), perm.end()));
  const Solution got = solve_glpk(m);
  REQUIRE(got.status == SolveStatus::optimal);
  CHECK(got.objective == best);
}

TEST_CASE("set cover: GLPK matches exhaustive search") {
  std::mt19937 rng(8);
  std::bernoulli_distribution in(0.3);
  const int elements = 12, sets = 10;
  Model m;
  std::vector<Var> pick;
  for (int s = 0; s < sets; ++s) pick.push_back(m.add_binary());
  for (int e = 0; e < elements; ++e) {
    LinExpr cover;
    for (int s = 0; s < sets; ++s)
      if (in(rng) || s == e % sets) cover += pick[s];
    (void)m.add(cover >= 1);
  }
  LinExpr cost;
  for (int s = 0; s < sets; ++s) cost.add_term(pick[s], 1 + s % 3);
  m.minimize(cost);
  const Solution want = BruteForceBackend{}.solve(m);
  const Solution got = solve_glpk(m);
  REQUIRE(got.status == SolveStatus::optimal);
  CHECK(got.objective == doctest::Approx(want.objective));
}

TEST_CASE("transportation LP: optimal with a dual certificate; interior point agrees") {
  const std::vector<double> supply{20, 30, 25}, demand{10, 25, 15, 20};
  const std::vector<std::vector<double>> cost{{8, 6, 10, 9}, {9, 12, 13, 7}, {14, 9, 16, 5}};
  Model m;
  std::vector<std::vector<Var>> x(3);
  LinExpr total;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 4; ++j) {
      x[i].push_back(m.add_continuous(0, inf));
      total.add_term(x[i][j], cost[i][j]);
    }
  for (std::size_t i = 0; i < 3; ++i) (void)m.add(sum(x[i]) <= supply[i], std::string("supply").append(std::to_string(i)));
  for (std::size_t j = 0; j < 4; ++j) {
    LinExpr in;
    for (std::size_t i = 0; i < 3; ++i) in += x[i][j];
    (void)m.add(in >= demand[j], std::string("demand").append(std::to_string(j)));
  }
  m.minimize(total);
  const Solution s = solve_glpk(m);
  REQUIRE(s.status == SolveStatus::optimal);
  CHECK(feasible(m, s.values, 1e-7));
  REQUIRE(s.row_duals.size() == m.num_row_slots());
  REQUIRE(s.reduced_costs.size() == m.num_vars());
  CHECK(lagrangian_bound(m, s) == doctest::Approx(s.objective));  // dual bound = primal value: optimal
  // The same LP with integer variables (totally unimodular): exhaustive search is too big,
  // but the MIP optimum must equal the LP optimum.
  Model mi = m;
  for (std::size_t j = 0; j < mi.num_vars(); ++j) mi.set_type(mi.var(j), VarType::integer);
  CHECK(solve_glpk(mi).objective == doctest::Approx(s.objective));
  const Solution ip = solve_glpk(m, GlpkOptions{.lp_method = LpMethod::interior});
  REQUIRE(ip.status == SolveStatus::optimal);
  CHECK(ip.objective == doctest::Approx(s.objective).epsilon(1e-6));
  // Maximization: duals still certify.
  Model mx = m;
  mx.maximize(-total);
  const Solution sx = solve_glpk(mx);
  CHECK(sx.objective == doctest::Approx(-s.objective));
  CHECK(lagrangian_bound(mx, sx) == doctest::Approx(sx.objective));
}

TEST_CASE("start basis: an LP re-solved from its optimal basis after rows and variables were added matches a solve from scratch") {
  // Oracle: the same LP solved from scratch (objective), the dual certificate, feasibility.
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> pick(0, 29), size(1, 5), weight(1, 4);
    Model m;
    std::vector<Var> x;
    LinExpr cost;
    const auto add_variables = [&](int count) {
      for (int i = 0; i < count; ++i) {
        x.push_back(m.add_continuous(0.0, 1.0));
        cost.add_term(x.back(), weight(rng));
      }
      m.minimize(cost);
    };
    const auto add_rows = [&](int count) {  // fractional covers of random sets of the variables so far
      std::uniform_int_distribution<std::size_t> any(0, x.size() - 1);
      for (int r = 0; r < count; ++r) {
        LinExpr row;
        std::vector<std::size_t> members;
        for (int k = size(rng); k > 0; --k) members.push_back(any(rng));
        std::sort(members.begin(), members.end());
        members.erase(std::unique(members.begin(), members.end()), members.end());
        for (const std::size_t j : members) row += x[j];
        (void)m.add(row >= 1.0);
      }
    };
    add_variables(20);
    add_rows(25);
    const Solution first = solve_glpk(m);
    REQUIRE(first.status == SolveStatus::optimal);
    REQUIRE(first.basis.variables.size() == m.num_vars());
    REQUIRE(first.basis.rows.size() == m.num_row_slots());
    CHECK(std::count(first.basis.variables.begin(), first.basis.variables.end(), BasisStatus::basic) +
              std::count(first.basis.rows.begin(), first.basis.rows.end(), BasisStatus::basic) ==
          static_cast<std::ptrdiff_t>(m.num_row_slots()));
    if (seed % 2 == 0) add_variables(5);
    add_rows(10 + pick(rng));
    const Solution cold = solve_glpk(m);
    const Solution warm = GlpkSolver().solve_from(m, first.basis);
    REQUIRE(cold.status == SolveStatus::optimal);
    REQUIRE(warm.status == SolveStatus::optimal);
    CHECK(warm.message.empty());
    CHECK(warm.objective == doctest::Approx(cold.objective));
    CHECK(feasible(m, warm.values, 1e-7));
    CHECK(lagrangian_bound(m, warm) == doctest::Approx(warm.objective));
    CHECK(warm.basis.rows.size() == m.num_row_slots());
  }
}

TEST_CASE("start basis: one GLPK cannot use is dropped and the LP solved from scratch; MIPs ignore it") {
  Model m;
  const Var a = m.add_continuous(0.0, 1.0), b = m.add_continuous(0.0, 1.0), c = m.add_continuous(0.0, 1.0);
  (void)m.add(a + b >= 1.0);
  (void)m.add(b + c >= 1.0);
  m.minimize(a + 2.0 * b + c);
  Basis all_basic;  // three basic variables for two rows: not a basis
  all_basic.variables.assign(3, BasisStatus::basic);
  all_basic.rows.assign(2, BasisStatus::basic);
  const Solution s = GlpkSolver().solve_from(m, all_basic);
  REQUIRE(s.status == SolveStatus::optimal);
  CHECK(s.objective == doctest::Approx(2.0));
  CHECK(s.message.find("solved from scratch") != std::string::npos);
  Model mip = m;
  mip.set_type(a, VarType::integer);
  const Solution sm = GlpkSolver().solve_from(mip, all_basic);
  REQUIRE(sm.status == SolveStatus::optimal);
  CHECK(sm.objective == doctest::Approx(2.0));
  CHECK(sm.basis.empty());
}

TEST_CASE("infeasible and unbounded models, LP and MIP, with and without presolve") {
  for (const bool presolve : {true, false}) {
    const GlpkOptions o{.presolve = presolve};
    Model lp;
    const Var x = lp.add_continuous(0, inf), y = lp.add_continuous(0, inf);
    (void)lp.add(x + y <= 1);
    (void)lp.add(x - y >= 2);
    lp.minimize(x);
    CHECK(solve_glpk(lp, o).status == SolveStatus::infeasible);

    Model ub;
    const Var u = ub.add_continuous(-inf, inf), v = ub.add_continuous(0, inf);
    (void)ub.add(u - v <= 3);
    ub.minimize(u);
    const Solution s = solve_glpk(ub, o);
    CHECK(s.status == SolveStatus::unbounded);
    CHECK_FALSE(s.has_solution());

    Model mub = ub;
    mub.set_type(u, VarType::integer);
    CHECK(solve_glpk(mub, o).status == SolveStatus::unbounded);

    // Unbounded relaxation but no integer point at all: infeasible, not unbounded.
    Model odd;
    const Var a = odd.add_integer(-inf, inf), b = odd.add_integer(0, 1);
    (void)odd.add(2 * b == 1);
    odd.minimize(a);
    const Solution os = solve_glpk(odd, o);
    CHECK(os.status == SolveStatus::infeasible);
    CHECK(os.message == "MIP is infeasible");

    // Undecidable for branch-and-bound (unbounded integers, parity): bounded by the time limit, no hang.
    Model parity_free;
    const Var p = parity_free.add_integer(-inf, inf), q = parity_free.add_integer(-inf, inf);
    (void)parity_free.add(2 * p - 2 * q == 1);
    parity_free.minimize(p);
    GlpkOptions limited = o;
    limited.time_limit_seconds = 0.3;
    const Solution ps = solve_glpk(parity_free, limited);
    CHECK(ps.status == SolveStatus::unbounded);
    CHECK(ps.message.find("unbounded or infeasible") != std::string::npos);

    Model mif = knapsack(6, 2);
    (void)mif.add(sum(std::vector<Var>{mif.var(0), mif.var(1)}) == 3);
    CHECK(solve_glpk(mif, o).status == SolveStatus::infeasible);
  }
  Model crossed;
  const Var z = crossed.add_continuous(0, 1, "z");
  const ConstraintRef c = crossed.add(z <= 1, "c");
  crossed.set_bounds(c, 2, 1);
  const Solution s = solve_glpk(crossed);
  CHECK(s.status == SolveStatus::infeasible);
  CHECK(s.message.find("c") != std::string::npos);
}

TEST_CASE("trivial models: no rows, no variables, a constant objective") {
  Model none;
  none.minimize(LinExpr(3.0));
  const Solution s = solve_glpk(none);
  CHECK(s.status == SolveStatus::optimal);
  CHECK(s.objective == 3.0);
  Model free_var;
  const Var x = free_var.add_integer(-4, 9);
  free_var.maximize(2 * x + 1);
  CHECK(solve_glpk(free_var).objective == 19.0);
}

TEST_CASE("GLPK trap: glp_intopt without presolve needs an optimal LP relaxation (GLP_EROOT)") {
  // Raw GLPK shows the trap...
  int raw = 0;
  {
    auto lock = glpk_lock();
    glp_prob* p = glp_create_prob();
    glp_add_cols(p, 1);
    glp_set_col_kind(p, 1, GLP_BV);
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    raw = glp_intopt(p, &parm);
    glp_delete_prob(p);
  }
  CHECK(raw == GLP_EROOT);
  // ...which the backend avoids by solving the relaxation first.
  const Solution s = solve_glpk(knapsack(8, 4), GlpkOptions{.presolve = false});
  CHECK(s.status == SolveStatus::optimal);
}

TEST_CASE("GLPK trap: new columns are fixed at 0; the backend sets every bound") {
  {
    auto lock = glpk_lock();
    glp_prob* p = glp_create_prob();
    glp_add_cols(p, 1);
    CHECK(glp_get_col_type(p, 1) == GLP_FX);
    glp_delete_prob(p);
  }
  Model m;
  const Var x = m.add_continuous(-inf, inf), y = m.add_continuous(-inf, 7);
  (void)m.add(x >= -5);
  (void)m.add(x + y >= 1);
  m.minimize(x - y);
  const Solution s = solve_glpk(m);
  REQUIRE(s.status == SolveStatus::optimal);
  CHECK(s.value(x) == doctest::Approx(-5.0));
  CHECK(s.value(y) == doctest::Approx(7.0));
}

TEST_CASE("GLPK trap: duplicate row entries and long names abort GLPK; the builder never sends them") {
  // The error path itself: trapped, reported, and the process goes on.
  glpk_detail::TermCapture capture;
  bool ok = true;
  {
    auto lock = glpk_lock();
    ok = glpk_detail::guarded_call(
        [](void*) {
          glp_prob* p = glp_create_prob();
          glp_add_rows(p, 1);
          glp_add_cols(p, 2);
          const int idx[] = {0, 1, 1};
          const double val[] = {0.0, 1.0, 2.0};
          glp_set_mat_row(p, 1, 2, idx, val);  // duplicate column 1: glp_error
          glp_delete_prob(p);
        },
        nullptr, capture);
  }
  CHECK_FALSE(ok);
  CHECK(capture.text.find("duplicate") != std::string::npos);
  // The body owns nothing with a destructor: the trapped error skips its frames.
  const std::string long_name(300, 'n');
  {
    auto lock = glpk_lock();
    ok = glpk_detail::guarded_call(
        [](void* name) {
          glp_prob* p = glp_create_prob();
          glp_add_cols(p, 1);
          glp_set_col_name(p, 1, static_cast<const char*>(name));  // over 255 characters: glp_error
          glp_delete_prob(p);
        },
        const_cast<char*>(long_name.c_str()), capture);
  }
  CHECK_FALSE(ok);
  // GLPK works again after the recovery, and the builder's equivalents just work.
  Model m;
  const Var x = m.add_integer(0, 10, std::string(1000, 'x'));
  (void)m.add(x + x + x <= 7);  // merged into 3 x
  m.maximize(x);
  const Solution s = solve_glpk(m);
  REQUIRE(s.status == SolveStatus::optimal);
  CHECK(s.value(x) == 2.0);
}

TEST_CASE("warm start: a feasible incumbent is handed to branch-and-cut, an infeasible one is refused") {
  std::vector<Var> items;
  const Model m = knapsack(30, 12, &items);
  const Solution best = solve_glpk(m);
  REQUIRE(best.status == SolveStatus::optimal);
  double first_incumbent = NAN;
  GlpkOptions o;
  o.progress = [&](const MipProgress& p) {
    if (std::isnan(first_incumbent) && !std::isnan(p.incumbent)) first_incumbent = p.incumbent;
  };
  o.progress_interval_seconds = 0.0;
  o.cuts = false;
  const Solution warm = GlpkSolver(o).solve(m, best.values);
  REQUIRE(warm.status == SolveStatus::optimal);
  CHECK(warm.objective == doctest::Approx(best.objective));
  CHECK(warm.message.empty());
  CHECK(first_incumbent == doctest::Approx(best.objective));  // the start was the first incumbent
  std::vector<double> all_in(m.num_vars(), 1.0);              // violates the capacity
  const Solution refused = GlpkSolver(o).solve(m, all_in);
  CHECK(refused.status == SolveStatus::optimal);
  CHECK(refused.message.find("warm start ignored") != std::string::npos);
  CHECK(refused.message.find("capacity") != std::string::npos);
}

TEST_CASE("time limit: no solution at all, or a feasible point with a gap; progress is reported") {
  GlpkOptions o;
  o.time_limit_seconds = 0.3;
  o.cuts = false;
  o.presolve = false;
  std::vector<MipProgress> reports;
  o.progress = [&](const MipProgress& p) { reports.push_back(p); };
  o.progress_interval_seconds = 0.05;
  const Solution none = solve_glpk(parity(41, false), o);
  CHECK(none.status == SolveStatus::no_solution);
  CHECK_FALSE(none.has_solution());
  CHECK(none.seconds < 5.0);
  REQUIRE_FALSE(reports.empty());
  CHECK(reports.back().nodes > 1);
  CHECK(reports.back().elapsed_seconds >= reports.front().elapsed_seconds);
  CHECK(std::isnan(reports.back().incumbent));

  reports.clear();
  const Model escape = parity(41, true);
  o.time_limit_seconds = 1.0;  // the first incumbent (escape = 1) takes a few ms, even on a loaded machine
  const Solution gap = solve_glpk(escape, o);
  REQUIRE(gap.status == SolveStatus::feasible);
  CHECK(gap.objective == 1.0);
  CHECK(gap.best_bound < gap.objective);
  CHECK(gap.gap > 0.0);
  CHECK(feasible(escape, gap.values, 1e-6));
  CHECK(gap.message.find("time limit") != std::string::npos);

  // Gap tolerances stop the same search early.
  GlpkOptions g = o;
  g.time_limit_seconds = 30;
  g.mip_gap_abs = 2.0;
  const Solution abs_gap = solve_glpk(escape, g);
  CHECK(abs_gap.status == SolveStatus::feasible);
  CHECK(abs_gap.message.find("absolute MIP gap") != std::string::npos);
  g.mip_gap_abs = 0.0;
  g.mip_gap = 2.0;
  const Solution rel_gap = solve_glpk(escape, g);
  CHECK(rel_gap.status == SolveStatus::feasible);
  CHECK(rel_gap.seconds < 10.0);
}

TEST_CASE("output: nothing unless asked; the log receives GLPK's text when verbose") {
  std::string text;
  GlpkOptions o;
  o.log = [&](std::string_view s) { text += s; };
  (void)solve_glpk(knapsack(10, 3), o);
  CHECK(text.empty());
  o.verbosity = Verbosity::normal;
  (void)solve_glpk(knapsack(10, 3), o);
  CHECK_MESSAGE(text.find("mip =") != std::string::npos, text);
  CHECK(glpk_version().rfind(std::to_string(GLP_MAJOR_VERSION), 0) == 0);
}

TEST_CASE("two threads solving at once get the sequential results") {
  std::vector<Model> models;
  for (unsigned seed = 1; seed <= 8; ++seed) models.push_back(knapsack(25, seed));
  std::vector<double> sequential;
  for (const Model& m : models) sequential.push_back(solve_glpk(m).objective);
  std::vector<double> parallel(models.size());
  auto worker = [&](std::size_t start) {
    for (std::size_t k = start; k < models.size(); k += 2) parallel[k] = solve_glpk(models[k]).objective;
  };
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  CHECK(parallel == sequential);
}

TEST_CASE("with thread-local GLPK state, a solve on another thread finishes while one is in branch-and-bound") {
  CHECK(glpk_lock().owns_lock() == !glpk_thread_local());
  if (!glpk_thread_local()) {
    MESSAGE("this GLPK keeps global state: solves from several threads are serialized");
    return;
  }
  // The first progress report (inside glp_intopt) starts a second solve on another thread
  // and waits for it: with a process-wide lock it could not finish before this one does.
  std::atomic<bool> other_done{false};
  bool overlapped = false;
  std::thread other;
  double other_objective = 0.0;
  GlpkOptions o;
  o.progress_interval_seconds = 0.0;
  o.progress = [&](const MipProgress&) {
    if (other.joinable()) return;
    other = std::thread([&] {
      other_objective = solve_glpk(knapsack(12, 5)).objective;
      other_done = true;
    });
    for (int i = 0; i < 2000 && !other_done; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    overlapped = other_done.load();
  };
  const Solution s = solve_glpk(knapsack(25, 3), o);
  if (other.joinable()) other.join();
  CHECK(s.status == SolveStatus::optimal);
  CHECK(s.objective == solve_glpk(knapsack(25, 3)).objective);
  CHECK(overlapped);
  CHECK(other_objective == solve_glpk(knapsack(12, 5)).objective);
}

TEST_CASE("lexicographic objectives through GlpkSolver keep the primary optimum") {
  Model m;
  std::vector<Var> x;
  for (int i = 0; i < 6; ++i) x.push_back(m.add_integer(0, 4));
  LinExpr cover, secondary;
  for (int i = 0; i < 6; ++i) {
    cover.add_term(x[i], 1 + i % 3);
    secondary.add_term(x[i], 500.0 * (i + 1));
  }
  (void)m.add(cover >= 7);
  m.minimize(sum(x));
  m.add_objective(Sense::maximize, secondary);
  const Solution s = GlpkSolver().solve(m);
  REQUIRE(s.status == SolveStatus::optimal);
  Model primary_only = m;
  primary_only.minimize(sum(x));
  const Solution p = solve_glpk(primary_only);
  CHECK(s.objective == doctest::Approx(p.objective));
  CHECK(s.level_objectives.size() == 2);
  // The oracle on the same model.
  BruteForceBackend brute;
  const Solution want = solve_lexicographic(m, brute);
  CHECK(s.level_objectives[1] == doctest::Approx(want.level_objectives[1]));
}

TEST_CASE("the article's model: one reduce_noise after the mul serves both branches (exact point)") {
  // test_single_insertion_branching: n0 = enc, n1 = enc, n2 = mul(n0, n1),
  // four adds of n1 after n2, four subs after n2 (first one with n0).
  Model m;
  const double encoded = 12, max_noise = 26;
  std::vector<Var> noise;
  for (int v = 0; v < 11; ++v) noise.push_back(m.add_continuous(0, max_noise, std::string("noise").append(std::to_string(v))));
  (void)m.add(noise[0] == encoded);
  (void)m.add(noise[1] == encoded);
  LinExpr inserted;
  std::vector<Var> reduce;
  auto op = [&](bool mul, int lhs, int rhs, int result) {
    const LinExpr grown = mul ? noise[lhs] + noise[rhs] : 1 + LinExpr(max_of(m, {noise[lhs], noise[rhs]}));
    const Var r = m.add_binary();
    reduce.push_back(r);
    inserted += r;
    (void)m.add(grown <= max_noise);
    (void)constrain_if_then_else(m, noise[result], r, encoded, grown);
  };
  op(true, 0, 1, 2);
  op(false, 2, 1, 3), op(false, 3, 1, 4), op(false, 4, 1, 5), op(false, 5, 1, 6);
  op(false, 2, 0, 7), op(false, 7, 1, 8), op(false, 8, 1, 9), op(false, 9, 1, 10);
  m.minimize(inserted);
  m.add_objective(Sense::minimize, sum(noise));  // exact tie-break: least total noise
  for (const bool cuts : {false, true}) {
    const Solution s = solve_glpk(m, GlpkOptions{.cuts = cuts});
    REQUIRE(s.status == SolveStatus::optimal);
    CHECK(s.objective == 1.0);
    CHECK(s.int_value(reduce[0]) == 1);              // right after the mul, as in the article
    CHECK(feasible(m, s.values, 1e-9));              // polished: an exact vertex even with cuts
  }
  // Without polishing, GLPK's cut-augmented search may leave ~1e-5 row violations.
  const Solution raw = solve_glpk(m, GlpkOptions{.cuts = true, .polish = false});
  CHECK(raw.objective == 1.0);
  CHECK(feasible(m, raw.values, 1e-4));
}
