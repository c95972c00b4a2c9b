#pragma once
/// \file
/// What the `reduce_noise` placement optimizers share: a placement is the
/// list of ops after which a `reduce_noise` goes; `PlacementError` names the
/// op that no placement can make legal; `check_placement_possible` finds it
/// (or proves none exists) with one best-case noise analysis: reducing after
/// every op whose noise exceeds `initial` gives every value the least noise
/// any placement can give it (the transfers are monotone), so the program can
/// be made legal iff that best case is legal.
///
/// It also holds the one vocabulary of `place_reduce_noise`
/// (`place_reduce_noise.hpp`): its options (`PlacementOptions`, with the
/// strategy and each strategy's tuning), its progress reports and its one
/// result type (`PlacementResult`: the placement, optimal / feasible /
/// fallback, the bound, the gap, greedy's count and the statistics).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <kildall/noisy/hitting_set.hpp>
#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/noise_model.hpp>
#include <kildall/noisy/program_concept.hpp>
#include <kildall/noisy/verify.hpp>

namespace kildall::noisy {

/// No placement can make the program legal; `vertex_index()` names the op.
class PlacementError : public std::runtime_error {
 public:
  /// An error at the op with index `vertex_index`; `reason` has no op prefix.
  PlacementError(std::size_t vertex_index, NoisyOp kind, const std::string& reason)
      : std::runtime_error("op #" + std::to_string(vertex_index) + " (" + std::string(to_string(kind)) + "): " + reason),
        vertex_index_(vertex_index),
        kind_(kind),
        reason_(reason) {}
  /// `vertex_index` of the offending op.
  [[nodiscard]] std::size_t vertex_index() const noexcept { return vertex_index_; }
  /// Its kind.
  [[nodiscard]] NoisyOp kind() const noexcept { return kind_; }
  /// The explanation, without the op prefix (for callers that name the op their own way).
  [[nodiscard]] const std::string& reason() const noexcept { return reason_; }

