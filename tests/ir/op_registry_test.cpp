// Tests of kildall/ir/op_registry.hpp: the extension point. A toy version of
// the seed article's noisy dialect is registered from this file alone (types,
// declarative and custom assembly formats, verification, interpreter
// semantics, range transfers); the article's two programs then parse, print,
// re-parse, verify, run, and get the article's noise bounds from the integer
// range analysis. Registration errors are reported.
#include <doctest/doctest.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/interpreter.hpp>
#include <kildall/ir/parser.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/rewriter.hpp>
#include <kildall/ir/verifier.hpp>

#include "value_named.hpp"

using namespace kildall::ir;
using kildall::Interval;

namespace {

/// The toy noisy dialect: codes of its ops and its type.
struct ToyNoisy {
  Type noisy;
  OpCode encode, decode, add, sub, mul, reduce_noise, assume;
};

ToyNoisy register_toy_noisy(OpRegistry& registry) {
  ToyNoisy d{};
  d.noisy = registry.add_type("noisy.i32", 32);
  const Type noisy = d.noisy;
  // The article's noise model as range transfers (MLIR's InferIntRangeInterface), in each op's record.
  const RangeHook initial = [](const Function&, OpId, std::uint32_t, std::span<const Interval>) {
    return Interval::from_unsigned(32, 0, 12);
  };
  const RangeHook union_plus_one = [](const Function&, OpId, std::uint32_t, std::span<const Interval> in) {
    Interval joined = in[0];
    (void)joined.join(in[1]);
    return Interval::from_unsigned(32, joined.umin(), joined.umax() + 1);
  };
  const RangeHook noise_sum = [](const Function&, OpId, std::uint32_t, std::span<const Interval> in) {
    return Interval::from_unsigned(32, 0, in[0].umax() + in[1].umax());
  };
  const auto make = [&](std::string name, OpFormat format, EvalHook eval, VerifyHook verify = {},
                        RangeHook ranges = {}) {
    OpDefinition def;
    def.name = std::move(name);
    def.format = format;
    def.eval = std::move(eval);
    def.verify = std::move(verify);
    def.infer_ranges = std::move(ranges);
    return registry.add_op(std::move(def));
  };
  const auto noisy_operands = [noisy](const Function& fn, OpId op, const OpRegistry&) -> std::optional<std::string> {
    for (const ValueId v : fn.operands_of(op))
      if (fn.values[v].type != noisy) return std::string("operands must be !noisy.i32");
    return std::nullopt;
  };
  const auto binary = [](auto f) {
    return [f](const Function&, OpId, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
      out[0] = f(in[0], in[1]) & 31;
      return EvalStatus::success();
    };
  };
  d.encode = make(
      "noisy.encode", OpFormat::cast_arrow,
      [](const Function&, OpId, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
        out[0] = in[0];
        return EvalStatus::success();
      },
      [noisy](const Function& fn, OpId op, const OpRegistry&) -> std::optional<std::string> {
        if (fn.values[fn.operands_of(op)[0]].type != Type::integer(5)) return std::string("expects an i5 operand");
        if (fn.values[fn.result(op)].type != noisy) return std::string("produces !noisy.i32");
        return std::nullopt;
      },
      initial);
  d.decode = make("noisy.decode", OpFormat::cast_arrow,
                  [](const Function&, OpId, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
                    out[0] = in[0] & 31;
                    return EvalStatus::success();
                  });
  d.add = make("noisy.add", OpFormat::binary, binary([](std::uint64_t a, std::uint64_t b) { return a + b; }),
               noisy_operands, union_plus_one);
  d.sub = make("noisy.sub", OpFormat::binary, binary([](std::uint64_t a, std::uint64_t b) { return a - b; }),
               noisy_operands, union_plus_one);
  d.mul = make("noisy.mul", OpFormat::binary, binary([](std::uint64_t a, std::uint64_t b) { return a * b; }),
               noisy_operands, noise_sum);
  d.reduce_noise = make("noisy.reduce_noise", OpFormat::unary,
                        [](const Function&, OpId, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
                          out[0] = in[0];
                          return EvalStatus::success();
                        },
                        {}, initial);
  // A custom format: `%y = noisy.assume %x in [lo, hi] : !noisy.i32`.
  OpDefinition assume;
  assume.name = "noisy.assume";
  assume.format = OpFormat::custom;
  assume.parse = [](OpAsmParser& p, OperationState& state) {
    const UnresolvedOperand x = p.parse_operand();
    p.expect_keyword("in");
    p.expect(TokenKind::l_square);
    state.imm = p.parse_integer(Type::integer(32));
    p.expect(TokenKind::comma);
    state.aux = static_cast<std::uint32_t>(p.parse_integer(Type::integer(32)));
    p.expect(TokenKind::r_square);
    p.expect(TokenKind::colon);
    const Type t = p.parse_type();
    p.resolve_operand(x, t, state);
    state.result_types.push_back(t);
  };
  assume.print = [](OpAsmPrinter& p, const Function& fn, OpId op) {
    p << " ";
    p.print_operand(fn.operands_of(op)[0]);
    p << " in [";
    p.print_unsigned(fn.ops[op].imm);
    p << ", ";
    p.print_unsigned(fn.ops[op].aux);
    p << "] : ";
    p.print_type(fn.values[fn.result(op)].type);
  };
  assume.eval = [](const Function& fn, OpId op, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
    if (in[0] < fn.ops[op].imm || in[0] > fn.ops[op].aux) return EvalStatus::undefined("assumption violated");
    out[0] = in[0];
    return EvalStatus::success();
  };
  d.assume = registry.add_op(std::move(assume));
  return d;
}


const char* const article_first = R"(func.func @test_op_syntax() -> i5 {
  %0 = arith.constant 3 : i5
  %1 = arith.constant 4 : i5
  %2 = noisy.encode %0 : i5 -> !noisy.i32
  %3 = noisy.encode %1 : i5 -> !noisy.i32
  %4 = noisy.mul %2, %3 : !noisy.i32
  %5 = noisy.mul %4, %4 : !noisy.i32
  %6 = noisy.mul %5, %5 : !noisy.i32
  %7 = noisy.mul %6, %6 : !noisy.i32
  %8 = noisy.decode %7 : !noisy.i32 -> i5
  return %8 : i5
}
)";

