#pragma once
/// \file
/// A tiny imperative language for the dense worked examples: variables
/// `0..num_vars-1`, blocks of assignments (`x = k`, `x = input()`, `x = y`,
/// `x = y op z`), and either a branch `if (x < k)` (successor 0 when true,
/// 1 when false), a jump, or a return that reads some variables.
///
/// The CFG topology lives in a graph of the caller's choice; here are builders
/// for a Boost.Graph `adjacency_list` and for the hand-written `mycc::Cfg` of
/// `examples/custom_graph`. Analyses only need, for a CFG edge, its source
/// block and successor slot (`EdgeInfo`). Also: a random program generator and
/// a concrete interpreter, the oracles of the tests.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "custom_graph/cfg.hpp"

namespace classic {

/// The right-hand side of an assignment.
enum class Rhs : std::uint8_t { constant, input, copy, add, sub, mul };

/// `dst = rhs`.
struct Assign {
  std::size_t dst = 0;       ///< variable written
  Rhs rhs = Rhs::constant;   ///< what is computed
  std::int64_t k = 0;        ///< for Rhs::constant
  std::size_t a = 0;         ///< first operand (copy and binary)
  std::size_t b = 0;         ///< second operand (binary)

  /// Whether the right-hand side is a binary expression (`a op b`).
  [[nodiscard]] bool is_binary() const noexcept { return rhs == Rhs::add || rhs == Rhs::sub || rhs == Rhs::mul; }
};

/// `if (var < bound)`: successor 0 when true, 1 when false.
struct Branch {
  std::size_t var;      ///< variable tested
  std::int64_t bound;   ///< exclusive upper bound of the true side
};

/// A basic block.
struct Block {
  std::vector<Assign> body;             ///< assignments in order
  std::optional<Branch> branch;         ///< set iff two successors
  std::vector<std::size_t> successors;  ///< 0 (return), 1 (jump) or 2 (branch)
  std::vector<std::size_t> returns;     ///< variables read by the return (no successors)
};

/// A function: blocks[0] is the entry.
struct Program {
  std::size_t num_vars = 0;   ///< variables are 0..num_vars-1
  std::vector<Block> blocks;  ///< all blocks
};

/// Applies a binary operator with wrapping arithmetic.
[[nodiscard]] inline std::int64_t apply(Rhs op, std::int64_t x, std::int64_t y) {
  const auto ux = static_cast<std::uint64_t>(x), uy = static_cast<std::uint64_t>(y);
  switch (op) {
    case Rhs::add: return static_cast<std::int64_t>(ux + uy);
    case Rhs::sub: return static_cast<std::int64_t>(ux - uy);
    case Rhs::mul: return static_cast<std::int64_t>(ux * uy);
    default: return 0;
  }
}

/// A random program: loops (back edges and self-loops), irreducible entries,
/// unreachable blocks and branches on constants all occur.
inline Program random_program(std::mt19937& rng, std::size_t num_blocks, std::size_t num_vars) {
  Program p;
  p.num_vars = num_vars;
  p.blocks.resize(num_blocks);
  for (std::size_t i = 0; i < num_blocks; ++i) {
    Block& b = p.blocks[i];
    const std::size_t n = rng() % 4;
    for (std::size_t j = 0; j < n; ++j) {
      Assign s;
      s.dst = rng() % num_vars;
      const unsigned kind = rng() % 8;
      s.rhs = kind < 2 ? Rhs::constant : kind == 2 ? Rhs::input : kind == 3 ? Rhs::copy : static_cast<Rhs>(3 + rng() % 3);
      s.k = static_cast<std::int64_t>(rng() % 7) - 2;
      s.a = rng() % num_vars;
      s.b = rng() % num_vars;
      b.body.push_back(s);
    }
    const unsigned shape = rng() % 6;
    auto pick = [&] {
      // Mostly forward (the next block or the one after), sometimes anywhere.
      return rng() % 3 == 0 ? rng() % num_blocks : std::min(num_blocks - 1, i + 1 + rng() % 2);
    };
    if (shape == 0 || (i + 1 == num_blocks && shape < 3)) {
      for (std::size_t v = 0; v < num_vars; ++v) {
        if (rng() % 2 == 0) b.returns.push_back(v);
      }
    } else if (shape < 3) {
      b.successors.push_back(pick());
    } else {
      const std::size_t t = pick();
      std::size_t f = pick();
      if (f == t) f = (t + 1) % num_blocks;
      if (f == t) {
        b.successors.push_back(t);
      } else {
        b.successors = {t, f};
        b.branch = Branch{rng() % num_vars, static_cast<std::int64_t>(rng() % 7) - 2};
      }
    }
  }
  return p;
}

/// The state of every variable at the entry of every visited block, for one run.
struct Run {
  std::vector<std::pair<std::size_t, std::vector<std::int64_t>>> entries;  ///< (block, variables)
};

/// Runs `p` for at most `max_blocks` block executions. Variables start at
/// `initial`; `input()` reads the next element of `inputs` (cyclically).
inline Run run(const Program& p, std::vector<std::int64_t> initial, const std::vector<std::int64_t>& inputs,
               std::size_t max_blocks = 64) {
  Run out;
  std::vector<std::int64_t>& env = initial;
  std::size_t next_input = 0;
  std::size_t block = 0;
  for (std::size_t step = 0; step < max_blocks; ++step) {
    out.entries.emplace_back(block, env);
    const Block& b = p.blocks[block];
    for (const Assign& s : b.body) {
      switch (s.rhs) {
        case Rhs::constant: env[s.dst] = s.k; break;
        case Rhs::input: env[s.dst] = inputs[next_input++ % inputs.size()]; break;
        case Rhs::copy: env[s.dst] = env[s.a]; break;
        default: env[s.dst] = apply(s.rhs, env[s.a], env[s.b]); break;
      }
    }
    if (b.successors.empty()) break;
    if (b.successors.size() == 1) {
      block = b.successors[0];
    } else {
      block = env[b.branch->var] < b.branch->bound ? b.successors[0] : b.successors[1];
    }
  }
  return out;
}

/// Where a CFG edge comes from: its source block and successor slot.
struct EdgeInfo {
  std::size_t source;  ///< the block the edge leaves
  std::size_t slot;    ///< index into the source's successors
};

/// Edge property of `BoostCfg`: the successor slot.
struct EdgeSlot {
  std::size_t slot = 0;  ///< index into Block::successors
};

/// The CFG as a Boost.Graph adjacency list.
using BoostCfg = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, boost::no_property, EdgeSlot>;

/// Builds the Boost.Graph CFG of `p`.
inline BoostCfg boost_cfg(const Program& p) {
  BoostCfg g(p.blocks.size());
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    for (std::size_t s = 0; s < p.blocks[b].successors.size(); ++s) add_edge(b, p.blocks[b].successors[s], EdgeSlot{s}, g);
  }
  return g;
}

/// Builds the hand-written `mycc::Cfg` of `p` (topology only).
inline mycc::Cfg mycc_cfg(const Program& p) {
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    for (std::size_t t : p.blocks[b].successors) edges.emplace_back(b, t);
  }
  return mycc::cfg_from_edges(p.blocks.size(), edges);
}

/// `EdgeInfo` of a `BoostCfg` edge.
[[nodiscard]] inline EdgeInfo edge_info(const BoostCfg& g, const BoostCfg::edge_descriptor& e) {
  return {boost::source(e, g), g[e].slot};
}

/// `EdgeInfo` of a `mycc::Cfg` edge (successors are distinct, so the target names the slot).
[[nodiscard]] inline EdgeInfo edge_info(const mycc::Cfg& g, const mycc::CfgEdge& e) {
  const auto& succ = g.blocks[e.from].successors;
  return {e.from, static_cast<std::size_t>(std::find(succ.begin(), succ.end(), e.to) - succ.begin())};
}

}  // namespace classic
