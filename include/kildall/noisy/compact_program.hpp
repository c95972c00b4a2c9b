#pragma once
/// \file
/// `CompactNoisyProgram`: the one flat (CSR) copy of a `NoisyProgram` that
/// the placement machinery works on (the cut separator, the local search,
/// the frontier dynamic program, the optimizers): kinds, operands in operand
/// order, users and, for acyclic programs, a topological order (Kahn, 1962,
/// "Topological sorting of large networks").

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <kildall/noisy/noise_model.hpp>
#include <kildall/noisy/program_concept.hpp>

namespace kildall::noisy {

/// A flat copy of a `NoisyProgram`: vertex `i` is the vertex with
/// `vertex_index == i`; operands and users in CSR form.
struct CompactNoisyProgram {
  std::vector<NoisyOp> kind;                ///< Kind of each vertex.
  std::vector<std::uint32_t> operand_begin; ///< Operands of `v`: `operand[operand_begin[v] .. operand_begin[v+1])`.
  std::vector<std::uint32_t> operand;       ///< Operand lists, in operand order.
  std::vector<std::uint32_t> user_begin;    ///< Users of `v`: `user[user_begin[v] .. user_begin[v+1])`.
  std::vector<std::uint32_t> user;          ///< User lists (a user appears once per use).
  std::vector<std::uint32_t> topological;   ///< A topological order (operands first); empty if the program has a cycle.
  std::vector<std::uint32_t> position;      ///< Position of each vertex in `topological` (acyclic programs only).

  /// Number of vertices.
  [[nodiscard]] std::size_t size() const noexcept { return kind.size(); }
  /// Operands of `v`, in operand order.
  [[nodiscard]] std::span<const std::uint32_t> operands(std::uint32_t v) const {
    return {operand.data() + operand_begin[v], operand.data() + operand_begin[v + 1]};
  }
  /// Users of `v`.
  [[nodiscard]] std::span<const std::uint32_t> users(std::uint32_t v) const {
    return {user.data() + user_begin[v], user.data() + user_begin[v + 1]};
  }
  /// True when the def-use graph has no cycle (no loop-carried block argument).
  [[nodiscard]] bool acyclic() const noexcept { return topological.size() == kind.size(); }
};

/// The compact copy of `program` (Kahn's algorithm for the topological order).
template <NoisyProgram G>
[[nodiscard]] CompactNoisyProgram compact_program(const G& program) {
  CompactNoisyProgram p;
  const std::size_t n = vertex_count(program);
  p.kind.assign(n, NoisyOp::plain);
  p.operand_begin.assign(n + 1, 0);
  std::vector<std::vector<std::uint32_t>> ops(n);
  for (const auto& v : vertex_range(program)) {
    const auto i = static_cast<std::uint32_t>(vertex_index(program, v));
    p.kind[i] = kind_of(program, v);
    for (const auto& e : in_edge_range(program, v)) ops[i].push_back(static_cast<std::uint32_t>(vertex_index(program, source(e, program))));
  }
  std::vector<std::uint32_t> uses(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    p.operand_begin[i + 1] = p.operand_begin[i] + static_cast<std::uint32_t>(ops[i].size());
    for (const std::uint32_t o : ops[i]) ++uses[o + 1];
  }
  p.operand.reserve(p.operand_begin[n]);
  for (auto& list : ops) p.operand.insert(p.operand.end(), list.begin(), list.end());
  for (std::size_t i = 0; i < n; ++i) uses[i + 1] += uses[i];
  p.user_begin = uses;
  p.user.assign(p.operand.size(), 0);
  for (std::uint32_t i = 0; i < n; ++i)
    for (const std::uint32_t o : p.operands(i)) p.user[uses[o]++] = i;
  // Kahn's algorithm.
  std::vector<std::uint32_t> pending(n, 0);
  for (std::uint32_t i = 0; i < n; ++i) pending[i] = static_cast<std::uint32_t>(p.operands(i).size());
  p.topological.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i)
    if (pending[i] == 0) p.topological.push_back(i);
  for (std::size_t head = 0; head < p.topological.size(); ++head)
    for (const std::uint32_t u : p.users(p.topological[head]))
      if (--pending[u] == 0) p.topological.push_back(u);
  if (p.topological.size() != n) {
    p.topological.clear();
  } else {
    p.position.assign(n, 0);
    for (std::uint32_t k = 0; k < n; ++k) p.position[p.topological[k]] = k;
  }
  return p;
}

}  // namespace kildall::noisy
