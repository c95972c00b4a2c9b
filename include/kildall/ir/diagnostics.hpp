#pragma once
/// \file
/// Diagnostics of the reference IR: a source location and an error that
/// carries one. Every malformed input is reported as `file:line:col: error:
/// message` (the shape of MLIR's and Clang's diagnostics); nothing aborts.

#include <cstdint>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace kildall::ir {

/// A 1-based line and column in the source text (0 means "unknown").
struct SourceLoc {
  std::uint32_t line = 0;    ///< 1-based line.
  std::uint32_t column = 0;  ///< 1-based byte column.
  /// Locations compare field by field.
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

/// One diagnostic: where and what.
struct Diagnostic {
  std::string file;     ///< The source name given to the parser (e.g. a path or "<stdin>").
  SourceLoc loc;        ///< Where in the source.
  std::string message;  ///< The message, without the "error: " prefix.

  /// `file:line:col: error: message`.
  [[nodiscard]] std::string str() const {
    std::ostringstream out;
    out << file << ':' << loc.line << ':' << loc.column << ": error: " << message;
    return out.str();
  }
};

/// The exception thrown by the lexer, parser and verifier for malformed input.
/// `what()` is the full `file:line:col: error: message` text.
class IrError : public std::runtime_error {
 public:
  /// Wraps `diagnostic`.
  explicit IrError(Diagnostic diagnostic)
      : std::runtime_error(diagnostic.str()), diagnostic_(std::move(diagnostic)) {}
  /// The diagnostic carried.
  [[nodiscard]] const Diagnostic& diagnostic() const noexcept { return diagnostic_; }

 private:
  Diagnostic diagnostic_;
};

/// A source fragment (a name, a token, one character) as a diagnostic shows
/// it: in single quotes, every byte outside printable ASCII written as `\xNN`
/// (so invalid UTF-8, NUL and control bytes never reach the terminal raw), and
/// cut after `max_bytes` source bytes with `...` (so a 10 MB identifier gives a
/// one-line message).
[[nodiscard]] inline std::string quote_source(std::string_view text, std::size_t max_bytes = 80) {
  constexpr char hex[] = "0123456789abcdef";
  std::string out = "'";
  const std::size_t shown = text.size() < max_bytes ? text.size() : max_bytes;
  for (std::size_t i = 0; i < shown; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      out += static_cast<char>(byte);
    } else {
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 0xf];
    }
  }
  if (shown < text.size()) out += "...";
  out += "'";
  return out;
}

}  // namespace kildall::ir
