#pragma once
/// \file
/// `CompactNoisyProgram`: the one flat (CSR) copy of a `NoisyProgram` that
/// the placement machinery works on (the cut separator, the local search,
/// the frontier dynamic program, the optimizers): kinds, operands in operand
/// order, users and, for acyclic programs, a topological order (Kahn, 1962,
/// "Topological sorting of large networks").

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <utility>
#include <vector>

#include <kildall/graph/index_iterator.hpp>
#include <kildall/noisy/noise_model.hpp>
#include <kildall/noisy/program_concept.hpp>

namespace kildall::noisy {

/// An edge of a `CompactNoisyProgram` (from an operand to its user).
struct CompactEdge {
  std::uint32_t source = 0;  ///< The operand.
  std::uint32_t target = 0;  ///< The user.
  /// Edges are equal when both ends are.
  friend bool operator==(const CompactEdge&, const CompactEdge&) = default;
};

/// Iterates the in-edges (operands) or out-edges (users) of one vertex of a
/// `CompactNoisyProgram`, over its CSR list.
class CompactEdgeIterator {
 public:
  using value_type = CompactEdge;           ///< An edge.
  using reference = CompactEdge;            ///< Edges are made on the fly.
  using difference_type = std::ptrdiff_t;   ///< Distance between iterators.
  using iterator_category = std::forward_iterator_tag;  ///< Forward only.
  CompactEdgeIterator() = default;
  /// At `at` of the CSR list of `vertex`; `vertex_is_target`: in-edges.
  CompactEdgeIterator(const std::uint32_t* at, std::uint32_t vertex, bool vertex_is_target) noexcept
      : at_(at), vertex_(vertex), vertex_is_target_(vertex_is_target) {}
  /// The edge at this position.
  [[nodiscard]] CompactEdge operator*() const noexcept {
    return vertex_is_target_ ? CompactEdge{*at_, vertex_} : CompactEdge{vertex_, *at_};
  }
  /// The next edge.
  CompactEdgeIterator& operator++() noexcept {
    ++at_;
    return *this;
  }
  /// The next edge (post-increment).
  CompactEdgeIterator operator++(int) noexcept {
    CompactEdgeIterator old = *this;
    ++at_;
    return old;
  }
  /// Same position.
  [[nodiscard]] friend bool operator==(const CompactEdgeIterator& a, const CompactEdgeIterator& b) noexcept {
    return a.at_ == b.at_;
  }

 private:
  const std::uint32_t* at_ = nullptr;
  std::uint32_t vertex_ = 0;
  bool vertex_is_target_ = false;
};

/// A flat copy of a `NoisyProgram`: vertex `i` is the vertex with
/// `vertex_index == i`; operands and users in CSR form.
struct CompactNoisyProgram {
  using vertex_descriptor = std::uint32_t;  ///< Vertices are `0 .. size()-1` (a `NoisyProgram`).
  using edge_descriptor = CompactEdge;      ///< Operand -> user.

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

/// The compact program with these kinds and operand lists (vertex `i`: kind
/// `kinds[i]`, operands `operands[i]` in operand order); Kahn's algorithm for
/// the topological order.
[[nodiscard]] inline CompactNoisyProgram make_compact_program(std::vector<NoisyOp> kinds,
                                                              const std::vector<std::vector<std::uint32_t>>& ops) {
  CompactNoisyProgram p;
  const std::size_t n = kinds.size();
  p.kind = std::move(kinds);
  p.operand_begin.assign(n + 1, 0);
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

/// The compact copy of `program` (Kahn's algorithm for the topological order).
template <NoisyProgram G>
[[nodiscard]] CompactNoisyProgram compact_program(const G& program) {
  const std::size_t n = vertex_count(program);
  std::vector<NoisyOp> kinds(n, NoisyOp::plain);
  std::vector<std::vector<std::uint32_t>> ops(n);
  for (const auto& v : vertex_range(program)) {
    const auto i = static_cast<std::uint32_t>(vertex_index(program, v));
    kinds[i] = kind_of(program, v);
    for (const auto& e : in_edge_range(program, v)) ops[i].push_back(static_cast<std::uint32_t>(vertex_index(program, source(e, program))));
  }
  return make_compact_program(std::move(kinds), ops);
}

// The NoisyProgram model of CompactNoisyProgram (found by ADL).

/// The vertices `0 .. size()-1`.
[[nodiscard]] inline std::pair<IndexIterator<std::uint32_t>, IndexIterator<std::uint32_t>> vertices(
    const CompactNoisyProgram& p) noexcept {
  return {IndexIterator<std::uint32_t>(0), IndexIterator<std::uint32_t>(static_cast<std::uint32_t>(p.size()))};
}
/// The number of vertices.
[[nodiscard]] inline std::size_t num_vertices(const CompactNoisyProgram& p) noexcept { return p.size(); }
/// The edges from `v`'s operands, in operand order.
[[nodiscard]] inline std::pair<CompactEdgeIterator, CompactEdgeIterator> in_edges(std::uint32_t v, const CompactNoisyProgram& p) noexcept {
  return {CompactEdgeIterator(p.operand.data() + p.operand_begin[v], v, true),
          CompactEdgeIterator(p.operand.data() + p.operand_begin[v + 1], v, true)};
}
/// The edges to `v`'s users (one per use).
[[nodiscard]] inline std::pair<CompactEdgeIterator, CompactEdgeIterator> out_edges(std::uint32_t v, const CompactNoisyProgram& p) noexcept {
  return {CompactEdgeIterator(p.user.data() + p.user_begin[v], v, false),
          CompactEdgeIterator(p.user.data() + p.user_begin[v + 1], v, false)};
}
/// The operand end of `e`.
[[nodiscard]] inline std::uint32_t source(const CompactEdge& e, const CompactNoisyProgram&) noexcept { return e.source; }
/// The user end of `e`.
[[nodiscard]] inline std::uint32_t target(const CompactEdge& e, const CompactNoisyProgram&) noexcept { return e.target; }
/// The kind of `v`.
[[nodiscard]] inline NoisyOp noisy_op(const CompactNoisyProgram& p, std::uint32_t v) noexcept { return p.kind[v]; }

}  // namespace kildall::noisy
