#pragma once
/// \file
/// The noisy dialect's part of `kildall-opt`: its flags, passes, analysis
/// dump and trace, as one object (`NoisyDriver`), handed to the driver as an
/// `ir::DriverPlugin` by `kildall_opt_plugin()`. Its passes are registered
/// module passes (in a pipeline, or as flags `--name[=optimizer]`):
///
///   noisy-verify                      fail at the first op whose noise exceeds the maximum
///   noisy-reduce-noise{optimizer=lazy|ilp|greedy}
///                                     insert reduce_noise ops by `place_reduce_noise` with that
///                                     strategy, then verify: `lazy` (default) is optimal at scale,
///                                     `ilp` the article's model, `greedy` the baseline
///   noisy-rebalance{optimizer=...}    re-associate add/sub/mul trees to need fewer reductions
///                                     (`rebalance.hpp`): a function is rewritten only when the
///                                     optimal placement needs fewer (or, as many but less noisy);
///                                     before noisy-reduce-noise, which then places in the result
///
/// and its options:
///
///   --noisy-initial=N --noisy-maximum=N   the model's 12 and 26
///   --emit-lp FILE                    write the placement model (CPLEX LP, `glpsol --lp FILE`)
///   --time-limit SECONDS              wall-clock limit of the optimizer (then: the best legal
///                                     placement found, with its certified gap)
///   --dump-analysis=noise             one line per value: its noise
///   --debug-analysis                  trace the noise analysis in MLIR's int-range-analysis shape
///
/// `--noisy-reduce-noise` prints a one-line summary on the log (inserted
/// count, greedy's count, optimal or gap, time), and a progress line every
/// second while a long solve runs.
///
/// Uses GLPK, so it needs `kildall::glpk` (GPL) and `kildall::eigen`.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kildall/ir/diagnostics.hpp>
#include <kildall/ir/driver_plugin.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/passes.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/verifier.hpp>
#include <kildall/lp/lp_format.hpp>
#include <kildall/noisy/greedy.hpp>
#include <kildall/noisy/ilp_placement.hpp>
#include <kildall/noisy/ir_dialect.hpp>
#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/place_reduce_noise.hpp>
#include <kildall/noisy/placement.hpp>
#include <kildall/noisy/rebalance.hpp>

