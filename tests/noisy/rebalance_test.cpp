// rebalance.hpp: Huffman's shapes against the brute force over every tree shape (least root noise for add, least total noise for mul), the add/sub signs against the signed sum, every rebalanced program against the original by direct wrap-around evaluation, its placement by an independent noise evaluation, never more reductions than without; bad inputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <kildall/noisy/rebalance.hpp>

#include "workloads.hpp"  // benchmarks/noisy_scale: the programs, their rebalance editor

using namespace kildall::noisy;
using noisy_scale::Program;

namespace {

// Brute force over all full binary trees on the leaves of `set` (a bit mask):
// the least root noise under 1 + max (add) or, under the sum (mul), the least
// total noise of the inner ops (every shape has the same root: the sum).
struct ShapeOracle {
  std::vector<std::uint64_t> leaf;
  std::map<unsigned, std::uint64_t> memo;
  std::uint64_t sum(unsigned set) const {
    std::uint64_t s = 0;
    for (unsigned i = 0; i < leaf.size(); ++i)
      if (set >> i & 1) s += leaf[i];
    return s;
  }
  std::uint64_t least_add_root(unsigned set) {
    if ((set & (set - 1)) == 0) return leaf[static_cast<unsigned>(__builtin_ctz(set))];
    if (auto it = memo.find(set); it != memo.end()) return it->second;
    std::uint64_t best = UINT64_MAX;
    for (unsigned a = (set - 1) & set; a != 0; a = (a - 1) & set)
      best = std::min(best, 1 + std::max(least_add_root(a), least_add_root(set & ~a)));
    return memo[set] = best;
  }
  std::uint64_t least_mul_total(unsigned set) {
    if ((set & (set - 1)) == 0) return 0;
    if (auto it = memo.find(set); it != memo.end()) return it->second;
    std::uint64_t best = UINT64_MAX;
    for (unsigned a = (set - 1) & set; a != 0; a = (a - 1) & set)
      best = std::min(best, least_mul_total(a) + least_mul_total(set & ~a));
    return memo[set] = best + sum(set);
  }
};

// Wrap-around 32-bit values of every vertex (vertex order is topological);
// `input(v)` is the value of encode / input vertex v.
template <class Input>
std::vector<std::uint32_t> values_of(const Program& g, Input input) {
  std::vector<std::uint32_t> value(boost::num_vertices(g), 0);
  for (std::size_t v = 0; v < boost::num_vertices(g); ++v) {
    std::vector<std::uint32_t> in;
    for (auto [it, end] = boost::in_edges(v, g); it != end; ++it) in.push_back(value[boost::source(*it, g)]);
    switch (g[v].kind) {
      case NoisyOp::add: value[v] = in[0] + in[1]; break;
      case NoisyOp::sub: value[v] = in[0] - in[1]; break;
      case NoisyOp::mul: value[v] = in[0] * in[1]; break;
      case NoisyOp::encode:
      case NoisyOp::input: value[v] = input(v); break;
      case NoisyOp::join:
      case NoisyOp::reduce_noise:
      case NoisyOp::decode: value[v] = in.empty() ? 0 : in[0]; break;
      case NoisyOp::plain: value[v] = 0; break;
    }
  }
  return value;
}

// Independent noise evaluation with reductions after `reduced` (vertex order
// topological): legal iff every add/sub/mul stays within 26 before reducing.
bool legal_with(const Program& g, const std::vector<std::size_t>& reduced_list) {
  std::vector<bool> reduced(boost::num_vertices(g), false);
  for (const std::size_t v : reduced_list) reduced[v] = true;
  std::vector<std::uint64_t> noise(boost::num_vertices(g), 0);
  for (std::size_t v = 0; v < boost::num_vertices(g); ++v) {
    std::uint64_t mx = 0, sum = 0;
    for (auto [it, end] = boost::in_edges(v, g); it != end; ++it) {
      mx = std::max(mx, noise[boost::source(*it, g)]);
      sum += noise[boost::source(*it, g)];
    }
    const NoisyOp k = g[v].kind;
    if (k == NoisyOp::encode || k == NoisyOp::input || k == NoisyOp::reduce_noise) noise[v] = 12;
    else if (k == NoisyOp::add || k == NoisyOp::sub) noise[v] = mx + 1;
    else if (k == NoisyOp::mul) noise[v] = sum;
    else if (k == NoisyOp::join) noise[v] = mx;
    if ((k == NoisyOp::add || k == NoisyOp::sub || k == NoisyOp::mul) && noise[v] > 26) return false;
    if (reduced[v]) noise[v] = 12;
  }
  return true;
}

std::vector<Program> small_programs() {
  std::vector<Program> out;
  for (std::uint32_t seed = 1; seed <= 40; ++seed) out.push_back(noisy_scale::random_dag(8 + seed % 24, seed, 2 + seed % 6));
  for (std::size_t n : {3, 5, 8, 13}) {
    out.push_back(noisy_scale::sum_chains(n, 2));
    out.push_back(noisy_scale::dot_products(n, 1, n % 2 == 1));
    out.push_back(noisy_scale::power_sum_polynomials(n / 2 + 1, 1));
    out.push_back(noisy_scale::product_chains(n, 1));
  }
  out.push_back(noisy_scale::horner(6, 1, true));
  out.push_back(noisy_scale::reduction_trees(16, 1));
  return out;
}

}  // namespace

