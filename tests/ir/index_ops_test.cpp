// Tests of kildall/ir/index_ops.hpp (the index dialect); oracles: C++'s own 64-bit arithmetic for every op on edge and random operands (run by the interpreter), parse . print as a fixed point, mlir-opt-16 (when installed) reading the printed text to a program that computes the same results, and the interpreter for the soundness of integer ranges over index programs.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/verifier.hpp>

#include "mlir_opt.hpp"
#include "random_programs.hpp"

using namespace kildall::ir;
using kildall::Interval;

namespace {

using Bits = std::uint64_t;
using Signed = std::int64_t;
constexpr Signed int_min = std::numeric_limits<Signed>::min();

/// What each two-operand op computes on 64 bits, written with C++'s operators (nullopt:
/// undefined, as for division by zero or an over-wide shift).
const std::map<std::string, std::function<std::optional<Bits>(Bits, Bits)>>& closed_forms() {
  static const std::map<std::string, std::function<std::optional<Bits>(Bits, Bits)>> forms = {
      {"index.add", [](Bits a, Bits b) -> std::optional<Bits> { return a + b; }},
      {"index.sub", [](Bits a, Bits b) -> std::optional<Bits> { return a - b; }},
      {"index.mul", [](Bits a, Bits b) -> std::optional<Bits> { return a * b; }},
      {"index.divu", [](Bits a, Bits b) -> std::optional<Bits> {
         if (b == 0) return std::nullopt;
         return a / b;
       }},
      {"index.remu", [](Bits a, Bits b) -> std::optional<Bits> {
         if (b == 0) return std::nullopt;
         return a % b;
       }},
      {"index.ceildivu", [](Bits a, Bits b) -> std::optional<Bits> {
         if (b == 0) return std::nullopt;
         return a / b + (a % b != 0 ? 1 : 0);
       }},
      {"index.divs", [](Bits a, Bits b) -> std::optional<Bits> {
         const auto x = static_cast<Signed>(a), y = static_cast<Signed>(b);
         if (y == 0 || (x == int_min && y == -1)) return std::nullopt;
         return static_cast<Bits>(x / y);
       }},
      {"index.rems", [](Bits a, Bits b) -> std::optional<Bits> {
         const auto x = static_cast<Signed>(a), y = static_cast<Signed>(b);
         if (y == 0 || (x == int_min && y == -1)) return std::nullopt;
         return static_cast<Bits>(x % y);
       }},
      {"index.floordivs", [](Bits a, Bits b) -> std::optional<Bits> {
         const auto x = static_cast<Signed>(a), y = static_cast<Signed>(b);
         if (y == 0 || (x == int_min && y == -1)) return std::nullopt;
         const Signed q = x / y;
         return static_cast<Bits>(x % y != 0 && ((x < 0) != (y < 0)) ? q - 1 : q);
       }},
      {"index.ceildivs", [](Bits a, Bits b) -> std::optional<Bits> {
         const auto x = static_cast<Signed>(a), y = static_cast<Signed>(b);
         if (y == 0 || (x == int_min && y == -1)) return std::nullopt;
         const Signed q = x / y;
         return static_cast<Bits>(x % y != 0 && ((x < 0) == (y < 0)) ? q + 1 : q);
       }},
      {"index.maxs", [](Bits a, Bits b) -> std::optional<Bits> {
         return static_cast<Signed>(a) > static_cast<Signed>(b) ? a : b;
       }},
      {"index.mins", [](Bits a, Bits b) -> std::optional<Bits> {
         return static_cast<Signed>(a) < static_cast<Signed>(b) ? a : b;
       }},
      {"index.maxu", [](Bits a, Bits b) -> std::optional<Bits> { return a > b ? a : b; }},
      {"index.minu", [](Bits a, Bits b) -> std::optional<Bits> { return a < b ? a : b; }},
      {"index.shl", [](Bits a, Bits b) -> std::optional<Bits> {
         if (b >= 64) return std::nullopt;
         return a << b;
       }},
      {"index.shru", [](Bits a, Bits b) -> std::optional<Bits> {
         if (b >= 64) return std::nullopt;
         return a >> b;
       }},
      {"index.shrs", [](Bits a, Bits b) -> std::optional<Bits> {
         if (b >= 64) return std::nullopt;
         return static_cast<Bits>(static_cast<Signed>(a) >> b);
       }},
      {"index.and", [](Bits a, Bits b) -> std::optional<Bits> { return a & b; }},
      {"index.or", [](Bits a, Bits b) -> std::optional<Bits> { return a | b; }},
      {"index.xor", [](Bits a, Bits b) -> std::optional<Bits> { return a ^ b; }},
  };
  return forms;
}

/// Edge operands, then random ones.
std::vector<Bits> operands(std::mt19937_64& rng) {
  std::vector<Bits> values = {0, 1, 2, 3, 63, 64, ~Bits{0}, ~Bits{0} - 1, Bits{1} << 63, (Bits{1} << 63) - 1,
                              0xffffffffu, 0x100000000u, 7, static_cast<Bits>(-7)};
  for (int i = 0; i < 20; ++i) values.push_back(i % 2 ? rng() : rng() % 100 - 50);
  return values;
}

}  // namespace

