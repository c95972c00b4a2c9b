// Tests of kildall/ir/analysis/interprocedural.hpp (module-level SCCP and integer ranges); oracle: the interpreter, running only the public functions (the calls they make are the only ones a private function sees) on random modules with private functions, recursion and loops: every value seen must lie in its state, every block run must be executable, and the module-level rewrites must keep every public function's results; plus the constants only the call graph can prove, confirmed by the interpreter.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <kildall/ir/analysis/interprocedural.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/verifier.hpp>

#include "../../fuzz/program_generator.hpp"
#include "../random_programs.hpp"

using namespace kildall::ir;
using kildall::Interval;

namespace {

/// What the interpreter saw when running the public functions of a module.
struct Seen {
  std::vector<std::vector<std::set<std::uint64_t>>> values;  // by function, by value
  std::vector<std::vector<bool>> blocks;                     // by function, by block
  std::vector<std::vector<std::vector<std::uint64_t>>> inputs;  // by public function
  std::vector<std::vector<ExecResult>> results;                 // by public function
};

Seen run_public_functions(const Module& m, std::mt19937_64& rng) {
  Seen seen;
  const std::size_t n = m.functions.size();
  seen.values.resize(n);
  seen.blocks.resize(n);
  seen.inputs.resize(n);
  seen.results.resize(n);
  for (std::size_t f = 0; f < n; ++f) {
    seen.values[f].resize(m.functions[f].values.size());
    seen.blocks[f].assign(m.functions[f].blocks.size(), false);
  }
  InterpreterOptions options;
  options.max_steps = 20'000;
  options.on_value = [&](std::uint32_t f, ValueId v, std::uint64_t bits) { seen.values[f][v].insert(bits); };
  options.on_block = [&](std::uint32_t f, BlockId b) { seen.blocks[f][b] = true; };
  const Interpreter interpreter(m);
  for (std::uint32_t f = 0; f < n; ++f) {
    const Function& fn = m.functions[f];
    if (fn.is_declaration() || fn.visibility != Visibility::public_) continue;
    seen.inputs[f] = testing::input_tuples(fn, 10, 12, rng);
    for (const auto& args : seen.inputs[f]) seen.results[f].push_back(interpreter.run(f, args, options));
  }
  return seen;
}

/// The final states of one module-level analysis, kept per function.
template <class L>
struct FinalStates {
  std::vector<std::vector<std::optional<L>>> values;  // by function (empty: not reached)
  std::vector<std::vector<bool>> executable;
  template <class Analysis>
  void keep(std::uint32_t f, const Analysis& analysis) {
    const Function& fn = analysis.function();
    values[f].resize(fn.values.size());
    executable[f].resize(fn.blocks.size());
    for (ValueId v = 0; v < fn.values.size(); ++v)
      if (const L* s = analysis.lookup(v)) values[f][v] = *s;
    for (BlockId b = 0; b < fn.blocks.size(); ++b) executable[f][b] = analysis.executable(b);
  }
};

template <class L>
std::string unsound(const Module& m, const Seen& seen, const FinalStates<L>& states, bool (*holds)(const L&, std::uint64_t)) {
  for (std::uint32_t f = 0; f < m.functions.size(); ++f) {
    const Function& fn = m.functions[f];
    bool ran = false;
    for (BlockId b = 0; b < fn.blocks.size(); ++b) ran = ran || seen.blocks[f][b];
    if (!ran) continue;
    if (states.values[f].empty()) return "@" + fn.name + " ran but was not analysed";
    for (BlockId b = 0; b < fn.blocks.size(); ++b)
      if (seen.blocks[f][b] && !states.executable[f][b])
        return "block " + std::to_string(b) + " of @" + fn.name + " ran but is not executable";
    for (ValueId v = 0; v < fn.values.size(); ++v) {
      if (seen.values[f][v].empty() || !fn.values[v].type.is_integer_like()) continue;
      const std::optional<L>& s = states.values[f][v];
      if (!s) return "%" + std::string(fn.value_name(v)) + " of @" + fn.name + " was computed but is uninitialized";
      for (const std::uint64_t bits : seen.values[f][v])
        if (!holds(*s, bits))
          return "%" + std::string(fn.value_name(v)) + " of @" + fn.name + " took " + std::to_string(bits) +
                 " outside its state";
    }
  }
  return "";
}

bool constant_holds(const ConstantState& s, std::uint64_t bits) { return !s.is_constant() || s.constant() == bits; }
bool range_holds(const Interval& s, std::uint64_t bits) { return s.contains(bits); }

/// Call-graph options: one context per function, or per argument tuple up to `max_contexts`.
kildall::CallGraphOptions contexts(bool sensitive, std::uint32_t max_contexts = 8) {
  kildall::CallGraphOptions options;
  options.context_sensitive = sensitive;
  options.max_contexts_per_procedure = max_contexts;
  return options;
}

/// What `check_module_level` found: private functions reached and the constants in them (one
/// context per function), and what per argument tuple proved beyond that.
struct ModuleLevelCounts {
  std::size_t privates_reached = 0, constants = 0, gained_constants = 0, gained_ranges = 0;
};

/// Module-level SCCP and ranges on `seeds` random modules of `limits`, one context per function
/// and per argument tuple: sound for every call the public functions make, their rewrites keep
/// the results, and per argument tuple every state is below the context-insensitive one.
ModuleLevelCounts check_module_level(const kildall::fuzz::ProgramLimits& limits, std::uint64_t seeds) {
  const OpRegistry registry;
  ModuleLevelCounts counts;
  std::size_t &privates_reached = counts.privates_reached, &constants = counts.constants;
  std::size_t &gained_constants = counts.gained_constants, &gained_ranges = counts.gained_ranges;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    std::mt19937_64 rng(seed);
    const kildall::fuzz::GeneratedProgram program = kildall::fuzz::generate_program(rng, limits);
    CAPTURE(program.text);
    const Module m = parse_and_verify(program.text, registry, "random.mlir");
    const Seen seen = run_public_functions(m, rng);
    kildall::SolverOptions narrowing;
    narrowing.narrowing_passes = 2;
    // Context-insensitive (MLIR's), then per argument tuple with a cap small enough to collapse.
    std::vector<FinalStates<ConstantState>> constant_states;
    std::vector<FinalStates<Interval>> range_states;
    for (const bool sensitive : {false, true}) {
      CAPTURE(sensitive);
      FinalStates<ConstantState>& constant = constant_states.emplace_back(FinalStates<ConstantState>{
          std::vector<std::vector<std::optional<ConstantState>>>(m.functions.size()),
          std::vector<std::vector<bool>>(m.functions.size())});
      FinalStates<Interval>& range = range_states.emplace_back(FinalStates<Interval>{
          std::vector<std::vector<std::optional<Interval>>>(m.functions.size()),
          std::vector<std::vector<bool>>(m.functions.size())});
      const auto sccp = solve_module_sccp(
          m, registry, {}, [&](std::uint32_t f, const SccpAnalysis& a) { constant.keep(f, a); }, PlainConstruction{},
          contexts(sensitive, 3));
      const auto ranges = solve_module_int_ranges(
          m, registry, narrowing, [&](std::uint32_t f, const IntRangeAnalysis& a) { range.keep(f, a); },
          PlainConstruction{}, contexts(sensitive, 3));
      REQUIRE(sccp.converged());
      REQUIRE(ranges.converged());
      for (std::uint32_t f = 0; f < m.functions.size() && !sensitive; ++f) {
        if (m.functions[f].visibility != Visibility::private_ || !sccp.reached[f]) continue;
        ++privates_reached;
        for (const auto& s : constant.values[f]) constants += s && s->is_constant();
      }
      CHECK(unsound(m, seen, constant, constant_holds) == "");
      CHECK(unsound(m, seen, range, range_holds) == "");
      // The rewrites, as `kildall-opt --sccp` / `--int-range-optimizations` run them.
      for (const bool use_sccp : {true, false}) {
        Module rewritten = parse_and_verify(program.text, registry, "random.mlir");
        if (use_sccp) {
          (void)solve_module_sccp(
              rewritten, registry, {},
              [&](std::uint32_t f, const SccpAnalysis& a) { (void)apply_sccp(rewritten.functions[f], a); },
              PlainConstruction{}, contexts(sensitive, 3));
        } else {
          (void)solve_module_int_ranges(
              rewritten, registry, narrowing,
              [&](std::uint32_t f, const IntRangeAnalysis& a) {
                (void)apply_int_range_optimizations(rewritten.functions[f], a);
              },
              PlainConstruction{}, contexts(sensitive, 3));
        }
        verify(rewritten);
        const Module reparsed = parse_and_verify(print_module(rewritten), registry, "rewritten.mlir");
        const Interpreter after(reparsed);
        InterpreterOptions more;
        more.max_steps = 40'000;
        for (std::uint32_t f = 0; f < m.functions.size(); ++f)
          for (std::size_t i = 0; i < seen.results[f].size(); ++i) {
            if (seen.results[f][i].status != ExecStatus::returned) continue;
            const ExecResult r = after.run(f, seen.inputs[f][i], more);
            if (r.status != ExecStatus::returned || r.results != seen.results[f][i].results)
              FAIL_CHECK((use_sccp ? "--sccp" : "--int-range-optimizations") << " changed @" << m.functions[f].name
                                                                            << "\n" << print_module(rewritten));
          }
      }
    }
    // Per argument tuple is never less precise: every state below the context-insensitive one.
    for (std::uint32_t f = 0; f < m.functions.size(); ++f) {
      CHECK(constant_states[1].values[f].size() == constant_states[0].values[f].size());  // the same functions reached
      for (ValueId v = 0; v < constant_states[1].values[f].size(); ++v) {
        const std::optional<ConstantState>& fine = constant_states[1].values[f][v];
        const std::optional<ConstantState>& coarse = constant_states[0].values[f][v];
        CHECK((!fine || (coarse && fine->leq(*coarse))));
        gained_constants += fine && fine->is_constant() && !(coarse && coarse->is_constant());
      }
      for (ValueId v = 0; v < range_states[1].values[f].size(); ++v) {
        const std::optional<Interval>& fine = range_states[1].values[f][v];
        const std::optional<Interval>& coarse = range_states[0].values[f][v];
        CHECK((!fine || (coarse && fine->leq(*coarse))));
        gained_ranges += fine && coarse && *fine != *coarse;
      }
    }
  }
  return counts;
}

}  // namespace

