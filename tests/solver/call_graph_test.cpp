// Tests of kildall/solver/call_graph.hpp (interprocedural summaries, one context per procedure or per argument tuple); oracles: naive round-robin Kleene iteration of every procedure (context-insensitive) or of every (procedure, argument tuple) reached (context-sensitive tabulation) until nothing changes, on random call graphs with recursion; the toy programs run concretely, calls inlined, on acyclic call graphs; the concrete calls a recursive counter makes (widening must cover them); the caps on contexts and on solves.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <kildall/lattice/flat.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/interval_transfer.hpp>
#include <kildall/solver/call_graph.hpp>

using namespace kildall;

namespace {

using Constant = Flat<std::int64_t>;
using State = SummaryState<Constant>;

/// An expression over a procedure's one argument: the argument, a constant, the argument
/// plus a constant, or the result of one of the procedure's calls.
struct ArgumentExpression {
  enum class Kind { argument, constant, argument_plus, call_result } kind = Kind::argument;
  std::int64_t value = 0;   // the constant / the addend
  std::uint32_t call = 0;   // for call_result: which call of the procedure
};

/// A call site: the callee and the expression passed as its argument.
struct Call {
  std::uint32_t callee = 0;
  ArgumentExpression operand;
};

/// A toy program: procedures of one argument and one result.
struct ToyProgram {
  std::vector<bool> roots;
  std::vector<std::vector<Call>> calls;             // by procedure
  std::vector<std::vector<ArgumentExpression>> returns;     // by procedure: what its returns return

  [[nodiscard]] std::size_t procedure_count() const { return roots.size(); }
  [[nodiscard]] bool is_root(std::uint32_t p) const { return roots[p]; }
  [[nodiscard]] std::size_t argument_count(std::uint32_t) const { return 1; }
  [[nodiscard]] std::size_t result_count(std::uint32_t) const { return 1; }
  [[nodiscard]] Constant unknown_argument(std::uint32_t, std::uint32_t) const { return Constant::top(); }
};
static_assert(CallGraphShape<ToyProgram, Constant>);

/// The state of `e` in procedure `p`: `read.argument()` is the argument's state and
/// `read.call(callee, operand)` the state a call returns (nothing: bottom).
template <class Read>
State evaluate(const ToyProgram& program, std::uint32_t p, const ArgumentExpression& e, const Read& read) {
  switch (e.kind) {
    case ArgumentExpression::Kind::constant: return Constant::of(e.value);
    case ArgumentExpression::Kind::argument: return read.argument();
    case ArgumentExpression::Kind::argument_plus: {
      const State argument = read.argument();
      if (!argument) return std::nullopt;
      if (const std::int64_t* c = argument->if_constant()) return Constant::of(*c + e.value);
      return *argument;  // bottom or top
    }
    case ArgumentExpression::Kind::call_result: {
      const Call& call = program.calls[p][e.call];
      return read.call(call.callee, evaluate(program, p, call.operand, read));
    }
  }
  return std::nullopt;
}

void join_into(State& into, const State& from) {
  if (!from) return;
  if (!into) into = from;
  else (void)into->join(*from);
}

/// One solve of procedure `p` (every call executable).
template <class Read>
ProcedureReport<Constant> solve_toy(const ToyProgram& program, std::uint32_t p, const Read& read) {
  ProcedureReport<Constant> report;
  report.returned.resize(1);
  for (const ArgumentExpression& e : program.returns[p]) join_into(report.returned[0], evaluate(program, p, e, read));
  for (const Call& call : program.calls[p]) report.calls.push_back({call.callee, {evaluate(program, p, call.operand, read)}});
  return report;
}

/// What one solve of the solver under test reads.
struct SolverRead {
  const ContextInput<Constant>* input;
  [[nodiscard]] State argument() const { return input->arguments[0]; }
  [[nodiscard]] State call(std::uint32_t callee, const State& operand) const {
    return input->call_result(callee, 0, std::array<State, 1>{operand});
  }
};

CallGraphResult<Constant> solve_program(const ToyProgram& program, const CallGraphOptions& options = {},
                                        std::size_t* solves = nullptr) {
  return solve_call_graph<Constant>(
      program,
      [&](const ContextInput<Constant>& input) {
        if (solves) ++*solves;
        return solve_toy(program, input.procedure, SolverRead{&input});
      },
      options);
}

bool grow(State& into, const State& from) {
  if (!from) return false;
  if (!into) {
    into = from;
    return true;
  }
  return into->join(*from) == ChangeResult::changed;
}

/// The naive context-insensitive fixpoint: solve every reached procedure in turn, join
/// everything in, until a whole round changes nothing.
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
  struct Read {
    const ProcedureSummaries<Constant>* s;
    std::uint32_t p;
    [[nodiscard]] State argument() const { return s->arguments[p][0]; }
    [[nodiscard]] State call(std::uint32_t callee, const State&) const { return s->results[callee][0]; }
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t p = 0; p < n; ++p) {
      if (!reached[p]) continue;
      const ProcedureReport<Constant> r = solve_toy(program, p, Read{&s, p});
      changed |= grow(s.results[p][0], r.returned[0]);
      for (const CallSiteReport<Constant>& call : r.calls) {
        if (!reached[call.callee]) changed = reached[call.callee] = true;
        changed |= grow(s.arguments[call.callee][0], call.operands[0]);
      }
    }
  }
  return {s, reached};
}

