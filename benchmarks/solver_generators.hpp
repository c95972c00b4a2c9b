#pragma once
// Program generators for the solver benchmarks: straight-line SSA, SSA with
// loops and diamonds (SCCP over a CFG), and structured imperative programs
// for the dense analyses. Deterministic (fixed seeds).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>

#include "classic_analyses/program.hpp"
#include "classic_analyses/ssa.hpp"

namespace solver_bench {

/// An op of a straight-line SSA program.
struct LineOp {
  enum Kind : std::uint8_t { constant, input, add, sub, mul } kind;  ///< what it computes
  std::int64_t value;                                                 ///< for constants
};

/// A compact def-use graph, as a compiler keeps it: Boost's CSR graph, whose
/// in-edges are sorted by source (operands are listed in increasing value order).
using CsrGraph = boost::compressed_sparse_row_graph<boost::bidirectionalS>;

/// A straight-line SSA program: ops and their def-use graph (operand -> user;
/// a binary op's operands are (older, newer)), vertices numbered in program
/// order, as an adjacency list and as a CSR graph.
struct StraightLine {
  std::vector<LineOp> ops;     ///< one per value
  classic::DefUseGraph graph;  ///< def-use edges, adjacency list
  CsrGraph csr;                ///< the same edges, CSR
};

/// `n` ops: mostly binary ops on recent values, some constants, a few inputs.
inline StraightLine straight_line(std::size_t n, unsigned seed = 1) {
  std::mt19937 rng(seed);
  StraightLine p{std::vector<LineOp>(n), classic::DefUseGraph(n), {}};
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned r = rng() % 16;
    if (i < 2 || r < 3) {
      p.ops[i] = {LineOp::constant, static_cast<std::int64_t>(rng() % 100)};
    } else if (r == 3) {
      p.ops[i] = {LineOp::input, 0};
    } else {
      p.ops[i] = {static_cast<LineOp::Kind>(LineOp::add + rng() % 3), 0};
      const std::size_t window = std::min<std::size_t>(i, 16);
      const std::size_t older = i - 1 - rng() % window;
      edges.emplace_back(older, i);
      edges.emplace_back(i - 1, i);
    }
  }
  for (auto [from, to] : edges) add_edge(from, to, p.graph);
  p.csr = CsrGraph(boost::edges_are_unsorted_multi_pass, edges.begin(), edges.end(), n);
  return p;
}

/// An SSA function with about `n` values: a chain of regions, each a diamond
/// (cond_br on a constant or an input, joined by a block argument) or a
/// counting loop (block argument incremented around a back edge).
inline classic::SsaProgram ssa_with_loops(std::size_t n, unsigned seed = 1) {
  using classic::Op;
  std::mt19937 rng(seed);
  classic::SsaProgram p;
  auto block = [&] {
    p.blocks.emplace_back();
    return p.blocks.size() - 1;
  };
  auto value = [&](std::size_t b, classic::SsaValue v) {
    v.block = b;
    p.values.push_back(v);
    const std::size_t id = p.values.size() - 1;
    if (v.op == Op::argument) {
      p.blocks[b].arguments.push_back(id);
    } else {
      p.blocks[b].values.push_back(id);
    }
    return id;
  };
  std::size_t current = block();
  const std::size_t input = value(current, {Op::argument});
  const std::size_t one = value(current, {Op::constant, 0, 1});
  std::size_t carried = value(current, {Op::constant, 0, 7});
  while (p.values.size() < n) {
    if (rng() % 2 == 0) {  // diamond
      const std::size_t cond = rng() % 2 == 0 ? value(current, {Op::less, 0, 0, one, carried}) : input;
      const std::size_t left = block(), right = block(), join = block();
      const std::size_t l = value(left, {Op::add, 0, 0, carried, one});
      const std::size_t r = value(right, {Op::mul, 0, 0, carried, one});
      const std::size_t merged = value(join, {Op::argument});
      p.blocks[current].condition = cond;
      p.blocks[current].successors = {{left, {}}, {right, {}}};
      p.blocks[left].successors = {{join, {l}}};
      p.blocks[right].successors = {{join, {r}}};
      carried = value(join, {Op::add, 0, 0, merged, one});
      current = join;
    } else {  // loop: head(i) { c = i < carried; cond_br c, body, exit }, body { i2 = i + 1; br head(i2) }
      const std::size_t head = block(), body = block(), exit = block();
      const std::size_t zero = value(current, {Op::constant, 0, 0});
      const std::size_t i = value(head, {Op::argument});
      const std::size_t c = value(head, {Op::less, 0, 0, i, carried});
      const std::size_t i2 = value(body, {Op::add, 0, 0, i, one});
      p.blocks[current].successors = {{head, {zero}}};
      p.blocks[head].condition = c;
      p.blocks[head].successors = {{body, {}}, {exit, {}}};
      p.blocks[body].successors = {{head, {i2}}};
      carried = value(exit, {Op::add, 0, 0, carried, i});
      current = exit;
    }
    for (int k = 0; k < 4; ++k) carried = value(current, {Op::mul, 0, 0, carried, one});
  }
  return p;
}

/// A structured imperative program with `n` blocks over `vars` variables: a
/// chain of diamonds (branch on a variable) and loops (counting to a bound).
inline classic::Program structured_program(std::size_t n, std::size_t vars = 16, unsigned seed = 1) {
  using classic::Assign;
  using classic::Rhs;
  std::mt19937 rng(seed);
  classic::Program p;
  p.num_vars = vars;
  auto block = [&] {
    p.blocks.emplace_back();
    classic::Block& b = p.blocks.back();
    for (int k = 0; k < 3; ++k) {
      Assign s;
      s.dst = rng() % vars;
      s.rhs = rng() % 4 == 0 ? Rhs::constant : Rhs::add;
      s.k = static_cast<std::int64_t>(rng() % 10);
      s.a = rng() % vars;
      s.b = rng() % vars;
      b.body.push_back(s);
    }
    return p.blocks.size() - 1;
  };
  std::size_t current = block();
  while (p.blocks.size() + 3 <= n) {
    if (rng() % 2 == 0) {
      const std::size_t l = block(), r = block(), j = block();
      p.blocks[current].branch = classic::Branch{rng() % vars, static_cast<std::int64_t>(rng() % 10)};
      p.blocks[current].successors = {l, r};
      p.blocks[l].successors = {j};
      p.blocks[r].successors = {j};
      current = j;
    } else {
      const std::size_t head = block(), body = block(), exit = block();
      const std::size_t counter = rng() % vars;
      p.blocks[current].body.push_back(Assign{counter, Rhs::constant, 0});
      p.blocks[current].successors = {head};
      p.blocks[head].body.clear();
      p.blocks[head].branch = classic::Branch{counter, 100};
      p.blocks[head].successors = {body, exit};
      const std::size_t one = (counter + 1) % vars;
      auto& body_code = p.blocks[body].body;  // the loop must count: nothing else writes counter
      std::erase_if(body_code, [&](const Assign& s) { return s.dst == counter || s.dst == one; });
      p.blocks[body].body.push_back(Assign{one, Rhs::constant, 1});
      p.blocks[body].body.push_back(Assign{counter, Rhs::add, 0, counter, one});  // counter += 1: widened at head
      p.blocks[body].successors = {head};
      current = exit;
    }
  }
  for (std::size_t v = 0; v < vars; ++v) p.blocks[current].returns.push_back(v);
  return p;
}

}  // namespace solver_bench
