#pragma once
/// \file
/// Rewriting a program to need fewer `reduce_noise` ops (the article: "or by
/// rewriting the program to reduce the need for reduce_noise ops, or both"):
/// tree-height reduction by re-association and commutation (Baer & Bovet,
/// 1968, "Compilation of arithmetic expressions for parallel computations";
/// Kuck, 1977, "A survey of parallel machine organization and programming"),
/// with the shape chosen by Huffman's combination (Huffman, 1952, "A method
/// for the construction of minimum-redundancy codes") on noise levels:
/// combine the two least noisy operands first.
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
/// - **Shape.** Huffman's combination with the op's noise rule
///   (`fold_noise`): for `add`/`sub` (1 + the larger) it gives the least root
///   noise over all shapes, ceil(log2 sum 2^n_i) (Golumbic, 1976,
///   "Combinatorial merging"): a balanced sum of n fresh values has noise
///   12 + ceil(log2 n) instead of 12 + n - 1 for a chain. For `mul` (the sum)
///   every shape has the same root noise; Huffman's shape has the least total
///   noise of its inner values, and with the article's 12 / 26 every inner
///   `mul` but the root needs a reduction whatever the shape (24 + 12 > 26).
///   Leaf noise is a key the caller gives (the least possible noise of each
///   value, or its noise as placed). A tree is rewritten only when its root
///   noise, or failing that its total noise, goes down under those keys.
/// - **Choice.** `rebalance_and_place` places
///   `reduce_noise` optimally in the original and in each rebalanced
///   candidate and keeps the candidate with the fewest reductions (the
///   original on a tie), so rebalancing never costs a reduction.
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
/// having `leaf_noise`. Operands stay in the order they were made. At least
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
};

namespace detail {

[[nodiscard]] inline int rebalance_family(NoisyOp kind) noexcept {
  return kind == NoisyOp::add || kind == NoisyOp::sub ? 1 : kind == NoisyOp::mul ? 2 : 0;
}

}  // namespace detail

/// The trees of `program` worth rebuilding: for each maximal single-use tree
/// of one family with at least `options.min_leaves` leaves, Huffman's shape
/// on `leaf_noise` (indexed by `vertex_index`), kept when the root's noise,
/// or failing that the tree's total noise, goes down. `layout` gives program
/// order (where each new op goes: the earliest old op of the tree after its
/// operands) and regions (a tree stays in one). Ops of a family with other
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
    if (family(v) == 0 || p.users(v).size() != 1) continue;
    const std::uint32_t u = p.users(v)[0];
    inner[v] = u != v && family(u) == family(v) && layout.same_region(program, vertex[v], vertex[u]);
  }
  std::vector<std::uint32_t> order = p.topological;
  if (order.empty())  // a cycle: trees never contain one (it passes a block argument); any order of roots will do
    for (std::uint32_t v = 0; v < n; ++v) order.push_back(v);
  RebalancePlan<V> plan;
  std::vector<std::uint64_t> own(n, 0);  // noise of the old ops under the keys
  for (const std::uint32_t root : order) {
    if (family(root) == 0 || inner[root]) continue;
    // The old tree (iteratively: chains may be long): leaves with signs, each old op's noise.
    std::vector<std::uint32_t> leaves, olds;
    std::vector<bool> negated;
    std::uint64_t total_before = 0;
    struct Frame {
      std::uint32_t v;
      bool negative;
      bool expanded;
    };
    std::vector<Frame> stack{{root, false, false}};
    while (!stack.empty()) {
      const Frame f = stack.back();
      const auto ops = p.operands(f.v);
      if (!f.expanded) {
        stack.back().expanded = true;
        olds.push_back(f.v);
        for (std::size_t i = 0; i < 2; ++i) {
          const bool sign = f.negative != (i == 1 && p.kind[f.v] == NoisyOp::sub);
          if (inner[ops[i]]) {
            stack.push_back({ops[i], sign, false});
          } else {
            leaves.push_back(ops[i]);
            negated.push_back(sign);
          }
        }
        continue;
      }
      stack.pop_back();
      const std::uint64_t noise[2] = {inner[ops[0]] ? own[ops[0]] : leaf_noise[ops[0]],
                                      inner[ops[1]] ? own[ops[1]] : leaf_noise[ops[1]]};
      own[f.v] = fold_noise(p.kind[f.v], noise, parameters);
      total_before = saturating_noise_add(total_before, own[f.v]);
    }
    const std::uint64_t root_before = own[root];
    if (leaves.size() < std::max<std::size_t>(options.min_leaves, 3)) continue;
    ++plan.trees_seen;
    std::vector<std::uint64_t> keys;
    for (const std::uint32_t l : leaves) keys.push_back(leaf_noise[l]);
    const bool additive = detail::rebalance_family(p.kind[root]) == 1;
    RebalanceShape shape = huffman_shape(additive ? NoisyOp::add : NoisyOp::mul, keys, parameters);
    if (additive && !assign_signs(shape, negated)) continue;
    const std::vector<std::uint64_t> noise = shape_noise(shape, keys, parameters);
    std::uint64_t total_after = 0;
    for (const std::uint64_t x : noise) total_after = saturating_noise_add(total_after, x);
    const std::uint64_t root_after = noise.back();
    if (root_after > root_before || (root_after == root_before && total_after >= total_before)) continue;

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
  least_noise,  ///< each value's least possible noise (the best-case analysis)
  as_placed,    ///< each value's noise in the original with its optimal placement
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
/// then, for each key set (`RebalanceKeys`: least possible noise, noise as
/// placed), plans the trees (`plan_rebalance`), builds the candidate with
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
    const NoiseAnalysis<G> analysis = keys == RebalanceKeys::least_noise
                                          ? least_possible_noise(program, parameters)
                                          : analyze_noise(program, parameters, std::move(analysis_options));
    std::vector<std::uint64_t> out(vertex_count(program), 0);
    for (const auto& v : vertex_range(program)) out[vertex_index(program, v)] = analysis.noise_bound(v).value_or(0);
    return out;
  };
  const std::vector<std::uint64_t> keys[] = {key_set(RebalanceKeys::least_noise), key_set(RebalanceKeys::as_placed)};
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
