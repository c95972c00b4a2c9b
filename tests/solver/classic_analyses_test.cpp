// The classic analyses of examples/classic_analyses/, each run on a Boost.Graph
// CFG and on the hand-written mycc::Cfg, checked against brute-force oracles
// (path searches and concrete executions) on hundreds of random programs.

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <set>
#include <sstream>
#include <vector>

#include <kildall/solver/verify.hpp>

#include "classic_analyses/available_expressions.hpp"
#include "classic_analyses/interval_analysis.hpp"
#include "classic_analyses/live_variables.hpp"
#include "classic_analyses/mycc_liveness.hpp"
#include "classic_analyses/program.hpp"
#include "classic_analyses/reaching_definitions.hpp"

using namespace classic;

namespace {

constexpr unsigned seeds = 300;

Program program_for(unsigned seed) {
  std::mt19937 rng(seed);
  return random_program(rng, 1 + rng() % 10, 1 + rng() % 5);
}

std::vector<bool> reachable_blocks(const Program& p) {
  std::vector<bool> seen(p.blocks.size(), false);
  std::vector<std::size_t> stack{0};
  seen[0] = true;
  while (!stack.empty()) {
    const std::size_t b = stack.back();
    stack.pop_back();
    for (std::size_t s : p.blocks[b].successors) {
      if (!seen[s]) {
        seen[s] = true;
        stack.push_back(s);
      }
    }
  }
  return seen;
}

// Is `x` read before written on some path starting at the entry of block `b`?
bool live_at_entry_oracle(const Program& p, std::size_t b, std::size_t x) {
  std::vector<bool> seen(p.blocks.size(), false);
  std::vector<std::size_t> stack{b};
  seen[b] = true;
  while (!stack.empty()) {
    const Block& block = p.blocks[stack.back()];
    stack.pop_back();
    bool killed = false;
    for (const Assign& s : block.body) {
      if ((s.rhs == Rhs::copy || s.is_binary()) && s.a == x) return true;
      if (s.is_binary() && s.b == x) return true;
      if (s.dst == x) {
        killed = true;
        break;
      }
    }
    if (killed) continue;
    if (block.branch && block.branch->var == x) return true;
    for (std::size_t r : block.returns) {
      if (r == x) return true;
    }
    for (std::size_t s : block.successors) {
      if (!seen[s]) {
        seen[s] = true;
        stack.push_back(s);
      }
    }
  }
  return false;
}

template <class G>
void check_live_variables(const G& g, const Program& p) {
  const auto r = live_variables(g, p);
  REQUIRE(r.converged());
  CHECK(verify_fixpoint(LiveVariables{&p}, r).ok());
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    const kildall::Bitset* live_in = r.before(b);
    const kildall::Bitset* live_out = r.after(b);
    REQUIRE(live_in != nullptr);
    for (std::size_t x = 0; x < p.num_vars; ++x) {
      CHECK(live_in->test(x) == live_at_entry_oracle(p, b, x));
      bool out = false;
      for (std::size_t s : p.blocks[b].successors) out = out || live_at_entry_oracle(p, s, x);
      CHECK(live_out->test(x) == out);
    }
  }
}

// Definitions reaching the entry of every block, by searching from each definition.
std::vector<std::set<std::size_t>> reaching_oracle(const Program& p, const Definitions& defs) {
  std::vector<std::set<std::size_t>> in(p.blocks.size());
  const auto reach = reachable_blocks(p);
  auto writes = [&](std::size_t b, std::size_t var) {
    for (const Assign& s : p.blocks[b].body) {
      if (s.dst == var) return true;
    }
    return false;
  };
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    if (!reach[b]) continue;
    const auto& body = p.blocks[b].body;
    for (std::size_t j = 0; j < body.size(); ++j) {
      bool survives = true;
      for (std::size_t k = j + 1; k < body.size(); ++k) survives = survives && body[k].dst != body[j].dst;
      if (!survives) continue;
      const std::size_t id = defs.first[b] + j;
      std::vector<bool> seen(p.blocks.size(), false);
      std::vector<std::size_t> stack(p.blocks[b].successors.begin(), p.blocks[b].successors.end());
      while (!stack.empty()) {
        const std::size_t w = stack.back();
        stack.pop_back();
        if (seen[w]) continue;
        seen[w] = true;
        in[w].insert(id);
        if (writes(w, body[j].dst)) continue;
        for (std::size_t s : p.blocks[w].successors) stack.push_back(s);
      }
    }
  }
  return in;
}

