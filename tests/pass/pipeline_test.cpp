// The textual pipeline parser (kildall/pass/pipeline.hpp); oracle: trees and error columns written out by hand from MLIR's grammar, and print -> parse round trips.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <kildall/pass/pipeline.hpp>

using namespace kildall::pass;

TEST_CASE("nested anchors, passes and options") {
  const auto p = parse_pipeline("builtin.module(func.func(sccp, canonicalize{max-iterations=3 region-simplify=false}),noisy-verify)");
  REQUIRE(p.size() == 1);
  CHECK(p[0].name == "builtin.module");
  CHECK(p[0].is_anchor);
  REQUIRE(p[0].nested.size() == 2);
  const PipelineElement& fn = p[0].nested[0];
  CHECK(fn.name == "func.func");
  CHECK(fn.column == 16);
  REQUIRE(fn.nested.size() == 2);
  CHECK(fn.nested[0].name == "sccp");
  CHECK_FALSE(fn.nested[0].is_anchor);
  CHECK(fn.nested[1].name == "canonicalize");
  CHECK(fn.nested[1].column == 32);
  REQUIRE(fn.nested[1].options.size() == 2);
  CHECK(fn.nested[1].options[0] == PipelineOption{"max-iterations", "3", true, 0});
  CHECK(fn.nested[1].options[1] == PipelineOption{"region-simplify", "false", true, 0});
  CHECK(p[0].nested[1].name == "noisy-verify");
}

TEST_CASE("values: quoted, braced, bare keys; empty pipelines") {
  const auto p = parse_pipeline("a{x=\"1 2\" y={b{c=1}} z}");
  REQUIRE(p[0].options.size() == 3);
  CHECK(p[0].options[0].value == "1 2");
  CHECK(p[0].options[1].value == "b{c=1}");
  CHECK_FALSE(p[0].options[2].has_value);
  CHECK(parse_pipeline("").empty());
  CHECK(parse_pipeline("  ").empty());
  const auto empty_nest = parse_pipeline("builtin.module()");
  CHECK(empty_nest[0].is_anchor);
  CHECK(empty_nest[0].nested.empty());
}

TEST_CASE("print and parse agree") {
  for (const std::string text : {"builtin.module(func.func(sccp,int-range-optimizations))",
                                 "a{x=1 y=\"p q\"},b(c{d={e=1}}),f", "sccp"}) {
    const auto p = parse_pipeline(text);
    CHECK(print_pipeline(p) == text);
    CHECK(print_pipeline(parse_pipeline(print_pipeline(p))) == text);
  }
}

TEST_CASE("errors name the column") {
  const auto error_of = [](const std::string& text) -> std::string {
    try {
      (void)parse_pipeline(text);
    } catch (const PipelineError& e) {
      return e.what();
    }
    return "no error";
  };
  CHECK(error_of("builtin.module(func.func(sccp)") == "1:15: error: encountered unbalanced parentheses while parsing pipeline");
  CHECK(error_of("sccp)") == "1:5: error: encountered extra closing ')' creating unbalanced parentheses while parsing pipeline");
  CHECK(error_of("sccp,,x") == "1:6: error: expected pass or pipeline name, got ','");
  CHECK(error_of("sccp,") == "1:6: error: expected pass or pipeline name, got end of pipeline");
  CHECK(error_of("a{x=1") == "1:2: error: missing '}' closing the options of 'a'");
  CHECK(error_of("a{x=\"1}") == "1:5: error: missing closing '\"' in the value of option 'x'");
  CHECK(error_of("a{x={1") == "1:5: error: missing '}' closing the value of option 'x'");
  CHECK(error_of("a b") == "1:3: error: expected ',' or end of pipeline, got 'b'");
  CHECK(error_of("(sccp)") == "1:1: error: expected pass or pipeline name, got '('");
  // Deep nesting is refused, not a stack overflow.
  std::string deep;
  for (int i = 0; i < 10000; ++i) deep += "a(";
  CHECK(error_of(deep).find("nested more than 64 levels") != std::string::npos);
}