const char* const article_second = R"(// This test checks that the solver can find a single insertion point
// for a reduce_noise op that handles two branches, each of which would
// also need a reduce_noise op if handled separately.
func.func @test_single_insertion_branching() -> i5 {
  %0 = arith.constant 3 : i5
  %1 = arith.constant 4 : i5
  %2 = noisy.encode %0 : i5 -> !noisy.i32
  %3 = noisy.encode %1 : i5 -> !noisy.i32
  // Noise: 12
  %4 = noisy.mul %2, %3 : !noisy.i32
  // Noise: 24

  // branch 1
  %b1 = noisy.add %4, %3 : !noisy.i32
  // Noise: 25
  %b2 = noisy.add %b1, %3 : !noisy.i32
  // Noise: 25
  %b3 = noisy.add %b2, %3 : !noisy.i32
  // Noise: 26
  %b4 = noisy.add %b3, %3 : !noisy.i32
  // Noise: 27

  // branch 2
  %c1 = noisy.sub %4, %2 : !noisy.i32
  // Noise: 25
  %c2 = noisy.sub %c1, %3 : !noisy.i32
  // Noise: 25
  %c3 = noisy.sub %c2, %3 : !noisy.i32
  // Noise: 26
  %c4 = noisy.sub %c3, %3 : !noisy.i32
  // Noise: 27

  %x1 = noisy.decode %b4 : !noisy.i32 -> i5
  %x2 = noisy.decode %c4 : !noisy.i32 -> i5
  %x3 = arith.addi %x1, %x2 : i5
  return %x3 : i5
}
)";


}  // namespace

