#pragma once
/// \file
/// Rewriting a program to need fewer `reduce_noise` ops (the article: "or by
/// rewriting the program to reduce the need for reduce_noise ops, or both"):
/// tree-height reduction by re-association and commutation (Baer & Bovet,
/// 1968, "Compilation of arithmetic expressions for parallel computations";
/// Kuck, 1977, "A survey of parallel machine organization and programming"),
/// sums shaped by Huffman's combination (Huffman, 1952, "A method for the
/// construction of minimum-redundancy codes") on noise levels (combine the
/// two least noisy operands first), products as sorted chains.
///
/// - **Trees.** A maximal tree of one family, `add`/`sub` (additive) or `mul`
///   (multiplicative), whose inner values have a single use, by an op of the
///   same family in the same region (the same block in the IR). Values used
///   elsewhere are leaves and keep existing; so are values of another family.
/// - **Soundness.** The noisy dialect's `add`, `sub` and `mul` are 32-bit
///   wrap-around integer arithmetic (`ir_dialect.hpp`), a commutative ring:
///   any re-association and commutation of a product is exact; an additive
///   tree is the signed sum of its leaves (`a - (b + c)` = `a - b - c`), and
///   every binary shape over the signed leaves is realised by `add`/`sub`
///   without a negation (a node whose leaves are all negative computes the
///   negated sum with `add`; a mixed node is a `sub` with the positive side
///   first), because the tree's leftmost leaf is always positive.
/// - **Shape of a sum.** Huffman's combination with the `add` rule
///   (`fold_noise`, 1 + the larger): it gives the least root noise over all
///   shapes, ceil(log2 sum 2^n_i) (Golumbic, 1976, "Combinatorial merging",
///   by Kraft's inequality): a balanced sum of n fresh values has noise
///   12 + ceil(log2 n) instead of 12 + n - 1 for a chain.
/// - **Shape of a product.** The noise of a product is the sum of its
///   leaves' whatever the shape, so a product tree needs reductions however
///   it is shaped; the shape decides where. With the article's 12 / 26 every
///   inner `mul` but the root must be reduced (its noise is at least 24, and
///   24 + 12 > 26), and a `mul` of two leaves is the only one that can
///   exceed the maximum (a reduced operand gives 12 + a leaf); every shape
///   has one, a chain exactly one: the ascending chain (least noisy leaves
///   first) makes it the two least noisy leaves. With a larger maximum a
///   chain packs leaves into the accumulator until it must be reduced
///   (next-fit bin packing: the first bin holds `maximum`, the others
///   `maximum - initial`); the descending order (first-fit decreasing's) then
///   often needs fewer bins; Huffman's shape (least total noise) is the
///   third candidate. Products get the one with the fewest reductions by the
///   greedy estimate `greedy_reductions`, then the least total noise
///   (ascending on a tie), and are rewritten only when that estimate, or
///   failing that the total noise, goes down.
/// - **Keys.** Leaf noise is a key the caller gives (e.g. the least possible
///   noise of each value, or its noise as placed). A sum is rewritten only
///   when its root noise, or failing that its total noise, goes down under
///   those keys.
/// - **Choice.** `rebalance_and_place` places `reduce_noise` optimally in the
///   original and in the candidates of four key sets and keeps the program
///   whose placement is lexicographically least (reductions, then total
///   noise; the original on a tie), so rebalancing never costs a reduction.
///   On random trees of 3-6 leaves (tests) the result needs the fewest
///   reductions of every shape; that is measured, not proven.
///
/// The rewrite goes through a `RebalanceEditor` your IR implements (the
/// reference IR: `IrRebalanceEditor` in `ir_dialect.hpp`). Placement needs
/// the `kildall::glpk` (GPL) and `kildall::eigen` targets, as
/// `place_reduce_noise.hpp` does.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <queue>
#include <span>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <kildall/noisy/compact_program.hpp>
#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/noise_model.hpp>
#include <kildall/noisy/place_reduce_noise.hpp>
#include <kildall/noisy/placement.hpp>
#include <kildall/noisy/program_concept.hpp>

