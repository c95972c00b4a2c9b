#pragma once
/// \file
/// `TraceObserver`: a ready-made observer that prints every visit as two
/// lines, by default in the words of MLIR's `--debug-only=int-range-analysis`:
///
///     Inferring ranges for %x = arith.addi %a, %b : i32
///     Inferred range unsigned : [0, 24] signed : [0, 24]
///
/// The caller says how to print a node (e.g. the IR text of the op defining a
/// value) and a state (e.g. `to_mlir_debug_string(Interval)`); the two lead
/// words are configurable (`TraceFormat`) for other analyses.

#include <concepts>
#include <ostream>
#include <string_view>
#include <utility>

#include <kildall/solver/observer.hpp>

namespace kildall {

/// The words a `TraceObserver` prints before a node and before its state.
struct TraceFormat {
  std::string_view visiting = "Inferring ranges for ";  ///< Before the node's description.
  std::string_view result = "Inferred range ";          ///< Before the new state.
  std::string_view uninitialized = "<uninitialized>";   ///< Printed for a state that is still uninitialized.
  bool show_unchanged = true;                           ///< Also print visits that changed nothing.
  bool show_narrowing = true;                           ///< Also print narrowing-phase visits.
};

/// Prints each visit to `out`: `format.visiting` + `describe_node(node)`, then
/// `format.result` + `describe_state(state)`. Each describer may return
/// anything streamable into `std::ostream`.
template <class DescribeNode, class DescribeState>
class TraceObserver {
 public:
  /// A trace into `out`.
  TraceObserver(std::ostream& out, DescribeNode describe_node, DescribeState describe_state, TraceFormat format = {})
      : out_(&out),
        describe_node_(std::move(describe_node)),
        describe_state_(std::move(describe_state)),
        format_(format) {}

  /// Prints one visit.
  template <class Node, class L>
  void on_visit(const VisitEvent<Node, L>& event) {
    if (!format_.show_unchanged && event.change == ChangeResult::unchanged) return;
    if (!format_.show_narrowing && event.phase == VisitPhase::narrowing) return;
    *out_ << format_.visiting << describe_node_(event.node) << '\n' << format_.result;
    if (event.after != nullptr) {
      *out_ << describe_state_(*event.after);
    } else {
      *out_ << format_.uninitialized;
    }
    *out_ << '\n';
  }

  /// Number of lines a visit prints (two).
  static constexpr int lines_per_visit = 2;

 private:
  std::ostream* out_;
  DescribeNode describe_node_;
  DescribeState describe_state_;
  TraceFormat format_;
};

/// Prints a state with its `operator<<`.
struct StreamState {
  /// Returns `state` itself, to be streamed.
  template <class L>
  const L& operator()(const L& state) const noexcept {
    return state;
  }
};

/// A `TraceObserver` printing nodes with `describe_node` and states with
/// `describe_state` (default: the state's `operator<<`).
template <class DescribeNode, class DescribeState = StreamState>
[[nodiscard]] TraceObserver<DescribeNode, DescribeState> make_trace(std::ostream& out, DescribeNode describe_node,
                                                                    DescribeState describe_state = {},
                                                                    TraceFormat format = {}) {
  return TraceObserver<DescribeNode, DescribeState>(out, std::move(describe_node), std::move(describe_state), format);
}

}  // namespace kildall