TEST_CASE("the article's programs parse, print, re-parse and run once the toy dialect is registered") {
  OpRegistry registry;
  const ToyNoisy d = register_toy_noisy(registry);
  for (const char* source : {article_first, article_second}) {
    const Module module = parse_and_verify(source, registry, "article.mlir");
    const std::string printed = print_module(module);
    const Module again = parse_and_verify(printed, registry, "printed.mlir");
    CHECK(print_module(again) == printed);
    CHECK(printed.find("noisy.encode %0 : i5 -> !noisy.i32") != std::string::npos);
    // The interpreter runs dialect ops through their eval hooks.
    const ExecResult r = interpret(module, module.functions[0].name, {});
    REQUIRE(r.status == ExecStatus::returned);
    REQUIRE(r.results.size() == 1);
  }
  const Module first = parse_and_verify(article_first, registry, "article.mlir");
  // 3 * 4 = 12, squared three times modulo 32: 12*12 = 144 = 16, 16*16 = 256 = 0, 0.
  CHECK(interpret(first, "test_op_syntax", {}).results[0] == 0);
  CHECK(first.functions[0].ops[4].code == d.mul);
}

TEST_CASE("the integer range analysis reproduces the article's noise bounds through the ops' range hooks") {
  OpRegistry registry;
  (void)register_toy_noisy(registry);
  {
    const Module module = parse_and_verify(article_first, registry, "article.mlir");
    const Function& fn = module.functions[0];
    const IntRangeAnalysis ranges(fn, &registry);
    const unsigned expected[] = {12, 12, 24, 48, 96, 192};
    const char* names[] = {"2", "3", "4", "5", "6", "7"};
    for (int i = 0; i < 6; ++i) {
      const Interval* r = ranges.lookup(value_named(fn, names[i]));
      REQUIRE(r != nullptr);
      CHECK(r->umin() == 0);
      CHECK(r->umax() == expected[i]);
    }
  }
  {
    const Module module = parse_and_verify(article_second, registry, "article.mlir");
    const Function& fn = module.functions[0];
    const IntRangeAnalysis ranges(fn, &registry);
    CHECK(ranges.lookup(value_named(fn, "4"))->umax() == 24);
    CHECK(ranges.lookup(value_named(fn, "b4"))->umax() == 28);  // unionPlusOne of [0,27] and [0,12]
    CHECK(ranges.lookup(value_named(fn, "c4"))->umax() == 28);
  }
}

TEST_CASE("custom formats, verification hooks and undefined behaviour of dialect ops") {
  OpRegistry registry;
  register_toy_noisy(registry);
  const char* source = R"(func.func @f(%x: i5) -> i5 {
  %e = noisy.encode %x : i5 -> !noisy.i32
  %a = noisy.assume %e in [0, 12] : !noisy.i32
  %d = noisy.decode %a : !noisy.i32 -> i5
  return %d : i5
}
)";
  const Module module = parse_and_verify(source, registry, "custom.mlir");
  const std::string printed = print_module(module);
  CHECK(printed.find("%a = noisy.assume %e in [0, 12] : !noisy.i32") != std::string::npos);
  CHECK(print_module(parse_and_verify(printed, registry, "again.mlir")) == printed);
  CHECK(interpret(module, "f", std::vector<std::uint64_t>{7}).results[0] == 7);
  const ExecResult bad = interpret(module, "f", std::vector<std::uint64_t>{13});
  CHECK(bad.status == ExecStatus::undefined_behavior);
  CHECK(bad.message == "assumption violated");
  CHECK(bad.loc == SourceLoc{3, 8});
  // The dialect's verify hook reports at the op.
  try {
    (void)parse_and_verify("func.func @g(%x: i8) {\n  %e = noisy.encode %x : i8 -> !noisy.i32\n  return\n}\n", registry,
                           "bad.mlir");
    FAIL("expected an error");
  } catch (const IrError& e) {
    CHECK(std::string(e.what()) == "bad.mlir:2:8: error: 'noisy.encode' op expects an i5 operand");
  }
  // Custom parse hooks report through the parser with locations.
  try {
    (void)parse_module("func.func @g(%x: !noisy.i32) {\n  %a = noisy.assume %x on [0, 1] : !noisy.i32\n  return\n}\n",
                       registry, "bad.mlir");
    FAIL("expected an error");
  } catch (const IrError& e) {
    CHECK(std::string(e.what()) == "bad.mlir:2:24: error: expected 'in', found 'on'");
  }
}

