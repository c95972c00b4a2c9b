#pragma once
/// \file
/// {0,1/2}-Chvátal-Gomory cuts for the LP relaxation of a minimum hitting set
/// (Caprara and Fischetti 1996, "{0,1/2}-Chvátal-Gomory cuts", Mathematical
/// Programming 74): add an odd number `k` of the family's covering rows
/// `sum_{e in S} x_e >= 1`, halve and round up (valid because `x >= 0` and
/// hitting sets are integral): with `c_e` the number of the chosen rows that
/// hold `e`, `sum_e ceil(c_e / 2) x_e >= (k + 1) / 2` holds for every hitting
/// set (a coefficient above the right-hand side can be lowered to it). At an
/// LP point `x` the cut is violated by `(1 - W) / 2`, where `W` is the sum of
/// the rows' slacks (`lhs - 1`) and of `x_e` over the elements of odd `c_e`;
/// the odd cycle of pairs `{0,1}, {1,2}, {2,0}` at `x = 1/2` gives
/// `x_0 + x_1 + x_2 >= 2`, violated by 1/2.
///
/// Separation (the odd-cycle heuristic of Caprara and Fischetti's paper, as
/// for the odd-cycle inequalities of Grötschel, Lovász and Schrijver 1988,
/// "Geometric algorithms and combinatorial optimization", 9.1): a row whose
/// elements positive at `x` are a few gives, for each pair `u, v` of them, an
/// edge `u - v` weighing its slack plus `x` of its other positive elements.
/// A closed walk of an odd number of edges (shortest ones by Dijkstra on the
/// bipartite double cover of the graph, from each vertex to its copy) of
/// weight `W' < 1` names rows whose cut has `W <= W'` (an element of odd
/// count is another element of one of the rows at least once; rows used
/// twice cancel). Each cut is computed from its rows exactly and kept when
/// `x` violates it by `min_violation`. Nothing here knows noise or GLPK; the
/// lazy `reduce_noise` strategy adds the cuts to the LP of its pooled cover
/// cuts (`hitting_set_lp.hpp`, `lazy_placement.hpp`).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <queue>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include <kildall/noisy/hitting_set.hpp>

