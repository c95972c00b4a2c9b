// The kildall-opt noisy plugin (flags, passes, summary, the tutorial's five tests); oracles: brute force over IR placements with the CFG analysis, the interpreter, glpsol on the emitted LP.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <kildall/ir.hpp>
#include <kildall/lp/glpk.hpp>
#include <kildall/lp/lp_format.hpp>
#include <kildall/noisy/kildall_opt_plugin.hpp>
#include <kildall/pass/command_line.hpp>
#include <kildall/pass/pass_manager.hpp>

#include "ir_test_support.hpp"

using namespace kildall;
using namespace kildall::noisy;
using noisy_ir_test::read_example;

namespace {

// What kildall-opt does with the plugin: register, parse flags, parse the
// input, run the passes, print the module.
struct Run {
  std::string output;
  std::string log;
  std::string error;  // IrError text, if any
};

Run drive_text(std::vector<std::string_view> args, const std::string& text, const std::string& name);

Run drive(std::vector<std::string_view> args, const std::string& example) {
  return drive_text(std::move(args), read_example(example), example);
}

Run drive_text(std::vector<std::string_view> args, const std::string& text, const std::string& name) {
  ir::OpRegistry registry;
  const ir::DriverPlugin plugin = kildall_opt_plugin();
  plugin.register_dialect(registry);
  ir::IrPassRegistry passes;
  ir::register_ir_passes(passes);
  plugin.register_passes(passes);
  bool debug = false;
  std::vector<pass::PipelineElement> pipeline;
  for (std::size_t i = 0; i < args.size();) {
    if (args[i] == "--debug-analysis") {
      debug = true;
      ++i;
      continue;
    }
    if (auto flag = pass::pass_flag(args[i], passes)) {  // a registered pass's flag
      pipeline.push_back(std::move(*flag));
      ++i;
      continue;
    }
    const int used = plugin.parse_argument(args[i], std::span<const std::string_view>(args).subspan(i + 1));
    REQUIRE(used > 0);
    i += static_cast<std::size_t>(used);
  }
  Run r;
  std::ostringstream log;
  try {
    ir::Module m = ir::parse_and_verify(text, registry, name);
    const pass::PassManager<ir::IrPasses> manager(pipeline, passes);
    ir::PassContext context;
    context.registry = &registry;
    context.trace = debug ? &log : nullptr;
    context.log = &log;
    context.file = name;
    pass::ModuleAnalyses<ir::IrPasses> analyses(m, context);
    manager.run(m, analyses, context);
    r.output = ir::print_module(m);
  } catch (const ir::IrError& e) {
    r.error = e.what();
  }
  r.log = log.str();
  return r;
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Options of `place_reduce_noise` with strategy `s`.
PlacementOptions strategy(PlacementStrategy s) {
  PlacementOptions o;
  o.strategy = s;
  return o;
}

// The lexicographic optimum of `fn` by brute force over every placement of
// its reducible values (the CFG noise analysis decides legality): the fewest
// reductions, then the least total noise of the add/sub/mul values.
std::pair<int, std::uint64_t> brute_force_lexicographic(const IrNoisyProgram& program) {
  const ir::Function& fn = program.function();
  std::vector<ir::ValueId> reducible;
  for (ir::ValueId v = 0; v < fn.values.size(); ++v)
    if (is_reducible(program.kind(v))) reducible.push_back(v);
  REQUIRE(reducible.size() <= 16);
  std::pair<int, std::uint64_t> best{-1, 0};
  for (std::uint32_t mask = 0; mask < (1u << reducible.size()); ++mask) {
    NoiseAnalysisOptions options;
    options.reduce_after.assign(fn.values.size(), false);
    for (std::size_t i = 0; i < reducible.size(); ++i) options.reduce_after[reducible[i]] = (mask >> i & 1) != 0;
    const auto analysis = analyze_ir_noise(program, {}, options);
    if (!is_legal(analysis)) continue;
    std::uint64_t total = 0;
    for (const ir::ValueId v : reducible) total += analysis.noise_bound(v).value_or(0);
    const std::pair<int, std::uint64_t> here{__builtin_popcount(mask), total};
    if (best.first < 0 || here < best) best = here;
  }
  return best;
}

}  // namespace

TEST_CASE("--noisy-verify on the mul chain fails with the article's message at %5") {
  const Run r = drive({"--noisy-verify"}, "mul_chain.mlir");
  const auto [line, column] = noisy_ir_test::position_of(read_example("mul_chain.mlir"), "noisy.mul %4, %4");
  CHECK(r.error.find("mul_chain.mlir:" + std::to_string(line) + ":" + std::to_string(column) +
                     ": error: 'noisy.mul' op Found op after which the noise exceeds the allowable maximum of 26; "
                     "it was: 48") == 0);
  CHECK(drive({"--noisy-verify"}, "add_chain.mlir").error.empty());
}

TEST_CASE("--noisy-reduce-noise on the branching example inserts exactly one reduce_noise, after the mul") {
  const Run r = drive({"--noisy-reduce-noise"}, "single_insertion_branching.mlir");
  REQUIRE(r.error.empty());
  CHECK(count(r.output, "noisy.reduce_noise") == 1);
  CHECK(r.output.find("    %4 = noisy.mul %2, %3 : !noisy.i32\n    %5 = noisy.reduce_noise %4 : !noisy.i32\n") !=
        std::string::npos);
  CHECK(r.log.find("noisy-reduce-noise: inserted 1 reduce_noise op (greedy: 2) in 1 function, optimal, ") == 0);
  const Run g = drive({"--noisy-reduce-noise=greedy"}, "single_insertion_branching.mlir");
  CHECK(count(g.output, "noisy.reduce_noise") == 2);
  CHECK(g.log.find("noisy-reduce-noise: inserted 2 reduce_noise ops in 1 function, greedy, ") == 0);
}

TEST_CASE("--noisy-reduce-noise on every example: the brute-force optimum, legal, same results") {
  const char* names[] = {"mul_chain.mlir", "single_insertion_branching.mlir", "add_chain.mlir", "branches_rejoin.mlir",
                         "loop.mlir"};
  const std::size_t optimum[] = {3, 1, 0, 1, 1};  // proven by brute force in test_noisy_ir_dialect
  for (std::size_t e = 0; e < std::size(names); ++e) {
    CAPTURE(names[e]);
    const Run r = drive({"--noisy-reduce-noise"}, names[e]);
    REQUIRE(r.error.empty());
    CHECK(count(r.output, "noisy.reduce_noise") == optimum[e]);
    // The printed module parses, verifies and is legal.
    ir::OpRegistry registry;
    const IrDialect dialect = register_noisy_dialect(registry);
    const ir::Module optimized = ir::parse_and_verify(r.output, registry, "optimized.mlir");
    CHECK_FALSE(find_noise_error(optimized, optimized.functions[0], dialect).has_value());
    const ir::Module original = ir::parse_and_verify(read_example(names[e]), registry, names[e]);
    std::vector<std::uint64_t> args(original.functions[0].argument_types.size(), 3);
    CHECK(ir::interpret(optimized, optimized.functions[0].name, args).results ==
          ir::interpret(original, original.functions[0].name, args).results);
  }
}

TEST_CASE("the tutorial's five tests: the default prints the canonical placements (the brute force's lexicographic optimum)") {
  // The pinned text: examples/noisy/tutorial.expected.mlir (also run through
  // kildall-opt itself by the noisy_opt_tutorial test). Each placement there
  // is the one the tutorial's checks describe (after the mul; after the
  // first three muls; none; for the double branching the mul and one op in
  // each branch); here each function's placement is also the
  // lexicographic optimum of the brute force.
  const Run lazy = drive({"--noisy-reduce-noise"}, "tutorial.mlir");
  REQUIRE(lazy.error.empty());
  CHECK(lazy.output == read_example("tutorial.expected.mlir"));
  CHECK(lazy.log.find("noisy-reduce-noise: inserted 8 reduce_noise ops (greedy: 9) in 5 functions, optimal") == 0);
  const Run ilp = drive({"--noisy-reduce-noise=ilp"}, "tutorial.mlir");
  CHECK(ilp.output == lazy.output);
  ir::OpRegistry registry;
  const IrDialect dialect = register_noisy_dialect(registry);
  const ir::Module m = ir::parse_and_verify(read_example("tutorial.mlir"), registry, "tutorial.mlir");
  REQUIRE(m.functions.size() == 5);
  for (const ir::Function& fn : m.functions) {
    CAPTURE(fn.name);
    const IrNoisyProgram program(fn, dialect);
    const auto best = brute_force_lexicographic(program);
    const auto r = place_reduce_noise(program);
    CHECK(r.status == PlacementStatus::optimal);
    CHECK(r.statistics.tie_break_optimal);
    CHECK(static_cast<int>(r.reduce_after.size()) == best.first);
    CHECK(r.statistics.total_noise == best.second);
  }
}

TEST_CASE("ILP on random IR programs: never worse than greedy, always legal") {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const std::string text = noisy_ir_test::random_function(seed, 6 + static_cast<int>(seed % 6));
    ir::OpRegistry registry;
    const IrDialect dialect = register_noisy_dialect(registry);
    ir::Module m = ir::parse_and_verify(text, registry);
    const IrNoisyProgram program(m.functions[0], dialect);
    try {
      const auto r = place_reduce_noise(program, {}, strategy(PlacementStrategy::ilp));
      CHECK(r.status == PlacementStatus::optimal);
      CHECK(r.reduce_after.size() <= r.greedy_count);
      NoiseAnalysisOptions options;
      options.reduce_after = placement_mask(program, r.reduce_after);
      CHECK(is_legal(analyze_ir_noise(program, {}, options)));
    } catch (const PlacementError&) {
      CHECK_THROWS_AS((void)place_reduce_noise_greedy(program), PlacementError);
    }
  }
}

