#pragma once
/// \file
/// A lower bound of a minimum hitting set by Lagrangian relaxation of the
/// sets that cross blocks of elements (Geoffrion 1974, "Lagrangean
/// relaxation for integer programming"; Fisher 1981, "The Lagrangian
/// relaxation method for solving integer programming problems"). The
/// elements are split into blocks; a set whose elements are all in one block
/// is that block's own, the others cross. For multipliers `y_S >= 0` of the
/// crossing sets and `c_e = 1 - sum_{crossing S ∋ e} y_S`, every hitting set
/// `x` has `|x| = sum_e c_e x_e + sum_S y_S (sum_{e in S} x_e) >=
/// sum_e c_e x_e + sum_S y_S`, and `sum_e c_e x_e` is at least the sum over
/// blocks of the least `c`-weight of a 0/1 choice of the block's elements
/// that hits the block's own sets. Each block's minimum is a weighted set
/// cover: elements of `c_e <= 0` are taken, the rest is solved by GLPK's
/// branch and bound within a time limit (without GLPK's cut generators: on
/// the pooled cuts they made the blocks a third slower and left more
/// of them unproven, docs/performance.md); the blocks GLPK did not finish
/// get the time left before the deadline, shared among them, for a second
/// solve; a block GLPK still does not finish counts
/// with the larger of GLPK's bound and the value of the multipliers of its
/// own sets as a dual solution of its LP relaxation (weak duality:
/// `sum_{own S} y_S - sum_{e in block} max(0, load_e - 1)`, `load_e` summing
/// `y_S` over all sets holding `e`). With the LP relaxation's optimal duals
/// as multipliers (`hitting_set_lp.hpp`) that dual value summed over blocks is
/// the LP bound's certificate, so the bound is at least the LP bound and
/// exceeds it by the blocks' integrality gaps. A block's optimum is as exact
/// as GLPK's branch and bound (the cut loop's master trusts it the same way);
/// a margin for its pruning tolerance (1e-7 relative) and for rounding is
/// subtracted. Any partition of the elements gives such a bound, a coarser
/// one at least as high for the same multipliers (pricing rows can only
/// lower a block's minimum), so the time left after the blocks may go to
/// pairs of adjacent blocks solved as one (`pair_seconds`): the rows that
/// cross only between the two become the pair's own, and a pair whose
/// minimum exceeds its two blocks' plus those rows' priced value replaces
/// them. Each block joins at most one pair; pairs go easiest first (the
/// least time GLPK took on their two blocks), and only pairs that such rows
/// join and whose blocks' minimisers side by side do not already meet them,
/// exactly where priced (complementary slackness: that point costs the least
/// the pair can, so it could gain nothing). On the 30,000-op w64
/// pools about one unit a pair GLPK finishes, most pairs of 900 ops being
/// far harder than their halves (docs/performance.md). Used by the lazy
/// `reduce_noise` strategy on its pooled cover
/// cuts (`lazy_placement.hpp`). Further valid inequalities `a x >= b`
/// (`HittingSetInequality`, e.g. {0,1/2}-cuts) join as rows the same way (a
/// crossing one adds `b y` and lowers `c_e` by `a_e y`). A block's own set
/// that contains another or repeats one (`implied_sets`) is not a row of its
/// GLPK model: the smaller set is the block's own too, and its row implies
/// it (on the pooled cuts a third less time in GLPK, the same bound,
/// docs/performance.md). Needs the
/// `kildall::glpk` (GPL) target.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include <kildall/lp/glpk.hpp>
#include <kildall/lp/model.hpp>
#include <kildall/noisy/hitting_set.hpp>
#include <kildall/noisy/hitting_set_lp.hpp>

