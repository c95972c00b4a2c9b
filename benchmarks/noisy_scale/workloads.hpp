#pragma once
// Workloads for the reduce_noise placement at scale (issue 7), deterministic
// from a seed: random noisy DAGs as the issue describes them, and structured
// kernels as an FHE compiler would emit them (dot products, matrix-vector and
// matrix-matrix products, Horner and tree-shaped polynomial evaluation,
// balanced reduction trees, a box blur), some with control-flow diamonds
// whose results meet in a block argument (a `join` vertex).
//
// A program is a Boost.Graph `adjacency_list` adapted as a kildall
// `NoisyProgram` (one free function `noisy_op`), vertex i created after its
// operands.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include <kildall/noisy/compact_program.hpp>
#include <kildall/noisy/noise_model.hpp>
#include <kildall/noisy/rebalance.hpp>

namespace noisy_scale {

using kildall::noisy::NoisyOp;

/// Vertex payload: the op kind.
struct Node {
  NoisyOp kind = NoisyOp::plain;
};

/// A program (vertices in creation order, operands first).
using Program = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, Node>;

/// The NoisyProgram requirement (found by ADL through `Node`).
inline NoisyOp noisy_op(const Program& g, Program::vertex_descriptor v) { return g[v].kind; }

/// Builds a program op by op.
class Builder {
 public:
  /// A new op of `kind` over `operands`.
  std::size_t op(NoisyOp kind, std::initializer_list<std::size_t> operands = {}) {
    const auto v = boost::add_vertex(g_);
    g_[v].kind = kind;
    for (const std::size_t o : operands) boost::add_edge(o, v, g_);
    return v;
  }
  /// A fresh encoded value.
  std::size_t encode() { return op(NoisyOp::encode, {op(NoisyOp::plain)}); }
  std::size_t add(std::size_t a, std::size_t b) { return op(NoisyOp::add, {a, b}); }
  std::size_t sub(std::size_t a, std::size_t b) { return op(NoisyOp::sub, {a, b}); }
  std::size_t mul(std::size_t a, std::size_t b) { return op(NoisyOp::mul, {a, b}); }
  /// A control-flow diamond: `then_value` and `else_value` flow into a block argument.
  std::size_t diamond(std::size_t then_value, std::size_t else_value) { return op(NoisyOp::join, {then_value, else_value}); }
  void decode(std::size_t v) { (void)op(NoisyOp::decode, {v}); }
  /// Decodes every noisy value nobody uses.
  void decode_unused() {
    const std::size_t n = boost::num_vertices(g_);
    for (std::size_t v = 0; v < n; ++v) {
      const NoisyOp k = g_[v].kind;
      if (k == NoisyOp::decode || k == NoisyOp::plain) continue;
      if (boost::out_degree(v, g_) == 0) decode(v);
    }
  }
  /// Balanced sum of `values` (a reduction tree).
  std::size_t sum_tree(std::vector<std::size_t> values) {
    while (values.size() > 1) {
      std::vector<std::size_t> next;
      for (std::size_t i = 0; i + 1 < values.size(); i += 2) next.push_back(add(values[i], values[i + 1]));
      if (values.size() % 2 == 1) next.push_back(values.back());
      values.swap(next);
    }
    return values.front();
  }
  Program take() { return std::move(g_); }

