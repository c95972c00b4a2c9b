#pragma once
/// \file
/// A certified lower bound of a minimum hitting set from its linear
/// programming relaxation (Lovász 1975, "On the ratio of optimal integral and
/// fractional covers"): minimise the sum of `x_e` over `0 <= x_e <= 1` with
/// `sum_{e in S} x_e >= 1` for every set `S`, solved by GLPK's simplex. The
/// bound is not GLPK's objective but the value of the dual solution it
/// returns, recomputed here (weak duality; the certificate idea of Neumaier
/// and Shcherbina 2004, "Safe bounds in linear and mixed-integer linear
/// programming"): for any `y_S >= 0`, with `load_e = sum_{S ∋ e} y_S`,
/// every hitting set `H` has `|H| >= sum_S y_S - sum_e max(0, load_e - 1)`
/// (`|H| >= sum_{e in H} (load_e - max(0, load_e - 1))` and each set holds
/// an element of `H`). Valid inequalities `a x >= b` of the hitting sets
/// with integer `a >= 0` (`HittingSetInequality`, e.g. the {0,1/2}-cuts of
/// `zero_half_cuts.hpp`) may join the sets as rows; with their duals the
/// certificate generalises to `|H| >= sum b y - sum_e max(0, load_e - 1)`,
/// `load_e` summing `a_e y` over the rows (`x_e >= min(1, load_e) x_e` for a
/// 0/1 `x`, and `sum_e load_e x_e >= sum b y` for every hitting set). The
/// value is lowered by a margin for rounding, and the integer bound is its
/// ceiling. A set that contains another (or repeats an earlier one) is
/// left out of the LP (`implied_sets`: its row is implied, the LP is the same;
/// its dual is 0). Large families may be split into parts of
/// disjoint elements (`hitting_set_lp_bound_by_parts`): the sets across two
/// parts are left out (a relaxation), and the parts' bounds add up. Used by the lazy strategy's windows phase
/// (`lazy_placement.hpp`) on the cuts pooled from the pieces of its
/// decompositions. Needs the `kildall::glpk` (GPL) target.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <kildall/lp/glpk.hpp>
#include <kildall/lp/model.hpp>
#include <kildall/noisy/hitting_set.hpp>

