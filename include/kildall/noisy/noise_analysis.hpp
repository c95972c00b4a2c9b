#pragma once
/// \file
/// The noise analysis: a forward sparse dataflow analysis (Kildall's method
/// on SSA values, Wegman & Zadeck's sparse formulation) that gives every value
/// of a `NoisyProgram` an `Interval` of noise, by kildall's generic sparse
/// solver (`solve_sparse`) with the free transfer functions of
/// `noise_model.hpp`. This is the article's use of MLIR's
/// `IntegerRangeAnalysis` with the noisy ops' `inferResultRanges`.
///
/// Two forms:
///   - over the def-use graph alone: a `join` vertex (block argument) joins
///     all values flowing into it; every vertex is analysed;
///   - over the def-use graph plus a CFG of blocks (`SparseCfgProblem`): block
///     arguments join over the *executable* incoming edges and values in
///     blocks never found executable stay uninitialized (`noise(v) ==
///     nullptr`), like MLIR's pairing with its dead-code analysis.
///
/// A placement (reduce_noise after some vertices) can be applied *virtually*:
/// the analysis then computes the noise of the program as if it had been
/// rewritten, without touching it; `noise_before_reduction` recovers a
/// virtually reduced op's own noise. Loops terminate by the solver's widening.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/noisy/noise_model.hpp>
#include <kildall/noisy/program_concept.hpp>
#include <kildall/solver/observer.hpp>
#include <kildall/solver/options.hpp>
#include <kildall/solver/sparse.hpp>

namespace kildall::noisy {

/// How reductions are applied during the analysis.
enum class Reductions : std::uint8_t {
  /// Only after the vertices of `NoiseAnalysisOptions::reduce_after`.
  as_placed,
  /// After every reducible op whose noise would exceed `initial` (the best
  /// case: the least noise any placement can give each value).
  whenever_helpful,
};

/// Options of `analyze_noise`.
struct NoiseAnalysisOptions {
  /// Virtual placement: `reduce_after[vertex_index(g, v)]` = a reduce_noise
  /// follows `v` (only honoured for reducible ops). Empty = none.
  std::vector<bool> reduce_after;
  /// See `Reductions`.
  Reductions reductions = Reductions::as_placed;
  /// Solver tuning; the default widens late (noise in a legal loop settles
  /// within a few visits, an illegal one grows forever).
  SolverOptions solver = [] {
    SolverOptions o;
    o.widening_delay = 16;
    return o;
  }();
};

/// The sparse problem of the noise analysis over a `NoisyProgram` (no CFG).
template <NoisyProgram G>
class NoiseProblem {
 public:
  /// The lattice: noise intervals (width `noise_width`).
  using lattice_type = Interval;
  /// Joins (block arguments in loops) must be visited before all their inputs are known.
  static constexpr bool visit_with_uninitialized_operands = true;

  /// The problem for `program` (which must outlive it).
  /// `reduce_after` (indexed by `vertex_index`; may be null) must outlive the problem.
  NoiseProblem(const G& program, const NoiseParameters& parameters, const std::vector<bool>* reduce_after = nullptr,
               Reductions reductions = Reductions::as_placed)
      : g_(&program), parameters_(parameters), reduce_after_(reduce_after), reductions_(reductions) {}

  /// Noise of `v` from its operands' noise (unknown operands count as empty).
  [[nodiscard]] Interval transfer(const vertex_t<G>& v, OperandStates<Interval> operands) const {
    const NoisyOp kind = kind_of(*g_, v);
    Interval noise = infer_noise(kind, operands, parameters_);
    if (!is_reducible(kind) || noise.is_empty()) return noise;
    const bool reduce = reductions_ == Reductions::whenever_helpful ? noise.umax() > parameters_.initial
                                                                     : is_reduced(v);
    return reduce ? infer_fresh_noise(parameters_) : noise;
  }

  /// Noise of an entry block's argument `v` (CFG form): by its kind.
  [[nodiscard]] Interval entry_noise(const vertex_t<G>& v) const {
    const NoisyOp kind = kind_of(*g_, v);
    if (kind == NoisyOp::input || kind == NoisyOp::join) return infer_input_noise(parameters_);
    return infer_noise(kind, std::span<const Interval* const>{}, parameters_);
  }

