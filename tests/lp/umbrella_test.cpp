// The core umbrella must not pull in GLPK (GPL) or Eigen.
#include <kildall/lp.hpp>

#include <doctest/doctest.h>

#ifdef GLP_MAJOR_VERSION
#error "kildall/lp.hpp must not include glpk.h"
#endif
#ifdef EIGEN_WORLD_VERSION
#error "kildall/lp.hpp must not include Eigen"
#endif

TEST_CASE("the umbrella header gives the whole builder") {
  kildall::lp::Model m;
  const auto x = m.add_binary("x");
  const auto y = kildall::lp::logical_not(x);
  m.maximize(y);
  CHECK(kildall::lp::to_string(m).find("maximize") != std::string::npos);
}
