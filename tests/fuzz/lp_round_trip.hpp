#pragma once
// The property shared by the LP and MPS reader fuzz targets: a file the
// reader rejects gets a `ParseError` at `fuzz.<ext>:line:col` inside the
// input; a file it accepts writes out (in both formats) as text that reads
// back, and a second round writes the identical text (write∘read is
// idempotent after one round), unless the model holds a finite number of
// magnitude >= 1e30, which the writers treat as infinite.

#include <cmath>
#include <sstream>
#include <string>
#include <string_view>

#include <kildall/lp/error.hpp>
#include <kildall/lp/lp_format.hpp>
#include <kildall/lp/model.hpp>
#include <kildall/lp/mps_format.hpp>

#include "fuzz_input.hpp"

namespace kildall::fuzz {

/// Which reader a target exercises.
enum class LpFormat : std::uint8_t { lp, mps };

namespace detail {

inline std::string write_in(LpFormat format, const lp::Model& model) {
  std::ostringstream out;
  if (format == LpFormat::lp) (void)lp::write_lp(model, out);
  else (void)lp::write_mps(model, out);
  return out.str();
}

inline lp::Model read_in(LpFormat format, const std::string& text, std::string_view source) {
  std::istringstream in(text);
  return format == LpFormat::lp ? lp::read_lp(in, source) : lp::read_mps(in, source);
}

}  // namespace detail

namespace detail {

/// Whether `model` holds a finite number of magnitude >= 1e30: the writers
/// treat such a bound as infinite (the LP reader's and GLPK's convention), so
/// the first write may drop it and only the second round is stable.
inline bool has_huge_number(const lp::Model& model) {
  const auto huge = [](double x) { return std::isfinite(x) && std::abs(x) >= 1e30; };
  for (const lp::VarInfo& v : model.vars())
    if (huge(v.lower) || huge(v.upper)) return true;
  for (const lp::Row& r : model.rows())
    if (huge(r.lower) || huge(r.upper)) return true;
  return false;
}

}  // namespace detail

/// Runs the property on `input` read as `format`.
inline void check_lp_round_trip(LpFormat format, std::string_view input) {
  const std::string source = format == LpFormat::lp ? "fuzz.lp" : "fuzz.mps";
  lp::Model model;
  try {
    model = detail::read_in(format, std::string(input), source);
  } catch (const lp::ParseError& e) {
    const std::string what = e.what();
    fuzz_check(what.rfind(source + ":", 0) == 0, "parse error without file:line:col", [&] { return what; });
    std::size_t lines = 1;
    for (const char c : input) lines += c == '\n';
    fuzz_check(e.line() >= 1 && e.line() <= lines + 1 && e.column() >= 1 && e.column() <= input.size() + 1,
               "parse error position outside the input", [&] { return what; });
    fuzz_check(what.size() < 2000, "parse error message too long", [&] { return what.substr(0, 300); });
    return;
  }
  for (const LpFormat out : {LpFormat::lp, LpFormat::mps}) {
    const char* name = out == LpFormat::lp ? "LP" : "MPS";
    std::string first, second;
    try {
      first = detail::write_in(out, model);
      const lp::Model back = detail::read_in(out, first, "first");
      const std::string again = detail::write_in(out, back);
      const lp::Model back2 = detail::read_in(out, again, "second");
      second = detail::write_in(out, back2);
      if (detail::has_huge_number(model)) continue;  // see has_huge_number
      fuzz_check(second == again, "write/read is not stable",
                 [&] { return std::string(name) + "\n--- once ---\n" + again + "--- twice ---\n" + second; });
    } catch (const lp::ModelError& e) {
      fuzz_failure("an accepted model does not write and read back",
                   std::string(name) + ": " + e.what() + "\n--- written ---\n" + first + "\n--- input ---\n" +
                       std::string(input));
    }
  }
}

}  // namespace kildall::fuzz
