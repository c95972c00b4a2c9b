#pragma once
/// \file
/// `Environment<K, L, Absent, KeyIndex>`: a persistent map from integer keys to
/// lattice values, ordered pointwise, with structural sharing.
///
/// Method: big-endian Patricia trees, Okasaki & Gill, "Fast Mergeable Integer
/// Maps" (ML Workshop 1998), as used for abstract environments by SPARTA's
/// `PatriciaTreeMapAbstractEnvironment` and by Astrée. A key is read as a
/// 64-bit index; a branch node splits its keys on their highest differing bit,
/// so the tree's shape depends only on the set of stored keys (canonical), it
/// is at most 65 nodes deep, and it iterates in increasing index order.
///
/// Nodes are immutable and reference counted (an intrusive atomic count, as
/// thread-safe as `std::shared_ptr`); an update copies the path from the root
/// to one leaf and shares everything else, so copying an environment is O(1)
/// and a version that differs from another in one key costs O(log n) nodes.
/// The binary operations (join, meet, widen, narrow, leq, ==) compare node
/// pointers first and skip every physically shared subtree: two versions that
/// differ in k keys combine in O(k log n), and an environment joined with
/// itself returns at once. Results reuse the nodes of either operand wherever
/// a subtree comes out unchanged, so sharing survives the operations.
///
/// Canonical form: a key whose value equals the absent value (the policy's
/// default) is never stored, so two environments are equal exactly when their
/// trees are structurally equal.
///
/// Policies (see `AbsentIsBottom`, `AbsentIsTop` and docs/lattices.md):
/// absent keys hold `L::bottom()` (environments of facts, MapLattice's
/// convention: join is a union of keys) or `L::top()` (SPARTA's
/// environments: join is an intersection of keys, plus a distinguished
/// bottom element, "unreachable").

#include <atomic>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <ostream>
#include <type_traits>
#include <utility>
#include <vector>

#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>

namespace kildall {

/// Environment policy: an absent key holds `L::bottom()`. The environment is
/// an "environment of facts": join keeps the union of the stored keys, meet
/// their intersection. Models `HasBottom` (the empty environment) but not
/// `HasTop` (every key at top is not a finite exception to bottom).
struct AbsentIsBottom {};

/// Environment policy: an absent key holds `L::top()` (SPARTA's abstract
/// environments): join keeps the intersection of the stored keys, meet their
/// union. `top()` is the empty environment; `bottom()` is a distinguished
/// element (every key at bottom: "unreachable"), which is also what default
/// construction gives. Needs `L` to have both a bottom and a top.
struct AbsentIsTop {};

/// The default key-to-index mapping: integral and enumeration keys, read as
/// 64-bit unsigned numbers so that iteration follows the keys' own order
/// (signed keys are offset by 2^63: negative keys come first).
template <class K>
  requires std::is_integral_v<K> || std::is_enum_v<K>
struct IntegerKeyIndex {
  /// The index of `key`.
  [[nodiscard]] constexpr std::uint64_t operator()(const K& key) const noexcept {
    if constexpr (std::is_enum_v<K>) {
      return IntegerKeyIndex<std::underlying_type_t<K>>{}(static_cast<std::underlying_type_t<K>>(key));
    } else if constexpr (std::is_signed_v<K>) {
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(key)) ^ (std::uint64_t{1} << 63);
    } else {
      return static_cast<std::uint64_t>(key);
    }
  }
};

/// A key-to-index mapping usable by `Environment`: a stateless, default
/// constructible function object giving each key a 64-bit index. It must be
/// injective on the keys used (two different keys, two different indices);
/// it is called on every lookup and at every leaf an operation visits, so it
/// should be cheap (a field read, a cast).
template <class I, class K>
concept KeyIndexFor = std::default_initializable<I> && requires(const I& index, const K& key) {
  { index(key) } noexcept -> std::same_as<std::uint64_t>;
};

namespace detail::environment {

/// The highest differing bit of two different indices (its position).
[[nodiscard]] inline std::uint8_t branching_bit(std::uint64_t a, std::uint64_t b) noexcept {
  return static_cast<std::uint8_t>(std::bit_width(a ^ b) - 1);
}

/// The bits of `index` strictly above position `bit` (the prefix a branch on `bit` shares).
[[nodiscard]] inline std::uint64_t prefix_above(std::uint64_t index, std::uint8_t bit) noexcept {
  return bit == 63 ? 0 : index & (~std::uint64_t{0} << (bit + 1));
}

/// An open-addressing set of pointers (node statistics over many versions).
class PointerSet {
 public:
  /// Inserts `p`; returns false when it was already present.
  bool insert(const void* p) {
    if ((count_ + 1) * 2 > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = slot_of(p, mask);; i = (i + 1) & mask) {
      if (slots_[i] == p) return false;
      if (slots_[i] == nullptr) {
        slots_[i] = p;
        ++count_;
        return true;
      }
    }
  }

 private:
  [[nodiscard]] static std::size_t slot_of(const void* p, std::size_t mask) noexcept {
    const auto x = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
    return static_cast<std::size_t>((x * 0x9E3779B97F4A7C15ULL) >> 17) & mask;
  }
  void grow() {
    std::vector<const void*> old(slots_.empty() ? 64 : slots_.size() * 2, nullptr);
    old.swap(slots_);
    count_ = 0;
    for (const void* p : old)
      if (p != nullptr) insert(p);
  }

