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
///   - over the program's shape (an `SsaProgram`: values in the blocks of a
///     CFG, with the same value handles as the def-use graph): block
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
#include <kildall/graph/ssa_program.hpp>
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

/// The sparse problem of the noise analysis over a `NoisyProgram`: on its
/// def-use graph alone, or on a shape of the same values (then `boundary`
/// gives the entry block's arguments their noise).
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

  /// Noise of an entry block's argument `v` (over a shape): by its kind.
  [[nodiscard]] Interval boundary(const vertex_t<G>& v) const {
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

/// The outcome of a noise analysis: the noise of every value (or nothing for
/// values never reached), the placement it assumed, and the solver's result.
/// `Prog` is what the solver ran over: the def-use graph `G` itself, or a
/// shape of its values.
template <NoisyProgram G, SparseProgram Prog = G>
class NoiseAnalysis {
 public:
  /// The value handle.
  using value_type = vertex_t<G>;

  /// Wraps a solver result (see `analyze_noise`); `program` must outlive the analysis.
  NoiseAnalysis(const G& program, SparseResult<Prog, Interval> result, NoiseParameters parameters,
                NoiseAnalysisOptions options)
      : program_(&program), result_(std::move(result)), parameters_(parameters), options_(std::move(options)) {}

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
    const std::size_t i = vertex_index(*program_, v);
    return i < options_.reduce_after.size() && options_.reduce_after[i];
  }

  /// Whether the solver converged (always, unless a visit cap was hit).
  [[nodiscard]] bool converged() const noexcept { return result_.converged(); }
  /// The model parameters.
  [[nodiscard]] const NoiseParameters& parameters() const noexcept { return parameters_; }
  /// The options the analysis ran with (placement included).
  [[nodiscard]] const NoiseAnalysisOptions& options() const noexcept { return options_; }
  /// The solver's result (statistics, visit counts, reached blocks).
  [[nodiscard]] const SparseResult<Prog, Interval>& solver_result() const noexcept { return result_; }
  /// The program analysed.
  [[nodiscard]] const G& program() const noexcept { return *program_; }

 private:
  const G* program_;
  SparseResult<Prog, Interval> result_;
  NoiseParameters parameters_;
  NoiseAnalysisOptions options_;
};

/// The noise of op `v` itself, before a reduce_noise placed after it (equal
/// to `noise(v)` when none is placed); nullopt when `v` was not reached.
template <NoisyProgram G, class Prog>
[[nodiscard]] std::optional<Interval> noise_before_reduction(const NoiseAnalysis<G, Prog>& analysis,
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
  auto result = solve_sparse(program, problem, options.solver, std::forward<O>(observer));
  return NoiseAnalysis<G>(program, std::move(result), parameters, std::move(options));
}

/// Runs the noise analysis over `shape`, an `SsaProgram` of `program`'s
/// values in the blocks of a CFG, from its entry blocks. Values in blocks
/// never found executable stay uninitialized.
template <NoisyProgram G, SsaProgram S, class O = NoObserver>
  requires std::same_as<ssa_value_t<S>, vertex_t<G>>
[[nodiscard]] NoiseAnalysis<G, S> analyze_noise_over_cfg(const G& program, const S& shape,
                                                         const NoiseParameters& parameters = {},
                                                         NoiseAnalysisOptions options = {}, O&& observer = O{}) {
  const NoiseProblem<G> problem(program, parameters, &options.reduce_after, options.reductions);
  auto result = solve_sparse(shape, problem, options.solver, std::forward<O>(observer));
  return NoiseAnalysis<G, S>(program, std::move(result), parameters, std::move(options));
}

}  // namespace kildall::noisy
