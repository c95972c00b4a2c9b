#pragma once
/// \file
/// Human-readable algebra for expressions, constraints and whole models,
/// using the names the user gave (or `x<i>` / `r<i>`), e.g.
///
///     minimize cost: 2 x + 3 y + 1
///     subject to
///       c1: x + y >= 2
///       r1: 1 <= x - y <= 4
///     bounds
///       0 <= x <= 10, integer
///       y >= 0
///
/// For files that other solvers read, use lp_format.hpp / mps_format.hpp.

#include <cmath>
#include <cstddef>
#include <ostream>
#include <sstream>
#include <string>

#include <kildall/lp/model.hpp>
#include <kildall/lp/number_format.hpp>

namespace kildall::lp {

/// `expr` as algebra with the model's display names ("2 x - y + 3").
[[nodiscard]] inline std::string to_string(const LinExpr& expr, const Model& model) {
  std::string out;
  const LinExpr e = expr.normalized();
  for (const Term& t : e.terms()) {
    const double a = t.coefficient;
    if (out.empty()) {
      out += a < 0 ? "-" : "";
    } else {
      out += a < 0 ? " - " : " + ";
    }
    if (std::abs(a) != 1.0) out += format_number(std::abs(a)) + " ";
    out += model.display_name(t.var);
  }
  const double c = e.constant();
  if (out.empty()) return format_number(c);
  if (c != 0.0) out += (c < 0 ? " - " : " + ") + format_number(std::abs(c));
  return out;
}

/// A row as algebra: `name: lo <= expr <= hi` (one-sided and `=` forms as appropriate).
[[nodiscard]] inline std::string to_string(ConstraintRef ref, const Model& model) {
  const Row& r = model.row(ref);
  std::string out = model.display_name(ref) + ": ";
  const std::string e = to_string(r.expr, model);
  if (r.lower == r.upper) return out + e + " = " + format_number(r.lower);
  if (r.lower != -inf && r.upper != inf) return out + format_number(r.lower) + " <= " + e + " <= " + format_number(r.upper);
  if (r.lower != -inf) return out + e + " >= " + format_number(r.lower);
  if (r.upper != inf) return out + e + " <= " + format_number(r.upper);
  return out + e + " free";
}

/// Writes the whole model as algebra (all objective levels, live rows, bounds and types).
inline void print(const Model& model, std::ostream& out) {
  if (model.objectives().empty()) out << "find a feasible point\n";
  for (std::size_t k = 0; k < model.objectives().size(); ++k) {
    const Objective& o = model.objectives()[k];
    if (k > 0) out << "then ";
    out << (o.sense == Sense::minimize ? "minimize " : "maximize ") << (o.name.empty() ? "" : o.name + ": ")
        << to_string(o.expr, model) << "\n";
  }
  out << "subject to\n";
  for (std::size_t i = 0; i < model.num_row_slots(); ++i) {
    if (model.rows()[i].removed) continue;
    out << "  " << to_string(ConstraintRef(static_cast<std::uint32_t>(i)), model) << "\n";
  }
  out << "bounds\n";
  for (std::size_t j = 0; j < model.num_vars(); ++j) {
    const Var v(static_cast<std::uint32_t>(j));
    const VarInfo& i = model.vars()[j];
    const std::string n = model.display_name(v);
    out << "  ";
    if (i.lower == -inf && i.upper == inf) {
      out << n << " free";
    } else if (i.lower == i.upper) {
      out << n << " = " << format_number(i.lower);
    } else if (i.lower == -inf) {
      out << n << " <= " << format_number(i.upper);
    } else if (i.upper == inf) {
      out << n << " >= " << format_number(i.lower);
    } else {
      out << format_number(i.lower) << " <= " << n << " <= " << format_number(i.upper);
    }
    if (i.type != VarType::continuous) out << ", " << kildall::lp::to_string(i.type);
    out << "\n";
  }
}

/// The whole model as algebra (see print).
[[nodiscard]] inline std::string to_string(const Model& model) {
  std::ostringstream out;
  print(model, out);
  return out.str();
}

}  // namespace kildall::lp
