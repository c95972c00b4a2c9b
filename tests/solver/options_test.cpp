#include <kildall/solver/options.hpp>

#include <doctest/doctest.h>

TEST_CASE("default options: RPO, widening after a delay, no narrowing, a cap, monotonicity checks") {
  const kildall::SolverOptions options;
  CHECK(options.order == kildall::IterationOrder::reverse_postorder);
  CHECK(options.widening);
  CHECK(options.widening_delay == 3);
  CHECK(options.narrowing_passes == 0);
  CHECK(options.max_visits_per_node == 10'000);
  CHECK(options.check_monotonicity);
  // Designated initializers read well at call sites.
  const kildall::SolverOptions wto{.order = kildall::IterationOrder::weak_topological_order, .narrowing_passes = 2};
  CHECK(wto.order == kildall::IterationOrder::weak_topological_order);
  CHECK(wto.narrowing_passes == 2);
}
