// Benchmarks of the noisy-arithmetic model (include/kildall/noisy/): the
// noise analysis and the greedy placement on large random DAG programs, and
// the optimal ILP placement (GLPK) on growing ones. Figures: docs/performance.md.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include <kildall/noisy.hpp>
#include <kildall/noisy/ilp_placement.hpp>
#include <kildall/noisy/place_reduce_noise.hpp>

namespace {

using kildall::noisy::NoisyOp;

struct Node {
  NoisyOp kind = NoisyOp::plain;
};
using Dag = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, Node>;
[[maybe_unused]] NoisyOp noisy_op(const Dag& g, Dag::vertex_descriptor v) { return g[v].kind; }

// A random noisy program with `ops` add/sub/mul ops (a quarter of them muls)
// over recent values, with fresh encodes mixed in and a few joins: noise
// builds up fast (greedy reduces after about 40% of the ops).
Dag random_program(std::size_t ops, std::uint32_t seed) {
  std::mt19937 rng(seed);
  Dag g;
  std::vector<std::size_t> noisy;
  const auto add = [&](NoisyOp kind, std::vector<std::size_t> operands) {
    const auto v = boost::add_vertex(g);
    g[v].kind = kind;
    for (const auto o : operands) boost::add_edge(o, v, g);
    return v;
  };
  for (int i = 0; i < 3; ++i) noisy.push_back(add(NoisyOp::encode, {}));
  std::size_t made = 0;
  while (made < ops) {
    const auto recent = [&] { return noisy[noisy.size() - 1 - rng() % std::min<std::size_t>(noisy.size(), 4)]; };
    const unsigned r = rng() % 100;
    if (r < 8) {
      noisy.push_back(add(NoisyOp::encode, {}));
    } else if (r < 16) {
      noisy.push_back(add(NoisyOp::join, {recent(), recent()}));
    } else {
      const NoisyOp kind = r < 36 ? NoisyOp::mul : (r % 2 ? NoisyOp::add : NoisyOp::sub);
      noisy.push_back(add(kind, {recent(), recent()}));
      ++made;
    }
  }
  return g;
}

void BM_NoiseAnalysis(benchmark::State& state) {
  const Dag g = random_program(static_cast<std::size_t>(state.range(0)), 1);
  for (auto _ : state) benchmark::DoNotOptimize(kildall::noisy::analyze_noise(g));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(boost::num_vertices(g)));
}
BENCHMARK(BM_NoiseAnalysis)->Arg(1'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

void BM_GreedyPlacement(benchmark::State& state) {
  const Dag g = random_program(static_cast<std::size_t>(state.range(0)), 1);
  std::size_t inserted = 0;
  for (auto _ : state) inserted = kildall::noisy::place_reduce_noise_greedy(g).size();
  state.counters["inserted"] = static_cast<double>(inserted);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(boost::num_vertices(g)));
}
BENCHMARK(BM_GreedyPlacement)->Arg(1'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// Time to the proven optimum (level 1; level 2, the tie-break, gets as long
// as level 1 took, at least 1 s), with a 60 s limit. Second argument: 0 = the
// builder's exact max_of, 1 = the upper-bound encoding of max.
void BM_IlpPlacement(benchmark::State& state) {
  const Dag g = random_program(static_cast<std::size_t>(state.range(0)), 1);
  kildall::noisy::PlacementOptions options;
  options.strategy = kildall::noisy::PlacementStrategy::ilp;
  options.time_limit_seconds = 60.0;
  if (state.range(1) == 1) options.ilp.max_encoding = kildall::noisy::MaxEncoding::upper_bound;
  kildall::noisy::PlacementResult<std::size_t> r;
  for (auto _ : state) r = kildall::noisy::place_reduce_noise(g, {}, options);
  state.counters["inserted"] = static_cast<double>(r.reduce_after.size());
  state.counters["greedy"] = static_cast<double>(r.greedy_count);
  state.counters["optimal"] = r.status == kildall::noisy::PlacementStatus::optimal ? 1.0 : 0.0;
  state.counters["binaries"] = static_cast<double>(r.statistics.binaries);
}
BENCHMARK(BM_IlpPlacement)
    ->ArgsProduct({{25, 50, 100, 200}, {0, 1}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
