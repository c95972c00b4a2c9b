#pragma once
/// \file
/// The lexer for the MLIR custom syntax subset: identifiers (`arith.addi`,
/// `i32`), `%values`, `^blocks`, `@symbols`, `!dialect.types`, integer and
/// string literals, punctuation, and `//` line comments (skipped). It scans on
/// demand (one token of lookahead, no token vector) and tracks line and
/// column for diagnostics.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kildall/ir/diagnostics.hpp>

namespace kildall::ir {

/// Token kinds.
enum class TokenKind : std::uint8_t {
  eof,
  bare_identifier,     ///< `func.func`, `i32`, `slt`, `to`
  percent_identifier,  ///< `%x`, or `%x#1` (a result of a pack; text includes '%')
  caret_identifier,    ///< `^bb1`
  at_identifier,       ///< `@f`
  bang_identifier,     ///< `!noisy.i32`
  integer,             ///< `42`, `0x2A` (unsigned; a minus sign is its own token)
  string,              ///< `"text"` (text includes the quotes)
  l_paren, r_paren, l_brace, r_brace, l_square, r_square, less, greater,
  comma, colon, equal, arrow, minus, hash
};

/// One token: kind, text (a view into the source) and location.
struct Token {
  TokenKind kind = TokenKind::eof;  ///< Kind.
  std::string_view text;            ///< Spelling in the source.
  SourceLoc loc;                    ///< Where it starts.
};

/// A printable description of `kind` for "expected ..." messages.
[[nodiscard]] constexpr std::string_view describe(TokenKind kind) {
  switch (kind) {
    case TokenKind::eof: return "end of file";
    case TokenKind::bare_identifier: return "identifier";
    case TokenKind::percent_identifier: return "SSA value";
    case TokenKind::caret_identifier: return "block label";
    case TokenKind::at_identifier: return "symbol";
    case TokenKind::bang_identifier: return "dialect type";
    case TokenKind::integer: return "integer";
    case TokenKind::string: return "string";
    case TokenKind::l_paren: return "'('";
    case TokenKind::r_paren: return "')'";
    case TokenKind::l_brace: return "'{'";
    case TokenKind::r_brace: return "'}'";
    case TokenKind::l_square: return "'['";
    case TokenKind::r_square: return "']'";
    case TokenKind::less: return "'<'";
    case TokenKind::greater: return "'>'";
    case TokenKind::comma: return "','";
    case TokenKind::colon: return "':'";
    case TokenKind::equal: return "'='";
    case TokenKind::arrow: return "'->'";
    case TokenKind::minus: return "'-'";
    case TokenKind::hash: return "'#'";
  }
  return "token";
}

/// On-demand lexer over a source buffer (which must outlive it).
class Lexer {
 public:
  /// Lexes `source`; `file` names it in diagnostics.
  Lexer(std::string_view source, std::string file)
      : begin_(source.data()), cur_(source.data()), end_(source.data() + source.size()), line_start_(begin_),
        file_(std::move(file)) {}

  /// The file name used in diagnostics.
  [[nodiscard]] const std::string& file() const { return file_; }
  /// The number of source bytes before `token` (a token this lexer returned; the end of the
  /// scanned text for an end-of-file token).
  [[nodiscard]] std::size_t offset_of(const Token& token) const {
    if (token.text.data() == nullptr) return static_cast<std::size_t>(cur_ - begin_);
    return static_cast<std::size_t>(token.text.data() - begin_);
  }

  /// Scans and returns the next token. Throws `IrError` on a character that starts no token.
  Token next() {
    Token token;
    next_into(token);
    return token;
  }