  std::vector<const void*> slots_;
  std::size_t count_ = 0;
};

}  // namespace detail::environment

/// Pointwise lattice of maps from keys `K` to values `L`, stored as a
/// persistent big-endian Patricia tree (see the file comment).
///
/// * `K`: an integral or enumeration type (dense indices: SSA value numbers,
///   variable numbers), or any regular type with a `KeyIndex` mapping it
///   injectively to `std::uint64_t`. Iteration is in increasing index order.
/// * `L`: the value lattice; needs `HasBottom`, and `HasTop` under `AbsentIsTop`.
/// * `Absent`: `AbsentIsBottom` (default) or `AbsentIsTop`, the value of a key
///   that is not stored.
///
/// Models `JoinSemiLattice` and `HasBottom`; `HasTop` under `AbsentIsTop`;
/// `MeetSemiLattice`, `WidenableLattice`, `NarrowableLattice` when `L` does.
/// Every operation is pointwise, with these precisions at absent keys and
/// conventions (docs/lattices.md has the table):
///
/// * `AbsentIsBottom`: join keeps keys stored on either side (⊥ is join's
///   identity), meet keeps keys stored on both; widen and narrow apply `L`'s
///   operator at every key stored on either side, against `L::bottom()` where
///   the key is absent on one side.
/// * `AbsentIsTop`: join and widen keep keys stored on both sides (a key
///   absent on one side is top: `x ⊔ ⊤ = x ∇ ⊤ = ⊤`); meet keeps keys stored
///   on either side; narrow applies `L`'s operator at every key stored on
///   either side, against `L::top()`. The bottom element ("unreachable", every
///   key at bottom) is the identity of join, absorbs meet, widens pointwise
///   (`⊥ ∇ m` applies `L::bottom().widen(v)` to `m`'s keys), and narrowing
///   from it or by it gives it. `set`, `erase` and `join_at` leave it as it
///   is (an unreachable state stays unreachable, as in SPARTA).
///
/// Shared subtrees are skipped, which assumes `x ∇ x == x` for `L`'s
/// widening (the law kit cannot check it; every widening in kildall, and any
/// "join, then extrapolate the bounds that moved", satisfies it); the other
/// operators are idempotent by their laws.
///
/// Thread safety: as for `std::shared_ptr`: several threads may read and copy
/// the same environment, and different environments sharing nodes may be
/// modified by different threads; one environment modified by one thread must
/// not be accessed by another at the same time. No global mutable state (the
/// absent values are function-local constants).
template <class K, class L, class Absent = AbsentIsBottom, class KeyIndex = IntegerKeyIndex<K>>
  requires std::regular<K> && HasBottom<L> && KeyIndexFor<KeyIndex, K> &&
           (std::same_as<Absent, AbsentIsBottom> || (std::same_as<Absent, AbsentIsTop> && HasTop<L>))
class Environment {
  static constexpr bool absent_is_top = std::same_as<Absent, AbsentIsTop>;

  // --- nodes -------------------------------------------------------------
  struct Node {
    mutable std::atomic<std::uint32_t> refs{1};
    const bool is_leaf;
    const std::uint8_t bit;  // branches: the branching bit's position
    Node(bool leaf, std::uint8_t b) noexcept : is_leaf(leaf), bit(b) {}
  };
  struct Leaf : Node {
    std::pair<const K, L> entry;
    Leaf(const K& key, L value) : Node(true, 0), entry(key, std::move(value)) {}
  };
  struct Branch : Node {
    std::uint64_t prefix;  // the index bits above `bit`, shared by every key below
    std::size_t size;      // number of leaves below
    const Node* child[2];  // keys with bit `bit` clear, set; both non-null
    Branch(std::uint64_t p, std::uint8_t b, std::size_t n, const Node* zero, const Node* one) noexcept
        : Node(false, b), prefix(p), size(n), child{zero, one} {}
  };

  [[nodiscard]] static const Leaf* as_leaf(const Node* n) noexcept { return static_cast<const Leaf*>(n); }
  [[nodiscard]] static const Branch* as_branch(const Node* n) noexcept { return static_cast<const Branch*>(n); }
  [[nodiscard]] static std::uint64_t index_of(const K& key) noexcept { return KeyIndex{}(key); }
  [[nodiscard]] static std::uint64_t leaf_index(const Node* n) noexcept { return index_of(as_leaf(n)->entry.first); }
  /// A leaf's index or a branch's prefix: agrees with every key below on the bits above the node.
  [[nodiscard]] static std::uint64_t prefix_of(const Node* n) noexcept {
    return n->is_leaf ? leaf_index(n) : as_branch(n)->prefix;
  }
  [[nodiscard]] static std::size_t size_of(const Node* n) noexcept {
    return n == nullptr ? 0 : n->is_leaf ? 1 : as_branch(n)->size;
  }
  /// True when `index` lies under branch `b` (shares its prefix).
  [[nodiscard]] static bool under(std::uint64_t index, const Branch* b) noexcept {
    return detail::environment::prefix_above(index, b->bit) == b->prefix;
  }
  [[nodiscard]] static unsigned side_of(std::uint64_t index, const Node* b) noexcept {
    return static_cast<unsigned>((index >> b->bit) & 1U);
  }

