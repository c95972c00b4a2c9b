#pragma once
/// \file
/// The `ilp` strategy of `place_reduce_noise`: optimal `reduce_noise`
/// placement by integer linear programming, the article's model, written with
/// kildall's LP builder and solved with GLPK.
///
/// Model (one per program):
///   - a binary `reduce_v` per reducible op `v` (add/sub/mul): a reduce_noise
///     goes right after `v`;
///   - a noise variable per non-constant noisy value (op results, block
///     arguments); encode/reduce_noise/inputs are constants;
///   - each op's noise by its row of `noise_rule` (the one table of the
///     model): `add`/`sub`: own noise = `max_of(noise(a) + 1, noise(b) + 1,
///     ...)` (the builder's exact max linearization); `mul`: own noise = the
///     sum of its operands' noise; the pre-reduction bound `own noise <=
///     maximum`;
///   - result noise = `if_then_else(reduce_v, initial, own noise)` (the
///     builder's bit-controlled multiplexer);
///   - block argument = `max_of` of the values flowing into it;
///   - every variable is bounded by the least noise any placement gives it
///     (a best-case noise analysis) and by the maximum, so every big-M the
///     builder derives from the bounds is tight;
///   - the greedy placement's count as a cutoff (`inserted <= greedy`).
/// Objective, lexicographic (kildall::lp::solve_lexicographic): first the
/// number of inserted ops, then, with that number held, the total noise
/// (reductions as early as possible). Unlike the article's weighted sum with
/// its auxiliaries in the objective, no auxiliary value can ever buy an
/// inserted op: level 2 cannot move level 1.
///
/// Acceptance: a solution is used only if it passes the builder's independent
/// Eigen check (`lp::check`) and the noise analysis finds the placed program
/// legal; otherwise (or with no solution within the time limit) the greedy
/// placement is returned with a message saying why.
///
/// Needs the `kildall::glpk` (GPL) and `kildall::eigen` targets.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <kildall/lp/eigen.hpp>
#include <kildall/lp/glpk.hpp>
#include <kildall/lp/lexicographic.hpp>
#include <kildall/lp/linearize.hpp>
#include <kildall/lp/model.hpp>
#include <kildall/noisy/greedy.hpp>
#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/noise_model.hpp>
#include <kildall/noisy/placement.hpp>
#include <kildall/noisy/program_concept.hpp>
#include <kildall/noisy/verify.hpp>

namespace kildall::noisy {

/// The placement model of one program, with the handles to read a solution.
template <class V>
struct PlacementModel {
  lp::Model model;                    ///< Variables, rows and the two objective levels.
  std::vector<lp::Var> reduce;        ///< Per vertex index: the binary, or an invalid Var for non-reducible ops.
  std::vector<lp::LinExpr> noise;     ///< Per vertex index: the value's noise (a variable or a constant).
  std::vector<V> reducible;           ///< The vertices that have a binary, in vertex order.
  std::vector<lp::Var> reducible_binary;  ///< The binary of `reducible[k]`.
  std::vector<lp::Var> own;           ///< Per vertex index: the variable of an add/sub's own noise (its max), if any.
  std::vector<lp::Var> joined;        ///< Per vertex index: the max variable of a block argument, if any.
  lp::LinExpr inserted;               ///< Number of inserted reduce_noise ops (level 1).
  lp::LinExpr total_noise;            ///< Sum of the noise variables (level 2).

