#pragma once
/// \file
/// The analysis manager: a pass asks for an analysis of its unit (a module, a
/// function) by type, gets the cached result when there is one, and says
/// which analyses its changes preserve; the rest are dropped. MLIR's
/// `AnalysisManager`/`PreservedAnalyses` (docs "Pass Infrastructure",
/// "Analysis Management"): "an analysis is just a class"; the only
/// infrastructure is storing and caching it, and knowing when to recompute it.
///
/// An analysis `A` of a unit `U` is any class constructible as
/// `A(const U&, const Context&)` or `A(const U&)`; the context (an op table,
/// solver options) is whatever the IR's instantiation hands every analysis.
/// Results are keyed by type and held until invalidated. One manager serves
/// one unit and is not shared between threads: the pass manager gives each
/// function its own.

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace kildall::pass {

/// The identity of a type, without RTTI: the address of a per-type variable.
using TypeKey = const void*;

namespace detail {
template <class T>
inline constexpr char type_key_tag = 0;
}  // namespace detail

/// The key of `T` (equal in every translation unit: an inline variable's address).
template <class T>
[[nodiscard]] constexpr TypeKey type_key() noexcept {
  return &detail::type_key_tag<std::remove_cvref_t<T>>;
}

/// Which analyses a pass left valid: all, none, or a list of types.
class PreservedAnalyses {
 public:
  /// Nothing preserved (the IR changed and no analysis is known to survive).
  [[nodiscard]] static PreservedAnalyses none() { return PreservedAnalyses(false); }
  /// Everything preserved (the IR did not change).
  [[nodiscard]] static PreservedAnalyses all() { return PreservedAnalyses(true); }
  /// Adds `A` to the preserved analyses.
  template <class A>
  PreservedAnalyses& preserve() {
    if (!all_) kept_.push_back(type_key<A>());
    return *this;
  }
  /// Whether the analysis with key `key` survives.
  [[nodiscard]] bool preserves(TypeKey key) const noexcept {
    if (all_) return true;
    for (const TypeKey k : kept_)
      if (k == key) return true;
    return false;
  }
  /// Whether `A` survives.
  template <class A>
  [[nodiscard]] bool preserves() const noexcept {
    return preserves(type_key<A>());
  }
  /// Whether everything survives.
  [[nodiscard]] bool preserves_all() const noexcept { return all_; }

 private:
  explicit PreservedAnalyses(bool all) : all_(all) {}
  bool all_;
  std::vector<TypeKey> kept_;
};

/// How often the manager computed and served analyses (for tests and `--mlir-timing`-style reports).
struct AnalysisCounters {
  std::size_t computed = 0;     ///< Analyses constructed.
  std::size_t cache_hits = 0;   ///< Requests served from the cache.
  std::size_t invalidated = 0;  ///< Cached analyses dropped by `invalidate`.
};

/// The cache of analyses of one unit.
template <class Unit, class Context>
class AnalysisManager {
 public:
  /// A manager for `unit`; analyses are built with `context` (both must outlive the manager).
  AnalysisManager(const Unit& unit, const Context& context) : unit_(&unit), context_(&context) {}

  /// The analysis `A` of the unit: the cached one, or a new one (then cached).
  template <class A>
  [[nodiscard]] const A& get() {
    if (const A* cached = find<A>()) {
      ++counters_.cache_hits;
      return *cached;
    }
    std::unique_ptr<A> made = make<A>();
    const A& result = *made;
    entries_.push_back(Entry{type_key<A>(), Holder(made.release(), &destroy<A>)});
    ++counters_.computed;
    return result;
  }

  /// The cached analysis `A`, or nullptr (never computes).
  template <class A>
  [[nodiscard]] const A* cached() const {
    return find<A>();
  }

  /// Drops every cached analysis that `preserved` does not keep.
  void invalidate(const PreservedAnalyses& preserved) {
    if (preserved.preserves_all()) return;
    std::vector<Entry> kept;
    for (Entry& e : entries_) {
      if (preserved.preserves(e.key)) kept.push_back(std::move(e));
      else ++counters_.invalidated;
    }
    entries_ = std::move(kept);
  }

  /// Drops everything (the unit was replaced).
  void clear() { invalidate(PreservedAnalyses::none()); }

  /// The unit this manager caches analyses of.
  [[nodiscard]] const Unit& unit() const noexcept { return *unit_; }
  /// The context analyses are built with.
  [[nodiscard]] const Context& context() const noexcept { return *context_; }
  /// Computations, cache hits and invalidations so far.
  [[nodiscard]] const AnalysisCounters& counters() const noexcept { return counters_; }
  /// How many analyses are cached.
  [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }

 private:
  using Holder = std::unique_ptr<void, void (*)(void*)>;
  struct Entry {
    TypeKey key;
    Holder value;
  };

  template <class A>
  static void destroy(void* p) {
    delete static_cast<A*>(p);
  }

  template <class A>
  [[nodiscard]] const A* find() const {
    for (const Entry& e : entries_)
      if (e.key == type_key<A>()) return static_cast<const A*>(e.value.get());
    return nullptr;
  }

  template <class A>
  [[nodiscard]] std::unique_ptr<A> make() const {
    if constexpr (std::is_constructible_v<A, const Unit&, const Context&>) {
      return std::make_unique<A>(*unit_, *context_);
    } else {
      static_assert(std::is_constructible_v<A, const Unit&>,
                    "an analysis is constructible from (const Unit&, const Context&) or (const Unit&)");
      return std::make_unique<A>(*unit_);
    }
  }

  const Unit* unit_;
  const Context* context_;
  std::vector<Entry> entries_;
  AnalysisCounters counters_;
};

}  // namespace kildall::pass