namespace kildall::noisy {

/// One operand of a rebuilt op: a leaf of the tree or an earlier rebuilt op.
struct RebalanceOperand {
  bool is_node = false;     ///< True: `index` is a rebuilt op of the shape; false: a leaf.
  std::uint32_t index = 0;  ///< Index into the leaves or the shape's ops.
  friend bool operator==(const RebalanceOperand&, const RebalanceOperand&) = default;
};

/// One binary op of a rebuilt tree.
struct RebalanceNode {
  NoisyOp kind = NoisyOp::add;  ///< `add`, `sub` or `mul`.
  RebalanceOperand lhs;         ///< First operand.
  RebalanceOperand rhs;         ///< Second operand.
};

/// A tree shape: binary ops, every op after its operands; the last is the root.
using RebalanceShape = std::vector<RebalanceNode>;

/// The noise of every op of `shape` given its leaves' noise, by the rule
/// table (`fold_noise`); reductions none.
[[nodiscard]] inline std::vector<std::uint64_t> shape_noise(const RebalanceShape& shape,
                                                            std::span<const std::uint64_t> leaf_noise,
                                                            const NoiseParameters& parameters = {}) {
  std::vector<std::uint64_t> noise(shape.size(), 0);
  const auto of = [&](const RebalanceOperand& o) { return o.is_node ? noise.at(o.index) : leaf_noise[o.index]; };
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const std::uint64_t operands[] = {of(shape[i].lhs), of(shape[i].rhs)};
    noise[i] = fold_noise(shape[i].kind, operands, parameters);
  }
  return noise;
}

/// Huffman's combination on noise: repeatedly combine (with an op of `kind`)
/// the two least noisy operands (ties: the one made first), the leaves
/// having `leaf_noise`. Under the `add` rule the root's noise is the least of
/// all shapes; under the `mul` rule (the sum) the total noise of the ops is. Operands stay in the order they were made. At least
/// one leaf; `kind` is `add`, `sub` (the additive rule) or `mul`. Throws
/// `std::invalid_argument` otherwise.
[[nodiscard]] inline RebalanceShape huffman_shape(NoisyOp kind, std::span<const std::uint64_t> leaf_noise,
                                                  const NoiseParameters& parameters = {}) {
  if (kind != NoisyOp::add && kind != NoisyOp::sub && kind != NoisyOp::mul)
    throw std::invalid_argument("huffman_shape: the kind must be add, sub or mul");
  if (leaf_noise.empty()) throw std::invalid_argument("huffman_shape: no leaves");
  // (noise, made, operand): least noise first, then the one made first.
  using Entry = std::tuple<std::uint64_t, std::uint64_t, RebalanceOperand>;
  const auto later = [](const Entry& a, const Entry& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) > std::tie(std::get<0>(b), std::get<1>(b));
  };
  std::priority_queue<Entry, std::vector<Entry>, decltype(later)> queue(later);
  for (std::uint32_t i = 0; i < leaf_noise.size(); ++i) queue.emplace(leaf_noise[i], i, RebalanceOperand{false, i});
  RebalanceShape shape;
  std::uint64_t made = leaf_noise.size();
  while (queue.size() > 1) {
    Entry a = queue.top();
    queue.pop();
    Entry b = queue.top();
    queue.pop();
    if (std::get<1>(b) < std::get<1>(a)) std::swap(a, b);
    const std::uint64_t operands[] = {std::get<0>(a), std::get<0>(b)};
    shape.push_back({kind, std::get<2>(a), std::get<2>(b)});
    queue.emplace(fold_noise(kind, operands, parameters), made++,
                  RebalanceOperand{true, static_cast<std::uint32_t>(shape.size() - 1)});
  }
  return shape;
}

