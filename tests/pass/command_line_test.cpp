// Passes as command-line flags (kildall/pass/command_line.hpp); oracle: the pipeline text each flag stands for, written out by hand.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include <kildall/pass/command_line.hpp>

#include "toy_ir.hpp"

using namespace kildall::pass;

namespace {
std::string text_of(const std::string& arg) {
  const auto registry = toy::registry();
  const std::optional<PipelineElement> e = pass_flag(arg, registry);
  return e ? print_pipeline({*e}) : std::string("not a pass");
}
}  // namespace

TEST_CASE("one dash or two; options after '='") {
  CHECK(text_of("-double") == "double");
  CHECK(text_of("--double") == "double");
  CHECK(text_of("--double=3") == "double{factor=3}");  // a bare value sets the first option
  CHECK(text_of("-sum=append=true") == "sum{append=true}");
  CHECK(text_of("--double=factor=5") == "double{factor=5}");
  CHECK(text_of("--triple") == "not a pass");
  CHECK(text_of("double") == "not a pass");
  CHECK(text_of("--dump-analysis=sccp") == "not a pass");
}

TEST_CASE("malformed flag values") {
  const auto registry = toy::registry();
  CHECK_THROWS_WITH_AS((void)pass_flag("--noop=1", registry), "1:1: error: pass 'noop' has no option to set to '1'",
                       PipelineError);
  CHECK_THROWS_AS((void)pass_flag("--sum=append=\"x", registry), PipelineError);
}
