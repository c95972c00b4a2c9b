#pragma once
/// \file
/// The pass manager: a pipeline of module passes and function stages
/// (`builtin.module(noisy-verify,func.func(sccp,int-range-optimizations))`),
/// built from a parsed textual pipeline and a `PassRegistry`, run on a module
/// with per-unit analysis managers, per-pass timing, IR hooks before and after
/// each pass, and each function stage run on every function in parallel
/// (MLIR's `OpPassManager` nesting and multi-threaded execution of isolated
/// ops; docs "Pass Infrastructure"). Knows no IR: `Ir` models `PassIr`.
///
/// A function pass written at module level is nested implicitly: consecutive
/// ones form one `func.func(...)` stage, so `-a -b` of two function passes is
/// `builtin.module(func.func(a,b))`. A pass that runs on either anchor (both
/// factories set, as MLIR's `sccp`) is a module pass at module level and a
/// function pass inside `func.func(...)`. The IR is
/// verified after each module pass and after each function stage.
/// Determinism: a function stage runs the stage's passes on each function
/// independently, so the result does not depend on the thread count; when
/// several functions fail, the error of the first one (in module order) is
/// reported, as a sequential run would.

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kildall/pass/analysis_manager.hpp>
#include <kildall/pass/pass.hpp>
#include <kildall/pass/pipeline.hpp>
#include <kildall/pass/thread_pool.hpp>
#include <kildall/pass/timing.hpp>

namespace kildall::pass {

/// The analysis managers of a module and of each of its functions. Owned by
/// the caller, so analyses cached by one pipeline serve the next query.
template <PassIr Ir>
class ModuleAnalyses {
 public:
  /// Managers for `module` and its functions (both must outlive this object).
  ModuleAnalyses(typename Ir::Module& module, const typename Ir::Context& context)
      : module_(&module), context_(&context), module_manager_(module, context) {
    rebuild();
  }
  /// The module's manager.
  [[nodiscard]] ModuleAnalysisManager<Ir>& module_manager() noexcept { return module_manager_; }
  /// The manager of function `i`.
  [[nodiscard]] FunctionAnalysisManager<Ir>& function_manager(std::size_t i) { return functions_[i]; }
  /// Drops every function's analyses and makes fresh managers (after a module
  /// pass that may have replaced, added or removed functions).
  void rebuild() {
    functions_.clear();
    const std::size_t n = Ir::function_count(*module_);
    functions_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) functions_.emplace_back(Ir::function(*module_, i), *context_);
  }

 private:
  typename Ir::Module* module_;
  const typename Ir::Context* context_;
  ModuleAnalysisManager<Ir> module_manager_;
  std::vector<FunctionAnalysisManager<Ir>> functions_;
};

/// Called before or after each pass: the pass, and the function it ran on
/// (nullptr for a module pass) in its module. Set hooks make the run sequential.
template <PassIr Ir>
using PassHook =
    std::function<void(const PassDefinition<Ir>&, const typename Ir::Function*, const typename Ir::Module&)>;

/// How `PassManager::run` runs.
template <PassIr Ir>
struct RunOptions {
  ThreadPool* pool = nullptr;       ///< Runs function stages in parallel (null: sequentially).
  Timing* timing = nullptr;         ///< Gets one node per stage and pass (null: untimed).
  std::size_t timing_parent = Timing::root;  ///< Where in `timing` the pipeline's nodes go.
  PassHook<Ir> before;              ///< Before each pass (`--mlir-print-ir-before-all`).
  PassHook<Ir> after;               ///< After each pass (`--mlir-print-ir-after-all`).
};

/// A pipeline of passes, ready to run.
template <PassIr Ir>
class PassManager {
 public:
  /// Builds the pipeline of `elements` (from `parse_pipeline`) with the passes
  /// of `registry` (which must outlive the manager). Throws `PipelineError` at
  /// the element for an unknown pass or anchor, a module pass inside
  /// `func.func(...)`, or bad options.
  PassManager(const std::vector<PipelineElement>& elements, const PassRegistry<Ir>& registry) {
    std::vector<const PipelineElement*> top;
    if (elements.size() == 1 && elements[0].is_anchor && elements[0].name == Ir::module_anchor) {
      for (const PipelineElement& e : elements[0].nested) top.push_back(&e);
    } else {
      for (const PipelineElement& e : elements) top.push_back(&e);
    }
    for (const PipelineElement* e : top) {
      if (e->is_anchor) {
        if (e->name != Ir::function_anchor) throw bad_anchor(*e, Ir::module_anchor);
        stages_.emplace_back();
        for (const PipelineElement& inner : e->nested) {
          if (inner.is_anchor) throw bad_anchor(inner, Ir::function_anchor);
          const PassDefinition<Ir>& def = lookup(inner, registry);
          if (!def.is_function_pass())
            throw PipelineError(inner.column, "'" + inner.name + "' is a module pass: it cannot run on '" +
                                                  std::string(Ir::function_anchor) + "'");
          stages_.back().function_passes.push_back(FunctionStep{&def, def.make_function_pass(def.resolve(inner.options))});
        }
        continue;
      }
      const PassDefinition<Ir>& def = lookup(*e, registry);
      if (!def.is_module_pass()) {  // a function pass at module level: nested implicitly
        if (stages_.empty() || !stages_.back().implicit) {
          stages_.emplace_back();
          stages_.back().implicit = true;
        }
        stages_.back().function_passes.push_back(FunctionStep{&def, def.make_function_pass(def.resolve(e->options))});
      } else {
        stages_.emplace_back();
        stages_.back().module_definition = &def;
        stages_.back().module_pass = def.make_module_pass(def.resolve(e->options));
      }
    }
  }

