#pragma once
/// \file
/// Rewrite archetypes: the least an IR adapter can offer and still model
/// `RewritableIr`, `WorklistIr` and `FoldableIr` (in the style of
/// `kildall/graph/archetypes.hpp`, after Boost's archetype classes). Code
/// that compiles and runs against them asks nothing of an IR beyond the
/// concepts: not a default-constructible, ordered or integral op handle, not
/// a comparable value handle, not a multi-pass range.
///
/// What they give, and nothing else:
///   - opaque op, value, kind and constant handles (classes wrapping a
///     number: ops and kinds are equality-comparable, kinds hashable, ops
///     hashable only in the archetype without `op_index`; values and
///     constants only copyable);
///   - ranges of input-only iterators that yield handles by value;
///   - no copy and no move of the IR itself.
/// Each archetype is a working IR of ops with one result each, so a driver
/// can run on it: `create(kind, operands, payload)` makes an op (not part of
/// any concept), kind 0 (`sink`) has a side effect (never dead), and the
/// foldable archetype folds kind 2 (`forward`) to its first operand and kind 3
/// (`to_constant`) to the constant of its payload, materialized as kind 4
/// (`constant`).

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <kildall/rewrite/concepts.hpp>

namespace kildall::rewrite::archetypes {

/// An opaque op handle: copyable and equality-comparable; hashable when `Hashable`.
template <bool Hashable>
class basic_op {
 public:
  /// The op numbered `id`.
  explicit basic_op(std::size_t id) : id_(id) {}
  /// Its number (for tests and the archetype itself, not for generic code).
  [[nodiscard]] std::size_t id() const { return id_; }
  /// Ops are equal when they name the same op.
  friend bool operator==(const basic_op&, const basic_op&) = default;

 private:
  std::size_t id_;
};

/// An opaque value handle: copyable, nothing more.
class value {
 public:
  /// The value numbered `id` (the result of op `id`).
  explicit value(std::size_t id) : id_(id) {}
  /// Its number (for tests and the archetype itself).
  [[nodiscard]] std::size_t id() const { return id_; }

 private:
  std::size_t id_;
};

/// An opaque op kind: copyable, equality-comparable, hashable.
class kind {
 public:
  /// The kind numbered `id`.
  explicit kind(unsigned id) : id_(id) {}
  /// Its number.
  [[nodiscard]] unsigned id() const { return id_; }
  /// Kinds are equal when they have the same number.
  friend bool operator==(const kind&, const kind&) = default;

 private:
  unsigned id_;
};

/// An opaque constant: copyable, nothing more.
class constant {
 public:
  /// The constant `v`.
  explicit constant(std::int64_t v) : value_(v) {}
  /// Its value.
  [[nodiscard]] std::int64_t get() const { return value_; }

 private:
  std::int64_t value_;
};

/// The kind with a side effect (never trivially dead).
inline const kind sink{0};
/// A kind the foldable archetype folds to its first operand.
inline const kind forward{2};
/// A kind the foldable archetype folds to the constant of its payload.
inline const kind to_constant{3};
/// The kind of materialized constants.
inline const kind constant_kind{4};

namespace detail {

/// A range of handles `T` built from numbers, walked by input-only iterators
/// (single pass, yielding by value). It owns its numbers.
template <class T>
class handle_range {
 public:
  /// An input-only iterator over the numbers.
  class iterator {
   public:
    using iterator_concept = std::input_iterator_tag;   ///< Input only.
    using iterator_category = std::input_iterator_tag;  ///< Input only.
    using value_type = T;                               ///< Yields handles.
    using difference_type = std::ptrdiff_t;             ///< Required by std::input_iterator.
    /// A singular iterator.
    iterator() = default;
    /// At `at`.
    explicit iterator(const std::size_t* at) : at_(at) {}
    /// The handle, by value.
    [[nodiscard]] T operator*() const { return T(*at_); }
    /// Advances.
    iterator& operator++() {
      ++at_;
      return *this;
    }
    /// Post-increment of an input-only iterator returns nothing.
    void operator++(int) { ++at_; }
    /// Same position.
    friend bool operator==(const iterator&, const iterator&) = default;

   private:
    const std::size_t* at_ = nullptr;
  };
  /// The handles of `ids`.
  explicit handle_range(std::vector<std::size_t> ids) : ids_(std::move(ids)) {}
  /// Start.
  [[nodiscard]] iterator begin() const { return iterator(ids_.data()); }
  /// End.
  [[nodiscard]] iterator end() const { return iterator(ids_.data() + ids_.size()); }

 private:
  std::vector<std::size_t> ids_;
};

/// The constant type of the foldable archetype, and nothing in the other.
template <bool Foldable>
struct constant_member {};
/// The foldable archetype names its constants.
template <>
struct constant_member<true> {
  using constant_type = constant;  ///< Folded constants.
};

}  // namespace detail

/// Which optional parts an archetype offers.
struct capabilities {
  bool indexed = false;   ///< `op_index` (else op handles are hashable instead).
  bool foldable = false;  ///< `FoldableIr`: `constant_type`, `fold`, `materialize_constant`.
};

/// A working IR offering exactly `RewritableIr`, plus `op_index` or hashable
/// ops, plus folding, as `Caps` says.
template <capabilities Caps>
class ir : public detail::constant_member<Caps.foldable> {
 public:
  using op_type = basic_op<!Caps.indexed>;  ///< Op handle.
  using value_type = value;                 ///< Value handle.
  using kind_type = archetypes::kind;       ///< Op kind.

  /// An empty IR.
  ir() = default;
  /// Used by reference: no copy.
  ir(const ir&) = delete;
  /// No assignment.
  ir& operator=(const ir&) = delete;
  /// Releases the ops.
  ~ir() = default;

