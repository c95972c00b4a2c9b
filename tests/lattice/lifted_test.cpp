#include <kildall/lattice/lifted.hpp>
#include <kildall/lattice/bitset.hpp>
#include <kildall/lattice/flat.hpp>
#include <kildall/lattice/laws.hpp>

#include "toy_lattices.hpp"

#include <doctest/doctest.h>

#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using kildall::Lifted;
using kildall::test::Chain;
namespace laws = kildall::laws;

std::vector<Lifted<int>> small_lifted_int() {
  std::vector<Lifted<int>> all{Lifted<int>::uninitialized(), Lifted<int>::top()};
  for (int i = 0; i <= 3; ++i) all.emplace_back(i);
  return all;
}

// The same element in the independent Flat implementation.
kildall::Flat<int> as_flat(const Lifted<int>& l) {
  if (l.is_uninitialized()) return kildall::Flat<int>::bottom();
  if (l.is_top()) return kildall::Flat<int>::top();
  return kildall::Flat<int>(l.value());
}

}  // namespace

TEST_CASE("Lifted models the lattice concepts of its payload") {
  static_assert(kildall::BoundedLattice<Lifted<int>>);
  static_assert(kildall::MeetSemiLattice<Lifted<int>>);
  static_assert(!kildall::WidenableLattice<Lifted<int>>);
  static_assert(!Lifted<int>::lattice_values);
  static_assert(kildall::BoundedLattice<Lifted<std::string>>);
  static_assert(Lifted<kildall::Bitset>::lattice_values);
  static_assert(kildall::Lattice<Lifted<kildall::Bitset>>);
  static_assert(kildall::WidenableLattice<Lifted<Chain>>);
  static_assert(kildall::NarrowableLattice<Lifted<Chain>>);
  CHECK(Lifted<int>() == Lifted<int>::bottom());
}

TEST_CASE("Lifted<int> is the constant-propagation lattice") {
  const auto all = small_lifted_int();
  const auto report = laws::check_all_laws(all);
  CHECK_MESSAGE(report.ok(), report.failures());
  // Oracle: the independent Flat<int> implementation.
  for (const auto& a : all) {
    for (const auto& b : all) {
      Lifted<int> j = a, m = a;
      auto fj = as_flat(a), fm = as_flat(a);
      CHECK(j.join(b) == fj.join(as_flat(b)));
      CHECK(m.meet(b) == fm.meet(as_flat(b)));
      CHECK(as_flat(j) == fj);
      CHECK(as_flat(m) == fm);
      CHECK(a.leq(b) == as_flat(a).leq(as_flat(b)));
    }
  }
}

TEST_CASE("Lifted uses the payload's own join") {
  using LB = Lifted<kildall::Bitset>;
  std::vector<LB> all{LB::uninitialized(), LB::top()};
  for (unsigned mask = 0; mask < 8; ++mask) {
    kildall::Bitset b(3);
    for (std::size_t i = 0; i < 3; ++i)
      if ((mask >> i) & 1U) b.set(i);
    all.emplace_back(b);
  }
  const auto report = laws::check_all_laws(all);
  CHECK_MESSAGE(report.ok(), report.failures());

  LB x(kildall::Bitset{1});
  CHECK(is_changed(x.join(LB(kildall::Bitset{2}))));
  REQUIRE(x.has_value());  // a union, not top
  CHECK(x.value() == kildall::Bitset{1, 2});
  CHECK(is_changed(x.meet(LB(kildall::Bitset{2, 5}))));
  CHECK(x.value() == kildall::Bitset{2});
}

TEST_CASE("Lifted forwards widening and narrowing") {
  auto gen = [](std::mt19937_64& rng) {
    const auto k = rng() % 10;
    if (k == 0) return Lifted<Chain>::uninitialized();
    if (k == 1) return Lifted<Chain>::top();
    return Lifted<Chain>(kildall::test::random_chain(rng));
  };
  laws::Hooks<Lifted<Chain>> hooks{
      .print = {},
      .ascend = [](const Lifted<Chain>& prev, std::mt19937_64& rng) {
        if (!prev.has_value()) return Lifted<Chain>(Chain{1});
        return Lifted<Chain>(kildall::test::chain_step_up(prev.value(), rng));
      }};
  const auto report = laws::check_all_laws(gen, {.seed = 21, .samples = 400}, hooks);
  CHECK_MESSAGE(report.ok(), report.failures());
  CHECK(report.checked(laws::law::widen_stabilizes));
  CHECK(report.checked(laws::law::narrow_between));

  Lifted<Chain> x(Chain{3});
  CHECK(is_changed(x.widen(Lifted<Chain>(Chain{4}))));
  CHECK(x.value() == Chain::top());  // the payload's widening, not Lifted's top
  CHECK(is_changed(x.narrow(Lifted<Chain>(Chain{9}))));
  CHECK(x.value() == Chain{9});
  Lifted<Chain> t = Lifted<Chain>::top();
  CHECK(is_changed(t.narrow(Lifted<Chain>(Chain{2}))));
  CHECK(t == Lifted<Chain>(Chain{2}));
}

TEST_CASE("Lifted accessors") {
  const Lifted<std::string> v(std::string("x"));
  CHECK(v.has_value());
  CHECK(v.value() == "x");
  REQUIRE(v.if_value() != nullptr);
  CHECK_FALSE(Lifted<int>::top().has_value());
  CHECK(Lifted<int>::top().if_value() == nullptr);
  CHECK(Lifted<int>::uninitialized().is_uninitialized());
  CHECK_THROWS_WITH((void)Lifted<int>::top().value(), doctest::Contains("top"));
  CHECK_THROWS_AS((void)Lifted<int>().value(), std::logic_error);
  std::ostringstream os;
  os << Lifted<int>() << ' ' << Lifted<int>(4) << ' ' << Lifted<int>::top();
  CHECK(os.str() == "uninitialized 4 top");
}
