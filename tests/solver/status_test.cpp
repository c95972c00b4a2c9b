#include <kildall/solver/status.hpp>

#include <doctest/doctest.h>

#include <cstddef>

TEST_CASE("status names and outcome messages") {
  CHECK(kildall::to_string(kildall::SolveStatus::converged) == "converged");
  CHECK(kildall::to_string(kildall::SolveStatus::visit_cap_reached) == "visit cap reached");
  CHECK(kildall::to_string(kildall::SolveStatus::non_monotone) == "non-monotone transfer");
  CHECK(kildall::to_string(kildall::SolveStatus::invalid_input) == "invalid input");
  CHECK(kildall::to_string(kildall::SolveStatus::wrong_change_result) == "join reported a wrong change result");
  kildall::SolveOutcome<std::size_t> outcome;
  CHECK(outcome.converged());
  CHECK(outcome.message() == "converged");
  outcome.status = kildall::SolveStatus::non_monotone;
  outcome.offending_node = 12;
  outcome.offending_index = 12;
  CHECK_FALSE(outcome.converged());
  CHECK(outcome.message() == "non-monotone transfer at node #12");
  outcome.status = kildall::SolveStatus::wrong_change_result;
  CHECK_FALSE(outcome.converged());
  CHECK(outcome.message() == "join reported a wrong change result at node #12");
}
