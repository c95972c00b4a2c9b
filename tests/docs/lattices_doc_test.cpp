// Compiles and runs the C++ blocks of docs/lattices.md, as printed there, so the
// page cannot rot (tests/docs/check_doc_snippets.py checks they are verbatim).
// Each block is followed by checks of what the page says about it; where the
// page comments on intermediate states, the steps are replayed and checked.

// --- docs/lattices.md: "Running it on your lattice" (verbatim, a whole test) ---
#include <kildall/lattice/flat.hpp>
#include <kildall/lattice/laws.hpp>
#include <doctest/doctest.h>

using MyLattice = kildall::Flat<int>;  // stands for your type

TEST_CASE("my lattice obeys the laws") {
  auto gen = [](std::mt19937_64& rng) {  // any mix of elements, bottom and top included
    const auto pick = rng() % 6;
    return pick == 0 ? MyLattice::bottom() : pick == 1 ? MyLattice::top() : MyLattice(int(pick) - 3);
  };
  auto report = kildall::laws::check_all_laws(gen, {.seed = 1, .samples = 500});
  CHECK_MESSAGE(report.ok(), report.failures());

  std::vector<MyLattice> every_element{MyLattice::bottom(), MyLattice(0), MyLattice(1), MyLattice(2),
                                       MyLattice::top()};
  auto exhaustive = kildall::laws::check_all_laws(every_element);
  CHECK_MESSAGE(exhaustive.ok(), exhaustive.failures());
}
// --- end of the snippet ---

#include <kildall/lattice/bitset.hpp>
#include <kildall/lattice/environment.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/interval_transfer.hpp>
#include <kildall/lattice/lifted.hpp>
#include <kildall/lattice/map.hpp>
#include <kildall/lattice/powerset.hpp>
#include <kildall/lattice/product.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using kildall::ChangeResult;

TEST_CASE("docs/lattices.md: the law kit reports what it promises") {
  std::vector<MyLattice> every_element{MyLattice::bottom(), MyLattice(0), MyLattice(1), MyLattice(2),
                                       MyLattice::top()};
  // --- docs/lattices.md: monotone transfer functions (verbatim) ---
  auto add = [](const MyLattice& a, const MyLattice& b) {  // abstract addition
    if (a.is_bottom() || b.is_bottom()) return MyLattice::bottom();
    if (a.is_top() || b.is_top()) return MyLattice::top();
    return MyLattice(a.constant() + b.constant());
  };
  CHECK(kildall::laws::check_monotone_binary(every_element, add).ok());
  // --- end of the snippet ---
  CHECK(add(MyLattice(1), MyLattice(2)) == MyLattice(3));
  // The check can fail: "is zero" (bottom -> top, constants -> 0/1) is not monotone.
  auto is_zero = [](const MyLattice& a, const MyLattice&) {
    if (a.is_bottom()) return MyLattice::top();
    if (a.is_top()) return MyLattice::bottom();
    return MyLattice(a.constant() == 0 ? 1 : 0);
  };
  const auto broken = kildall::laws::check_monotone_binary(every_element, is_zero);
  CHECK_FALSE(broken.ok());
  CHECK_FALSE(broken.failures().empty());
}

TEST_CASE("docs/lattices.md: Flat") {
  // --- docs/lattices.md: "Flat" (verbatim) ---
  kildall::Flat<int> x;                      // bottom: no value seen yet
  (void)x.join(kildall::Flat<int>(4));       // 4
  (void)x.join(kildall::Flat<int>(4));       // still 4: unchanged
  (void)x.join(kildall::Flat<int>(5));       // top: not a constant
  const bool not_constant = x.is_top();      // true
  const kildall::Flat<int> four(4);
  const int value = four.constant();         // 4 (throws std::logic_error on bottom/top)
  const int* known = four.if_constant();     // points to the 4; nullptr on bottom/top
  // --- end of the snippet ---
  CHECK(not_constant);
  CHECK(value == 4);
  REQUIRE(known != nullptr);
  CHECK(*known == 4);
  CHECK(x.if_constant() == nullptr);
  CHECK(kildall::Flat<int>().if_constant() == nullptr);
  CHECK_THROWS_AS((void)x.constant(), std::logic_error);
  CHECK_THROWS_AS((void)kildall::Flat<int>().constant(), std::logic_error);
  // The steps, replayed.
  kildall::Flat<int> y;
  CHECK(y.is_bottom());
  CHECK(y.join(kildall::Flat<int>(4)) == ChangeResult::changed);
  CHECK(y == kildall::Flat<int>(4));
  CHECK(y.join(kildall::Flat<int>(4)) == ChangeResult::unchanged);
  CHECK(y.join(kildall::Flat<int>(5)) == ChangeResult::changed);
  CHECK(y.is_top());
}