TEST_CASE("inserting reduce_noise after an op and rerouting the other uses (the ILP pass's rewrite)") {
  OpRegistry registry;
  const ToyNoisy d = register_toy_noisy(registry);
  Module module = parse_and_verify(article_second, registry, "article.mlir");
  Function& fn = module.functions[0];
  const ValueId v4 = value_named(fn, "4");
  Rewriter rewriter(fn);
  const Type types[] = {d.noisy};
  const ValueId operands[] = {v4};
  const OpId reduce = rewriter.create_after(fn.values[v4].owner, d.reduce_noise, operands, types);
  const ValueId reduced = fn.result(reduce);
  CHECK(rewriter.replace_all_uses_except(v4, reduced, reduce) == 2);
  verify(module);
  const std::string printed = print_module(module);
  CHECK(printed.find("%5 = noisy.reduce_noise %4 : !noisy.i32") != std::string::npos);
  CHECK(printed.find("%b1 = noisy.add %5, %3 : !noisy.i32") != std::string::npos);
  CHECK(printed.find("%c1 = noisy.sub %5, %2 : !noisy.i32") != std::string::npos);
  const IntRangeAnalysis ranges(fn, &registry);
  CHECK(ranges.lookup(value_named(fn, "b4"))->umax() == 16);
}

TEST_CASE("registration errors") {
  OpRegistry registry;
  OpDefinition dup;
  dup.name = "arith.addi";
  dup.format = OpFormat::binary;
  CHECK_THROWS_AS(registry.add_op(dup), RegistryError);
  OpDefinition hookless;
  hookless.name = "toy.custom";
  hookless.format = OpFormat::custom;
  CHECK_THROWS_AS(registry.add_op(hookless), RegistryError);
  (void)registry.add_type("toy.t");
  CHECK_THROWS_AS(registry.add_type("toy.t"), RegistryError);
  CHECK(registry.find_op("return") == code_of(BuiltinOp::return_));
  CHECK(registry.find_op("func.return") == code_of(BuiltinOp::return_));
  CHECK(registry.op_count() == static_cast<std::size_t>(BuiltinOp::count) + index_op_definitions().size());
  CHECK(registry.type_name(*registry.find_type("toy.t")) == "!toy.t");
  CHECK(registry.type_name(Type::index()) == "index");
  CHECK(registry.type_name(Type::integer(17)) == "i17");
}

