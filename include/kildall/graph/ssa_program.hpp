#pragma once
/// \file
/// `SsaProgram`: the *shape* of an SSA program, described once per IR and
/// separate from any analysis of it (MLIR's split between its IR interfaces,
/// which say what a program looks like, and a dataflow analysis's
/// `visitOperation`, which says what it means). A sparse analysis
/// (`kildall/solver/sparse.hpp`) is then only a lattice and transfer
/// functions: the solver derives every def-use edge, including the ones from a
/// branch operand to the block argument it is passed to, from the shape.
///
/// An IR adapter is one class with these members (`V` a copyable value
/// handle, `Cfg` any kildall `AnalysisGraph` of blocks, `B = vertex_t<Cfg>`,
/// `E = edge_t<Cfg>`; "range" means anything iterable, e.g. a `std::span`):
///
/// ```
/// struct MyShape {
///   using value_type = V;
///   const Cfg& cfg() const;                   // the blocks and their edges
///   auto entries() const;                     // the entry block, or a range of them
///   std::size_t value_count() const;          // values are numbered [0, value_count())
///   std::size_t value_index(V v) const;       // optional when V is an integer (then V is its own index)
///   range<V> block_arguments(B b) const;      // b's arguments, in order
///   range<V> block_values(B b) const;         // the results of b's ops, in program order
///   range<V> operands(V v) const;             // the operands of the op defining v, in order
///   range<V> forwarded_operands(E e) const;   // what e passes to its target's arguments, in order
///   // optional:
///   range<V> branch_operands(B b) const;      // what b's terminator decides its successors with
/// };
/// ```
///
/// An iterator of `block_values(b)` may also have `operands()`: the operands of the value at
/// hand, the same as `operands(*it)`. A solver deriving its arrays walks the values with it,
/// so a shape whose iterator stands at the op can hand them out without finding the op again
/// (`ir::FunctionShape`'s does).
///
/// That is all a solver needs to know about a program: which values exist,
/// where they live, what each is computed from, and what each branch passes
/// to which argument. `ir::FunctionShape` is the adapter of kildall's
/// reference IR; `examples/mlir/` has one for MLIR's own IR and
/// `examples/classic_analyses/ssa.hpp` one for a 40-line toy IR.

#include <concepts>
#include <cstddef>
#include <type_traits>

#include <kildall/graph/concepts.hpp>

namespace kildall {

/// The value handle of an SSA program shape `S`.
template <class S>
using ssa_value_t = typename S::value_type;

/// The CFG type of an SSA program shape `S`.
template <class S>
using ssa_cfg_t = std::remove_cvref_t<decltype(std::declval<const S&>().cfg())>;

namespace detail {

/// Customization point behind `kildall::value_index`: the shape's
/// `value_index(v)` member, or the value itself when it is an integer.
struct ValueIndexFn {
  template <class S>
  [[nodiscard]] constexpr std::size_t operator()(const S& s, const ssa_value_t<S>& v) const {
    if constexpr (requires { s.value_index(v); }) {
      return static_cast<std::size_t>(s.value_index(v));
    } else {
      static_assert(std::is_integral_v<ssa_value_t<S>>,
                    "an SSA program whose value_type is not an integer needs a value_index(v) member");
      return static_cast<std::size_t>(v);
    }
  }
};

/// `s.entries()` is one block or a range of blocks of `Cfg`.
template <class Entries, class Cfg>
concept EntriesOf = std::convertible_to<const Entries&, vertex_t<Cfg>> || RangeOf<const Entries, vertex_t<Cfg>>;

}  // namespace detail

/// The dense index of value `v` of shape `s`, in `[0, s.value_count())`.
inline constexpr detail::ValueIndexFn value_index{};

/// An SSA program shape: see the file comment for the members.
template <class S>
concept SsaProgram =
    requires { typename ssa_value_t<S>; } && std::copy_constructible<ssa_value_t<S>> &&
    requires(const S& s) { s.cfg(); } && AnalysisGraph<ssa_cfg_t<S>> &&
    requires(const S& s, const ssa_value_t<S>& v, const vertex_t<ssa_cfg_t<S>>& b, const edge_t<ssa_cfg_t<S>>& e) {
      { s.entries() } -> detail::EntriesOf<ssa_cfg_t<S>>;
      { s.value_count() } -> std::convertible_to<std::size_t>;
      { kildall::value_index(s, v) } -> std::same_as<std::size_t>;
      { s.block_arguments(b) } -> detail::RangeOf<ssa_value_t<S>>;
      { s.block_values(b) } -> detail::RangeOf<ssa_value_t<S>>;
      { s.operands(v) } -> detail::RangeOf<ssa_value_t<S>>;
      { s.forwarded_operands(e) } -> detail::RangeOf<ssa_value_t<S>>;
    };

/// Whether shape `S` names the operands its terminators branch on
/// (`branch_operands(b)`); without it a terminator reads nothing, and an
/// analysis's `edge_executable` sees no operand states.
template <class S>
concept SsaProgramWithBranchOperands =
    SsaProgram<S> && requires(const S& s, const vertex_t<ssa_cfg_t<S>>& b) {
      { s.branch_operands(b) } -> detail::RangeOf<ssa_value_t<S>>;
    };

}  // namespace kildall
