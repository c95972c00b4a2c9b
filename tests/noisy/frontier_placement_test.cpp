// frontier_placement (exact lexicographic DP over the program's frontier); oracle: brute force over all placements with the independent evaluator.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include <kildall/noisy/compact_program.hpp>
#include <kildall/noisy/frontier_placement.hpp>

#include "article_programs.hpp"
#include "noisy_test_support.hpp"

using namespace kildall::noisy;
using noisy_test::add;
using noisy_test::Dag;

TEST_CASE("both objective levels equal the brute force on 300 random DAGs (several parameter sets)") {
  int compared = 0, infeasible = 0;
  for (std::uint32_t seed = 1; seed <= 300; ++seed) {
    const Dag g = noisy_test::random_program(seed, 4 + seed % 12, seed % 3 == 0 ? 0.4 : 0.25);
    NoiseParameters p;
    if (seed % 4 == 1) p.maximum = 30;
    if (seed % 4 == 2) p.initial = 10;
    const auto best = noisy_test::brute_force(g, p.initial, p.maximum);
    CAPTURE(seed);
    const auto r = frontier_placement(compact_program(g), p);
    if (best.count < 0) {
      CHECK_FALSE(r.has_value());
      ++infeasible;
      continue;
    }
    REQUIRE(r.has_value());
    const auto e = noisy_test::evaluate(g, r->reduced, p.initial, p.maximum);
    CHECK(e.legal);
    CHECK(static_cast<int>(r->count) == best.count);
    CHECK(r->total_noise == best.total);
    CHECK(e.total == best.total);
    std::size_t set = 0;
    for (const bool b : r->reduced) set += b ? 1 : 0;
    CHECK(set == r->count);
    ++compared;
  }
  MESSAGE(compared << " compared, " << infeasible << " infeasible");
  CHECK(compared > 200);
}

TEST_CASE("the article's branching program: one reduction, right after the mul") {
  Dag g;
  const auto m = noisy_test::article_branching(g);
  const auto r = frontier_placement(compact_program(g), {});
  REQUIRE(r.has_value());
  CHECK(r->count == 1);
  CHECK(r->reduced[m]);
}

TEST_CASE("limits: a cycle, too few states, too wide a frontier, a count bound below the optimum, a past deadline") {
  Dag loop;
  (void)noisy_test::feedback_loop(loop);
  CHECK_FALSE(frontier_placement(compact_program(loop), {}).has_value());
  const Dag g = noisy_test::random_program(5, 14, 0.4);
  const auto best = noisy_test::brute_force(g);
  REQUIRE(best.count > 0);
  FrontierPlacementOptions tight;
  tight.max_states = 1;
  CHECK_FALSE(frontier_placement(compact_program(g), {}, tight).has_value());
  FrontierPlacementOptions narrow;
  narrow.max_width = 0;
  CHECK_FALSE(frontier_placement(compact_program(g), {}, narrow).has_value());
  FrontierPlacementOptions below;
  below.max_reductions = static_cast<std::size_t>(best.count - 1);
  CHECK_FALSE(frontier_placement(compact_program(g), {}, below).has_value());
  FrontierPlacementOptions at;
  at.max_reductions = static_cast<std::size_t>(best.count);
  const auto r = frontier_placement(compact_program(g), {}, at);
  REQUIRE(r.has_value());
  CHECK(r->total_noise == best.total);
  FrontierPlacementOptions late;
  late.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  CHECK_FALSE(frontier_placement(compact_program(g), {}, late).has_value());
}

TEST_CASE("a program whose vertex order is not topological is laid out in the topological order") {
  Dag g;  // vertex 2 (the mul) is read by vertex 1 (an add) created before it
  const auto a = add(g, NoisyOp::encode);
  const auto s = add(g, NoisyOp::add);
  const auto m = add(g, NoisyOp::mul, {a, a});
  boost::add_edge(m, s, g);
  boost::add_edge(a, s, g);
  const auto x = add(g, NoisyOp::mul, {s, a});
  add(g, NoisyOp::decode, {x});
  const auto r = frontier_placement(compact_program(g), {});
  REQUIRE(r.has_value());
  // m = 24, s = 25, x = s + 12 = 37 > 26: one reduction (after s or m); the earliest is least noisy.
  CHECK(r->count == 1);
  CHECK(r->reduced[m]);
}

TEST_CASE("a dot product written products first is laid out depth-first: a narrow frontier, the brute force's optimum") {
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  const auto b = add(g, NoisyOp::encode);
  std::vector<std::size_t> products;
  for (int i = 0; i < 6; ++i) products.push_back(add(g, NoisyOp::mul, {a, b}));  // all live at once in vertex order
  std::size_t acc = products.front();
  for (std::size_t i = 1; i < products.size(); ++i) acc = add(g, NoisyOp::add, {acc, products[i]});
  add(g, NoisyOp::decode, {acc});
  const auto best = noisy_test::brute_force(g);
  REQUIRE(best.count > 0);
  const auto r = frontier_placement(compact_program(g), {});
  REQUIRE(r.has_value());
  CHECK(r->frontier_width <= 3);  // the accumulator, a product, their sum; vertex order holds all 6 products
  CHECK(static_cast<int>(r->count) == best.count);
  CHECK(r->total_noise == best.total);
  CHECK(noisy_test::evaluate(g, r->reduced).legal);
}
