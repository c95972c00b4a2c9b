#pragma once
/// \file
/// Optimal `reduce_noise` placement at scale: a lazy-constraint
/// (combinatorial Benders) method whose separation oracle is kildall's noise
/// analysis, with GLPK solving small set-covering models.
///
/// Instead of the article's model (a noise variable and big-M rows per op),
/// the master problem only has a binary per reducible op and cover cuts
/// (`cover_cuts.hpp`): "at least one op of S is reduced", each certified to
/// hold for every legal placement. The loop:
///   1. greedy placement, improved by `drop_redundant_reductions`: the first
///      legal placement (the incumbent), in milliseconds;
///   2. the noise analysis of the master's placement `R` (at first: none);
///      every violation gives a certified cut from its critical cone; the
///      placement repaired and pruned (`local_search.hpp`) may improve the
///      incumbent;
///   3. the master: minimum number of reductions hitting every cut. Ops with a
///      one-op cut are fixed; the remaining cuts split into independent parts
///      (connected components of ops sharing cuts), each solved on its own
///      (tiny ones by enumeration, the rest by GLPK within the time left) and
///      cached until a new cut touches it;
///   4. the master's optimum is a lower bound of the true optimum (every legal
///      placement satisfies every cut); if it reaches the incumbent's count,
///      or the master's placement is legal, the placement is proven optimal.
///      Else back to 2.
/// "optimal" is reported only in those two proven cases; when the time limit
/// (honoured up to one GLPK call's granularity) or the round limit hits, the
/// result is the incumbent with the best bound and its relative gap. Every
/// returned placement has been verified by the noise analysis.
///
/// Works on any `NoisyProgram`; the local search needs an acyclic def-use
/// graph (with loops the incumbent is the greedy placement and the repaired
/// master placements are skipped). Needs the `kildall::glpk` (GPL) target.

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <unordered_map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <kildall/lp/glpk.hpp>
#include <kildall/lp/model.hpp>
#include <kildall/noisy/cover_cuts.hpp>
#include <kildall/noisy/greedy.hpp>
#include <kildall/noisy/local_search.hpp>
#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/placement.hpp>
#include <kildall/noisy/program_concept.hpp>
#include <kildall/noisy/verify.hpp>

