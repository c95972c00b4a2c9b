#pragma once
/// \file
/// Lattice concepts: what a solver, the law kit and the combinators ask of an
/// abstract value.
///
/// A lattice is a plain regular value type (copyable, equality comparable,
/// default constructible). It knows nothing of graphs, programs or solvers:
/// the solver keeps one value per node or SSA value and anchors it there.
/// Operations are members, in place, and report a `ChangeResult`:
///
///   a.join(b)   a := a ⊔ b            (JoinSemiLattice)
///   a.leq(b)    a ⊑ b                 (JoinSemiLattice; must agree with join)
///   a.meet(b)   a := a ⊓ b            (MeetSemiLattice)
///   a.widen(b)  a := a ∇ b            (WidenableLattice; Cousot & Cousot 1977)
///   a.narrow(b) a := a Δ b            (NarrowableLattice)
///   L::bottom(), a.is_bottom()        (HasBottom)
///   L::top(),    a.is_top()           (HasTop)

#include <concepts>
#include <utility>

#include <kildall/lattice/change_result.hpp>

namespace kildall {

/// A join-semilattice: every two elements have a least upper bound, computed
/// in place by `join`, and `leq` is the partial order that join induces
/// (`a.leq(b)` iff `a ⊔ b == b`). The law kit (`kildall/lattice/laws.hpp`)
/// checks the algebraic laws that a type cannot express.
template <class L>
concept JoinSemiLattice = std::regular<L> && requires(L& a, const L& b) {
  { a.join(b) } -> std::same_as<ChangeResult>;
  { std::as_const(a).leq(b) } -> std::same_as<bool>;
};

/// A meet-semilattice: greatest lower bounds, computed in place by `meet`.
template <class L>
concept MeetSemiLattice = std::regular<L> && requires(L& a, const L& b) {
  { a.meet(b) } -> std::same_as<ChangeResult>;
  { std::as_const(a).leq(b) } -> std::same_as<bool>;
};

/// Both join and meet.
template <class L>
concept Lattice = JoinSemiLattice<L> && MeetSemiLattice<L>;

/// A join-semilattice with a least element that is the identity of join.
template <class L>
concept HasBottom = JoinSemiLattice<L> && requires(const L& a) {
  { L::bottom() } -> std::same_as<L>;
  { a.is_bottom() } -> std::same_as<bool>;
};

/// A join-semilattice with a greatest element that absorbs every join.
template <class L>
concept HasTop = JoinSemiLattice<L> && requires(const L& a) {
  { L::top() } -> std::same_as<L>;
  { a.is_top() } -> std::same_as<bool>;
};

/// A join-semilattice with both a bottom and a top element.
template <class L>
concept BoundedLattice = HasBottom<L> && HasTop<L>;

/// A join-semilattice with a widening operator: `a.widen(b)` is an upper
/// bound of `a` and `b`, and every chain `x0, x0 ∇ x1, (x0 ∇ x1) ∇ x2, ...`
/// is eventually stationary, so fixpoint iteration on infinite-height
/// lattices terminates (Cousot & Cousot, POPL 1977).
template <class L>
concept WidenableLattice = JoinSemiLattice<L> && requires(L& a, const L& b) {
  { a.widen(b) } -> std::same_as<ChangeResult>;
};

/// A join-semilattice with a narrowing operator: for `b ⊑ a`,
/// `b ⊑ a.narrow(b) ⊑ a`, and decreasing narrowing chains stabilize. Used to
/// recover precision after widening.
template <class L>
concept NarrowableLattice = JoinSemiLattice<L> && requires(L& a, const L& b) {
  { a.narrow(b) } -> std::same_as<ChangeResult>;
};

}  // namespace kildall
