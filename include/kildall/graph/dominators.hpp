#pragma once
/// \file
/// Dominator trees by the Semi-NCA algorithm (Georgiadis, "Linear-Time
/// Algorithms for Dominators and Related Problems", PhD thesis, Princeton
/// 2005; Georgiadis, Tarjan & Werneck, "Finding Dominators in Practice",
/// JGAA 2006): one depth-first search numbers the vertices in preorder,
/// semidominators are computed as in Lengauer & Tarjan ("A Fast Algorithm for
/// Finding Dominators in a Flowgraph", TOPLAS 1979) with path compression, and
/// each immediate dominator is the nearest common ancestor of its DFS parent
/// and its semidominator in the tree built so far. No recursion (explicit
/// stacks), no iteration to a fixpoint: near-linear on every shape, including
/// a deep chain of blocks that all branch to one shared exit, where the
/// iterative algorithm of Cooper, Harvey & Kennedy (2001), used before, is
/// quadratic. `dominates(a, b)` is O(1) through pre/post numbers of the tree.
/// Post-dominators are the dominators of `Reversed(g)` from the exit.
///
/// Why not `boost::lengauer_tarjan_dominator_tree`: it needs Boost's full
/// BidirectionalGraph and VertexListGraph (traversal tags, degree functions),
/// read-write property maps and default-constructible descriptors, none of
/// which kildall's concepts promise; the tests use it as the oracle.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/reverse_postorder.hpp>
#include <kildall/support/large_array_allocator.hpp>

namespace kildall {

namespace detail {
struct DominatorTreeBuilder;
}  // namespace detail

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
    const Index p = position_.at(index);
    if (p == none || p == 0) return std::nullopt;
    return rpo_[idom_[p]];
  }

  /// True when the vertex with index `a` dominates the one with index `b`
  /// (reflexive); false when either is unreachable.
  [[nodiscard]] bool dominates(std::size_t a, std::size_t b) const {
    const Index pa = position_.at(a);
    const Index pb = position_.at(b);
    if (pa == none || pb == none) return false;
    return preorder_[pa] <= preorder_[pb] && postorder_[pb] <= postorder_[pa];
  }

  /// True when `a` dominates `b` and `a != b`.
  [[nodiscard]] bool strictly_dominates(std::size_t a, std::size_t b) const { return a != b && dominates(a, b); }

  /// The depth of the vertex with index `index` in the tree (the entry has
  /// depth 0); throws `std::out_of_range` for an unreachable vertex.
  [[nodiscard]] std::size_t depth(std::size_t index) const {
    const Index p = position_.at(index);
    if (p == none) throw std::out_of_range("kildall::DominatorTree: vertex " + std::to_string(index) + " is unreachable");
    return depth_[p];
  }

 private:
  friend struct detail::DominatorTreeBuilder;  // dominator_tree() fills the arrays

  /// Vertex numbers (RPO positions, preorder numbers) are 32-bit: half the memory a
  /// CFG of a million blocks writes (and faults in) at 64; `dominator_tree` throws
  /// `std::length_error` on a graph of 2^32 - 1 vertices or more.
  using Index = std::uint32_t;
  static constexpr Index none = std::numeric_limits<Index>::max();

  std::vector<Vertex> rpo_;
  // Per-vertex arrays on the huge-page allocator: a CFG of a million blocks
  // fills each of them once, at one page fault per 2 MiB.
  using Indices = detail::LargeArray<Index>;
  Indices position_;   // vertex index -> RPO position, or none
  Indices idom_;       // RPO position -> RPO position of the immediate dominator
  Indices preorder_;   // RPO position -> preorder number in the tree
  Indices postorder_;  // RPO position -> postorder number in the tree
  Indices depth_;      // RPO position -> depth in the tree
};

