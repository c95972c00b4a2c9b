#pragma once
/// \file
/// Optimal `reduce_noise` placement by integer linear programming: the
/// article's model, written with kildall's LP builder and solved with GLPK.
///
/// Model (one per program):
///   - a binary `reduce_v` per reducible op `v` (add/sub/mul): a reduce_noise
///     goes right after `v`;
///   - a noise variable per non-constant noisy value (op results, block
///     arguments); encode/reduce_noise/inputs are constants;
///   - `add`/`sub`: own noise = `max_of(noise(a) + 1, noise(b) + 1)` (the
///     builder's exact max linearization); `mul`: own noise = `noise(a) +
///     noise(b)`; the pre-reduction bound `own noise <= maximum`;
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

/// How `max` (add/sub, block arguments) enters the model.
enum class MaxEncoding : std::uint8_t {
  /// The builder's exact `max_of` (a selector binary per max with two live
  /// candidates): every noise variable equals the noise.
  exact,
  /// Only `max >= each candidate` (no binary): noise variables are upper
  /// bounds, which admits exactly the same placements (the transfers are
  /// monotone) and level 2 presses them down to the noise. Fewer binaries.
  upper_bound,
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
  // Pass 1: a variable (or a constant) per value.
  for (const V& v : vertex_range(program)) {
    const std::size_t i = vertex_index(program, v);
    const NoisyOp kind = kind_of(program, v);
    const double low = static_cast<double>(least.noise_bound(v).value_or(0));
    switch (kind) {
      case NoisyOp::encode:
      case NoisyOp::reduce_noise: pm.noise[i] = initial; break;
      case NoisyOp::input: pm.noise[i] = static_cast<double>(parameters.input); break;
      case NoisyOp::decode:
      case NoisyOp::plain: pm.noise[i] = 0.0; break;
      case NoisyOp::join:
        if (in_edge_range(program, v).empty()) {
          pm.noise[i] = 0.0;
        } else {
          pm.noise[i] = m.add_continuous(std::min(low, join_cap), join_cap, "noise_" + stem(i));
          is_var[i] = true;
        }
        break;
      case NoisyOp::add:
      case NoisyOp::sub:
      case NoisyOp::mul:
        pm.noise[i] = m.add_continuous(std::min(low, maximum), maximum, "noise_" + stem(i));
        is_var[i] = true;
        break;
    }
  }
  // Pass 2: how each variable follows from its operands.
  for (const V& v : vertex_range(program)) {
    const std::size_t i = vertex_index(program, v);
    if (!is_var[i]) continue;
    const NoisyOp kind = kind_of(program, v);
    const lp::Var result = pm.noise[i].terms().front().var;
    std::vector<std::size_t> operands;
    for (const auto& e : in_edge_range(program, v)) {
      const std::size_t o = vertex_index(program, source(e, program));
      if (kind == NoisyOp::mul || std::find(operands.begin(), operands.end(), o) == operands.end()) operands.push_back(o);
    }
    if (kind == NoisyOp::join) {
      std::vector<lp::LinExpr> incoming;
      for (const std::size_t o : operands) incoming.push_back(pm.noise[o]);
      const lp::Var joined = maximum_of(incoming, "join_" + stem(i));
      pm.joined[i] = joined;
      (void)m.add(lp::LinExpr(result) == lp::LinExpr(joined), "is_join_" + stem(i));
      continue;
    }
    lp::LinExpr own;
    if (kind == NoisyOp::mul) {
      for (const std::size_t o : operands) own += pm.noise[o];
    } else {
      std::vector<lp::LinExpr> candidates;
      for (const std::size_t o : operands) candidates.push_back(pm.noise[o] + 1.0);
      pm.own[i] = maximum_of(candidates, "own_" + stem(i));
      own = lp::LinExpr(pm.own[i]);
    }
    if (lp::bounds_of(m, own).upper > maximum) (void)m.add(own <= maximum, "own_bound_" + stem(i));
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

/// How the ILP placement ended.
enum class IlpOutcome : std::uint8_t {
  optimal,          ///< proven optimal (fewest inserted ops)
  feasible,         ///< a legal placement, optimality not proven (time limit): see `gap`
  greedy_fallback,  ///< no usable ILP solution: the greedy placement, `message` says why
};

/// A short name of `outcome` ("optimal", "feasible", "greedy fallback").
[[nodiscard]] constexpr const char* to_string(IlpOutcome outcome) noexcept {
  switch (outcome) {
    case IlpOutcome::optimal: return "optimal";
    case IlpOutcome::feasible: return "feasible";
    case IlpOutcome::greedy_fallback: return "greedy fallback";
  }
  return "?";
}

/// Options of `place_reduce_noise_ilp`.
struct IlpOptions {
  /// Wall-clock limit of the whole solve (both levels), seconds.
  double time_limit_seconds = lp::inf;
  /// Called during branch-and-bound with the level (1 = count, 2 = total noise).
  std::function<void(int level, const lp::MipProgress&)> progress;
  /// Minimum time between two progress calls.
  double progress_interval_seconds = 1.0;
  /// Break ties by reducing as early as possible (level 2).
  bool prefer_early = true;
  /// Wall-clock budget of level 2 (the tie-break), seconds; negative: as long
  /// as level 1 took, at least one second. When it runs out, the best level-2
  /// point found so far is used (the count stays optimal).
  double tie_break_seconds = -1.0;
  /// Warm start level 1 from the greedy placement: an incumbent from the
  /// start, but GLPK then solves without its MIP presolver, which was slower
  /// in the measurements of docs/performance.md; off by default.
  bool warm_start = false;
  /// How max enters the model (see `MaxEncoding`).
  MaxEncoding max_encoding = MaxEncoding::exact;
  /// Tolerance of the independent solution check.
  double check_tolerance = 1e-6;
  /// Name stems of vertices in the model (see `PlacementModelOptions::name`).
  std::function<std::string(std::size_t index)> name;
};

/// The result of `place_reduce_noise_ilp`.
template <class V>
struct IlpPlacement {
  std::vector<V> reduce_after;            ///< The ops after which to insert reduce_noise, in vertex order.
  IlpOutcome outcome = IlpOutcome::greedy_fallback;  ///< How it ended.
  lp::SolveStatus status = lp::SolveStatus::error;    ///< The solver's status (primary level).
  double gap = 0.0;                       ///< Relative gap of the primary level (0 when optimal).
  double best_bound = 0.0;                ///< Best proven lower bound on the number of inserted ops.
  double seconds = 0.0;                   ///< Wall time of model building and solving.
  std::size_t greedy_count = 0;           ///< Ops the greedy placement inserts (the baseline).
  std::size_t binaries = 0;               ///< Binary variables of the model.
  std::size_t variables = 0;              ///< All variables of the model.
  std::size_t constraints = 0;            ///< Rows of the model.
  std::string message;                    ///< Why a fallback happened / solver detail.
};

namespace detail {

// A GLPK backend that spends at most what is left of one overall deadline and
// keeps every level's solution (so a level-1 point survives a level-2 timeout).
class DeadlineGlpk {
 public:
  DeadlineGlpk(lp::GlpkOptions base, std::chrono::steady_clock::time_point deadline, bool limited,
               double tie_break_seconds, std::function<void(int, const lp::MipProgress&)> progress)
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
      options.progress = [this, level](const lp::MipProgress& p) { progress_(level, p); };
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
  std::function<void(int, const lp::MipProgress&)> progress_;
  std::vector<lp::Solution> levels_;
};

}  // namespace detail

/// Places `reduce_noise` optimally (fewest inserted ops; among those, the
/// least total noise). Throws `PlacementError` naming the op when no
/// placement can make the program legal. Never returns an unchecked
/// placement: see the file comment.
template <NoisyProgram G>
[[nodiscard]] IlpPlacement<vertex_t<G>> place_reduce_noise_ilp(const G& program, const NoiseParameters& parameters = {},
                                                              const IlpOptions& options = {}) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const bool limited = options.time_limit_seconds < 1e9;  // beyond ~30 years: no limit (and no overflow)
  const auto deadline =
      limited ? start + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(options.time_limit_seconds))
              : clock::time_point::max();
  IlpPlacement<vertex_t<G>> out;
  const NoiseAnalysis<G> least = check_placement_possible(program, parameters);
  const std::vector<vertex_t<G>> greedy = detail::greedy_placement_after_check(program, parameters);
  out.greedy_count = greedy.size();

