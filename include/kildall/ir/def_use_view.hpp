#pragma once
/// \file
/// The sparse view: a function's SSA values as a graph (the "SSA graph" of
/// Wegman & Zadeck's sparse conditional constant propagation, 1991). Vertex =
/// `ValueId` (its own dense index). There is an edge `a -> b` when `b` is a
/// result of an op that uses `a`, or `b` is a block argument that receives
/// `a` through a branch; so out-edges lead to the values that must be
/// recomputed when `a` changes, and in-edges to the values `b` is computed
/// from. The view models kildall's `AnalysisGraph` via a `graph_traits`
/// specialization and ADL free functions, and also lists each value's user
/// ops (`users`). Built in O(values + operands); rebuild after a rewrite.

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <boost/graph/graph_traits.hpp>

#include <kildall/ir/cfg_view.hpp>
#include <kildall/ir/module.hpp>

namespace kildall::ir {

/// A def-use edge from value `source` to value `target`, through operand slot `operand`
/// (an index into `Function::operands`) of op `user`.
struct DefUseEdge {
  ValueId source = no_index;         ///< The used value.
  ValueId target = no_index;         ///< The value computed from (or receiving) it.
  OpId user = no_index;              ///< The op whose operand carries the use.
  std::uint32_t operand = no_index;  ///< Index into `Function::operands`.
  /// Edges compare field by field.
  friend bool operator==(const DefUseEdge&, const DefUseEdge&) = default;
};

/// The values of one function as a bidirectional, indexed graph.
class DefUseView {
 public:
  /// The def-use graph of `fn` (erased ops are ignored).
  explicit DefUseView(const Function& fn) : DefUseView(fn, std::span<const ValueId>{}) {}

  /// The def-use graph of `fn` plus one extra dependency per op result: when `extra_dependency[v]`
  /// is not `no_index` (the span is empty or has one entry per value), an edge
  /// `extra_dependency[v] -> v` follows the operand edges of `v` (its `operand` is `no_index`, its
  /// `user` is the op defining `v`; `users` does not list it). An analysis uses it to read the state
  /// of a value that is not an operand, e.g. `a` for `(a + b) - b`, and to be revisited when it changes.
  DefUseView(const Function& fn, std::span<const ValueId> extra_dependency) : fn_(&fn) {
    const std::size_t n = fn.values.size();
    BodyArray<DefUseEdge> edges;
    BodyArray<std::uint32_t> user_count(n + 1, 0);
    for (OpId op = 0; op < fn.ops.size(); ++op) {
      const OpData& o = fn.ops[op];
      if (o.erased) continue;
      const std::uint32_t regular = fn.regular_operand_count(op);
      for (std::uint32_t i = 0; i < o.operand_count; ++i) {
        const ValueId used = fn.operands[o.operand_begin + i];
        const std::uint32_t slot = o.operand_begin + i;
        ++user_count[used + 1];
        if (i < regular) {
          for (std::uint32_t r = 0; r < o.result_count; ++r) edges.push_back({used, o.result_begin + r, op, slot});
        }
      }
      if (!extra_dependency.empty()) {
        for (std::uint32_t r = 0; r < o.result_count; ++r) {
          const ValueId extra = extra_dependency[o.result_begin + r];
          if (extra != no_index) edges.push_back({extra, o.result_begin + r, op, no_index});
        }
      }
      for (const Successor& s : fn.successors_of(op))
        for (std::uint32_t i = 0; i < s.operand_count; ++i)
          edges.push_back({fn.operands[o.operand_begin + s.operand_begin + i], fn.argument(s.block, i), op,
                           o.operand_begin + s.operand_begin + i});
    }
    // Users (ops) per value, in op order (an op using a value twice is listed twice).
    for (std::size_t v = 0; v < n; ++v) user_count[v + 1] += user_count[v];
    user_begin_ = user_count;
    users_.resize(user_count[n]);
    {
      BodyArray<std::uint32_t> fill(user_count.begin(), user_count.end() - 1);
      for (OpId op = 0; op < fn.ops.size(); ++op) {
        if (fn.ops[op].erased) continue;
        for (const ValueId used : fn.operands_of(op)) users_[fill[used]++] = op;
      }
    }
    // Out and in adjacency.
    out_begin_.assign(n + 1, 0);
    in_begin_.assign(n + 1, 0);
    for (const DefUseEdge& e : edges) {
      ++out_begin_[e.source + 1];
      ++in_begin_[e.target + 1];
    }
    for (std::size_t v = 0; v < n; ++v) {
      out_begin_[v + 1] += out_begin_[v];
      in_begin_[v + 1] += in_begin_[v];
    }
    out_.resize(edges.size());
    in_.resize(edges.size());
    BodyArray<std::uint32_t> out_fill(out_begin_.begin(), out_begin_.end() - 1);
    BodyArray<std::uint32_t> in_fill(in_begin_.begin(), in_begin_.end() - 1);
    for (const DefUseEdge& e : edges) {
      out_[out_fill[e.source]++] = e;
      in_[in_fill[e.target]++] = e;
    }
  }