  /// Whether the pipeline has no pass.
  [[nodiscard]] bool empty() const noexcept { return stages_.empty(); }

  /// The pipeline's canonical text, anchors explicit:
  /// `builtin.module(func.func(sccp,int-range-optimizations))`.
  [[nodiscard]] std::string str() const {
    std::string out = std::string(Ir::module_anchor) + "(";
    for (std::size_t s = 0; s < stages_.size(); ++s) {
      if (s) out += ',';
      if (stages_[s].module_pass) {
        out += stages_[s].module_definition->argument;
        continue;
      }
      out += std::string(Ir::function_anchor) + "(";
      for (std::size_t p = 0; p < stages_[s].function_passes.size(); ++p)
        out += (p ? "," : "") + stages_[s].function_passes[p].definition->argument;
      out += ')';
    }
    return out + ")";
  }

  /// Runs the pipeline on `module`, caching analyses in `analyses` (made for
  /// `module`). Throws what a pass or the verifier throws (see the file comment).
  void run(typename Ir::Module& module, ModuleAnalyses<Ir>& analyses, const typename Ir::Context& context,
           const RunOptions<Ir>& options = {}) const {
    for (const Stage& stage : stages_) {
      if (stage.module_pass) {
        const PassDefinition<Ir>& def = *stage.module_definition;
        if (options.before) options.before(def, nullptr, module);
        PreservedAnalyses preserved = PreservedAnalyses::none();
        {
          const ScopedTimer timer(options.timing, node(options, def.display_name));
          preserved = stage.module_pass(module, analyses.module_manager(), context);
          Ir::verify(module);
        }
        analyses.module_manager().invalidate(preserved);
        if (!preserved.preserves_all()) analyses.rebuild();
        if (options.after) options.after(def, nullptr, module);
        continue;
      }
      run_function_stage(stage, module, analyses, context, options);
    }
  }

 private:
  struct FunctionStep {
    const PassDefinition<Ir>* definition;
    FunctionPassBody<Ir> body;
  };
  struct Stage {
    const PassDefinition<Ir>* module_definition = nullptr;
    ModulePassBody<Ir> module_pass;           // set: a module pass
    std::vector<FunctionStep> function_passes;  // else: a function stage
    bool implicit = false;                      // a function stage opened by a pass written at module level
  };

  static PipelineError bad_anchor(const PipelineElement& e, std::string_view inside) {
    return PipelineError(e.column, "can't nest '" + e.name + "' in '" + std::string(inside) +
                                       "' (pipelines nest '" + std::string(Ir::function_anchor) + "' in '" +
                                       std::string(Ir::module_anchor) + "')");
  }

  static const PassDefinition<Ir>& lookup(const PipelineElement& e, const PassRegistry<Ir>& registry) {
    const PassDefinition<Ir>* def = registry.find(e.name);
    if (!def) throw PipelineError(e.column, "'" + e.name + "' does not refer to a registered pass");
    return *def;
  }

  static std::size_t node(const RunOptions<Ir>& options, const std::string& name) {
    return options.timing ? options.timing->child(options.timing_parent, name) : 0;
  }

  void run_function_stage(const Stage& stage, typename Ir::Module& module, ModuleAnalyses<Ir>& analyses,
                          const typename Ir::Context& context, const RunOptions<Ir>& options) const {
    const std::size_t pipeline_node = node(options, "'" + std::string(Ir::function_anchor) + "' Pipeline");
    const std::size_t passes = stage.function_passes.size();
    const std::size_t functions = Ir::function_count(module);
    std::vector<double> seconds(functions * passes, 0.0);  // per function and pass: no shared counters
    const auto run_one = [&](std::size_t f) {
      typename Ir::Function& fn = Ir::function(module, f);
      if (Ir::skipped(fn)) return;
      FunctionAnalysisManager<Ir>& manager = analyses.function_manager(f);
      for (std::size_t p = 0; p < passes; ++p) {
        const FunctionStep& step = stage.function_passes[p];
        if (options.before) options.before(*step.definition, &fn, module);
        const auto begin = std::chrono::steady_clock::now();
        const PreservedAnalyses preserved = step.body(fn, manager, context);
        seconds[f * passes + p] = seconds_since(begin);
        manager.invalidate(preserved);
        if (options.after) options.after(*step.definition, &fn, module);
      }
    };
    {
      const ScopedTimer timer(options.timing, pipeline_node);
      const bool parallel = options.pool && !options.before && !options.after && functions > 1;
      if (parallel) {
        options.pool->for_each_index(functions, run_one);
      } else {
        for (std::size_t f = 0; f < functions; ++f) run_one(f);
      }
      Ir::verify(module);
    }
    if (!options.timing) return;
    for (std::size_t p = 0; p < passes; ++p) {
      double sum = 0.0;
      for (std::size_t f = 0; f < functions; ++f) sum += seconds[f * passes + p];
      options.timing->add(options.timing->child(pipeline_node, stage.function_passes[p].definition->display_name), sum);
    }
  }

  std::vector<Stage> stages_;
};

}  // namespace kildall::pass