  /// The placement a solution point describes (binaries > 0.5).
  [[nodiscard]] std::vector<V> placement(std::span<const double> values) const {
    std::vector<V> out;
    for (std::size_t k = 0; k < reducible.size(); ++k)
      if (values[reducible_binary[k].index()] > 0.5) out.push_back(reducible[k]);
    return out;
  }
};

/// Options of `build_placement_model`.
struct PlacementModelOptions {
  /// See `MaxEncoding`.
  MaxEncoding max_encoding = MaxEncoding::exact;
  /// Name stem of vertex `index` in the model (LP files); default `v<index>`.
  std::function<std::string(std::size_t index)> name;
  /// Add the second level (total noise) to the objective.
  bool prefer_early = true;
  /// Cutoff: at most this many inserted ops (e.g. the greedy count).
  std::optional<std::size_t> max_inserted;
};

/// Builds the placement model of `program` (see the file comment). `least` is
/// the best-case analysis of `check_placement_possible` (the variables' lower
/// bounds).
template <NoisyProgram G>
[[nodiscard]] PlacementModel<vertex_t<G>> build_placement_model(const G& program, const NoiseParameters& parameters,
                                                                const NoiseAnalysis<G>& least,
                                                                const PlacementModelOptions& options = {}) {
  using V = vertex_t<G>;
  PlacementModel<V> pm;
  lp::Model& m = pm.model;
  const std::size_t n = vertex_count(program);
  pm.reduce.assign(n, lp::Var{});
  pm.noise.assign(n, lp::LinExpr{});
  pm.own.assign(n, lp::Var{});
  pm.joined.assign(n, lp::Var{});
  // max_i exprs[i] as a variable: exact (the builder's max_of) or an upper bound.
  const auto maximum_of = [&](const std::vector<lp::LinExpr>& exprs, const std::string& name) {
    if (options.max_encoding == MaxEncoding::exact) return lp::max_of(m, exprs, name);
    double lo = -lp::inf, hi = -lp::inf;
    for (const lp::LinExpr& e : exprs) {
      const lp::Interval b = lp::bounds_of(m, e);
      lo = std::max(lo, b.lower);
      hi = std::max(hi, b.upper);
    }
    const lp::Var r = m.add_continuous(lo, hi, name);
    for (std::size_t k = 0; k < exprs.size(); ++k)
      if (lp::bounds_of(m, exprs[k]).upper > lo) (void)m.add(lp::LinExpr(r) >= exprs[k], name + "_ge" + std::to_string(k));
    return r;
  };
  const auto stem = [&](std::size_t i) { return options.name ? options.name(i) : "v" + std::to_string(i); };
  const double maximum = static_cast<double>(parameters.maximum);
  const double initial = static_cast<double>(parameters.initial);
  const double join_cap =
      static_cast<double>(std::max({parameters.maximum, parameters.initial, parameters.input}));
  std::vector<bool> is_var(n, false);
  // Pass 1: a variable (or a constant) per value, by the op's noise rule.
  for (const V& v : vertex_range(program)) {
    const std::size_t i = vertex_index(program, v);
    const NoisyOp kind = kind_of(program, v);
    const double low = static_cast<double>(least.noise_bound(v).value_or(0));
    if (!depends_on_operands(kind) || in_edge_range(program, v).empty()) {
      pm.noise[i] = static_cast<double>(fold_noise(kind, {}, parameters));  // fixed, or the rule over no operand
      continue;
    }
    const double cap = is_checked(kind) ? maximum : join_cap;
    pm.noise[i] = m.add_continuous(std::min(low, cap), cap, "noise_" + stem(i));
    is_var[i] = true;
  }
  // Pass 2: how each variable follows from its operands (the same rule).
  for (const V& v : vertex_range(program)) {
    const std::size_t i = vertex_index(program, v);
    if (!is_var[i]) continue;
    const NoisyOp kind = kind_of(program, v);
    const NoiseRule& rule = noise_rule(kind);
    const lp::Var result = pm.noise[i].terms().front().var;
    std::vector<std::size_t> operands;
    for (const auto& e : in_edge_range(program, v)) {
      const std::size_t o = vertex_index(program, source(e, program));
      if (rule.combine == NoiseCombine::sum || std::find(operands.begin(), operands.end(), o) == operands.end())
        operands.push_back(o);
    }
    lp::LinExpr own;
    if (rule.combine == NoiseCombine::sum) {
      for (const std::size_t o : operands) own += pm.noise[o];
    } else {
      std::vector<lp::LinExpr> candidates;
      for (const std::size_t o : operands) candidates.push_back(pm.noise[o] + static_cast<double>(rule.growth));
      const lp::Var largest = maximum_of(candidates, (rule.reducible ? "own_" : "join_") + stem(i));
      (rule.reducible ? pm.own : pm.joined)[i] = largest;
      own = lp::LinExpr(largest);
    }
    if (!rule.reducible) {
      (void)m.add(lp::LinExpr(result) == own, "is_join_" + stem(i));
      continue;
    }
    if (rule.checked && lp::bounds_of(m, own).upper > maximum) (void)m.add(own <= maximum, "own_bound_" + stem(i));
    const lp::Var z = m.add_binary("reduce_" + stem(i));
    pm.reduce[i] = z;
    pm.reducible.push_back(v);
    pm.reducible_binary.push_back(z);
    pm.inserted += lp::LinExpr(z);
    pm.total_noise += lp::LinExpr(result);
    (void)lp::constrain_if_then_else(m, result, lp::LinExpr(z), lp::LinExpr(initial), own, "noise_" + stem(i));
  }
  for (std::size_t i = 0; i < n; ++i)
    if (is_var[i] && pm.reduce[i].valid() == false) pm.total_noise += pm.noise[i];
  if (options.max_inserted && !pm.reducible.empty()) {
    (void)m.add(pm.inserted <= static_cast<double>(*options.max_inserted), "cutoff_inserted");
  }
  m.add_objective(lp::Sense::minimize, pm.inserted, "inserted", 0.5);
  if (options.prefer_early) m.add_objective(lp::Sense::minimize, pm.total_noise, "total_noise");
  return pm;
}

/// A complete point of `pm`'s model for `placement` (e.g. the greedy one),
/// to warm start the solver: the binaries, noise and max variables are set
/// from the noise analysis of the placed program, and the remaining
/// variables (the builder's selector binaries) are completed by solving the
/// model with all of those fixed (a trivial MIP). Empty when `placement` is
/// not legal or the completion fails.
template <NoisyProgram G>
[[nodiscard]] std::vector<double> placement_point(const PlacementModel<vertex_t<G>>& pm, const G& program,
                                                  const NoiseParameters& parameters,
                                                  const std::vector<vertex_t<G>>& placement,
                                                  const lp::GlpkOptions& glpk = {}) {
  NoiseAnalysisOptions options;
  options.reduce_after = placement_mask(program, placement);
  const NoiseAnalysis<G> analysis = analyze_noise(program, parameters, options);
  if (!is_legal(analysis)) return {};
  lp::Model fixed = pm.model;
  fixed.clear_objectives();
  const auto fix = [&fixed](lp::Var x, double value) {
    if (x.valid()) fixed.set_bounds(x, value, value);
  };
  for (const auto& v : vertex_range(program)) {
    const std::size_t i = vertex_index(program, v);
    const double noise = static_cast<double>(analysis.noise_bound(v).value_or(0));
    fix(pm.reduce[i], analysis.options().reduce_after[i] && pm.reduce[i].valid() ? 1.0 : 0.0);
    if (!pm.noise[i].is_constant()) fix(pm.noise[i].terms().front().var, noise);
    if (pm.own[i].valid()) fix(pm.own[i], static_cast<double>(noise_before_reduction(analysis, v)->umax()));
    if (pm.joined[i].valid()) fix(pm.joined[i], noise);
  }
  lp::Solution s = lp::GlpkSolver(glpk).solve(fixed);
  if (!s.has_solution()) return {};
  return std::move(s.values);
}

namespace detail {

// A GLPK backend that spends at most what is left of one overall deadline and
// keeps every level's solution (so a level-1 point survives a level-2 timeout).
class DeadlineGlpk {
 public:
  DeadlineGlpk(lp::GlpkOptions base, std::chrono::steady_clock::time_point deadline, bool limited,
               double tie_break_seconds, std::function<void(const PlacementProgress&)> progress)
      : base_(std::move(base)),
        deadline_(deadline),
        limited_(limited),
        tie_break_seconds_(tie_break_seconds),
        progress_(std::move(progress)) {}

