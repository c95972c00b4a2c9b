// Pass definitions, options and the registry (kildall/pass/pass.hpp); oracle: option values and error messages written out by hand for the toy passes.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include <kildall/pass/pass.hpp>

#include "toy_ir.hpp"

using namespace kildall::pass;

static_assert(PassIr<toy::Ir>);

TEST_CASE("options: defaults, values, unknown names, choices") {
  const auto registry = toy::registry();
  const PassDefinition<toy::Ir>& sum = *registry.find("sum");
  CHECK(sum.is_function_pass());
  CHECK_FALSE(registry.find("add-function")->is_function_pass());
  CHECK(sum.resolve({}).get("append") == "false");
  CHECK(sum.resolve({{"append", "true", true, 5}}).get("append") == "true");
  CHECK_THROWS_WITH_AS((void)sum.resolve({{"append", "maybe", true, 5}}),
                       "1:5: error: invalid value 'maybe' for option 'append' of pass 'sum' (expected one of: true, false)",
                       PipelineError);
  CHECK_THROWS_WITH_AS((void)sum.resolve({{"apend", "true", true, 7}}),
                       "1:7: error: no such option 'apend' for pass 'sum' (options: append)", PipelineError);
  CHECK_THROWS_WITH_AS((void)sum.resolve({{"append", "", false, 2}}),
                       "1:2: error: option 'append' of pass 'sum' needs a value", PipelineError);
  CHECK_THROWS_WITH_AS((void)registry.find("noop")->resolve({{"x", "1", true, 3}}),
                       "1:3: error: no such option 'x' for pass 'noop' (it has none)", PipelineError);
  CHECK_THROWS_AS((void)sum.resolve({}).get("nothing"), std::out_of_range);
}

TEST_CASE("options: counts are checked when resolved") {
  PassDefinition<toy::Ir> bounded{"bounded", "Bounded", "", {{"limit", "the limit", "8", {}, true}}, {}, {}};
  CHECK(bounded.resolve({}).get_count("limit") == 8u);
  CHECK(bounded.resolve({{"limit", "4294967295", true, 9}}).get_count("limit") == 4294967295u);
  for (const char* bad : {"", "-1", "x", "8x", "4294967296", " 8"})
    CHECK_THROWS_WITH_AS((void)bounded.resolve({{"limit", bad, true, 9}}),
                         ("1:9: error: invalid value '" + std::string(bad) +
                          "' for option 'limit' of pass 'bounded' (expected a count: 0 to 4294967295)").c_str(),
                         PipelineError);
  PassDefinition<toy::Ir> at_least_one{"sweeps", "Sweeps", "", {{"limit", "the limit", "8", {}, true, 1}}, {}, {}};
  CHECK(at_least_one.resolve({{"limit", "1", true, 9}}).get_count("limit") == 1u);
  CHECK_THROWS_WITH_AS((void)at_least_one.resolve({{"limit", "0", true, 9}}),
                       "1:9: error: invalid value '0' for option 'limit' of pass 'sweeps' (expected a count: 1 to 4294967295)",
                       PipelineError);
  PassOptionValues values;
  values.set("limit", "many");
  CHECK_THROWS_AS((void)values.get_count("limit"), std::invalid_argument);
  PassRegistry<toy::Ir> registry;
  bounded.make_module_pass = [](const PassOptionValues&) -> ModulePassBody<toy::Ir> { return {}; };
  registry.add(std::move(bounded));
  CHECK(registry.help().find("        limit=<count>        the limit (default 8)\n") != std::string::npos);
}

TEST_CASE("registry: lookup, order, duplicates, help") {
  auto registry = toy::registry();
  CHECK(registry.find("double") != nullptr);
  CHECK(registry.find("triple") == nullptr);
  const auto all = registry.definitions();
  REQUIRE(all.size() == 5);
  CHECK(all[0]->argument == "double");
  CHECK(all[4]->argument == "add-function");
  PassDefinition<toy::Ir> again = *registry.find("noop");
  CHECK_THROWS_AS(registry.add(again), std::invalid_argument);
  PassDefinition<toy::Ir> neither{"neither", "N", "", {}, {}, {}};
  CHECK_THROWS_AS(registry.add(neither), std::invalid_argument);
  const std::string help = registry.help();
  CHECK(help.find("  --double                   Multiply every value\n"
                  "        factor=<value>       the factor (default 2)\n") != std::string::npos);
  CHECK(help.find("        append=true|false    append it (default false)\n") != std::string::npos);
}