namespace kildall::noisy {

/// How a placement search ended.
enum class PlacementStatus : std::uint8_t {
  optimal,   ///< proven to insert the fewest reduce_noise ops
  feasible,  ///< legal, not proven optimal: see `best_bound` and `gap`
};

/// "optimal" or "feasible".
[[nodiscard]] constexpr const char* to_string(PlacementStatus status) noexcept {
  return status == PlacementStatus::optimal ? "optimal" : "feasible";
}

/// A progress report of `place_reduce_noise_lazy`.
struct LazyProgress {
  std::size_t round = 0;          ///< Master/oracle rounds so far.
  std::size_t incumbent = 0;      ///< Reductions of the best legal placement.
  double bound = 0.0;             ///< Best proven lower bound.
  std::size_t cuts = 0;           ///< Cover cuts so far.
  double elapsed_seconds = 0.0;   ///< Since the call started.
};

/// Options of `place_reduce_noise_lazy`.
struct LazyPlacementOptions {
  /// Wall-clock limit, seconds (checked between steps and handed to GLPK).
  double time_limit_seconds = 60.0;
  /// Stop when (incumbent - bound) / incumbent <= this (0: prove optimality).
  double relative_gap = 0.0;
  /// Most master/oracle rounds.
  std::size_t max_rounds = 100000;
  /// Improve placements by `repair_placement` + `drop_redundant_reductions` (acyclic programs).
  bool local_search = true;
  /// Solve independent parts of the master separately (else one model).
  bool decompose = true;
  /// Master parts with at most this many ops are solved by enumeration.
  std::size_t enumerate_up_to = 12;
  /// Derive two cuts per violation (pruned towards and away from the violating
  /// op). Off by default: on the random DAGs it changed neither the
  /// rounds nor the time (docs/performance.md).
  bool two_cuts_per_violation = false;
  /// Largest layer of the master's frontier dynamic program (0: GLPK only).
  std::size_t frontier_states = 1u << 15;
  /// Called after every round.
  std::function<void(const LazyProgress&)> progress;
};

/// Counters of a `place_reduce_noise_lazy` run.
struct LazyStatistics {
  std::size_t reducible_ops = 0;       ///< add/sub/mul ops of the program.
  std::size_t binaries = 0;            ///< Ops appearing in some cut (the master's binaries).
  std::size_t fixed = 0;               ///< Ops fixed by one-op cuts.
  std::size_t cuts = 0;                ///< Cover cuts (the master's rows).
  std::size_t rounds = 0;              ///< Master/oracle rounds.
  std::size_t parts = 0;               ///< Independent parts of the last master.
  std::size_t largest_part = 0;        ///< Ops of its largest part.
  std::size_t mip_solves = 0;          ///< GLPK solves.
  std::size_t dp_solves = 0;           ///< Master parts solved by the frontier dynamic program.
  double seconds_first_legal = 0.0;    ///< Time to the first legal placement (greedy).
  double seconds_optimal = std::numeric_limits<double>::quiet_NaN();  ///< Time to the proof (NaN if none).
  double seconds_in_glpk = 0.0;        ///< Time spent in GLPK.
  double seconds = 0.0;                ///< Whole call.
};

/// The result of `place_reduce_noise_lazy`.
template <class V>
struct LazyPlacement {
  std::vector<V> reduce_after;        ///< The ops after which to insert reduce_noise, in vertex order (legal).
  PlacementStatus status = PlacementStatus::feasible;  ///< Proven optimal or not.
  double best_bound = 0.0;            ///< Proven lower bound of the fewest reductions of any legal placement.
  double gap = 0.0;                   ///< (inserted - best_bound) / inserted (0 when optimal or nothing inserted).
  std::size_t greedy_count = 0;       ///< Reductions of the greedy placement.
  LazyStatistics statistics;          ///< Counters and timings.
  std::string message;                ///< Why the search stopped.
};

namespace detail {

// The master problem: minimum hitting set of the cover cuts, by parts.
class CoverMaster {
 public:
  struct Result {
    std::vector<std::uint32_t> chosen;  // ops of the master's placement
    double bound = 0.0;                 // proven lower bound of the master's optimum
    bool optimal = true;                // every part solved to optimality
  };

  // `key[v]`: the position of op `v` in program order (the DP's order).
  CoverMaster(std::size_t n, std::vector<std::uint32_t> key) : n_(n), key_(std::move(key)), parent_(n), fixed_(n, false) {}

  // Adds a cut unless an equal one is known; true if new.
  bool add(const CoverCut& cut) {
    if (!known_.insert(cut.ops).second) return false;
    cuts_.push_back(cut.ops);
    return true;
  }
  [[nodiscard]] std::size_t cuts() const noexcept { return cuts_.size(); }
  [[nodiscard]] std::size_t fixed_count() const noexcept { return fixed_count_; }
  [[nodiscard]] std::size_t binaries() const {
    std::vector<bool> seen(n_, false);
    std::size_t count = 0;
    for (const auto& c : cuts_)
      for (const std::uint32_t v : c)
        if (!seen[v]) {
          seen[v] = true;
          ++count;
        }
    return count;
  }

  // Solves the master within `deadline` (GLPK time limits are per call).
  Result solve(std::chrono::steady_clock::time_point deadline, const LazyPlacementOptions& options,
               const std::vector<bool>& incumbent, LazyStatistics& stats) {
    Result out;
    // Fixed ops: one-op cuts.
    for (const auto& c : cuts_)
      if (c.size() == 1 && !fixed_[c.front()]) {
        fixed_[c.front()] = true;
        ++fixed_count_;
      }
    // Union-find over the other cuts' ops.
    std::iota(parent_.begin(), parent_.end(), 0u);
    std::vector<std::uint32_t> open;
    for (std::uint32_t k = 0; k < cuts_.size(); ++k) {
      const auto& c = cuts_[k];
      if (std::any_of(c.begin(), c.end(), [&](std::uint32_t v) { return fixed_[v]; })) continue;
      open.push_back(k);
      for (std::size_t j = 1; j < c.size(); ++j) unite(c.front(), c[j]);
    }
    std::map<std::uint32_t, std::vector<std::uint32_t>> parts;  // root -> cut ids
    if (options.decompose) {
      for (const std::uint32_t k : open) parts[find(cuts_[k].front())].push_back(k);
    } else if (!open.empty()) {
      parts[0] = open;
    }
    for (std::uint32_t v = 0; v < n_; ++v)
      if (fixed_[v]) out.chosen.push_back(v);
    out.bound = static_cast<double>(fixed_count_);
    stats.parts = parts.size();
    stats.largest_part = 0;
    for (auto& [root, ids] : parts) {
      (void)root;
      Part part = solve_part(ids, deadline, options, incumbent, stats);
      out.chosen.insert(out.chosen.end(), part.chosen.begin(), part.chosen.end());
      out.bound += part.bound;
      out.optimal = out.optimal && part.optimal;
    }
    return out;
  }

