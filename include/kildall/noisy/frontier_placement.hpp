#pragma once
/// \file
/// Exact `reduce_noise` placement of an acyclic program by dynamic
/// programming over its frontier, lexicographically optimal for both
/// objective levels: first the fewest reductions, then the least total noise
/// (the sum of the noise of every add/sub/mul result and block argument).
///
/// Method: dynamic programming along a topological order (Bellman 1957), the
/// state being the noise of the values that are defined and still to be read
/// (the frontier, or cut, of the order; the DP over a path decomposition of
/// the def-use graph, cf. Bodlaender 1998, "A partial k-arboretum of graphs
/// with bounded treewidth"). One layer per op whose noise depends on its
/// operands; an op either keeps its own noise or, if reducible, is reduced
/// (+1 reduction, noise `initial`); a state whose op exceeds the maximum dies.
/// States with the same frontier noise are merged keeping the
/// lexicographically least (reductions, total noise): the future of a state
/// depends on its frontier only, so the merge is exact. Time is linear in the
/// program's size times the widest layer (twice: the placement is rebuilt
/// from checkpoints every sqrt(layers) layers, so memory stays at
/// O(sqrt(layers) x widest layer) instead of a back pointer per state); the
/// widest layer is bounded by the noise levels to the power of the
/// frontier's width, small when ops read recent values (the window 8).
///
/// The rules are `noise_rule`'s (via `fold_noise`); the result is a mask
/// over vertices. Callers verify it with the noise analysis.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include <kildall/noisy/compact_program.hpp>
#include <kildall/noisy/noise_model.hpp>

