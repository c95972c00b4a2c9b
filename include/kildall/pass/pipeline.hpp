#pragma once
/// \file
/// MLIR's textual pass-pipeline grammar, parsed into a tree that knows no IR
/// and no pass: `builtin.module(func.func(sccp,canonicalize{max-iterations=3}))`.
///
/// Grammar (MLIR's `PassPipelineParser`, docs "Textual Pass Pipeline Specification"):
///
///     pipeline  ::= element (',' element)*
///     element   ::= name ( '(' pipeline? ')' | '{' options '}' )?
///     options   ::= (key ('=' value)?)*          separated by spaces
///     value     ::= text without spaces or '}', | '{' ... '}' (balanced) | '"' ... '"'
///
/// A name followed by `(...)` is an anchor (an op name the nested pipeline
/// runs on); otherwise it names a pass, with its options in `{...}`. Errors
/// are `PipelineError`s carrying the 1-based column of the offending
/// character, reported like MLIR's parser: `1:col: error: message`.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kildall::pass {

/// One `key=value` of a pass's options (`value` empty and `has_value` false for a bare `key`).
struct PipelineOption {
  std::string key;         ///< The option's name.
  std::string value;       ///< Its value, quotes and outer braces removed.
  bool has_value = false;  ///< Whether `=value` was written.
  std::size_t column = 0;  ///< 1-based column of the key in the pipeline text.
  /// Equal key, value and presence (columns are ignored).
  friend bool operator==(const PipelineOption& a, const PipelineOption& b) {
    return a.key == b.key && a.value == b.value && a.has_value == b.has_value;
  }
};

/// One element of a pipeline: a pass with options, or an anchor with a nested pipeline.
struct PipelineElement {
  std::string name;                      ///< Pass argument (`sccp`) or op name (`func.func`).
  std::vector<PipelineOption> options;   ///< A pass's options, in order.
  std::vector<PipelineElement> nested;   ///< An anchor's nested pipeline.
  bool is_anchor = false;                ///< Written as `name(...)`.
  std::size_t column = 0;                ///< 1-based column of the name.
};

/// A syntax error in a pipeline text (or, raised by a pass manager, an unknown
/// pass or option), at a 1-based column.
class PipelineError : public std::runtime_error {
 public:
  /// `message` at `column`; `what()` is `1:<column>: error: <message>`.
  PipelineError(std::size_t column, const std::string& message)
      : std::runtime_error("1:" + std::to_string(column) + ": error: " + message), column_(column), message_(message) {}
  /// The 1-based column.
  [[nodiscard]] std::size_t column() const noexcept { return column_; }
  /// The message without the position.
  [[nodiscard]] const std::string& message() const noexcept { return message_; }

 private:
  std::size_t column_;
  std::string message_;
};

namespace detail {

/// Recursive-descent parser over the pipeline text.
class PipelineParser {
 public:
  explicit PipelineParser(std::string_view text) : text_(text) {}

  std::vector<PipelineElement> parse() {
    skip_spaces();
    if (at_end()) return {};
    std::vector<PipelineElement> out = parse_list(0);
    skip_spaces();
    if (!at_end()) {
      if (text_[pos_] == ')') fail("encountered extra closing ')' creating unbalanced parentheses while parsing pipeline");
      fail("expected ',' or end of pipeline, got '" + std::string(1, text_[pos_]) + "'");
    }
    return out;
  }

 private:
  static constexpr std::size_t max_depth = 64;

  [[nodiscard]] bool at_end() const { return pos_ >= text_.size(); }
  void skip_spaces() {
    while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  [[noreturn]] void fail(const std::string& message) const { throw PipelineError(pos_ + 1, message); }
  [[noreturn]] void fail_at(std::size_t column, const std::string& message) const {
    throw PipelineError(column, message);
  }
  static bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.' || c == '$';
  }

  std::vector<PipelineElement> parse_list(std::size_t depth) {
    if (depth > max_depth) fail("pipeline nested more than " + std::to_string(max_depth) + " levels deep");
    std::vector<PipelineElement> out;
    for (;;) {
      out.push_back(parse_element(depth));
      skip_spaces();
      if (at_end() || text_[pos_] != ',') return out;
      ++pos_;
      skip_spaces();
    }
  }

