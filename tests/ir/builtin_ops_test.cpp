// Tests of kildall/ir/builtin_ops.hpp (the built-in op records); oracles: each record's `eval` run on every operand of small widths, against which its `fold` must hold for every value of the unknown operand and its `infer_ranges` must contain every result (exhaustive at widths 1..3).
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <kildall/ir.hpp>

using namespace kildall::ir;
using kildall::Interval;

namespace {

/// A one-function module whose body is `%r = <op text>` over arguments `%x`, `%y`, `%c` of
/// the given types, returning `%r`.
Module module_of(const OpRegistry& registry, const std::string& op_text, const std::string& type) {
  const std::string text = "func.func @f(%x: " + type + ", %y: " + type + ", %c: i1) -> " +
                           (op_text.rfind("arith.cmpi", 0) == 0 ? std::string("i1") : type) + " {\n  %r = " + op_text +
                           "\n  return %r : " + (op_text.rfind("arith.cmpi", 0) == 0 ? std::string("i1") : type) +
                           "\n}\n";
  return parse_and_verify(text, registry, "op.mlir");
}

/// The op defining `%r` (the first op of the body).
OpId first_op(const Function& fn) { return fn.blocks[0].first_op; }

/// `eval` of `op` on `a`, `b`: the result bits, or nullopt when undefined.
std::optional<std::uint64_t> run(const OpDefinition& def, const Function& fn, OpId op, std::uint64_t a,
                                 std::uint64_t b) {
  const std::uint64_t in[] = {a, b};
  std::uint64_t out[1] = {0};
  if (!def.eval(fn, op, in, out).ok) return std::nullopt;
  return out[0];
}

/// Calls `check(def, w, values, type)` for every two-operand `arith` op at widths 1..3
/// (`values` = 2^w, `type` = "iw").
template <class Check>
void for_each_binary_op_and_width(const OpRegistry& registry, Check&& check) {
  for (const auto& record : binary_arith_ops) {
    const OpDefinition& def = registry.op(code_of(record.code));
    for (unsigned w = 1; w <= 3; ++w) {
      CAPTURE(def.name);
      CAPTURE(w);
      check(def, w, std::uint64_t{1} << w, "i" + std::to_string(w));
    }
  }
}

}  // namespace

TEST_CASE("every built-in op has one record, under its op code, found by its name") {
  const OpRegistry& registry = OpRegistry::builtins();
  const std::vector<OpDefinition> defs = builtin_op_definitions();
  REQUIRE(defs.size() == static_cast<std::size_t>(BuiltinOp::count));
  for (OpCode code = 0; code < defs.size(); ++code) {
    CHECK(registry.find_op(defs[code].name) == code);
    const bool calls = is(code, BuiltinOp::call) || is(code, BuiltinOp::call_indirect);
    // No semantics of their own: calls run their callee, `func.constant` makes a function value.
    const bool opaque = calls || is(code, BuiltinOp::func_constant) || is(code, BuiltinOp::unregistered);
    CHECK((defs[code].calls != CallKind::none) == calls);
    CHECK(defs[code].names_function == (is(code, BuiltinOp::call) || is(code, BuiltinOp::func_constant)));
    const bool owns_regions = is(code, BuiltinOp::scf_if) || is(code, BuiltinOp::scf_for) || is(code, BuiltinOp::scf_while);
    const bool region_terminator = is(code, BuiltinOp::scf_yield) || is(code, BuiltinOp::scf_condition);
    const bool control = is(code, BuiltinOp::br) || is(code, BuiltinOp::cond_br) || is(code, BuiltinOp::return_) ||
                         opaque || owns_regions || region_terminator;
    CHECK(defs[code].terminator == (control && !opaque && !owns_regions));
    CHECK(defs[code].may_terminate == is(code, BuiltinOp::unregistered));
    CHECK(defs[code].region_flow.described() == owns_regions);  // how control enters and leaves regions
    CHECK(static_cast<bool>(defs[code].eval) == !control);         // control flow is structure
    CHECK(static_cast<bool>(defs[code].infer_ranges) == !control);  // every value op has a range transfer
    // Type rules live in the records too, but for the ops the parser's format already types.
    const bool typed_by_format = (control && !owns_regions && !region_terminator) || is(code, BuiltinOp::constant) ||
                                 is(code, BuiltinOp::select);
    CHECK(static_cast<bool>(defs[code].verify) == !typed_by_format);
  }
  CHECK(registry.find_op("arith.addi") == code_of(BuiltinOp::addi));
  CHECK(registry.find_op("arith.select") == code_of(BuiltinOp::select));
  CHECK(defs[code_of(BuiltinOp::select)].selects_from == 1);
}

