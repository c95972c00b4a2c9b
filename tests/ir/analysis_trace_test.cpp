// The --debug-analysis trace (kildall/ir/analysis_trace.hpp); oracle: trace lines written out by hand for a small function, in MLIR's int-range-analysis shape.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include <kildall/ir.hpp>
#include <kildall/ir/analysis_trace.hpp>

using namespace kildall;
using namespace kildall::ir;

TEST_CASE("one entry per visit: the op or the block argument, then the state") {
  const Module m = parse_and_verify(R"(func.func @f(%a: i8) -> i8 {
  %c = arith.constant -3 : i8
  cf.br ^b(%c : i8)
^b(%x: i8):
  return %x : i8
}
)", OpRegistry::builtins());
  std::ostringstream out;
  const Function& fn = m.functions[0];
  TraceObserver trace(fn, OpRegistry::builtins(), "Inferring constant", describe_constant, out);
  const SccpAnalysis a(fn, OpRegistry::builtins(), {}, trace);
  CHECK(out.str().find("Inferring constant for %a (argument #0 of the entry block)\nInferred constant overdefined\n") == 0);
  CHECK(out.str().find("Inferring constant for %c = arith.constant -3 : i8\nInferred constant -3\n") != std::string::npos);
  CHECK(out.str().find("Inferring constant for %x (argument #0 of ^b)\nInferred constant -3\n") != std::string::npos);
}

TEST_CASE("the describers") {
  CHECK(describe_constant(nullptr, Type::i1()) == "Inferred constant uninitialized");
  CHECK(describe_range(nullptr, Type::i1()) == "Inferred range uninitialized");
  const Interval five = Interval::constant(8, std::uint64_t{5});
  CHECK(describe_range(&five, Type::i1()).starts_with("Inferred range "));
}