/// A state as a map key: (kind, value).
std::pair<int, std::int64_t> key_of(const State& s) {
  if (!s) return {0, 0};
  if (const std::int64_t* c = s->if_constant()) return {1, *c};
  return {s->is_top() ? 2 : 3, 0};
}

/// The context-sensitive tabulation, naively: every (procedure, argument) pair reached from the
/// roots' unknown arguments, each call reading exactly its own pair's result, every pair solved
/// in turn until a whole round changes nothing; then only the pairs the final solves reach from
/// the roots (others were passed by calls whose operands have grown since). Nothing when some
/// procedure would need more than `limit` pairs (recursion that passes ever new constants).
using Table = std::map<std::pair<std::uint32_t, std::pair<int, std::int64_t>>, std::pair<State, State>>;  // -> (argument, result)
std::optional<Table> tabulate(const ToyProgram& program, std::size_t limit) {
  Table table;
  for (std::uint32_t p = 0; p < program.procedure_count(); ++p)
    if (program.roots[p]) table[{p, key_of(Constant::top())}] = {Constant::top(), std::nullopt};
  struct Read {
    const Table* table;
    State argument_state;
    [[nodiscard]] State argument() const { return argument_state; }
    [[nodiscard]] State call(std::uint32_t callee, const State& operand) const {
      const auto it = table->find({callee, key_of(operand)});
      return it == table->end() ? std::nullopt : it->second.second;
    }
  };
  for (bool changed = true; changed;) {
    changed = false;
    const Table snapshot = table;
    for (const auto& [key, entry] : snapshot) {
      const ProcedureReport<Constant> r = solve_toy(program, key.first, Read{&table, entry.first});
      changed |= grow(table[key].second, r.returned[0]);
      for (const CallSiteReport<Constant>& call : r.calls)
        if (table.emplace(std::pair{call.callee, key_of(call.operands[0])}, std::pair{call.operands[0], State()}).second)
          changed = true;
    }
    std::map<std::uint32_t, std::size_t> per_procedure;
    for (const auto& [key, entry] : table)
      if (++per_procedure[key.first] > limit) return std::nullopt;
  }
  Table live;
  std::vector<Table::key_type> pending;
  for (const auto& [key, entry] : table)
    if (program.roots[key.first] && key.second == key_of(Constant::top())) pending.push_back(key);
  while (!pending.empty()) {
    const Table::key_type key = pending.back();
    pending.pop_back();
    const auto& entry = table.at(key);
    if (!live.emplace(key, entry).second) continue;
    for (const CallSiteReport<Constant>& call : solve_toy(program, key.first, Read{&table, entry.first}).calls)
      pending.push_back({call.callee, key_of(call.operands[0])});
  }
  return live;
}

