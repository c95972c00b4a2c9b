#pragma once
/// \file
/// `Environment<K, L, Absent, KeyIndex>`: a persistent map from integer keys to
/// lattice values, ordered pointwise, with structural sharing.
///
/// Method: a persistent radix tree of 16-way nodes with a bitmap of the
/// digits present (Bagwell, "Ideal Hash Trees", 2001; the array-mapped trie
/// of Clojure's persistent maps), keyed directly by the index instead of a
/// hash, and path-compressed like the big-endian Patricia trees of Okasaki &
/// Gill, "Fast Mergeable Integer Maps" (ML Workshop 1998) that SPARTA's
/// `PatriciaTreeMapAbstractEnvironment` and Astrée use: a key is read as a
/// 64-bit index in 4-bit digits; a leaf holds the entries of up to 16
/// consecutive indices (those sharing all but the last digit), a branch the
/// subtrees of up to 16 digits at its level, and a branch exists only where
/// two or more digits occur below its prefix. So the tree's shape depends
/// only on the set of stored keys (canonical), it is at most 16 nodes deep
/// (5 for indices below 2^20), and it iterates in increasing index order.
/// Against a binary Patricia tree, an update copies about a quarter as many
/// nodes (docs/performance.md, "Dense analyses over one large SSA function").
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
#include <memory>
#include <new>
#include <optional>
#include <algorithm>
#include <ostream>
#include <type_traits>
#include <utility>
#include <vector>

#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>
#include <kildall/support/prefetch.hpp>

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

/// Bits of the index each tree level reads: nodes have up to 2^kDigitBits
/// children (branches) or entries (leaves).
inline constexpr unsigned kDigitBits = 4;
/// Children or entries a node can hold.
inline constexpr unsigned kFanout = 1U << kDigitBits;
/// Levels a 64-bit index spans: 0 (leaves) .. kLevels - 1.
inline constexpr unsigned kLevels = (64 + kDigitBits - 1) / kDigitBits;
/// Which digits of a node are stored.
using Bitmap = std::uint32_t;
static_assert(kFanout <= 32, "a node's bitmap is 32 bits");

/// The digit of `index` a node of `level` branches on.
[[nodiscard]] inline unsigned digit(std::uint64_t index, unsigned level) noexcept {
  return static_cast<unsigned>(index >> (level * kDigitBits)) & (kFanout - 1);
}

/// The bits of `index` above the digit of `level` (the prefix a node of that level shares with its keys).
[[nodiscard]] inline std::uint64_t prefix_at(std::uint64_t index, unsigned level) noexcept {
  const unsigned low = (level + 1) * kDigitBits;
  return low >= 64 ? 0 : index & (~std::uint64_t{0} << low);
}

/// The level of the highest digit where two different indices differ.
[[nodiscard]] inline unsigned split_level(std::uint64_t a, std::uint64_t b) noexcept {
  return static_cast<unsigned>(std::bit_width(a ^ b) - 1) / kDigitBits;
}

/// The number of digits stored in `bits` (a SWAR count: `std::popcount`
/// without a population-count instruction in the target is a library call).
[[nodiscard]] inline unsigned count(Bitmap bits) noexcept {
  bits = bits - ((bits >> 1) & 0x55555555U);
  bits = (bits & 0x33333333U) + ((bits >> 2) & 0x33333333U);
  bits = (bits + (bits >> 4)) & 0x0F0F0F0FU;
  return static_cast<unsigned>((bits * 0x01010101U) >> 24);
}