  static void retain(const Node* n) noexcept {
    if (n != nullptr) n->refs.fetch_add(1, std::memory_order_relaxed);
  }
  static void release(const Node* n) noexcept {
    if (n != nullptr && n->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      if (n->is_leaf) {
        delete as_leaf(n);
      } else {
        const Branch* b = as_branch(n);
        release(b->child[0]);
        release(b->child[1]);
        delete b;
      }
    }
  }

  /// An owning node pointer (one reference).
  class Ref {
   public:
    Ref() noexcept = default;
    /// Takes ownership of a fresh node (reference count 1).
    [[nodiscard]] static Ref adopt(const Node* n) noexcept { return Ref(n); }
    /// Takes one more reference to `n`.
    [[nodiscard]] static Ref share(const Node* n) noexcept {
      retain(n);
      return Ref(n);
    }
    Ref(const Ref& o) noexcept : p_(o.p_) { retain(p_); }
    Ref(Ref&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
    Ref& operator=(Ref o) noexcept {
      std::swap(p_, o.p_);
      return *this;
    }
    ~Ref() { release(p_); }
    [[nodiscard]] const Node* get() const noexcept { return p_; }
    /// The owned pointer itself, for updates in place (`insert_at`, `remove_at`).
    [[nodiscard]] const Node*& slot() noexcept { return p_; }
    /// Gives up ownership (the caller now holds the reference).
    [[nodiscard]] const Node* leak() noexcept { return std::exchange(p_, nullptr); }

   private:
    explicit Ref(const Node* p) noexcept : p_(p) {}
    const Node* p_ = nullptr;
  };

  [[nodiscard]] static Ref new_leaf(const K& key, L value) {
    return Ref::adopt(new Leaf(key, std::move(value)));
  }
  /// A branch on `bit` with prefix `prefix` over two non-empty subtrees (zero side first).
  [[nodiscard]] static Ref new_branch(std::uint64_t prefix, std::uint8_t bit, Ref zero, Ref one) {
    const std::size_t n = size_of(zero.get()) + size_of(one.get());
    auto* b = new Branch(prefix, bit, n, zero.get(), one.get());
    (void)zero.leak();
    (void)one.leak();
    return Ref::adopt(b);
  }
  /// Joins two non-empty trees whose key ranges are disjoint: `ia`, `ib` are
  /// `prefix_of` their roots and differ above both roots' branching bits.
  [[nodiscard]] static Ref link(Ref a, std::uint64_t ia, Ref b, std::uint64_t ib) {
    if (a.get() == nullptr) return b;
    if (b.get() == nullptr) return a;
    const std::uint8_t bit = detail::environment::branching_bit(ia, ib);
    const std::uint64_t prefix = detail::environment::prefix_above(ia, bit);
    if (((ia >> bit) & 1U) == 0) return new_branch(prefix, bit, std::move(a), std::move(b));
    return new_branch(prefix, bit, std::move(b), std::move(a));
  }
  /// The tree with `shape`'s prefix and bit over `zero`/`one`: the one
  /// remaining side when the other is empty, `reuse1` or `reuse2` when they
  /// already have exactly these children, else a new branch.
  [[nodiscard]] static Ref rebuild(const Branch* shape, Ref zero, Ref one, const Node* reuse1,
                                   const Node* reuse2 = nullptr) {
    if (zero.get() == nullptr) return one;
    if (one.get() == nullptr) return zero;
    for (const Node* r : {reuse1, reuse2}) {
      if (r != nullptr && !r->is_leaf && as_branch(r)->child[0] == zero.get() && as_branch(r)->child[1] == one.get())
        return Ref::share(r);
    }
    return new_branch(shape->prefix, shape->bit, std::move(zero), std::move(one));
  }

  // --- absent values -----------------------------------------------------
  [[nodiscard]] static const L& absent_value() {
    if constexpr (absent_is_top) {
      static const L top = L::top();
      return top;
    } else {
      static const L bottom = L::bottom();
      return bottom;
    }
  }
  [[nodiscard]] static const L& bottom_value() {
    static const L bottom = L::bottom();
    return bottom;
  }
  [[nodiscard]] static bool is_absent_value(const L& v) {
    if constexpr (absent_is_top) {
      return v.is_top();
    } else {
      return v.is_bottom();
    }
  }

