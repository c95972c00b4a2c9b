#pragma once
/// \file
/// Passes as data: a `PassDefinition` names a pass (its command-line
/// argument, display name, description and options) and says how to make
/// it from option values, as a module pass or a function pass; a
/// `PassRegistry` holds the definitions a pipeline may name. Generic over the
/// IR through `PassIr` (what the pass manager needs to know of an IR: its
/// module and function types, the anchors' op names, how to walk a module's
/// functions). MLIR's `PassRegistration` and pass options (docs "Pass
/// Infrastructure", "Pass Registration", "Instance Specific Pass Options").

#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kildall/pass/analysis_manager.hpp>
#include <kildall/pass/pipeline.hpp>

namespace kildall::pass {

/// What the pass manager needs to know of an IR (a traits class, no objects):
/// `Module`, `Function`, and `Context` (what analyses and passes read: an op
/// table, options); the anchors' op names; a module's functions by index;
/// which functions a function pipeline skips (declarations); the verifier run
/// after each pass (throws on invalid IR).
template <class Ir>
concept PassIr = requires(typename Ir::Module& m, const typename Ir::Module& cm, const typename Ir::Function& f,
                          std::size_t i) {
  typename Ir::Context;
  { Ir::module_anchor } -> std::convertible_to<std::string_view>;
  { Ir::function_anchor } -> std::convertible_to<std::string_view>;
  { Ir::function_count(cm) } -> std::convertible_to<std::size_t>;
  { Ir::function(m, i) } -> std::same_as<typename Ir::Function&>;
  { Ir::skipped(f) } -> std::convertible_to<bool>;
  Ir::verify(cm);
};

/// The analysis manager of a module of `Ir`.
template <PassIr Ir>
using ModuleAnalysisManager = AnalysisManager<typename Ir::Module, typename Ir::Context>;
/// The analysis manager of a function of `Ir`.
template <PassIr Ir>
using FunctionAnalysisManager = AnalysisManager<typename Ir::Function, typename Ir::Context>;

/// One option a pass accepts.
struct PassOption {
  std::string name;                  ///< As written in `{name=value}`.
  std::string description;           ///< One line for `--help`.
  std::string default_value;         ///< Used when the pipeline does not set it.
  std::vector<std::string> choices;  ///< The accepted values (empty: any).
  bool count = false;                ///< The value is a count: decimal digits, below 2^32.
  std::uint32_t min_count = 0;       ///< For a count: the least value accepted.
};

/// The option values a pass instance is made with (every declared option, defaults filled in).
class PassOptionValues {
 public:
  /// Sets `name` to `value`.
  void set(std::string name, std::string value) {
    for (auto& [n, v] : values_)
      if (n == name) {
        v = std::move(value);
        return;
      }
    values_.emplace_back(std::move(name), std::move(value));
  }
  /// The value of `name` (throws `std::out_of_range` for an undeclared option).
  [[nodiscard]] const std::string& get(std::string_view name) const {
    for (const auto& [n, v] : values_)
      if (n == name) return v;
    throw std::out_of_range("no pass option '" + std::string(name) + "'");
  }
  /// The value of `name` as a count (an option declared with `PassOption::count`, checked when
  /// resolved; throws `std::invalid_argument` for any other text).
  [[nodiscard]] std::uint32_t get_count(std::string_view name) const {
    const std::string& text = get(name);
    const std::optional<std::uint32_t> n = parse_count(text);
    if (!n) throw std::invalid_argument("pass option '" + std::string(name) + "' is not a count: '" + text + "'");
    return *n;
  }
  /// `text` as a count (decimal digits, below 2^32), or nothing.
  [[nodiscard]] static std::optional<std::uint32_t> parse_count(std::string_view text) {
    std::uint32_t n = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return n;
  }
  /// Every (name, value), in declaration order.
  [[nodiscard]] const std::vector<std::pair<std::string, std::string>>& values() const noexcept { return values_; }

 private:
  std::vector<std::pair<std::string, std::string>> values_;
};

/// The body of a function pass: rewrites one function, asks its analysis
/// manager for analyses, returns what it preserved. Called concurrently on
/// different functions: it must not write shared state.
template <PassIr Ir>
using FunctionPassBody =
    std::function<PreservedAnalyses(typename Ir::Function&, FunctionAnalysisManager<Ir>&, const typename Ir::Context&)>;
/// The body of a module pass (runs alone: may touch every function).
template <PassIr Ir>
using ModulePassBody =
    std::function<PreservedAnalyses(typename Ir::Module&, ModuleAnalysisManager<Ir>&, const typename Ir::Context&)>;

/// A pass: its names, options, and how to make an instance. At least one of the two factories
/// is set; a pass with both (MLIR's `sccp`, which runs on any op) is a module pass where it is
/// written at module level and a function pass inside `func.func(...)`.
template <PassIr Ir>
struct PassDefinition {
  std::string argument;              ///< Pipeline and flag name (`sccp`).
  std::string display_name;          ///< Timing and IR-dump name (`SCCP`).
  std::string description;           ///< One line for `--help`.
  std::vector<PassOption> options;   ///< Accepted options.
  /// Makes a function pass from option values (set for a pass that runs on functions).
  std::function<FunctionPassBody<Ir>(const PassOptionValues&)> make_function_pass;
  /// Makes a module pass from option values (set for a pass that runs on the module).
  std::function<ModulePassBody<Ir>(const PassOptionValues&)> make_module_pass;

