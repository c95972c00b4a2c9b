// The lazy strategy (cover-cut loop, hitting-set master, GLPK parts); oracles: brute force / exhaustive search over placements with the independent evaluator, the article's model solved by GLPK.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <kildall/noisy/lazy_placement.hpp>
#include <kildall/noisy/place_reduce_noise.hpp>

#include "article_programs.hpp"
#include "noisy_test_support.hpp"
#include "workloads.hpp"  // benchmarks/noisy_scale: the random DAGs and kernels

using namespace kildall::noisy;
using noisy_test::add;
using noisy_test::Dag;

namespace {

// The lazy cover-cut loop through the one entry point (the program's frontier
// DP, tried first by default, off: these tests are about the cuts and the master).
template <class G>
PlacementResult<kildall::vertex_t<G>> lazy(const G& g, const NoiseParameters& parameters = {}, PlacementOptions options = {}) {
  options.strategy = PlacementStrategy::lazy;
  options.lazy.program_frontier_states = 0;
  return place_reduce_noise(g, parameters, options);
}

// The article's model solved by GLPK (level 1 only), within 20 s.
template <class G>
PlacementResult<kildall::vertex_t<G>> article_model(const G& g) {
  PlacementOptions options;
  options.strategy = PlacementStrategy::ilp;
  options.prefer_early = false;
  options.time_limit_seconds = 20.0;
  return place_reduce_noise(g, {}, options);
}

// Checks what every result promises: legal (independent oracle), never worse
// than greedy, a consistent bound and gap, and "optimal" only with bound == count.
template <class G, class V>
void check_result(const G& g, const PlacementResult<V>& r, const std::vector<bool>& mask, bool legal) {
  CHECK(legal);
  CHECK(r.reduce_after.size() <= r.greedy_count);
  CHECK(r.best_bound <= static_cast<double>(r.reduce_after.size()) + 1e-9);
  if (r.status == PlacementStatus::optimal) {
    CHECK(r.best_bound == doctest::Approx(static_cast<double>(r.reduce_after.size())));
    CHECK(r.gap == 0.0);
  }
  if (!r.reduce_after.empty()) {
    CHECK(r.gap == doctest::Approx((static_cast<double>(r.reduce_after.size()) - r.best_bound) /
                                   static_cast<double>(r.reduce_after.size())));
  }
  (void)g;
  (void)mask;
}

// The fewest reductions of a legal placement, by exhaustive search over all
// placements of 0, 1, 2, ... ops (independent oracle `evaluate`), up to
// `upto` (a count known legal, e.g. greedy's, checked by the oracle too).
int fewest_by_enumeration(const Dag& g, std::size_t upto) {
  const auto red = noisy_test::reducible_vertices(g);
  std::vector<bool> reduced(boost::num_vertices(g), false);
  for (std::size_t k = 0; k <= std::min(upto, red.size()); ++k) {
    std::vector<std::size_t> pick(k);
    for (std::size_t i = 0; i < k; ++i) pick[i] = i;
    while (true) {
      std::fill(reduced.begin(), reduced.end(), false);
      for (const std::size_t i : pick) reduced[red[i]] = true;
      if (noisy_test::evaluate(g, reduced).legal) return static_cast<int>(k);
      // next combination
      std::size_t i = k;
      while (i > 0 && pick[i - 1] == red.size() - k + i - 1) --i;
      if (i == 0) break;
      ++pick[i - 1];
      for (std::size_t j = i; j < k; ++j) pick[j] = pick[j - 1] + 1;
    }
  }
  return -1;
}

// The generator's program as a test Dag (same vertices and operands).
Dag as_dag(const noisy_scale::Program& g) {
  Dag copy;
  for (std::size_t v = 0; v < boost::num_vertices(g); ++v) {
    std::vector<std::size_t> ops;
    for (auto [it, end] = boost::in_edges(v, g); it != end; ++it) ops.push_back(boost::source(*it, g));
    (void)add(copy, g[v].kind, ops);
  }
  return copy;
}

}  // namespace

