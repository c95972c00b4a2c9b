#pragma once
/// \file
/// Critical-cone cover cuts for `reduce_noise` placement: the separation step
/// of a lazy-constraint (combinatorial Benders, "logic-based Benders") method
/// in which kildall's noise analysis is the oracle.
///
/// A cover cut is a set `S` of reducible ops with the guarantee that *every*
/// legal placement reduces at least one op of `S`: `sum_{s in S} reduce_s >= 1`.
/// It is derived from one violation of one (illegal) placement `R`: from the
/// violating op `u`, walk back through its critical inputs (for `add`/`sub`
/// and block arguments the noisier input, for `mul` all inputs) as long as
/// they are unreduced in `R`; the walked ops form `S`.
///
/// Validity does not rest on `R`. Every candidate `S` is certified by a lower
/// bound: the noise of each op outside the cone is bounded below by the
/// best-case analysis (`least_possible_noise`, the least noise any placement
/// gives the value; the transfers are monotone), and the ops of `S` and the
/// block arguments in the cone are re-evaluated from these bounds with the
/// model's transfer functions. If the resulting lower bound of `u`'s own noise
/// still exceeds the maximum, then no placement that leaves all of `S`
/// unreduced is legal, for any choice elsewhere. Only certified cuts are
/// returned. The walk is depth-limited (the shallowest certified cone) and
/// then pruned (ops whose removal keeps the certificate are dropped), so cuts
/// are short and local.
///
/// The separator works on the flat copy of `compact_program.hpp`; the noise
/// rules (and which operands are critical) come from `noise_rule`.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <kildall/noisy/compact_program.hpp>
#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/noise_model.hpp>
#include <kildall/noisy/program_concept.hpp>

namespace kildall::noisy {

/// A valid inequality of every legal placement: at least one op of `ops` is
/// reduced.
struct CoverCut {
  std::vector<std::uint32_t> ops;      ///< Vertex indices (reducible ops), sorted, no duplicates.
  std::uint32_t at = 0;                ///< The op whose own noise the cut protects.
  std::uint64_t certified_noise = 0;   ///< Lower bound of `at`'s own noise when no op of `ops` is reduced (> maximum).
};

/// Derives certified cover cuts from violations (see the file comment). Holds
/// scratch space: one separator per thread.
class CoverCutSeparator {
 public:
  /// `lower[v]`: a lower bound of `v`'s noise (after any reduction) under every
  /// placement, e.g. the best-case analysis; `program` must outlive the separator.
  CoverCutSeparator(const CompactNoisyProgram& program, std::vector<std::uint64_t> lower, const NoiseParameters& parameters)
      : p_(&program),
        lower_(std::move(lower)),
        parameters_(parameters),
        stamp_(program.size(), 0),
        value_(program.size(), 0),
        depth_(program.size(), 0) {}

  /// Largest cone (vertices) the walk explores before giving up on a violation.
  std::size_t cone_limit = 1u << 14;
  /// Cones with more candidate ops than this are not pruned.
  std::size_t prune_limit = 256;

  /// The lower bounds the separator certifies with.
  [[nodiscard]] const std::vector<std::uint64_t>& lower_bounds() const noexcept { return lower_; }

  /// A lower bound of `u`'s own noise (before a reduction after `u`) over all
  /// placements that reduce none of the reducible ops in `transparent`;
  /// `transparent` may also hold block arguments (re-evaluated from their
  /// inputs). Evaluated in the given order (operands first gives the tightest
  /// bound); an operand not evaluated yet counts with its global lower bound.
  [[nodiscard]] std::uint64_t certified_own_noise(std::uint32_t u, std::span<const std::uint32_t> transparent) {
    next_epoch();
    std::vector<std::uint64_t>& in = scratch_;
    // Acyclic: one pass in topological order is exact. With loops, `u` itself
    // may be in the set (its own noise feeds back); a few passes tighten the
    // bound (each pass applies the monotone transfers to lower bounds).
    const int passes = p_->acyclic() ? 1 : 3;
    for (int pass = 0; pass < passes; ++pass) {
      for (const std::uint32_t w : transparent) {
        const NoisyOp k = p_->kind[w];
        if (!depends_on_operands(k)) continue;  // a placement-independent value: its bound
        gather(w, in);
        value_[w] = fold_noise(k, in, parameters_);
        stamp_[w] = epoch_;
      }
    }
    gather(u, in);
    return fold_noise(p_->kind[u], in, parameters_);
  }

