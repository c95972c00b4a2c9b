#pragma once
/// \file
/// Deterministic generator of large MLIR files for the IR benchmarks: one
/// `func.func` per `ops_per_function` ops, straight-line `arith` code over
/// i32 with a few blocks and branches, the same text for the same seed.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace kildall::bench {

/// About `op_count` ops of MLIR text (~50 bytes per op), deterministic in `seed`.
[[nodiscard]] inline std::string generate_mlir(std::size_t op_count, std::uint64_t seed,
                                               std::size_t ops_per_function = 10'000) {
  static constexpr const char* binary_ops[] = {"arith.addi", "arith.subi", "arith.muli", "arith.andi",
                                               "arith.ori",  "arith.xori", "arith.maxsi", "arith.minui"};
  std::mt19937_64 rng(seed);
  std::string out;
  out.reserve(op_count * 52);
  out += "module {\n";
  std::size_t emitted = 0;
  for (std::size_t f = 0; emitted < op_count; ++f) {
    out += "  func.func @f" + std::to_string(f) + "(%arg0: i32, %arg1: i32) -> i32 {\n";
    std::size_t defined = 0;  // values %0 .. %defined-1
    std::vector<std::size_t> recent;  // the last i32 values (a ring of 16)
    auto pick = [&]() -> std::string {
      if (recent.empty() || rng() % 8 == 0) return rng() % 2 ? "%arg0" : "%arg1";
      return "%" + std::to_string(recent[rng() % recent.size()]);
    };
    auto remember = [&](std::size_t value) {
      if (recent.size() < 16) recent.push_back(value);
      else recent[value % 16] = value;
    };
    std::size_t in_function = 0;
    std::size_t block = 0;
    while (in_function + 3 < ops_per_function && emitted + 3 < op_count + 3) {
      if (in_function > 0 && rng() % 64 == 0) {
        // A block boundary: branch with an argument, new block takes it.
        const std::string x = pick();
        out += "    cf.br ^bb" + std::to_string(block + 1) + "(" + x + " : i32)\n";
        ++block;
        out += "  ^bb" + std::to_string(block) + "(%" + std::to_string(defined) + ": i32):\n";
        remember(defined);
        ++defined;
        ++in_function;
        ++emitted;
        continue;
      }
      const std::uint64_t kind = rng() % 16;
      // (appended rather than `"%" + std::to_string(...)`: GCC 12 at -O3 warns a false -Wrestrict there)
      std::string name = "%";
      name += std::to_string(defined);
      if (kind == 0) {
        out += "    " + name + " = arith.constant " + std::to_string(static_cast<std::int32_t>(rng() % 2001) - 1000) +
               " : i32\n";
        remember(defined);
      } else if (kind == 1) {
        const std::string a = pick(), b = pick();
        out += "    " + name + " = arith.cmpi slt, " + a + ", " + b + " : i32\n";
        ++defined;
        const std::string c = name;
        const std::string name2 = "%" + std::to_string(defined);
        out += "    " + name2 + " = arith.select " + c + ", " + a + ", " + b + " : i32\n";
        remember(defined);
        ++in_function;
        ++emitted;
      } else {
        const std::string a = pick(), b = pick();
        out += "    " + name + " = " + binary_ops[rng() % 8] + " " + a + ", " + b + " : i32\n";
        remember(defined);
      }
      ++defined;
      ++in_function;
      ++emitted;
      if (emitted >= op_count) break;
    }
    out += "    return " + pick() + " : i32\n  }\n";
    ++emitted;
  }
  out += "}\n";
  return out;
}

}  // namespace kildall::bench
