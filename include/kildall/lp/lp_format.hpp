#pragma once
/// \file
/// CPLEX LP file format: writer and reader (format as documented by IBM
/// ILOG CPLEX, "LP file format: algebraic representation", and as read by
/// `glpsol --lp`). The writer is kildall's own, not `glp_write_lp` (which
/// silently renames invalid or duplicate names): names come from NameTable
/// (valid, unique, deterministic), and the file stays within what GLPK's
/// reader accepts:
/// - the objective constant is the coefficient of a column
///   `kildall_objective_constant` fixed at 1 (GLPK reads no constants);
/// - a ranged row `lo <= e <= hi` is written as two rows `name: e >= lo` and
///   `name_hi: e <= hi` (GLPK reads no ranges; the MPS format keeps them);
/// - a free row (no finite bound) is left out, as a comment: GLPK reads no
///   infinite right-hand side, and a huge one such as -1e30 made GLPK 5.0
///   return a wrong "optimal" point in a test (the reader maps |rhs| >= 1e30
///   to infinity, the common convention);
/// - only the primary objective is written (other levels as comments).
/// The reader accepts the same subset of the format plus ranged rows
/// `lo <= expr <= hi`, constants in expressions, block comments, and the
/// common keyword spellings; errors are ParseError with `source:line:col`.

#include <cctype>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <istream>
#include <iterator>
#include <optional>
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

namespace detail {

inline void write_lp_terms(std::ostream& out, const LinExpr& expr, const NameTable& names) {
  std::size_t on_line = 0;
  bool first = true;
  for (const Term& t : expr.terms()) {
    if (on_line == 8) {
      out << "\n   ";
      on_line = 0;
    }
    const double a = t.coefficient;
    out << (a < 0 ? (first ? "-" : " -") : (first ? "" : " +"));
    if (std::abs(a) != 1.0) out << (first && a >= 0 ? "" : " ") << format_number(std::abs(a));
    out << ((first && a >= 0 && std::abs(a) == 1.0) ? "" : " ") << names.var(t.var);
    first = false;
    ++on_line;
  }
  if (first) out << "0 " << names.constant_column();
}

}  // namespace detail

/// Writes `model` in CPLEX LP format; returns the names used.
inline NameTable write_lp(const Model& model, std::ostream& out) {
  NameTable names(model, /*split_ranges=*/true);
  const Objective& obj = model.objective();
  out << "\\ kildall::lp model: " << model.num_vars() << " variables, " << model.num_constraints()
      << " constraints, " << model.num_nonzeros() << " nonzeros\n";
  for (std::size_t k = 1; k < model.objectives().size(); ++k) {
    out << "\\ lexicographic level " << (k + 1) << " (not solved from this file): "
        << (model.objectives()[k].sense == Sense::minimize ? "minimize" : "maximize") << "\n";
  }
  out << (obj.sense == Sense::minimize ? "Minimize\n" : "Maximize\n");
  out << " " << names.objective() << ": ";
  LinExpr objective = obj.expr;
  objective.set_constant(0.0);
  if (!objective.is_constant()) {
    detail::write_lp_terms(out, objective, names);
    out << " ";
  }
  // The constant column always appears, so that it exists for empty rows.
  const double c0 = obj.expr.constant();
  out << (c0 < 0 ? "- " : "+ ") << format_number(std::abs(c0)) << " " << names.constant_column() << "\n";
  out << "Subject To\n";
  for (std::size_t i = 0; i < model.num_row_slots(); ++i) {
    const Row& r = model.rows()[i];
    if (r.removed) continue;
    const ConstraintRef ref(static_cast<std::uint32_t>(i));
    auto row = [&](const std::string& name, const char* op, double rhs) {
      out << " " << name << ": ";
      detail::write_lp_terms(out, r.expr, names);
      out << " " << op << " " << format_number(rhs) << "\n";
    };
    if (r.lower == r.upper) {
      row(names.row(ref), "=", r.lower);
    } else if (NameTable::is_ranged(r)) {
      row(names.row(ref), ">=", r.lower);
      row(names.row_upper(ref), "<=", r.upper);
    } else if (r.lower != -inf) {
      row(names.row(ref), ">=", r.lower);
    } else if (r.upper != inf) {
      row(names.row(ref), "<=", r.upper);
    } else {
      out << "\\ free row " << names.row(ref) << " omitted\n";  // GLPK reads no infinite right-hand side
    }
  }
  out << "Bounds\n";
  std::vector<Var> generals, binaries;
  for (std::size_t j = 0; j < model.num_vars(); ++j) {
    const VarInfo& v = model.vars()[j];
    const Var var(static_cast<std::uint32_t>(j));
    const std::string& n = names.var(var);
    if (v.type == VarType::binary && v.lower == 0.0 && v.upper == 1.0) {
      binaries.push_back(var);
      continue;
    }
    if (v.is_integral()) generals.push_back(var);
    if (v.lower == 0.0 && v.upper == inf) continue;
    if (v.lower == -inf && v.upper == inf) {
      out << " " << n << " free\n";
    } else if (v.lower == v.upper) {
      out << " " << n << " = " << format_number(v.lower) << "\n";
    } else if (v.upper == inf) {
      out << " " << n << " >= " << format_number(v.lower) << "\n";
    } else {
      out << " " << format_number(v.lower) << " <= " << n << " <= " << format_number(v.upper) << "\n";
    }
  }
  out << " " << names.constant_column() << " = 1\n";
  auto list = [&](const char* title, const std::vector<Var>& vars) {
    if (vars.empty()) return;
    out << title << "\n";
    for (std::size_t k = 0; k < vars.size(); ++k) out << (k % 8 == 0 ? (k ? "\n " : " ") : " ") << names.var(vars[k]);
    out << "\n";
  };
  list("General", generals);
  list("Binary", binaries);
  out << "End\n";
  return names;
}

