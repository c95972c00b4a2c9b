#pragma once
/// \file
/// Live variables (backward, may, `kildall::Bitset` of variables): a variable
/// is live at a point if some path from there reads it before writing it.
/// The classic backward gen/kill problem (Kildall 1973; Aho et al. §9.2.5),
/// solved on any CFG with `kildall::solve_backward`.
///
/// States, in program order: `before(b)` is the live-in of block `b`,
/// `after(b)` its live-out (the join over its successors).

#include <cstddef>
#include <ranges>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/lattice/bitset.hpp>
#include <kildall/solver/dense.hpp>

#include "program.hpp"

namespace classic {

/// The live-variables problem of program `p`.
struct LiveVariables {
  using lattice_type = kildall::Bitset;
  const Program* p;  ///< the program

  /// Nothing is live after a return.
  kildall::Bitset boundary(std::size_t) const { return kildall::Bitset(p->num_vars); }
  /// live-in = uses ∪ (live-out − defs), statement by statement backwards.
  kildall::Bitset transfer(std::size_t b, const kildall::Bitset& live_out) const {
    const Block& block = p->blocks[b];
    kildall::Bitset live = live_out;
    for (std::size_t v : block.returns) live.set(v);
    if (block.branch) live.set(block.branch->var);
    for (auto s = block.body.rbegin(); s != block.body.rend(); ++s) {
      live.reset(s->dst);
      if (s->rhs == Rhs::copy || s->is_binary()) live.set(s->a);
      if (s->is_binary()) live.set(s->b);
    }
    return live;
  }
};

/// Live variables of `p` on CFG `g`. Every block is a root (with nothing live
/// after it), so blocks in infinite loops, which reach no return, are solved too.
template <kildall::AnalysisGraph G>
[[nodiscard]] auto live_variables(const G& g, const Program& p, const kildall::SolverOptions& options = {}) {
  std::vector<std::size_t> all(p.blocks.size());
  for (std::size_t b = 0; b < all.size(); ++b) all[b] = b;
  return kildall::solve_backward(g, all, LiveVariables{&p}, options);
}

}  // namespace classic
