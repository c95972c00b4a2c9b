// Tests kildall::Environment (lattice/environment.hpp), the persistent Patricia-tree environment. Oracles: the law
// kit (randomized, and exhaustive on small key sets), kildall::MapLattice (std::map-based) on random operation
// sequences, and counts of value operations and distinct tree nodes for the sharing and memory claims.
#include <kildall/lattice/environment.hpp>
#include <kildall/lattice/bitset.hpp>
#include <kildall/lattice/flat.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/laws.hpp>
#include <kildall/lattice/lifted.hpp>
#include <kildall/lattice/map.hpp>

#include "toy_lattices.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using kildall::AbsentIsBottom;
using kildall::AbsentIsTop;
using kildall::ChangeResult;
using kildall::Environment;
using kildall::Flat;
using kildall::Interval;
using kildall::Lifted;
using kildall::MapLattice;
using kildall::test::Chain;
namespace laws = kildall::laws;
using F = Flat<int>;
using Key = std::uint64_t;

constexpr Key kMax = std::numeric_limits<Key>::max();

using kildall::test::flat_value;

// Keys spread over the whole 64-bit range (top bits, bit 63, dense low keys), so branches split on every kind of bit.
Key random_key(std::mt19937_64& rng) {
  static constexpr std::array<Key, 8> wide{1ULL << 40, (1ULL << 40) + 3, 1ULL << 63, (1ULL << 63) + 1,
                                           kMax,       kMax - 1,          kMax - 6,  0x5555'5555'5555'5555ULL};
  return rng() % 4 == 0 ? wide[rng() % wide.size()] : rng() % 24;
}

// Every environment over `keys` with values drawn from `values` (the bottom element added under AbsentIsTop).
template <class E, class V>
std::vector<E> all_envs(const std::vector<Key>& keys, const std::vector<V>& values) {
  std::vector<E> all;
  std::vector<std::size_t> digit(keys.size(), 0);
  for (;;) {
    E e;
    if constexpr (std::is_same_v<typename E::absent_policy, AbsentIsTop>) e = E::top();
    for (std::size_t i = 0; i < keys.size(); ++i) e.set(keys[i], values[digit[i]]);
    all.push_back(e);
    std::size_t i = 0;
    while (i < keys.size() && ++digit[i] == values.size()) digit[i++] = 0;
    if (i == keys.size()) break;
  }
  if constexpr (std::is_same_v<typename E::absent_policy, AbsentIsTop>) all.push_back(E::bottom());
  return all;
}

template <class E, class ValueGen>
E random_env(std::mt19937_64& rng, ValueGen value) {
  E e;
  if constexpr (std::is_same_v<typename E::absent_policy, AbsentIsTop>) {
    if (rng() % 8 == 0) return E::bottom();
    e = E::top();
  }
  const auto n = rng() % 7;
  for (unsigned i = 0; i < n; ++i) e.set(random_key(rng), value(rng));
  return e;
}

F random_flat(std::mt19937_64& rng) { return flat_value(static_cast<unsigned>(rng() % 6)); }
Chain small_chain(std::mt19937_64& rng) {
  const auto x = rng() % 7;
  return {x == 6 ? Chain::infinity : x};
}

// --- the oracle: MapLattice<Key, L>, a std::map copied whole --------------------------------------------------------

template <class E, class M>
void check_agrees(const E& e, const M& m, const std::vector<Key>& probes) {
  using L = typename E::mapped_type;
  if constexpr (std::is_same_v<typename E::absent_policy, AbsentIsTop>) {
    if (e.is_bottom()) {
      REQUIRE(m == M::bottom());
      CHECK(e.size() == 0);
      for (Key k : probes) CHECK(e.get(k) == L::bottom());
      return;
    }
    REQUIRE(m.default_value() == L::top());
    CHECK(e.is_top() == m.is_top());
  } else {
    REQUIRE(m.default_value() == L::bottom());
    CHECK(e.is_bottom() == m.is_bottom());
  }
  REQUIRE(e.size() == m.size());
  auto it = m.begin();
  for (const auto& [k, v] : e) {  // same entries, same (increasing) order
    REQUIRE(it != m.end());
    CHECK(k == it->first);
    CHECK(v == it->second);
    CHECK(v != E::absent());  // canonical form
    ++it;
  }
  for (Key k : probes) CHECK(e.get(k) == m.get(k));
}

template <class L, class Policy, class ValueGen>
void run_oracle(std::uint64_t seed, int steps, ValueGen value) {
  using E = Environment<Key, L, Policy>;
  using M = MapLattice<Key, L>;
  constexpr bool top_policy = std::is_same_v<Policy, AbsentIsTop>;
  std::mt19937_64 rng(seed);
  std::vector<Key> probes;
  for (int i = 0; i < 40; ++i) probes.push_back(random_key(rng));

  constexpr std::size_t pool_size = 8;
  std::vector<E> envs(pool_size);
  std::vector<M> maps(pool_size);
  if constexpr (top_policy) {
    for (std::size_t i = 1; i < pool_size; ++i) {  // pool[0] starts at bottom
      envs[i] = E::top();
      maps[i] = M::top();
    }
  }
  int counted[9] = {};
  for (int step = 0; step < steps; ++step) {
    const std::size_t i = rng() % pool_size, j = rng() % pool_size;
    E& e = envs[i];
    M& m = maps[i];
    const int op = static_cast<int>(rng() % 9);
    const Key k = random_key(rng);
    const L v = value(rng);
    const bool unreachable = top_policy && e.is_bottom();
    const E before = e;
    switch (op) {
      case 0:  // set, several times: versions grow
        for (int n = 0; n < 3; ++n) {
          const Key kk = n == 0 ? k : random_key(rng);
          const L vv = n == 0 ? v : value(rng);
          e.set(kk, vv);
          if (!unreachable) m.set(kk, vv);
        }
        break;
      case 1:
        e.erase(k);
        if (!unreachable) m.erase(k);
        break;
      case 2: {
        const ChangeResult r = e.join_at(k, v);
        if (unreachable) {
          CHECK_FALSE(is_changed(r));
        } else {
          CHECK(r == m.join_at(k, v));
        }
        break;
      }
      case 3:
        CHECK(e.join(envs[j]) == m.join(maps[j]));
        break;
      case 4:
        if constexpr (kildall::MeetSemiLattice<L>) CHECK(e.meet(envs[j]) == m.meet(maps[j]));
        break;
      case 5:
        if constexpr (kildall::WidenableLattice<L>) CHECK(e.widen(envs[j]) == m.widen(maps[j]));
        break;
      case 6:
        if constexpr (kildall::NarrowableLattice<L>) {
          if (top_policy && envs[j].is_bottom() && !e.is_bottom()) {
            // Narrowing by the bottom element gives it (a valid narrowing; MapLattice keeps finite Chain values).
            CHECK(is_changed(e.narrow(envs[j])));
            CHECK(e.is_bottom());
            m = M::bottom();
          } else {
            CHECK(e.narrow(envs[j]) == m.narrow(maps[j]));
          }
        }
        break;
      case 7:  // copy: versions share everything
        e = envs[j];
        m = maps[j];
        break;
      default:
        CHECK(e.leq(envs[j]) == m.leq(maps[j]));
        CHECK((e == envs[j]) == (m == maps[j]));
        CHECK(envs[j].leq(e) == maps[j].leq(m));
        break;
    }
    if (unreachable && op <= 2) CHECK(e == before);  // set/erase/join_at leave "unreachable" alone
    ++counted[op];
    check_agrees(e, m, probes);
    if (step % 64 == 0)  // versions sharing nodes with the one just modified are intact
      for (std::size_t x = 0; x < pool_size; ++x) check_agrees(envs[x], maps[x], probes);
  }
  for (int c : counted) CHECK(c > 0);
}

// --- a lattice that counts the value operations an environment operation performs -----------------------------------

struct Counted {
  F v;
  static inline std::size_t ops = 0;  // test-only instrumentation (single-threaded tests)
  [[nodiscard]] ChangeResult join(const Counted& o) {
    ++ops;
    return v.join(o.v);
  }
  [[nodiscard]] ChangeResult meet(const Counted& o) {
    ++ops;
    return v.meet(o.v);
  }
  [[nodiscard]] bool leq(const Counted& o) const {
    ++ops;
    return v.leq(o.v);
  }
  [[nodiscard]] static Counted bottom() { return {}; }
  [[nodiscard]] static Counted top() { return {F::top()}; }
  [[nodiscard]] bool is_bottom() const { return v.is_bottom(); }
  [[nodiscard]] bool is_top() const { return v.is_top(); }
  friend bool operator==(const Counted& a, const Counted& b) {
    ++ops;
    return a.v == b.v;
  }
};

enum class Color : std::uint8_t { red, green, blue };

// A key that is not an integer, with a user-supplied index.
struct Var {
  std::uint32_t id = 0;
  std::string name;
  friend bool operator==(const Var& a, const Var& b) = default;
};
struct VarIndex {
  [[nodiscard]] std::uint64_t operator()(const Var& v) const noexcept { return v.id; }
};

template <class K, class L, class... Rest>
concept Instantiable = requires { typename Environment<K, L, Rest...>; };

}  // namespace