namespace kildall::noisy {

/// The Lagrangian bound by blocks of a minimum hitting set.
struct HittingSetLagrangianBound {
  double certified = 0.0;        ///< The bound's value, lowered by the margins.
  double bound = 0.0;            ///< `ceil(certified)`: a lower bound of the minimum hitting set's size.
  std::size_t blocks = 0;        ///< Blocks with own sets.
  std::size_t exact_blocks = 0;  ///< Of those, blocks whose weighted minimum GLPK proved.
  std::size_t second_tries = 0;  ///< Unfinished blocks solved again with the time left.
  std::size_t pair_tries = 0;    ///< Pairs of adjacent blocks solved as one (`pair_seconds`).
  std::size_t merged_pairs = 0;  ///< Of those, pairs that raised the bound (and replace their two blocks).
  double seconds = 0.0;          ///< Time in GLPK.
  /// The minimisers of the blocks and merged pairs side by side (per
  /// element: chosen), for one without a point from GLPK its elements of
  /// `c_e <= 0` only; every own row of a block or pair GLPK solved holds,
  /// the crossing ones need not (a subgradient: the crossing rows' violations).
  std::vector<bool> chosen;
};

/// How `hitting_set_lagrangian_bound` spends its time.
struct HittingSetLagrangianOptions {
  /// The most one block's GLPK solve may take, seconds.
  double block_seconds = 2.0;
  /// The time left before the deadline then goes to the blocks GLPK did not
  /// finish, shared among them while each gets more than 1.5 times
  /// `block_seconds`: each is solved again from the start and keeps the
  /// better of its two values (on the 30,000-op w64 program 2.7 s
  /// left proved 1-2 of 3 such blocks, docs/performance.md).
  bool solve_unfinished_again = true;
  /// When positive, the time still left before the deadline goes to pairs of
  /// adjacent blocks solved as one (see the file comment), at most this long
  /// each; 0: none.
  double pair_seconds = 0.0;
  /// The pairs stop once the bound reaches this (e.g. a known hitting set's size).
  double enough = std::numeric_limits<double>::infinity();
};

/// The Lagrangian bound (see the file comment) of the minimum hitting set of
/// `sets` (element lists over `0..n-1`) and the valid `inequalities`, with
/// `multipliers[i] >= 0` for row `i` (the sets, then the inequalities; e.g.
/// `HittingSetLpBound::duals`; those of the blocks' own rows only enter the
/// fallback) and `block[e]` the block of element `e`; no GLPK solve starts
/// after `deadline` (the blocks left count with their fallback); `options`
/// sets each block's time, the second solves of unfinished blocks and the
/// merged pairs. `std::invalid_argument` for sizes that do not match, an
/// empty set, an element out of range or a negative multiplier.
[[nodiscard]] inline HittingSetLagrangianBound hitting_set_lagrangian_bound(
    std::size_t n, const std::vector<std::vector<std::uint32_t>>& sets, const std::vector<double>& multipliers,
    const std::vector<std::uint32_t>& block, std::chrono::steady_clock::time_point deadline,
    const std::vector<HittingSetInequality>& inequalities = {}, const HittingSetLagrangianOptions& options = {}) {
  const double block_seconds = options.block_seconds;
  const std::size_t rows = sets.size() + inequalities.size();
  if (multipliers.size() != rows) throw std::invalid_argument("hitting_set_lagrangian_bound: one multiplier per row");
  if (block.size() != n) throw std::invalid_argument("hitting_set_lagrangian_bound: one block per element");
  // Row r: its elements, the coefficient of its j-th element, its right-hand side.
  const auto elements = [&](std::size_t r) -> const std::vector<std::uint32_t>& {
    return r < sets.size() ? sets[r] : inequalities[r - sets.size()].elements;
  };
  const auto coefficient = [&](std::size_t r, std::size_t j) {
    return r < sets.size() ? 1.0 : static_cast<double>(inequalities[r - sets.size()].coefficients[j]);
  };
  const auto rhs = [&](std::size_t r) { return r < sets.size() ? 1.0 : static_cast<double>(inequalities[r - sets.size()].rhs); };
  std::uint32_t blocks = 0;
  for (const std::uint32_t b : block) blocks = std::max(blocks, b + 1);
  std::vector<std::vector<std::size_t>> own(blocks);
  std::vector<std::vector<std::size_t>> pair_rows(blocks);  // by block b: the rows across b and b + 1 only
  std::vector<double> cost(n, 1.0), load(n, 0.0);
  double value = 0.0;  // the crossing rows' multipliers times their right-hand sides
  std::size_t terms = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    const auto& row = elements(r);
    if (r < sets.size() && row.empty()) throw std::invalid_argument("hitting_set_lagrangian_bound: an empty set can never be hit");
    if (r >= sets.size() && inequalities[r - sets.size()].coefficients.size() != row.size())
      throw std::invalid_argument("hitting_set_lagrangian_bound: one coefficient per element of an inequality");
    for (const std::uint32_t e : row)
      if (e >= n) throw std::invalid_argument("hitting_set_lagrangian_bound: element out of range");
    const double y = multipliers[r];
    if (!(y >= 0.0) || !std::isfinite(y)) throw std::invalid_argument("hitting_set_lagrangian_bound: multipliers must be finite and >= 0");
    if (row.empty()) continue;
    for (std::size_t j = 0; j < row.size(); ++j) load[row[j]] += coefficient(r, j) * y;
    terms += row.size() + 1;
    const std::uint32_t b = block[row.front()];
    if (std::all_of(row.begin(), row.end(), [&](std::uint32_t e) { return block[e] == b; })) {
      own[b].push_back(r);
      continue;
    }
    value += rhs(r) * y;
    std::uint32_t low = b, high = b;
    for (std::size_t j = 0; j < row.size(); ++j) {
      cost[row[j]] -= coefficient(r, j) * y;
      low = std::min(low, block[row[j]]);
      high = std::max(high, block[row[j]]);
    }
    if (high == low + 1) pair_rows[low].push_back(r);
  }
  std::vector<std::vector<std::uint32_t>> members(blocks);
  for (std::uint32_t e = 0; e < n; ++e) members[block[e]].push_back(e);
  const std::vector<bool> implied = implied_sets(n, sets);
  HittingSetLagrangianBound out;
  out.chosen.assign(n, false);
  for (std::uint32_t e = 0; e < n; ++e) out.chosen[e] = cost[e] <= 0.0;
  // The weighted minimum of a group of elements (a block, or a pair of
  // blocks) over its own rows with `seconds` for GLPK: its value, whether
  // GLPK proved it (or nothing was left to solve), whether GLPK ran, its time
  // in GLPK, the elements GLPK chose.
  struct BlockMinimum {
    double value = 0.0;
    bool exact = false;
    bool solved = false;
    double seconds = 0.0;
    std::vector<std::uint32_t> chosen;
  };
  std::vector<std::uint32_t> column(n, UINT32_MAX);  // (all UINT32_MAX between blocks)
  const auto group_minimum = [&](const std::vector<std::uint32_t>& group, const std::vector<std::size_t>& group_rows,
                                  double seconds) {
    BlockMinimum result;
    // Elements of c_e <= 0 are taken; the own sets they hit are done.
    double taken = 0.0, fallback = 0.0;
    for (const std::uint32_t e : group) {
      if (cost[e] <= 0.0) taken += cost[e];
      fallback -= std::max(0.0, load[e] - 1.0);
    }
    for (const std::size_t r : group_rows) fallback += rhs(r) * multipliers[r];
    result.value = fallback;
    // Rows still open once the elements of c_e <= 0 are taken: sets they
    // miss; every own inequality (its right-hand side lowered by what they give).
    std::vector<std::size_t> open;
    for (const std::size_t r : group_rows) {
      if (r < sets.size() && implied[r]) continue;  // its subset, an own set too, is the row
      if (r >= sets.size() || std::none_of(sets[r].begin(), sets[r].end(), [&](std::uint32_t e) { return cost[e] <= 0.0; }))
        open.push_back(r);
    }
    if (open.empty()) {
      result.value = std::max(result.value, taken);
      result.exact = true;
      return result;
    }
    if (std::chrono::steady_clock::now() >= deadline) return result;
    lp::Model model;
    std::vector<lp::Var> x;
    std::vector<std::uint32_t> used;
    lp::LinExpr objective;
    bool empty_row = false;  // a row no untaken element can meet: only the fallback
    for (const std::size_t r : open) {
      lp::LinExpr row;
      bool any = false;
      double need = rhs(r);
      const auto& members_of_row = elements(r);
      for (std::size_t j = 0; j < members_of_row.size(); ++j) {
        const std::uint32_t e = members_of_row[j];
        if (cost[e] <= 0.0) {
          need -= coefficient(r, j);
          continue;
        }
        if (column[e] == UINT32_MAX) {
          column[e] = static_cast<std::uint32_t>(x.size());
          x.push_back(model.add_binary());
          used.push_back(e);
          objective += cost[e] * lp::LinExpr(x.back());
        }
        row += coefficient(r, j) * lp::LinExpr(x[column[e]]);
        any = true;
      }
      if (need > 0.0 && any) (void)model.add(row >= need);
      empty_row = empty_row || (need > 0.0 && !any);
    }
    for (const std::uint32_t e : used) column[e] = UINT32_MAX;
    if (empty_row) return result;
    if (x.empty()) {
      result.value = std::max(result.value, taken);
      result.exact = true;
      return result;
    }
    model.minimize(objective);
    lp::GlpkOptions options;
    options.time_limit_seconds = std::min(seconds, std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count());
    options.cuts = false;  // (see the file comment)
    options.polish = false;
    const lp::Solution s = lp::GlpkSolver(options).solve(model);
    result.solved = true;
    result.seconds = s.seconds;
    double glpk = std::nan("");
    if (s.status == lp::SolveStatus::optimal) {
      glpk = s.objective;
      result.exact = true;
    } else if (s.has_solution() || s.status == lp::SolveStatus::no_solution) {
      glpk = s.best_bound;  // not finished: the bound of its open nodes
    }
    if (s.has_solution())
      for (std::size_t j = 0; j < used.size(); ++j)
        if (s.values[x[j].index()] > 0.5) result.chosen.push_back(used[j]);
    if (std::isfinite(glpk))
      result.value = std::max(result.value, taken + glpk - 1e-7 * (1.0 + std::abs(glpk)) - 1e-9 * static_cast<double>(x.size()));
    return result;
  };
  const auto block_minimum = [&](std::uint32_t b, double seconds) { return group_minimum(members[b], own[b], seconds); };
  std::vector<BlockMinimum> minimum(blocks);  // (value 0 for a block without members or own rows)
  std::vector<std::uint32_t> unfinished;     // blocks GLPK ran on and did not prove
  for (std::uint32_t b = 0; b < blocks; ++b) {
    if (own[b].empty() && members[b].empty()) continue;
    minimum[b] = block_minimum(b, block_seconds);
    out.seconds += minimum[b].seconds;
    if (minimum[b].solved && !minimum[b].exact) unfinished.push_back(b);
  }
  // The time left before `deadline`, shared among the unfinished blocks, when
  // that gives each of them more than 1.5 times `block_seconds`: each solved
  // again from the start, the better of its two values kept.
  for (std::size_t i = 0; i < unfinished.size() && options.solve_unfinished_again; ++i) {
    const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    const double share = left / static_cast<double>(unfinished.size() - i);
    if (!(share > 1.5 * block_seconds)) break;
    const std::uint32_t b = unfinished[i];
    BlockMinimum again = block_minimum(b, share);
    out.seconds += again.seconds;
    ++out.second_tries;
    if (again.value > minimum[b].value || (again.exact && !minimum[b].exact)) {
      again.value = std::max(again.value, minimum[b].value);
      if (again.chosen.empty()) again.chosen = std::move(minimum[b].chosen);
      minimum[b] = std::move(again);
    }
  }
  for (std::uint32_t b = 0; b < blocks; ++b) {
    value += minimum[b].value;
    if (own[b].empty()) continue;
    ++out.blocks;
    out.exact_blocks += minimum[b].exact ? 1 : 0;
    for (const std::uint32_t e : minimum[b].chosen) out.chosen[e] = true;
  }
  const auto margin_of = [&](double v) { return 1e-6 + 1e-12 * static_cast<double>(terms) * std::max(1.0, std::abs(v)); };
  // Pairs of adjacent blocks solved as one in the time left (see the file comment).
  if (options.pair_seconds > 0.0 && blocks > 1) {
    // A pair whose blocks' minimisers side by side meet each row across them, exactly where
    // the row is priced (complementary slackness), gains nothing: that point costs the pair
    // its blocks' minima plus the priced rows' value, the least it can cost. Not solved.
    const auto gains_nothing = [&](std::uint32_t b) {
      for (const std::size_t r : pair_rows[b]) {
        const auto& row = elements(r);
        double met = 0.0;
        for (std::size_t j = 0; j < row.size(); ++j) met += out.chosen[row[j]] ? coefficient(r, j) : 0.0;
        if (met < rhs(r) - 1e-9 || (multipliers[r] > 0.0 && met > rhs(r) + 1e-9)) return false;
      }
      return true;
    };
    std::vector<std::uint32_t> pairs;  // by first block: pairs that rows join, of blocks GLPK proved
    for (std::uint32_t b = 0; b + 1 < blocks; ++b)
      if (!pair_rows[b].empty() && minimum[b].exact && minimum[b + 1].exact && !gains_nothing(b)) pairs.push_back(b);
    std::stable_sort(pairs.begin(), pairs.end(), [&](std::uint32_t a, std::uint32_t c) {
      return minimum[a].seconds + minimum[a + 1].seconds < minimum[c].seconds + minimum[c + 1].seconds;
    });
    std::vector<bool> in_pair(blocks, false);
    std::vector<std::uint32_t> group;
    std::vector<std::size_t> group_rows;
    std::vector<double> saved;  // the group's costs with the pair's rows priced
    for (const std::uint32_t b : pairs) {
      if (std::ceil(value - margin_of(value)) >= options.enough) break;
      const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
      if (!(left > 0.0)) break;
      if (in_pair[b] || in_pair[b + 1]) continue;
      group = members[b];
      group.insert(group.end(), members[b + 1].begin(), members[b + 1].end());
      group_rows = own[b];
      group_rows.insert(group_rows.end(), own[b + 1].begin(), own[b + 1].end());
      group_rows.insert(group_rows.end(), pair_rows[b].begin(), pair_rows[b].end());
      // The pair's rows are its own now: not priced (the costs put back afterwards exactly).
      saved.clear();
      for (const std::uint32_t e : group) saved.push_back(cost[e]);
      double priced = 0.0;
      for (const std::size_t r : pair_rows[b]) {
        priced += rhs(r) * multipliers[r];
        const auto& row = elements(r);
        for (std::size_t j = 0; j < row.size(); ++j) cost[row[j]] += coefficient(r, j) * multipliers[r];
      }
      const BlockMinimum pair = group_minimum(group, group_rows, std::min(left, options.pair_seconds));
      std::vector<std::uint32_t> taken;  // elements of c_e <= 0 for the pair
      for (const std::uint32_t e : group)
        if (cost[e] <= 0.0) taken.push_back(e);
      for (std::size_t i = 0; i < group.size(); ++i) cost[group[i]] = saved[i];
      ++out.pair_tries;
      out.seconds += pair.seconds;
      const double gain = pair.value - minimum[b].value - minimum[b + 1].value - priced;
      if (!(gain > 0.0)) continue;
      in_pair[b] = in_pair[b + 1] = true;
      ++out.merged_pairs;
      value += gain;
      for (const std::uint32_t e : group) out.chosen[e] = false;
      for (const std::uint32_t e : taken) out.chosen[e] = true;
      for (const std::uint32_t e : pair.chosen) out.chosen[e] = true;
    }
  }
  const double margin = margin_of(value);
  out.certified = std::max(0.0, value - margin);
  out.bound = std::ceil(out.certified);
  return out;
}

}  // namespace kildall::noisy
