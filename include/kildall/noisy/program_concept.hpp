#pragma once
/// \file
/// `NoisyProgram`: what the noise analysis, the verifier and the placement
/// optimizers need of a program. Any def-use graph qualifies (your own IR, a
/// Boost.Graph DAG, kildall's reference IR through `ir_dialect.hpp`) once
///   - it is a kildall `AnalysisGraph` (Boost.Graph vocabulary, dense index):
///     one vertex per value (an op's result, an input, a block argument);
///     `in_edges(v, g)` lists `v`'s operands in operand order, and for a block
///     argument the values flowing into it; `out_edges` are the uses;
///   - `noisy_op(g, v)`, found by argument-dependent lookup, says what `v` is
///     (a `NoisyOp`).
/// Nothing else: no base class, no kildall type inside your graph.

#include <concepts>
#include <cstddef>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/noisy/noise_model.hpp>

namespace kildall::noisy {

/// A def-use graph whose vertices expose a `NoisyOp` kind through ADL
/// `noisy_op(g, v)` and their ordered operands through `in_edges`.
template <class G>
concept NoisyProgram = AnalysisGraph<G> && requires(const G& g, const vertex_t<G>& v) {
  { noisy_op(g, v) } -> std::convertible_to<NoisyOp>;
};

/// The kind of `v` (calls the program's `noisy_op` by ADL).
template <NoisyProgram G>
[[nodiscard]] NoisyOp kind_of(const G& g, const vertex_t<G>& v) {
  return static_cast<NoisyOp>(noisy_op(g, v));
}

/// The operands of `v` in operand order (the sources of its in-edges).
template <NoisyProgram G>
[[nodiscard]] std::vector<vertex_t<G>> operands_of(const G& g, const vertex_t<G>& v) {
  std::vector<vertex_t<G>> out;
  for (const auto& e : in_edge_range(g, v)) out.push_back(source(e, g));
  return out;
}

}  // namespace kildall::noisy