TEST_CASE("the lazy optimizer (the default) on random IR programs: legal, the ILP's optimum, proven") {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const std::string text = noisy_ir_test::random_function(seed, 6 + static_cast<int>(seed % 6));
    ir::OpRegistry registry;
    const IrDialect dialect = register_noisy_dialect(registry);
    ir::Module m = ir::parse_and_verify(text, registry);
    const IrNoisyProgram program(m.functions[0], dialect);
    CAPTURE(seed);
    try {
      const auto r = place_reduce_noise(program);
      CHECK(r.status == PlacementStatus::optimal);
      CHECK(r.reduce_after.size() <= r.greedy_count);
      NoiseAnalysisOptions options;
      options.reduce_after = placement_mask(program, r.reduce_after);
      CHECK(is_legal(analyze_ir_noise(program, {}, options)));
      const auto exact = place_reduce_noise(program, {}, strategy(PlacementStrategy::ilp));
      if (exact.status == PlacementStatus::optimal) CHECK(r.reduce_after.size() == exact.reduce_after.size());
    } catch (const PlacementError&) {
      CHECK_THROWS_AS((void)place_reduce_noise_greedy(program), PlacementError);
    }
  }
}

TEST_CASE("--noisy-reduce-noise picks the optimizer: lazy by default, ilp and greedy on request") {
  const Run lazy = drive({"--noisy-reduce-noise"}, "single_insertion_branching.mlir");
  const Run ilp = drive({"--noisy-reduce-noise=ilp"}, "single_insertion_branching.mlir");
  const Run greedy = drive({"--noisy-reduce-noise=greedy"}, "single_insertion_branching.mlir");
  REQUIRE(lazy.error.empty());
  CHECK(lazy.output == ilp.output);
  CHECK(count(lazy.output, "noisy.reduce_noise") == 1);
  CHECK(count(greedy.output, "noisy.reduce_noise") == 2);
  CHECK_MESSAGE(lazy.log.find("noisy-reduce-noise: inserted 1 reduce_noise op (greedy: 2) in 1 function, optimal, ") == 0, lazy.log);
  CHECK(greedy.log.find(", greedy, ") != std::string::npos);
}

