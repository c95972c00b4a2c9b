// Tests of kildall/lattice/interval.hpp. The oracle throughout is the set of
// members, enumerated by brute force at small widths: an Interval must stand
// for exactly the set its four bounds describe, its bounds must be attained,
// and join/meet/leq must be the closure of union / intersection / inclusion.
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/laws.hpp>
#include <kildall/lattice/lifted.hpp>

#include "interval_oracle.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <vector>

using kildall::ChangeResult;
using kildall::Interval;

namespace {

using namespace kildall::test;  // interval_oracle.hpp

// Every canonical interval of width w, empty included, by canonicalizing
// every raw bound combination.
std::vector<Interval> all_intervals(unsigned w) {
  std::set<std::tuple<std::uint64_t, std::uint64_t, std::int64_t, std::int64_t>> seen;
  std::vector<Interval> out;
  for (std::uint64_t u0 = 0; u0 <= mask_of(w); ++u0)
    for (std::uint64_t u1 = u0; u1 <= mask_of(w); ++u1)
      for (std::int64_t s0 = smin_of(w); s0 <= smax_of(w); ++s0)
        for (std::int64_t s1 = s0; s1 <= smax_of(w); ++s1) {
          const Interval x = Interval::from_bounds(w, u0, u1, s0, s1);
          if (seen.insert({x.umin(), x.umax(), x.smin(), x.smax()}).second) out.push_back(x);
        }
  return out;
}

// A value drawn towards the places where interval code breaks: 0, the sign
// boundary, the top, and small offsets from them.
std::uint64_t interesting_bits(unsigned w, std::mt19937_64& rng) {
  const std::uint64_t m = mask_of(w);
  const std::uint64_t h = std::uint64_t{1} << (w - 1);
  std::uniform_int_distribution<int> pick(0, 5);
  std::uniform_int_distribution<std::uint64_t> any(0, m);
  std::uniform_int_distribution<std::uint64_t> small(0, 3);
  switch (pick(rng)) {
    case 0: return small(rng) & m;
    case 1: return (h - 1 - small(rng)) & m;
    case 2: return (h + small(rng)) & m;
    case 3: return (m - small(rng)) & m;
    default: return any(rng);
  }
}

// A random interval of width w: each of the two parts (non-negative,
// negative) present or not, with endpoints drawn by `interesting_bits`.
Interval random_interval(unsigned w, std::mt19937_64& rng, bool allow_empty = true) {
  std::bernoulli_distribution coin(0.5);
  for (;;) {
    Interval x = Interval::empty(w);
    if (std::bernoulli_distribution(0.02)(rng)) x = Interval::full(w);
    std::uint64_t a = interesting_bits(w, rng), b = interesting_bits(w, rng);
    if (a > b) std::swap(a, b);
    (void)x.join(Interval::from_unsigned(w, a, b).nonnegative_part());
    if (coin(rng)) {
      a = interesting_bits(w, rng), b = interesting_bits(w, rng);
      if (a > b) std::swap(a, b);
      (void)x.join(Interval::from_unsigned(w, a, b).negative_part());
    }
    if (coin(rng)) x = Interval::from_unsigned(w, a, b);
    if (std::bernoulli_distribution(0.1)(rng)) x = Interval::constant(w, a);
    if (allow_empty || !x.is_empty()) return x;
  }
}

}  // namespace

