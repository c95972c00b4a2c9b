#pragma once
/// \file
/// `PatternApplicator<Ir>`: picks the pattern to apply at one op.
///
/// Method (the seed's "Picking and performing a replacement", MLIR's
/// `PatternApplicator`): once, at construction, the patterns are bucketed by
/// root kind and each bucket is sorted by decreasing benefit; a pattern of
/// any kind joins every bucket and forms the bucket of kinds no pattern is
/// rooted at. Equal benefits keep insertion order (a stable sort on the
/// positions in the `PatternSet`; MLIR, by contrast, prefers a kind's own
/// patterns over any-kind ones of equal benefit). An optional filter drops
/// patterns at construction (MLIR's cost model that marks a pattern
/// impossible to match). At an op, the bucket of its kind is tried in order
/// and the first pattern that matches rewrites: a pattern of higher benefit
/// is never passed over for a lower one.
///
/// The applicator checks each pattern's contract through the rewriter's
/// change count: a pattern that reports no match but changed the IR, or a
/// match but changed nothing, is a bug, reported by `std::logic_error` with
/// its name (the second would make a greedy driver loop forever).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <kildall/rewrite/concepts.hpp>
#include <kildall/rewrite/pattern.hpp>
#include <kildall/rewrite/pattern_set.hpp>
#include <kildall/rewrite/rewriter.hpp>

namespace kildall::rewrite {

/// Buckets the patterns of a set by root kind and applies the best one that matches.
template <RewritableIr Ir>
class PatternApplicator {
 public:
  /// An applicator of every pattern of `patterns` (which must outlive it and not change).
  explicit PatternApplicator(const PatternSet<Ir>& patterns)
      : PatternApplicator(patterns, [](const Pattern<Ir>&) { return true; }) {}

  /// An applicator of the patterns of `patterns` for which `keep(pattern)` holds.
  template <class Filter>
    requires std::is_invocable_r_v<bool, const Filter&, const Pattern<Ir>&>
  PatternApplicator(const PatternSet<Ir>& patterns, const Filter& keep) : patterns_(&patterns) {
    std::vector<std::uint32_t> kept;
    for (std::size_t i = 0; i < patterns.size(); ++i)
      if (keep(patterns[i])) kept.push_back(static_cast<std::uint32_t>(i));
    for (const std::uint32_t i : kept) {
      const auto& root = patterns[i].root();
      if (!root.has_value()) any_kind_.push_back(i);
      else by_kind_[*root].push_back(i);
    }
    // Every bucket also holds the any-kind patterns; then each is ordered by
    // decreasing benefit, insertion order among equals.
    const auto by_benefit = [&patterns](std::uint32_t a, std::uint32_t b) {
      return patterns[a].benefit() > patterns[b].benefit();
    };
    for (auto& [kind, bucket] : by_kind_) {
      bucket.insert(bucket.end(), any_kind_.begin(), any_kind_.end());
      std::sort(bucket.begin(), bucket.end());
      std::stable_sort(bucket.begin(), bucket.end(), by_benefit);
    }
    std::stable_sort(any_kind_.begin(), any_kind_.end(), by_benefit);
  }

  /// The pattern set applied.
  [[nodiscard]] const PatternSet<Ir>& patterns() const { return *patterns_; }

  /// The positions (in the pattern set) of the patterns tried at an op of
  /// kind `kind`, in the order they are tried.
  [[nodiscard]] std::span<const std::uint32_t> candidates(const kind_t<Ir>& kind) const {
    const auto it = by_kind_.find(kind);
    return it == by_kind_.end() ? std::span<const std::uint32_t>(any_kind_) : std::span<const std::uint32_t>(it->second);
  }

  /// Tries the candidates of `op`'s kind in order; the first that matches
  /// rewrites through `rewriter`. Returns its position in the pattern set, or
  /// nothing when none matched (the IR is then unchanged).
  std::optional<std::size_t> match_and_rewrite(const op_t<Ir>& op, Rewriter<Ir>& rewriter) const {
    for (const std::uint32_t i : candidates(rewriter.ir().kind(op))) {
      const Pattern<Ir>& pattern = (*patterns_)[i];
      const std::uint64_t before = rewriter.change_count();
      const bool matched = pattern.match_and_rewrite(op, rewriter);
      const bool changed = rewriter.change_count() != before;
      if (matched && !changed) {
        throw std::logic_error("kildall::rewrite: pattern '" + std::string(pattern.name()) +
                               "' reported a match but made no change through the rewriter");
      }
      if (!matched && changed) {
        throw std::logic_error("kildall::rewrite: pattern '" + std::string(pattern.name()) +
                               "' changed the IR but reported no match");
      }
      if (matched) return i;
    }
    return std::nullopt;
  }

 private:
  const PatternSet<Ir>* patterns_;
  std::unordered_map<kind_t<Ir>, std::vector<std::uint32_t>> by_kind_;
  std::vector<std::uint32_t> any_kind_;
};

}  // namespace kildall::rewrite
