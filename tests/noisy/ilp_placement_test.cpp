// The ilp strategy (the article's model, lexicographic, GLPK); oracle: brute force over all placements with the independent evaluator (count and total noise), the article's own weighted model.
#include <doctest/doctest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <kildall/lp/glpk.hpp>
#include <kildall/lp/lp_format.hpp>
#include <kildall/noisy/ilp_placement.hpp>
#include <kildall/noisy/place_reduce_noise.hpp>

#include "article_programs.hpp"
#include "noisy_test_support.hpp"

using namespace kildall;
using namespace kildall::noisy;
using noisy_test::add;
using noisy_test::Dag;

namespace {

// The ilp strategy of the one entry point (no time limit unless `options` sets one).
template <class G>
PlacementResult<std::size_t> ilp(const G& g, const NoiseParameters& parameters = {}, PlacementOptions options = {}) {
  options.strategy = PlacementStrategy::ilp;
  if (options.time_limit_seconds == PlacementOptions{}.time_limit_seconds) options.time_limit_seconds = lp::inf;
  return place_reduce_noise(g, parameters, options);
}

// The article's own model for a chain of adds, with its auxiliaries Z weighted
// into the objective (Σ reduce + weight · Σ Z): the pitfall the library avoids.
int article_weighted_inserts(const Dag& g, double weight) {
  lp::Model m;
  const std::size_t n = boost::num_vertices(g);
  std::vector<lp::LinExpr> noise(n);
  lp::LinExpr objective;
  for (std::size_t v = 0; v < n; ++v) {
    const NoisyOp k = g[v].kind;
    if (k == NoisyOp::encode) noise[v] = 12.0;
    if (k != NoisyOp::add) continue;
    const lp::Var out = m.add_continuous(0, 26);
    const lp::Var z = m.add_binary();
    const lp::Var aux = m.add_continuous(0, 100);
    for (const auto o : noisy_test::operands(g, v)) (void)m.add(lp::LinExpr(aux) >= noise[o] + 1.0);
    (void)m.add(lp::LinExpr(aux) <= 26.0);  // the pre-reduction bound
    (void)lp::constrain_if_then_else(m, out, lp::LinExpr(z), 12.0, lp::LinExpr(aux));
    noise[v] = out;
    objective += lp::LinExpr(z) + weight * lp::LinExpr(aux);
  }
  m.minimize(objective);
  const lp::Solution s = lp::solve_glpk(m);
  REQUIRE(s.status == lp::SolveStatus::optimal);
  int inserted = 0;
  for (std::size_t j = 0; j < m.num_vars(); ++j)
    if (m.vars()[j].type == lp::VarType::binary && s.values[j] > 0.5) ++inserted;
  return inserted;
}

}  // namespace

TEST_CASE("the article's branching example gets exactly one reduce_noise, right after the mul") {
  Dag g;
  const auto m = noisy_test::article_branching(g);
  const auto r = ilp(g);
  CHECK(r.status == PlacementStatus::optimal);
  CHECK(r.reduce_after == std::vector<std::size_t>{m});
  CHECK(r.greedy_count == 2);
  CHECK(r.gap == 0.0);
}

TEST_CASE("the chain of 14 adds needs no reduce_noise; the article's weighted objective buys 2") {
  const Dag chain = noisy_test::add_chain(14);
  const auto r = ilp(chain);
  CHECK(r.status == PlacementStatus::optimal);
  CHECK(r.reduce_after.empty());
  // The pitfall, reproduced with the article's own formulation.
  CHECK(article_weighted_inserts(chain, 0.1) == 2);
  // One more add and one reduction becomes necessary: exactly one.
  CHECK(ilp(noisy_test::add_chain(15)).reduce_after.size() == 1);
}

TEST_CASE("the level-2 tie-break reduces as early as possible") {
  // A chain of 16 adds needs one reduction, which several positions provide;
  // level 2 picks the one with the least total noise, as the brute force does.
  const Dag chain = noisy_test::add_chain(16);
  const auto r = ilp(chain);
  const auto best = noisy_test::brute_force(chain);
  REQUIRE(best.count == 1);
  CHECK(r.reduce_after.size() == 1);
  CHECK(noisy_test::evaluate(chain, placement_mask(chain, r.reduce_after)).total == best.total);
}