  /// A certified cut for the violation at `u` under a placement: `noise[v]` is
  /// every value's noise under it (after reductions) and `reduced[v]` says
  /// whether a reduce_noise follows `v`. nullopt when no certified cut exists
  /// among the unreduced ops of `u`'s critical cone (then the violation is not
  /// the placement's fault alone, e.g. a pointless reduction).
  [[nodiscard]] std::optional<CoverCut> separate(std::uint32_t u, std::span<const std::uint64_t> noise,
                                                 const std::vector<bool>& reduced) {
    // 1. Breadth-first walk of the critical cone through unreduced ops and block arguments.
    cone_.clear();
    next_epoch();
    const std::uint32_t walk = epoch_;
    depth_[u] = 0;  // (not marked: in a loop, `u` can be in its own cone)
    std::vector<std::uint32_t> frontier{u};
    std::size_t head = 0;
    std::vector<std::uint32_t> critical;
    while (head < frontier.size() && cone_.size() < cone_limit) {
      const std::uint32_t w = frontier[head++];
      critical_operands(w, noise, critical);
      for (const std::uint32_t o : critical) {
        if (stamp_[o] == walk) continue;
        stamp_[o] = walk;
        const NoisyOp k = p_->kind[o];
        const bool expandable = k == NoisyOp::join || (is_reducible(k) && !(o < reduced.size() && reduced[o]));
        if (!expandable) continue;
        depth_[o] = depth_[w] + 1;
        cone_.push_back(o);
        frontier.push_back(o);
      }
    }
    last_cone_.clear();
    if (cone_.empty()) return std::nullopt;
    // 2. The shallowest certified depth.
    const std::uint32_t max_depth = depth_[cone_.back()];  // (breadth-first: the last is the deepest)
    std::vector<std::uint32_t> chosen;
    std::uint64_t certified = 0;
    bool found = false;
    for (std::uint32_t d = 1; d <= max_depth && !found; ++d) {
      chosen.clear();
      for (const std::uint32_t w : cone_)
        if (depth_[w] <= d) chosen.push_back(w);
      order(chosen);
      certified = certified_own_noise(u, chosen);
      found = certified > parameters_.maximum;
    }
    if (!found) return std::nullopt;
    // 3. Prune: drop ops (farthest first) while the certificate holds.
    return prune(u, std::move(chosen), certified, /*farthest_first=*/true);
  }

  /// Up to two different certified cuts for the violation at `u` (see
  /// `separate`): the cone pruned farthest-first (ops near `u`) and
  /// nearest-first (ops far from `u`). More cuts per violation tighten the
  /// master's relaxation.
  [[nodiscard]] std::vector<CoverCut> separate_both_ways(std::uint32_t u, std::span<const std::uint64_t> noise,
                                                         const std::vector<bool>& reduced) {
    std::vector<CoverCut> out;
    auto near = separate(u, noise, reduced);
    if (!near) return out;
    out.push_back(std::move(*near));
    if (!last_cone_.empty()) {
      auto far = prune(u, last_cone_, last_certified_, /*farthest_first=*/false);
      if (far && far->ops != out.front().ops) out.push_back(std::move(*far));
    }
    return out;
  }