TEST_CASE("Huffman's shape has the least root noise for add and the least total noise for mul (brute force over all shapes)") {
  std::mt19937 rng(18);
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t n = 1 + rng() % 7;
    ShapeOracle oracle;
    for (std::size_t i = 0; i < n; ++i) oracle.leaf.push_back(12 + rng() % (trial % 2 == 0 ? 3 : 12));
    CAPTURE(oracle.leaf);
    const unsigned all = (1u << n) - 1;
    for (const NoisyOp kind : {NoisyOp::add, NoisyOp::sub, NoisyOp::mul}) {
      const RebalanceShape shape = huffman_shape(kind, oracle.leaf);
      REQUIRE(shape.size() == n - 1);
      if (n == 1) continue;
      const auto noise = shape_noise(shape, oracle.leaf);
      oracle.memo.clear();
      if (kind == NoisyOp::mul) {
        std::uint64_t total = 0;
        for (const auto x : noise) total += x;
        CHECK(noise.back() == oracle.sum(all));
        CHECK(total == oracle.least_mul_total(all));
      } else {
        CHECK(noise.back() == oracle.least_add_root(all));
      }
      // Every leaf used once, every op after its operands.
      std::vector<int> used(n, 0);
      for (std::size_t i = 0; i < shape.size(); ++i)
        for (const RebalanceOperand& o : {shape[i].lhs, shape[i].rhs}) {
          if (o.is_node) CHECK(o.index < i);
          else ++used[o.index];
        }
      CHECK(std::all_of(used.begin(), used.end(), [](int u) { return u == 1; }));
    }
  }
  // The article's numbers: a balanced sum of n fresh values is 12 + ceil(log2 n).
  for (std::size_t n : {2, 3, 4, 5, 8, 9, 64, 1000}) {
    const std::vector<std::uint64_t> fresh(n, 12);
    CHECK(shape_noise(huffman_shape(NoisyOp::add, fresh), fresh).back() ==
          12 + static_cast<std::uint64_t>(std::ceil(std::log2(static_cast<double>(n)))));
  }
}

TEST_CASE("assign_signs: every shape computes the signed sum with add and sub (wrap-around evaluation)") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 2 + rng() % 7;
    std::vector<std::uint64_t> keys(n);
    for (auto& k : keys) k = 12 + rng() % 6;
    std::vector<bool> negated(n);
    for (std::size_t i = 0; i < n; ++i) negated[i] = rng() % 2 == 0;
    std::vector<std::uint32_t> x(n);
    for (auto& v : x) v = static_cast<std::uint32_t>(rng());
    RebalanceShape shape = huffman_shape(NoisyOp::add, keys);
    const bool all_negative = std::all_of(negated.begin(), negated.end(), [](bool b) { return b; });
    REQUIRE(assign_signs(shape, negated) == !all_negative);
    if (all_negative) continue;
    std::vector<std::uint32_t> node(shape.size());
    const auto of = [&](const RebalanceOperand& o) { return o.is_node ? node[o.index] : x[o.index]; };
    for (std::size_t i = 0; i < shape.size(); ++i) {
      REQUIRE((shape[i].kind == NoisyOp::add || shape[i].kind == NoisyOp::sub));
      node[i] = shape[i].kind == NoisyOp::add ? of(shape[i].lhs) + of(shape[i].rhs) : of(shape[i].lhs) - of(shape[i].rhs);
    }
    std::uint32_t expected = 0;
    for (std::size_t i = 0; i < n; ++i) expected = negated[i] ? expected - x[i] : expected + x[i];
    CHECK(node.back() == expected);
  }
}

