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

TEST_CASE("quote_source escapes non-printable bytes and cuts long spellings") {
  CHECK(quote_source("%x") == "'%x'");
  CHECK(quote_source(std::string_view("\0", 1)) == "'\\x00'");
  CHECK(quote_source("caf\xc3") == "'caf\\xc3'");
  CHECK(quote_source("a\tb\x7f") == "'a\\x09b\\x7f'");
  const std::string long_name(10'000'000, 'a');
  const std::string shown = quote_source(long_name);
  CHECK(shown == "'" + std::string(80, 'a') + "...'");
  CHECK(quote_source("abcdef", 3) == "'abc...'");
  CHECK(quote_source("abc", 3) == "'abc'");
  CHECK(quote_source("") == "''");
}
