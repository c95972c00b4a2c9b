// Compiles and runs the snippets of docs/solvers.md, so the page cannot rot.

// --- docs/solvers.md: "Writing a new analysis in under 50 lines" (verbatim) ---
#include <kildall/lattice/bitset.hpp>
#include <kildall/solver/dense.hpp>
#include <kildall/solver/verify.hpp>

#include <boost/graph/adjacency_list.hpp>

#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

using Cfg = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
struct Block { std::vector<std::size_t> reads, writes; };  // reads happen first

// The state is the set of variables that may still be unset.
struct MaybeUnset {
  using lattice_type = kildall::Bitset;
  const std::vector<Block>* blocks;
  std::size_t num_vars;

  kildall::Bitset boundary(std::size_t) const { return kildall::Bitset::full(num_vars); }
  kildall::Bitset transfer(std::size_t b, const kildall::Bitset& in) const {
    kildall::Bitset out = in;
    for (std::size_t w : (*blocks)[b].writes) out.reset(w);
    return out;
  }
};

// (block, variable) pairs where a variable may be read before it is set.
std::vector<std::pair<std::size_t, std::size_t>> reads_of_unset(const Cfg& cfg, const std::vector<Block>& blocks,
                                                                std::size_t num_vars) {
  const MaybeUnset problem{&blocks, num_vars};
  const auto result = kildall::solve_forward(cfg, std::size_t{0}, problem);
  if (!result.converged()) throw std::runtime_error(result.outcome().message());
  if (!kildall::verify_fixpoint(problem, result).ok()) throw std::logic_error("not a fixpoint");
  std::vector<std::pair<std::size_t, std::size_t>> found;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const kildall::Bitset* unset = result.lookup_in(b);
    if (unset == nullptr) continue;  // unreachable block: no state, nothing to report
    for (std::size_t r : blocks[b].reads) {
      if (unset->test(r)) found.emplace_back(b, r);
    }
  }
  return found;
}
// --- end of the snippet -------------------------------------------------------

#include <kildall/lattice/interval.hpp>
#include <kildall/solver/sparse.hpp>
#include <kildall/solver/trace.hpp>

#include <doctest/doctest.h>

#include <sstream>
#include <string>

TEST_CASE("docs/solvers.md: reads of maybe-unset variables") {
  // b0: writes x0          -> b1, b2
  // b1: reads x0, writes x1 -> b3
  // b2: (nothing)           -> b3
  // b3: reads x1            (x1 unset along b2)
  // b4: reads x0            (unreachable: no report)
  Cfg cfg(5);
  add_edge(0, 1, cfg);
  add_edge(0, 2, cfg);
  add_edge(1, 3, cfg);
  add_edge(2, 3, cfg);
  add_edge(4, 3, cfg);
  const std::vector<Block> blocks{{{}, {0}}, {{0}, {1}}, {{}, {}}, {{1}, {}}, {{0}, {}}};
  const auto found = reads_of_unset(cfg, blocks, 2);
  CHECK(found == std::vector<std::pair<std::size_t, std::size_t>>{{3, 1}});
}

// --- docs/solvers.md: the noise analysis on a Boost DAG, with the trace ------
using Dag = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

struct NoiseBound {
  using lattice_type = kildall::Interval;
  const Dag* dag;
  // Inputs (no operands) carry noise [0, 12]; an op adds its operands' noise.
  kildall::Interval transfer(std::size_t, kildall::OperandStates<kildall::Interval> operands) const {
    if (operands.empty()) return kildall::Interval::from_unsigned(32, 0, 12);
    std::uint64_t max = 0;
    for (const kildall::Interval* s : operands) max += s->umax();
    return kildall::Interval::from_unsigned(32, 0, max);
  }
};

TEST_CASE("docs/solvers.md: sparse noise analysis and its trace") {
  Dag dag(3);
  add_edge(0, 2, dag);
  add_edge(1, 2, dag);
  const std::vector<std::string> ir{"%0 = noisy.encode %a", "%1 = noisy.encode %b", "%2 = noisy.add %0, %1"};
  std::ostringstream log;
  auto trace = kildall::make_trace(
      log, [&](std::size_t v) { return ir[v]; },
      [](const kildall::Interval& x) { return kildall::to_mlir_debug_string(x); });
  auto result = kildall::solve_sparse(dag, NoiseBound{&dag}, {}, trace);
  REQUIRE(result.converged());
  CHECK(result.lookup(2)->umax() == 24);
  CHECK(log.str().find("Inferring ranges for %2 = noisy.add %0, %1\n"
                       "Inferred range unsigned : [0, 24] signed : [0, 24]\n") != std::string::npos);
  CHECK(kildall::verify_fixpoint(NoiseBound{&dag}, result).ok());
}
