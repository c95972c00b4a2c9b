// compact_program: the CSR copy of a NoisyProgram; oracle: the Boost.Graph program it copies (operands, users, order).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include <kildall/noisy/compact_program.hpp>

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
