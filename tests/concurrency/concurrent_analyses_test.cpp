// Concurrency of the analyses: independent dense solves (random Boost graphs,
// including irreducible ones, with a gen/kill problem) and independent sparse
// analyses of the reference IR (SCCP and integer ranges on random programs
// with loops, sharing one read-only OpRegistry, with their rewrites) run from
// several threads at once must give exactly the sequential answers; so must
// SCCP and integer ranges solved from several threads over one shared,
// read-only SsaProgramIndex per function (the oracle there: solves over the
// shape itself). The oracle
// is the sequential run of the same code; the ThreadSanitizer preset (`tsan`)
// runs this file to catch data races the comparison cannot see.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <kildall/ir.hpp>
#include <kildall/solver/dense.hpp>
#include <kildall/solver/ssa_program_index.hpp>
#include <kildall/solver/verify.hpp>

#include "../ir/random_programs.hpp"
#include "../solver/random_graphs.hpp"
#include "../solver/test_lattices.hpp"

namespace {

constexpr unsigned thread_count = 4;

/// Runs `work(i)` for i in [0, count) spread over `thread_count` threads.
template <class Work>
void in_parallel(std::size_t count, Work work) {
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < thread_count; ++t)
    threads.emplace_back([&work, count, t] {
      for (std::size_t i = t; i < count; i += thread_count) work(i);
    });
  for (std::thread& thread : threads) thread.join();
}

/// out = (in \ kill) | gen over 64-bit sets.
struct GenKill {
  using lattice_type = solver_test::Bits;
  std::vector<std::uint64_t> gen;
  std::vector<std::uint64_t> kill;
  [[nodiscard]] solver_test::Bits boundary(std::size_t) const { return solver_test::Bits{}; }
  [[nodiscard]] solver_test::Bits transfer(std::size_t v, const solver_test::Bits& in) const {
    return solver_test::Bits{(in.bits & ~kill[v]) | gen[v]};
  }
};

struct DenseCase {
  solver_test::Graph graph;
  GenKill problem;
};

/// In-states of every vertex (nullopt: unreached) and whether the result verified.
struct DenseAnswer {
  std::vector<std::optional<std::uint64_t>> in;
  bool verified = false;
  friend bool operator==(const DenseAnswer&, const DenseAnswer&) = default;
};

DenseAnswer solve_dense_case(const DenseCase& c) {
  const auto r = kildall::solve_forward(c.graph, std::size_t{0}, c.problem);
  DenseAnswer answer;
  for (std::size_t v = 0; v < num_vertices(c.graph); ++v) {
    const solver_test::Bits* s = r.before(v);
    answer.in.push_back(s ? std::optional<std::uint64_t>(s->bits) : std::nullopt);
  }
  answer.verified = kildall::verify_fixpoint(c.problem, r).ok();
  return answer;
}

/// Everything the IR analyses say about one program, as text.
std::string analyse_program(const std::string& text, const kildall::ir::OpRegistry& registry) {
  using namespace kildall::ir;
  Module module = parse_and_verify(text, registry, "random.mlir");
  std::string out;
  for (Function& fn : module.functions) {
    const IntRangeAnalysis ranges(fn);
    for (ValueId v = 0; v < fn.values.size(); ++v) out += ranges.describe(v) + "\n";
    const SccpAnalysis sccp(fn, registry);
    for (ValueId v = 0; v < fn.values.size(); ++v) out += sccp.describe(v) + "\n";
    (void)apply_sccp(fn, sccp);
  }
  verify(module);
  for (Function& fn : module.functions) {
    const IntRangeAnalysis ranges(fn);
    (void)apply_int_range_optimizations(fn, ranges);
  }
  verify(module);
  print_module(module, out);
  return out;
}

/// Whether two sparse results hold the same states for values [0, n).
template <class R>
bool same_states(const R& a, const R& b, std::size_t n) {
  for (std::size_t v = 0; v < n; ++v) {
    const auto* x = a.lookup(v);
    const auto* y = b.lookup(v);
    if ((x == nullptr) != (y == nullptr) || (x != nullptr && !(*x == *y))) return false;
  }
  return a.status() == b.status();
}

}  // namespace

