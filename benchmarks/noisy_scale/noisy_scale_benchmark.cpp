// Optimal reduce_noise placement at scale (issues 7 and 18): the default of
// `place_reduce_noise` (the lazy strategy: the program's frontier DP, else
// lazy cover cuts; `kildall/noisy/place_reduce_noise.hpp`) on the issues'
// workloads (`workloads.hpp`): random DAGs of 30 to 10,000 ops and structured
// kernels at about 1,000 and 10,000 ops, and issue 18's shapes (random DAGs
// of 100,000 ops with window 8, 10,000 and 30,000 ops with window 32 and 64),
// with a 60 s limit, one run each.
//
// Counters: ops (add/sub/mul), binaries and rows of the master (ops in a cut,
// cuts), first_legal_s (greedy, pruned), optimal_s (time of the proof, -1 if
// none), gap (certified, relative), bound, inserted, greedy, rounds, parts,
// frontier_exact (1: the frontier DP proved both levels), widest (its widest
// layer), tie_break (1: the second level is proven), cut_bound (the cut
// loop's master bound), window_bound (the bound by decomposition into
// windows), lp_bound (the LP relaxation of the pooled cuts), pooled_cuts,
// zero_half_cuts ({0,1/2}-cuts in that LP), lagrangian_bound (by blocks on
// its duals), lagrangian_pairs (adjacent blocks merged into pairs that
// raised the last Lagrangian bound), pieces (of that decomposition), windows (solved by the
// neighbourhood search), improved (windows whose solution was kept),
// rejected (windows solved again with their outputs at their present noise).
//
// BM_Rebalance (issue 18 item 4): `rebalance_and_place` (rebalance.hpp) on
// programs written as chains (dot products, polynomials term by term, sums
// and products of encoded values) and on the kernels above. Counters: before
// (the optimum of the program as written), after (of the rebalanced program),
// saved, trees (rewritten), optimal (1: every placement proven optimal).
//
// BM_GrowingLp (the pooled LP's re-solve, `GrowingHittingSetLp` in
// hitting_set_lp.hpp): a family of local sets over `elements` elements (1.3
// sets an element, each of 2-5 elements within a span of 32: about the
// density and size of the pooled cuts once implied ones are left
// out), in parts of 10,000 elements, grown by 5% more such sets; the LP of
// the grown family solved from scratch (`from_basis_0`) or from the bases of
// the family before (`from_basis_1`). Counters: rows (of the grown family),
// lp (its optimum), seconds_in_glpk.
//
//   noisy_scale_benchmark [--emit-lp=DIR] [benchmark flags]
// --emit-lp=DIR also writes each program's article formulation (the model of
// `ilp_placement.hpp`, as `kildall-opt --emit-lp` writes it) to DIR/<case>.lp
// for `glpsol` (see glpsol_side_by_side.sh).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <kildall/lp/lp_format.hpp>
#include <kildall/noisy/hitting_set_lp.hpp>
#include <kildall/noisy/greedy.hpp>
#include <kildall/noisy/ilp_placement.hpp>
#include <kildall/noisy/place_reduce_noise.hpp>
#include <kildall/noisy/rebalance.hpp>

#include "workloads.hpp"

