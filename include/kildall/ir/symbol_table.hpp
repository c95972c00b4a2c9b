#pragma once
/// \file
/// The symbol tables of a reference-IR module, after MLIR's `SymbolTable`: the
/// top-level module and each nested module (`module @m { ... }`) is a table of
/// its own, mapping the names defined directly in it (functions, nested
/// modules) to what they name. A flat reference `@f` (a call's callee, a
/// `func.constant`'s function) is looked up in the table of the module the
/// op is written in, and only there (MLIR's `lookupNearestSymbolFrom`: an op
/// in `@m` cannot call a function of the module around `@m`); a nested
/// reference `@m::@f` (in an attribute dictionary) looks up `@m` in the table
/// it starts from, then `@f` in `@m`'s. Visibility does not restrict lookups
/// (MLIR's verifier does not check it either); it decides who may call a
/// function, which the module-level analyses read (call_context.hpp).

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>

namespace kildall::ir {

/// What a symbol names: a function or a nested module of the `Module`.
struct Symbol {
  /// Which of the two.
  enum class Kind : std::uint8_t {
    function,  ///< `index` is into `Module::functions`.
    module,    ///< `index` is into `Module::nested_modules`.
  };
  Kind kind = Kind::function;         ///< Function or nested module.
  std::uint32_t index = no_index;     ///< Its index in the module.
  /// Symbols compare by what they name.
  friend bool operator==(const Symbol&, const Symbol&) = default;
};

/// The symbol tables of a module: one for the top-level module (`top`), one per nested module.
/// Built in one pass over the module (one hash entry per symbol), then read-only. The module
/// must outlive the tables and not change while they are used; the first of two symbols of one
/// table with the same name wins (the parser rejects such modules).
class SymbolTables {
 public:
  /// The table of the top-level module.
  static constexpr std::uint32_t top = no_index;

  /// The tables of `module`.
  explicit SymbolTables(const Module& module) : nested_(module.nested_modules.size()) {
    for (std::uint32_t f = 0; f < module.functions.size(); ++f)
      table_of(module.functions[f].parent_module).try_emplace(module.functions[f].name, Symbol{Symbol::Kind::function, f});
    for (std::uint32_t m = 0; m < module.nested_modules.size(); ++m) {
      const NestedModule& nested = module.nested_modules[m];
      if (!nested.name.empty()) table_of(nested.parent_module).try_emplace(nested.name, Symbol{Symbol::Kind::module, m});
    }
  }

  /// The symbol `name` (without '@') defined directly in table `scope` (`top` or a nested module).
  [[nodiscard]] std::optional<Symbol> lookup(std::uint32_t scope, std::string_view name) const {
    const auto& table = scope == top ? top_ : nested_.at(scope);
    const auto it = table.find(name);
    if (it == table.end()) return std::nullopt;
    return it->second;
  }
  /// The function a flat reference `@name` written in module `scope` names (a call's callee).
  [[nodiscard]] std::optional<std::uint32_t> function(std::uint32_t scope, std::string_view name) const {
    const auto symbol = lookup(scope, name);
    if (!symbol || symbol->kind != Symbol::Kind::function) return std::nullopt;
    return symbol->index;
  }
  /// What the reference `@names[0]::@names[1]::...` names, starting from table `scope`: each name
  /// but the last must name a nested module, in whose table the next is looked up.
  [[nodiscard]] std::optional<Symbol> resolve(std::uint32_t scope, std::span<const std::string_view> names) const {
    std::optional<Symbol> symbol;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i > 0 && symbol->kind != Symbol::Kind::module) return std::nullopt;
      symbol = lookup(i == 0 ? scope : symbol->index, names[i]);
      if (!symbol) return std::nullopt;
    }
    return symbol;
  }

 private:
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
  };
  using Table = std::unordered_map<std::string_view, Symbol, NameHash, std::equal_to<>>;
  Table& table_of(std::uint32_t scope) { return scope == top ? top_ : nested_.at(scope); }
  Table top_;
  std::vector<Table> nested_;  // by nested module
};

/// By function of `module`, by op: the function an op of that function names by symbol
/// (`OpDefinition::names_function`: `func.call`, `func.constant`), looked up in the table of the
/// function's module, or `no_index` (an op naming none, or a symbol that table lacks). One hash
/// lookup per such op, so resolving a module is linear in its size (the interpreter and the
/// module-level analyses read it).
[[nodiscard]] inline std::vector<std::vector<std::uint32_t>> functions_named_by_ops(const Module& module,
                                                                                   const SymbolTables& symbols) {
  std::vector<std::vector<std::uint32_t>> named(module.functions.size());
  for (std::uint32_t f = 0; f < module.functions.size(); ++f) {
    const Function& fn = module.functions[f];
    named[f].assign(fn.ops.size(), no_index);
    for (OpId op = 0; op < fn.ops.size(); ++op) {
      const OpData& o = fn.ops[op];
      if (o.erased || !module.registry->op(o.code).names_function) continue;
      if (const auto callee = symbols.function(fn.parent_module, fn.arena_string(o.imm, o.aux))) named[f][op] = *callee;
    }
  }
  return named;
}

}  // namespace kildall::ir