TEST_CASE("module-level SCCP and ranges are sound for every call the public functions make, and their rewrites keep the results") {
  kildall::fuzz::ProgramLimits limits;
  limits.max_functions = 5;
  limits.private_functions = true;
  const ModuleLevelCounts c = check_module_level(limits, 400);
  MESSAGE("private functions reached: " << c.privates_reached << ", constants in them: " << c.constants
                                        << "; per argument tuple, more constants: " << c.gained_constants
                                        << ", narrower ranges: " << c.gained_ranges);
  CHECK(c.privates_reached > 60);  // the generated modules did exercise private callees
  CHECK(c.constants > 100);
  CHECK(c.gained_constants > 0);  // and contexts did prove more
  CHECK(c.gained_ranges > 0);
}

TEST_CASE("the same with indirect calls and functions in a nested module") {
  kildall::fuzz::ProgramLimits limits;
  limits.max_functions = 5;
  limits.private_functions = true;
  limits.indirect_calls = true;
  limits.nested_modules = true;
  const ModuleLevelCounts c = check_module_level(limits, 300);
  MESSAGE("private functions reached: " << c.privates_reached << ", constants in them: " << c.constants);
  CHECK(c.privates_reached > 30);
}

TEST_CASE("constants that only the call graph proves: through arguments, results and recursion") {
  const OpRegistry registry;
  const char* const text = R"(func.func private @callee(%x: i32, %flag: i1) -> i32 {
  %one = arith.constant 1 : i32
  cf.cond_br %flag, ^stop, ^again
^stop:
  return %x : i32
^again:
  %r = func.call @callee(%x, %flag) : (i32, i1) -> i32
  %s = arith.muli %r, %one : i32
  return %s : i32
}
func.func private @never_called(%x: i32) -> i32 {
  return %x : i32
}
func.func @caller(%unknown: i32) -> (i32, i32) {
  %c7 = arith.constant 7 : i32
  %true = arith.constant true
  %a = func.call @callee(%c7, %true) : (i32, i1) -> i32
  %b = func.call @callee(%c7, %true) : (i32, i1) -> i32
  %sum = arith.addi %a, %b : i32
  return %sum, %unknown : i32, i32
}
)";
  const Module m = parse_and_verify(text, registry, "calls.mlir");
  const std::uint32_t caller = *m.find_function("caller"), callee = *m.find_function("callee");
  std::vector<std::optional<std::uint64_t>> module_level(m.functions[caller].values.size());
  bool again_executable = true;
  const auto result = solve_module_sccp(m, registry, {}, [&](std::uint32_t f, const SccpAnalysis& a) {
    if (f == caller)
      for (ValueId v = 0; v < module_level.size(); ++v) module_level[v] = a.constant(v);
    if (f == callee) again_executable = a.executable(2);
  });
  REQUIRE(result.converged());
  CHECK_FALSE(result.reached[*m.find_function("never_called")]);
  CHECK_FALSE(again_executable);  // %flag is true at every call
  const Function& fn = m.functions[caller];
  const ValueId sum = fn.operands_of(fn.terminator(0))[0];
  // The interpreter: @caller returns 14 whatever its argument.
  const Interpreter interpreter(m);
  for (const std::uint64_t x : {0u, 5u, 0xffffffffu}) CHECK(interpreter.run(caller, std::vector<std::uint64_t>{x}).results[0] == 14);
  CHECK(module_level[sum] == std::optional<std::uint64_t>(14));
  // Per function, the call results (and so the sum) are unknown.
  const SccpAnalysis alone(fn, registry);
  CHECK_FALSE(alone.constant(sum).has_value());
  // The integer ranges agree: [14, 14].
  std::optional<Interval> range;
  (void)solve_module_int_ranges(m, registry, {}, [&](std::uint32_t f, const IntRangeAnalysis& a) {
    if (f == caller) range = *a.lookup(sum);
  });
  REQUIRE(range.has_value());
  CHECK(*range == Interval::constant(32, 14));
}

