#pragma once
/// \file
/// Free MPS format: writer and reader (the column-oriented format of IBM's
/// MPSX, free variant as read by `glpsol --freemps`, CBC and CPLEX). Names
/// come from NameTable (valid, unique, no spaces). Ranged rows are written as
/// `G` rows with a RANGES entry, integer columns between `INTORG`/`INTEND`
/// markers with explicit bounds (readers disagree on default integer
/// bounds), binaries as `BV`. The objective constant is a column fixed at 1
/// (the sign of an RHS entry on the objective row differs between GLPK and
/// CPLEX). A maximize model gets an `OBJSENSE MAX` section unless
/// `write_objsense` is false (GLPK 5.0's reader rejects that section: use
/// `glpsol --max` then). The reader accepts the same plus fixed-format files
/// without spaces in names; errors are ParseError with `source:line:col`.

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <kildall/lp/detail/file_model.hpp>
#include <kildall/lp/error.hpp>
#include <kildall/lp/model.hpp>
#include <kildall/lp/names.hpp>
#include <kildall/lp/number_format.hpp>

namespace kildall::lp {

/// Options of the MPS writer.
struct MpsWriteOptions {
  /// Write `OBJSENSE MAX` for maximize models (false: the sense is lost; pass
  /// `--max` to glpsol).
  bool write_objsense = true;
};

/// Writes `model` in free MPS format; returns the names used. Only the
/// primary objective is written.
inline NameTable write_mps(const Model& model, std::ostream& out, const MpsWriteOptions& options = {}) {
  NameTable names(model);
  const Objective& obj = model.objective();
  out << "* kildall::lp model: " << model.num_vars() << " variables, " << model.num_constraints() << " constraints\n";
  out << "NAME kildall\n";
  if (obj.sense == Sense::maximize) out << (options.write_objsense ? "OBJSENSE\n    MAX\n" : "* maximize (pass --max)\n");
  out << "ROWS\n N " << names.objective() << "\n";
  for (std::size_t i = 0; i < model.num_row_slots(); ++i) {
    const Row& r = model.rows()[i];
    if (r.removed) continue;
    const char* type = r.lower == r.upper ? "E" : r.lower != -inf ? "G" : r.upper != inf ? "L" : "N";
    out << " " << type << " " << names.row(ConstraintRef(static_cast<std::uint32_t>(i))) << "\n";
  }
  // Columns: gather entries column-wise.
  std::vector<std::vector<std::pair<std::uint32_t, double>>> entries(model.num_vars());
  for (std::size_t i = 0; i < model.num_row_slots(); ++i) {
    const Row& r = model.rows()[i];
    if (r.removed) continue;
    for (const Term& t : r.expr.terms()) entries[t.var.index()].emplace_back(static_cast<std::uint32_t>(i), t.coefficient);
  }
  std::vector<double> cost(model.num_vars(), 0.0);
  for (const Term& t : obj.expr.terms()) cost[t.var.index()] += t.coefficient;
  out << "COLUMNS\n";
  bool in_integer = false;
  std::size_t marker = 0;
  for (std::size_t j = 0; j < model.num_vars(); ++j) {
    const Var var(static_cast<std::uint32_t>(j));
    const bool integral = model.vars()[j].is_integral();
    if (integral != in_integer) {
      out << " MARKER" << marker++ << " 'MARKER' " << (integral ? "'INTORG'" : "'INTEND'") << "\n";
      in_integer = integral;
    }
    const std::string& n = names.var(var);
    if (cost[j] != 0.0 || entries[j].empty()) out << " " << n << " " << names.objective() << " " << format_number(cost[j]) << "\n";
    for (const auto& [row, a] : entries[j]) {
      out << " " << n << " " << names.row(ConstraintRef(row)) << " " << format_number(a) << "\n";
    }
  }
  if (in_integer) out << " MARKER" << marker++ << " 'MARKER' 'INTEND'\n";
  out << " " << names.constant_column() << " " << names.objective() << " " << format_number(obj.expr.constant()) << "\n";
  out << "RHS\n";
  for (std::size_t i = 0; i < model.num_row_slots(); ++i) {
    const Row& r = model.rows()[i];
    if (r.removed) continue;
    const double rhs = r.lower != -inf ? r.lower : r.upper != inf ? r.upper : 0.0;
    if (rhs != 0.0) out << " RHS " << names.row(ConstraintRef(static_cast<std::uint32_t>(i))) << " " << format_number(rhs) << "\n";
  }
  bool ranges_header = false;
  for (std::size_t i = 0; i < model.num_row_slots(); ++i) {
    const Row& r = model.rows()[i];
    if (r.removed || !NameTable::is_ranged(r)) continue;
    if (!ranges_header) out << "RANGES\n";
    ranges_header = true;
    out << " RNG " << names.row(ConstraintRef(static_cast<std::uint32_t>(i))) << " " << format_number(r.upper - r.lower) << "\n";
  }
  out << "BOUNDS\n";
  for (std::size_t j = 0; j < model.num_vars(); ++j) {
    const VarInfo& v = model.vars()[j];
    const std::string& n = names.var(Var(static_cast<std::uint32_t>(j)));
    auto line = [&](const char* type, double value, bool with_value = true) {
      out << " " << type << " BND " << n;
      if (with_value) out << " " << format_number(value);
      out << "\n";
    };
    if (v.type == VarType::binary && v.lower == 0.0 && v.upper == 1.0) {
      line("BV", 0.0, false);
    } else if (v.lower == v.upper) {
      line("FX", v.lower);
    } else if (v.lower == -inf && v.upper == inf) {
      line("FR", 0.0, false);
    } else {
      if (v.lower == -inf) line("MI", 0.0, false);
      if (v.lower != -inf && (v.lower != 0.0 || v.upper < 0.0 || v.is_integral())) line("LO", v.lower);
      if (v.upper != inf) {
        line("UP", v.upper);
      } else if (v.is_integral()) {
        line("PL", 0.0, false);
      }
    }
  }
  out << " FX BND " << names.constant_column() << " 1\n";
  out << "ENDATA\n";
  return names;
}

/// Writes `model` to a free MPS file; throws ModelError if it cannot be written.
inline NameTable write_mps_file(const Model& model, const std::filesystem::path& path, const MpsWriteOptions& options = {}) {
  std::ofstream out(path);
  if (!out) throw ModelError("cannot open " + path.string() + " for writing");
  NameTable names = write_mps(model, out, options);
  out.flush();
  if (!out) throw ModelError("error writing " + path.string());
  return names;
}

/// Reads a model in free MPS format; throws ParseError (`source:line:col: ...`).
[[nodiscard]] inline Model read_mps(std::istream& in, std::string_view source = "<input>") {
  detail::FileModel m;
  enum class Section { none, name, objsense, rows, columns, rhs, ranges, bounds, done };
  Section section = Section::none;
  std::unordered_map<std::string, std::size_t> row_index;  // row name -> index in m.rows
  std::unordered_map<std::size_t, char> row_type;
  std::string objective;
  bool integer_block = false;
  std::string line;
  std::size_t line_no = 0;
  struct Field {
    std::string text;
    std::size_t column;
  };
  while (section != Section::done && std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '*') continue;
    std::vector<Field> f;
    for (std::size_t p = 0; p < line.size();) {
      while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
      if (p >= line.size()) break;
      std::size_t e = p;
      while (e < line.size() && line[e] != ' ' && line[e] != '\t') ++e;
      f.push_back(Field{line.substr(p, e - p), p + 1});
      p = e;
    }
    if (f.empty()) continue;
    auto fail = [&](std::size_t field, const std::string& message) -> void {
      throw ParseError(source, line_no, field < f.size() ? f[field].column : line.size() + 1, message);
    };
    auto number = [&](std::size_t field) {
      if (field >= f.size()) fail(field, "missing number");
      const auto v = parse_number(f[field].text);
      if (!v) fail(field, "invalid number '" + f[field].text + "'");
      return *v;
    };
    auto find_row = [&](std::size_t field) -> std::size_t {
      auto it = row_index.find(f[field].text);
      if (it == row_index.end()) fail(field, "unknown row '" + f[field].text + "'");
      return it->second;
    };
    if (line[0] != ' ' && line[0] != '\t') {  // section header
      const std::string& h = f[0].text;
      if (h == "NAME") {
        section = Section::name;
      } else if (h == "OBJSENSE") {
        section = Section::objsense;
        if (f.size() > 1) {
          if (f[1].text == "MAX" || f[1].text == "MAXIMIZE") m.sense = Sense::maximize;
          else if (f[1].text != "MIN" && f[1].text != "MINIMIZE") fail(1, "expected MIN or MAX");
        }
      } else if (h == "ROWS") {
        section = Section::rows;
      } else if (h == "COLUMNS") {
        section = Section::columns;
      } else if (h == "RHS") {
        section = Section::rhs;
      } else if (h == "RANGES") {
        section = Section::ranges;
      } else if (h == "BOUNDS") {
        section = Section::bounds;
      } else if (h == "ENDATA") {
        section = Section::done;
      } else {
        fail(0, "unknown section '" + h + "'");
      }
      continue;
    }
    switch (section) {
      case Section::objsense:
        if (f[0].text == "MAX" || f[0].text == "MAXIMIZE") m.sense = Sense::maximize;
        else if (f[0].text != "MIN" && f[0].text != "MINIMIZE") fail(0, "expected MIN or MAX");
        break;
      case Section::rows: {
        if (f.size() != 2) fail(0, "expected a row type and a row name");
        const std::string& t = f[0].text;
        if (t != "N" && t != "E" && t != "L" && t != "G") fail(0, "row type must be N, E, L or G");
        if (t == "N" && objective.empty()) {
          objective = f[1].text;
          m.objective_name = objective;
          break;
        }
        if (f[1].text == objective || row_index.contains(f[1].text)) fail(1, "duplicate row '" + f[1].text + "'");
        row_index[f[1].text] = m.rows.size();
        row_type[m.rows.size()] = t[0];
        detail::FileModel::FileRow r;
        r.name = f[1].text;
        if (t == "E") r.lower = r.upper = 0.0;
        if (t == "L") r.upper = 0.0;
        if (t == "G") r.lower = 0.0;
        m.rows.push_back(std::move(r));
        break;
      }
      case Section::columns: {
        if (f.size() >= 3 && f[1].text == "'MARKER'") {
          if (f[2].text == "'INTORG'") integer_block = true;
          else if (f[2].text == "'INTEND'") integer_block = false;
          else fail(2, "expected 'INTORG' or 'INTEND'");
          break;
        }
        if (f.size() != 3 && f.size() != 5) fail(0, "expected: column row value [row value]");
        const bool is_new = !m.var_index.contains(f[0].text);
        const std::size_t j = m.column(f[0].text);
        if (is_new && integer_block) m.vars[j].type = VarType::integer;
        for (std::size_t k = 1; k + 1 < f.size(); k += 2) {
          const double a = number(k + 1);
          if (std::isinf(a)) fail(k + 1, "infinite coefficient");
          if (f[k].text == objective) {
            m.objective.emplace_back(j, a);
          } else {
            m.rows[find_row(k)].terms.emplace_back(j, a);
          }
        }
        break;
      }
      case Section::rhs:
      case Section::ranges: {
        // Optional set name: an odd field count has it.
        const std::size_t first = f.size() % 2 == 1 ? 1 : 0;
        if (f.size() < first + 2) fail(0, "expected: [set] row value [row value]");
        for (std::size_t k = first; k + 1 < f.size(); k += 2) {
          const double v = number(k + 1);
          if (f[k].text == objective) {
            fail(k, "RHS on the objective row is ambiguous (GLPK and CPLEX read its sign differently); "
                    "use a column fixed at 1 for an objective constant");
          }
          const std::size_t i = find_row(k);
          auto& r = m.rows[i];
          const char t = row_type[i];
          if (section == Section::rhs) {
            if (t == 'E') r.lower = r.upper = v;
            if (t == 'L') r.upper = v;
            if (t == 'G') r.lower = v;
          } else {
            const double rhs = t == 'L' ? r.upper : r.lower;
            if (t == 'G') r.upper = rhs + std::abs(v);
            if (t == 'L') r.lower = rhs - std::abs(v);
            if (t == 'E') (v >= 0 ? r.upper : r.lower) = rhs + v;
          }
          // A row bound of magnitude >= 1e30 is infinite (the LP reader's convention).
          for (double* bound : {&r.lower, &r.upper})
            if (std::isfinite(*bound) && std::abs(*bound) >= 1e30) *bound = *bound > 0 ? inf : -inf;
          if (std::isnan(r.lower) || std::isnan(r.upper) || r.lower == inf || r.upper == -inf)
            fail(k + 1, "infinite right-hand side on the wrong side of row '" + f[k].text + "'");
        }
        break;
      }
      case Section::bounds: {
        const std::string& t = f[0].text;
        const bool needs_value = t == "UP" || t == "LO" || t == "FX" || t == "LI" || t == "UI";
        const bool no_value = t == "FR" || t == "MI" || t == "PL" || t == "BV";
        if (!needs_value && !no_value) fail(0, "unknown bound type '" + t + "'");
        std::size_t col_field = 1;
        if (needs_value && f.size() == 4) col_field = 2;
        else if (no_value && f.size() >= 3) col_field = 2;
        else if (!(needs_value && f.size() == 3) && !(no_value && f.size() == 2)) fail(0, "malformed bound");
        auto it = m.var_index.find(f[col_field].text);
        if (it == m.var_index.end()) fail(col_field, "unknown column '" + f[col_field].text + "'");
        VarInfo& v = m.vars[it->second];
        const double value = needs_value ? number(col_field + 1) : 0.0;
        if (t == "UP" || t == "UI") {
          v.upper = value;
          if (value < 0 && v.lower == 0.0) v.lower = -inf;  // MPS convention for a negative UP
        }
        if (t == "LO" || t == "LI") v.lower = value;
        if (t == "UI" || t == "LI") v.type = VarType::integer;
        if (t == "FX") v.lower = v.upper = value;
        if (t == "FR") v.lower = -inf, v.upper = inf;
        if (t == "MI") v.lower = -inf;
        if (t == "PL") v.upper = inf;
        if (t == "BV") v = VarInfo{0.0, 1.0, VarType::binary, v.name};
        if (v.lower == inf || v.upper == -inf) fail(col_field + 1, "infinite bound on the wrong side");
        // A later bound may not take a BV column outside [0, 1] (the model
        // builder would reject it without a position); LI/UI make it integer.
        if (v.type == VarType::binary && (v.lower < 0.0 || v.upper > 1.0))
          fail(needs_value ? col_field + 1 : 0, "bound outside [0, 1] on a binary variable");
        break;
      }
      default:
        fail(0, "data outside of a section");
    }
  }
  if (section != Section::done) throw ParseError(source, line_no + 1, 1, "missing ENDATA");
  if (objective.empty()) throw ParseError(source, line_no, 1, "no objective (N) row");
  return m.build();
}

/// Reads a free MPS file; throws ModelError if it cannot be opened, ParseError on bad content.
[[nodiscard]] inline Model read_mps_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw ModelError("cannot open " + path.string());
  return read_mps(in, path.string());
}

}  // namespace kildall::lp