  // --- single-key updates --------------------------------------------------
  /// `t` with `key` bound to `value` (not the absent value); `t` itself when already so.
  [[nodiscard]] static Ref insert(const Node* t, std::uint64_t idx, const K& key, const L& value) {
    if (t == nullptr) return new_leaf(key, value);
    if (t->is_leaf) {
      const std::uint64_t ti = leaf_index(t);
      if (ti == idx) return as_leaf(t)->entry.second == value ? Ref::share(t) : new_leaf(key, value);
      return link(new_leaf(key, value), idx, Ref::share(t), ti);
    }
    const Branch* b = as_branch(t);
    if (!under(idx, b)) return link(new_leaf(key, value), idx, Ref::share(t), b->prefix);
    const unsigned s = side_of(idx, b);
    Ref c = insert(b->child[s], idx, key, value);
    if (c.get() == b->child[s]) return Ref::share(t);
    Ref other = Ref::share(b->child[1 - s]);
    return s == 0 ? new_branch(b->prefix, b->bit, std::move(c), std::move(other))
                  : new_branch(b->prefix, b->bit, std::move(other), std::move(c));
  }
  /// `t` without `idx`; `t` itself when it is not stored.
  [[nodiscard]] static Ref remove(const Node* t, std::uint64_t idx) {
    if (t == nullptr) return {};
    if (t->is_leaf) return leaf_index(t) == idx ? Ref() : Ref::share(t);
    const Branch* b = as_branch(t);
    if (!under(idx, b)) return Ref::share(t);
    const unsigned s = side_of(idx, b);
    Ref c = remove(b->child[s], idx);
    if (c.get() == b->child[s]) return Ref::share(t);
    Ref other = Ref::share(b->child[1 - s]);
    if (c.get() == nullptr) return other;
    return s == 0 ? new_branch(b->prefix, b->bit, std::move(c), std::move(other))
                  : new_branch(b->prefix, b->bit, std::move(other), std::move(c));
  }
  /// True when `n` has no other owner than the one reaching it: reached from
  /// an environment through owners that are all unique, nobody else can see it
  /// (the acquire pairs with the release of the last other owner's decrement).
  [[nodiscard]] static bool unique(const Node* n) noexcept { return n->refs.load(std::memory_order_acquire) == 1; }
  /// Replaces the tree owned by `slot` by `t` with `key` bound to `value`.
  /// Nodes owned by this environment alone are updated in place (a
  /// transfer function's successive `set`s copy each path once); from the
  /// first shared node down, the path is copied.
  static void insert_at(const Node*& slot, std::uint64_t idx, const K& key, const L& value) {
    const Node* t = slot;
    if (t != nullptr && unique(t)) {
      if (t->is_leaf && leaf_index(t) == idx) {
        const_cast<Leaf*>(as_leaf(t))->entry.second = value;
        return;
      }
      if (!t->is_leaf && under(idx, as_branch(t))) {
        auto* b = const_cast<Branch*>(as_branch(t));
        insert_at(b->child[side_of(idx, b)], idx, key, value);
        b->size = size_of(b->child[0]) + size_of(b->child[1]);
        return;
      }
    }
    Ref r = insert(t, idx, key, value);
    release(t);
    slot = r.leak();
  }
  /// Removes `idx` from the tree owned by `slot`, in place where unique (see `insert_at`).
  static void remove_at(const Node*& slot, std::uint64_t idx) {
    const Node* t = slot;
    if (t != nullptr && !t->is_leaf && unique(t)) {
      auto* b = const_cast<Branch*>(as_branch(t));
      if (!under(idx, b)) return;
      const unsigned s = side_of(idx, b);
      remove_at(b->child[s], idx);
      if (b->child[s] == nullptr) {  // the branch collapses into its other child
        slot = std::exchange(b->child[1 - s], nullptr);
        release(t);
        return;
      }
      b->size = size_of(b->child[0]) + size_of(b->child[1]);
      return;
    }
    Ref r = remove(t, idx);
    release(t);
    slot = r.leak();
  }
  [[nodiscard]] static const Leaf* find_leaf(const Node* t, std::uint64_t idx) noexcept {
    if (t == nullptr) return nullptr;
    while (!t->is_leaf) t = as_branch(t)->child[side_of(idx, t)];
    return leaf_index(t) == idx ? as_leaf(t) : nullptr;
  }

  // --- merging -------------------------------------------------------------
  /// What a merge does with a subtree whose keys are stored on one side only.
  enum class Lone { keep, drop, map };

  /// The leaf for `key` once its value became `v`: `a` or `b` when `v` equals
  /// theirs (kept shared), none when `v` is the absent value, else a new leaf.
  [[nodiscard]] static Ref settle(const Leaf* a, bool a_unchanged, const Leaf* b, L&& v) {
    if (a_unchanged) return Ref::share(a);
    if (b != nullptr && v == b->entry.second) return Ref::share(b);
    if (is_absent_value(v)) return {};
    return new_leaf(a != nullptr ? a->entry.first : b->entry.first, std::move(v));
  }

  /// Applies `op(v, other)` to every value of `t`; `t` itself when nothing changes.
  template <class Op>
  [[nodiscard]] static Ref map_mine(const Node* t, const L& other, const Op& op) {
    if (t == nullptr) return {};
    if (t->is_leaf) {
      L v = as_leaf(t)->entry.second;
      const bool same = !is_changed(op(v, other));
      return settle(as_leaf(t), same, nullptr, std::move(v));
    }
    const Branch* b = as_branch(t);
    return rebuild(b, map_mine(b->child[0], other, op), map_mine(b->child[1], other, op), t);
  }
  /// Replaces every value `y` of `t` by `op(mine, y)`; `t` itself when nothing changes.
  template <class Op>
  [[nodiscard]] static Ref map_theirs(const L& mine, const Node* t, const Op& op) {
    if (t == nullptr) return {};
    if (t->is_leaf) {
      L v = mine;
      (void)op(v, as_leaf(t)->entry.second);
      return settle(nullptr, false, as_leaf(t), std::move(v));
    }
    const Branch* b = as_branch(t);
    return rebuild(b, map_theirs(mine, b->child[0], op), map_theirs(mine, b->child[1], op), t);
  }

