#pragma once
/// \file
/// Live variables directly on the hand-written compiler CFG of
/// `examples/custom_graph/cfg.hpp` (`mycc::Cfg`, whose instructions name the
/// variables they define and use as strings): a backward problem over a
/// `kildall::MayPowerset<std::string>`. `print_live_in` is the drop-in for the
/// live-variables placeholder of `examples/custom_graph/main.cpp`.

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include <kildall/lattice/powerset.hpp>
#include <kildall/solver/dense.hpp>

#include "custom_graph/cfg.hpp"

namespace classic {

/// Live variables of a `mycc::Cfg`, by variable name.
struct MyccLiveness {
  using lattice_type = kildall::MayPowerset<std::string>;
  const mycc::Cfg* cfg;  ///< the function

  /// Nothing is live after the function.
  lattice_type boundary(std::size_t) const { return {}; }
  /// live-in = (live-out - defines) | uses, instruction by instruction backwards.
  lattice_type transfer(std::size_t b, const lattice_type& live_out) const {
    lattice_type live = live_out;
    const auto& instructions = cfg->blocks[b].instructions;
    for (auto i = instructions.rbegin(); i != instructions.rend(); ++i) {
      if (!i->defines.empty() && live.contains(i->defines)) live.erase(i->defines);
      for (const std::string& u : i->uses) live.insert(u);
    }
    return live;
  }
};

/// Solves liveness on `cfg` (every block a root, so blocks that never reach a
/// return are solved too).
[[nodiscard]] inline auto mycc_live_variables(const mycc::Cfg& cfg) {
  std::vector<std::size_t> all(cfg.blocks.size());
  for (std::size_t b = 0; b < all.size(); ++b) all[b] = b;
  return kildall::solve_backward(cfg, all, MyccLiveness{&cfg});
}

/// Prints "live-in <block>: <variables>" for every block, variables sorted.
inline void print_live_in(std::ostream& out, const mycc::Cfg& cfg) {
  const auto live = mycc_live_variables(cfg);
  for (std::size_t b = 0; b < cfg.blocks.size(); ++b) {
    out << "live-in " << cfg.blocks[b].name << ":";
    for (const std::string& v : *live.before(b)) out << ' ' << v;
    out << '\n';
  }
}

}  // namespace classic
