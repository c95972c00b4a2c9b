// Resource bounds of the reference IR pipeline: a CFG that is one chain of N
// blocks (dominator tree of depth N, N-deep reverse post-order, a def-use chain
// through N block arguments), the same chain with every block also branching
// to one shared exit (a block with N predecessors), and a single block holding
// an N-op def-use chain go through parse, verify (dominance), print, the
// interpreter, SCCP and the integer-range analysis with their rewrites.
// Nothing may recurse along the input, so this must not overflow the stack
// for N = 1M.
//
// N defaults to KILDALL_DEEP_CHAIN_DEFAULT_SIZE (set by CMake: 200k, smaller in
// sanitizer builds) and can be overridden at run time with the environment
// variable KILDALL_DEEP_CHAIN_SIZE. Oracles: the chains compute N-1 and N by
// construction; the interpreter must return that, SCCP and the ranges must
// find that constant, and the rewritten programs must return the same.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include <kildall/ir.hpp>

using namespace kildall::ir;

namespace {

/// The chain length: the environment's KILDALL_DEEP_CHAIN_SIZE, else CMake's default.
std::uint32_t chain_size() {
  if (const char* text = std::getenv("KILDALL_DEEP_CHAIN_SIZE")) {
    const long long n = std::atoll(text);
    if (n >= 2 && n <= 50'000'000) return static_cast<std::uint32_t>(n);
  }
  return KILDALL_DEEP_CHAIN_DEFAULT_SIZE;
}

/// Appends `@name`: the block chain of `@blocks`, or with `shared_exit` that of
/// `@exits` (false edges and the last block branch to ^exit).
void append_block_chain(std::string& text, const char* name, std::uint32_t n, bool shared_exit) {
  text += std::string("func.func @") + name + "() -> i32 {\n  %one = arith.constant 1 : i32\n  %zero = arith.constant 0 : i32\n";
  text += "  %last = arith.constant " + std::to_string(n - 1) + " : i32\n  cf.br ^bb1(%zero : i32)\n";
  for (std::uint32_t k = 1; k < n; ++k) {
    const std::string ks = std::to_string(k);
    text += "^bb" + ks + "(%x" + ks + ": i32):\n";
    text += "  %y" + ks + " = arith.addi %x" + ks + ", %one : i32\n";
    text += "  %p" + ks + " = arith.cmpi sle, %y" + ks + ", %last : i32\n";
    const std::string next = "^bb" + std::to_string(k + 1);
    text += "  cf.cond_br %p" + ks + ", " + next + "(%y" + ks + " : i32), " + (shared_exit ? "^exit" : next) + "(%x" +
            ks + " : i32)\n";
  }
  const std::string ns = std::to_string(n);
  text += "^bb" + ns + "(%x" + ns + ": i32):\n";
  text += shared_exit ? "  cf.br ^exit(%x" + ns + " : i32)\n^exit(%r: i32):\n  return %r : i32\n}\n"
                      : "  return %x" + ns + " : i32\n}\n";
}

/// The test module, three functions:
/// `@blocks`: blocks ^bb1..^bbN in a chain; ^bbK receives K-1, adds one and
/// branches to ^bbK+1 with a `cf.cond_br` whose condition (the count is at most
/// N-1) always holds: its false edge, also to ^bbK+1, passes the old count and
/// is never taken. Returns N-1. Both edges go to the next block, so the
/// dominator tree is a chain of depth N.
/// `@exits`: the same chain, but each false edge leaves to one shared ^exit
/// block, which thus has N predecessors (a join as wide as the input is deep;
/// dominators by Cooper-Harvey-Kennedy's intersections were quadratic on it,
/// Semi-NCA is not). Returns N-1 through ^exit.
/// `@ops`: one block, %v1 = 0 + 1, ..., %vN = %vN-1 + 1. Returns N.
std::string chain_program(std::uint32_t n) {
  std::string text;
  text.reserve(std::size_t{n} * 280);
  append_block_chain(text, "blocks", n, false);
  append_block_chain(text, "exits", n, true);
  text += "func.func @ops() -> i32 {\n  %one = arith.constant 1 : i32\n  %v0 = arith.constant 0 : i32\n";
  for (std::uint32_t k = 1; k <= n; ++k)
    text += "  %v" + std::to_string(k) + " = arith.addi %v" + std::to_string(k - 1) + ", %one : i32\n";
  text += "  return %v" + std::to_string(n) + " : i32\n}\n";
  return text;
}

std::uint64_t run(const Module& module, std::string_view function, std::uint32_t n) {
  InterpreterOptions options;
  options.max_steps = 8ull * n + 100;
  const ExecResult r = Interpreter(module).run(function, {}, options);
  REQUIRE(r.status == ExecStatus::returned);
  REQUIRE(r.results.size() == 1);
  return r.results[0];
}

/// The value `return` gives back at the end of `block`.
ValueId returned_value(const Function& fn, BlockId block) { return fn.operands_of(fn.terminator(block))[0]; }

}  // namespace

