// Writes a generated func/arith/cf program in MLIR syntax (benchmarks/mlir_program_generator.hpp):
//
//   mlir_program_generator <dag|cfg|const> <ops> [seed] [ops-per-function]   > program.mlir
//
// The same arguments give the same text. Used by benchmarks/compare_mlir.sh and tests/perf.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include "mlir_program_generator.hpp"

int main(int argc, char** argv) {
  if (argc < 3 || argc > 5) {
    std::fprintf(stderr, "usage: %s <dag|cfg|const> <ops> [seed] [ops-per-function]\n", argv[0]);
    return 2;
  }
  try {
    const auto shape = kildall::bench::parse_program_shape(argv[1]);
    const std::size_t ops = std::stoull(argv[2]);
    const std::uint64_t seed = argc > 3 ? std::stoull(argv[3]) : 1;
    const std::size_t per_function = argc > 4 ? std::stoull(argv[4]) : 10'000;
    const std::string text = kildall::bench::generate_mlir_program(shape, ops, seed, per_function);
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) return 1;
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mlir_program_generator: error: %s\n", e.what());
    return 2;
  }
}
