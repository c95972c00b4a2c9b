#include <kildall/lattice/product.hpp>
#include <kildall/lattice/bitset.hpp>
#include <kildall/lattice/flat.hpp>
#include <kildall/lattice/laws.hpp>
#include <kildall/lattice/powerset.hpp>

#include "toy_lattices.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <ostream>
#include <random>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

namespace {

using kildall::Bitset;
using kildall::Flat;
using kildall::Product;
using kildall::ReducedProduct;
using kildall::test::Chain;
namespace laws = kildall::laws;

// --- A reduced product: sign × parity --------------------------------------

enum class Sign { negative, zero, positive };
enum class Parity { even, odd };
std::ostream& operator<<(std::ostream& os, Sign s) {
  return os << (s == Sign::negative ? "-" : s == Sign::zero ? "0" : "+");
}
std::ostream& operator<<(std::ostream& os, Parity p) { return os << (p == Parity::even ? "even" : "odd"); }

using SignL = Flat<Sign>;
using ParityL = Flat<Parity>;

/// Components refine each other: the only zero is even, so sign 0 makes the
/// parity even, and (0, odd) is empty; an empty component empties the other.
struct SignParityReducer {
  void operator()(std::tuple<SignL, ParityL>& t) const {
    auto& [sign, parity] = t;
    const bool zero = sign.is_constant() && sign.constant() == Sign::zero;
    const bool odd = parity.is_constant() && parity.constant() == Parity::odd;
    if (sign.is_bottom() || parity.is_bottom() || (zero && odd)) {
      sign = SignL::bottom();
      parity = ParityL::bottom();
    } else if (zero && parity.is_top()) {
      parity = ParityL(Parity::even);
    }
  }
};
using SignParity = ReducedProduct<SignParityReducer, SignL, ParityL>;

std::vector<SignL> all_signs() {
  return {SignL::bottom(), SignL(Sign::negative), SignL(Sign::zero), SignL(Sign::positive), SignL::top()};
}
std::vector<ParityL> all_parities() {
  return {ParityL::bottom(), ParityL(Parity::even), ParityL(Parity::odd), ParityL::top()};
}

// Concretization over the integers in [-6, 6].
std::set<int> gamma(const SignL& s, const ParityL& p) {
  std::set<int> out;
  for (int x = -6; x <= 6; ++x) {
    const Sign sx = x < 0 ? Sign::negative : x == 0 ? Sign::zero : Sign::positive;
    const Parity px = x % 2 == 0 ? Parity::even : Parity::odd;
    const bool in_s = s.is_top() || (s.is_constant() && s.constant() == sx);
    const bool in_p = p.is_top() || (p.is_constant() && p.constant() == px);
    if (in_s && in_p) out.insert(x);
  }
  return out;
}
std::set<int> gamma(const SignParity& sp) { return gamma(sp.get<0>(), sp.get<1>()); }

// Every reduced element (the reduced product's carrier), deduplicated.
std::vector<SignParity> all_sign_parities() {
  std::vector<SignParity> all;
  for (const auto& s : all_signs())
    for (const auto& p : all_parities()) {
      SignParity sp(s, p);
      if (std::find(all.begin(), all.end(), sp) == all.end()) all.push_back(sp);
    }
  return all;
}

// --- Plain products ---------------------------------------------------------

using FB = Product<Flat<int>, Bitset>;

std::vector<FB> small_flat_bitsets() {
  std::vector<FB> all;
  for (const Flat<int>& f : {Flat<int>::bottom(), Flat<int>(0), Flat<int>(1), Flat<int>::top()})
    for (unsigned mask = 0; mask < 4; ++mask) {
      Bitset b;
      for (std::size_t i = 0; i < 2; ++i)
        if ((mask >> i) & 1U) b.set(i);
      all.emplace_back(f, b);
    }
  return all;
}

}  // namespace

TEST_CASE("products model what all their components model") {
  static_assert(kildall::HasBottom<FB>);
  static_assert(!kildall::HasTop<FB>);  // Bitset has no top
  static_assert(kildall::Lattice<FB>);
  static_assert(!kildall::WidenableLattice<FB>);
  using FP = Product<Flat<int>, kildall::MayPowerset<int>>;
  static_assert(kildall::BoundedLattice<FP>);
  using CC = Product<Chain, Chain>;
  static_assert(kildall::WidenableLattice<CC> && kildall::NarrowableLattice<CC>);
  static_assert(!kildall::WidenableLattice<Product<Chain, Flat<int>>>);
  static_assert(kildall::BoundedLattice<SignParity>);
  static_assert(FB::arity == 2 && !FB::reduced && SignParity::reduced);
}

