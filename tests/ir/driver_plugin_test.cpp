// DriverPlugin (kildall/ir/driver_plugin.hpp): a toy plugin's dialect-free pass, option and dump go through the registry and pass manager as kildall-opt uses them; oracle: the module and texts written out by hand.
#include <doctest/doctest.h>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <kildall/ir.hpp>
#include <kildall/ir/driver_plugin.hpp>
#include <kildall/pass/command_line.hpp>
#include <kildall/pass/pass_manager.hpp>

using namespace kildall;
using namespace kildall::ir;

namespace {

// A plugin with one module pass, `rename{suffix=...}`, that appends a suffix to every
// function's name, and one option, `--rename-twice`, that makes it append it twice.
DriverPlugin toy_plugin() {
  auto twice = std::make_shared<bool>(false);
  DriverPlugin plugin;
  plugin.usage = "  --rename-twice             Append the suffix twice\n";
  plugin.parse_argument = [twice](std::string_view arg, std::span<const std::string_view>) {
    if (arg != "--rename-twice") return 0;
    *twice = true;
    return 1;
  };
  plugin.register_passes = [twice](IrPassRegistry& registry) {
    pass::PassDefinition<IrPasses> def;
    def.argument = "rename";
    def.display_name = "Rename";
    def.description = "Append a suffix to every function's name";
    def.options.push_back(pass::PassOption{"suffix", "the suffix", "_x", {}});
    def.make_module_pass = [twice](const pass::PassOptionValues& values) -> pass::ModulePassBody<IrPasses> {
      const std::string suffix = values.get("suffix");
      return [twice, suffix](Module& m, pass::ModuleAnalysisManager<IrPasses>&, const PassContext&) {
        for (Function& fn : m.functions) fn.name += *twice ? suffix + suffix : suffix;
        return pass::PreservedAnalyses::none();
      };
    };
    registry.add(std::move(def));
  };
  return plugin;
}

}  // namespace

TEST_CASE("a plugin's pass is a registered pass: flag, pipeline, --help") {
  const DriverPlugin plugin = toy_plugin();
  IrPassRegistry registry;
  register_ir_passes(registry);
  plugin.register_passes(registry);
  CHECK(registry.help().find("  --rename                   Append a suffix to every function's name\n") !=
        std::string::npos);
  const std::vector<std::string_view> none;
  CHECK(plugin.parse_argument("--rename", none) == 0);  // a pass flag is not the plugin's option
  CHECK(plugin.parse_argument("--rename-twice", none) == 1);
  const auto flag = pass::pass_flag("-rename=_y", registry);
  REQUIRE(flag);
  Module m = parse_and_verify("func.func @f() {\n  return\n}\n", OpRegistry::builtins());
  PassContext context;
  pass::ModuleAnalyses<IrPasses> analyses(m, context);
  pass::PassManager<IrPasses>({*flag}, registry).run(m, analyses, context);
  CHECK(m.functions[0].name == "f_y_y");
  pass::PassManager<IrPasses>(pass::parse_pipeline("builtin.module(rename,func.func(sccp))"), registry)
      .run(m, analyses, context);
  CHECK(print_module(m) == "module {\n  func.func @f_y_y_x_x() {\n    return\n  }\n}\n");
  CHECK_THROWS_AS(pass::PassManager<IrPasses>(pass::parse_pipeline("func.func(rename)"), registry), pass::PipelineError);
}
