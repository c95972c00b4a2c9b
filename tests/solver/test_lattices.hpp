#pragma once
// Tiny lattices for the solver tests, independent of kildall/lattice/*.

#include <kildall/lattice/change_result.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <ostream>

namespace solver_test {

/// Integers ordered by <=, join = max; infinite height; widening jumps to +inf.
struct MaxInt {
  static constexpr std::int64_t inf = std::numeric_limits<std::int64_t>::max();
  std::int64_t value = std::numeric_limits<std::int64_t>::min();

  [[nodiscard]] kildall::ChangeResult join(const MaxInt& o) {
    const auto before = value;
    value = std::max(value, o.value);
    return kildall::change_if(before != value);
  }
  [[nodiscard]] bool leq(const MaxInt& o) const { return value <= o.value; }
  [[nodiscard]] kildall::ChangeResult widen(const MaxInt& o) {
    if (o.value > value) {
      value = inf;
      return kildall::ChangeResult::changed;
    }
    return kildall::ChangeResult::unchanged;
  }
  [[nodiscard]] kildall::ChangeResult narrow(const MaxInt& o) {
    if (value == inf && o.value != inf) {
      value = o.value;
      return kildall::ChangeResult::changed;
    }
    return kildall::ChangeResult::unchanged;
  }
  friend bool operator==(const MaxInt&, const MaxInt&) = default;
  friend std::ostream& operator<<(std::ostream& os, const MaxInt& m) { return os << m.value; }
};

/// Flat constant lattice: bottom < constants < top.
struct Const {
  enum Kind : std::uint8_t { bottom, constant, top };
  Kind kind = bottom;
  std::int64_t value = 0;

  static Const of(std::int64_t v) { return Const{constant, v}; }
  static Const overdefined() { return Const{top, 0}; }

  [[nodiscard]] kildall::ChangeResult join(const Const& o) {
    if (o.kind == bottom || *this == o || kind == top) return kildall::ChangeResult::unchanged;
    if (kind == bottom) {
      *this = o;
    } else {
      *this = overdefined();
    }
    return kildall::ChangeResult::changed;
  }
  [[nodiscard]] bool leq(const Const& o) const { return kind == bottom || o.kind == top || *this == o; }
  friend bool operator==(const Const&, const Const&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Const& c) {
    if (c.kind == bottom) return os << "bottom";
    if (c.kind == top) return os << "top";
    return os << c.value;
  }
};

/// Up to 64 facts, join = union.
struct Bits {
  std::uint64_t bits = 0;
  [[nodiscard]] kildall::ChangeResult join(const Bits& o) {
    const auto before = bits;
    bits |= o.bits;
    return kildall::change_if(before != bits);
  }
  [[nodiscard]] bool leq(const Bits& o) const { return (bits & ~o.bits) == 0; }
  friend bool operator==(const Bits&, const Bits&) = default;
};

}  // namespace solver_test