  lp::Solution solve(const lp::Model& model) { return solve(model, {}); }

  lp::Solution solve(const lp::Model& model, std::span<const double> start) {
    const int level = static_cast<int>(levels_.size()) + 1;
    lp::GlpkOptions options = base_;
    if (limited_) {
      const double left = std::chrono::duration<double>(deadline_ - std::chrono::steady_clock::now()).count();
      if (left <= 0.0) {
        lp::Solution none;
        none.status = lp::SolveStatus::no_solution;
        none.message = "time limit reached before level " + std::to_string(level) + " started";
        levels_.push_back(none);
        return none;
      }
      options.time_limit_seconds = left;
    }
    if (level > 1) {
      const double budget = tie_break_seconds_ >= 0.0 ? tie_break_seconds_ : std::max(1.0, levels_.front().seconds);
      options.time_limit_seconds = std::min(options.time_limit_seconds, budget);
    }
    if (progress_) {
      options.progress = [this, level](const lp::MipProgress& p) {
        PlacementProgress report;
        report.level = level;
        report.incumbent = p.incumbent;
        report.bound = p.bound;
        report.nodes = static_cast<std::size_t>(p.nodes);
        report.elapsed_seconds = p.elapsed_seconds;
        progress_(report);
      };
    }
    lp::Solution s = lp::GlpkSolver(options).solve(model, start);
    levels_.push_back(s);
    return s;
  }

  [[nodiscard]] const std::vector<lp::Solution>& levels() const noexcept { return levels_; }

