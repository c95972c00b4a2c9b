#pragma once
/// \file
/// The op table: which operations and dialect types exist. It holds one
/// `OpDefinition` record per op kind (op_definition.hpp): the `func`, `cf`
/// and `arith` ops first, with fixed op codes (`BuiltinOp`, records in
/// builtin_ops.hpp); a dialect adds its own ops and types at run time with
/// the same kind of record. The parser, printer, verifier, interpreter, SCCP
/// and the integer-range analysis consult only this table, so a dialect plugs
/// in without touching them.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <kildall/ir/module.hpp>
#include <kildall/ir/op_definition.hpp>
#include <kildall/ir/types.hpp>

namespace kildall::ir {

/// Thrown when a registration is invalid (duplicate name, missing hook).
class RegistryError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// The inputs and results of a function type (`(i32, index) -> i32`).
struct FunctionSignature {
  std::vector<Type> inputs;   ///< Argument types.
  std::vector<Type> results;  ///< Result types.
  /// Signatures compare type by type.
  friend bool operator==(const FunctionSignature&, const FunctionSignature&) = default;
};

namespace detail {

/// The function types of a registry, interned as MLIR's context uniques types: created while
/// parsing (through a `const OpRegistry&`, possibly from several threads), so behind a mutex.
class FunctionTypeTable {
 public:
  /// The id of `signature`, interning it on first sight.
  std::uint32_t intern(FunctionSignature signature) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto key = std::make_pair(signature.inputs.size(), encode(signature));
    const auto [it, added] = ids_.try_emplace(key, static_cast<std::uint32_t>(signatures_.size()));
    if (added) signatures_.push_back(std::move(signature));
    return it->second;
  }
  /// The signature of id `id` (a copy: the table may grow meanwhile); empty for an unknown id.
  [[nodiscard]] FunctionSignature get(std::uint32_t id) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return id < signatures_.size() ? signatures_[id] : FunctionSignature{};
  }

 private:
  static std::vector<std::uint32_t> encode(const FunctionSignature& s) {
    std::vector<std::uint32_t> words;
    for (const Type t : s.inputs) words.push_back(t.raw());
    for (const Type t : s.results) words.push_back(t.raw());
    return words;
  }
  mutable std::mutex mutex_;
  std::deque<FunctionSignature> signatures_;
  std::map<std::pair<std::size_t, std::vector<std::uint32_t>>, std::uint32_t> ids_;
};

}  // namespace detail

