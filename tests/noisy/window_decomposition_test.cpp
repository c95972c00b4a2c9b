// window_decomposition (the bound by decomposition into windows, its pooled cuts and shifted decompositions, the neighbourhood search over windows); oracle: brute force over all placements with the independent evaluator.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <kildall/noisy/cover_cuts.hpp>
#include <kildall/noisy/frontier_placement.hpp>
#include <kildall/noisy/greedy.hpp>
#include <kildall/noisy/hitting_set_lp.hpp>
#include <kildall/noisy/lazy_placement.hpp>
#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/placement.hpp>
#include <kildall/noisy/window_decomposition.hpp>

#include "noisy_test_support.hpp"
#include "workloads.hpp"  // benchmarks/noisy_scale: the random DAGs

using namespace kildall::noisy;
using noisy_test::Dag;

namespace {

// The exact window solver of these tests: the frontier DP (exact for the
// fewest reductions; tested against the brute force in its own test).
WindowSolver exact_solver(const NoiseParameters& parameters) {
  return [parameters](const CompactNoisyProgram& sub, std::chrono::steady_clock::time_point, const std::vector<bool>&) {
    WindowSolution s;
    FrontierPlacementOptions o;
    o.max_states = 1u << 22;
    o.max_width = 40;
    if (const auto r = frontier_placement(sub, parameters, o)) {
      s.reduced = r->reduced;
      s.bound = static_cast<double>(r->count);
      s.optimal = true;
    }
    return s;
  };
}

// A window solver that also returns its cuts: the lazy strategy's cut loop
// (without the program's frontier DP, which finds no cuts).
WindowSolver cut_loop_solver(const NoiseParameters& parameters) {
  return [parameters](const CompactNoisyProgram& sub, std::chrono::steady_clock::time_point, const std::vector<bool>&) {
    WindowSolution s;
    PlacementOptions o;
    o.prefer_early = false;
    o.lazy.window_ops = 0;
    o.lazy.program_frontier_states = 0;
    try {
      const auto r = kildall::noisy::detail::lazy_placement(sub, parameters, o, &s.cuts);
      s.reduced = placement_mask(sub, r.reduce_after);
      s.bound = r.best_bound;
      s.optimal = r.status == PlacementStatus::optimal;
    } catch (const PlacementError&) {
    }
    return s;
  };
}

// The generator's program as a test Dag (same vertices and operands).
Dag as_dag(const noisy_scale::Program& g) {
  Dag copy;
  for (std::size_t v = 0; v < boost::num_vertices(g); ++v) {
    std::vector<std::size_t> ops;
    for (auto [it, end] = boost::in_edges(v, g); it != end; ++it) ops.push_back(boost::source(*it, g));
    (void)noisy_test::add(copy, g[v].kind, ops);
  }
  return copy;
}

// Random programs of both generators: the tests' (joins, inputs) and the (windows of recent values).
Dag program_for(std::uint32_t seed) {
  if (seed % 2 == 0) return noisy_test::random_program(seed, 6 + seed % 9, seed % 3 == 0 ? 0.4 : 0.25);
  return as_dag(noisy_scale::random_dag(8 + seed % 9, seed, 3 + seed % 6));
}

NoiseParameters parameters_for(std::uint32_t seed) {
  NoiseParameters p;
  if (seed % 5 == 1) p.maximum = 30;
  if (seed % 5 == 2) p.initial = 10;
  return p;
}

std::size_t count(const std::vector<bool>& mask) { return static_cast<std::size_t>(std::count(mask.begin(), mask.end(), true)); }

// A random program whose values are each read at most once (a forest of
// add/sub/mul over encodes): raising one value changes one path only.
Dag forest(std::uint32_t seed) {
  std::mt19937 rng(seed);
  Dag g;
  std::vector<std::size_t> unread;
  const auto fresh = [&] { unread.push_back(noisy_test::add(g, NoisyOp::encode, {noisy_test::add(g, NoisyOp::plain)})); };
  for (int i = 0; i < 3; ++i) fresh();
  for (std::size_t made = 0; made < 8 + seed % 8;) {
    if (unread.size() < 2 || rng() % 4 == 0) {
      fresh();
      continue;
    }
    const auto take = [&] {  // one of the four most recent values not read yet
      const std::size_t at = unread.size() - 1 - rng() % std::min<std::size_t>(unread.size(), 4);
      const std::size_t v = unread[at];
      unread.erase(unread.begin() + static_cast<std::ptrdiff_t>(at));
      return v;
    };
    const std::size_t a = take(), b = take();
    const unsigned r = rng() % 10;
    unread.push_back(noisy_test::add(g, r < 3 ? NoisyOp::mul : r < 8 ? NoisyOp::add : NoisyOp::sub, {a, b}));
    ++made;
  }
  return g;
}

// Whether every checked op from vertex `from` on is within the maximum (vertex order is the window order here).
bool legal_from(const Dag& g, const noisy_test::Evaluation& e, std::size_t from, std::uint64_t maximum) {
  for (std::size_t v = from; v < boost::num_vertices(g); ++v)
    if (is_checked(g[v].kind) && (e.own[v] > maximum || e.value[v] > maximum)) return false;
  return true;
}

}  // namespace