/// The left-deep chain of ops of `kind` over the leaves sorted by
/// `leaf_noise`, ascending (or `descending`; ties: leaf order):
/// `((l0 * l1) * l2) * ...`. At least one leaf; throws
/// `std::invalid_argument` otherwise.
[[nodiscard]] inline RebalanceShape sorted_chain_shape(NoisyOp kind, std::span<const std::uint64_t> leaf_noise,
                                                       bool descending = false) {
  if (leaf_noise.empty()) throw std::invalid_argument("sorted_chain_shape: no leaves");
  std::vector<std::uint32_t> order(leaf_noise.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return descending ? leaf_noise[a] > leaf_noise[b] : leaf_noise[a] < leaf_noise[b];
  });
  RebalanceShape shape;
  for (std::size_t i = 1; i < order.size(); ++i)
    shape.push_back({kind, i == 1 ? RebalanceOperand{false, order[0]} : RebalanceOperand{true, static_cast<std::uint32_t>(shape.size() - 1)},
                     RebalanceOperand{false, order[i]}});
  return shape;
}

/// An estimate of the reductions `shape` needs, leaves at `leaf_noise`:
/// bottom-up, while an op would exceed the maximum, its noisier operand is
/// reduced to `initial` (the article's greedy on one tree).
[[nodiscard]] inline std::size_t greedy_reductions(const RebalanceShape& shape, std::span<const std::uint64_t> leaf_noise,
                                                   const NoiseParameters& parameters = {}) {
  std::size_t reductions = 0;
  std::vector<std::uint64_t> noise(shape.size(), 0);
  for (std::size_t i = 0; i < shape.size(); ++i) {
    std::uint64_t operands[] = {shape[i].lhs.is_node ? noise[shape[i].lhs.index] : leaf_noise[shape[i].lhs.index],
                                shape[i].rhs.is_node ? noise[shape[i].rhs.index] : leaf_noise[shape[i].rhs.index]};
    noise[i] = fold_noise(shape[i].kind, operands, parameters);
    while (noise[i] > parameters.maximum) {
      std::uint64_t& noisier = operands[0] >= operands[1] ? operands[0] : operands[1];
      if (noisier <= parameters.initial) break;  // no reduction helps
      noisier = parameters.initial;
      ++reductions;
      noise[i] = fold_noise(shape[i].kind, operands, parameters);
    }
  }
  return reductions;
}

/// Makes an additive `shape` compute the signed sum of its leaves (leaf `i`
/// counts negatively when `negated[i]`) with `add` and `sub` only: each op
/// becomes `add` or `sub`, with its positive operand first. Returns false
/// (shape unchanged in meaning) when every leaf is negative: that sum needs a
/// negation.
[[nodiscard]] inline bool assign_signs(RebalanceShape& shape, const std::vector<bool>& negated) {
  std::vector<bool> node_negated(shape.size(), false);  // the op computes minus its signed sum
  const auto is_negated = [&](const RebalanceOperand& o) { return o.is_node ? node_negated[o.index] : negated.at(o.index); };
  for (std::size_t i = 0; i < shape.size(); ++i) {
    RebalanceNode& n = shape[i];
    const bool l = is_negated(n.lhs), r = is_negated(n.rhs);
    if (l == r) {
      n.kind = NoisyOp::add;  // +a + +b, or -(a + b)
      node_negated[i] = l;
    } else {
      n.kind = NoisyOp::sub;  // positive - negative
      if (l) std::swap(n.lhs, n.rhs);
    }
  }
  if (shape.empty()) return !negated.empty() && !negated[0];
  return !node_negated.back();
}

/// One tree to rebuild: its root keeps its value; its inner values go.
template <class V>
struct RebalanceTree {
  V root{};                      ///< The tree's root (keeps its value and its uses; its op is rewritten).
  std::vector<V> inner;          ///< The old inner values (single use, removed by the rewrite).
  std::vector<V> leaves;         ///< The leaves, with repetition, in the old tree's left-to-right order.
  std::vector<bool> negated;     ///< Per leaf: counts negatively (additive trees).
  RebalanceShape shape;          ///< The new shape (its last op is the root).
  std::vector<V> anchor;         ///< Per op of `shape`: the old tree value before whose op it is created (the root for the last).
  std::uint64_t root_noise_before = 0;  ///< The old root's noise under the leaf keys.
  std::uint64_t root_noise_after = 0;   ///< The new root's noise under the leaf keys.
  std::uint64_t total_noise_before = 0; ///< Sum of the old tree's op noise under the leaf keys.
  std::uint64_t total_noise_after = 0;  ///< Sum of the new tree's op noise under the leaf keys.
};

