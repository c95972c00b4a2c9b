// Tests of kildall/solver/call_graph.hpp (interprocedural summaries); oracles: naive round-robin Kleene iteration of every procedure until nothing changes, on random call graphs with recursion; the concrete calls a recursive counter makes (widening must cover them); the cap on solves.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include <kildall/lattice/flat.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/interval_transfer.hpp>
#include <kildall/solver/call_graph.hpp>

using namespace kildall;

namespace {

using Constant = Flat<std::int64_t>;

/// An expression over a procedure's one argument: the argument, a constant, the argument
/// plus a constant, or the result of one of the procedure's calls.
struct Expression {
  enum class Kind { argument, constant, argument_plus, call_result } kind = Kind::argument;
  std::int64_t value = 0;   // the constant / the addend
  std::uint32_t call = 0;   // for call_result: which call of the procedure
};

/// A call site: the callee and the expression passed as its argument.
struct Call {
  std::uint32_t callee = 0;
  Expression operand;
};

/// A toy program: procedures of one argument and one result.
struct ToyProgram {
  std::vector<bool> roots;
  std::vector<std::vector<Call>> calls;             // by procedure
  std::vector<std::vector<Expression>> returns;     // by procedure: what its returns return

  [[nodiscard]] std::size_t procedure_count() const { return roots.size(); }
  [[nodiscard]] bool is_root(std::uint32_t p) const { return roots[p]; }
  [[nodiscard]] std::size_t argument_count(std::uint32_t) const { return 1; }
  [[nodiscard]] std::size_t result_count(std::uint32_t) const { return 1; }
  [[nodiscard]] Constant unknown_argument(std::uint32_t, std::uint32_t) const { return Constant::top(); }
};
static_assert(CallGraphShape<ToyProgram, Constant>);

/// The state of `e` in procedure `p`, given the summaries (nothing: bottom).
SummaryState<Constant> evaluate(const ToyProgram& program, std::uint32_t p, const Expression& e,
                                const ProcedureSummaries<Constant>& s) {
  const SummaryState<Constant>& argument = s.arguments[p][0];
  switch (e.kind) {
    case Expression::Kind::constant: return Constant::of(e.value);
    case Expression::Kind::argument: return argument;
    case Expression::Kind::argument_plus:
      if (!argument) return std::nullopt;
      if (const std::int64_t* c = argument->if_constant()) return Constant::of(*c + e.value);
      return *argument;  // bottom or top
    case Expression::Kind::call_result: return s.results[program.calls[p][e.call].callee][0];
  }
  return std::nullopt;
}

/// One solve of procedure `p` (every call executable).
ProcedureReport<Constant> solve_toy(const ToyProgram& program, std::uint32_t p, const ProcedureSummaries<Constant>& s) {
  ProcedureReport<Constant> report;
  report.returned.resize(1);
  for (const Expression& e : program.returns[p]) {
    const SummaryState<Constant> v = evaluate(program, p, e, s);
    if (!v) continue;
    if (!report.returned[0]) report.returned[0] = v;
    else (void)report.returned[0]->join(*v);
  }
  for (const Call& call : program.calls[p]) report.calls.push_back({call.callee, {evaluate(program, p, call.operand, s)}});
  return report;
}

/// The naive fixpoint: solve every reached procedure in turn, join everything in, until a
/// whole round changes nothing.
std::pair<ProcedureSummaries<Constant>, std::vector<bool>> naive_fixpoint(const ToyProgram& program) {
  const std::size_t n = program.procedure_count();
  ProcedureSummaries<Constant> s;
  s.arguments.assign(n, {std::nullopt});
  s.results.assign(n, {std::nullopt});
  std::vector<bool> reached(n, false);
  for (std::uint32_t p = 0; p < n; ++p)
    if (program.roots[p]) {
      s.arguments[p][0] = Constant::top();
      reached[p] = true;
    }
  const auto grow = [](SummaryState<Constant>& into, const SummaryState<Constant>& from) {
    if (!from) return false;
    if (!into) {
      into = from;
      return true;
    }
    return into->join(*from) == ChangeResult::changed;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t p = 0; p < n; ++p) {
      if (!reached[p]) continue;
      const ProcedureReport<Constant> r = solve_toy(program, p, s);
      changed |= grow(s.results[p][0], r.returned[0]);
      for (const CallSiteReport<Constant>& call : r.calls) {
        if (!reached[call.callee]) changed = reached[call.callee] = true;
        changed |= grow(s.arguments[call.callee][0], call.operands[0]);
      }
    }
  }
  return {s, reached};
}

ToyProgram random_program(std::mt19937_64& rng) {
  ToyProgram program;
  const auto n = static_cast<std::uint32_t>(2 + rng() % 7);
  program.roots.assign(n, false);
  program.roots[0] = true;
  if (rng() % 3 == 0) program.roots[n - 1] = true;
  program.calls.resize(n);
  program.returns.resize(n);
  const auto expression = [&](std::uint32_t calls_so_far) {
    Expression e;
    switch (rng() % (calls_so_far ? 4 : 3)) {
      case 0: e.kind = Expression::Kind::argument; break;
      case 1: e.kind = Expression::Kind::constant, e.value = static_cast<std::int64_t>(rng() % 3); break;
      case 2: e.kind = Expression::Kind::argument_plus, e.value = static_cast<std::int64_t>(rng() % 2); break;
      default: e.kind = Expression::Kind::call_result, e.call = static_cast<std::uint32_t>(rng() % calls_so_far); break;
    }
    return e;
  };
  for (std::uint32_t p = 0; p < n; ++p) {
    const std::uint32_t calls = static_cast<std::uint32_t>(rng() % 4);
    for (std::uint32_t c = 0; c < calls; ++c)  // any callee: recursion and cycles included
      program.calls[p].push_back({static_cast<std::uint32_t>(rng() % n), expression(c)});
    const auto returns = 1 + rng() % 2;
    for (std::size_t r = 0; r < returns; ++r) program.returns[p].push_back(expression(calls));
  }
  return program;
}

}  // namespace

