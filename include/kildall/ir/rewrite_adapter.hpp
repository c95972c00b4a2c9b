#pragma once
/// \file
/// `RewriteAdapter`: the reference IR as the generic pattern-rewrite library
/// sees it (`kildall::rewrite::FoldableIr` with dense `op_index`), over one
/// `ir::Function` and its `ir::Rewriter`. Op handles are `OpId`s, values
/// `ValueId`s, kinds `OpCode`s, constants zero-extended bit patterns.
///
/// The function has no use lists (uses are found by scanning its operand
/// array), so the adapter builds one per value when it is made, in two passes
/// over the operands (count, then fill), all in one pool of operand slots
/// (each use an operand slot; a slot knows its op and its place in the list,
/// so a use goes in O(1), however many the value has; a list that outgrows its
/// room moves to the pool's end with twice the room, as a vector would, and
/// no value has a heap block of its own), and keeps them up to date through
/// its own mutations; a
/// function rewritten through the adapter must not be changed otherwise while
/// the adapter lives.
///
/// Folding reads the op records (op_definition.hpp), as SCCP does: an op
/// whose operands are all `arith.constant`s is evaluated by its `eval` (an
/// undefined case, e.g. division by zero, does not fold), else its `fold`
/// hook is asked with the constants it knows (identities, decided choices).
/// Constants are materialized as MLIR's `OperationFolder` does: one
/// `arith.constant` per (type, value), at the start of the entry block (it
/// dominates every use), named MLIR-style (`%c42_i32`, `%true`); the
/// constants that already lead the entry block are adopted as such.
///
/// When at least a third of the function's op slots hold erased ops (a sweep
/// that folded and erased most of a large function), `simplify_regions`
/// compacts the body (`compact_body`, module.hpp) before and after the
/// simplification: it and the next sweeps then walk dense arrays instead of
/// reading a cache line per live op among the erased ones.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <ranges>
#include <span>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include <kildall/ir/arith.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_definition.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/region_simplification.hpp>
#include <kildall/ir/rewriter.hpp>
#include <kildall/rewrite/concepts.hpp>
#include <kildall/rewrite/rewriter.hpp>
#include <kildall/support/prefetch.hpp>

namespace kildall::ir {

/// The consecutive values `[first, first + count)` (an op's results) as a range of `ValueId`.
class ValueIdRange {
 public:
  /// Iterator over the ids.
  class iterator {
   public:
    using value_type = ValueId;              ///< Iterated type.
    using difference_type = std::ptrdiff_t;  ///< Required by std::forward_iterator.
    /// A singular iterator.
    iterator() = default;
    /// At value `v`.
    explicit iterator(ValueId v) : v_(v) {}
    /// The current value.
    ValueId operator*() const { return v_; }
    /// Advances.
    iterator& operator++() {
      ++v_;
      return *this;
    }
    /// Post-increment.
    iterator operator++(int) {
      iterator copy = *this;
      ++v_;
      return copy;
    }
    /// Iterators compare by position.
    friend bool operator==(const iterator&, const iterator&) = default;

   private:
    ValueId v_ = 0;
  };
  /// The values `[first, first + count)`.
  ValueIdRange(ValueId first, std::uint32_t count) : first_(first), count_(count) {}
  /// First value.
  [[nodiscard]] iterator begin() const { return iterator(first_); }
  /// Past the last value.
  [[nodiscard]] iterator end() const { return iterator(first_ + count_); }
  /// The number of values.
  [[nodiscard]] std::size_t size() const { return count_; }

 private:
  ValueId first_;
  std::uint32_t count_;
};

/// One function of the reference IR as a `kildall::rewrite::FoldableIr` (see the file comment).
class RewriteAdapter {
 public:
  using op_type = OpId;                ///< An op.
  using value_type = ValueId;          ///< A value (op result or block argument).
  using kind_type = OpCode;            ///< An op kind.
  using constant_type = std::uint64_t;  ///< A constant's bits (zero-extended).

  /// An adapter of `fn`, whose ops are defined in `registry` (both must outlive it).
  explicit RewriteAdapter(Function& fn, const OpRegistry& registry = OpRegistry::builtins())
      : fn_(&fn), registry_(&registry), rewriter_(fn) {
    collect_users();
    adopt_leading_constants();
  }

