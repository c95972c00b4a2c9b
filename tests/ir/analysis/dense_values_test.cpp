// Tests of kildall/ir/analysis/dense_values.hpp: SCCP run densely (environments over the CFG) agrees
// exactly with the sparse SCCP on generated SSA programs (oracle: the sparse solver), and is a fixpoint,
// with the change checks of debug builds on and off (off, the solver takes a checked-monotone candidate
// out-state as it is instead of joining it).
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>

#include <kildall/ir/analysis/dense_values.hpp>
#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/verifier.hpp>
#include <kildall/solver/verify.hpp>

#include <mlir_program_generator.hpp>

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