TEST_CASE("docs/lattices.md: Bitset") {
  // --- docs/lattices.md: "Bitset" (verbatim) ---
  kildall::Bitset live{1, 4};                // the set {1, 4}; Bitset(n) is the empty set over [0, n)
  live.set(130);                             // grows as needed
  kildall::Bitset kill{4}, gen{7};
  live.subtract(kill);                       // {1, 130}
  (void)live.join(gen);                      // {1, 7, 130}; returns changed
  std::vector<std::size_t> members;
  for (std::size_t v : live) members.push_back(v);  // 1, 7, 130 in order
  const std::size_t size = live.count();     // 3
  const bool has_seven = live.test(7);       // true
  // --- end of the snippet ---
  CHECK(members == std::vector<std::size_t>{1, 7, 130});
  CHECK(size == 3);
  CHECK(has_seven);
  CHECK(kildall::Bitset(200).count() == 0);
  CHECK(kildall::Bitset(200) == kildall::Bitset{});  // == compares contents only
  kildall::Bitset replay{1, 4};
  replay.set(130);
  replay.subtract(kill);
  CHECK(replay == kildall::Bitset{1, 130});
  CHECK(replay.join(gen) == ChangeResult::changed);
  CHECK(replay == kildall::Bitset{1, 7, 130});
}

TEST_CASE("docs/lattices.md: MustPowerset") {
  // --- docs/lattices.md: "Powersets: may and must" (verbatim) ---
  using Avail = kildall::MustPowerset<std::string>;
  Avail at_merge;                            // bottom: the universe (unreached)
  (void)at_merge.join(Avail{"a+b", "c*d"});  // {a+b, c*d}
  (void)at_merge.join(Avail{"c*d"});         // {c*d}
  const bool available = at_merge.contains("c*d");  // true
  // --- end of the snippet ---
  CHECK(available);
  CHECK_FALSE(at_merge.contains("a+b"));
  CHECK(at_merge == Avail{"c*d"});
  Avail replay;
  CHECK(replay.is_bottom());
  CHECK(replay.contains("anything"));  // the universe
  CHECK_THROWS_AS((void)replay.size(), std::logic_error);
  (void)replay.join(Avail{"a+b", "c*d"});
  CHECK(replay == Avail{"a+b", "c*d"});
}

TEST_CASE("docs/lattices.md: MapLattice") {
  // --- docs/lattices.md: "MapLattice" (verbatim) ---
  using Env = kildall::MapLattice<std::string, kildall::Flat<int>>;
  Env env;                                   // every variable: bottom
  env.set("x", kildall::Flat<int>(1));
  (void)env.join_at("x", kildall::Flat<int>(2));  // x: top
  const bool y_unseen = env.get("y").is_bottom();  // true, nothing stored for y
  env.set("x", kildall::Flat<int>::bottom());     // removes the entry
  // --- end of the snippet ---
  CHECK(y_unseen);
  CHECK_FALSE(env.contains("y"));
  CHECK_FALSE(env.contains("x"));
  CHECK(env == Env{});  // canonical: the removed entry leaves no trace
  Env replay;
  replay.set("x", kildall::Flat<int>(1));
  CHECK(replay.join_at("x", kildall::Flat<int>(2)) == ChangeResult::changed);
  CHECK(replay.get("x").is_top());
}