TEST_CASE("the article's branching example: one reduce_noise, proven optimal") {
  Dag g;
  const auto m = noisy_test::article_branching(g);
  const auto r = lazy(g);
  CHECK(r.status == PlacementStatus::optimal);
  CHECK(r.reduce_after == std::vector<Dag::vertex_descriptor>{m});
  CHECK(r.greedy_count == 2);
}

TEST_CASE("the optimum equals the brute force over all placements (hundreds of random DAGs)") {
  int improved = 0, checked = 0;
  for (std::uint32_t seed = 1; seed <= 250; ++seed) {
    const Dag g = noisy_test::random_program(seed, 3 + seed % 11, seed % 3 == 0 ? 0.45 : 0.25);
    CAPTURE(seed);
    const auto best = noisy_test::brute_force(g);
    if (best.count < 0) {
      CHECK_THROWS_AS((void)lazy(g), PlacementError);
      continue;
    }
    const auto r = lazy(g);
    const auto mask = placement_mask(g, r.reduce_after);
    check_result(g, r, mask, noisy_test::evaluate(g, mask).legal);
    CHECK(r.status == PlacementStatus::optimal);
    CHECK(static_cast<int>(r.reduce_after.size()) == best.count);
    improved += static_cast<int>(r.reduce_after.size()) < static_cast<int>(r.greedy_count) ? 1 : 0;
    ++checked;
  }
  MESSAGE(checked << " programs at the brute-force optimum; below greedy on " << improved);
  CHECK(checked > 150);
}

TEST_CASE("a start placement: legal ones (an optimum, any legal one) leave the result at the brute-force optimum, illegal ones are ignored") {
  int checked = 0;
  for (std::uint32_t seed = 1; seed <= 120; ++seed) {
    const Dag g = noisy_test::random_program(seed, 3 + seed % 9, seed % 3 == 0 ? 0.45 : 0.25);
    CAPTURE(seed);
    const auto best = noisy_test::brute_force(g);
    if (best.count < 0) continue;
    const auto legal = noisy_test::legal_placements(g);
    REQUIRE(!legal.empty());
    std::vector<bool> optimum;
    for (const auto& m : legal)
      if (static_cast<int>(std::count(m.begin(), m.end(), true)) == best.count) optimum = m;
    PlacementOptions o;
    o.lazy.program_frontier_states = 0;
    for (const std::vector<bool>& start : {optimum, legal[seed % legal.size()], legal.front(),
                                           std::vector<bool>(boost::num_vertices(g), false)}) {
      const auto r = detail::lazy_placement(g, {}, o, nullptr, start);
      const auto mask = placement_mask(g, r.reduce_after);
      check_result(g, r, mask, noisy_test::evaluate(g, mask).legal);
      CHECK(r.status == PlacementStatus::optimal);
      CHECK(static_cast<int>(r.reduce_after.size()) == best.count);
    }
    ++checked;
  }
  CHECK(checked > 80);
}