TEST_CASE("Environment models the concepts its values model, by policy") {
  using Facts = Environment<unsigned, F>;
  static_assert(kildall::HasBottom<Facts> && !kildall::HasTop<Facts>);
  static_assert(kildall::Lattice<Facts>);
  static_assert(!kildall::WidenableLattice<Facts>);
  using Env = Environment<unsigned, F, AbsentIsTop>;
  static_assert(kildall::BoundedLattice<Env> && kildall::Lattice<Env>);
  static_assert(kildall::WidenableLattice<Environment<unsigned, Chain>>);
  static_assert(kildall::NarrowableLattice<Environment<unsigned, Chain, AbsentIsTop>>);
  static_assert(kildall::WidenableLattice<Environment<unsigned, Lifted<Interval>>>);
  using Live = Environment<std::uint32_t, kildall::Bitset>;  // Bitset has no top and no meet is fine
  static_assert(kildall::HasBottom<Live> && kildall::Lattice<Live>);
  // AbsentIsTop needs a top; a key needs an index.
  static_assert(!Instantiable<unsigned, kildall::Bitset, AbsentIsTop>);
  static_assert(!Instantiable<std::string, F>);
  static_assert(Instantiable<Var, F, AbsentIsBottom, VarIndex>);
  // Copying is a pointer and a flag.
  static_assert(sizeof(Env) <= 2 * sizeof(void*));
  CHECK(Facts() == Facts::bottom());
  CHECK(Env() == Env::bottom());  // default construction gives bottom under both policies
  CHECK(Env::top().is_top());
  CHECK_FALSE(Env::top().is_bottom());
}