  /// The merge of trees `a` (this side) and `b` (the other side) under `op`:
  /// `op(x, y)` at keys stored on both, `OnlyA`/`OnlyB` for keys stored on one
  /// side (`map`: `op` against the absent value). Returns `a` itself when the
  /// result equals it, and reuses `b`'s nodes where the result equals them.
  template <Lone OnlyA, Lone OnlyB, class Op>
  struct Merge {
    const Op& op;

    [[nodiscard]] Ref only_a(const Node* t) const {
      if constexpr (OnlyA == Lone::keep) {
        return Ref::share(t);
      } else if constexpr (OnlyA == Lone::drop) {
        return {};
      } else {
        return map_mine(t, absent_value(), op);
      }
    }
    [[nodiscard]] Ref only_b(const Node* t) const {
      if constexpr (OnlyB == Lone::keep) {
        return Ref::share(t);
      } else if constexpr (OnlyB == Lone::drop) {
        return {};
      } else {
        return map_theirs(absent_value(), t, op);
      }
    }
    [[nodiscard]] Ref both_leaves(const Leaf* a, const Leaf* b) const {
      L v = a->entry.second;
      const bool same = !is_changed(op(v, b->entry.second));
      return settle(a, same, b, std::move(v));
    }

    [[nodiscard]] Ref operator()(const Node* a, const Node* b) const {
      if (a == b) return Ref::share(a);  // op(x, x) == x: a shared subtree is skipped
      if (a == nullptr) return only_b(b);
      if (b == nullptr) return only_a(a);
      if (a->is_leaf && b->is_leaf) {
        const std::uint64_t ia = leaf_index(a), ib = leaf_index(b);
        if (ia == ib) return both_leaves(as_leaf(a), as_leaf(b));
        return link(only_a(a), ia, only_b(b), ib);
      }
      if (a->is_leaf) {
        const std::uint64_t ia = leaf_index(a);
        const Branch* bb = as_branch(b);
        if (!under(ia, bb)) return link(only_a(a), ia, only_b(b), bb->prefix);
        if (side_of(ia, bb) == 0) return rebuild(bb, (*this)(a, bb->child[0]), only_b(bb->child[1]), b);
        return rebuild(bb, only_b(bb->child[0]), (*this)(a, bb->child[1]), b);
      }
      const Branch* ba = as_branch(a);
      if (b->is_leaf) {
        const std::uint64_t ib = leaf_index(b);
        if (!under(ib, ba)) return link(only_a(a), ba->prefix, only_b(b), ib);
        if (side_of(ib, ba) == 0) return rebuild(ba, (*this)(ba->child[0], b), only_a(ba->child[1]), a);
        return rebuild(ba, only_a(ba->child[0]), (*this)(ba->child[1], b), a);
      }
      const Branch* bb = as_branch(b);
      if (ba->bit == bb->bit && ba->prefix == bb->prefix)
        return rebuild(ba, (*this)(ba->child[0], bb->child[0]), (*this)(ba->child[1], bb->child[1]), a, b);
      if (ba->bit > bb->bit && under(bb->prefix, ba)) {  // b lies under one child of a
        if (side_of(bb->prefix, ba) == 0) return rebuild(ba, (*this)(ba->child[0], b), only_a(ba->child[1]), a);
        return rebuild(ba, only_a(ba->child[0]), (*this)(ba->child[1], b), a);
      }
      if (bb->bit > ba->bit && under(ba->prefix, bb)) {  // a lies under one child of b
        if (side_of(ba->prefix, bb) == 0) return rebuild(bb, (*this)(a, bb->child[0]), only_b(bb->child[1]), b);
        return rebuild(bb, only_b(bb->child[0]), (*this)(a, bb->child[1]), b);
      }
      return link(only_a(a), ba->prefix, only_b(b), bb->prefix);
    }
  };

  template <Lone OnlyA, Lone OnlyB, class Op>
  [[nodiscard]] ChangeResult merge_with(const Environment& other, const Op& op) {
    Ref result = Merge<OnlyA, OnlyB, Op>{op}(root_.get(), other.root_.get());
    if (result.get() == root_.get()) return ChangeResult::unchanged;
    root_ = std::move(result);
    return ChangeResult::changed;
  }

