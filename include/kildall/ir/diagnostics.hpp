#pragma once
/// \file
/// Diagnostics of the reference IR: a source location and an error that
/// carries one. Every malformed input is reported as `file:line:col: error:
/// message` (the shape of MLIR's and Clang's diagnostics); nothing aborts.

#include <cstdint>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
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

}  // namespace kildall::ir