TEST_CASE("independent dense solves from several threads equal the sequential solves") {
  std::vector<DenseCase> cases;
  for (unsigned seed = 0; seed < 160; ++seed) {
    std::mt19937 rng(seed);
    const std::size_t n = 1 + rng() % 200;
    DenseCase c{solver_test::random_graph(rng, n, rng() % (2 * n + 1)), {}};
    for (std::size_t v = 0; v < n; ++v) {
      c.problem.gen.push_back((std::uint64_t{rng()} << 32) ^ rng());
      c.problem.kill.push_back((std::uint64_t{rng()} << 32) ^ rng());
    }
    cases.push_back(std::move(c));
  }
  std::vector<DenseAnswer> sequential;
  for (const DenseCase& c : cases) sequential.push_back(solve_dense_case(c));
  for (const DenseAnswer& a : sequential) REQUIRE(a.verified);
  std::vector<DenseAnswer> parallel(cases.size());
  in_parallel(cases.size(), [&](std::size_t i) { parallel[i] = solve_dense_case(cases[i]); });
  for (std::size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(i);
    CHECK(parallel[i] == sequential[i]);
  }
}

TEST_CASE("independent SCCP and integer-range analyses from several threads equal the sequential ones") {
  const kildall::ir::OpRegistry registry;  // shared, read-only, by every thread
  std::vector<std::string> programs;
  for (unsigned seed = 0; seed < 120; ++seed) {
    kildall::ir::testing::ProgramShape shape;
    shape.widths = {static_cast<unsigned>(3 + seed % 6), 8};
    shape.blocks = 2 + seed % 7;
    shape.ops_per_block = 6;
    programs.push_back(kildall::ir::testing::random_program(seed, shape));
  }
  std::vector<std::string> sequential;
  for (const std::string& p : programs) sequential.push_back(analyse_program(p, registry));
  std::vector<std::string> parallel(programs.size());
  in_parallel(programs.size(), [&](std::size_t i) { parallel[i] = analyse_program(programs[i], registry); });
  for (std::size_t i = 0; i < programs.size(); ++i) {
    CAPTURE(i);
    CHECK(parallel[i] == sequential[i]);
  }
}

TEST_CASE("SCCP and integer ranges from several threads over one shared SsaProgramIndex equal solves over the shape") {
  using namespace kildall::ir;
  const OpRegistry registry;
  std::size_t functions = 0;
  for (unsigned seed = 0; seed < 24; ++seed) {
    CAPTURE(seed);
    testing::ProgramShape program_shape;
    program_shape.widths = {static_cast<unsigned>(3 + seed % 6), 8};
    program_shape.blocks = 2 + seed % 9;
    program_shape.ops_per_block = 8;
    const Module module = parse_and_verify(testing::random_program(seed, program_shape), registry, "random.mlir");
    for (const Function& fn : module.functions) {
      const FunctionShape shape(fn);
      const kildall::SsaProgramIndex index(shape);  // shared, read-only, by every thread
      const SccpProblem sccp(shape, registry);       // has extra operands: layered per solve
      const IntRangeProblem ranges(shape);
      const auto sccp_expected = kildall::solve_sparse(shape, sccp);
      const auto ranges_expected = kildall::solve_sparse(shape, ranges);
      std::vector<int> agreed(8, 0);
      in_parallel(agreed.size(), [&](std::size_t i) {
        const bool ok = i % 2 == 0 ? same_states(kildall::solve_sparse(index, sccp), sccp_expected, fn.values.size())
                                   : same_states(kildall::solve_sparse(index, ranges), ranges_expected,
                                                 fn.values.size());
        agreed[i] = ok ? 1 : 0;
      });
      for (const int a : agreed) CHECK(a == 1);
      ++functions;
    }
  }
  CHECK(functions >= 24);
}
