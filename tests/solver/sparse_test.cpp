// Tests the sparse solver (solve_sparse, resolve_sparse, the sweep); oracles: concrete runs of random SSA programs, the same programs on a second CFG type or numbered backwards (the worklist), and states worked out by hand.
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/interval_transfer.hpp>
#include <kildall/solver/sparse.hpp>
#include <kildall/solver/ssa_program_index.hpp>
#include <kildall/solver/verify.hpp>

#include <doctest/doctest.h>

#include <boost/graph/adjacency_list.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "classic_analyses/constant_propagation.hpp"
#include "classic_analyses/ssa.hpp"
#include "custom_graph/cfg.hpp"
#include "test_lattices.hpp"

using classic::Op;
using FlatConstant = kildall::Flat<std::int64_t>;

namespace {

/// Slots of mycc::Cfg edges: the position of the target among the program's successors.
struct MyccSlot {
  const classic::SsaProgram* p;
  std::size_t operator()(const mycc::CfgEdge& e) const {
    const auto& succ = p->blocks[e.from].successors;
    std::size_t i = 0;
    while (succ[i].block != e.to) ++i;
    return i;
  }
  std::size_t source(const mycc::CfgEdge& e) const { return e.from; }
};

mycc::Cfg mycc_cfg(const classic::SsaProgram& p) {
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    for (const auto& s : p.blocks[b].successors) edges.emplace_back(b, s.block);
  }
  return mycc::cfg_from_edges(p.blocks.size(), edges);
}

std::size_t add(classic::SsaProgram& p, classic::SsaValue v) {
  p.values.push_back(v);
  const std::size_t id = p.values.size() - 1;
  if (v.op == Op::argument) {
    p.blocks[v.block].arguments.push_back(id);
  } else {
    p.blocks[v.block].values.push_back(id);
  }
  return id;
}

}  // namespace

TEST_CASE("SCCP: a branch on a constant leaves the other side uninitialized") {
  // entry(a): one = 1; zero = 0; t = zero < one; cond_br t, b1(one), b2(zero)
  // b1(x): y = x + one; br b3(y)       b2(z): u = z * a; br b3(u)      b3(w): return
  classic::SsaProgram p;
  p.blocks.resize(4);
  const auto a = add(p, {Op::argument, 0});
  const auto one = add(p, {Op::constant, 0, 1});
  const auto zero = add(p, {Op::constant, 0, 0});
  const auto t = add(p, {Op::less, 0, 0, zero, one});
  const auto x = add(p, {Op::argument, 1});
  const auto y = add(p, {Op::add, 1, 0, x, one});
  const auto z = add(p, {Op::argument, 2});
  const auto u = add(p, {Op::mul, 2, 0, z, a});
  const auto w = add(p, {Op::argument, 3});
  p.blocks[0].condition = t;
  p.blocks[0].successors = {{1, {one}}, {2, {zero}}};
  p.blocks[1].successors = {{3, {y}}};
  p.blocks[2].successors = {{3, {u}}};
  const auto cfg = classic::control_flow_graph(p);
  const auto shape = classic::ssa_shape(p, cfg);
  const classic::ConstantPropagation<decltype(shape)> sccp{&shape};
  const auto r = kildall::solve_sparse(shape, sccp);
  REQUIRE(r.converged());
  CHECK(r.lookup(a)->is_top());
  CHECK(r.lookup(t)->constant() == 1);
  CHECK(r.block_reached(1));
  CHECK_FALSE(r.block_reached(2));
  CHECK(r.lookup(z) == nullptr);  // never reached: uninitialized, not bottom
  CHECK(r.lookup(u) == nullptr);
  CHECK(r.lookup(y)->constant() == 2);
  CHECK(r.lookup(w)->constant() == 2);  // only the executable edge is joined
  CHECK(kildall::verify_fixpoint(sccp, r).ok());
  CHECK(r.statistics().nodes_reached == 7);  // a one zero t x y w
}

