#pragma once
// Test oracles for kildall::lp that use no solver:
// - BruteForceBackend: enumerates every integer point of a pure-integer model
//   with small finite bounds (satisfies kildall::lp::Backend);
// - feasible_interval: the exact set of values one variable can take when all
//   others are fixed (each row is linear in it, so the set is an interval).

#include <kildall/lp/lexicographic.hpp>
#include <kildall/lp/model.hpp>
#include <kildall/lp/solution.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace kildall::lp::testing {

/// True when `x` satisfies every bound, integrality requirement and live row (tolerance `tol`).
inline bool feasible(const Model& m, const std::vector<double>& x, double tol = 1e-9) {
  for (std::size_t j = 0; j < m.num_vars(); ++j) {
    const VarInfo& v = m.vars()[j];
    if (x[j] < v.lower - tol || x[j] > v.upper + tol) return false;
    if (v.is_integral() && std::abs(x[j] - std::round(x[j])) > tol) return false;
  }
  for (const Row& r : m.rows()) {
    if (r.removed) continue;
    const double a = r.expr.evaluate(x);
    if (a < r.lower - tol || a > r.upper + tol) return false;
  }
  return true;
}

/// Exhaustive solver for pure-integer models with finite bounds (at most `limit` points).
struct BruteForceBackend {
  std::uint64_t limit = 5'000'000;  ///< refuse larger models
  int calls = 0;                    ///< number of solve() calls

  Solution solve(const Model& m) {
    ++calls;
    Solution s;
    std::uint64_t points = 1;
    for (const VarInfo& v : m.vars()) {
      if (!v.is_integral() || !std::isfinite(v.lower) || !std::isfinite(v.upper)) {
        throw std::logic_error("BruteForceBackend: needs integer variables with finite bounds");
      }
      points *= static_cast<std::uint64_t>(std::floor(v.upper) - std::ceil(v.lower) + 1);
      if (points > limit) throw std::logic_error("BruteForceBackend: model too large");
    }
    const Objective& obj = m.objective();
    const double dir = obj.sense == Sense::minimize ? 1.0 : -1.0;
    std::vector<double> x(m.num_vars());
    for (std::size_t j = 0; j < x.size(); ++j) x[j] = std::ceil(m.vars()[j].lower);
    bool found = false;
    double best = 0.0;
    for (;;) {
      if (feasible(m, x)) {
        const double v = obj.expr.evaluate(x);
        if (!found || dir * v < dir * best) {
          found = true;
          best = v;
          s.values = x;
        }
      }
      std::size_t j = 0;
      for (; j < x.size(); ++j) {
        if (x[j] + 1 <= m.vars()[j].upper) {
          x[j] += 1;
          break;
        }
        x[j] = std::ceil(m.vars()[j].lower);
      }
      if (j == x.size()) break;
    }
    if (!found) {
      s.status = SolveStatus::infeasible;
      return s;
    }
    s.status = SolveStatus::optimal;
    s.objective = best;
    s.best_bound = best;
    s.gap = 0.0;
    return s;
  }
};
static_assert(Backend<BruteForceBackend>);

/// The interval of values variable `free` can take with every other variable
/// fixed at `x` (bounds and all live rows); empty when lower > upper.
inline std::pair<double, double> feasible_interval(const Model& m, std::vector<double> x, Var free) {
  double lo = m.lower(free), hi = m.upper(free);
  x[free.index()] = 0.0;
  for (const Row& r : m.rows()) {
    if (r.removed) continue;
    double a = 0.0;
    for (const Term& t : r.expr.terms())
      if (t.var.index() == free.index()) a += t.coefficient;
    const double rest = r.expr.evaluate(x);  // activity without `free`
    if (a == 0.0) {
      if (rest < r.lower - 1e-9 || rest > r.upper + 1e-9) return {1.0, 0.0};
      continue;
    }
    // r.lower <= rest + a * v <= r.upper
    double l = (r.lower - rest) / a, u = (r.upper - rest) / a;
    if (a < 0) std::swap(l, u);
    if (std::isnan(l)) l = -INFINITY;
    if (std::isnan(u)) u = INFINITY;
    lo = std::max(lo, l);
    hi = std::min(hi, u);
  }
  return {lo, hi};
}

}  // namespace kildall::lp::testing

// ---------------------------------------------------------------------------
// Random small models and file round-trip helpers.

#include <kildall/lp/names.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>

