// Function passes run in parallel by the pass manager (kildall/pass/pass_manager.hpp with kildall/ir/passes.hpp) on 100 random functions: the printed module equals the sequential run's, on pools of 2 and 4 threads; the tsan preset runs it for data races the comparison cannot see.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include <kildall/ir.hpp>
#include <kildall/ir/passes.hpp>
#include <kildall/pass/pass_manager.hpp>

#include "../ir/random_programs.hpp"

using namespace kildall;
using namespace kildall::ir;

TEST_CASE("parallel function passes = sequential, with caches and timing") {
  std::string text;
  for (std::size_t i = 0; i < 100; ++i) {
    testing::ProgramShape shape;
    shape.widths = {static_cast<unsigned>(3 + i % 6), 8};
    shape.blocks = 2 + static_cast<unsigned>(i % 7);
    shape.ops_per_block = 6;
    std::string fn = testing::random_program(i, shape);
    fn.replace(fn.find("@f("), 3, "@f" + std::to_string(i) + "(");
    text += fn;
  }
  IrPassRegistry registry;
  register_ir_passes(registry);
  const pass::PassManager<IrPasses> pm(
      pass::parse_pipeline("builtin.module(func.func(int-range-optimizations,sccp),func.func(int-range-optimizations))"),
      registry);
  const auto run = [&](unsigned threads) {
    Module m = parse_and_verify(text, OpRegistry::builtins());
    PassContext context;
    pass::ModuleAnalyses<IrPasses> analyses(m, context);
    pass::Timing timing;
    pass::RunOptions<IrPasses> options;
    options.timing = &timing;
    std::optional<pass::ThreadPool> pool;
    if (threads > 1) options.pool = &pool.emplace(threads);
    pm.run(m, analyses, context, options);
    return print_module(m);
  };
  const std::string sequential = run(1);
  CHECK(run(2) == sequential);
  CHECK(run(4) == sequential);
}