 private:
  struct Part {
    std::vector<std::uint32_t> chosen;
    double bound = 0.0;
    bool optimal = false;
  };

  std::uint32_t find(std::uint32_t v) {
    while (parent_[v] != v) {
      parent_[v] = parent_[parent_[v]];
      v = parent_[v];
    }
    return v;
  }
  void unite(std::uint32_t a, std::uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

  // A lower bound of a part without solving it: pairwise disjoint cuts, greedily.
  [[nodiscard]] double packing_bound(const std::vector<std::uint32_t>& ids) const {
    std::vector<std::uint32_t> order = ids;
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return cuts_[a].size() < cuts_[b].size(); });
    std::set<std::uint32_t> used;
    double count = 0.0;
    for (const std::uint32_t k : order) {
      const auto& c = cuts_[k];
      if (std::any_of(c.begin(), c.end(), [&](std::uint32_t v) { return used.count(v) != 0; })) continue;
      used.insert(c.begin(), c.end());
      count += 1.0;
    }
    return count;
  }

  Part solve_part(const std::vector<std::uint32_t>& ids, std::chrono::steady_clock::time_point deadline,
                  const LazyPlacementOptions& options, const std::vector<bool>& incumbent, LazyStatistics& stats) {
    if (auto it = cache_.find(ids); it != cache_.end()) {
      stats.largest_part = std::max(stats.largest_part, it->second.size);
      return it->second.part;
    }
    std::vector<std::uint32_t> ops;
    for (const std::uint32_t k : ids) ops.insert(ops.end(), cuts_[k].begin(), cuts_[k].end());
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    stats.largest_part = std::max(stats.largest_part, ops.size());
    Part part;
    if (ids.size() == 1) {
      // One cut: any one op; prefer one the incumbent reduces.
      const auto& c = cuts_[ids.front()];
      auto pick = std::find_if(c.begin(), c.end(), [&](std::uint32_t v) { return incumbent[v]; });
      part.chosen.push_back(pick != c.end() ? *pick : c.back());
      part.bound = 1.0;
      part.optimal = true;
    } else if (ops.size() <= options.enumerate_up_to) {
      part = enumerate(ids, ops);
    } else if (auto exact = options.frontier_states > 0 ? frontier_dp(ids, ops, options.frontier_states) : std::nullopt) {
      ++stats.dp_solves;
      part = std::move(*exact);
    } else {
      part = glpk(ids, ops, deadline, incumbent, stats);
    }
    if (part.optimal) cache_[ids] = Cached{part, ops.size()};
    return part;
  }

  // Minimum hitting set by dynamic programming along the program order: ops
  // in topological order; a state is the set of started, not yet hit cuts (a
  // bit per open cut, at most 256 open at once); a cut whose last op has
  // passed must be hit. Exact; nullopt when the frontier is too wide (more
  // than 256 open cuts, more than `max_states` states in a layer, or more than
  // 64 MiB of states and back pointers in all).
  std::optional<Part> frontier_dp(const std::vector<std::uint32_t>& ids, const std::vector<std::uint32_t>& ops,
                                  std::size_t max_states) const {
    std::vector<std::uint32_t> order = dp_order(ids, ops);
    const std::size_t width = frontier_width(ids, ops, order);
    if (width <= 64) return frontier_dp_words<1>(ids, ops, order, max_states);
    if (width <= 128) return frontier_dp_words<2>(ids, ops, order, max_states);
    if (width <= 256) return frontier_dp_words<4>(ids, ops, order, max_states);
    return std::nullopt;
  }