TEST_CASE("--time-limit 0 with the lazy optimizer: a legal placement with its certified gap") {
  const Run r = drive({"--noisy-reduce-noise", "--time-limit", "0"}, "single_insertion_branching.mlir");
  REQUIRE(r.error.empty());  // (the pass verifies the result: an illegal placement would be an error)
  CHECK(count(r.output, "noisy.reduce_noise") >= 1);
  if (count(r.output, "noisy.reduce_noise") == 1) {
    CHECK_MESSAGE(r.log.find(", optimal, ") != std::string::npos, r.log);  // pruned greedy + bound may prove it
  } else {
    CHECK_MESSAGE(r.log.find("feasible, gap ") != std::string::npos, r.log);
  }
}

TEST_CASE("a maximum below what two fresh values reach: a clear error naming the mul") {
  const Run r = drive({"--noisy-reduce-noise", "--noisy-maximum=20"}, "single_insertion_branching.mlir");
  const auto [line, column] =
      noisy_ir_test::position_of(read_example("single_insertion_branching.mlir"), "noisy.mul %2, %3");
  CHECK(r.error.find("single_insertion_branching.mlir:" + std::to_string(line) + ":" + std::to_string(column) +
                     ": error: 'noisy.mul' op no placement of reduce_noise can make this op legal") == 0);
  CHECK(r.error.find("its noise is 24, above the allowable maximum of 20") != std::string::npos);
}

