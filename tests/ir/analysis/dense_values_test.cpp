// Tests of kildall/ir/analysis/dense_values.hpp: SCCP run densely (environments over the CFG) agrees
// exactly with the sparse SCCP on generated SSA programs (oracle: the sparse solver), and is a fixpoint,
// with the change checks of debug builds on and off (off, the solver takes a checked-monotone candidate
// state as it is instead of joining it); environments carry every value read outside its block (oracle:
// a scan of every op's operands) with the state a replay of the block gives, and no value used only in
// its block.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <kildall/ir/analysis/dense_values.hpp>
#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/verifier.hpp>
#include <kildall/solver/verify.hpp>

#include <mlir_program_generator.hpp>

#include "../random_programs.hpp"

using namespace kildall::ir;

static_assert(kildall::DenseEdgeTransfer<DenseValues<SccpProblem>, CfgView>);
static_assert(kildall::DenseEdgeExecutability<DenseValues<IntRangeProblem>, CfgView>);

TEST_CASE("dense SCCP = sparse SCCP on generated programs: every value, every block") {
  const OpRegistry registry;
  std::size_t values = 0, constants = 0, dead_blocks = 0;
  for (const auto shape_kind :
       {kildall::bench::ProgramShape::cfg, kildall::bench::ProgramShape::dag, kildall::bench::ProgramShape::constant_heavy}) {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      CAPTURE(seed);
      const std::string text = kildall::bench::generate_mlir_program(shape_kind, 2'000, seed, 2'000);
      const Module m = parse_and_verify(text, registry);
      for (const Function& fn : m.functions) {
        const SccpAnalysis sparse(fn, registry);
        const FunctionShape shape(fn);
        const SccpProblem problem(shape, registry);
        for (const bool checks : {true, false}) {
          CAPTURE(checks);
          kildall::SolverOptions options;
          options.check_change_results = checks;
          const DenseValueAnalysis<SccpProblem> dense(shape, problem, options);
          REQUIRE(dense.result().converged());
          CHECK(kildall::verify_fixpoint(dense.problem(), dense.result()).ok());
          for (BlockId b = 0; b < fn.blocks.size(); ++b) {
            REQUIRE(dense.reached(b) == sparse.executable(b));
            dead_blocks += dense.reached(b) ? 0 : 1;
          }
          for (ValueId v = 0; v < fn.values.size(); ++v) {
            const std::optional<ConstantState> d = dense.lookup(v);
            const ConstantState* s = sparse.lookup(v);
            REQUIRE(d.has_value() == (s != nullptr));
            if (!d) continue;
            CHECK(*d == *s);
            ++values;
            constants += d->is_constant() ? 1 : 0;
          }
        }
      }
    }
  }
  MESSAGE(values << " values compared, " << constants << " constants, " << dead_blocks << " dead blocks");
  CHECK(constants > 1'000);
  CHECK(dead_blocks > 0);
}

TEST_CASE("dense SCCP = sparse SCCP through scf regions (continuation vertices, region edges)") {
  const OpRegistry registry;
  std::size_t regions = 0;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    testing::ProgramShape program;
    program.widths = {8};
    program.arguments = 1 + static_cast<unsigned>(seed % 2);
    program.blocks = 1 + static_cast<unsigned>(seed % 4);
    program.structured = true;
    const std::string text = testing::random_program(seed, program);
    CAPTURE(text);
    const Module m = parse_and_verify(text, registry);
    const Function& fn = m.functions[0];
    regions += fn.regions.size();
    const SccpAnalysis sparse(fn, registry);
    const FunctionShape shape(fn, registry);
    const SccpProblem problem(shape, registry);
    const DenseValueAnalysis<SccpProblem> dense(shape, problem);
    REQUIRE(dense.result().converged());
    for (BlockId b = 0; b < shape.cfg().vertex_count(); ++b) REQUIRE(dense.reached(b) == sparse.result().block_reached(b));
    for (ValueId v = 0; v < fn.values.size(); ++v) {
      CAPTURE(fn.value_name(v));
      const std::optional<ConstantState> d = dense.lookup(v);
      const ConstantState* s = sparse.lookup(v);
      REQUIRE(d.has_value() == (s != nullptr));
      if (d) CHECK(*d == *s);
    }
  }
  CHECK(regions > 50);
}

