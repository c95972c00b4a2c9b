// Compiles and runs the C++ blocks of docs/milp.md, as printed there, so the
// page cannot rot (tests/docs/check_doc_snippets.py checks they are verbatim).
// Links kildall::glpk (GPL) and kildall::eigen.

// --- docs/milp.md: "The article's model in 35 lines" (verbatim) --------------
#include <kildall/lp.hpp>
#include <kildall/lp/eigen.hpp>
#include <kildall/lp/glpk.hpp>
namespace lp = kildall::lp;

struct NoisyOp { enum Kind { encode, mul, add, sub, decode } kind; std::vector<int> operands; int result; };

// Per op: true if a reduce_noise goes right after it (empty on failure).
std::vector<bool> place_reduce_noise(const std::vector<NoisyOp>& ops, int num_values) {
  constexpr double kEncoded = 12, kMaxNoise = 26;
  lp::Model model;
  std::vector<lp::Var> noise;                                   // NoiseAt_v in [0, 26]
  for (int v = 0; v < num_values; ++v) noise.push_back(model.add_continuous(0, kMaxNoise));
  std::vector<lp::Var> reduce(ops.size());                      // InsertReduceNoise_x
  lp::LinExpr inserted;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const NoisyOp& op = ops[i];
    if (op.kind == NoisyOp::decode) continue;
    if (op.kind == NoisyOp::encode) { model.add(noise[op.result] == kEncoded); continue; }
    const lp::Var lhs = noise[op.operands[0]], rhs = noise[op.operands[1]];
    const lp::LinExpr grown = op.kind == NoisyOp::mul
                                  ? lhs + rhs                   // x * x: merged into 2 x
                                  : 1 + lp::LinExpr(lp::max_of(model, {lhs, rhs}));  // exact max
    reduce[i] = model.add_binary();
    inserted += reduce[i];
    model.add(grown <= kMaxNoise);                              // legal before the reduction
    lp::constrain_if_then_else(model, noise[op.result], reduce[i], kEncoded, grown);
  }
  model.minimize(inserted);
  model.add_objective(lp::Sense::minimize, lp::sum(noise));    // tie-break, never at level 1's cost

  lp::GlpkOptions options;
  options.time_limit_seconds = 10;
  const lp::Solution s = lp::GlpkSolver(options).solve(model);
  if (!s.has_solution() || !lp::check(model, s).ok) return {};
  std::vector<bool> out(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) out[i] = reduce[i].valid() && s.int_value(reduce[i]) == 1;
  return out;
}
// --- end of the snippet --------------------------------------------------------

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kEncodedNoise = 12, kMaximumNoise = 26;

// Concrete oracle: the noise of every value under a placement, or nullopt if
// some value (or the noise before a reduction) exceeds the maximum.
bool legal(const std::vector<NoisyOp>& ops, int num_values, const std::vector<bool>& reduce_after) {
  std::vector<int> noise(static_cast<std::size_t>(num_values), 0);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const NoisyOp& op = ops[i];
    if (op.kind == NoisyOp::decode) continue;
    int grown = kEncodedNoise;
    if (op.kind == NoisyOp::mul) grown = noise[op.operands[0]] + noise[op.operands[1]];
    if (op.kind == NoisyOp::add || op.kind == NoisyOp::sub)
      grown = 1 + std::max(noise[op.operands[0]], noise[op.operands[1]]);
    if (grown > kMaximumNoise) return false;
    noise[op.result] = reduce_after[i] ? kEncodedNoise : grown;
  }
  return true;
}

// Brute force: the fewest reductions that make the program legal (-1: none does).
int fewest_reductions(const std::vector<NoisyOp>& ops, int num_values) {
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (ops[i].kind != NoisyOp::encode && ops[i].kind != NoisyOp::decode) candidates.push_back(i);
  int best = -1;
  for (std::size_t mask = 0; mask < (std::size_t{1} << candidates.size()); ++mask) {
    std::vector<bool> placement(ops.size());
    int count = 0;
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      if ((mask >> k) & 1) placement[candidates[k]] = true, ++count;
    }
    if ((best < 0 || count < best) && legal(ops, num_values, placement)) best = count;
  }
  return best;
}

