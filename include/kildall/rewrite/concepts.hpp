#pragma once
/// \file
/// What the pattern-rewrite library needs of an IR, as concepts: the IR is
/// handed in as one adapter object (like a solver's `SsaProgram`), never
/// named here. The library includes no IR.
///
/// An adapter is one class with these members (`Op` a copyable op handle,
/// `V` a copyable value handle, `K` an op kind; "range" means anything
/// iterable with range-for, e.g. a `std::span`):
///
/// ```text
/// struct MyIr {
///   using op_type = Op;  using value_type = V;  using kind_type = K;
///   // RewritableIr: reading
///   K kind(Op op) const;                          // equality-comparable, std::hash-able
///   range<V> operands(Op op) const;               // in order
///   range<V> results(Op op) const;                // in order
///   std::optional<Op> defining_op(V v) const;     // none for a block argument
///   range<Op> users(V v) const;                   // one entry per use (a user twice if it uses v twice)
///   bool is_trivially_dead(Op op) const;          // no side effect and no result used
///   void for_each_op(F&& f) const;                // f(op) for every live op, in preorder
///   // RewritableIr: the two primitive mutations (the library notifies its driver around them)
///   void replace_all_uses(V from, V to);          // every use of `from` now uses `to`
///   void erase(Op op);                            // unlinks op; its results have no uses
///   // WorklistIr (what the greedy driver adds): either `Op` is hashable (std::hash), or
///   std::size_t op_index(Op op) const;            // distinct per live op, small (e.g. < number of ops ever made)
///   // FoldableIr: folding (MLIR's `fold` + `materializeConstant`)
///   using constant_type = C;
///   FoldOutcome fold(Op op, std::vector<FoldedResult<V, C>>& results);
///   std::optional<V> materialize_constant(const C& c, V like, Op before);  // a new constant op before `before`
///   // RegionSimplifyingIr: control-flow cleanup between sweeps (MLIR's `simplifyRegions`)
///   std::uint64_t simplify_regions();            // the number of changes made (0: none)
/// };
/// ```
///
/// Ops are created by the IR's own API (the library cannot know what an op
/// is made of); a pattern announces what it made through its `Rewriter`
/// (`rewriter.create(...)` forwards to an optional `ir.create(...)` and
/// announces the result, `rewriter.inserted(op)` announces an op made any
/// other way). `kildall/rewrite/archetypes.hpp` has the least types that
/// model each concept.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>  // also declares std::hash (without <functional>, a heavy header)
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace kildall::rewrite {

/// The op handle type of adapter `I`.
template <class I>
using op_t = typename I::op_type;
/// The value handle type of adapter `I`.
template <class I>
using value_t = typename I::value_type;
/// The op kind type of adapter `I`.
template <class I>
using kind_t = typename I::kind_type;
/// The constant type of a foldable adapter `I` (what a fold may conclude a result is).
template <class I>
using constant_t = typename I::constant_type;

namespace detail {

/// `R` can be walked with range-for and yields something convertible to `T`.
template <class R, class T>
concept IterableOf = requires(R& r) {
  { std::begin(r) } -> std::input_or_output_iterator;
  { std::begin(r) != std::end(r) } -> std::convertible_to<bool>;
  { *std::begin(r) } -> std::convertible_to<T>;
};

/// A callable standing for the visitor `for_each_op` is given (concept checks only).
template <class Op>
struct OpVisitor {
  /// Accepts one op.
  void operator()(const Op&) const {}
};

}  // namespace detail

/// `T` is equality-comparable and hashable by `std::hash`.
template <class T>
concept Hashable = std::equality_comparable<T> && requires(const T& t) {
  { std::hash<T>{}(t) } -> std::convertible_to<std::size_t>;
};

/// An op kind: the key patterns are bucketed by (copyable, equality-comparable, hashable).
template <class K>
concept OpKind = std::copyable<K> && Hashable<K>;

/// An IR a greedy rewrite driver can walk and mutate: see the file comment for the members.
template <class I>
concept RewritableIr =
    std::copyable<op_t<I>> && std::equality_comparable<op_t<I>> && std::copyable<value_t<I>> &&
    OpKind<kind_t<I>> &&
    requires(I& ir, const I& cir, const op_t<I>& op, const value_t<I>& v, detail::OpVisitor<op_t<I>> visit) {
      { cir.kind(op) } -> std::convertible_to<kind_t<I>>;
      requires detail::IterableOf<const decltype(cir.operands(op)), value_t<I>>;
      requires detail::IterableOf<const decltype(cir.results(op)), value_t<I>>;
      { cir.defining_op(v) } -> std::convertible_to<std::optional<op_t<I>>>;
      requires detail::IterableOf<const decltype(cir.users(v)), op_t<I>>;
      { cir.is_trivially_dead(op) } -> std::convertible_to<bool>;
      cir.for_each_op(visit);
      ir.replace_all_uses(v, v);
      ir.erase(op);
    };

/// A rewritable IR whose ops carry a dense index (`op_index`), which the
/// driver then uses instead of hashing op handles.
template <class I>
concept IndexedOps = RewritableIr<I> && requires(const I& ir, const op_t<I>& op) {
  { ir.op_index(op) } -> std::convertible_to<std::size_t>;
};

/// What the greedy driver needs on top of `RewritableIr`: a way to find an op
/// in its worklist, either the dense `op_index` or hashable op handles.
template <class I>
concept WorklistIr = IndexedOps<I> || (RewritableIr<I> && Hashable<op_t<I>>);

/// What a folder concluded about one result: an existing value, or a constant
/// that the driver materializes (MLIR's `OpFoldResult`: a value or an attribute).
template <class Value, class Constant>
struct FoldedResult {
  /// Either the value the result always equals, or the constant it always is.
  std::variant<Value, Constant> folded;

  /// The result equals the existing value `v`.
  [[nodiscard]] static FoldedResult value(Value v) {
    return {std::variant<Value, Constant>(std::in_place_index<0>, std::move(v))};
  }
  /// The result is the constant `c`.
  [[nodiscard]] static FoldedResult constant(Constant c) {
    return {std::variant<Value, Constant>(std::in_place_index<1>, std::move(c))};
  }
  /// True when the result equals an existing value.
  [[nodiscard]] bool is_value() const { return folded.index() == 0; }
};

/// What a fold did (MLIR's three answers of `fold`).
enum class FoldOutcome : std::uint8_t {
  none,              ///< Nothing to fold: the op is left as it was.
  updated_in_place,  ///< The op was changed in place (e.g. operands reordered); its results stay.
  folded,            ///< `results` holds one `FoldedResult` per result: the op is to be replaced.
};

/// A rewritable IR that can fold an op to existing values or constants and
/// materialize a constant as a new op. `fold` must answer `none` for an op
/// that is already the constant it would fold to (else folding never ends:
/// the driver would report it as non-convergence).
template <class I>
concept FoldableIr = RewritableIr<I> && std::copyable<constant_t<I>> &&
                     requires(I& ir, const op_t<I>& op, const value_t<I>& v, const constant_t<I>& c,
                              std::vector<FoldedResult<value_t<I>, constant_t<I>>>& results) {
                       { ir.fold(op, results) } -> std::same_as<FoldOutcome>;
                       { ir.materialize_constant(c, v, op) } -> std::convertible_to<std::optional<value_t<I>>>;
                     };

/// A rewritable IR that also simplifies its control flow as a whole (MLIR's
/// `simplifyRegions`: unreachable blocks, dead block arguments, ...), which
/// the greedy driver runs after every sweep. `simplify_regions` returns the
/// number of changes it made (0: the IR is as it was). The driver's worklist
/// is seeded anew each sweep, so it may erase ops without announcing them.
template <class I>
concept RegionSimplifyingIr = RewritableIr<I> && requires(I& ir) {
  { ir.simplify_regions() } -> std::convertible_to<std::uint64_t>;
};

}  // namespace kildall::rewrite
