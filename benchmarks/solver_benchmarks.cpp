// Google Benchmark targets for kildall's fixed-point solvers.
//
//   cmake --preset release && cmake --build --preset release --target solver_benchmarks
//   build/release/benchmarks/solver_benchmarks
//
// Counters: `ns_per_node` (solve time / nodes), `ns_per_visit` (solve time /
// transfer applications), `visits_per_node`, and `bookkeeping_B_per_node`
// (the solver's own memory per node: order, positions, worklist, flags,
// counters - everything except the lattice values). Each timed iteration is
// a complete solve (ordering + iteration + result allocation); building the
// graphs is not timed.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <kildall/graph/wto.hpp>
#include <kildall/lattice/flat.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/interval_transfer.hpp>
#include <kildall/solver/dense.hpp>
#include <kildall/solver/sparse.hpp>

#include "classic_analyses/constant_propagation.hpp"
#include "classic_analyses/interval_analysis.hpp"
#include "classic_analyses/live_variables.hpp"
#include "solver_generators.hpp"

namespace {

using solver_bench::LineOp;

/// Constant folding over a straight-line program (no CFG).
struct LineConstants {
  using lattice_type = kildall::Flat<std::int64_t>;
  const std::vector<LineOp>* ops;
  lattice_type transfer(std::size_t v, kildall::OperandStates<lattice_type> in) const {
    const LineOp& op = (*ops)[v];
    if (op.kind == LineOp::constant) return lattice_type::of(op.value);
    if (op.kind == LineOp::input) return lattice_type::top();
    const std::int64_t* a = in[0].if_constant();
    const std::int64_t* b = in[1].if_constant();
    if (a == nullptr || b == nullptr) return lattice_type::top();
    const auto ua = static_cast<std::uint64_t>(*a), ub = static_cast<std::uint64_t>(*b);
    switch (op.kind) {
      case LineOp::add: return lattice_type::of(static_cast<std::int64_t>(ua + ub));
      case LineOp::sub: return lattice_type::of(static_cast<std::int64_t>(ua - ub));
      default: return lattice_type::of(static_cast<std::int64_t>(ua * ub));
    }
  }
};

/// Integer ranges over a straight-line program (no CFG), 32-bit values.
struct LineRanges {
  using lattice_type = kildall::Interval;
  const std::vector<LineOp>* ops;
  lattice_type transfer(std::size_t v, kildall::OperandStates<lattice_type> in) const {
    const LineOp& op = (*ops)[v];
    switch (op.kind) {
      case LineOp::constant: return kildall::Interval::constant(32, op.value);
      case LineOp::input: return kildall::Interval::from_unsigned(32, 0, 12);
      case LineOp::add: return kildall::infer_add(in[0], in[1]);
      case LineOp::sub: return kildall::infer_sub(in[0], in[1]);
      default: return kildall::infer_mul(in[0], in[1]);
    }
  }
};

void report(benchmark::State& state, std::size_t nodes, const kildall::SolveStatistics& s) {
  state.counters["ns_per_node"] = benchmark::Counter(static_cast<double>(nodes),
                                                     benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
  state.counters["ns_per_visit"] = benchmark::Counter(static_cast<double>(s.visits),
                                                      benchmark::Counter::kIsIterationInvariantRate |
                                                          benchmark::Counter::kInvert);
  state.counters["visits_per_node"] = static_cast<double>(s.visits) / static_cast<double>(nodes);
  state.counters["bookkeeping_B_per_node"] = static_cast<double>(s.bookkeeping_bytes) / static_cast<double>(nodes);
}

/// `range(1)`: 0 = CSR def-use graph, 1 = Boost adjacency_list.
void BM_SparseConstants_StraightLine(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto program = solver_bench::straight_line(n);
  const LineConstants problem{&program.ops};
  auto solve = [&] {
    return state.range(1) == 0 ? kildall::solve_sparse(program.csr, problem).statistics()
                               : kildall::solve_sparse(program.graph, problem).statistics();
  };
  for (auto _ : state) benchmark::DoNotOptimize(solve());
  report(state, n, solve());
}

/// `range(1)`: 0 = CSR def-use graph, 1 = Boost adjacency_list.
void BM_SparseIntervals_StraightLine(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto program = solver_bench::straight_line(n);
  const LineRanges problem{&program.ops};
  auto solve = [&] {
    return state.range(1) == 0 ? kildall::solve_sparse(program.csr, problem).statistics()
                               : kildall::solve_sparse(program.graph, problem).statistics();
  };
  for (auto _ : state) benchmark::DoNotOptimize(solve());
  report(state, n, solve());
}

/// The interval transfer functions alone (no solver), over the same program:
/// the floor under BM_SparseIntervals_StraightLine.
void BM_IntervalTransfersOnly_StraightLine(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto program = solver_bench::straight_line(n);
  const LineRanges problem{&program.ops};
  std::vector<kildall::Interval> states(n);
  std::vector<const kildall::Interval*> operands;
  for (auto _ : state) {
    for (std::size_t v = 0; v < n; ++v) {
      operands.clear();
      for (const auto& e : kildall::in_edge_range(program.csr, v)) operands.push_back(&states[source(e, program.csr)]);
      states[v] = problem.transfer(v, kildall::OperandStates<kildall::Interval>(operands));
    }
    benchmark::DoNotOptimize(states.data());
  }
  state.counters["ns_per_node"] = benchmark::Counter(static_cast<double>(n),
                                                     benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}

void BM_SparseSccp_LoopsAndDiamonds(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto program = solver_bench::ssa_with_loops(n);
  const auto values = classic::def_use_graph(program);
  const auto cfg = classic::control_flow_graph(program);
  const classic::ConstantPropagation<classic::SsaCfgSlot> sccp{&program, {&cfg}};
  for (auto _ : state) {
    auto r = kildall::solve_sparse(values, cfg, std::size_t{0}, sccp);
    benchmark::DoNotOptimize(r);
  }
  report(state, program.values.size(), kildall::solve_sparse(values, cfg, std::size_t{0}, sccp).statistics());
}

void BM_DenseLiveness_LoopsAndDiamonds(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto program = solver_bench::structured_program(n);
  const auto cfg = classic::boost_cfg(program);
  for (auto _ : state) {
    auto r = classic::live_variables(cfg, program);
    benchmark::DoNotOptimize(r);
  }
  report(state, program.blocks.size(), classic::live_variables(cfg, program).statistics());
}

void BM_DenseIntervals_LoopsAndDiamonds(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto program = solver_bench::structured_program(n, 4);
  const auto cfg = classic::boost_cfg(program);
  kildall::SolverOptions options;
  options.order = state.range(1) == 0 ? kildall::IterationOrder::reverse_postorder
                                      : kildall::IterationOrder::weak_topological_order;
  options.narrowing_passes = 1;
  for (auto _ : state) {
    auto r = classic::interval_analysis(cfg, program, options);
    benchmark::DoNotOptimize(r);
  }
  report(state, program.blocks.size(), classic::interval_analysis(cfg, program, options).statistics());
}

void BM_WeakTopologicalOrder(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto program = solver_bench::structured_program(n);
  const auto cfg = classic::boost_cfg(program);
  for (auto _ : state) {
    auto wto = kildall::weak_topological_order(cfg, std::size_t{0});
    benchmark::DoNotOptimize(wto);
  }
  state.counters["ns_per_node"] = benchmark::Counter(static_cast<double>(program.blocks.size()),
                                                     benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(BM_SparseConstants_StraightLine)
    ->ArgsProduct({{1'000, 10'000, 100'000, 1'000'000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SparseIntervals_StraightLine)
    ->ArgsProduct({{1'000, 10'000, 100'000, 1'000'000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_IntervalTransfersOnly_StraightLine)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SparseSccp_LoopsAndDiamonds)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DenseLiveness_LoopsAndDiamonds)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DenseIntervals_LoopsAndDiamonds)
    ->ArgsProduct({{1'000, 10'000, 100'000, 1'000'000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WeakTopologicalOrder)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