  /// The function rewritten.
  [[nodiscard]] Function& function() const { return *fn_; }
  /// The op table.
  [[nodiscard]] const OpRegistry& registry() const { return *registry_; }
  /// The record of `op`.
  [[nodiscard]] const OpDefinition& definition(OpId op) const { return registry_->op(fn_->ops[op].code); }

  // --- RewritableIr: reading ---

  /// The kind of `op`.
  [[nodiscard]] OpCode kind(OpId op) const { return fn_->ops[op].code; }
  /// The operands of `op`, successor operands included (MLIR's order).
  [[nodiscard]] std::span<const ValueId> operands(OpId op) const { return std::as_const(*fn_).operands_of(op); }
  /// The results of `op`.
  [[nodiscard]] ValueIdRange results(OpId op) const {
    return {fn_->ops[op].result_begin, fn_->ops[op].result_count};
  }
  /// The op defining `v`, none for a block argument.
  [[nodiscard]] std::optional<OpId> defining_op(ValueId v) const {
    if (fn_->values[v].is_block_argument) return std::nullopt;
    return fn_->values[v].owner;
  }
  /// The ops using `v`, one entry per use, in no particular order (a view of the adapter's use
  /// list: valid until the next mutation).
  [[nodiscard]] auto users(ValueId v) const {
    return std::views::transform(use_slots(v),
                                 [owner = slot_owner_.data()](std::uint32_t slot) { return owner[slot]; });
  }
  /// The number of uses of `v`.
  [[nodiscard]] std::size_t use_count(ValueId v) const { return use_lists_[v].size; }
  /// Whether `op` has no effect (its record has `eval`, it is no terminator and owns no region)
  /// and none of its results is used.
  [[nodiscard]] bool is_trivially_dead(OpId op) const {
    if (!is_pure(op)) return false;
    for (const ValueId r : results(op))
      if (use_lists_[r].size != 0) return false;
    return true;
  }
  /// Whether erasing `op` when unused cannot change the program: `has_no_effect`
  /// (op_registry.hpp), for an op that owns no region (the adapter's use lists and erasure
  /// reach one level of regions only, so an op owning regions is never erased as dead here).
  [[nodiscard]] bool is_pure(OpId op) const {
    if (fn_->regions.size() >= 2 && fn_->regions_of(op).first != fn_->regions_of(op).second) return false;
    return has_no_effect(*fn_, op, *registry_);
  }
  /// `f(op)` for every live op, block by block in layout order.
  template <class F>
  void for_each_op(F&& f) const {
    static constexpr BlockId ahead = 8;  // the first op of the block this far on is asked for
    for (BlockId b = 0; b < fn_->blocks.size(); ++b) {
      if (b + ahead < fn_->blocks.size() && fn_->blocks[b + ahead].first_op != no_index)
        kildall::detail::prefetch_for_read(&fn_->ops[fn_->blocks[b + ahead].first_op]);
      if (fn_->in_erased_region(b)) continue;
      for (const OpId op : fn_->ops_of(b)) f(op);
    }
  }
  /// The dense index of `op` (its id).
  [[nodiscard]] std::size_t op_index(OpId op) const { return op; }

  // --- RewritableIr: the primitive mutations ---

  /// Every use of `from` now uses `to`.
  void replace_all_uses(ValueId from, ValueId to) {
    if (from == to) return;
    // (copied first: the pool may move while `to`'s list grows)
    const std::span<const std::uint32_t> from_slots = use_slots(from);
    moving_slots_.assign(from_slots.begin(), from_slots.end());
    use_lists_[from].size = 0;  // its room stays its own
    for (const std::uint32_t slot : moving_slots_) {
      fn_->operands[slot] = to;
      add_use(slot_owner_[slot], slot);
    }
  }
  /// Unlinks `op` (and the ops of its regions), dropping their uses.
  void erase(OpId op) {
    drop_uses(op);
    if (fn_->regions.size() >= 2) {
      const auto [first, last] = fn_->regions_of(op);
      for (RegionId r = first; r < last; ++r)
        for (BlockId b = fn_->regions[r].first_block; b < fn_->regions[r].first_block + fn_->regions[r].block_count; ++b)
          for (const OpId inner : fn_->ops_of(b)) drop_uses(inner);
    }
    if (is(fn_->ops[op].code, BuiltinOp::constant)) {
      const auto it = constants_.find(key(fn_->values[fn_->ops[op].result_begin].type, fn_->ops[op].imm));
      if (it != constants_.end() && it->second == fn_->ops[op].result_begin) constants_.erase(it);
    }
    rewriter_.erase(op);
  }

