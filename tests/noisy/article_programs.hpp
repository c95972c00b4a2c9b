#pragma once
/// \file
/// The article's example programs as test DAGs (shared by the placement tests).

#include <cstddef>

#include "noisy_test_support.hpp"

namespace noisy_test {

/// The article's test_single_insertion_branching as a DAG: two encodes, their
/// mul, then two chains of four adds / subs over it, each decoded. Returns the
/// mul, after which the single optimal reduce_noise goes (greedy needs two).
inline std::size_t article_branching(Dag& g) {
  using kildall::noisy::NoisyOp;
  const auto c0 = add(g, NoisyOp::encode);
  const auto c1 = add(g, NoisyOp::encode);
  const auto m = add(g, NoisyOp::mul, {c0, c1});
  std::size_t b = m, c = m;
  for (int i = 0; i < 4; ++i) {
    b = add(g, NoisyOp::add, {b, c1});
    c = add(g, NoisyOp::sub, {c, i == 0 ? c0 : c1});
  }
  add(g, NoisyOp::decode, {b});
  add(g, NoisyOp::decode, {c});
  return m;
}

}  // namespace noisy_test
