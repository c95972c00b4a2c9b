#pragma once
/// \file
/// Deterministic generator of `func`/`arith`/`cf` programs in MLIR syntax that
/// both `kildall-opt` and `mlir-opt-16` accept, for the side-by-side
/// comparison with MLIR's dataflow framework (`benchmarks/compare_mlir.sh`).
/// Three shapes:
///   * `dag`   - straight-line DAGs of `arith.addi/subi/muli` over constants
///               and function arguments;
///   * `cfg`   - many blocks: `cf.cond_br` diamonds joined by block arguments
///               and counted loops (back edges, so the fixpoint needs several
///               rounds), conditions mostly unknown;
///   * `const` - the same control flow but constant-heavy: most conditions
///               are decided by constants, so SCCP folds much and prunes
///               branches, while loop counters still need widening rounds.
/// Functions hold about `ops_per_function` ops each; the text is the same for
/// the same seed. Every op is on its own line, so a source line names an op.

#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kildall::bench {

/// The program shapes of `generate_mlir_program`.
enum class ProgramShape { dag, cfg, constant_heavy };

/// `dag`, `cfg` or `const`.
[[nodiscard]] inline std::string_view to_string(ProgramShape shape) {
  switch (shape) {
    case ProgramShape::dag: return "dag";
    case ProgramShape::cfg: return "cfg";
    case ProgramShape::constant_heavy: return "const";
  }
  return "?";
}

/// The shape named `dag`, `cfg` or `const`; throws `std::invalid_argument` otherwise.
[[nodiscard]] inline ProgramShape parse_program_shape(std::string_view name) {
  if (name == "dag") return ProgramShape::dag;
  if (name == "cfg") return ProgramShape::cfg;
  if (name == "const") return ProgramShape::constant_heavy;
  throw std::invalid_argument("unknown program shape '" + std::string(name) + "' (expected dag, cfg or const)");
}

namespace detail {

/// Writes one function at a time; keeps the values in scope (dominating the
/// insertion point) as a stack that diamonds and loops cut back on exit.
class ProgramWriter {
 public:
  ProgramWriter(ProgramShape shape, std::uint64_t seed, std::string& out) : shape_(shape), rng_(seed), out_(out) {}

  /// Appends one function of about `ops` ops; returns the number of ops written.
  std::size_t function(std::size_t index, std::size_t ops) {
    next_value_ = 0;
    next_block_ = 1;
    written_ = 0;
    scope_.clear();
    out_ += "  func.func @f" + std::to_string(index) + "(%arg0: i32, %arg1: i32, %arg2: i32) -> i32 {\n";
    scope_ = {"%arg0", "%arg1", "%arg2"};
    // A few constants up front, as a front end would emit them.
    for (int i = 0; i < 4; ++i) constant();
    while (written_ + 24 < ops) {
      if (shape_ == ProgramShape::dag) {
        straight(8);
        continue;
      }
      const std::uint64_t pick = rng_() % 8;
      if (pick < 3) straight(1 + rng_() % 6);
      else if (pick < 6) diamond();
      else loop();
    }
    out_ += "    return " + operand() + " : i32\n  }\n";
    ++written_;
    return written_;
  }

 private:
  // Built by appending (g++ 12 -O3 warns falsely, -Wrestrict, on `"%" + std::to_string(n)`).
  static std::string numbered(std::string_view prefix, std::size_t n) {
    std::string name(prefix);
    name += std::to_string(n);
    return name;
  }
  std::string fresh_value() { return numbered("%", next_value_++); }
  std::string fresh_block() { return numbered("^bb", next_block_++); }
  bool constant_heavy() const { return shape_ == ProgramShape::constant_heavy; }

  /// A value in scope: recent values mostly; function arguments rarely in the constant-heavy shape.
  std::string operand() {
    const std::size_t n = scope_.size();
    const std::uint64_t r = rng_() % 16;
    if (r == 0 && !constant_heavy()) return scope_[rng_() % 3];
    const std::size_t window = n < 24 ? n : 24;
    std::size_t i = n - 1 - rng_() % window;
    if (constant_heavy() && i < 3) i = 3 + rng_() % (n - 3);  // keep arguments out
    return scope_[i];
  }

  void emit(const std::string& line) {
    out_ += "    ";
    out_ += line;
    out_ += '\n';
    ++written_;
  }

  std::string constant() {
    const std::string v = fresh_value();
    emit(v + " = arith.constant " + std::to_string(static_cast<std::int64_t>(rng_() % 41) - 20) + " : i32");
    scope_.push_back(v);
    return v;
  }