  // --- Creation and in-place changes (announce them through `kildall::rewrite::Rewriter`) ---

  /// Creates op `code` with `operands`, results of `result_types` and inline attributes
  /// `imm`/`aux`, linked right before `before`; its results are unnamed.
  OpId create(OpId before, OpCode code, std::span<const ValueId> operands, std::span<const Type> result_types,
              std::uint64_t imm = 0, std::uint32_t aux = 0) {
    const OpId op = rewriter_.create_before(before, code, operands, result_types, imm, aux);
    grow();
    add_uses(op);
    return op;
  }
  /// Creates `cf.br ^target(forwarded...)` right before `before`.
  OpId create_branch(OpId before, BlockId target, std::span<const ValueId> forwarded) {
    const OpId br = rewriter_.create_branch(target, forwarded);
    rewriter_.insert_before(before, br);
    grow();
    add_uses(br);
    return br;
  }
  /// Operand `i` of `op` becomes `v` (an in-place change: wrap it in `Rewriter::modify_in_place`).
  void set_operand(OpId op, std::uint32_t i, ValueId v) {
    const std::uint32_t slot = fn_->ops[op].operand_begin + i;
    if (fn_->operands[slot] == v) return;
    remove_use(slot);
    fn_->operands[slot] = v;
    add_use(op, slot);
  }
  /// `op` becomes an op of kind `code` with immediate `imm` (same operands and results; an
  /// in-place change).
  void set_kind(OpId op, OpCode code, std::uint64_t imm) {
    fn_->ops[op].code = static_cast<std::uint16_t>(code);
    fn_->ops[op].imm = imm;
  }

  /// The `arith.constant bits : type` at the start of the entry block, made if there is none
  /// yet (one per type and value: MLIR's constant uniquing), named MLIR-style.
  ValueId constant(Type type, std::uint64_t bits) {
    bits &= width_mask(type.width());
    const auto [it, inserted] = constants_.try_emplace(key(type, bits), no_index);
    if (!inserted) return it->second;
    const ValueId v = rewriter_.constant_at_start(0, type, bits);
    grow();
    rewriter_.set_name(v, rewriter_.constant_name(type, bits));
    it->second = v;
    created_constant_ = fn_->values[v].owner;
    return v;
  }
  /// The uniqued constant of (type, bits), if one was made.
  [[nodiscard]] std::optional<ValueId> known_constant(Type type, std::uint64_t bits) const {
    const auto it = constants_.find(key(type, bits & width_mask(type.width())));
    if (it == constants_.end()) return std::nullopt;
    return it->second;
  }
  /// The constant op the last `constant` call made (to announce it), or `no_index`.
  [[nodiscard]] OpId take_created_constant() { return std::exchange(created_constant_, no_index); }

  /// The bits of `v` when an `arith.constant` defines it.
  [[nodiscard]] std::optional<std::uint64_t> constant_of(ValueId v) const {
    const ValueData& data = fn_->values[v];
    if (data.is_block_argument || !is(fn_->ops[data.owner].code, BuiltinOp::constant)) return std::nullopt;
    return fn_->ops[data.owner].imm;
  }

  // --- RegionSimplifyingIr ---

  /// Simplifies the function's control flow (`ir::simplify_regions`: unreachable blocks,
  /// branches past pass-through blocks, single-predecessor blocks merged, dead ops and block
  /// arguments); returns the number of changes. The use lists are rebuilt after a change. When
  /// at least a third of the function's op slots hold erased ops, before the simplification or
  /// after it, the body is compacted (`compact_body`: ops and values renumbered in program
  /// order), so that the simplification and the next sweeps walk dense arrays: op and value ids
  /// held from before this call are stale.
  std::uint64_t simplify_regions() {
    // The sweep before erased most ops (a function folded away): the simplification walks what
    // is left in dense arrays. The use lists are made anew below in either case.
    const bool compacted = compact_if_sparse();
    const std::uint64_t changes = ir::simplify_regions(*fn_, *registry_, rewriter_, simplification_scratch_).total();
    if (changes == 0 && !compacted) return 0;
    drop_erased_constants();
    (void)compact_if_sparse();
    collect_users();
    adopt_leading_constants();  // the `true`/`false` a propagated condition made
    return changes;
  }
  /// How many times `simplify_regions` compacted the function's body.
  [[nodiscard]] std::size_t compactions() const { return compactions_; }