namespace kildall::noisy {

/// Limits of `frontier_placement`.
struct FrontierPlacementOptions {
  /// Most states in one layer; beyond it the DP gives up (nullopt).
  std::size_t max_states = 1u << 12;
  /// Most values on the frontier at once; a wider program is refused at once
  /// (nullopt), before any layer (its layers would overflow `max_states`
  /// anyway: on the random programs 11 values give 42,800 states).
  std::size_t max_width = 14;
  /// States with more reductions than this are dropped (e.g. a proven
  /// optimum, to break its ties only).
  std::size_t max_reductions = std::numeric_limits<std::size_t>::max();
  /// Give up (nullopt) after this point in time.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

/// The result of `frontier_placement`.
struct FrontierPlacement {
  std::vector<bool> reduced;      ///< Per vertex: a reduce_noise follows it.
  std::size_t count = 0;          ///< Reductions (the first level, minimum).
  std::uint64_t total_noise = 0;  ///< Total noise (the second level, minimum among the fewest).
  std::size_t widest_layer = 0;   ///< States in the widest layer.
  std::size_t frontier_width = 0; ///< Most values on the frontier at once.
};

namespace detail {

// Most values (whose noise depends on the placement) defined and still to be
// read at once when the ops are taken in `order`.
[[nodiscard]] inline std::size_t frontier_width_of(const CompactNoisyProgram& p, const std::vector<std::uint32_t>& order) {
  const std::size_t n = p.size();
  std::vector<std::uint32_t> position(n, 0), last(n, 0);
  for (std::uint32_t k = 0; k < order.size(); ++k) position[order[k]] = k;
  std::vector<int> delta(n + 1, 0);
  for (std::uint32_t v = 0; v < n; ++v) {
    if (!depends_on_operands(p.kind[v])) continue;
    for (const std::uint32_t o : p.operands(v))
      if (depends_on_operands(p.kind[o]) && !p.operands(o).empty()) last[o] = std::max(last[o], position[v]);
  }
  for (std::uint32_t v = 0; v < n; ++v)
    if (last[v] > position[v]) {
      ++delta[position[v]];
      --delta[last[v]];
    }
  int live = 0, widest = 0;
  for (const int d : delta) widest = std::max(widest, live += d);
  return static_cast<std::size_t>(widest);
}

// The order of the layers, the narrower of two topological orders: vertex
// order if it is topological (else Kahn's), and a depth-first post-order from
// the values nobody reads, operands in operand order, which computes each
// value right before its first reader (Sethi and Ullman 1970: chains and
// trees keep a frontier of a few values).
[[nodiscard]] inline std::vector<std::uint32_t> frontier_order(const CompactNoisyProgram& p) {
  const std::size_t n = p.size();
  bool vertex_order = true;
  for (std::uint32_t v = 0; v < n && vertex_order; ++v)
    for (const std::uint32_t o : p.operands(v)) vertex_order = vertex_order && o < v;
  std::vector<std::uint32_t> first = p.topological;
  if (vertex_order)
    for (std::uint32_t v = 0; v < n; ++v) first[v] = v;
  std::vector<std::uint32_t> post;
  post.reserve(n);
  std::vector<bool> done(n, false);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;  // (vertex, next operand)
  const auto visit = [&](std::uint32_t root) {
    if (done[root]) return;
    done[root] = true;
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      const auto ops = p.operands(v);
      if (next < ops.size()) {
        const std::uint32_t o = ops[next++];
        if (!done[o]) {
          done[o] = true;
          stack.emplace_back(o, 0);
        }
        continue;
      }
      post.push_back(v);
      stack.pop_back();
    }
  };
  for (const std::uint32_t v : first)
    if (p.users(v).empty()) visit(v);
  for (const std::uint32_t v : first) visit(v);  // (every vertex of a DAG reaches a sink; kept for safety)
  return frontier_width_of(p, post) < frontier_width_of(p, first) ? post : first;
}

}  // namespace detail

/// The lexicographically optimal placement of the acyclic `program` (see the
/// file comment); nullopt when the program has a cycle, no placement is
/// legal, or a limit of `options` is reached.
[[nodiscard]] inline std::optional<FrontierPlacement> frontier_placement(const CompactNoisyProgram& program,
                                                                         const NoiseParameters& parameters,
                                                                         const FrontierPlacementOptions& options = {}) {
  if (!program.acyclic()) return std::nullopt;
  const std::size_t n = program.size();
  const std::uint64_t cap = std::max({parameters.maximum, parameters.initial, parameters.input});
  if (cap >= std::numeric_limits<std::uint16_t>::max()) return std::nullopt;  // noise levels must fit 16 bits
  const std::vector<std::uint32_t> order = detail::frontier_order(program);
  std::vector<std::uint32_t> position(n, 0);
  for (std::uint32_t k = 0; k < n; ++k) position[order[k]] = k;
  // Tracked values: their noise depends on the placement. Fixed ones: a constant.
  std::vector<bool> tracked(n, false);
  std::vector<std::uint64_t> fixed(n, 0);
  for (std::uint32_t v = 0; v < n; ++v) {
    tracked[v] = depends_on_operands(program.kind[v]) && !program.operands(v).empty();
    if (!tracked[v]) fixed[v] = fold_noise(program.kind[v], {}, parameters);
    if (!tracked[v] && is_checked(program.kind[v]) && fixed[v] > parameters.maximum) return std::nullopt;
  }
  // Live ranges: a tracked value stays on the frontier until its last reader.
  std::vector<std::uint32_t> last_read(n, 0);
  std::vector<bool> read(n, false);
  for (std::uint32_t v = 0; v < n; ++v) {
    if (!depends_on_operands(program.kind[v])) continue;
    for (const std::uint32_t o : program.operands(v))
      if (tracked[o]) {
        read[o] = true;
        last_read[o] = std::max(last_read[o], position[v]);
      }
  }
  // Slots on the frontier, reused once a value's last reader has passed.
  std::vector<std::uint32_t> slot(n, 0);
  std::vector<std::vector<std::uint32_t>> frees(n);  // by position: values whose slot frees after it
  std::size_t width = 0, stride = 1;
  {
    std::vector<std::uint32_t> free_slots;
    std::size_t used = 0;
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t v = order[k];
      if (tracked[v] && read[v]) {
        if (free_slots.empty()) free_slots.push_back(static_cast<std::uint32_t>(used++));
        slot[v] = free_slots.back();
        free_slots.pop_back();
        frees[last_read[v]].push_back(v);
      }
      width = std::max(width, used - free_slots.size());
      for (const std::uint32_t o : frees[k]) free_slots.push_back(slot[o]);
    }
    stride = std::max<std::size_t>(used, 1);
  }
  if (width > options.max_width) return std::nullopt;