  /// Pointwise order of two trees; `lone_a_ok`/`lone_b_ok`: whether a key
  /// stored on one side only satisfies the order (its value against the absent one).
  template <bool LoneAOk, bool LoneBOk>
  [[nodiscard]] static bool tree_leq(const Node* a, const Node* b) {
    if (a == b) return true;
    if (a == nullptr) return LoneBOk;
    if (b == nullptr) return LoneAOk;
    if (a->is_leaf && b->is_leaf) {
      if (leaf_index(a) == leaf_index(b)) return as_leaf(a)->entry.second.leq(as_leaf(b)->entry.second);
      return LoneAOk && LoneBOk;
    }
    if (a->is_leaf) {
      const Branch* bb = as_branch(b);
      const std::uint64_t ia = leaf_index(a);
      if (!LoneBOk || !under(ia, bb)) return LoneAOk && LoneBOk;
      return tree_leq<LoneAOk, LoneBOk>(a, bb->child[side_of(ia, bb)]);
    }
    const Branch* ba = as_branch(a);
    if (b->is_leaf) {
      const std::uint64_t ib = leaf_index(b);
      if (!LoneAOk || !under(ib, ba)) return LoneAOk && LoneBOk;
      return tree_leq<LoneAOk, LoneBOk>(ba->child[side_of(ib, ba)], b);
    }
    const Branch* bb = as_branch(b);
    if (ba->bit == bb->bit && ba->prefix == bb->prefix)
      return tree_leq<LoneAOk, LoneBOk>(ba->child[0], bb->child[0]) &&
             tree_leq<LoneAOk, LoneBOk>(ba->child[1], bb->child[1]);
    if (ba->bit > bb->bit && under(bb->prefix, ba))
      return LoneAOk && tree_leq<LoneAOk, LoneBOk>(ba->child[side_of(bb->prefix, ba)], b);
    if (bb->bit > ba->bit && under(ba->prefix, bb))
      return LoneBOk && tree_leq<LoneAOk, LoneBOk>(a, bb->child[side_of(ba->prefix, bb)]);
    return LoneAOk && LoneBOk;
  }

  /// Structural equality (canonical trees: same keys give the same shape).
  [[nodiscard]] static bool tree_equal(const Node* a, const Node* b) {
    if (a == b) return true;
    if (a == nullptr || b == nullptr || a->is_leaf != b->is_leaf) return false;
    if (a->is_leaf) {
      return leaf_index(a) == leaf_index(b) && as_leaf(a)->entry.second == as_leaf(b)->entry.second;
    }
    const Branch* ba = as_branch(a);
    const Branch* bb = as_branch(b);
    return ba->bit == bb->bit && ba->prefix == bb->prefix && ba->size == bb->size &&
           tree_equal(ba->child[0], bb->child[0]) && tree_equal(ba->child[1], bb->child[1]);
  }

  template <class F>
  static void visit(const Node* t, F& f) {
    if (t == nullptr) return;
    if (t->is_leaf) {
      f(as_leaf(t)->entry.first, as_leaf(t)->entry.second);
      return;
    }
    visit(as_branch(t)->child[0], f);
    visit(as_branch(t)->child[1], f);
  }

 public:
  /// The key type.
  using key_type = K;
  /// The value lattice.
  using mapped_type = L;
  /// A stored entry, as iteration yields it.
  using value_type = std::pair<const K, L>;
  /// The absent-key policy (`AbsentIsBottom` or `AbsentIsTop`).
  using absent_policy = Absent;
  /// The key-to-index mapping.
  using key_index = KeyIndex;

  /// Bottom: under `AbsentIsBottom` the empty environment, under
  /// `AbsentIsTop` the distinguished bottom element.
  Environment() = default;

  /// The environment storing the given entries (later entries win; entries
  /// at the absent value are not stored). Under `AbsentIsTop` the entries are
  /// exceptions to top (it starts from `top()`, not from bottom).
  Environment(std::initializer_list<std::pair<K, L>> entries) : bottom_(false) {
    for (const auto& [k, v] : entries) set(k, v);
  }

  /// The least element (every key at bottom).
  [[nodiscard]] static Environment bottom() { return Environment(); }
  /// The greatest element (every key at top): the empty environment under `AbsentIsTop`.
  [[nodiscard]] static Environment top()
    requires absent_is_top
  {
    Environment e;
    e.bottom_ = false;
    return e;
  }

  /// True for the least element.
  [[nodiscard]] bool is_bottom() const noexcept {
    if constexpr (absent_is_top) {
      return bottom_;
    } else {
      return root_.get() == nullptr;
    }
  }
  /// True for the greatest element (`AbsentIsTop` only).
  [[nodiscard]] bool is_top() const noexcept
    requires absent_is_top
  {
    return !bottom_ && root_.get() == nullptr;
  }

  /// The value of an absent key: `L::bottom()` or `L::top()` by policy.
  [[nodiscard]] static const L& absent() { return absent_value(); }

  /// The value of `key`, O(log n): the stored value, else the absent value
  /// (`L::bottom()` for the bottom element under `AbsentIsTop`).
  [[nodiscard]] const L& get(const K& key) const {
    if (is_bottom()) return bottom_value();
    const Leaf* leaf = find_leaf(root_.get(), index_of(key));
    return leaf != nullptr ? leaf->entry.second : absent_value();
  }
  /// The stored value of `key`, or null when `key` is absent.
  [[nodiscard]] const L* find(const K& key) const noexcept {
    const Leaf* leaf = find_leaf(root_.get(), index_of(key));
    return leaf != nullptr ? &leaf->entry.second : nullptr;
  }
  /// True when `key` is stored (its value differs from the absent value).
  [[nodiscard]] bool contains(const K& key) const noexcept { return find(key) != nullptr; }