TEST_CASE("SCCP: a loop-carried value goes to top, a loop-invariant one stays constant") {
  // entry: zero = 0; one = 1; ten = 10; br head(zero, one)
  // head(i, k): c = i < ten; cond_br c, body(), exit()
  // body: i2 = i + one; k2 = k * one; br head(i2, k2)        exit: return
  classic::SsaProgram p;
  p.blocks.resize(4);
  const auto zero = add(p, {Op::constant, 0, 0});
  const auto one = add(p, {Op::constant, 0, 1});
  const auto ten = add(p, {Op::constant, 0, 10});
  const auto i = add(p, {Op::argument, 1});
  const auto k = add(p, {Op::argument, 1});
  const auto c = add(p, {Op::less, 1, 0, i, ten});
  const auto i2 = add(p, {Op::add, 2, 0, i, one});
  const auto k2 = add(p, {Op::mul, 2, 0, k, one});
  p.blocks[0].successors = {{1, {zero, one}}};
  p.blocks[1].condition = c;
  p.blocks[1].successors = {{2, {}}, {3, {}}};
  p.blocks[2].successors = {{1, {i2, k2}}};
  const auto cfg = classic::control_flow_graph(p);
  const auto shape = classic::ssa_shape(p, cfg);
  const classic::ConstantPropagation<decltype(shape)> sccp{&shape};
  for (auto order : {kildall::IterationOrder::reverse_postorder, kildall::IterationOrder::weak_topological_order}) {
    kildall::SolverOptions options;
    options.order = order;
    const auto r = kildall::solve_sparse(shape, sccp, options);
    REQUIRE(r.converged());
    CHECK(r.lookup(i)->is_top());
    CHECK(r.lookup(c)->is_top());
    CHECK(r.lookup(k)->constant() == 1);
    CHECK(r.lookup(k2)->constant() == 1);
    CHECK(r.block_reached(3));
    CHECK(kildall::verify_fixpoint(sccp, r).ok());
  }
}

TEST_CASE("SCCP is sound against concrete runs and identical on two CFG types (400 seeds)") {
  std::size_t constants_found = 0, dead_blocks_found = 0;
  for (unsigned seed = 0; seed < 400; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const classic::SsaProgram p = classic::random_ssa_program(rng, 1 + rng() % 8);
    const auto cfg = classic::control_flow_graph(p);
    const mycc::Cfg cfg2 = mycc_cfg(p);
    const auto shape = classic::ssa_shape(p, cfg);
    const classic::SsaShape<mycc::Cfg, MyccSlot> shape2(p, cfg2, MyccSlot{&p});
    const classic::ConstantPropagation<decltype(shape)> sccp{&shape};
    const classic::ConstantPropagation<decltype(shape2)> sccp2{&shape2};
    const auto r = kildall::solve_sparse(shape, sccp);
    const auto r2 = kildall::solve_sparse(shape2, sccp2);
    REQUIRE(r.converged());
    REQUIRE(r2.converged());
    CHECK(kildall::verify_fixpoint(sccp, r).ok());
    CHECK(kildall::verify_fixpoint(sccp2, r2).ok());
    for (std::size_t v = 0; v < p.values.size(); ++v) {
      REQUIRE((r.lookup(v) == nullptr) == (r2.lookup(v) == nullptr));
      if (r.lookup(v)) CHECK(*r.lookup(v) == *r2.lookup(v));
      if (r.lookup(v) && r.lookup(v)->is_constant()) ++constants_found;
    }
    for (std::size_t b = 0; b < p.blocks.size(); ++b) {
      CHECK(r.block_reached(b) == r2.block_reached(b));
      if (!r.block_reached(b)) ++dead_blocks_found;
    }
    // Soundness: whatever a concrete run computes, the analysis allowed.
    for (int run = 0; run < 8; ++run) {
      std::vector<std::int64_t> inputs;
      for (std::size_t i = 0; i < p.blocks[0].arguments.size(); ++i) inputs.push_back(static_cast<std::int64_t>(rng() % 7) - 3);
      const classic::SsaTrace trace = classic::run(p, inputs);
      for (std::size_t b = 0; b < p.blocks.size(); ++b) {
        if (trace.block_visited[b]) CHECK(r.block_reached(b));
      }
      for (std::size_t v = 0; v < p.values.size(); ++v) {
        if (trace.seen[v].empty()) continue;
        const FlatConstant* s = r.lookup(v);
        REQUIRE(s != nullptr);
        CHECK_FALSE(s->is_bottom());
        if (s->is_constant()) {
          for (std::int64_t x : trace.seen[v]) CHECK(x == s->constant());
        }
      }
    }
  }
  CHECK(constants_found > 100);  // the programs exercise folding...
  CHECK(dead_blocks_found > 20);  // ...and dead branches
}