TEST_CASE("docs/lattices.md: Environment") {
  // --- docs/lattices.md: "Environment (persistent map)" (verbatim) ---
  using Env = kildall::Environment<std::uint32_t, kildall::Flat<int>>;  // SSA value -> constant
  Env entry;                                  // bottom: no value known yet
  entry.set(0, kildall::Flat<int>(1));        // %0 = 1
  Env then_side = entry;                      // O(1): shares every node
  then_side.set(1, kildall::Flat<int>(2));    // copies one path
  Env else_side = entry;
  else_side.set(1, kildall::Flat<int>(3));
  Env merged = then_side;
  (void)merged.join(else_side);               // visits the one path that differs
  const bool still_one = merged.get(0) == kildall::Flat<int>(1);  // true
  const bool not_constant = merged.get(1).is_top();               // true
  std::vector<std::uint32_t> keys;
  for (const auto& [value, fact] : merged) keys.push_back(value);  // 0, 1: in key order
  // --- end of the snippet ---
  CHECK(still_one);
  CHECK(not_constant);
  CHECK(keys == std::vector<std::uint32_t>{0, 1});
  CHECK(Env().is_bottom());
  CHECK(entry.size() == 1);  // the versions derived from entry left it alone
  Env copy = entry;
  CHECK(copy.shares_root_with(entry));
  CHECK(Env::node_stats(std::vector<Env>{entry, then_side, else_side, merged}).leaves == 4);  // keys 0 and 1 share a leaf: one per version

  // The policy table: under AbsentIsTop join intersects keys, bottom is "unreachable" and the identity of join.
  using Top = kildall::Environment<std::uint32_t, kildall::Flat<int>, kildall::AbsentIsTop>;
  Top unreached;
  CHECK(unreached.is_bottom());
  Top a = Top::top(), b = Top::top();
  a.set(0, kildall::Flat<int>(1));
  b.set(0, kildall::Flat<int>(1));
  b.set(1, kildall::Flat<int>(5));
  CHECK(unreached.join(a) == ChangeResult::changed);
  CHECK(unreached == a);
  CHECK(a.join(b) == ChangeResult::unchanged);  // key 1 is top in a
  CHECK(b.join(a) == ChangeResult::changed);
  CHECK(b == a);
  Top gone = Top::bottom();
  gone.set(3, kildall::Flat<int>(1));  // unreachable stays unreachable
  CHECK(gone.is_bottom());
}

TEST_CASE("docs/lattices.md: ReducedProduct") {
  // --- docs/lattices.md: "Product and ReducedProduct" (verbatim) ---
  enum class Sign { negative, zero, positive };
  enum class Parity { even, odd };
  using SignL = kildall::Flat<Sign>;
  using ParityL = kildall::Flat<Parity>;
  struct ZeroIsEven {  // the only zero is even; (0, odd) is empty
    void operator()(std::tuple<SignL, ParityL>& t) const {
      auto& [s, p] = t;
      const bool zero = s.is_constant() && s.constant() == Sign::zero;
      const bool odd = p.is_constant() && p.constant() == Parity::odd;
      if (s.is_bottom() || p.is_bottom() || (zero && odd)) { s = SignL::bottom(); p = ParityL::bottom(); }
      else if (zero && p.is_top()) p = ParityL(Parity::even);
    }
  };
  using SignParity = kildall::ReducedProduct<ZeroIsEven, SignL, ParityL>;
  SignParity v(SignL(Sign::zero), ParityL::top());   // reduced to (0, even)
  // --- end of the snippet ---
  CHECK(v.get<0>() == SignL(Sign::zero));
  CHECK(v.get<1>() == ParityL(Parity::even));
  // (0, odd) is empty: reduced to bottom in both components.
  const SignParity empty = SignParity(SignL(Sign::zero), ParityL(Parity::odd));
  CHECK(empty.get<0>().is_bottom());
  CHECK(empty.get<1>().is_bottom());
  // A non-zero sign leaves the parity alone.
  const SignParity positive(SignL(Sign::positive), ParityL::top());
  CHECK(positive.get<1>().is_top());
}

TEST_CASE("docs/lattices.md: Lifted") {
  // --- docs/lattices.md: "Lifted" (verbatim) ---
  kildall::Lifted<int> c;                    // uninitialized
  (void)c.join(kildall::Lifted<int>(3));     // 3
  (void)c.join(kildall::Lifted<int>(4));     // top
  const bool overdefined = c.is_top();       // true

  kildall::Lifted<kildall::Bitset> s(kildall::Bitset{1});
  (void)s.join(kildall::Lifted<kildall::Bitset>(kildall::Bitset{2}));  // {1, 2}: Bitset's own join
  const kildall::Bitset& both = s.value();   // {1, 2}; throws std::logic_error when !has_value()
  // --- end of the snippet ---
  CHECK(overdefined);
  CHECK(both == kildall::Bitset{1, 2});
  CHECK_THROWS_AS((void)c.value(), std::logic_error);
  kildall::Lifted<int> replay;
  CHECK_FALSE(replay.has_value());
  CHECK(replay.join(kildall::Lifted<int>(3)) == ChangeResult::changed);
  CHECK(replay == kildall::Lifted<int>(3));
}

