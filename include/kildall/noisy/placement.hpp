#pragma once
/// \file
/// What the `reduce_noise` placement optimizers share: a placement is the
/// list of ops after which a `reduce_noise` goes; `PlacementError` names the
/// op that no placement can make legal; `check_placement_possible` finds it
/// (or proves none exists) with one best-case noise analysis: reducing after
/// every op whose noise exceeds `initial` gives every value the least noise
/// any placement can give it (the transfers are monotone), so the program can
/// be made legal iff that best case is legal.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

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
