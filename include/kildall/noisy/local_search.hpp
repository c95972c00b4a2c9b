#pragma once
/// \file
/// Local search for `reduce_noise` placements on acyclic programs, the primal
/// heuristics of the lazy-cut optimizer (`lazy_placement.hpp`):
///   - `repair_placement`: completes any (illegal) placement to a legal one by
///     one forward pass in topological order that, like the greedy placement,
///     reduces the noisiest operands of an op that would exceed the maximum
///     (through block arguments, after the reducible ops feeding them);
///   - `drop_redundant_reductions`: removes reductions one by one while the
///     program stays legal ("1-opt"), checking each removal by incremental
///     re-evaluation of the affected values only (a worklist ordered by
///     topological position, undone when a violation appears).
/// Both work on a `CompactNoisyProgram` with the noise rules of
/// `noise_model.hpp` (upper bounds only). Callers verify the results with the
/// noise analysis before trusting them.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

#include <kildall/noisy/cover_cuts.hpp>
#include <kildall/noisy/noise_model.hpp>

namespace kildall::noisy {

/// The noise of every value of an acyclic `program` under the placement
/// `reduced` (indexed by vertex): each op's own noise (before a reduction
/// after it) and its value's noise (after).
struct PlacedNoise {
  std::vector<std::uint64_t> own;    ///< Own noise, before a reduction after the op.
  std::vector<std::uint64_t> value;  ///< Noise of the value (initial after a reduction).
};

/// Evaluates `program` (acyclic) under `reduced` in topological order.
[[nodiscard]] inline PlacedNoise evaluate_placement(const CompactNoisyProgram& program, const std::vector<bool>& reduced,
                                                    const NoiseParameters& parameters) {
  PlacedNoise out;
  out.own.assign(program.size(), 0);
  out.value.assign(program.size(), 0);
  std::vector<std::uint64_t> in;
  for (const std::uint32_t v : program.topological) {
    in.clear();
    for (const std::uint32_t o : program.operands(v)) in.push_back(out.value[o]);
    out.own[v] = fold_noise(program.kind[v], in, parameters);
    out.value[v] = is_reducible(program.kind[v]) && reduced[v] ? parameters.initial : out.own[v];
  }
  return out;
}

/// True when op `v` of the evaluated program is checked and exceeds the maximum.
[[nodiscard]] inline bool exceeds_maximum(const CompactNoisyProgram& program, const PlacedNoise& noise, std::uint32_t v,
                                          const NoiseParameters& parameters) {
  return is_checked(program.kind[v]) && (noise.own[v] > parameters.maximum || noise.value[v] > parameters.maximum);
}

/// True when every checked op of the evaluated program is within the maximum.
[[nodiscard]] inline bool is_legal_placement(const CompactNoisyProgram& program, const PlacedNoise& noise,
                                             const NoiseParameters& parameters) {
  for (std::uint32_t v = 0; v < program.size(); ++v)
    if (exceeds_maximum(program, noise, v, parameters)) return false;
  return true;
}

/// Completes `reduced` (acyclic `program`) to a legal placement by one forward
/// pass (see the file comment); nullopt if the pass could not make it legal.
[[nodiscard]] inline std::optional<std::vector<bool>> repair_placement(const CompactNoisyProgram& program,
                                                                       std::vector<bool> reduced,
                                                                       const NoiseParameters& parameters) {
  if (!program.acyclic()) return std::nullopt;
  reduced.resize(program.size(), false);
  std::vector<std::uint64_t> value(program.size(), 0);
  std::vector<std::uint64_t> in;
  std::vector<std::uint32_t> stamp(program.size(), 0);
  std::uint32_t epoch = 0;
  const auto own_of = [&](std::uint32_t v) {
    in.clear();
    for (const std::uint32_t o : program.operands(v)) in.push_back(value[o]);
    return fold_noise(program.kind[v], in, parameters);
  };
  const auto reduce = [&](std::uint32_t o) {
    if (!is_reducible(program.kind[o]) || reduced[o] || value[o] <= parameters.initial) return;
    reduced[o] = true;
    value[o] = parameters.initial;
  };
  // Lowers a block argument: reduces the noisy reducible ops feeding it (through block arguments).
  const auto lower_join = [&](std::uint32_t j) {
    ++epoch;
    std::vector<std::uint32_t> joins{j}, stack{j};
    stamp[j] = epoch;
    while (!stack.empty()) {
      const std::uint32_t x = stack.back();
      stack.pop_back();
      for (const std::uint32_t s : program.operands(x)) {
        if (stamp[s] == epoch) continue;
        stamp[s] = epoch;
        if (program.kind[s] == NoisyOp::join) {
          joins.push_back(s);
          stack.push_back(s);
        } else {
          reduce(s);
        }
      }
    }
    std::sort(joins.begin(), joins.end(), [&](std::uint32_t a, std::uint32_t b) { return program.position[a] < program.position[b]; });
    for (const std::uint32_t x : joins) value[x] = own_of(x);
  };
  std::vector<std::uint32_t> ops;
  for (const std::uint32_t v : program.topological) {
    std::uint64_t own = own_of(v);
    if (is_checked(program.kind[v]) && own > parameters.maximum) {
      ops.assign(program.operands(v).begin(), program.operands(v).end());
      std::stable_sort(ops.begin(), ops.end(), [&](std::uint32_t a, std::uint32_t b) { return value[a] > value[b]; });
      for (const std::uint32_t o : ops) {
        if (own <= parameters.maximum) break;
        if (program.kind[o] == NoisyOp::join) lower_join(o);
        else reduce(o);
        own = own_of(v);
      }
    }
    value[v] = is_reducible(program.kind[v]) && reduced[v] ? parameters.initial : own;
  }
  if (!is_legal_placement(program, evaluate_placement(program, reduced, parameters), parameters)) return std::nullopt;
  return reduced;
}

/// Removes reductions from the legal placement `reduced` (acyclic `program`)
/// while the program stays legal; tries them in `order` (vertex indices; by
/// default latest first). Returns the smaller placement (legal if the input was).
[[nodiscard]] inline std::vector<bool> drop_redundant_reductions(const CompactNoisyProgram& program,
                                                                 std::vector<bool> reduced,
                                                                 const NoiseParameters& parameters,
                                                                 std::vector<std::uint32_t> order = {}) {
  if (!program.acyclic()) return reduced;
  reduced.resize(program.size(), false);
  PlacedNoise noise = evaluate_placement(program, reduced, parameters);
  if (order.empty()) {
    for (auto it = program.topological.rbegin(); it != program.topological.rend(); ++it)
      if (reduced[*it]) order.push_back(*it);
  }
  struct Change {
    std::uint32_t vertex;
    std::uint64_t own, value;
  };
  std::vector<Change> log;
  std::vector<std::uint32_t> queued(program.size(), 0);
  std::uint32_t epoch = 0;
  std::vector<std::uint64_t> in;
  using Item = std::pair<std::uint32_t, std::uint32_t>;  // (topological position, vertex)
  std::priority_queue<Item, std::vector<Item>, std::greater<>> work;
  for (const std::uint32_t v : order) {
    if (v >= program.size() || !reduced[v]) continue;
    reduced[v] = false;
    ++epoch;
    log.clear();
    while (!work.empty()) work.pop();
    work.emplace(program.position[v], v);
    queued[v] = epoch;
    bool legal = true;
    while (!work.empty() && legal) {
      const std::uint32_t w = work.top().second;
      work.pop();
      queued[w] = 0;
      in.clear();
      for (const std::uint32_t o : program.operands(w)) in.push_back(noise.value[o]);
      const std::uint64_t own = fold_noise(program.kind[w], in, parameters);
      const std::uint64_t value = is_reducible(program.kind[w]) && reduced[w] ? parameters.initial : own;
      if (own == noise.own[w] && value == noise.value[w]) continue;
      log.push_back({w, noise.own[w], noise.value[w]});
      const bool value_changed = value != noise.value[w];
      noise.own[w] = own;
      noise.value[w] = value;
      if (is_checked(program.kind[w]) && (own > parameters.maximum || value > parameters.maximum)) legal = false;
      if (!value_changed) continue;
      for (const std::uint32_t u : program.users(w)) {
        if (queued[u] == epoch) continue;
        queued[u] = epoch;
        work.emplace(program.position[u], u);
      }
    }
    if (!legal) {
      for (auto it = log.rbegin(); it != log.rend(); ++it) {
        noise.own[it->vertex] = it->own;
        noise.value[it->vertex] = it->value;
      }
      reduced[v] = true;
    }
  }
  return reduced;
}

}  // namespace kildall::noisy
