#pragma once
/// \file
/// The exception thrown for invalid models: a NaN or infinite coefficient, a
/// handle the model does not own, a big-M that would need an infinite bound,
/// a malformed chained comparison. Parse errors of LP/MPS files derive from it
/// too and carry `file:line:col`.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace kildall::lp {

/// A modelling error: the model or a request on it is invalid.
class ModelError : public std::invalid_argument {
 public:
  /// An error with the given message.
  explicit ModelError(const std::string& message) : std::invalid_argument(message) {}
};

/// A syntax or semantic error in an LP or MPS file, at `source:line:col`.
class ParseError : public ModelError {
 public:
  /// An error at the given 1-based position of `source` (a file name or "<input>").
  ParseError(std::string_view source, std::size_t line, std::size_t column, const std::string& message)
      : ModelError(std::string(source) + std::string(":").append(std::to_string(line)) + std::string(":").append(std::to_string(column)) + ": " + message),
        line_(line),
        column_(column) {}
  /// 1-based line of the error.
  [[nodiscard]] std::size_t line() const noexcept { return line_; }
  /// 1-based column of the error.
  [[nodiscard]] std::size_t column() const noexcept { return column_; }

 private:
  std::size_t line_;
  std::size_t column_;
};

}  // namespace kildall::lp