TEST_CASE("optimal count and tie-break equal the brute force over all placements (random DAGs)") {
  int compared = 0, infeasible = 0, beats_greedy = 0;
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    PlacementOptions options;  // every other program: the bound encoding of max, and a warm start
    if (seed % 2 == 0) {
      options.ilp.max_encoding = MaxEncoding::upper_bound;
      options.ilp.warm_start = true;
    }
    const Dag g = noisy_test::random_program(seed, 4 + seed % 9);
    const auto best = noisy_test::brute_force(g);
    CAPTURE(seed);
    if (best.count < 0) {
      CHECK_THROWS_AS((void)ilp(g), PlacementError);
      ++infeasible;
      continue;
    }
    const auto r = ilp(g, {}, options);
    REQUIRE(r.status == PlacementStatus::optimal);
    const auto e = noisy_test::evaluate(g, placement_mask(g, r.reduce_after));
    CHECK(e.legal);
    CHECK(static_cast<int>(r.reduce_after.size()) == best.count);
    CHECK(e.total == best.total);
    CHECK(r.reduce_after.size() <= r.greedy_count);
    beats_greedy += r.reduce_after.size() < r.greedy_count ? 1 : 0;
    ++compared;
  }
  MESSAGE(compared << " programs compared with brute force, " << infeasible << " infeasible, ILP beats greedy on "
                   << beats_greedy);
  CHECK(compared > 30);
}

TEST_CASE("without the tie-break level only the count is optimal") {
  Dag g;
  (void)noisy_test::article_branching(g);
  PlacementOptions options;
  options.prefer_early = false;
  const auto r = ilp(g, {}, options);
  CHECK(r.reduce_after.size() == 1);
}

TEST_CASE("loops: a join fed back from the loop body") {
  Dag g;
  (void)noisy_test::feedback_loop(g);
  const auto r = ilp(g);
  CHECK(r.status == PlacementStatus::optimal);
  CHECK(r.reduce_after.size() == 1);
  CHECK(verify_noise(g, {}, placement_mask(g, r.reduce_after)).empty());
}

TEST_CASE("an infeasible maximum names the op") {
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  const auto b = add(g, NoisyOp::encode);
  const auto m = add(g, NoisyOp::mul, {a, b});
  NoiseParameters p;
  p.maximum = 20;
  try {
    (void)ilp(g, p);
    FAIL("expected a PlacementError");
  } catch (const PlacementError& e) {
    CHECK(e.vertex_index() == m);
    CHECK(e.reason().find("above the allowable maximum of 20") != std::string::npos);
  }
}

TEST_CASE("a zero time limit falls back to greedy and says why") {
  Dag g;
  (void)noisy_test::article_branching(g);
  PlacementOptions options;
  options.time_limit_seconds = 0.0;
  const auto r = ilp(g, {}, options);
  CHECK(r.status == PlacementStatus::fallback);
  CHECK(r.reduce_after.size() == 2);
  CHECK(r.message.find("time limit") != std::string::npos);
  CHECK(verify_noise(g, {}, placement_mask(g, r.reduce_after)).empty());
}

TEST_CASE("the model: tight bounds, one binary per reducible op, an LP file glpk reads back") {
  Dag g;
  (void)noisy_test::article_branching(g);
  const auto least = check_placement_possible(g, {});
  const auto pm = build_placement_model(g, {}, least);
  CHECK(pm.reducible.size() == 9);  // 1 mul + 4 adds + 4 subs
  for (const auto v : pm.reducible) {
    const lp::Var z = pm.reduce[v];
    REQUIRE(z.valid());
    CHECK(pm.model.type(z) == lp::VarType::binary);
  }
  for (const lp::VarInfo& v : pm.model.vars()) {
    CHECK(v.lower > -lp::inf);
    CHECK(v.upper < 100);  // every big-M comes from bounds within the noise range
  }
  std::stringstream file;
  (void)lp::write_lp(pm.model, file);
  const lp::Model back = lp::read_lp(file, "placement.lp");
  const lp::Solution s = lp::solve_glpk(back);
  REQUIRE(s.status == lp::SolveStatus::optimal);
  CHECK(s.objective == doctest::Approx(1.0));
}

TEST_CASE("placement_point completes the greedy placement into a point the independent check accepts") {
  for (const MaxEncoding encoding : {MaxEncoding::exact, MaxEncoding::upper_bound}) {
    Dag g;
    (void)noisy_test::article_branching(g);
    const auto least = check_placement_possible(g, {});
    PlacementModelOptions options;
    options.max_encoding = encoding;
    const auto pm = build_placement_model(g, {}, least, options);
    const auto greedy = place_reduce_noise_greedy(g);
    const std::vector<double> point = placement_point(pm, g, {}, greedy);
    REQUIRE(point.size() == pm.model.num_vars());
    CHECK(lp::check(pm.model, point).ok);
    CHECK(pm.placement(point) == greedy);
    CHECK(pm.model.evaluate(pm.inserted, point) == doctest::Approx(2.0));
    // An illegal placement has no point.
    CHECK(placement_point(pm, g, {}, std::vector<std::size_t>{}).empty());
  }
}