namespace kildall::noisy {

/// Options of `zero_half_cuts`.
struct ZeroHalfOptions {
  /// Least violation of a returned cut at the LP point (its walk weighs below `1 - 2 * min_violation`).
  double min_violation = 0.05;
  /// Rows with more elements positive at the point than this give no edges.
  std::size_t max_support = 6;
  /// At most this many cuts.
  std::size_t max_cuts = 20000;
  /// Vertices of the double cover settled per search (one search per vertex).
  std::size_t max_settled = 2048;
};

namespace detail {

struct ZeroHalfEdge {
  std::uint32_t to;
  std::uint32_t row;
  double weight;
};

}  // namespace detail

/// {0,1/2}-cuts (see the file comment) of the hitting sets of `sets`
/// (element lists over `0..n-1`) violated at the point `x` (one value per
/// element, e.g. an LP optimum) by at least `options.min_violation`, each
/// valid for every hitting set of `sets`, distinct. `std::invalid_argument`
/// when `x` has not `n` values, a set is empty or an element is out of range.
[[nodiscard]] inline std::vector<HittingSetInequality> zero_half_cuts(std::size_t n,
                                                                      const std::vector<std::vector<std::uint32_t>>& sets,
                                                                      const std::vector<double>& x,
                                                                      const ZeroHalfOptions& options = {}) {
  if (x.size() != n) throw std::invalid_argument("zero_half_cuts: one value per element");
  for (const auto& set : sets) {
    if (set.empty()) throw std::invalid_argument("zero_half_cuts: an empty set can never be hit");
    for (const std::uint32_t e : set)
      if (e >= n) throw std::invalid_argument("zero_half_cuts: element out of range");
  }
  constexpr double positive = 1e-9;
  const auto value = [&](std::uint32_t e) { return std::clamp(x[e], 0.0, 1.0); };
  const double limit = 1.0 - 2.0 * options.min_violation;
  std::vector<std::vector<detail::ZeroHalfEdge>> adjacent(n);
  std::vector<std::uint32_t> support;
  for (std::uint32_t i = 0; i < sets.size(); ++i) {
    support.clear();
    double lhs = 0.0;
    for (const std::uint32_t e : sets[i]) {
      lhs += value(e);
      if (value(e) > positive) support.push_back(e);
    }
    const double slack = std::max(0.0, lhs - 1.0);
    if (support.size() < 2 || support.size() > options.max_support || slack >= limit) continue;
    for (std::size_t a = 0; a < support.size(); ++a)
      for (std::size_t b = a + 1; b < support.size(); ++b) {
        const double weight = std::max(0.0, lhs - 1.0 + (1.0 - value(support[a]) - value(support[b])));
        if (weight >= limit) continue;
        adjacent[support[a]].push_back({support[b], i, weight});
        adjacent[support[b]].push_back({support[a], i, weight});
      }
  }
  // Dijkstra on the double cover: state 2 v + parity.
  const std::size_t states = 2 * n;
  std::vector<double> distance(states, 0.0);
  std::vector<std::uint32_t> stamp(states, 0), from(states, 0), via(states, 0);
  std::vector<bool> settled(states, false);
  std::uint32_t epoch = 0;
  std::vector<HittingSetInequality> cuts;
  std::set<std::vector<std::uint32_t>> seen;  // the cuts' rows
  std::vector<std::uint32_t> count(n, 0), touched, rows;
  using Entry = std::pair<double, std::uint32_t>;
  for (std::uint32_t s = 0; s < n && cuts.size() < options.max_cuts; ++s) {
    if (adjacent[s].empty()) continue;
    ++epoch;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    const std::uint32_t source = 2 * s, target = 2 * s + 1;
    stamp[source] = epoch;
    distance[source] = 0.0;
    settled[source] = false;
    queue.push({0.0, source});
    std::size_t done = 0;
    bool found = false;
    while (!queue.empty() && done < options.max_settled) {
      const auto [d, state] = queue.top();
      queue.pop();
      if (settled[state] || d > distance[state]) continue;
      settled[state] = true;
      ++done;
      if (state == target) {
        found = true;
        break;
      }
      for (const detail::ZeroHalfEdge& edge : adjacent[state / 2]) {
        const std::uint32_t next = 2 * edge.to + (1 - state % 2);
        const double nd = d + edge.weight;
        if (nd >= limit) continue;
        if (stamp[next] != epoch) {
          stamp[next] = epoch;
          settled[next] = false;
        } else if (settled[next] || nd >= distance[next]) {
          continue;
        }
        distance[next] = nd;
        from[next] = state;
        via[next] = edge.row;
        queue.push({nd, next});
      }
    }
    if (!found) continue;
    rows.clear();
    for (std::uint32_t state = target; state != source; state = from[state]) rows.push_back(via[state]);
    // Rows used twice cancel (their halves add up to the row itself, a weaker cut).
    std::sort(rows.begin(), rows.end());
    std::vector<std::uint32_t> odd;
    for (std::size_t i = 0; i < rows.size();) {
      std::size_t j = i;
      while (j < rows.size() && rows[j] == rows[i]) ++j;
      if ((j - i) % 2 == 1) odd.push_back(rows[i]);
      i = j;
    }
    if (odd.size() < 3 || !seen.insert(odd).second) continue;
    const auto rhs = static_cast<std::uint32_t>((odd.size() + 1) / 2);
    touched.clear();
    for (const std::uint32_t r : odd)
      for (const std::uint32_t e : sets[r]) {
        if (count[e]++ == 0) touched.push_back(e);
      }
    std::sort(touched.begin(), touched.end());
    HittingSetInequality cut;
    cut.rhs = rhs;
    double lhs = 0.0;
    for (const std::uint32_t e : touched) {
      const std::uint32_t coefficient = std::min(rhs, (count[e] + 1) / 2);
      cut.elements.push_back(e);
      cut.coefficients.push_back(coefficient);
      lhs += coefficient * value(e);
      count[e] = 0;
    }
    if (static_cast<double>(rhs) - lhs >= options.min_violation - 1e-12) cuts.push_back(std::move(cut));
  }
  return cuts;
}

}  // namespace kildall::noisy