/// Writes `model` to an LP file; throws ModelError if the file cannot be written.
inline NameTable write_lp_file(const Model& model, const std::filesystem::path& path) {
  std::ofstream out(path);
  if (!out) throw ModelError("cannot open " + path.string() + " for writing");
  NameTable names = write_lp(model, out);
  out.flush();
  if (!out) throw ModelError("error writing " + path.string());
  return names;
}

namespace detail {

// Tokenizer and parser of CPLEX LP text.
class LpParser {
 public:
  LpParser(std::string text, std::string_view source) : text_(std::move(text)), source_(source) { advance(); }

  FileModel parse() {
    FileModel m;
    if (!section_keyword()) fail("expected 'Minimize' or 'Maximize'");
    Section s = section_;
    while (s != Section::end) {
      if (s == Section::objective_min || s == Section::objective_max) {
        m.sense = s == Section::objective_max ? Sense::maximize : Sense::minimize;
        next_section();
        if (tok_.kind == Kind::name && peek_colon()) {
          m.objective_name = tok_.text;
          advance();
          advance();
        }
        auto [terms, constant] = expression(m);
        m.objective = std::move(terms);
        m.objective_constant = constant;
      } else if (s == Section::constraints) {
        next_section();
        while (!at_section()) constraint(m);
      } else if (s == Section::bounds) {
        next_section();
        while (!at_section()) bound(m);
      } else if (s == Section::general || s == Section::binary) {
        next_section();
        while (!at_section()) {
          if (tok_.kind != Kind::name) fail("expected a variable name");
          VarInfo& v = m.vars[m.column(tok_.text)];
          if (s == Section::binary) {
            v = VarInfo{0.0, 1.0, VarType::binary, v.name};
          } else {
            v.type = VarType::integer;
          }
          advance();
        }
      } else {
        fail("unexpected section");
      }
      if (tok_.kind == Kind::eof) break;
      s = section_;
    }
    return m;
  }

 private:
  enum class Kind { name, number, colon, le, ge, eq, plus, minus, eof };
  enum class Section { none, objective_min, objective_max, constraints, bounds, general, binary, end };
  struct Token {
    Kind kind = Kind::eof;
    std::string text;
    double value = 0.0;
    std::size_t line = 1, column = 1;
    bool first_on_line = false;
  };

  [[noreturn]] void fail(const std::string& message) const { throw ParseError(source_, tok_.line, tok_.column, message); }

  static bool name_char(char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || std::string_view("!\"#$%&()/,.;?@_`'{}|~[]").find(c) != std::string_view::npos;
  }

