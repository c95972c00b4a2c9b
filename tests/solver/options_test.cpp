#include <kildall/solver/options.hpp>

#include <doctest/doctest.h>

TEST_CASE("default options: WTO, widening after a delay, no narrowing, a cap, monotonicity checks") {
  const kildall::SolverOptions options;
  CHECK(options.order == kildall::IterationOrder::weak_topological_order);
  CHECK(options.widening);
  CHECK(options.widening_delay == 3);
  CHECK(options.narrowing_passes == 0);
  CHECK(options.max_visits_per_node == 10'000);
  CHECK(options.check_monotonicity);
  // Change results are checked in builds without NDEBUG only.
#ifdef NDEBUG
  CHECK_FALSE(options.check_change_results);
#else
  CHECK(options.check_change_results);
#endif
  // Designated initializers read well at call sites.
  const kildall::SolverOptions rpo{.order = kildall::IterationOrder::reverse_postorder, .narrowing_passes = 2};
  CHECK(rpo.order == kildall::IterationOrder::reverse_postorder);
  CHECK(rpo.narrowing_passes == 2);
  const kildall::SolverOptions trusting{.check_change_results = false};
  CHECK_FALSE(trusting.check_change_results);
  CHECK(trusting.order == kildall::IterationOrder::weak_topological_order);
}
