// Tests of benchmarks/mlir_program_generator.hpp: deterministic, the requested
// size, accepted by the reference IR's parser and verifier, each shape with the
// structure it promises (checked with kildall's SCCP); and the batched rewrite
// helpers the SCCP rewrite uses on these programs agree with their one-value
// counterparts (the oracle).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <kildall/ir.hpp>
#include <kildall/ir/analysis/sccp.hpp>

#include "mlir_program_generator.hpp"

namespace {

using namespace kildall::ir;
using kildall::bench::generate_mlir_program;
using kildall::bench::ProgramShape;

constexpr ProgramShape shapes[] = {ProgramShape::dag, ProgramShape::cfg, ProgramShape::constant_heavy};

std::size_t op_count(const Module& module) {
  std::size_t n = 0;
  for (const Function& fn : module.functions)
    for (const OpData& op : fn.ops) n += !op.erased;
  return n;
}

}  // namespace

TEST_CASE("the same seed gives the same text, another seed another text") {
  for (const ProgramShape shape : shapes) {
    CAPTURE(kildall::bench::to_string(shape));
    CHECK(generate_mlir_program(shape, 2000, 3) == generate_mlir_program(shape, 2000, 3));
    CHECK(generate_mlir_program(shape, 2000, 3) != generate_mlir_program(shape, 2000, 4));
  }
}

TEST_CASE("shape names round-trip and unknown names are rejected") {
  for (const ProgramShape shape : shapes)
    CHECK(kildall::bench::parse_program_shape(kildall::bench::to_string(shape)) == shape);
  CHECK_THROWS_AS((void)kildall::bench::parse_program_shape("loops"), std::invalid_argument);
}

TEST_CASE("programs parse and verify and have about the requested number of ops") {
  const OpRegistry registry;
  for (const ProgramShape shape : shapes)
    for (const std::size_t size : {100u, 1000u, 25000u})
      for (const std::uint64_t seed : {1u, 2u, 3u}) {
        CAPTURE(kildall::bench::to_string(shape));
        CAPTURE(size);
        CAPTURE(seed);
        const Module module = parse_and_verify(generate_mlir_program(shape, size, seed, 4000), registry, "gen.mlir");
        const std::size_t ops = op_count(module);
        CHECK(ops >= size);
        CHECK(ops <= size + size / 20 + 64);
        if (size > 4000) CHECK(module.functions.size() >= size / 4000);
      }
}

TEST_CASE("each shape has the structure it promises") {
  const OpRegistry registry;
  const auto stats = [&](ProgramShape shape) {
    const Module module = parse_and_verify(generate_mlir_program(shape, 20000, 5), registry, "gen.mlir");
    struct {
      std::size_t functions = 0, blocks = 0, dead_blocks = 0, live_values = 0, constants = 0, max_visits = 0;
    } s;
    for (const Function& fn : module.functions) {
      const SccpAnalysis sccp(fn, registry);
      REQUIRE(sccp.result().converged());
      ++s.functions;
      s.blocks += fn.blocks.size();
      for (BlockId b = 0; b < fn.blocks.size(); ++b) s.dead_blocks += !sccp.executable(b);
      for (ValueId v = 0; v < fn.values.size(); ++v) {
        s.live_values += sccp.lookup(v) != nullptr;
        s.constants += sccp.constant(v).has_value();
      }
      s.max_visits = std::max(s.max_visits, sccp.result().statistics().max_visits);
    }
    return s;
  };
  const auto dag = stats(ProgramShape::dag);
  CHECK(dag.blocks == dag.functions);  // straight-line: one block per function
  CHECK(dag.dead_blocks == 0);
  const auto cfg = stats(ProgramShape::cfg);
  CHECK(cfg.blocks > 1000);
  CHECK(cfg.max_visits >= 2);  // loops: a back edge brings a second round
  CHECK(cfg.dead_blocks < cfg.blocks / 10);
  const auto heavy = stats(ProgramShape::constant_heavy);
  CHECK(heavy.max_visits >= 2);
  CHECK(heavy.dead_blocks > heavy.blocks / 5);     // decided branches prune
  CHECK(heavy.constants * 10 > heavy.live_values * 6);  // most live values fold
  CHECK(heavy.constants * cfg.live_values > 2 * cfg.constants * heavy.live_values);
}

TEST_CASE("batched use replacement and use counts agree with the one-value versions") {
  const OpRegistry registry;
  std::mt19937_64 rng(11);
  for (const ProgramShape shape : shapes) {
    const Module original = parse_and_verify(generate_mlir_program(shape, 3000, 9), registry, "gen.mlir");
    Module batched = original, one_by_one = original;
    Function& a = batched.functions[0];
    Function& b = one_by_one.functions[0];
    Rewriter ra(a), rb(b);
    const auto counts = ra.use_counts();
    for (ValueId v = 0; v < a.values.size(); ++v) REQUIRE(counts[v] == ra.use_count(v));
    // Replace a random third of the values by fresh constants (as apply_sccp does).
    std::vector<ValueId> replacement(a.values.size(), no_index);
    std::size_t expected = 0;
    for (ValueId v = 0; v < replacement.size(); ++v) {
      if (rng() % 3 != 0 || !a.values[v].type.is_integer_like()) continue;
      const OpId anchor = a.blocks[0].last_op;
      replacement[v] = ra.constant_before(anchor, a.values[v].type, v);
      const ValueId r = rb.constant_before(anchor, b.values[v].type, v);
      REQUIRE(r == replacement[v]);
      expected += rb.replace_all_uses(v, r);
    }
    CHECK(ra.replace_all_uses(replacement) == expected);
    CHECK(a.operands == b.operands);
  }
}
