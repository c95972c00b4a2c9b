// Tests detail::make_iteration_plan; oracles: the public WeakTopologicalOrder (tested against Bourdoncle's own examples in wto_test) and reachability.
#include <kildall/solver/detail/iteration_plan.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "random_graphs.hpp"

namespace {

using solver_test::Graph;
using kildall::detail::no_position;

/// Every vertex, last first (the sparse solver's roots).
std::vector<std::size_t> all_reversed(const Graph& g) {
  std::vector<std::size_t> roots;
  for (std::size_t v = num_vertices(g); v > 0; --v) roots.push_back(v - 1);
  return roots;
}

/// The plan laid out from the weak topological order equals the public order's own layout.
void check_wto_plan(const Graph& g, const std::vector<std::size_t>& roots) {
  const auto plan = kildall::detail::make_iteration_plan(g, roots, kildall::IterationOrder::weak_topological_order);
  const auto wto = kildall::weak_topological_order(g, roots);
  REQUIRE(plan.order.size() == wto.size());
  std::vector<kildall::detail::PlanComponent> components;
  for (std::size_t p = 0; p < wto.size(); ++p) {
    CHECK(plan.order[p] == wto.order()[p]);
    CHECK(plan.widening_point[p] == wto.is_head_at(p));
    if (wto.is_head_at(p)) {
      components.push_back({static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(wto.component_end(p))});
    }
  }
  REQUIRE(plan.components.size() == components.size());
  for (std::size_t i = 0; i < components.size(); ++i) {
    CHECK(plan.components[i].head == components[i].head);
    CHECK(plan.components[i].end == components[i].end);
  }
  // Each head's component by position: the entry of that head, none elsewhere.
  CHECK(plan.head_component.size() == (components.empty() ? 0 : wto.size()));
  for (std::size_t p = 0; p < plan.head_component.size(); ++p) {
    const std::uint32_t c = plan.head_component[p];
    if (wto.is_head_at(p)) {
      REQUIRE(c < plan.components.size());
      CHECK(plan.components[c].head == p);
    } else {
      CHECK(c == no_position);
    }
  }
  REQUIRE(plan.position.size() == num_vertices(g));
  for (std::size_t v = 0; v < num_vertices(g); ++v) {
    const auto p = wto.position(g, v);
    CHECK(plan.position[v] == (p ? static_cast<std::uint32_t>(*p) : no_position));
  }
}

}  // namespace

TEST_CASE("the weak-topological-order plan is the public order's layout, on random graphs") {
  std::mt19937 rng(16);
  for (int round = 0; round < 300; ++round) {
    const std::size_t n = 1 + rng() % 40;
    const Graph g = solver_test::random_graph(rng, n, rng() % (2 * n + 1));
    check_wto_plan(g, std::vector<std::size_t>{0});
    check_wto_plan(g, all_reversed(g));
  }
}

TEST_CASE("nested loops: two components, sorted by head, the inner one inside the outer") {
  // 0 -> 1 -> 2 -> 3 -> 2 (inner), 3 -> 1 (outer), 3 -> 4
  Graph g(5);
  for (auto [a, b] : {std::pair{0, 1}, {1, 2}, {2, 3}, {3, 2}, {3, 1}, {3, 4}}) add_edge(a, b, g);
  const std::vector<std::size_t> roots{0};
  const auto plan = kildall::detail::make_iteration_plan(g, roots, kildall::IterationOrder::weak_topological_order);
  REQUIRE(plan.components.size() == 2);
  const auto& outer = plan.components[0];
  const auto& inner = plan.components[1];
  CHECK(plan.order[outer.head] == 1);
  CHECK(plan.order[inner.head] == 2);
  CHECK(outer.head < inner.head);
  CHECK(inner.end <= outer.end);
  CHECK(plan.order[outer.end] == 4);  // the exit follows the outer component
}

TEST_CASE("the reverse-post-order plan: reachable vertices only, widening at the targets of back edges") {
  std::mt19937 rng(61);
  for (int round = 0; round < 300; ++round) {
    const std::size_t n = 1 + rng() % 40;
    const Graph g = solver_test::random_graph(rng, n, rng() % (2 * n + 1));
    const std::vector<std::size_t> roots{0};
    const auto plan = kildall::detail::make_iteration_plan(g, roots, kildall::IterationOrder::reverse_postorder);
    const std::vector<bool> reachable = solver_test::reachable_from(g, 0);
    for (std::size_t v = 0; v < n; ++v) {
      CHECK((plan.position[v] != no_position) == reachable[v]);
      if (plan.position[v] != no_position) CHECK(plan.order[plan.position[v]] == v);
    }
    CHECK(plan.components.empty());
    // Every edge that does not go forward in the order ends at a widening point (cycles are cut).
    for (auto [it, end] = edges(g); it != end; ++it) {
      const std::size_t a = source(*it, g), b = target(*it, g);
      if (plan.position[a] == no_position) continue;
      if (plan.position[b] <= plan.position[a]) CHECK(plan.widening_point[plan.position[b]]);
    }
  }
}

TEST_CASE("the plan of every vertex: the identity plan on a forward graph, else the order from the last vertex first") {
  std::mt19937 rng(17);
  int forward_graphs = 0, other_graphs = 0;
  for (int round = 0; round < 300; ++round) {
    const std::size_t n = 1 + rng() % 40;
    // Half of the graphs with only forward edges (a chain and edges to larger indices).
    Graph g(n);
    const bool forward = round % 2 == 0;
    for (std::size_t i = 0; i + 1 < n; ++i) add_edge(i, i + 1, g);
    for (std::size_t e = rng() % (2 * n + 1); e > 0; --e) {
      std::size_t a = rng() % n, b = rng() % n;
      if (forward && a >= b) continue;
      add_edge(a, b, g);
    }
    bool all_forward = true;
    for (auto [it, end] = edges(g); it != end; ++it) all_forward = all_forward && source(*it, g) < target(*it, g);
    for (const auto how : {kildall::IterationOrder::weak_topological_order, kildall::IterationOrder::reverse_postorder}) {
      const auto plan = kildall::detail::plan_of_every_vertex(g, how);
      REQUIRE(plan.size() == n);
      if (all_forward) {
        ++forward_graphs;
        CHECK(plan.identity);
        for (std::size_t p = 0; p < n; ++p) {
          CHECK(plan.vertex_at(p) == p);
          CHECK(plan.position_of(p) == p);
        }
        CHECK(plan.widening_point.empty());
      } else {
        ++other_graphs;
        const auto expected = kildall::detail::make_iteration_plan(g, all_reversed(g), how);
        CHECK_FALSE(plan.identity);
        CHECK(plan.order == expected.order);
        CHECK(plan.position == expected.position);
        CHECK(plan.widening_point == expected.widening_point);
        CHECK(plan.head_component == expected.head_component);
      }
    }
  }
  CHECK(forward_graphs >= 300);  // (each forward graph counts once per order)
  CHECK(other_graphs > 0);
}