  /// The function viewed.
  [[nodiscard]] const Function& function() const { return *fn_; }
  /// Number of values.
  [[nodiscard]] std::size_t value_count() const { return fn_->values.size(); }
  /// Edges to the values computed from `v`.
  [[nodiscard]] std::span<const DefUseEdge> dependents(ValueId v) const {
    return {out_.data() + out_begin_[v], out_begin_[v + 1] - out_begin_[v]};
  }
  /// Edges from the values `v` is computed from.
  [[nodiscard]] std::span<const DefUseEdge> dependencies(ValueId v) const {
    return {in_.data() + in_begin_[v], in_begin_[v + 1] - in_begin_[v]};
  }
  /// The live ops that use `v` (once per use).
  [[nodiscard]] std::span<const OpId> users(ValueId v) const {
    return {users_.data() + user_begin_[v], user_begin_[v + 1] - user_begin_[v]};
  }

 private:
  const Function* fn_;
  BodyArray<DefUseEdge> out_, in_;
  BodyArray<std::uint32_t> out_begin_, in_begin_;
  BodyArray<OpId> users_;
  BodyArray<std::uint32_t> user_begin_;
};

/// Boost.Graph traversal category of `DefUseView`.
struct DefUseTraversalCategory : boost::bidirectional_graph_tag, boost::vertex_list_graph_tag {};

/// Out-edges (to dependents) of `v`.
[[nodiscard]] inline std::pair<const DefUseEdge*, const DefUseEdge*> out_edges(ValueId v, const DefUseView& g) {
  const auto s = g.dependents(v);
  return {s.data(), s.data() + s.size()};
}
/// In-edges (from dependencies) of `v`.
[[nodiscard]] inline std::pair<const DefUseEdge*, const DefUseEdge*> in_edges(ValueId v, const DefUseView& g) {
  const auto s = g.dependencies(v);
  return {s.data(), s.data() + s.size()};
}
/// The dependent value of `e`.
[[nodiscard]] inline ValueId target(const DefUseEdge& e, const DefUseView&) { return e.target; }
/// The used value of `e`.
[[nodiscard]] inline ValueId source(const DefUseEdge& e, const DefUseView&) { return e.source; }
/// All values.
[[nodiscard]] inline std::pair<IndexIterator, IndexIterator> vertices(const DefUseView& g) {
  return {IndexIterator(0), IndexIterator(static_cast<ValueId>(g.value_count()))};
}
/// Number of values.
[[nodiscard]] inline std::size_t num_vertices(const DefUseView& g) { return g.value_count(); }
/// Number of dependents edges of `v`.
[[nodiscard]] inline std::size_t out_degree(ValueId v, const DefUseView& g) { return g.dependents(v).size(); }
/// Number of dependency edges of `v`.
[[nodiscard]] inline std::size_t in_degree(ValueId v, const DefUseView& g) { return g.dependencies(v).size(); }

}  // namespace kildall::ir

/// `DefUseView` in Boost.Graph's vocabulary.
template <>
struct boost::graph_traits<kildall::ir::DefUseView> {
  using vertex_descriptor = kildall::ir::ValueId;                          ///< A value.
  using edge_descriptor = kildall::ir::DefUseEdge;                         ///< A use.
  using out_edge_iterator = const kildall::ir::DefUseEdge*;                ///< Iterates out-edges.
  using in_edge_iterator = const kildall::ir::DefUseEdge*;                 ///< Iterates in-edges.
  using vertex_iterator = kildall::ir::IndexIterator;                      ///< Iterates values.
  using adjacency_iterator = void;                                         ///< Not provided.
  using edge_iterator = void;                                              ///< Not provided.
  using directed_category = boost::bidirectional_tag;                      ///< Directed, both ways.
  using edge_parallel_category = boost::allow_parallel_edge_tag;           ///< Parallel edges occur.
  using traversal_category = kildall::ir::DefUseTraversalCategory;        ///< What can be traversed.
  using vertices_size_type = std::size_t;                                  ///< Vertex count type.
  using edges_size_type = std::size_t;                                     ///< Edge count type.
  using degree_size_type = std::size_t;                                    ///< Degree type.
  /// The "no value" value.
  static kildall::ir::ValueId null_vertex() { return kildall::ir::no_index; }
};
