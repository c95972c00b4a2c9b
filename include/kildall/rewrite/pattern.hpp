#pragma once
/// \file
/// `Pattern<Ir>`: one rewrite, rooted at an op of one kind (or of any kind),
/// with a static benefit and a name (the seed's "Defining Patterns": a root
/// kind, a benefit fixed at construction, and a match-and-rewrite step that
/// changes the IR only once the match has succeeded; MLIR's `RewritePattern`).
/// A pattern is a class deriving from `Pattern<Ir>`, or a lambda wrapped by
/// `make_pattern`.

#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <kildall/rewrite/concepts.hpp>
#include <kildall/rewrite/rewriter.hpp>

namespace kildall::rewrite {

/// How much a pattern is worth when it applies (the inverse of a cost, the
/// seed's "magic number", typically the number of ops it removes). Higher is
/// tried first.
struct Benefit {
  std::uint32_t value = 1;  ///< The benefit; 1 unless said otherwise.
  /// A benefit of `v`.
  constexpr explicit Benefit(std::uint32_t v = 1) : value(v) {}
  /// Benefits order by value.
  friend constexpr auto operator<=>(const Benefit&, const Benefit&) = default;
};

/// The tag of a pattern that may apply to an op of any kind (MLIR's `MatchAnyOpTypeTag`).
struct AnyKind {};
/// The `AnyKind` tag.
inline constexpr AnyKind any_kind{};

/// A rewrite pattern over the IR adapter `Ir`.
template <RewritableIr Ir>
class Pattern {
 public:
  /// A pattern named `name` (non-empty) rooted at ops of kind `root`.
  Pattern(std::string name, kind_t<Ir> root, Benefit benefit = Benefit{})
      : name_(checked_name(std::move(name))), root_(std::move(root)), benefit_(benefit) {}
  /// A pattern named `name` (non-empty) that may apply to an op of any kind.
  Pattern(std::string name, AnyKind, Benefit benefit = Benefit{})
      : name_(checked_name(std::move(name))), benefit_(benefit) {}
  /// Patterns are used through references to this base.
  virtual ~Pattern() = default;
  /// Not copied: a pattern set owns its patterns.
  Pattern(const Pattern&) = delete;
  /// Not assigned.
  Pattern& operator=(const Pattern&) = delete;

  /// The name statistics and non-convergence reports use.
  [[nodiscard]] std::string_view name() const { return name_; }
  /// The kind of op this pattern is rooted at, or nothing for any kind.
  [[nodiscard]] const std::optional<kind_t<Ir>>& root() const { return root_; }
  /// The static benefit.
  [[nodiscard]] Benefit benefit() const { return benefit_; }

  /// Tries to match at `op` and, on a match, rewrites through `rewriter` and
  /// returns true; on no match returns false having changed nothing. On a
  /// match `op` must be replaced, erased or changed in place.
  [[nodiscard]] virtual bool match_and_rewrite(const op_t<Ir>& op, Rewriter<Ir>& rewriter) const = 0;

 private:
  static std::string checked_name(std::string name) {
    if (name.empty()) throw std::invalid_argument("kildall::rewrite::Pattern: a pattern needs a non-empty name");
    return name;
  }

  std::string name_;
  std::optional<kind_t<Ir>> root_;
  Benefit benefit_;
};

namespace detail {

/// A pattern whose match-and-rewrite is a callable `bool(op, Rewriter&)`.
template <RewritableIr Ir, class MatchAndRewrite>
class CallablePattern final : public Pattern<Ir> {
 public:
  /// A pattern running `f`, rooted at `root` (a kind or `any_kind`).
  template <class Root>
  CallablePattern(std::string name, Root&& root, Benefit benefit, MatchAndRewrite f)
      : Pattern<Ir>(std::move(name), std::forward<Root>(root), benefit), f_(std::move(f)) {}
  /// Calls the callable.
  [[nodiscard]] bool match_and_rewrite(const op_t<Ir>& op, Rewriter<Ir>& rewriter) const override {
    return static_cast<bool>(f_(op, rewriter));
  }

 private:
  MatchAndRewrite f_;
};

}  // namespace detail

/// A pattern named `name`, rooted at `root` (a kind of `Ir`, or `any_kind`),
/// whose match-and-rewrite is `f(op, rewriter) -> bool`.
template <RewritableIr Ir, class Root, class MatchAndRewrite>
  requires(std::convertible_to<Root, kind_t<Ir>> || std::same_as<std::remove_cvref_t<Root>, AnyKind>) &&
          std::is_invocable_r_v<bool, const MatchAndRewrite&, const op_t<Ir>&, Rewriter<Ir>&>
[[nodiscard]] std::unique_ptr<Pattern<Ir>> make_pattern(std::string name, Root&& root, Benefit benefit,
                                                        MatchAndRewrite f) {
  using RootArg = std::conditional_t<std::same_as<std::remove_cvref_t<Root>, AnyKind>, AnyKind, kind_t<Ir>>;
  return std::make_unique<detail::CallablePattern<Ir, MatchAndRewrite>>(std::move(name), RootArg(std::forward<Root>(root)),
                                                                        benefit, std::move(f));
}

}  // namespace kildall::rewrite