  // The DP with a mask of `Words` 64-bit words (a bit per open cut).
  template <std::size_t Words>
  std::optional<Part> frontier_dp_words(const std::vector<std::uint32_t>& ids, const std::vector<std::uint32_t>& ops,
                                        const std::vector<std::uint32_t>& order, std::size_t max_states) const {
    using Mask = std::array<std::uint64_t, Words>;
    struct MaskHash {
      std::size_t operator()(const Mask& x) const noexcept {
        std::uint64_t h = 0x9e3779b97f4a7c15ull;
        for (const std::uint64_t w : x) h = (h ^ w) * 0xff51afd7ed558ccdull;
        return static_cast<std::size_t>(h ^ (h >> 33));
      }
    };
    const auto set_bit = [](Mask& x, std::size_t b) { x[b / 64] |= std::uint64_t{1} << (b % 64); };
    const std::size_t m = order.size();
    std::vector<std::uint32_t> rank(m);
    const auto rank_of = [&](std::uint32_t v) {
      return static_cast<std::size_t>(std::lower_bound(ops.begin(), ops.end(), v) - ops.begin());
    };
    for (std::size_t i = 0; i < m; ++i) rank[rank_of(order[i])] = static_cast<std::uint32_t>(i);
    std::vector<std::vector<std::uint32_t>> opening(m), closing(m), containing(m);
    for (const std::uint32_t k : ids) {
      std::uint32_t first = static_cast<std::uint32_t>(m), last = 0;
      for (const std::uint32_t v : cuts_[k]) {
        const std::uint32_t r = rank[rank_of(v)];
        first = std::min(first, r);
        last = std::max(last, r);
        containing[r].push_back(k);
      }
      opening[first].push_back(k);
      closing[last].push_back(k);
    }
    struct Entry {
      Mask mask;             // started cuts not yet hit
      std::uint32_t cost;    // ops taken so far
      std::uint32_t parent;  // index in the previous layer; top bit: this op taken
    };
    constexpr std::uint32_t taken = std::uint32_t{1} << 31;
    std::vector<std::vector<Entry>> layers;
    layers.reserve(m + 1);
    layers.push_back({Entry{Mask{}, 0, 0}});
    std::map<std::uint32_t, std::size_t> slot;  // cut id -> bit
    std::vector<bool> used(Words * 64, false);
    std::size_t stored = 1;
    std::unordered_map<Mask, std::uint32_t, MaskHash> index;
    for (std::size_t i = 0; i < m; ++i) {
      Mask opened{}, hits{}, closes{};
      for (const std::uint32_t k : opening[i]) {
        const auto free = std::find(used.begin(), used.end(), false);
        if (free == used.end()) return std::nullopt;  // (frontier_width rules this out)
        const auto b = static_cast<std::size_t>(free - used.begin());
        used[b] = true;
        slot[k] = b;
        set_bit(opened, b);
      }
      for (const std::uint32_t k : containing[i]) set_bit(hits, slot.at(k));
      for (const std::uint32_t k : closing[i]) set_bit(closes, slot.at(k));
      const std::vector<Entry>& previous = layers.back();
      std::vector<Entry> next;
      index.clear();
      const auto offer = [&](const Mask& mask, std::uint32_t cost, std::uint32_t parent) {
        for (std::size_t w = 0; w < Words; ++w)
          if ((mask[w] & closes[w]) != 0) return;  // a closing cut left unhit
        auto [it, fresh] = index.try_emplace(mask, static_cast<std::uint32_t>(next.size()));
        if (fresh) next.push_back(Entry{mask, cost, parent});
        else if (cost < next[it->second].cost) next[it->second] = Entry{mask, cost, parent};
      };
      for (std::uint32_t p = 0; p < previous.size(); ++p) {
        Mask skip = previous[p].mask, take = previous[p].mask;
        for (std::size_t w = 0; w < Words; ++w) {
          skip[w] |= opened[w];
          take[w] = skip[w] & ~hits[w];
        }
        offer(skip, previous[p].cost, p);
        offer(take, previous[p].cost + 1, p | taken);
      }
      for (const std::uint32_t k : closing[i]) {
        used[slot.at(k)] = false;
        slot.erase(k);
      }
      stored += next.size();
      if (next.empty() || next.size() > std::min<std::size_t>(max_states, taken) || stored * sizeof(Entry) > (std::size_t{64} << 20))
        return std::nullopt;
      layers.push_back(std::move(next));
    }
    // Every cut has closed: the states left have an empty mask; take the cheapest.
    const std::vector<Entry>& last = layers.back();
    std::uint32_t best = 0;
    for (std::uint32_t p = 1; p < last.size(); ++p)
      if (last[p].cost < last[best].cost) best = p;
    Part part;
    part.bound = static_cast<double>(last[best].cost);
    part.optimal = true;
    std::uint32_t at = best;
    for (std::size_t i = m; i > 0; --i) {
      const Entry& e = layers[i][at];
      if ((e.parent & taken) != 0) part.chosen.push_back(order[i - 1]);
      at = e.parent & ~taken;
    }
    return part;
  }

