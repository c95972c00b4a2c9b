#pragma once
/// \file
/// File-safe, unique names for a model's variables and rows, as written to
/// CPLEX LP and MPS files. GLPK's own `glp_write_lp` silently rewrites
/// invalid or duplicate names; kildall instead computes the names itself,
/// deterministically, and keeps the mapping:
/// - characters outside `[A-Za-z0-9_.()]` become `_` (`[`/`]` become `(`/`)`,
///   so `noise[3]` stays readable as `noise(3)`);
/// - names that start with a digit or `.`, that look like a number exponent
///   (`e12`) or that are LP keywords (`free`, `inf`, `st`, ...) get a `_` prefix;
/// - names are cut to 255 characters (GLPK's and CPLEX's limit);
/// - duplicates get `_2`, `_3`, ... in index order; named entities are
///   placed before unnamed ones, which get `x<i>` / `r<i>`.

#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <kildall/lp/model.hpp>

namespace kildall::lp {

/// Longest name written to LP/MPS files.
inline constexpr std::size_t max_name_length = 255;

/// Name of the fixed-at-1 column that carries the objective constant in LP
/// and MPS files (neither GLPK's LP reader nor a portable MPS file has an
/// objective constant). kildall's readers fold it back into the constant.
inline constexpr std::string_view objective_constant_name = "kildall_objective_constant";

/// `name` made valid for CPLEX LP and free MPS files (not yet unique).
[[nodiscard]] inline std::string sanitize_name(std::string_view name) {
  std::string out;
  out.reserve(name.size() + 1);
  for (char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '_' || c == '.' || c == '(' || c == ')') {
      out.push_back(ch);
    } else if (c == '[') {
      out.push_back('(');
    } else if (c == ']') {
      out.push_back(')');
    } else {
      out.push_back('_');
    }
  }
  if (out.empty()) return out;
  std::string lower;
  for (char ch : out) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  static const std::unordered_set<std::string> keywords = {
      "min", "minimize", "minimise", "minimum", "max", "maximize", "maximise", "maximum", "st", "s.t.", "st.",
      "subject", "such", "to", "that", "bound", "bounds", "gen", "general", "generals", "int", "integer", "integers",
      "bin", "binary", "binaries", "end", "free", "inf", "infinity", "semi", "semis", "semi-continuous", "sos"};
  const bool exponent_like = (lower[0] == 'e') && out.size() > 1 &&
                             (std::isdigit(static_cast<unsigned char>(out[1])) || out[1] == '.');
  if (std::isdigit(static_cast<unsigned char>(out[0])) || out[0] == '.' || exponent_like || keywords.contains(lower)) {
    out.insert(out.begin(), '_');
  }
  if (out.size() > max_name_length) out.resize(max_name_length);
  return out;
}

/// Valid, unique names for every variable and row of a model (see file comment).
class NameTable {
 public:
  /// Computes the names for `model`. With `split_ranges`, every ranged row
  /// (both bounds finite and different) also gets a second unique name for
  /// its upper half (`<name>_hi`), for formats that cannot express ranges.
  explicit NameTable(const Model& model, bool split_ranges = false) {
    objective_ = take(sanitize_name(model.objective().name.empty() ? "obj" : model.objective().name), rows_used_);
    constant_ = take(std::string(objective_constant_name), cols_used_);
    vars_.resize(model.num_vars());
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t j = 0; j < model.num_vars(); ++j) {
        const std::string clean = sanitize_name(model.vars()[j].name);
        if (clean.empty() != (pass == 1)) continue;
        vars_[j] = take(clean.empty() ? std::string("x").append(std::to_string(j)) : clean, cols_used_);
      }
    }
    rows_.resize(model.num_row_slots());
    upper_rows_.resize(model.num_row_slots());
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t i = 0; i < model.num_row_slots(); ++i) {
        const Row& r = model.rows()[i];
        if (r.removed) continue;
        const std::string clean = sanitize_name(r.name);
        if (clean.empty() != (pass == 1)) continue;
        rows_[i] = take(clean.empty() ? std::string("r").append(std::to_string(i)) : clean, rows_used_);
      }
    }
    if (split_ranges) {
      for (std::size_t i = 0; i < model.num_row_slots(); ++i) {
        const Row& r = model.rows()[i];
        if (!r.removed && is_ranged(r)) upper_rows_[i] = take(rows_[i] + "_hi", rows_used_);
      }
    }
  }

  /// True for a row with two different finite bounds.
  [[nodiscard]] static bool is_ranged(const Row& r) noexcept {
    return r.lower != -inf && r.upper != inf && r.lower != r.upper;
  }
  /// File name of a variable.
  [[nodiscard]] const std::string& var(Var v) const { return vars_.at(v.index()); }
  /// File name of a row slot (empty for removed rows).
  [[nodiscard]] const std::string& row(ConstraintRef r) const { return rows_.at(r.index()); }
  /// File name of a ranged row's upper half (only with `split_ranges`).
  [[nodiscard]] const std::string& row_upper(ConstraintRef r) const { return upper_rows_.at(r.index()); }
  /// File name of the objective row.
  [[nodiscard]] const std::string& objective() const noexcept { return objective_; }
  /// File name of the objective-constant column (see objective_constant_name).
  [[nodiscard]] const std::string& constant_column() const noexcept { return constant_; }

 private:
  static std::string take(std::string base, std::unordered_set<std::string>& used) {
    if (base.size() > max_name_length) base.resize(max_name_length);
    if (!used.contains(base)) {
      used.insert(base);
      return base;
    }
    if (base.size() > max_name_length - 12) base.resize(max_name_length - 12);
    for (std::size_t k = 2;; ++k) {
      std::string candidate = base + std::string("_").append(std::to_string(k));
      if (!used.contains(candidate)) {
        used.insert(candidate);
        return candidate;
      }
    }
  }

  std::vector<std::string> vars_, rows_, upper_rows_;
  std::string objective_, constant_;
  std::unordered_set<std::string> cols_used_, rows_used_;
};

}  // namespace kildall::lp
