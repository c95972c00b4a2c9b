#pragma once
/// \file
/// `DriverPlugin`: how a dialect that lives outside `kildall/ir/` extends the
/// `kildall-opt` driver (its ops, options, registered passes and analysis
/// dumps) without the driver knowing it. The noisy dialect is the first plugin.

#include <functional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/passes.hpp>

namespace kildall::ir {

/// What `kildall-opt` hands to a plugin's passes and dumps.
struct PluginContext {
  bool debug = false;           ///< `--debug-analysis` was given.
  std::ostream* log = nullptr;  ///< Where summaries, progress lines and traces go (stderr).
};

/// An extension of `kildall-opt`: a dialect plus its flags, passes and
/// analyses, as plain callables. Every member may be left empty.
struct DriverPlugin {
  /// Extra OPTIONS lines for `--help` of the plugin's own options (already
  /// formatted, each '\n'-terminated; its passes are listed from the registry).
  std::string usage;
  /// Extra names accepted by `--dump-analysis=<name>` (e.g. "noise").
  std::vector<std::string> analyses;
  /// Registers the plugin's ops and types; called once, before parsing.
  std::function<void(OpRegistry&)> register_dialect;
  /// Offered each argument that is neither a driver option nor a registered
  /// pass's flag, with the arguments after it (the plugin's own options, e.g.
  /// `--noisy-maximum=26`). Returns how many it consumed: 0 = not mine, 1 =
  /// `arg` only, 2 = `arg` and `rest[0]`. Throws `std::invalid_argument` for
  /// a bad value; the driver prints `kildall-opt: error: <message>` and exits 1.
  std::function<int(std::string_view arg, std::span<const std::string_view> rest)> parse_argument;
  /// Registers the plugin's passes (called once, before the command line is
  /// read): they can then be named in `--pass-pipeline` and as flags, and
  /// `--help` lists them with their options.
  std::function<void(IrPassRegistry&)> register_passes;
  /// For `--dump-analysis=<name>` with `name` in `analyses`: one text per
  /// value of `fn`, indexed by `ValueId`, printed like the built-in dumps.
  std::function<std::vector<std::string>(const Module&, const Function&, std::string_view name,
                                         const PluginContext&)>
      describe_values;
};

}  // namespace kildall::ir
