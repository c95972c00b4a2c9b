#pragma once
// Running the real mlir-opt (Debian's mlir-opt-16) from tests: finding it, and passing a text
// through it with given flags. Tests that use it skip with a message when it is absent.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include <unistd.h>

namespace kildall::ir::testing {

/// `mlir-opt-16` (or `mlir-opt`) when installed, else the empty string.
inline std::string find_mlir_opt() {
  for (const char* name : {"mlir-opt-16", "mlir-opt"}) {
    const std::string probe = std::string("command -v ") + name + " >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return name;
  }
  return "";
}

/// `text` as `mlir_opt` (run with `flags`) prints it back, through files in a temporary folder
/// of this process; nullopt when mlir-opt rejects it.
inline std::optional<std::string> through_mlir_opt(const std::string& mlir_opt, const std::string& flags,
                                                   const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / ("kildall_mlir_opt_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto in = dir / "in.mlir";
  const auto out = dir / "out.mlir";
  std::ofstream(in) << text;
  const bool ok = std::system((mlir_opt + " " + flags + " " + in.string() + " -o " + out.string()).c_str()) == 0;
  std::ifstream stream(out);
  std::string theirs((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
  std::filesystem::remove_all(dir);
  if (!ok) return std::nullopt;
  return theirs;
}

}  // namespace kildall::ir::testing
