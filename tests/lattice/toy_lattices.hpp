#pragma once
// Small lattices shared by the lattice tests (test-only; not part of the library).

#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>
#include <kildall/lattice/flat.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <ostream>
#include <random>

namespace kildall::test {

/// A Flat<int> element from a small code, for enumerating the lattice:
/// 0 is bottom, 1 is top, 2, 3, ... are the constants 0, 1, ...
[[nodiscard]] inline Flat<int> flat_value(unsigned code) {
  return code == 0 ? Flat<int>::bottom() : code == 1 ? Flat<int>::top() : Flat<int>(static_cast<int>(code) - 2);
}

/// The chain 0 ⊑ 1 ⊑ 2 ⊑ ... ⊑ infinity with max/min, a widening that jumps
/// to infinity on growth and a narrowing that refines infinity: an
/// infinite-height lattice that needs widening.
struct Chain {
  static constexpr std::uint64_t infinity = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t v = 0;

  [[nodiscard]] ChangeResult join(const Chain& o) {
    const std::uint64_t before = v;
    v = std::max(v, o.v);
    return change_if(before != v);
  }
  [[nodiscard]] ChangeResult meet(const Chain& o) {
    const std::uint64_t before = v;
    v = std::min(v, o.v);
    return change_if(before != v);
  }
  [[nodiscard]] bool leq(const Chain& o) const { return v <= o.v; }
  [[nodiscard]] ChangeResult widen(const Chain& o) {
    if (o.v <= v) return ChangeResult::unchanged;
    v = infinity;
    return ChangeResult::changed;
  }
  [[nodiscard]] ChangeResult narrow(const Chain& o) {
    if (v != infinity || o.v == infinity) return ChangeResult::unchanged;
    v = o.v;
    return ChangeResult::changed;
  }
  [[nodiscard]] static Chain bottom() { return {}; }
  [[nodiscard]] static Chain top() { return {infinity}; }
  [[nodiscard]] bool is_bottom() const { return v == 0; }
  [[nodiscard]] bool is_top() const { return v == infinity; }
  friend bool operator==(const Chain&, const Chain&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Chain& c) {
    return c.v == infinity ? os << "inf" : os << c.v;
  }
};

/// A random `Chain`: mostly small numbers, sometimes infinity.
inline Chain random_chain(std::mt19937_64& rng) {
  std::uniform_int_distribution<std::uint64_t> pick(0, 20);
  const std::uint64_t x = pick(rng);
  return {x == 20 ? Chain::infinity : x};
}

/// The next element of an unbounded increasing chain: one more (a widening
/// that only joins never stabilizes on these).
inline Chain chain_step_up(const Chain& c, std::mt19937_64&) {
  return {c.v == Chain::infinity ? c.v : c.v + 1};
}

}  // namespace kildall::test