  PlacementModelOptions model_options;
  model_options.name = options.name;
  model_options.prefer_early = options.prefer_early;
  model_options.max_inserted = greedy.size();
  model_options.max_encoding = options.max_encoding;
  const PlacementModel<vertex_t<G>> pm = build_placement_model(program, parameters, least, model_options);
  out.variables = pm.model.num_vars();
  out.constraints = pm.model.num_constraints();
  for (const lp::VarInfo& v : pm.model.vars()) out.binaries += v.type == lp::VarType::binary ? 1 : 0;

  const auto fall_back = [&](std::string why) {
    out.reduce_after = greedy;
    out.outcome = IlpOutcome::greedy_fallback;
    out.message = std::move(why);
    out.seconds = std::chrono::duration<double>(clock::now() - start).count();
    return out;
  };

  lp::GlpkOptions glpk;
  glpk.progress_interval_seconds = options.progress_interval_seconds;
  std::vector<double> warm;
  if (options.warm_start && !pm.reducible.empty()) {
    lp::GlpkOptions completion;
    if (limited) completion.time_limit_seconds = std::max(0.0, options.time_limit_seconds);
    warm = placement_point(pm, program, parameters, greedy, completion);
  }
  detail::DeadlineGlpk backend(glpk, deadline, limited, options.tie_break_seconds, options.progress);
  lp::Solution solution = lp::solve_lexicographic(pm.model, backend, warm);
  const auto& levels = backend.levels();
  if (!solution.has_solution() && !levels.empty() && levels.front().has_solution()) {
    lp::Solution first = levels.front();  // level 2 did not finish: keep the level-1 point
    first.message = "level 2 (total noise) not finished: " + solution.message;
    solution = std::move(first);
  }
  if (!levels.empty()) {
    out.status = levels.front().status;
    out.gap = std::isnan(levels.front().gap) ? 0.0 : levels.front().gap;
    out.best_bound = std::isnan(levels.front().best_bound) ? 0.0 : levels.front().best_bound;
  }
  if (!solution.has_solution()) {
    return fall_back(std::string("ILP solver: ") + lp::to_string(solution.status) +
                     (solution.message.empty() ? "" : " (" + solution.message + ")"));
  }
  const lp::CheckReport report = lp::check(pm.model, solution, options.check_tolerance);
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
  out.outcome = level1_optimal ? IlpOutcome::optimal : IlpOutcome::feasible;
  if (level1_optimal) {
    out.gap = 0.0;
    out.best_bound = static_cast<double>(out.reduce_after.size());
  }
  out.message = solution.message;
  out.seconds = std::chrono::duration<double>(clock::now() - start).count();
  return out;
}

}  // namespace kildall::noisy