namespace kildall::lp::testing {

/// A random pure-integer model with awkward names (spaces, duplicates,
/// keywords, 300 characters, none), every row kind (<=, >=, =, ranged, free,
/// empty), fixed and binary variables and an objective constant.
inline Model random_model(std::mt19937& rng, int num_vars = 5, int num_rows = 5) {
  std::uniform_int_distribution<int> coef(-3, 3), pick(0, 9), kind(0, 6);
  const std::vector<std::string> names{"x", "x", "free", "a b", std::string(300, 'n'), "", "3d", "x[1]", "e5", "obj"};
  Model m;
  std::vector<Var> v;
  for (int j = 0; j < num_vars; ++j) {
    const std::string& n = names[static_cast<std::size_t>(pick(rng))];
    switch (pick(rng) % 4) {
      case 0: v.push_back(m.add_binary(n)); break;
      case 1: v.push_back(m.add_integer(-2, 2, n)); break;
      case 2: v.push_back(m.add_integer(1, 1, n)); break;
      default: v.push_back(m.add_integer(0, 3, n)); break;
    }
  }
  for (int i = 0; i < num_rows; ++i) {
    LinExpr e;
    for (const Var x : v)
      if (pick(rng) < 5) e.add_term(x, coef(rng));
    const double b = coef(rng);
    const std::string& n = names[static_cast<std::size_t>(pick(rng))];
    switch (kind(rng)) {
      case 0: (void)m.add(e <= b + 2, n); break;
      case 1: (void)m.add(e >= b - 2, n); break;
      case 2: (void)m.add(range(b - 2, e, b + 3), n); break;
      case 3: (void)m.add(range(-inf, e, inf), n); break;
      case 4: (void)m.add(LinearConstraint(LinExpr(), -1, 1), n); break;
      default: (void)m.add(e <= b + 1, n); break;
    }
  }
  LinExpr obj(coef(rng));
  for (const Var x : v) obj.add_term(x, coef(rng));
  if (pick(rng) < 5) {
    m.minimize(obj);
  } else {
    m.maximize(obj);
  }
  return m;
}

/// Checks that `read` (read back from a file written with `names`) has the
/// same variables (by file name: bounds and integrality) and the same
/// feasible set and objective on `samples` random integer points.
inline bool equivalent(const Model& original, const NameTable& names, const Model& read, std::mt19937& rng,
                       int samples = 300) {
  if (read.num_vars() != original.num_vars()) return false;
  std::vector<std::size_t> to_read(original.num_vars());
  for (std::size_t j = 0; j < original.num_vars(); ++j) {
    const std::string& n = names.var(Var(static_cast<std::uint32_t>(j)));
    bool found = false;
    for (std::size_t k = 0; k < read.num_vars(); ++k) {
      if (read.vars()[k].name == n) {
        to_read[j] = k;
        found = true;
      }
    }
    if (!found) return false;
    const VarInfo& a = original.vars()[j];
    const VarInfo& b = read.vars()[to_read[j]];
    if (a.lower != b.lower || a.upper != b.upper || a.is_integral() != b.is_integral()) return false;
  }
  if (original.objective().sense != read.objective().sense) return false;
  for (int s = 0; s < samples; ++s) {
    std::vector<double> x(original.num_vars()), y(original.num_vars());
    for (std::size_t j = 0; j < x.size(); ++j) {
      const VarInfo& a = original.vars()[j];
      std::uniform_int_distribution<int> d(static_cast<int>(a.lower), static_cast<int>(a.upper));
      x[j] = d(rng);
      y[to_read[j]] = x[j];
    }
    if (feasible(original, x) != feasible(read, y)) return false;
    if (original.objective().expr.evaluate(x) != read.objective().expr.evaluate(y)) return false;
  }
  return true;
}

/// A fresh empty directory under the system temp directory.
inline std::filesystem::path temp_dir(const std::string& tag) {
  static int counter = 0;
  const auto dir = std::filesystem::temp_directory_path() /
                   ("kildall_" + tag + std::string("_").append(std::to_string(::getpid())) + std::string("_").append(std::to_string(counter++)));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// Result of running glpsol on a file: nullopt objective if it reported no solution.
struct GlpsolResult {
  bool ran = false;                 ///< glpsol exited with status 0 and wrote its report
  std::optional<double> objective;  ///< objective value from "Objective:" (if a solution was found)
  std::string status;               ///< the "Status:" line
};

/// Runs `glpsol <args> <file> -o <report>` and parses the report.
inline GlpsolResult run_glpsol(const std::string& glpsol, const std::string& args, const std::filesystem::path& file) {
  GlpsolResult r;
  const auto report = file.string() + ".out";
  const std::string cmd = "\"" + glpsol + "\" " + args + " \"" + file.string() + "\" -o \"" + report + "\" > \"" +
                          file.string() + ".log\" 2>&1";
  if (std::system(cmd.c_str()) != 0) return r;
  std::ifstream in(report);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Status:", 0) == 0) r.status = line;
    if (line.rfind("Objective:", 0) == 0) {
      const auto eq = line.find('=');
      if (eq != std::string::npos) r.objective = std::stod(line.substr(eq + 1));
    }
  }
  r.ran = !r.status.empty();
  if (r.status.find("OPTIMAL") == std::string::npos) r.objective.reset();
  return r;
}

}  // namespace kildall::lp::testing