namespace kildall::noisy {

/// The LP relaxation bound of a minimum hitting set.
struct HittingSetLpBound {
  double lp = 0.0;       ///< GLPK's LP optimum (informative; NaN when not solved).
  double certified = 0.0;  ///< The dual solution's value, recomputed and lowered by a rounding margin (0 when not solved).
  double bound = 0.0;    ///< `ceil(certified)`: a lower bound of the minimum hitting set's size.
  bool solved = false;   ///< GLPK returned an optimal LP solution.
  double seconds = 0.0;  ///< Time in GLPK.
  std::vector<double> values;  ///< The LP's optimal point, per element (0 for elements in no set; empty when not solved).
  /// The dual values (clipped at 0) of the sets, then of the inequalities, in
  /// their order (0 for a row left out; empty when not solved): the `y` of
  /// the certificate, e.g. multipliers for `hitting_set_lagrangian.hpp`.
  std::vector<double> duals;
};

namespace detail {

// `std::invalid_argument`, named after `caller`, for an empty set or an element out of range.
inline void check_sets(std::size_t n, const std::vector<std::vector<std::uint32_t>>& sets, const char* caller) {
  for (const auto& set : sets) {
    if (set.empty()) throw std::invalid_argument(std::string(caller) + ": an empty set can never be hit");
    for (const std::uint32_t e : set)
      if (e >= n) throw std::invalid_argument(std::string(caller) + ": element out of range");
  }
}

inline void check_inequalities(std::size_t n, const std::vector<HittingSetInequality>& inequalities) {
  for (const HittingSetInequality& row : inequalities) {
    if (row.coefficients.size() != row.elements.size())
      throw std::invalid_argument("hitting_set_lp_bound: one coefficient per element of an inequality");
    if (row.elements.empty() && row.rhs > 0) throw std::invalid_argument("hitting_set_lp_bound: an inequality with no elements never holds");
    for (const std::uint32_t e : row.elements)
      if (e >= n) throw std::invalid_argument("hitting_set_lp_bound: element out of range");
  }
}

}  // namespace detail

/// Per set of `sets` (element lists over `0..n-1`, none empty): true when
/// another set is a subset of it (an equal set: the first of them is kept).
/// Its row `sum_{e in S} x_e >= 1` is implied by the smaller one's for
/// `x >= 0`, so the LP relaxation is the same without it. The pooled
/// cuts hold about 2/3 such sets (cuts of the same violation found by
/// overlapping pieces, and the cut loop's own again). `std::invalid_argument`
/// for an empty set or an element out of range.
[[nodiscard]] inline std::vector<bool> implied_sets(std::size_t n, const std::vector<std::vector<std::uint32_t>>& sets) {
  detail::check_sets(n, sets, "implied_sets");
  std::vector<std::vector<std::uint32_t>> sorted(sets.size());
  std::vector<std::vector<std::uint32_t>> by_least(n);  // the sets whose least element is e
  for (std::size_t i = 0; i < sets.size(); ++i) {
    sorted[i] = sets[i];
    std::sort(sorted[i].begin(), sorted[i].end());
    sorted[i].erase(std::unique(sorted[i].begin(), sorted[i].end()), sorted[i].end());
    by_least[sorted[i].front()].push_back(static_cast<std::uint32_t>(i));
  }
  std::vector<bool> implied(sets.size(), false);
  for (std::size_t i = 0; i < sets.size(); ++i) {
    const std::vector<std::uint32_t>& set = sorted[i];
    // A subset of `set` has its least element in `set`.
    for (std::size_t k = 0; k < set.size() && !implied[i]; ++k)
      for (const std::uint32_t j : by_least[set[k]]) {
        const std::vector<std::uint32_t>& other = sorted[j];
        if (j == i || other.size() > set.size() || (other.size() == set.size() && j > i)) continue;
        if (std::includes(set.begin(), set.end(), other.begin(), other.end())) {
          implied[i] = true;
          break;
        }
      }
  }
  return implied;
}

/// The certified LP bound (see the file comment) of the minimum hitting set
/// of `sets` (element lists over `0..n-1`), within `time_limit_seconds`,
/// with the valid `inequalities` as further rows; `std::invalid_argument`
/// for an empty set, an element out of range or an inequality with not one
/// coefficient per element. With no sets, or when GLPK does not finish, the
/// bound is 0.
[[nodiscard]] inline HittingSetLpBound hitting_set_lp_bound(std::size_t n, const std::vector<std::vector<std::uint32_t>>& sets,
                                                            double time_limit_seconds,
                                                            const std::vector<HittingSetInequality>& inequalities = {}) {
  detail::check_sets(n, sets, "hitting_set_lp_bound");
  detail::check_inequalities(n, inequalities);
  HittingSetLpBound out;
  out.lp = std::nan("");
  if (sets.empty() || time_limit_seconds <= 0.0) return out;
  lp::Model model;
  std::vector<std::uint32_t> column(n, UINT32_MAX);
  std::vector<lp::Var> x;
  std::vector<lp::ConstraintRef> rows;
  rows.reserve(sets.size() + inequalities.size());
  const auto variable = [&](std::uint32_t e) {
    if (column[e] == UINT32_MAX) {
      column[e] = static_cast<std::uint32_t>(x.size());
      x.push_back(model.add_continuous(0.0, 1.0));
    }
    return lp::LinExpr(x[column[e]]);
  };
  // Rows implied by a subset's are left out (the same LP; their duals are 0).
  const std::vector<bool> implied = implied_sets(n, sets);
  for (std::size_t i = 0; i < sets.size(); ++i) {
    if (implied[i]) {
      rows.emplace_back();
      continue;
    }
    lp::LinExpr row;
    for (const std::uint32_t e : sets[i]) row += variable(e);
    rows.push_back(model.add(row >= 1.0));
  }
  for (const HittingSetInequality& inequality : inequalities) {
    lp::LinExpr row;
    for (std::size_t i = 0; i < inequality.elements.size(); ++i)
      row += static_cast<double>(inequality.coefficients[i]) * variable(inequality.elements[i]);
    rows.push_back(model.add(row >= static_cast<double>(inequality.rhs)));
  }
  lp::LinExpr total;
  for (const lp::Var& v : x) total += lp::LinExpr(v);
  model.minimize(total);
  lp::GlpkOptions options;
  options.time_limit_seconds = time_limit_seconds;
  const lp::Solution s = lp::GlpkSolver(options).solve(model);
  out.seconds = s.seconds;
  if (s.status != lp::SolveStatus::optimal || s.row_duals.empty()) return out;
  out.lp = s.objective;
  out.values.assign(n, 0.0);
  for (std::size_t e = 0; e < n; ++e)
    if (column[e] != UINT32_MAX) out.values[e] = s.value(x[column[e]]);
  // Weak duality with the returned duals (clipped at 0), recomputed.
  std::vector<double> load(x.size(), 0.0);
  double value = 0.0;
  std::size_t terms = 0;
  out.duals.assign(rows.size(), 0.0);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i < sets.size() && implied[i]) continue;
    const double dual = s.dual(rows[i]);
    out.duals[i] = std::isfinite(dual) ? std::max(0.0, dual) : 0.0;
  }
  for (std::size_t i = 0; i < sets.size(); ++i) {
    if (implied[i]) continue;  // y = 0 (and its elements may have no column)
    const double y = out.duals[i];
    value += y;
    for (const std::uint32_t e : sets[i]) load[column[e]] += y;
    terms += sets[i].size() + 1;
  }
  for (std::size_t i = 0; i < inequalities.size(); ++i) {
    const double y = out.duals[sets.size() + i];
    const HittingSetInequality& row = inequalities[i];
    value += static_cast<double>(row.rhs) * y;
    for (std::size_t j = 0; j < row.elements.size(); ++j) load[column[row.elements[j]]] += static_cast<double>(row.coefficients[j]) * y;
    terms += row.elements.size() + 1;
  }
  for (const double l : load) value -= std::max(0.0, l - 1.0);
  // Rounding: each of the `terms` additions errs by at most a few ulps of the
  // partial sums (at most `value`-sized); a generous margin.
  const double margin = 1e-6 + 1e-12 * static_cast<double>(terms) * std::max(1.0, std::abs(value));
  out.certified = std::max(0.0, value - margin);
  out.bound = std::ceil(out.certified);
  out.solved = true;
  return out;
}