namespace detail {
/// Builds dominator trees (a friend of `DominatorTree`; a class rather than a
/// friend function template, which not every compiler matches to its
/// constrained definition).
struct DominatorTreeBuilder {
  template <class G>
  [[nodiscard]] static DominatorTree<vertex_t<G>> build(const G& g, const vertex_t<G>& entry) {
    using Tree = DominatorTree<vertex_t<G>>;
    using Vertex = vertex_t<G>;
    using Indices = typename Tree::Indices;
    using Index = typename Tree::Index;
    constexpr Index none = Tree::none;
    Tree tree;
    const std::size_t count = vertex_count(g);
    if (count >= none) throw std::length_error("kildall::dominator_tree: 2^32 - 1 vertices or more");
    tree.rpo_.reserve(count);

    // One depth-first search from the entry (the traversal of `kildall::reverse_postorder`):
    // preorder numbers with the DFS-tree parent, and the postorder, whose reverse is the RPO.
    Indices pre_of(count, none);  // vertex index -> preorder number
    LargeArray<Vertex> pre_vertex;  // preorder number -> vertex
    Indices parent;                                             // preorder number -> parent's
    pre_vertex.reserve(count);
    parent.reserve(count);
    {
      using EdgeIt = decltype(out_edges(std::declval<Vertex>(), g).first);
      struct Frame {
        Index pre;
        EdgeIt next;
        EdgeIt last;
      };
      LargeArray<Frame> stack;  // as deep as the CFG on a long chain: reserved once
      stack.reserve(count);
      const auto discover = [&](const Vertex& v, Index from) {
        const auto number = static_cast<Index>(pre_vertex.size());
        pre_of[vertex_index(g, v)] = number;
        pre_vertex.push_back(v);
        parent.push_back(from);
        auto [first, last] = out_edges(v, g);
        stack.push_back(Frame{number, first, last});
      };
      discover(entry, none);
      while (!stack.empty()) {
        Frame& top = stack.back();
        if (top.next != top.last) {
          const Vertex succ = target(*top.next, g);
          ++top.next;
          if (pre_of[vertex_index(g, succ)] == none) discover(succ, top.pre);  // may invalidate `top`
        } else {
          tree.rpo_.push_back(pre_vertex[top.pre]);  // postorder for now
          stack.pop_back();
        }
      }
    }
    std::reverse(tree.rpo_.begin(), tree.rpo_.end());
    const auto n = static_cast<Index>(tree.rpo_.size());
    tree.position_.assign(count, none);
    for (Index p = 0; p < n; ++p) tree.position_[vertex_index(g, tree.rpo_[p])] = p;

    // Semidominators (Lengauer & Tarjan), in decreasing preorder, with the link-eval forest
    // compressed iteratively; all numbers below are preorder numbers.
    Indices semi(n), label(n), ancestor(n, none);
    std::vector<Index> path;
    for (Index w = 0; w < n; ++w) semi[w] = label[w] = w;
    const auto eval = [&](Index v) {
      if (ancestor[v] == none) return v;
      Index u = v;
      while (ancestor[ancestor[u]] != none) {
        path.push_back(u);
        u = ancestor[u];
      }
      while (!path.empty()) {  // from the vertex nearest the forest root down to v
        const Index x = path.back();
        path.pop_back();
        const Index a = ancestor[x];
        if (semi[label[a]] < semi[label[x]]) label[x] = label[a];
        ancestor[x] = ancestor[a];
      }
      return label[v];
    };
    for (Index w = n; w-- > 1;) {
      auto [first, last] = in_edges(pre_vertex[w], g);
      for (; first != last; ++first) {
        const Index v = pre_of[vertex_index(g, source(*first, g))];
        if (v == none) continue;  // unreachable predecessor
        const Index s = semi[eval(v)];
        if (s < semi[w]) semi[w] = s;
      }
      ancestor[w] = parent[w];  // link
    }
    // Immediate dominators: the nearest ancestor of the parent at or above the semidominator.
    Indices idom_pre(n, 0);
    for (Index w = 1; w < n; ++w) {
      Index x = parent[w];
      while (x > semi[w]) x = idom_pre[x];
      idom_pre[w] = x;
    }
    Indices& idom = tree.idom_;  // in RPO positions
    idom.assign(n, 0);
    for (Index w = 1; w < n; ++w)
      idom[tree.position_[vertex_index(g, pre_vertex[w])]] = tree.position_[vertex_index(g, pre_vertex[idom_pre[w]])];

    // Pre/post numbers and depths by an explicit-stack walk of the tree.
    Indices child_offsets(std::size_t{n} + 1, 0);
    for (Index p = 1; p < n; ++p) ++child_offsets[idom[p] + 1];
    for (Index p = 0; p < n; ++p) child_offsets[p + 1] += child_offsets[p];
    Indices children(n > 0 ? n - 1 : 0);
    Indices fill(child_offsets.begin(), child_offsets.end() - 1);
    for (Index p = 1; p < n; ++p) children[fill[idom[p]]++] = p;
    tree.preorder_.assign(n, 0);
    tree.postorder_.assign(n, 0);
    tree.depth_.assign(n, 0);
    if (n > 0) {
      Index pre = 0;
      Index post = 0;
      LargeArray<std::pair<Index, Index>> stack;  // (node, next child slot)
      stack.reserve(n);
      stack.emplace_back(0, child_offsets[0]);
      tree.preorder_[0] = pre++;
      while (!stack.empty()) {
        auto& [node, next] = stack.back();
        if (next < child_offsets[node + 1]) {
          const Index child = children[next++];
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
};
}  // namespace detail

/// The dominator tree of `g` rooted at `entry` (Semi-NCA).
template <class G>
  requires AnalysisGraph<G>
[[nodiscard]] DominatorTree<vertex_t<G>> dominator_tree(const G& g, const vertex_t<G>& entry) {
  return detail::DominatorTreeBuilder::build(g, entry);
}

}  // namespace kildall
