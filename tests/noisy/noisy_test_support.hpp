#pragma once
// Test support for the noisy tests: a Boost.Graph DAG adapted as a
// NoisyProgram, random program generators with fixed seeds, and an
// independent oracle (direct evaluation in topological order plus brute
// force over all placements) that shares no code with the library.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include <kildall/noisy/noise_model.hpp>

namespace noisy_test {

using kildall::noisy::NoisyOp;

/// Vertex payload: the op kind.
struct Node {
  NoisyOp kind = NoisyOp::plain;
};

/// A program: vertex i is created in topological order (operands first).
using Dag = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, Node>;

/// The NoisyProgram requirement, found by ADL through `Node`.
inline NoisyOp noisy_op(const Dag& g, Dag::vertex_descriptor v) { return g[v].kind; }

/// Adds a vertex of `kind` with `operands` (in order).
inline std::size_t add(Dag& g, NoisyOp kind, std::vector<std::size_t> operands = {}) {
  const auto v = boost::add_vertex(g);  // (the property overload trips GCC 12 -Wuninitialized in Boost)
  g[v].kind = kind;
  for (const std::size_t o : operands) boost::add_edge(o, v, g);
  return v;
}

/// Operands of `v` in order.
inline std::vector<std::size_t> operands(const Dag& g, std::size_t v) {
  std::vector<std::size_t> out;
  for (auto [it, end] = boost::in_edges(v, g); it != end; ++it) out.push_back(boost::source(*it, g));
  return out;
}

/// Independent evaluation of a DAG program with reductions after `reduced`
/// (indexed by vertex): own noise (before reduction) and value noise.
struct Evaluation {
  std::vector<std::uint64_t> own;
  std::vector<std::uint64_t> value;
  bool legal = true;
  std::uint64_t total = 0;  // sum of value noise over add/sub/mul/join vertices
};

/// `forced` (optional): a vertex whose value is taken to have the given noise
/// instead of its own (what its readers see; its own checks are unchanged).
inline Evaluation evaluate(const Dag& g, const std::vector<bool>& reduced, std::uint64_t initial = 12,
                           std::uint64_t maximum = 26, std::uint64_t input = 12,
                           std::optional<std::pair<std::size_t, std::uint64_t>> forced = std::nullopt) {
  const std::size_t n = boost::num_vertices(g);
  Evaluation e;
  e.own.assign(n, 0);
  e.value.assign(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    const auto ops = operands(g, v);
    std::uint64_t own = 0;
    switch (g[v].kind) {
      case NoisyOp::encode:
      case NoisyOp::reduce_noise: own = initial; break;
      case NoisyOp::input: own = input; break;
      case NoisyOp::decode:
      case NoisyOp::plain: own = 0; break;
      case NoisyOp::join:
        for (const auto o : ops) own = std::max(own, e.value[o]);
        break;
      case NoisyOp::add:
      case NoisyOp::sub:
        for (const auto o : ops) own = std::max(own, e.value[o]);
        own += 1;
        break;
      case NoisyOp::mul:
        for (const auto o : ops) own += e.value[o];
        break;
    }
    const NoisyOp k = g[v].kind;
    const bool reducible = k == NoisyOp::add || k == NoisyOp::sub || k == NoisyOp::mul;
    const bool checked = reducible || k == NoisyOp::reduce_noise;
    e.own[v] = own;
    e.value[v] = reducible && v < reduced.size() && reduced[v] ? initial : own;
    if (checked && (own > maximum || e.value[v] > maximum)) e.legal = false;
    if (forced && forced->first == v) e.value[v] = forced->second;
    if (reducible || k == NoisyOp::join) e.total += e.value[v];
  }
  return e;
}

/// The reducible vertices of `g`.
inline std::vector<std::size_t> reducible_vertices(const Dag& g) {
  std::vector<std::size_t> out;
  for (std::size_t v = 0; v < boost::num_vertices(g); ++v) {
    const NoisyOp k = g[v].kind;
    if (k == NoisyOp::add || k == NoisyOp::sub || k == NoisyOp::mul) out.push_back(v);
  }
  return out;
}

/// Brute force over every placement: the least number of inserted ops of a
/// legal placement (or -1 if none), and the least total noise among those.
struct Optimum {
  int count = -1;
  std::uint64_t total = std::numeric_limits<std::uint64_t>::max();
};

inline Optimum brute_force(const Dag& g, std::uint64_t initial = 12, std::uint64_t maximum = 26,
                           std::uint64_t input = 12) {
  const auto red = reducible_vertices(g);
  Optimum best;
  const std::size_t k = red.size();
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << k); ++mask) {
    std::vector<bool> reduced(boost::num_vertices(g), false);
    int count = 0;
    for (std::size_t i = 0; i < k; ++i)
      if (mask >> i & 1) {
        reduced[red[i]] = true;
        ++count;
      }
    const Evaluation e = evaluate(g, reduced, initial, maximum, input);
    if (!e.legal) continue;
    if (best.count < 0 || count < best.count || (count == best.count && e.total < best.total)) {
      best.count = count;
      best.total = e.total;
    }
  }
  return best;
}