TEST_CASE("Environment passes the law kit exhaustively on small key sets") {
  // Keys at both ends of the 64-bit range, and a 3-element chain (with its widening and narrowing).
  const std::vector<Key> keys{0, 5, Key{1} << 40, kMax};
  const std::vector<Chain> chain3{Chain{0}, Chain{1}, Chain::top()};
  {
    const auto all = all_envs<Environment<Key, Chain>>(keys, chain3);
    REQUIRE(all.size() == 81);
    const auto report = laws::check_all_laws(all);
    CHECK_MESSAGE(report.ok(), report.failures());
    CHECK(report.checked(laws::law::widen_stabilizes));
    CHECK(report.checked(laws::law::narrow_between));
  }
  {
    const auto all = all_envs<Environment<Key, Chain, AbsentIsTop>>(keys, chain3);
    REQUIRE(all.size() == 82);
    const auto report = laws::check_all_laws(all);
    CHECK_MESSAGE(report.ok(), report.failures());
    CHECK(report.checked(laws::law::top_absorbs));
  }
  // The flat lattice (incomparable constants) over three keys.
  const std::vector<F> flat4{F::bottom(), F(0), F(1), F::top()};
  const std::vector<Key> three{2, 3, Key{1} << 63};
  {
    const auto all = all_envs<Environment<Key, F>>(three, flat4);
    REQUIRE(all.size() == 64);
    const auto report = laws::check_all_laws(all);
    CHECK_MESSAGE(report.ok(), report.failures());
  }
  {
    const auto all = all_envs<Environment<Key, F, AbsentIsTop>>(three, flat4);
    REQUIRE(all.size() == 65);
    const auto report = laws::check_all_laws(all);
    CHECK_MESSAGE(report.ok(), report.failures());
  }
}

