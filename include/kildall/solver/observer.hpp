#pragma once
/// \file
/// Solver observers: an optional callback object that sees every visit with
/// its before/after states. The default, `NoObserver`, compiles away: solvers
/// test `observer_enabled<O>` with `if constexpr`, so an unobserved solve pays
/// nothing.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <kildall/lattice/change_result.hpp>

namespace kildall {

/// Which phase of a solve a visit belongs to.
enum class VisitPhase : std::uint8_t {
  ascending,  ///< Kildall iteration (joins and widenings).
  narrowing,  ///< The optional descending phase.
};

/// One visit of a node, as shown to an observer. States are pointers so that
/// "uninitialized" (never reached, or an operand not yet known) is visible:
/// `nullptr` means uninitialized. The pointers are valid during the callback
/// only.
template <class Node, class L>
struct VisitEvent {
  Node node;                   ///< The visited vertex (dense) or SSA value (sparse).
  VisitPhase phase;            ///< Ascending or narrowing.
  std::uint32_t visit;         ///< 1-based visit number of this node.
  const L* input;              ///< Dense: the joined in-state fed to the transfer; sparse: nullptr.
  const L* before;             ///< The node's state before the visit (nullptr: uninitialized).
  const L* after;              ///< The node's state after the visit (nullptr: still uninitialized).
  bool widened;                ///< Whether `widen` was applied on this visit.
  ChangeResult change;         ///< Whether the node's state changed.
};

/// An observer of visits of nodes `Node` with lattice `L`: a callable member
/// `on_visit(const VisitEvent<Node, L>&)`. Optional members, detected when
/// present: `on_reached(const Block&)` (sparse solver: a CFG block became
/// executable; dense solver: a vertex was reached).
template <class O, class Node, class L>
concept Observer = requires(O& o, const VisitEvent<Node, L>& e) { o.on_visit(e); };

/// The observer that observes nothing (the default); costs nothing.
struct NoObserver {
  /// Marks the observer as disabled so solvers skip building events.
  static constexpr bool enabled = false;
  /// Does nothing.
  template <class Event>
  constexpr void on_visit(const Event&) const noexcept {}
};

/// True unless `O` declares `static constexpr bool enabled = false`.
template <class O>
inline constexpr bool observer_enabled = [] {
  if constexpr (requires { std::remove_cvref_t<O>::enabled; }) {
    return static_cast<bool>(std::remove_cvref_t<O>::enabled);
  } else {
    return true;
  }
}();

namespace detail {

/// Calls `o.on_reached(x)` when the observer has such a member.
template <class O, class X>
constexpr void notify_reached(O& o, const X& x) {
  if constexpr (requires { o.on_reached(x); }) o.on_reached(x);
}

}  // namespace detail

}  // namespace kildall
