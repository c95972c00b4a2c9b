// Compiles and runs the C++ block of docs/ir.md ("How a dialect plugs in"), so
// the page cannot rot (tests/docs/check_doc_snippets.py checks it is verbatim).
// The block below is the compilable form proposed for docs/ir.md: the page's
// version elides the hook bodies with `...`, which does not compile.
#include <kildall/ir/interpreter.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/parser.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/verifier.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

using namespace kildall::ir;

TEST_CASE("docs/ir.md: a dialect op plugs in through its OpDefinition") {
  // --- docs/ir.md: "How a dialect plugs in" (verbatim) ---
  kildall::ir::OpRegistry registry;                 // func, cf, arith pre-registered
  const Type noisy = registry.add_type("noisy.i32");  // spelled !noisy.i32
  OpDefinition add;
  add.name = "noisy.add";
  add.format = OpFormat::binary;                    // `%a, %b : T` -> T
  add.verify = [noisy](const Function& fn, OpId op) -> std::optional<std::string> {
    for (const ValueId v : fn.operands_of(op))
      if (fn.values[v].type != noisy) return std::string("operands must be !noisy.i32");
    return std::nullopt;
  };
  add.eval = [](const Function&, OpId, std::span<const uint64_t> in, std::span<uint64_t> out) {
    out[0] = in[0] + in[1]; return EvalStatus::success();     // or EvalStatus::undefined("why")
  };
  const OpCode add_code = registry.add_op(std::move(add));
  // --- end of the snippet ---

  CHECK(registry.find_op("noisy.add") == std::optional<OpCode>(add_code));
  CHECK(registry.find_type("noisy.i32") == std::optional<Type>(noisy));
  // "func, cf, arith pre-registered".
  CHECK(registry.find_op("arith.addi").has_value());
  CHECK(registry.find_op("cf.cond_br").has_value());
  CHECK(registry.find_op("func.return").has_value());

  // The parser, printer, verifier and interpreter now know the op.
  const char* source = "func.func @f(%a: !noisy.i32, %b: !noisy.i32) -> !noisy.i32 {\n"
                       "  %s = noisy.add %a, %b : !noisy.i32\n"
                       "  return %s : !noisy.i32\n"
                       "}\n";
  const Module module = parse_and_verify(source, registry, "doc.mlir");
  CHECK(module.functions[0].ops[0].code == add_code);
  const std::string printed = print_module(module);
  CHECK(printed.find("%s = noisy.add %a, %b : !noisy.i32\n") != std::string::npos);
  CHECK(print_module(parse_and_verify(printed, registry, "printed.mlir")) == printed);
  const ExecResult r = interpret(module, "f", std::vector<std::uint64_t>{3, 4});
  REQUIRE(r.status == ExecStatus::returned);
  CHECK(r.results == std::vector<std::uint64_t>{7});

  // The verify hook reports at the op.
  try {
    (void)parse_and_verify("func.func @g(%a: i32) {\n  %s = noisy.add %a, %a : i32\n  return\n}\n", registry,
                           "bad.mlir");
    FAIL("expected an error");
  } catch (const IrError& e) {
    CHECK(std::string(e.what()) == "bad.mlir:2:8: error: 'noisy.add' op operands must be !noisy.i32");
  }
}