TEST_CASE("Environment passes the law kit on random environments") {
  const auto flat_bottom = laws::check_all_laws(
      [](std::mt19937_64& rng) { return random_env<Environment<Key, F>>(rng, random_flat); },
      {.seed = 3, .samples = 600});
  CHECK_MESSAGE(flat_bottom.ok(), flat_bottom.failures());
  const auto flat_top = laws::check_all_laws(
      [](std::mt19937_64& rng) { return random_env<Environment<Key, F, AbsentIsTop>>(rng, random_flat); },
      {.seed = 5, .samples = 600});
  CHECK_MESSAGE(flat_top.ok(), flat_top.failures());

  // Widening and narrowing, with chains that climb one key at a time (a widening that only joins fails).
  auto chains = [](auto tag) {
    using E = typename decltype(tag)::type;
    laws::Hooks<E> hooks{.print = {}, .ascend = [](const E& prev, std::mt19937_64& rng) {
                           E next = prev;
                           const Key key = rng() % 4;
                           if (!next.is_bottom()) next.set(key, kildall::test::chain_step_up(prev.get(key), rng));
                           return next;
                         }};
    return laws::check_all_laws([](std::mt19937_64& rng) { return random_env<E>(rng, kildall::test::random_chain); },
                                {.seed = 11, .samples = 500}, hooks);
  };
  const auto chain_bottom = chains(std::type_identity<Environment<Key, Chain>>{});
  CHECK_MESSAGE(chain_bottom.ok(), chain_bottom.failures());
  CHECK(chain_bottom.checked(laws::law::widen_stabilizes));
  const auto chain_top = chains(std::type_identity<Environment<Key, Chain, AbsentIsTop>>{});
  CHECK_MESSAGE(chain_top.ok(), chain_top.failures());
}

TEST_CASE("Environment agrees with MapLattice on random operation sequences") {
  // Pools of versions derived from each other (so subtrees are shared) under every operation; after each
  // step the touched environment must hold the same entries, in the same order, as its std::map twin.
  run_oracle<F, AbsentIsBottom>(1, 4000, random_flat);
  run_oracle<F, AbsentIsTop>(2, 4000, random_flat);
  run_oracle<Chain, AbsentIsBottom>(3, 4000, small_chain);
  run_oracle<Chain, AbsentIsTop>(4, 4000, small_chain);
}