/// The sum of the certified LP bounds of the parts: `part[e]` is the part of
/// element `e` (parts are numbered from 0); a set with elements of two parts
/// is left out, and so is an inequality of `inequalities` (further rows,
/// as for `hitting_set_lp_bound`) with elements of two parts. Each part gets
/// the time left until `deadline`; a part GLPK does not finish adds 0 (the
/// sum stays a bound). `solved`: every part was.
[[nodiscard]] inline HittingSetLpBound hitting_set_lp_bound_by_parts(std::size_t n,
                                                                     const std::vector<std::vector<std::uint32_t>>& sets,
                                                                     const std::vector<std::uint32_t>& part,
                                                                     std::chrono::steady_clock::time_point deadline,
                                                                     const std::vector<HittingSetInequality>& inequalities = {}) {
  if (part.size() != n) throw std::invalid_argument("hitting_set_lp_bound_by_parts: one part per element");
  std::uint32_t parts = 0;
  for (const std::uint32_t k : part) parts = std::max(parts, k + 1);
  std::vector<std::vector<std::vector<std::uint32_t>>> by_part(parts);
  std::vector<std::vector<std::size_t>> index_by_part(parts);  // row indices (sets, then inequalities)
  detail::check_sets(n, sets, "hitting_set_lp_bound_by_parts");
  for (std::size_t i = 0; i < sets.size(); ++i) {
    const auto& set = sets[i];
    const std::uint32_t k = part[set.front()];
    if (std::all_of(set.begin(), set.end(), [&](std::uint32_t e) { return part[e] == k; })) {
      by_part[k].push_back(set);
      index_by_part[k].push_back(i);
    }
  }
  detail::check_inequalities(n, inequalities);
  std::vector<std::vector<HittingSetInequality>> rows_by_part(parts);
  std::vector<std::vector<std::size_t>> inequality_index_by_part(parts);
  for (std::size_t i = 0; i < inequalities.size(); ++i) {
    const HittingSetInequality& row = inequalities[i];
    if (row.elements.empty()) continue;
    const std::uint32_t k = part[row.elements.front()];
    if (std::all_of(row.elements.begin(), row.elements.end(), [&](std::uint32_t e) { return part[e] == k; })) {
      rows_by_part[k].push_back(row);
      inequality_index_by_part[k].push_back(sets.size() + i);
    }
  }
  HittingSetLpBound out;
  out.lp = 0.0;
  out.solved = true;
  out.values.assign(n, 0.0);
  out.duals.assign(sets.size() + inequalities.size(), 0.0);
  for (std::uint32_t k = 0; k < parts; ++k) {
    const auto& family = by_part[k];
    if (family.empty()) continue;
    const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    const HittingSetLpBound one = hitting_set_lp_bound(n, family, left, rows_by_part[k]);
    out.seconds += one.seconds;
    if (!one.solved) {
      out.solved = false;
      out.lp = std::nan("");
      continue;
    }
    out.lp += one.lp;
    for (std::size_t e = 0; e < n; ++e) out.values[e] += one.values[e];
    for (std::size_t i = 0; i < index_by_part[k].size(); ++i) out.duals[index_by_part[k][i]] = one.duals[i];
    for (std::size_t i = 0; i < inequality_index_by_part[k].size(); ++i)
      out.duals[inequality_index_by_part[k][i]] = one.duals[index_by_part[k].size() + i];
    out.certified += one.certified;
    out.bound += one.bound;
  }
  return out;
}

}  // namespace kildall::noisy