/// The trees `plan_rebalance` rewrites, in an order where a tree's leaves
/// come before it.
template <class V>
struct RebalancePlan {
  std::vector<RebalanceTree<V>> trees;  ///< One per rewritten tree.
  std::size_t trees_seen = 0;           ///< Trees of at least `min_leaves` leaves found (rewritten or not).
  /// True when nothing is rewritten.
  [[nodiscard]] bool empty() const noexcept { return trees.empty(); }
};

/// What `plan_rebalance` may rewrite.
struct RebalanceOptions {
  bool additive = true;        ///< Rebalance `add`/`sub` trees.
  bool multiplicative = true;  ///< Rebalance `mul` trees.
  std::size_t min_leaves = 3;  ///< Smaller trees have one shape.
};

/// Program order and regions of a program for `plan_rebalance`: the
/// default takes the vertex index as the order (operands first, as a
/// builder makes them) and one region.
struct VertexOrderLayout {
  /// Position of `v`'s op in program order.
  template <class G>
  [[nodiscard]] std::size_t position(const G& program, const vertex_t<G>& v) const {
    return vertex_index(program, v);
  }
  /// True when ops of `a` and `b` are in the same region (one tree may span them).
  template <class G>
  [[nodiscard]] bool same_region(const G&, const vertex_t<G>&, const vertex_t<G>&) const {
    return true;
  }
  /// True when the one use the graph shows of `v` is its only use (an IR
  /// whose def-use graph omits uses by ops without results says otherwise).
  template <class G>
  [[nodiscard]] bool single_use(const G&, const vertex_t<G>&) const {
    return true;
  }
};

namespace detail {

[[nodiscard]] inline int rebalance_family(NoisyOp kind) noexcept {
  return kind == NoisyOp::add || kind == NoisyOp::sub ? 1 : kind == NoisyOp::mul ? 2 : 0;
}

}  // namespace detail