  std::string binary() {
    static constexpr const char* ops[] = {"arith.addi", "arith.subi", "arith.muli"};
    const std::string a = operand(), b = operand();
    const std::string v = fresh_value();
    emit(v + " = " + ops[rng_() % 3] + " " + a + ", " + b + " : i32");
    scope_.push_back(v);
    return v;
  }

  void straight(std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      if (rng_() % (constant_heavy() ? 3 : 6) == 0) constant();
      else binary();
    }
  }

  /// An i1 condition: unknown (over arguments) or, mostly in `const`, decided by constants.
  std::string condition() {
    static constexpr const char* predicates[] = {"slt", "sle", "sgt", "sge", "eq", "ne", "ult", "uge"};
    const bool decided = constant_heavy() ? rng_() % 8 != 0 : rng_() % 8 == 0;
    std::string a, b;
    if (decided) {
      a = constant();
      b = constant();
    } else {
      a = scope_[rng_() % 3];  // a function argument: unknown
      b = operand();
    }
    const std::string c = fresh_value();
    emit(c + " = arith.cmpi " + std::string(predicates[rng_() % 8]) + ", " + a + ", " + b + " : i32");
    return c;
  }

  /// if/else diamond joined by a block argument.
  void diamond() {
    const std::string c = condition();
    const std::string then_block = fresh_block(), else_block = fresh_block(), join = fresh_block();
    emit("cf.cond_br " + c + ", " + then_block + ", " + else_block);
    const std::size_t mark = scope_.size();
    for (const std::string* arm : {&then_block, &else_block}) {
      out_ += "  " + *arm + ":\n";
      straight(1 + rng_() % 4);
      emit("cf.br " + join + "(" + operand() + " : i32)");
      scope_.resize(mark);
    }
    const std::string merged = fresh_value();
    out_ += "  " + join + "(" + merged + ": i32):\n";
    scope_.push_back(merged);
  }

  /// A counted loop with a loop-carried accumulator and a diamond in the body.
  void loop() {
    const std::string init = constant();
    const std::string step = constant();
    const std::string bound = constant_heavy() ? constant() : scope_[rng_() % 3];
    const std::string acc_init = operand();
    const std::string head = fresh_block(), body = fresh_block(), exit = fresh_block();
    emit("cf.br " + head + "(" + init + ", " + acc_init + " : i32, i32)");
    const std::string i = fresh_value(), acc = fresh_value();
    out_ += "  " + head + "(" + i + ": i32, " + acc + ": i32):\n";
    scope_.push_back(i);
    scope_.push_back(acc);
    const std::string c = fresh_value();
    emit(c + " = arith.cmpi slt, " + i + ", " + bound + " : i32");
    emit("cf.cond_br " + c + ", " + body + ", " + exit);
    const std::size_t mark = scope_.size();
    out_ += "  " + body + ":\n";
    straight(1 + rng_() % 4);
    if (rng_() % 2 == 0) diamond();
    // The accumulator keeps its value in the constant-heavy shape half of the time.
    const std::string next_acc = constant_heavy() && rng_() % 2 == 0 ? acc : operand();
    const std::string next_i = fresh_value();
    emit(next_i + " = arith.addi " + i + ", " + step + " : i32");
    emit("cf.br " + head + "(" + next_i + ", " + next_acc + " : i32, i32)");
    scope_.resize(mark);
    out_ += "  " + exit + ":\n";
  }

  ProgramShape shape_;
  std::mt19937_64 rng_;
  std::string& out_;
  std::vector<std::string> scope_;
  std::size_t next_value_ = 0;
  std::size_t next_block_ = 1;
  std::size_t written_ = 0;
};

}  // namespace detail

/// A module of about `op_count` ops (terminators included) of `shape`,
/// deterministic in `seed`, split into functions of about `ops_per_function` ops.
[[nodiscard]] inline std::string generate_mlir_program(ProgramShape shape, std::size_t op_count, std::uint64_t seed,
                                                       std::size_t ops_per_function = 10'000) {
  if (ops_per_function < 64) throw std::invalid_argument("ops_per_function must be at least 64");
  std::string out;
  out.reserve(op_count * 40 + 64);
  out += "module {\n";
  detail::ProgramWriter writer(shape, seed, out);
  std::size_t written = 0;
  for (std::size_t f = 0; written < op_count; ++f) {
    const std::size_t left = op_count - written;
    const std::size_t size = left < ops_per_function + ops_per_function / 2 ? left : ops_per_function;
    written += writer.function(f, size < 32 ? 32 : size);
  }
  out += "}\n";
  return out;
}

}  // namespace kildall::bench
