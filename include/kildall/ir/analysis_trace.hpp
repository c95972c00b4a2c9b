#pragma once
/// \file
/// The `--debug-analysis` trace of the IR's analyses: a solver observer that
/// prints each visit of a value, shaped like MLIR's
/// `--debug-only=int-range-analysis` output (`Inferring ranges for <op>` then
/// `Inferred range <state>`), and the describers of SCCP and range states.

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/lattice/interval.hpp>

namespace kildall::ir {

/// Solver observer printing one trace entry per visit to `out`: the value
/// (its defining op, or which block argument) and `describe(state, type)`.
template <class Describe>
class TraceObserver {
 public:
  /// Traces visits of `fn`'s values (ops printed with `registry`) to `out`;
  /// `verb` opens each entry ("Inferring ranges").
  TraceObserver(const Function& fn, const OpRegistry& registry, std::string_view verb, Describe describe,
                std::ostream& out)
      : fn_(&fn), registry_(&registry), namer_(fn), verb_(verb), describe_(describe), out_(&out) {}

  /// Prints the entry of one visit.
  template <class Event>
  void on_visit(const Event& event) {
    const ValueId v = event.node;
    const ValueData& value = fn_->values[v];
    std::ostream& out = *out_;
    out << verb_ << " for ";
    if (value.is_block_argument) {
      out << namer_.value(v) << " (argument #" << value.position << " of "
          << (value.owner == 0 ? std::string("the entry block") : namer_.block(value.owner)) << ")";
    } else {
      out << print_op(*fn_, value.owner, *registry_, namer_);
    }
    out << "\n" << describe_(event.after, value.type) << (event.widened ? " (widened)" : "") << "\n";
  }

 private:
  const Function* fn_;
  const OpRegistry* registry_;
  ValueNamer namer_;
  std::string_view verb_;
  Describe describe_;
  std::ostream* out_;
};

/// `Inferred range [..]` (or `uninitialized`) for a range state.
[[nodiscard]] inline std::string describe_range(const Interval* s, Type) {
  return s ? "Inferred range " + to_mlir_debug_string(*s) : "Inferred range uninitialized";
}

/// `Inferred constant <signed value>`, `overdefined` or `uninitialized` for an SCCP state.
[[nodiscard]] inline std::string describe_constant(const ConstantState* s, Type type) {
  if (!s || s->is_bottom()) return "Inferred constant uninitialized";
  if (s->is_top()) return "Inferred constant overdefined";
  if (type.width() == 0) return "Inferred constant " + std::to_string(s->constant());
  return "Inferred constant " + std::to_string(sign_extend(s->constant(), type.width()));
}

}  // namespace kildall::ir