/// The trees of `program` worth rebuilding: for each maximal single-use tree
/// of one family with at least `options.min_leaves` leaves, the family's
/// shape on `leaf_noise` (indexed by `vertex_index`): Huffman's for sums, a
/// sorted chain for products; kept when the root's noise (sums) or the
/// estimated reductions (products), or failing that the tree's total noise,
/// go down. `layout` gives program order (where each new op goes: the
/// earliest old op of the tree after its operands), regions (a tree stays in
/// one) and uses the graph does not show (`single_use`). Ops of a family with other
/// than two operands are left alone. Throws `std::invalid_argument` when
/// `leaf_noise` has the wrong size.
template <NoisyProgram G, class Layout = VertexOrderLayout>
[[nodiscard]] RebalancePlan<vertex_t<G>> plan_rebalance(const G& program, std::span<const std::uint64_t> leaf_noise,
                                                        const NoiseParameters& parameters = {},
                                                        const RebalanceOptions& options = {}, const Layout& layout = {}) {
  using V = vertex_t<G>;
  const CompactNoisyProgram p = compact_program(program);
  const std::size_t n = p.size();
  if (leaf_noise.size() != n) throw std::invalid_argument("plan_rebalance: one leaf noise per vertex is needed");
  std::vector<V> vertex(n);
  for (const auto& v : vertex_range(program)) vertex[vertex_index(program, v)] = v;
  const auto family = [&](std::uint32_t v) {
    const int f = detail::rebalance_family(p.kind[v]);
    if (p.operands(v).size() != 2) return 0;
    if ((f == 1 && !options.additive) || (f == 2 && !options.multiplicative)) return 0;
    return f;
  };
  // Inner: a single use, by an op of the same family in the same region.
  std::vector<bool> inner(n, false);
  for (std::uint32_t v = 0; v < n; ++v) {
    if (family(v) == 0 || p.users(v).size() != 1 || !layout.single_use(program, vertex[v])) continue;
    const std::uint32_t u = p.users(v)[0];
    inner[v] = u != v && family(u) == family(v) && layout.same_region(program, vertex[v], vertex[u]);
  }
  std::vector<std::uint32_t> order = p.topological;
  if (order.empty())  // a cycle: trees never contain one (it passes a block argument); any order of roots will do
    for (std::uint32_t v = 0; v < n; ++v) order.push_back(v);
  RebalancePlan<V> plan;
  for (const std::uint32_t root : order) {
    if (family(root) == 0 || inner[root]) continue;
    // The old tree as a shape (iteratively: chains may be long): leaves with signs, left to right.
    std::vector<std::uint32_t> leaves, olds;
    std::vector<bool> negated;
    RebalanceShape old_shape;
    struct Frame {
      std::uint32_t v;
      bool negative;
      bool expanded;
      std::size_t parent;  // stack position of the parent frame (SIZE_MAX: none)
      int slot;            // which operand of the parent
      RebalanceOperand operand[2];
    };
    std::vector<Frame> stack{{root, false, false, SIZE_MAX, 0, {}}};
    while (!stack.empty()) {
      Frame& f = stack.back();
      const auto ops = p.operands(f.v);
      if (!f.expanded) {
        f.expanded = true;
        olds.push_back(f.v);
        const Frame copy = f;
        const std::size_t at = stack.size() - 1;
        for (int i = 1; i >= 0; --i) {  // the right operand's subtree is walked second
          const bool sign = copy.negative != (i == 1 && p.kind[copy.v] == NoisyOp::sub);
          if (inner[ops[static_cast<std::size_t>(i)]]) stack.push_back({ops[static_cast<std::size_t>(i)], sign, false, at, i, {}});
        }
        for (std::size_t i = 0; i < 2; ++i) {
          if (inner[ops[i]]) continue;
          const bool sign = copy.negative != (i == 1 && p.kind[copy.v] == NoisyOp::sub);
          stack[at].operand[i] = {false, static_cast<std::uint32_t>(leaves.size())};
          leaves.push_back(ops[i]);
          negated.push_back(sign);
        }
        continue;
      }
      old_shape.push_back({p.kind[f.v], f.operand[0], f.operand[1]});
      const std::size_t parent = f.parent;
      const int slot = f.slot;
      stack.pop_back();
      if (parent != SIZE_MAX) stack[parent].operand[slot] = {true, static_cast<std::uint32_t>(old_shape.size() - 1)};
    }
    if (leaves.size() < std::max<std::size_t>(options.min_leaves, 3)) continue;
    ++plan.trees_seen;
    std::vector<std::uint64_t> keys;
    for (const std::uint32_t l : leaves) keys.push_back(leaf_noise[l]);
    const auto measure = [&](const RebalanceShape& shape) {
      const std::vector<std::uint64_t> noise = shape_noise(shape, keys, parameters);
      std::uint64_t total = 0;
      for (const std::uint64_t x : noise) total = saturating_noise_add(total, x);
      return std::tuple(greedy_reductions(shape, keys, parameters), noise.back(), total);
    };
    const bool additive = detail::rebalance_family(p.kind[root]) == 1;
    RebalanceShape shape;
    if (additive) {
      shape = huffman_shape(NoisyOp::add, keys, parameters);
      if (!assign_signs(shape, negated)) continue;
    } else {
      shape = sorted_chain_shape(NoisyOp::mul, keys);
      for (RebalanceShape other : {sorted_chain_shape(NoisyOp::mul, keys, true), huffman_shape(NoisyOp::mul, keys, parameters)}) {
        const auto a = measure(other), b = measure(shape);  // (reductions, root, total): every root is the same
        if (std::pair(std::get<0>(a), std::get<2>(a)) < std::pair(std::get<0>(b), std::get<2>(b))) shape = std::move(other);
      }
    }
    const auto [old_reductions, root_before, total_before] = measure(old_shape);
    const auto [new_reductions, root_after, total_after] = measure(shape);
    // Sums: the least root noise (Huffman's), else less total noise; products: fewer reductions by the estimate, else less noise.
    const bool better = additive ? std::pair(root_after, total_after) < std::pair(root_before, total_before)
                                 : std::tuple(new_reductions, total_after) < std::tuple(old_reductions, total_before);
    if (!better) continue;

    RebalanceTree<V> tree;
    tree.root = vertex[root];
    for (std::size_t i = 1; i < olds.size(); ++i) tree.inner.push_back(vertex[olds[i]]);
    for (const std::uint32_t l : leaves) tree.leaves.push_back(vertex[l]);
    tree.negated = negated;
    tree.root_noise_before = root_before;
    tree.root_noise_after = root_after;
    tree.total_noise_before = total_before;
    tree.total_noise_after = total_after;
    // Slots: the old ops in program order; each new op at the first slot after its operands.
    std::vector<std::pair<std::size_t, std::uint32_t>> slots;
    for (const std::uint32_t v : olds) slots.emplace_back(layout.position(program, vertex[v]), v);
    std::sort(slots.begin(), slots.end());
    std::vector<std::size_t> slot_of(shape.size(), 0);
    for (std::size_t i = 0; i < shape.size(); ++i) {
      std::size_t first = 0;  // first admissible slot
      for (const RebalanceOperand& o : {shape[i].lhs, shape[i].rhs}) {
        if (o.is_node) {
          first = std::max(first, slot_of[o.index]);
          continue;
        }
        const V leaf = vertex[leaves[o.index]];
        if (!layout.same_region(program, leaf, vertex[root])) continue;  // defined before the region
        const std::size_t at = layout.position(program, leaf);
        const auto after = std::upper_bound(slots.begin(), slots.end(), std::make_pair(at, std::numeric_limits<std::uint32_t>::max()));
        first = std::max(first, static_cast<std::size_t>(after - slots.begin()));
      }
      slot_of[i] = i + 1 == shape.size() ? slots.size() - 1 : std::min(first, slots.size() - 1);
    }
    for (std::size_t i = 0; i < shape.size(); ++i) tree.anchor.push_back(vertex[slots[slot_of[i]].second]);
    tree.anchor.back() = vertex[root];
    tree.shape = std::move(shape);
    plan.trees.push_back(std::move(tree));
  }
  return plan;
}