 private:
  Program g_;
};

/// The random DAG: about one encode per 20 ops, each op takes two
/// operands among the `window` most recent values (8 by default), 30% mul /
/// 50% add / 20% sub; every unused value is decoded. `ops` add/sub/mul ops.
inline Program random_dag(std::size_t ops, std::uint32_t seed, std::size_t window_size = 8) {
  std::mt19937 rng(seed);
  Builder b;
  std::vector<std::size_t> recent{b.encode(), b.encode()};
  for (std::size_t made = 0; made < ops;) {
    if (rng() % 20 == 0) {
      recent.push_back(b.encode());
      continue;
    }
    const std::size_t window = std::min<std::size_t>(recent.size(), window_size);
    const std::size_t x = recent[recent.size() - 1 - rng() % window];
    const std::size_t y = recent[recent.size() - 1 - rng() % window];
    const unsigned r = rng() % 10;
    recent.push_back(r < 3 ? b.mul(x, y) : r < 8 ? b.add(x, y) : b.sub(x, y));
    ++made;
  }
  b.decode_unused();
  return b.take();
}

/// Sum of `terms` as a chain `((t0 + t1) + t2) + ...`, with a diamond
/// (`acc + t` or `acc - t`, joined) every `diamond_every` terms (0: none).
inline std::size_t sum_chain(Builder& b, const std::vector<std::size_t>& terms, std::size_t diamond_every) {
  std::size_t acc = terms.front();
  for (std::size_t i = 1; i < terms.size(); ++i) {
    if (diamond_every != 0 && i % diamond_every == 0) acc = b.diamond(b.add(acc, terms[i]), b.sub(acc, terms[i]));
    else acc = b.add(acc, terms[i]);
  }
  return acc;
}

/// `count` dot products of length `n` (chains; diamonds every 4th term when `branches`).
inline Program dot_products(std::size_t n, std::size_t count, bool branches) {
  Builder b;
  for (std::size_t k = 0; k < count; ++k) {
    std::vector<std::size_t> terms;
    for (std::size_t i = 0; i < n; ++i) terms.push_back(b.mul(b.encode(), b.encode()));
    b.decode(sum_chain(b, terms, branches ? 4 : 0));
  }
  return b.take();
}

/// y = A x for an n x n matrix (shared x; each row a reduction tree).
inline Program matrix_vector(std::size_t n) {
  Builder b;
  std::vector<std::size_t> x;
  for (std::size_t j = 0; j < n; ++j) x.push_back(b.encode());
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::size_t> terms;
    for (std::size_t j = 0; j < n; ++j) terms.push_back(b.mul(b.encode(), x[j]));
    b.decode(b.sum_tree(terms));
  }
  return b.take();
}

/// C = A B, then D = C B (two chained n x n products: the second multiplies
/// noisy products again), sums as chains.
inline Program matrix_matrix(std::size_t n) {
  Builder b;
  std::vector<std::size_t> a(n * n), m(n * n), c(n * n);
  for (auto& v : a) v = b.encode();
  for (auto& v : m) v = b.encode();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<std::size_t> terms;
      for (std::size_t k = 0; k < n; ++k) terms.push_back(b.mul(a[i * n + k], m[k * n + j]));
      c[i * n + j] = sum_chain(b, terms, 0);
    }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<std::size_t> terms;
      for (std::size_t k = 0; k < n; ++k) terms.push_back(b.mul(c[i * n + k], m[k * n + j]));
      b.decode(sum_chain(b, terms, 0));
    }
  return b.take();
}

/// `count` polynomials of degree `degree` by Horner's rule (one shared x each),
/// with a diamond every 8th step when `branches`.
inline Program horner(std::size_t degree, std::size_t count, bool branches) {
  Builder b;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t x = b.encode();
    std::size_t acc = b.encode();
    for (std::size_t i = 0; i < degree; ++i) {
      const std::size_t t = b.mul(acc, x);
      const std::size_t c = b.encode();
      acc = branches && i % 8 == 7 ? b.diamond(b.add(t, c), b.sub(t, c)) : b.add(t, c);
    }
    b.decode(acc);
  }
  return b.take();
}

/// `count` polynomials of degree `2^levels - 1` evaluated as a tree (Estrin):
/// powers x^(2^k) by squaring, pairs c0 + c1 x combined level by level.
inline Program tree_polynomial(std::size_t levels, std::size_t count) {
  Builder b;
  for (std::size_t k = 0; k < count; ++k) {
    std::size_t power = b.encode();  // x
    std::vector<std::size_t> terms;
    for (std::size_t i = 0; i < (std::size_t{1} << levels); ++i) terms.push_back(b.encode());
    while (terms.size() > 1) {
      std::vector<std::size_t> next;
      for (std::size_t i = 0; i + 1 < terms.size(); i += 2) next.push_back(b.add(terms[i], b.mul(terms[i + 1], power)));
      terms.swap(next);
      if (terms.size() > 1) power = b.mul(power, power);
    }
    b.decode(terms.front());
  }
  return b.take();
}