TEST_CASE("Environment reports change exactly and keeps its canonical form") {
  using E = Environment<unsigned, F>;
  E a{{1, F(1)}, {2, F(2)}};
  const E copy = a;
  CHECK_FALSE(is_changed(a.join(a)));
  CHECK_FALSE(is_changed(a.join(copy)));
  CHECK_FALSE(is_changed(a.join(E())));
  CHECK_FALSE(is_changed(a.meet(copy)));
  E b = a;
  b.set(2, F(3));
  CHECK(b != a);
  CHECK(is_changed(a.join(b)));  // 2 -> top
  CHECK(a.get(2).is_top());
  CHECK_FALSE(is_changed(a.join(b)));
  CHECK(b.leq(a));
  CHECK_FALSE(a.leq(b));
  // Setting a key to its current value allocates nothing and keeps the version identical.
  E c = a;
  c.set(1, F(1));
  CHECK(c.shares_root_with(a));
  c.set(1, F::bottom());  // bottom is absent: the key goes
  CHECK_FALSE(c.contains(1));
  CHECK(c.size() == 1);
  c.erase(2);
  CHECK(c.is_bottom());
  CHECK(c == E::bottom());
  // Built in different orders: equal (canonical shape).
  E d, e;
  for (unsigned k : {7U, 1U, 300U, 4U}) d.set(k, F(int(k)));
  for (unsigned k : {300U, 4U, 7U, 1U}) e.set(k, F(int(k)));
  CHECK(d == e);
  CHECK_FALSE(d.shares_root_with(e));
  // join_at.
  CHECK(is_changed(d.join_at(9, F(1))));
  CHECK_FALSE(is_changed(d.join_at(9, F(1))));
  CHECK_FALSE(is_changed(d.join_at(10, F::bottom())));
  CHECK_FALSE(d.contains(10));

  // AbsentIsTop: join intersects the keys, meet unites them; the bottom element is the identity of join.
  using T = Environment<unsigned, F, AbsentIsTop>;
  T x{{1, F(1)}, {2, F(2)}}, y{{2, F(2)}, {3, F(3)}};
  T j = x;
  CHECK(is_changed(j.join(y)));
  CHECK(j == T{{2, F(2)}});
  CHECK(j.get(1).is_top());
  T m = x;
  CHECK(is_changed(m.meet(y)));
  CHECK(m == T{{1, F(1)}, {2, F(2)}, {3, F(3)}});
  T bot;
  CHECK(is_changed(bot.join(x)));
  CHECK(bot == x);
  CHECK(bot.shares_root_with(x));
  CHECK_FALSE(is_changed(x.join(T::bottom())));
  CHECK(is_changed(x.meet(T::bottom())));
  CHECK(x.is_bottom());
  CHECK(x.get(1).is_bottom());
  x.set(1, F(4));  // unreachable stays unreachable
  CHECK(x.is_bottom());
  T t = T::top();
  t.set(5, F::top());  // top is absent
  CHECK(t.is_top());
  t.set(5, F::bottom());  // bottom is stored under AbsentIsTop
  CHECK(t.contains(5));
  CHECK_FALSE(t.is_bottom());
  t.clear();
  CHECK(t.is_top());
}