/// What `program`'s procedure `p` returns, run concretely on `x` with every call inlined (an
/// acyclic call graph): the set of values its returns may return.
std::set<std::int64_t> run(const ToyProgram& program, std::uint32_t p, std::int64_t x) {
  const auto values = [&](const auto& self, const ArgumentExpression& e) -> std::set<std::int64_t> {
    switch (e.kind) {
      case ArgumentExpression::Kind::constant: return {e.value};
      case ArgumentExpression::Kind::argument: return {x};
      case ArgumentExpression::Kind::argument_plus: return {x + e.value};
      case ArgumentExpression::Kind::call_result: {
        const Call& call = program.calls[p][e.call];
        std::set<std::int64_t> out;
        for (const std::int64_t v : self(self, call.operand)) out.merge(run(program, call.callee, v));
        return out;
      }
    }
    return {};
  };
  std::set<std::int64_t> out;
  for (const ArgumentExpression& e : program.returns[p]) out.merge(values(values, e));
  return out;
}

/// The flat join of a set of concrete values (nothing when empty).
State flat_join(const std::set<std::int64_t>& values) {
  State out;
  for (const std::int64_t v : values) join_into(out, Constant::of(v));
  return out;
}

ToyProgram random_program(std::mt19937_64& rng, bool acyclic = false) {
  ToyProgram program;
  const auto n = static_cast<std::uint32_t>(2 + rng() % 7);
  program.roots.assign(n, false);
  program.roots[0] = true;
  if (rng() % 3 == 0) program.roots[n - 1] = true;
  program.calls.resize(n);
  program.returns.resize(n);
  const auto expression = [&](std::uint32_t calls_so_far) {
    ArgumentExpression e;
    switch (rng() % (calls_so_far ? 4 : 3)) {
      case 0: e.kind = ArgumentExpression::Kind::argument; break;
      case 1: e.kind = ArgumentExpression::Kind::constant, e.value = static_cast<std::int64_t>(rng() % 3); break;
      case 2: e.kind = ArgumentExpression::Kind::argument_plus, e.value = static_cast<std::int64_t>(rng() % 2); break;
      default: e.kind = ArgumentExpression::Kind::call_result, e.call = static_cast<std::uint32_t>(rng() % calls_so_far); break;
    }
    return e;
  };
  for (std::uint32_t p = 0; p < n; ++p) {
    if (acyclic && p + 1 == n) {  // the last procedure calls nothing
      program.returns[p].push_back(expression(0));
      continue;
    }
    const std::uint32_t calls = static_cast<std::uint32_t>(rng() % 4);
    for (std::uint32_t c = 0; c < calls; ++c) {  // any callee: recursion and cycles included, unless acyclic
      const auto callee = static_cast<std::uint32_t>(acyclic ? p + 1 + rng() % (n - p - 1) : rng() % n);
      program.calls[p].push_back({callee, expression(c)});
    }
    const auto returns = 1 + rng() % 2;
    for (std::size_t r = 0; r < returns; ++r) program.returns[p].push_back(expression(calls));
  }
  return program;
}

CallGraphOptions sensitive(std::uint32_t max_contexts) {
  CallGraphOptions options;
  options.context_sensitive = true;
  options.max_contexts_per_procedure = max_contexts;
  return options;
}