TEST_CASE("--emit-lp writes the placement model; glpk solves the file to the optimum") {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "kildall_noisy_emit_test.lp";
  const std::string flag = "--emit-lp=" + path.string();
  const Run r = drive({"--noisy-reduce-noise", flag}, "single_insertion_branching.mlir");
  REQUIRE(r.error.empty());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find("reduce_v_b1") != std::string::npos);
  const lp::Model model = lp::read_lp(text, path.string());
  const lp::Solution s = lp::solve_glpk(model);
  REQUIRE(s.status == lp::SolveStatus::optimal);
  CHECK(s.objective == doctest::Approx(1.0));
  std::filesystem::remove(path);
}

TEST_CASE("--noisy-reduce-noise=ilp --time-limit 0 falls back to greedy and says so") {
  const Run r = drive({"--noisy-reduce-noise=ilp", "--time-limit", "0"}, "single_insertion_branching.mlir");
  REQUIRE(r.error.empty());
  CHECK(count(r.output, "noisy.reduce_noise") == 2);
  CHECK_MESSAGE(r.log.find("greedy fallback (ILP solver: no_solution (") != std::string::npos, r.log);
  CHECK(r.log.find("time limit reached") != std::string::npos);
}

TEST_CASE("--debug-analysis traces the noise analysis in the article's shape") {
  const Run r = drive({"--noisy-verify", "--debug-analysis"}, "mul_chain.mlir");
  CHECK(r.log.find("Inferring ranges for %2 = noisy.encode %0 : i5 -> !noisy.i32\n"
                   "Inferred range unsigned : [0, 12] signed : [0, 12]\n") != std::string::npos);
  CHECK(r.log.find("Inferring ranges for %5 = noisy.mul %4, %4 : !noisy.i32\n"
                   "Inferred range unsigned : [0, 48] signed : [0, 48]\n") != std::string::npos);
  CHECK(r.log.find("Inferring ranges for %7 = noisy.mul %6, %6 : !noisy.i32\n"
                   "Inferred range unsigned : [0, 192] signed : [0, 192]\n") != std::string::npos);
  CHECK(r.log.find("arith.constant") == std::string::npos);  // plain values are not noise
}

TEST_CASE("--dump-analysis=noise describes every value") {
  ir::OpRegistry registry;
  NoisyDriver driver;
  driver.register_dialect(registry);
  const ir::Module m = ir::parse_and_verify(read_example("branches_rejoin.mlir"), registry);
  std::ostringstream log;
  const auto text = driver.describe_values(m, m.functions[0], false, log);
  REQUIRE(text.size() == m.functions[0].values.size());
  CHECK(text[0] == "not noisy");
  CHECK(text[m.functions[0].argument(3, 0)] == "unsigned : [0, 25] signed : [0, 25]");
}

TEST_CASE("flags: values, errors and what is not ours") {
  NoisyDriver d;
  const std::vector<std::string_view> rest{"7"};
  CHECK(d.parse_argument("--sccp", {}) == 0);
  CHECK(d.parse_argument("--time-limit", rest) == 2);
  CHECK(d.options().time_limit_seconds == 7.0);
  CHECK(d.parse_argument("--noisy-initial=10", {}) == 1);
  CHECK(d.options().parameters.initial == 10);
  CHECK(d.parse_argument("--noisy-maximum", rest) == 2);
  CHECK(d.options().parameters.maximum == 7);
  CHECK(d.parse_argument("--noisy-reduce-noise=cplex", {}) == 0);  // a pass flag: the registry's
  CHECK_THROWS_AS(d.parse_argument("--time-limit=-1", {}), std::invalid_argument);
  CHECK_THROWS_AS(d.parse_argument("--time-limit", {}), std::invalid_argument);
  CHECK_THROWS_AS(d.parse_argument("--noisy-maximum=x", {}), std::invalid_argument);
  CHECK_THROWS_AS(d.parse_argument("--emit-lp=", {}), std::invalid_argument);
  ir::Module m;
  std::ostringstream log;
  CHECK_THROWS_AS(d.run_pass("noisy-verify", m, false, log), std::logic_error);  // dialect not registered
}