  /// Scans the next token into `token` (what `next` returns, without a copy of the token: the
  /// parser keeps its lookahead in place). Throws `IrError` on a character that starts no token.
  void next_into(Token& token) {
    skip_trivia();
    token.loc = here();
    if (cur_ == end_) {
      token.kind = TokenKind::eof;
      token.text = {};
      return;
    }
    const char* start = cur_;
    const char c = *cur_++;
    auto finish = [&](TokenKind kind) {
      token.kind = kind;
      token.text = std::string_view(start, static_cast<std::size_t>(cur_ - start));
    };
    switch (c) {
      case '(': return finish(TokenKind::l_paren);
      case ')': return finish(TokenKind::r_paren);
      case '{': return finish(TokenKind::l_brace);
      case '}': return finish(TokenKind::r_brace);
      case '[': return finish(TokenKind::l_square);
      case ']': return finish(TokenKind::r_square);
      case '<': return finish(TokenKind::less);
      case '>': return finish(TokenKind::greater);
      case ',': return finish(TokenKind::comma);
      case ':': return finish(TokenKind::colon);
      case '=': return finish(TokenKind::equal);
      case '#': return finish(TokenKind::hash);
      case '-':
        if (cur_ != end_ && *cur_ == '>') {
          ++cur_;
          return finish(TokenKind::arrow);
        }
        return finish(TokenKind::minus);
      case '%':
      case '^':
        if (cur_ == end_ || !is_suffix_char(*cur_)) fail_after(token.loc, "expected a name after ", c);
        if (is_digit(*cur_)) {
          // MLIR's suffix-id: all digits, or a letter/punctuation followed by anything.
          while (cur_ != end_ && is_digit(*cur_)) ++cur_;
          if (cur_ != end_ && is_suffix_char(*cur_))
            fail(token.loc, "invalid name: a name that starts with a digit must be all digits");
        } else {
          while (cur_ != end_ && is_suffix_char(*cur_)) ++cur_;
        }
        // `%r#1`: result 1 of the pack `%r:N` (MLIR's value-use), one token.
        if (c == '%' && cur_ != end_ && *cur_ == '#') {
          ++cur_;
          if (cur_ == end_ || !is_digit(*cur_)) fail(token.loc, "expected a result number after '#'");
          while (cur_ != end_ && is_digit(*cur_)) ++cur_;
        }
        return finish(c == '%' ? TokenKind::percent_identifier : TokenKind::caret_identifier);
      case '@':
      case '!':
        if (cur_ == end_ || !is_identifier_start(*cur_)) fail_after(token.loc, "expected an identifier after ", c);
        while (cur_ != end_ && is_identifier_char(*cur_)) ++cur_;
        return finish(c == '@' ? TokenKind::at_identifier : TokenKind::bang_identifier);
      case '"':
        while (cur_ != end_ && *cur_ != '"' && *cur_ != '\n') {
          if (*cur_ == '\\' && cur_ + 1 != end_) ++cur_;
          ++cur_;
        }
        if (cur_ == end_ || *cur_ != '"') fail(token.loc, "unterminated string literal");
        ++cur_;
        return finish(TokenKind::string);
      default: break;
    }
    if (is_digit(c)) {
      if (c == '0' && cur_ != end_ && (*cur_ == 'x' || *cur_ == 'X') && cur_ + 1 != end_ && is_hex(cur_[1])) {
        cur_ += 2;
        while (cur_ != end_ && is_hex(*cur_)) ++cur_;
      } else {
        while (cur_ != end_ && is_digit(*cur_)) ++cur_;
      }
      return finish(TokenKind::integer);
    }
    if (is_identifier_start(c)) {
      while (cur_ != end_ && is_identifier_char(*cur_)) ++cur_;
      return finish(TokenKind::bare_identifier);
    }
    fail_after(token.loc, "unexpected character ", c);
  }

  /// After `open`, the `{` this lexer just returned: the source text from `open` to its matching
  /// `}` (braces nest; string literals are skipped whole), which the lexer then continues after.
  /// Attribute dictionaries are kept as their text: their values (floats, `#map`s, `dense<...>`)
  /// need no tokens of their own. Throws `IrError` at `open` when the braces do not close.
  [[nodiscard]] std::string_view scan_balanced_braces(const Token& open) {
    int depth = 1;
    while (cur_ != end_ && depth > 0) {
      const char c = *cur_++;
      if (c == '{') {
        ++depth;
      } else if (c == '}') {
        --depth;
      } else if (c == '\n') {
        ++line_;
        line_start_ = cur_;
      } else if (c == '"') {
        while (cur_ != end_ && *cur_ != '"' && *cur_ != '\n') cur_ += (*cur_ == '\\' && cur_ + 1 != end_) ? 2 : 1;
        if (cur_ == end_ || *cur_ != '"') fail(open.loc, "unterminated string literal in an attribute dictionary");
        ++cur_;
      }
    }
    if (depth > 0) fail(open.loc, "expected '}' to end the attribute dictionary, found end of file");
    return {open.text.data(), static_cast<std::size_t>(cur_ - open.text.data())};
  }

  /// Throws `IrError` with `message` at `loc` in this lexer's file.
  [[noreturn]] [[gnu::cold]] [[gnu::noinline]] void fail(SourceLoc loc, std::string message) const {
    throw IrError(Diagnostic{file_, loc, std::move(message)});
  }