TEST_CASE("per argument tuple, each call reads its own context: f(1) and f(2) differ, recursion on a constant is exact") {
  const OpRegistry registry;
  const char* const text = R"(func.func private @inc(%x: i32) -> i32 {
  %one = arith.constant 1 : i32
  %r = arith.addi %x, %one : i32
  return %r : i32
}
func.func private @sum(%n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %done = arith.cmpi eq, %n, %zero : i32
  cf.cond_br %done, ^base, ^step
^base:
  return %zero : i32
^step:
  %m = arith.subi %n, %one : i32
  %r = func.call @sum(%m) : (i32) -> i32
  %s = arith.addi %n, %r : i32
  return %s : i32
}
func.func @main(%unknown: i32) -> (i32, i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %a = func.call @inc(%c1) : (i32) -> i32
  %b = func.call @inc(%c2) : (i32) -> i32
  %t = func.call @sum(%c3) : (i32) -> i32
  %u = func.call @inc(%unknown) : (i32) -> i32
  return %a, %b, %t, %u : i32, i32, i32, i32
}
)";
  const Module m = parse_and_verify(text, registry, "contexts.mlir");
  const std::uint32_t main = *m.find_function("main"), inc = *m.find_function("inc"), sum = *m.find_function("sum");
  // The interpreter: @main returns 2, 3, 6 and its argument plus one.
  const Interpreter interpreter(m);
  for (const std::uint64_t x : {0u, 41u}) {
    const ExecResult r = interpreter.run(main, std::vector<std::uint64_t>{x});
    REQUIRE(r.status == ExecStatus::returned);
    CHECK(r.results == std::vector<std::uint64_t>{2, 3, 6, x + 1});
  }
  const Function& fn = m.functions[main];
  const auto returned = fn.operands_of(fn.terminator(0));
  // What @main returns, by SCCP and by the ranges (a range of one value as that value).
  const auto returned_constants = [&](const kildall::CallGraphOptions& options) {
    std::vector<std::optional<std::uint64_t>> constants, ranges;
    const auto sccp = solve_module_sccp(
        m, registry, {},
        [&](std::uint32_t f, const SccpAnalysis& a) {
          if (f == main)
            for (const ValueId v : returned) constants.push_back(a.constant(v));
        },
        PlainConstruction{}, options);
    const auto range = solve_module_int_ranges(
        m, registry, {},
        [&](std::uint32_t f, const IntRangeAnalysis& a) {
          if (f != main) return;
          for (const ValueId v : returned) {
            const Interval& i = *a.lookup(v);
            ranges.push_back(i.umin() == i.umax() ? std::optional<std::uint64_t>(i.umin()) : std::nullopt);
          }
        },
        PlainConstruction{}, options);
    REQUIRE(sccp.converged());
    REQUIRE(range.converged());
    CHECK(constants == ranges);  // the two analyses agree on this module
    return std::pair{constants, sccp};
  };
  using Constants = std::vector<std::optional<std::uint64_t>>;
  // Context-insensitive (MLIR's): @inc's argument is 1, 2 or anything, @sum's anything.
  const auto [insensitive, one_context] = returned_constants(contexts(false));
  CHECK(insensitive == Constants{std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  CHECK(one_context.contexts.contexts[inc].size() == 1);
  // A cap of 0 is the same solve.
  CHECK(returned_constants(contexts(true, 0)).first == insensitive);
  // Per argument tuple: @inc(1) = 2, @inc(2) = 3, and @sum(3) through @sum(2), @sum(1), @sum(0) = 6.
  const auto [sensitive, per_tuple] = returned_constants(contexts(true));
  CHECK(sensitive == Constants{2, 3, 6, std::nullopt});
  CHECK(per_tuple.contexts.contexts[inc].size() == 3);  // 1, 2, anything
  CHECK(per_tuple.contexts.contexts[sum].size() == 4);  // 3, 2, 1, 0
  CHECK_FALSE(per_tuple.contexts.has_merged(sum));
  // A cap of 3: @sum(0) joins the merged context, alone there, so still exact.
  CHECK(returned_constants(contexts(true, 3)).first == sensitive);
  // A cap of 2: @sum(1) and @sum(0) join the merged context (argument: unknown), so @sum(2) and
  // @sum(3) are unknown; @inc(1) and @inc(2) keep their contexts, @inc(%unknown) overflows.
  const auto [capped, capped_result] = returned_constants(contexts(true, 2));
  CHECK(capped == Constants{2, 3, std::nullopt, std::nullopt});
  CHECK(capped_result.contexts.has_merged(sum));
  CHECK(capped_result.contexts.has_merged(inc));
  CHECK(capped_result.contexts.contexts[inc].size() == 3);
  // The rewrites keep what @main returns (the interpreter, after), and fold the three constants.
  for (const bool use_sccp : {true, false}) {
    Module rewritten = parse_and_verify(text, registry, "contexts.mlir");
    if (use_sccp)
      (void)solve_module_sccp(
          rewritten, registry, {},
          [&](std::uint32_t f, const SccpAnalysis& a) { (void)apply_sccp(rewritten.functions[f], a); },
          PlainConstruction{}, contexts(true));
    else
      (void)solve_module_int_ranges(
          rewritten, registry, {},
          [&](std::uint32_t f, const IntRangeAnalysis& a) { (void)apply_int_range_optimizations(rewritten.functions[f], a); },
          PlainConstruction{}, contexts(true));
    verify(rewritten);
    const Module reparsed = parse_and_verify(print_module(rewritten), registry, "rewritten.mlir");
    for (const std::uint64_t x : {0u, 7u, 0xffffffffu}) {
      const ExecResult r = Interpreter(reparsed).run(main, std::vector<std::uint64_t>{x});
      REQUIRE(r.status == ExecStatus::returned);
      CHECK(r.results == std::vector<std::uint64_t>{2, 3, 6, (x + 1) & 0xffffffffu});
    }
    const Function& after = reparsed.functions[main];
    const auto operands = after.operands_of(after.terminator(0));
    for (std::size_t i = 0; i < 3; ++i) {
      CAPTURE(i);
      CHECK(is(after.ops[after.values[operands[i]].owner].code, BuiltinOp::constant));  // folded
    }
  }
}

TEST_CASE("a private function that something other than a call names: its arguments are unknown, its results still flow") {
  // MLIR's upstream @non_call_users (written here): a module-level op names @callable, so code
  // the module does not show may call it; an op attribute naming a function counts too.
  const OpRegistry registry;
  const char* const text = R"(func.func private @callable(%x: i32) -> (i32, i32) {
  %one = arith.constant 1 : i32
  return %one, %x : i32, i32
}
func.func private @tracked(%x: i32) -> i32 {
  return %x : i32
}
func.func private @named_by_an_op(%x: i32) -> i32 {
  return %x : i32
}
func.func @caller() -> (i32, i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %r:2 = func.call @callable(%c1) : (i32) -> (i32, i32)
  %t = func.call @tracked(%c1) : (i32) -> i32
  %n = func.call @named_by_an_op(%c1) : (i32) -> i32
  "foo.keep"() {target = @named_by_an_op, text = "@tracked"} : () -> ()
  return %r#0, %r#1, %t, %n : i32, i32, i32, i32
}
"live.user"() {uses = [@callable]} : () -> ()
)";
  const Module m = parse_and_verify(text, registry, "calls.mlir", {.allow_unregistered_ops = true});
  REQUIRE(m.opaque_ops.size() == 1);
  const std::uint32_t caller = *m.find_function("caller");
  std::vector<std::optional<std::uint64_t>> returned;
  const auto result = solve_module_sccp(m, registry, {}, [&](std::uint32_t f, const SccpAnalysis& a) {
    if (f != caller) return;
    const Function& fn = m.functions[f];
    for (const ValueId v : fn.operands_of(fn.terminator(0))) returned.push_back(a.constant(v));
  });
  REQUIRE(result.converged());
  REQUIRE(returned.size() == 4);
  CHECK(returned[0] == std::optional<std::uint64_t>(1));  // @callable's first result: its own constant
  CHECK_FALSE(returned[1].has_value());                    // its argument may come from elsewhere
  CHECK(returned[2] == std::optional<std::uint64_t>(1));  // only called, and a string is no reference
  CHECK_FALSE(returned[3].has_value());                    // named by an op's attribute
}