  /// Binds `key` to `value`, O(log n): copies the path to `key` from its
  /// first node shared with another version down (nothing when `key` is
  /// already bound to `value`), and updates nodes this environment alone owns
  /// in place. A value equal to the absent value erases the key. No effect on
  /// the bottom element under `AbsentIsTop`. Like any modification, it
  /// invalidates references and iterators into this environment.
  void set(const K& key, const L& value) {
    if (absent_is_top && bottom_) return;
    if (is_absent_value(value)) {
      erase(key);
      return;
    }
    insert_at(root_.slot(), index_of(key), key, value);
  }
  /// Resets `key` to the absent value.
  void erase(const K& key) { remove_at(root_.slot(), index_of(key)); }
  /// Joins `value` into the value of `key`; returns whether it changed. No
  /// effect (and `unchanged`) on the bottom element under `AbsentIsTop`.
  [[nodiscard]] ChangeResult join_at(const K& key, const L& value) {
    if (absent_is_top && bottom_) return ChangeResult::unchanged;
    const L* current = find(key);
    L v = current != nullptr ? *current : absent_value();
    const ChangeResult r = v.join(value);
    if (is_changed(r)) set(key, v);
    return r;
  }
  /// Erases every key: bottom under `AbsentIsBottom`, top under `AbsentIsTop`.
  void clear() noexcept {
    root_ = Ref();
    bottom_ = false;
  }

  /// Number of stored keys, O(1).
  [[nodiscard]] std::size_t size() const noexcept { return size_of(root_.get()); }
  /// True when no key is stored: bottom under `AbsentIsBottom`; top or
  /// bottom under `AbsentIsTop`.
  [[nodiscard]] bool empty() const noexcept { return root_.get() == nullptr; }

  /// Calls `f(key, value)` on every stored entry, in increasing index order.
  template <class F>
  void for_each(F&& f) const {
    visit(root_.get(), f);
  }

  /// Forward iterator over the stored entries (`const std::pair<const K, L>&`),
  /// in increasing index order. Holds a stack of at most 64 nodes.
  class const_iterator {
   public:
    /// Forward iteration.
    using iterator_category = std::forward_iterator_tag;
    /// A stored entry.
    using value_type = std::pair<const K, L>;
    /// Distance between iterators.
    using difference_type = std::ptrdiff_t;
    /// Pointer to an entry.
    using pointer = const value_type*;
    /// Reference to an entry (into a leaf of the tree).
    using reference = const value_type&;

    /// The end iterator.
    const_iterator() noexcept = default;
    /// The current entry.
    [[nodiscard]] reference operator*() const noexcept { return as_leaf(leaf_)->entry; }
    /// The current entry.
    [[nodiscard]] pointer operator->() const noexcept { return &as_leaf(leaf_)->entry; }
    /// The next entry in index order.
    const_iterator& operator++() noexcept {
      leaf_ = depth_ == 0 ? nullptr : descend(stack_[--depth_]);
      return *this;
    }
    /// The next entry in index order (postfix).
    const_iterator operator++(int) noexcept {
      const_iterator old = *this;
      ++*this;
      return old;
    }
    /// Same position (iterators of the same environment).
    friend bool operator==(const const_iterator& a, const const_iterator& b) noexcept { return a.leaf_ == b.leaf_; }

   private:
    friend class Environment;
    explicit const_iterator(const Node* root) noexcept {
      if (root != nullptr) leaf_ = descend(root);  // in the body: descend fills stack_, initialized first
    }
    /// Walks to the leftmost leaf under `n`, pushing the right siblings.
    const Node* descend(const Node* n) noexcept {
      while (!n->is_leaf) {
        stack_[depth_++] = as_branch(n)->child[1];
        n = as_branch(n)->child[0];
      }
      return n;
    }
    const Node* leaf_ = nullptr;
    const Node* stack_[64] = {};
    unsigned depth_ = 0;
  };
  /// First stored entry.
  [[nodiscard]] const_iterator begin() const noexcept { return const_iterator(root_.get()); }
  /// End of iteration.
  [[nodiscard]] const_iterator end() const noexcept { return const_iterator(); }

  /// Pointwise join, in place; O(k log n) for versions that differ in k keys
  /// (shared subtrees are skipped), O(1) for an environment and its copy.
  [[nodiscard]] ChangeResult join(const Environment& other) {
    if constexpr (absent_is_top) {
      if (other.bottom_) return ChangeResult::unchanged;
      if (bottom_) {
        *this = other;
        return ChangeResult::changed;
      }
      return merge_with<Lone::drop, Lone::drop>(other, [](L& x, const L& y) { return x.join(y); });
    } else {
      return merge_with<Lone::keep, Lone::keep>(other, [](L& x, const L& y) { return x.join(y); });
    }
  }

