#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include <kildall/noisy/greedy.hpp>

#include "article_programs.hpp"
#include "noisy_test_support.hpp"

using namespace kildall::noisy;
using noisy_test::add;
using noisy_test::Dag;

TEST_CASE("greedy on the article's branching example reduces each branch: 2 where 1 suffices") {
  Dag g;
  (void)noisy_test::article_branching(g);
  const auto placement = place_reduce_noise_greedy(g);
  CHECK(placement.size() == 2);
  CHECK(noisy_test::brute_force(g).count == 1);
  CHECK(noisy_test::evaluate(g, placement_mask(g, placement)).legal);
}

TEST_CASE("greedy inserts nothing into a legal program (the chain of 14 adds)") {
  CHECK(place_reduce_noise_greedy(noisy_test::add_chain(14)).empty());
  CHECK(place_reduce_noise_greedy(noisy_test::add_chain(15)).size() == 1);
}

TEST_CASE("greedy is always legal and never below the brute-force optimum (random DAGs)") {
  int strictly_worse = 0;
  for (std::uint32_t seed = 1; seed <= 120; ++seed) {
    const Dag g = noisy_test::random_program(seed, 3 + seed % 12);
    const auto best = noisy_test::brute_force(g);
    CAPTURE(seed);
    if (best.count < 0) {
      CHECK_THROWS_AS((void)place_reduce_noise_greedy(g), PlacementError);
      continue;
    }
    const auto placement = place_reduce_noise_greedy(g);
    const auto mask = placement_mask(g, placement);
    CHECK(noisy_test::evaluate(g, mask).legal);
    CHECK(static_cast<int>(placement.size()) >= best.count);
    for (const auto v : placement) CHECK(is_reducible(g[v].kind));
    strictly_worse += static_cast<int>(placement.size()) > best.count ? 1 : 0;
  }
  MESSAGE("greedy above the optimum on " << strictly_worse << " of 120 programs");
}

TEST_CASE("greedy reduces through a block argument and handles a loop") {
  // Two branches at 24 and 25 join; the join feeds an add at 26 and a second add.
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  const auto m = add(g, NoisyOp::mul, {a, a});
  const auto s = add(g, NoisyOp::add, {m, a});
  const auto j = add(g, NoisyOp::join, {m, s});
  const auto t = add(g, NoisyOp::add, {j, a});
  const auto u = add(g, NoisyOp::add, {t, a});
  (void)u;
  const auto placement = place_reduce_noise_greedy(g);
  CHECK(noisy_test::evaluate(g, placement_mask(g, placement)).legal);

  // A loop: j = join(a, back); x = mul(j, a); back = x. Illegal without a reduction in the loop.
  Dag loop;
  const auto la = add(loop, NoisyOp::encode);
  const auto lj = add(loop, NoisyOp::join, {la});
  const auto lx = add(loop, NoisyOp::mul, {lj, la});
  boost::add_edge(lx, lj, loop);
  const auto loop_placement = place_reduce_noise_greedy(loop);
  CHECK(loop_placement == std::vector<std::size_t>{lx});
  CHECK(verify_noise(loop, {}, placement_mask(loop, loop_placement)).empty());
}

TEST_CASE("greedy names the op when no placement helps") {
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  const auto m = add(g, NoisyOp::mul, {a, a});
  NoiseParameters p;
  p.maximum = 23;
  try {
    (void)place_reduce_noise_greedy(g, p);
    FAIL("expected a PlacementError");
  } catch (const PlacementError& e) {
    CHECK(e.vertex_index() == m);
  }
}
