#pragma once
/// \file
/// Minimum hitting set (equivalently: minimum set cover of the transposed
/// family, Karp 1972): the fewest elements such that every set contains one.
/// It is the master problem of the lazy `reduce_noise` optimizer (elements:
/// reducible ops; sets: certified cover cuts), but nothing here knows noise.
///
/// Exact methods, by part:
///   - elements forced by one-element sets are taken;
///   - the other sets split into independent parts (connected components of
///     sets sharing elements; union-find, Tarjan 1975), each solved alone and
///     cached until its sets change;
///   - a part with one set: any one element; with at most `enumerate_up_to`
///     elements: enumeration of all subsets by size;
///   - otherwise a dynamic program along a linear order of the part's
///     elements whose state is the set of started, not yet hit sets (the
///     "frontier" of frontier-based search, Kawahara, Inoue, Iwashita and
///     Minato 2017; exact, linear in the part's size for a bounded frontier):
///     the order is the caller's (e.g. program order) or a breadth-first
///     Cuthill-McKee order (Cuthill and McKee 1969), whichever keeps fewer
///     sets open; at most 256 open sets and `frontier_states` states a layer;
///   - else the caller's `HardPartSolver` (the lazy optimizer passes GLPK),
///     or without one a greedy cover.
/// Lower bounds: every exact part gives its optimum; a part left to the
/// greedy cover gives a packing of pairwise disjoint sets (each needs its own
/// element). The result says whether every part was solved exactly.

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kildall::noisy {

/// Options of `HittingSetSolver::solve`.
struct HittingSetOptions {
  /// Solve independent parts separately (else one part).
  bool decompose = true;
  /// Parts with at most this many elements are solved by enumeration (at most 20).
  std::size_t enumerate_up_to = 12;
  /// Largest layer of the frontier dynamic program (0: never use it).
  std::size_t frontier_states = 1u << 15;
};

/// A minimum hitting set (or the best found) with its lower bound.
struct HittingSetResult {
  std::vector<std::uint32_t> chosen;  ///< The chosen elements, sorted; every set holds one.
  double bound = 0.0;                 ///< Proven lower bound of the minimum.
  bool optimal = false;               ///< True when `chosen` is proven minimum.
};

/// Counters of one `HittingSetSolver::solve`.
struct HittingSetStatistics {
  std::size_t parts = 0;         ///< Independent parts.
  std::size_t largest_part = 0;  ///< Elements of the largest part.
  std::size_t dp_solves = 0;     ///< Parts solved by the frontier dynamic program.
  std::size_t hard_solves = 0;   ///< Parts handed to the `HardPartSolver`.
};

/// One part handed to a `HardPartSolver`: its sets (sorted element lists) and
/// the sorted union of their elements.
struct HittingSetPart {
  std::vector<std::vector<std::uint32_t>> sets;  ///< The part's sets.
  std::vector<std::uint32_t> elements;           ///< Their elements, sorted.
};

/// A valid inequality of the hitting sets of a family: every hitting set `H`
/// (as its 0/1 vector `x`) has `sum_i coefficients[i] * x[elements[i]] >= rhs`
/// (a set of the family is the inequality with coefficients 1 and `rhs` 1;
/// `zero_half_cuts.hpp` derives stronger ones, `hitting_set_lp.hpp` bounds
/// with them).
struct HittingSetInequality {
  std::vector<std::uint32_t> elements;      ///< Distinct elements.
  std::vector<std::uint32_t> coefficients;  ///< One positive coefficient per element.
  std::uint32_t rhs = 1;                    ///< The right-hand side.
};

/// Solves a part the exact methods could not (within `deadline`; `hint[e]`:
/// elements to prefer); its result must hit every set of the part.
using HardPartSolver = std::function<HittingSetResult(const HittingSetPart& part,
                                                      std::chrono::steady_clock::time_point deadline,
                                                      const std::vector<bool>& hint)>;

/// Minimum hitting set of a growing family of sets over elements `0..n-1`
/// (see the file comment). Add sets with `add`, solve with `solve`; parts
/// whose sets did not change are not solved again.
class HittingSetSolver {
 public:
  /// Elements `0..n-1`; `order[e]`: the position of element `e` in the
  /// preferred order of the dynamic program (e.g. program order; empty: `e`).
  HittingSetSolver(std::size_t n, std::vector<std::uint32_t> order = {})
      : n_(n), key_(std::move(order)), parent_(n), fixed_(n, false) {
    if (key_.empty()) {
      key_.resize(n);
      std::iota(key_.begin(), key_.end(), 0u);
    }
    if (key_.size() != n) throw std::invalid_argument("HittingSetSolver: the order must have one position per element");
  }

  /// Adds a set (its elements, any order, duplicates ignored) unless an equal
  /// one is known; true if new. Throws `std::invalid_argument` for an empty
  /// set (it can never be hit) or an element `>= n`.
  bool add(std::vector<std::uint32_t> set) {
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    if (set.empty()) throw std::invalid_argument("HittingSetSolver: an empty set can never be hit");
    if (set.back() >= n_) throw std::invalid_argument("HittingSetSolver: element " + std::to_string(set.back()) +
                                                      " out of range (n = " + std::to_string(n_) + ")");
    if (!known_.insert(set).second) return false;
    cuts_.push_back(std::move(set));
    return true;
  }
  /// Number of distinct sets.
  [[nodiscard]] std::size_t sets() const noexcept { return cuts_.size(); }
  /// The sets, in the order added.
  [[nodiscard]] const std::vector<std::vector<std::uint32_t>>& all_sets() const noexcept { return cuts_; }
  /// Elements forced by one-element sets (as of the last `solve`).
  [[nodiscard]] std::size_t fixed_count() const noexcept { return fixed_count_; }
  /// Elements that appear in some set.
  [[nodiscard]] std::size_t elements_in_sets() const {
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

  /// A minimum hitting set of the sets added so far, with a proven lower
  /// bound. Parts too wide for enumeration and the DP go to `hard` (if set;
  /// else a greedy cover with the packing bound). `hint[e]` (may be empty):
  /// elements to prefer among equals (e.g. an incumbent). `deadline` is
  /// handed to `hard`.
  [[nodiscard]] HittingSetResult solve(const HittingSetOptions& options = {}, const std::vector<bool>& hint = {},
                                       const HardPartSolver& hard = {},
                                       std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max()) {
    std::vector<bool> incumbent = hint;
    incumbent.resize(n_, false);
    HittingSetStatistics& stats = statistics_;
    HittingSetResult out;
    out.optimal = true;  // until a part is not
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
    stats = HittingSetStatistics{};
    stats.parts = parts.size();
    for (auto& [root, ids] : parts) {
      (void)root;
      Part part = solve_part(ids, deadline, options, incumbent, stats, hard);
      out.chosen.insert(out.chosen.end(), part.chosen.begin(), part.chosen.end());
      out.bound += part.bound;
      out.optimal = out.optimal && part.optimal;
    }
    std::sort(out.chosen.begin(), out.chosen.end());
    return out;
  }

  /// Counters of the last `solve`.
  [[nodiscard]] const HittingSetStatistics& statistics() const noexcept { return statistics_; }

 private:
  using Part = HittingSetResult;

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
                  const HittingSetOptions& options, const std::vector<bool>& incumbent, HittingSetStatistics& stats,
                  const HardPartSolver& hard) {
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
    } else if (ops.size() <= std::min<std::size_t>(options.enumerate_up_to, 20)) {
      part = enumerate(ids, ops);
    } else if (auto exact = options.frontier_states > 0 ? frontier_dp(ids, ops, options.frontier_states) : std::nullopt) {
      ++stats.dp_solves;
      part = std::move(*exact);
    } else if (hard) {
      HittingSetPart hp;
      hp.elements = ops;
      for (const std::uint32_t k : ids) hp.sets.push_back(cuts_[k]);
      ++stats.hard_solves;
      part = hard(hp, deadline, incumbent);
      part.bound = std::max(part.bound, packing_bound(ids));
    } else {
      part.bound = packing_bound(ids);
      part.chosen = greedy_cover(ids, incumbent);
      part.optimal = part.bound >= static_cast<double>(part.chosen.size());
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
    // A layer's states: their masks (started cuts not yet hit) and costs (ops
    // taken so far) for the layer at hand only; every layer's back pointers
    // (index in the previous layer; top bit: this op taken) for the placement.
    constexpr std::uint32_t taken = std::uint32_t{1} << 31;
    // The memory cap counts what a state with its mask kept in every layer took.
    constexpr std::size_t entry_bytes = sizeof(Mask) + 2 * sizeof(std::uint32_t);
    std::vector<std::vector<std::uint32_t>> parents;
    parents.reserve(m + 1);
    parents.push_back({0});
    std::vector<Mask> masks{Mask{}}, next_masks;
    std::vector<std::uint32_t> costs{0}, next_costs, next_parents;
    std::map<std::uint32_t, std::size_t> slot;  // cut id -> bit
    std::vector<bool> used(Words * 64, false);
    std::size_t stored = 1;
    // The next layer's states by mask: open addressing, linear probing.
    constexpr std::uint32_t empty = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> index;
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
      next_masks.clear();
      next_costs.clear();
      next_parents.clear();
      // At most two states per state of this layer, at most half the slots full.
      const std::size_t slots = std::bit_ceil(std::max<std::size_t>(16, 4 * masks.size()));
      index.assign(slots, empty);
      const auto offer = [&](const Mask& mask, std::uint32_t cost, std::uint32_t parent) {
        for (std::size_t w = 0; w < Words; ++w)
          if ((mask[w] & closes[w]) != 0) return;  // a closing cut left unhit
        std::size_t at = MaskHash{}(mask) & (slots - 1);
        while (index[at] != empty && next_masks[index[at]] != mask) at = (at + 1) & (slots - 1);
        if (index[at] == empty) {
          index[at] = static_cast<std::uint32_t>(next_masks.size());
          next_masks.push_back(mask);
          next_costs.push_back(cost);
          next_parents.push_back(parent);
        } else if (cost < next_costs[index[at]]) {
          next_costs[index[at]] = cost;
          next_parents[index[at]] = parent;
        }
      };
      for (std::uint32_t p = 0; p < masks.size(); ++p) {
        Mask skip = masks[p], take = masks[p];
        for (std::size_t w = 0; w < Words; ++w) {
          skip[w] |= opened[w];
          take[w] = skip[w] & ~hits[w];
        }
        offer(skip, costs[p], p);
        offer(take, costs[p] + 1, p | taken);
      }
      for (const std::uint32_t k : closing[i]) {
        used[slot.at(k)] = false;
        slot.erase(k);
      }
      stored += next_masks.size();
      if (next_masks.empty() || next_masks.size() > std::min<std::size_t>(max_states, taken) ||
          stored * entry_bytes > (std::size_t{64} << 20))
        return std::nullopt;
      masks.swap(next_masks);
      costs.swap(next_costs);
      parents.push_back(std::move(next_parents));  // (cleared before the next layer refills it)
    }
    // Every cut has closed: the states left have an empty mask; take the cheapest.
    std::uint32_t best = 0;
    for (std::uint32_t p = 1; p < costs.size(); ++p)
      if (costs[p] < costs[best]) best = p;
    Part part;
    part.bound = static_cast<double>(costs[best]);
    part.optimal = true;
    std::uint32_t at = best;
    for (std::size_t i = m; i > 0; --i) {
      const std::uint32_t parent = parents[i][at];
      if ((parent & taken) != 0) part.chosen.push_back(order[i - 1]);
      at = parent & ~taken;
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
  HittingSetStatistics statistics_;
};

}  // namespace kildall::noisy