/// A program whose root @0 calls @1 with the constants 0 .. `callers - 1` and returns each
/// result; @1 returns its argument plus 1.
ToyProgram fan_in(std::int64_t callers) {
  ToyProgram program;
  program.roots = {true, false};
  program.calls.resize(2);
  program.returns.resize(2);
  for (std::int64_t c = 0; c < callers; ++c) {
    program.calls[0].push_back({1, {ArgumentExpression::Kind::constant, c, 0}});
    program.returns[0].push_back({ArgumentExpression::Kind::call_result, 0, static_cast<std::uint32_t>(c)});
  }
  program.returns[1].push_back({ArgumentExpression::Kind::argument_plus, 1, 0});
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
    const CallGraphResult<Constant> result = solve_program(program, {}, &solves);
    REQUIRE(result.converged());
    CHECK(result.solves == solves);
    const auto [expected, reached] = naive_fixpoint(program);
    CHECK(result.reached == reached);
    for (std::uint32_t p = 0; p < program.procedure_count(); ++p) {
      CAPTURE(p);
      CHECK(result.contexts.has_merged(p));
      CHECK(result.contexts.contexts[p].size() == 1);
      CHECK(result.summaries.arguments[p] == expected.arguments[p]);
      CHECK(result.summaries.results[p] == expected.results[p]);
    }
  }
  CHECK(recursive > 100);  // the programs did exercise cycles of the call graph
}

TEST_CASE("per argument tuple, the worklist reaches the naive tabulation on random call graphs (recursion included)") {
  std::mt19937_64 rng(5);
  std::size_t compared = 0, more_precise = 0, overflowed = 0;
  for (int i = 0; i < 500; ++i) {
    const ToyProgram program = random_program(rng);
    CAPTURE(i);
    const CallGraphResult<Constant> result = solve_program(program, sensitive(16));
    REQUIRE(result.converged());
    const CallGraphResult<Constant> insensitive = solve_program(program);
    // Never less precise than one context per procedure, and the same procedures reached.
    CHECK(result.reached == insensitive.reached);
    for (std::uint32_t p = 0; p < program.procedure_count(); ++p) {
      const State& joined = result.summaries.results[p][0];
      const State& merged = insensitive.summaries.results[p][0];
      CHECK((!joined || (merged && joined->leq(*merged))));
      more_precise += joined != merged;
    }
    bool any_merged = false;
    for (std::uint32_t p = 0; p < program.procedure_count(); ++p) {
      any_merged = any_merged || result.contexts.has_merged(p);
      CHECK(result.contexts.contexts[p].size() <= 16 + 1);
    }
    overflowed += any_merged;
    const std::optional<Table> table = tabulate(program, 8);
    if (!table) continue;
    if (any_merged) {  // beyond the cap: what each call of the tabulation reads is above its result
      for (const auto& [key, entry] : *table) {
        const State read = result.contexts.call_result(key.first, 0, std::array<State, 1>{entry.first});
        CHECK((!entry.second || (read && entry.second->leq(*read))));
      }
      continue;
    }
    ++compared;
    // Every pair the tabulation reaches is a context, with the same result...
    for (const auto& [key, entry] : *table) {
      const auto& of = result.contexts.contexts[key.first];
      const auto it = std::find_if(of.begin(), of.end(), [&](const ContextSummary<Constant>& c) {
        return key_of(c.arguments[0]) == key.second;
      });
      REQUIRE(it != of.end());
      CHECK(it->keyed);
      CHECK(it->results[0] == entry.second);
      // ...and a call with that argument reads it.
      CHECK(result.contexts.call_result(key.first, 0, std::array<State, 1>{entry.first}) == entry.second);
    }
  }
  MESSAGE("compared: " << compared << ", more precise procedures: " << more_precise << ", overflowed: " << overflowed);
  CHECK(compared > 300);
  CHECK(more_precise > 30);  // contexts did gain precision
  CHECK(overflowed > 10);     // and recursion did pass ever new constants beyond the cap
}

TEST_CASE("on acyclic call graphs, a call with constant operands reads what running the callee inlined returns") {
  std::mt19937_64 rng(11);
  std::size_t checked = 0;
  for (int i = 0; i < 300; ++i) {
    const ToyProgram program = random_program(rng, /*acyclic=*/true);
    const CallGraphResult<Constant> result = solve_program(program, sensitive(64));
    REQUIRE(result.converged());
    for (std::uint32_t p = 0; p < program.procedure_count(); ++p) {
      CHECK_FALSE(result.contexts.has_merged(p));
      for (const ContextSummary<Constant>& c : result.contexts.contexts[p]) {
        CAPTURE(p);
        if (!c.arguments[0]) continue;
        if (const std::int64_t* k = c.arguments[0]->if_constant()) {
          CHECK(c.results[0] == flat_join(run(program, p, *k)));  // exact: the functional approach
          ++checked;
        } else {  // the roots' unknown argument: sound for every input
          for (std::int64_t x = -3; x <= 3; ++x)
            for (const std::int64_t v : run(program, p, x))
              CHECK((c.results[0] && (c.results[0]->is_top() || *c.results[0] == Constant::of(v))));
        }
      }
    }
  }
  CHECK(checked > 200);
}

