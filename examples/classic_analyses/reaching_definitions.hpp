#pragma once
/// \file
/// Reaching definitions (forward, may, `kildall::Bitset` of definition ids): a
/// definition `x = ...` reaches a point if some path from it to there does not
/// redefine `x`. The classic forward gen/kill problem (Aho et al. §9.2.4).

#include <cstddef>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/lattice/bitset.hpp>
#include <kildall/solver/dense.hpp>

#include "program.hpp"

namespace classic {

/// Definition ids: the assignments of `p` numbered block by block.
struct Definitions {
  std::vector<std::size_t> first;                    ///< per block: id of its first assignment
  std::vector<std::vector<std::size_t>> of_variable;  ///< per variable: ids of its definitions
  std::size_t count = 0;                              ///< number of definitions

  /// Numbers the definitions of `p`.
  explicit Definitions(const Program& p) : first(p.blocks.size()), of_variable(p.num_vars) {
    for (std::size_t b = 0; b < p.blocks.size(); ++b) {
      first[b] = count;
      for (const Assign& s : p.blocks[b].body) of_variable[s.dst].push_back(count++);
    }
  }
};

/// The reaching-definitions problem of program `p`.
struct ReachingDefinitions {
  using lattice_type = kildall::Bitset;
  const Program* p;         ///< the program
  const Definitions* defs;  ///< its numbered definitions

  /// No definition reaches the entry.
  kildall::Bitset boundary(std::size_t) const { return kildall::Bitset(defs->count); }
  /// Each assignment kills the other definitions of its variable and generates itself.
  kildall::Bitset transfer(std::size_t b, const kildall::Bitset& in) const {
    kildall::Bitset out = in;
    std::size_t id = defs->first[b];
    for (const Assign& s : p->blocks[b].body) {
      for (std::size_t d : defs->of_variable[s.dst]) out.reset(d);
      out.set(id++);
    }
    return out;
  }
};

/// Reaching definitions of `p` on CFG `g`, from block 0.
template <kildall::AnalysisGraph G>
[[nodiscard]] auto reaching_definitions(const G& g, const Program& p, const Definitions& defs,
                                        const kildall::SolverOptions& options = {}) {
  return kildall::solve_forward(g, std::size_t{0}, ReachingDefinitions{&p, &defs}, options);
}

}  // namespace classic
