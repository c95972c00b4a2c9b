#pragma once
/// \file
/// `PatternSet<Ir>`: the patterns a driver applies, owned, in insertion order
/// (MLIR's `RewritePatternSet`). Insertion order is the tie-break between
/// patterns of equal benefit, and a pattern's position is its index in the
/// driver's statistics. Names must be unique: statistics and
/// non-convergence reports name patterns.

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kildall/rewrite/concepts.hpp>
#include <kildall/rewrite/pattern.hpp>

namespace kildall::rewrite {

/// An owning, ordered set of patterns over `Ir`.
template <RewritableIr Ir>
class PatternSet {
 public:
  /// An empty set.
  PatternSet() = default;

  /// Adds `pattern` (non-null, with a name no other pattern of the set has);
  /// returns it. Throws `std::invalid_argument` otherwise.
  Pattern<Ir>& add(std::unique_ptr<Pattern<Ir>> pattern) {
    if (pattern == nullptr) throw std::invalid_argument("kildall::rewrite::PatternSet::add: null pattern");
    if (find(pattern->name()).has_value()) {
      throw std::invalid_argument("kildall::rewrite::PatternSet::add: a pattern named '" +
                                  std::string(pattern->name()) + "' is already in the set");
    }
    patterns_.push_back(std::move(pattern));
    return *patterns_.back();
  }

  /// Constructs a `P` (a class derived from `Pattern<Ir>`) from `args` and adds it.
  template <class P, class... Args>
  P& emplace(Args&&... args) {
    auto owned = std::make_unique<P>(std::forward<Args>(args)...);
    P& pattern = *owned;
    add(std::move(owned));
    return pattern;
  }

  /// Adds `make_pattern<Ir>(name, root, benefit, f)`.
  template <class Root, class MatchAndRewrite>
  Pattern<Ir>& add(std::string name, Root&& root, Benefit benefit, MatchAndRewrite f) {
    return add(make_pattern<Ir>(std::move(name), std::forward<Root>(root), benefit, std::move(f)));
  }

  /// The number of patterns.
  [[nodiscard]] std::size_t size() const { return patterns_.size(); }
  /// True when the set has no pattern.
  [[nodiscard]] bool empty() const { return patterns_.empty(); }
  /// Pattern number `i` in insertion order.
  [[nodiscard]] const Pattern<Ir>& operator[](std::size_t i) const { return *patterns_[i]; }
  /// The position of the pattern named `name`, if any.
  [[nodiscard]] std::optional<std::size_t> find(std::string_view name) const {
    for (std::size_t i = 0; i < patterns_.size(); ++i)
      if (patterns_[i]->name() == name) return i;
    return std::nullopt;
  }

 private:
  std::vector<std::unique_ptr<Pattern<Ir>>> patterns_;
};

}  // namespace kildall::rewrite
