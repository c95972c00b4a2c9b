// Tests of kildall/ir/lexer.hpp: token kinds, spellings and 1-based
// locations, comments skipped, errors located; symbol references found in attribute text
// (oracle: the expected tokens and names written out by hand).
#include <doctest/doctest.h>

#include <span>
#include <string>
#include <vector>

#include <kildall/ir/lexer.hpp>

using namespace kildall::ir;

TEST_CASE("tokens, spellings and locations") {
  Lexer lexer("%x = arith.addi %a, %b : i32 // comment\n  ^bb1(%0: !noisy.i32) -> @f 0x1F -7 \"s\\\"q\"", "l.mlir");
  struct Expected {
    TokenKind kind;
    std::string text;
    SourceLoc loc;
  };
  const std::vector<Expected> expected = {
      {TokenKind::percent_identifier, "%x", {1, 1}},  {TokenKind::equal, "=", {1, 4}},
      {TokenKind::bare_identifier, "arith.addi", {1, 6}}, {TokenKind::percent_identifier, "%a", {1, 17}},
      {TokenKind::comma, ",", {1, 19}},               {TokenKind::percent_identifier, "%b", {1, 21}},
      {TokenKind::colon, ":", {1, 24}},               {TokenKind::bare_identifier, "i32", {1, 26}},
      {TokenKind::caret_identifier, "^bb1", {2, 3}},  {TokenKind::l_paren, "(", {2, 7}},
      {TokenKind::percent_identifier, "%0", {2, 8}},  {TokenKind::colon, ":", {2, 10}},
      {TokenKind::bang_identifier, "!noisy.i32", {2, 12}}, {TokenKind::r_paren, ")", {2, 22}},
      {TokenKind::arrow, "->", {2, 24}},              {TokenKind::at_identifier, "@f", {2, 27}},
      {TokenKind::integer, "0x1F", {2, 30}},          {TokenKind::minus, "-", {2, 35}},
      {TokenKind::integer, "7", {2, 36}},             {TokenKind::string, "\"s\\\"q\"", {2, 38}},
      {TokenKind::eof, "", {2, 44}},
  };
  for (const Expected& e : expected) {
    const Token t = lexer.next();
    CAPTURE(e.text);
    CHECK(t.kind == e.kind);
    CHECK(t.text == e.text);
    CHECK(t.loc == e.loc);
  }
}

TEST_CASE("lexical errors are located") {
  const auto error_of = [](const char* text) -> std::string {
    Lexer lexer(text, "l.mlir");
    try {
      while (lexer.next().kind != TokenKind::eof) {
      }
    } catch (const IrError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(error_of("%a ?") == "l.mlir:1:4: error: unexpected character '?'");
  CHECK(error_of("\n  \"open") == "l.mlir:2:3: error: unterminated string literal");
  CHECK(error_of("% x") == "l.mlir:1:1: error: expected a name after '%'");
  CHECK(error_of("@1") == "l.mlir:1:1: error: expected an identifier after '@'");
  CHECK(error_of("%0abc") == "l.mlir:1:1: error: invalid name: a name that starts with a digit must be all digits");
  CHECK(error_of("%0 %a-b.c$d %_1 ^17") == "");
  CHECK(error_of("// only a comment\n") == "");
}

/// The references `for_each_symbol_reference` finds in `text`, each as its names joined by "::".
std::vector<std::string> references_in(std::string_view text) {
  std::vector<std::string> found;
  for_each_symbol_reference(text, [&](std::span<const std::string_view> names) {
    std::string joined;
    for (const std::string_view name : names) joined.append(joined.empty() ? "" : "::").append(name);
    found.push_back(joined);
  });
  return found;
}

TEST_CASE("for_each_symbol_reference: the symbols an attribute dictionary names, as the lexer spells them") {
  // `@9x` and a lone `@` are no symbols (an identifier starts with a letter or `_`).
  CHECK(references_in(R"({a = @f, b = "@in_a_string \" @still", c = [@h.i$2, @"quoted name"], d = @9x, e = @})") ==
        std::vector<std::string>{"f", "h.i$2", "quoted name"});
}

TEST_CASE("for_each_symbol_reference: a nested reference is one reference of several names") {
  CHECK(references_in("{a = @m::@f, b = [@m::@\"q r\"::@g, @x], c = @m::f, d = @m::@9}") ==
        std::vector<std::string>{"m::f", "m::q r::g", "x", "m", "m"});
}