TEST_CASE("the bound by decomposition is at most the brute-force optimum, and equals it once the pieces merge into one") {
  int compared = 0, positive = 0;
  for (std::uint32_t seed = 1; seed <= 200; ++seed) {
    const Dag g = program_for(seed);
    const NoiseParameters p = parameters_for(seed);
    const auto best = noisy_test::brute_force(g, p.initial, p.maximum);
    if (best.count < 0) continue;
    CAPTURE(seed);
    const CompactNoisyProgram compact = compact_program(g);
    const auto least = noise_lower_bounds(least_possible_noise(g, p));
    for (const std::size_t ops : {1, 2, 3, 5}) {
      WindowOptions o;
      o.ops = ops;
      WindowBound decomposition(compact, least, p, o);
      const auto whole = decomposition.piece_program(0, static_cast<std::uint32_t>(compact.size()));
      REQUIRE(whole.has_value());
      const auto whole_optimum = frontier_placement(*whole, p, FrontierPlacementOptions{1u << 22, 40});
      REQUIRE(whole_optimum.has_value());
      CHECK(static_cast<int>(whole_optimum->count) == best.count);  // one piece: the program itself
      (void)decomposition.improve(exact_solver(p), std::chrono::steady_clock::now() + std::chrono::hours(1));
      CHECK(decomposition.bound() == doctest::Approx(static_cast<double>(best.count)));
      CHECK(decomposition.pieces() == 1);
    }
    // The base decomposition alone (no merges): at most the optimum.
    for (const std::size_t ops : {1, 2, 3, 5}) {
      WindowOptions o;
      o.ops = ops;
      WindowBound decomposition(compact, least, p, o);
      double sum = 0.0;
      // Each base piece solved by hand (the programs `improve` builds).
      const auto order = window_order(compact);
      std::vector<std::uint32_t> starts{0};
      std::size_t j = 0;
      for (std::uint32_t k = 0; k < order.size(); ++k) {
        if (!is_reducible(compact.kind[order[k]])) continue;
        if (j > 0 && j % ops == 0) starts.push_back(k);
        ++j;
      }
      for (std::size_t w = 0; w < starts.size(); ++w) {
        const auto last = w + 1 < starts.size() ? starts[w + 1] : static_cast<std::uint32_t>(order.size());
        const auto piece = decomposition.piece_program(starts[w], last);
        REQUIRE(piece.has_value());
        const auto r = frontier_placement(*piece, p, FrontierPlacementOptions{1u << 22, 40});
        REQUIRE(r.has_value());  // a relaxation of a legal program is legal
        sum += static_cast<double>(r->count);
      }
      CHECK(sum <= static_cast<double>(best.count) + 1e-9);
      positive += sum > 0.0 ? 1 : 0;
    }
    ++compared;
  }
  MESSAGE(compared << " programs; a positive base bound in " << positive << " decompositions");
  CHECK(compared > 120);
  CHECK(positive > 100);
}

