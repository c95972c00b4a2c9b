#pragma once
/// \file
/// The `lazy` strategy of `place_reduce_noise` (the default): optimal
/// `reduce_noise` placement at scale by a lazy-constraint (combinatorial
/// Benders; Hooker and Ottosson 2003, "Logic-based Benders decomposition")
/// method whose separation oracle is kildall's noise analysis, with the
/// hitting-set master of `hitting_set.hpp` (GLPK for its hard parts).
///
/// Instead of the article's model (a noise variable and big-M rows per op),
/// the master problem only has a binary per reducible op and cover cuts
/// (`cover_cuts.hpp`): "at least one op of S is reduced", each certified to
/// hold for every legal placement. The steps:
///   0. on an acyclic program, the exact frontier DP (`frontier_placement.hpp`);
///      if its layers stay within `LazyTuning::program_frontier_states`, its
///      placement is optimal for both objective levels and nothing else runs;
///   1. greedy placement, improved by `drop_redundant_reductions`: the first
///      legal placement (the incumbent), in milliseconds;
///   2. the noise analysis of the master's placement `R` (at first: none;
///      given a legal start placement, the master first holds the cuts at the
///      violations of the start less each of its reductions, one at a time);
///      every violation gives a certified cut from its critical cone; the
///      placement repaired and pruned (`local_search.hpp`) may improve the
///      incumbent;
///   3. the master: minimum number of reductions hitting every cut
///      (`HittingSetSolver`: one-op cuts fixed, independent parts, enumeration,
///      the cut-frontier DP, GLPK within the time left), parts cached until a
///      new cut touches them;
///   4. the master's optimum is a lower bound of the true optimum (every legal
///      placement satisfies every cut); if it reaches the incumbent's count,
///      or the master's placement is legal, the placement is proven optimal.
///      Else back to 2;
///   5. with the count proven (and `prefer_early`), the frontier DP bounded by
///      that count picks the least total noise (`LazyTuning::tie_break_states`);
///   6. on an acyclic program under a time limit, the cut loop (2-4) gets
///      `LazyTuning::cut_loop_share` of it; if it has not proven the count by
///      then, the windows of `window_decomposition.hpp` take the rest: a
///      lower bound by decomposition into pieces of consecutive ops, each
///      solved exactly by this strategy (`window_bound_share` of the time
///      left), then large neighbourhood search over windows of the incumbent
///      (each window re-solved exactly with the rest held), then the bound
///      again with what is left. With `LazyTuning::pooled_lp`, the cuts of
///      the pieces (of decompositions shifted against each other) and of the
///      cut loop are pooled and the LP relaxation of their hitting set
///      (`hitting_set_lp.hpp`, with the {0,1/2}-cuts of `zero_half_cuts.hpp`;
///      the pool only grows, so each LP starts from the last one's basis)
///      is a bound too, and so is the Lagrangian bound by blocks of ops on
///      its duals (`hitting_set_lagrangian.hpp`). The best bound is reported.
///      With `LazyTuning::threads` >= 2 (and two cores) the search runs on a
///      second thread beside the bound, from the pieces' repaired placement
///      to the time limit (more window sizes once it converges); the fewer
///      reductions of the two threads' placements are kept.
/// "optimal" is reported only when proven; when the time limit (honoured up
/// to one GLPK call's granularity) or the round limit hits, the result is the
/// incumbent with the best bound and its relative gap. Every returned
/// placement has been verified by the noise analysis.
///
/// Works on any `NoisyProgram`; the local search and the frontier DP need an
/// acyclic def-use graph (with loops the incumbent is the greedy placement and
/// the repaired master placements are skipped). Needs the `kildall::glpk`
/// (GPL) target.

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <unordered_map>
#include <optional>
#include <set>
#include <span>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <kildall/lp/glpk.hpp>
#include <kildall/lp/model.hpp>
#include <kildall/noisy/compact_program.hpp>
#include <kildall/noisy/cover_cuts.hpp>
#include <kildall/noisy/frontier_placement.hpp>
#include <kildall/noisy/greedy.hpp>
#include <kildall/noisy/hitting_set.hpp>
#include <kildall/noisy/hitting_set_lagrangian.hpp>
#include <kildall/noisy/hitting_set_lp.hpp>
#include <kildall/noisy/local_search.hpp>
#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/placement.hpp>
#include <kildall/noisy/program_concept.hpp>
#include <kildall/noisy/verify.hpp>
#include <kildall/noisy/window_decomposition.hpp>
#include <kildall/noisy/zero_half_cuts.hpp>

