#pragma once
/// \file
/// `Rewriter<Ir>`: the one way a pattern changes the IR. It performs each
/// change through the adapter's primitives (`replace_all_uses`, `erase`, and
/// the IR's own op creation) and tells a `RewriteListener` (the greedy
/// driver) before and after, so that the driver can re-queue the ops a change
/// affects and forget the ops it erases (MLIR's `PatternRewriter` and its
/// listener hooks `notifyOperationInserted`, `notifyRootReplaced`,
/// `notifyOperationRemoved`, `finalizeRootUpdate`). Without a listener it is
/// a plain checked wrapper over the adapter.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include <kildall/rewrite/concepts.hpp>

namespace kildall::rewrite {

/// Told of every change a `Rewriter` makes; the greedy driver is one.
template <RewritableIr Ir>
class RewriteListener {
 public:
  /// Listeners are used through references to this base.
  virtual ~RewriteListener() = default;
  /// `op` was created and linked into the IR.
  virtual void inserted(const op_t<Ir>& op) = 0;
  /// `op` is about to change in place (its operands still the old ones).
  virtual void modifying(const op_t<Ir>& op) = 0;
  /// `op` has changed in place.
  virtual void modified(const op_t<Ir>& op) = 0;
  /// Every use of `value` is about to be replaced (its users and definer still the old ones).
  virtual void replacing_uses(const value_t<Ir>& value) = 0;
  /// `op` is about to be erased (its operands still in place).
  virtual void erasing(const op_t<Ir>& op) = 0;

 protected:
  /// Only derived listeners are made.
  RewriteListener() = default;
  /// Copyable as the derived class sees fit.
  RewriteListener(const RewriteListener&) = default;
  /// Assignable as the derived class sees fit.
  RewriteListener& operator=(const RewriteListener&) = default;
};

/// Changes an IR through its adapter and tells a listener of each change.
template <RewritableIr Ir>
class Rewriter {
 public:
  /// A rewriter of `ir` (which must outlive it), telling `listener` (may be null) of each change.
  explicit Rewriter(Ir& ir, RewriteListener<Ir>* listener = nullptr) : ir_(&ir), listener_(listener) {}

  /// The IR, to read it and to create ops with its own API (announce them with `inserted`).
  [[nodiscard]] Ir& ir() const { return *ir_; }

  /// The number of changes made through this rewriter so far (a pattern that
  /// reports success must have made at least one, one that fails none).
  [[nodiscard]] std::uint64_t change_count() const { return changes_; }

  /// Creates an op with the adapter's `create(args...)` and announces it.
  template <class... Args>
    requires requires(Ir& ir, Args&&... args) {
      { ir.create(std::forward<Args>(args)...) } -> std::convertible_to<op_t<Ir>>;
    }
  op_t<Ir> create(Args&&... args) {
    op_t<Ir> op = ir_->create(std::forward<Args>(args)...);
    inserted(op);
    return op;
  }

  /// Announces `op`, created and linked with the IR's own API.
  void inserted(const op_t<Ir>& op) {
    ++changes_;
    if (listener_ != nullptr) listener_->inserted(op);
  }

  /// Replaces result `i` of `op` by `values[i]` everywhere, then erases `op`;
  /// throws `std::invalid_argument` unless there is one value per result.
  void replace_op(const op_t<Ir>& op, std::span<const value_t<Ir>> values) {
    std::size_t results = 0;
    for (const auto& r : ir_->results(op)) {
      (void)r;
      ++results;
    }
    if (results != values.size()) {
      throw std::invalid_argument("kildall::rewrite::Rewriter::replace_op: " + std::to_string(values.size()) +
                                  " replacement values for an op of " + std::to_string(results) + " results");
    }
    std::size_t i = 0;
    for (const auto& r : ir_->results(op)) replace_all_uses(r, values[i++]);
    erase_op(op);
  }

  /// Replaces the single result of `op` by `value` everywhere, then erases `op`.
  void replace_op(const op_t<Ir>& op, const value_t<Ir>& value) { replace_op(op, std::span<const value_t<Ir>>(&value, 1)); }

  /// Replaces every use of `from` by `to`.
  void replace_all_uses(const value_t<Ir>& from, const value_t<Ir>& to) {
    ++changes_;
    if (listener_ != nullptr) listener_->replacing_uses(from);
    ir_->replace_all_uses(from, to);
  }

  /// Erases `op`; throws `std::logic_error` if one of its results still has a use.
  void erase_op(const op_t<Ir>& op) {
    for (const auto& r : ir_->results(op)) {
      const auto& users = ir_->users(r);
      if (std::begin(users) != std::end(users)) {
        throw std::logic_error("kildall::rewrite::Rewriter::erase_op: a result of the op still has uses "
                               "(replace them first, e.g. with replace_op)");
      }
    }
    ++changes_;
    if (listener_ != nullptr) listener_->erasing(op);
    ir_->erase(op);
  }

  /// Runs `change()`, which changes `op` in place (operands, attributes) with
  /// the IR's own API, and announces it (MLIR's `updateRootInPlace`).
  template <class Change>
  void modify_in_place(const op_t<Ir>& op, Change&& change) {
    ++changes_;
    if (listener_ != nullptr) listener_->modifying(op);
    std::forward<Change>(change)();
    if (listener_ != nullptr) listener_->modified(op);
  }

 private:
  Ir* ir_;
  RewriteListener<Ir>* listener_;
  std::uint64_t changes_ = 0;
};

}  // namespace kildall::rewrite