TEST_CASE("rebalanced programs compute what the original computes, and rebalance_and_place never needs more reductions") {
  std::size_t rewritten = 0, saved = 0;
  for (const Program& g : small_programs()) {
    const auto choice = rebalance_and_place(g, [&g](const RebalancePlan<std::size_t>& plan) {
      return noisy_scale::rebalanced_program(g, plan);
    });
    CHECK(choice.reductions_after() <= choice.reductions_before);
    CHECK(choice.placement.status == PlacementStatus::optimal);
    // The plans of both key sets, applied, compute the same values (wrap-around, random inputs).
    for (int keys = 0; keys < 2; ++keys) {
      std::vector<std::uint64_t> k(boost::num_vertices(g), 12);
      for (std::size_t v = 0; v < k.size(); ++v) k[v] = 12 + (v * 7 + static_cast<std::size_t>(keys) * 3) % 5;
      const auto plan = plan_rebalance(g, k);
      const auto r = noisy_scale::rebalanced_program(g, plan);
      for (std::uint32_t seed = 0; seed < 4; ++seed) {
        const auto hash = [seed](std::size_t original) { return static_cast<std::uint32_t>((original + 1) * 2654435761u + seed * 40503u); };
        const auto before = values_of(g, hash);
        std::vector<std::size_t> original_of(boost::num_vertices(r.graph), SIZE_MAX);
        for (std::size_t v = 0; v < r.renumbered.size(); ++v)
          if (r.renumbered[v] != SIZE_MAX && v < boost::num_vertices(g)) original_of[r.renumbered[v]] = v;
        const auto after = values_of(r.graph, [&](std::size_t v) { return hash(original_of[v]); });
        for (std::size_t v = 0; v < boost::num_vertices(g); ++v) {
          if (r.renumbered[v] == SIZE_MAX) continue;  // an inner value of a rebuilt tree
          CHECK(after[r.renumbered[v]] == before[v]);
        }
      }
    }
    if (!choice.candidate) {
      CHECK(legal_with(g, choice.placement.reduce_after));
      continue;
    }
    ++rewritten;
    saved += choice.reductions_before - choice.reductions_after();
    CHECK(legal_with(choice.candidate->graph, choice.placement.reduce_after));
    CHECK(boost::num_vertices(choice.candidate->graph) <= boost::num_vertices(g));
  }
  CHECK(rewritten > 0);
  CHECK(saved > 0);
}

TEST_CASE("the benchmark shapes: chains of adds, dot products, polynomials term by term") {
  const auto needed = [](const Program& g) {
    const auto c = rebalance_and_place(g, [&g](const RebalancePlan<std::size_t>& plan) { return noisy_scale::rebalanced_program(g, plan); });
    return std::pair(c.reductions_before, c.reductions_after());
  };
  // 16 fresh values summed: a chain reaches 27 and needs 1; balanced, 16: none.
  CHECK(needed(noisy_scale::sum_chains(16, 1)) == std::pair<std::size_t, std::size_t>(1, 0));
  // Dot product of 8: products of 24; a chain needs 3 reductions, a tree 2.
  CHECK(needed(noisy_scale::dot_products(8, 1, false)) == std::pair<std::size_t, std::size_t>(3, 2));
  // A product chain needs the same whatever the shape (24 + 12 > 26).
  const auto [before, after] = needed(noisy_scale::product_chains(6, 1));
  CHECK(before == after);
}

TEST_CASE("bad input: wrong kinds, no leaves, wrong key sizes, all-negative sums, ops of other arity, loops") {
  const std::vector<std::uint64_t> keys{12, 13};
  CHECK_THROWS_AS((void)huffman_shape(NoisyOp::encode, keys), std::invalid_argument);
  CHECK_THROWS_AS((void)huffman_shape(NoisyOp::add, std::vector<std::uint64_t>{}), std::invalid_argument);
  const Program g = noisy_scale::sum_chains(5, 1);
  CHECK_THROWS_AS((void)plan_rebalance(g, keys), std::invalid_argument);
  RebalanceShape shape = huffman_shape(NoisyOp::add, keys);
  CHECK_FALSE(assign_signs(shape, {true, true}));
  // An add of three operands (a generic graph) is left alone.
  noisy_scale::Builder b;
  const std::size_t x = b.encode(), y = b.encode(), z = b.encode();
  const std::size_t wide = b.op(NoisyOp::add, {x, y, z});
  b.decode(b.add(b.add(wide, x), y));
  const Program w = b.take();
  const auto plan = plan_rebalance(w, std::vector<std::uint64_t>(boost::num_vertices(w), 12));
  for (const auto& t : plan.trees) CHECK(std::find(t.inner.begin(), t.inner.end(), wide) == t.inner.end());
  // A loop: the accumulator's block argument is a boundary; the add chain in the loop is rebalanced.
  noisy_scale::Builder l;
  const std::size_t a = l.encode(), c = l.encode(), d = l.encode();
  const std::size_t phi = l.op(NoisyOp::join, {a});
  const std::size_t s = l.add(l.add(l.add(phi, c), d), c);
  Program loop = l.take();
  boost::add_edge(s, phi, loop);
  const auto lp = plan_rebalance(loop, std::vector<std::uint64_t>(boost::num_vertices(loop), 12));
  REQUIRE(lp.trees.size() == 1);
  CHECK(lp.trees[0].root == s);
  CHECK(lp.trees[0].root_noise_after < lp.trees[0].root_noise_before);
}