  /// Creates an op of kind `k` using `operands`, with an integer `payload`
  /// (not part of any concept); throws `std::out_of_range` for an unknown operand.
  op_type create(archetypes::kind k, std::span<const value> operands = {}, std::int64_t payload = 0) {
    record r{k.id(), {}, payload, false};
    for (const value& v : operands) {
      if (v.id() >= records_.size() || records_[v.id()].erased) {
        throw std::out_of_range("kildall::rewrite::archetypes::ir::create: no live value " + std::to_string(v.id()));
      }
      r.operands.push_back(v.id());
    }
    records_.push_back(std::move(r));
    return op_type(records_.size() - 1);
  }
  /// The result of `op` (not part of any concept).
  [[nodiscard]] value result(const op_type& op) const { return value(op.id()); }
  /// The payload of `op` (not part of any concept).
  [[nodiscard]] std::int64_t payload(const op_type& op) const { return records_[op.id()].payload; }
  /// The number of live ops (not part of any concept).
  [[nodiscard]] std::size_t live_ops() const {
    std::size_t n = 0;
    for (const record& r : records_) n += r.erased ? 0 : 1;
    return n;
  }

  /// RewritableIr: the kind of `op`.
  [[nodiscard]] archetypes::kind kind(const op_type& op) const { return archetypes::kind(records_[op.id()].kind); }
  /// RewritableIr: the operands of `op`.
  [[nodiscard]] detail::handle_range<value> operands(const op_type& op) const {
    return detail::handle_range<value>(records_[op.id()].operands);
  }
  /// RewritableIr: the one result of `op`.
  [[nodiscard]] detail::handle_range<value> results(const op_type& op) const {
    return detail::handle_range<value>({op.id()});
  }
  /// RewritableIr: the op defining `v`.
  [[nodiscard]] std::optional<op_type> defining_op(const value& v) const { return op_type(v.id()); }
  /// RewritableIr: the live users of `v`, one entry per use.
  [[nodiscard]] detail::handle_range<op_type> users(const value& v) const {
    std::vector<std::size_t> found;
    for (std::size_t i = 0; i < records_.size(); ++i) {
      if (records_[i].erased) continue;
      for (const std::size_t operand : records_[i].operands)
        if (operand == v.id()) found.push_back(i);
    }
    return detail::handle_range<op_type>(std::move(found));
  }
  /// RewritableIr: not a sink and its result unused.
  [[nodiscard]] bool is_trivially_dead(const op_type& op) const {
    if (records_[op.id()].kind == sink.id()) return false;
    const auto used_by = users(value(op.id()));
    return used_by.begin() == used_by.end();
  }
  /// RewritableIr: `f(op)` for every live op in creation order.
  template <class F>
  void for_each_op(F&& f) const {
    for (std::size_t i = 0; i < records_.size(); ++i)
      if (!records_[i].erased) f(op_type(i));
  }
  /// RewritableIr: every use of `from` becomes a use of `to`.
  void replace_all_uses(const value& from, const value& to) {
    for (record& r : records_) {
      if (r.erased) continue;
      for (std::size_t& operand : r.operands)
        if (operand == from.id()) operand = to.id();
    }
  }
  /// RewritableIr: erases `op`.
  void erase(const op_type& op) { records_[op.id()].erased = true; }

  /// IndexedOps: the op's number.
  [[nodiscard]] std::size_t op_index(const op_type& op) const
    requires(Caps.indexed)
  {
    return op.id();
  }

  /// FoldableIr: `forward` folds to its first operand, `to_constant` to its payload.
  FoldOutcome fold(const op_type& op, std::vector<FoldedResult<value, constant>>& results)
    requires(Caps.foldable)
  {
    const record& r = records_[op.id()];
    if (r.kind == forward.id() && !r.operands.empty()) {
      results.push_back(FoldedResult<value, constant>::value(value(r.operands.front())));
      return FoldOutcome::folded;
    }
    if (r.kind == to_constant.id()) {
      results.push_back(FoldedResult<value, constant>::constant(constant(r.payload)));
      return FoldOutcome::folded;
    }
    return FoldOutcome::none;
  }
  /// FoldableIr: a new `constant_kind` op holding `c` (placed at the end: the archetype has no order).
  std::optional<value> materialize_constant(const constant& c, const value& like, const op_type& before)
    requires(Caps.foldable)
  {
    (void)like;
    (void)before;
    return result(create(constant_kind, {}, c.get()));
  }

 private:
  struct record {
    unsigned kind;
    std::vector<std::size_t> operands;
    std::int64_t payload;
    bool erased;
  };
  std::vector<record> records_;
};

/// Models `RewritableIr` and `WorklistIr` through hashable op handles; no folding.
using rewritable_ir = ir<capabilities{}>;
/// Models `FoldableIr` and `WorklistIr` through `op_index`; op handles are not hashable.
using foldable_ir = ir<capabilities{.indexed = true, .foldable = true}>;

}  // namespace kildall::rewrite::archetypes

/// Op handles of the archetype without `op_index` hash by number.
template <>
struct std::hash<kildall::rewrite::archetypes::basic_op<true>> {
  /// The hash of the op's number.
  [[nodiscard]] std::size_t operator()(const kildall::rewrite::archetypes::basic_op<true>& op) const noexcept {
    return std::hash<std::size_t>{}(op.id());
  }
};

/// Kinds hash by number.
template <>
struct std::hash<kildall::rewrite::archetypes::kind> {
  /// The hash of the kind's number.
  [[nodiscard]] std::size_t operator()(const kildall::rewrite::archetypes::kind& k) const noexcept {
    return std::hash<unsigned>{}(k.id());
  }
};