  // Most cuts open at once when the ops are taken in `order`.
  [[nodiscard]] std::size_t frontier_width(const std::vector<std::uint32_t>& ids, const std::vector<std::uint32_t>& ops,
                                           const std::vector<std::uint32_t>& order) const {
    std::vector<std::uint32_t> at(ops.size());
    for (std::size_t i = 0; i < order.size(); ++i)
      at[static_cast<std::size_t>(std::lower_bound(ops.begin(), ops.end(), order[i]) - ops.begin())] = static_cast<std::uint32_t>(i);
    std::vector<int> delta(order.size() + 1, 0);
    for (const std::uint32_t k : ids) {
      std::uint32_t first = static_cast<std::uint32_t>(order.size()), last = 0;
      for (const std::uint32_t v : cuts_[k]) {
        const std::uint32_t r = at[static_cast<std::size_t>(std::lower_bound(ops.begin(), ops.end(), v) - ops.begin())];
        first = std::min(first, r);
        last = std::max(last, r);
      }
      ++delta[first];
      --delta[last + 1];
    }
    int open = 0, widest = 0;
    for (const int d : delta) widest = std::max(widest, open += d);
    return static_cast<std::size_t>(widest);
  }

  // The DP's order of `ops`: program order, or a breadth-first order of the
  // ops sharing cuts (Cuthill-McKee style), whichever keeps fewer cuts open.
  [[nodiscard]] std::vector<std::uint32_t> dp_order(const std::vector<std::uint32_t>& ids,
                                                    const std::vector<std::uint32_t>& ops) const {
    std::vector<std::uint32_t> by_position = ops;
    std::sort(by_position.begin(), by_position.end(), [&](std::uint32_t a, std::uint32_t b) { return key_[a] < key_[b]; });
    const auto local = [&](std::uint32_t v) {
      return static_cast<std::size_t>(std::lower_bound(ops.begin(), ops.end(), v) - ops.begin());
    };
    std::vector<std::vector<std::uint32_t>> cuts_of(ops.size());
    for (const std::uint32_t k : ids)
      for (const std::uint32_t v : cuts_[k]) cuts_of[local(v)].push_back(k);
    std::vector<std::uint32_t> bfs;
    bfs.reserve(ops.size());
    std::vector<bool> seen(ops.size(), false);
    std::vector<std::uint32_t> next;
    for (const std::uint32_t root : by_position) {
      if (seen[local(root)]) continue;
      seen[local(root)] = true;
      std::size_t head = bfs.size();
      bfs.push_back(root);
      while (head < bfs.size()) {
        const std::uint32_t v = bfs[head++];
        next.clear();
        for (const std::uint32_t k : cuts_of[local(v)])
          for (const std::uint32_t w : cuts_[k])
            if (!seen[local(w)]) {
              seen[local(w)] = true;
              next.push_back(w);
            }
        std::sort(next.begin(), next.end(), [&](std::uint32_t a, std::uint32_t b) { return key_[a] < key_[b]; });
        bfs.insert(bfs.end(), next.begin(), next.end());
      }
    }
    return frontier_width(ids, ops, bfs) < frontier_width(ids, ops, by_position) ? bfs : by_position;
  }

