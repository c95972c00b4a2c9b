#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include <kildall/noisy/rewrite.hpp>
#include <kildall/noisy/verify.hpp>

#include "noisy_test_support.hpp"

using namespace kildall::noisy;
using noisy_test::add;
using noisy_test::Dag;

namespace {

// A ReduceNoiseEditor over the test DAG: new reduce vertices are appended
// (vertex order is then no longer topological, which the analysis does not need).
struct DagEditor {
  using value_type = std::size_t;
  Dag* g;
  std::size_t insert_reduce_noise_after(std::size_t v) { return add(*g, NoisyOp::reduce_noise, {v}); }
  void redirect_uses(std::size_t v, std::size_t r) {
    std::vector<std::size_t> users;
    for (auto [it, end] = boost::out_edges(v, *g); it != end; ++it)
      if (boost::target(*it, *g) != r) users.push_back(boost::target(*it, *g));
    for (const std::size_t u : users) {
      // Keep operand order: rebuild u's in-edges with v replaced by r.
      const auto ops = noisy_test::operands(*g, u);
      boost::clear_in_edges(u, *g);
      for (const std::size_t o : ops) boost::add_edge(o == v ? r : o, u, *g);
    }
  }
};

}  // namespace

TEST_CASE("the rewrite inserts reduce_noise after each placed op and redirects every other use") {
  static_assert(ReduceNoiseEditor<DagEditor>);
  Dag g;
  const auto a = add(g, NoisyOp::encode);
  const auto m = add(g, NoisyOp::mul, {a, a});
  const auto s = add(g, NoisyOp::add, {m, a});
  const auto t = add(g, NoisyOp::add, {a, m});
  DagEditor editor{&g};
  const auto reduced = insert_reduce_noise(editor, std::vector<std::size_t>{m});
  REQUIRE(reduced.size() == 1);
  const auto r = reduced[0];
  CHECK(g[r].kind == NoisyOp::reduce_noise);
  CHECK(noisy_test::operands(g, r) == std::vector<std::size_t>{m});
  CHECK(noisy_test::operands(g, s) == std::vector<std::size_t>{r, a});
  CHECK(noisy_test::operands(g, t) == std::vector<std::size_t>{a, r});
  // The rewritten program has the noise the virtual placement predicted.
  const auto analysis = analyze_noise(g);
  CHECK(analysis.noise_bound(m) == 24u);
  CHECK(analysis.noise_bound(r) == 12u);
  CHECK(analysis.noise_bound(s) == 13u);
  CHECK(analysis.noise_bound(t) == 13u);
}