TEST_CASE("a start's cuts (LazyTuning::start_cuts): each is hit by every legal placement, the optimum stays the brute force's, and an optimal start needs fewer rounds") {
  std::size_t rounds_with = 0, rounds_without = 0;
  int checked = 0;
  for (std::uint32_t seed = 1; seed <= 120; ++seed) {
    const Dag g = noisy_test::random_program(seed, 4 + seed % 9, seed % 3 == 0 ? 0.45 : 0.25);
    CAPTURE(seed);
    const auto best = noisy_test::brute_force(g);
    if (best.count <= 0) continue;
    const auto legal = noisy_test::legal_placements(g);
    std::vector<bool> optimum;
    for (const auto& m : legal)
      if (static_cast<int>(std::count(m.begin(), m.end(), true)) == best.count) optimum = m;
    for (const bool start_cuts : {true, false}) {
      PlacementOptions o;
      o.lazy.program_frontier_states = 0;
      o.lazy.start_cuts = start_cuts;
      std::vector<std::vector<std::uint32_t>> cuts;
      const auto r = detail::lazy_placement(g, {}, o, &cuts, optimum);
      CHECK(r.status == PlacementStatus::optimal);
      CHECK(static_cast<int>(r.reduce_after.size()) == best.count);
      for (const auto& cut : cuts)
        for (const auto& m : legal) CHECK(std::any_of(cut.begin(), cut.end(), [&](std::uint32_t v) { return m[v]; }));
      (start_cuts ? rounds_with : rounds_without) += r.statistics.rounds;
    }
    ++checked;
  }
  MESSAGE(checked << " programs: " << rounds_with << " rounds with the start's cuts, " << rounds_without << " without");
  CHECK(checked > 60);
  CHECK(rounds_with < rounds_without);
}

TEST_CASE("the issue's random DAGs (8..18 ops): the optimum of an exhaustive search") {
  for (std::uint32_t seed = 1; seed <= 120; ++seed) {
    const auto g = noisy_scale::random_dag(8 + seed % 11, seed);
    CAPTURE(seed);
    const Dag copy = as_dag(g);
    const auto r = lazy(g);
    const auto mask = placement_mask(copy, std::vector<std::size_t>(r.reduce_after.begin(), r.reduce_after.end()));
    check_result(g, r, mask, noisy_test::evaluate(copy, mask).legal);
    CHECK(r.status == PlacementStatus::optimal);
    CHECK(fewest_by_enumeration(copy, r.greedy_count) == static_cast<int>(r.reduce_after.size()));
  }
}

TEST_CASE("mid-size programs: the same count as the article's formulation solved to optimality (GLPK)") {
  int compared = 0;
  for (std::uint32_t seed = 1; seed <= 3; ++seed) {
    const auto g = noisy_scale::random_dag(30, seed);
    CAPTURE(seed);
    const auto exact = article_model(g);
    const auto r = lazy(g);
    CHECK(verify_noise(g, {}, placement_mask(g, r.reduce_after)).empty());
    CHECK(r.status == PlacementStatus::optimal);
    if (exact.status != PlacementStatus::optimal) continue;
    ++compared;
    CHECK(r.reduce_after.size() == exact.reduce_after.size());
  }
  CHECK(compared >= 2);
  for (std::uint32_t seed = 1; seed <= 2; ++seed) {
    const Dag g = noisy_test::random_program(seed, 36);
    const auto exact = article_model(g);
    const auto r = lazy(g);
    CHECK(r.status == PlacementStatus::optimal);
    if (exact.status == PlacementStatus::optimal) CHECK(r.reduce_after.size() == exact.reduce_after.size());
  }
}

TEST_CASE("stopped early (time limit 0, one round): legal, at most greedy, a valid bound, never claimed optimal wrongly") {
  int not_proven = 0;
  for (std::uint32_t seed = 1; seed <= 120; ++seed) {
    const Dag g = noisy_test::random_program(seed, 8 + seed % 6, 0.4);
    const auto best = noisy_test::brute_force(g);
    if (best.count < 0) continue;
    CAPTURE(seed);
    for (const std::size_t rounds : {std::size_t{0}, std::size_t{1}, std::size_t{2}}) {
      PlacementOptions options;
      options.lazy.max_rounds = rounds;
      if (rounds == 0) options.time_limit_seconds = 0.0;
      const auto r = lazy(g, {}, options);
      const auto mask = placement_mask(g, r.reduce_after);
      check_result(g, r, mask, noisy_test::evaluate(g, mask).legal);
      CHECK(r.best_bound <= best.count + 1e-9);  // the bound is a bound
      if (r.status == PlacementStatus::optimal) CHECK(static_cast<int>(r.reduce_after.size()) == best.count);
      else ++not_proven;
    }
  }
  CHECK(not_proven > 0);  // the early stops are exercised
}

