#pragma once
// A toy IR for the pass-manager tests: a module of functions that are lists of
// integers, with analyses that count their constructions (real counters).

#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <kildall/pass/pass.hpp>

namespace toy {

struct Function {
  std::string name;
  std::vector<long> values;
  bool declaration = false;
};

struct Module {
  std::vector<Function> functions;
  mutable std::size_t verified = 0;  // how often the pass manager verified it
};

struct Context {
  mutable std::atomic<std::size_t> sums_computed{0};  // SumAnalysis constructions, over all functions
};

// The IR as the pass manager sees it.
struct Ir {
  using Module = toy::Module;
  using Function = toy::Function;
  using Context = toy::Context;
  static constexpr std::string_view module_anchor = "builtin.module";
  static constexpr std::string_view function_anchor = "func.func";
  static std::size_t function_count(const Module& m) { return m.functions.size(); }
  static Function& function(Module& m, std::size_t i) { return m.functions[i]; }
  static bool skipped(const Function& f) { return f.declaration; }
  static void verify(const Module& m) {
    ++m.verified;
    for (const Function& f : m.functions)
      for (const long v : f.values)
        if (v > 1'000'000) throw std::runtime_error("verify: @" + f.name + " holds " + std::to_string(v));
  }
};

// An analysis: the sum of a function's values, counted in the context.
struct SumAnalysis {
  long sum = 0;
  SumAnalysis(const Function& f, const Context& c) {
    for (const long v : f.values) sum += v;
    ++c.sums_computed;
  }
};

// A second analysis (only the unit: no context).
struct CountAnalysis {
  std::size_t count;
  explicit CountAnalysis(const Function& f) : count(f.values.size()) {}
};

using kildall::pass::PassDefinition;
using kildall::pass::PreservedAnalyses;

// Passes: double{factor=N} (multiplies; keeps CountAnalysis), sum (records
// each function's sum, read through the analysis manager, as its last value
// when `append=true`), noop (preserves all), fail-on{value=N} (throws at a
// function holding N), add-function (module pass).
inline kildall::pass::PassRegistry<Ir> registry() {
  kildall::pass::PassRegistry<Ir> r;
  PassDefinition<Ir> twice{"double", "Double", "Multiply every value", {{"factor", "the factor", "2", {}}}, {}, {}};
  twice.make_function_pass = [](const kildall::pass::PassOptionValues& o) -> kildall::pass::FunctionPassBody<Ir> {
    const long factor = std::stol(o.get("factor"));
    return [factor](Function& f, kildall::pass::FunctionAnalysisManager<Ir>&, const Context&) {
      for (long& v : f.values) v *= factor;
      return f.values.empty() || factor == 1 ? PreservedAnalyses::all()
                                             : PreservedAnalyses::none().preserve<CountAnalysis>();
    };
  };
  r.add(std::move(twice));
  PassDefinition<Ir> sum{"sum", "Sum", "Append the sum", {{"append", "append it", "false", {"true", "false"}}}, {}, {}};
  sum.make_function_pass = [](const kildall::pass::PassOptionValues& o) -> kildall::pass::FunctionPassBody<Ir> {
    const bool append = o.get("append") == "true";
    return [append](Function& f, kildall::pass::FunctionAnalysisManager<Ir>& am, const Context&) {
      const long s = am.get<SumAnalysis>().sum;
      if (!append) return PreservedAnalyses::all();
      f.values.push_back(s);
      return PreservedAnalyses::none();
    };
  };
  r.add(std::move(sum));
  PassDefinition<Ir> noop{"noop", "NoOp", "Nothing", {}, {}, {}};
  noop.make_function_pass = [](const kildall::pass::PassOptionValues&) -> kildall::pass::FunctionPassBody<Ir> {
    return [](Function&, kildall::pass::FunctionAnalysisManager<Ir>&, const Context&) { return PreservedAnalyses::all(); };
  };
  r.add(std::move(noop));
  PassDefinition<Ir> fail{"fail-on", "FailOn", "Throw at a value", {{"value", "the value", "0", {}}}, {}, {}};
  fail.make_function_pass = [](const kildall::pass::PassOptionValues& o) -> kildall::pass::FunctionPassBody<Ir> {
    const long value = std::stol(o.get("value"));
    return [value](Function& f, kildall::pass::FunctionAnalysisManager<Ir>&, const Context&) {
      for (const long v : f.values)
        if (v == value) throw std::runtime_error("@" + f.name + " holds " + std::to_string(value));
      return PreservedAnalyses::all();
    };
  };
  r.add(std::move(fail));
  PassDefinition<Ir> add{"add-function", "AddFunction", "Append a function", {}, {}, {}};
  add.make_module_pass = [](const kildall::pass::PassOptionValues&) -> kildall::pass::ModulePassBody<Ir> {
    return [](Module& m, kildall::pass::ModuleAnalysisManager<Ir>&, const Context&) {
      m.functions.push_back(Function{"added", {1}, false});
      return PreservedAnalyses::none();
    };
  };
  r.add(std::move(add));
  return r;
}

// `n` functions @f0..: f_i = {i, i + 1, ..., i + size - 1}.
inline Module module_of(std::size_t n, std::size_t size = 3) {
  Module m;
  for (std::size_t i = 0; i < n; ++i) {
    Function f{"f" + std::to_string(i), {}, false};
    for (std::size_t k = 0; k < size; ++k) f.values.push_back(static_cast<long>(i + k));
    m.functions.push_back(std::move(f));
  }
  return m;
}

}  // namespace toy
