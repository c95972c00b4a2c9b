#pragma once
/// \file
/// The example programs shared by the placement tests: the article's
/// branching DAG and a loop whose noise grows without bound.

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

/// The ops of `feedback_loop`.
struct FeedbackLoop {
  std::size_t a, j, x, y;  ///< encode, join, mul, add
};

/// a = encode; j = join(a, y); x = mul(j, a); y = add(x, a), with the back
/// edge y -> j: the noise around the loop grows without bound unless x or y
/// is reduced, and one reduce_noise inside the loop is optimal.
inline FeedbackLoop feedback_loop(Dag& g) {
  using kildall::noisy::NoisyOp;
  FeedbackLoop l{};
  l.a = add(g, NoisyOp::encode);
  l.j = add(g, NoisyOp::join, {l.a});
  l.x = add(g, NoisyOp::mul, {l.j, l.a});
  l.y = add(g, NoisyOp::add, {l.x, l.a});
  boost::add_edge(l.y, l.j, g);
  return l;
}

}  // namespace noisy_test