/// Every legal placement of `g` (as masks over its vertices), by trying every
/// subset of its reducible vertices.
inline std::vector<std::vector<bool>> legal_placements(const Dag& g, std::uint64_t initial = 12,
                                                       std::uint64_t maximum = 26) {
  const auto red = reducible_vertices(g);
  std::vector<std::vector<bool>> out;
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << red.size()); ++mask) {
    std::vector<bool> reduced(boost::num_vertices(g), false);
    for (std::size_t i = 0; i < red.size(); ++i) reduced[red[i]] = (mask >> i & 1) != 0;
    if (evaluate(g, reduced, initial, maximum).legal) out.push_back(std::move(reduced));
  }
  return out;
}

/// A random DAG program with `ops` reducible ops (fixed `seed`): a few encodes
/// and inputs, then add/sub/mul over earlier noisy values, some joins (merges
/// of two branches), and a decode of the last value.
inline Dag random_program(std::uint32_t seed, std::size_t ops, double mul_share = 0.25) {
  std::mt19937 rng(seed);
  Dag g;
  std::vector<std::size_t> noisy;
  const std::size_t fresh = 2 + rng() % 2;
  for (std::size_t i = 0; i < fresh; ++i) {
    const auto c = add(g, NoisyOp::plain);
    noisy.push_back(add(g, NoisyOp::encode, {c}));
  }
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::size_t made = 0;
  while (made < ops) {
    // Prefer recent values so that noise actually builds up.
    auto pick = [&] {
      const std::size_t window = std::min<std::size_t>(noisy.size(), 4);
      return noisy[noisy.size() - 1 - rng() % window];
    };
    const double r = unit(rng);
    if (r < 0.12 && noisy.size() >= 2) {
      noisy.push_back(add(g, NoisyOp::join, {pick(), pick()}));
      continue;
    }
    const NoisyOp kind = r < 0.12 + mul_share ? NoisyOp::mul : (unit(rng) < 0.5 ? NoisyOp::add : NoisyOp::sub);
    const std::size_t a = pick();
    const std::size_t b = unit(rng) < 0.3 ? noisy[rng() % std::min<std::size_t>(noisy.size(), fresh)] : pick();
    noisy.push_back(add(g, kind, {a, b}));
    ++made;
  }
  add(g, NoisyOp::decode, {noisy.back()});
  return g;
}

/// The article's chain of `n` adds: a, b encoded; x1 = a + b; x_{i+1} = x_i + b.
inline Dag add_chain(std::size_t n) {
  Dag g;
  const auto a = add(g, NoisyOp::encode, {add(g, NoisyOp::plain)});
  const auto b = add(g, NoisyOp::encode, {add(g, NoisyOp::plain)});
  std::size_t x = add(g, NoisyOp::add, {a, b});
  for (std::size_t i = 1; i < n; ++i) x = add(g, NoisyOp::add, {x, b});
  add(g, NoisyOp::decode, {x});
  return g;
}

}  // namespace noisy_test
