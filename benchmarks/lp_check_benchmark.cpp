// Independent solution check (kildall::lp::check, Eigen) on a model with 1e6 nonzeros.
#include <kildall/lp.hpp>
#include <kildall/lp/eigen.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace {

using namespace kildall::lp;

void BM_Check1MNonzeros(benchmark::State& state) {
  constexpr int rows = 100'000, per_row = 10;
  Model m;
  const std::vector<Var> x = m.add_vars(rows, 0.0, 10.0, VarType::integer);
  for (int i = 0; i < rows; ++i) {
    LinExpr e;
    for (int k = 0; k < per_row; ++k) {
      e.add_term(x[(static_cast<std::uint64_t>(i) * 7 + static_cast<std::uint64_t>(k) * 9973) % rows], 1.0 + k);
    }
    (void)m.add(e <= 1000.0);
  }
  m.minimize(sum(x));
  const std::vector<double> point(rows, 1.0);
  for (auto _ : state) {
    const CheckReport r = check(m, point);
    benchmark::DoNotOptimize(r.ok);
  }
}
BENCHMARK(BM_Check1MNonzeros)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