  struct Layer {
    std::vector<std::uint16_t> keys;    // stride values per state
    std::vector<std::uint32_t> count;   // reductions so far
    std::vector<std::uint64_t> total;   // total noise so far
    std::vector<std::uint32_t> parent;  // index in the previous layer; top bit: reduced
  };
  constexpr std::uint32_t taken = std::uint32_t{1} << 31;
  constexpr std::uint32_t empty = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> layer_position;  // per layer: the position (in `order`) of its op
  for (std::uint32_t k = 0; k < n; ++k)
    if (tracked[order[k]]) layer_position.push_back(k);
  const std::size_t layers = layer_position.size();
  // Open-addressing hash of the next layer's keys.
  std::vector<std::uint32_t> table;
  const auto hash_of = [stride](const std::uint16_t* key) {
    std::uint64_t h = 0x9e3779b97f4a7c15ull;
    for (std::size_t j = 0; j < stride; ++j) h = (h ^ key[j]) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 29);
  };
  std::vector<std::uint64_t> in;
  std::vector<std::uint16_t> key(stride, 0);
  // One layer: the op at position k from the states of `current`.
  const auto step = [&](const Layer& current, std::uint32_t k, Layer& next) {
    const std::uint32_t v = order[k];
    const NoisyOp kind = program.kind[v];
    const bool reducible = is_reducible(kind), checked = is_checked(kind);
    const bool keep = read[v];
    next = Layer{};
    const std::size_t states = current.count.size();
    std::size_t capacity = 16;
    while (capacity < 4 * states) capacity <<= 1;
    table.assign(capacity, empty);
    const auto offer = [&](std::uint32_t count, std::uint64_t total, std::uint32_t parent) {
      if (count > options.max_reductions) return;
      std::size_t at = hash_of(key.data()) & (capacity - 1);
      while (true) {
        const std::uint32_t e = table[at];
        if (e == empty) {
          table[at] = static_cast<std::uint32_t>(next.count.size());
          next.keys.insert(next.keys.end(), key.begin(), key.end());
          next.count.push_back(count);
          next.total.push_back(total);
          next.parent.push_back(parent);
          return;
        }
        if (std::equal(key.begin(), key.end(), next.keys.begin() + static_cast<std::ptrdiff_t>(e * stride))) {
          if (count < next.count[e] || (count == next.count[e] && total < next.total[e])) {
            next.count[e] = count;
            next.total[e] = total;
            next.parent[e] = parent;
          }
          return;
        }
        at = (at + 1) & (capacity - 1);
      }
    };
    for (std::uint32_t s = 0; s < states; ++s) {
      const std::uint16_t* state = current.keys.data() + static_cast<std::size_t>(s) * stride;
      in.clear();
      for (const std::uint32_t o : program.operands(v)) in.push_back(tracked[o] ? state[slot[o]] : fixed[o]);
      const std::uint64_t own = fold_noise(kind, in, parameters);
      if (checked && own > parameters.maximum) continue;
      std::copy(state, state + stride, key.begin());
      for (const std::uint32_t o : program.operands(v))
        if (tracked[o] && last_read[o] == k) key[slot[o]] = 0;  // leaves the frontier
      const auto place = [&](std::uint64_t value, std::uint32_t extra, std::uint32_t flag) {
        if (keep) key[slot[v]] = static_cast<std::uint16_t>(value);
        offer(current.count[s] + extra, current.total[s] + value, s | flag);
      };
      if (own <= cap) place(own, 0, 0);
      if (reducible && own > parameters.initial) place(parameters.initial, 1, taken);
    }
  };
  // Forward: only the current layer is kept, and a checkpoint every `segment`
  // layers (memory: the checkpoints plus one segment's back pointers).
  std::size_t segment = 64;
  while (segment * segment < layers) segment <<= 1;
  Layer root;
  root.keys.assign(stride, 0);
  root.count.push_back(0);
  root.total.push_back(0);
  root.parent.push_back(0);
  std::vector<Layer> checkpoints{root};  // layer 0, segment, 2 * segment, ...
  Layer current = root, next;
  std::size_t widest = 1;
  for (std::size_t i = 0; i < layers; ++i) {
    if (i % 64 == 0 && std::chrono::steady_clock::now() >= options.deadline) return std::nullopt;
    step(current, layer_position[i], next);
    if (next.count.empty()) return std::nullopt;  // no legal placement
    widest = std::max(widest, next.count.size());
    if (next.count.size() > options.max_states) return std::nullopt;
    std::swap(current, next);
    if ((i + 1) % segment == 0 && i + 1 < layers) {
      checkpoints.push_back(current);
      checkpoints.back().parent.clear();
    }
  }
  // The last layer: every frontier is empty, one state (or none tracked at all).
  std::uint32_t at = 0;
  for (std::uint32_t s = 1; s < current.count.size(); ++s)
    if (current.count[s] < current.count[at] || (current.count[s] == current.count[at] && current.total[s] < current.total[at]))
      at = s;
  FrontierPlacement out;
  out.reduced.assign(n, false);
  out.count = current.count[at];
  out.total_noise = current.total[at];
  out.widest_layer = widest;
  out.frontier_width = width;
  // Backward, a segment at a time: the segment's layers again from its
  // checkpoint (the same states in the same order), then its back pointers.
  std::vector<std::vector<std::uint32_t>> pointers;
  for (std::size_t c = checkpoints.size(); c > 0; --c) {
    const std::size_t first = (c - 1) * segment, last = std::min(layers, c * segment);
    pointers.clear();
    Layer layer = checkpoints[c - 1];
    for (std::size_t i = first; i < last; ++i) {
      step(layer, layer_position[i], next);
      pointers.push_back(std::move(next.parent));
      next.parent.clear();
      std::swap(layer, next);
    }
    for (std::size_t i = last; i > first; --i) {
      const std::uint32_t p = pointers[i - 1 - first][at];
      if ((p & taken) != 0) out.reduced[order[layer_position[i - 1]]] = true;
      at = p & ~taken;
    }
  }
  return out;
}


}  // namespace kildall::noisy
