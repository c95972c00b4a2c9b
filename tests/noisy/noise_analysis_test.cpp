#include <doctest/doctest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/solver/trace.hpp>
#include <kildall/solver/verify.hpp>

#include "noisy_test_support.hpp"

using namespace kildall;
using namespace kildall::noisy;
using noisy_test::add;
using noisy_test::Dag;

TEST_CASE("the article's mul chain: 24, 48, 96, 192") {
  Dag g;
  const auto a = add(g, NoisyOp::encode, {add(g, NoisyOp::plain)});
  const auto b = add(g, NoisyOp::encode, {add(g, NoisyOp::plain)});
  auto x = add(g, NoisyOp::mul, {a, b});
  std::vector<std::size_t> chain{x};
  for (int i = 0; i < 3; ++i) chain.push_back(x = add(g, NoisyOp::mul, {x, x}));
  const auto analysis = analyze_noise(g);
  REQUIRE(analysis.converged());
  CHECK(analysis.noise_bound(a) == 12u);
  CHECK(analysis.noise_bound(chain[0]) == 24u);
  CHECK(analysis.noise_bound(chain[1]) == 48u);
  CHECK(analysis.noise_bound(chain[2]) == 96u);
  CHECK(analysis.noise_bound(chain[3]) == 192u);
  CHECK(to_mlir_debug_string(*analysis.noise(chain[3])) == "unsigned : [0, 192] signed : [0, 192]");
}

TEST_CASE("the analysis equals the independent evaluation on random DAGs, with and without placements") {
  for (std::uint32_t seed = 1; seed <= 60; ++seed) {
    const Dag g = noisy_test::random_program(seed, 4 + seed % 12);
    std::vector<bool> reduced(boost::num_vertices(g), false);
    for (std::size_t v = 0; v < reduced.size(); ++v) reduced[v] = (v * 7 + seed) % 5 == 0;
    for (const bool with_placement : {false, true}) {
      NoiseAnalysisOptions options;
      if (with_placement) options.reduce_after = reduced;
      const auto analysis = analyze_noise(g, NoiseParameters{}, options);
      const auto oracle = noisy_test::evaluate(g, with_placement ? reduced : std::vector<bool>{});
      REQUIRE(analysis.converged());
      for (std::size_t v = 0; v < boost::num_vertices(g); ++v) {
        CAPTURE(seed);
        CAPTURE(v);
        CHECK(analysis.noise_bound(v).value_or(0) == oracle.value[v]);
        CHECK(noise_before_reduction(analysis, v)->umax() == oracle.own[v]);
      }
      // The solver's own independent fixpoint check.
      const NoiseProblem<Dag> problem(g, NoiseParameters{}, &analysis.options().reduce_after);
      CHECK(verify_fixpoint(problem, analysis.solver_result()).ok());
    }
  }
}

TEST_CASE("parameters change the model") {
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  const auto s = add(g, NoisyOp::add, {a, a});
  NoiseParameters p;
  p.initial = 5;
  CHECK(analyze_noise(g, p).noise_bound(s) == 6u);
}

TEST_CASE("a join takes the larger incoming noise") {
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  const auto m = add(g, NoisyOp::mul, {a, a});
  const auto j = add(g, NoisyOp::join, {a, m});
  const auto s = add(g, NoisyOp::add, {j, a});
  const auto analysis = analyze_noise(g);
  CHECK(analysis.noise_bound(j) == 24u);
  CHECK(analysis.noise_bound(s) == 25u);
}

TEST_CASE("loops: a reduce in the loop keeps the noise bounded; without one it is widened away") {
  // entry: a = encode; loop: j = join(a, r); x = mul(j, a); r = reduce?(x)
  for (const bool reduce_in_loop : {true, false}) {
    Dag g;
    const auto a = add(g, NoisyOp::encode);
    const auto j = add(g, NoisyOp::join, {a});
    const auto x = add(g, NoisyOp::mul, {j, a});
    std::size_t back = x;
    if (reduce_in_loop) back = add(g, NoisyOp::reduce_noise, {x});
    boost::add_edge(back, j, g);
    const auto analysis = analyze_noise(g);
    REQUIRE(analysis.converged());
    if (reduce_in_loop) {
      CHECK(analysis.noise_bound(j) == 12u);
      CHECK(analysis.noise_bound(x) == 24u);
    } else {
      CHECK(*analysis.noise_bound(x) >= std::uint64_t{1} << 20);  // widened: unbounded growth
    }
  }
}

TEST_CASE("a virtually placed reduction equals a real reduce_noise op") {
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  const auto m = add(g, NoisyOp::mul, {a, a});
  const auto s = add(g, NoisyOp::add, {m, a});
  NoiseAnalysisOptions options;
  options.reduce_after.assign(boost::num_vertices(g), false);
  options.reduce_after[m] = true;
  const auto analysis = analyze_noise(g, NoiseParameters{}, options);
  CHECK(analysis.is_reduced(m));
  CHECK(analysis.noise_bound(m) == 12u);
  CHECK(noise_before_reduction(analysis, m)->umax() == 24u);
  CHECK(analysis.noise_bound(s) == 13u);
}

TEST_CASE("best case: whenever_helpful reduces exactly the ops above the initial noise") {
  Dag g;
  const auto a = add(g, NoisyOp::input);
  const auto s = add(g, NoisyOp::add, {a, a});
  const auto m = add(g, NoisyOp::mul, {s, s});
  NoiseParameters p;
  p.input = 3;
  NoiseAnalysisOptions options;
  options.reductions = Reductions::whenever_helpful;
  const auto analysis = analyze_noise(g, p, options);
  CHECK(analysis.noise_bound(s) == 4u);   // 4 < 12: no reduction helps
  CHECK(analysis.noise_bound(m) == 8u);
}

TEST_CASE("an observer sees every visit in the article's trace shape") {
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  add(g, NoisyOp::mul, {a, a});
  std::ostringstream out;
  auto trace = make_trace(out, [](std::size_t v) { return "%" + std::to_string(v); },
                          [](const Interval& x) { return to_mlir_debug_string(x); });
  (void)analyze_noise(g, NoiseParameters{}, NoiseAnalysisOptions{}, trace);
  CHECK(out.str() ==
        "Inferring ranges for %0\nInferred range unsigned : [0, 12] signed : [0, 12]\n"
        "Inferring ranges for %1\nInferred range unsigned : [0, 24] signed : [0, 24]\n");
}