namespace kildall::noisy {

/// An IR function rebuilt by `rebalanced_copy`: the copy and its program view.
struct IrRebalanced {
  std::unique_ptr<ir::Function> function;  ///< The rewritten copy.
  std::unique_ptr<IrNoisyProgram> view;    ///< Its program view.
  /// The rewritten program (the `rebalance_and_place` candidate interface).
  [[nodiscard]] const IrNoisyProgram& program() const { return *view; }
};

/// A copy of `fn` with the trees of `plan` (planned on `fn`) rebuilt; `fn` is unchanged.
[[nodiscard]] inline IrRebalanced rebalanced_copy(const ir::Function& fn, const IrDialect& dialect,
                                                  const RebalancePlan<ir::ValueId>& plan) {
  IrRebalanced out;
  out.function = std::make_unique<ir::Function>(fn);
  IrRebalanceEditor editor(*out.function, dialect);
  apply_rebalance(editor, plan);
  out.view = std::make_unique<IrNoisyProgram>(*out.function, dialect);
  return out;
}

/// What `rebalance_ir_function` did to one function.
struct IrRebalanceReport {
  std::size_t trees_rewritten = 0;     ///< Trees rebuilt (0: the function is unchanged).
  std::size_t trees_seen = 0;          ///< Trees of three leaves or more.
  std::size_t reductions_before = 0;   ///< Reductions the original needs (optimal placement).
  std::size_t reductions_after = 0;    ///< Reductions the result needs (its optimal placement).
  std::vector<ir::ValueId> placement;  ///< That placement, in the result.
  PlacementStatus status = PlacementStatus::optimal;  ///< Status of that placement.
};

/// Rebalances the add/sub/mul trees of `fn` in place (`rebalance_and_place`
/// with the IR's layout: trees stay in their block, new ops go where the old
/// ones were), keeping the original unless the rewritten function needs
/// fewer reductions, or as many with less total noise. Throws
/// `PlacementError` when `fn` cannot be made legal.
inline IrRebalanceReport rebalance_ir_function(ir::Function& fn, const IrDialect& dialect,
                                               const NoiseParameters& parameters = {},
                                               const PlacementOptions& placement_options = {},
                                               const RebalanceOptions& options = {}) {
  IrRebalanceReport report;
  if (fn.is_declaration()) return report;
  std::optional<IrRebalanced> kept;
  {
    const IrNoisyProgram program(fn, dialect);
    const IrLayout layout(fn);
    auto choice = rebalance_and_place(
        program, [&](const RebalancePlan<ir::ValueId>& plan) { return rebalanced_copy(fn, dialect, plan); }, parameters,
        placement_options, options, layout);
    report.reductions_before = choice.reductions_before;
    report.reductions_after = choice.reductions_after();
    report.placement = choice.placement.reduce_after;
    report.status = choice.placement.status;
    report.trees_rewritten = choice.plan.trees.size();
    report.trees_seen = choice.plan.trees_seen;
    if (choice.candidate) kept.emplace(std::move(*choice.candidate));
  }
  if (kept) fn = std::move(*kept->function);
  return report;
}

/// What the noisy options asked for (the passes' own options are pipeline options).
struct DriverOptions {
  NoiseParameters parameters;       ///< --noisy-initial / --noisy-maximum
  std::string emit_lp;              ///< --emit-lp FILE ("" = none)
  double time_limit_seconds = lp::inf;  ///< --time-limit
};

/// The noisy dialect's flags, passes and dumps for kildall-opt.
class NoisyDriver {
 public:
  /// Extra `--help` lines.
  static constexpr std::string_view usage =
      "  --noisy-initial=<n>        Noise of a fresh value, a noisy argument, after reduce_noise (12)\n"
      "  --noisy-maximum=<n>        Largest legal noise (default 26)\n"
      "  --emit-lp <file>           Write the reduce_noise placement model in CPLEX LP format\n"
      "  --time-limit <seconds>     Wall-clock limit of the optimizer (then: best found, with its gap)\n"
      "  --dump-analysis=noise      Print the noise of every SSA value\n";

  /// The names this driver adds to `--dump-analysis=`.
  static constexpr std::string_view analysis_name = "noise";

  /// Registers the dialect (call once, before parsing).
  void register_dialect(ir::OpRegistry& registry) {
    dialect_ = register_noisy_dialect(registry);
    registered_ = true;
  }

