#include <kildall/solver/verify.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <random>
#include <vector>

#include "random_graphs.hpp"
#include "test_lattices.hpp"

using solver_test::Bits;
using solver_test::Graph;

namespace {

/// out = in ∪ {v mod 64}: every converged result is a post-fixpoint.
struct Mark {
  using lattice_type = Bits;
  std::uint64_t extra = 0;  // added to every out-state: a different problem
  Bits boundary(std::size_t) const { return Bits{}; }
  Bits transfer(std::size_t v, const Bits& in) const { return Bits{in.bits | (std::uint64_t{1} << (v % 64)) | extra}; }
};

/// Like Mark, but claims every edge into vertex 2 is dead.
struct MarkNoEdgesInto2 : Mark {
  const Graph* g = nullptr;
  bool edge_executable(const Graph::edge_descriptor& e, const Bits&) const { return target(e, *g) != 2; }
};

}  // namespace

TEST_CASE("converged results verify; results of another problem do not") {
  for (unsigned seed = 0; seed < 100; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const std::size_t n = 3 + rng() % 20;
    const Graph g = solver_test::random_graph(rng, n, rng() % n);
    const auto r = kildall::solve_forward(g, std::size_t{0}, Mark{});
    const auto report = kildall::verify_fixpoint(Mark{}, r);
    CHECK(report.ok());
    CHECK(report.checked == n);
    CHECK(report.message().find("post-fixpoint") == 0);
    // Checking against a problem whose transfers produce more must fail at
    // every reached vertex.
    const auto wrong = kildall::verify_fixpoint(Mark{std::uint64_t{1} << 63}, r);
    CHECK_FALSE(wrong.ok());
    CHECK(wrong.violations.size() >= r.statistics().nodes_reached);
    CHECK(wrong.message().find("violation") != std::string::npos);
  }
}

TEST_CASE("verify_fixpoint reports a vertex the equations reach but the result does not") {
  Graph g(3);
  add_edge(0, 1, g);
  add_edge(1, 2, g);
  MarkNoEdgesInto2 dead_edge;
  dead_edge.g = &g;
  const auto r = kildall::solve_forward(g, std::size_t{0}, dead_edge);
  CHECK_FALSE(r.reached(2));
  CHECK(kildall::verify_fixpoint(dead_edge, r).ok());
  const auto report = kildall::verify_fixpoint(Mark{}, r);  // with the edge live, 2 is reachable
  REQUIRE(report.violations.size() == 1);
  CHECK(report.violations[0].index == 2);
  CHECK(report.violations[0].kind == kildall::ViolationKind::unreached_but_reachable);
}

TEST_CASE("a truncated solve is not a post-fixpoint") {
  Graph g(2);
  add_edge(0, 1, g);
  add_edge(1, 1, g);
  struct Grow {
    using lattice_type = solver_test::MaxInt;
    solver_test::MaxInt boundary(std::size_t) const { return {0}; }
    solver_test::MaxInt transfer(std::size_t, const solver_test::MaxInt& in) const { return {in.value + 1}; }
  };
  kildall::SolverOptions options;
  options.widening = false;
  options.max_visits_per_node = 5;
  const auto r = kildall::solve_forward(g, std::size_t{0}, Grow{}, options);
  CHECK(r.status() == kildall::SolveStatus::visit_cap_reached);
  const auto report = kildall::verify_fixpoint(Grow{}, r);
  REQUIRE_FALSE(report.ok());
  CHECK(report.violations[0].index == 1);
}
