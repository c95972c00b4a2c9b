#pragma once
// The end-to-end oracle shared by the kildall-opt and parser fuzz targets and
// the differential tests: given a verified module,
//   1. run every function on many inputs with the interpreter (all inputs when
//      the arguments have few bits), recording every value and block seen;
//   2. SCCP and the integer ranges must be sound for what was seen (a seen
//      block is executable, a seen value is allowed by its state) and, on
//      argument-free acyclic functions without calls, SCCP must be exact;
//   3. for each pass sequence (sccp, int-range-optimizations, the noisy
//      dialect's reduce-noise placement (greedy; the optimal ILP too when
//      KILDALL_FUZZ_WITH_GLPK is defined), or several in a row, as
//      `kildall-opt` runs them): the rewritten module must verify, print,
//      re-parse to the same text, and return the same results as the
//      original on every input where the original returned; after a
//      reduce-noise placement no noisy op may exceed the maximum noise, and
//      an optimal ILP placement never inserts more ops than the greedy one.
// Returns an empty string, or what went wrong.

#include <cstdint>
#include <iterator>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/interprocedural.hpp>
#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/canonicalize.hpp>
#include <kildall/ir/interpreter.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/verifier.hpp>
#include <kildall/noisy/greedy.hpp>
#include <kildall/noisy/ir_dialect.hpp>
#if defined(KILDALL_FUZZ_WITH_GLPK)
#include <kildall/noisy/place_reduce_noise.hpp>
#endif