TEST_CASE("every two-operand index op computes its closed form on 64 bits, and prints back as written") {
  const OpRegistry registry;
  REQUIRE(closed_forms().size() == index_binary_ops.size());
  std::mt19937_64 rng(7);
  const std::vector<Bits> values = operands(rng);
  for (const IndexBinaryRecord& record : index_binary_ops) {
    const std::string name(record.name);
    CAPTURE(name);
    REQUIRE(registry.find_op(name).has_value());
    const std::string text = "func.func @f(%a: index, %b: index) -> index {\n  %r = " + name +
                             " %a, %b\n  return %r : index\n}\n";
    const Module m = parse_and_verify(text, registry, "index.mlir");
    CHECK(print_module(m) == "module {\n" + [&] {
      std::string indented;
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (i == 0 || text[i - 1] == '\n') indented += text[i] == '\n' ? "" : "  ";
        indented += text[i];
      }
      return indented;
    }() + "}\n");
    const Interpreter interpreter(m);
    const auto& form = closed_forms().at(name);
    for (const Bits a : values)
      for (const Bits b : values) {
        const ExecResult r = interpreter.run(0u, std::vector<Bits>{a, b});
        const std::optional<Bits> expected = form(a, b);
        CAPTURE(a);
        CAPTURE(b);
        if (!expected) {
          CHECK(r.status == ExecStatus::undefined_behavior);
          continue;
        }
        REQUIRE(r.status == ExecStatus::returned);
        CHECK(r.results[0] == *expected);
      }
  }
}

TEST_CASE("index.cmp, constants and casts: closed forms, and their printed forms") {
  const OpRegistry registry;
  const char* const text = R"(func.func @f(%a: index, %b: index, %n: i32) -> (i1, i1, i1, i1, index, index, i8, index) {
  %lt = index.cmp slt(%a, %b)
  %ult = index.cmp ult(%a, %b)
  %ge = index.cmp sge(%a, %b) {tag = "x"}
  %t = index.bool.constant true
  %big = index.constant 0xfffffffe
  %neg = index.constant -3
  %s = index.casts %n : i32 to index
  %u = index.castu %n : i32 to index
  %sum = index.add %s, %big
  %low = index.castu %sum : index to i8
  %k = index.sub %u, %neg
  return %lt, %ult, %ge, %t, %s, %u, %low, %k : i1, i1, i1, i1, index, index, i8, index
}
)";
  const Module m = parse_and_verify(text, registry, "index.mlir");
  const std::string printed = print_module(m);
  CHECK(printed.find("%big = index.constant 4294967294\n") != std::string::npos);
  CHECK(printed.find("%neg = index.constant -3\n") != std::string::npos);
  CHECK(printed.find("%ge = index.cmp sge(%a, %b) {tag = \"x\"}\n") != std::string::npos);
  CHECK(printed.find("%t = index.bool.constant true\n") != std::string::npos);
  CHECK(print_module(parse_and_verify(printed, registry, "printed.mlir")) == printed);
  const Interpreter interpreter(m);
  for (const Signed a : {Signed{-5}, Signed{0}, Signed{5}, int_min})
    for (const Signed b : {Signed{-5}, Signed{3}})
      for (const std::int32_t n : {-1, 0, 7, std::numeric_limits<std::int32_t>::min()}) {
        const auto n_bits = static_cast<Bits>(static_cast<std::uint32_t>(n));
        const ExecResult r = interpreter.run(0u, std::vector<Bits>{static_cast<Bits>(a), static_cast<Bits>(b), n_bits});
        REQUIRE(r.status == ExecStatus::returned);
        CHECK(r.results[0] == (a < b ? 1u : 0u));
        CHECK(r.results[1] == (static_cast<Bits>(a) < static_cast<Bits>(b) ? 1u : 0u));
        CHECK(r.results[2] == (a >= b ? 1u : 0u));
        CHECK(r.results[3] == 1u);
        CHECK(r.results[4] == static_cast<Bits>(static_cast<Signed>(n)));
        CHECK(r.results[5] == n_bits);
        CHECK(r.results[6] == ((static_cast<Bits>(static_cast<Signed>(n)) + 0xfffffffeu) & 0xffu));
        CHECK(r.results[7] == n_bits + 3);
      }
  // Where mlir-opt-16 is installed: it reads the printed text, and what it prints back computes
  // the same results here (both read the syntax alike: operand order, predicates, literals).
  const std::string mlir_opt = testing::find_mlir_opt();
  if (mlir_opt.empty()) {
    MESSAGE("mlir-opt-16 not installed: the comparison with MLIR's index dialect is skipped");
    return;
  }
  const std::optional<std::string> theirs = testing::through_mlir_opt(mlir_opt, "", printed);
  REQUIRE(theirs.has_value());
  const Module back = parse_and_verify(*theirs, registry, "mlir-opt.mlir");
  const Interpreter again(back);
  for (const Bits a : {Bits{0}, ~Bits{0}, Bits{1} << 63})
    for (const Bits n : {Bits{0}, Bits{0xffffffff}, Bits{12}})
      CHECK(again.run(0u, std::vector<Bits>{a, 5, n}).results == interpreter.run(0u, std::vector<Bits>{a, 5, n}).results);
}