  /// Whether `c` may begin an identifier (`@f`, `!t`, a bare name): a letter or `_`.
  [[nodiscard]] static constexpr bool is_identifier_start(char c) { return has(c, class_start); }
  /// Whether `c` may continue an identifier: a letter, digit, `_`, `$` or `.`.
  [[nodiscard]] static constexpr bool is_identifier_char(char c) { return has(c, class_ident); }

 private:
  // Character classes, one table lookup per character.
  static constexpr unsigned char class_start = 1, class_ident = 2, class_suffix = 4, class_hex = 8, class_digit = 16;
  static constexpr std::array<unsigned char, 256> classes = [] {
    std::array<unsigned char, 256> t{};
    for (int c = 0; c < 256; ++c) {
      const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
      const bool digit = c >= '0' && c <= '9';
      const bool hex = digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
      unsigned char k = 0;
      if (letter) k |= class_start;
      if (letter || digit || c == '$' || c == '.') k |= class_ident | class_suffix;
      if (c == '-') k |= class_suffix;
      if (hex) k |= class_hex;
      if (digit) k |= class_digit;
      t[static_cast<std::size_t>(c)] = k;
    }
    return t;
  }();
  static constexpr bool has(char c, unsigned char cls) { return (classes[static_cast<unsigned char>(c)] & cls) != 0; }
  static constexpr bool is_suffix_char(char c) { return has(c, class_suffix); }
  static constexpr bool is_hex(char c) { return has(c, class_hex); }
  static constexpr bool is_digit(char c) { return has(c, class_digit); }

  /// Throws "<message>'<c>'" at `loc` (kept out of line: the scanning loop stays small).
  [[noreturn]] [[gnu::cold]] [[gnu::noinline]] void fail_after(SourceLoc loc, const char* message, char c) const {
    fail(loc, message + quote_source(std::string_view(&c, 1)));
  }

  [[nodiscard]] SourceLoc here() const {
    return {line_, static_cast<std::uint32_t>(cur_ - line_start_) + 1};
  }

  void skip_trivia() {
    while (cur_ != end_) {
      const char c = *cur_;
      if (c == ' ' || c == '\t' || c == '\r') {
        ++cur_;
      } else if (c == '\n') {
        ++cur_;
        ++line_;
        line_start_ = cur_;
      } else if (c == '/' && cur_ + 1 != end_ && cur_[1] == '/') {
        while (cur_ != end_ && *cur_ != '\n') ++cur_;
      } else {
        return;
      }
    }
  }

  const char* begin_;
  const char* cur_;
  const char* end_;
  const char* line_start_;
  std::uint32_t line_ = 1;
  std::string file_;
};

/// Calls `f(names)` for each symbol reference in `text` (an attribute dictionary as written),
/// outside string literals: `names` (a `std::span<const std::string_view>`) holds the reference's
/// names without `@` and quotes, one for a flat reference `@f` or `@"f"`, more for a nested one
/// `@m::@f` (MLIR's `SymbolRefAttr`: root, then nested references), each spelled as the lexer
/// reads a symbol.
template <class F>
void for_each_symbol_reference(std::string_view text, F&& f) {
  std::vector<std::string_view> names;
  // The name of the reference whose '@' is at `i`, and the index just past it; nullopt when
  // none follows the '@'.
  const auto name_at = [&](std::size_t i) -> std::optional<std::pair<std::string_view, std::size_t>> {
    if (i + 1 >= text.size()) return std::nullopt;
    if (text[i + 1] == '"') {
      const std::size_t end = text.find('"', i + 2);
      if (end == std::string_view::npos) return std::nullopt;
      return std::pair{text.substr(i + 2, end - i - 2), end + 1};
    }
    if (!Lexer::is_identifier_start(text[i + 1])) return std::nullopt;
    std::size_t end = i + 2;
    while (end < text.size() && Lexer::is_identifier_char(text[end])) ++end;
    return std::pair{text.substr(i + 1, end - i - 1), end};
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') {  // a string literal: skip it, escapes included
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      continue;
    }
    if (text[i] != '@') continue;
    auto name = name_at(i);
    if (!name) {
      if (i + 1 < text.size() && text[i + 1] == '"') return;  // an unterminated quoted name ends the text
      continue;
    }
    names.clear();
    names.push_back(name->first);
    std::size_t end = name->second;
    while (text.substr(end, 3) == "::@") {
      const auto nested = name_at(end + 2);
      if (!nested) break;
      names.push_back(nested->first);
      end = nested->second;
    }
    f(std::span<const std::string_view>(names));
    i = end - 1;
  }
}

}  // namespace kildall::ir
