// Compiles and runs the C++ blocks of docs/passes.md, as printed there, so the page cannot rot (oracle: the numbers the page states, computed by hand, and the sequential run).
// (tests/docs/check_doc_snippets.py checks the blocks are verbatim.)
#include <doctest/doctest.h>

// --- docs/passes.md: "Your IR on the pass manager" (verbatim) -----------------
#include <kildall/pass/pass_manager.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace tally {
// Your IR: a module of functions, each a list of numbers.
struct Function {
  std::string name;
  std::vector<long> numbers;
};
struct Module {
  std::vector<Function> functions;
};
struct Context {};  // what every pass and analysis reads (an op table, options...)

// What the pass manager needs to know of it (kildall::pass::PassIr).
struct Ir {
  using Module = tally::Module;
  using Function = tally::Function;
  using Context = tally::Context;
  static constexpr std::string_view module_anchor = "builtin.module";
  static constexpr std::string_view function_anchor = "func.func";
  static std::size_t function_count(const Module& m) { return m.functions.size(); }
  static Function& function(Module& m, std::size_t i) { return m.functions[i]; }
  static bool skipped(const Function& f) { return f.numbers.empty(); }
  static void verify(const Module&) {}
};

// An analysis is just a class, constructible from its unit (and the context).
struct Total {
  long value = 0;
  explicit Total(const Function& f) {
    for (const long n : f.numbers) value += n;
  }
};
}  // namespace tally
// --- end of the snippet -------------------------------------------------------

TEST_CASE("docs/passes.md: a pipeline on your own IR") {
  // --- docs/passes.md: the passes and the run (verbatim) ----------------------
  using namespace kildall::pass;

  PassRegistry<tally::Ir> registry;
  // scale{by=N}: a function pass with one option; it changes the numbers, so it preserves nothing.
  PassDefinition<tally::Ir> scale{"scale", "Scale", "Multiply every number", {{"by", "the factor", "2", {}}}, {}, {}};
  scale.make_function_pass = [](const PassOptionValues& options) -> FunctionPassBody<tally::Ir> {
    const long by = std::stol(options.get("by"));
    return [by](tally::Function& f, FunctionAnalysisManager<tally::Ir>&, const tally::Context&) {
      for (long& n : f.numbers) n *= by;
      return PreservedAnalyses::none();
    };
  };
  registry.add(std::move(scale));
  // append-total: reads the cached Total through the analysis manager.
  PassDefinition<tally::Ir> append{"append-total", "AppendTotal", "Append the total", {}, {}, {}};
  append.make_function_pass = [](const PassOptionValues&) -> FunctionPassBody<tally::Ir> {
    return [](tally::Function& f, FunctionAnalysisManager<tally::Ir>& analyses, const tally::Context&) {
      f.numbers.push_back(analyses.get<tally::Total>().value);
      return PreservedAnalyses::none();
    };
  };
  registry.add(std::move(append));

  tally::Module module{{{"f", {1, 2, 3}}, {"g", {10}}, {"declared", {}}}};
  const tally::Context context;
  const PassManager<tally::Ir> pipeline(parse_pipeline("builtin.module(func.func(scale{by=3},append-total))"), registry);
  ModuleAnalyses<tally::Ir> analyses(module, context);
  ThreadPool pool(2);  // function stages run on every function in parallel
  Timing timing;
  RunOptions<tally::Ir> options;
  options.pool = &pool;
  options.timing = &timing;
  pipeline.run(module, analyses, context, options);
  // module.functions[0].numbers == {3, 6, 9, 18}, [1] == {30, 30}, [2] is skipped
  // --- end of the snippet -----------------------------------------------------
  CHECK(module.functions[0].numbers == std::vector<long>{3, 6, 9, 18});
  CHECK(module.functions[1].numbers == std::vector<long>{30, 30});
  CHECK(module.functions[2].numbers.empty());
  const std::size_t stage = timing.child(Timing::root, "'func.func' Pipeline");
  REQUIRE(timing.children(stage).size() == 2);
  CHECK(timing.name(timing.children(stage)[0]) == "Scale");
  CHECK(timing.name(timing.children(stage)[1]) == "AppendTotal");
  CHECK(timing.report(1.0).find("    AppendTotal\n") != std::string::npos);
  // Sequentially: the same numbers.
  tally::Module again{{{"f", {1, 2, 3}}, {"g", {10}}, {"declared", {}}}};
  ModuleAnalyses<tally::Ir> fresh(again, context);
  pipeline.run(again, fresh, context);
  for (std::size_t f = 0; f < 3; ++f) CHECK(again.functions[f].numbers == module.functions[f].numbers);
  CHECK(fresh.function_manager(0).counters().computed == 1);
}