TEST_CASE("Environment operations skip shared subtrees: versions differing in k keys cost O(k log n)") {
  using E = Environment<std::uint32_t, Counted>;
  // A key's leaf holds up to `leaf` consecutive keys: an operation meets every entry of a leaf that differs.
  constexpr std::size_t leaf = kildall::detail::environment::kFanout;
  constexpr std::uint32_t n = 100000;
  E a;
  for (std::uint32_t k = 0; k < n; ++k) a.set(k, Counted{F(int(k % 7))});
  const E a0 = a;

  // With itself or a copy: no value operation at all.
  Counted::ops = 0;
  E self = a;
  CHECK_FALSE(is_changed(self.join(a)));
  CHECK_FALSE(is_changed(self.join(self)));
  CHECK_FALSE(is_changed(self.meet(a)));
  CHECK(self.leq(a));
  CHECK(self == a);
  CHECK(Counted::ops == 0);

  // One key different: at most one leaf's entries per binary operation (plus == at the changed leaf).
  E b = a;
  b.set(500, Counted{F::top()});
  Counted::ops = 0;
  CHECK(a.leq(b));
  CHECK_FALSE(b.leq(a));
  CHECK(a != b);
  CHECK(Counted::ops <= 3 * leaf);
  Counted::ops = 0;
  CHECK(is_changed(a.join(b)));
  CHECK(Counted::ops <= 2 * leaf);
  // a ⊑ b, so a ⊔ b is b: the result is b's very tree, not a copy.
  CHECK(a.shares_root_with(b));
  CHECK(E::node_stats(std::vector<E>{a, b}).entries == n);

  // 100 keys different: about 100 leaves' value operations, and the result shares all but O(100 log n) nodes.
  E c = a0;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100; ++i) c.set(static_cast<std::uint32_t>(rng() % n), Counted{F(1000 + i)});
  E joined = a0;
  Counted::ops = 0;
  CHECK(is_changed(joined.join(c)));
  CHECK(Counted::ops <= 2 * 100 * leaf);
  const auto base = E::node_stats(std::vector<E>{a0, c});
  const auto with_join = E::node_stats(std::vector<E>{a0, c, joined});
  CHECK(with_join.leaves + with_join.branches - base.leaves - base.branches <= 100 * 20);
  Counted::ops = 0;
  CHECK(a0.leq(joined));
  CHECK(c.leq(joined));
  CHECK(Counted::ops <= 2 * 100 * (leaf + 1));  // per differing leaf: == on its entries, leq where they differ
}

TEST_CASE("Environment memory is proportional to what changes, not versions x keys") {
  // 10,000 versions, each the previous one with one key (of 100,000) changed, all alive at once.
  using E = Environment<std::uint32_t, F>;
  constexpr std::uint32_t n = 100000;
  constexpr std::size_t versions = 10000;
  std::vector<E> all;
  all.reserve(versions);
  E v;
  for (std::uint32_t k = 0; k < n; ++k) v.set(k, F(int(k)));
  const auto one = E::node_stats(std::vector<E>{v});
  CHECK(one.entries == n);
  // The canonical shape, counted independently: a leaf per run of `width` keys sharing their
  // upper bits, a branch per level and prefix where two or more different digits occur.
  constexpr unsigned bits = kildall::detail::environment::kDigitBits, width = 1U << bits;
  CHECK(one.leaves == (n + width - 1) / width);
  std::size_t branches = 0;
  for (unsigned level = 1; level * bits < 64; ++level) {
    std::map<std::uint64_t, std::set<std::uint64_t>> digits;  // prefix above the level -> digits
    const unsigned above = (level + 1) * bits;
    for (std::uint64_t k = 0; k < n; ++k) digits[above >= 64 ? 0 : k >> above].insert((k >> (level * bits)) % width);
    for (const auto& [prefix, ds] : digits) branches += ds.size() >= 2 ? 1 : 0;
  }
  CHECK(one.branches == branches);
  std::mt19937_64 rng(42);
  for (std::size_t i = 0; i < versions; ++i) {
    all.push_back(v);
    v.set(static_cast<std::uint32_t>(rng() % n), F(-1 - int(i)));
  }
  // Every version still holds what it held (in-place updates never touch a shared node).
  std::mt19937_64 replay(42);
  E expected = all.front();
  for (std::size_t i = 0; i < versions; ++i) {
    if (i % 997 == 0) CHECK(all[i] == expected);
    expected.set(static_cast<std::uint32_t>(replay() % n), F(-1 - int(i)));
  }
  const auto stats = E::node_stats(all);
  const std::size_t nodes = stats.leaves + stats.branches;
  // Each version adds one leaf and the branches above it (the tree over 0..99,999 is 4 branches deep).
  MESSAGE("10,000 versions of 100,000 keys: " << nodes << " distinct nodes (" << stats.bytes / 1024
                                              << " KiB), vs " << versions * n << " entries copied whole");
  CHECK(nodes <= 2 * n + versions * 18);
  CHECK(nodes * 500 < versions * n);
  CHECK(stats.bytes >= nodes * 2 * sizeof(void*));
}