TEST_CASE("the noisy passes are registered passes: flags, options, bad values") {
  ir::IrPassRegistry passes;
  kildall_opt_plugin().register_passes(passes);
  for (const std::string_view name : NoisyDriver::pass_names) CHECK(passes.find(name) != nullptr);
  CHECK(passes.find("noisy-verify")->make_module_pass);
  const auto flag = pass::pass_flag("-noisy-reduce-noise=ilp", passes);
  REQUIRE(flag);
  CHECK(pass::print_pipeline({*flag}) == "noisy-reduce-noise{optimizer=ilp}");
  const auto bad = pass::pass_flag("--noisy-reduce-noise=cplex", passes);
  REQUIRE(bad);
  CHECK_THROWS_WITH_AS(pass::PassManager<ir::IrPasses>({*bad}, passes),
                       "1:1: error: invalid value 'cplex' for option 'optimizer' of pass 'noisy-reduce-noise' "
                       "(expected one of: lazy, ilp, greedy)",
                       pass::PipelineError);
  CHECK_THROWS_AS(pass::pass_flag("--noisy-verify=x", passes), pass::PipelineError);  // it has no option
  CHECK(passes.help().find("  --noisy-reduce-noise ") != std::string::npos);
  CHECK(passes.help().find("optimizer=lazy|ilp|greedy") != std::string::npos);
}

TEST_CASE("kildall_opt_plugin(): the same through the driver's plugin interface") {
  const ir::DriverPlugin plugin = kildall_opt_plugin();
  CHECK(plugin.usage.find("--noisy-maximum=<n>") != std::string::npos);
  CHECK(plugin.analyses == std::vector<std::string>{"noise"});
  ir::OpRegistry registry;
  plugin.register_dialect(registry);
  const std::vector<std::string_view> args{"--time-limit", "60"};  // the plugin's options (its passes are registered)
  for (std::size_t i = 0; i < args.size();) {
    const int used = plugin.parse_argument(args[i], std::span<const std::string_view>(args).subspan(i + 1));
    REQUIRE(used > 0);
    i += static_cast<std::size_t>(used);
  }
  CHECK(plugin.parse_argument("--sccp", {}) == 0);
  ir::Module m = ir::parse_and_verify(read_example("branches_rejoin.mlir"), registry, "branches_rejoin.mlir");
  std::ostringstream log;
  const ir::PluginContext context{false, &log};
  const auto before = plugin.describe_values(m, m.functions[0], "noise", context);
  CHECK(before[m.functions[0].argument(3, 0)] == "unsigned : [0, 25] signed : [0, 25]");
  ir::IrPassRegistry passes;
  plugin.register_passes(passes);
  const pass::PassManager<ir::IrPasses> manager(pass::parse_pipeline("builtin.module(noisy-reduce-noise)"), passes);
  ir::PassContext pass_context;
  pass_context.registry = &registry;
  pass_context.log = &log;
  pass::ModuleAnalyses<ir::IrPasses> analyses(m, pass_context);
  manager.run(m, analyses, pass_context);
  CHECK(log.str().find("noisy-reduce-noise: inserted 1 reduce_noise op (greedy: ") == 0);
  const auto after = plugin.describe_values(m, m.functions[0], "noise", context);
  CHECK(after[m.functions[0].argument(3, 0)] == "unsigned : [0, 13] signed : [0, 13]");
}