TEST_CASE("a binary op's fold (a constant, or the operand it equals) holds for every value of its unknown operand") {
  const OpRegistry& registry = OpRegistry::builtins();
  for_each_binary_op_and_width(registry, [&](const OpDefinition& def, unsigned, std::uint64_t values,
                                             const std::string& type) {
    {  // one side known
      const Module m = module_of(registry, def.name + " %x, %y : " + type, type);
      const Function& fn = m.functions[0];
      const OpId op = first_op(fn);
      for (std::uint64_t k = 0; k < values; ++k) {
        for (const int side : {0, 1}) {
          const std::uint64_t* known[2] = {side == 0 ? &k : nullptr, side == 1 ? &k : nullptr};
          const std::optional<Folded> folded = def.fold(fn, op, known);
          if (!folded) continue;
          for (std::uint64_t x = 0; x < values; ++x) {
            const auto result = side == 0 ? run(def, fn, op, k, x) : run(def, fn, op, x, k);
            REQUIRE(result.has_value());  // a folded op is never undefined
            // A constant, or the operand it always equals (operand `side` is k, the other x).
            const std::uint64_t expected = folded->kind == Folded::Kind::constant ? folded->bits
                                           : folded->operand == static_cast<std::uint32_t>(side) ? k
                                                                                                 : x;
            CHECK(*result == expected);
          }
        }
      }
    }
    {  // the same value on both sides, nothing known
      const Module m = module_of(registry, def.name + " %x, %x : " + type, type);
      const Function& fn = m.functions[0];
      const OpId op = first_op(fn);
      const std::uint64_t* known[2] = {nullptr, nullptr};
      if (const std::optional<Folded> folded = def.fold(fn, op, known)) {
        for (std::uint64_t x = 0; x < values; ++x)
          CHECK(run(def, fn, op, x, x) == (folded->kind == Folded::Kind::constant ? folded->bits : x));
      }
    }
  });
}

TEST_CASE("the folds that decide something: x - x, x * 0, x | ~0, cmpi x, x, select on a known condition") {
  const OpRegistry& registry = OpRegistry::builtins();
  const std::uint64_t zero = 0, all_ones = 0xff, one = 1;
  const auto fold = [&](const std::string& op_text, const std::string& type,
                        std::vector<const std::uint64_t*> known) {
    const Module m = module_of(registry, op_text, type);
    const Function& fn = m.functions[0];
    const OpId op = first_op(fn);
    return registry.op(fn.ops[op].code).fold(fn, op, known);
  };
  CHECK(fold("arith.subi %x, %x : i8", "i8", {nullptr, nullptr}) == Folded::constant(0));
  CHECK(fold("arith.muli %x, %y : i8", "i8", {nullptr, &zero}) == Folded::constant(0));
  CHECK(fold("arith.ori %x, %y : i8", "i8", {&all_ones, nullptr}) == Folded::constant(0xff));
  CHECK(fold("arith.addi %x, %y : i8", "i8", {nullptr, &zero}) == Folded::to_operand(0));  // x + 0 is x
  CHECK(fold("arith.addi %x, %y : i8", "i8", {&zero, nullptr}) == Folded::to_operand(1));  // 0 + y is y
  CHECK(fold("arith.subi %x, %y : i8", "i8", {&zero, nullptr}) == std::nullopt);           // 0 - y is not y
  CHECK(fold("arith.divsi %x, %y : i8", "i8", {nullptr, &one}) == Folded::to_operand(0));
  CHECK(fold("arith.andi %x, %x : i8", "i8", {nullptr, nullptr}) == Folded::to_operand(0));
  CHECK(fold("arith.select %c, %x, %x : i8", "i8", {nullptr, nullptr, nullptr}) == Folded::to_operand(1));
  CHECK(fold("arith.cmpi sle, %x, %x : i8", "i8", {nullptr, nullptr}) == Folded::constant(1));
  CHECK(fold("arith.cmpi slt, %x, %x : i8", "i8", {nullptr, nullptr}) == Folded::constant(0));
  CHECK(fold("arith.select %c, %x, %y : i8", "i8", {&one, nullptr, nullptr}) == Folded::to_operand(1));
  CHECK(fold("arith.select %c, %x, %y : i8", "i8", {&zero, nullptr, nullptr}) == Folded::to_operand(2));
  CHECK(fold("arith.select %c, %x, %y : i8", "i8", {nullptr, nullptr, nullptr}) == std::nullopt);
}