/// The table of op kinds and dialect types. Construction registers the
/// built-in `func`, `cf` and `arith` ops (codes = `BuiltinOp`), and the
/// aliases `return`, `call`, `call_indirect` and `constant` (as MLIR resolves them inside
/// `func.func`). Function types are interned on demand (`function_type`), as MLIR's context
/// uniques types; copies of a registry share them.
class OpRegistry {
  /// Transparent string hash, so lookups by `std::string_view` do not allocate.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
  };
  template <class V>
  using NameMap = std::unordered_map<std::string, V, NameHash, std::equal_to<>>;

 public:
  /// A registry with the built-in ops (codes `BuiltinOp`), then the `index` dialect's.
  OpRegistry() {
    for (OpDefinition& def : builtin_op_definitions()) add_op(std::move(def));
    for (OpDefinition& def : index_op_definitions()) add_op(std::move(def));
    add_alias("return", code_of(BuiltinOp::return_));
    add_alias("call", code_of(BuiltinOp::call));
    add_alias("call_indirect", code_of(BuiltinOp::call_indirect));
    add_alias("constant", code_of(BuiltinOp::func_constant));
  }

  /// A registry of the built-in and `index` ops only, shared (analyses given no registry use it).
  [[nodiscard]] static const OpRegistry& builtins() {
    static const OpRegistry registry;
    return registry;
  }

  /// Registers an op kind and returns its code. Throws `RegistryError` on a
  /// duplicate name or a custom format without parse/print hooks.
  OpCode add_op(OpDefinition definition) {
    if (definition.name.empty() || by_name_.contains(std::string_view(definition.name)))
      throw RegistryError("op '" + definition.name + "' is already registered or has no name");
    if (definition.format == OpFormat::custom && (!definition.parse || !definition.print))
      throw RegistryError("op '" + definition.name + "' has a custom format but no parse/print hook");
    if (ops_.size() > max_op_code) throw RegistryError("too many op kinds (at most 65536)");
    const auto code = static_cast<OpCode>(ops_.size());
    ops_.push_back(std::move(definition));
    by_name_.emplace(ops_.back().name, code);
    return code;
  }

  /// Makes `alias` another spelling of `code` when parsing.
  void add_alias(std::string alias, OpCode code) {
    if (by_name_.contains(std::string_view(alias))) throw RegistryError("op name '" + alias + "' is already registered");
    by_name_.emplace(std::move(alias), code);
  }

  /// Registers the dialect type `!name` (e.g. name = "noisy.i32") and returns it; analyses
  /// of integer bits (the integer-range analysis) treat its values as `bit_width` bits (1..64).
  Type add_type(std::string name, unsigned bit_width = 64) {
    if (type_by_name_.contains(std::string_view(name))) throw RegistryError("type '!" + name + "' is already registered");
    if (bit_width == 0 || bit_width > 64) throw RegistryError("type '!" + name + "' needs a bit width in 1..64");
    const Type type = Type::dialect(static_cast<std::uint32_t>(type_names_.size()));
    type_names_.push_back(name);
    type_widths_.push_back(bit_width);
    type_by_name_.emplace(std::move(name), type);
    return type;
  }

  /// The function type `(inputs) -> (results)`, interned (thread-safe; the registry may be const).
  [[nodiscard]] Type function_type(FunctionSignature signature) const {
    return Type::function(function_types_->intern(std::move(signature)));
  }
  /// The inputs and results of function type `type` (empty for any other type).
  [[nodiscard]] FunctionSignature signature(Type type) const {
    return type.is_function() ? function_types_->get(type.function_id()) : FunctionSignature{};
  }

  /// The code of the op spelled `name`, if registered.
  [[nodiscard]] std::optional<OpCode> find_op(std::string_view name) const {
    const auto it = by_name_.find(name);
    if (it == by_name_.end()) return std::nullopt;
    return it->second;
  }
  /// The dialect type `!name`, if registered.
  [[nodiscard]] std::optional<Type> find_type(std::string_view name) const {
    const auto it = type_by_name_.find(name);
    if (it == type_by_name_.end()) return std::nullopt;
    return it->second;
  }
  /// The bits of a value of `type`: an integer-like type's width, a dialect type's registered
  /// bit width, 64 for anything else.
  [[nodiscard]] unsigned bit_width(Type type) const {
    if (type.is_integer_like()) return type.width();
    if (type.is_dialect() && type.dialect_id() < type_widths_.size()) return type_widths_[type.dialect_id()];
    return 64;
  }
  /// The definition of op `code`.
  [[nodiscard]] const OpDefinition& op(OpCode code) const { return ops_.at(code); }
  /// Number of registered op kinds.
  [[nodiscard]] std::size_t op_count() const { return ops_.size(); }

  /// The spelling of `type`: `i32`, `index`, `!noisy.i32`.
  [[nodiscard]] std::string type_name(Type type) const {
    // Appended, not `"i" + std::string`: GCC 12 at -O3 reports a false
    // -Wrestrict in that operator+.
    std::string name;
    if (type.is_integer()) return name.append("i").append(std::to_string(type.width()));
    if (type.is_index()) return "index";
    if (type.is_dialect() && type.dialect_id() < type_names_.size()) return name.append("!").append(type_names_[type.dialect_id()]);
    if (type.is_function()) {  // `(T1, T2) -> R`, `-> (R1, R2)`; a lone function-typed result in parentheses
      const FunctionSignature s = signature(type);
      const auto list = [&](const std::vector<Type>& types) {
        for (std::size_t i = 0; i < types.size(); ++i) name.append(i ? ", " : "").append(type_name(types[i]));
      };
      name.append("(");
      list(s.inputs);
      name.append(") -> ");
      const bool parenthesized = s.results.size() != 1 || s.results[0].is_function();
      if (parenthesized) name.append("(");
      list(s.results);
      if (parenthesized) name.append(")");
      return name;
    }
    return "<<null type>>";
  }

 private:
  std::vector<OpDefinition> ops_;
  NameMap<OpCode> by_name_;
  std::vector<std::string> type_names_;
  std::vector<unsigned> type_widths_;  // by dialect type id
  NameMap<Type> type_by_name_;
  std::shared_ptr<detail::FunctionTypeTable> function_types_ = std::make_shared<detail::FunctionTypeTable>();
};