TEST_CASE("nested modules: each module's calls stay in its symbol table, roots as MLIR 16's SCCP finds them") {
  // As `mlir-opt-16 --sccp` concludes on this module (the conformance case
  // tests/conformance/cases/nested_modules.mlir runs both tools on it): inside @m, the private
  // @p is only called, with 7, so it returns 7; the `@p` an op inside @m names is resolved from
  // the top-level module (MLIR 16's dead-code analysis looks every non-call reference up from
  // the analysed module), so it is the top level's @p whose arguments are unknown; `@m::@n` at
  // the top level names @m's nested @n, whose arguments are then unknown too.
  const OpRegistry registry;
  const char* const text = R"(module {
  module @m {
    func.func private @p(%a: i32) -> i32 {
      return %a : i32
    }
    func.func nested @n(%a: i32) -> i32 {
      return %a : i32
    }
    func.func nested @q(%a: i32) -> i32 {
      return %a : i32
    }
    func.func @caller() -> (i32, i32, i32) {
      %c = arith.constant 7 : i32
      %r = func.call @p(%c) : (i32) -> i32
      %s = func.call @n(%c) : (i32) -> i32
      %t = func.call @q(%c) : (i32) -> i32
      return %r, %s, %t : i32, i32, i32
    }
    "live.user"() {uses = [@p]} : () -> ()
  }
  "live.user"() {uses = [@m::@n]} : () -> ()
  func.func private @p(%a: i32) -> i32 {
    return %a : i32
  }
  func.func @top() -> i32 {
    %c = arith.constant 3 : i32
    %r = func.call @p(%c) : (i32) -> i32
    return %r : i32
  }
}
)";
  const Module m = parse_and_verify(text, registry, "nested.mlir", {.allow_unregistered_ops = true});
  REQUIRE(m.nested_modules.size() == 1);
  const std::uint32_t caller = 3, top = 5;
  REQUIRE(m.functions[caller].name == "caller");
  REQUIRE(m.functions[top].name == "top");
  std::vector<std::vector<std::optional<std::uint64_t>>> returned(m.functions.size());
  const auto result = solve_module_sccp(m, registry, {}, [&](std::uint32_t f, const SccpAnalysis& a) {
    const Function& fn = m.functions[f];
    for (BlockId b = 0; b < fn.blocks.size(); ++b)
      if (fn.terminator(b) != no_index && is(fn.ops[fn.terminator(b)].code, BuiltinOp::return_))
        for (const ValueId v : fn.operands_of(fn.terminator(b))) returned[f].push_back(a.constant(v));
  });
  REQUIRE(result.converged());
  const std::vector<std::optional<std::uint64_t>> seven{7}, unknown{std::nullopt};
  CHECK(returned[0] == seven);    // @m::@p: only called, from @m
  CHECK(returned[1] == unknown);  // @m::@n: named by `@m::@n` at the top level
  CHECK(returned[2] == seven);    // @m::@q: nested, only called
  CHECK(returned[caller] == std::vector<std::optional<std::uint64_t>>{7, std::nullopt, 7});
  CHECK(returned[4] == unknown);  // the top level's @p: named by the `@p` written inside @m
  CHECK(returned[top] == unknown);
  // The interpreter agrees where the analysis is sure, and calls stay within each module.
  const Interpreter interpreter(m);
  const ExecResult ran = interpreter.run("m::@caller", {});
  REQUIRE(ran.status == ExecStatus::returned);
  CHECK(ran.results == std::vector<std::uint64_t>{7, 7, 7});
  CHECK(interpreter.run("top", {}).results == std::vector<std::uint64_t>{3});
}