TEST_CASE("calls read the context of their own arguments; beyond the cap, tuples join the merged context") {
  const ToyProgram program = fan_in(10);
  const auto read = [](const CallGraphResult<Constant>& r, std::int64_t argument) {
    return r.contexts.call_result(1, 0, std::array<State, 1>{Constant::of(argument)});
  };
  // One context per constant: f(c) = c + 1 at each call.
  const CallGraphResult<Constant> exact = solve_program(program, sensitive(10));
  REQUIRE(exact.converged());
  CHECK_FALSE(exact.contexts.has_merged(1));
  CHECK(exact.contexts.contexts[1].size() == 10);
  for (std::int64_t c = 0; c < 10; ++c) CHECK(read(exact, c) == State(Constant::of(c + 1)));
  CHECK(exact.summaries.results[1][0] == State(Constant::top()));  // joined over contexts
  // Without the option: one context, every call reads its join.
  const CallGraphResult<Constant> insensitive = solve_program(program);
  CHECK(insensitive.contexts.contexts[1].size() == 1);
  CHECK(read(insensitive, 3) == State(Constant::top()));
  // Cap 4: the first four constants keep their contexts, the other six join the merged one.
  const CallGraphResult<Constant> capped = solve_program(program, sensitive(4));
  REQUIRE(capped.converged());
  CHECK(capped.contexts.has_merged(1));
  CHECK(capped.contexts.contexts[1].size() == 5);
  const ContextSummary<Constant>& merged = capped.contexts.contexts[1][capped.contexts.merged[1]];
  CHECK_FALSE(merged.keyed);
  CHECK(merged.arguments == insensitive.summaries.arguments[1]);  // 4 ⊔ ... ⊔ 9: top
  for (std::int64_t c = 0; c < 4; ++c) CHECK(read(capped, c) == State(Constant::of(c + 1)));
  for (std::int64_t c = 4; c < 10; ++c) CHECK(read(capped, c) == State(Constant::top()));
  CHECK(capped.summaries.results == insensitive.summaries.results);
  // Two overflowing tuples, 8 and 9: the merged context joins them, a read of either gets it.
  const CallGraphResult<Constant> two_over = solve_program(program, sensitive(8));
  CHECK(two_over.contexts.contexts[1][two_over.contexts.merged[1]].arguments[0] == State(Constant::top()));
  CHECK(read(two_over, 7) == State(Constant::of(8)));
  CHECK(read(two_over, 9) == State(Constant::top()));
  // A cap of 0 is the context-insensitive solve.
  const CallGraphResult<Constant> zero = solve_program(program, sensitive(0));
  CHECK(zero.contexts.contexts[1].size() == 1);
  CHECK(zero.summaries.results == insensitive.summaries.results);
}

