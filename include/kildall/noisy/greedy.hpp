#pragma once
/// \file
/// The greedy `reduce_noise` placement: the article's trivial baseline,
/// "insert reduce_noise ops greedily, whenever an op would bring the noise of
/// a value too high". One pass over the values in reverse post-order of the
/// def-use graph keeps an upper bound of every value's noise; when an op's
/// noise would exceed the maximum, reduce_noise goes after the producers of
/// its noisiest operands (through block arguments, after the ops feeding
/// them) until it fits. Never optimal in general (two branches that each grow
/// from one shared `mul` get two reductions where one suffices), but fast:
/// O(values + operands) plus the walks through block arguments.
///
/// Upper bounds start from the noise analysis of the unplaced program, so a
/// loop is handled soundly in the same single pass; the result is re-checked
/// by the noise analysis before it is returned.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <kildall/graph/reverse_postorder.hpp>
#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/noise_model.hpp>
#include <kildall/noisy/placement.hpp>
#include <kildall/noisy/program_concept.hpp>
#include <kildall/noisy/verify.hpp>

namespace kildall::noisy {

namespace detail {

template <NoisyProgram G>
class GreedyPlacer {
 public:
  GreedyPlacer(const G& g, const NoiseParameters& p) : g_(g), p_(p), n_(vertex_count(g)), reduced_(n_, false), bound_(n_, 0) {}

  std::vector<vertex_t<G>> run() {
    const NoiseAnalysis<G> unplaced = analyze_noise(g_, p_);
    for (const auto& v : vertex_range(g_)) bound_[index(v)] = unplaced.noise_bound(v).value_or(0);
    for (const auto& v : kildall::reverse_postorder(g_)) visit(v);
    std::vector<vertex_t<G>> placement;
    for (const auto& v : vertex_range(g_))
      if (reduced_[index(v)]) placement.push_back(v);
    return placement;
  }

 private:
  std::size_t index(const vertex_t<G>& v) const { return vertex_index(g_, v); }

  // Noise of `v` from the current bounds of its operands (its rule).
  std::uint64_t own_noise(const vertex_t<G>& v, NoisyOp kind) {
    scratch_.clear();
    for (const auto& e : in_edge_range(g_, v)) scratch_.push_back(bound_[index(source(e, g_))]);
    return fold_noise(kind, scratch_, p_);
  }

  void visit(const vertex_t<G>& v) {
    const std::size_t i = index(v);
    const NoisyOp kind = kind_of(g_, v);
    std::uint64_t own = own_noise(v, kind);
    if (is_reducible(kind) && own > p_.maximum) {
      fix_operands(v, kind);
      own = own_noise(v, kind);
      if (own > p_.maximum) {
        throw PlacementError(i, kind,
                             "the greedy placement cannot make this op legal: with its operands reduced, its "
                             "noise is " + std::to_string(own) + ", above the allowable maximum of " +
                                 std::to_string(p_.maximum));
      }
    }
    bound_[i] = reduced_[i] ? p_.initial : own;
    if (kind == NoisyOp::reduce_noise && p_.initial > p_.maximum) {
      throw PlacementError(i, kind, "the noise after reduce_noise (" + std::to_string(p_.initial) +
                                        ") exceeds the allowable maximum of " + std::to_string(p_.maximum));
    }
  }

  // Lowers the noisiest operands of `v` until its own noise fits.
  void fix_operands(const vertex_t<G>& v, NoisyOp kind) {
    std::vector<vertex_t<G>> ops;
    for (const auto& e : in_edge_range(g_, v)) ops.push_back(source(e, g_));
    std::stable_sort(ops.begin(), ops.end(),
                     [&](const auto& a, const auto& b) { return bound_[index(a)] > bound_[index(b)]; });
    for (const auto& o : ops) {
      const std::uint64_t own = own_noise(v, kind);
      if (own <= p_.maximum) return;
      std::uint64_t target = 0;
      const NoiseRule& rule = noise_rule(kind);
      if (rule.combine == NoiseCombine::sum) {
        const std::uint64_t others = own - std::min(own, bound_[index(o)]);
        target = p_.maximum >= others ? p_.maximum - others : 0;
      } else {
        target = p_.maximum >= rule.growth ? p_.maximum - rule.growth : 0;
      }
      lower(o, target);
    }
  }

  // Brings the bound of `x` to at most `target` where a reduce_noise helps:
  // after `x` itself if it is reducible, else (a block argument) after the
  // reducible producers feeding it, found by walking back through block
  // arguments (iteratively).
  void lower(const vertex_t<G>& x, std::uint64_t target) {
    if (bound_[index(x)] <= target) return;
    if (try_reduce(x)) return;
    if (kind_of(g_, x) != NoisyOp::join) return;
    std::vector<vertex_t<G>> joins{x}, stack{x};
    ++walk_;  // marks of this walk: seen_[i] == walk_
    seen_[index(x)] = walk_;
    std::uint64_t reach = 0;
    while (!stack.empty()) {
      const vertex_t<G> j = stack.back();
      stack.pop_back();
      for (const auto& e : in_edge_range(g_, j)) {
        const vertex_t<G> s = source(e, g_);
        if (seen_[index(s)] == walk_) continue;
        seen_[index(s)] = walk_;
        if (kind_of(g_, s) == NoisyOp::join) {
          joins.push_back(s);
          stack.push_back(s);
          continue;
        }
        if (bound_[index(s)] > target) (void)try_reduce(s);
        reach = std::max(reach, bound_[index(s)]);
      }
    }
    for (const auto& j : joins) bound_[index(j)] = std::min(bound_[index(j)], reach);
  }

  bool try_reduce(const vertex_t<G>& x) {
    const std::size_t i = index(x);
    if (!is_reducible(kind_of(g_, x)) || bound_[i] <= p_.initial) return false;
    reduced_[i] = true;
    bound_[i] = p_.initial;
    return true;
  }

  const G& g_;
  NoiseParameters p_;
  std::size_t n_;
  std::vector<bool> reduced_;
  std::vector<std::uint64_t> bound_;
  std::vector<std::uint32_t> seen_ = std::vector<std::uint32_t>(n_, 0);
  std::vector<std::uint64_t> scratch_;
  std::uint32_t walk_ = 0;
};

/// The greedy placement of a program already known to be placeable
/// (`check_placement_possible`), re-checked by the noise analysis.
template <NoisyProgram G>
[[nodiscard]] std::vector<vertex_t<G>> greedy_placement_after_check(const G& program, const NoiseParameters& parameters) {
  std::vector<vertex_t<G>> placement = GreedyPlacer<G>(program, parameters).run();
  const auto violations = verify_noise(program, parameters, placement_mask(program, placement));
  if (!violations.empty()) {
    const auto& v = violations.front();
    throw PlacementError(vertex_index(program, v.value), kind_of(program, v.value),
                         "the greedy placement left this op illegal (" + noise_violation_message(parameters.maximum, v.noise) +
                             ")");
  }
  return placement;
}

}  // namespace detail

/// The greedy placement: the ops after which to insert `reduce_noise`, in
/// vertex order. Throws `PlacementError` naming the op when the program
/// cannot be made legal (checked first with `check_placement_possible`).
template <NoisyProgram G>
[[nodiscard]] std::vector<vertex_t<G>> place_reduce_noise_greedy(const G& program, const NoiseParameters& parameters = {}) {
  (void)check_placement_possible(program, parameters);
  return detail::greedy_placement_after_check(program, parameters);
}

}  // namespace kildall::noisy