  // --- FoldableIr ---

  /// Folds `op` by its record (see the file comment): `folded` with one result per result, or `none`.
  kildall::rewrite::FoldOutcome fold(OpId op, std::vector<kildall::rewrite::FoldedResult<ValueId, std::uint64_t>>& folded_results) {
    using kildall::rewrite::FoldOutcome;
    using Result = kildall::rewrite::FoldedResult<ValueId, std::uint64_t>;
    const OpData& o = fn_->ops[op];
    if (o.code >= registry_->op_count()) return FoldOutcome::none;  // unknown to the registry: opaque
    const OpDefinition& def = registry_->op(o.code);
    if (is(o.code, BuiltinOp::constant) || !def.eval || def.terminator || o.result_count == 0 ||
        o.successor_count != 0 || !is_pure(op))
      return FoldOutcome::none;
    for (const ValueId r : results(op))
      if (!fn_->values[r].type.is_integer_like()) return FoldOutcome::none;
    const auto ids = operands(op);
    // Scratch kept across calls: a sweep folds every op, so no allocation per op.
    fold_bits_.resize(ids.size());
    fold_known_.assign(ids.size(), nullptr);
    const std::span<std::uint64_t> bits(fold_bits_.data(), ids.size());
    const std::span<const std::uint64_t*> known(fold_known_.data(), ids.size());
    bool all_known = true;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (const auto c = constant_of(ids[i])) {
        bits[i] = *c;
        known[i] = &bits[i];
      } else {
        all_known = false;
      }
    }
    if (all_known) {
      fold_results_.assign(o.result_count, 0);
      if (!def.eval(*fn_, op, bits, fold_results_).ok) return FoldOutcome::none;
      for (const std::uint64_t r : fold_results_) folded_results.push_back(Result::constant(r));
      return FoldOutcome::folded;
    }
    const std::optional<Folded> folded =
        def.fold && o.result_count == 1 ? def.fold(*fn_, op, known) : std::optional<Folded>();
    if (!folded) {
      // MLIR's `Commutative` trait fold and `cmpi`'s: a constant moves to the right.
      const bool swaps = ids.size() == 2 && known[0] != nullptr && known[1] == nullptr &&
                         (is_commutative(o.code) || is(o.code, BuiltinOp::cmpi));
      if (!swaps) return FoldOutcome::none;
      const ValueId lhs = ids[0], rhs = ids[1];
      set_operand(op, 0, rhs);
      set_operand(op, 1, lhs);
      if (is(o.code, BuiltinOp::cmpi))
        fn_->ops[op].imm = static_cast<std::uint64_t>(swapped_predicate(static_cast<CmpPredicate>(o.imm)));
      return FoldOutcome::updated_in_place;
    }
    if (folded->kind == Folded::Kind::constant) folded_results.push_back(Result::constant(folded->bits));
    else folded_results.push_back(Result::value(ids[folded->operand]));
    return FoldOutcome::folded;
  }
  /// The uniqued `arith.constant` of `like`'s type (see `constant`; it may exist already:
  /// announcing it again only queues it); `before` is unused (constants live at the start of
  /// the entry block). None for a type that is not integer-like.
  std::optional<ValueId> materialize_constant(std::uint64_t bits, ValueId like, OpId /*before*/) {
    const Type type = fn_->values[like].type;
    if (!type.is_integer_like()) return std::nullopt;
    const ValueId v = constant(type, bits);
    created_constant_ = no_index;  // the driver announces it
    return v;
  }