/// An editable program for `apply_rebalance`: `create_before(anchor, kind,
/// lhs, rhs)` creates `kind lhs, rhs` right before `anchor`'s op and returns
/// its value; `rewrite(v, kind, lhs, rhs)` makes `v`'s op `kind lhs, rhs`
/// (same value, same uses); `erase(v)` removes `v`'s op (no uses left).
template <class E>
concept RebalanceEditor = requires(E& editor, const typename E::value_type& v, NoisyOp kind) {
  typename E::value_type;
  { editor.create_before(v, kind, v, v) } -> std::convertible_to<typename E::value_type>;
  editor.rewrite(v, kind, v, v);
  editor.erase(v);
};

/// Rewrites every tree of `plan` through `editor`: the new ops before their
/// anchors, the root's op rewritten in place, the old inner ops erased.
template <RebalanceEditor E>
void apply_rebalance(E& editor, const RebalancePlan<typename E::value_type>& plan) {
  using V = typename E::value_type;
  for (const RebalanceTree<V>& tree : plan.trees) {
    std::vector<V> made;
    const auto value = [&](const RebalanceOperand& o) { return o.is_node ? made.at(o.index) : tree.leaves.at(o.index); };
    for (std::size_t i = 0; i + 1 < tree.shape.size(); ++i) {
      const RebalanceNode& node = tree.shape[i];
      made.push_back(editor.create_before(tree.anchor[i], node.kind, value(node.lhs), value(node.rhs)));
    }
    const RebalanceNode& top = tree.shape.back();
    editor.rewrite(tree.root, top.kind, value(top.lhs), value(top.rhs));
    for (const V& v : tree.inner) editor.erase(v);
  }
}

/// The leaf keys `rebalance_and_place` tries, in order.
enum class RebalanceKeys : std::uint8_t {
  least_own,    ///< each value's least possible noise before its own reduction (best case upstream, itself unreduced)
  least_noise,  ///< each value's least possible noise (the best-case analysis)
  as_placed,    ///< each value's noise in the original with its optimal placement
  unreduced,    ///< each value's noise in the original without any reduction
};