/// The position of digit `d` among the digits stored in `bits`.
[[nodiscard]] inline unsigned rank(Bitmap bits, unsigned d) noexcept { return count(bits & ((Bitmap{1} << d) - 1)); }

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
/// persistent radix tree of 16-way nodes (see the file comment).
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
  using Entry = std::pair<const K, L>;
  using Bitmap = detail::environment::Bitmap;
  static constexpr unsigned kFanout = detail::environment::kFanout;
  /// Room a new leaf keeps for the keys a transfer function sets next to the
  /// one that made it (successive op results are consecutive keys).
  static constexpr unsigned kLeafSlack = 3;

  /// A node's header; its payload follows at `kPayload`: `count` entries
  /// (`std::pair<const K, L>`, a leaf, level 0) or `count` child pointers (a
  /// branch, level >= 1), in digit order, room for `capacity`.
  struct Node {
    mutable std::atomic<std::uint32_t> refs{1};
    std::uint8_t level = 0;     // the digit this node branches on
    std::uint8_t count = 0;     // entries or children stored
    std::uint8_t capacity = 0;  // entries or children allocated
    Bitmap bits = 0;            // the digits stored
    std::uint64_t prefix = 0;   // the index bits above this node's digit, shared by every key below
    std::size_t size = 0;       // keys below
  };
  static constexpr std::size_t kPayloadAlign = alignof(Entry) > alignof(const Node*) ? alignof(Entry) : alignof(const Node*);
  static constexpr std::size_t kPayload = (sizeof(Node) + kPayloadAlign - 1) / kPayloadAlign * kPayloadAlign;
  static_assert(kPayloadAlign <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "over-aligned values are not supported");

  [[nodiscard]] static std::size_t bytes_of(unsigned level, unsigned capacity) noexcept {
    return kPayload + capacity * (level == 0 ? sizeof(Entry) : sizeof(const Node*));
  }
  [[nodiscard]] static Entry* entries(const Node* n) noexcept {
    return std::launder(reinterpret_cast<Entry*>(reinterpret_cast<char*>(const_cast<Node*>(n)) + kPayload));
  }
  [[nodiscard]] static const Node** kids(const Node* n) noexcept {
    return reinterpret_cast<const Node**>(reinterpret_cast<char*>(const_cast<Node*>(n)) + kPayload);
  }
  /// A new node with nothing stored (reference count 1).
  [[nodiscard]] static Node* make_node(unsigned level, std::uint64_t prefix, unsigned capacity) {
    Node* n = ::new (::operator new(bytes_of(level, capacity))) Node;
    n->level = static_cast<std::uint8_t>(level);
    n->capacity = static_cast<std::uint8_t>(capacity);
    n->prefix = prefix;
    return n;
  }
  /// Frees a node's memory without touching its payload.
  static void free_shell(const Node* n) noexcept { ::operator delete(const_cast<Node*>(n)); }

  [[nodiscard]] static std::uint64_t index_of(const K& key) noexcept { return KeyIndex{}(key); }
  [[nodiscard]] static std::size_t size_of(const Node* n) noexcept { return n == nullptr ? 0 : n->size; }
  /// True when `index` lies under `n` (shares its prefix).
  [[nodiscard]] static bool under(std::uint64_t index, const Node* n) noexcept {
    return detail::environment::prefix_at(index, n->level) == n->prefix;
  }
  [[nodiscard]] static unsigned digit_in(std::uint64_t index, const Node* n) noexcept {
    return detail::environment::digit(index, n->level);
  }
  [[nodiscard]] static Bitmap bit_of(unsigned d) noexcept { return Bitmap{1} << d; }
  [[nodiscard]] static unsigned rank(Bitmap bits, unsigned d) noexcept { return detail::environment::rank(bits, d); }

  static void retain(const Node* n) noexcept {
    if (n != nullptr) n->refs.fetch_add(1, std::memory_order_relaxed);
  }
  static void release(const Node* n) noexcept {
    if (n != nullptr && n->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy(n);
  }
  static void destroy(const Node* n) noexcept {
    if (n->level == 0) {
      if constexpr (!std::is_trivially_destructible_v<Entry>) {
        Entry* e = entries(n);
        for (unsigned i = 0; i < n->count; ++i) std::destroy_at(e + i);
      }
    } else {
      const Node** c = kids(n);
      // Releasing (or copying) a branch writes the reference counts of all its children:
      // their misses are issued together (here and below), so they overlap.
      for (unsigned i = 0; i < n->count; ++i) detail::prefetch_for_write(c[i]);
      for (unsigned i = 0; i < n->count; ++i) release(c[i]);
    }
    free_shell(n);
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

  /// Destroys a node under construction if building its payload throws.
  struct Building {
    Node* node;
    ~Building() {
      if (node != nullptr) destroy(node);
    }
    [[nodiscard]] Ref done() noexcept { return Ref::adopt(std::exchange(node, nullptr)); }
  };

  /// A leaf holding only `key` (with room for the keys a transfer sets next).
  [[nodiscard]] static Ref single_leaf(std::uint64_t idx, const K& key, const L& value) {
    Building b{make_node(0, detail::environment::prefix_at(idx, 0), 1 + kLeafSlack)};
    std::construct_at(entries(b.node), key, value);
    b.node->count = 1;
    b.node->size = 1;
    b.node->bits = bit_of(detail::environment::digit(idx, 0));
    return b.done();
  }
  /// A copy of leaf `t` with `entry` placed at position `r` (replacing the entry there when `replace`).
  [[nodiscard]] static Ref leaf_with(const Node* t, unsigned r, bool replace, Bitmap bit, const K& key,
                                     const L& value) {
    const unsigned n = t->count + (replace ? 0U : 1U);
    Building b{make_node(0, t->prefix, replace ? n : std::min(kFanout, n + kLeafSlack))};
    const Entry* from = entries(t);
    Entry* to = entries(b.node);
    for (unsigned i = 0, j = 0; i < n; ++i) {
      if (i == r) {
        std::construct_at(to + i, key, value);
        if (replace) ++j;
      } else {
        std::construct_at(to + i, from[j++]);
      }
      b.node->count = static_cast<std::uint8_t>(i + 1);
    }
    b.node->size = n;
    b.node->bits = t->bits | bit;
    return b.done();
  }
  /// A copy of leaf `t` without its entry at position `r` (digit bit `bit`).
  [[nodiscard]] static Ref leaf_without(const Node* t, unsigned r, Bitmap bit) {
    const unsigned n = t->count - 1U;
    Building b{make_node(0, t->prefix, n)};
    const Entry* from = entries(t);
    Entry* to = entries(b.node);
    for (unsigned i = 0; i < n; ++i) {
      std::construct_at(to + i, from[i < r ? i : i + 1]);
      b.node->count = static_cast<std::uint8_t>(i + 1);
    }
    b.node->size = n;
    b.node->bits = t->bits & ~bit;
    return b.done();
  }
  /// A copy of branch `t` with `child` at position `r` (replacing the child there when `replace`).
  [[nodiscard]] static Ref branch_with(const Node* t, unsigned r, bool replace, Bitmap bit, Ref child) {
    const unsigned n = t->count + (replace ? 0U : 1U);
    Node* b = make_node(t->level, t->prefix, n);
    const Node** from = kids(t);
    const Node** to = kids(b);
    std::size_t size = t->size + size_of(child.get());
    for (unsigned i = 0; i < t->count; ++i) detail::prefetch_for_write(from[i]);
    for (unsigned i = 0, j = 0; i < n; ++i) {
      if (i == r) {
        if (replace) size -= size_of(from[j++]);
        to[i] = child.leak();
      } else {
        retain(from[j]);
        to[i] = from[j++];
      }
    }
    b->count = static_cast<std::uint8_t>(n);
    b->bits = t->bits | bit;
    b->size = size;
    return Ref::adopt(b);
  }
  /// A copy of branch `t` without its child at position `r` (digit bit `bit`); `t` has 3 children or more.
  [[nodiscard]] static Ref branch_without(const Node* t, unsigned r, Bitmap bit) {
    const unsigned n = t->count - 1U;
    Node* b = make_node(t->level, t->prefix, n);
    const Node** from = kids(t);
    const Node** to = kids(b);
    for (unsigned i = 0; i < n; ++i) {
      to[i] = from[i < r ? i : i + 1];
      retain(to[i]);
    }
    b->count = static_cast<std::uint8_t>(n);
    b->bits = t->bits & ~bit;
    b->size = t->size - size_of(from[r]);
    return Ref::adopt(b);
  }
  /// Joins two trees whose key ranges are disjoint (either may be empty) under a new branch.
  [[nodiscard]] static Ref link(Ref a, Ref b) {
    if (a.get() == nullptr) return b;
    if (b.get() == nullptr) return a;
    const std::uint64_t pa = a.get()->prefix, pb = b.get()->prefix;
    const unsigned level = detail::environment::split_level(pa, pb);
    const unsigned da = detail::environment::digit(pa, level), db = detail::environment::digit(pb, level);
    Node* n = make_node(level, detail::environment::prefix_at(pa, level), 2);
    n->count = 2;
    n->bits = bit_of(da) | bit_of(db);
    n->size = a.get()->size + b.get()->size;
    kids(n)[da < db ? 0 : 1] = a.leak();
    kids(n)[da < db ? 1 : 0] = b.leak();
    return Ref::adopt(n);
  }

  /// The children of a branch being rebuilt, by digit: `ptr[d]` the child
  /// (null: none), `own[d]` holding a reference when the child was made
  /// for it (else it is borrowed from an operand, which outlives the rebuild).
  struct Children {
    const Node* ptr[kFanout] = {};
    Ref own[kFanout];
    Bitmap bits = 0;

    void borrow(unsigned d, const Node* n) noexcept {
      if (n == nullptr) return;
      ptr[d] = n;
      bits |= bit_of(d);
    }
    void take(unsigned d, Ref r) noexcept {
      if (r.get() == nullptr) return;
      ptr[d] = r.get();
      own[d] = std::move(r);
      bits |= bit_of(d);
    }
    [[nodiscard]] bool same_as(const Node* n) const noexcept {
      if (n == nullptr || n->bits != bits) return false;
      const Node** c = kids(n);
      unsigned i = 0;
      for (Bitmap rest = bits; rest != 0; rest &= rest - 1) {
        if (c[i++] != ptr[std::countr_zero(rest)]) return false;
      }
      return true;
    }
    /// The branch of `level`/`prefix` over these children: none, the one
    /// child itself, `reuse1` or `reuse2` when they hold exactly these children, else a new node.
    [[nodiscard]] Ref build(unsigned level, std::uint64_t prefix, const Node* reuse1, const Node* reuse2 = nullptr) {
      const auto n = detail::environment::count(bits);
      if (n == 0) return {};
      if (n == 1) {
        const unsigned d = static_cast<unsigned>(std::countr_zero(bits));
        return own[d].get() != nullptr ? std::move(own[d]) : Ref::share(ptr[d]);
      }
      if (same_as(reuse1)) return Ref::share(reuse1);
      if (same_as(reuse2)) return Ref::share(reuse2);
      for (Bitmap rest = bits; rest != 0; rest &= rest - 1)
        detail::prefetch_for_write(ptr[std::countr_zero(rest)]);
      Node* b = make_node(level, prefix, n);
      const Node** to = kids(b);
      std::size_t size = 0;
      unsigned i = 0;
      for (Bitmap rest = bits; rest != 0; rest &= rest - 1) {
        const auto d = static_cast<unsigned>(std::countr_zero(rest));
        size += ptr[d]->size;
        if (own[d].get() != nullptr) {
          to[i++] = own[d].leak();
        } else {
          retain(ptr[d]);
          to[i++] = ptr[d];
        }
      }
      b->count = static_cast<std::uint8_t>(n);
      b->bits = bits;
      b->size = size;
      return Ref::adopt(b);
    }
  };

  /// The entries of a leaf being rebuilt, by digit: from `a`, from `b`, or a new value.
  struct Entries {
    enum class From : std::uint8_t { none, a, b, value };
    From from[kFanout] = {};
    const Entry* src[kFanout] = {};
    std::optional<L> value[kFanout];
    Bitmap bits = 0;
    Bitmap equal_b = 0;  // digits whose value is known to equal `b`'s

    void from_a(unsigned d, const Entry* e) noexcept { set(d, From::a, e); }
    /// `a`'s entry, known to equal `b`'s at the same key.
    void from_a_equal_b(unsigned d, const Entry* e) noexcept {
      set(d, From::a, e);
      equal_b |= bit_of(d);
    }
    void from_b(unsigned d, const Entry* e) noexcept { set(d, From::b, e); }
    /// `v` for the key of `e` (dropped when it is the absent value).
    void computed(unsigned d, const Entry* e, L&& v) {
      if (is_absent_value(v)) return;
      value[d].emplace(std::move(v));
      set(d, From::value, e);
    }
    /// True when every entry is `a`'s and `a` has no other.
    [[nodiscard]] bool all_from_a(const Node* a) const noexcept {
      if (a->bits != bits) return false;
      for (Bitmap rest = bits; rest != 0; rest &= rest - 1)
        if (from[std::countr_zero(rest)] != From::a) return false;
      return true;
    }
    /// True when the entries equal `b`'s (same keys, equal values).
    [[nodiscard]] bool equals(const Node* b) const {
      if (b->bits != bits) return false;
      const Entry* e = entries(b);
      for (Bitmap rest = bits; rest != 0; rest &= rest - 1) {
        const auto d = static_cast<unsigned>(std::countr_zero(rest));
        if (from[d] != From::b && (equal_b & bit_of(d)) == 0 && !(current(d) == e->second)) return false;
        ++e;
      }
      return true;
    }
    [[nodiscard]] const L& current(unsigned d) const noexcept {
      return from[d] == From::value ? *value[d] : src[d]->second;
    }
    /// The leaf at `prefix` over these entries, reusing `a` or `b` when equal to them.
    [[nodiscard]] Ref build(std::uint64_t prefix, const Node* a, const Node* b) {
      if (a != nullptr && all_from_a(a)) return Ref::share(a);
      if (b != nullptr && equals(b)) return Ref::share(b);
      const auto n = detail::environment::count(bits);
      if (n == 0) return {};
      Building node{make_node(0, prefix, n)};
      Entry* to = entries(node.node);
      unsigned i = 0;
      for (Bitmap rest = bits; rest != 0; rest &= rest - 1) {
        const auto d = static_cast<unsigned>(std::countr_zero(rest));
        if (from[d] == From::value) {
          std::construct_at(to + i, src[d]->first, std::move(*value[d]));
        } else {
          std::construct_at(to + i, *src[d]);
        }
        node.node->count = static_cast<std::uint8_t>(++i);
      }
      node.node->bits = bits;
      node.node->size = n;
      return node.done();
    }

   private:
    void set(unsigned d, From f, const Entry* e) noexcept {
      from[d] = f;
      src[d] = e;
      bits |= bit_of(d);
    }
  };

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
    if (t == nullptr) return single_leaf(idx, key, value);
    if (!under(idx, t)) return link(single_leaf(idx, key, value), Ref::share(t));
    const unsigned d = digit_in(idx, t);
    const Bitmap bit = bit_of(d);
    const unsigned r = rank(t->bits, d);
    const bool present = (t->bits & bit) != 0;
    if (t->level == 0) {
      if (present && entries(t)[r].second == value) return Ref::share(t);
      return leaf_with(t, r, present, bit, key, value);
    }
    if (!present) return branch_with(t, r, false, bit, single_leaf(idx, key, value));
    const Node* c = kids(t)[r];
    Ref nc = insert(c, idx, key, value);
    if (nc.get() == c) return Ref::share(t);
    return branch_with(t, r, true, bit, std::move(nc));
  }
  /// `t` without `idx`; `t` itself when it is not stored.
  [[nodiscard]] static Ref remove(const Node* t, std::uint64_t idx) {
    if (t == nullptr || !under(idx, t)) return Ref::share(t);
    const unsigned d = digit_in(idx, t);
    const Bitmap bit = bit_of(d);
    if ((t->bits & bit) == 0) return Ref::share(t);
    const unsigned r = rank(t->bits, d);
    if (t->level == 0) return t->count == 1 ? Ref() : leaf_without(t, r, bit);
    const Node* c = kids(t)[r];
    Ref nc = remove(c, idx);
    if (nc.get() == c) return Ref::share(t);
    if (nc.get() != nullptr) return branch_with(t, r, true, bit, std::move(nc));
    if (t->count == 2) return Ref::share(kids(t)[1 - r]);  // the branch collapses into its other child
    return branch_without(t, r, bit);
  }
  /// True when `n` has no other owner than the one reaching it: reached from
  /// an environment through owners that are all unique, nobody else can see it
  /// (the acquire pairs with the release of the last other owner's decrement).
  [[nodiscard]] static bool unique(const Node* n) noexcept { return n->refs.load(std::memory_order_acquire) == 1; }
  /// Replaces the tree owned by `slot` by `t` with `key` bound to `value`;
  /// returns whether a key was added. Nodes owned by this environment alone
  /// are updated in place (a transfer function's successive `set`s copy each
  /// path once, and fill the room its new leaf kept); from the first shared
  /// node down, the path is copied.
  static bool insert_at(const Node*& slot, std::uint64_t idx, const K& key, const L& value) {
    const Node* t = slot;
    if (t != nullptr && unique(t) && under(idx, t)) {
      auto* m = const_cast<Node*>(t);
      const unsigned d = digit_in(idx, t);
      const Bitmap bit = bit_of(d);
      const unsigned r = rank(t->bits, d);
      const bool present = (t->bits & bit) != 0;
      if (t->level == 0) {
        Entry* e = entries(m);
        if (present) {
          e[r].second = value;
          return false;
        }
        if (m->count < m->capacity) {
          for (unsigned i = m->count; i > r; --i) {  // shift up; `const K` is constructed, not assigned
            std::construct_at(e + i, std::move(e[i - 1]));
            std::destroy_at(e + i - 1);
          }
          try {
            std::construct_at(e + r, key, value);
          } catch (...) {  // put the entries back
            for (unsigned i = r; i < m->count; ++i) {
              std::construct_at(e + i, std::move(e[i + 1]));
              std::destroy_at(e + i + 1);
            }
            throw;
          }
          ++m->count;
          ++m->size;
          m->bits |= bit;
          return true;
        }
      } else if (present) {
        const bool added = insert_at(kids(m)[r], idx, key, value);
        m->size += added ? 1 : 0;
        return added;
      }
    }
    const std::size_t before = size_of(t);
    Ref r = insert(t, idx, key, value);
    const bool added = size_of(r.get()) != before;
    release(t);
    slot = r.leak();
    return added;
  }
  /// Removes `idx` from the tree owned by `slot`, in place where unique (see
  /// `insert_at`); returns whether it was stored.
  static bool remove_at(const Node*& slot, std::uint64_t idx) {
    const Node* t = slot;
    if (t == nullptr || !under(idx, t)) return false;
    const unsigned d = digit_in(idx, t);
    const Bitmap bit = bit_of(d);
    if ((t->bits & bit) == 0) return false;
    if (!unique(t)) {
      Ref r = remove(t, idx);
      if (r.get() == t) return false;
      release(t);
      slot = r.leak();
      return true;
    }
    auto* m = const_cast<Node*>(t);
    const unsigned r = rank(t->bits, d);
    if (t->level == 0) {
      if (m->count == 1) {
        release(t);
        slot = nullptr;
        return true;
      }
      Entry* e = entries(m);
      std::destroy_at(e + r);
      for (unsigned i = r; i + 1 < m->count; ++i) {
        std::construct_at(e + i, std::move(e[i + 1]));
        std::destroy_at(e + i + 1);
      }
      --m->count;
      --m->size;
      m->bits &= ~bit;
      return true;
    }
    const Node** c = kids(m);
    if (!remove_at(c[r], idx)) return false;
    --m->size;
    if (c[r] != nullptr) return true;
    if (m->count == 2) {  // the branch collapses into its other child
      slot = c[1 - r];
      free_shell(m);
      return true;
    }
    for (unsigned i = r; i + 1 < m->count; ++i) c[i] = c[i + 1];
    --m->count;
    m->bits &= ~bit;
    return true;
  }
  [[nodiscard]] static const Entry* find_entry(const Node* t, std::uint64_t idx) noexcept {
    while (t != nullptr) {
      if (!under(idx, t)) return nullptr;
      const unsigned d = digit_in(idx, t);
      if ((t->bits & bit_of(d)) == 0) return nullptr;
      const unsigned r = rank(t->bits, d);
      if (t->level == 0) return entries(t) + r;
      t = kids(t)[r];
    }
    return nullptr;
  }

  // --- merging -------------------------------------------------------------
  /// What a merge does with a subtree whose keys are stored on one side only.
  enum class Lone { keep, drop, map };

  /// Branch `t` with each child `c` replaced by `f(c)`; `t` itself when no child changes.
  template <class F>
  [[nodiscard]] static Ref map_children(const Node* t, const F& f) {
    Children out;
    const Node** c = kids(t);
    for (Bitmap rest = t->bits; rest != 0; rest &= rest - 1, ++c) {
      const auto d = static_cast<unsigned>(std::countr_zero(rest));
      Ref r = f(*c);
      if (r.get() == *c) {
        out.borrow(d, *c);
      } else {
        out.take(d, std::move(r));
      }
    }
    return out.build(t->level, t->prefix, t);
  }
  /// Applies `op(v, other)` to every value of `t`; `t` itself when nothing changes.
  template <class Op>
  [[nodiscard]] static Ref map_mine(const Node* t, const L& other, const Op& op) {
    if (t == nullptr) return {};
    if (t->level == 0) {
      Entries out;
      const Entry* e = entries(t);
      for (Bitmap rest = t->bits; rest != 0; rest &= rest - 1, ++e) {
        const auto d = static_cast<unsigned>(std::countr_zero(rest));
        L v = e->second;
        if (is_changed(op(v, other))) {
          out.computed(d, e, std::move(v));
        } else {
          out.from_a(d, e);
        }
      }
      return out.build(t->prefix, t, nullptr);
    }
    return map_children(t, [&](const Node* c) { return map_mine(c, other, op); });
  }
  /// Replaces every value `y` of `t` by `op(mine, y)`; `t` itself when nothing changes.
  template <class Op>
  [[nodiscard]] static Ref map_theirs(const L& mine, const Node* t, const Op& op) {
    if (t == nullptr) return {};
    if (t->level == 0) {
      Entries out;
      const Entry* e = entries(t);
      for (Bitmap rest = t->bits; rest != 0; rest &= rest - 1, ++e) {
        L v = mine;
        (void)op(v, e->second);
        out.computed(static_cast<unsigned>(std::countr_zero(rest)), e, std::move(v));
      }
      return out.build(t->prefix, nullptr, t);
    }
    return map_children(t, [&](const Node* c) { return map_theirs(mine, c, op); });
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
    /// Adds the result for digit `d` to `out`: borrowed when it is a child of an operand.
    void add(Children& out, unsigned d, const Node* ca, const Node* cb) const {
      if (ca == cb) {
        out.borrow(d, ca);  // op(x, x) == x: a shared subtree is skipped
      } else if (cb == nullptr) {
        if constexpr (OnlyA == Lone::keep) {
          out.borrow(d, ca);
        } else {
          out.take(d, only_a(ca));
        }
      } else if (ca == nullptr) {
        if constexpr (OnlyB == Lone::keep) {
          out.borrow(d, cb);
        } else {
          out.take(d, only_b(cb));
        }
      } else {
        Ref r = (*this)(ca, cb);
        if (r.get() == ca || r.get() == cb) {
          out.borrow(d, r.get());
        } else {
          out.take(d, std::move(r));
        }
      }
    }
    /// Two leaves at the same prefix.
    [[nodiscard]] Ref leaves(const Node* a, const Node* b) const {
      Entries out;
      const Entry* ea = entries(a);
      const Entry* eb = entries(b);
      for (Bitmap rest = a->bits | b->bits; rest != 0; rest &= rest - 1) {
        const auto d = static_cast<unsigned>(std::countr_zero(rest));
        const bool in_a = (a->bits & bit_of(d)) != 0, in_b = (b->bits & bit_of(d)) != 0;
        if (in_a && in_b) {
          if (ea->second == eb->second) {  // op(x, x) == x: entries copied into different leaves
            out.from_a_equal_b(d, ea);
            ea += 1;
            eb += 1;
            continue;
          }
          L v = ea->second;
          if (is_changed(op(v, eb->second))) {
            out.computed(d, ea, std::move(v));
          } else {
            out.from_a(d, ea);
          }
        } else if (in_a) {
          if constexpr (OnlyA == Lone::keep) {
            out.from_a(d, ea);
          } else if constexpr (OnlyA == Lone::map) {
            L v = ea->second;
            if (is_changed(op(v, absent_value()))) {
              out.computed(d, ea, std::move(v));
            } else {
              out.from_a(d, ea);
            }
          }
        } else {
          if constexpr (OnlyB == Lone::keep) {
            out.from_b(d, eb);
          } else if constexpr (OnlyB == Lone::map) {
            L v = absent_value();
            (void)op(v, eb->second);
            out.computed(d, eb, std::move(v));
          }
        }
        ea += in_a ? 1 : 0;
        eb += in_b ? 1 : 0;
      }
      return out.build(a->prefix, a, b);
    }

    /// The merge of branch `big` with `small`, a tree lying under one digit of
    /// `big` (`big` is the `a` operand when `BigIsA`).
    template <bool BigIsA>
    [[nodiscard]] Ref descend(const Node* big, const Node* small) const {
      const unsigned ds = digit_in(small->prefix, big);
      Children out;
      const Node** c = kids(big);
      for (Bitmap rest = big->bits | bit_of(ds); rest != 0; rest &= rest - 1) {
        const auto d = static_cast<unsigned>(std::countr_zero(rest));
        const Node* x = (big->bits & bit_of(d)) != 0 ? *c++ : nullptr;
        const Node* y = d == ds ? small : nullptr;
        if constexpr (BigIsA) {
          add(out, d, x, y);
        } else {
          add(out, d, y, x);
        }
      }
      return out.build(big->level, big->prefix, big);
    }

    [[nodiscard]] Ref operator()(const Node* a, const Node* b) const {
      if (a == b) return Ref::share(a);  // op(x, x) == x: a shared subtree is skipped
      if (a == nullptr) return only_b(b);
      if (b == nullptr) return only_a(a);
      if (a->level == b->level && a->prefix == b->prefix) {
        if (a->level == 0) return leaves(a, b);
        Children out;
        const Node** ca = kids(a);
        const Node** cb = kids(b);
        for (Bitmap rest = a->bits | b->bits; rest != 0; rest &= rest - 1) {
          const auto d = static_cast<unsigned>(std::countr_zero(rest));
          const Node* x = (a->bits & bit_of(d)) != 0 ? *ca++ : nullptr;
          const Node* y = (b->bits & bit_of(d)) != 0 ? *cb++ : nullptr;
          add(out, d, x, y);
        }
        return out.build(a->level, a->prefix, a, b);
      }
      if (a->level > b->level && under(b->prefix, a)) return descend<true>(a, b);   // b lies under one digit of a
      if (b->level > a->level && under(a->prefix, b)) return descend<false>(b, a);  // a lies under one digit of b
      return link(only_a(a), only_b(b));
    }
  };

  template <Lone OnlyA, Lone OnlyB, class Op>
  [[nodiscard]] ChangeResult merge_with(const Environment& other, const Op& op) {
    Ref result = Merge<OnlyA, OnlyB, Op>{op}(root_.get(), other.root_.get());
    if (result.get() == root_.get()) return ChangeResult::unchanged;
    root_ = std::move(result);
    return ChangeResult::changed;
  }

  /// Pointwise order of two trees; `LoneAOk`/`LoneBOk`: whether a key
  /// stored on one side only satisfies the order (its value against the absent one).
  template <bool LoneAOk, bool LoneBOk>
  [[nodiscard]] static bool tree_leq(const Node* a, const Node* b) {
    if (a == b) return true;
    if (a == nullptr) return LoneBOk;
    if (b == nullptr) return LoneAOk;
    if (a->level == b->level && a->prefix == b->prefix) {
      if ((!LoneAOk && (a->bits & ~b->bits) != 0) || (!LoneBOk && (b->bits & ~a->bits) != 0)) return false;
      unsigned ra = 0, rb = 0;
      for (Bitmap rest = a->bits | b->bits; rest != 0; rest &= rest - 1) {
        const Bitmap bit = rest & (~rest + 1);
        const bool in_a = (a->bits & bit) != 0, in_b = (b->bits & bit) != 0;
        if (in_a && in_b) {
          if (a->level == 0) {
            const L& x = entries(a)[ra].second;
            const L& y = entries(b)[rb].second;
            if (!(x == y) && !x.leq(y)) return false;
          } else if (!tree_leq<LoneAOk, LoneBOk>(kids(a)[ra], kids(b)[rb])) {
            return false;
          }
        }
        ra += in_a ? 1 : 0;
        rb += in_b ? 1 : 0;
      }
      return true;
    }
    if (a->level > b->level && under(b->prefix, a)) {  // a's other children hold keys b lacks
      if (!LoneAOk) return false;
      const unsigned d = digit_in(b->prefix, a);
      if ((a->bits & bit_of(d)) == 0) return LoneBOk;
      return tree_leq<LoneAOk, LoneBOk>(kids(a)[rank(a->bits, d)], b);
    }
    if (b->level > a->level && under(a->prefix, b)) {
      if (!LoneBOk) return false;
      const unsigned d = digit_in(a->prefix, b);
      if ((b->bits & bit_of(d)) == 0) return LoneAOk;
      return tree_leq<LoneAOk, LoneBOk>(a, kids(b)[rank(b->bits, d)]);
    }
    return LoneAOk && LoneBOk;
  }

  /// Structural equality (canonical trees: same keys give the same shape).
  [[nodiscard]] static bool tree_equal(const Node* a, const Node* b) {
    if (a == b) return true;
    if (a == nullptr || b == nullptr) return false;
    if (a->level != b->level || a->prefix != b->prefix || a->bits != b->bits || a->size != b->size) return false;
    for (unsigned i = 0; i < a->count; ++i) {
      if (a->level == 0) {
        if (!(entries(a)[i].second == entries(b)[i].second)) return false;
      } else if (!tree_equal(kids(a)[i], kids(b)[i])) {
        return false;
      }
    }
    return true;
  }

  template <class F>
  static void visit(const Node* t, F& f) {
    if (t == nullptr) return;
    if (t->level == 0) {
      const Entry* e = entries(t);
      for (unsigned i = 0; i < t->count; ++i) f(e[i].first, e[i].second);
      return;
    }
    for (unsigned i = 0; i < t->count; ++i) visit(kids(t)[i], f);
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
    const Entry* e = find_entry(root_.get(), index_of(key));
    return e != nullptr ? e->second : absent_value();
  }
  /// The stored value of `key`, or null when `key` is absent.
  [[nodiscard]] const L* find(const K& key) const noexcept {
    const Entry* e = find_entry(root_.get(), index_of(key));
    return e != nullptr ? &e->second : nullptr;
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
    (void)insert_at(root_.slot(), index_of(key), key, value);
  }
  /// Resets `key` to the absent value.
  void erase(const K& key) { (void)remove_at(root_.slot(), index_of(key)); }
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
  /// in increasing index order. Holds the path from the root to its leaf.
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
    [[nodiscard]] reference operator*() const noexcept { return entries(leaf_)[at_]; }
    /// The current entry.
    [[nodiscard]] pointer operator->() const noexcept { return &entries(leaf_)[at_]; }
    /// The next entry in index order.
    const_iterator& operator++() noexcept {
      if (++at_ < leaf_->count) return *this;
      at_ = 0;
      leaf_ = nullptr;
      while (depth_ > 0) {
        const Node* b = path_[depth_ - 1];
        if (++next_[depth_ - 1] < b->count) {
          descend(kids(b)[next_[depth_ - 1]]);
          return *this;
        }
        --depth_;
      }
      return *this;
    }
    /// The next entry in index order (postfix).
    const_iterator operator++(int) noexcept {
      const_iterator old = *this;
      ++*this;
      return old;
    }
    /// Same position (iterators of the same environment).
    friend bool operator==(const const_iterator& a, const const_iterator& b) noexcept {
      return a.leaf_ == b.leaf_ && a.at_ == b.at_;
    }

   private:
    friend class Environment;
    explicit const_iterator(const Node* root) noexcept {
      if (root != nullptr) descend(root);  // in the body: descend fills path_, initialized first
    }
    /// Walks to the leftmost leaf under `n`, recording the branches passed.
    void descend(const Node* n) noexcept {
      while (n->level != 0) {
        path_[depth_] = n;
        next_[depth_++] = 0;
        n = kids(n)[0];
      }
      leaf_ = n;
    }
    const Node* leaf_ = nullptr;
    unsigned at_ = 0;  // the entry of `leaf_`
    const Node* path_[detail::environment::kLevels] = {};
    std::uint8_t next_[detail::environment::kLevels] = {};  // the child of each branch on the path
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
    std::size_t leaves = 0;    ///< Distinct leaf nodes (each holds up to 16 entries with consecutive indices).
    std::size_t branches = 0;  ///< Distinct branch nodes.
    std::size_t entries = 0;   ///< Entries in those leaves (an entry shared by two leaves counts twice).
    std::size_t bytes = 0;     ///< Their allocated size (without allocator overhead or memory owned by values).
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
        stats.bytes += bytes_of(n->level, n->capacity);
        if (n->level == 0) {
          ++stats.leaves;
          stats.entries += n->count;
        } else {
          ++stats.branches;
          for (unsigned i = 0; i < n->count; ++i) stack.push_back(kids(n)[i]);
        }
      }
    }
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