TEST_CASE("integer ranges are sound on random index programs (interpreter on edge and random inputs)") {
  const OpRegistry registry;
  std::mt19937_64 rng(11);
  const std::vector<std::string> predicates = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
  for (int program = 0; program < 150; ++program) {
    // Straight-line code over two arguments, a few constants and clamps (minu/maxs make ranges
    // narrower than the full type, so the transfers' interesting cases are reached).
    std::string body;
    std::vector<std::string> values = {"%a", "%b"};
    const auto fresh = [&] { return "%v" + std::to_string(values.size()); };
    for (int i = 0; i < 3; ++i) {
      const std::string v = fresh();
      static const Bits constants[] = {0, 1, 7, 255, 0xffffffffu, Bits{1} << 40, ~Bits{0}, Bits{1} << 63};
      body += "  " + v + " = index.constant " + std::to_string(static_cast<Signed>(constants[rng() % 8])) + "\n";
      values.push_back(v);
    }
    for (int i = 0; i < 8; ++i) {
      const std::string v = fresh();
      const IndexBinaryRecord& op = index_binary_ops[rng() % index_binary_ops.size()];
      body += "  " + v + " = " + std::string(op.name) + " " + values[rng() % values.size()] + ", " +
              values[rng() % values.size()] + "\n";
      values.push_back(v);
    }
    const std::string result = values.back();
    body += "  %c = index.cmp " + predicates[rng() % predicates.size()] + "(" + values[rng() % values.size()] + ", " +
            values[rng() % values.size()] + ")\n";
    const std::string text =
        "func.func @f(%a: index, %b: index) -> (index, i1) {\n" + body + "  return " + result + ", %c : index, i1\n}\n";
    CAPTURE(text);
    const Module m = parse_and_verify(text, registry, "random.mlir");
    const IntRangeAnalysis ranges(m.functions[0], &registry);
    REQUIRE(ranges.result().converged());
    const auto tuples = testing::input_tuples(m.functions[0], 0, 60, rng);
    const testing::Observations obs = testing::observe(m, tuples, 1000);
    const Function& fn = m.functions[0];
    for (ValueId v = 0; v < fn.values.size(); ++v) {
      if (obs.values[v].empty()) continue;
      const Interval* range = ranges.lookup(v);
      REQUIRE(range != nullptr);
      for (const Bits bits : obs.values[v])
        if (!range->contains(bits)) FAIL_CHECK("%" << fn.value_name(v) << " took " << bits << " outside " << *range);
    }
  }
}

TEST_CASE("malformed index ops are reported at their place") {
  const OpRegistry registry;
  const auto error_of = [&](const std::string& body) -> std::string {
    try {
      (void)parse_and_verify("func.func @f(%a: index, %n: i32) {\n" + body + "  return\n}\n", registry, "bad.mlir");
    } catch (const IrError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(error_of("  %x = index.cmp lt(%a, %a)\n").find("bad.mlir:2:18: error: unknown comparison predicate") == 0);
  CHECK(error_of("  %x = index.add %a\n").find("bad.mlir:2:8: error: 'index.add' takes 2 operand(s), but 1 were given") == 0);
  CHECK(error_of("  %x = index.add %a, %n\n").find("bad.mlir:2:22: error: use of value '%n' expects different type") == 0);
  CHECK(error_of("  %x = index.bool.constant 1\n").find("bad.mlir:2:28: error: expected 'true' or 'false'") == 0);
  CHECK(error_of("  %x = index.cmp eq %a, %a\n").find("bad.mlir:2:21: error: expected '(' and the compared values") == 0);
}
