// compact_program: the CSR copy of a NoisyProgram (itself a NoisyProgram); oracles: the Boost.Graph program it copies (operands, users, order), the independent evaluator.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include <kildall/noisy/compact_program.hpp>
#include <kildall/noisy/noise_analysis.hpp>

#include "noisy_test_support.hpp"

using namespace kildall::noisy;
using noisy_test::add;
using noisy_test::Dag;

TEST_CASE("compact_program copies operands, users and a topological order; loops have none") {
  const Dag g = noisy_test::random_program(7, 30);
  const CompactNoisyProgram p = compact_program(g);
  REQUIRE(p.size() == boost::num_vertices(g));
  REQUIRE(p.acyclic());
  for (std::uint32_t v = 0; v < p.size(); ++v) {
    const auto expected = noisy_test::operands(g, v);
    CHECK(std::vector<std::size_t>(p.operands(v).begin(), p.operands(v).end()) == expected);
    for (const auto o : p.operands(v)) {
      CHECK(p.position[o] < p.position[v]);
      const auto users = p.users(o);
      CHECK(std::find(users.begin(), users.end(), v) != users.end());
    }
  }
  Dag loop;
  const auto a = add(loop, NoisyOp::encode);
  const auto j = add(loop, NoisyOp::join, {a});
  const auto x = add(loop, NoisyOp::mul, {j, a});
  boost::add_edge(x, j, loop);
  CHECK_FALSE(compact_program(loop).acyclic());
}

TEST_CASE("a CompactNoisyProgram is a NoisyProgram: the noise analysis over it equals the independent evaluator") {
  static_assert(NoisyProgram<CompactNoisyProgram>);
  for (std::uint32_t seed = 1; seed <= 30; ++seed) {
    const Dag g = noisy_test::random_program(seed, 20);
    const CompactNoisyProgram p = compact_program(g);
    std::vector<bool> reduced(p.size(), false);
    for (std::uint32_t v = 0; v < p.size(); ++v) reduced[v] = (v * 7 + seed) % 3 == 0;
    NoiseAnalysisOptions options;
    options.reduce_after = reduced;
    const auto analysis = analyze_noise(p, NoiseParameters{}, std::move(options));
    const auto expected = noisy_test::evaluate(g, reduced);
    for (std::uint32_t v = 0; v < p.size(); ++v) {
      CAPTURE(v);
      if (!depends_on_operands(p.kind[v]) && p.kind[v] != NoisyOp::encode) continue;
      CHECK(analysis.noise_bound(v).value_or(0) == expected.value[v]);
    }
    const CompactNoisyProgram q = make_compact_program(p.kind, [&] {
      std::vector<std::vector<std::uint32_t>> ops(p.size());
      for (std::uint32_t v = 0; v < p.size(); ++v) ops[v].assign(p.operands(v).begin(), p.operands(v).end());
      return ops;
    }());
    CHECK(q.operand == p.operand);
    CHECK(q.user == p.user);
    CHECK(q.topological == p.topological);
  }
}