TEST_CASE("the pooled cuts (pieces of the base, three shifted and the merged decompositions) hold for every legal placement; their LP bound is at most the optimum") {
  int compared = 0, with_cuts = 0, lp_above_pieces = 0;
  for (std::uint32_t seed = 1; seed <= 160; ++seed) {
    const Dag g = program_for(seed);
    const NoiseParameters p = parameters_for(seed);
    const auto red = noisy_test::reducible_vertices(g);
    if (red.size() > 14) continue;
    // Every legal placement, by the independent evaluator.
    const std::vector<std::vector<bool>> legal = noisy_test::legal_placements(g, p.initial, p.maximum);
    if (legal.empty()) continue;
    std::size_t best = boost::num_vertices(g);
    for (const auto& mask : legal) best = std::min(best, count(mask));
    CAPTURE(seed);
    const CompactNoisyProgram compact = compact_program(g);
    const auto least = noise_lower_bounds(least_possible_noise(g, p));
    for (const std::size_t ops : {2, 3}) {
      WindowOptions o;
      o.ops = ops;
      WindowBound decomposition(compact, least, p, o);
      const auto far = std::chrono::steady_clock::now() + std::chrono::hours(1);
      CHECK(decomposition.solve_pieces(cut_loop_solver(p), far));
      const double pieces = decomposition.bound();
      CHECK(decomposition.collect_shifted(cut_loop_solver(p), far, 3));
      (void)decomposition.improve(cut_loop_solver(p), far);
      const auto& cuts = decomposition.cuts();
      for (const auto& cut : cuts) {
        REQUIRE(!cut.empty());
        for (const auto& mask : legal) CHECK(std::any_of(cut.begin(), cut.end(), [&](std::uint32_t v) { return mask[v]; }));
      }
      const HittingSetLpBound lp = hitting_set_lp_bound(compact.size(), cuts, 60.0);
      CHECK(lp.bound <= static_cast<double>(best));
      CHECK(decomposition.bound() <= static_cast<double>(best) + 1e-9);
      with_cuts += cuts.empty() ? 0 : 1;
      lp_above_pieces += lp.bound > pieces + 1e-9 ? 1 : 0;
      // The pieces' placements side by side cover every vertex once a piece is solved.
      CHECK(decomposition.placement().size() == compact.size());
    }
    ++compared;
  }
  MESSAGE(compared << " programs; " << with_cuts << " pools with cuts; the LP above the base pieces' sum in " << lp_above_pieces);
  CHECK(compared > 100);
  CHECK(with_cuts > 100);
  CHECK(lp_above_pieces > 0);
}

TEST_CASE("the bound holds when time runs out (unsolved pieces count 0) and for unproven pieces (their bound)") {
  const Dag g = as_dag(noisy_scale::random_dag(16, 3, 6));
  const auto best = noisy_test::brute_force(g);
  REQUIRE(best.count >= 0);
  const CompactNoisyProgram compact = compact_program(g);
  const auto least = noise_lower_bounds(least_possible_noise(g, NoiseParameters{}));
  WindowOptions o;
  o.ops = 4;
  WindowBound none(compact, least, {}, o);
  (void)none.improve(exact_solver({}), std::chrono::steady_clock::now() - std::chrono::seconds(1));
  CHECK(none.bound() == 0.0);
  // A solver that proves nothing but a bound of 1 for every non-empty piece.
  WindowBound weak(compact, least, {}, o);
  (void)weak.improve(
      [](const CompactNoisyProgram& sub, std::chrono::steady_clock::time_point, const std::vector<bool>&) {
        WindowSolution s;
        const auto r = frontier_placement(sub, {}, FrontierPlacementOptions{1u << 22, 40});
        s.bound = r && r->count > 0 ? 1.0 : 0.0;
        return s;
      },
      std::chrono::steady_clock::now() + std::chrono::hours(1));
  CHECK(weak.bound() <= static_cast<double>(best.count));
}

TEST_CASE("inputs noisier than nothing but below initial: the bound stays at most the brute-force optimum") {
  int compared = 0, unrepresentable = 0;
  for (std::uint32_t seed = 1; seed <= 120; ++seed) {
    Dag g = program_for(seed);
    std::size_t encodes = 0;
    for (std::size_t v = 0; v < boost::num_vertices(g); ++v)
      if (g[v].kind == NoisyOp::encode && encodes++ % 2 == 0) g[v].kind = NoisyOp::input;
    NoiseParameters p;
    p.input = seed % 3 == 0 ? 4 : 9;
    // Brute force with this input noise.
    const int best = noisy_test::brute_force(g, p.initial, p.maximum, p.input).count;
    if (best < 0) continue;
    CAPTURE(seed);
    const CompactNoisyProgram compact = compact_program(g);
    WindowOptions o;
    o.ops = 2;
    WindowBound decomposition(compact, noise_lower_bounds(least_possible_noise(g, p)), p, o);
    const auto order = window_order(compact);
    unrepresentable += decomposition.piece_program(static_cast<std::uint32_t>(order.size() / 2),
                                                   static_cast<std::uint32_t>(order.size())).has_value() ? 0 : 1;
    (void)decomposition.improve(exact_solver(p), std::chrono::steady_clock::now() + std::chrono::hours(1));
    CHECK(decomposition.bound() <= static_cast<double>(best) + 1e-9);
    ++compared;
  }
  MESSAGE(compared << " programs with inputs; " << unrepresentable << " with a second half not representable");
  CHECK(compared > 60);
}