  // Minimum hitting set by enumeration over all subsets of `ops` (<= 20 ops).
  Part enumerate(const std::vector<std::uint32_t>& ids, const std::vector<std::uint32_t>& ops) const {
    std::vector<std::uint32_t> masks;
    for (const std::uint32_t k : ids) {
      std::uint32_t m = 0;
      for (const std::uint32_t v : cuts_[k])
        m |= std::uint32_t{1} << (std::lower_bound(ops.begin(), ops.end(), v) - ops.begin());
      masks.push_back(m);
    }
    std::uint32_t best = (std::uint32_t{1} << ops.size()) - 1;
    int best_count = std::popcount(best);
    for (std::uint32_t s = 0; s < (std::uint32_t{1} << ops.size()); ++s) {
      const int count = std::popcount(s);
      if (count >= best_count) continue;
      if (std::all_of(masks.begin(), masks.end(), [s](std::uint32_t m) { return (m & s) != 0; })) {
        best = s;
        best_count = count;
      }
    }
    Part part;
    for (std::size_t j = 0; j < ops.size(); ++j)
      if (best >> j & 1u) part.chosen.push_back(ops[j]);
    part.bound = static_cast<double>(best_count);
    part.optimal = true;
    return part;
  }

  Part glpk(const std::vector<std::uint32_t>& ids, const std::vector<std::uint32_t>& ops,
            std::chrono::steady_clock::time_point deadline, const std::vector<bool>& incumbent, LazyStatistics& stats) {
    Part part;
    double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    // One hard part must not starve the others (nor the next rounds): at most
    // a quarter of the time left (at least a second) per call.
    const double budget = std::min(left, std::max(1.0, 0.25 * left));
    if (left <= 0.0) {
      part.bound = packing_bound(ids);
      part.chosen = greedy_cover(ids, incumbent);
      return part;
    }
    lp::Model model;
    std::vector<lp::Var> x;
    x.reserve(ops.size());
    for (std::size_t j = 0; j < ops.size(); ++j) x.push_back(model.add_binary());
    lp::LinExpr total;
    for (const lp::Var& v : x) total += lp::LinExpr(v);
    for (const std::uint32_t k : ids) {
      lp::LinExpr row;
      for (const std::uint32_t v : cuts_[k]) row += lp::LinExpr(x[static_cast<std::size_t>(std::lower_bound(ops.begin(), ops.end(), v) - ops.begin())]);
      (void)model.add(row >= 1.0);
    }
    model.minimize(total);
    lp::GlpkOptions glpk;
    glpk.time_limit_seconds = budget;
    glpk.polish = false;
    glpk.cuts = true;  // cover and clique cuts close set-covering gaps fast (measured: 20 s -> 0.1 s)
    glpk.mip_gap_abs = 0.999;  // integer objective: a gap below 1 proves optimality
    const lp::Solution s = lp::GlpkSolver(glpk).solve(model);
    ++stats.mip_solves;
    stats.seconds_in_glpk += s.seconds;
    const double packing = packing_bound(ids);
    if (!s.has_solution()) {
      part.bound = std::max(packing, std::isnan(s.best_bound) ? 0.0 : std::ceil(s.best_bound - 1e-6));
      part.chosen = greedy_cover(ids, incumbent);
      return part;
    }
    for (std::size_t j = 0; j < ops.size(); ++j)
      if (s.values[x[j].index()] > 0.5) part.chosen.push_back(ops[j]);
    const double count = static_cast<double>(part.chosen.size());
    const double glpk_bound = std::isnan(s.best_bound) ? 0.0 : std::ceil(s.best_bound - 1e-6);
    part.optimal = s.status == lp::SolveStatus::optimal || glpk_bound >= count;
    part.bound = part.optimal ? count : std::max(packing, glpk_bound);
    return part;
  }

