#pragma once
/// \file
/// Powerset lattices over an ordered element type, in the two directions of
/// classic dataflow analysis (Kildall, POPL 1973; Aho, Lam, Sethi & Ullman,
/// "Compilers", §9.2):
///
///  - `MayPowerset<T>`: a fact holds on SOME path. Join is union, bottom the
///    empty set, top the symbolic universe. Reaching definitions, may-alias,
///    live variables over named variables.
///  - `MustPowerset<T>`: a fact holds on EVERY path. Join is intersection,
///    bottom the symbolic universe ("unreached": nothing has killed any fact
///    yet), top the empty set. Available expressions, very busy expressions.
///
/// The universe is symbolic (a flag), so `T` may be unbounded (strings,
/// expression keys) and nobody has to enumerate it.
///
/// Storage: a sorted, duplicate-free `std::vector<T>`. Chosen over `std::set`
/// because dataflow sets are built mostly by joins and meets, which are
/// linear merges over contiguous memory (`std::set_union`,
/// `std::set_intersection`, `std::includes`), copies are one allocation, and
/// iteration order is deterministic (increasing `<`) independent of insertion
/// order. Single-element `insert`/`erase` are O(n); for dense small integer
/// universes use `Bitset` (kildall/lattice/bitset.hpp) instead.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>

namespace kildall {

/// What a powerset element must be: a regular value with a total order
/// (`<` decides the storage order, `==` equality).
template <class T>
concept PowersetElement = std::regular<T> && std::totally_ordered<T>;

namespace detail {

/// A finite sorted set or the symbolic universe; the storage shared by
/// `MayPowerset` and `MustPowerset`.
template <PowersetElement T>
class SymbolicSet {
 public:
  SymbolicSet() = default;
  explicit SymbolicSet(std::vector<T> elements) : elements_(std::move(elements)) {
    std::sort(elements_.begin(), elements_.end());
    elements_.erase(std::unique(elements_.begin(), elements_.end()), elements_.end());
  }
  [[nodiscard]] static SymbolicSet universe() {
    SymbolicSet s;
    s.universe_ = true;
    return s;
  }

  [[nodiscard]] bool is_universe() const noexcept { return universe_; }
  [[nodiscard]] bool is_empty() const noexcept { return !universe_ && elements_.empty(); }
  [[nodiscard]] bool contains(const T& x) const {
    return universe_ || std::binary_search(elements_.begin(), elements_.end(), x);
  }
  [[nodiscard]] const std::vector<T>& elements(const char* who) const {
    if (universe_) throw std::logic_error(std::string(who) + ": the set is the symbolic universe and has no element list");
    return elements_;
  }

  void insert(T x) {
    if (universe_) return;
    auto it = std::lower_bound(elements_.begin(), elements_.end(), x);
    if (it == elements_.end() || !(*it == x)) elements_.insert(it, std::move(x));
  }
  void erase(const T& x, const char* who) {
    if (universe_) throw std::logic_error(std::string(who) + ": cannot remove one element from the symbolic universe");
    auto it = std::lower_bound(elements_.begin(), elements_.end(), x);
    if (it != elements_.end() && *it == x) elements_.erase(it);
  }

  /// this ⊆ other.
  [[nodiscard]] bool subset_of(const SymbolicSet& other) const {
    if (other.universe_) return true;
    if (universe_) return false;
    return std::includes(other.elements_.begin(), other.elements_.end(), elements_.begin(), elements_.end());
  }
  /// this := this ∪ other.
  [[nodiscard]] ChangeResult unite(const SymbolicSet& other) {
    if (other.subset_of(*this)) return ChangeResult::unchanged;
    if (other.universe_) {
      *this = universe();
      return ChangeResult::changed;
    }
    std::vector<T> out;
    out.reserve(elements_.size() + other.elements_.size());
    std::set_union(elements_.begin(), elements_.end(), other.elements_.begin(), other.elements_.end(),
                   std::back_inserter(out));
    elements_ = std::move(out);
    return ChangeResult::changed;
  }
  /// this := this ∩ other.
  [[nodiscard]] ChangeResult intersect(const SymbolicSet& other) {
    if (subset_of(other)) return ChangeResult::unchanged;
    if (universe_) {
      *this = other;
      return ChangeResult::changed;
    }
    std::vector<T> out;
    out.reserve(std::min(elements_.size(), other.elements_.size()));
    std::set_intersection(elements_.begin(), elements_.end(), other.elements_.begin(), other.elements_.end(),
                          std::back_inserter(out));
    elements_ = std::move(out);
    return ChangeResult::changed;
  }