/// `count` balanced product trees of `n` encoded values (every level a mul).
inline Program reduction_trees(std::size_t n, std::size_t count) {
  Builder b;
  for (std::size_t k = 0; k < count; ++k) {
    std::vector<std::size_t> values;
    for (std::size_t i = 0; i < n; ++i) values.push_back(b.encode());
    while (values.size() > 1) {
      std::vector<std::size_t> next;
      for (std::size_t i = 0; i + 1 < values.size(); i += 2)
        next.push_back(i % 4 == 0 ? b.mul(values[i], values[i + 1]) : b.add(values[i], values[i + 1]));
      if (values.size() % 2 == 1) next.push_back(values.back());
      values.swap(next);
    }
    b.decode(values.front());
  }
  return b.take();
}

/// Two passes of a 3 x 3 weighted box blur over a w x h image (encoded
/// weights, clamped borders); in the second pass a diamond per pixel when
/// `branches` (e.g. a data-dependent clamp).
inline Program box_blur(std::size_t w, std::size_t h, bool branches) {
  Builder b;
  std::vector<std::size_t> image(w * h);
  for (auto& v : image) v = b.encode();
  std::vector<std::size_t> weight(9);
  for (auto& v : weight) v = b.encode();
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<std::size_t> out(w * h);
    for (std::size_t y = 0; y < h; ++y)
      for (std::size_t x = 0; x < w; ++x) {
        std::vector<std::size_t> terms;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const auto cx = static_cast<std::size_t>(std::clamp<long>(static_cast<long>(x) + dx, 0, static_cast<long>(w) - 1));
            const auto cy = static_cast<std::size_t>(std::clamp<long>(static_cast<long>(y) + dy, 0, static_cast<long>(h) - 1));
            terms.push_back(b.mul(image[cy * w + cx], weight[static_cast<std::size_t>((dy + 1) * 3 + dx + 1)]));
          }
        std::size_t s = b.sum_tree(terms);
        if (branches && pass == 1) s = b.diamond(s, b.sub(s, weight[0]));
        out[y * w + x] = s;
      }
    image.swap(out);
  }
  for (const auto v : image) b.decode(v);
  return b.take();
}

/// `count` sums of `n` encoded values written as chains `((x0 + x1) - x2) + ...`
/// (every third a `sub`): reduction trees written as chains.
inline Program sum_chains(std::size_t n, std::size_t count) {
  Builder b;
  for (std::size_t k = 0; k < count; ++k) {
    std::size_t acc = b.encode();
    for (std::size_t i = 1; i < n; ++i) acc = i % 3 == 2 ? b.sub(acc, b.encode()) : b.add(acc, b.encode());
    b.decode(acc);
  }
  return b.take();
}

/// `count` polynomials c0 + c1 x + ... + c_d x^d written term by term: the
/// powers by repeated multiplication (x^i = x^(i-1) x, each used twice), the
/// terms summed as a chain.
inline Program power_sum_polynomials(std::size_t degree, std::size_t count) {
  Builder b;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t x = b.encode();
    std::size_t power = x;
    std::size_t acc = b.encode();  // c0
    for (std::size_t i = 1; i <= degree; ++i) {
      if (i > 1) power = b.mul(power, x);
      acc = b.add(acc, b.mul(b.encode(), power));
    }
    b.decode(acc);
  }
  return b.take();
}

/// `count` products of `n` encoded values written as chains.
inline Program product_chains(std::size_t n, std::size_t count) {
  Builder b;
  for (std::size_t k = 0; k < count; ++k) {
    std::size_t acc = b.encode();
    for (std::size_t i = 1; i < n; ++i) acc = b.mul(acc, b.encode());
    b.decode(acc);
  }
  return b.take();
}