TEST_CASE("more edges than twice the blocks, on a CFG that does not tell its number of edges (100 seeds)") {
  // The solver numbers the edges into arrays of the CFG's `num_edges` (Boost's CFG has it), or
  // of twice the blocks grown as needed (mycc::Cfg has none): blocks that branch to most others
  // take it past that. Oracle: the same program on Boost's CFG, and the fixpoint verified.
  std::size_t grown = 0;
  for (unsigned seed = 0; seed < 100; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    classic::SsaProgram p;
    const std::size_t nb = 4 + rng() % 6;
    p.blocks.resize(nb);
    for (std::size_t b = 0; b < nb; ++b) {
      for (std::size_t i = rng() % 3; i > 0; --i) {
        p.values.push_back({Op::argument, b});
        p.blocks[b].arguments.push_back(p.values.size() - 1);
      }
    }
    for (std::size_t b = 0; b < nb; ++b) {
      classic::SsaBlock& blk = p.blocks[b];
      std::vector<std::size_t> visible = blk.arguments;
      for (std::size_t i = 1 + rng() % 2; i > 0; --i) {
        classic::SsaValue v{Op::constant, b};
        v.constant = static_cast<std::int64_t>(rng() % 4);
        if (!visible.empty() && rng() % 2 == 0) {
          v.op = Op::add;
          v.lhs = visible[rng() % visible.size()];
          v.rhs = visible[rng() % visible.size()];
        }
        p.values.push_back(v);
        blk.values.push_back(p.values.size() - 1);
        visible.push_back(p.values.size() - 1);
      }
      for (std::size_t t = 1; t < nb; ++t) {  // most other blocks (never the entry)
        if (rng() % 4 == 0) continue;
        classic::SsaSuccessor s{t, {}};
        for (std::size_t i = 0; i < p.blocks[t].arguments.size(); ++i) s.args.push_back(visible[rng() % visible.size()]);
        blk.successors.push_back(std::move(s));
      }
      if (blk.successors.size() == 2) blk.condition = visible[rng() % visible.size()];
    }
    const auto cfg = classic::control_flow_graph(p);
    const mycc::Cfg cfg2 = mycc_cfg(p);
    const auto shape = classic::ssa_shape(p, cfg);
    const classic::SsaShape<mycc::Cfg, MyccSlot> shape2(p, cfg2, MyccSlot{&p});
    const kildall::SsaProgramIndex index2(shape2);
    REQUIRE(index2.valid());
    REQUIRE(index2.edge_count() == boost::num_edges(cfg));
    if (index2.edge_count() > 2 * nb) ++grown;
    const classic::ConstantPropagation<decltype(shape)> sccp{&shape};
    const classic::ConstantPropagation<decltype(shape2)> sccp2{&shape2};
    const auto r = kildall::solve_sparse(shape, sccp);
    for (const auto& r2 : {kildall::solve_sparse(shape2, sccp2), kildall::solve_sparse(index2, sccp2)}) {
      REQUIRE(r.converged());
      REQUIRE(r2.converged());
      CHECK(kildall::verify_fixpoint(sccp2, r2).ok());
      for (std::size_t v = 0; v < p.values.size(); ++v) {
        REQUIRE((r.lookup(v) == nullptr) == (r2.lookup(v) == nullptr));
        if (r.lookup(v)) CHECK(*r.lookup(v) == *r2.lookup(v));
      }
      for (std::size_t b = 0; b < nb; ++b) CHECK(r.block_reached(b) == r2.block_reached(b));
    }
  }
  CHECK(grown > 30);  // most programs take the arrays past their first size
}