template <class G>
void check_reaching_definitions(const G& g, const Program& p) {
  const Definitions defs(p);
  const auto r = reaching_definitions(g, p, defs);
  REQUIRE(r.converged());
  CHECK(verify_fixpoint(ReachingDefinitions{&p, &defs}, r).ok());
  const auto oracle = reaching_oracle(p, defs);
  const auto reach = reachable_blocks(p);
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    const kildall::Bitset* in = r.before(b);
    REQUIRE((in != nullptr) == reach[b]);
    if (in == nullptr) continue;
    CHECK(std::set<std::size_t>(in->begin(), in->end()) == oracle[b]);
  }
}

// Is `e` available at the entry of `b`: is the state (b, not available) unreachable
// in the product of the CFG with "e available"?
bool available_oracle(const Program& p, std::size_t b, const Expression& e) {
  const std::size_t n = p.blocks.size();
  std::vector<bool> seen(2 * n, false);  // index: block * 2 + available
  std::vector<std::size_t> stack{0};
  seen[0] = true;
  while (!stack.empty()) {
    const std::size_t state = stack.back();
    stack.pop_back();
    const std::size_t block = state / 2;
    bool avail = state % 2 == 1;
    for (const Assign& s : p.blocks[block].body) {
      if (s.is_binary() && Expression{s.rhs, s.a, s.b} == e) avail = true;
      if (s.dst == e.a || s.dst == e.b) avail = false;
    }
    for (std::size_t t : p.blocks[block].successors) {
      const std::size_t next = t * 2 + (avail ? 1 : 0);
      if (!seen[next]) {
        seen[next] = true;
        stack.push_back(next);
      }
    }
  }
  return !seen[b * 2];
}

template <class G>
void check_available_expressions(const G& g, const Program& p) {
  const auto r = available_expressions(g, p);
  REQUIRE(r.converged());
  CHECK(verify_fixpoint(AvailableExpressions{&p}, r).ok());
  std::set<Expression> universe;
  for (const Block& b : p.blocks) {
    for (const Assign& s : b.body) {
      if (s.is_binary()) universe.insert(Expression{s.rhs, s.a, s.b});
    }
  }
  const auto reach = reachable_blocks(p);
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    const auto* in = r.before(b);
    REQUIRE((in != nullptr) == reach[b]);
    if (in == nullptr) continue;
    for (const Expression& e : universe) CHECK(in->contains(e) == available_oracle(p, b, e));
  }
}

template <class G>
void check_intervals(const G& g, const Program& p, std::mt19937& rng) {
  kildall::SolverOptions options;
  options.narrowing_passes = 2;
  options.order = rng() % 2 == 0 ? kildall::IterationOrder::reverse_postorder
                                 : kildall::IterationOrder::weak_topological_order;
  const auto r = interval_analysis(g, p, options);
  REQUIRE(r.converged());
  CHECK(verify_fixpoint(IntervalAnalysis<G>{&p, &g}, r).ok());
  // Soundness against concrete runs: every state a run reaches is covered.
  for (int k = 0; k < 10; ++k) {
    std::vector<std::int64_t> initial(p.num_vars), inputs(4);
    for (auto& x : initial) x = static_cast<std::int64_t>(rng() % 21) - 10;
    for (auto& x : inputs) x = static_cast<std::int64_t>(rng() % 21) - 10;
    const Run run = classic::run(p, initial, inputs);
    for (const auto& [block, env] : run.entries) {
      const IntervalEnv* in = r.before(block);
      REQUIRE(in != nullptr);
      for (std::size_t x = 0; x < p.num_vars; ++x) {
        CHECK(kildall::Interval::constant(64, env[x]).leq(in->vars[x]));
      }
    }
  }
}

}  // namespace