  // A cover of the cuts (not minimum): the incumbent's ops first, then greedily.
  [[nodiscard]] std::vector<std::uint32_t> greedy_cover(const std::vector<std::uint32_t>& ids,
                                                        const std::vector<bool>& incumbent) const {
    std::set<std::uint32_t> chosen;
    for (const std::uint32_t k : ids) {
      const auto& c = cuts_[k];
      if (std::any_of(c.begin(), c.end(), [&](std::uint32_t v) { return chosen.count(v) != 0; })) continue;
      auto pick = std::find_if(c.begin(), c.end(), [&](std::uint32_t v) { return incumbent[v]; });
      chosen.insert(pick != c.end() ? *pick : c.back());
    }
    return {chosen.begin(), chosen.end()};
  }

  struct Cached {
    Part part;
    std::size_t size = 0;
  };

  std::size_t n_;
  std::vector<std::uint32_t> key_;
  std::vector<std::uint32_t> parent_;
  std::vector<bool> fixed_;
  std::size_t fixed_count_ = 0;
  std::vector<std::vector<std::uint32_t>> cuts_;
  std::set<std::vector<std::uint32_t>> known_;
  std::map<std::vector<std::uint32_t>, Cached> cache_;
};

}  // namespace detail

/// Places `reduce_noise` with the fewest insertions, by lazy cover cuts (see
/// the file comment). Throws `PlacementError` naming the op when no placement
/// can make the program legal. The result is always legal (verified by the
/// noise analysis) and never worse than the greedy placement; `status` is
/// `optimal` only when proven.
template <NoisyProgram G>
[[nodiscard]] LazyPlacement<vertex_t<G>> place_reduce_noise_lazy(const G& program, const NoiseParameters& parameters = {},
                                                                const LazyPlacementOptions& options = {}) {
  using clock = std::chrono::steady_clock;
  using V = vertex_t<G>;
  const auto start = clock::now();
  const bool limited = options.time_limit_seconds < 1e9;
  const auto deadline =
      limited ? start + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(std::max(0.0, options.time_limit_seconds)))
              : clock::time_point::max();
  const auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };

  LazyPlacement<V> out;
  const NoiseAnalysis<G> least = check_placement_possible(program, parameters);
  const std::size_t n = vertex_count(program);
  std::vector<V> vertices(n);
  for (const V& v : vertex_range(program)) vertices[vertex_index(program, v)] = v;
  const CompactNoisyProgram compact = compact_program(program);
  for (const NoisyOp k : compact.kind) out.statistics.reducible_ops += is_reducible(k) ? 1 : 0;

  // Verified legality of a mask, by the noise analysis.
  const auto analysis_of = [&](const std::vector<bool>& mask) {
    NoiseAnalysisOptions o;
    o.reduce_after = mask;
    return analyze_noise(program, parameters, std::move(o));
  };
  const auto count_of = [](const std::vector<bool>& mask) {
    return static_cast<std::size_t>(std::count(mask.begin(), mask.end(), true));
  };

  // 1. The incumbent: greedy, pruned.
  std::vector<bool> incumbent = placement_mask(program, detail::greedy_placement_after_check(program, parameters));
  out.greedy_count = count_of(incumbent);
  const bool local = options.local_search && compact.acyclic();
  if (local) {
    std::vector<bool> pruned = drop_redundant_reductions(compact, incumbent, parameters);
    if (count_of(pruned) < out.greedy_count && is_legal(analysis_of(pruned))) incumbent = std::move(pruned);
  }
  out.statistics.seconds_first_legal = elapsed();
  const auto offer = [&](std::vector<bool> candidate) {
    if (local) candidate = drop_redundant_reductions(compact, std::move(candidate), parameters);
    if (count_of(candidate) >= count_of(incumbent)) return;
    if (is_legal(analysis_of(candidate))) incumbent = std::move(candidate);
  };

  CoverCutSeparator separator(compact, noise_lower_bounds(least), parameters);
  std::vector<std::uint32_t> program_order(n);
  std::iota(program_order.begin(), program_order.end(), 0u);
  if (compact.acyclic()) program_order = compact.position;
  detail::CoverMaster master(n, std::move(program_order));
  std::vector<bool> placed(n, false);  // the master's placement
  double bound = 0.0;
  bool proven = false;
  bool master_optimal = false;  // the master's last solve was exact
  std::string why;
  std::vector<std::uint64_t> noise(n, 0);
  for (std::size_t round = 0;; ++round) {
    if (count_of(incumbent) == 0 || bound >= static_cast<double>(count_of(incumbent)) - 1e-9) {
      proven = true;
      why = count_of(incumbent) == 0 ? "no reduction needed" : "the lower bound meets the incumbent";
      break;
    }
    if (limited && clock::now() >= deadline) {
      why = "time limit";
      break;
    }
    if (round >= options.max_rounds) {
      why = "round limit";
      break;
    }
    const double current_gap = (static_cast<double>(count_of(incumbent)) - bound) / static_cast<double>(count_of(incumbent));
    if (options.relative_gap > 0.0 && current_gap <= options.relative_gap) {
      why = "relative gap reached";
      break;
    }
    out.statistics.rounds = round + 1;
    // 2. The oracle: analyse the master's placement (pointless reductions dropped).
    NoiseAnalysis<G> analysis = analysis_of(placed);
    bool dropped = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!placed[i]) continue;
      const auto own = noise_before_reduction(analysis, vertices[i]);
      if (own && own->umax() <= parameters.initial) {
        placed[i] = false;
        dropped = true;
      }
    }
    if (dropped) analysis = analysis_of(placed);
    const auto violations = find_noise_violations(analysis);
    if (violations.empty()) {
      // The master's optimum is legal: optimal if the master was solved exactly.
      offer(placed);
      if (master_optimal) {
        if (count_of(placed) <= count_of(incumbent)) incumbent = placed;
        bound = std::max(bound, static_cast<double>(count_of(incumbent)));
        proven = true;
        why = "the master's optimum is legal";
        break;
      }
      // Legal, but the master was not solved exactly (time budget): solve it again.
    }
    for (std::size_t i = 0; i < n; ++i) noise[i] = analysis.noise_bound(vertices[i]).value_or(0);
    std::size_t added = 0;
    for (const auto& violation : violations) {
      const auto u = static_cast<std::uint32_t>(vertex_index(program, violation.value));
      if (options.two_cuts_per_violation) {
        for (const CoverCut& cut : separator.separate_both_ways(u, noise, placed)) added += master.add(cut) ? 1 : 0;
      } else if (auto cut = separator.separate(u, noise, placed)) {
        added += master.add(*cut) ? 1 : 0;
      }
    }
    if (!violations.empty() && local) {
      if (auto repaired = repair_placement(compact, placed, parameters)) offer(std::move(*repaired));
    }
    if (added == 0 && !violations.empty()) {
      why = "no certified cut for the master's placement";
      break;
    }
    // 3. The master.
    auto result = master.solve(deadline, options, incumbent, out.statistics);
    master_optimal = result.optimal;
    bound = std::max(bound, result.bound);
    std::fill(placed.begin(), placed.end(), false);
    for (const std::uint32_t v : result.chosen) placed[v] = true;
    out.statistics.cuts = master.cuts();
    out.statistics.fixed = master.fixed_count();
    if (options.progress) {
      options.progress(LazyProgress{round + 1, count_of(incumbent), bound, master.cuts(), elapsed()});
    }
  }
  out.statistics.cuts = master.cuts();
  out.statistics.fixed = master.fixed_count();
  out.statistics.binaries = master.binaries();
  // The result: verified once more.
  if (!is_legal(analysis_of(incumbent))) {
    throw PlacementError(0, NoisyOp::plain, "internal error: the incumbent placement is not legal");
  }
  for (std::size_t i = 0; i < n; ++i)
    if (incumbent[i]) out.reduce_after.push_back(vertices[i]);
  const double inserted = static_cast<double>(out.reduce_after.size());
  out.best_bound = std::min(bound, inserted);
  out.status = proven ? PlacementStatus::optimal : PlacementStatus::feasible;
  if (proven) out.best_bound = inserted;
  out.gap = inserted > 0.0 ? (inserted - out.best_bound) / inserted : 0.0;
  out.message = why;
  out.statistics.seconds = elapsed();
  if (proven) out.statistics.seconds_optimal = out.statistics.seconds;
  return out;
}

}  // namespace kildall::noisy