  friend bool operator==(const SymbolicSet&, const SymbolicSet&) = default;

  void print(std::ostream& os, const char* universe_name) const
    requires requires(std::ostream& s, const T& v) { s << v; }
  {
    if (universe_) {
      os << universe_name;
      return;
    }
    os << '{';
    for (std::size_t i = 0; i < elements_.size(); ++i) os << (i == 0 ? "" : ", ") << elements_[i];
    os << '}';
  }

 private:
  bool universe_ = false;
  std::vector<T> elements_;  // sorted, unique; empty when universe_
};

}  // namespace detail

/// A "may" set: join is union, `bottom()` the empty set, `top()` the symbolic
/// universe. Models `BoundedLattice` and `MeetSemiLattice` (meet is
/// intersection). Default-constructed: empty (bottom).
template <PowersetElement T>
class MayPowerset {
 public:
  /// The element type.
  using value_type = T;

  /// The empty set (bottom).
  MayPowerset() = default;
  /// The set of `elements` (duplicates ignored).
  MayPowerset(std::initializer_list<T> elements) : set_(std::vector<T>(elements)) {}
  /// The set of the elements in [first, last) (duplicates ignored).
  template <std::input_iterator It, std::sentinel_for<It> S>
  MayPowerset(It first, S last) : set_(std::vector<T>(first, last)) {}

  /// The least element: the empty set.
  [[nodiscard]] static MayPowerset bottom() { return MayPowerset(); }
  /// The greatest element: the symbolic universe (every value of `T`).
  [[nodiscard]] static MayPowerset top() { return MayPowerset(detail::SymbolicSet<T>::universe()); }

  /// True for the empty set.
  [[nodiscard]] bool is_bottom() const noexcept { return set_.is_empty(); }
  /// True for the universe.
  [[nodiscard]] bool is_top() const noexcept { return set_.is_universe(); }
  /// True for the universe (same as `is_top`).
  [[nodiscard]] bool is_universe() const noexcept { return set_.is_universe(); }
  /// True when `x` is in the set (always, for the universe).
  [[nodiscard]] bool contains(const T& x) const { return set_.contains(x); }
  /// The elements in increasing order. Throws `std::logic_error` for the universe.
  [[nodiscard]] const std::vector<T>& elements() const { return set_.elements("kildall::MayPowerset::elements"); }
  /// Number of elements. Throws `std::logic_error` for the universe.
  [[nodiscard]] std::size_t size() const { return elements().size(); }
  /// Iteration in increasing order. Throws `std::logic_error` for the universe.
  [[nodiscard]] auto begin() const { return elements().begin(); }
  /// End of iteration. Throws `std::logic_error` for the universe.
  [[nodiscard]] auto end() const { return elements().end(); }

  /// Adds `x` (no effect on the universe).
  void insert(T x) { set_.insert(std::move(x)); }
  /// Removes `x`. Throws `std::logic_error` on the universe, which has no finite complement form.
  void erase(const T& x) { set_.erase(x, "kildall::MayPowerset::erase"); }

  /// Union. Returns whether an element was added.
  [[nodiscard]] ChangeResult join(const MayPowerset& other) { return set_.unite(other.set_); }
  /// Intersection. Returns whether an element was removed.
  [[nodiscard]] ChangeResult meet(const MayPowerset& other) { return set_.intersect(other.set_); }
  /// Inclusion: `this ⊆ other`.
  [[nodiscard]] bool leq(const MayPowerset& other) const { return set_.subset_of(other.set_); }

  /// Same elements (or both the universe).
  friend bool operator==(const MayPowerset&, const MayPowerset&) = default;
  /// Prints `{a, b}` or `universe`.
  friend std::ostream& operator<<(std::ostream& os, const MayPowerset& s)
    requires requires(std::ostream& o, const T& v) { o << v; }
  {
    s.set_.print(os, "universe");
    return os;
  }