TEST_CASE("canonical form: an Interval is exactly the set its bounds describe, with every bound attained") {
  for (unsigned w = 1; w <= 4; ++w) {
    CAPTURE(w);
    for (std::uint64_t u0 = 0; u0 <= mask_of(w); ++u0)
      for (std::uint64_t u1 = 0; u1 <= mask_of(w); ++u1)
        for (std::int64_t s0 = smin_of(w); s0 <= smax_of(w); ++s0)
          for (std::int64_t s1 = smin_of(w); s1 <= smax_of(w); ++s1) {
            const Interval x = Interval::from_bounds(w, u0, u1, s0, s1);
            std::uint64_t expected = 0;
            for (std::uint64_t v = 0; v <= mask_of(w); ++v) {
              if (u0 <= v && v <= u1 && s0 <= signed_of(w, v) && signed_of(w, v) <= s1) expected |= 1u << v;
            }
            REQUIRE(x.width() == w);
            REQUIRE(members(x) == expected);
            REQUIRE(x.is_empty() == (expected == 0));
            if (expected == 0) {
              REQUIRE(x == Interval::empty(w));
              continue;
            }
            // Attained bounds: the canonical bounds are the member extremes.
            REQUIRE(((members(x) >> x.umin()) & 1) == 1);
            REQUIRE(((members(x) >> x.umax()) & 1) == 1);
            REQUIRE(x.contains_signed(x.smin()));
            REQUIRE(x.contains_signed(x.smax()));
            REQUIRE(x == closure(w, expected));
          }
  }
}

TEST_CASE("canonical form: == is set equality and every union of a non-negative and a negative run is representable") {
  for (unsigned w = 1; w <= 4; ++w) {
    const std::vector<Interval> all = all_intervals(w);
    // Runs of one sign: n points give n(n+1)/2 runs, plus "no run".
    const std::uint64_t n = std::uint64_t{1} << (w - 1);
    const std::uint64_t runs = n * (n + 1) / 2 + 1;
    CHECK(all.size() == runs * runs);
    std::set<std::uint64_t> sets;
    for (const Interval& x : all) sets.insert(members(x));
    CHECK(sets.size() == all.size());  // distinct values are distinct sets
  }
}