TEST_CASE("the neighbourhood search keeps a legal placement, never more reductions, never below the brute-force optimum") {
  int compared = 0, improved = 0, reached = 0;
  for (std::uint32_t seed = 1; seed <= 200; ++seed) {
    const Dag g = program_for(seed);
    const NoiseParameters p = parameters_for(seed);
    const auto best = noisy_test::brute_force(g, p.initial, p.maximum);
    if (best.count < 0) continue;
    CAPTURE(seed);
    const CompactNoisyProgram compact = compact_program(g);
    // Start: every reducible op whose best case needs it (legal: the best case is legal).
    std::vector<bool> start = placement_mask(g, place_reduce_noise_greedy(g, p));
    REQUIRE(noisy_test::evaluate(g, start, p.initial, p.maximum).legal);
    for (const std::size_t ops : {2, 4}) {
      WindowOptions o;
      o.ops = ops;
      WindowSearchStatistics stats;
      const std::vector<bool> after = improve_by_windows(compact, start, p, o, exact_solver(p), &stats);
      const auto e = noisy_test::evaluate(g, after, p.initial, p.maximum);
      CHECK(e.legal);
      CHECK(count(after) <= count(start));
      CHECK(static_cast<int>(count(after)) >= best.count);
      improved += count(after) < count(start) ? 1 : 0;
      reached += static_cast<int>(count(after)) == best.count ? 1 : 0;
      CHECK(stats.passes >= 2);
    }
    ++compared;
  }
  MESSAGE(compared << " programs: improved greedy in " << improved << " searches, reached the optimum in " << reached);
  CHECK(compared > 120);
  CHECK(improved > 10);
}

TEST_CASE("the neighbourhood search hands each window its present placement (legal there) and solves no window again without change") {
  std::size_t skipped = 0, solved = 0;
  for (std::uint32_t seed = 1; seed <= 200; ++seed) {
    const Dag g = program_for(seed);
    const NoiseParameters p = parameters_for(seed);
    const auto best = noisy_test::brute_force(g, p.initial, p.maximum);
    if (best.count < 0) continue;
    CAPTURE(seed);
    const CompactNoisyProgram compact = compact_program(g);
    const std::vector<bool> start = placement_mask(g, place_reduce_noise_greedy(g, p));
    // The exact solver, checking what it is handed and recording the
    // windows (program and placement) it found no gain in.
    std::set<std::pair<std::vector<std::vector<std::uint32_t>>, std::vector<bool>>> no_gain;
    const WindowSolver exact = exact_solver(p);
    const WindowSolver checked = [&](const CompactNoisyProgram& sub, std::chrono::steady_clock::time_point until,
                                     const std::vector<bool>& present) {
      REQUIRE(present.size() == sub.size());
      CHECK(is_legal_placement(sub, evaluate_placement(sub, present, p), p));
      std::vector<std::vector<std::uint32_t>> shape;
      for (std::uint32_t v = 0; v < sub.size(); ++v) {
        const auto ops = sub.operands(v);
        shape.emplace_back(ops.begin(), ops.end());
        shape.back().push_back(static_cast<std::uint32_t>(sub.kind[v]));
      }
      const auto key = std::make_pair(shape, present);
      CHECK(no_gain.count(key) == 0);  // never solved again once it gave nothing
      WindowSolution s = exact(sub, until, present);
      if (s.reduced.size() == sub.size() && count(s.reduced) >= count(present)) no_gain.insert(key);
      return s;
    };
    WindowOptions o;
    o.ops = 2 + seed % 3;
    WindowSearchStatistics stats;
    const std::vector<bool> after = improve_by_windows(compact, start, p, o, checked, &stats);
    CHECK(noisy_test::evaluate(g, after, p.initial, p.maximum).legal);
    CHECK(count(after) <= count(start));
    CHECK(static_cast<int>(count(after)) >= best.count);
    skipped += stats.skipped;
    solved += stats.windows;
  }
  MESSAGE(solved << " windows solved, " << skipped << " skipped");
  CHECK(skipped > 0);
}