 private:
  explicit MayPowerset(detail::SymbolicSet<T> set) : set_(std::move(set)) {}
  detail::SymbolicSet<T> set_;
};

/// A "must" set: join is intersection, `bottom()` the symbolic universe
/// (no path has reached this point, so nothing has been killed), `top()` the
/// empty set. The order is reverse inclusion: `a.leq(b)` iff `a ⊇ b`. Models
/// `BoundedLattice` and `MeetSemiLattice` (meet is union).
/// Default-constructed: the universe (bottom), like every kildall lattice;
/// use `MustPowerset::empty()` or the list constructor for a finite set.
template <PowersetElement T>
class MustPowerset {
 public:
  /// The element type.
  using value_type = T;

  /// The universe (bottom).
  MustPowerset() : set_(detail::SymbolicSet<T>::universe()) {}
  /// The finite set of `elements` (duplicates ignored).
  MustPowerset(std::initializer_list<T> elements) : set_(std::vector<T>(elements)) {}
  /// The finite set of the elements in [first, last) (duplicates ignored).
  template <std::input_iterator It, std::sentinel_for<It> S>
  MustPowerset(It first, S last) : set_(std::vector<T>(first, last)) {}

  /// The least element: the symbolic universe ("unreached").
  [[nodiscard]] static MustPowerset bottom() { return MustPowerset(); }
  /// The greatest element: the empty set (nothing holds on every path).
  [[nodiscard]] static MustPowerset top() { return empty(); }
  /// The empty set (same as `top()`).
  [[nodiscard]] static MustPowerset empty() { return MustPowerset(detail::SymbolicSet<T>()); }

  /// True for the universe.
  [[nodiscard]] bool is_bottom() const noexcept { return set_.is_universe(); }
  /// True for the empty set.
  [[nodiscard]] bool is_top() const noexcept { return set_.is_empty(); }
  /// True for the universe (same as `is_bottom`).
  [[nodiscard]] bool is_universe() const noexcept { return set_.is_universe(); }
  /// True when `x` is in the set (always, for the universe).
  [[nodiscard]] bool contains(const T& x) const { return set_.contains(x); }
  /// The elements in increasing order. Throws `std::logic_error` for the universe.
  [[nodiscard]] const std::vector<T>& elements() const { return set_.elements("kildall::MustPowerset::elements"); }
  /// Number of elements. Throws `std::logic_error` for the universe.
  [[nodiscard]] std::size_t size() const { return elements().size(); }
  /// Iteration in increasing order. Throws `std::logic_error` for the universe.
  [[nodiscard]] auto begin() const { return elements().begin(); }
  /// End of iteration. Throws `std::logic_error` for the universe.
  [[nodiscard]] auto end() const { return elements().end(); }

  /// Adds `x` (the "gen" of a transfer function; no effect on the universe).
  void insert(T x) { set_.insert(std::move(x)); }
  /// Removes `x` (the "kill"). Throws `std::logic_error` on the universe:
  /// a transfer function should map the unreached bottom to itself.
  void erase(const T& x) { set_.erase(x, "kildall::MustPowerset::erase"); }

  /// Intersection. Returns whether an element was removed.
  [[nodiscard]] ChangeResult join(const MustPowerset& other) { return set_.intersect(other.set_); }
  /// Union. Returns whether an element was added.
  [[nodiscard]] ChangeResult meet(const MustPowerset& other) { return set_.unite(other.set_); }
  /// Reverse inclusion: `this ⊇ other`.
  [[nodiscard]] bool leq(const MustPowerset& other) const { return other.set_.subset_of(set_); }

  /// Same elements (or both the universe).
  friend bool operator==(const MustPowerset&, const MustPowerset&) = default;
  /// Prints `{a, b}` or `universe`.
  friend std::ostream& operator<<(std::ostream& os, const MustPowerset& s)
    requires requires(std::ostream& o, const T& v) { o << v; }
  {
    s.set_.print(os, "universe");
    return os;
  }

 private:
  explicit MustPowerset(detail::SymbolicSet<T> set) : set_(std::move(set)) {}
  detail::SymbolicSet<T> set_;
};

/// The default powerset is the "may" direction.
template <PowersetElement T>
using Powerset = MayPowerset<T>;

}  // namespace kildall
