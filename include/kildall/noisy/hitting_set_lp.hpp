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
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <kildall/lp/glpk.hpp>
#include <kildall/lp/model.hpp>
#include <kildall/noisy/hitting_set.hpp>

namespace kildall::noisy {

/// The LP relaxation bound of a minimum hitting set.
struct HittingSetLpBound {
  double lp = 0.0;       ///< GLPK's LP optimum (informative; NaN when not solved).
  /// The dual solution's value, recomputed and lowered by a rounding margin
  /// (0 without one; by parts, the sum of the parts' last solutions).
  double certified = 0.0;
  double bound = 0.0;    ///< `ceil(certified)` (by parts, their sum): a lower bound of the minimum hitting set's size.
  bool solved = false;   ///< GLPK returned an optimal LP solution (by parts: of every part, with all its rows).
  double seconds = 0.0;  ///< Time in GLPK.
  /// The LP's optimal point, per element (0 for elements in no set, or where no solution holds them).
  std::vector<double> values;
  /// The dual values (clipped at 0) of the sets, then of the inequalities, in
  /// their order (0 for a row left out or not solved): the `y` of the
  /// certificate, e.g. multipliers for `hitting_set_lagrangian.hpp`.
  std::vector<double> duals;
};

namespace detail {

// `std::invalid_argument`, named after `caller`, for an empty set or an element out of range.
inline void check_sets(std::size_t n, std::span<const std::vector<std::uint32_t>> sets, const char* caller) {
  for (const auto& set : sets) {
    if (set.empty()) throw std::invalid_argument(std::string(caller) + ": an empty set can never be hit");
    for (const std::uint32_t e : set)
      if (e >= n) throw std::invalid_argument(std::string(caller) + ": element out of range");
  }
}

inline void check_inequalities(std::size_t n, std::span<const HittingSetInequality> inequalities) {
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

/// The LP relaxation bound of a hitting-set family that grows between
/// solves (the lazy strategy's pool of cuts: sets and valid inequalities are
/// only ever appended), in parts of disjoint elements: `part[e]` is the part
/// of element `e`, a set or an inequality with elements of two parts is left
/// out (a relaxation), and the parts' bounds add up. Each part keeps its rows
/// in the order they joined and the optimal basis of its last solve; the
/// next solve of a part with new rows starts from that basis
/// (`lp::GlpkSolver::solve_from`: the dual simplex, which the added rows
/// leave dual feasible; on the pooled cuts several times faster than
/// a solve from scratch, docs/performance.md). A set implied by another
/// (`implied_sets`, over the whole family) does not join; a row that a later
/// set implies stays (the LP is the same). A part without new rows keeps its
/// last solution, and so does a part GLPK does not finish by the deadline:
/// its duals, with 0 for the new rows, still certify its bound (the file
/// comment). `hitting_set_lp_bound` and `hitting_set_lp_bound_by_parts` are
/// one solve of a new one.
class GrowingHittingSetLp {
 public:
  /// Over the elements `0..n-1`, element `e` in part `part[e]` (parts are
  /// numbered from 0); `std::invalid_argument` unless one part per element.
  GrowingHittingSetLp(std::size_t n, std::vector<std::uint32_t> part) : n_(n), part_(std::move(part)), column_(n, none) {
    if (part_.size() != n_) throw std::invalid_argument("GrowingHittingSetLp: one part per element");
    std::uint32_t parts = 0;
    for (const std::uint32_t k : part_) parts = std::max(parts, k + 1);
    parts_.resize(parts);
  }
  /// Over the elements `0..n-1`, in one part.
  explicit GrowingHittingSetLp(std::size_t n) : GrowingHittingSetLp(n, std::vector<std::uint32_t>(n, 0)) {}

  /// The certified bound of the hitting sets of `sets` (element lists over
  /// `0..n-1`, none empty) with the valid `inequalities` as further rows,
  /// each part solved within `deadline`. `sets` and `inequalities` start
  /// with those of the last call, unchanged and in the same order (only
  /// their sizes are checked: `std::invalid_argument` if one shrank, and for
  /// an empty set, an element out of range or an inequality with not one
  /// coefficient per element). `values` (per element) and `duals` (per set,
  /// then per inequality) are 0 where no part's solution holds them; `lp` is
  /// NaN and `solved` false unless every part has a solution of all its rows.
  [[nodiscard]] HittingSetLpBound solve(const std::vector<std::vector<std::uint32_t>>& sets,
                                        const std::vector<HittingSetInequality>& inequalities,
                                        std::chrono::steady_clock::time_point deadline) {
    if (sets.size() < sets_seen_ || inequalities.size() < inequalities_seen_)
      throw std::invalid_argument("GrowingHittingSetLp::solve: the sets and inequalities of the last call come first");
    detail::check_sets(n_, std::span(sets).subspan(sets_seen_), "GrowingHittingSetLp::solve");
    detail::check_inequalities(n_, std::span(inequalities).subspan(inequalities_seen_));
    // New rows join their part (rows implied by a subset's are left out: their duals are 0).
    if (sets.size() > sets_seen_) {
      const std::vector<bool> implied = implied_sets(n_, sets);
      for (std::size_t i = sets_seen_; i < sets.size(); ++i)
        if (!implied[i]) add_row(sets[i], static_cast<std::uint32_t>(i), false);
    }
    for (std::size_t i = inequalities_seen_; i < inequalities.size(); ++i)
      if (!inequalities[i].elements.empty()) add_row(inequalities[i].elements, static_cast<std::uint32_t>(i), true);
    sets_seen_ = sets.size();
    inequalities_seen_ = inequalities.size();

    HittingSetLpBound out;
    out.lp = 0.0;
    out.solved = true;
    out.values.assign(n_, 0.0);
    out.duals.assign(sets.size() + inequalities.size(), 0.0);
    bool any = false;
    for (Part& p : parts_) {
      if (p.rows.empty()) continue;
      if ((!p.solved || p.rows_solved != p.rows.size()) && std::chrono::steady_clock::now() < deadline)
        out.seconds += solve_part(p, sets, inequalities, deadline);
      if (!p.solved || p.rows_solved != p.rows.size()) {
        out.solved = false;
        out.lp = std::nan("");
      }
      if (!p.solved) continue;
      any = true;
      out.lp += p.lp;
      out.certified += p.certified;
      out.bound += std::ceil(p.certified);
      for (std::size_t c = 0; c < p.values.size(); ++c) out.values[p.elements[c]] = p.values[c];  // (columns of its last solve)
      for (std::size_t r = 0; r < p.rows_solved; ++r)
        out.duals[p.rows[r].inequality ? sets.size() + p.rows[r].index : p.rows[r].index] = p.duals[r];
    }
    if (!any) {
      out.solved = false;
      out.lp = std::nan("");
    }
    return out;
  }

 private:
  static constexpr std::uint32_t none = UINT32_MAX;
  struct Row {
    std::uint32_t index = 0;  // into the sets, or the inequalities
    bool inequality = false;
  };
  struct Part {
    std::vector<Row> rows;                // in the order they joined
    std::vector<std::uint32_t> elements;  // the LP's columns, in the order they joined
    lp::Basis basis;                      // of the last solve
    bool solved = false;                  // has a solution, of its first `rows_solved` rows
    std::size_t rows_solved = 0;
    double lp = 0.0, certified = 0.0;
    std::vector<double> values;  // per column
    std::vector<double> duals;   // per row solved, clipped at 0
  };

  // A row joins the part of its elements (none when they span two parts).
  void add_row(const std::vector<std::uint32_t>& elements, std::uint32_t index, bool inequality) {
    const std::uint32_t k = part_[elements.front()];
    if (std::any_of(elements.begin(), elements.end(), [&](std::uint32_t e) { return part_[e] != k; })) return;
    Part& p = parts_[k];
    p.rows.push_back({index, inequality});
    for (const std::uint32_t e : elements)
      if (column_[e] == none) {
        column_[e] = static_cast<std::uint32_t>(p.elements.size());
        p.elements.push_back(e);
      }
  }

  // One part's LP, from its last basis; on success its solution and
  // certificate replace the last. Returns the seconds in GLPK.
  double solve_part(Part& p, const std::vector<std::vector<std::uint32_t>>& sets,
                    const std::vector<HittingSetInequality>& inequalities, std::chrono::steady_clock::time_point deadline) {
    lp::Model model;
    std::vector<lp::Var> x;
    x.reserve(p.elements.size());
    lp::LinExpr total;
    for (std::size_t c = 0; c < p.elements.size(); ++c) {
      x.push_back(model.add_continuous(0.0, 1.0));
      total += lp::LinExpr(x.back());
    }
    for (const Row& row : p.rows) {
      lp::LinExpr expr;
      if (!row.inequality) {
        for (const std::uint32_t e : sets[row.index]) expr += lp::LinExpr(x[column_[e]]);
        (void)model.add(expr >= 1.0);
      } else {
        const HittingSetInequality& in = inequalities[row.index];
        for (std::size_t j = 0; j < in.elements.size(); ++j)
          expr += static_cast<double>(in.coefficients[j]) * lp::LinExpr(x[column_[in.elements[j]]]);
        (void)model.add(expr >= static_cast<double>(in.rhs));
      }
    }
    model.minimize(total);
    lp::GlpkOptions options;
    options.time_limit_seconds = std::max(0.0, std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count());
    const lp::GlpkSolver solver(options);
    lp::Solution s = p.basis.empty() ? solver.solve(model) : solver.solve_from(model, p.basis);
    if (s.status != lp::SolveStatus::optimal || s.row_duals.size() != p.rows.size()) return s.seconds;
    p.solved = true;
    p.rows_solved = p.rows.size();
    p.lp = s.objective;
    p.basis = std::move(s.basis);
    p.values.resize(p.elements.size());
    for (std::size_t c = 0; c < p.elements.size(); ++c) p.values[c] = s.values[c];
    p.duals.resize(p.rows.size());
    for (std::size_t r = 0; r < p.rows.size(); ++r) p.duals[r] = std::isfinite(s.row_duals[r]) ? std::max(0.0, s.row_duals[r]) : 0.0;
    // Weak duality with the clipped duals, recomputed (the file comment).
    std::vector<double> load(p.elements.size(), 0.0);
    double value = 0.0;
    std::size_t terms = 0;
    for (std::size_t r = 0; r < p.rows.size(); ++r) {
      const double y = p.duals[r];
      if (!p.rows[r].inequality) {
        const auto& set = sets[p.rows[r].index];
        value += y;
        for (const std::uint32_t e : set) load[column_[e]] += y;
        terms += set.size() + 1;
      } else {
        const HittingSetInequality& in = inequalities[p.rows[r].index];
        value += static_cast<double>(in.rhs) * y;
        for (std::size_t j = 0; j < in.elements.size(); ++j) load[column_[in.elements[j]]] += static_cast<double>(in.coefficients[j]) * y;
        terms += in.elements.size() + 1;
      }
    }
    for (const double l : load) value -= std::max(0.0, l - 1.0);
    // Rounding: each of the `terms` additions errs by at most a few ulps of the
    // partial sums (at most `value`-sized); a generous margin.
    const double margin = 1e-6 + 1e-12 * static_cast<double>(terms) * std::max(1.0, std::abs(value));
    p.certified = std::max(0.0, value - margin);
    return s.seconds;
  }

  std::size_t n_;
  std::vector<std::uint32_t> part_;
  std::vector<std::uint32_t> column_;  // per element: its column in its part's LP (`none` before a row holds it)
  std::vector<Part> parts_;
  std::size_t sets_seen_ = 0, inequalities_seen_ = 0;
};

/// The certified LP bound (see the file comment) of the minimum hitting set
/// of `sets` (element lists over `0..n-1`), within `time_limit_seconds`,
/// with the valid `inequalities` as further rows; `std::invalid_argument`
/// for an empty set, an element out of range or an inequality with not one
/// coefficient per element. With no sets, or when GLPK does not finish, the
/// bound is 0. One solve of a `GrowingHittingSetLp` in one part.
[[nodiscard]] inline HittingSetLpBound hitting_set_lp_bound(std::size_t n, const std::vector<std::vector<std::uint32_t>>& sets,
                                                            double time_limit_seconds,
                                                            const std::vector<HittingSetInequality>& inequalities = {}) {
  GrowingHittingSetLp lp(n);
  return lp.solve(sets, inequalities,
                  std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                         std::chrono::duration<double>(std::max(0.0, std::min(time_limit_seconds, 1e9)))));
}

/// The sum of the certified LP bounds of the parts: `part[e]` is the part of
/// element `e` (parts are numbered from 0); a set with elements of two parts
/// is left out, and so is an inequality of `inequalities` (further rows,
/// as for `hitting_set_lp_bound`) with elements of two parts. Each part gets
/// the time left until `deadline`; a part GLPK does not finish adds 0 (the
/// sum stays a bound). `solved`: every part was. One solve of a
/// `GrowingHittingSetLp`.
[[nodiscard]] inline HittingSetLpBound hitting_set_lp_bound_by_parts(std::size_t n,
                                                                     const std::vector<std::vector<std::uint32_t>>& sets,
                                                                     const std::vector<std::uint32_t>& part,
                                                                     std::chrono::steady_clock::time_point deadline,
                                                                     const std::vector<HittingSetInequality>& inequalities = {}) {
  GrowingHittingSetLp lp(n, part);
  return lp.solve(sets, inequalities, deadline);
}

}  // namespace kildall::noisy