  PipelineElement parse_element(std::size_t depth) {
    PipelineElement e;
    e.column = pos_ + 1;
    const std::size_t begin = pos_;
    while (!at_end() && name_char(text_[pos_])) ++pos_;
    if (pos_ == begin) {
      if (at_end()) fail("expected pass or pipeline name, got end of pipeline");
      fail("expected pass or pipeline name, got '" + std::string(1, text_[pos_]) + "'");
    }
    e.name = std::string(text_.substr(begin, pos_ - begin));
    skip_spaces();
    if (!at_end() && text_[pos_] == '(') {
      const std::size_t open = pos_ + 1;
      ++pos_;
      e.is_anchor = true;
      skip_spaces();
      if (!at_end() && text_[pos_] != ')') e.nested = parse_list(depth + 1);
      skip_spaces();
      if (at_end() || text_[pos_] != ')')
        fail_at(open, "encountered unbalanced parentheses while parsing pipeline");
      ++pos_;
    } else if (!at_end() && text_[pos_] == '{') {
      parse_options(e);
    }
    return e;
  }

  void parse_options(PipelineElement& e) {
    const std::size_t open = pos_ + 1;
    ++pos_;  // '{'
    for (;;) {
      skip_spaces();
      if (at_end()) fail_at(open, "missing '}' closing the options of '" + e.name + "'");
      if (text_[pos_] == '}') {
        ++pos_;
        return;
      }
      PipelineOption option;
      option.column = pos_ + 1;
      const std::size_t begin = pos_;
      while (!at_end() && text_[pos_] != '=' && text_[pos_] != '}' && text_[pos_] != ' ' && text_[pos_] != '{' &&
             text_[pos_] != '"')
        ++pos_;
      if (pos_ == begin) fail("expected an option name in the options of '" + e.name + "'");
      option.key = std::string(text_.substr(begin, pos_ - begin));
      if (!at_end() && text_[pos_] == '=') {
        ++pos_;
        option.has_value = true;
        option.value = parse_value(e.name, option.key);
      }
      e.options.push_back(std::move(option));
    }
  }

  std::string parse_value(const std::string& pass, const std::string& key) {
    if (at_end()) fail("missing value of option '" + key + "' of '" + pass + "'");
    if (text_[pos_] == '"') {
      const std::size_t open = pos_ + 1;
      const std::size_t close = text_.find('"', pos_ + 1);
      if (close == std::string_view::npos) fail_at(open, "missing closing '\"' in the value of option '" + key + "'");
      std::string value(text_.substr(pos_ + 1, close - pos_ - 1));
      pos_ = close + 1;
      return value;
    }
    if (text_[pos_] == '{') {
      const std::size_t open = pos_ + 1;
      std::size_t depth = 0;
      const std::size_t begin = pos_ + 1;
      for (; !at_end(); ++pos_) {
        if (text_[pos_] == '{') ++depth;
        if (text_[pos_] == '}' && --depth == 0) break;
      }
      if (at_end()) fail_at(open, "missing '}' closing the value of option '" + key + "'");
      std::string value(text_.substr(begin, pos_ - begin));
      ++pos_;
      return value;
    }
    const std::size_t begin = pos_;
    while (!at_end() && text_[pos_] != ' ' && text_[pos_] != '}') ++pos_;
    return std::string(text_.substr(begin, pos_ - begin));
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

inline void print_elements(const std::vector<PipelineElement>& elements, std::string& out) {
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const PipelineElement& e = elements[i];
    if (i) out += ',';
    out += e.name;
    if (e.is_anchor) {
      out += '(';
      print_elements(e.nested, out);
      out += ')';
    } else if (!e.options.empty()) {
      out += '{';
      for (std::size_t o = 0; o < e.options.size(); ++o) {
        if (o) out += ' ';
        out += e.options[o].key;
        if (!e.options[o].has_value) continue;
        out += '=';
        const std::string& v = e.options[o].value;
        if (!v.empty() && v.find_first_of(" {}\"=,()") == std::string::npos) out += v;     // plain
        else if (v.find_first_of("{}=") != std::string::npos || v.find('"') != std::string::npos)
          out += '{' + v + '}';  // a nested option list, or a value with quotes
        else out += '"' + v + '"';
      }
      out += '}';
    }
  }
}

}  // namespace detail

/// Parses a textual pipeline (`builtin.module(func.func(sccp))`, or a bare
/// list `sccp,int-range-optimizations`). Empty text is the empty pipeline.
/// Throws `PipelineError` at the first syntax error.
[[nodiscard]] inline std::vector<PipelineElement> parse_pipeline(std::string_view text) {
  return detail::PipelineParser(text).parse();
}

/// The canonical text of a pipeline (what `parse_pipeline` reads back to the same tree).
[[nodiscard]] inline std::string print_pipeline(const std::vector<PipelineElement>& elements) {
  std::string out;
  detail::print_elements(elements, out);
  return out;
}

}  // namespace kildall::pass
