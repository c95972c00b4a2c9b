#pragma once
/// \file
/// `ChangeResult`: what every in-place lattice operation returns.

namespace kildall {

/// Whether an in-place lattice operation (`join`, `meet`, `widen`, `narrow`)
/// changed its left operand. Solvers re-queue work only on `changed`, so the
/// type is `[[nodiscard]]`: dropping it is almost always a bug.
enum class [[nodiscard]] ChangeResult : bool {
  unchanged = false,  ///< The left operand is exactly as it was.
  changed = true,     ///< The left operand moved (up for join/widen, down for meet/narrow).
};

/// Combines two change results: `changed` if either changed.
[[nodiscard]] constexpr ChangeResult operator|(ChangeResult a, ChangeResult b) noexcept {
  return static_cast<ChangeResult>(static_cast<bool>(a) || static_cast<bool>(b));
}

/// Accumulates a change result into `a`.
constexpr ChangeResult& operator|=(ChangeResult& a, ChangeResult b) noexcept {
  a = a | b;
  return a;
}

/// True when `r` is `ChangeResult::changed`.
[[nodiscard]] constexpr bool is_changed(ChangeResult r) noexcept { return static_cast<bool>(r); }

/// `changed` when `flag` is true, else `unchanged`.
[[nodiscard]] constexpr ChangeResult change_if(bool flag) noexcept { return static_cast<ChangeResult>(flag); }

}  // namespace kildall
