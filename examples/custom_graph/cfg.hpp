#pragma once
/// \file
/// A control-flow graph as a small compiler might already have it, and the
/// few lines that make it a kildall graph without touching it.
///
/// Part 1 is the compiler's own code: `mycc::Cfg` knows nothing of kildall or
/// Boost. Part 2 is the adapter: a `boost::graph_traits` specialization and
/// six free functions in the compiler's namespace (found by argument-dependent
/// lookup). After it, `mycc::Cfg` models `kildall::AnalysisGraph`, so every
/// kildall algorithm and solver accepts it. The graph tests and the solver
/// tests reuse this header.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <boost/graph/graph_traits.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/transform_iterator.hpp>

// ===========================================================================
// Part 1: the compiler's CFG (no kildall in sight)
// ===========================================================================
namespace mycc {

/// `defines = uses...`, e.g. {"x", {"a", "b"}, "x = a + b"}. `defines` may be
/// empty (a branch or a return).
struct Instruction {
  std::string defines;            ///< the variable written, or empty
  std::vector<std::string> uses;  ///< the variables read
  std::string text;               ///< for printing
};

/// A basic block: straight-line instructions, then a jump to its successors.
struct Block {
  std::string name;                       ///< label, for printing
  std::vector<Instruction> instructions;  ///< in execution order
  std::vector<std::size_t> successors;    ///< indices into Cfg::blocks, in branch order
  std::vector<std::size_t> predecessors;  ///< derived from successors by compute_predecessors()
};

/// A function body: blocks[0] is the entry.
struct Cfg {
  std::vector<Block> blocks;  ///< all blocks; a block's index is its identity

  /// Appends a block and returns its index.
  std::size_t add_block(std::string name, std::vector<Instruction> instructions = {}) {
    blocks.push_back(Block{std::move(name), std::move(instructions), {}, {}});
    return blocks.size() - 1;
  }

  /// Adds the branch `from -> to` (predecessors are recomputed separately).
  void add_branch(std::size_t from, std::size_t to) { blocks.at(from).successors.push_back(to); }

  /// Rebuilds every block's predecessor list from the successor lists (in
  /// block order, so the lists are deterministic).
  void compute_predecessors() {
    for (Block& b : blocks) b.predecessors.clear();
    for (std::size_t from = 0; from < blocks.size(); ++from) {
      for (std::size_t to : blocks[from].successors) blocks.at(to).predecessors.push_back(from);
    }
  }
};

/// A CFG with `n` empty blocks named b0..b{n-1} and the given branches, in
/// order; predecessors are computed.
inline Cfg cfg_from_edges(std::size_t n, const std::vector<std::pair<std::size_t, std::size_t>>& edges) {
  Cfg cfg;
  // Not `"b" + std::to_string(i)`: GCC 12 at -O3 warns falsely on it (-Wrestrict, GCC PR 105329).
  for (std::size_t i = 0; i < n; ++i) cfg.add_block(std::string("b").append(std::to_string(i)));
  for (auto [from, to] : edges) cfg.add_branch(from, to);
  cfg.compute_predecessors();
  return cfg;
}

/// The sample function of the example, a loop with a nested self-loop and a
/// dead block:
///
///   entry: x = read(); y = 0            -> head
///   head:  c = y < x                    -> body, exit
///   body:  y = y + 1                    -> spin
///   spin:  d = y % 3                    -> spin, head
///   exit:  return y
///   dead:  w = x                        -> exit     (unreachable)
inline Cfg sample_cfg() {
  Cfg cfg;
  const std::size_t entry = cfg.add_block("entry", {{"x", {}, "x = read()"}, {"y", {}, "y = 0"}});
  const std::size_t head = cfg.add_block("head", {{"c", {"y", "x"}, "c = y < x"}});
  const std::size_t body = cfg.add_block("body", {{"y", {"y"}, "y = y + 1"}});
  const std::size_t spin = cfg.add_block("spin", {{"d", {"y"}, "d = y % 3"}});
  const std::size_t exit = cfg.add_block("exit", {{"", {"y"}, "return y"}});
  const std::size_t dead = cfg.add_block("dead", {{"w", {"x"}, "w = x"}});
  cfg.add_branch(entry, head);
  cfg.add_branch(head, body);
  cfg.add_branch(head, exit);
  cfg.add_branch(body, spin);
  cfg.add_branch(spin, spin);
  cfg.add_branch(spin, head);
  cfg.add_branch(dead, exit);
  cfg.compute_predecessors();
  return cfg;
}

}  // namespace mycc

// ===========================================================================
// Part 2: the kildall adapter (non-intrusive: Cfg is not modified)
// ===========================================================================
namespace mycc {

/// An edge is the pair of blocks it joins.
struct CfgEdge {
  std::size_t from;  ///< source block index
  std::size_t to;    ///< target block index
};

/// Turns a successor index of block `from` into an edge.
struct EdgeFrom {
  std::size_t from;  ///< the block whose successors are listed
  /// The edge `from -> to`.
  CfgEdge operator()(std::size_t to) const { return {from, to}; }
};

/// Turns a predecessor index of block `to` into an edge.
struct EdgeTo {
  std::size_t to;  ///< the block whose predecessors are listed
  /// The edge `from -> to`.
  CfgEdge operator()(std::size_t from) const { return {from, to}; }
};

/// Successor edges of block `b`.
inline auto out_edges(std::size_t b, const Cfg& cfg) {
  const auto& succ = cfg.blocks[b].successors;
  return std::pair(boost::make_transform_iterator(succ.begin(), EdgeFrom{b}),
                   boost::make_transform_iterator(succ.end(), EdgeFrom{b}));
}
/// The block an edge leads to.
inline std::size_t target(const CfgEdge& e, const Cfg&) { return e.to; }

/// Predecessor edges of block `b` (needs compute_predecessors()).
inline auto in_edges(std::size_t b, const Cfg& cfg) {
  const auto& pred = cfg.blocks[b].predecessors;
  return std::pair(boost::make_transform_iterator(pred.begin(), EdgeTo{b}),
                   boost::make_transform_iterator(pred.end(), EdgeTo{b}));
}
/// The block an edge comes from.
inline std::size_t source(const CfgEdge& e, const Cfg&) { return e.from; }

/// All blocks, by index.
inline auto vertices(const Cfg& cfg) {
  return std::pair(boost::counting_iterator<std::size_t>(0), boost::counting_iterator<std::size_t>(cfg.blocks.size()));
}
/// The number of blocks.
inline std::size_t num_vertices(const Cfg& cfg) { return cfg.blocks.size(); }

// No vertex_index function is needed: a block's index *is* its dense index
// (kildall::vertex_index falls back to integral vertex descriptors).

}  // namespace mycc

/// Tells Boost.Graph (and so kildall) the vertex and edge types of mycc::Cfg.
template <>
struct boost::graph_traits<mycc::Cfg> {
  /// A block is named by its index.
  using vertex_descriptor = std::size_t;
  /// An edge is a (from, to) pair of block indices.
  using edge_descriptor = mycc::CfgEdge;
};