/// What `rebalance_and_place` chose.
template <class V, class Candidate>
struct RebalanceChoice {
  std::optional<Candidate> candidate;  ///< The rebalanced program kept; empty when the original is.
  RebalancePlan<V> plan;               ///< The plan that made it (empty when the original is kept).
  PlacementResult<V> placement;        ///< The optimal placement in the chosen program.
  std::size_t reductions_before = 0;   ///< Reductions the original needs (its placement).
  std::uint64_t total_noise_before = 0;  ///< The original placement's total noise.
  std::size_t candidates = 0;          ///< Rebalanced candidates placed.
  /// Reductions the chosen program needs.
  [[nodiscard]] std::size_t reductions_after() const noexcept { return placement.reduce_after.size(); }
};

/// Rebalances `program` and places `reduce_noise`: places the original,
/// then, for each key set (`RebalanceKeys`: least possible noise before and
/// after a value's own reduction, noise as placed, noise unreduced), plans the trees (`plan_rebalance`), builds the candidate with
/// `make(plan)` (a `Candidate` whose `program()` is the rewritten
/// `NoisyProgram`, with the same vertex type) and places it. Keeps the
/// program whose placement is lexicographically least (reductions, then
/// total noise); the original on a tie. So the chosen program never needs
/// more reductions than the original by the placements found (all optimal
/// when `placement.status` is). Throws `PlacementError` when the original
/// cannot be made legal.
template <NoisyProgram G, class MakeCandidate, class Layout = VertexOrderLayout>
[[nodiscard]] auto rebalance_and_place(const G& program, MakeCandidate make, const NoiseParameters& parameters = {},
                                       const PlacementOptions& placement_options = {},
                                       const RebalanceOptions& options = {}, const Layout& layout = {}) {
  using V = vertex_t<G>;
  using Candidate = std::decay_t<decltype(make(std::declval<const RebalancePlan<V>&>()))>;
  static_assert(std::same_as<vertex_t<std::decay_t<decltype(std::declval<const Candidate&>().program())>>, V>,
                "rebalance_and_place: the candidate's program must have the original's vertex type");
  RebalanceChoice<V, Candidate> choice;
  choice.placement = place_reduce_noise(program, parameters, placement_options);
  choice.reductions_before = choice.placement.reduce_after.size();
  choice.total_noise_before = choice.placement.statistics.total_noise;
  const auto key_set = [&](RebalanceKeys keys) {
    NoiseAnalysisOptions analysis_options;
    if (keys == RebalanceKeys::as_placed) analysis_options.reduce_after = placement_mask(program, choice.placement.reduce_after);
    const bool best_case = keys == RebalanceKeys::least_noise || keys == RebalanceKeys::least_own;
    const NoiseAnalysis<G> analysis = best_case ? least_possible_noise(program, parameters)
                                                : analyze_noise(program, parameters, std::move(analysis_options));
    std::vector<std::uint64_t> out(vertex_count(program), 0);
    for (const auto& v : vertex_range(program)) {
      std::uint64_t& key = out[vertex_index(program, v)];
      if (keys == RebalanceKeys::least_own) {
        const std::optional<Interval> own = noise_before_reduction(analysis, v);
        key = own && !own->is_empty() ? own->umax() : 0;
      } else {
        key = analysis.noise_bound(v).value_or(0);
      }
    }
    return out;
  };
  const std::vector<std::uint64_t> keys[] = {key_set(RebalanceKeys::least_own), key_set(RebalanceKeys::least_noise),
                                             key_set(RebalanceKeys::as_placed), key_set(RebalanceKeys::unreduced)};
  for (const std::vector<std::uint64_t>& k : keys) {
    RebalancePlan<V> plan = plan_rebalance(program, k, parameters, options, layout);
    if (plan.empty()) continue;
    Candidate candidate = make(plan);
    PlacementResult<V> placed = place_reduce_noise(candidate.program(), parameters, placement_options);
    ++choice.candidates;
    const auto better = std::pair(placed.reduce_after.size(), placed.statistics.total_noise) <
                        std::pair(choice.placement.reduce_after.size(), choice.placement.statistics.total_noise);
    if (!better) continue;
    choice.placement = std::move(placed);
    choice.plan = std::move(plan);
    choice.candidate.emplace(std::move(candidate));
  }
  return choice;
}

}  // namespace kildall::noisy
