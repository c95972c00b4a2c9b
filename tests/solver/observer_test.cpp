#include <kildall/solver/observer.hpp>
#include <kildall/solver/sparse.hpp>

#include <doctest/doctest.h>

#include <boost/graph/adjacency_list.hpp>

#include <cstddef>
#include <vector>

#include "test_lattices.hpp"

namespace {

using Dag = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

struct Depth {
  using lattice_type = solver_test::MaxInt;
  solver_test::MaxInt transfer(std::size_t, kildall::OperandStates<solver_test::MaxInt> ops) const {
    std::int64_t d = 0;
    for (const auto* s : ops) d = std::max(d, s->value + 1);
    return {d};
  }
};

struct Recorder {
  std::vector<kildall::VisitEvent<std::size_t, solver_test::MaxInt>> events;
  std::vector<solver_test::MaxInt> afters;
  void on_visit(const kildall::VisitEvent<std::size_t, solver_test::MaxInt>& e) {
    events.push_back(e);
    afters.push_back(*e.after);  // pointers are valid only during the call
  }
};

}  // namespace

TEST_CASE("observers see each visit with before/after states") {
  Dag g(3);
  add_edge(0, 1, g);
  add_edge(1, 2, g);
  add_edge(0, 2, g);
  Recorder recorder;
  const auto r = kildall::solve_sparse(g, Depth{}, {}, recorder);
  REQUIRE(recorder.events.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(recorder.events[i].node == i);  // operands first (index order is topological here)
    CHECK(recorder.events[i].visit == 1);
    CHECK(recorder.events[i].phase == kildall::VisitPhase::ascending);
    CHECK(recorder.events[i].change == kildall::ChangeResult::changed);
    CHECK(recorder.afters[i].value == static_cast<std::int64_t>(i));
  }
  CHECK(r.lookup(2)->value == 2);
  static_assert(kildall::Observer<Recorder, std::size_t, solver_test::MaxInt>);
  static_assert(kildall::Observer<kildall::NoObserver, std::size_t, solver_test::MaxInt>);
  static_assert(!kildall::observer_enabled<kildall::NoObserver>);
  static_assert(kildall::observer_enabled<Recorder>);
}