TEST_CASE("func.constant and func.call_indirect: the named function is a root, an indirect call's results are unknown") {
  // As `mlir-opt-16 --sccp` concludes (tests/conformance/cases/call_indirect.mlir): @target is
  // private and called directly with 5 only, but `func.constant @target` lets an indirect call
  // reach it with anything; what an indirect call returns is unknown even when the only
  // function it can call returns a constant.
  const OpRegistry registry;
  const char* const text = R"(func.func private @target(%x: i32) -> (i32, i32) {
  %one = arith.constant 1 : i32
  return %one, %x : i32, i32
}
func.func private @direct_only(%x: i32) -> i32 {
  return %x : i32
}
func.func @caller(%y: i32) -> (i32, i32, i32, i32) {
  %c5 = arith.constant 5 : i32
  %d:2 = func.call @target(%c5) : (i32) -> (i32, i32)
  %f = func.constant @target : (i32) -> (i32, i32)
  %i:2 = func.call_indirect %f(%y) : (i32) -> (i32, i32)
  %k = func.call @direct_only(%c5) : (i32) -> i32
  return %d#0, %d#1, %i#0, %k : i32, i32, i32, i32
}
)";
  const Module m = parse_and_verify(text, registry, "indirect.mlir");
  const std::uint32_t caller = *m.find_function("caller");
  std::vector<std::optional<std::uint64_t>> returned;
  std::optional<Interval> indirect_range;
  const auto result = solve_module_sccp(m, registry, {}, [&](std::uint32_t f, const SccpAnalysis& a) {
    if (f != caller) return;
    const Function& fn = m.functions[f];
    for (const ValueId v : fn.operands_of(fn.terminator(0))) returned.push_back(a.constant(v));
  });
  REQUIRE(result.converged());
  CHECK(returned == std::vector<std::optional<std::uint64_t>>{1, std::nullopt, std::nullopt, 5});
  (void)solve_module_int_ranges(m, registry, {}, [&](std::uint32_t f, const IntRangeAnalysis& a) {
    if (f == caller) indirect_range = *a.lookup(m.functions[f].operands_of(m.functions[f].terminator(0))[2]);
  });
  REQUIRE(indirect_range.has_value());
  CHECK(*indirect_range == Interval::full(32));
  // The interpreter runs the indirect call: @target returns (1, %y).
  const ExecResult ran = Interpreter(m).run(caller, std::vector<std::uint64_t>{9});
  REQUIRE(ran.status == ExecStatus::returned);
  CHECK(ran.results == std::vector<std::uint64_t>{1, 5, 1, 5});
}

