#pragma once
/// \file
/// Shortest round-trip text for doubles (std::to_chars), shared by the LP and
/// MPS writers and the pretty-printer, and strict parsing (std::from_chars)
/// for the readers.

#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace kildall::lp {

/// Shortest decimal text that reads back as exactly `x` ("inf"/"-inf" for infinities).
[[nodiscard]] inline std::string format_number(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  if (x == 0.0) return "0";  // also turns -0 into 0
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, result.ptr);
}

/// Parses a whole token as a number (also "inf", "infinity", with an optional
/// sign, case-insensitive); nullopt if it is not one.
[[nodiscard]] inline std::optional<double> parse_number(std::string_view token) {
  if (token.empty()) return std::nullopt;
  std::string_view body = token;
  double sign = 1.0;
  if (body.front() == '+' || body.front() == '-') {
    sign = body.front() == '-' ? -1.0 : 1.0;
    body.remove_prefix(1);
  }
  std::string lower;
  for (char c : body) lower.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
  if (lower == "inf" || lower == "infinity") return sign * HUGE_VAL;
  if (body.empty() || body.front() == '+' || body.front() == '-') return std::nullopt;
  double value = 0.0;
  const auto result = std::from_chars(body.data(), body.data() + body.size(), value);
  if (result.ec != std::errc() || result.ptr != body.data() + body.size() || std::isnan(value)) return std::nullopt;
  return sign * value;
}

}  // namespace kildall::lp