  /// Pointwise meet, in place.
  [[nodiscard]] ChangeResult meet(const Environment& other)
    requires MeetSemiLattice<L>
  {
    if constexpr (absent_is_top) {
      if (bottom_) return ChangeResult::unchanged;
      if (other.bottom_) {
        *this = other;
        return ChangeResult::changed;
      }
      return merge_with<Lone::keep, Lone::keep>(other, [](L& x, const L& y) { return x.meet(y); });
    } else {
      return merge_with<Lone::drop, Lone::drop>(other, [](L& x, const L& y) { return x.meet(y); });
    }
  }

  /// Pointwise widening, in place (see the class comment for absent keys).
  [[nodiscard]] ChangeResult widen(const Environment& other)
    requires WidenableLattice<L>
  {
    const auto op = [](L& x, const L& y) { return x.widen(y); };
    if constexpr (absent_is_top) {
      if (other.bottom_) {
        if (bottom_) return ChangeResult::unchanged;
        Ref r = map_mine(root_.get(), bottom_value(), op);  // x ∇ ⊥ at stored keys; ⊤ ∇ ⊥ = ⊤ elsewhere
        if (r.get() == root_.get()) return ChangeResult::unchanged;
        root_ = std::move(r);
        return ChangeResult::changed;
      }
      if (bottom_) {  // ⊥ ∇ y at other's keys; ⊥ ∇ ⊤ = ⊤ elsewhere
        root_ = map_theirs(bottom_value(), other.root_.get(), op);
        bottom_ = false;
        return ChangeResult::changed;
      }
      return merge_with<Lone::drop, Lone::drop>(other, op);
    } else {
      return merge_with<Lone::map, Lone::map>(other, op);
    }
  }

  /// Pointwise narrowing, in place (for `other ⊑ *this`; see the class comment).
  [[nodiscard]] ChangeResult narrow(const Environment& other)
    requires NarrowableLattice<L>
  {
    const auto op = [](L& x, const L& y) { return x.narrow(y); };
    if constexpr (absent_is_top) {
      if (bottom_) return ChangeResult::unchanged;
      if (other.bottom_) {
        *this = other;
        return ChangeResult::changed;
      }
    }
    return merge_with<Lone::map, Lone::map>(other, op);
  }

  /// Pointwise order; O(k log n) for versions that differ in k keys.
  [[nodiscard]] bool leq(const Environment& other) const {
    if constexpr (absent_is_top) {
      if (bottom_) return true;
      if (other.bottom_) return false;
      return tree_leq<true, false>(root_.get(), other.root_.get());  // x ⊑ ⊤ always; ⊤ ⊑ y never (y stored: not ⊤)
    } else {
      return tree_leq<false, true>(root_.get(), other.root_.get());  // x ⊑ ⊥ never (x stored: not ⊥); ⊥ ⊑ y always
    }
  }

  /// Same function from keys to values; compares shared subtrees by pointer.
  friend bool operator==(const Environment& a, const Environment& b) {
    return a.bottom_ == b.bottom_ && a.size() == b.size() && tree_equal(a.root_.get(), b.root_.get());
  }

  /// True when both hold the very same tree (O(1); implies `==`).
  [[nodiscard]] bool shares_root_with(const Environment& other) const noexcept {
    return bottom_ == other.bottom_ && root_.get() == other.root_.get();
  }

  /// Memory held together by a set of environments, shared nodes counted once.
  struct NodeStats {
    std::size_t leaves = 0;    ///< Distinct leaf nodes.
    std::size_t branches = 0;  ///< Distinct branch nodes.
    std::size_t bytes = 0;     ///< Their `sizeof` total (without allocator overhead or memory owned by values).
  };
  /// Counts the distinct nodes reachable from `versions` (any range of
  /// `Environment`s), visiting each shared subtree once.
  template <class Range>
  [[nodiscard]] static NodeStats node_stats(const Range& versions) {
    NodeStats stats;
    detail::environment::PointerSet seen;
    std::vector<const Node*> stack;
    for (const Environment& e : versions) {
      if (e.root_.get() != nullptr) stack.push_back(e.root_.get());
      while (!stack.empty()) {
        const Node* n = stack.back();
        stack.pop_back();
        if (!seen.insert(n)) continue;
        if (n->is_leaf) {
          ++stats.leaves;
        } else {
          ++stats.branches;
          stack.push_back(as_branch(n)->child[0]);
          stack.push_back(as_branch(n)->child[1]);
        }
      }
    }
    stats.bytes = stats.leaves * sizeof(Leaf) + stats.branches * sizeof(Branch);
    return stats;
  }

  /// Prints `{k: v, ...}` in index order; under `AbsentIsTop` `{k: v, ...; else: top}`,
  /// and `bottom` for the bottom element.
  friend std::ostream& operator<<(std::ostream& os, const Environment& e)
    requires requires(std::ostream& s, const K& k, const L& v) {
      s << k;
      s << v;
    }
  {
    if (absent_is_top && e.bottom_) return os << "bottom";
    os << '{';
    bool first = true;
    for (const auto& [k, v] : e) {
      os << (first ? "" : ", ") << k << ": " << v;
      first = false;
    }
    if (absent_is_top) os << (first ? "" : "; ") << "else: top";
    return os << '}';
  }

 private:
  Ref root_;
  bool bottom_ = absent_is_top;  // AbsentIsTop: the distinguished bottom element (root_ then empty)
};

}  // namespace kildall