  /// Whether the pass runs on functions (inside `func.func(...)`).
  [[nodiscard]] bool is_function_pass() const noexcept { return static_cast<bool>(make_function_pass); }
  /// Whether the pass runs on the module when written at module level.
  [[nodiscard]] bool is_module_pass() const noexcept { return static_cast<bool>(make_module_pass); }

  /// The values of `written` (from a pipeline element) over the defaults; throws
  /// `PipelineError` at the option for an unknown option, a missing value or a
  /// value not among the choices.
  [[nodiscard]] PassOptionValues resolve(const std::vector<PipelineOption>& written) const {
    PassOptionValues values;
    for (const PassOption& o : options) values.set(o.name, o.default_value);
    for (const PipelineOption& w : written) {
      const PassOption* option = nullptr;
      for (const PassOption& o : options)
        if (o.name == w.key) option = &o;
      if (!option) {
        std::string known;
        for (const PassOption& o : options) known += (known.empty() ? "" : ", ") + o.name;
        throw PipelineError(w.column, "no such option '" + w.key + "' for pass '" + argument + "' (" +
                                          (known.empty() ? std::string("it has none") : "options: " + known) + ")");
      }
      if (!w.has_value) throw PipelineError(w.column, "option '" + w.key + "' of pass '" + argument + "' needs a value");
      if (!option->choices.empty()) {
        bool ok = false;
        std::string list;
        for (const std::string& c : option->choices) {
          ok = ok || c == w.value;
          list += (list.empty() ? "" : ", ") + c;
        }
        if (!ok)
          throw PipelineError(w.column, "invalid value '" + w.value + "' for option '" + w.key + "' of pass '" +
                                            argument + "' (expected one of: " + list + ")");
      }
      if (option->count) {
        const std::optional<std::uint32_t> n = PassOptionValues::parse_count(w.value);
        if (!n || *n < option->min_count)
          throw PipelineError(w.column, "invalid value '" + w.value + "' for option '" + w.key + "' of pass '" +
                                            argument + "' (expected a count: " + std::to_string(option->min_count) +
                                            " to 4294967295)");
      }
      values.set(w.key, w.value);
    }
    return values;
  }
};

/// The passes a pipeline may name, in registration order.
template <PassIr Ir>
class PassRegistry {
 public:
  /// Adds `definition`; throws `std::invalid_argument` for a duplicate
  /// argument or a definition without a factory.
  void add(PassDefinition<Ir> definition) {
    if (find(definition.argument))
      throw std::invalid_argument("pass '" + definition.argument + "' is registered twice");
    if (!definition.make_function_pass && !definition.make_module_pass)
      throw std::invalid_argument("pass '" + definition.argument + "' needs make_function_pass or make_module_pass");
    definitions_.push_back(std::make_unique<PassDefinition<Ir>>(std::move(definition)));
  }
  /// The pass whose argument is `argument`, or nullptr.
  [[nodiscard]] const PassDefinition<Ir>* find(std::string_view argument) const {
    for (const auto& d : definitions_)
      if (d->argument == argument) return d.get();
    return nullptr;
  }
  /// Every definition, in registration order (addresses are stable).
  [[nodiscard]] std::vector<const PassDefinition<Ir>*> definitions() const {
    std::vector<const PassDefinition<Ir>*> out;
    for (const auto& d : definitions_) out.push_back(d.get());
    return out;
  }
  /// The `--help` section: one `  --argument  description` line per pass and one
  /// `      option=<value>  description (default)` line per option.
  [[nodiscard]] std::string help() const {
    std::string out;
    const auto pad = [](std::string s, std::size_t width) {
      s += s.size() < width ? std::string(width - s.size(), ' ') : std::string("  ");
      return s;
    };
    for (const auto& d : definitions_) {
      out += pad("  --" + d->argument, 29) + d->description + "\n";
      for (const PassOption& o : d->options) {
        std::string value = o.count ? "<count>" : "<value>";
        if (!o.choices.empty()) {
          value.clear();
          for (const std::string& c : o.choices) value += (value.empty() ? "" : "|") + c;
        }
        out += pad("        " + o.name + "=" + value, 29) + o.description +
               (o.default_value.empty() ? std::string() : " (default " + o.default_value + ")") + "\n";
      }
    }
    return out;
  }

 private:
  std::vector<std::unique_ptr<PassDefinition<Ir>>> definitions_;
};

}  // namespace kildall::pass
