#pragma once
/// \file
/// The calls of a reference-IR module as the call-graph solver sees them
/// (`ModuleCallGraph`, a `kildall::CallGraphShape`), and what that solver
/// tells the analysis of one function (`CallContext`): the states of its
/// arguments, and of the results of each call to a function of the module.
/// SCCP and the integer ranges read a context when they are given one
/// (module level, interprocedural.hpp); without one they are per function:
/// arguments and call results unknown.
///
/// Roots are the public functions with a body, in the top-level module or a
/// nested one: code outside the module may call them with anything. A
/// `private` or `nested` function is called only from the module, so its
/// arguments are what its calls pass, unless something other than a call
/// names it (a symbol reference in an attribute dictionary: of a module-level
/// op, `"live.user"() {uses = [@f]} : () -> ()`, of an op, of a function, of
/// a nested module; or a `func.constant @f`, whose value an indirect call may
/// call): then it may be called from anywhere, and is a root too (MLIR's SCCP
/// tracks no argument of a function with non-call users). As MLIR 16's
/// dead-code analysis does, a reference is resolved from the top-level
/// module wherever it is written (`@f` inside `module @m` names the top
/// level's `@f`, `@m::@f` names `@m`'s), and the references of a module
/// that holds no function with a body are not looked at
/// (`functions_named_otherwise`); a `func.constant`'s symbol names the
/// function of its own module too. A call
/// to a declaration (no body) is opaque, and so is an indirect call
/// (`func.call_indirect`): its results are unknown.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <kildall/ir/lexer.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/symbol_table.hpp>
#include <kildall/solver/call_graph.hpp>

namespace kildall::ir {

/// The interprocedural facts one function's analysis reads (views into the call-graph
/// solver's summaries, valid while it solves): during the call-graph solve, one context's
/// arguments and every context of the callees (a call reads the ones its operands select);
/// after it, the join over the function's contexts of its arguments and of what each of its
/// calls read.
template <class L>
struct CallContext {
  /// The function's arguments' states (nothing yet: bottom).
  std::span<const SummaryState<L>> arguments;
  /// During the call-graph solve: every context of every function of the module.
  const CallGraphContexts<L>* callees = nullptr;
  /// After it: the results of the function's calls to functions of the module, sorted...
  std::span<const ValueId> call_values;
  /// ...and, by entry of `call_values`, the state its calls read (joined over the contexts).
  std::span<const SummaryState<L>> call_value_states;
  /// By op of the function: the function of the module it calls, or `no_index`.
  std::span<const std::uint32_t> callee_of_op;

  /// For an argument of `fn`'s entry block: its summary state; nullptr for any other value.
  [[nodiscard]] const SummaryState<L>* argument(const Function& fn, ValueId v) const {
    const ValueData& data = fn.values[v];
    if (!data.is_block_argument || data.owner != 0 || data.position >= arguments.size()) return nullptr;
    return &arguments[data.position];
  }
  /// For a result of a call to a function of the module whose operands have the states
  /// `operands` (as a sparse transfer gets them): its state (`bottom` while it has none);
  /// nothing for any other value.
  template <class Operands>
  [[nodiscard]] std::optional<L> call_result(const Function& fn, ValueId v, const Operands& operands,
                                             const L& bottom) const {
    const ValueData& data = fn.values[v];
    if (data.is_block_argument || data.owner >= callee_of_op.size()) return std::nullopt;
    const std::uint32_t callee = callee_of_op[data.owner];
    if (callee == no_index) return std::nullopt;
    if (callees != nullptr) return callees->call_result(callee, data.position, operands).value_or(bottom);
    const auto it = std::lower_bound(call_values.begin(), call_values.end(), v);
    if (it == call_values.end() || *it != v) return bottom;
    return call_value_states[static_cast<std::size_t>(it - call_values.begin())].value_or(bottom);
  }
};

/// By function of `module`: whether something other than a call names it, so code the module
/// does not show may call it (MLIR's "non-call users"): a symbol reference in the attribute
/// dictionary of a module-level op, of an op, of a function or of a nested module, or a
/// `func.constant`. As MLIR 16's dead-code analysis finds them: the references written directly
/// in a module (not inside the modules nested in it) count only when that module holds a
/// function with a body, and each is resolved from the top-level module wherever it is written
/// (`@f` inside `@m` names the top level's `@f`). A `func.constant` also names the function of
/// its own module, which an indirect call may then call with anything (MLIR 16 misses that: it
/// folds such a function's arguments to what its direct calls pass).
[[nodiscard]] inline std::vector<bool> functions_named_otherwise(const Module& module, const SymbolTables& symbols) {
  std::vector<bool> named(module.functions.size(), false);
  const auto mark = [&](std::optional<Symbol> symbol) {
    if (symbol && symbol->kind == Symbol::Kind::function) named[symbol->index] = true;
  };
  const auto mark_references = [&](std::string_view text) {
    for_each_symbol_reference(text, [&](std::span<const std::string_view> names) {
      mark(symbols.resolve(SymbolTables::top, names));
    });
  };
  // By module (0: the top level, m + 1: nested module m): whether it holds a function with a body.
  const auto slot = [](std::uint32_t parent_module) { return parent_module == no_index ? 0 : parent_module + 1; };
  std::vector<bool> scanned(module.nested_modules.size() + 1, false);
  for (const Function& fn : module.functions)
    if (!fn.is_declaration()) scanned[slot(fn.parent_module)] = true;
  for (const ModuleLevelOp& op : module.opaque_ops)
    if (scanned[slot(op.parent_module)]) mark_references(op.attributes);
  for (const NestedModule& nested : module.nested_modules)
    if (scanned[slot(nested.parent_module)]) mark_references(nested.attributes);
  for (std::uint32_t f = 0; f < module.functions.size(); ++f) {
    const Function& fn = module.functions[f];
    if (!scanned[slot(fn.parent_module)]) continue;  // a declaration in a module of declarations
    mark_references(fn.attributes);
    for (const OpAttributeText& a : fn.op_attributes)
      if (!fn.ops[a.op].erased) mark_references(fn.attributes_of(a.op));
    for (OpId op = 0; op < fn.ops.size(); ++op) {
      const OpData& o = fn.ops[op];
      const OpDefinition& def = module.registry->op(o.code);
      if (o.erased || !def.names_function || def.calls != CallKind::none) continue;
      const std::string_view name = fn.arena_string(o.imm, o.aux);
      if (const auto own = symbols.function(fn.parent_module, name)) named[*own] = true;
      mark(symbols.lookup(SymbolTables::top, name));
    }
  }
  return named;
}

/// Whether code outside `module` may call function `f` with any arguments: it has a body and
/// is public or named otherwise than by a call (`named_otherwise`: `functions_named_otherwise`).
[[nodiscard]] inline bool has_unknown_callers(const Module& module, std::uint32_t f,
                                              const std::vector<bool>& named_otherwise) {
  const Function& fn = module.functions[f];
  return !fn.is_declaration() && (fn.visibility == Visibility::public_ || named_otherwise[f]);
}

/// The functions of a module and who calls whom (models `kildall::CallGraphShape<L>`).
template <class L>
class ModuleCallGraph {
 public:
  /// The state a root's argument of type `t` may have (top of `t`).
  using UnknownState = std::function<L(Type)>;

