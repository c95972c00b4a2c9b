#pragma once
/// \file
/// Lexicographic (pre-emptive multi-level) optimization over any backend:
/// optimize level 1; hold it at its optimum (plus the level's tolerance) with
/// a constraint; optimize level 2; and so on (the standard sequential method,
/// e.g. Marler & Arora, "Survey of multi-objective optimization methods for
/// engineering", 2004, sec. 3.2). Unlike a weighted sum with small weights, a
/// later level can never trade away an earlier level's optimum.
///
/// With a nonzero MIP gap or a time limit, a level may be held at a value
/// that is only near-optimal: later levels then keep that value, not the
/// true optimum.

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <utility>

#include <kildall/lp/constraint.hpp>
#include <kildall/lp/model.hpp>
#include <kildall/lp/solution.hpp>

namespace kildall::lp {

/// A solver backend: solves a model's primary objective.
template <class B>
concept Backend = requires(B& backend, const Model& model) {
  { backend.solve(model) } -> std::same_as<Solution>;
};

/// A backend that also accepts a feasible starting point (indexed like the
/// model's variables), e.g. to warm start a branch-and-bound search.
template <class B>
concept WarmStartBackend = Backend<B> && requires(B& backend, const Model& model, std::span<const double> start) {
  { backend.solve(model, start) } -> std::same_as<Solution>;
};

/// Solves `model`'s objective levels in order with `backend` (each level
/// solve sees a model with that single objective). A model with zero or one
/// level is passed to the backend unchanged. The result carries the last
/// level's point, `objective` = the primary level at that point,
/// `best_bound` / `gap` of the primary solve, and `level_objectives` = every
/// level at that point. The status is the worst of the levels (optimal only
/// if every level was optimal); if a level ends without a point, that
/// level's status is returned with the level named in the message. With a
/// WarmStartBackend, level k+1 starts from level k's point (which is feasible
/// for it), and level 1 from `start` when it is not empty.
template <Backend B>
[[nodiscard]] Solution solve_lexicographic(const Model& model, B& backend, std::span<const double> start = {}) {
  const auto& levels = model.objectives();
  auto evaluate_levels = [&](Solution& s) {
    s.level_objectives.clear();
    if (!s.has_solution()) return;
    for (const Objective& o : levels) s.level_objectives.push_back(o.expr.evaluate(s.values));
  };
  auto solve_from = [&](const Model& m, std::span<const double> from) {
    if constexpr (WarmStartBackend<B>) {
      return from.empty() ? backend.solve(m) : backend.solve(m, from);
    } else {
      return backend.solve(m);
    }
  };
  if (levels.size() <= 1) {
    Solution s = solve_from(model, start);
    evaluate_levels(s);
    return s;
  }
  Model work = model;
  Solution previous;
  Solution primary;
  bool all_optimal = true;
  double seconds = 0.0;
  std::int64_t nodes = 0;
  for (std::size_t k = 0; k < levels.size(); ++k) {
    const Objective& level = levels[k];
    work.clear_objectives();
    work.add_objective(level);
    Solution s = solve_from(work, k > 0 ? std::span<const double>(previous.values) : start);
    seconds += s.seconds;
    nodes += s.nodes;
    if (!s.has_solution()) {
      s.message = std::string("lexicographic level ").append(std::to_string(k + 1)) + (level.name.empty() ? "" : " (" + level.name + ")") +
                  ": " + s.message;
      s.seconds = seconds;
      s.nodes = nodes;
      return s;
    }
    all_optimal = all_optimal && s.status == SolveStatus::optimal;
    const double value = level.expr.evaluate(s.values);
    if (k == 0) primary = s;
    if (k + 1 < levels.size()) {
      const double tol = std::max(level.abs_tolerance, level.rel_tolerance * std::abs(value));
      const std::string hold = std::string("lexicographic_hold_").append(std::to_string(k + 1));
      if (level.sense == Sense::minimize) {
        (void)work.add(level.expr <= value + tol, hold);
      } else {
        (void)work.add(level.expr >= value - tol, hold);
      }
    }
    previous = std::move(s);
  }
  Solution result = std::move(previous);
  result.status = all_optimal ? SolveStatus::optimal : SolveStatus::feasible;
  result.objective = levels.front().expr.evaluate(result.values);
  result.best_bound = primary.best_bound;
  result.gap = primary.gap;
  result.seconds = seconds;
  result.nodes = nodes;
  if (result.row_duals.size() > model.num_row_slots()) result.row_duals.resize(model.num_row_slots());
  evaluate_levels(result);
  return result;
}

}  // namespace kildall::lp