TEST_CASE("a chain as deep as the input goes through every phase without recursion") {
  const std::uint32_t n = chain_size();
  MESSAGE("chain size N = " << n);
  const OpRegistry registry;
  const Module original = parse_and_verify(chain_program(n), registry, "chain.mlir");
  REQUIRE(original.functions.size() == 3);
  const Function& blocks = original.functions[0];
  const Function& exits = original.functions[1];
  const Function& ops = original.functions[2];
  REQUIRE(blocks.blocks.size() == std::size_t{n} + 1);  // entry, ^bb1..^bbN
  REQUIRE(exits.blocks.size() == std::size_t{n} + 2);   // entry, ^bb1..^bbN, ^exit
  REQUIRE(ops.ops.size() == std::size_t{n} + 3);

  {  // print and re-parse give the same module text
    const std::string printed = print_module(original);
    const Module again = parse_and_verify(printed, registry, "printed.mlir");
    CHECK(print_module(again) == printed);
  }

  const std::uint64_t mask32 = 0xffff'ffffu;
  {  // the interpreter follows both chains (explicit frames, no host recursion)
    CHECK(run(original, "blocks", n) == ((n - 1) & mask32));
    CHECK(run(original, "exits", n) == ((n - 1) & mask32));
    CHECK(run(original, "ops", n) == (n & mask32));
  }

  {  // SCCP finds both results constant, and the rewrite keeps them
    Module rewritten = original;
    for (Function& fn : rewritten.functions) {
      const SccpAnalysis analysis(fn, registry);
      REQUIRE(analysis.result().outcome().converged());
      const auto last = static_cast<BlockId>(fn.blocks.size() - 1);
      const auto constant = analysis.constant(returned_value(fn, last));
      REQUIRE(constant.has_value());
      CHECK(*constant == (fn.name == "ops" ? n : n - 1));
      const SccpRewriteStats stats = apply_sccp(fn, analysis);
      CHECK(stats.values_replaced >= n);
    }
    verify(rewritten);
    CHECK(run(rewritten, "blocks", n) == ((n - 1) & mask32));
    CHECK(run(rewritten, "exits", n) == ((n - 1) & mask32));
    CHECK(run(rewritten, "ops", n) == (n & mask32));
  }

  {  // integer ranges are exact along both chains, and replacing the constants keeps the results
    Module rewritten = original;
    for (Function& fn : rewritten.functions) {
      const IntRangeAnalysis analysis(fn);
      REQUIRE(analysis.result().outcome().converged());
      const auto last = static_cast<BlockId>(fn.blocks.size() - 1);
      const kildall::Interval* range = analysis.lookup(returned_value(fn, last));
      REQUIRE(range != nullptr);
      REQUIRE(range->unsigned_constant().has_value());
      CHECK(*range->unsigned_constant() == (fn.name == "ops" ? n : n - 1));
      // Every value is one constant: @ops' N sums; per block of a chain its argument, sum and
      // comparison (3 (N - 1)), plus ^bbN's argument, plus @exits' ^exit argument.
      const std::size_t folded = apply_int_range_optimizations(fn, analysis).values_replaced;
      const std::size_t expected = fn.name == "ops" ? n : fn.name == "blocks" ? 3 * std::size_t{n} - 2 : 3 * std::size_t{n} - 1;
      CHECK(folded == expected);
    }
    verify(rewritten);
    CHECK(run(rewritten, "blocks", n) == ((n - 1) & mask32));
    CHECK(run(rewritten, "exits", n) == ((n - 1) & mask32));
    CHECK(run(rewritten, "ops", n) == (n & mask32));
  }
}
