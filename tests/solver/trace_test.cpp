#include <kildall/lattice/interval.hpp>
#include <kildall/solver/sparse.hpp>
#include <kildall/solver/trace.hpp>

#include <doctest/doctest.h>

#include <boost/graph/adjacency_list.hpp>

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Dag = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

/// The article's noise ranges: encode gives [0, 12], add sums the bounds.
struct NoiseRanges {
  using lattice_type = kildall::Interval;
  kildall::Interval transfer(std::size_t, kildall::OperandStates<kildall::Interval> ops) const {
    if (ops.empty()) return kildall::Interval::from_unsigned(32, 0, 12);
    std::uint64_t hi = 0;
    for (const kildall::Interval* s : ops) hi += s->umax();
    return kildall::Interval::from_unsigned(32, 0, hi);
  }
};

}  // namespace

TEST_CASE("the trace prints MLIR's int-range-analysis lines") {
  Dag g(3);
  add_edge(0, 2, g);
  add_edge(1, 2, g);
  const std::vector<std::string> text{"%0 = noisy.encode %a", "%1 = noisy.encode %b", "%2 = noisy.add %0, %1"};
  std::ostringstream out;
  auto trace = kildall::make_trace(
      out, [&](std::size_t v) { return text[v]; },
      [](const kildall::Interval& x) { return kildall::to_mlir_debug_string(x); });
  const auto r = kildall::solve_sparse(g, NoiseRanges{}, {}, trace);
  REQUIRE(r.converged());
  CHECK(out.str() ==
        "Inferring ranges for %0 = noisy.encode %a\n"
        "Inferred range unsigned : [0, 12] signed : [0, 12]\n"
        "Inferring ranges for %1 = noisy.encode %b\n"
        "Inferred range unsigned : [0, 12] signed : [0, 12]\n"
        "Inferring ranges for %2 = noisy.add %0, %1\n"
        "Inferred range unsigned : [0, 24] signed : [0, 24]\n");
}

TEST_CASE("the trace has configurable words and prints states with operator<< by default") {
  Dag g(1);
  std::ostringstream out;
  kildall::TraceFormat format;
  format.visiting = "visit ";
  format.result = "-> ";
  auto trace = kildall::make_trace(out, [](std::size_t v) { return v; }, kildall::StreamState{}, format);
  (void)kildall::solve_sparse(g, NoiseRanges{}, {}, trace);
  std::ostringstream expected_state;
  expected_state << kildall::Interval::from_unsigned(32, 0, 12);
  CHECK(out.str() == "visit 0\n-> " + expected_state.str() + "\n");
}
