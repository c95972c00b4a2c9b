// Tests of kildall/ir/diagnostics.hpp.
#include <doctest/doctest.h>

#include <string>

#include <kildall/ir/diagnostics.hpp>

using namespace kildall::ir;

TEST_CASE("diagnostics render as file:line:col: error: message") {
  const Diagnostic d{"in.mlir", {12, 7}, "something is wrong"};
  CHECK(d.str() == "in.mlir:12:7: error: something is wrong");
  const IrError e(d);
  CHECK(std::string(e.what()) == d.str());
  CHECK(e.diagnostic().loc == SourceLoc{12, 7});
}