TEST_CASE("Environment can be copied and read from several threads") {
  using E = Environment<std::uint32_t, F>;
  E base;
  for (std::uint32_t k = 0; k < 20000; ++k) base.set(k, F(int(k)));
  auto work = [&base](int seed, std::size_t& checksum) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(seed));
    E acc;
    for (int round = 0; round < 200; ++round) {
      E copy = base;  // shared nodes: reference counts touched by both threads
      for (int i = 0; i < 20; ++i) {
        const auto k = static_cast<std::uint32_t>(rng() % 20000);
        checksum += copy.get(k) == F(int(k)) || copy.get(k) == F(seed) ? 1 : 0;
        copy.set(k, F(seed));
      }
      (void)acc.join(copy);
    }
    checksum += acc.size();
  };
  std::size_t s1 = 0, s2 = 0;
  std::thread t1(work, 1, std::ref(s1));
  std::thread t2(work, 2, std::ref(s2));
  t1.join();
  t2.join();
  CHECK(s1 == 200 * 20 + 20000);
  CHECK(s2 == 200 * 20 + 20000);
  CHECK(base.size() == 20000);
  CHECK(base.get(17) == F(17));
}

TEST_CASE("Environment widens and narrows pointwise (intervals)") {
  using I = Lifted<Interval>;
  auto iv = [](std::int64_t lo, std::int64_t hi) { return I(Interval::from_signed(8, lo, hi)); };
  for (bool top_policy : {false, true}) {
    auto run = [&](auto tag) {
      using E = typename decltype(tag)::type;
      // A counting loop: i = 0; while (i < 10) i = i + 1. Head state: {i: [0, 0]}, then the back edge brings [0, 1].
      E head{{0U, iv(0, 0)}, {1U, iv(7, 7)}};
      E back = head;
      back.set(0, iv(0, 1));
      CHECK(is_changed(head.widen(back)));
      CHECK(head.get(0) == iv(0, 127));  // the moved bound jumped to the limit
      CHECK(head.get(1) == iv(7, 7));    // an untouched key keeps its value (and its node)
      CHECK_FALSE(is_changed(head.widen(back)));
      E refined = head;
      refined.set(0, iv(0, 10));  // what the loop guard allows
      CHECK(is_changed(head.narrow(refined)));
      CHECK(head.get(0) == iv(0, 10));
      CHECK_FALSE(is_changed(head.narrow(refined)));

      // Random pairs: every key agrees with Lifted<Interval>'s own operators applied to the two values.
      std::mt19937_64 rng(top_policy ? 21 : 12);
      auto value = [&rng, &iv]() {
        const auto pick = rng() % 8;
        if (pick == 0) return I::bottom();
        if (pick == 1) return I::top();
        const auto lo = static_cast<std::int64_t>(rng() % 9) - 4;
        return iv(lo, lo + static_cast<std::int64_t>(rng() % 4));
      };
      for (int round = 0; round < 300; ++round) {
        E a{{0U, value()}}, b{{0U, value()}};
        if (top_policy && round % 10 == 0) a = E::bottom();
        if (top_policy && round % 10 == 5) b = E::bottom();
        for (int i = 0; i < 6; ++i) {
          a.set(static_cast<std::uint32_t>(rng() % 8), value());
          b.set(static_cast<std::uint32_t>(rng() % 8), value());
        }
        E w = a, nw = a;
        const ChangeResult wr = w.widen(b);
        CHECK(is_changed(wr) == (w != a));
        const ChangeResult nr = nw.narrow(b);
        CHECK(is_changed(nr) == (nw != a));
        for (std::uint32_t k = 0; k < 10; ++k) {
          I ew = a.get(k), en = a.get(k);
          (void)ew.widen(b.get(k));
          (void)en.narrow(b.get(k));
          CHECK(w.get(k) == ew);
          if (!(top_policy && (a.is_bottom() || b.is_bottom()))) CHECK(nw.get(k) == en);
        }
      }

      // The law kit, with chains that grow one interval bound at a time.
      laws::Hooks<E> hooks{.print = {}, .ascend = [&iv](const E& prev, std::mt19937_64& r) {
                             E next = prev;
                             if (next.is_bottom()) return next;
                             const std::uint32_t key = static_cast<std::uint32_t>(r() % 3);
                             const I cur = prev.get(key);
                             if (cur.is_bottom()) {
                               next.set(key, iv(0, 0));
                             } else if (cur.has_value() && cur.value().smax() < 127) {
                               next.set(key, iv(cur.value().smin(), cur.value().smax() + 1));
                             }
                             return next;
                           }};
      auto gen = [&iv, top_policy](std::mt19937_64& r) {
        E e = top_policy ? (r() % 6 == 0 ? E::bottom() : E{{0U, iv(0, 0)}}) : E{};
        const auto n = r() % 4;
        for (unsigned i = 0; i < n; ++i) {
          const auto lo = static_cast<std::int64_t>(r() % 9) - 4;
          e.set(static_cast<std::uint32_t>(r() % 3), iv(lo, lo + static_cast<std::int64_t>(r() % 3)));
        }
        return e;
      };
      const auto report = laws::check_all_laws(gen, {.seed = 8, .samples = 300}, hooks);
      CHECK_MESSAGE(report.ok(), report.failures());
    };
    if (top_policy) {
      run(std::type_identity<Environment<std::uint32_t, I, AbsentIsTop>>{});
    } else {
      run(std::type_identity<Environment<std::uint32_t, I>>{});
    }
  }
}