namespace {

// A random function of noisy arithmetic on 32-bit values: @f(%a, %b, %c, %d: i32, %p: i1) -> i32,
// chains and trees of add/sub/mul (most ops extend the latest value), a value
// used twice, and half of the time a diamond rejoining through a block argument.
std::string arithmetic_function(unsigned seed, int ops) {
  std::mt19937 rng(seed);
  std::ostringstream out;
  out << "func.func @f(%a: i32, %b: i32, %c: i32, %d: i32, %p: i1) -> i32 {\n";
  const char* args[] = {"a", "b", "c", "d"};
  std::vector<int> available;
  int next = 0;
  for (const char* a : args) {
    out << "  %n" << next << " = noisy.encode %" << a << " : i32 -> !noisy.i32\n";
    available.push_back(next++);
  }
  const char* kinds[] = {"add", "sub", "mul"};
  auto emit = [&](int count) {
    for (int i = 0; i < count; ++i) {
      const std::size_t n = available.size();
      const int x = rng() % 10 < 7 ? available.back() : available[rng() % n];
      const int y = available[rng() % std::min<std::size_t>(n, 4)];
      const unsigned r = rng() % 20;
      const char* k = kinds[r < 9 ? 0 : r < 15 ? 1 : 2];
      if (rng() % 2 == 0) out << "  %n" << next << " = noisy." << k << " %n" << x << ", %n" << y << " : !noisy.i32\n";
      else out << "  %n" << next << " = noisy." << k << " %n" << y << ", %n" << x << " : !noisy.i32\n";
      available.push_back(next++);
    }
  };
  emit(ops / 2);
  const int middle = available.back();
  if (seed % 2 == 0) {
    const std::vector<int> before = available;
    out << "  cf.cond_br %p, ^l, ^r\n^l:\n";
    emit(3);
    out << "  cf.br ^j(%n" << available.back() << " : !noisy.i32)\n^r:\n";
    out << "  cf.br ^j(%n" << before.back() << " : !noisy.i32)\n^j(%n" << next << ": !noisy.i32):\n";
    available = before;
    available.push_back(next++);
  }
  emit(ops - ops / 2);
  out << "  %x = noisy.decode %n" << available.back() << " : !noisy.i32 -> i32\n";
  out << "  %y = noisy.decode %n" << middle << " : !noisy.i32 -> i32\n";
  out << "  %r = arith.addi %x, %y : i32\n  return %r : i32\n}\n";
  return out.str();
}

std::uint64_t run_once(const ir::Module& m, const std::vector<std::uint64_t>& args) {
  const ir::ExecResult r = ir::interpret(m, "f", args);
  REQUIRE(r.status == ir::ExecStatus::returned);
  return r.results.at(0);
}

}  // namespace

TEST_CASE("rebalancing IR functions: the interpreter gives the same results; the noise analysis finds them legal with no more reductions") {
  ir::OpRegistry registry;
  const IrDialect dialect = register_noisy_dialect(registry);
  std::mt19937_64 rng(18);
  std::size_t rewritten = 0, planned = 0, saved = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    const std::string text = arithmetic_function(seed, 6 + static_cast<int>(seed % 24));
    CAPTURE(text);
    const ir::Module original = ir::parse_and_verify(text, registry, "random.mlir");
    // Every plan applied (whether or not it pays): same results.
    ir::Module forced = ir::parse_and_verify(text, registry, "random.mlir");
    {
      ir::Function& fn = forced.functions[0];
      const IrNoisyProgram program(fn, dialect);
      std::vector<std::uint64_t> keys(fn.values.size());
      for (auto& k : keys) k = 12 + rng() % 6;
      const auto plan = plan_rebalance(program, keys, {}, {}, IrLayout(fn));
      planned += plan.trees.size();
      IrRebalanceEditor editor(fn, dialect);
      apply_rebalance(editor, plan);
    }
    ir::verify(forced);  // types, and every use dominated by its definition
    // The chosen program, placed.
    ir::Module chosen = ir::parse_and_verify(text, registry, "random.mlir");
    const IrRebalanceReport report = rebalance_ir_function(chosen.functions[0], dialect);
    ir::verify(chosen);
    CHECK(report.reductions_after <= report.reductions_before);
    CHECK(report.status == PlacementStatus::optimal);
    {
      const IrNoisyProgram before(original.functions[0], dialect);
      CHECK(place_reduce_noise(before).reduce_after.size() == report.reductions_before);
      const IrNoisyProgram after(chosen.functions[0], dialect);
      CHECK(place_reduce_noise(after).reduce_after.size() == report.reductions_after);
    }
    (void)apply_reduce_noise(chosen.functions[0], dialect, report.placement);
    ir::verify(chosen);
    CHECK_FALSE(find_noise_error(chosen, chosen.functions[0], dialect).has_value());
    rewritten += report.trees_rewritten > 0 ? 1 : 0;
    saved += report.reductions_before - report.reductions_after;
    for (int trial = 0; trial < 8; ++trial) {
      const std::vector<std::uint64_t> args{rng() & 0xffffffffu, rng() & 0xffffffffu, rng() & 0xffffffffu,
                                            rng() & 0xffffffffu, rng() % 2};
      const std::uint64_t expected = run_once(original, args);
      CHECK(run_once(forced, args) == expected);
      CHECK(run_once(chosen, args) == expected);
    }
  }
  CHECK(planned > 0);
  CHECK(rewritten > 0);
  CHECK(saved > 0);
}