TEST_CASE("dense integer ranges are a sound post-fixpoint that contains the sparse ranges' constants") {
  const OpRegistry registry;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const std::string text = kildall::bench::generate_mlir_program(kildall::bench::ProgramShape::cfg, 2'000, seed, 2'000);
    const Module m = parse_and_verify(text, registry);
    for (const Function& fn : m.functions) {
      const FunctionShape shape(fn);
      const IntRangeProblem problem(shape);
      const IntRangeAnalysis sparse(fn);
      for (const bool checks : {true, false}) {
        CAPTURE(checks);
        kildall::SolverOptions options;
        options.check_change_results = checks;
        const DenseValueAnalysis<IntRangeProblem> dense(shape, problem, options);
        REQUIRE(dense.result().converged());
        CHECK(kildall::verify_fixpoint(dense.problem(), dense.result()).ok());
        // Where the sparse analysis proves a single value, the dense one must allow it.
        for (ValueId v = 0; v < fn.values.size(); ++v) {
          const kildall::Interval* s = sparse.lookup(v);
          const std::optional<kildall::Interval> d = dense.lookup(v);
          if (s == nullptr || !d || !s->is_constant()) continue;
          CHECK(d->contains(*s->unsigned_constant()));
        }
      }
    }
  }
}

TEST_CASE("environments carry the values read outside their block, with the states a replay of the block gives") {
  const OpRegistry registry;
  std::size_t carried = 0, local = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    CAPTURE(seed);
    const std::string text = kildall::bench::generate_mlir_program(kildall::bench::ProgramShape::cfg, 2'000, seed, 2'000);
    const Module m = parse_and_verify(text, registry);
    for (const Function& fn : m.functions) {
      const FunctionShape shape(fn);
      const SccpProblem problem(shape, registry);
      const DenseValueAnalysis<SccpProblem> dense(shape, problem);
      const auto& dense_problem = dense.problem();
      // The oracle: a value some op with results in another block, or a branching terminator, reads.
      std::vector<bool> read_outside(fn.values.size(), false);
      for (BlockId b = 0; b < fn.blocks.size(); ++b) {
        for (const OpId op : fn.ops_of(b)) {
          const OpData& o = fn.ops[op];
          for (const ValueId x : fn.operands_of(op)) {
            const ValueData& xd = fn.values[x];
            const bool same_block = !xd.is_block_argument && fn.ops[xd.owner].block == b;
            if (o.successor_count > 0 || (o.result_count > 0 && !same_block)) read_outside[x] = true;
          }
        }
      }
      for (BlockId b = 0; b < fn.blocks.size(); ++b) {
        if (!dense.reached(b)) continue;
        const auto& after = *dense.result().after(b);
        for (const ValueId v : shape.block_values(b)) {
          if (read_outside[v]) REQUIRE(dense_problem.carried(v));
          const ConstantState* in_env = dense_problem.state_in(after, v);
          if (!dense_problem.carried(v)) {
            CHECK(in_env == nullptr);
            ++local;
            continue;
          }
          ++carried;
          const std::optional<ConstantState> replayed = dense_problem.state_of(v, b, *dense.result().before(b));
          REQUIRE(replayed.has_value() == (in_env != nullptr));
          if (in_env != nullptr) CHECK(*in_env == *replayed);
        }
      }
    }
  }
  MESSAGE(carried << " results carried, " << local << " used in their block only");
  CHECK(carried > 1'000);
  CHECK(local > 1'000);
}