namespace {

/// The classic shape with its values numbered backwards: no op result's operands come before it,
/// so the solver cannot sweep and takes the worklist of dependents.
template <class Shape>
struct BackwardNumbering : Shape {
  using Shape::Shape;
  [[nodiscard]] std::size_t value_index(std::size_t v) const { return this->value_count() - 1 - v; }
};

/// The two results agree on which values and blocks were reached and on every state.
template <class R1, class R2>
void check_same_fixpoint(const R1& a, const R2& b, const classic::SsaProgram& p) {
  REQUIRE(a.converged());
  REQUIRE(b.converged());
  for (std::size_t v = 0; v < p.values.size(); ++v) {
    REQUIRE((a.lookup(v) == nullptr) == (b.lookup(v) == nullptr));
    if (a.lookup(v) != nullptr) CHECK(*a.lookup(v) == *b.lookup(v));
  }
  for (std::size_t blk = 0; blk < p.blocks.size(); ++blk) CHECK(a.block_reached(blk) == b.block_reached(blk));
}

using SweepShape = classic::SsaShape<classic::SsaCfg, classic::SsaCfgSlot>;

/// One random program of the sweep's tests: its CFG, its shape numbered as generated (forward:
/// the solver sweeps) and numbered backwards (the solver takes the worklist).
struct SweepCase {
  classic::SsaProgram p;
  classic::SsaCfg cfg;
  SweepShape shape;
  BackwardNumbering<SweepShape> backward;
  explicit SweepCase(std::mt19937& rng)
      : p(classic::random_ssa_program(rng, 2 + rng() % 10)),
        cfg(classic::control_flow_graph(p)),
        shape(p, cfg, classic::SsaCfgSlot{&cfg}),
        backward(p, cfg, classic::SsaCfgSlot{&cfg}) {}
  SweepCase(const SweepCase&) = delete;  // the shapes point into it
  SweepCase& operator=(const SweepCase&) = delete;
};

/// `problem` solved by a sweep with `rescan_budget` passes back at most and a clock renumbered
/// after `stamp_limit` stamps.
template <class P>
kildall::SparseResult<SweepShape, kildall::lattice_t<P>> solve_with_budget(const SweepShape& shape, const P& problem,
                                                                         std::optional<std::size_t> rescan_budget,
                                                                         std::uint32_t stamp_limit) {
  kildall::NoObserver none;
  const kildall::SolverOptions options;
  kildall::detail::SparseEngine<SweepShape, P, kildall::NoObserver> engine(shape, problem, options, none, nullptr,
                                                                          rescan_budget, stamp_limit);
  return engine.run();
}

/// The engine's own stamp limit.
template <class P>
constexpr std::uint32_t default_stamps = kildall::detail::SparseEngine<SweepShape, P, kildall::NoObserver>::default_stamp_limit;

}  // namespace

