#pragma once
/// \file
/// `place_reduce_noise(program, parameters, options)`: the one entry point of
/// `reduce_noise` placement. One options type (`PlacementOptions`: the
/// strategy, the time limit, the gap, the second objective, progress), one
/// result type (`PlacementResult`: the placement, optimal / feasible /
/// fallback, the bound, the gap, greedy's count, statistics), whatever the
/// strategy:
///   - `lazy` (default): optimal at scale. On an acyclic program the exact
///     frontier dynamic program over the program (`frontier_placement.hpp`)
///     runs first and proves both objective levels when its frontier stays
///     narrow; otherwise lazy cover cuts with a hitting-set master
///     (`lazy_placement.hpp`) prove the count or certify a gap, and the
///     frontier program, bounded by that count, breaks the tie;
///   - `ilp`: the article's model, lexicographic, solved by GLPK
///     (`ilp_placement.hpp`); greedy as the fallback;
///   - `greedy`: the article's baseline (`greedy.hpp`).
/// The objective is lexicographic: first the number of inserted ops; then,
/// with `prefer_early`, the least total noise (the sum of the noise of every
/// add/sub/mul result and block argument: reductions as early as possible,
/// the article's placements). Every returned placement passed the noise
/// analysis; `statistics.total_noise` is its second objective.
///
/// Needs the `kildall::glpk` (GPL) and `kildall::eigen` targets.

#include <chrono>
#include <cstdint>
#include <vector>

#include <kildall/noisy/greedy.hpp>
#include <kildall/noisy/ilp_placement.hpp>
#include <kildall/noisy/lazy_placement.hpp>
#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/placement.hpp>
#include <kildall/noisy/program_concept.hpp>

namespace kildall::noisy {

/// The second objective of `placement`: the total noise of the add/sub/mul
/// results and block arguments of the placed program (by the noise analysis).
template <NoisyProgram G>
[[nodiscard]] std::uint64_t placement_total_noise(const G& program, const NoiseParameters& parameters,
                                                  const std::vector<vertex_t<G>>& placement) {
  NoiseAnalysisOptions options;
  options.reduce_after = placement_mask(program, placement);
  const NoiseAnalysis<G> analysis = analyze_noise(program, parameters, std::move(options));
  std::uint64_t total = 0;
  for (const auto& v : vertex_range(program)) {
    const NoisyOp kind = kind_of(program, v);
    if (!is_reducible(kind) && !(kind == NoisyOp::join && !in_edge_range(program, v).empty())) continue;
    total = saturating_noise_add(total, analysis.noise_bound(v).value_or(0));
  }
  return total;
}

/// Places `reduce_noise` in `program` by `options.strategy` (see the file
/// comment). Throws `PlacementError` naming the op when no placement can make
/// the program legal.
template <NoisyProgram G>
[[nodiscard]] PlacementResult<vertex_t<G>> place_reduce_noise(const G& program, const NoiseParameters& parameters = {},
                                                              const PlacementOptions& options = {}) {
  const auto start = std::chrono::steady_clock::now();
  PlacementResult<vertex_t<G>> out;
  switch (options.strategy) {
    case PlacementStrategy::lazy: out = detail::lazy_placement(program, parameters, options); break;
    case PlacementStrategy::ilp: out = detail::ilp_placement(program, parameters, options); break;
    case PlacementStrategy::greedy: {
      out.reduce_after = place_reduce_noise_greedy(program, parameters);
      out.greedy_count = out.reduce_after.size();
      for (const auto& v : vertex_range(program)) out.statistics.reducible_ops += is_reducible(kind_of(program, v)) ? 1 : 0;
      out.status = out.reduce_after.empty() ? PlacementStatus::optimal : PlacementStatus::feasible;
      out.gap = out.reduce_after.empty() ? 0.0 : 1.0;
      out.message = "the greedy baseline";
      out.statistics.seconds_first_legal = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      break;
    }
  }
  out.statistics.total_noise = placement_total_noise(program, parameters, out.reduce_after);
  out.statistics.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace kildall::noisy