namespace kildall::noisy {

namespace detail {

// A hitting set of the part (not minimum): the incumbent's ops first.
inline std::vector<std::uint32_t> greedy_hitting_set(const HittingSetPart& hp, const std::vector<bool>& incumbent) {
  std::set<std::uint32_t> chosen;
  for (const auto& set : hp.sets) {
    if (std::any_of(set.begin(), set.end(), [&](std::uint32_t v) { return chosen.count(v) != 0; })) continue;
    auto pick = std::find_if(set.begin(), set.end(), [&](std::uint32_t v) { return v < incumbent.size() && incumbent[v]; });
    chosen.insert(pick != set.end() ? *pick : set.back());
  }
  return {chosen.begin(), chosen.end()};
}

// The master's hard parts: the set-covering model, solved by GLPK within a
// quarter of the time left (at least a second).
inline HittingSetResult glpk_hitting_set(const HittingSetPart& hp, std::chrono::steady_clock::time_point deadline,
                                         const std::vector<bool>& incumbent, PlacementStatistics& stats) {
  const std::vector<std::uint32_t>& ops = hp.elements;
  HittingSetResult part;
  double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
  // One hard part must not starve the others (nor the next rounds): at most
  // a quarter of the time left (at least a second) per call.
  const double budget = std::min(left, std::max(1.0, 0.25 * left));
  if (left <= 0.0) {
    part.chosen = greedy_hitting_set(hp, incumbent);
    return part;
  }
  lp::Model model;
  std::vector<lp::Var> x;
  x.reserve(ops.size());
  for (std::size_t j = 0; j < ops.size(); ++j) x.push_back(model.add_binary());
  lp::LinExpr total;
  for (const lp::Var& v : x) total += lp::LinExpr(v);
  for (const auto& set : hp.sets) {
    lp::LinExpr row;
    for (const std::uint32_t v : set) row += lp::LinExpr(x[static_cast<std::size_t>(std::lower_bound(ops.begin(), ops.end(), v) - ops.begin())]);
    (void)model.add(row >= 1.0);
  }
  model.minimize(total);
  lp::GlpkOptions glpk;
  glpk.time_limit_seconds = budget;
  glpk.polish = false;
  glpk.cuts = true;  // cover and clique cuts close set-covering gaps fast (measured: 20 s -> 0.1 s)
  glpk.mip_gap_abs = 0.999;  // integer objective: a gap below 1 proves optimality
  const lp::Solution s = lp::GlpkSolver(glpk).solve(model);
  ++stats.mip_solves;
  stats.seconds_in_glpk += s.seconds;
  if (!s.has_solution()) {
    part.bound = std::isnan(s.best_bound) ? 0.0 : std::ceil(s.best_bound - 1e-6);
    part.chosen = greedy_hitting_set(hp, incumbent);
    return part;
  }
  for (std::size_t j = 0; j < ops.size(); ++j)
    if (s.values[x[j].index()] > 0.5) part.chosen.push_back(ops[j]);
  const double count = static_cast<double>(part.chosen.size());
  const double glpk_bound = std::isnan(s.best_bound) ? 0.0 : std::ceil(s.best_bound - 1e-6);
  part.optimal = s.status == lp::SolveStatus::optimal || glpk_bound >= count;
  part.bound = part.optimal ? count : glpk_bound;
  return part;
}

/// The lazy strategy of `place_reduce_noise` (see the file comment). Throws
/// `PlacementError` naming the op when no placement can make the program
/// legal. The result is always legal (verified by the noise analysis) and
/// never worse than the greedy placement; `status` is `optimal` only when
/// proven.
///
/// `cuts` (optional): set to every cover cut the cut loop found (vertex
/// index lists; each is hit by every legal placement of `program`).
/// `start_placement` (optional, per vertex index): a placement to start from; when it
/// is legal and has fewer reductions than the greedy one, it is the first
/// incumbent (so the loop ends as soon as the bound meets it). When it is legal
/// (and the program acyclic), with `LazyTuning::start_cuts`, the master starts
/// with the cuts that explain each of its reductions.
template <NoisyProgram G>
[[nodiscard]] PlacementResult<vertex_t<G>> lazy_placement(const G& program, const NoiseParameters& parameters,
                                                          const PlacementOptions& options,
                                                          std::vector<std::vector<std::uint32_t>>* cuts = nullptr,
                                                          const std::vector<bool>& start_placement = {}) {
  using clock = std::chrono::steady_clock;
  using V = vertex_t<G>;
  const auto seconds = [](double s) { return std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(s)); };
  const auto start = clock::now();
  const bool limited = options.time_limit_seconds < 1e9;
  const auto deadline = limited ? start + seconds(std::max(0.0, options.time_limit_seconds)) : clock::time_point::max();
  const auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };

  PlacementResult<V> out;
  const LazyTuning& tuning = options.lazy;
  const NoiseAnalysis<G> least = check_placement_possible(program, parameters);
  const std::size_t n = vertex_count(program);
  std::vector<V> vertices(n);
  for (const V& v : vertex_range(program)) vertices[vertex_index(program, v)] = v;
  const CompactNoisyProgram compact = compact_program(program);
  for (const NoisyOp k : compact.kind) out.statistics.reducible_ops += is_reducible(k) ? 1 : 0;

  // Verified legality of a mask, by the noise analysis.
  const auto analysis_of = [&](const std::vector<bool>& mask) {
    NoiseAnalysisOptions o;
    o.reduce_after = mask;
    return analyze_noise(program, parameters, std::move(o));
  };
  const auto count_of = [](const std::vector<bool>& mask) {
    return static_cast<std::size_t>(std::count(mask.begin(), mask.end(), true));
  };

  // 1. The incumbent: greedy, pruned.
  std::vector<bool> incumbent = placement_mask(program, detail::greedy_placement_after_check(program, parameters));
  out.greedy_count = count_of(incumbent);
  const bool local = tuning.local_search && compact.acyclic();
  if (local) {
    std::vector<bool> pruned = drop_redundant_reductions(compact, incumbent, parameters);
    if (count_of(pruned) < out.greedy_count && is_legal(analysis_of(pruned))) incumbent = std::move(pruned);
  }
  if (start_placement.size() == n && count_of(start_placement) < count_of(incumbent) && is_legal(analysis_of(start_placement)))
    incumbent = start_placement;
  out.statistics.seconds_first_legal = elapsed();
  const auto offer = [&](std::vector<bool> candidate) {
    if (local) candidate = drop_redundant_reductions(compact, std::move(candidate), parameters);
    if (count_of(candidate) >= count_of(incumbent)) return;
    if (is_legal(analysis_of(candidate))) incumbent = std::move(candidate);
  };