 private:
  std::size_t vertex_index_;
  NoisyOp kind_;
  std::string reason_;
};

/// Which optimizer `place_reduce_noise` runs.
enum class PlacementStrategy : std::uint8_t {
  lazy,    ///< optimal at scale (the default): frontier dynamic program, else lazy cover cuts; certified gap at the time limit
  ilp,     ///< the article's model, solved by GLPK; greedy as the fallback
  greedy,  ///< the article's baseline
};

/// The strategy's name ("lazy", "ilp", "greedy").
[[nodiscard]] constexpr const char* to_string(PlacementStrategy strategy) noexcept {
  constexpr const char* names[] = {"lazy", "ilp", "greedy"};
  const auto i = static_cast<std::size_t>(strategy);
  return i < std::size(names) ? names[i] : "?";
}

/// How a placement search ended.
enum class PlacementStatus : std::uint8_t {
  optimal,   ///< proven to insert the fewest reduce_noise ops
  feasible,  ///< legal, not proven optimal: see `best_bound` and `gap`
  fallback,  ///< the optimizer gave no usable answer: the greedy placement, `message` says why
};

/// "optimal", "feasible" or "fallback".
[[nodiscard]] constexpr const char* to_string(PlacementStatus status) noexcept {
  constexpr const char* names[] = {"optimal", "feasible", "fallback"};
  const auto i = static_cast<std::size_t>(status);
  return i < std::size(names) ? names[i] : "?";
}

/// One progress report of `place_reduce_noise` (lazy: after a round; ilp:
/// from GLPK's branch-and-bound, at most once per `progress_interval_seconds`).
struct PlacementProgress {
  int level = 1;                ///< 1: the number of reductions; 2: the total noise (the tie-break).
  std::size_t round = 0;        ///< Lazy rounds so far (0 for the ilp).
  double incumbent = 0.0;       ///< Objective of the best legal placement (NaN if none yet).
  double bound = 0.0;           ///< Best proven lower bound.
  std::size_t cuts = 0;         ///< Cover cuts so far (lazy).
  std::size_t nodes = 0;        ///< Branch-and-bound nodes so far (ilp).
  double elapsed_seconds = 0.0; ///< Since the call started.
};

/// How `max` (add/sub, block arguments) enters the article's model (ilp).
enum class MaxEncoding : std::uint8_t {
  /// The builder's exact `max_of` (a selector binary per max with two live
  /// candidates): every noise variable equals the noise.
  exact,
  /// Only `max >= each candidate` (no binary): noise variables are upper
  /// bounds, which admits exactly the same placements (the transfers are
  /// monotone) and level 2 presses them down to the noise. Fewer binaries.
  upper_bound,
};

/// Tuning of the lazy strategy (`lazy_placement.hpp`).
struct LazyTuning {
  /// Most master/oracle rounds.
  std::size_t max_rounds = 100000;
  /// Improve placements by `repair_placement` + `drop_redundant_reductions` (acyclic programs).
  bool local_search = true;
  /// Derive two cuts per violation (pruned towards and away from the violating
  /// op). Off by default: on the issue's random DAGs it changed neither the
  /// rounds nor the time (docs/performance.md).
  bool two_cuts_per_violation = false;
  /// With a legal start placement on an acyclic program (`lazy_placement`'s
  /// `start_placement`: the neighbourhood search's windows), the master starts
  /// with the cuts that explain each of its reductions: the start without that
  /// reduction, a cut at each violation it leaves: fewer rounds per window
  /// (docs/performance.md, "Seventh step").
  bool start_cuts = true;
  /// The master's hitting-set solver (decomposition, enumeration, frontier DP).
  HittingSetOptions master;
  /// Largest layer of the program's frontier dynamic program (`frontier_placement.hpp`),
  /// tried first on acyclic programs, for at most half the time limit (0: never).
  std::size_t program_frontier_states = 1u << 16;
  /// Largest layer of the frontier DP that breaks the tie among placements
  /// with the proven fewest reductions (`prefer_early`; 0: never).
  std::size_t tie_break_states = 1u << 16;
  /// Reducible ops per window of the last phase on acyclic programs with a
  /// time limit that the cut loop has not proven within `cut_loop_share` of
  /// it (`window_decomposition.hpp`: a lower bound by decomposition, then
  /// large neighbourhood search; 0: never, the cut loop runs to the limit).
  std::size_t window_ops = 150;
  /// Reducible ops per window of the neighbourhood search (0: as `window_ops`).
  /// Larger than the bound's pieces: on the issue's programs 300 gave better
  /// placements than 150 (30,000 ops w64: 11,179 against 11,494 in 60 s) and
  /// than 500 there (fewer windows solved in the time).
  std::size_t neighbourhood_ops = 300;
  /// Share of the time limit the cut loop gets before the window phase.
  double cut_loop_share = 0.1;
  /// Share of the time left after the cut loop that goes to the bound by
  /// decomposition first (the rest: neighbourhood search, then the bound again;
  /// side by side, the bound's first stage before its merges).
  double window_bound_share = 0.4;
  /// Threads of the windows phase: 2 runs the neighbourhood search on a
  /// second thread beside the bound (on a machine with at least two cores),
  /// from the pieces' repaired placement until the time limit; 1 (or 0) runs
  /// them one after the other. The program is read from both threads.
  std::size_t threads = 2;
  /// Time limit of one window's exact solve, seconds.
  double window_seconds = 1.0;
  /// Largest layer of the master's frontier DP (`HittingSetOptions::frontier_states`)
  /// in the neighbourhood search's window solves; parts beyond it go to GLPK
  /// (0: as `master`). Smaller than the cut loop's: a part the DP would finish
  /// only near 2^15 states GLPK solves faster, and one the DP gives up late
  /// cost both (300-op windows of random_dag(10000, 1, 64): 0.035 s of CPU a
  /// window at 8,192 states, 0.080 s at 32,768, the same placements).
  std::size_t window_master_states = 1u << 13;
  /// The bound of the windows phase also from the LP relaxation of the
  /// hitting set of every cut found (the cut loop's and the pieces' of two
  /// decompositions shifted by half a piece; `hitting_set_lp.hpp`).
  bool pooled_lp = true;
  /// Reducible ops per part of that LP (consecutive in the order; a cut
  /// across two parts is left out, the parts' bounds add up; 0: one LP).
  std::size_t lp_part_ops = 10000;
  /// Rounds of that LP with cuts found at its optimal point rounded at 1/2.
  std::size_t lp_rounds = 2;
  /// Also add the {0,1/2}-cuts of the pooled cuts violated at that LP's
  /// optimal point in each round (`zero_half_cuts.hpp`).
  bool zero_half_cuts = true;
  /// Reducible ops per block of the Lagrangian bound on the last LP of the
  /// pooled cuts (`hitting_set_lagrangian.hpp`: the sets across blocks priced
  /// at the LP's duals, each block's rest solved exactly; 0: never). Larger
  /// blocks close more of the LP's integrality gap while GLPK proves them in
  /// `lagrangian_block_seconds`: on 30,000 ops w64 blocks of 450 gave a
  /// higher bound than 400, and 500 or 600 were mostly not proven
  /// (docs/performance.md, "Tenth step" and "Eleventh step").
  std::size_t lagrangian_block_ops = 450;
  /// Time limit of one block's GLPK solve there, seconds (1.0 measured no
  /// better on 30,000 ops w64: docs/performance.md, "Eleventh step").
  double lagrangian_block_seconds = 0.5;
  /// Time the Lagrangian bound may take beyond the bound's share before the
  /// search, and is kept for it at the end, seconds per block (blocks not
  /// solved by then count with the LP's duals).
  double lagrangian_seconds_per_block = 0.1;
  /// The last Lagrangian bound (the one that may run to the limit) gives the
  /// time left after its blocks to pairs of adjacent blocks solved as one, at
  /// most this long each (`HittingSetLagrangianOptions::pair_seconds`; 0:
  /// none). On 30,000 ops w64 about one unit of bound a second
  /// (docs/performance.md, "Twelfth step"). The earlier bounds do not: their
  /// time is what the end keeps for the last one.
  double lagrangian_pair_seconds = 1.0;
};

/// Tuning of the ilp strategy (`ilp_placement.hpp`).
struct IlpTuning {
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
  /// Name stem of vertex `index` in the model (LP files); default `v<index>`.
  std::function<std::string(std::size_t index)> name;
};

/// Options of `place_reduce_noise`: one set for every strategy.
struct PlacementOptions {
  /// The optimizer.
  PlacementStrategy strategy = PlacementStrategy::lazy;
  /// Wall-clock limit of the whole call, seconds (lazy: then the best legal
  /// placement with its certified gap; ilp: both levels).
  double time_limit_seconds = 60.0;
  /// Stop when (inserted - bound) / inserted <= this (0: prove optimality).
  double relative_gap = 0.0;
  /// The second objective: among placements with the fewest reductions,
  /// the one with the least total noise (reductions as early as possible).
  bool prefer_early = true;
  /// Called with progress reports (see `PlacementProgress`).
  std::function<void(const PlacementProgress&)> progress;
  /// Minimum time between two progress calls of the ilp, seconds.
  double progress_interval_seconds = 1.0;
  /// Tuning of the lazy strategy.
  LazyTuning lazy;
  /// Tuning of the ilp strategy.
  IlpTuning ilp;
};

/// Counters and timings of a `place_reduce_noise` call (zero where a
/// strategy has no such thing).
struct PlacementStatistics {
  std::size_t reducible_ops = 0;     ///< add/sub/mul ops of the program.
  std::size_t binaries = 0;          ///< Binaries of the model (ilp) or ops in some cut (lazy's master).
  std::size_t variables = 0;         ///< Variables of the article's model (ilp).
  std::size_t constraints = 0;       ///< Rows of the article's model (ilp).
  std::size_t fixed = 0;             ///< Ops fixed by one-op cuts (lazy).
  std::size_t cuts = 0;              ///< Cover cuts (lazy).
  std::size_t rounds = 0;            ///< Master/oracle rounds (lazy).
  std::size_t parts = 0;             ///< Independent parts of the last master (lazy).
  std::size_t largest_part = 0;      ///< Ops of its largest part (lazy).
  std::size_t mip_solves = 0;        ///< GLPK solves.
  std::size_t dp_solves = 0;         ///< Master parts solved by the hitting-set frontier DP (lazy).
  std::size_t frontier_states = 0;   ///< Largest layer of the program's frontier DP (0: not run).
  bool frontier_exact = false;       ///< The program's frontier DP finished (both levels exact).
  std::uint64_t total_noise = 0;     ///< The second objective of the returned placement.
  bool tie_break_optimal = false;    ///< The total noise is proven least among the fewest reductions.
  double seconds_first_legal = 0.0;  ///< Time to the first legal placement.
  double seconds_optimal = std::numeric_limits<double>::quiet_NaN();  ///< Time to the proof (NaN if none).
  double seconds_in_glpk = 0.0;      ///< Time spent in GLPK.
  double cut_bound = 0.0;            ///< Lower bound of the cut loop's master (lazy).
  double window_bound = 0.0;         ///< Lower bound by decomposition into windows (lazy; 0: not run).
  std::size_t window_pieces = 0;     ///< Pieces of that decomposition.
  double lp_bound = 0.0;             ///< Bound from the LP relaxation of the pooled cuts (lazy; 0: not run).
  std::size_t zero_half_cuts = 0;    ///< {0,1/2}-cuts in that LP (lazy).
  double lagrangian_bound = 0.0;     ///< Bound by Lagrangian relaxation of that LP's blocks (lazy; 0: not run).
  std::size_t lagrangian_pairs = 0;  ///< Adjacent blocks solved as one pair that raised the last Lagrangian bound (lazy).
  std::size_t pooled_cuts = 0;       ///< Cuts in that LP.
  std::size_t windows_solved = 0;    ///< Windows solved by the neighbourhood search (lazy).
  std::size_t windows_improved = 0;  ///< Of those, windows whose solution was kept.
  /// Windows solved again with their values capped at their present noise: the
  /// gain found under the caps the rest tolerates of each value alone was illegal (lazy).
  std::size_t windows_rejected = 0;
  double seconds = 0.0;              ///< Whole call.
};

/// The one result of `place_reduce_noise`.
template <class V>
struct PlacementResult {
  std::vector<V> reduce_after;  ///< The ops after which to insert reduce_noise, in vertex order (legal).
  PlacementStatus status = PlacementStatus::feasible;  ///< Proven optimal, feasible, or the greedy fallback.
  double best_bound = 0.0;      ///< Proven lower bound of the fewest reductions of any legal placement.
  double gap = 0.0;             ///< (inserted - best_bound) / inserted (0 when optimal or nothing inserted).
  std::size_t greedy_count = 0; ///< Reductions of the greedy placement.
  PlacementStatistics statistics;  ///< Counters and timings.
  std::string message;          ///< Why the search stopped (or fell back).
};

/// The placement `reduce_after` as a mask indexed by `vertex_index`.
template <NoisyProgram G>
[[nodiscard]] std::vector<bool> placement_mask(const G& program, const std::vector<vertex_t<G>>& reduce_after) {
  std::vector<bool> mask(vertex_count(program), false);
  for (const auto& v : reduce_after) mask[vertex_index(program, v)] = true;
  return mask;
}

/// The best case: the noise of every value when reduce_noise follows every
/// op whose noise would exceed `initial` (the least noise any placement gives).
template <NoisyProgram G>
[[nodiscard]] NoiseAnalysis<G> least_possible_noise(const G& program, const NoiseParameters& parameters) {
  NoiseAnalysisOptions options;
  options.reductions = Reductions::whenever_helpful;
  options.solver.widening = false;  // bounded by max(initial, input): the ascent is finite
  return analyze_noise(program, parameters, std::move(options));
}

/// Throws `PlacementError` naming the first op (in vertex order) that no
/// placement can make legal; otherwise returns the best-case analysis.
template <NoisyProgram G>
NoiseAnalysis<G> check_placement_possible(const G& program, const NoiseParameters& parameters) {
  NoiseAnalysis<G> best = least_possible_noise(program, parameters);
  if (!best.converged()) {
    throw PlacementError(best.solver_result().outcome().offending_index, NoisyOp::plain,
                         "the best-case noise analysis did not converge (" + best.solver_result().outcome().message() + ")");
  }
  for (const auto& v : vertex_range(program)) {
    const NoisyOp kind = kind_of(program, v);
    if (!is_checked(kind)) continue;
    const std::optional<Interval> own = noise_before_reduction(best, v);
    if (!own || is_legal_noise(*own, parameters)) continue;
    const std::string why =
        kind == NoisyOp::reduce_noise
            ? "the noise after reduce_noise (" + std::to_string(parameters.initial) + ") exceeds the allowable maximum of " +
                  std::to_string(parameters.maximum)
            : "no placement of reduce_noise can make this op legal: even with its operands at their least possible "
              "noise, its noise is " +
                  std::to_string(own->umax()) + ", above the allowable maximum of " + std::to_string(parameters.maximum);
    throw PlacementError(vertex_index(program, v), kind, why);
  }
  return best;
}

}  // namespace kildall::noisy