  /// Whether a reduce_noise is (virtually) placed after `v`.
  [[nodiscard]] bool is_reduced(const vertex_t<G>& v) const {
    const std::size_t i = vertex_index(*g_, v);
    return reduce_after_ != nullptr && i < reduce_after_->size() && (*reduce_after_)[i];
  }

  /// The program.
  [[nodiscard]] const G& program() const noexcept { return *g_; }
  /// The model parameters.
  [[nodiscard]] const NoiseParameters& parameters() const noexcept { return parameters_; }

 private:
  const G* g_;
  NoiseParameters parameters_;
  const std::vector<bool>* reduce_after_;
  Reductions reductions_;
};

/// The noise problem over a def-use graph `G` whose values live in the blocks
/// of a CFG `Cfg` (a `SparseCfgProblem`). `Blocks` supplies the block
/// bookkeeping the solver asks for: `block_of(v)`, `is_block_argument(v)`,
/// `block_arguments(b)`, `block_values(b)`, `incoming_value(arg, edge)` (e.g.
/// the reference IR's `ir::FunctionProblemBase`).
template <NoisyProgram G, AnalysisGraph Cfg, class Blocks>
class NoiseCfgProblem {
 public:
  /// The lattice: noise intervals.
  using lattice_type = Interval;
  /// See `NoiseProblem`.
  static constexpr bool visit_with_uninitialized_operands = true;

  /// The problem; `noise` and `blocks` must outlive it.
  NoiseCfgProblem(const NoiseProblem<G>& noise, const Blocks& blocks) : noise_(&noise), blocks_(&blocks) {}

  /// See `NoiseProblem::transfer`.
  [[nodiscard]] Interval transfer(const vertex_t<G>& v, OperandStates<Interval> operands) const {
    return noise_->transfer(v, operands);
  }
  /// Function arguments: by kind (`input` noise for noisy ones).
  [[nodiscard]] Interval entry_argument_state(const vertex_t<G>& v) const { return noise_->entry_noise(v); }
  /// The block defining `v`.
  [[nodiscard]] vertex_t<Cfg> block_of(const vertex_t<G>& v) const { return blocks_->block_of(v); }
  /// Whether `v` is a block argument.
  [[nodiscard]] bool is_block_argument(const vertex_t<G>& v) const { return blocks_->is_block_argument(v); }
  /// The arguments of block `b`.
  [[nodiscard]] decltype(auto) block_arguments(const vertex_t<Cfg>& b) const { return blocks_->block_arguments(b); }
  /// The other values of block `b`.
  [[nodiscard]] decltype(auto) block_values(const vertex_t<Cfg>& b) const { return blocks_->block_values(b); }
  /// The value edge `e` passes to `argument`.
  [[nodiscard]] std::optional<vertex_t<G>> incoming_value(const vertex_t<G>& argument, const edge_t<Cfg>& e) const {
    const auto in = blocks_->incoming_value(argument, e);
    if (!in) return std::nullopt;
    return static_cast<vertex_t<G>>(*in);
  }

 private:
  const NoiseProblem<G>* noise_;
  const Blocks* blocks_;
};

/// The outcome of a noise analysis: the noise of every value (or nothing for
/// values never reached), the placement it assumed, and the solver's result.
template <NoisyProgram G, class Cfg = NoCfg>
class NoiseAnalysis {
 public:
  /// The value handle.
  using value_type = vertex_t<G>;

  /// Wraps a solver result (see `analyze_noise`).
  NoiseAnalysis(SparseResult<G, Interval, Cfg> result, NoiseParameters parameters, NoiseAnalysisOptions options)
      : result_(std::move(result)), parameters_(parameters), options_(std::move(options)) {}

  /// The noise of `v` (after a virtually placed reduce_noise), or nullptr if
  /// `v` was never reached.
  [[nodiscard]] const Interval* noise(const value_type& v) const { return result_.lookup(v); }

  /// The upper bound of `v`'s noise, if known and not empty.
  [[nodiscard]] std::optional<std::uint64_t> noise_bound(const value_type& v) const {
    const Interval* x = noise(v);
    if (x == nullptr || x->is_empty()) return std::nullopt;
    return x->umax();
  }