TEST_CASE("a plain product passes the law kit and is componentwise") {
  const auto all = small_flat_bitsets();
  const auto report = laws::check_all_laws(all);
  CHECK_MESSAGE(report.ok(), report.failures());
  for (const FB& a : all)
    for (const FB& b : all) {
      FB j = a;
      const auto jr = j.join(b);
      Flat<int> f = a.get<0>();
      Bitset s = a.get<1>();
      const auto fr = f.join(b.get<0>());
      const auto sr = s.join(b.get<1>());
      CHECK(j == FB(f, s));
      CHECK(jr == (fr | sr));
      CHECK(a.leq(b) == (a.get<0>().leq(b.get<0>()) && a.get<1>().leq(b.get<1>())));
    }
  FB x;
  x.set<1>(Bitset{4});
  CHECK(kildall::get<1>(x) == Bitset{4});
  CHECK(x.get<0>().is_bottom());
  std::ostringstream os;
  os << FB(Flat<int>(3), Bitset{1, 2});
  CHECK(os.str() == "(3, {1, 2})");
}

TEST_CASE("a product of widenable lattices widens componentwise") {
  using CC = Product<Chain, Chain>;
  auto gen = [](std::mt19937_64& rng) { return CC(kildall::test::random_chain(rng), kildall::test::random_chain(rng)); };
  laws::Hooks<CC> hooks{.print = {}, .ascend = [](const CC& prev, std::mt19937_64& rng) {
                          return rng() % 2 == 0 ? CC(kildall::test::chain_step_up(prev.get<0>(), rng), prev.get<1>())
                                                : CC(prev.get<0>(), kildall::test::chain_step_up(prev.get<1>(), rng));
                        }};
  const auto report = laws::check_all_laws(gen, {.seed = 6, .samples = 400}, hooks);
  CHECK_MESSAGE(report.ok(), report.failures());
  CC x(Chain{1}, Chain{5});
  CHECK(is_changed(x.widen(CC(Chain{2}, Chain{5}))));
  CHECK(x == CC(Chain::top(), Chain{5}));
}

TEST_CASE("reduced product: sign x parity") {
  // The reducer is sound (same concrete set) and idempotent on every pair.
  for (const auto& s : all_signs())
    for (const auto& p : all_parities()) {
      const SignParity sp(s, p);
      CHECK(gamma(sp) == gamma(s, p));
      CHECK(SignParity(sp.get<0>(), sp.get<1>()) == sp);
    }
  // It refines: zero is even, and zero cannot be odd.
  CHECK(SignParity(SignL(Sign::zero), ParityL::top()).get<1>() == ParityL(Parity::even));
  CHECK(SignParity(SignL(Sign::zero), ParityL(Parity::odd)).is_bottom());
  CHECK(SignParity(SignL::bottom(), ParityL::top()).is_bottom());

  // The reduced elements form a lattice.
  const auto all = all_sign_parities();
  // Reduction identifies exactly the pairs with the same meaning: one reduced
  // element per distinct concrete set.
  std::set<std::set<int>> meanings;
  for (const auto& s : all_signs())
    for (const auto& p : all_parities()) meanings.insert(gamma(s, p));
  CHECK(all.size() == meanings.size());
  const auto report = laws::check_all_laws(all);
  CHECK_MESSAGE(report.ok(), report.failures());

  // Join is sound: it covers both concrete sets.
  for (const auto& a : all)
    for (const auto& b : all) {
      SignParity j = a;
      (void)j.join(b);
      const auto ga = gamma(a), gb = gamma(b), gj = gamma(j);
      CHECK(std::includes(gj.begin(), gj.end(), ga.begin(), ga.end()));
      CHECK(std::includes(gj.begin(), gj.end(), gb.begin(), gb.end()));
    }

  // Meet reduces: (top, odd) ⊓ (0, top) is (0, odd), which is empty.
  SignParity m(SignL::top(), ParityL(Parity::odd));
  CHECK(is_changed(m.meet(SignParity(SignL(Sign::zero), ParityL::top()))));
  CHECK(m.is_bottom());
  // set<> reduces too.
  SignParity s(SignL::top(), ParityL::top());
  s.set<0>(SignL(Sign::zero));
  CHECK(s.get<1>() == ParityL(Parity::even));
  // A join whose componentwise result reduces back reports no change.
  SignParity z(SignL(Sign::zero), ParityL::top());
  CHECK_FALSE(is_changed(z.join(SignParity(SignL(Sign::zero), ParityL(Parity::even)))));
}