TEST_CASE("docs/lattices.md: Interval") {
  // --- docs/lattices.md: "Interval" (verbatim) ---
  using kildall::Interval;
  Interval noise = Interval::from_unsigned(8, 0, 12);
  std::string debug = to_mlir_debug_string(noise);  // "unsigned : [0, 12] signed : [0, 12]"
  Interval product = kildall::infer_mul(noise, noise);
  std::string text = to_string(product);  // "[-128, 127] u[0, 144]": unsigned [0, 144] crosses the sign boundary
  std::optional<bool> below = kildall::infer_cmp(kildall::CmpPredicate::ult, product, Interval::constant(8, 145));  // true
  std::optional<bool> negative = kildall::infer_cmp(kildall::CmpPredicate::slt, product, Interval::constant(8, 0));  // nullopt: depends
  bool undefined = kildall::infer_divu(Interval::full(8), Interval::constant(8, 0)).is_empty();  // true: UB excluded
  Interval i = Interval::constant(8, 0);
  (void)i.widen(kildall::infer_add(i, Interval::constant(8, 1)));  // [0, 127]: the grown bound jumped
  // --- end of the snippet ---
  CHECK(debug == "unsigned : [0, 12] signed : [0, 12]");
  CHECK(text == "[-128, 127] u[0, 144]");
  CHECK(below == std::optional<bool>(true));
  CHECK(negative == std::nullopt);
  CHECK(undefined);
  CHECK(i == Interval::from_signed(8, 0, 127));
  CHECK(to_string(i) == "[0, 127] u[0, 127]");
  // Oracle for the product: every concrete 8-bit product of members is a member,
  // and [0, 144] unsigned is the exact unsigned hull.
  std::uint64_t largest = 0;
  for (std::uint64_t a = 0; a <= 12; ++a) {
    for (std::uint64_t b = 0; b <= 12; ++b) {
      CHECK(product.contains((a * b) & 0xff));
      largest = std::max(largest, (a * b) & 0xff);
    }
  }
  CHECK(product.umax() == largest);
}

namespace {

// An interval whose widening merely joins: the ascend hook of the page must expose it.
struct JoinOnlyInterval {
  kildall::Interval value = kildall::Interval::empty(8);
  [[nodiscard]] ChangeResult join(const JoinOnlyInterval& o) { return value.join(o.value); }
  [[nodiscard]] bool leq(const JoinOnlyInterval& o) const { return value.leq(o.value); }
  [[nodiscard]] ChangeResult widen(const JoinOnlyInterval& o) { return value.join(o.value); }
  friend bool operator==(const JoinOnlyInterval&, const JoinOnlyInterval&) = default;
};

}  // namespace

TEST_CASE("docs/lattices.md: law kit options and hooks") {
  // --- docs/lattices.md: "Options and hooks" (verbatim) ---
  kildall::laws::Options options;
  options.seed = 1;             // the std::mt19937_64 seed: runs are reproducible
  options.samples = 200;        // randomized mode: cases per law
  options.chains = 16;          // widening: number of increasing chains
  options.chain_length = 128;   // widening: elements per chain
  options.widening_bound = 32;  // widening: most changes a chain may make
  kildall::laws::Hooks<kildall::Interval> hooks;
  hooks.print = [](const kildall::Interval& x) { return to_string(x); };  // counterexample printer (default: operator<<)
  hooks.ascend = [](const kildall::Interval& x, std::mt19937_64&) {       // next element of an increasing chain
    if (x.is_empty() || x.smax() == 127) return x;
    return kildall::Interval::from_signed(8, x.smin(), x.smax() + 1);     // [lo, hi] -> [lo, hi + 1]
  };
  auto small = [](std::mt19937_64& rng) {
    const auto lo = std::int64_t(rng() % 9) - 4;
    return kildall::Interval::from_signed(8, lo, lo + std::int64_t(rng() % 4));
  };
  CHECK(kildall::laws::check_widening(small, options, hooks).ok());
  // --- end of the snippet ---

  // The defaults are the values the page lists.
  const kildall::laws::Options defaults;
  CHECK(defaults.seed == options.seed);
  CHECK(defaults.samples == options.samples);
  CHECK(defaults.chains == options.chains);
  CHECK(defaults.chain_length == options.chain_length);
  CHECK(defaults.widening_bound == options.widening_bound);

  // "give an ascend hook ... so a widening that merely joins is caught".
  kildall::laws::Hooks<JoinOnlyInterval> join_hooks;
  join_hooks.print = [&](const JoinOnlyInterval& x) { return hooks.print(x.value); };
  join_hooks.ascend = [&](const JoinOnlyInterval& x, std::mt19937_64& rng) {
    return JoinOnlyInterval{hooks.ascend(x.value, rng)};
  };
  auto small_join_only = [&](std::mt19937_64& rng) { return JoinOnlyInterval{small(rng)}; };
  const auto caught = kildall::laws::check_widening(small_join_only, options, join_hooks);
  CHECK_FALSE(caught.ok());
  CHECK(caught.failures().find("[") != std::string::npos);  // printed through hooks.print
}
