#pragma once
/// \file
/// The op table: which operations and dialect types exist, how each is
/// written, verified and executed. The `func`, `cf` and `arith` ops are
/// registered first with fixed op codes (`BuiltinOp`); a dialect adds its own
/// ops and types at run time, choosing a declarative assembly format or its
/// own parse/print hooks, plus optional verification and interpreter hooks.
/// The parser, printer, verifier and interpreter consult only this table, so
/// a dialect plugs in without touching them.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <kildall/ir/module.hpp>
#include <kildall/ir/types.hpp>

namespace kildall::ir {

class OpAsmParser;
class OpAsmPrinter;
struct OperationState;

/// Op codes of the built-in ops, in registration order.
enum class BuiltinOp : OpCode {
  constant, addi, subi, muli, divsi, divui, remsi, remui, andi, ori, xori, shli, shrsi, shrui,
  minsi, maxsi, minui, maxui, cmpi, select, extsi, extui, trunci,
  br, cond_br, return_, call,
  count  ///< Number of built-in ops; dialect op codes start here.
};

/// The op code of built-in op `op`.
[[nodiscard]] constexpr OpCode code_of(BuiltinOp op) { return static_cast<OpCode>(op); }
/// True if `code` is the built-in `op`.
[[nodiscard]] constexpr bool is(OpCode code, BuiltinOp op) { return code == code_of(op); }

/// How an op is written after its name. Dialect ops use the first four or `custom`.
enum class OpFormat : std::uint8_t {
  binary,       ///< `%a, %b : T` -> one result of type T (operands of type T).
  unary,        ///< `%a : T` -> one result of type T.
  cast_arrow,   ///< `%a : T1 -> T2` -> one result of type T2.
  cast_to,      ///< `%a : T1 to T2` -> one result of type T2.
  custom,       ///< The definition's own `parse`/`print` hooks.
  constant,     ///< `arith.constant 42 : i32` / `true` / `false`.
  compare,      ///< `arith.cmpi slt, %a, %b : T` -> i1.
  select,       ///< `arith.select %c, %a, %b : T`.
  branch,       ///< `cf.br ^bb(%x : T)`.
  cond_branch,  ///< `cf.cond_br %c, ^bb1(...), ^bb2(...)`.
  return_op,    ///< `func.return %a, %b : T1, T2` (or no operands).
  call,         ///< `func.call @callee(%a) : (T) -> R`.
};

/// What the interpreter reports for one op.
struct EvalStatus {
  bool ok = true;       ///< False when the op's behaviour is undefined for these operands.
  std::string message;  ///< Why, when not ok.
  /// Success.
  [[nodiscard]] static EvalStatus success() { return {}; }
  /// Undefined behaviour (e.g. division by zero), with a reason.
  [[nodiscard]] static EvalStatus undefined(std::string why) { return {false, std::move(why)}; }
};

/// Parses what follows the op name into `state` (custom format).
using ParseHook = std::function<void(OpAsmParser&, OperationState&)>;
/// Prints what follows the op name (custom format).
using PrintHook = std::function<void(OpAsmPrinter&, const Function&, OpId)>;
/// Op-specific verification: returns an error message, or nothing if valid.
using VerifyHook = std::function<std::optional<std::string>(const Function&, OpId)>;
/// Interpreter semantics: operand bit patterns in, result bit patterns out
/// (integer-like values are zero-extended to 64 bits; dialect types choose their own encoding).
using EvalHook = std::function<EvalStatus(const Function&, OpId, std::span<const std::uint64_t> operands,
                                          std::span<std::uint64_t> results)>;

/// One registered op kind.
struct OpDefinition {
  std::string name;                    ///< Full name, e.g. "noisy.add".
  OpFormat format = OpFormat::custom;  ///< Assembly format.
  bool terminator = false;             ///< True for block terminators.
  ParseHook parse;                     ///< Required for `OpFormat::custom`.
  PrintHook print;                     ///< Required for `OpFormat::custom`.
  VerifyHook verify;                   ///< Optional extra verification.
  EvalHook eval;                       ///< Interpreter semantics (dialect ops); built-ins are built in.
};

/// Thrown when a registration is invalid (duplicate name, missing hook).
class RegistryError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// The table of op kinds and dialect types. Construction registers the
/// built-in `func`, `cf` and `arith` ops (codes = `BuiltinOp`), and the
/// aliases `return` and `call` (as MLIR resolves them inside `func.func`).
class OpRegistry {
  /// Transparent string hash, so lookups by `std::string_view` do not allocate.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
  };
  template <class V>
  using NameMap = std::unordered_map<std::string, V, NameHash, std::equal_to<>>;

 public:
  /// A registry with the built-in ops.
  OpRegistry() {
    const auto add = [this](std::string name, OpFormat format, bool terminator = false) {
      OpDefinition def;
      def.name = std::move(name);
      def.format = format;
      def.terminator = terminator;
      add_op(std::move(def));
    };
    add("arith.constant", OpFormat::constant);
    for (const char* name : {"arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui", "arith.remsi",
                             "arith.remui", "arith.andi", "arith.ori", "arith.xori", "arith.shli", "arith.shrsi",
                             "arith.shrui", "arith.minsi", "arith.maxsi", "arith.minui", "arith.maxui"})
      add(name, OpFormat::binary);
    add("arith.cmpi", OpFormat::compare);
    add("arith.select", OpFormat::select);
    add("arith.extsi", OpFormat::cast_to);
    add("arith.extui", OpFormat::cast_to);
    add("arith.trunci", OpFormat::cast_to);
    add("cf.br", OpFormat::branch, true);
    add("cf.cond_br", OpFormat::cond_branch, true);
    add("func.return", OpFormat::return_op, true);
    add("func.call", OpFormat::call);
    add_alias("return", code_of(BuiltinOp::return_));
    add_alias("call", code_of(BuiltinOp::call));
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

  /// Registers the dialect type `!name` (e.g. name = "noisy.i32") and returns it.
  Type add_type(std::string name) {
    if (type_by_name_.contains(std::string_view(name))) throw RegistryError("type '!" + name + "' is already registered");
    const Type type = Type::dialect(static_cast<std::uint32_t>(type_names_.size()));
    type_names_.push_back(name);
    type_by_name_.emplace(std::move(name), type);
    return type;
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
  /// The definition of op `code`.
  [[nodiscard]] const OpDefinition& op(OpCode code) const { return ops_.at(code); }
  /// Number of registered op kinds.
  [[nodiscard]] std::size_t op_count() const { return ops_.size(); }

  /// The spelling of `type`: `i32`, `index`, `!noisy.i32`.
  [[nodiscard]] std::string type_name(Type type) const {
    if (type.is_integer()) return "i" + std::to_string(type.width());
    if (type.is_index()) return "index";
    if (type.is_dialect() && type.dialect_id() < type_names_.size()) return "!" + type_names_[type.dialect_id()];
    return "<<null type>>";
  }

 private:
  std::vector<OpDefinition> ops_;
  NameMap<OpCode> by_name_;
  std::vector<std::string> type_names_;
  NameMap<Type> type_by_name_;
};

}  // namespace kildall::ir