/// Edits a `Program` for `kildall::noisy::apply_rebalance`: new ops are
/// appended (vertex order is then no longer topological: see
/// `rebalanced_program`), erased ops become edge-less `plain` vertices.
class ProgramRebalanceEditor {
 public:
  using value_type = std::size_t;
  explicit ProgramRebalanceEditor(Program& g) : g_(&g) {}
  std::size_t create_before(std::size_t, NoisyOp kind, std::size_t lhs, std::size_t rhs) {
    const auto v = boost::add_vertex(*g_);
    (*g_)[v].kind = kind;
    boost::add_edge(lhs, v, *g_);
    boost::add_edge(rhs, v, *g_);
    return v;
  }
  void rewrite(std::size_t v, NoisyOp kind, std::size_t lhs, std::size_t rhs) {
    boost::clear_in_edges(v, *g_);
    (*g_)[v].kind = kind;
    boost::add_edge(lhs, v, *g_);
    boost::add_edge(rhs, v, *g_);
  }
  void erase(std::size_t v) {
    boost::clear_vertex(v, *g_);
    (*g_)[v].kind = NoisyOp::plain;
  }

 private:
  Program* g_;
};

/// A program rebalanced by `rebalanced_program` (the `rebalance_and_place` candidate).
struct RebalancedProgram {
  Program graph;     ///< Vertex order topological again; vertex i of the edited copy is `renumbered[i]`.
  std::vector<std::size_t> renumbered;
  [[nodiscard]] const Program& program() const { return graph; }
};

/// `g` with the trees of `plan` rebuilt, renumbered in a topological order
/// (erased vertices dropped).
inline RebalancedProgram rebalanced_program(const Program& g, const kildall::noisy::RebalancePlan<std::size_t>& plan) {
  Program edited = g;
  ProgramRebalanceEditor editor(edited);
  kildall::noisy::apply_rebalance(editor, plan);
  std::vector<bool> erased(boost::num_vertices(edited), false);
  for (const auto& tree : plan.trees)
    for (const std::size_t v : tree.inner) erased[v] = true;
  const kildall::noisy::CompactNoisyProgram compact = kildall::noisy::compact_program(edited);
  RebalancedProgram out;
  out.renumbered.assign(boost::num_vertices(edited), SIZE_MAX);
  std::vector<std::size_t> order(compact.topological.begin(), compact.topological.end());
  if (order.empty())  // a cycle (a loop through a join): keep the vertex order
    for (std::size_t v = 0; v < boost::num_vertices(edited); ++v) order.push_back(v);
  for (const std::size_t v : order) {
    if (erased[v]) continue;
    out.renumbered[v] = boost::add_vertex(out.graph);
    out.graph[out.renumbered[v]].kind = edited[v].kind;
  }
  for (const std::size_t v : order) {
    if (erased[v]) continue;
    for (const std::uint32_t o : compact.operands(static_cast<std::uint32_t>(v)))
      boost::add_edge(out.renumbered[o], out.renumbered[v], out.graph);
  }
  return out;
}

/// A named workload with about `ops` add/sub/mul ops.
struct Workload {
  std::string name;
  std::function<Program()> make;
};

/// The structured kernels, scaled to about `ops` add/sub/mul ops each.
inline std::vector<Workload> structured_workloads(std::size_t ops) {
  const auto root = [](std::size_t x) { return static_cast<std::size_t>(std::max(2.0, std::sqrt(static_cast<double>(x)))); };
  std::vector<Workload> out;
  out.push_back({"dot_product", [=] { return dot_products(64, std::max<std::size_t>(1, ops / 128), false); }});
  out.push_back({"dot_product_branchy", [=] { return dot_products(64, std::max<std::size_t>(1, ops / 160), true); }});
  out.push_back({"matrix_vector", [=] { return matrix_vector(root(ops / 2)); }});
  out.push_back({"matrix_matrix", [=] { return matrix_matrix(static_cast<std::size_t>(std::max(2.0, std::cbrt(static_cast<double>(ops) / 4.0)))); }});
  out.push_back({"horner", [=] { return horner(32, std::max<std::size_t>(1, ops / 64), false); }});
  out.push_back({"horner_branchy", [=] { return horner(32, std::max<std::size_t>(1, ops / 72), true); }});
  out.push_back({"tree_polynomial", [=] { return tree_polynomial(5, std::max<std::size_t>(1, ops / 66)); }});
  out.push_back({"reduction_trees", [=] { return reduction_trees(256, std::max<std::size_t>(1, ops / 255)); }});
  out.push_back({"box_blur_branchy", [=] { return box_blur(root(ops / 36), root(ops / 36), true); }});
  return out;
}

}  // namespace noisy_scale
