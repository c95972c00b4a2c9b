// Tests of kildall/ir/symbol_table.hpp: lookups per module, nested references and the functions ops name; oracle: the module's text, where each name's table is written (functions of the same name in different modules stay apart).
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <kildall/ir/interpreter.hpp>
#include <kildall/ir/symbol_table.hpp>
#include <kildall/ir/verifier.hpp>

using namespace kildall::ir;

namespace {

const char* const nested_text = R"(module {
  func.func private @f() -> i32 {
    %c = arith.constant 1 : i32
    return %c : i32
  }
  module @a {
    func.func nested @f() -> i32 {
      %c = arith.constant 2 : i32
      return %c : i32
    }
    module @b {
      func.func @f() -> i32 {
        %c = arith.constant 3 : i32
        return %c : i32
      }
      func.func @g() -> i32 {
        %r = func.call @f() : () -> i32
        return %r : i32
      }
    }
    func.func @h() -> (i32, () -> i32) {
      %r = func.call @f() : () -> i32
      %k = func.constant @f : () -> i32
      return %r, %k : i32, () -> i32
    }
  }
  module {
    func.func @f() -> i32 {
      %c = arith.constant 4 : i32
      return %c : i32
    }
  }
}
)";

}  // namespace

TEST_CASE("SymbolTables: one table per module, a flat reference looked up in its own module only") {
  const OpRegistry registry;
  const Module m = parse_and_verify(nested_text, registry, "s.mlir");
  REQUIRE(m.functions.size() == 6);
  REQUIRE(m.nested_modules.size() == 3);
  const SymbolTables symbols(m);
  // Four functions are called @f, one per module.
  CHECK(symbols.function(SymbolTables::top, "f") == std::optional<std::uint32_t>(0));
  CHECK(symbols.function(0, "f") == std::optional<std::uint32_t>(1));  // @a
  CHECK(symbols.function(1, "f") == std::optional<std::uint32_t>(2));  // @a::@b
  CHECK(symbols.function(2, "f") == std::optional<std::uint32_t>(5));  // the unnamed module
  // No lookup reaches into the enclosing module: @g is @a::@b's, not the top level's.
  CHECK_FALSE(symbols.function(SymbolTables::top, "g").has_value());
  CHECK_FALSE(symbols.function(0, "g").has_value());
  // A nested module is a symbol of its parent, not a function; an unnamed one is no symbol.
  CHECK(symbols.lookup(SymbolTables::top, "a") == std::optional<Symbol>(Symbol{Symbol::Kind::module, 0}));
  CHECK(symbols.lookup(0, "b") == std::optional<Symbol>(Symbol{Symbol::Kind::module, 1}));
  CHECK_FALSE(symbols.function(SymbolTables::top, "a").has_value());
}

TEST_CASE("SymbolTables::resolve: @a::@b::@f walks down one nested module per name") {
  const OpRegistry registry;
  const Module m = parse_and_verify(nested_text, registry, "s.mlir");
  const SymbolTables symbols(m);
  const auto resolve = [&](std::uint32_t scope, std::vector<std::string_view> names) {
    return symbols.resolve(scope, names);
  };
  const auto function = [](std::uint32_t f) { return std::optional<Symbol>(Symbol{Symbol::Kind::function, f}); };
  CHECK(resolve(SymbolTables::top, {"f"}) == function(0));
  CHECK(resolve(SymbolTables::top, {"a", "f"}) == function(1));
  CHECK(resolve(SymbolTables::top, {"a", "b", "g"}) == function(3));
  CHECK(resolve(0, {"b", "f"}) == function(2));          // from inside @a
  CHECK_FALSE(resolve(SymbolTables::top, {"b", "f"}));   // @b is not in the top level's table
  CHECK_FALSE(resolve(SymbolTables::top, {"f", "f"}));   // @f is no module
  CHECK_FALSE(resolve(SymbolTables::top, {"a", "x"}));
  CHECK(resolve(SymbolTables::top, {"a"}) == std::optional<Symbol>(Symbol{Symbol::Kind::module, 0}));
}

TEST_CASE("functions_named_by_ops: calls and func.constant name the function of their own module") {
  const OpRegistry registry;
  const Module m = parse_and_verify(nested_text, registry, "s.mlir");
  const auto named = functions_named_by_ops(m, SymbolTables(m));
  REQUIRE(named.size() == m.functions.size());
  const auto named_in = [&](std::uint32_t f) {
    std::vector<std::uint32_t> found;
    for (const std::uint32_t callee : named[f])
      if (callee != no_index) found.push_back(callee);
    return found;
  };
  CHECK(named_in(0).empty());
  CHECK(named_in(3) == std::vector<std::uint32_t>{2});     // @a::@b::@g calls @a::@b::@f
  CHECK(named_in(4) == std::vector<std::uint32_t>{1, 1});  // @a::@h: its call and its func.constant
  // The interpreter follows them: @a::@b::@g returns 3, @a::@h returns 2 and @a::@f.
  const Interpreter interpreter(m);
  CHECK(interpreter.run("a::b::g", {}).results == std::vector<std::uint64_t>{3});
  CHECK(interpreter.run("@a::@h", {}).results == std::vector<std::uint64_t>{2, 1});
}