  /// The calls of `module` (which must outlive the graph and not change while it is used).
  ModuleCallGraph(const Module& module, UnknownState unknown)
      : module_(&module), unknown_(std::move(unknown)) {
    const SymbolTables symbols(module);
    callee_of_op_ = functions_named_by_ops(module, symbols);
    calls_procedures_.assign(module.functions.size(), false);
    named_otherwise_ = functions_named_otherwise(module, symbols);
    for (std::uint32_t f = 0; f < module.functions.size(); ++f) {
      const Function& fn = module.functions[f];
      for (OpId op = 0; op < fn.ops.size(); ++op) {
        std::uint32_t& callee = callee_of_op_[f][op];
        if (callee == no_index) continue;
        if (module.functions[callee].is_declaration() || module.registry->op(fn.ops[op].code).calls != CallKind::symbol)
          callee = no_index;  // opaque, or named without being called (`func.constant`)
        else calls_procedures_[f] = true;
      }
    }
  }

  /// Number of functions.
  [[nodiscard]] std::size_t procedure_count() const { return module_->functions.size(); }
  /// A function with a body that is public or that something other than a call names: code the
  /// module does not show may call it.
  [[nodiscard]] bool is_root(std::uint32_t f) const { return has_unknown_callers(*module_, f, named_otherwise_); }
  /// Number of arguments of function `f`.
  [[nodiscard]] std::size_t argument_count(std::uint32_t f) const { return module_->functions[f].argument_types.size(); }
  /// Number of results of function `f`.
  [[nodiscard]] std::size_t result_count(std::uint32_t f) const { return module_->functions[f].result_types.size(); }
  /// The state of argument `a` of root `f`: anything of its type.
  [[nodiscard]] L unknown_argument(std::uint32_t f, std::uint32_t a) const {
    return unknown_(module_->functions[f].argument_types[a]);
  }
  /// By op of function `f`: the function it calls, or `no_index` (not a call, or a declaration's).
  [[nodiscard]] std::span<const std::uint32_t> callee_of_op(std::uint32_t f) const { return callee_of_op_[f]; }
  /// Whether function `f` calls a function of the module that has a body.
  [[nodiscard]] bool calls_procedures(std::uint32_t f) const { return calls_procedures_[f]; }

 private:
  const Module* module_;
  UnknownState unknown_;
  std::vector<std::vector<std::uint32_t>> callee_of_op_;
  std::vector<bool> calls_procedures_;
  std::vector<bool> named_otherwise_;  // by function: a symbol reference other than a call's names it
};

}  // namespace kildall::ir
