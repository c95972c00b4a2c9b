#pragma once
// Test support for the noisy dialect on the reference IR: reading the shipped
// examples, and random noisy programs as MLIR text (fixed seeds).

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>
#include <algorithm>

namespace noisy_ir_test {

/// The text of examples/noisy/<name>.
inline std::string read_example(const std::string& name) {
  std::ifstream in(std::string(KILDALL_NOISY_EXAMPLES_DIR) + "/" + name);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

/// 1-based line and column of the first occurrence of `needle` in `text`.
inline std::pair<unsigned, unsigned> position_of(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  unsigned line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < at; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return {line, static_cast<unsigned>(at - line_start + 1)};
}

/// A random function `@f(%a: i5, %b: i5, %c: i5, %p: i1) -> i5` of noisy
/// arithmetic with `ops` add/sub/mul ops and, half of the time, a diamond
/// whose branches rejoin through a block argument.
inline std::string random_function(unsigned seed, int ops) {
  std::mt19937 rng(seed);
  std::ostringstream out;
  out << "func.func @f(%a: i5, %b: i5, %c: i5, %p: i1) -> i5 {\n";
  out << "  %n0 = noisy.encode %a : i5 -> !noisy.i32\n";
  out << "  %n1 = noisy.encode %b : i5 -> !noisy.i32\n";
  out << "  %n2 = noisy.encode %c : i5 -> !noisy.i32\n";
  std::vector<int> available{0, 1, 2};  // values that dominate the current point
  int next = 3;
  const char* kinds[] = {"add", "sub", "mul"};
  auto emit = [&](int count) {
    for (int i = 0; i < count; ++i) {
      const std::size_t n = available.size();
      const int x = available[n - 1 - rng() % std::min<std::size_t>(n, 3)];
      const int y = available[rng() % n];
      const char* k = kinds[rng() % 10 < 2 ? 2 : rng() % 2];
      out << "  %n" << next << " = noisy." << k << " %n" << x << ", %n" << y << " : !noisy.i32\n";
      available.push_back(next++);
    }
  };
  emit(ops / 2);
  if (seed % 2 == 0) {
    const std::vector<int> before = available;
    out << "  cf.cond_br %p, ^l, ^r\n^l:\n";
    emit(2);
    out << "  cf.br ^j(%n" << available.back() << " : !noisy.i32)\n^r:\n";
    out << "  cf.br ^j(%n" << before.back() << " : !noisy.i32)\n^j(%n" << next << ": !noisy.i32):\n";
    available = before;
    available.push_back(next++);
  }
  emit(ops - ops / 2);
  out << "  %r = noisy.decode %n" << available.back() << " : !noisy.i32 -> i5\n  return %r : i5\n}\n";
  return out.str();
}

}  // namespace noisy_ir_test