TEST_CASE("references in a module without function bodies name nothing; a func.constant names its own module's function") {
  // As `mlir-opt-16 --sccp` concludes on the first module: the top level holds only a
  // declaration, so MLIR 16's dead-code analysis does not look at the references written in it
  // and `@m::@p` leaves @m's nested @p tracked (its argument folds to 7).
  const OpRegistry registry;
  const auto returns_of = [&](const Module& m) {
    std::vector<std::vector<std::optional<std::uint64_t>>> returned(m.functions.size());
    const auto result = solve_module_sccp(m, registry, {}, [&](std::uint32_t f, const SccpAnalysis& a) {
      const Function& fn = m.functions[f];
      for (const ValueId v : fn.operands_of(fn.terminator(0))) returned[f].push_back(a.constant(v));
    });
    REQUIRE(result.converged());
    return returned;
  };
  const Module declarations_only = parse_and_verify(R"(module {
  func.func private @ext(i32) -> i32
  module @m {
    func.func nested @p(%a: i32) -> i32 {
      return %a : i32
    }
    func.func @caller() -> i32 {
      %c = arith.constant 7 : i32
      %r = func.call @p(%c) : (i32) -> i32
      return %r : i32
    }
  }
  "live.user"() {uses = [@m::@p]} : () -> ()
}
)",
                                                    registry, "decl.mlir", {.allow_unregistered_ops = true});
  CHECK(returns_of(declarations_only)[1] == std::vector<std::optional<std::uint64_t>>{7});
  // With a function body at the top level, the same reference makes @m's @p a root.
  const Module with_body = parse_and_verify(R"(module {
  func.func @top() {
    return
  }
  module @m {
    func.func nested @p(%a: i32) -> i32 {
      return %a : i32
    }
    func.func @caller() -> i32 {
      %c = arith.constant 7 : i32
      %r = func.call @p(%c) : (i32) -> i32
      return %r : i32
    }
  }
  "live.user"() {uses = [@m::@p]} : () -> ()
}
)",
                                            registry, "body.mlir", {.allow_unregistered_ops = true});
  CHECK(returns_of(with_body)[1] == std::vector<std::optional<std::uint64_t>>{std::nullopt});
  // A `func.constant @t` inside @m: MLIR 16 resolves it from the top level, making the top
  // level's @t a root (kildall does too) but not @m's, whose argument it then folds to what the
  // direct call passes although the indirect call passes 9: unsound. kildall makes @m's @t a
  // root as well; the interpreter shows why.
  const Module constants = parse_and_verify(R"(module {
  func.func private @t(%a: i32) -> i32 {
    return %a : i32
  }
  func.func @top() -> i32 {
    %c = arith.constant 3 : i32
    %r = func.call @t(%c) : (i32) -> i32
    return %r : i32
  }
  module @m {
    func.func private @t(%a: i32) -> i32 {
      return %a : i32
    }
    func.func @caller() -> (i32, i32) {
      %c7 = arith.constant 7 : i32
      %c9 = arith.constant 9 : i32
      %r = func.call @t(%c7) : (i32) -> i32
      %f = func.constant @t : (i32) -> i32
      %s = func.call_indirect %f(%c9) : (i32) -> i32
      return %r, %s : i32, i32
    }
  }
}
)",
                                            registry, "constant.mlir");
  const auto returned = returns_of(constants);
  CHECK(returned[0] == std::vector<std::optional<std::uint64_t>>{std::nullopt});  // the top level's @t
  CHECK(returned[2] == std::vector<std::optional<std::uint64_t>>{std::nullopt});  // @m's @t
  // @m's @caller: @t returns what it is given, which may be anything now.
  CHECK(returned[3] == std::vector<std::optional<std::uint64_t>>{std::nullopt, std::nullopt});
  CHECK(Interpreter(constants).run("m::caller", {}).results == std::vector<std::uint64_t>{7, 9});
}
