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
/// Roots are the public functions with a body: code outside the module may
/// call them with anything. A `private` or `nested` function is called only
/// from the module, so its arguments are what its calls pass, unless
/// something other than a call names it (a symbol reference in an attribute
/// dictionary: of a module-level op, `"live.user"() {uses = [@f]} : () -> ()`,
/// of an op, of a function): then it may be called from anywhere, and is a
/// root too (MLIR's SCCP tracks no argument of a function with non-call
/// users). A call to a declaration (no body) is opaque.

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

/// By function of `module`: whether a symbol reference other than a call's names it (in the
/// attribute dictionary of a module-level op, of an op, or of a function), so code the module
/// does not show may call it (MLIR's "non-call users").
[[nodiscard]] inline std::vector<bool> functions_named_otherwise(const Module& module) {
  std::vector<bool> named(module.functions.size(), false);
  const auto mark = [&](std::string_view text) {
    for_each_symbol_reference(text, [&](std::string_view name) {
      if (const auto f = module.find_function(name)) named[*f] = true;
    });
  };
  for (const ModuleLevelOp& op : module.opaque_ops) mark(op.attributes);
  for (const Function& fn : module.functions) {
    mark(fn.attributes);
    for (const OpAttributeText& a : fn.op_attributes)
      if (!fn.ops[a.op].erased) mark(fn.attributes_of(a.op));
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
      : module_(&module), unknown_(std::move(unknown)), callee_of_op_(callees_by_op(module)) {
    calls_procedures_.assign(module.functions.size(), false);
    named_otherwise_ = functions_named_otherwise(module);
    for (std::uint32_t f = 0; f < module.functions.size(); ++f)
      for (std::uint32_t& callee : callee_of_op_[f]) {
        if (callee == no_index) continue;
        if (module.functions[callee].is_declaration()) callee = no_index;  // opaque
        else calls_procedures_[f] = true;
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