TEST_CASE("--noisy-rebalance: a chain of 16 adds needs no reduction once balanced; dot product of 8: 2 instead of 3") {
  std::ostringstream chain;
  chain << "func.func @f(%a: i5) -> i5 {\n  %x0 = noisy.encode %a : i5 -> !noisy.i32\n";
  for (int i = 1; i < 16; ++i)
    chain << "  %x" << i << " = noisy." << (i % 3 == 2 ? "sub" : "add") << " %x" << i - 1 << ", %x0 : !noisy.i32\n";
  chain << "  %r = noisy.decode %x15 : !noisy.i32 -> i5\n  return %r : i5\n}\n";
  // The encoded value is used 16 times: the leaves of the tree repeat it.
  const Run plain = drive_text({"--noisy-reduce-noise"}, chain.str(), "chain.mlir");
  CHECK(count(plain.output, "noisy.reduce_noise") == 1);
  const Run both = drive_text({"--noisy-rebalance", "--noisy-reduce-noise"}, chain.str(), "chain.mlir");
  CHECK(both.error.empty());
  CHECK(count(both.output, "noisy.reduce_noise") == 0);
  CHECK(count(both.output, "noisy.add") + count(both.output, "noisy.sub") == 15);
  CHECK(both.log.find("noisy-rebalance: rewrote 1 of 1 tree in 1 of 1 function; reduce_noise ops needed: 1 before, 0 after (optimal placements)") == 0);
  CHECK(both.log.find("noisy-reduce-noise: inserted 0 reduce_noise ops") != std::string::npos);
  const Run alone = drive_text({"--noisy-rebalance"}, chain.str(), "chain.mlir");
  CHECK(count(alone.output, "noisy.reduce_noise") == 0);
  CHECK(alone.output == both.output);

  const Run dot = drive({"--noisy-rebalance", "--noisy-reduce-noise"}, "dot_product.mlir");
  CHECK(dot.error.empty());
  CHECK(count(dot.output, "noisy.reduce_noise") == 2);
  CHECK(dot.log.find("reduce_noise ops needed: 3 before, 2 after") != std::string::npos);
  CHECK(count(drive({"--noisy-reduce-noise"}, "dot_product.mlir").output, "noisy.reduce_noise") == 3);
  // The tutorial: the two branching tests put the mul's 24 at the top of their add trees: 8 -> 6.
  const Run tutorial = drive({"--noisy-rebalance", "--noisy-reduce-noise"}, "tutorial.mlir");
  CHECK(tutorial.log.find("noisy-rebalance: rewrote 4 of 4 trees in 2 of 5 functions; reduce_noise ops needed: 8 before, 6 after") == 0);
  CHECK(count(tutorial.output, "noisy.reduce_noise") == 6);
  // Every strategy, with a time limit of 0 too: legal, never more reductions.
  for (const std::string_view strategy : {"--noisy-reduce-noise=ilp", "--noisy-reduce-noise=greedy", "--noisy-reduce-noise"}) {
    for (const bool limit : {false, true}) {
      std::vector<std::string_view> args{"--noisy-rebalance", strategy};
      if (limit) args.insert(args.end(), {"--time-limit", "0"});
      CAPTURE(strategy);
      CAPTURE(limit);
      const Run r = drive(args, "tutorial.mlir");
      CHECK(r.error.empty());
      args.erase(args.begin());
      CHECK(count(r.output, "noisy.reduce_noise") <= count(drive(args, "tutorial.mlir").output, "noisy.reduce_noise"));
    }
  }
  // A function no placement can save: the error names the op.
  const Run bad = drive({"--noisy-rebalance", "--noisy-maximum=20"}, "single_insertion_branching.mlir");
  CHECK(bad.error.find("'noisy.mul' op no placement of reduce_noise can make this op legal") != std::string::npos);
  // Usage and flag.
  ir::IrPassRegistry passes;
  kildall_opt_plugin().register_passes(passes);
  CHECK(passes.help().find("--noisy-rebalance") != std::string::npos);
}

