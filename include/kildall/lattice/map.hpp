#pragma once
/// \file
/// `MapLattice<K, L>`: total maps from keys to lattice values, ordered
/// pointwise (the environment domain of abstract interpretation, Cousot &
/// Cousot, POPL 1977: one abstract value per variable).
///
/// Representation: a default value plus the finitely many keys that differ
/// from it. The default is `L::bottom()` for every map built from bottom
/// (so an absent key means "no information yet"); `top()` (when `L` has a
/// top) has default `L::top()`, and pointwise operations apply to defaults
/// too. A key whose value equals the default is never stored, so the form is
/// canonical and `==` is plain structural equality.
///
/// The key space is treated as unbounded (think "all variable names"): a map
/// is never equal to one with a different default, even if every key of a
/// small key type was set explicitly.
///
/// Storage is `std::map<K, L, Compare>`: deterministic iteration in key order,
/// and join/meet/widen/narrow walk both maps in order and update in place,
/// so each costs O(n + m) plus the work on keys that change.

#include <concepts>
#include <cstddef>
#include <map>
#include <ostream>
#include <utility>

#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>

namespace kildall {

/// Pointwise lattice of maps from `K` to `L`, with absent keys at the default
/// (bottom). Models `HasBottom`, and `HasTop`, `MeetSemiLattice`,
/// `WidenableLattice`, `NarrowableLattice` whenever `L` does. `Compare`
/// defaults to `std::less<K>` (taken from `std::map`, so that the header
/// need not include `<functional>`).
template <class K, HasBottom L, class Compare = typename std::map<K, L>::key_compare>
  requires std::regular<K> && std::strict_weak_order<Compare, const K&, const K&>
class MapLattice {
 public:
  /// The key type.
  using key_type = K;
  /// The value lattice.
  using mapped_type = L;
  /// The stored (non-default) entries.
  using storage_type = std::map<K, L, Compare>;

  /// Bottom: every key maps to `L::bottom()`.
  MapLattice() = default;

  /// The least element: every key maps to bottom.
  [[nodiscard]] static MapLattice bottom() { return MapLattice(); }
  /// The greatest element: every key maps to `L::top()`.
  [[nodiscard]] static MapLattice top()
    requires HasTop<L>
  {
    MapLattice m;
    m.default_ = L::top();
    return m;
  }

  /// True when every key maps to bottom.
  [[nodiscard]] bool is_bottom() const { return entries_.empty() && default_.is_bottom(); }
  /// True when every key maps to top.
  [[nodiscard]] bool is_top() const
    requires HasTop<L>
  {
    return entries_.empty() && default_.is_top();
  }

  /// The value of `key` (the default when not stored).
  [[nodiscard]] const L& get(const K& key) const {
    auto it = entries_.find(key);
    return it == entries_.end() ? default_ : it->second;
  }
  /// The value of every key that is not stored (bottom, unless derived from `top()`).
  [[nodiscard]] const L& default_value() const noexcept { return default_; }
  /// Sets the value of `key` (storing it only when it differs from the default).
  void set(const K& key, L value) {
    if (value == default_) {
      entries_.erase(key);
    } else {
      entries_.insert_or_assign(key, std::move(value));
    }
  }
  /// Resets `key` to the default value.
  void erase(const K& key) { entries_.erase(key); }
  /// Joins `value` into the value of `key`. Returns whether it changed.
  [[nodiscard]] ChangeResult join_at(const K& key, const L& value) {
    auto it = entries_.find(key);
    if (it == entries_.end()) {
      L v = default_;
      const ChangeResult r = v.join(value);
      if (is_changed(r)) entries_.emplace(key, std::move(v));
      return r;
    }
    const ChangeResult r = it->second.join(value);
    if (it->second == default_) entries_.erase(it);
    return r;
  }

  /// True when `key` is stored, i.e. its value differs from the default.
  [[nodiscard]] bool contains(const K& key) const { return entries_.find(key) != entries_.end(); }
  /// Number of stored keys.
  [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }
  /// The stored entries, in key order.
  [[nodiscard]] const storage_type& entries() const noexcept { return entries_; }
  /// Iteration over the stored entries, in key order.
  [[nodiscard]] auto begin() const noexcept { return entries_.begin(); }
  /// End of iteration.
  [[nodiscard]] auto end() const noexcept { return entries_.end(); }