TEST_CASE("the windows phase (no time in the cut loop; the search side by side or after the bound): legal, at most greedy, a bound (and the LP's, the Lagrangian's) at most the brute-force optimum") {
  int proven = 0, compared = 0, lagrangian = 0;
  for (std::uint32_t seed = 1; seed <= 80; ++seed) {
    const Dag g = seed % 2 == 0 ? noisy_test::random_program(seed, 8 + seed % 7, 0.4)
                                : as_dag(noisy_scale::random_dag(10 + seed % 7, seed, 4 + seed % 5));
    const auto best = noisy_test::brute_force(g);
    if (best.count < 0) continue;
    CAPTURE(seed);
    PlacementOptions options;
    options.time_limit_seconds = 5.0;
    options.lazy.cut_loop_share = 0.0;  // straight to the windows
    options.lazy.window_ops = 2 + seed % 4;
    options.lazy.neighbourhood_ops = 1 + seed % 3;
    options.lazy.lagrangian_block_ops = 1 + seed % 5;  // several blocks, some sets across them
    options.lazy.threads = 1 + seed / 2 % 2;
    const auto r = lazy(g, {}, options);
    const auto mask = placement_mask(g, r.reduce_after);
    check_result(g, r, mask, noisy_test::evaluate(g, mask).legal);
    CHECK(r.best_bound <= best.count + 1e-9);
    CHECK(r.statistics.lp_bound <= best.count + 1e-9);
    CHECK(r.statistics.lagrangian_bound <= best.count + 1e-9);
    lagrangian += r.statistics.lagrangian_bound > 0.0 ? 1 : 0;
    CHECK(static_cast<int>(r.reduce_after.size()) >= best.count);
    if (r.status == PlacementStatus::optimal) {
      CHECK(static_cast<int>(r.reduce_after.size()) == best.count);
      ++proven;
    }
    ++compared;
  }
  MESSAGE(compared << " programs through the windows phase; " << proven << " proven there; " << lagrangian << " with a Lagrangian bound");
  CHECK(compared > 50);
  CHECK(lagrangian > 0);
  CHECK(proven > 0);
}