TEST_CASE("the sweep equals the worklist, also when it gives up or renumbers its stamps (300 seeds)") {
  using Sccp = classic::ConstantPropagation<SweepShape>;
  std::size_t with_rescans = 0, abandoned = 0;
  for (unsigned seed = 0; seed < 300; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const SweepCase c(rng);
    const Sccp sccp{&c.shape};
    const auto swept = kildall::solve_sparse(c.shape, sccp);
    CHECK(swept.statistics().swept);
    CHECK(kildall::verify_fixpoint(sccp, swept).ok());

    const classic::ConstantPropagation<BackwardNumbering<SweepShape>> sccp_backward{&c.backward};
    const auto queued = kildall::solve_sparse(c.backward, sccp_backward);
    const bool any_operands = std::any_of(c.p.values.begin(), c.p.values.end(), [](const classic::SsaValue& v) {
      return v.op != Op::argument && v.op != Op::constant;
    });
    CHECK(queued.statistics().swept == !any_operands);  // (backwards is forward when no op reads a value)
    check_same_fixpoint(swept, queued, c.p);

    // A budget of no rescans at all: the first pass behind the sweep hands over to the worklist.
    const auto handed_over = solve_with_budget(c.shape, sccp, std::size_t{0}, default_stamps<Sccp>);
    check_same_fixpoint(swept, handed_over, c.p);
    CHECK(kildall::verify_fixpoint(sccp, handed_over).ok());
    CHECK(handed_over.statistics().sweep_abandoned == (swept.statistics().rescans > 0));
    with_rescans += swept.statistics().rescans > 0 ? 1 : 0;
    abandoned += handed_over.statistics().sweep_abandoned ? 1 : 0;

    // A clock that wraps after three stamps: renumbered before nearly every visit.
    check_same_fixpoint(swept, solve_with_budget(c.shape, sccp, std::nullopt, 3), c.p);
  }
  CHECK(with_rescans > 30);  // loops whose back edge changed an argument behind the sweep
  CHECK(abandoned == with_rescans);
}

namespace {

/// Integer ranges of the classic SSA programs: a widening problem (64-bit intervals).
struct SparseIntervals {
  using lattice_type = kildall::Interval;
  const classic::SsaProgram* program;
  [[nodiscard]] kildall::Interval boundary(std::size_t) const { return kildall::Interval::full(64); }
  [[nodiscard]] kildall::Interval transfer(std::size_t v, kildall::OperandStates<kildall::Interval> ops) const {
    const classic::SsaValue& value = program->values[v];
    switch (value.op) {
      case Op::constant: return kildall::Interval::constant(64, value.constant);
      case Op::add: return kildall::infer_add(ops[0], ops[1]);
      case Op::sub: return kildall::infer_sub(ops[0], ops[1]);
      case Op::mul: return kildall::infer_mul(ops[0], ops[1]);
      case Op::less: return kildall::Interval::from_signed(64, 0, 1);
      default: return kildall::Interval::full(64);
    }
  }
};

}  // namespace

TEST_CASE("a widening sweep ends in a sound post-fixpoint, as the worklist does (300 seeds)") {
  std::size_t widened = 0, abandoned = 0;
  for (unsigned seed = 0; seed < 300; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const SweepCase c(rng);
    const classic::SsaProgram& p = c.p;
    const SparseIntervals ranges{&p};
    const auto swept = kildall::solve_sparse(c.shape, ranges);
    REQUIRE(swept.converged());
    CHECK(swept.statistics().swept);
    CHECK(kildall::verify_fixpoint(ranges, swept).ok());
    widened += swept.statistics().widenings > 0 ? 1 : 0;

    const auto queued = kildall::solve_sparse(c.backward, ranges);
    REQUIRE(queued.converged());
    CHECK(kildall::verify_fixpoint(ranges, queued).ok());

    const auto handed_over = solve_with_budget(c.shape, ranges, std::size_t{0}, default_stamps<SparseIntervals>);
    REQUIRE(handed_over.converged());
    CHECK(kildall::verify_fixpoint(ranges, handed_over).ok());
    abandoned += handed_over.statistics().sweep_abandoned ? 1 : 0;

    // Every block executes or not whatever the states (no branch is decided), and every value a
    // concrete run computes lies in all three ranges.
    for (std::size_t blk = 0; blk < p.blocks.size(); ++blk) {
      CHECK(swept.block_reached(blk) == queued.block_reached(blk));
      CHECK(swept.block_reached(blk) == handed_over.block_reached(blk));
    }
    for (int run = 0; run < 4; ++run) {
      std::vector<std::int64_t> inputs;
      for (std::size_t i = 0; i < p.blocks[0].arguments.size(); ++i) inputs.push_back(static_cast<std::int64_t>(rng() % 7) - 3);
      const classic::SsaTrace trace = classic::run(p, inputs);
      for (std::size_t v = 0; v < p.values.size(); ++v) {
        for (const std::int64_t x : trace.seen[v]) {
          const kildall::Interval point = kildall::Interval::constant(64, x);
          for (const auto* r : {swept.lookup(v), queued.lookup(v), handed_over.lookup(v)}) {
            REQUIRE(r != nullptr);
            CHECK(point.leq(*r));
          }
        }
      }
    }
  }
  CHECK(widened >= 3);    // loops that count up (5 of the 300)
  CHECK(abandoned > 20);  // and sweeps that passed back over one
}

