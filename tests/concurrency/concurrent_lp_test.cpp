// Concurrency of the LP/MILP part: independent models written to and read
// from the LP and MPS formats, and (when GLPK is linked) solved with GLPK, from
// several threads at once give exactly the sequential answers: same text, same
// status, objective and point (optimal, infeasible, unbounded and error
// models alike). The oracle is the sequential run; the ThreadSanitizer preset
// (`tsan`) runs this file too.
#include <doctest/doctest.h>

#include <cstddef>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <kildall/lp/lp_format.hpp>
#include <kildall/lp/model.hpp>
#include <kildall/lp/mps_format.hpp>

#include "../lp/lp_test_support.hpp"

#if defined(KILDALL_TEST_WITH_GLPK)
#include <kildall/lp/glpk.hpp>
#endif

using namespace kildall::lp;

namespace {

constexpr unsigned thread_count = 4;

template <class Work>
void in_parallel(std::size_t count, Work work) {
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < thread_count; ++t)
    threads.emplace_back([&work, count, t] {
      for (std::size_t i = t; i < count; i += thread_count) work(i);
    });
  for (std::thread& thread : threads) thread.join();
}

std::vector<Model> random_models() {
  std::vector<Model> models;
  for (unsigned seed = 0; seed < 96; ++seed) {
    std::mt19937 rng(seed);
    models.push_back(testing::random_model(rng, 4 + static_cast<int>(seed % 5), 3 + static_cast<int>(seed % 6)));
  }
  return models;
}

/// LP text, MPS text, and both read back and written again.
std::string round_trip(const Model& m) {
  std::ostringstream lp, mps;
  (void)write_lp(m, lp);
  (void)write_mps(m, mps);
  std::istringstream lp_in(lp.str()), mps_in(mps.str());
  std::ostringstream lp_again, mps_again;
  (void)write_lp(read_lp(lp_in, "model.lp"), lp_again);
  (void)write_mps(read_mps(mps_in, "model.mps"), mps_again);
  return lp.str() + mps.str() + lp_again.str() + mps_again.str();
}

}  // namespace

TEST_CASE("independent LP/MPS writes and reads from several threads equal the sequential ones") {
  const std::vector<Model> models = random_models();
  std::vector<std::string> sequential;
  for (const Model& m : models) sequential.push_back(round_trip(m));
  std::vector<std::string> parallel(models.size());
  in_parallel(models.size(), [&](std::size_t i) { parallel[i] = round_trip(models[i]); });
  for (std::size_t i = 0; i < models.size(); ++i) {
    CAPTURE(i);
    CHECK(parallel[i] == sequential[i]);
  }
}

#if defined(KILDALL_TEST_WITH_GLPK)
namespace {

/// Status, objective, point and message of a solve, comparable.
struct Answer {
  SolveStatus status = SolveStatus::error;
  std::string text;  // objective and values printed exactly (NaN-safe comparison)
  friend bool operator==(const Answer&, const Answer&) = default;
};

Answer solve(const Model& m) {
  const Solution s = solve_glpk(m);
  std::ostringstream text;
  text.precision(17);
  text << s.objective << " |";
  for (const double x : s.values) text << ' ' << x;
  return Answer{s.status, text.str()};
}

std::vector<Model> solver_models() {
  std::vector<Model> models = random_models();
  // A proven-infeasible model, an unbounded LP and an unbounded MILP.
  Model infeasible;
  const Var a = infeasible.add_integer(0, 10, "a");
  (void)infeasible.add(LinExpr(a) >= 11, "too_big");
  infeasible.minimize(LinExpr(a));
  models.push_back(infeasible);
  Model unbounded;
  const Var y = unbounded.add_continuous(0, inf, "y");
  unbounded.maximize(LinExpr(y));
  models.push_back(unbounded);
  return models;
}

}  // namespace

TEST_CASE("independent GLPK solves from several threads equal the sequential solves") {
  const std::vector<Model> models = solver_models();
  std::vector<Answer> sequential;
  for (const Model& m : models) sequential.push_back(solve(m));
  CHECK(sequential[models.size() - 2].status == SolveStatus::infeasible);
  CHECK(sequential[models.size() - 1].status == SolveStatus::unbounded);
  std::vector<Answer> parallel(models.size());
  in_parallel(models.size(), [&](std::size_t i) { parallel[i] = solve(models[i]); });
  for (std::size_t i = 0; i < models.size(); ++i) {
    CAPTURE(i);
    CHECK(parallel[i] == sequential[i]);
  }
}
#endif