 private:
  // Drops ops from the certified set `chosen` (by depth, either way) while the
  // certificate holds, a few passes; the cut of what remains.
  std::optional<CoverCut> prune(std::uint32_t u, std::vector<std::uint32_t> chosen, std::uint64_t certified,
                                bool farthest_first) {
    if (farthest_first) {
      last_cone_ = chosen;
      last_certified_ = certified;
    }
    std::size_t reducible_count = 0;
    for (const std::uint32_t w : chosen) reducible_count += is_reducible(p_->kind[w]) ? 1 : 0;
    if (reducible_count <= prune_limit) {
      for (int pass = 0; pass < 3; ++pass) {
        bool changed = false;
        std::vector<std::uint32_t> by_depth = chosen;
        std::stable_sort(by_depth.begin(), by_depth.end(), [&](std::uint32_t a, std::uint32_t b) {
          return farthest_first ? depth_[a] > depth_[b] : depth_[a] < depth_[b];
        });
        std::vector<std::uint32_t> trial;
        for (const std::uint32_t drop : by_depth) {
          trial.clear();
          for (const std::uint32_t w : chosen)
            if (w != drop) trial.push_back(w);
          const std::uint64_t c = certified_own_noise(u, trial);
          if (c > parameters_.maximum) {
            chosen.swap(trial);
            certified = c;
            changed = true;
          }
        }
        if (!changed) break;
      }
    }
    CoverCut cut;
    cut.at = u;
    cut.certified_noise = certified;
    for (const std::uint32_t w : chosen)
      if (is_reducible(p_->kind[w])) cut.ops.push_back(w);
    std::sort(cut.ops.begin(), cut.ops.end());
    cut.ops.erase(std::unique(cut.ops.begin(), cut.ops.end()), cut.ops.end());
    if (cut.ops.empty()) return std::nullopt;  // a violation no placement can fix (check_placement_possible rules it out)
    return cut;
  }

  void next_epoch() {
    if (++epoch_ == 0) {  // wrapped: forget every old mark
      std::fill(stamp_.begin(), stamp_.end(), 0u);
      epoch_ = 1;
    }
  }

  // Operand values of `w` for the certificate: evaluated ones, else the bound.
  void gather(std::uint32_t w, std::vector<std::uint64_t>& in) const {
    in.clear();
    for (const std::uint32_t o : p_->operands(w)) in.push_back(stamp_[o] == epoch_ ? value_[o] : lower_[o]);
  }

  // Operands first: topological order if the program is acyclic, else deepest first.
  void order(std::vector<std::uint32_t>& list) const {
    if (p_->acyclic()) {
      std::sort(list.begin(), list.end(), [&](std::uint32_t a, std::uint32_t b) { return p_->position[a] < p_->position[b]; });
    } else {
      std::stable_sort(list.begin(), list.end(), [&](std::uint32_t a, std::uint32_t b) { return depth_[a] > depth_[b]; });
    }
  }

  // The inputs that decide `w`'s noise (its rule): the noisiest one where the
  // noise is a maximum (add/sub/join), all of them where it is a sum (mul).
  void critical_operands(std::uint32_t w, std::span<const std::uint64_t> noise, std::vector<std::uint32_t>& out) const {
    out.clear();
    const auto ops = p_->operands(w);
    const NoiseRule& rule = noise_rule(p_->kind[w]);
    if (rule.combine == NoiseCombine::sum) {
      out.assign(ops.begin(), ops.end());
      return;
    }
    if (rule.combine != NoiseCombine::max) return;
    std::uint32_t best = 0;
    bool any = false;
    for (const std::uint32_t o : ops) {
      if (!any || noise[o] > noise[best]) best = o;
      any = true;
    }
    if (any) out.push_back(best);
  }

  const CompactNoisyProgram* p_;
  std::vector<std::uint64_t> lower_;
  NoiseParameters parameters_;
  std::vector<std::uint32_t> stamp_;
  std::vector<std::uint64_t> value_;
  std::vector<std::uint32_t> depth_;
  std::vector<std::uint32_t> cone_;
  std::vector<std::uint32_t> last_cone_;  // the certified set of the last `separate`, before pruning
  std::uint64_t last_certified_ = 0;
  std::vector<std::uint64_t> scratch_;
  std::uint32_t epoch_ = 0;
};

/// The best-case lower bounds of every value's noise (indexed by vertex
/// index) from `least_possible_noise` / `check_placement_possible`.
template <NoisyProgram G>
[[nodiscard]] std::vector<std::uint64_t> noise_lower_bounds(const NoiseAnalysis<G>& least) {
  const G& program = least.program();
  std::vector<std::uint64_t> out(vertex_count(program), 0);
  for (const auto& v : vertex_range(program)) out[vertex_index(program, v)] = least.noise_bound(v).value_or(0);
  return out;
}

}  // namespace kildall::noisy