namespace kildall::fuzz {

/// A rewrite of `kildall-opt`.
enum class Pass : std::uint8_t {
  sccp,                ///< `--sccp`
  int_range,           ///< `--int-range-optimizations`
  canonicalize,        ///< `--canonicalize` (a function pass at either nesting)
  reduce_noise_greedy, ///< `--noisy-reduce-noise=greedy` (needs `PipelineOptions::dialect`)
  reduce_noise_ilp,    ///< `--noisy-reduce-noise` (ILP; needs KILDALL_FUZZ_WITH_GLPK and the dialect)
};

/// The flag name of `pass`.
[[nodiscard]] inline const char* to_string(Pass pass) {
  switch (pass) {
    case Pass::sccp: return "sccp";
    case Pass::int_range: return "int-range-optimizations";
    case Pass::canonicalize: return "canonicalize";
    case Pass::reduce_noise_greedy: return "noisy-reduce-noise=greedy";
    case Pass::reduce_noise_ilp: return "noisy-reduce-noise=ilp";
  }
  return "?";
}

/// Effort and strictness of `check_pipeline`.
struct PipelineOptions {
  std::uint64_t max_steps = 400;    ///< Interpreter budget of an original run.
  unsigned exhaustive_bits = 8;     ///< All argument tuples when their bits total at most this.
  std::size_t random_inputs = 6;    ///< Otherwise: all-zero, all-ones and this many random tuples.
  bool acyclic = false;             ///< The module has no backward branch (enables the exactness check).
  const noisy::IrDialect* dialect = nullptr;  ///< The noisy dialect's codes, for the reduce-noise passes.
  noisy::NoiseParameters noise;     ///< Initial and maximum noise for the reduce-noise passes.
};

/// What `check_pipeline` compared (accumulated over calls).
struct PipelineStats {
  std::size_t runs = 0;              ///< Interpreter runs of the original module.
  std::size_t returned_runs = 0;     ///< ... that returned (these are compared).
  std::size_t compared = 0;          ///< Rewritten-module runs compared with the original.
  std::size_t exact_functions = 0;   ///< Functions checked for SCCP exactness.
  std::size_t folded = 0;            ///< Ops/branches the rewrites changed (reduce_noise ops inserted included).
  std::size_t placed_functions = 0;  ///< Functions given a reduce-noise placement.
  std::size_t unplaceable = 0;       ///< Functions no placement can make legal (PlacementError).
};

/// Parses and verifies `text` as the fuzz targets read input: unregistered ops in the generic
/// form allowed (`kildall-opt --allow-unregistered-dialect`).
[[nodiscard]] inline ir::Module parse_for_fuzz(std::string_view text, const ir::OpRegistry& registry, std::string name) {
  return ir::parse_and_verify(text, registry, std::move(name), {.allow_unregistered_ops = true});
}

/// The solver options `kildall-opt` uses.

[[nodiscard]] inline SolverOptions driver_solver_options() {
  SolverOptions options;
  options.narrowing_passes = 2;
  return options;
}

namespace detail {

struct FunctionRuns {
  std::vector<std::vector<std::uint64_t>> inputs;
  std::vector<ir::ExecResult> results;
};

template <class Source>
std::vector<std::vector<std::uint64_t>> input_tuples(const ir::Function& fn, Source& source, const PipelineOptions& o) {
  unsigned total = 0;
  for (const ir::Type t : fn.argument_types) total += t.width();
  std::vector<std::vector<std::uint64_t>> tuples;
  if (total <= o.exhaustive_bits) {
    for (std::uint64_t code = 0; code < (std::uint64_t{1} << total); ++code) {
      std::vector<std::uint64_t> args;
      unsigned shift = 0;
      for (const ir::Type t : fn.argument_types) {
        args.push_back((code >> shift) & ir::width_mask(t.width()));
        shift += t.width();
      }
      tuples.push_back(std::move(args));
    }
    return tuples;
  }
  tuples.emplace_back(fn.argument_types.size(), 0);
  tuples.emplace_back(fn.argument_types.size(), ~std::uint64_t{0});
  for (std::size_t s = 0; s < o.random_inputs; ++s) {
    std::vector<std::uint64_t> args;
    for (const ir::Type t : fn.argument_types) {
      const unsigned w = t.width();
      std::uint64_t v = source();
      switch (source() % 4) {
        case 0: v %= 4; break;
        case 1:  // around the sign boundary (a function value has no width: masked to 0 below)
          if (w != 0) v = (std::uint64_t{1} << (w - 1)) + (v % 3) - 1;
          break;
        case 2: v = ~std::uint64_t{0} - v % 3; break;
        default: break;
      }
      args.push_back(v & ir::width_mask(w));
    }
    tuples.push_back(std::move(args));
  }
  return tuples;
}

/// `canonicalize` on `fn`, which must converge. "" on success, else what went wrong.
inline std::string canonicalize_function(ir::Function& fn, const ir::OpRegistry& registry, PipelineStats& stats) {
  const kildall::rewrite::RewriteResult result = ir::canonicalize(fn, registry);
  if (!result.converged()) return "canonicalize of @" + fn.name + ": " + result.message();
  stats.folded += result.statistics.folds + result.statistics.erased + result.statistics.region_simplifications;
  return {};
}

/// `pass` (`sccp`, `int_range` or `canonicalize`) run one function at a time, as inside `func.func(...)`:
/// arguments and call results unknown. "" on success, else what went wrong.
inline std::string rewrite_each_function(ir::Module& module, Pass pass, PipelineStats& stats) {
  for (ir::Function& fn : module.functions) {
    if (fn.is_declaration()) continue;
    if (pass == Pass::sccp) {
      const ir::SccpAnalysis analysis(fn, *module.registry, driver_solver_options());
      if (!analysis.result().converged()) return "SCCP of @" + fn.name + " did not converge";
      const ir::SccpRewriteStats s = ir::apply_sccp(fn, analysis);
      stats.folded += s.values_replaced + s.branches_folded;
    } else if (pass == Pass::int_range) {
      const ir::IntRangeAnalysis analysis(fn, module.registry, driver_solver_options());
      if (!analysis.result().converged()) return "int-range analysis of @" + fn.name + " did not converge";
      stats.folded += ir::apply_int_range_optimizations(fn, analysis).values_replaced;
    } else if (pass == Pass::canonicalize) {
      if (std::string error = canonicalize_function(fn, *module.registry, stats); !error.empty()) return error;
    } else {
      return "not a function pass";
    }
  }
  ir::verify(module);
  return {};
}

inline std::string rewrite(ir::Module& module, std::span<const Pass> passes, const PipelineOptions& options,
                           PipelineStats& stats) {
  for (const Pass pass : passes) {
    std::vector<bool> placed(module.functions.size(), false);
    // SCCP and the ranges run on the whole module (interprocedurally), as kildall-opt runs them.
    if (pass == Pass::sccp) {
      std::string error;
      const auto result = ir::solve_module_sccp(module, *module.registry, driver_solver_options(),
                                                [&](std::uint32_t f, const ir::SccpAnalysis& analysis) {
                                                  if (!analysis.result().converged()) error = "SCCP of @" + module.functions[f].name + " did not converge";
                                                  const ir::SccpRewriteStats s = ir::apply_sccp(module.functions[f], analysis);
                                                  stats.folded += s.values_replaced + s.branches_folded;
                                                });
      if (!result.converged()) return "interprocedural SCCP did not converge";
      if (!error.empty()) return error;
      ir::verify(module);
      continue;
    }
    if (pass == Pass::int_range) {
      std::string error;
      const auto result = ir::solve_module_int_ranges(module, *module.registry, driver_solver_options(),
                                                      [&](std::uint32_t f, const ir::IntRangeAnalysis& analysis) {
                                                        if (!analysis.result().converged()) error = "int-range analysis of @" + module.functions[f].name + " did not converge";
                                                        stats.folded += ir::apply_int_range_optimizations(module.functions[f], analysis).values_replaced;
                                                      });
      if (!result.converged()) return "interprocedural int-range analysis did not converge";
      if (!error.empty()) return error;
      ir::verify(module);
      continue;
    }
    if (pass == Pass::canonicalize) {
      for (ir::Function& fn : module.functions)
        if (!fn.is_declaration())
          if (std::string error = canonicalize_function(fn, *module.registry, stats); !error.empty()) return error;
      ir::verify(module);
      continue;
    }
    for (std::size_t f = 0; f < module.functions.size(); ++f) {
      ir::Function& fn = module.functions[f];
      if (fn.is_declaration()) continue;
      if (pass == Pass::reduce_noise_greedy || pass == Pass::reduce_noise_ilp) {
        if (options.dialect == nullptr) return "reduce-noise pass without the noisy dialect";
        std::vector<ir::ValueId> placement;
        {
          const noisy::IrNoisyProgram program(fn, *options.dialect);
          try {
            if (pass == Pass::reduce_noise_greedy) {
              placement = noisy::place_reduce_noise_greedy(program, options.noise);
            } else {
#if defined(KILDALL_FUZZ_WITH_GLPK)
              noisy::PlacementOptions ilp;
              ilp.strategy = noisy::PlacementStrategy::ilp;
              ilp.time_limit_seconds = 20;
              const auto result = noisy::place_reduce_noise(program, options.noise, ilp);
              placement = result.reduce_after;
              if (result.status == noisy::PlacementStatus::optimal && placement.size() > result.greedy_count)
                return "@" + fn.name + ": the optimal ILP placement inserts " + std::to_string(placement.size()) +
                       " ops, the greedy one " + std::to_string(result.greedy_count);
#else
              return "the ILP placement needs KILDALL_FUZZ_WITH_GLPK";
#endif
            }
          } catch (const noisy::PlacementError&) {
            ++stats.unplaceable;  // no placement exists: kildall-opt reports it as an error
            continue;
          }
        }
        (void)noisy::apply_reduce_noise(fn, *options.dialect, placement);
        stats.folded += placement.size();
        ++stats.placed_functions;
        placed[f] = true;
      }
    }
    ir::verify(module);
    for (std::size_t f = 0; f < module.functions.size(); ++f)
      if (placed[f])
        if (const auto error = noisy::find_noise_error(module, module.functions[f], *options.dialect, options.noise))
          return std::string(to_string(pass)) + " left a noise error: " + error->str();
  }
  return {};
}

}  // namespace detail

/// Checks `module` (parsed and verified from `text`) as described in the file
/// comment; `sequences` are the pass pipelines to try; random inputs come from
/// `source`. Returns "" when everything holds, else the first problem found.
template <class Source>
[[nodiscard]] std::string check_pipeline(const ir::Module& module, std::string_view text,
                                         std::span<const std::vector<Pass>> sequences, Source& source,
                                         const PipelineOptions& options, PipelineStats& stats) {
  const ir::OpRegistry& registry = *module.registry;
  const std::size_t nf = module.functions.size();
  // 1. Original runs, with everything observed.
  std::vector<std::vector<std::set<std::uint64_t>>> seen_values(nf);
  std::vector<std::vector<bool>> seen_blocks(nf);
  for (std::size_t f = 0; f < nf; ++f) {
    seen_values[f].resize(module.functions[f].values.size());
    seen_blocks[f].assign(module.functions[f].blocks.size(), false);
  }
  ir::InterpreterOptions observe;
  observe.max_steps = options.max_steps;
  observe.on_value = [&](std::uint32_t f, ir::ValueId v, std::uint64_t bits) {
    auto& set = seen_values[f][v];
    set.insert(bits);
    if (set.size() > 64) set.erase(std::next(set.begin()));  // bounded sample; keeps the extremes
  };
  observe.on_block = [&](std::uint32_t f, ir::BlockId b) { seen_blocks[f][b] = true; };
  const ir::Interpreter original(module);
  std::vector<detail::FunctionRuns> runs(nf);
  for (std::uint32_t f = 0; f < nf; ++f) {
    if (module.functions[f].is_declaration()) continue;
    runs[f].inputs = detail::input_tuples(module.functions[f], source, options);
    for (const auto& args : runs[f].inputs) {
      runs[f].results.push_back(original.run(f, args, observe));
      ++stats.runs;
      stats.returned_runs += runs[f].results.back().status == ir::ExecStatus::returned;
    }
  }
  bool has_calls = false;
  for (const ir::Function& fn : module.functions)
    for (const ir::OpData& op : fn.ops)
      if (!op.erased && module.registry->op(op.code).calls != ir::CallKind::none) has_calls = true;
  // 2. Soundness (and exactness) of the analyses.
  for (std::uint32_t f = 0; f < nf; ++f) {
    const ir::Function& fn = module.functions[f];
    if (fn.is_declaration()) continue;
    const ir::SccpAnalysis sccp(fn, registry, driver_solver_options());
    if (!sccp.result().converged()) return "SCCP of @" + fn.name + " did not converge";
    const ir::IntRangeAnalysis ranges(fn, nullptr, driver_solver_options());
    if (!ranges.result().converged()) return "int-range analysis of @" + fn.name + " did not converge";
    for (ir::BlockId b = 0; b < fn.blocks.size(); ++b) {
      if (!seen_blocks[f][b]) continue;
      if (!sccp.executable(b)) return "SCCP: block " + std::to_string(b) + " of @" + fn.name + " ran but is not executable";
      if (!ranges.executable(b))
        return "int-range: block " + std::to_string(b) + " of @" + fn.name + " ran but is not executable";
    }
    for (ir::ValueId v = 0; v < fn.values.size(); ++v) {
      const auto& seen = seen_values[f][v];
      if (seen.empty() || !fn.values[v].type.is_integer_like()) continue;
      const std::string name = "%" + std::string(fn.value_name(v)) + " (value " + std::to_string(v) + ") of @" + fn.name;
      const ir::ConstantState* c = sccp.lookup(v);
      if (c == nullptr) return "SCCP: " + name + " was computed but is uninitialized";
      if (c->is_constant() && (seen.size() != 1 || *seen.begin() != c->constant()))
        return "SCCP: " + name + " claimed constant " + std::to_string(c->constant()) + " but took other values";
      const Interval* r = ranges.lookup(v);
      if (r == nullptr) return "int-range: " + name + " was computed but is uninitialized";
      for (const std::uint64_t bits : seen)
        if (!r->contains(bits))
          return "int-range: " + name + " took " + std::to_string(bits) + ", outside " + to_string(*r);
    }
    // Exactness: one run, no arguments, no loops, no calls.
    if (options.acyclic && !has_calls && fn.argument_types.empty() && runs[f].results.size() == 1 &&
        runs[f].results[0].status == ir::ExecStatus::returned) {
      ++stats.exact_functions;
      for (ir::BlockId b = 0; b < fn.blocks.size(); ++b)
        if (sccp.executable(b) != seen_blocks[f][b])
          return "SCCP not exact: block " + std::to_string(b) + " of @" + fn.name + " executable=" +
                 std::to_string(sccp.executable(b)) + " but ran=" + std::to_string(seen_blocks[f][b]);
      for (ir::ValueId v = 0; v < fn.values.size(); ++v) {
        const auto& seen = seen_values[f][v];
        if (seen.empty() || !fn.values[v].type.is_integer_like()) continue;
        const auto c = sccp.constant(v);
        if (!c || *c != *seen.begin())
          return "SCCP not exact: value " + std::to_string(v) + " of @" + fn.name + " is " + sccp.describe(v) +
                 " but the only run computed " + std::to_string(*seen.begin());
      }
    }
  }
  // 3. Each pass sequence keeps the results. SCCP and the ranges run on the whole module and may
  // specialize a function only the module calls (its arguments are what its calls pass): such a
  // function is then checked through its callers' runs, not run on inputs of its own.
  const std::vector<bool> named_otherwise = ir::functions_named_otherwise(module, ir::SymbolTables(module));
  for (const std::vector<Pass>& passes : sequences) {
    std::string label;
    for (const Pass p : passes) label += std::string(label.empty() ? "" : ",") + to_string(p);
    bool interprocedural = false;
    for (const Pass p : passes) interprocedural = interprocedural || p == Pass::sccp || p == Pass::int_range;
    std::string printed;
    try {
      ir::Module rewritten = parse_for_fuzz(text, registry, "fuzz.mlir");
      if (std::string error = detail::rewrite(rewritten, passes, options, stats); !error.empty()) return label + ": " + error;
      printed = ir::print_module(rewritten);
    } catch (const ir::IrError& e) {
      return label + ": the rewritten module is invalid: " + e.what();
    }
    std::optional<ir::Module> reparsed;
    try {
      reparsed.emplace(parse_for_fuzz(printed, registry, "rewritten.mlir"));
    } catch (const ir::IrError& e) {
      return label + ": the printed rewritten module does not parse: " + e.what() + "\n--- printed ---\n" + printed;
    }
    if (const std::string again = ir::print_module(*reparsed); again != printed)
      return label + ": printing is not stable\n--- first ---\n" + printed + "--- second ---\n" + again;
    const ir::Interpreter after(*reparsed);
    ir::InterpreterOptions budget;
    budget.max_steps = 4 * options.max_steps + 64;
    for (std::uint32_t f = 0; f < nf; ++f) {
      if (interprocedural && !ir::has_unknown_callers(module, f, named_otherwise)) continue;
      for (std::size_t i = 0; i < runs[f].results.size(); ++i) {
        const ir::ExecResult& want = runs[f].results[i];
        if (want.status != ir::ExecStatus::returned) continue;  // undefined or too long: anything goes
        const ir::ExecResult got = after.run(f, runs[f].inputs[i], budget);
        ++stats.compared;
        if (got.status != ir::ExecStatus::returned || got.results != want.results) {
          std::string args;
          for (const std::uint64_t a : runs[f].inputs[i]) args += (args.empty() ? "" : ", ") + std::to_string(a);
          return label + ": @" + module.functions[f].name + "(" + args + ") " +
                 (got.status == ir::ExecStatus::returned ? "returned different results" : "failed: " + got.message) +
                 " after the rewrite\n--- rewritten ---\n" + printed;
        }
      }
    }
  }
  return {};
}

}  // namespace kildall::fuzz