// The article's test_single_insertion_branching: v0 = enc, v1 = enc,
// v2 = mul(v0, v1), four adds of v1 after v2, four subs after v2 (the first
// with v0), then both ends decoded.
std::vector<NoisyOp> single_insertion_branching() {
  using K = NoisyOp;
  return {{K::encode, {}, 0},       {K::encode, {}, 1},       {K::mul, {0, 1}, 2},
          {K::add, {2, 1}, 3},      {K::add, {3, 1}, 4},      {K::add, {4, 1}, 5},
          {K::add, {5, 1}, 6},      {K::sub, {2, 0}, 7},      {K::sub, {7, 1}, 8},
          {K::sub, {8, 1}, 9},      {K::sub, {9, 1}, 10},     {K::decode, {6}, 11},
          {K::decode, {10}, 12}};
}

}  // namespace

TEST_CASE("docs/milp.md: the article's model places one reduce_noise right after the mul") {
  const std::vector<NoisyOp> ops = single_insertion_branching();
  const std::vector<bool> placed = place_reduce_noise(ops, 13);
  REQUIRE(placed.size() == ops.size());
  CHECK(placed[2]);  // right after the mul, as in the article
  CHECK(std::count(placed.begin(), placed.end(), true) == 1);
  CHECK(legal(ops, 13, placed));
  CHECK(fewest_reductions(ops, 13) == 1);
  CHECK_FALSE(legal(ops, 13, std::vector<bool>(ops.size())));  // some reduction is needed
}

TEST_CASE("docs/milp.md: the article's model is optimal on random programs (brute-force oracle)") {
  std::mt19937 rng(20240611);
  for (int round = 0; round < 12; ++round) {
    std::vector<NoisyOp> ops{{NoisyOp::encode, {}, 0}, {NoisyOp::encode, {}, 1}};
    int values = 2;
    const int body = 4 + static_cast<int>(rng() % 6);
    for (int k = 0; k < body; ++k) {
      const auto kind = static_cast<NoisyOp::Kind>(1 + rng() % 3);  // mul, add or sub
      const int lhs = static_cast<int>(rng() % static_cast<unsigned>(values));
      const int rhs = static_cast<int>(rng() % static_cast<unsigned>(values));
      ops.push_back({kind, {lhs, rhs}, values++});
    }
    const int best = fewest_reductions(ops, values);
    const std::vector<bool> placed = place_reduce_noise(ops, values);
    CAPTURE(round);
    if (best < 0) {
      CHECK(placed.empty());  // infeasible: the function reports failure
      continue;
    }
    REQUIRE(placed.size() == ops.size());
    CHECK(legal(ops, values, placed));
    CHECK(std::count(placed.begin(), placed.end(), true) == best);
  }
}

