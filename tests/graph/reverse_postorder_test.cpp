#include <kildall/graph/reverse_postorder.hpp>

#include <doctest/doctest.h>

#include <boost/graph/adjacency_list.hpp>

#include <random>

namespace {
using G = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

// In an RPO, every edge u->v with v not an ancestor of u on the DFS tree goes forward.
// Equivalently: for an acyclic graph every edge goes forward.
bool all_edges_forward(const G& g, const std::vector<std::size_t>& order) {
  auto pos = kildall::order_positions(g, order);
  for (auto e : boost::make_iterator_range(edges(g))) {
    auto u = source(e, g), v = target(e, g);
    if (!pos[u] || !pos[v]) continue;
    if (*pos[u] >= *pos[v]) return false;
  }
  return true;
}
}  // namespace

TEST_CASE("RPO of a diamond puts the join last and skips unreachable vertices") {
  G g(5);
  add_edge(0, 1, g);
  add_edge(0, 2, g);
  add_edge(1, 3, g);
  add_edge(2, 3, g);  // vertex 4 is unreachable from 0
  auto order = kildall::reverse_postorder(g, std::size_t{0});
  REQUIRE(order.size() == 4);
  CHECK(order.front() == 0);
  CHECK(order.back() == 3);
  CHECK(all_edges_forward(g, order));
  auto every = kildall::reverse_postorder(g);
  CHECK(every.size() == 5);
}

TEST_CASE("RPO of random DAGs orders every edge forward") {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + rng() % 30;
    G g(n);
    for (std::size_t k = 0; k < 2 * n; ++k) {
      std::size_t a = rng() % n, b = rng() % n;
      if (a < b) add_edge(a, b, g);  // acyclic by construction
    }
    auto order = kildall::reverse_postorder(g);
    CHECK(order.size() == n);
    CHECK(all_edges_forward(g, order));
  }
}

TEST_CASE("RPO handles self-loops and a 1M-vertex chain without recursion") {
  G loop(2);
  add_edge(0, 0, loop);
  add_edge(0, 1, loop);
  add_edge(1, 1, loop);
  CHECK(kildall::reverse_postorder(loop, std::size_t{0}) == std::vector<std::size_t>{0, 1});

  const std::size_t n = 1'000'000;
  G chain(n);
  for (std::size_t i = 0; i + 1 < n; ++i) add_edge(i, i + 1, chain);
  auto order = kildall::reverse_postorder(chain, std::size_t{0});
  REQUIRE(order.size() == n);
  CHECK(order.front() == 0);
  CHECK(order.back() == n - 1);
}