TEST_CASE("recursion that passes ever new constants stops at the cap") {
  // @0 calls @1(0); @1(n) calls @1(n + 1) and returns n or what that call returns.
  ToyProgram program;
  program.roots = {true, false};
  program.calls = {{{1, {ArgumentExpression::Kind::constant, 0, 0}}}, {{1, {ArgumentExpression::Kind::argument_plus, 1, 0}}}};
  program.returns = {{{ArgumentExpression::Kind::call_result, 0, 0}},
                     {{ArgumentExpression::Kind::argument, 0, 0}, {ArgumentExpression::Kind::call_result, 0, 0}}};
  for (const std::uint32_t cap : {1u, 3u, 8u, 100u}) {
    CAPTURE(cap);
    std::size_t solves = 0;
    const CallGraphResult<Constant> result = solve_program(program, sensitive(cap), &solves);
    REQUIRE(result.converged());
    CHECK(result.contexts.has_merged(1));
    CHECK(result.contexts.contexts[1].size() == cap + 1);
    CHECK(solves < 4 * (cap + 2));
    CHECK(result.summaries.results[0][0] == State(Constant::top()));  // returns 0, 1, 2, ...
  }
  // With the same argument in every recursive call, one context per constant and exact results.
  program.roots = {true, false};
  program.calls = {{{1, {ArgumentExpression::Kind::constant, 4, 0}}, {1, {ArgumentExpression::Kind::constant, 9, 0}}},
                   {{1, {ArgumentExpression::Kind::argument, 0, 0}}}};
  program.returns = {{{ArgumentExpression::Kind::call_result, 0, 0}}, {{ArgumentExpression::Kind::call_result, 0, 0},
                                                               {ArgumentExpression::Kind::argument_plus, 1, 0}}};
  const CallGraphResult<Constant> same = solve_program(program, sensitive(8));
  REQUIRE(same.converged());
  CHECK(same.contexts.contexts[1].size() == 2);
  CHECK(same.summaries.results[0][0] == State(Constant::of(5)));
  CHECK(same.contexts.call_result(1, 0, std::array<State, 1>{Constant::of(9)}) == State(Constant::of(10)));
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
  const auto solve = [&](const ContextInput<Interval>& input) {
    ProcedureReport<Interval> report;
    if (input.procedure == 0) {
      report.calls.push_back({1, {zero}});
      report.returned.push_back(input.call_result(1, 0, std::array<SummaryState<Interval>, 1>{zero}));
      return report;
    }
    const SummaryState<Interval>& n = input.arguments[0];
    report.returned.push_back(n);
    report.calls.push_back({1, {n ? SummaryState<Interval>(infer_add(*n, one)) : std::nullopt}});
    return report;
  };
  for (const bool context_sensitive : {false, true})
    for (const std::uint32_t delay : {0u, 3u, 10u}) {
      CAPTURE(context_sensitive);
      CallGraphOptions options = sensitive(context_sensitive ? 8 : 0);
      options.widening_delay = delay;
      const CallGraphResult<Interval> result = solve_call_graph<Interval>(Counter{}, solve, options);
      REQUIRE(result.converged());
      CHECK(result.solves < 100);
      const Interval& argument = *result.summaries.arguments[1][0];
      for (std::uint64_t n = 0; n < 5000; n += 7) CHECK(argument.contains(n));  // the concrete calls' arguments
      // count(n) returns n: root returns count(0), 0. One context for the root's call reads exactly
      // that; the merged one covers every count(n).
      if (context_sensitive) CHECK(*result.summaries.results[0][0] == zero);
      else CHECK(result.summaries.results[0][0]->contains(4321));
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
  program.calls = {{{1, {ArgumentExpression::Kind::constant, 5, 0}}}, {}, {{{0, {}}}}};  // @2 calls @0, nobody calls @2
  program.returns = {{{ArgumentExpression::Kind::call_result, 0, 0}}, {{ArgumentExpression::Kind::argument_plus, 1, 0}}, {{}}};
  for (const bool context_sensitive : {false, true}) {
    std::vector<std::uint32_t> solved;
    const CallGraphResult<Constant> result = solve_call_graph<Constant>(
        program,
        [&](const ContextInput<Constant>& input) {
          solved.push_back(input.procedure);
          return solve_toy(program, input.procedure, SolverRead{&input});
        },
        sensitive(context_sensitive ? 8 : 0));
    REQUIRE(result.converged());
    CHECK(result.reached == std::vector<bool>{true, true, false});
    CHECK(std::find(solved.begin(), solved.end(), 2u) == solved.end());
    CHECK(result.summaries.arguments[1][0] == State(Constant::of(5)));
    CHECK(result.summaries.results[0][0] == State(Constant::of(6)));  // 5 + 1, through the call
  }
}