/// The name of `op` as written: its record's, or an unregistered op's own (`"foo.bar"` without quotes).
[[nodiscard]] inline std::string_view op_name(const Function& fn, OpId op, const OpRegistry& registry) {
  const OpData& o = fn.ops[op];
  if (is(o.code, BuiltinOp::unregistered)) return fn.arena_string(o.imm, o.aux);
  return registry.op(o.code).name;
}

/// Whether erasing `op` cannot change what the program does once none of its results is used
/// (MLIR's `wouldOpBeTriviallyDead` without the uses): the one definition of "no side effect"
/// every rewrite that erases unused ops reads (`RewriteAdapter::is_pure`, hence the greedy
/// driver of `canonicalize`; `replace_with_constants`; region simplification's liveness). True for an op
/// its record gives semantics (`eval`), or that only names a function (`func.constant`), that is no terminator, may end no block (an unregistered
/// op is opaque) and has no successors; and for an op owning regions whose flow its record
/// describes when every op of those regions has no effect either, their own terminators
/// (`scf.yield`, `scf.condition`) and branches aside (MLIR's `RecursiveMemoryEffects`: an
/// `scf.if` of pure arms). Ops `registry` does not know, unregistered ops, `func.call`,
/// `func.return` and other terminators have effects.
[[nodiscard]] inline bool has_no_effect(const Function& fn, OpId op, const OpRegistry& registry) {
  const OpData& o = fn.ops[op];
  if (o.code >= registry.op_count()) return false;  // unknown to `registry`: may have effects
  const OpDefinition& def = registry.op(o.code);
  if (def.terminator || def.may_terminate || o.successor_count != 0) return false;
  const auto [first, last] = fn.regions_of(op);
  // An op naming a function without calling it (`func.constant`, MLIR's `Pure`) only makes a value.
  if (first == last) return static_cast<bool>(def.eval) || (def.names_function && def.calls == CallKind::none);
  if (!def.region_flow.described()) return false;
  for (RegionId r = first; r < last; ++r) {
    const RegionData& region = fn.regions[r];
    for (BlockId b = region.first_block; b < region.first_block + region.block_count; ++b) {
      for (const OpId inner : fn.ops_of(b)) {
        const OpData& i = fn.ops[inner];
        if (i.code >= registry.op_count()) return false;
        const bool region_terminator =
            registry.op(i.code).terminator && i.successor_count == 0 && !is(i.code, BuiltinOp::return_);
        if (region_terminator || is(i.code, BuiltinOp::br) || is(i.code, BuiltinOp::cond_br)) continue;
        if (!has_no_effect(fn, inner, registry)) return false;
      }
    }
  }
  return true;
}

}  // namespace kildall::ir

// The built-in ops' records (their verify hooks spell types through a complete `OpRegistry`), and
// through them the index dialect's.
#include <kildall/ir/builtin_ops.hpp>