namespace {

// Every full binary tree over the leaves of `set` (bit mask), as shapes over leaf indices.
std::vector<RebalanceShape> all_shapes(unsigned set) {
  std::vector<RebalanceShape> out;
  if ((set & (set - 1)) == 0) return {RebalanceShape{}};
  const unsigned low = set & (~set + 1);
  for (unsigned a = (set - 1) & set; a != 0; a = (a - 1) & set) {
    if ((a & low) == 0) continue;  // unordered pairs: the lowest leaf goes left
    for (const RebalanceShape& l : all_shapes(a))
      for (const RebalanceShape& r : all_shapes(set & ~a)) {
        RebalanceShape s = l;
        const auto shift = static_cast<std::uint32_t>(l.size());
        for (RebalanceNode n : r) {
          if (n.lhs.is_node) n.lhs.index += shift;
          if (n.rhs.is_node) n.rhs.index += shift;
          s.push_back(n);
        }
        const RebalanceOperand left = l.empty() ? RebalanceOperand{false, static_cast<std::uint32_t>(__builtin_ctz(a))}
                                                : RebalanceOperand{true, shift - 1};
        const RebalanceOperand right = r.empty() ? RebalanceOperand{false, static_cast<std::uint32_t>(__builtin_ctz(set & ~a))}
                                                 : RebalanceOperand{true, static_cast<std::uint32_t>(s.size() - 1)};
        s.push_back({NoisyOp::add, left, right});
        out.push_back(std::move(s));
      }
  }
  return out;
}

}  // namespace

TEST_CASE("one add or mul tree written as a chain: rebalance_and_place needs the fewest reductions of all shapes (brute force)") {
  std::mt19937 rng(904);
  for (int trial = 0; trial < 600; ++trial) {
    const bool additive = trial % 2 == 0;
    const std::size_t k = 3 + rng() % 4;
    // Leaves of another family: 0: a fresh value (12); 1, 2: two or three fresh values
    // combined by the other family (add tree: products, 24; mul tree: sums, 13 and 14).
    std::vector<int> leaf_kind(k);
    for (auto& x : leaf_kind) x = static_cast<int>(rng() % 3);
    NoiseParameters p;
    p.maximum = additive ? std::vector<std::uint64_t>{26, 27, 29, 40}[rng() % 4] : std::vector<std::uint64_t>{26, 40, 50, 64}[rng() % 4];
    CAPTURE(additive);
    std::string leaves_text;
    for (const int x : leaf_kind) leaves_text += std::to_string(x);
    CAPTURE(leaves_text);
    CAPTURE(p.maximum);
    const auto build = [&](const RebalanceShape& shape) {
      noisy_scale::Builder b;
      const auto other = [&](std::size_t x, std::size_t y) { return additive ? b.mul(x, y) : b.add(x, y); };
      std::vector<std::size_t> leaves;
      for (const int kind : leaf_kind) {
        if (kind == 0) leaves.push_back(b.encode());
        else if (kind == 1) leaves.push_back(other(b.encode(), b.encode()));
        else leaves.push_back(other(other(b.encode(), b.encode()), b.encode()));
      }
      std::vector<std::size_t> made;
      for (const RebalanceNode& n : shape) {
        const auto of = [&](const RebalanceOperand& o) { return o.is_node ? made[o.index] : leaves[o.index]; };
        made.push_back(additive ? b.add(of(n.lhs), of(n.rhs)) : b.mul(of(n.lhs), of(n.rhs)));
      }
      b.decode(made.back());
      return b.take();
    };
    std::size_t best = SIZE_MAX;
    for (const RebalanceShape& shape : all_shapes((1u << k) - 1))
      best = std::min(best, place_reduce_noise(build(shape), p).reduce_after.size());
    // The program as written: a chain.
    RebalanceShape chain;
    chain.push_back({NoisyOp::add, {false, 0}, {false, 1}});
    for (std::uint32_t i = 2; i < k; ++i) chain.push_back({NoisyOp::add, {true, i - 2}, {false, i}});
    const Program g = build(chain);
    const auto choice = rebalance_and_place(
        g, [&g](const RebalancePlan<std::size_t>& plan) { return noisy_scale::rebalanced_program(g, plan); }, p);
    CHECK(choice.reductions_after() <= choice.reductions_before);
    CHECK(choice.reductions_after() == best);
  }
}
