#include <kildall/lattice/powerset.hpp>
#include <kildall/lattice/laws.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using kildall::MayPowerset;
using kildall::MustPowerset;
namespace laws = kildall::laws;
using SetOracle = std::set<int>;

// Every subset of {0..3} plus the symbolic universe: 17 elements.
template <class P>
std::vector<P> all_subsets_and_universe(P universe) {
  std::vector<P> all{universe};
  for (unsigned mask = 0; mask < 16; ++mask) {
    std::vector<int> elements;
    for (int i = 0; i < 4; ++i)
      if ((mask >> i) & 1U) elements.push_back(i);
    all.emplace_back(elements.begin(), elements.end());
  }
  return all;
}

std::vector<int> random_elements(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> count(0, 12), value(0, 30);
  std::vector<int> v(static_cast<std::size_t>(count(rng)));
  for (int& x : v) x = value(rng);
  return v;
}

}  // namespace

TEST_CASE("powersets model the lattice concepts") {
  static_assert(kildall::BoundedLattice<MayPowerset<int>>);
  static_assert(kildall::Lattice<MayPowerset<int>>);
  static_assert(kildall::BoundedLattice<MustPowerset<std::string>>);
  static_assert(kildall::Lattice<MustPowerset<std::string>>);
  static_assert(std::is_same_v<kildall::Powerset<int>, MayPowerset<int>>);
  CHECK(MayPowerset<int>() == MayPowerset<int>::bottom());
  CHECK(MustPowerset<int>() == MustPowerset<int>::bottom());
  CHECK(MustPowerset<int>().is_universe());
  CHECK(MustPowerset<int>::empty() == MustPowerset<int>::top());
}

TEST_CASE("powersets pass the law kit") {
  const auto may = laws::check_all_laws(all_subsets_and_universe(MayPowerset<int>::top()));
  CHECK_MESSAGE(may.ok(), may.failures());
  const auto must = laws::check_all_laws(all_subsets_and_universe(MustPowerset<int>::bottom()));
  CHECK_MESSAGE(must.ok(), must.failures());

  auto gen_may = [](std::mt19937_64& rng) {
    if (rng() % 10 == 0) return MayPowerset<std::string>::top();
    const auto v = random_elements(rng);
    std::vector<std::string> s;
    for (int x : v) s.push_back("e" + std::to_string(x));
    return MayPowerset<std::string>(s.begin(), s.end());
  };
  const auto may_random = laws::check_all_laws(gen_may, {.seed = 13, .samples = 400});
  CHECK_MESSAGE(may_random.ok(), may_random.failures());
  auto gen_must = [](std::mt19937_64& rng) {
    if (rng() % 10 == 0) return MustPowerset<int>::bottom();
    const auto v = random_elements(rng);
    return MustPowerset<int>(v.begin(), v.end());
  };
  const auto must_random = laws::check_all_laws(gen_must, {.seed = 13, .samples = 400});
  CHECK_MESSAGE(must_random.ok(), must_random.failures());
}

TEST_CASE("finite powersets agree with std::set, and must is the dual of may") {
  std::mt19937_64 rng(3);
  for (int round = 0; round < 500; ++round) {
    const auto va = random_elements(rng), vb = random_elements(rng);
    const SetOracle sa(va.begin(), va.end()), sb(vb.begin(), vb.end());
    SetOracle u, i;
    std::set_union(sa.begin(), sa.end(), sb.begin(), sb.end(), std::inserter(u, u.end()));
    std::set_intersection(sa.begin(), sa.end(), sb.begin(), sb.end(), std::inserter(i, i.end()));
    const bool subset = std::includes(sb.begin(), sb.end(), sa.begin(), sa.end());

    const MayPowerset<int> a(va.begin(), va.end()), b(vb.begin(), vb.end());
    CHECK(std::vector<int>(a.begin(), a.end()) == std::vector<int>(sa.begin(), sa.end()));  // sorted, deduplicated
    MayPowerset<int> j = a, m = a;
    CHECK(kildall::is_changed(j.join(b)) == (u != sa));
    CHECK(kildall::is_changed(m.meet(b)) == (i != sa));
    CHECK(SetOracle(j.begin(), j.end()) == u);
    CHECK(SetOracle(m.begin(), m.end()) == i);
    CHECK(a.leq(b) == subset);

    const MustPowerset<int> ma(va.begin(), va.end()), mb(vb.begin(), vb.end());
    MustPowerset<int> mj = ma, mm = ma;
    CHECK(kildall::is_changed(mj.join(mb)) == (i != sa));
    CHECK(kildall::is_changed(mm.meet(mb)) == (u != sa));
    CHECK(SetOracle(mj.begin(), mj.end()) == i);
    CHECK(SetOracle(mm.begin(), mm.end()) == u);
    CHECK(mb.leq(ma) == subset);
    for (int x = 0; x <= 31; ++x) {
      CHECK(a.contains(x) == (sa.count(x) == 1));
      CHECK(ma.contains(x) == (sa.count(x) == 1));
    }
  }
}

TEST_CASE("the symbolic universe") {
  auto may_top = MayPowerset<int>::top();
  CHECK(may_top.contains(123456));
  CHECK_THROWS_AS((void)may_top.elements(), std::logic_error);
  CHECK_THROWS_AS((void)may_top.size(), std::logic_error);
  CHECK_THROWS_WITH(may_top.erase(1), doctest::Contains("symbolic universe"));
  may_top.insert(5);  // still everything
  CHECK(may_top.is_top());
  MayPowerset<int> s{1, 2};
  CHECK(is_changed(s.join(may_top)));
  CHECK(s.is_top());
  MayPowerset<int> t = MayPowerset<int>::top();
  CHECK(is_changed(t.meet(MayPowerset<int>{4})));
  CHECK(t == MayPowerset<int>{4});

  // Available expressions: a path not yet reached (universe) does not spoil
  // what holds on the reached ones.
  MustPowerset<std::string> unreached;
  MustPowerset<std::string> reached{"a+b", "c*d"};
  MustPowerset<std::string> at_merge = unreached;
  CHECK(is_changed(at_merge.join(reached)));
  CHECK(at_merge == reached);
  CHECK_FALSE(is_changed(at_merge.join(MustPowerset<std::string>::bottom())));
  CHECK(is_changed(at_merge.join(MustPowerset<std::string>{"c*d"})));
  CHECK(at_merge.elements() == std::vector<std::string>{"c*d"});
  CHECK_THROWS_AS(unreached.erase("a+b"), std::logic_error);

  std::ostringstream os;
  os << MayPowerset<int>{3, 1} << ' ' << MayPowerset<int>::top() << ' ' << MustPowerset<int>::top();
  CHECK(os.str() == "{1, 3} universe {}");
}

TEST_CASE("insert and erase keep the elements sorted and unique") {
  std::mt19937_64 rng(8);
  MayPowerset<int> s;
  SetOracle o;
  for (int step = 0; step < 400; ++step) {
    const int x = static_cast<int>(rng() % 50);
    if (rng() % 3 == 0) {
      s.erase(x);
      o.erase(x);
    } else {
      s.insert(x);
      o.insert(x);
    }
  }
  CHECK(s.elements() == std::vector<int>(o.begin(), o.end()));
  CHECK(s.size() == o.size());
}
