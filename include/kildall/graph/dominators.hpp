#pragma once
/// \file
/// Dominator trees by the iterative algorithm of Cooper, Harvey & Kennedy,
/// "A Simple, Fast Dominance Algorithm" (Software Practice & Experience,
/// 2001): immediate dominators are refined over the reverse post-order until
/// they stop changing, intersecting predecessors' dominator-tree paths by RPO
/// position. Linear passes in practice (two on reducible CFGs visited in RPO);
/// no recursion. `dominates(a, b)` is O(1) through pre/post numbers of the tree.
/// Post-dominators are the dominators of `Reversed(g)` from the exit.
///
/// Why not `boost::lengauer_tarjan_dominator_tree`: it needs Boost's full
/// BidirectionalGraph and VertexListGraph (traversal tags, degree functions),
/// read-write property maps and default-constructible descriptors, none of
/// which kildall's concepts promise; the tests use it as the oracle.

#include <cstddef>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/reverse_postorder.hpp>

namespace kildall {

/// The dominator tree of the vertices reachable from an entry vertex. Vertices
/// are referred to by `kildall::vertex_index`. Vertex `a` dominates `b` when
/// every path from the entry to `b` passes through `a` (every vertex dominates
/// itself); the immediate dominator of `b` is its closest strict dominator.
template <class Vertex>
class DominatorTree {
 public:
  /// The vertices reachable from the entry, in reverse post-order (the entry first).
  [[nodiscard]] const std::vector<Vertex>& reverse_postorder() const noexcept { return rpo_; }

  /// True when the vertex with index `index` is reachable from the entry.
  [[nodiscard]] bool is_reachable(std::size_t index) const { return position_.at(index) != none; }

  /// The immediate dominator of the vertex with index `index`; `std::nullopt`
  /// for the entry and for unreachable vertices.
  [[nodiscard]] std::optional<Vertex> immediate_dominator(std::size_t index) const {
    const std::size_t p = position_.at(index);
    if (p == none || p == 0) return std::nullopt;
    return rpo_[idom_[p]];
  }

  /// True when the vertex with index `a` dominates the one with index `b`
  /// (reflexive); false when either is unreachable.
  [[nodiscard]] bool dominates(std::size_t a, std::size_t b) const {
    const std::size_t pa = position_.at(a);
    const std::size_t pb = position_.at(b);
    if (pa == none || pb == none) return false;
    return preorder_[pa] <= preorder_[pb] && postorder_[pb] <= postorder_[pa];
  }

  /// True when `a` dominates `b` and `a != b`.
  [[nodiscard]] bool strictly_dominates(std::size_t a, std::size_t b) const { return a != b && dominates(a, b); }

  /// The depth of the vertex with index `index` in the tree (the entry has
  /// depth 0); throws `std::out_of_range` for an unreachable vertex.
  [[nodiscard]] std::size_t depth(std::size_t index) const {
    const std::size_t p = position_.at(index);
    if (p == none) throw std::out_of_range("kildall::DominatorTree: vertex " + std::to_string(index) + " is unreachable");
    return depth_[p];
  }

 private:
  template <class G>
    requires AnalysisGraph<G>
  friend DominatorTree<vertex_t<G>> dominator_tree(const G& g, const vertex_t<G>& entry);

  static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

  std::vector<Vertex> rpo_;
  std::vector<std::size_t> position_;   // vertex index -> RPO position, or none
  std::vector<std::size_t> idom_;       // RPO position -> RPO position of the immediate dominator
  std::vector<std::size_t> preorder_;   // RPO position -> preorder number in the tree
  std::vector<std::size_t> postorder_;  // RPO position -> postorder number in the tree
  std::vector<std::size_t> depth_;      // RPO position -> depth in the tree
};

/// The dominator tree of `g` rooted at `entry` (Cooper, Harvey & Kennedy).
template <class G>
  requires AnalysisGraph<G>
[[nodiscard]] DominatorTree<vertex_t<G>> dominator_tree(const G& g, const vertex_t<G>& entry) {
  using Tree = DominatorTree<vertex_t<G>>;
  constexpr std::size_t none = Tree::none;
  Tree tree;
  tree.rpo_ = kildall::reverse_postorder(g, entry);
  const std::size_t n = tree.rpo_.size();
  tree.position_.assign(vertex_count(g), none);
  for (std::size_t p = 0; p < n; ++p) tree.position_[vertex_index(g, tree.rpo_[p])] = p;

  // Predecessors in RPO positions, unreachable ones dropped, computed once.
  std::vector<std::size_t> pred_offsets(n + 1, 0);
  std::vector<std::size_t> preds;
  for (std::size_t p = 0; p < n; ++p) {
    auto [first, last] = in_edges(tree.rpo_[p], g);
    for (; first != last; ++first) {
      const std::size_t q = tree.position_[vertex_index(g, source(*first, g))];
      if (q != none) preds.push_back(q);
    }
    pred_offsets[p + 1] = preds.size();
  }

  std::vector<std::size_t>& idom = tree.idom_;
  idom.assign(n, none);
  if (n > 0) idom[0] = 0;
  auto intersect = [&idom](std::size_t a, std::size_t b) {
    while (a != b) {
      while (a > b) a = idom[a];
      while (b > a) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t p = 1; p < n; ++p) {
      std::size_t new_idom = none;
      for (std::size_t k = pred_offsets[p]; k < pred_offsets[p + 1]; ++k) {
        const std::size_t q = preds[k];
        if (idom[q] == none) continue;  // not processed yet
        new_idom = new_idom == none ? q : intersect(q, new_idom);
      }
      if (new_idom != idom[p]) {
        idom[p] = new_idom;
        changed = true;
      }
    }
  }

  // Pre/post numbers and depths by an explicit-stack walk of the tree.
  std::vector<std::size_t> child_offsets(n + 1, 0);
  for (std::size_t p = 1; p < n; ++p) ++child_offsets[idom[p] + 1];
  for (std::size_t p = 0; p < n; ++p) child_offsets[p + 1] += child_offsets[p];
  std::vector<std::size_t> children(n > 0 ? n - 1 : 0);
  std::vector<std::size_t> fill(child_offsets.begin(), child_offsets.end() - 1);
  for (std::size_t p = 1; p < n; ++p) children[fill[idom[p]]++] = p;
  tree.preorder_.assign(n, 0);
  tree.postorder_.assign(n, 0);
  tree.depth_.assign(n, 0);
  if (n > 0) {
    std::size_t pre = 0;
    std::size_t post = 0;
    std::vector<std::pair<std::size_t, std::size_t>> stack;  // (node, next child slot)
    stack.emplace_back(0, child_offsets[0]);
    tree.preorder_[0] = pre++;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < child_offsets[node + 1]) {
        const std::size_t child = children[next++];
        tree.preorder_[child] = pre++;
        tree.depth_[child] = tree.depth_[node] + 1;
        stack.emplace_back(child, child_offsets[child]);  // invalidates `node`, `next`
      } else {
        tree.postorder_[node] = post++;
        stack.pop_back();
      }
    }
  }
  return tree;
}

}  // namespace kildall