  /// Pointwise join.
  [[nodiscard]] ChangeResult join(const MapLattice& other) {
    if (other.is_bottom()) return ChangeResult::unchanged;
    return combine(other, /*other_default_is_identity=*/other.default_.is_bottom(),
                   [](L& a, const L& b) { return a.join(b); });
  }
  /// Pointwise meet.
  [[nodiscard]] ChangeResult meet(const MapLattice& other)
    requires MeetSemiLattice<L>
  {
    bool identity = false;
    if constexpr (HasTop<L>) identity = other.default_.is_top();
    return combine(other, identity, [](L& a, const L& b) { return a.meet(b); });
  }
  /// Pointwise widening.
  [[nodiscard]] ChangeResult widen(const MapLattice& other)
    requires WidenableLattice<L>
  {
    return combine(other, false, [](L& a, const L& b) { return a.widen(b); });
  }
  /// Pointwise narrowing.
  [[nodiscard]] ChangeResult narrow(const MapLattice& other)
    requires NarrowableLattice<L>
  {
    return combine(other, false, [](L& a, const L& b) { return a.narrow(b); });
  }

  /// Pointwise order (defaults included).
  [[nodiscard]] bool leq(const MapLattice& other) const {
    if (!default_.leq(other.default_)) return false;
    const Compare less = entries_.key_comp();
    auto a = entries_.begin();
    auto b = other.entries_.begin();
    while (a != entries_.end() || b != other.entries_.end()) {
      if (b == other.entries_.end() || (a != entries_.end() && less(a->first, b->first))) {
        if (!a->second.leq(other.default_)) return false;
        ++a;
      } else if (a == entries_.end() || less(b->first, a->first)) {
        if (!default_.leq(b->second)) return false;
        ++b;
      } else {
        if (!a->second.leq(b->second)) return false;
        ++a;
        ++b;
      }
    }
    return true;
  }

  /// Same default and same stored entries (hence the same function).
  friend bool operator==(const MapLattice&, const MapLattice&) = default;

  /// Prints `{k: v, ...}`, followed by `; else: d` when the default is not bottom.
  friend std::ostream& operator<<(std::ostream& os, const MapLattice& m)
    requires requires(std::ostream& s, const K& k, const L& v) {
      s << k;
      s << v;
    }
  {
    os << '{';
    bool first = true;
    for (const auto& [k, v] : m.entries_) {
      os << (first ? "" : ", ") << k << ": " << v;
      first = false;
    }
    if (!m.default_.is_bottom()) os << (first ? "" : "; ") << "else: " << m.default_;
    return os << '}';
  }

 private:
  /// Applies `op(mine, theirs)` at every key, in place, walking both maps in
  /// key order. When `other_default_is_identity`, keys stored only here are
  /// left alone (op(x, other's default) == x).
  template <class Op>
  ChangeResult combine(const MapLattice& other, bool other_default_is_identity, Op op) {
    const L old_default = default_;
    L new_default = default_;
    ChangeResult changed = op(new_default, other.default_);
    const Compare less = entries_.key_comp();
    auto a = entries_.begin();
    // Applies op against other's default to a key stored only here; drops it
    // when it becomes the new default.
    auto apply_to_own = [&](typename storage_type::iterator it) {
      if (!other_default_is_identity) changed |= op(it->second, other.default_);
      return it->second == new_default ? entries_.erase(it) : std::next(it);
    };
    for (const auto& [key, theirs] : other.entries_) {
      while (a != entries_.end() && less(a->first, key)) a = apply_to_own(a);
      if (a != entries_.end() && !less(key, a->first)) {
        changed |= op(a->second, theirs);
        a = a->second == new_default ? entries_.erase(a) : std::next(a);
      } else {
        L v = old_default;
        changed |= op(v, theirs);
        if (!(v == new_default)) entries_.emplace_hint(a, key, std::move(v));
      }
    }
    while (a != entries_.end()) a = apply_to_own(a);
    default_ = std::move(new_default);
    return changed;
  }

  storage_type entries_;  // never holds a value equal to default_
  L default_ = L::bottom();
};

}  // namespace kildall