TEST_CASE("the worklist reaches the naive round-robin fixpoint on random call graphs (recursion included)") {
  std::mt19937_64 rng(3);
  std::size_t recursive = 0;
  for (int i = 0; i < 500; ++i) {
    const ToyProgram program = random_program(rng);
    for (std::uint32_t p = 0; p < program.procedure_count(); ++p)
      for (const Call& c : program.calls[p]) recursive += c.callee <= p;
    std::size_t solves = 0;
    const CallGraphResult<Constant> result =
        solve_call_graph<Constant>(program, [&](std::uint32_t p, const ProcedureSummaries<Constant>& s) {
          ++solves;
          return solve_toy(program, p, s);
        });
    REQUIRE(result.converged());
    CHECK(result.solves == solves);
    const auto [expected, reached] = naive_fixpoint(program);
    CHECK(result.reached == reached);
    for (std::uint32_t p = 0; p < program.procedure_count(); ++p) {
      CAPTURE(p);
      CHECK(result.summaries.arguments[p] == expected.arguments[p]);
      CHECK(result.summaries.results[p] == expected.results[p]);
    }
  }
  CHECK(recursive > 100);  // the programs did exercise cycles of the call graph
}

TEST_CASE("a recursive counter terminates by widening, and its summary covers every call it makes") {
  // root(x) calls count(0); count(n) calls count(n + 1) and returns n.
  struct Counter {
    [[nodiscard]] std::size_t procedure_count() const { return 2; }
    [[nodiscard]] bool is_root(std::uint32_t p) const { return p == 0; }
    [[nodiscard]] std::size_t argument_count(std::uint32_t) const { return 1; }
    [[nodiscard]] std::size_t result_count(std::uint32_t) const { return 1; }
    [[nodiscard]] Interval unknown_argument(std::uint32_t, std::uint32_t) const { return Interval::full(32); }
  };
  const Interval zero = Interval::constant(32, 0), one = Interval::constant(32, 1);
  const auto solve = [&](std::uint32_t p, const ProcedureSummaries<Interval>& s) {
    ProcedureReport<Interval> report;
    if (p == 0) {
      report.calls.push_back({1, {zero}});
      report.returned.push_back(s.results[1][0]);
      return report;
    }
    const SummaryState<Interval>& n = s.arguments[1][0];
    report.returned.push_back(n);
    report.calls.push_back({1, {n ? SummaryState<Interval>(infer_add(*n, one)) : std::nullopt}});
    return report;
  };
  for (const std::uint32_t delay : {0u, 3u, 10u}) {
    CallGraphOptions options;
    options.widening_delay = delay;
    const CallGraphResult<Interval> result = solve_call_graph<Interval>(Counter{}, solve, options);
    REQUIRE(result.converged());
    CHECK(result.solves < 100);
    const Interval& argument = *result.summaries.arguments[1][0];
    for (std::uint64_t n = 0; n < 5000; n += 7) CHECK(argument.contains(n));  // the concrete calls' arguments
    CHECK(result.summaries.results[0][0]->contains(4321));
  }
  // Without widening (an unbounded delay) the cap stops the ascent and names the procedure.
  CallGraphOptions unbounded;
  unbounded.widening_delay = 1'000'000;
  unbounded.max_solves_per_procedure = 50;
  const CallGraphResult<Interval> capped = solve_call_graph<Interval>(Counter{}, solve, unbounded);
  CHECK(capped.outcome.status == SolveStatus::visit_cap_reached);
  CHECK(capped.outcome.offending_node == 1u);
}

TEST_CASE("procedures no executable call reaches are never solved") {
  ToyProgram program;
  program.roots = {true, false, false};
  program.calls = {{{1, {Expression::Kind::constant, 5, 0}}}, {}, {{{0, {}}}}};  // @2 calls @0, nobody calls @2
  program.returns = {{{Expression::Kind::call_result, 0, 0}}, {{Expression::Kind::argument_plus, 1, 0}}, {{}}};
  std::vector<std::uint32_t> solved;
  const CallGraphResult<Constant> result =
      solve_call_graph<Constant>(program, [&](std::uint32_t p, const ProcedureSummaries<Constant>& s) {
        solved.push_back(p);
        return solve_toy(program, p, s);
      });
  REQUIRE(result.converged());
  CHECK(result.reached == std::vector<bool>{true, true, false});
  CHECK(std::find(solved.begin(), solved.end(), 2u) == solved.end());
  CHECK(result.summaries.arguments[1][0] == SummaryState<Constant>(Constant::of(5)));
  CHECK(result.summaries.results[0][0] == SummaryState<Constant>(Constant::of(6)));  // 5 + 1, through the call
}