  void advance() {
    bool newline = pos_ == 0;
    for (;;) {
      if (pos_ >= text_.size()) break;
      const char c = text_[pos_];
      if (c == '\n') {
        newline = true;
        ++line_;
        col_ = 1;
        ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
        ++col_;
      } else if (c == '\\') {
        if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
          const std::size_t close = text_.find("*\\", pos_ + 2);
          const std::size_t stop = close == std::string::npos ? text_.size() : close + 2;
          for (; pos_ < stop; ++pos_) {
            if (text_[pos_] == '\n') {
              ++line_;
              col_ = 1;
              newline = true;
            } else {
              ++col_;
            }
          }
        } else {
          while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
        }
      } else {
        break;
      }
    }
    tok_ = Token{};
    tok_.line = line_;
    tok_.column = col_;
    tok_.first_on_line = newline;
    if (pos_ >= text_.size()) {
      tok_.kind = Kind::eof;
      return;
    }
    const std::size_t start = pos_;
    const char c = text_[pos_];
    auto take = [&](std::size_t n, Kind k) {
      pos_ += n;
      col_ += n;
      tok_.kind = k;
      tok_.text = text_.substr(start, n);
    };
    const char d = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(d)))) {
      std::size_t end = pos_;
      while (end < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[end])) || text_[end] == '.')) ++end;
      if (end < text_.size() && (text_[end] == 'e' || text_[end] == 'E')) {
        std::size_t e = end + 1;
        if (e < text_.size() && (text_[e] == '+' || text_[e] == '-')) ++e;
        if (e < text_.size() && std::isdigit(static_cast<unsigned char>(text_[e]))) {
          while (e < text_.size() && std::isdigit(static_cast<unsigned char>(text_[e]))) ++e;
          end = e;
        }
      }
      take(end - pos_, Kind::number);
      const auto v = parse_number(tok_.text);
      if (!v) fail("invalid number '" + tok_.text + "'");
      tok_.value = *v;
    } else if (c == '<') {
      take(d == '=' ? 2 : 1, Kind::le);
    } else if (c == '>') {
      take(d == '=' ? 2 : 1, Kind::ge);
    } else if (c == '=') {
      if (d == '<') {
        take(2, Kind::le);
      } else if (d == '>') {
        take(2, Kind::ge);
      } else {
        take(1, Kind::eq);
      }
    } else if (c == '+') {
      take(1, Kind::plus);
    } else if (c == '-') {
      take(1, Kind::minus);
    } else if (c == ':') {
      take(1, Kind::colon);
    } else if (name_char(c)) {
      std::size_t end = pos_;
      while (end < text_.size() && name_char(text_[end])) ++end;
      take(end - pos_, Kind::name);
      if (tok_.text.size() > max_name_length) fail("name longer than 255 characters");
    } else {
      take(1, Kind::eof);
      fail(std::string("unexpected character '") + c + "'");
    }
  }

  [[nodiscard]] static std::string lower(std::string_view s) {
    std::string out;
    for (char c : s) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    return out;
  }

  // If the current token starts a section, records it in section_.
  bool section_keyword() {
    if (tok_.kind != Kind::name || !tok_.first_on_line) return false;
    const std::string w = lower(tok_.text);
    if (w == "minimize" || w == "minimise" || w == "minimum" || w == "min") return set(Section::objective_min, 1);
    if (w == "maximize" || w == "maximise" || w == "maximum" || w == "max") return set(Section::objective_max, 1);
    if (w == "st" || w == "s.t." || w == "st.") return set(Section::constraints, 1);
    if ((w == "subject" || w == "such") && !peek_colon()) return set(Section::constraints, 2);
    if (w == "bounds" || w == "bound") return set(Section::bounds, 1);
    if (w == "general" || w == "generals" || w == "gen" || w == "integer" || w == "integers") {
      return set(Section::general, 1);
    }
    if (w == "binary" || w == "binaries" || w == "bin") return set(Section::binary, 1);
    if (w == "end") return set(Section::end, 1);
    return false;
  }
  bool set(Section s, int words) {
    section_ = s;
    section_words_ = words;
    return true;
  }
  bool at_section() { return tok_.kind == Kind::eof || section_keyword(); }
  void next_section() {
    for (int k = 0; k < section_words_; ++k) advance();
  }
  [[nodiscard]] bool peek_colon() const {
    std::size_t p = pos_;
    while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\r')) ++p;
    return p < text_.size() && text_[p] == ':';
  }

  struct State {
    Token tok;
    std::size_t pos, line, col;
  };
  [[nodiscard]] State save() const { return State{tok_, pos_, line_, col_}; }
  void restore(const State& s) {
    tok_ = s.tok;
    pos_ = s.pos;
    line_ = s.line;
    col_ = s.col;
  }

  // [sign] (number | inf | infinity); consumes nothing when absent.
  std::optional<double> signed_value() {
    const State saved = save();
    double sign = 1.0;
    if (tok_.kind == Kind::plus || tok_.kind == Kind::minus) {
      sign = tok_.kind == Kind::minus ? -1.0 : 1.0;
      advance();
    }
    if (tok_.kind == Kind::number) {
      const double v = tok_.value;
      advance();
      return sign * v;
    }
    if (tok_.kind == Kind::name && (lower(tok_.text) == "inf" || lower(tok_.text) == "infinity")) {
      advance();
      return sign * inf;
    }
    restore(saved);
    return std::nullopt;
  }

  // A constant followed by a comparison operator; consumes nothing otherwise.
  std::optional<double> leading_constant() {
    const State saved = save();
    auto v = signed_value();
    if (v && (tok_.kind == Kind::le || tok_.kind == Kind::ge || tok_.kind == Kind::eq)) return v;
    restore(saved);
    return std::nullopt;
  }

  // Terms until an operator, a label or a section; returns (terms, constant).
  std::pair<std::vector<std::pair<std::size_t, double>>, double> expression(FileModel& m) {
    std::vector<std::pair<std::size_t, double>> terms;
    double constant = 0.0;
    bool first = true;
    const Token start = tok_;
    for (;;) {
      if (at_section()) break;
      double sign = 1.0;
      if (tok_.kind == Kind::plus || tok_.kind == Kind::minus) {
        sign = tok_.kind == Kind::minus ? -1.0 : 1.0;
        advance();
      } else if (!first) {
        break;
      }
      if (tok_.kind == Kind::number) {
        const double a = sign * tok_.value;
        advance();
        if (tok_.kind == Kind::name && !at_section() && !peek_colon()) {
          terms.emplace_back(m.column(tok_.text), a);
          advance();
        } else {
          constant += a;
        }
      } else if (tok_.kind == Kind::name && !peek_colon()) {
        terms.emplace_back(m.column(tok_.text), sign);
        advance();
      } else if (first) {
        break;
      } else {
        fail("expected a number or a variable name");
      }
      first = false;
    }
    // Sums of finite numbers can overflow (the model would reject them without a position).
    // When the sum of all magnitudes is finite no merged coefficient can overflow.
    double magnitude = 0.0;
    for (const auto& [j, a] : terms) magnitude += std::abs(a);
    if (!std::isfinite(magnitude) || !std::isfinite(constant)) {
      std::unordered_map<std::size_t, double> merged;
      for (const auto& [j, a] : terms) merged[j] += a;
      bool finite = std::isfinite(constant);
      for (const auto& [j, a] : merged) finite = finite && std::isfinite(a);
      if (!finite) throw ParseError(source_, start.line, start.column, "coefficient or constant overflows to infinity");
    }
    return {std::move(terms), constant};
  }

  // A row's bounds as the model accepts them: a bound of magnitude >= 1e30 is
  // infinite (however it was written); errors point at the row's start.
  void check_row(FileModel::FileRow& row, const Token& start) const {
    for (double* bound : {&row.lower, &row.upper})
      if (std::isfinite(*bound) && std::abs(*bound) >= 1e30) *bound = *bound > 0 ? inf : -inf;
    if (std::isnan(row.lower) || std::isnan(row.upper) || row.lower == inf || row.upper == -inf)
      throw ParseError(source_, start.line, start.column, "constraint with an infinite or undefined right-hand side");
  }

  void constraint(FileModel& m) {
    FileModel::FileRow row;
    const Token start = tok_;
    if (tok_.kind == Kind::name && peek_colon()) {
      row.name = tok_.text;
      advance();
      advance();
    }
    // Constant on the left: `lo <= expr [<= hi]` or `hi >= expr [>= lo]` or `c = expr`.
    if (auto left = leading_constant()) {
      const Kind op1 = tok_.kind;
      advance();
      auto [terms, constant] = expression(m);
      row.terms = std::move(terms);
      const double a = *left - constant;
      if (op1 == Kind::le) row.lower = a;
      if (op1 == Kind::ge) row.upper = a;
      if (op1 == Kind::eq) row.lower = row.upper = a;
      if (op1 != Kind::eq && tok_.kind == op1) {
        advance();
        auto right = signed_value();
        if (!right) fail("expected a number");
        (op1 == Kind::le ? row.upper : row.lower) = *right - constant;
      }
      check_row(row, start);
      m.rows.push_back(std::move(row));
      return;
    }
    auto [terms, constant] = expression(m);
    if (terms.empty() && constant == 0.0) fail("expected a constraint");
    const Kind op = tok_.kind;
    if (op != Kind::le && op != Kind::ge && op != Kind::eq) fail("expected '<=', '>=' or '='");
    advance();
    auto rhs = signed_value();
    if (!rhs) fail("expected a number on the right-hand side");
    if (std::abs(*rhs) >= 1e30) *rhs = *rhs > 0 ? inf : -inf;  // the usual "infinite" right-hand side
    row.terms = std::move(terms);
    const double b = *rhs - constant;
    if (op != Kind::ge) row.upper = b;
    if (op != Kind::le) row.lower = b;
    check_row(row, start);
    m.rows.push_back(std::move(row));
  }

  void bound(FileModel& m) {
    at_ = tok_;
    if (auto v = leading_constant()) {  // value op name [op value]
      const Kind op = tok_.kind;
      advance();
      if (tok_.kind != Kind::name) fail("expected a variable name");
      VarInfo& var = m.vars[m.column(tok_.text)];
      advance();
      apply(var, op == Kind::le ? Kind::ge : op == Kind::ge ? Kind::le : Kind::eq, *v);
      if (tok_.kind == Kind::le || tok_.kind == Kind::ge) {
        const Kind op2 = tok_.kind;
        advance();
        at_ = tok_;
        auto w = signed_value();
        if (!w) fail("expected a number");
        apply(var, op2, *w);
      }
      return;
    }
    if (tok_.kind != Kind::name) fail("expected a bound");
    VarInfo& var = m.vars[m.column(tok_.text)];
    advance();
    if (tok_.kind == Kind::name && lower(tok_.text) == "free") {
      if (var.type == VarType::binary) fail("bound outside [0, 1] on a binary variable");
      var.lower = -inf;
      var.upper = inf;
      advance();
      return;
    }
    const Kind op = tok_.kind;
    if (op != Kind::le && op != Kind::ge && op != Kind::eq) fail("expected '<=', '>=', '=' or 'free'");
    advance();
    at_ = tok_;
    auto w = signed_value();
    if (!w) fail("expected a number");
    apply(var, op, *w);
  }

  // Applies "var op value"; errors point at the bound's value (at_).
  void apply(VarInfo& var, Kind op, double value) {
    auto bad = [&](const char* message) { throw ParseError(source_, at_.line, at_.column, message); };
    if (op == Kind::le) {
      if (value == -inf) bad("upper bound -inf");
      var.upper = value;
    } else if (op == Kind::ge) {
      if (value == inf) bad("lower bound +inf");
      var.lower = value;
    } else {
      if (std::isinf(value)) bad("variable fixed at an infinite value");
      var.lower = var.upper = value;
    }
    if (var.type == VarType::binary && (var.lower < 0.0 || var.upper > 1.0)) bad("bound outside [0, 1] on a binary variable");
  }

  std::string text_;
  std::string_view source_;
  std::size_t pos_ = 0, line_ = 1, col_ = 1;
  Token tok_;
  Token at_;  // start of the bound being parsed (for error positions)
  Section section_ = Section::none;
  int section_words_ = 1;
};

}  // namespace detail

/// Reads a model in CPLEX LP format; throws ParseError (`source:line:col: ...`).
[[nodiscard]] inline Model read_lp(std::istream& in, std::string_view source = "<input>") {
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return detail::LpParser(std::move(text), source).parse().build();
}

/// Reads an LP file; throws ModelError if it cannot be opened, ParseError on bad content.
[[nodiscard]] inline Model read_lp_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw ModelError("cannot open " + path.string());
  return read_lp(in, path.string());
}

}  // namespace kildall::lp
