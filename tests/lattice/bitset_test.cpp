#include <kildall/lattice/bitset.hpp>
#include <kildall/lattice/laws.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <random>
#include <set>
#include <sstream>
#include <vector>

namespace {

using kildall::Bitset;
namespace laws = kildall::laws;
using Oracle = std::set<std::size_t>;

Oracle as_set(const Bitset& b) { return Oracle(b.begin(), b.end()); }

// A random set of up to `universe` elements, stored with a random universe
// size (so sets of different sizes meet), at a random density.
Bitset random_bitset(std::mt19937_64& rng, std::size_t universe) {
  std::uniform_int_distribution<std::size_t> size_pick(0, universe);
  std::uniform_real_distribution<double> density_pick(0.0, 1.0);
  const std::size_t size = size_pick(rng);
  const double density = density_pick(rng);
  std::bernoulli_distribution coin(density);
  Bitset b(size);
  for (std::size_t i = 0; i < size; ++i)
    if (coin(rng)) b.set(i);
  return b;
}

// All 32 subsets of {0..4}, each with a different universe size (5, 64, 65,
// 130), so the law kit sees size-independent equality and zero extension.
std::vector<Bitset> all_subsets_of_five() {
  const std::size_t sizes[] = {5, 64, 65, 130};
  std::vector<Bitset> all;
  for (unsigned mask = 0; mask < 32; ++mask) {
    Bitset b(sizes[mask % 4]);
    for (std::size_t i = 0; i < 5; ++i)
      if ((mask >> i) & 1U) b.set(i);
    all.push_back(b);
  }
  return all;
}

}  // namespace

TEST_CASE("Bitset models the lattice concepts") {
  static_assert(kildall::HasBottom<Bitset>);
  static_assert(kildall::Lattice<Bitset>);
  static_assert(!kildall::HasTop<Bitset>);  // the universe is open
  static_assert(std::regular<Bitset>);
  static_assert(std::forward_iterator<Bitset::const_iterator>);
  CHECK(Bitset() == Bitset::bottom());
}

TEST_CASE("Bitset passes the law kit") {
  const auto exhaustive = laws::check_all_laws(all_subsets_of_five());
  CHECK_MESSAGE(exhaustive.ok(), exhaustive.failures());
  CHECK(exhaustive.find(laws::law::join_associative)->cases == 32 * 32 * 32);
  const auto randomized =
      laws::check_all_laws([](std::mt19937_64& rng) { return random_bitset(rng, 300); }, {.seed = 9, .samples = 400});
  CHECK_MESSAGE(randomized.ok(), randomized.failures());
}

TEST_CASE("Bitset operations agree with std::set") {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 300; ++round) {
    const Bitset a = random_bitset(rng, 260), b = random_bitset(rng, 260);
    const Oracle sa = as_set(a), sb = as_set(b);
    Oracle u, i, d;
    std::set_union(sa.begin(), sa.end(), sb.begin(), sb.end(), std::inserter(u, u.end()));
    std::set_intersection(sa.begin(), sa.end(), sb.begin(), sb.end(), std::inserter(i, i.end()));
    std::set_difference(sa.begin(), sa.end(), sb.begin(), sb.end(), std::inserter(d, d.end()));

    Bitset j = a;
    const auto jr = j.join(b);
    CHECK(as_set(j) == u);
    CHECK(kildall::is_changed(jr) == (u != sa));
    CHECK(j.size() == std::max(a.size(), b.size()));
    Bitset m = a;
    const auto mr = m.meet(b);
    CHECK(as_set(m) == i);
    CHECK(kildall::is_changed(mr) == (i != sa));
    Bitset s = a;
    s.subtract(b);
    CHECK(as_set(s) == d);
    CHECK(a.leq(b) == std::includes(sb.begin(), sb.end(), sa.begin(), sa.end()));
    CHECK((a == b) == (sa == sb));
    CHECK(a.intersects(b) == !i.empty());
    CHECK(a.count() == sa.size());
    CHECK(a.any() == !sa.empty());
    CHECK(a.is_bottom() == sa.empty());
    for (std::size_t x = 0; x < 270; ++x) CHECK(a.test(x) == (sa.count(x) == 1));
    std::vector<std::size_t> visited;
    a.for_each([&](std::size_t x) { visited.push_back(x); });
    CHECK(visited == std::vector<std::size_t>(sa.begin(), sa.end()));
  }
}

TEST_CASE("Bitset across word boundaries and sizes") {
  Bitset b;
  for (std::size_t x : {0, 63, 64, 127, 128, 199}) b.set(x);
  CHECK(b.size() == 200);
  CHECK(b.count() == 6);
  CHECK(std::vector<std::size_t>(b.begin(), b.end()) == std::vector<std::size_t>{0, 63, 64, 127, 128, 199});
  b.reset(64);
  b.reset(1000);  // outside the universe: nothing to do
  CHECK_FALSE(b.test(64));
  CHECK_FALSE(b.test(1000));
  CHECK(b.size() == 200);

  // Zero extension: a short set joins a long one and compares by content.
  Bitset small{1, 2};
  Bitset big(500);
  big.set(2);
  CHECK(big.leq(small));
  CHECK_FALSE(small.leq(big));
  CHECK(small != big);
  big.set(1);
  CHECK(small == big);
  big.set(499);
  CHECK(is_changed(small.join(big)));
  CHECK(small.size() == 500);
  CHECK(small.test(499));

  // Shrinking drops elements; Bitset{5} is {5} while Bitset(5) is empty over [0, 5).
  small.resize(100);
  CHECK_FALSE(small.test(499));
  CHECK(small.count() == 2);
  CHECK(Bitset{5}.count() == 1);
  CHECK(Bitset(5).count() == 0);
  CHECK(Bitset(5).size() == 5);
  CHECK(Bitset::full(130).count() == 130);
  CHECK_FALSE(Bitset::full(130).test(130));
  CHECK(Bitset::full(130).words().size() == 3);

  Bitset cleared = Bitset::full(70);
  cleared.clear();
  CHECK(cleared.none());
  CHECK(cleared == Bitset());

  std::ostringstream os;
  os << Bitset{3, 1, 64};
  CHECK(os.str() == "{1, 3, 64}");
}

TEST_CASE("liveness-style transfer over Bitset is monotone") {
  // in = gen ∪ (out \ kill), the bit-vector transfer function.
  const Bitset gen{0, 3}, kill{1, 3, 4};
  auto transfer = [&](const Bitset& out) {
    Bitset in = out;
    in.subtract(kill);
    (void)in.join(gen);
    return in;
  };
  CHECK(laws::check_monotone(all_subsets_of_five(), transfer).ok());
  // Complement is antitone, and the kit says so.
  auto complement = [](const Bitset& x) {
    Bitset c = Bitset::full(5);
    c.subtract(x);
    return c;
  };
  CHECK(laws::check_monotone(all_subsets_of_five(), complement).failed(laws::law::monotone));
}
