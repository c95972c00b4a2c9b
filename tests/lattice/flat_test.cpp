#include <kildall/lattice/flat.hpp>
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

using kildall::Flat;
namespace laws = kildall::laws;
using F = Flat<int>;

// The small domain {bottom, 0, 1, 2, 3, top}.
std::vector<F> small_flat() {
  std::vector<F> all{F::bottom(), F::top()};
  for (int i = 0; i <= 3; ++i) all.push_back(F(i));
  return all;
}

// Oracle: a flat element stands for a set of concrete values in {0..3}
// (bottom = none, c = {c}, top = all); the flat lattice is the best
// abstraction of those sets.
using Concrete = std::set<int>;
Concrete gamma(const F& f) {
  if (f.is_bottom()) return {};
  if (f.is_top()) return {0, 1, 2, 3};
  return {f.constant()};
}
// The least flat element whose concretization contains `s`.
F alpha_up(const Concrete& s) {
  if (s.empty()) return F::bottom();
  if (s.size() == 1) return F(*s.begin());
  return F::top();
}
// The greatest flat element whose concretization is inside `s`.
F alpha_down(const Concrete& s) {
  if (s.size() == 4) return F::top();
  if (s.size() == 1) return F(*s.begin());
  return F::bottom();
}

F joined(F a, const F& b) {
  (void)a.join(b);
  return a;
}

}  // namespace

TEST_CASE("Flat models the lattice concepts") {
  static_assert(kildall::BoundedLattice<F>);
  static_assert(kildall::Lattice<F>);
  static_assert(std::regular<F>);
  static_assert(!kildall::WidenableLattice<F>);  // height 2: no widening needed
  static_assert(kildall::BoundedLattice<Flat<std::string>>);
  CHECK(F() == F::bottom());
  CHECK(F::of(4) == F(4));
}

TEST_CASE("Flat passes the law kit exhaustively and randomly") {
  const auto exhaustive = laws::check_all_laws(small_flat());
  CHECK_MESSAGE(exhaustive.ok(), exhaustive.failures());
  CHECK(exhaustive.find(laws::law::join_associative)->cases == 216);

  auto gen = [](std::mt19937_64& rng) {
    std::uniform_int_distribution<int> pick(-2, 6);
    const int x = pick(rng);
    return x == -2 ? Flat<std::string>::bottom() : x == -1 ? Flat<std::string>::top()
                                                           : Flat<std::string>(std::string(1, char('a' + x)));
  };
  const auto randomized = laws::check_all_laws(gen, {.seed = 5, .samples = 500});
  CHECK_MESSAGE(randomized.ok(), randomized.failures());
}

TEST_CASE("Flat operations match the best abstraction of concrete sets") {
  const auto all = small_flat();
  for (const F& a : all) {
    CHECK(alpha_up(gamma(a)) == a);
    const Concrete ga = gamma(a);
    for (const F& b : all) {
      const Concrete gb = gamma(b);
      Concrete u, i;
      std::set_union(ga.begin(), ga.end(), gb.begin(), gb.end(), std::inserter(u, u.end()));
      std::set_intersection(ga.begin(), ga.end(), gb.begin(), gb.end(), std::inserter(i, i.end()));
      F j = a;
      const auto jr = j.join(b);
      CHECK(j == alpha_up(u));
      CHECK(kildall::is_changed(jr) == (j != a));
      F m = a;
      const auto mr = m.meet(b);
      CHECK(m == alpha_down(i));
      CHECK(kildall::is_changed(mr) == (m != a));
      CHECK(a.leq(b) == std::includes(gb.begin(), gb.end(), ga.begin(), ga.end()));
    }
  }
}

TEST_CASE("Flat accessors") {
  const F c(7);
  CHECK(c.is_constant());
  CHECK(c.constant() == 7);
  REQUIRE(c.if_constant() != nullptr);
  CHECK(*c.if_constant() == 7);
  CHECK_FALSE(F::top().is_constant());
  CHECK(F::top().if_constant() == nullptr);
  CHECK_THROWS_AS((void)F::top().constant(), std::logic_error);
  CHECK_THROWS_WITH((void)F::bottom().constant(), doctest::Contains("bottom"));
  std::ostringstream os;
  os << F::bottom() << ' ' << c << ' ' << F::top();
  CHECK(os.str() == "bottom 7 top");
}

TEST_CASE("constant-propagation addition over Flat is monotone") {
  // The standard abstract addition: strict in bottom, top absorbs, constants fold.
  auto add = [](const F& a, const F& b) {
    if (a.is_bottom() || b.is_bottom()) return F::bottom();
    if (a.is_top() || b.is_top()) return F::top();
    return F(a.constant() + b.constant());
  };
  CHECK(laws::check_monotone_binary(small_flat(), add).ok());
  // Folding the constants of a join is not monotone: top + anything "= 0" is wrong.
  auto broken = [&](const F& a, const F& b) { return a.is_top() ? F(0) : add(a, b); };
  CHECK(laws::check_monotone_binary(small_flat(), broken).failed(laws::law::monotone_binary));
  CHECK(add(joined(F(1), F(1)), F(2)) == F(3));
}