TEST_CASE("factories") {
  SUBCASE("empty and full") {
    for (unsigned w = 1; w <= 64; ++w) {
      const Interval e = Interval::empty(w), f = Interval::full(w);
      CHECK(e.is_empty());
      CHECK(!e.is_full());
      CHECK(f.is_full());
      CHECK(!f.is_empty());
      CHECK(f.umin() == 0);
      CHECK(f.umax() == mask_of(w));
      CHECK(f.smin() == smin_of(w));
      CHECK(f.smax() == smax_of(w));
      CHECK(e.umin() > e.umax());
      CHECK(e.smin() > e.smax());
      CHECK(Interval::from_unsigned(w, 0, mask_of(w)) == f);
      CHECK(Interval::from_signed(w, smin_of(w), smax_of(w)) == f);
      CHECK(Interval::from_bounds(w, 0, mask_of(w), smin_of(w), smax_of(w)) == f);
      CHECK(!e.contains(0));
      CHECK(f.contains(mask_of(w)));
    }
    CHECK(Interval() == Interval::empty(64));
  }
  SUBCASE("constants given as bits or as signed numbers") {
    CHECK(Interval::constant(4, 15) == Interval::constant(4, -1));
    CHECK(Interval::constant(4, 8) == Interval::constant(4, -8));
    CHECK(Interval::constant(4, -8).smin() == -8);
    CHECK(Interval::constant(4, -8).umin() == 8);
    CHECK(Interval::constant(1, 1).smin() == -1);
    CHECK(Interval::constant(1, true) == Interval::constant(1, 1));
    CHECK(Interval::constant(64, std::numeric_limits<std::uint64_t>::max()) == Interval::constant(64, -1));
    CHECK(Interval::constant(64, std::numeric_limits<std::int64_t>::min()).umin() == std::uint64_t{1} << 63);
    const Interval c = Interval::constant(8, 200);
    CHECK(c.is_constant());
    CHECK(c.unsigned_constant() == std::optional<std::uint64_t>(200));
    CHECK(c.signed_constant() == std::optional<std::int64_t>(-56));
    CHECK(c.cardinality() == std::optional<std::uint64_t>(1));
    CHECK(!Interval::from_unsigned(8, 1, 2).unsigned_constant());
    CHECK(!Interval::from_unsigned(8, 1, 2).signed_constant());
    CHECK_THROWS_AS((void)Interval::constant(4, 16), std::invalid_argument);
    CHECK_THROWS_AS((void)Interval::constant(4, -9), std::invalid_argument);
  }
  SUBCASE("one view given: the other view is derived") {
    // Unsigned [6, 9] of 4 bits crosses the sign boundary: {6, 7, -8, -7}.
    const Interval crossing = Interval::from_unsigned(4, 6, 9);
    CHECK(crossing.smin() == -8);
    CHECK(crossing.smax() == 7);
    CHECK(members(crossing) == 0b0000'0011'1100'0000u);
    // Unsigned [1, 5] stays non-negative: the signed view is the same range.
    const Interval low = Interval::from_unsigned(4, 1, 5);
    CHECK(low.smin() == 1);
    CHECK(low.smax() == 5);
    // Signed [-2, 1] wraps the unsigned view: {14, 15, 0, 1}.
    const Interval around = Interval::from_signed(4, -2, 1);
    CHECK(around.umin() == 0);
    CHECK(around.umax() == 15);
    CHECK(members(around) == 0b1100'0000'0000'0011u);
    // Signed [-5, -3] is one unsigned run.
    const Interval neg = Interval::from_signed(4, -5, -3);
    CHECK(neg.umin() == 11);
    CHECK(neg.umax() == 13);
    CHECK(Interval::from_unsigned(4, 5, 4).is_empty());
    CHECK(Interval::from_signed(4, 2, -2).is_empty());
    // Disjoint views.
    CHECK(Interval::from_bounds(4, 0, 5, -8, -1).is_empty());
  }
  SUBCASE("fixed C++ types") {
    CHECK(Interval::width_of<bool> == 1);
    CHECK(Interval::width_of<std::int8_t> == 8);
    CHECK(Interval::width_of<std::uint64_t> == 64);
    CHECK(Interval::full_of<std::int16_t>() == Interval::full(16));
    CHECK(Interval::constant_of(std::int8_t{-1}) == Interval::constant(8, 255));
    CHECK(Interval::constant_of(std::uint32_t{7}) == Interval::constant(32, 7));
    CHECK(Interval::from_range_of<std::int8_t>(-3, 4) == Interval::from_signed(8, -3, 4));
    CHECK(Interval::from_range_of<std::uint8_t>(100, 200) == Interval::from_unsigned(8, 100, 200));
  }
  SUBCASE("bad arguments throw") {
    CHECK_THROWS_AS((void)Interval::empty(0), std::invalid_argument);
    CHECK_THROWS_AS((void)Interval::full(65), std::invalid_argument);
    CHECK_THROWS_AS((void)Interval::from_unsigned(4, 0, 16), std::invalid_argument);
    CHECK_THROWS_AS((void)Interval::from_signed(4, -9, 0), std::invalid_argument);
    CHECK_THROWS_AS((void)Interval::from_signed(4, 0, 8), std::invalid_argument);
    CHECK_THROWS_AS((void)Interval::from_bounds(4, 0, 15, -8, 8), std::invalid_argument);
  }
}

TEST_CASE("accessors agree with the member set") {
  for (unsigned w = 1; w <= 4; ++w) {
    for (const Interval& x : all_intervals(w)) {
      CAPTURE(x);
      const std::uint64_t m = members(x);
      const auto count = static_cast<std::uint64_t>(__builtin_popcountll(m));
      CHECK(x.cardinality() == std::optional<std::uint64_t>(count));
      CHECK(x.is_constant() == (count == 1));
      CHECK(x.is_full() == (count == (std::uint64_t{1} << w)));
      std::uint64_t nonneg = 0, neg = 0;
      for (std::uint64_t v = 0; v <= mask_of(w); ++v) {
        if (!((m >> v) & 1)) continue;
        CHECK(x.contains_signed(signed_of(w, v)));
        (signed_of(w, v) < 0 ? neg : nonneg) |= std::uint64_t{1} << v;
      }
      CHECK(members(x.nonnegative_part()) == nonneg);
      CHECK(members(x.negative_part()) == neg);
      CHECK(x.is_nonnegative() == (neg == 0));
      CHECK(x.is_negative() == (nonneg == 0));
    }
    CHECK(!Interval::full(w).contains(mask_of(w) + 1));
    CHECK(!Interval::full(w).contains_signed(smax_of(w) + 1));
  }
  CHECK(!Interval::full(64).cardinality().has_value());
  CHECK(Interval::from_signed(64, -1, 0).cardinality() == std::optional<std::uint64_t>(2));
  CHECK(Interval::from_unsigned(64, 0, mask_of(64) - 1).cardinality() == std::optional<std::uint64_t>(mask_of(64)));
}

TEST_CASE("printing") {
  std::ostringstream out;
  out << Interval::from_unsigned(4, 6, 9);
  CHECK(out.str() == "[-8, 7] u[6, 9]");
  CHECK(to_string(Interval::empty(8)) == "empty");
  CHECK(to_string(Interval::constant(8, -3)) == "[-3, -3] u[253, 253]");
  CHECK(to_string(Interval::full(64)) == "[-9223372036854775808, 9223372036854775807] u[0, 18446744073709551615]");
  // The MLIR debug text, as in `--debug-only=int-range-analysis` for an i5 in [0, 12].
  CHECK(to_mlir_debug_string(Interval::from_unsigned(5, 0, 12)) == "unsigned : [0, 12] signed : [0, 12]");
  CHECK(to_mlir_debug_string(Interval::from_signed(4, -2, 1)) == "unsigned : [0, 15] signed : [-2, 1]");
  CHECK(to_mlir_debug_string(Interval::empty(4)) == "empty");
}

TEST_CASE("join, meet and leq are closure of union, intersection and inclusion (exhaustive, 4 bits)") {
  const unsigned w = 4;
  const std::vector<Interval> all = all_intervals(w);
  std::vector<std::uint64_t> sets;
  for (const Interval& x : all) sets.push_back(members(x));
  // Closure of every 16-bit set, computed once.
  std::vector<Interval> closure_of(std::size_t{1} << 16);
  for (std::uint64_t s = 0; s < closure_of.size(); ++s) closure_of[s] = closure(w, s);
  std::size_t failures = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    for (std::size_t j = 0; j < all.size(); ++j) {
      Interval joined = all[i];
      const ChangeResult jc = joined.join(all[j]);
      Interval met = all[i];
      const ChangeResult mc = met.meet(all[j]);
      const bool ok = joined == closure_of[sets[i] | sets[j]] && met == closure_of[sets[i] & sets[j]] &&
                      members(met) == (sets[i] & sets[j]) &&
                      all[i].leq(all[j]) == ((sets[i] & ~sets[j]) == 0) &&
                      is_changed(jc) == !(joined == all[i]) && is_changed(mc) == !(met == all[i]);
      if (!ok && ++failures <= 5) FAIL_CHECK("a = " << all[i] << ", b = " << all[j]);
    }
  }
  CHECK(failures == 0);
}

TEST_CASE("lattice laws, exhaustive over every interval of 3 bits") {
  const std::vector<Interval> all = all_intervals(3);
  REQUIRE(all.size() == 121);
  kildall::laws::Options options;
  options.seed = 3;
  options.chains = 200;
  options.chain_length = 64;
  options.widening_bound = 7;  // a part appears and each of its ends jumps once: 2 x 3, + 1 from empty
  const kildall::laws::Report report = kildall::laws::check_all_laws(all, options);
  CHECK_MESSAGE(report.ok(), report.failures());
  CHECK(report.held(kildall::laws::law::join_least));
  CHECK(report.held(kildall::laws::law::meet_greatest));
  CHECK(report.held(kildall::laws::law::absorption));
  CHECK(report.held(kildall::laws::law::widen_stabilizes));
  CHECK(report.held(kildall::laws::law::narrow_between));
}

TEST_CASE("lattice laws, randomized at 8, 32 and 64 bits") {
  for (const unsigned w : {8u, 32u, 64u}) {
    CAPTURE(w);
    kildall::laws::Options options;
    options.seed = 1000 + w;
    options.samples = 3000;
    options.chains = 300;
    options.chain_length = 200;
    options.widening_bound = 7;
    kildall::laws::Hooks<Interval> hooks;
    // Grow a bound by a little each step so that a widening that merely
    // joined would change ~chain_length times and be caught.
    hooks.ascend = [w](const Interval& previous, std::mt19937_64& rng) {
      if (previous.is_empty()) return random_interval(w, rng);
      Interval next = previous;
      const std::uint64_t s = std::uniform_int_distribution<std::uint64_t>(1, 3)(rng);
      const auto si = static_cast<std::int64_t>(s);
      switch (std::uniform_int_distribution<int>(0, 3)(rng)) {  // saturating steps
        case 0: (void)next.join(Interval::constant(w, previous.umin() > s ? previous.umin() - s : 0)); break;
        case 1:
          (void)next.join(Interval::constant(w, previous.umax() < mask_of(w) - s ? previous.umax() + s : mask_of(w)));
          break;
        case 2:
          (void)next.join(Interval::constant(w, previous.smin() > smin_of(w) + si ? previous.smin() - si : smin_of(w)));
          break;
        default:
          (void)next.join(Interval::constant(w, previous.smax() < smax_of(w) - si ? previous.smax() + si : smax_of(w)));
          break;
      }
      return next;
    };
    const auto gen = [w](std::mt19937_64& rng) { return random_interval(w, rng); };
    const kildall::laws::Report report = kildall::laws::check_all_laws(gen, options, hooks);
    CHECK_MESSAGE(report.ok(), report.failures());
  }
}

TEST_CASE("widening: bounds that grow jump to the width's limits, and chains stop within 7 changes") {
  // [0, 3] then [0, 5]: the upper bounds grew, both jump to their limits;
  // the signed view (non-negative) then cuts the unsigned one at 2^(w-1)-1.
  Interval x = Interval::from_unsigned(8, 0, 3);
  CHECK(x.widen(Interval::from_unsigned(8, 0, 5)) == ChangeResult::changed);
  CHECK(x == Interval::from_signed(8, 0, 127));
  CHECK(x.widen(Interval::from_unsigned(8, 0, 100)) == ChangeResult::unchanged);
  CHECK(x.widen(Interval::constant(8, -1)) == ChangeResult::changed);
  CHECK(x == Interval::full(8));
  // From empty, widening takes the other operand as it is.
  Interval e = Interval::empty(8);
  CHECK(e.widen(Interval::constant(8, 7)) == ChangeResult::changed);
  CHECK(e == Interval::constant(8, 7));
  CHECK(e.widen(Interval::empty(8)) == ChangeResult::unchanged);

  // Long random increasing chains at every width: at most 7 changes.
  std::mt19937_64 rng(7);
  std::size_t worst = 0;
  for (unsigned w = 1; w <= 64; ++w) {
    for (int chain = 0; chain < 200; ++chain) {
      Interval y = random_interval(w, rng);
      Interval acc = y;
      std::size_t changes = 0;
      for (int k = 0; k < 100; ++k) {
        (void)y.join(random_interval(w, rng));
        const Interval before = acc;
        const ChangeResult c = acc.widen(y);
        CHECK(is_changed(c) == !(acc == before));
        CHECK(y.leq(acc));
        CHECK(before.leq(acc));
        changes += is_changed(c) ? 1 : 0;
      }
      worst = std::max(worst, changes);
    }
  }
  MESSAGE("most changes in a widening chain: " << worst);
  CHECK(worst <= 7);
}

TEST_CASE("narrowing: limits are replaced by the other operand's bounds; chains stop within 4 changes") {
  Interval x = Interval::from_signed(8, 0, 127);  // e.g. after widening
  CHECK(x.narrow(Interval::from_unsigned(8, 0, 10)) == ChangeResult::changed);
  CHECK(x == Interval::from_unsigned(8, 0, 10));
  CHECK(x.narrow(Interval::from_unsigned(8, 2, 5)) == ChangeResult::changed);  // umin = 0 is a limit
  CHECK(x == Interval::from_unsigned(8, 2, 10));
  CHECK(x.narrow(Interval::from_unsigned(8, 3, 5)) == ChangeResult::unchanged);  // no bound at a limit any more
  Interval y = Interval::full(8);
  CHECK(y.narrow(Interval::empty(8)) == ChangeResult::changed);
  CHECK(y.is_empty());

  std::mt19937_64 rng(11);
  std::size_t worst = 0;
  for (unsigned w = 1; w <= 64; ++w) {
    for (int chain = 0; chain < 200; ++chain) {
      Interval acc = Interval::full(w);
      Interval y2 = random_interval(w, rng, false);
      (void)acc.meet(random_interval(w, rng, false));
      (void)y2.meet(acc);
      std::size_t changes = 0;
      for (int k = 0; k < 50 && !y2.is_empty(); ++k) {
        const Interval before = acc;
        const ChangeResult c = acc.narrow(y2);
        CHECK(is_changed(c) == !(acc == before));
        CHECK(y2.leq(acc));
        CHECK(acc.leq(before));
        changes += is_changed(c) ? 1 : 0;
        Interval smaller = random_interval(w, rng);
        (void)smaller.join(y2);  // keep some chains from collapsing at once
        (void)y2.meet(smaller);
        if (std::bernoulli_distribution(0.3)(rng)) (void)y2.meet(random_interval(w, rng));
      }
      worst = std::max(worst, changes);
    }
  }
  MESSAGE("most changes in a narrowing chain: " << worst);
  CHECK(worst <= 4);  // each of the 4 bounds leaves its limit at most once
}

TEST_CASE("mixing widths is a precondition violation") {
  Interval a = Interval::full(8);
  const Interval b = Interval::full(16);
  CHECK_THROWS_AS((void)a.join(b), std::invalid_argument);
  CHECK_THROWS_AS((void)a.meet(b), std::invalid_argument);
  CHECK_THROWS_AS((void)a.leq(b), std::invalid_argument);
  CHECK_THROWS_AS((void)a.widen(b), std::invalid_argument);
  CHECK_THROWS_AS((void)a.narrow(b), std::invalid_argument);
  CHECK_THROWS_AS((void)a.join(Interval::empty(16)), std::invalid_argument);
  CHECK(a == Interval::full(8));
  CHECK(!(Interval::empty(4) == Interval::empty(8)));
}

TEST_CASE("Lifted<Interval> gives the width-free bottom and top a solver needs") {
  using State = kildall::Lifted<Interval>;
  static_assert(kildall::BoundedLattice<State>);
  static_assert(kildall::WidenableLattice<State> && kildall::NarrowableLattice<State>);
  State s;  // uninitialized: no width yet
  CHECK(s.is_bottom());
  CHECK(s.join(State(Interval::constant(8, 3))) == ChangeResult::changed);
  CHECK(s.join(State(Interval::constant(8, 7))) == ChangeResult::changed);
  CHECK(s.value() == Interval::from_unsigned(8, 3, 7));
  CHECK(s.join(State::top()) == ChangeResult::changed);
  CHECK(s.is_top());
  // The law kit over every 2-bit interval, lifted.
  std::vector<State> all{State::bottom(), State::top()};
  for (std::uint64_t u0 = 0; u0 < 4; ++u0)
    for (std::uint64_t u1 = u0; u1 < 4; ++u1)
      for (std::int64_t s0 = -2; s0 < 2; ++s0)
        for (std::int64_t s1 = s0; s1 < 2; ++s1) {
          const State x(Interval::from_bounds(2, u0, u1, s0, s1));
          if (std::find(all.begin(), all.end(), x) == all.end()) all.push_back(x);
        }
  CHECK(all.size() == 2 + 16);
  const kildall::laws::Report report = kildall::laws::check_all_laws(all);
  CHECK_MESSAGE(report.ok(), report.failures());
}