TEST_CASE("the neighbourhood search asks `stop` before each window with the count so far, and ends when it says so") {
  int stopped = 0;
  for (std::uint32_t seed = 1; seed <= 200; ++seed) {
    const Dag g = program_for(seed);
    const NoiseParameters p = parameters_for(seed);
    if (noisy_test::brute_force(g, p.initial, p.maximum).count < 0) continue;
    CAPTURE(seed);
    const CompactNoisyProgram compact = compact_program(g);
    const std::vector<bool> start = placement_mask(g, place_reduce_noise_greedy(g, p));
    // Stopped at once: the start comes back unchanged, no window solved.
    WindowOptions o;
    o.ops = 2 + seed % 3;
    std::vector<std::size_t> asked;
    o.stop = [&](std::size_t c) {
      asked.push_back(c);
      return true;
    };
    WindowSearchStatistics stats;
    CHECK(improve_by_windows(compact, start, p, o, exact_solver(p), &stats) == start);
    CHECK(stats.windows == 0);
    CHECK(asked.size() <= 1);
    if (!asked.empty()) CHECK(asked.front() == count(start));
    // Stopped once the count drops below the start's: the first gain ends the search.
    asked.clear();
    o.stop = [&](std::size_t c) {
      asked.push_back(c);
      return c < count(start);
    };
    const std::vector<bool> after = improve_by_windows(compact, start, p, o, exact_solver(p), &stats);
    CHECK(noisy_test::evaluate(g, after, p.initial, p.maximum).legal);
    for (std::size_t i = 0; i + 1 < asked.size(); ++i) CHECK(asked[i] == count(start));  // the counts it was asked with
    if (count(after) < count(start)) {
      CHECK(asked.back() == count(after));  // asked with the gain, then stopped
      ++stopped;
    }
  }
  CHECK(stopped > 5);
}

TEST_CASE("noise allowances: a value raised one above its allowance breaks an op after the window; on forests, raised to it, none") {
  std::size_t limited = 0, exact = 0;
  for (std::uint32_t seed = 1; seed <= 300; ++seed) {
    const bool tree = seed % 3 == 0;
    const Dag g = tree ? forest(seed) : program_for(seed);
    const NoiseParameters p = parameters_for(seed);
    CAPTURE(seed);
    const CompactNoisyProgram compact = compact_program(g);
    const std::vector<bool> start = placement_mask(g, place_reduce_noise_greedy(g, p));
    if (!noisy_test::evaluate(g, start, p.initial, p.maximum, p.input).legal) continue;
    const std::vector<std::uint32_t> order = window_order(compact);
    REQUIRE(order.size() == compact.size());
    for (std::uint32_t k = 0; k < order.size(); ++k) REQUIRE(order[k] == k);
    const PlacedNoise noise = evaluate_placement(compact, start, p);
    const auto n = static_cast<std::uint32_t>(compact.size());
    for (const std::uint32_t from : {n / 3, n / 2, 2 * n / 3}) {
      const std::vector<std::uint64_t> allowed = kildall::noisy::detail::noise_allowances(compact, order, from, start, noise, p);
      for (std::uint32_t v = 0; v < n; ++v) {
        CHECK(allowed[v] >= noise.value[v]);
        if (allowed[v] >= noise_saturation) continue;
        ++limited;
        const auto above = noisy_test::evaluate(g, start, p.initial, p.maximum, p.input, std::pair{std::size_t{v}, allowed[v] + 1});
        CHECK_FALSE(legal_from(g, above, from, p.maximum));
        if (!tree) continue;
        const auto at = noisy_test::evaluate(g, start, p.initial, p.maximum, p.input, std::pair{std::size_t{v}, allowed[v]});
        CHECK(legal_from(g, at, from, p.maximum));
        ++exact;
      }
    }
  }
  MESSAGE(limited << " allowances below saturation checked, " << exact << " of them on forests");
  CHECK(exact > 100);
}

TEST_CASE("window_order: vertex order when topological, else the program's topological order; empty with a cycle") {
  const Dag g = noisy_test::random_program(3, 12);
  const CompactNoisyProgram p = compact_program(g);
  const auto order = window_order(p);
  REQUIRE(order.size() == p.size());
  for (std::uint32_t k = 0; k < order.size(); ++k) CHECK(order[k] == k);
  Dag reversed;  // operands created after their users
  const auto x = noisy_test::add(reversed, NoisyOp::add);
  const auto a = noisy_test::add(reversed, NoisyOp::encode);
  const auto b = noisy_test::add(reversed, NoisyOp::encode);
  boost::add_edge(a, x, reversed);
  boost::add_edge(b, x, reversed);
  const CompactNoisyProgram q = compact_program(reversed);
  CHECK(window_order(q) == q.topological);
  Dag loop;
  const auto e = noisy_test::add(loop, NoisyOp::encode);
  const auto j = noisy_test::add(loop, NoisyOp::join, {e});
  const auto m = noisy_test::add(loop, NoisyOp::mul, {j, e});
  boost::add_edge(m, j, loop);
  CHECK(window_order(compact_program(loop)).empty());
}
