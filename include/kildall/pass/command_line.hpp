#pragma once
/// \file
/// Passes as command-line flags, the `mlir-opt` way: `-sccp` and `--sccp`
/// name the registered pass `sccp`; `--pass=key=value key2=value2` sets its
/// options (MLIR's `-pass="opts"`), and `--pass=value` (no `=` in the value)
/// sets its first option. Each flag becomes one pipeline element, so flags
/// and `--pass-pipeline` build the same pass manager.

#include <optional>
#include <string>
#include <string_view>

#include <kildall/pass/pass.hpp>
#include <kildall/pass/pipeline.hpp>

namespace kildall::pass {

/// The pipeline element of `arg` when it is the flag of a pass of `registry`
/// (`-name`, `--name`, `--name=options`), else nothing. Throws `PipelineError`
/// (column within the option text) for malformed options, and for a value
/// given to a pass that has no option.
template <PassIr Ir>
[[nodiscard]] std::optional<PipelineElement> pass_flag(std::string_view arg, const PassRegistry<Ir>& registry) {
  if (arg.starts_with("--")) arg.remove_prefix(2);
  else if (arg.starts_with("-")) arg.remove_prefix(1);
  else return std::nullopt;
  const std::size_t eq = arg.find('=');
  const PassDefinition<Ir>* def = registry.find(arg.substr(0, eq));
  if (!def) return std::nullopt;
  PipelineElement element;
  element.name = def->argument;
  element.column = 1;
  if (eq == std::string_view::npos) return element;
  const std::string_view value = arg.substr(eq + 1);
  if (value.find('=') == std::string_view::npos) {
    if (def->options.empty())
      throw PipelineError(1, "pass '" + def->argument + "' has no option to set to '" + std::string(value) + "'");
    element.options.push_back(PipelineOption{def->options.front().name, std::string(value), true, 1});
    return element;
  }
  const std::vector<PipelineElement> parsed = parse_pipeline("p{" + std::string(value) + "}");
  element.options = parsed.front().options;
  for (PipelineOption& o : element.options) o.column -= 2;  // columns within `value`
  return element;
}

}  // namespace kildall::pass