  /// Offered an argument the driver does not know (`rest` = the arguments
  /// after it): returns how many it consumed (0 = not a noisy flag). Throws
  /// `std::invalid_argument` for a bad value.
  int parse_argument(std::string_view arg, std::span<const std::string_view> rest) {
    const auto value_of = [&](std::string_view flag, int& consumed) -> std::string {
      if (arg.size() > flag.size() && arg[flag.size()] == '=') {
        consumed = 1;
        return std::string(arg.substr(flag.size() + 1));
      }
      if (rest.empty()) throw std::invalid_argument("option '" + std::string(flag) + "' needs a value");
      consumed = 2;
      return std::string(rest.front());
    };
    const auto is_flag = [&](std::string_view flag) {
      return arg == flag || (arg.starts_with(flag) && arg.size() > flag.size() && arg[flag.size()] == '=');
    };
    const auto number = [&](std::string_view flag, const std::string& text) {
      std::size_t used = 0;
      unsigned long long n = 0;
      try {
        n = std::stoull(text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != text.size() || text.empty() || text[0] == '-')
        throw std::invalid_argument("option '" + std::string(flag) + "' needs a non-negative integer, got '" + text + "'");
      return static_cast<std::uint64_t>(n);
    };
    int consumed = 1;
    if (is_flag("--noisy-initial")) {
      options_.parameters.initial = number("--noisy-initial", value_of("--noisy-initial", consumed));
      options_.parameters.input = options_.parameters.initial;
    } else if (is_flag("--noisy-maximum")) {
      options_.parameters.maximum = number("--noisy-maximum", value_of("--noisy-maximum", consumed));
    } else if (is_flag("--emit-lp")) {
      options_.emit_lp = value_of("--emit-lp", consumed);
      if (options_.emit_lp.empty()) throw std::invalid_argument("option '--emit-lp' needs a file name");
    } else if (is_flag("--time-limit")) {
      const std::string text = value_of("--time-limit", consumed);
      std::size_t used = 0;
      double seconds = -1.0;
      try {
        seconds = std::stod(text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != text.size() || !(seconds >= 0.0))
        throw std::invalid_argument("option '--time-limit' needs a number of seconds >= 0, got '" + text + "'");
      options_.time_limit_seconds = seconds;
    } else {
      return 0;
    }
    return consumed;
  }

  /// The options parsed so far.
  [[nodiscard]] const DriverOptions& options() const noexcept { return options_; }
  /// The options (modifiable, e.g. for tests).
  [[nodiscard]] DriverOptions& options() noexcept { return options_; }
  /// The dialect's codes (after `register_dialect`).
  [[nodiscard]] const IrDialect& dialect() const noexcept { return dialect_; }

  /// The names of the passes `run_pass` runs.
  static constexpr std::string_view pass_names[] = {"noisy-verify", "noisy-rebalance", "noisy-reduce-noise"};

  /// Runs the pass `pass` (one of `pass_names`) on a parsed, verified module,
  /// placing with `strategy`, on a second thread too unless `threading` is off
  /// (`--mlir-disable-threading`: `LazyTuning::threads`). Throws `ir::IrError`
  /// at the offending op when verification fails or no placement can make a
  /// function legal. `log` gets the summary, progress and (with `debug`) the
  /// analysis trace.
  void run_pass(std::string_view pass, ir::Module& module, bool debug, std::ostream& log,
                PlacementStrategy strategy = PlacementStrategy::lazy, bool threading = true) const {
    require_registered();
    if (pass == "noisy-verify") {
      verify(module, debug, log);
    } else if (pass == "noisy-rebalance") {
      rebalance(module, strategy, log, threading);
    } else if (pass == "noisy-reduce-noise") {
      reduce_noise(module, strategy, log, threading);
      ir::verify(module);
      verify(module, debug, log);
    } else {
      throw std::invalid_argument("no noisy pass '" + std::string(pass) + "'");
    }
  }

  /// For `--dump-analysis=noise`: the noise of each value of `fn`, as text
  /// indexed by `ir::ValueId` ("unsigned : [0, 24] signed : [0, 24]", "not
  /// noisy", or "uninitialized" in dead blocks).
  [[nodiscard]] std::vector<std::string> describe_values(const ir::Module& module, const ir::Function& fn, bool debug,
                                                         std::ostream& log) const {
    require_registered();
    std::vector<std::string> out(fn.values.size());
    if (fn.is_declaration()) return out;
    const IrNoisyProgram program(fn, dialect_);
    const auto analysis = analyze(module, program, debug, log);
    for (ir::ValueId v = 0; v < fn.values.size(); ++v) {
      const Interval* noise = analysis.noise(v);
      if (!is_noisy_value(program.kind(v))) out[v] = "not noisy";
      else if (noise == nullptr) out[v] = "uninitialized";
      else out[v] = to_mlir_debug_string(*noise);
    }
    return out;
  }

 private:
  // The --debug-analysis trace: MLIR's int-range-analysis shape, noisy values only.
  class Trace {
   public:
    Trace(const ir::Module& module, const IrNoisyProgram& program, std::ostream& log)
        : module_(&module), program_(&program), namer_(program.function()), log_(&log) {}
    template <class Event>
    void on_visit(const Event& event) {
      const ir::ValueId v = event.node;
      if (!is_noisy_value(program_->kind(v))) return;
      const ir::Function& fn = program_->function();
      const ir::ValueData& value = fn.values[v];
      *log_ << "Inferring ranges for ";
      if (value.is_block_argument) {
        *log_ << namer_.value(v) << " (argument #" << value.position << " of "
              << (value.owner == 0 ? std::string("the entry block") : namer_.block(value.owner)) << ")";
      } else {
        *log_ << ir::print_op(fn, value.owner, *module_->registry, namer_);
      }
      *log_ << "\nInferred range "
            << (event.after != nullptr ? to_mlir_debug_string(*event.after) : std::string("uninitialized"))
            << (event.widened ? " (widened)" : "") << "\n";
    }

   private:
    const ir::Module* module_;
    const IrNoisyProgram* program_;
    ir::ValueNamer namer_;
    std::ostream* log_;
  };

  void require_registered() const {
    if (!registered_) throw std::logic_error("kildall::noisy::NoisyDriver: register_dialect was not called");
  }

  [[nodiscard]] NoiseAnalysis<IrNoisyProgram, ir::FunctionShape> analyze(const ir::Module& module,
                                                                  const IrNoisyProgram& program, bool debug,
                                                                  std::ostream& log) const {
    auto analysis = debug ? analyze_ir_noise(program, options_.parameters, {}, Trace(module, program, log))
                          : analyze_ir_noise(program, options_.parameters);
    if (!analysis.converged()) {
      throw ir::IrError(ir::Diagnostic{module.source_name, program.function().loc,
                                       "noise analysis of '@" + program.function().name + "' stopped: " +
                                           analysis.solver_result().outcome().message()});
    }
    return analysis;
  }

  void verify(const ir::Module& module, bool debug, std::ostream& log) const {
    for (const ir::Function& fn : module.functions) {
      if (fn.is_declaration()) continue;
      if (debug) {
        const IrNoisyProgram program(fn, dialect_);
        (void)analyze(module, program, true, log);
      }
      if (auto error = find_noise_error(module, fn, dialect_, options_.parameters)) throw ir::IrError(std::move(*error));
    }
  }

  // The LP file of function `fn` (one file per function when there are several).
  [[nodiscard]] std::filesystem::path lp_path(const ir::Module& module, const ir::Function& fn) const {
    std::size_t bodies = 0;
    for (const ir::Function& f : module.functions) bodies += f.is_declaration() ? 0 : 1;
    std::filesystem::path path(options_.emit_lp);
    if (bodies <= 1) return path;
    const std::string ext = path.extension().string();
    return path.replace_extension().string() + "." + fn.name + (ext.empty() ? ".lp" : ext);
  }

  void reduce_noise(ir::Module& module, PlacementStrategy strategy, std::ostream& log, bool threading) const {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    const bool greedy = strategy == PlacementStrategy::greedy;
    std::size_t inserted = 0, greedy_total = 0, functions = 0;
    double bound_total = 0.0;  // over functions, for the gap
    bool all_optimal = true;
    std::string fallback;
    for (ir::Function& fn : module.functions) {
      if (fn.is_declaration()) continue;
      ++functions;
      std::vector<ir::ValueId> placement;
      {
        const IrNoisyProgram program(fn, dialect_);
        try {
          if (!options_.emit_lp.empty()) emit_lp(module, program);
          const auto result = place_reduce_noise(program, options_.parameters, placement_options(program, start, log, strategy, threading));
          placement = result.reduce_after;
          greedy_total += result.greedy_count;
          bound_total += result.best_bound;
          all_optimal = all_optimal && result.status == PlacementStatus::optimal;
          if (result.status == PlacementStatus::fallback && fallback.empty()) fallback = result.message;
        } catch (const PlacementError& e) {
          throw ir::IrError(placement_diagnostic(module, program, e));
        }
      }
      inserted += placement.size();
      (void)apply_reduce_noise(fn, dialect_, placement);
    }
    std::ostringstream status;
    if (greedy) {
      status << "greedy";
    } else if (!fallback.empty()) {
      status << "greedy fallback (" << fallback << ")";
    } else if (all_optimal) {
      status << "optimal";
    } else {
      const double total = static_cast<double>(inserted);
      const double gap = total > 0.0 ? (total - bound_total) / total : 0.0;
      status << "feasible, gap " << std::fixed << std::setprecision(1) << 100.0 * gap << "% (bound "
             << std::setprecision(0) << bound_total << ")";
    }
    const double seconds = std::chrono::duration<double>(clock::now() - start).count();
    std::ostringstream line;
    line << "noisy-reduce-noise: inserted " << inserted << " reduce_noise op" << (inserted == 1 ? "" : "s");
    if (!greedy) line << " (greedy: " << greedy_total << ")";
    line << " in " << functions << " function" << (functions == 1 ? "" : "s") << ", " << status.str() << ", "
         << std::fixed << std::setprecision(3) << seconds << " s\n";
    log << line.str();
  }

  void rebalance(ir::Module& module, PlacementStrategy strategy, std::ostream& log, bool threading) const {
    const auto start = std::chrono::steady_clock::now();
    std::size_t trees = 0, seen = 0, before = 0, after = 0, functions = 0, changed = 0;
    bool all_optimal = true;
    for (ir::Function& fn : module.functions) {
      if (fn.is_declaration()) continue;
      ++functions;
      PlacementOptions o;
      {
        const IrNoisyProgram program(fn, dialect_);
        o = placement_options(program, start, log, strategy, threading);
      }
      o.ilp.name = nullptr;  // it names the values of `program`, gone here; the candidates are copies
      IrRebalanceReport report;
      try {
        report = rebalance_ir_function(fn, dialect_, options_.parameters, o);
      } catch (const PlacementError& e) {
        const IrNoisyProgram program(fn, dialect_);
        throw ir::IrError(placement_diagnostic(module, program, e));
      }
      trees += report.trees_rewritten;
      seen += report.trees_seen;
      before += report.reductions_before;
      after += report.reductions_after;
      changed += report.trees_rewritten > 0 ? 1 : 0;
      all_optimal = all_optimal && report.status == PlacementStatus::optimal;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream line;
    line << "noisy-rebalance: rewrote " << trees << " of " << seen << " tree" << (seen == 1 ? "" : "s") << " in "
         << changed << " of " << functions << " function" << (functions == 1 ? "" : "s") << "; reduce_noise ops needed: "
         << before << " before, " << after << " after" << (all_optimal ? " (optimal placements)" : " (placements not all proven optimal)")
         << ", " << std::fixed << std::setprecision(3) << seconds << " s\n";
    log << line.str();
  }

  // The options of `place_reduce_noise` for one function: the strategy, the
  // time left, the threads, LP names, and one progress line a second on `log`.
  [[nodiscard]] PlacementOptions placement_options(const IrNoisyProgram& program, std::chrono::steady_clock::time_point start,
                                                   std::ostream& log, PlacementStrategy strategy, bool threading) const {
    PlacementOptions o;
    o.strategy = strategy;
    o.lazy.threads = threading ? 2 : 1;
    o.time_limit_seconds = lp::inf;
    if (options_.time_limit_seconds < lp::inf) {
      const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      o.time_limit_seconds = std::max(0.0, options_.time_limit_seconds - used);
    }
    o.ilp.name = [&program](std::size_t v) { return value_stem(program.function(), static_cast<ir::ValueId>(v)); };
    const std::string function = program.function().name;
    auto last = std::make_shared<double>(0.0);
    o.progress = [&log, function, last](const PlacementProgress& p) {
      if (p.elapsed_seconds < *last + 1.0) return;  // at most one line a second
      *last = p.elapsed_seconds;
      std::ostringstream line;
      line << "noisy-reduce-noise: @" << function << " level " << p.level << " ("
           << (p.level == 1 ? "inserted ops" : "total noise") << "): best " << p.incumbent << ", bound " << p.bound;
      if (p.incumbent > 0.0 && p.bound <= p.incumbent)
        line << ", gap " << std::fixed << std::setprecision(1) << 100.0 * (p.incumbent - p.bound) / p.incumbent << "%";
      if (p.round > 0) line << ", round " << p.round << ", " << p.cuts << " cuts";
      if (p.nodes > 0) line << ", " << p.nodes << " nodes";
      line << ", " << std::fixed << std::setprecision(1) << p.elapsed_seconds << " s\n";
      log << line.str() << std::flush;
    };
    return o;
  }

  static std::string value_stem(const ir::Function& fn, ir::ValueId v) {
    const std::string_view name = fn.value_name(v);
    return name.empty() ? "v" + std::to_string(v) : "v_" + std::string(name);
  }

  void emit_lp(const ir::Module& module, const IrNoisyProgram& program) const {
    const auto least = check_placement_possible(program, options_.parameters);
    PlacementModelOptions model_options;
    model_options.name = [&program](std::size_t v) { return value_stem(program.function(), static_cast<ir::ValueId>(v)); };
    model_options.max_inserted = place_reduce_noise_greedy(program, options_.parameters).size();
    const auto pm = build_placement_model(program, options_.parameters, least, model_options);
    const std::filesystem::path path = lp_path(module, program.function());
    try {
      (void)lp::write_lp_file(pm.model, path);
    } catch (const lp::ModelError& e) {
      throw ir::IrError(ir::Diagnostic{module.source_name, program.function().loc,
                                       "--emit-lp: cannot write '" + path.string() + "': " + e.what()});
    }
  }

  DriverOptions options_;
  IrDialect dialect_;
  bool registered_ = false;
};

/// The noisy dialect as a kildall-opt plugin (see kildall/ir/driver_plugin.hpp):
/// `plugins.push_back(kildall::noisy::kildall_opt_plugin());`
[[nodiscard]] inline ir::DriverPlugin kildall_opt_plugin() {
  auto driver = std::make_shared<NoisyDriver>();
  ir::DriverPlugin plugin;
  plugin.usage = std::string(NoisyDriver::usage);
  plugin.analyses = {std::string(NoisyDriver::analysis_name)};
  plugin.register_dialect = [driver](ir::OpRegistry& registry) { driver->register_dialect(registry); };
  plugin.parse_argument = [driver](std::string_view arg, std::span<const std::string_view> rest) {
    return driver->parse_argument(arg, rest);
  };
  plugin.register_passes = [driver](ir::IrPassRegistry& registry) {
    const std::vector<std::string> optimizers{"lazy", "ilp", "greedy"};
    const auto strategy_of = [](const std::string& name) {
      return name == "ilp" ? PlacementStrategy::ilp : name == "greedy" ? PlacementStrategy::greedy : PlacementStrategy::lazy;
    };
    struct Row {
      std::string_view name, display, description;
      bool has_optimizer;
    };
    static constexpr Row rows[] = {
        {"noisy-verify", "NoisyVerify", "Fail at the first noisy op whose noise exceeds the maximum", false},
        {"noisy-rebalance", "NoisyRebalance",
         "Re-associate add/sub/mul trees to need fewer reduce_noise ops (kept only when the optimal placement needs fewer)",
         true},
        {"noisy-reduce-noise", "NoisyReduceNoise", "Insert noisy.reduce_noise ops, then verify", true},
    };
    for (const Row& row : rows) {
      pass::PassDefinition<ir::IrPasses> def;
      def.argument = std::string(row.name);
      def.display_name = std::string(row.display);
      def.description = std::string(row.description);
      if (row.has_optimizer)
        def.options.push_back(pass::PassOption{
            "optimizer", "lazy: optimal at scale; ilp: the article's model; greedy: the baseline", "lazy", optimizers});
      def.make_module_pass = [driver, row, strategy_of](const pass::PassOptionValues& values) -> pass::ModulePassBody<ir::IrPasses> {
        const PlacementStrategy strategy = row.has_optimizer ? strategy_of(values.get("optimizer")) : PlacementStrategy::lazy;
        return [driver, row, strategy](ir::Module& module, pass::ModuleAnalysisManager<ir::IrPasses>&,
                                       const ir::PassContext& context) {
          std::ostringstream discarded;  // no log given: summaries go nowhere
          std::ostream& log = context.log ? *context.log : discarded;
          driver->run_pass(row.name, module, context.trace != nullptr, log, strategy, context.threading);
          return row.name == "noisy-verify" ? pass::PreservedAnalyses::all() : pass::PreservedAnalyses::none();
        };
      };
      registry.add(std::move(def));
    }
  };
  plugin.describe_values = [driver](const ir::Module& module, const ir::Function& fn, std::string_view,
                                    const ir::PluginContext& context) {
    return driver->describe_values(module, fn, context.debug, *context.log);
  };
  return plugin;
}

}  // namespace kildall::noisy