TEST_CASE("live variables = path search, on a Boost.Graph CFG and on mycc::Cfg") {
  for (unsigned seed = 0; seed < seeds; ++seed) {
    CAPTURE(seed);
    const Program p = program_for(seed);
    check_live_variables(boost_cfg(p), p);
    check_live_variables(mycc_cfg(p), p);
  }
}

TEST_CASE("reaching definitions = path search, on both CFG types") {
  for (unsigned seed = 0; seed < seeds; ++seed) {
    CAPTURE(seed);
    const Program p = program_for(seed);
    check_reaching_definitions(boost_cfg(p), p);
    check_reaching_definitions(mycc_cfg(p), p);
  }
}

TEST_CASE("available expressions = all-paths search, on both CFG types") {
  for (unsigned seed = 0; seed < seeds; ++seed) {
    CAPTURE(seed);
    const Program p = program_for(seed);
    check_available_expressions(boost_cfg(p), p);
    check_available_expressions(mycc_cfg(p), p);
  }
}

TEST_CASE("interval analysis covers every concrete run, on both CFG types") {
  for (unsigned seed = 0; seed < seeds; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed + 1000);
    const Program p = program_for(seed);
    check_intervals(boost_cfg(p), p, rng);
    check_intervals(mycc_cfg(p), p, rng);
  }
}

TEST_CASE("interval analysis of a counting loop: widening, then narrowing recovers the bound") {
  // b0: i = 0            -> b1
  // b1: if (i < 10)      -> b2, b3
  // b2: i = i + one      -> b1          (one = 1)
  // b3: return i;        b4: i = 5 (dead) -> b3
  Program p;
  p.num_vars = 2;
  p.blocks.resize(5);
  p.blocks[0].body = {{0, Rhs::constant, 0}, {1, Rhs::constant, 1}};
  p.blocks[0].successors = {1};
  p.blocks[1].branch = Branch{0, 10};
  p.blocks[1].successors = {2, 3};
  p.blocks[2].body = {{0, Rhs::add, 0, 0, 1}};
  p.blocks[2].successors = {1};
  p.blocks[3].returns = {0};
  p.blocks[4].body = {{0, Rhs::constant, 5}};
  p.blocks[4].successors = {3};
  const auto g = boost_cfg(p);
  kildall::SolverOptions options;
  options.widening_delay = 1;
  const auto widened = interval_analysis(g, p, options);
  REQUIRE(widened.converged());
  CHECK(widened.before(1)->vars[0] == kildall::Interval::from_signed(64, 0, INT64_MAX));
  CHECK(widened.before(3)->vars[0] == kildall::Interval::from_signed(64, 10, INT64_MAX));
  CHECK(widened.before(2)->vars[0] == kildall::Interval::from_signed(64, 0, 9));  // edge refinement
  CHECK_FALSE(widened.reached(4));
  options.narrowing_passes = 2;
  const auto narrowed = interval_analysis(g, p, options);
  REQUIRE(narrowed.converged());
  CHECK(narrowed.before(1)->vars[0] == kildall::Interval::from_signed(64, 0, 10));
  CHECK(narrowed.before(3)->vars[0] == kildall::Interval::constant(64, 10));
  CHECK(verify_fixpoint(IntervalAnalysis<BoostCfg>{&p, &g}, narrowed).ok());
}

TEST_CASE("liveness by variable name on mycc::Cfg's sample function") {
  const mycc::Cfg cfg = mycc::sample_cfg();
  std::ostringstream out;
  print_live_in(out, cfg);
  // entry defines x and y; head reads y, x; body and spin read y; exit returns y;
  // the dead block reads x (liveness is not reachability: it is solved too).
  CHECK(out.str() ==
        "live-in entry:\n"
        "live-in head: x y\n"
        "live-in body: x y\n"
        "live-in spin: x y\n"
        "live-in exit: y\n"
        "live-in dead: x y\n");
  const auto r = mycc_live_variables(cfg);
  CHECK(verify_fixpoint(MyccLiveness{&cfg}, r).ok());
}
