#include <kildall/lattice/map.hpp>
#include <kildall/lattice/bitset.hpp>
#include <kildall/lattice/flat.hpp>
#include <kildall/lattice/laws.hpp>

#include "toy_lattices.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using kildall::Flat;
using kildall::MapLattice;
using kildall::test::Chain;
namespace laws = kildall::laws;
using F = Flat<int>;
using Env = MapLattice<int, F>;

using kildall::test::flat_value;

// Keys {0, 1} with values in {bottom, top, 0, 1}, over a bottom or a top
// default: 32 maps.
std::vector<Env> small_envs() {
  std::vector<Env> all;
  for (bool top_default : {false, true})
    for (unsigned v0 = 0; v0 < 4; ++v0)
      for (unsigned v1 = 0; v1 < 4; ++v1) {
        Env m = top_default ? Env::top() : Env::bottom();
        m.set(0, flat_value(v0));
        m.set(1, flat_value(v1));
        all.push_back(m);
      }
  return all;
}

Env random_env(std::mt19937_64& rng) {
  Env m = rng() % 8 == 0 ? Env::top() : Env::bottom();
  const auto n = rng() % 6;
  for (unsigned i = 0; i < n; ++i) m.set(static_cast<int>(rng() % 8), flat_value(static_cast<unsigned>(rng() % 5)));
  return m;
}

// Keys probed by the pointwise oracle: every stored key and some never stored.
constexpr int kProbeKeys = 12;

}  // namespace

TEST_CASE("MapLattice models the concepts its values model") {
  static_assert(kildall::BoundedLattice<Env>);
  static_assert(kildall::Lattice<Env>);
  static_assert(!kildall::WidenableLattice<Env>);
  using Live = MapLattice<std::string, kildall::Bitset>;
  static_assert(kildall::HasBottom<Live>);
  static_assert(!kildall::HasTop<Live>);
  static_assert(kildall::Lattice<Live>);
  static_assert(kildall::WidenableLattice<MapLattice<int, Chain>>);
  static_assert(kildall::NarrowableLattice<MapLattice<int, Chain>>);
  // The default comparator is std::less<K> (taken from std::map, not <functional>).
  static_assert(std::is_same_v<Live, MapLattice<std::string, kildall::Bitset, std::less<std::string>>>);
  static_assert(std::is_same_v<Live::storage_type, std::map<std::string, kildall::Bitset>>);
  CHECK(Env() == Env::bottom());
}

TEST_CASE("MapLattice passes the law kit") {
  const auto exhaustive = laws::check_all_laws(small_envs());
  CHECK_MESSAGE(exhaustive.ok(), exhaustive.failures());
  const auto randomized = laws::check_all_laws(random_env, {.seed = 17, .samples = 500});
  CHECK_MESSAGE(randomized.ok(), randomized.failures());

  // Widening and narrowing pointwise, with chains that climb one key at a time.
  auto gen = [](std::mt19937_64& rng) {
    MapLattice<int, Chain> m;
    const auto n = rng() % 5;
    for (unsigned i = 0; i < n; ++i) m.set(static_cast<int>(rng() % 4), kildall::test::random_chain(rng));
    return m;
  };
  laws::Hooks<MapLattice<int, Chain>> hooks{
      .print = {}, .ascend = [](const MapLattice<int, Chain>& prev, std::mt19937_64& rng) {
        MapLattice<int, Chain> next = prev;
        const int key = static_cast<int>(rng() % 4);
        next.set(key, kildall::test::chain_step_up(prev.get(key), rng));
        return next;
      }};
  const auto widening = laws::check_all_laws(gen, {.seed = 4, .samples = 400}, hooks);
  CHECK_MESSAGE(widening.ok(), widening.failures());
  CHECK(widening.checked(laws::law::widen_stabilizes));
}

TEST_CASE("MapLattice operations are pointwise") {
  std::mt19937_64 rng(99);
  for (int round = 0; round < 400; ++round) {
    const Env a = random_env(rng), b = random_env(rng);
    Env j = a, m = a;
    const auto jr = j.join(b);
    const auto mr = m.meet(b);
    CHECK(kildall::is_changed(jr) == (j != a));
    CHECK(kildall::is_changed(mr) == (m != a));
    bool pointwise_leq = a.default_value().leq(b.default_value());
    for (int k = 0; k < kProbeKeys; ++k) {
      F expected_join = a.get(k), expected_meet = a.get(k);
      (void)expected_join.join(b.get(k));
      (void)expected_meet.meet(b.get(k));
      CHECK(j.get(k) == expected_join);
      CHECK(m.get(k) == expected_meet);
      pointwise_leq = pointwise_leq && a.get(k).leq(b.get(k));
    }
    CHECK(a.leq(b) == pointwise_leq);
    // Canonical form: nothing stored equals the default.
    for (const auto& [k, v] : j) CHECK(v != j.default_value());
    for (const auto& [k, v] : m) CHECK(v != m.default_value());
  }
}

TEST_CASE("MapLattice canonical form and accessors") {
  Env env;
  env.set(3, F(7));
  env.set(1, F(2));
  CHECK(env.size() == 2);
  CHECK(env.get(3) == F(7));
  CHECK(env.get(42).is_bottom());
  CHECK(env.contains(1));
  CHECK_FALSE(env.contains(42));
  env.set(1, F::bottom());  // setting bottom removes the key
  CHECK(env.size() == 1);
  CHECK_FALSE(env.contains(1));

  Env other;
  other.set(3, F(7));
  CHECK(env == other);  // built differently, same function

  // join_at: 7 ⊔ 8 = top; ⊥ ⊔ ⊥ stores nothing.
  CHECK(is_changed(env.join_at(3, F(8))));
  CHECK(env.get(3).is_top());
  CHECK_FALSE(is_changed(env.join_at(5, F::bottom())));
  CHECK_FALSE(env.contains(5));

  // Meet can send entries to bottom; they disappear.
  Env a, b;
  a.set(0, F(1));
  a.set(1, F(2));
  b.set(0, F(9));
  b.set(1, F(2));
  CHECK(is_changed(a.meet(b)));
  CHECK(a.size() == 1);
  CHECK(a.get(1) == F(2));

  // top() keeps a top default and stores the exceptions.
  Env t = Env::top();
  t.set(4, F(1));
  CHECK(t.get(4) == F(1));
  CHECK(t.get(5).is_top());
  CHECK_FALSE(t.is_top());
  t.erase(4);
  CHECK(t.is_top());

  std::ostringstream os;
  Env p;
  p.set(2, F(5));
  p.set(1, F::top());
  Env q = Env::top();
  q.set(0, F(3));
  os << p << ' ' << q << ' ' << Env();
  CHECK(os.str() == "{1: top, 2: 5} {0: 3; else: top} {}");
}

TEST_CASE("MapLattice join leaves untouched keys of a wide map alone") {
  // A wide environment joined with a small one: only the shared keys change.
  MapLattice<int, F> big, small;
  for (int k = 0; k < 10000; ++k) big.set(k, F(k));
  small.set(5, F(6));
  small.set(20000, F(1));
  CHECK(is_changed(big.join(small)));
  CHECK(big.size() == 10001);
  CHECK(big.get(5).is_top());
  CHECK(big.get(6) == F(6));
  CHECK(big.get(20000) == F(1));
  CHECK_FALSE(is_changed(big.join(small)));
  CHECK_FALSE(is_changed(big.join(Env::bottom())));
}
