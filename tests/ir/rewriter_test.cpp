// Tests of kildall/ir/rewriter.hpp: creating, linking, replacing and erasing
// keep the function valid (verifier) and behaving the same (interpreter); use counts against
// each value's own use_count.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <kildall/ir/interpreter.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/rewriter.hpp>
#include <kildall/ir/verifier.hpp>

using namespace kildall::ir;

TEST_CASE("insert after, replace all uses except one op, erase, branch folding") {
  const OpRegistry registry;
  Module m = parse_and_verify(R"(func.func @f(%a: i32, %c: i1) -> i32 {
  %x = arith.addi %a, %a : i32
  %y = arith.muli %x, %x : i32
  cf.cond_br %c, ^l(%y : i32), ^r
^l(%p: i32):
  return %p : i32
^r:
  return %x : i32
}
)",
                              registry);
  Function& fn = m.functions[0];
  Rewriter rewriter(fn);
  const ValueId x = 2;
  const OpId x_op = fn.values[x].owner;
  // %z = arith.subi %x, %a right after %x; then all uses of %x except in %z's op go to %z.
  const ValueId operands[] = {x, 0};
  const Type types[] = {Type::integer(32)};
  const OpId z_op = rewriter.create_after(x_op, code_of(BuiltinOp::subi), operands, types);
  const ValueId z = fn.result(z_op);
  rewriter.set_name(z, rewriter.unique_name("x"));
  CHECK(fn.value_name(z) == "x_0");
  CHECK(rewriter.replace_all_uses_except(x, z, z_op) == 3);
  CHECK(rewriter.use_count(x) == 1);
  verify(m);
  // (a + a) - a == a, so %y = a * a and the false arm returns a.
  CHECK(interpret(m, "f", std::vector<std::uint64_t>{5, 1}).results[0] == 25);
  CHECK(interpret(m, "f", std::vector<std::uint64_t>{5, 0}).results[0] == 5);
  // Fold the branch to its false arm.
  rewriter.replace_with_branch(fn.terminator(0), 1);
  verify(m);
  CHECK(interpret(m, "f", std::vector<std::uint64_t>{5, 1}).results[0] == 5);
  const std::string printed = print_module(m);
  CHECK(printed.find("%x_0 = arith.subi %x, %a : i32") != std::string::npos);
  CHECK(printed.find("cf.br ^r") != std::string::npos);
  CHECK(printed.find("cond_br") == std::string::npos);
  // Erase an op whose result is unused: the block list stays consistent.
  const ValueId c0 = rewriter.constant_before(fn.terminator(0), Type::integer(32), 0);
  CHECK(fn.value_name(c0).empty());
  rewriter.erase(fn.values[c0].owner);
  verify(m);
  std::size_t ops = 0;
  for (const OpId op : fn.ops_of(0)) {
    (void)op;
    ++ops;
  }
  CHECK(ops == 4);  // %x, %x_0, %y, cf.br
}

TEST_CASE("unnamed values print with fresh numbers that avoid source names") {
  const OpRegistry registry;
  Module m = parse_and_verify("func.func @f(%0: i8) -> i8 {\n  %3 = arith.addi %0, %0 : i8\n  return %3 : i8\n}\n",
                              registry);
  Function& fn = m.functions[0];
  Rewriter rewriter(fn);
  const ValueId k = rewriter.constant_at_start(0, Type::integer(8), 7);
  const ValueId operands[] = {1, k};
  const Type types[] = {Type::integer(8)};
  const OpId add = rewriter.create_before(fn.terminator(0), code_of(BuiltinOp::addi), operands, types);
  (void)rewriter.replace_all_uses_except(1, fn.result(add), add);
  verify(m);
  const std::string printed = print_module(m);
  CHECK(printed.find("%4 = arith.constant 7 : i8") != std::string::npos);
  CHECK(printed.find("%5 = arith.addi %3, %4 : i8") != std::string::npos);
  CHECK(interpret(parse_and_verify(printed, registry), "f", std::vector<std::uint64_t>{10}).results[0] == 27);
  CHECK(rewriter.constant_name(Type::integer(8), 0xFF) == "c-1_i8");
  CHECK(rewriter.constant_name(Type::i1(), 1) == "true");
  CHECK(rewriter.constant_name(Type::index(), 3) == "c3");  // MLIR names index constants without a type suffix
}