  CoverCutSeparator separator(compact, noise_lower_bounds(least), parameters);
  std::vector<std::uint32_t> program_order(n);
  std::iota(program_order.begin(), program_order.end(), 0u);
  if (compact.acyclic()) program_order = compact.position;
  HittingSetSolver master(n, std::move(program_order));
  const HardPartSolver hard = [&out](const HittingSetPart& part, clock::time_point until, const std::vector<bool>& hint) {
    return glpk_hitting_set(part, until, hint, out.statistics);
  };
  // The certified cuts (one, or two with `two_cuts_per_violation`) for the
  // violation at `u` of the placement `mask`, whose values have `noise`, added
  // to the master; how many were new.
  const auto add_cuts_at = [&](std::uint32_t u, std::span<const std::uint64_t> noise_of, const std::vector<bool>& mask) {
    std::size_t added = 0;
    if (tuning.two_cuts_per_violation) {
      for (const CoverCut& cut : separator.separate_both_ways(u, noise_of, mask)) added += master.add(cut.ops) ? 1 : 0;
    } else if (auto cut = separator.separate(u, noise_of, mask)) {
      added += master.add(cut->ops) ? 1 : 0;
    }
    return added;
  };
  // The cuts that explain each reduction of a legal start: the start without
  // it, and a certified cut at each violation that leaves (valid for every
  // placement; the master would find most of them only round by round).
  if (tuning.start_cuts && local && start_placement.size() == n &&
      is_legal_placement(compact, evaluate_placement(compact, start_placement, parameters), parameters)) {
    std::vector<bool> without = start_placement;
    for (std::uint32_t v = 0; v < n; ++v) {
      if (!without[v]) continue;
      if (limited && clock::now() >= deadline) break;  // (a pass over the program per reduction)
      without[v] = false;
      const PlacedNoise left = evaluate_placement(compact, without, parameters);
      for (std::uint32_t u = 0; u < n; ++u)
        if (exceeds_maximum(compact, left, u, parameters)) (void)add_cuts_at(u, left.value, without);
      without[v] = true;
    }
  }
  std::vector<bool> placed(n, false);  // the master's placement
  double bound = 0.0;
  bool proven = false;
  bool master_optimal = false;  // the master's last solve was exact
  std::string why;
  std::vector<std::uint64_t> noise(n, 0);
  // 0. A narrow frontier: the exact DP over the program proves both levels at once.
  bool frontier_done = false;
  if (compact.acyclic() && tuning.program_frontier_states > 0 && out.greedy_count > 0) {
    FrontierPlacementOptions exact_options;
    exact_options.max_states = tuning.program_frontier_states;
    exact_options.max_reductions = out.greedy_count;
    // At most half the time limit: when it overflows late, the cut loop still has time.
    exact_options.deadline =
        limited ? start + seconds(0.5 * std::max(0.0, options.time_limit_seconds)) : deadline;
    if (auto exact = frontier_placement(compact, parameters, exact_options)) {
      out.statistics.frontier_states = exact->widest_layer;
      if (is_legal(analysis_of(exact->reduced))) {
        incumbent = std::move(exact->reduced);
        bound = static_cast<double>(count_of(incumbent));
        proven = frontier_done = out.statistics.frontier_exact = out.statistics.tie_break_optimal = true;
        why = "the program's frontier dynamic program (exact for both levels)";
      }
    }
  }
  // 6. (below) Wide acyclic programs under a time limit: the cut loop gets a
  // share of it, then the windows (a bound by decomposition, a better placement).
  const bool windows = limited && !frontier_done && tuning.window_ops > 0 && compact.acyclic();
  const auto loop_deadline =
      windows ? start + seconds(std::clamp(tuning.cut_loop_share, 0.0, 1.0) * std::max(0.0, options.time_limit_seconds)) : deadline;
  for (std::size_t round = 0; !frontier_done; ++round) {
    if (count_of(incumbent) == 0 || bound >= static_cast<double>(count_of(incumbent)) - 1e-9) {
      proven = true;
      why = count_of(incumbent) == 0 ? "no reduction needed" : "the lower bound meets the incumbent";
      break;
    }
    if (limited && clock::now() >= loop_deadline) {
      why = "time limit";
      break;
    }
    if (round >= tuning.max_rounds) {
      why = "round limit";
      break;
    }
    const double current_gap = (static_cast<double>(count_of(incumbent)) - bound) / static_cast<double>(count_of(incumbent));
    if (options.relative_gap > 0.0 && current_gap <= options.relative_gap) {
      why = "relative gap reached";
      break;
    }
    out.statistics.rounds = round + 1;
    // 2. The oracle: analyse the master's placement (pointless reductions dropped).
    NoiseAnalysis<G> analysis = analysis_of(placed);
    bool dropped = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!placed[i]) continue;
      const auto own = noise_before_reduction(analysis, vertices[i]);
      if (own && own->umax() <= parameters.initial) {
        placed[i] = false;
        dropped = true;
      }
    }
    if (dropped) analysis = analysis_of(placed);
    const auto violations = find_noise_violations(analysis);
    if (violations.empty()) {
      // The master's optimum is legal: optimal if the master was solved exactly.
      offer(placed);
      if (master_optimal) {
        if (count_of(placed) <= count_of(incumbent)) incumbent = placed;
        bound = std::max(bound, static_cast<double>(count_of(incumbent)));
        proven = true;
        why = "the master's optimum is legal";
        break;
      }
      // Legal, but the master was not solved exactly (time budget): solve it again.
    }
    for (std::size_t i = 0; i < n; ++i) noise[i] = analysis.noise_bound(vertices[i]).value_or(0);
    std::size_t added = 0;
    for (const auto& violation : violations) {
      added += add_cuts_at(static_cast<std::uint32_t>(vertex_index(program, violation.value)), noise, placed);
    }
    if (!violations.empty() && local) {
      if (auto repaired = repair_placement(compact, placed, parameters)) offer(std::move(*repaired));
    }
    if (added == 0 && !violations.empty()) {
      why = "no certified cut for the master's placement";
      break;
    }
    // 3. The master.
    const HittingSetResult result = master.solve(tuning.master, incumbent, hard, loop_deadline);
    out.statistics.parts = master.statistics().parts;
    out.statistics.largest_part = master.statistics().largest_part;
    out.statistics.dp_solves += master.statistics().dp_solves;
    master_optimal = result.optimal;
    bound = std::max(bound, result.bound);
    std::fill(placed.begin(), placed.end(), false);
    for (const std::uint32_t v : result.chosen) placed[v] = true;
    out.statistics.cuts = master.sets();
    out.statistics.fixed = master.fixed_count();
    if (options.progress) {
      PlacementProgress report;
      report.round = round + 1;
      report.incumbent = static_cast<double>(count_of(incumbent));
      report.bound = bound;
      report.cuts = master.sets();
      report.elapsed_seconds = elapsed();
      options.progress(report);
    }
  }
  out.statistics.cuts = master.sets();
  out.statistics.fixed = master.fixed_count();
  out.statistics.binaries = master.elements_in_sets();
  out.statistics.cut_bound = bound;
  if (cuts != nullptr) *cuts = master.all_sets();
  // 6. The windows (`window_decomposition.hpp`): each window's program solved
  // exactly by this strategy (without windows of its own).
  if (windows && !proven && count_of(incumbent) > 0 && clock::now() < deadline) {
    // The pieces of the bound with GLPK for every master part beyond
    // enumeration (on the w64 programs the base bound took 2-4 s
    // instead of 10-15 s); the neighbourhood search's windows as the cut loop
    // solves its own master (more windows per second there).
    const auto window_solver = [&](bool glpk_parts) {
      return WindowSolver([&, glpk_parts](const CompactNoisyProgram& sub, clock::time_point until, const std::vector<bool>& present) {
        PlacementOptions sub_options;
        sub_options.prefer_early = false;
        sub_options.time_limit_seconds = std::max(0.0, std::chrono::duration<double>(until - clock::now()).count());
        sub_options.lazy = tuning;
        sub_options.lazy.window_ops = 0;
        if (glpk_parts) sub_options.lazy.master.frontier_states = 0;
        else if (tuning.window_master_states > 0)
          sub_options.lazy.master.frontier_states = std::min(tuning.master.frontier_states, tuning.window_master_states);
        // The pieces' cuts feed the pooled LP: the cut loop, not the program's frontier DP (no cuts).
        if (glpk_parts && tuning.pooled_lp) sub_options.lazy.program_frontier_states = 0;
        WindowSolution solution;
        try {
          const PlacementResult<std::uint32_t> r =
              lazy_placement(sub, parameters, sub_options, glpk_parts && tuning.pooled_lp ? &solution.cuts : nullptr,
                             present);
          solution.reduced = placement_mask(sub, r.reduce_after);
          solution.bound = r.best_bound;
          solution.optimal = r.status == PlacementStatus::optimal;
        } catch (const PlacementError&) {
          // No legal placement of the window's program: no bound, no placement.
        }
        return solution;
      });
    };
    const WindowSolver solve_piece = window_solver(true), solve_window = window_solver(false);
    WindowOptions window_options;
    window_options.ops = tuning.window_ops;
    window_options.window_seconds = tuning.window_seconds;
    window_options.deadline = deadline;
    WindowBound decomposition(compact, noise_lower_bounds(least), parameters, window_options);
    const auto left = std::chrono::duration<double>(deadline - clock::now()).count();
    const auto bound_until = clock::now() + seconds(std::clamp(tuning.window_bound_share, 0.0, 1.0) * left);
    // The LP relaxation of every cut found (the cut loop's and the pieces'),
    // in parts of `lp_part_ops` consecutive reducible ops.
    // The Lagrangian bound's blocks of `lagrangian_block_ops` consecutive reducible ops.
    std::vector<std::uint32_t> lp_part(n, 0), lagrangian_block(n, 0);
    std::size_t reducible = 0;
    for (const std::uint32_t v : window_order(compact)) {
      if (tuning.lp_part_ops > 0) lp_part[v] = static_cast<std::uint32_t>(reducible / tuning.lp_part_ops);
      if (tuning.lagrangian_block_ops > 0) lagrangian_block[v] = static_cast<std::uint32_t>(reducible / tuning.lagrangian_block_ops);
      reducible += is_reducible(compact.kind[v]) ? 1 : 0;
    }
    const auto lagrangian_reserve =
        seconds(tuning.lagrangian_block_ops > 0 && tuning.pooled_lp
                    ? tuning.lagrangian_seconds_per_block * static_cast<double>(reducible / tuning.lagrangian_block_ops + 1)
                    : 0.0);
    // The bound and the search run side by side on two threads when asked
    // and the machine has two cores (GLPK solves then overlap only if GLPK
    // keeps its state per thread, `lp::glpk_thread_local()`); else one after
    // the other. The search works on its own copy of the incumbent; the
    // bound thread's offers go to `incumbent`; the better one is kept.
    const bool side_by_side = tuning.threads >= 2 && std::thread::hardware_concurrency() >= 2;
    std::atomic<double> shared_bound{bound};
    std::atomic<std::size_t> search_count{count_of(incumbent)};
    const auto raise_bound = [&](double b) {
      bound = std::max(bound, b);
      shared_bound.store(bound);
    };
    // The fewest reductions found so far, by either thread.
    const auto best_count = [&] { return std::min(count_of(incumbent), search_count.load()); };
    const auto open = [&] { return bound < static_cast<double>(best_count()) - 1e-9; };
    double lp_seconds = 0.0;          // the last LP's solve
    double warm_lp_seconds = 0.0;     // the longest LP solve from a last basis (all but the first)
    double lagrangian_seconds = 0.0;  // the last Lagrangian bound's
    std::vector<std::vector<std::uint32_t>> lp_cuts;  // found at the LP's rounded points
    std::vector<HittingSetInequality> zero_half;      // {0,1/2}-cuts of the pool at the LP's points
    // The cover cuts of the violations of a placement (they hold for every
    // legal placement; the placement violates each), kept for the pooled LP.
    const auto cuts_at = [&](const std::vector<bool>& mask) {
      NoiseAnalysis<G> analysis = analysis_of(mask);
      const auto violations = find_noise_violations(analysis);
      for (std::size_t i = 0; i < n && !violations.empty(); ++i) noise[i] = analysis.noise_bound(vertices[i]).value_or(0);
      std::size_t added = 0;
      for (const auto& violation : violations) {
        const auto u = static_cast<std::uint32_t>(vertex_index(program, violation.value));
        if (auto cut = separator.separate(u, noise, mask)) {
          lp_cuts.push_back(std::move(cut->ops));
          ++added;
        }
      }
      return added;
    };
    // The pool only grows (the pieces', the cut loop's and the LP's own cuts
    // in the order found), so each part of its LP re-solves from its last
    // basis (`GrowingHittingSetLp`).
    std::vector<std::vector<std::uint32_t>> pool;
    std::size_t pooled_pieces = 0, pooled_master = 0, pooled_lp_cuts = 0;  // taken so far from each
    const auto grow_pool = [&] {
      const auto take = [&](const std::vector<std::vector<std::uint32_t>>& from, std::size_t& taken) {
        for (; taken < from.size(); ++taken) pool.push_back(from[taken]);
      };
      take(decomposition.cuts(), pooled_pieces);
      take(master.all_sets(), pooled_master);
      take(lp_cuts, pooled_lp_cuts);
    };
    GrowingHittingSetLp pooled(n, lp_part);
    // Rounds after the first only while one more fits before `until`; with
    // `lagrangian`, the Lagrangian bound by blocks on the last LP's duals.
    const auto pooled_lp_bound = [&](std::size_t rounds, clock::time_point until, bool lagrangian) {
      HittingSetLpBound lp;
      double separation_seconds = 0.0;  // the last round's, after its LP
      for (std::size_t round = 0; round <= rounds && clock::now() < deadline; ++round) {
        grow_pool();
        const auto lp_start = clock::now();
        lp = pooled.solve(pool, zero_half, deadline);
        const double took = std::chrono::duration<double>(clock::now() - lp_start).count();
        if (lp_seconds > 0.0) warm_lp_seconds = std::max(warm_lp_seconds, took);
        lp_seconds = took;
        out.statistics.seconds_in_glpk += lp.seconds;
        out.statistics.pooled_cuts = pool.size();
        out.statistics.lp_bound = std::max(out.statistics.lp_bound, lp.bound);
        out.statistics.zero_half_cuts = zero_half.size();
        raise_bound(lp.bound);
        if (round == rounds || !lp.solved) break;
        // (The LP from its last basis takes a fraction of the separation below.)
        if (clock::now() + seconds(1.2 * (lp_seconds + separation_seconds)) > until) break;
        const auto separation_start = clock::now();
        std::size_t added = 0;
        // The {0,1/2}-cuts of the pool that the LP's point violates (within one part: else left out).
        if (tuning.zero_half_cuts)
          for (HittingSetInequality& cut : zero_half_cuts(n, pool, lp.values)) {
            const std::uint32_t k = lp_part[cut.elements.front()];
            if (std::any_of(cut.elements.begin(), cut.elements.end(), [&](std::uint32_t v) { return lp_part[v] != k; })) continue;
            zero_half.push_back(std::move(cut));
            ++added;
          }
        // The LP's point rounded at 1/2: its violations give cover cuts that
        // point violates (the cut's ops are below 1/2; short cuts sum below 1).
        std::vector<bool> rounded(n, false);
        for (std::size_t v = 0; v < n; ++v) rounded[v] = lp.values[v] >= 0.5 - 1e-9 && is_reducible(compact.kind[v]);
        if (local)
          if (auto repaired = repair_placement(compact, rounded, parameters)) offer(std::move(*repaired));
        added += cuts_at(rounded);
        separation_seconds = std::chrono::duration<double>(clock::now() - separation_start).count();
        if (added == 0) break;
      }
      // The Lagrangian bound on the last LP's duals (the rows it solved with: `pool`, then `zero_half`).
      if (lagrangian && tuning.lagrangian_block_ops > 0 && lp.certified > 0.0 &&
          clock::now() < deadline && open()) {
        const auto lagrangian_start = clock::now();
        HittingSetLagrangianOptions lagrangian_options;
        lagrangian_options.block_seconds = tuning.lagrangian_block_seconds;
        // (Pairs only in the last bound, which may run to the limit: an earlier one's time
        // sets what the end keeps for the last.)
        if (until == deadline) lagrangian_options.pair_seconds = tuning.lagrangian_pair_seconds;
        lagrangian_options.enough = static_cast<double>(best_count());
        const HittingSetLagrangianBound blocks = hitting_set_lagrangian_bound(
            n, pool, lp.duals, lagrangian_block, std::min(deadline, std::max(until, clock::now()) + lagrangian_reserve),
            zero_half, lagrangian_options);
        out.statistics.seconds_in_glpk += blocks.seconds;
        out.statistics.lagrangian_bound = std::max(out.statistics.lagrangian_bound, blocks.bound);
        if (lagrangian_options.pair_seconds > 0.0) out.statistics.lagrangian_pairs = blocks.merged_pairs;  // (the last bound's)
        raise_bound(blocks.bound);
        lagrangian_seconds = std::chrono::duration<double>(clock::now() - lagrangian_start).count();
      }
    };
    // The neighbourhood search from `start`: windows of `neighbourhood_ops` to
    // convergence, then other window sizes, whose windows end elsewhere. One
    // after the other (`own_thread` false): windows twice as large, for half
    // the time left. On its own thread, which has the time to the limit:
    // rounds of 1.5, 1.25, 1.75 and 2 times the size in turn, until the limit
    // or a whole turn gains nothing (on the 10,000-op w64 program
    // 3,739 -> 3,726 after the first round converged). It stops once the
    // bound meets its count.
    const auto neighbourhood_search = [&](std::vector<bool> start, bool own_thread, const std::stop_token& cancel,
                                          WindowSearchStatistics& search) {
      const std::size_t base_ops = tuning.neighbourhood_ops > 0 ? tuning.neighbourhood_ops : window_options.ops;
      WindowOptions search_options = window_options;
      search_options.stop = [&](std::size_t count) {
        search_count.store(std::min(search_count.load(), count));
        return cancel.stop_requested() || shared_bound.load() >= static_cast<double>(count) - 1e-9;
      };
      // One search over windows `factor` times the size until `until`; true when it gained.
      const auto search_round = [&](double factor, clock::time_point until) {
        search_options.ops = std::max<std::size_t>(1, static_cast<std::size_t>(factor * static_cast<double>(base_ops)));
        search_options.window_seconds = factor * window_options.window_seconds;
        search_options.deadline = until;
        std::vector<bool> better = improve_by_windows(compact, start, parameters, search_options, solve_window, &search);
        if (local) better = drop_redundant_reductions(compact, std::move(better), parameters);
        if (count_of(better) >= count_of(start) || !is_legal(analysis_of(better))) return false;
        start = std::move(better);
        return true;
      };
      // (`stop` also tells the bound thread the count: asked after every round that gained.)
      const auto more = [&] { return clock::now() < deadline && !search_options.stop(count_of(start)); };
      (void)search_round(1.0, deadline);
      if (!own_thread) {
        const auto now = clock::now();
        if (more()) (void)search_round(2.0, now + (deadline - now) / 2);
        return start;
      }
      constexpr std::array<double, 4> factors{1.5, 1.25, 1.75, 2.0};
      for (std::size_t k = 0, idle = 0; idle < factors.size() && more(); ++k)
        idle = search_round(factors[k % factors.size()], deadline) ? 0 : idle + 1;
      return start;
    };
    WindowSearchStatistics search;
    std::vector<bool> searched;  // the search's placement (side by side)
    std::exception_ptr search_failure;
    std::jthread searcher;
    const auto start_search = [&] {
      searcher = std::jthread([&, start = incumbent](std::stop_token cancel) {
        try {
          searched = neighbourhood_search(start, true, cancel, search);
        } catch (...) {
          search_failure = std::current_exception();
        }
      });
    };
    if (tuning.pooled_lp) {
      // The pieces of both decompositions (no merging yet), then the LP.
      if (decomposition.solve_pieces(solve_piece, bound_until)) {
        // The pieces' placements side by side, repaired at the boundaries: a start for the search.
        if (local && !decomposition.placement().empty())
          if (auto repaired = repair_placement(compact, decomposition.placement(), parameters)) offer(std::move(*repaired));
        raise_bound(decomposition.bound());
        if (side_by_side && open()) start_search();
        (void)decomposition.collect_shifted(solve_piece, bound_until);
      }
      raise_bound(decomposition.bound());
      pooled_lp_bound(tuning.lp_rounds, bound_until, true);
    } else {
      if (side_by_side && open()) start_search();
      decomposition.improve(solve_piece, bound_until);
    }
    raise_bound(decomposition.bound());
    if (!searcher.joinable() && open()) {
      incumbent = neighbourhood_search(incumbent, false, std::stop_token{}, search);
    }
    if (open() && clock::now() < deadline) {
      // More shifted decompositions first (five in all: on the 10,000-op w64 program
      // four of them gave the LP 3,653 where two gave 3,640, and on 30,000 ops w64 five gave
      // 10,912 where three gave 10,907-10,911, docs/performance.md), then merged pieces; their cuts join the
      // pool, and the LP and the Lagrangian bound run again at the end, in the time kept
      // for them (1.5 times the longest LP solve from a last basis, and `lagrangian_reserve`
      // or 1.25 times the last Lagrangian bound's time, whichever is longer). With time for
      // more (a long limit: the pool grows by a third between 100 and 600 s on the issue's
      // 30,000-op w64 program, and its last LP outgrew the time kept from an early one),
      // they also run whenever the work since the last took four times as long as they did,
      // so the time kept follows the pool, and the bound rises on the way.
      // (`pooled_pieces`: the pieces' cuts in the pool at the last LP.)
      for (;;) {
        const double lp_kept = warm_lp_seconds > 0.0 ? warm_lp_seconds : lp_seconds;
        const auto end = deadline - seconds(tuning.pooled_lp ? 1.5 * lp_kept + 0.5 : 0.0) -
                         std::max(lagrangian_reserve, seconds(1.25 * lagrangian_seconds));
        const double refresh = 4.0 * (lp_seconds + lagrangian_seconds);
        const auto next = clock::now() + seconds(refresh);
        // An LP on the way only when 3.5 times its time (the LP's and the Lagrangian
        // bound's) is left after this round's work; else the work goes on to the end.
        const bool on_the_way = tuning.pooled_lp && lp_seconds > 0.0 && next + seconds(0.875 * refresh) < end;
        const auto until = on_the_way ? next : end;
        if (tuning.pooled_lp) (void)decomposition.collect_shifted(solve_piece, until, 5);
        decomposition.improve(solve_piece, until);
        raise_bound(decomposition.bound());
        if (!on_the_way || !open() || decomposition.cuts().size() == pooled_pieces) break;
        pooled_lp_bound(0, end, true);
      }
      // (Not again on the pool of the last LP and Lagrangian bound.)
      if (tuning.pooled_lp && open() && clock::now() < deadline && (decomposition.cuts().size() != pooled_pieces || lagrangian_seconds == 0.0))
        pooled_lp_bound(0, deadline, true);
    }
    if (searcher.joinable()) {
      if (!open()) searcher.request_stop();
      searcher.join();
      if (search_failure) std::rethrow_exception(search_failure);
      if (count_of(searched) < count_of(incumbent)) incumbent = std::move(searched);
    }
    out.statistics.windows_solved = search.windows;
    out.statistics.windows_improved = search.improved;
    out.statistics.windows_rejected = search.rejected;
    out.statistics.window_bound = decomposition.bound();
    out.statistics.window_pieces = decomposition.pieces();
    if (bound >= static_cast<double>(count_of(incumbent)) - 1e-9) {
      proven = true;
      why = "the bound by decomposition meets the incumbent";
    } else {
      why = "time limit (windows)";
    }
    if (options.progress) {
      PlacementProgress report;
      report.round = out.statistics.rounds;
      report.incumbent = static_cast<double>(count_of(incumbent));
      report.bound = bound;
      report.cuts = master.sets();
      report.elapsed_seconds = elapsed();
      options.progress(report);
    }
  }
  // 5. The second level: among the proven fewest, the least total noise, by
  // the frontier DP bounded by that count.
  if (proven && !frontier_done) {
    const std::size_t fewest = count_of(incumbent);
    out.statistics.tie_break_optimal = fewest == 0;
    if (fewest > 0 && options.prefer_early && compact.acyclic() && tuning.tie_break_states > 0) {
      FrontierPlacementOptions tie_options;
      tie_options.max_states = tuning.tie_break_states;
      tie_options.max_reductions = fewest;
      tie_options.deadline = deadline;
      auto tie = frontier_placement(compact, parameters, tie_options);
      if (tie && tie->count == fewest && is_legal(analysis_of(tie->reduced))) {
        incumbent = std::move(tie->reduced);
        out.statistics.tie_break_optimal = true;
        out.statistics.frontier_states = tie->widest_layer;
      }
    }
  }
  // The result: verified once more.
  if (!is_legal(analysis_of(incumbent))) {
    throw PlacementError(0, NoisyOp::plain, "internal error: the incumbent placement is not legal");
  }
  for (std::size_t i = 0; i < n; ++i)
    if (incumbent[i]) out.reduce_after.push_back(vertices[i]);
  const double inserted = static_cast<double>(out.reduce_after.size());
  out.best_bound = std::min(bound, inserted);
  out.status = proven ? PlacementStatus::optimal : PlacementStatus::feasible;
  if (proven) out.best_bound = inserted;
  out.gap = inserted > 0.0 ? (inserted - out.best_bound) / inserted : 0.0;
  out.message = why;
  out.statistics.seconds = elapsed();
  if (proven) out.statistics.seconds_optimal = out.statistics.seconds;
  return out;
}

}  // namespace detail

}  // namespace kildall::noisy
