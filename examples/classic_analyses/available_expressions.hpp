#pragma once
/// \file
/// Available expressions (forward, must, `kildall::MustPowerset`): `a op b` is
/// available at a point if every path from the entry computes it and does
/// not redefine `a` or `b` afterwards (Aho et al. §9.2.6). The must-lattice
/// orders sets by reverse inclusion, so join is intersection and an
/// unreached block is the universe, which the solver never shows: it reports
/// such blocks as unreached.

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/lattice/powerset.hpp>
#include <kildall/solver/dense.hpp>

#include "program.hpp"

namespace classic {

/// An expression `a op b`, ordered so it can live in a powerset.
struct Expression {
  Rhs op;          ///< add, sub or mul
  std::size_t a;   ///< first operand
  std::size_t b;   ///< second operand
  friend auto operator<=>(const Expression&, const Expression&) = default;
};

/// The available-expressions problem of program `p`.
struct AvailableExpressions {
  using lattice_type = kildall::MustPowerset<Expression>;
  const Program* p;  ///< the program

  /// Nothing is available at the entry.
  lattice_type boundary(std::size_t) const { return lattice_type::empty(); }
  /// Each binary assignment makes its expression available, then kills every
  /// expression that reads the variable it writes.
  lattice_type transfer(std::size_t b, const lattice_type& in) const {
    lattice_type out = in;
    for (const Assign& s : p->blocks[b].body) {
      if (s.is_binary()) out.insert(Expression{s.rhs, s.a, s.b});
      std::vector<Expression> killed;
      for (const Expression& e : out) {
        if (e.a == s.dst || e.b == s.dst) killed.push_back(e);
      }
      for (const Expression& e : killed) out.erase(e);
    }
    return out;
  }
};

/// Available expressions of `p` on CFG `g`, from block 0.
template <kildall::AnalysisGraph G>
[[nodiscard]] auto available_expressions(const G& g, const Program& p, const kildall::SolverOptions& options = {}) {
  return kildall::solve_forward(g, std::size_t{0}, AvailableExpressions{&p}, options);
}

}  // namespace classic