TEST_CASE("Environment keys: signed, enumerations and user-indexed keys iterate in index order") {
  Environment<int, F> s{{3, F(3)}, {-1, F(-1)}, {0, F(0)}, {std::numeric_limits<int>::min(), F(9)}};
  std::vector<int> order;
  s.for_each([&order](int k, const F&) { order.push_back(k); });
  CHECK(order == std::vector<int>{std::numeric_limits<int>::min(), -1, 0, 3});
  CHECK(s.get(-1) == F(-1));
  CHECK(s.get(-2).is_bottom());

  Environment<Color, F> c{{Color::blue, F(2)}, {Color::red, F(0)}};
  CHECK(c.begin()->first == Color::red);
  CHECK(c.get(Color::green).is_bottom());

  using VarEnv = Environment<Var, F, AbsentIsBottom, VarIndex>;
  VarEnv v;
  v.set(Var{7, "y"}, F(1));
  v.set(Var{2, "x"}, F(2));
  CHECK(v.get(Var{2, "x"}) == F(2));
  CHECK(v.begin()->first == Var{2, "x"});
  std::vector<std::string> names;
  for (const auto& [var, value] : v) names.push_back(var.name);
  CHECK(names == std::vector<std::string>{"x", "y"});
}

TEST_CASE("Environment iteration and printing") {
  Environment<std::uint64_t, F> e;
  for (std::uint64_t k : {kMax, std::uint64_t{0}, std::uint64_t{1} << 63, std::uint64_t{42}}) e.set(k, F(1));
  std::vector<std::uint64_t> keys;
  for (auto it = e.begin(); it != e.end(); ++it) keys.push_back(it->first);
  CHECK(keys == std::vector<std::uint64_t>{0, 42, std::uint64_t{1} << 63, kMax});
  CHECK(std::distance(e.begin(), e.end()) == 4);

  std::ostringstream os;
  Environment<unsigned, F> p{{2, F(5)}, {1, F::top()}};
  using T = Environment<unsigned, F, AbsentIsTop>;
  os << p << ' ' << Environment<unsigned, F>() << ' ' << T{{0, F(3)}} << ' ' << T::top() << ' ' << T::bottom();
  CHECK(os.str() == "{1: top, 2: 5} {} {0: 3; else: top} {else: top} bottom");
}
