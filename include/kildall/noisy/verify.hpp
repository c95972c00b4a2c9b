#pragma once
/// \file
/// Noise verification, as in the article's pass: after the noise analysis,
/// every `add`/`sub`/`mul`/`reduce_noise` result must be at most the maximum
/// (for an op followed by a virtually placed reduce_noise, its own noise
/// before the reduction is checked too). Values never reached (dead blocks in
/// the CFG form) are not checked. The message is the article's wording:
/// `Found op after which the noise exceeds the allowable maximum of 26; it was: 48`.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/noise_model.hpp>
#include <kildall/noisy/program_concept.hpp>

namespace kildall::noisy {

/// A checked op whose noise exceeds the maximum.
template <class V>
struct NoiseViolation {
  V value;                        ///< The op (its result value).
  std::uint64_t noise = 0;        ///< Its noise (upper bound).
  bool before_reduction = false;  ///< True when the excess is the op's own noise, before a placed reduce_noise.
};

/// The article's message for a violation: "Found op after which the noise
/// exceeds the allowable maximum of <maximum>; it was: <noise>".
[[nodiscard]] inline std::string noise_violation_message(std::uint64_t maximum, std::uint64_t noise) {
  return "Found op after which the noise exceeds the allowable maximum of " + std::to_string(maximum) +
         "; it was: " + std::to_string(noise);
}

/// The violation at `v`, if `v` is a checked op over the maximum.
template <NoisyProgram G, class Prog>
[[nodiscard]] std::optional<NoiseViolation<vertex_t<G>>> noise_violation_at(const NoiseAnalysis<G, Prog>& analysis,
                                                                            const vertex_t<G>& v) {
  const NoisyOp kind = kind_of(analysis.program(), v);
  if (!is_checked(kind)) return std::nullopt;
  const std::uint64_t maximum = analysis.parameters().maximum;
  const std::optional<Interval> own = noise_before_reduction(analysis, v);
  if (own && !is_legal_noise(*own, analysis.parameters())) return NoiseViolation<vertex_t<G>>{v, own->umax(), true};
  const auto after = analysis.noise_bound(v);
  if (after && *after > maximum) return NoiseViolation<vertex_t<G>>{v, *after, false};
  return std::nullopt;
}

/// Every violation, in vertex order (empty: the program is legal).
template <NoisyProgram G, class Prog>
[[nodiscard]] std::vector<NoiseViolation<vertex_t<G>>> find_noise_violations(const NoiseAnalysis<G, Prog>& analysis) {
  std::vector<NoiseViolation<vertex_t<G>>> out;
  for (const auto& v : vertex_range(analysis.program()))
    if (auto violation = noise_violation_at(analysis, v)) out.push_back(*violation);
  return out;
}

/// True when no checked op exceeds the maximum.
template <NoisyProgram G, class Prog>
[[nodiscard]] bool is_legal(const NoiseAnalysis<G, Prog>& analysis) {
  for (const auto& v : vertex_range(analysis.program()))
    if (noise_violation_at(analysis, v)) return false;
  return true;
}

/// Analyses `program` with the reduce_noise ops of `reduce_after` (vertex
/// indices, virtual placement) and returns its violations.
template <NoisyProgram G>
[[nodiscard]] std::vector<NoiseViolation<vertex_t<G>>> verify_noise(const G& program,
                                                                    const NoiseParameters& parameters = {},
                                                                    std::vector<bool> reduce_after = {}) {
  NoiseAnalysisOptions options;
  options.reduce_after = std::move(reduce_after);
  return find_noise_violations(analyze_noise(program, parameters, std::move(options)));
}

}  // namespace kildall::noisy