  /// Whether the analysis placed a reduce_noise after `v` (virtually).
  [[nodiscard]] bool is_reduced(const value_type& v) const {
    const std::size_t i = vertex_index(result_.values_graph(), v);
    return i < options_.reduce_after.size() && options_.reduce_after[i];
  }

  /// Whether the solver converged (always, unless a visit cap was hit).
  [[nodiscard]] bool converged() const noexcept { return result_.converged(); }
  /// The model parameters.
  [[nodiscard]] const NoiseParameters& parameters() const noexcept { return parameters_; }
  /// The options the analysis ran with (placement included).
  [[nodiscard]] const NoiseAnalysisOptions& options() const noexcept { return options_; }
  /// The solver's result (statistics, visit counts, block executability).
  [[nodiscard]] const SparseResult<G, Interval, Cfg>& solver_result() const noexcept { return result_; }
  /// The program analysed.
  [[nodiscard]] const G& program() const noexcept { return result_.values_graph(); }

 private:
  SparseResult<G, Interval, Cfg> result_;
  NoiseParameters parameters_;
  NoiseAnalysisOptions options_;
};

/// The noise of op `v` itself, before a reduce_noise placed after it (equal
/// to `noise(v)` when none is placed); nullopt when `v` was not reached.
template <NoisyProgram G, class Cfg>
[[nodiscard]] std::optional<Interval> noise_before_reduction(const NoiseAnalysis<G, Cfg>& analysis,
                                                             const vertex_t<G>& v) {
  const Interval* own = analysis.noise(v);
  if (own == nullptr) return std::nullopt;
  const NoisyOp kind = kind_of(analysis.program(), v);
  const bool reduced = analysis.options().reductions == Reductions::whenever_helpful || analysis.is_reduced(v);
  if (!is_reducible(kind) || !reduced) return *own;
  std::vector<const Interval*> operands;
  for (const auto& e : in_edge_range(analysis.program(), v)) operands.push_back(analysis.noise(source(e, analysis.program())));
  return infer_noise(kind, operands, analysis.parameters());
}

/// Runs the noise analysis over the def-use graph `program` alone (every
/// value is analysed; block arguments join all their inputs). `observer`
/// (optional) sees every visit, e.g. a `TraceObserver`.
template <NoisyProgram G, class O = NoObserver>
[[nodiscard]] NoiseAnalysis<G> analyze_noise(const G& program, const NoiseParameters& parameters = {},
                                             NoiseAnalysisOptions options = {}, O&& observer = O{}) {
  const NoiseProblem<G> problem(program, parameters, &options.reduce_after, options.reductions);
  // `{...}`: a braced list keeps solve_sparse's CFG overload from being
  // deduced (its concept check would instantiate graph_traits<NoiseProblem>).
  auto result = solve_sparse(program, problem, options.solver, std::forward<O>(observer));
  return NoiseAnalysis<G>(std::move(result), parameters, std::move(options));
}

/// Runs the noise analysis over `program` whose values live in the blocks of
/// `cfg`, from the executable block(s) `entries`; `blocks` is the block
/// bookkeeping (see `NoiseCfgProblem`). Values in blocks never found
/// executable stay uninitialized.
template <NoisyProgram G, AnalysisGraph Cfg, class Entries, class Blocks, class O = NoObserver>
[[nodiscard]] NoiseAnalysis<G, Cfg> analyze_noise_over_cfg(const G& program, const Cfg& cfg, const Entries& entries,
                                                           const Blocks& blocks, const NoiseParameters& parameters = {},
                                                  NoiseAnalysisOptions options = {}, O&& observer = O{}) {
  const NoiseProblem<G> noise(program, parameters, &options.reduce_after, options.reductions);
  const NoiseCfgProblem<G, Cfg, Blocks> problem(noise, blocks);
  auto result = solve_sparse(program, cfg, entries, problem, options.solver, std::forward<O>(observer));
  return NoiseAnalysis<G, Cfg>(std::move(result), parameters, std::move(options));
}

}  // namespace kildall::noisy
