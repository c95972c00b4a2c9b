#pragma once
/// \file
/// Integer interval analysis (forward, `kildall::Interval` per variable,
/// Cousot & Cousot 1977): widening at loop heads makes loops terminate,
/// narrowing recovers bounds, and branches `if (x < k)` refine `x` on each
/// edge; an edge whose refinement is empty is not executable, so the solver
/// never reaches code behind an impossible branch.

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/interval_transfer.hpp>
#include <kildall/solver/dense.hpp>

#include "program.hpp"

namespace classic {

/// One 64-bit interval per variable, combined pointwise: a user-written
/// lattice in a dozen lines.
struct IntervalEnv {
  std::vector<kildall::Interval> vars;  ///< one interval per variable

  /// Pointwise join.
  kildall::ChangeResult join(const IntervalEnv& o) { return each(o, [](auto& x, const auto& y) { return x.join(y); }); }
  /// Pointwise widening.
  kildall::ChangeResult widen(const IntervalEnv& o) { return each(o, [](auto& x, const auto& y) { return x.widen(y); }); }
  /// Pointwise narrowing.
  kildall::ChangeResult narrow(const IntervalEnv& o) { return each(o, [](auto& x, const auto& y) { return x.narrow(y); }); }
  /// Pointwise inclusion.
  bool leq(const IntervalEnv& o) const {
    for (std::size_t i = 0; i < vars.size(); ++i) {
      if (!vars[i].leq(o.vars[i])) return false;
    }
    return true;
  }
  /// Same intervals.
  friend bool operator==(const IntervalEnv&, const IntervalEnv&) = default;
  /// Prints `[x0] [x1] ...`.
  friend std::ostream& operator<<(std::ostream& os, const IntervalEnv& e) {
    for (const auto& x : e.vars) os << x << ' ';
    return os;
  }

 private:
  template <class F>
  kildall::ChangeResult each(const IntervalEnv& o, F f) {
    kildall::ChangeResult r = kildall::ChangeResult::unchanged;
    for (std::size_t i = 0; i < vars.size(); ++i) r |= f(vars[i], o.vars[i]);
    return r;
  }
};

/// The interval-analysis problem of program `p` on CFG `G`.
template <class G>
struct IntervalAnalysis {
  using lattice_type = IntervalEnv;
  const Program* p;  ///< the program
  const G* g;        ///< its CFG (for edge slots)

  /// Every variable may hold anything at the entry.
  IntervalEnv boundary(std::size_t) const {
    return IntervalEnv{std::vector<kildall::Interval>(p->num_vars, kildall::Interval::full(64))};
  }
  /// Abstract execution of the block's assignments.
  IntervalEnv transfer(std::size_t b, const IntervalEnv& in) const {
    IntervalEnv out = in;
    for (const Assign& s : p->blocks[b].body) {
      auto& x = out.vars;
      switch (s.rhs) {
        case Rhs::constant: x[s.dst] = kildall::Interval::constant(64, s.k); break;
        case Rhs::input: x[s.dst] = kildall::Interval::full(64); break;
        case Rhs::copy: x[s.dst] = x[s.a]; break;
        case Rhs::add: x[s.dst] = kildall::infer_add(x[s.a], x[s.b]); break;
        case Rhs::sub: x[s.dst] = kildall::infer_sub(x[s.a], x[s.b]); break;
        case Rhs::mul: x[s.dst] = kildall::infer_mul(x[s.a], x[s.b]); break;
      }
    }
    return out;
  }
  /// On the edges of `if (x < k)`, `x` is narrowed to `x < k` or `x >= k`.
  template <class Edge>
  IntervalEnv transfer_edge(const Edge& e, const IntervalEnv& from) const {
    const EdgeInfo info = edge_info(*g, e);
    const auto& branch = p->blocks[info.source].branch;
    if (!branch) return from;
    IntervalEnv out = from;
    (void)out.vars[branch->var].meet(side(*branch, info.slot));
    return out;
  }
  /// An edge is dead when the branch can never go that way.
  template <class Edge>
  bool edge_executable(const Edge& e, const IntervalEnv& from) const {
    const EdgeInfo info = edge_info(*g, e);
    const auto& branch = p->blocks[info.source].branch;
    if (!branch) return true;
    kildall::Interval x = from.vars[branch->var];
    (void)x.meet(side(*branch, info.slot));
    return !x.is_empty();
  }

 private:
  static kildall::Interval side(const Branch& br, std::size_t slot) {
    constexpr std::int64_t lo = INT64_MIN, hi = INT64_MAX;
    if (slot == 0) return br.bound == lo ? kildall::Interval::empty(64) : kildall::Interval::from_signed(64, lo, br.bound - 1);
    return kildall::Interval::from_signed(64, br.bound, hi);
  }
};

/// Interval analysis of `p` on CFG `g`, from block 0, with widening after
/// `options.widening_delay` visits of a loop head and `options.narrowing_passes`.
template <kildall::AnalysisGraph G>
[[nodiscard]] auto interval_analysis(const G& g, const Program& p, const kildall::SolverOptions& options = {}) {
  return kildall::solve_forward(g, std::size_t{0}, IntervalAnalysis<G>{&p, &g}, options);
}

}  // namespace classic
