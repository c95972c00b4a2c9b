// Compiles and runs the C++ block of docs/ir.md ("How a dialect plugs in"), so
// the page cannot rot (tests/docs/check_doc_snippets.py checks it is verbatim).
// The block below is the compilable form proposed for docs/ir.md: the page's
// version elides the hook bodies with `...`, which does not compile.
#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/def_use_view.hpp>
#include <kildall/ir/function_shape.hpp>
#include <kildall/ir/interpreter.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/parser.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/verifier.hpp>
#include <kildall/solver/sparse.hpp>
#include <kildall/solver/verify.hpp>

#include <doctest/doctest.h>

#include <concepts>

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
  add.verify = [noisy](const Function& fn, OpId op, const OpRegistry&) -> std::optional<std::string> {
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

// "Graph views for the solvers" and "Analyses and rewrites": the shape is the
// one SsaProgram adapter, and SCCP and integer ranges are problems over it.
static_assert(kildall::SsaProgram<FunctionShape>);
static_assert(kildall::SsaProgramWithBranchOperands<FunctionShape>);
static_assert(kildall::SparseBranchProblem<SccpProblem, FunctionShape>);
static_assert(kildall::SparseBranchProblem<IntRangeProblem, FunctionShape>);
static_assert(std::same_as<SccpAnalysis::Result, kildall::SparseResult<FunctionShape, ConstantState>>);
static_assert(std::same_as<IntRangeAnalysis::Result, kildall::SparseResult<FunctionShape, kildall::Interval>>);
static_assert(kildall::AnalysisGraph<DefUseView>);  // still a plain graph view

TEST_CASE("docs/ir.md: FunctionShape, and SCCP's extra operand") {
  const OpRegistry registry;
  // %d = (%s = %x + %b) - %b = %x = 5, although %b is unknown.
  const Module module = parse_and_verify("func.func @f(%b: i32, %p: i1) -> i32 {\n"
                                         "  %x = arith.constant 5 : i32\n"
                                         "  %s = arith.addi %x, %b : i32\n"
                                         "  %d = arith.subi %s, %b : i32\n"
                                         "  %t = arith.constant true\n"
                                         "  cf.cond_br %t, ^bb1(%d : i32), ^bb2\n"
                                         "^bb1(%r: i32):\n"
                                         "  return %r : i32\n"
                                         "^bb2:\n"
                                         "  return %b : i32\n"
                                         "}\n",
                                         registry, "shape.mlir");
  const Function& fn = module.functions[0];
  const ValueId b = fn.argument(0, 0), r = fn.argument(1, 0);
  std::vector<OpId> ops;
  for (const OpId op : fn.ops_of(0)) ops.push_back(op);
  REQUIRE(ops.size() == 5);  // x s d t cond_br
  const ValueId x = fn.result(ops[0]), s = fn.result(ops[1]), d = fn.result(ops[2]), t = fn.result(ops[3]);

  const FunctionShape shape(fn);
  CHECK(shape.value_count() == fn.values.size());
  CHECK(shape.entries() == 0);
  CHECK(std::vector<ValueId>(shape.block_values(0).begin(), shape.block_values(0).end()) ==
        std::vector<ValueId>{x, s, d, t});
  CHECK(std::vector<ValueId>(shape.operands(d).begin(), shape.operands(d).end()) == std::vector<ValueId>{s, b});
  // The terminator's operands: the condition is its branch operand, %d is forwarded (not an operand).
  CHECK(std::vector<ValueId>(shape.branch_operands(0).begin(), shape.branch_operands(0).end()) ==
        std::vector<ValueId>{t});
  int edges = 0;
  for (const CfgEdge& e : kildall::out_edge_range(shape.cfg(), BlockId{0})) {
    const auto forwarded = shape.forwarded_operands(e);
    const auto arm = shape.cond_branch_arm(e);
    REQUIRE(arm.has_value());
    if (e.target == 1) {
      CHECK(*arm == 0);
      CHECK(std::vector<ValueId>(forwarded.begin(), forwarded.end()) == std::vector<ValueId>{d});
    } else {
      CHECK(*arm == 1);
      CHECK(forwarded.empty());
    }
    ++edges;
  }
  CHECK(edges == 2);

  // SCCP names %x as %d's extra operand (forwarded_values), so %d folds to 5.
  const SccpProblem problem(shape, registry);
  const auto extra = problem.extra_operands(d);
  CHECK(std::vector<ValueId>(extra.begin(), extra.end()) == std::vector<ValueId>{x});
  CHECK(problem.extra_operands(s).empty());
  const SccpAnalysis sccp(fn, registry);
  REQUIRE(sccp.result().converged());
  CHECK(sccp.constant(s) == std::nullopt);
  CHECK(sccp.constant(d) == std::optional<std::uint64_t>{5});
  CHECK(sccp.constant(r) == std::optional<std::uint64_t>{5});
  CHECK(sccp.executable(1));
  CHECK_FALSE(sccp.executable(2));  // the constant cond_br takes one edge only
  CHECK(kildall::verify_fixpoint(problem, kildall::solve_sparse(shape, problem)).ok());

  // Integer ranges run on the same shape.
  const IntRangeAnalysis ranges(fn);
  REQUIRE(ranges.result().converged());
  CHECK(ranges.executable(1));
  CHECK_FALSE(ranges.executable(2));
  CHECK(ranges.lookup(x)->smin() == 5);
}
