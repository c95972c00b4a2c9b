// Building kildall::lp models with 1e6 nonzeros (target: well under 1 s).
#include <kildall/lp.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <sstream>
#include <vector>

namespace {

using namespace kildall::lp;

constexpr int kRows = 100'000;
constexpr int kPerRow = 10;  // 1e6 nonzeros

// Row i: sum_k c_k x_{(i * 7 + k * 9973) % n} <= b, written with operators.
Model build_with_operators(int rows, int per_row) {
  Model m;
  const std::vector<Var> x = m.add_vars(static_cast<std::size_t>(rows), 0.0, 10.0);
  const auto n = static_cast<std::uint64_t>(rows);
  for (int i = 0; i < rows; ++i) {
    LinExpr e;
    e.reserve(static_cast<std::size_t>(per_row));
    for (int k = 0; k < per_row; ++k) {
      e += (1.0 + k) * x[(static_cast<std::uint64_t>(i) * 7 + static_cast<std::uint64_t>(k) * 9973) % n];
    }
    (void)m.add(e <= 100.0 + i % 17);
  }
  m.minimize(sum(x));
  return m;
}

// The same model through dot(coeffs, vars) and add_term (the fast path).
Model build_with_dot(int rows, int per_row) {
  Model m;
  const std::vector<Var> x = m.add_vars(static_cast<std::size_t>(rows), 0.0, 10.0);
  const auto n = static_cast<std::uint64_t>(rows);
  std::vector<double> coeffs(static_cast<std::size_t>(per_row));
  std::vector<Var> vars(static_cast<std::size_t>(per_row));
  for (int k = 0; k < per_row; ++k) coeffs[static_cast<std::size_t>(k)] = 1.0 + k;
  for (int i = 0; i < rows; ++i) {
    for (int k = 0; k < per_row; ++k) {
      vars[static_cast<std::size_t>(k)] = x[(static_cast<std::uint64_t>(i) * 7 + static_cast<std::uint64_t>(k) * 9973) % n];
    }
    (void)m.add(dot(coeffs, vars) <= 100.0 + i % 17);
  }
  m.minimize(sum(x));
  return m;
}

void BM_BuildOperators1MNonzeros(benchmark::State& state) {
  for (auto _ : state) {
    Model m = build_with_operators(kRows, kPerRow);
    benchmark::DoNotOptimize(m.num_nonzeros());
  }
  state.counters["nonzeros"] = static_cast<double>(kRows) * kPerRow;
}
BENCHMARK(BM_BuildOperators1MNonzeros)->Unit(benchmark::kMillisecond);

void BM_BuildDot1MNonzeros(benchmark::State& state) {
  for (auto _ : state) {
    Model m = build_with_dot(kRows, kPerRow);
    benchmark::DoNotOptimize(m.num_nonzeros());
  }
  state.counters["nonzeros"] = static_cast<double>(kRows) * kPerRow;
}
BENCHMARK(BM_BuildDot1MNonzeros)->Unit(benchmark::kMillisecond);

// One row with 1e6 terms (normalization sorts and merges them).
void BM_BuildOneDenseRow1M(benchmark::State& state) {
  for (auto _ : state) {
    Model m;
    const std::vector<Var> x = m.add_vars(1'000'000, 0.0, 1.0);
    std::vector<Var> shuffled = x;
    std::mt19937 rng(1);
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    (void)m.add(sum(shuffled) <= 10.0);
    benchmark::DoNotOptimize(m.num_nonzeros());
  }
}
BENCHMARK(BM_BuildOneDenseRow1M)->Unit(benchmark::kMillisecond);

void BM_WriteLp1MNonzeros(benchmark::State& state) {
  const Model m = build_with_dot(kRows, kPerRow);
  for (auto _ : state) {
    std::ostringstream out;
    (void)write_lp(m, out);
    benchmark::DoNotOptimize(out.str().size());
  }
}
BENCHMARK(BM_WriteLp1MNonzeros)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
