#include <kildall/lattice/concepts.hpp>

#include <doctest/doctest.h>

#include <algorithm>

namespace {
// The smallest conforming lattice: a two-point chain, false ⊑ true.
struct Bit {
  bool value = false;
  [[nodiscard]] kildall::ChangeResult join(const Bit& other) {
    const bool before = value;
    value = value || other.value;
    return kildall::change_if(before != value);
  }
  [[nodiscard]] bool leq(const Bit& other) const { return !value || other.value; }
  static Bit bottom() { return {}; }
  static Bit top() { return {true}; }
  [[nodiscard]] bool is_bottom() const { return !value; }
  [[nodiscard]] bool is_top() const { return value; }
  friend bool operator==(const Bit&, const Bit&) = default;
};

struct NoOrder {
  kildall::ChangeResult join(const NoOrder&) { return kildall::ChangeResult::unchanged; }
  friend bool operator==(const NoOrder&, const NoOrder&) = default;
};
}  // namespace

TEST_CASE("concept membership") {
  static_assert(kildall::BoundedLattice<Bit>);
  static_assert(!kildall::WidenableLattice<Bit>);
  static_assert(!kildall::MeetSemiLattice<Bit>);
  static_assert(!kildall::JoinSemiLattice<NoOrder>);
  static_assert(!kildall::JoinSemiLattice<int>);
}

TEST_CASE("ChangeResult combines") {
  using kildall::ChangeResult;
  CHECK((ChangeResult::unchanged | ChangeResult::changed) == ChangeResult::changed);
  CHECK((ChangeResult::unchanged | ChangeResult::unchanged) == ChangeResult::unchanged);
  ChangeResult acc = ChangeResult::unchanged;
  acc |= ChangeResult::changed;
  CHECK(kildall::is_changed(acc));
  Bit a, b{true};
  CHECK(kildall::is_changed(a.join(b)));
  CHECK_FALSE(kildall::is_changed(a.join(b)));
  CHECK(b.leq(a));
}