TEST_CASE("rebalancing inside a loop: the block argument is a leaf; the interpreter gives the same results") {
  const std::string text = R"(func.func @f(%a: i32, %b: i32, %c: i32, %n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %ea = noisy.encode %a : i32 -> !noisy.i32
  %eb = noisy.encode %b : i32 -> !noisy.i32
  %ec = noisy.encode %c : i32 -> !noisy.i32
  cf.br ^head(%ea, %zero : !noisy.i32, i32)
^head(%acc: !noisy.i32, %i: i32):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %r = noisy.reduce_noise %acc : !noisy.i32
  %s1 = noisy.sub %r, %eb : !noisy.i32
  %s2 = noisy.add %s1, %ec : !noisy.i32
  %s3 = noisy.sub %s2, %ea : !noisy.i32
  %s4 = noisy.add %s3, %eb : !noisy.i32
  %s5 = noisy.sub %s4, %ec : !noisy.i32
  %p = noisy.mul %ea, %eb : !noisy.i32
  %s6 = noisy.add %s5, %p : !noisy.i32
  %i1 = arith.addi %i, %one : i32
  cf.br ^head(%s6, %i1 : !noisy.i32, i32)
^exit:
  %out = noisy.decode %acc : !noisy.i32 -> i32
  return %out : i32
}
)";
  ir::OpRegistry registry;
  const IrDialect dialect = register_noisy_dialect(registry);
  const ir::Module original = ir::parse_and_verify(text, registry, "loop.mlir");
  ir::Module rebalanced = ir::parse_and_verify(text, registry, "loop.mlir");
  const IrRebalanceReport report = rebalance_ir_function(rebalanced.functions[0], dialect);
  ir::verify(rebalanced);
  // As written: the chain reaches 12 + 5 = 17 and then 1 + max(17, 24) = 25; legal. Rebalanced, the
  // product goes last: the same count (0), less noise.
  CHECK(report.reductions_before == 0);
  CHECK(report.reductions_after == 0);
  CHECK(report.trees_rewritten == 1);
  CHECK_FALSE(find_noise_error(rebalanced, rebalanced.functions[0], dialect).has_value());
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 16; ++trial) {
    const std::vector<std::uint64_t> args{rng() & 0xffffffffu, rng() & 0xffffffffu, rng() & 0xffffffffu, rng() % 6};
    const ir::ExecResult a = ir::interpret(original, "f", args), b = ir::interpret(rebalanced, "f", args);
    REQUIRE(a.status == ir::ExecStatus::returned);
    REQUIRE(b.status == ir::ExecStatus::returned);
    CHECK(a.results == b.results);
  }
}

TEST_CASE("a value also used by an op without results (func.return) stays: it is a leaf, not an inner value") {
  const std::string text = R"(func.func @f(%a: i32, %b: i32, %c: i32, %d: i32) -> !noisy.i32 {
  %ea = noisy.encode %a : i32 -> !noisy.i32
  %eb = noisy.encode %b : i32 -> !noisy.i32
  %ec = noisy.encode %c : i32 -> !noisy.i32
  %ed = noisy.encode %d : i32 -> !noisy.i32
  %s1 = noisy.add %ea, %eb : !noisy.i32
  %s2 = noisy.add %s1, %ec : !noisy.i32
  %s3 = noisy.add %s2, %ed : !noisy.i32
  %s4 = noisy.add %s3, %ea : !noisy.i32
  %s5 = noisy.add %s4, %eb : !noisy.i32
  %x = noisy.decode %s5 : !noisy.i32 -> i32
  return %s2 : !noisy.i32
}
)";
  ir::OpRegistry registry;
  const IrDialect dialect = register_noisy_dialect(registry);
  ir::Module m = ir::parse_and_verify(text, registry, "returned.mlir");
  ir::Function& fn = m.functions[0];
  const IrNoisyProgram program(fn, dialect);
  const auto plan = plan_rebalance(program, std::vector<std::uint64_t>(fn.values.size(), 12), {}, {}, IrLayout(fn));
  const ir::ValueId s2 = fn.operands_of(fn.terminator(0))[0];  // the returned value
  REQUIRE(plan.trees.size() == 1);
  CHECK(std::find(plan.trees[0].inner.begin(), plan.trees[0].inner.end(), s2) == plan.trees[0].inner.end());
  CHECK(std::find(plan.trees[0].leaves.begin(), plan.trees[0].leaves.end(), s2) != plan.trees[0].leaves.end());
  IrRebalanceEditor editor(fn, dialect);
  apply_rebalance(editor, plan);
  ir::verify(m);
  const ir::Module original = ir::parse_and_verify(text, registry, "returned.mlir");
  const std::vector<std::uint64_t> args{3, 5, 7, 11};
  CHECK(ir::interpret(m, "f", args).results == ir::interpret(original, "f", args).results);
  CHECK(ir::interpret(m, "f", args).results == std::vector<std::uint64_t>{15});
}