 private:
  // A uniqued constant's key: its type and bits.
  struct ConstantKey {
    std::uint32_t type;
    std::uint64_t bits;
    friend bool operator==(const ConstantKey&, const ConstantKey&) = default;
  };
  struct ConstantKeyHash {
    std::size_t operator()(const ConstantKey& k) const {
      return static_cast<std::size_t>(k.bits * 0x9E3779B97F4A7C15ull ^ (std::uint64_t{k.type} << 1));
    }
  };
  [[nodiscard]] static ConstantKey key(Type type, std::uint64_t bits) { return {type.raw(), bits}; }
  // The constants leading the entry block are where uniqued constants live: adopt them (the
  // first of each type and value).
  void adopt_leading_constants() {
    if (fn_->blocks.empty()) return;
    for (OpId op = fn_->blocks[0].first_op; op != no_index && is(fn_->ops[op].code, BuiltinOp::constant);
         op = fn_->ops[op].next)
      constants_.try_emplace(key(fn_->values[fn_->ops[op].result_begin].type, fn_->ops[op].imm), fn_->ops[op].result_begin);
  }
  // Forgets the uniqued constants whose ops were erased.
  void drop_erased_constants() {
    std::erase_if(constants_, [this](const auto& entry) {
      const ValueData& v = fn_->values[entry.second];
      return v.owner == no_index || fn_->ops[v.owner].erased;
    });
  }
  // Compacts the body (`compact_body`) when at least a third of the op slots hold erased ops;
  // true if it did. The use lists are then empty, for `collect_users` to make anew. Live ops
  // are counted without a walk: those at the last `collect_users`, plus the ops made since,
  // minus those the rewriter erased since. (A function with regions is not compacted: see
  // `compact_body`.)
  bool compact_if_sparse() {
    if (!fn_->regions.empty()) return false;
    const std::size_t live = live_ops_ + (fn_->ops.size() - op_slots_) - (rewriter_.erased_count() - erased_);
    if (3 * live > 2 * fn_->ops.size()) return false;
    drop_erased_constants();  // before their values are dropped
    // Their memory goes first, so that the compacted arrays do not add to the peak.
    use_lists_ = {};
    use_pool_ = {};
    use_index_ = {};
    slot_owner_ = {};
    const std::optional<BodyRenumbering> renumbering = compact_body(*fn_);
    if (!renumbering) return false;
    for (auto& entry : constants_) entry.second = renumbering->value[entry.second];
    // Counted afresh: no op is erased in the compacted body.
    live_ops_ = fn_->ops.size();
    op_slots_ = fn_->ops.size();
    erased_ = rewriter_.erased_count();
    ++compactions_;
    return true;
  }
  // One use list per value, from the operands of the live ops, in op order. The first time,
  // each list gets exactly the room its uses take, side by side in the pool (a count, then a
  // fill); after that (the driver rebuilds the lists after every region simplification) each
  // list is emptied in its place, keeping its room, and refilled in one pass.
  void collect_users() {
    const auto live = [this](OpId op) { return !fn_->ops[op].erased && !fn_->in_erased_region(fn_->ops[op].block); };
    live_ops_ = 0;
    if (use_lists_.empty()) {
      use_lists_.assign(fn_->values.size(), UseList{});
      for (OpId op = 0; op < fn_->ops.size(); ++op) {
        if (!live(op)) continue;
        const OpData& o = fn_->ops[op];
        for (std::uint32_t k = 0; k < o.operand_count; ++k) ++use_lists_[fn_->operands[o.operand_begin + k]].capacity;
      }
      std::uint32_t begin = 0;
      for (UseList& list : use_lists_) {
        list.begin = begin;
        begin += list.capacity;
      }
      use_pool_.assign(begin, 0);
    } else {
      for (UseList& list : use_lists_) list.size = 0;
    }
    grow();
    for (OpId op = 0; op < fn_->ops.size(); ++op) {
      if (!live(op)) continue;
      add_uses(op);
      ++live_ops_;
    }
    op_slots_ = fn_->ops.size();
    erased_ = rewriter_.erased_count();
  }
  void grow() {
    if (use_lists_.size() < fn_->values.size()) use_lists_.resize(fn_->values.size(), UseList{});
    if (use_index_.size() < fn_->operands.size()) {
      use_index_.resize(fn_->operands.size());
      slot_owner_.resize(fn_->operands.size());
    }
  }
  // The operand slots of `v`'s uses (valid until the next mutation).
  [[nodiscard]] std::span<const std::uint32_t> use_slots(ValueId v) const {
    const UseList& list = use_lists_[v];
    return {use_pool_.data() + list.begin, list.size};
  }
  // The use in operand slot `slot` (an index into the function's operand array) of `op`.
  void add_use(OpId op, std::uint32_t slot) {
    const ValueId v = fn_->operands[slot];
    UseList& list = use_lists_[v];
    if (list.size == list.capacity) {  // full: the list moves to the pool's end, with twice the room
      const std::uint32_t capacity = std::max<std::uint32_t>(4, 2 * list.capacity);
      if (use_pool_.size() + capacity > UINT32_MAX) throw std::length_error("RewriteAdapter: more than 2^32 uses");
      const auto moved = static_cast<std::uint32_t>(use_pool_.size());
      use_pool_.resize(use_pool_.size() + capacity);
      std::copy_n(use_pool_.data() + list.begin, list.size, use_pool_.data() + moved);
      list.begin = moved;
      list.capacity = capacity;
    }
    use_index_[slot] = list.size;
    slot_owner_[slot] = op;
    use_pool_[list.begin + list.size++] = slot;
  }
  void add_uses(OpId op) {
    const OpData& o = fn_->ops[op];
    for (std::uint32_t k = 0; k < o.operand_count; ++k) add_use(op, o.operand_begin + k);
  }
  // O(1): the last use of the value takes the removed one's place.
  void remove_use(std::uint32_t slot) {
    UseList& list = use_lists_[fn_->operands[slot]];
    std::uint32_t* slots = use_pool_.data() + list.begin;
    const std::uint32_t i = use_index_[slot];
    slots[i] = slots[list.size - 1];
    use_index_[slots[i]] = i;
    --list.size;
  }
  void drop_uses(OpId op) {
    const OpData& o = fn_->ops[op];
    for (std::uint32_t k = 0; k < o.operand_count; ++k) remove_use(o.operand_begin + k);
  }

