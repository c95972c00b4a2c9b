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

#include <kildall/graph/successor_list.hpp>
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

/// SCCP over loops and diamonds, the solve alone: the shape prepared once
/// (`SsaProgramIndex`) outside the timed loop, as a user's def-use graph was
/// before the shape existed.
void BM_SparseSccp_LoopsAndDiamonds(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto program = solver_bench::ssa_with_loops(n);
  const auto cfg = classic::control_flow_graph(program);
  const auto shape = classic::ssa_shape(program, cfg);
  const classic::ConstantPropagation<decltype(shape)> sccp{&shape};
  const kildall::SsaProgramIndex index(shape);
  for (auto _ : state) {
    auto r = kildall::solve_sparse(index, sccp);
    benchmark::DoNotOptimize(r);
  }
  report(state, program.values.size(), kildall::solve_sparse(index, sccp).statistics());
}

/// The same solve handed the shape itself: the solver derives the index
/// arrays (and their order) on every solve.
void BM_SparseSccpFromShape_LoopsAndDiamonds(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto program = solver_bench::ssa_with_loops(n);
  const auto cfg = classic::control_flow_graph(program);
  const auto shape = classic::ssa_shape(program, cfg);
  const classic::ConstantPropagation<decltype(shape)> sccp{&shape};
  for (auto _ : state) {
    auto r = kildall::solve_sparse(shape, sccp);
    benchmark::DoNotOptimize(r);
  }
  report(state, program.values.size(), kildall::solve_sparse(shape, sccp).statistics());
}

/// The same, with what a user builds before solving timed too (here the CFG
/// and the shape; before the shape existed, also a def-use graph).
void BM_SparseSccpWithGraphs_LoopsAndDiamonds(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto program = solver_bench::ssa_with_loops(n);
  for (auto _ : state) {
    const auto cfg = classic::control_flow_graph(program);
    const auto shape = classic::ssa_shape(program, cfg);
    const classic::ConstantPropagation<decltype(shape)> sccp{&shape};
    auto r = kildall::solve_sparse(shape, sccp);
    benchmark::DoNotOptimize(r);
  }
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

/// A chain of K loops, 3 blocks each (head -> body -> latch -> head, head -> next
/// head), the body edge first so that a depth-first search places each body
/// after the rest of the chain in reverse post-order; block 3K is the exit.
kildall::SuccessorListGraph loop_chain(std::size_t loops) {
  std::vector<std::vector<std::size_t>> successors(3 * loops + 1);
  for (std::size_t j = 0; j < loops; ++j) {
    successors[3 * j] = {3 * j + 1, 3 * j + 3};
    successors[3 * j + 1] = {3 * j + 2};
    successors[3 * j + 2] = {3 * j};
  }
  return kildall::successor_list_graph(successors);
}

/// One interval counter per loop: loop j's body increments counter j.
struct LoopCounters {
  std::vector<kildall::Interval> counter;
  [[nodiscard]] kildall::ChangeResult join(const LoopCounters& o) {
    if (counter.empty()) {
      counter = o.counter;
      return kildall::change_if(!counter.empty());
    }
    kildall::ChangeResult change = kildall::ChangeResult::unchanged;
    for (std::size_t i = 0; i < counter.size(); ++i) change = change | counter[i].join(o.counter[i]);
    return change;
  }
  [[nodiscard]] kildall::ChangeResult widen(const LoopCounters& o) {
    if (counter.empty()) return join(o);
    kildall::ChangeResult change = kildall::ChangeResult::unchanged;
    for (std::size_t i = 0; i < counter.size(); ++i) change = change | counter[i].widen(o.counter[i]);
    return change;
  }
  [[nodiscard]] bool leq(const LoopCounters& o) const {
    if (counter.empty()) return true;
    if (o.counter.empty()) return false;
    for (std::size_t i = 0; i < counter.size(); ++i) {
      if (!counter[i].leq(o.counter[i])) return false;
    }
    return true;
  }
  friend bool operator==(const LoopCounters&, const LoopCounters&) = default;
};

struct CountLoops {
  using lattice_type = LoopCounters;
  std::size_t loops;
  [[nodiscard]] LoopCounters boundary(std::size_t) const {
    return LoopCounters{std::vector<kildall::Interval>(loops, kildall::Interval::constant(64, 0))};
  }
  [[nodiscard]] LoopCounters transfer(std::size_t v, const LoopCounters& in) const {
    if (v % 3 != 1 || v / 3 >= loops) return in;
    LoopCounters out = in;
    out.counter[v / 3] = kildall::infer_add(in.counter[v / 3], kildall::Interval::constant(64, 1));
    return out;
  }
};

/// `range(0)` loops in one chain; `range(1)`: 0 = default order (WTO), 1 = reverse post-order.
/// Counters: visits per block (constant for the WTO, growing with K in RPO).
void BM_DenseLoopChain(benchmark::State& state) {
  const auto loops = static_cast<std::size_t>(state.range(0));
  const auto cfg = loop_chain(loops);
  kildall::SolverOptions options;
  if (state.range(1) == 1) options.order = kildall::IterationOrder::reverse_postorder;
  const CountLoops problem{loops};
  for (auto _ : state) {
    auto r = kildall::solve_forward(cfg, std::size_t{0}, problem, options);
    benchmark::DoNotOptimize(r);
  }
  report(state, kildall::vertex_count(cfg), kildall::solve_forward(cfg, std::size_t{0}, problem, options).statistics());
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
BENCHMARK(BM_SparseSccpFromShape_LoopsAndDiamonds)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SparseSccpWithGraphs_LoopsAndDiamonds)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DenseLiveness_LoopsAndDiamonds)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DenseIntervals_LoopsAndDiamonds)
    ->ArgsProduct({{1'000, 10'000, 100'000, 1'000'000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DenseLoopChain)
    ->ArgsProduct({{100, 200, 400, 800}, {0}})
    ->ArgsProduct({{100, 200, 400}, {1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WeakTopologicalOrder)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