TEST_CASE("has_no_effect: ops with semantics, func.constant and regions of such ops; not calls, terminators, opaque ops") {
  const OpRegistry registry;
  const Module module = parse_and_verify(R"(func.func private @g(i32) -> i32
func.func @f(%a: i32, %p: i1) -> i32 {
  %k = arith.constant 3 : i32
  %add = arith.addi %a, %k : i32
  %div = arith.divui %a, %k : i32
  %call = func.call @g(%a) : (i32) -> i32
  %u = "foo.bar"(%a) : (i32) -> i32
  %fc = func.constant @g : (i32) -> i32
  %indirect = func.call_indirect %fc(%a) : (i32) -> i32
  %pure = scf.if %p -> (i32) {
    %x = arith.addi %a, %k : i32
    scf.yield %x : i32
  } else {
    scf.yield %a : i32
  }
  %calls = scf.if %p -> (i32) {
    %y = func.call @g(%a) : (i32) -> i32
    scf.yield %y : i32
  } else {
    scf.yield %a : i32
  }
  %opaque = scf.if %p -> (i32) {
    %z = "foo.bar"(%a) : (i32) -> i32
    scf.yield %z : i32
  } else {
    scf.yield %a : i32
  }
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %st = arith.constant 1 : index
  %loop = scf.for %i = %lb to %ub step %st iter_args(%acc = %a) -> (i32) {
    %n = arith.addi %acc, %k : i32
    scf.yield %n : i32
  }
  cf.br ^bb1
^bb1:
  return %add : i32
})",
                                         registry, "t.mlir", {.allow_unregistered_ops = true});
  const Function& fn = module.functions[1];
  const auto op_of = [&fn](std::string_view name) { return fn.values[value_named(fn, name)].owner; };
  for (const char* pure : {"k", "add", "div", "x", "pure", "loop", "n", "fc"})
    CHECK_MESSAGE(has_no_effect(fn, op_of(pure), registry), pure);
  for (const char* effect : {"call", "indirect", "u", "calls", "opaque", "y", "z"})
    CHECK_MESSAGE(!has_no_effect(fn, op_of(effect), registry), effect);
  // Terminators: the branch, the return and the regions' own yields.
  for (BlockId b = 0; b < fn.blocks.size(); ++b)
    if (fn.blocks[b].last_op != no_index) CHECK_FALSE(has_no_effect(fn, fn.blocks[b].last_op, registry));
  // An op a registry does not know (a dialect's, read against the built-ins only) may have effects.
  OpRegistry with_dialect;
  OpDefinition op;
  op.name = "my.op";
  op.format = OpFormat::unary;
  op.eval = [](const Function&, OpId, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
    out[0] = in[0];
    return EvalStatus::success();
  };
  (void)with_dialect.add_op(std::move(op));
  const Module dialect = parse_and_verify("func.func @f(%a: i8) -> i8 {\n  %y = my.op %a : i8\n  return %y : i8\n}\n",
                                          with_dialect, "t.mlir");
  const Function& g = dialect.functions[0];
  CHECK(has_no_effect(g, g.blocks[0].first_op, with_dialect));
  CHECK_FALSE(has_no_effect(g, g.blocks[0].first_op, OpRegistry::builtins()));
}

TEST_CASE("function types are interned: one type per signature, shared by copies, spelled as MLIR spells them") {
  const OpRegistry registry;
  const Type i32 = Type::integer(32);
  const Type f = registry.function_type({{i32}, {i32}});
  CHECK(f.is_function());
  CHECK_FALSE(f.is_dialect());
  CHECK(registry.function_type({{i32}, {i32}}) == f);
  const Type none = registry.function_type({});
  CHECK(none != f);
  const Type higher = registry.function_type({{f, Type::index()}, {f}});
  CHECK(registry.signature(higher) == FunctionSignature{{f, Type::index()}, {f}});
  CHECK(registry.signature(i32) == FunctionSignature{});
  CHECK(registry.type_name(f) == "(i32) -> i32");
  CHECK(registry.type_name(none) == "() -> ()");
  CHECK(registry.type_name(higher) == "((i32) -> i32, index) -> ((i32) -> i32)");
  CHECK(registry.type_name(registry.function_type({{}, {i32, Type::i1()}})) == "() -> (i32, i1)");
  const OpRegistry copy = registry;  // NOLINT(performance-unnecessary-copy-initialization): the copy is the point
  CHECK(copy.function_type({{i32}, {i32}}) == f);
  CHECK(copy.type_name(higher) == registry.type_name(higher));
  CHECK(registry.bit_width(f) == 64);  // no integer: the range analysis finds such values unknown
}