  Function* fn_;
  const OpRegistry* registry_;
  Rewriter rewriter_;
  // A value's uses: `size` operand slots from `begin` in `use_pool_`, with room for `capacity`.
  struct UseList {
    std::uint32_t begin = 0;
    std::uint32_t size = 0;
    std::uint32_t capacity = 0;
  };
  BodyArray<UseList> use_lists_;        // by value
  BodyArray<std::uint32_t> use_pool_;   // the lists' operand slots
  std::vector<std::uint32_t> moving_slots_;  // scratch of `replace_all_uses`
  RegionSimplificationScratch simplification_scratch_;  // `simplify_regions`' arrays, from one sweep to the next
  BodyArray<std::uint32_t> use_index_;  // by operand slot of a live op: its entry in its value's list
  BodyArray<OpId> slot_owner_;          // by operand slot of a live op: the op
  std::unordered_map<ConstantKey, ValueId, ConstantKeyHash> constants_;  // uniqued constants of the entry block
  OpId created_constant_ = no_index;
  std::size_t live_ops_ = 0;     // live ops at the last `collect_users`
  std::size_t op_slots_ = 0;     // op slots then
  std::uint64_t erased_ = 0;     // the rewriter's erasures then
  std::size_t compactions_ = 0;  // bodies compacted by `simplify_regions`
  // Scratch of `fold`: the operands' bits, which of them are known, the results' bits.
  std::vector<std::uint64_t> fold_bits_;
  std::vector<const std::uint64_t*> fold_known_;
  std::vector<std::uint64_t> fold_results_;
};

static_assert(kildall::rewrite::FoldableIr<RewriteAdapter> && kildall::rewrite::IndexedOps<RewriteAdapter> &&
              kildall::rewrite::RegionSimplifyingIr<RewriteAdapter>);

/// Folds `op` as the greedy driver does, announcing every change through `rewriter` (for a
/// pattern that folds what it would otherwise rewrite, as MLIR's dialect conversion legalizes
/// by folding first): replaced by existing values and uniqued constants, or changed in place.
inline kildall::rewrite::FoldOutcome fold_op(kildall::rewrite::Rewriter<RewriteAdapter>& rewriter, OpId op) {
  using kildall::rewrite::FoldOutcome;
  RewriteAdapter& ir = rewriter.ir();
  std::vector<kildall::rewrite::FoldedResult<ValueId, std::uint64_t>> folded;
  const FoldOutcome outcome = ir.fold(op, folded);
  if (outcome == FoldOutcome::updated_in_place) rewriter.modify_in_place(op, [] {});
  if (outcome != FoldOutcome::folded) return outcome;
  std::vector<ValueId> values;
  std::size_t i = 0;
  for (const ValueId result : ir.results(op)) {
    const auto& f = folded[i++];
    if (f.is_value()) {
      values.push_back(std::get<0>(f.folded));
      continue;
    }
    values.push_back(ir.constant(ir.function().values[result].type, std::get<1>(f.folded)));
    if (const OpId made = ir.take_created_constant(); made != no_index) rewriter.inserted(made);
  }
  rewriter.replace_op(op, values);
  return FoldOutcome::folded;
}

}  // namespace kildall::ir
