#pragma once
/// \file
/// Types of the reference IR: signless integers `i1`..`i64`, `index` (64 bits
/// wide for the interpreter and analyses), opaque dialect types such as
/// `!noisy.i32`, and function types such as `(i32) -> i32` (the type of a
/// `func.constant`), both of which an `OpRegistry` interns. A type is one
/// 32-bit word so values stay small and comparisons are a single integer compare.

#include <compare>
#include <cstdint>

namespace kildall::ir {

/// A type: the null type, `iN` (1 <= N <= 64), `index`, a dialect type, or a function type.
class Type {
 public:
  /// The null type (no type).
  constexpr Type() = default;

  /// `iN`; `width` must be in [1, 64].
  [[nodiscard]] static constexpr Type integer(unsigned width) { return Type(width); }
  /// `index`.
  [[nodiscard]] static constexpr Type index() { return Type(index_code); }
  /// The dialect type with registry id `id` (see `OpRegistry::add_type`).
  [[nodiscard]] static constexpr Type dialect(std::uint32_t id) { return Type(dialect_base + id); }
  /// The function type with registry id `id` (see `OpRegistry::function_type`).
  [[nodiscard]] static constexpr Type function(std::uint32_t id) { return Type(function_base + id); }
  /// `i1`, the type of conditions.
  [[nodiscard]] static constexpr Type i1() { return integer(1); }

  /// True for the null type.
  [[nodiscard]] constexpr bool is_null() const { return raw_ == 0; }
  /// True for `iN`.
  [[nodiscard]] constexpr bool is_integer() const { return raw_ >= 1 && raw_ <= 64; }
  /// True for `index`.
  [[nodiscard]] constexpr bool is_index() const { return raw_ == index_code; }
  /// True for `iN` or `index` (MLIR's "signless-integer-like").
  [[nodiscard]] constexpr bool is_integer_like() const { return is_integer() || is_index(); }
  /// True for a dialect type.
  [[nodiscard]] constexpr bool is_dialect() const { return raw_ >= dialect_base && raw_ < function_base; }
  /// The registry id of a dialect type.
  [[nodiscard]] constexpr std::uint32_t dialect_id() const { return raw_ - dialect_base; }
  /// True for a function type (`(i32) -> i32`).
  [[nodiscard]] constexpr bool is_function() const { return raw_ >= function_base; }
  /// The registry id of a function type.
  [[nodiscard]] constexpr std::uint32_t function_id() const { return raw_ - function_base; }
  /// Bit width of an integer-like type (`index` is 64 bits); 0 otherwise.
  [[nodiscard]] constexpr unsigned width() const {
    if (is_integer()) return raw_;
    if (is_index()) return 64;
    return 0;
  }
  /// The encoded word (stable within one registry).
  [[nodiscard]] constexpr std::uint32_t raw() const { return raw_; }

  /// Types compare by identity.
  friend constexpr bool operator==(Type, Type) = default;

 private:
  static constexpr std::uint32_t index_code = 65;
  static constexpr std::uint32_t dialect_base = 128;
  static constexpr std::uint32_t function_base = 0x80000000u;
  constexpr explicit Type(std::uint32_t raw) : raw_(raw) {}
  std::uint32_t raw_ = 0;
};

/// All-ones mask of the low `width` bits (`width` in [0, 64]).
[[nodiscard]] constexpr std::uint64_t width_mask(unsigned width) {
  return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

/// `bits` (the low `width` bits matter) sign-extended to 64 bits.
[[nodiscard]] constexpr std::int64_t sign_extend(std::uint64_t bits, unsigned width) {
  if (width >= 64) return static_cast<std::int64_t>(bits);
  const std::uint64_t sign = std::uint64_t{1} << (width - 1);
  bits &= width_mask(width);
  return static_cast<std::int64_t>((bits ^ sign) - sign);
}

}  // namespace kildall::ir
