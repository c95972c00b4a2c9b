#pragma once
/// \file
/// `Product<L...>` and `ReducedProduct<Reducer, L...>`: the cartesian product
/// of lattices, ordered componentwise, and the reduced product of Cousot &
/// Cousot (POPL 1979, §10.1) in which a reduction lets components refine each
/// other (e.g. sign = zero makes parity even).
///
/// A `Reducer` is a default-constructible callable `void(std::tuple<L...>&)`
/// that the product runs after construction, `set`, `join`, `meet` and
/// `narrow`. It must be sound (keep every concrete value the tuple
/// represents), reductive (only move components down), idempotent and
/// monotone; the law kit checks the lattice laws of the result. It is NOT run
/// after `widen`: reducing a widened value can undo the widening and make an
/// ascending chain infinite (Cousot & Cousot; see also Miné, "Weakly
/// relational numerical abstract domains", 2004, §4.3), so a reduced product
/// widens componentwise and lets the next `join`/`narrow` reduce again.

#include <concepts>
#include <cstddef>
#include <ostream>
#include <tuple>
#include <type_traits>
#include <utility>

#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>

namespace kildall {

namespace detail {
/// A component that `operator<<` can print.
template <class T>
concept ProductComponentPrintable = requires(std::ostream& s, const T& v) { s << v; };
}  // namespace detail

/// The default reducer: leaves the components as they are.
struct NoReduction {
  /// Does nothing.
  template <class Tuple>
  constexpr void operator()(Tuple&) const noexcept {}
};

/// A reducer for the components `Ls...`.
template <class R, class... Ls>
concept ProductReducer = std::default_initializable<R> && std::invocable<const R&, std::tuple<Ls...>&>;

/// The product of `Ls...`, reduced by `Reducer` after every change (except
/// widening). Models every concept that all components model:
/// `JoinSemiLattice` always, `MeetSemiLattice`, `HasBottom`, `HasTop`,
/// `WidenableLattice`, `NarrowableLattice` when each component does.
template <class Reducer, JoinSemiLattice... Ls>
  requires(sizeof...(Ls) > 0) && ProductReducer<Reducer, Ls...>
class ReducedProduct {
 public:
  /// The components as a tuple.
  using tuple_type = std::tuple<Ls...>;
  /// The type of component `I`.
  template <std::size_t I>
  using component_type = std::tuple_element_t<I, tuple_type>;
  /// Number of components.
  static constexpr std::size_t arity = sizeof...(Ls);
  /// True when a non-trivial reducer is in use.
  static constexpr bool reduced = !std::is_same_v<Reducer, NoReduction>;

  /// Each component default-constructed, then reduced.
  ReducedProduct() { reduce(); }
  /// The given components, reduced.
  explicit ReducedProduct(Ls... parts) : parts_(std::move(parts)...) { reduce(); }

  /// The least element: every component at bottom.
  [[nodiscard]] static ReducedProduct bottom()
    requires(HasBottom<Ls> && ...)
  {
    return ReducedProduct(Ls::bottom()...);
  }
  /// The greatest element: every component at top.
  [[nodiscard]] static ReducedProduct top()
    requires(HasTop<Ls> && ...)
  {
    return ReducedProduct(Ls::top()...);
  }
  /// True when every component is at bottom.
  [[nodiscard]] bool is_bottom() const
    requires(HasBottom<Ls> && ...)
  {
    return std::apply([](const auto&... p) { return (p.is_bottom() && ...); }, parts_);
  }
  /// True when every component is at top.
  [[nodiscard]] bool is_top() const
    requires(HasTop<Ls> && ...)
  {
    return std::apply([](const auto&... p) { return (p.is_top() && ...); }, parts_);
  }

  /// Component `I`.
  template <std::size_t I>
  [[nodiscard]] const component_type<I>& get() const noexcept {
    return std::get<I>(parts_);
  }
  /// Replaces component `I`, then reduces.
  template <std::size_t I>
  void set(component_type<I> value) {
    std::get<I>(parts_) = std::move(value);
    reduce();
  }
  /// All components.
  [[nodiscard]] const tuple_type& parts() const noexcept { return parts_; }

  /// Componentwise join, then reduction.
  [[nodiscard]] ChangeResult join(const ReducedProduct& other) {
    return apply_and_reduce(other, [](auto& a, const auto& b) { return a.join(b); }, true);
  }
  /// Componentwise meet, then reduction.
  [[nodiscard]] ChangeResult meet(const ReducedProduct& other)
    requires(MeetSemiLattice<Ls> && ...)
  {
    return apply_and_reduce(other, [](auto& a, const auto& b) { return a.meet(b); }, true);
  }
  /// Componentwise widening (not reduced; see the file comment).
  [[nodiscard]] ChangeResult widen(const ReducedProduct& other)
    requires(WidenableLattice<Ls> && ...)
  {
    return apply_and_reduce(other, [](auto& a, const auto& b) { return a.widen(b); }, false);
  }
  /// Componentwise narrowing, then reduction.
  [[nodiscard]] ChangeResult narrow(const ReducedProduct& other)
    requires(NarrowableLattice<Ls> && ...)
  {
    return apply_and_reduce(other, [](auto& a, const auto& b) { return a.narrow(b); }, true);
  }
  /// Componentwise order.
  [[nodiscard]] bool leq(const ReducedProduct& other) const {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (std::get<I>(parts_).leq(std::get<I>(other.parts_)) && ...);
    }(std::index_sequence_for<Ls...>{});
  }

  /// Equal components.
  friend bool operator==(const ReducedProduct&, const ReducedProduct&) = default;

  /// Prints `(a, b, ...)`.
  friend std::ostream& operator<<(std::ostream& os, const ReducedProduct& p)
    requires(detail::ProductComponentPrintable<Ls> && ...)
  {
    os << '(';
    std::apply(
        [&](const auto&... parts) {
          std::size_t i = 0;
          ((os << (i++ == 0 ? "" : ", ") << parts), ...);
        },
        p.parts_);
    return os << ')';
  }

 private:
  void reduce() {
    if constexpr (reduced) {
      const Reducer reducer{};  // called as ProductReducer promises: a const lvalue
      reducer(parts_);
    }
  }

  template <class Op>
  ChangeResult apply_and_reduce(const ReducedProduct& other, Op op, bool reduce_after) {
    auto componentwise = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (ChangeResult::unchanged | ... | op(std::get<I>(parts_), std::get<I>(other.parts_)));
    };
    if constexpr (!reduced) {
      (void)reduce_after;
      return componentwise(std::index_sequence_for<Ls...>{});
    } else {
      // The reducer may undo a component's change, so compare the whole tuple.
      const tuple_type before = parts_;
      (void)componentwise(std::index_sequence_for<Ls...>{});
      if (reduce_after) reduce();
      return change_if(!(parts_ == before));
    }
  }

  tuple_type parts_;
};

/// The plain cartesian product, ordered componentwise.
template <JoinSemiLattice... Ls>
using Product = ReducedProduct<NoReduction, Ls...>;

/// Component `I` of a product (`get<0>(p)`).
template <std::size_t I, class Reducer, class... Ls>
[[nodiscard]] const auto& get(const ReducedProduct<Reducer, Ls...>& p) noexcept {
  return p.template get<I>();
}

}  // namespace kildall
