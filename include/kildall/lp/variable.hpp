#pragma once
/// \file
/// Decision variables of a linear / mixed-integer linear model: a variable is
/// a small handle (an index into the `Model` that created it); the model owns
/// its type, bounds and name.

#include <cstdint>
#include <functional>
#include <limits>
#include <string>

namespace kildall::lp {

/// Positive infinity, the "no bound" value for variable and row bounds.
inline constexpr double inf = std::numeric_limits<double>::infinity();

/// Domain of a variable.
enum class VarType : std::uint8_t {
  continuous,  ///< any real value within the bounds
  integer,     ///< integral values within the bounds
  binary,      ///< integral values in [0, 1] (bounds may fix it to 0 or 1)
};

/// Handle of a variable: an index into the model that created it. Copying it
/// is copying one 32-bit integer. Handles of different models must not be
/// mixed. Deliberately has no `operator==`: `x == y` on two variables builds
/// the equality constraint `x = y` (compare `x.index() == y.index()` instead).
class Var {
 public:
  /// Index value of a default-constructed (invalid) handle.
  static constexpr std::uint32_t invalid_index = std::numeric_limits<std::uint32_t>::max();

  /// An invalid handle (refers to no variable).
  constexpr Var() noexcept = default;
  /// The handle of the variable with the given model index.
  constexpr explicit Var(std::uint32_t index) noexcept : index_(index) {}

  /// Index of the variable in its model (0, 1, 2, ... in creation order).
  [[nodiscard]] constexpr std::uint32_t index() const noexcept { return index_; }
  /// True unless default-constructed.
  [[nodiscard]] constexpr bool valid() const noexcept { return index_ != invalid_index; }

 private:
  std::uint32_t index_ = invalid_index;
};

/// Everything a model stores about one variable.
struct VarInfo {
  double lower = 0.0;                   ///< lower bound (may be -inf)
  double upper = inf;                   ///< upper bound (may be +inf)
  VarType type = VarType::continuous;   ///< domain
  std::string name;                     ///< optional name ("" = unnamed)

  /// True for integer and binary variables.
  [[nodiscard]] bool is_integral() const noexcept { return type != VarType::continuous; }
};

/// Name of a variable type ("continuous", "integer", "binary").
[[nodiscard]] constexpr const char* to_string(VarType type) noexcept {
  switch (type) {
    case VarType::continuous: return "continuous";
    case VarType::integer: return "integer";
    case VarType::binary: return "binary";
  }
  return "?";
}

}  // namespace kildall::lp

namespace std {

/// Handle equality for containers (`Var` itself has no `operator==`, see Var).
template <>
struct equal_to<kildall::lp::Var> {
  /// True when both handles have the same index.
  [[nodiscard]] constexpr bool operator()(kildall::lp::Var a, kildall::lp::Var b) const noexcept {
    return a.index() == b.index();
  }
};

/// Hash of a variable handle (so `Var` can key unordered containers).
template <>
struct hash<kildall::lp::Var> {
  /// Hash of the index.
  [[nodiscard]] std::size_t operator()(kildall::lp::Var v) const noexcept {
    return std::hash<std::uint32_t>{}(v.index());
  }
};

}  // namespace std
