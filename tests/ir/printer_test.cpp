// Tests of kildall/ir/printer.hpp: printing is a fixed point of parse . print
// on random programs, names are kept, and (when Debian's mlir-opt-16 is
// installed) the real mlir-opt accepts everything the printer writes.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <kildall/ir/printer.hpp>
#include <kildall/ir/verifier.hpp>

#include "random_programs.hpp"

using namespace kildall::ir;

namespace {

std::string find_mlir_opt() {
  for (const char* name : {"mlir-opt-16", "mlir-opt"}) {
    const std::string probe = std::string("command -v ") + name + " >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return name;
  }
  return "";
}

std::string random_module(std::uint64_t seed) {
  testing::ProgramShape shape;
  shape.widths = {1 + static_cast<unsigned>(seed % 64), 8};
  shape.arguments = static_cast<unsigned>(seed % 3);
  shape.blocks = 2 + static_cast<unsigned>(seed % 6);
  return testing::random_program(seed, shape);
}

}  // namespace

TEST_CASE("print . parse is the identity on printed random programs") {
  const OpRegistry registry;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const Module first = parse_and_verify(random_module(seed), registry, "r.mlir");
    const std::string printed = print_module(first);
    const Module second = parse_and_verify(printed, registry, "p.mlir");
    REQUIRE(print_module(second) == printed);
    REQUIRE(second.functions[0].ops.size() == first.functions[0].ops.size());
  }
}

TEST_CASE("ValueNamer keeps source names and labels blocks") {
  const OpRegistry registry;
  const Module m = parse_and_verify("func.func @f(%x: i1) {\n  cf.br ^loop\n^loop:\n  return\n}\n", registry);
  const ValueNamer namer(m.functions[0]);
  CHECK(namer.value(0) == "%x");
  CHECK(namer.block(1) == "^loop");
  CHECK(print_op(m.functions[0], 0, registry) == "cf.br ^loop");
}

TEST_CASE("mlir-opt-16 accepts the printed output") {
  const std::string mlir_opt = find_mlir_opt();
  if (mlir_opt.empty()) {
    MESSAGE("SKIPPED: mlir-opt-16 is not installed (Debian package mlir-16-tools)");
    return;
  }
  const OpRegistry registry;
  const auto dir = std::filesystem::temp_directory_path() / "kildall_printer_test";
  std::filesystem::create_directories(dir);
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const std::string printed = print_module(parse_and_verify(random_module(seed), registry, "r.mlir"));
    const auto path = dir / ("p" + std::to_string(seed) + ".mlir");
    std::ofstream(path) << printed;
    const std::string command = mlir_opt + " " + path.string() + " -o /dev/null";
    CAPTURE(printed);
    CHECK(std::system(command.c_str()) == 0);
  }
  std::filesystem::remove_all(dir);
}