namespace {

/// A DAG of "noisy" ops without a CFG: inputs have noise 1, every op adds its
/// operands' noise plus one (the shape of the article's noise analysis).
struct NoiseSum {
  using lattice_type = solver_test::MaxInt;
  solver_test::MaxInt transfer(std::size_t, kildall::OperandStates<solver_test::MaxInt> ops) const {
    std::int64_t total = 1;
    for (const solver_test::MaxInt* s : ops) total += s->value;
    return solver_test::MaxInt{total};
  }
};

/// NoiseSum on def-use cycles: an operand not yet computed counts as 0 (with
/// SCCP's default rule no value on the cycle would ever be computed).
struct LoopNoise {
  using lattice_type = solver_test::MaxInt;
  static constexpr bool visit_with_uninitialized_operands = true;
  solver_test::MaxInt transfer(std::size_t, kildall::OperandStates<solver_test::MaxInt> ops) const {
    std::int64_t total = 1;
    for (const solver_test::MaxInt* s : ops) {
      if (s == nullptr) continue;
      total = s->value == solver_test::MaxInt::inf ? s->value : std::max(total, s->value + 1);
    }
    return solver_test::MaxInt{total};
  }
};

}  // namespace

TEST_CASE("no CFG: a pure DAG of values matches direct evaluation in topological order (200 seeds)") {
  using Dag = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  for (unsigned seed = 0; seed < 200; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const std::size_t n = 1 + rng() % 40;
    Dag g(n);
    // Vertex ids are shuffled so that index order is not a topological order.
    std::vector<std::size_t> perm(n);
    for (std::size_t i = 0; i < n; ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<std::vector<std::size_t>> operands(n);
    for (std::size_t i = 1; i < n; ++i) {
      const std::size_t k = rng() % 3;
      for (std::size_t j = 0; j < k; ++j) {
        const std::size_t from = rng() % i;
        add_edge(perm[from], perm[i], g);
        operands[i].push_back(from);
      }
    }
    std::vector<std::int64_t> expected(n);
    for (std::size_t i = 0; i < n; ++i) {
      expected[i] = 1;
      for (std::size_t o : operands[i]) expected[i] += expected[o];
    }
    const auto r = kildall::solve_sparse(g, NoiseSum{});
    REQUIRE(r.converged());
    for (std::size_t i = 0; i < n; ++i) CHECK(r.lookup(perm[i])->value == expected[i]);
    CHECK(r.statistics().visits == n);  // a DAG in RPO: one visit per value
    CHECK(kildall::verify_fixpoint(NoiseSum{}, r).ok());
  }
}

namespace {
struct VisitCounter {
  std::size_t* visits;
  template <class Event>
  void on_visit(const Event&) {
    ++*visits;
  }
};
}  // namespace

TEST_CASE("no CFG: options and an observer passed as lvalues select the no-CFG overload") {
  // Regression: (values, problem, options, observer) once matched the CFG
  // overload with Cfg = the problem type, a hard error in boost::graph_traits.
  using Dag = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  Dag g(3);
  add_edge(0, 2, g);
  add_edge(1, 2, g);
  const kildall::SolverOptions options;
  std::size_t visits = 0;
  VisitCounter counter{&visits};
  const auto r = kildall::solve_sparse(g, NoiseSum{}, options, counter);
  REQUIRE(r.converged());
  CHECK(r.lookup(std::size_t{2})->value == 3);
  CHECK(visits == 3);
}

TEST_CASE("no CFG: a def-use cycle widens, or hits the cap and names the value") {
  using Dag = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  Dag g(3);
  add_edge(0, 1, g);
  add_edge(1, 2, g);
  add_edge(2, 1, g);  // 1 <-> 2 grow each other forever
  kildall::SolverOptions options;
  options.widening_delay = 2;
  const auto widened = kildall::solve_sparse(g, LoopNoise{}, options);
  REQUIRE(widened.converged());
  CHECK(widened.lookup(2)->value == solver_test::MaxInt::inf);
  CHECK(widened.statistics().widenings > 0);

  options.widening = false;
  options.max_visits_per_node = 30;
  const auto capped = kildall::solve_sparse(g, LoopNoise{}, options);
  CHECK(capped.status() == kildall::SolveStatus::visit_cap_reached);
  REQUIRE(capped.outcome().offending_node.has_value());
  CHECK((*capped.outcome().offending_node == 1 || *capped.outcome().offending_node == 2));
  CHECK_FALSE(kildall::verify_fixpoint(LoopNoise{}, capped).ok());
}

namespace {

struct Alternate {
  using lattice_type = solver_test::MaxInt;
  static constexpr bool visit_with_uninitialized_operands = true;
  solver_test::MaxInt transfer(std::size_t v, kildall::OperandStates<solver_test::MaxInt> ops) const {
    if (v == 0) return solver_test::MaxInt{0};
    const std::int64_t x = ops.initialized(0) ? ops[0].value : 0;
    return solver_test::MaxInt{x % 2 == 0 ? x + 1 : x - 1};
  }
};

}  // namespace

TEST_CASE("no CFG: a non-monotone transfer is reported") {
  using Dag = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  Dag g(2);
  add_edge(1, 1, g);
  const auto r = kildall::solve_sparse(g, Alternate{});
  CHECK(r.status() == kildall::SolveStatus::non_monotone);
  CHECK(r.outcome().offending_node == std::optional<std::size_t>{1});
  // Unchecked, the state only ever moves up by the lattice's join (Kildall's
  // in[v] := in[v] join f(...)), so the 1, 0, 1, ... oscillation settles at 1.
  kildall::SolverOptions options;
  options.check_monotonicity = false;
  options.widening = false;
  options.max_visits_per_node = 20;
  const auto joined = kildall::solve_sparse(g, Alternate{}, options);
  CHECK(joined.converged());
  CHECK(joined.lookup(1)->value == 1);
  CHECK(joined.visits(1) < 5);
}

TEST_CASE("SCCP on an invalid entry block reports invalid input") {
  classic::SsaProgram p;
  p.blocks.resize(1);
  add(p, {Op::constant, 0, 3});
  const auto cfg = classic::control_flow_graph(p);
  const auto shape = classic::ssa_shape(p, cfg, /*entry=*/5);
  const classic::ConstantPropagation<decltype(shape)> sccp{&shape};
  const auto r = kildall::solve_sparse(shape, sccp);
  CHECK(r.status() == kildall::SolveStatus::invalid_input);
  CHECK(r.lookup(0) == nullptr);
}

TEST_CASE("incremental SCCP equals a fresh solve after changing constants or branches (300 seeds)") {
  std::size_t saved = 0;
  for (unsigned seed = 0; seed < 300; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed + 7);
    classic::SsaProgram p = classic::random_ssa_program(rng, 2 + rng() % 8);
    const auto cfg = classic::control_flow_graph(p);
    const auto shape = classic::ssa_shape(p, cfg);
    const classic::ConstantPropagation<decltype(shape)> sccp{&shape};
    auto previous = kildall::solve_sparse(shape, sccp);
    REQUIRE(previous.converged());

    // Change: a constant's value (its transfer), or which value a branch tests
    // (the edges out of that block, so the targets are the changed blocks).
    std::vector<std::size_t> changed_values, changed_blocks;
    std::vector<std::size_t> constants;
    for (std::size_t v = 0; v < p.values.size(); ++v) {
      if (p.values[v].op == Op::constant) constants.push_back(v);
    }
    if (!constants.empty() && rng() % 2 == 0) {
      const std::size_t v = constants[rng() % constants.size()];
      p.values[v].constant = static_cast<std::int64_t>(rng() % 3);
      changed_values.push_back(v);
    } else {
      for (std::size_t b = 0; b < p.blocks.size(); ++b) {
        if (!p.blocks[b].condition) continue;
        const auto& visible = p.blocks[b].values;
        p.blocks[b].condition = visible[rng() % visible.size()];
        for (const auto& s : p.blocks[b].successors) changed_blocks.push_back(s.block);
        break;
      }
    }
    // The branch operand index is rebuilt from the problem on every solve.
    const auto incremental =
        kildall::resolve_sparse(shape, sccp, std::move(previous), changed_values, changed_blocks);
    const auto fresh = kildall::solve_sparse(shape, sccp);
    REQUIRE(incremental.converged());
    for (std::size_t v = 0; v < p.values.size(); ++v) {
      REQUIRE((incremental.lookup(v) == nullptr) == (fresh.lookup(v) == nullptr));
      if (fresh.lookup(v)) CHECK(*incremental.lookup(v) == *fresh.lookup(v));
    }
    for (std::size_t b = 0; b < p.blocks.size(); ++b) CHECK(incremental.block_reached(b) == fresh.block_reached(b));
    CHECK(kildall::verify_fixpoint(sccp, incremental).ok());
    CHECK(incremental.statistics().nodes_reached == fresh.statistics().nodes_reached);
    if (incremental.statistics().visits < fresh.statistics().visits) saved += fresh.statistics().visits - incremental.statistics().visits;
  }
  CHECK(saved > 0);
}

TEST_CASE("incremental re-solve without a CFG revisits only the values downstream of the change") {
  using Dag = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  // Two independent chains 0->1->2 and 3->4->5; change the transfer of 4.
  Dag g(6);
  add_edge(0, 1, g);
  add_edge(1, 2, g);
  add_edge(3, 4, g);
  add_edge(4, 5, g);
  std::vector<std::int64_t> bias(6, 0);
  struct Biased {
    using lattice_type = solver_test::MaxInt;
    const std::vector<std::int64_t>* bias;
    solver_test::MaxInt transfer(std::size_t v, kildall::OperandStates<solver_test::MaxInt> ops) const {
      return {(ops.empty() ? 0 : ops[0].value + 1) + (*bias)[v]};
    }
  };
  auto r = kildall::solve_sparse(g, Biased{&bias});
  CHECK(r.lookup(5)->value == 2);
  bias[4] = 10;
  r = kildall::resolve_sparse(g, Biased{&bias}, std::move(r), std::size_t{4});
  REQUIRE(r.converged());
  CHECK(r.lookup(5)->value == 12);
  CHECK(r.lookup(2)->value == 2);
  CHECK(r.statistics().visits == 2);  // 4 and 5 only
  CHECK(r.visits(0) == 0);
}