namespace {

std::string lp_directory;  // --emit-lp=DIR

void emit_article_lp(const noisy_scale::Program& g, const std::string& name) {
  if (lp_directory.empty()) return;
  const auto least = kildall::noisy::check_placement_possible(g, {});
  kildall::noisy::PlacementModelOptions options;
  options.max_inserted = kildall::noisy::place_reduce_noise_greedy(g).size();
  const auto pm = kildall::noisy::build_placement_model(g, {}, least, options);
  (void)kildall::lp::write_lp_file(pm.model, std::filesystem::path(lp_directory) / (name + ".lp"));
}

void run(benchmark::State& state, const noisy_scale::Program& g) {
  kildall::noisy::PlacementOptions options;  // the default strategy (lazy), 60 s
  kildall::noisy::PlacementResult<std::size_t> r;
  for (auto _ : state) r = kildall::noisy::place_reduce_noise(g, {}, options);
  const auto& s = r.statistics;
  state.counters["ops"] = static_cast<double>(s.reducible_ops);
  state.counters["binaries"] = static_cast<double>(s.binaries);
  state.counters["rows"] = static_cast<double>(s.cuts);
  state.counters["first_legal_s"] = s.seconds_first_legal;
  state.counters["optimal_s"] = r.status == kildall::noisy::PlacementStatus::optimal ? s.seconds_optimal : -1.0;
  state.counters["gap"] = r.gap;
  state.counters["bound"] = r.best_bound;
  state.counters["inserted"] = static_cast<double>(r.reduce_after.size());
  state.counters["greedy"] = static_cast<double>(r.greedy_count);
  state.counters["rounds"] = static_cast<double>(s.rounds);
  state.counters["parts"] = static_cast<double>(s.parts);
  state.counters["glpk_s"] = s.seconds_in_glpk;
  state.counters["frontier_exact"] = s.frontier_exact ? 1.0 : 0.0;
  state.counters["widest"] = static_cast<double>(s.frontier_states);
  state.counters["tie_break"] = s.tie_break_optimal ? 1.0 : 0.0;
  state.counters["cut_bound"] = s.cut_bound;
  state.counters["window_bound"] = s.window_bound;
  state.counters["lp_bound"] = s.lp_bound;
  state.counters["pooled_cuts"] = static_cast<double>(s.pooled_cuts);
  state.counters["zero_half_cuts"] = static_cast<double>(s.zero_half_cuts);
  state.counters["lagrangian_bound"] = s.lagrangian_bound;
  state.counters["lagrangian_pairs"] = static_cast<double>(s.lagrangian_pairs);
  state.counters["pieces"] = static_cast<double>(s.window_pieces);
  state.counters["windows"] = static_cast<double>(s.windows_solved);
  state.counters["improved"] = static_cast<double>(s.windows_improved);
  state.counters["rejected"] = static_cast<double>(s.windows_rejected);
}

void run_rebalance(benchmark::State& state, const noisy_scale::Program& g) {
  std::size_t before = 0, after = 0, trees = 0;
  bool optimal = false;
  for (auto _ : state) {
    const auto choice = kildall::noisy::rebalance_and_place(
        g, [&g](const kildall::noisy::RebalancePlan<std::size_t>& plan) { return noisy_scale::rebalanced_program(g, plan); });
    before = choice.reductions_before;
    after = choice.reductions_after();
    trees = choice.plan.trees.size();
    optimal = choice.placement.status == kildall::noisy::PlacementStatus::optimal;
  }
  std::size_t ops = 0;
  for (std::size_t v = 0; v < boost::num_vertices(g); ++v) ops += kildall::noisy::is_reducible(g[v].kind) ? 1 : 0;
  state.counters["ops"] = static_cast<double>(ops);
  state.counters["before"] = static_cast<double>(before);
  state.counters["after"] = static_cast<double>(after);
  state.counters["saved"] = static_cast<double>(before - after);
  state.counters["trees"] = static_cast<double>(trees);
  state.counters["optimal"] = optimal ? 1.0 : 0.0;
}

void register_rebalance() {
  std::vector<noisy_scale::Workload> shapes;
  for (const std::size_t n : {8, 64, 1024}) {
    shapes.push_back({"dot_product_chain/" + std::to_string(n), [n] { return noisy_scale::dot_products(n, 1, false); }});
    shapes.push_back({"sum_chain/" + std::to_string(n), [n] { return noisy_scale::sum_chains(n, 1); }});
  }
  for (const std::size_t d : {4, 8, 16, 32})
    shapes.push_back({"polynomial_terms/" + std::to_string(d), [d] { return noisy_scale::power_sum_polynomials(d, 1); }});
  shapes.push_back({"product_chain/16", [] { return noisy_scale::product_chains(16, 1); }});
  shapes.push_back({"dot_product_chain_branchy/64", [] { return noisy_scale::dot_products(64, 1, true); }});
  for (const auto& w : noisy_scale::structured_workloads(1'000)) shapes.push_back({w.name + "/1000", w.make});
  shapes.push_back({"random_dag/1000", [] { return noisy_scale::random_dag(1'000, 1); }});
  for (const std::size_t ops : {10'000}) {
    shapes.push_back({"dot_product_chain/64x" + std::to_string(ops / 128), [ops] { return noisy_scale::dot_products(64, ops / 128, false); }});
    shapes.push_back({"polynomial_terms/16x" + std::to_string(ops / 47), [ops] { return noisy_scale::power_sum_polynomials(16, ops / 47); }});
  }
  for (const auto& w : shapes)
    benchmark::RegisterBenchmark(("BM_Rebalance/" + w.name).c_str(), [w](benchmark::State& state) {
      run_rebalance(state, w.make());
    })->Iterations(1)->Unit(benchmark::kMillisecond);
}

// `count` sets of 2-5 elements within a span of 32 of `elements` elements (seeded).
std::vector<std::vector<std::uint32_t>> local_sets(std::size_t elements, std::size_t count, std::uint32_t seed) {
  std::vector<std::vector<std::uint32_t>> sets;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> start(0, elements - 1), size(2, 5), offset(0, 31);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t first = start(rng);
    std::vector<std::uint32_t> set;
    for (std::size_t k = size(rng); k > 0; --k) set.push_back(static_cast<std::uint32_t>(std::min(elements - 1, first + offset(rng))));
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    sets.push_back(std::move(set));
  }
  return sets;
}

void run_growing_lp(benchmark::State& state, std::size_t elements, bool from_basis) {
  std::vector<std::uint32_t> part(elements);
  for (std::size_t e = 0; e < elements; ++e) part[e] = static_cast<std::uint32_t>(e / 10'000);
  const auto before = local_sets(elements, 13 * elements / 10, 1);
  auto grown = before;
  for (auto& set : local_sets(elements, before.size() / 20, 2)) grown.push_back(std::move(set));
  const auto deadline = [] { return std::chrono::steady_clock::now() + std::chrono::seconds(600); };
  kildall::noisy::HittingSetLpBound lp;
  for (auto _ : state) {
    state.PauseTiming();
    kildall::noisy::GrowingHittingSetLp growing(elements, part);
    if (from_basis) (void)growing.solve(before, {}, deadline());
    state.ResumeTiming();
    lp = from_basis ? growing.solve(grown, {}, deadline()) : kildall::noisy::hitting_set_lp_bound_by_parts(elements, grown, part, deadline());
  }
  state.counters["rows"] = static_cast<double>(grown.size());
  state.counters["lp"] = lp.lp;
  state.counters["seconds_in_glpk"] = lp.seconds;
}

void register_all() {
  register_rebalance();
  for (const std::size_t elements : {10'000, 30'000})
    for (const bool from_basis : {false, true})
      benchmark::RegisterBenchmark(
          ("BM_GrowingLp/" + std::to_string(elements) + "/from_basis_" + (from_basis ? "1" : "0")).c_str(),
          [elements, from_basis](benchmark::State& state) { run_growing_lp(state, elements, from_basis); })
          ->Iterations(2)
          ->Unit(benchmark::kMillisecond);
  for (const std::size_t ops : {30, 60, 100, 300, 1'000, 3'000, 10'000}) {
    const std::string name = "random_dag/" + std::to_string(ops);
    benchmark::RegisterBenchmark(("BM_Lazy/" + name).c_str(), [ops, name](benchmark::State& state) {
      const auto g = noisy_scale::random_dag(ops, 1);
      emit_article_lp(g, "random_dag_" + std::to_string(ops));
      run(state, g);
    })->Iterations(1)->Unit(benchmark::kMillisecond);
  }
  // Issue 18's shapes: (ops, window).
  for (const auto& [ops, window] : std::vector<std::pair<std::size_t, std::size_t>>{
           {100'000, 8}, {10'000, 32}, {10'000, 64}, {30'000, 32}, {30'000, 64}}) {
    const std::string name = "random_dag/" + std::to_string(ops) + "/w" + std::to_string(window);
    benchmark::RegisterBenchmark(("BM_Lazy/" + name).c_str(), [ops, window](benchmark::State& state) {
      const auto g = noisy_scale::random_dag(ops, 1, window);
      emit_article_lp(g, "random_dag_" + std::to_string(ops) + "_w" + std::to_string(window));
      run(state, g);
    })->Iterations(1)->Unit(benchmark::kMillisecond);
  }
  for (const std::size_t ops : {1'000, 10'000}) {
    for (const auto& w : noisy_scale::structured_workloads(ops)) {
      const std::string name = w.name + "/" + std::to_string(ops);
      benchmark::RegisterBenchmark(("BM_Lazy/" + name).c_str(), [w, ops](benchmark::State& state) {
        const auto g = w.make();
        emit_article_lp(g, w.name + "_" + std::to_string(ops));
        run(state, g);
      })->Iterations(1)->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--emit-lp=", 10) == 0) lp_directory = argv[i] + 10;
    else rest.push_back(argv[i]);
  }
  if (!lp_directory.empty()) std::filesystem::create_directories(lp_directory);
  int count = static_cast<int>(rest.size());
  benchmark::Initialize(&count, rest.data());
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