TEST_CASE("docs/milp.md: building models") {
  std::ostringstream printed;
  std::streambuf* const saved = std::cout.rdbuf(printed.rdbuf());
  // --- docs/milp.md: "Building models" (verbatim) ---
  lp::Model m;
  lp::Var x = m.add_continuous(0, 10, "x");        // bounds may be ±lp::inf
  lp::Var n = m.add_integer(-5, 5, "n");
  lp::Var b = m.add_binary("b");
  auto xs   = m.add_vars(100, 0, 1, lp::VarType::continuous, "w");   // w[0] .. w[99]

  lp::ConstraintRef c = m.add(2 * x + n - 3 <= x + 4, "c");  // stored as x + n <= 7
  m.add(1 <= x - n <= 4);                                    // ranged
  m.add(x == n + 2 * b);
  m.add(lp::sum(xs) >= 1);
  m.add(lp::dot(std::vector<double>(100, 2.0), xs) <= 50);
  m.set_bounds(c, -lp::inf, 9);                              // change a row's bounds
  m.remove(c);                                               // handle stays valid, row is gone
  m.minimize(x + 2 * n);
  std::cout << lp::to_string(m);                             // readable algebra
  // --- end of the snippet ---
  std::cout.rdbuf(saved);
  const std::string text = printed.str();
  CAPTURE(text);
  CHECK(m.is_removed(c));
  CHECK(m.num_constraints() == 4);
  CHECK(m.num_vars() == 103);
  CHECK(m.display_name(xs[99]) == "w[99]");
  CHECK(text == lp::to_string(m));
  CHECK(text.find("x + 2 n") != std::string::npos);  // the objective, as algebra
  CHECK(text.find("w[0]") != std::string::npos);
  CHECK(text.find("c:") == std::string::npos);       // the removed row is not printed

  // "stored as x + n <= 7", replayed on a fresh model.
  lp::Model fresh;
  const lp::Var fx = fresh.add_continuous(0, 10, "x");
  const lp::Var fn = fresh.add_integer(-5, 5, "n");
  const lp::ConstraintRef fc = fresh.add(2 * fx + fn - 3 <= fx + 4, "c");
  CHECK(lp::to_string(fc, fresh) == "c: x + n <= 7");
  fresh.set_bounds(fc, -lp::inf, 9);
  CHECK(lp::to_string(fc, fresh) == "c: x + n <= 9");
  // "Bad input throws lp::ModelError": a chain whose left part is not a constant.
  CHECK_THROWS_AS(fresh.add(fx <= fn <= 3), lp::ModelError);
}

TEST_CASE("docs/milp.md: solving with GLPK") {
  // A small knapsack and a feasible (not optimal) warm start for it.
  lp::Model model;
  const std::vector<double> weight{3, 4, 5, 6, 2}, value{4, 5, 7, 8, 2};
  const std::vector<lp::Var> take = model.add_vars(5, 0, 1, lp::VarType::binary, "take");
  model.add(lp::dot(weight, take) <= 10, "capacity");
  model.maximize(lp::dot(value, take));
  const std::vector<double> warm_start_values{1, 0, 0, 0, 1};
  // --- docs/milp.md: "Solving with GLPK" (verbatim) ---
  lp::GlpkOptions o;
  o.time_limit_seconds = 30;          // per GLPK solve: each lexicographic level gets the full limit
  o.mip_gap = 1e-4;                   // relative; o.mip_gap_abs for absolute
  o.presolve = true;                  // LP and MIP presolver
  o.lp_method = lp::LpMethod::simplex; // or interior (pure LPs)
  o.verbosity = lp::Verbosity::quiet; // nothing is printed unless asked; o.log receives the text
  o.progress = [](const lp::MipProgress& p) {
    std::fprintf(stderr, "\r%8.1fs  incumbent %g  bound %g  gap %.2f%%  nodes %lld",
                 p.elapsed_seconds, p.incumbent, p.bound, 100 * p.gap, (long long)p.nodes);
  };
  lp::Solution s = lp::GlpkSolver(o).solve(model, warm_start_values);  // warm start optional
  // s.status: optimal, feasible, infeasible, unbounded, no_solution or error (see s.message)
  if (s.has_solution()) std::printf("\nobjective %g after %lld nodes\n", s.objective, (long long)s.nodes);
  // --- end of the snippet ---
  REQUIRE(s.has_solution());
  CHECK(lp::check(model, s).ok);  // the independent check of docs/milp.md
  // Brute force over the 32 subsets.
  double best = 0;
  for (unsigned mask = 0; mask < 32; ++mask) {
    double w = 0, v = 0;
    for (unsigned k = 0; k < 5; ++k)
      if ((mask >> k) & 1) w += weight[k], v += value[k];
    if (w <= 10) best = std::max(best, v);
  }
  CHECK(s.objective == doctest::Approx(best));
  // Within the requested relative gap, GLPK may stop early: status feasible.
  CHECK((s.status == lp::SolveStatus::optimal || s.status == lp::SolveStatus::feasible));
}