 private:
  lp::GlpkOptions base_;
  std::chrono::steady_clock::time_point deadline_;
  bool limited_;
  double tie_break_seconds_;
  std::function<void(const PlacementProgress&)> progress_;
  std::vector<lp::Solution> levels_;
};

/// The ilp strategy of `place_reduce_noise`: the article's model, optimal
/// (fewest inserted ops; with `prefer_early`, among those the least total
/// noise). Throws `PlacementError` naming the op when no placement can make
/// the program legal. Never returns an unchecked placement: see the file
/// comment.
template <NoisyProgram G>
[[nodiscard]] PlacementResult<vertex_t<G>> ilp_placement(const G& program, const NoiseParameters& parameters,
                                                         const PlacementOptions& options) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const IlpTuning& tuning = options.ilp;
  const bool limited = options.time_limit_seconds < 1e9;  // beyond ~30 years: no limit (and no overflow)
  const auto deadline =
      limited ? start + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(std::max(0.0, options.time_limit_seconds)))
              : clock::time_point::max();
  PlacementResult<vertex_t<G>> out;
  const NoiseAnalysis<G> least = check_placement_possible(program, parameters);
  const std::vector<vertex_t<G>> greedy = detail::greedy_placement_after_check(program, parameters);
  out.greedy_count = greedy.size();

  PlacementModelOptions model_options;
  model_options.name = tuning.name;
  model_options.prefer_early = options.prefer_early;
  model_options.max_inserted = greedy.size();
  model_options.max_encoding = tuning.max_encoding;
  const PlacementModel<vertex_t<G>> pm = build_placement_model(program, parameters, least, model_options);
  out.statistics.reducible_ops = pm.reducible.size();
  out.statistics.variables = pm.model.num_vars();
  out.statistics.constraints = pm.model.num_constraints();
  for (const lp::VarInfo& v : pm.model.vars()) out.statistics.binaries += v.type == lp::VarType::binary ? 1 : 0;
  std::vector<lp::Solution> levels_seen;  // the solver's levels, once solved
  const auto finish = [&] {
    out.statistics.seconds = std::chrono::duration<double>(clock::now() - start).count();
    if (out.status == PlacementStatus::optimal) out.statistics.seconds_optimal = out.statistics.seconds;
    for (const lp::Solution& level : levels_seen) out.statistics.seconds_in_glpk += level.seconds;
    out.statistics.mip_solves = levels_seen.size();
    return out;
  };

  const auto fall_back = [&](std::string why) {
    out.reduce_after = greedy;
    out.status = PlacementStatus::fallback;
    out.message = std::move(why);
    return finish();
  };

  lp::GlpkOptions glpk;
  glpk.progress_interval_seconds = options.progress_interval_seconds;
  std::vector<double> warm;
  if (tuning.warm_start && !pm.reducible.empty()) {
    lp::GlpkOptions completion;
    if (limited) completion.time_limit_seconds = std::max(0.0, options.time_limit_seconds);
    warm = placement_point(pm, program, parameters, greedy, completion);
  }
  detail::DeadlineGlpk backend(glpk, deadline, limited, tuning.tie_break_seconds, options.progress);
  lp::Solution solution = lp::solve_lexicographic(pm.model, backend, warm);
  const auto& levels = backend.levels();
  levels_seen = levels;
  if (!solution.has_solution() && !levels.empty() && levels.front().has_solution()) {
    lp::Solution first = levels.front();  // level 2 did not finish: keep the level-1 point
    first.message = "level 2 (total noise) not finished: " + solution.message;
    solution = std::move(first);
  }
  if (!levels.empty()) {
    out.gap = std::isnan(levels.front().gap) ? 0.0 : levels.front().gap;
    out.best_bound = std::isnan(levels.front().best_bound) ? 0.0 : std::ceil(levels.front().best_bound - 1e-6);
  }
  if (!solution.has_solution()) {
    return fall_back(std::string("ILP solver: ") + lp::to_string(solution.status) +
                     (solution.message.empty() ? "" : " (" + solution.message + ")"));
  }
  const lp::CheckReport report = lp::check(pm.model, solution, tuning.check_tolerance);
  if (!report.ok) return fall_back("ILP solution rejected by the independent check: " + report.message);
  std::vector<vertex_t<G>> placement = pm.placement(solution.values);
  const auto violations = verify_noise(program, parameters, placement_mask(program, placement));
  if (!violations.empty()) {
    return fall_back("ILP placement rejected by the noise analysis: " +
                     noise_violation_message(parameters.maximum, violations.front().noise));
  }
  if (placement.size() > greedy.size()) {
    return fall_back("ILP placement (" + std::to_string(placement.size()) + ") is worse than greedy");
  }
  out.reduce_after = std::move(placement);
  const bool level1_optimal = !levels.empty() && levels.front().status == lp::SolveStatus::optimal;
  out.status = level1_optimal ? PlacementStatus::optimal : PlacementStatus::feasible;
  if (level1_optimal) {
    out.gap = 0.0;
    out.best_bound = static_cast<double>(out.reduce_after.size());
  }
  out.statistics.tie_break_optimal =
      level1_optimal && options.prefer_early && levels.size() >= 2 && levels[1].status == lp::SolveStatus::optimal;
  out.message = solution.message;
  return finish();
}

}  // namespace detail

}  // namespace kildall::noisy