TEST_CASE("a binary op's range transfer contains its result for every pair of members") {
  const OpRegistry& registry = OpRegistry::builtins();
  for_each_binary_op_and_width(registry, [&](const OpDefinition& def, unsigned w, std::uint64_t values,
                                             const std::string& type) {
    const Module m = module_of(registry, def.name + " %x, %y : " + type, type);
    const Function& fn = m.functions[0];
    const OpId op = first_op(fn);
    // Every pair of unsigned intervals [alo, ahi] x [blo, bhi].
    for (std::uint64_t alo = 0; alo < values; ++alo)
      for (std::uint64_t ahi = alo; ahi < values; ++ahi)
        for (std::uint64_t blo = 0; blo < values; ++blo)
          for (std::uint64_t bhi = blo; bhi < values; ++bhi) {
            const Interval in[2] = {Interval::from_unsigned(w, alo, ahi), Interval::from_unsigned(w, blo, bhi)};
            const Interval range = def.infer_ranges(fn, op, 0, in);
            for (std::uint64_t a = alo; a <= ahi; ++a)
              for (std::uint64_t b = blo; b <= bhi; ++b)
                if (const auto result = run(def, fn, op, a, b)) REQUIRE(range.contains(*result));
          }
  });
}

TEST_CASE("casts, compare and constant: eval against the bits, ranges containing every result") {
  const OpRegistry& registry = OpRegistry::builtins();
  {
    const Module m = parse_and_verify(
        "func.func @f(%x: i3) -> i5 {\n  %r = arith.extsi %x : i3 to i5\n  return %r : i5\n}\n", registry, "c.mlir");
    const Function& fn = m.functions[0];
    const OpId op = first_op(fn);
    const OpDefinition& def = registry.op(fn.ops[op].code);
    for (std::uint64_t x = 0; x < 8; ++x) {
      const std::uint64_t expected = x >= 4 ? x + 24 : x;  // sign bit copied into the two new bits
      CHECK(run(def, fn, op, x, 0) == expected);
      const Interval in[1] = {Interval::from_unsigned(3, x, x)};
      CHECK(def.infer_ranges(fn, op, 0, in).contains(expected));
    }
  }
  {
    const Module m = module_of(registry, "arith.cmpi ult, %x, %y : i3", "i3");
    const Function& fn = m.functions[0];
    const OpId op = first_op(fn);
    const OpDefinition& def = registry.op(fn.ops[op].code);
    for (std::uint64_t a = 0; a < 8; ++a)
      for (std::uint64_t b = 0; b < 8; ++b) CHECK(run(def, fn, op, a, b) == (a < b ? 1u : 0u));
  }
  {
    const Module m = parse_and_verify(
        "func.func @f() -> i8 {\n  %r = arith.constant -3 : i8\n  return %r : i8\n}\n", registry, "k.mlir");
    const Function& fn = m.functions[0];
    const OpId op = first_op(fn);
    const OpDefinition& def = registry.op(fn.ops[op].code);
    CHECK(run(def, fn, op, 0, 0) == 253u);
    CHECK(def.infer_ranges(fn, op, 0, {}).unsigned_constant() == 253u);
  }
}

TEST_CASE("index_cast sign-extends and index_castui zero-extends into index; both truncate out of it") {
  const OpRegistry& registry = OpRegistry::builtins();
  for (const bool signed_cast : {true, false}) {
    const std::string name = signed_cast ? "arith.index_cast" : "arith.index_castui";
    CAPTURE(name);
    const Module widen = parse_and_verify("func.func @f(%x: i3) -> index {\n  %r = " + name +
                                              " %x : i3 to index\n  return %r : index\n}\n",
                                          registry, "w.mlir");
    const Module narrow = parse_and_verify("func.func @f(%x: index) -> i3 {\n  %r = " + name +
                                               " %x : index to i3\n  return %r : i3\n}\n",
                                           registry, "n.mlir");
    const Function& up = widen.functions[0];
    const Function& down = narrow.functions[0];
    const OpDefinition& def = registry.op(up.ops[first_op(up)].code);
    for (std::uint64_t x = 0; x < 8; ++x) {
      const std::uint64_t extended = signed_cast && x >= 4 ? x | ~std::uint64_t{7} : x;  // 64-bit index
      CHECK(run(def, up, first_op(up), x, 0) == extended);
      const Interval in[1] = {Interval::from_unsigned(3, x, x)};
      CHECK(def.infer_ranges(up, first_op(up), 0, in).unsigned_constant() == extended);
      const std::uint64_t wide = x + 8 * 1000003;  // an index whose low 3 bits are x
      CHECK(run(def, down, first_op(down), wide, 0) == x);
      const Interval wide_in[1] = {Interval::from_unsigned(64, wide, wide)};
      CHECK(def.infer_ranges(down, first_op(down), 0, wide_in).unsigned_constant() == x);
    }
  }
  // Between two integers (or two indices) is an error, reported at the op.
  try {
    (void)parse_and_verify("func.func @f(%x: i32) -> i64 {\n  %r = arith.index_cast %x : i32 to i64\n  return %r : i64\n}\n",
                           registry, "bad.mlir");
    FAIL("accepted an index_cast between two integers");
  } catch (const std::exception& e) {
    CHECK(std::string(e.what()) ==
          "bad.mlir:2:8: error: 'arith.index_cast' op casts between a signless integer and 'index', not from 'i32' "
          "to 'i64'");
  }
}