TEST_CASE("unique_name gives the least free suffix, as a search over every name in use does (2,000 random requests)") {
  // Oracle: the set of names in use, searched from suffix 0 on every request.
  const OpRegistry registry;
  Module m = parse_and_verify(R"(func.func @f(%a: i32) -> i32 {
  %c0_i32 = arith.constant 0 : i32
  %c0_i32_1 = arith.constant 0 : i32
  %x = arith.addi %a, %a : i32
  %x_0 = arith.addi %x, %c0_i32 : i32
  %y = arith.addi %x_0, %c0_i32_1 : i32
  return %y : i32
}
)",
                              registry);
  Function& fn = m.functions[0];
  Rewriter rewriter(fn);
  std::vector<std::string> used;
  for (ValueId v = 0; v < fn.values.size(); ++v) {
    if (!fn.value_name(v).empty()) used.emplace_back(fn.value_name(v));
  }
  auto taken = [&](const std::string& name) {
    for (const std::string& u : used) {
      if (u == name) return true;
    }
    return false;
  };
  const std::string bases[] = {"c0_i32", "x", "y", "a", "fresh", "x_0"};
  const ValueId target = fn.values.size() - 1;
  std::uint32_t state = 12345;
  std::size_t suffixed = 0;
  for (int i = 0; i < 2000; ++i) {
    state = state * 1103515245U + 12345U;
    const std::string& base = bases[(state >> 16) % 6];
    std::string expected = base;
    for (std::size_t n = 0; taken(expected); ++n) expected = base + "_" + std::to_string(n);
    const std::string got = rewriter.unique_name(base);
    REQUIRE(got == expected);
    suffixed += got != base ? 1 : 0;
    if ((state >> 8) % 3 != 0) {  // most names are taken; some requests are dropped
      rewriter.set_name(target, got);
      used.push_back(got);
    }
  }
  CHECK(suffixed > 1000);
  CHECK(rewriter.unique_name("c0_i32") != "c0_i32_1");  // taken since parsing
}

TEST_CASE("use counts into a reused array equal each value's use_count, after ops are erased") {
  const OpRegistry registry;
  Module m = parse_and_verify(R"(func.func @f(%a: i32, %b: i32) -> i32 {
  %x = arith.addi %a, %b : i32
  %y = arith.muli %x, %a : i32
  %z = arith.subi %y, %x : i32
  return %z : i32
}
)",
                              registry);
  Function& fn = m.functions[0];
  Rewriter rewriter(fn);
  // A stale array longer than the function and full of garbage: every entry is recounted.
  kildall::ir::BodyArray<std::uint32_t> counts(fn.values.size() + 7, 99);
  const auto check_counts = [&] {
    rewriter.use_counts(counts);
    REQUIRE(counts.size() == fn.values.size());
    CHECK(counts == rewriter.use_counts());
    for (ValueId v = 0; v < fn.values.size(); ++v) CHECK(counts[v] == rewriter.use_count(v));
  };
  check_counts();
  CHECK(counts[0] == 2);  // %a: by %x and %y
  // %z := %y, then %z's op goes: %x loses a use, %y gains the return's.
  const ValueId x = 2, y = 3, z = 4;
  CHECK(rewriter.replace_all_uses(z, y) == 1);
  rewriter.erase(fn.values[z].owner);
  check_counts();
  CHECK(counts[x] == 1);
  CHECK(counts[y] == 1);
  CHECK(counts[z] == 0);
}

TEST_CASE("erased_count counts each op erased once, the ops of an erased op's regions included") {
  const OpRegistry registry;
  Module m = parse_and_verify(R"(func.func @f(%c: i1, %a: i8) -> i8 {
  %x = arith.addi %a, %a : i8
  %r = scf.if %c -> (i8) {
    %y = arith.muli %a, %a : i8
    scf.yield %y : i8
  } else {
    scf.yield %a : i8
  }
  return %a : i8
}
)",
                              registry);
  Function& fn = m.functions[0];
  Rewriter rewriter(fn);
  CHECK(rewriter.erased_count() == 0);
  const OpId x_op = fn.values[2].owner;
  rewriter.erase(x_op);
  CHECK(rewriter.erased_count() == 1);
  rewriter.erase(x_op);  // already erased: not counted again
  CHECK(rewriter.erased_count() == 1);
  OpId if_op = 0;
  while (if_op < fn.ops.size() && !is(fn.ops[if_op].code, BuiltinOp::scf_if)) ++if_op;
  REQUIRE(if_op < fn.ops.size());
  rewriter.erase(if_op);  // with its muli and two yields
  CHECK(rewriter.erased_count() == 5);
  std::size_t erased = 0;
  for (const OpData& o : fn.ops) erased += o.erased;
  CHECK(erased == rewriter.erased_count());
}
