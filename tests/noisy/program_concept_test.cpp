#include <doctest/doctest.h>

#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include <kildall/noisy/program_concept.hpp>

#include "noisy_test_support.hpp"

using namespace kildall::noisy;

namespace plain_graphs {
// A graph whose vertices expose no kind.
using Unlabelled = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
}  // namespace plain_graphs

TEST_CASE("a Boost.Graph DAG with an ADL noisy_op is a NoisyProgram; without one it is not") {
  static_assert(NoisyProgram<noisy_test::Dag>);
  static_assert(!NoisyProgram<plain_graphs::Unlabelled>);
  static_assert(!NoisyProgram<int>);
  CHECK(true);
}

TEST_CASE("operands come in operand order, the kind through ADL") {
  noisy_test::Dag g;
  const auto a = noisy_test::add(g, NoisyOp::encode);
  const auto b = noisy_test::add(g, NoisyOp::input);
  const auto m = noisy_test::add(g, NoisyOp::mul, {b, a, b});
  CHECK(operands_of(g, m) == std::vector<std::size_t>{b, a, b});
  CHECK(kind_of(g, m) == NoisyOp::mul);
  CHECK(kind_of(g, b) == NoisyOp::input);
  CHECK(operands_of(g, a).empty());
}