TEST_CASE("the windows phase on the issue's wide programs (1,000 ops, w32): legal, a certified bound, better than greedy") {
  const auto g = noisy_scale::random_dag(1'000, 1, 32);
  PlacementOptions options;
  options.time_limit_seconds = 6.0;
  const auto r = lazy(g, {}, options);
  CHECK(verify_noise(g, {}, placement_mask(g, r.reduce_after)).empty());
  CHECK(r.reduce_after.size() < r.greedy_count);
  CHECK(r.best_bound <= static_cast<double>(r.reduce_after.size()));
  CHECK(r.best_bound >= r.statistics.window_bound);
  CHECK(r.best_bound >= r.statistics.cut_bound);
  CHECK(r.best_bound >= r.statistics.lagrangian_bound);
  CHECK(r.best_bound >= r.statistics.lp_bound);
  MESSAGE("inserted " << r.reduce_after.size() << " (greedy " << r.greedy_count << "), bound " << r.best_bound << " (cuts "
                      << r.statistics.cut_bound << ", windows " << r.statistics.window_bound << "), " << r.message);
}

TEST_CASE("the structured kernels (small): legal, proven optimal, never worse than greedy") {
  for (const auto& w : noisy_scale::structured_workloads(300)) {
    CAPTURE(w.name);
    const auto g = w.make();
    PlacementOptions options;
    options.time_limit_seconds = 20.0;
    const auto r = lazy(g, {}, options);
    CHECK(verify_noise(g, {}, placement_mask(g, r.reduce_after)).empty());
    CHECK(r.reduce_after.size() <= r.greedy_count);
    CHECK(r.status == PlacementStatus::optimal);
    if (w.name == "dot_product_branchy" || w.name == "box_blur_branchy" || w.name == "matrix_matrix") {
      options.lazy.master.frontier_states = 0;  // the same optimum from GLPK alone (wide frontiers: 128/256-bit DP states)
      options.lazy.master.enumerate_up_to = 0;
      const auto q = lazy(g, {}, options);
      CHECK(q.status == PlacementStatus::optimal);
      CHECK(q.reduce_after.size() == r.reduce_after.size());
      CHECK(q.statistics.dp_solves == 0);
    }
  }
}

TEST_CASE("every master solver and switch gives the same optimum (enumeration, frontier DP, GLPK; parts or not)") {
  for (std::uint32_t seed = 1; seed <= 16; ++seed) {
    const auto g = noisy_scale::random_dag(60 + 10 * (seed % 4), seed);
    CAPTURE(seed);
    const auto r = lazy(g);
    PlacementOptions glpk_only;  // one GLPK model, no local search, one cut per violation
    glpk_only.lazy.master.decompose = false;
    glpk_only.lazy.local_search = false;
    glpk_only.lazy.master.enumerate_up_to = 0;
    glpk_only.lazy.master.frontier_states = 0;
    glpk_only.lazy.two_cuts_per_violation = false;
    PlacementOptions dp_only;  // parts by the frontier DP only
    dp_only.lazy.master.enumerate_up_to = 0;
    PlacementOptions parts_glpk;  // parts by GLPK only
    parts_glpk.lazy.master.frontier_states = 0;
    parts_glpk.lazy.master.enumerate_up_to = 0;
    CHECK(r.status == PlacementStatus::optimal);
    for (const auto& options : {glpk_only, dp_only, parts_glpk}) {
      const auto q = lazy(g, {}, options);
      CHECK(q.status == PlacementStatus::optimal);
      CHECK(r.reduce_after.size() == q.reduce_after.size());
      CHECK(verify_noise(g, {}, placement_mask(g, q.reduce_after)).empty());
    }
    const auto glpk_run = lazy(g, {}, glpk_only);
    const auto dp_run = lazy(g, {}, dp_only);
    CHECK(glpk_run.statistics.dp_solves == 0);
    CHECK(dp_run.statistics.mip_solves + dp_run.statistics.dp_solves > 0);
  }
}

TEST_CASE("loops: a join fed back from the loop body is placed legally and optimally") {
  Dag g;  // must reduce inside the loop
  add(g, NoisyOp::decode, {noisy_test::feedback_loop(g).y});
  const auto r = lazy(g);
  CHECK(verify_noise(g, {}, placement_mask(g, r.reduce_after)).empty());
  CHECK(r.reduce_after.size() == 1);
  CHECK(r.status == PlacementStatus::optimal);
}

TEST_CASE("no placement can help: PlacementError names the op") {
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  const auto m = add(g, NoisyOp::mul, {a, a});
  NoiseParameters p;
  p.maximum = 20;
  try {
    (void)lazy(g, p);
    FAIL("expected a PlacementError");
  } catch (const PlacementError& e) {
    CHECK(e.vertex_index() == m);
  }
}

TEST_CASE("progress is reported every round, with a bound that never decreases") {
  const auto g = noisy_scale::random_dag(200, 3);
  std::vector<PlacementProgress> reports;
  PlacementOptions options;
  options.progress = [&](const PlacementProgress& p) { reports.push_back(p); };
  const auto r = lazy(g, {}, options);
  REQUIRE(!reports.empty());
  for (std::size_t k = 1; k < reports.size(); ++k) {
    CHECK(reports[k].bound >= reports[k - 1].bound);
    CHECK(reports[k].incumbent <= reports[k - 1].incumbent);
  }
  CHECK(r.statistics.rounds >= reports.size());
  CHECK(r.statistics.cuts == reports.back().cuts);
  CHECK(r.status == PlacementStatus::optimal);
}
