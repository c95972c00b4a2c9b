#pragma once
/// \file
/// `verify_fixpoint`: re-applies every transfer (and join, and edge
/// executability test) of a problem once to a solver result and reports every
/// node where the result is not a post-fixpoint, i.e. where one more round of
/// Kildall iteration would still move something up. A converged result of a
/// monotone problem always passes; a result produced from a buggy solver, a
/// non-monotone transfer or a truncated iteration usually does not. Cheap
/// enough (one transfer per node) to call in every test.
///
/// The checks re-implement the equations of `dense.hpp` / `sparse.hpp`
/// independently of the engines, from the public result accessors and, for a
/// sparse result, the program's public shape (not the solver's derived arrays):
///   * a node the equations reach (root, executable in-edge from a reached
///     node, executable block) must hold a state;
///   * a held state must be above the join of its inputs and above its transfer.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/solver/dense.hpp>
#include <kildall/solver/sparse.hpp>

namespace kildall {

/// What is wrong at a node.
enum class ViolationKind : std::uint8_t {
  unreached_but_reachable,   ///< The equations reach the node (or its block), but it holds no state.
  in_below_join,             ///< Dense: in-state not above the join over incoming edges.
  out_below_transfer,        ///< Dense: out-state not above transfer(in-state); sparse: state not above transfer.
  argument_below_join,       ///< Sparse: block argument not above the join of its incoming values.
  block_not_executable,      ///< Sparse: an executable edge leads to a block not marked executable.
};

/// A short name for `kind`.
[[nodiscard]] constexpr std::string_view to_string(ViolationKind kind) noexcept {
  switch (kind) {
    case ViolationKind::unreached_but_reachable: return "reachable but unreached";
    case ViolationKind::in_below_join: return "in-state below join of predecessors";
    case ViolationKind::out_below_transfer: return "state below its transfer";
    case ViolationKind::argument_below_join: return "block argument below join of incoming values";
    case ViolationKind::block_not_executable: return "executable edge into non-executable block";
  }
  return "unknown";
}

/// One node that is not at a post-fixpoint.
struct Violation {
  std::size_t index;   ///< `vertex_index` of the node (value or block) in its graph.
  ViolationKind kind;  ///< What is wrong.
};

/// The outcome of `verify_fixpoint`.
struct FixpointReport {
  std::size_t checked = 0;            ///< Nodes (and blocks) examined.
  std::vector<Violation> violations;  ///< Empty when the result is a post-fixpoint.

  /// True when no violation was found.
  [[nodiscard]] bool ok() const noexcept { return violations.empty(); }

  /// "post-fixpoint (N nodes checked)" or the first few violations, one per line.
  [[nodiscard]] std::string message() const {
    if (ok()) return "post-fixpoint (" + std::to_string(checked) + " nodes checked)";
    std::string text = std::to_string(violations.size()) + " violation(s):";
    for (std::size_t i = 0; i < violations.size() && i < 10; ++i) {
      text += "\n  node #" + std::to_string(violations[i].index) + ": " + std::string(to_string(violations[i].kind));
    }
    return text;
  }
};

namespace detail {

/// The dense check of both directions in one body (one instantiation per
/// problem, not one per direction): a vertex's inputs are its in-edges'
/// sources for a forward result and its out-edges' targets for a backward one.
template <class G, class P>
FixpointReport verify_dense(const P& p, const DenseResult<G, lattice_t<P>>& r) {
  using L = lattice_t<P>;
  const G& g = r.graph();
  const bool forward = r.direction() == Direction::forward;
  FixpointReport report;
  std::vector<bool> is_root(vertex_count(g), false);
  for (const auto& root : r.roots()) is_root[vertex_index(g, root)] = true;
  for (const auto& v : vertex_range(g)) {
    ++report.checked;
    const std::size_t vi = vertex_index(g, v);
    std::optional<L> joined;
    if (is_root[vi]) joined = static_cast<L>(p.boundary(v));
    // Joins what edge `e` carries from `origin` (its source in the analysis direction).
    auto contribute = [&](const edge_t<G>& e, const vertex_t<G>& origin) {
      const L* from = forward ? r.after(origin) : r.before(origin);
      if (from == nullptr) return;
      if constexpr (DenseEdgeExecutability<P, G>) {
        if (!p.edge_executable(e, *from)) return;
      }
      L contribution = [&]() -> L {
        if constexpr (DenseEdgeTransfer<P, G>) {
          return static_cast<L>(p.transfer_edge(e, *from));
        } else {
          return *from;
        }
      }();
      if (!joined) {
        joined = std::move(contribution);
      } else {
        (void)joined->join(contribution);
      }
    };
    if (forward) {
      for (const auto& e : in_edge_range(g, v)) contribute(e, source(e, g));
    } else {
      for (const auto& e : out_edge_range(g, v)) contribute(e, target(e, g));
    }
    const L* in = forward ? r.before(v) : r.after(v);
    if (in == nullptr) {
      if (joined) report.violations.push_back({vi, ViolationKind::unreached_but_reachable});
      continue;
    }
    if (joined && !joined->leq(*in)) report.violations.push_back({vi, ViolationKind::in_below_join});
    const L out = static_cast<L>(p.transfer(v, *in));
    if (!out.leq(*(forward ? r.after(v) : r.before(v)))) report.violations.push_back({vi, ViolationKind::out_below_transfer});
  }
  return report;
}

}  // namespace detail

/// Checks that a dense result is a post-fixpoint of `problem` (the problem it
/// was solved with; direction and roots are taken from the result).
template <AnalysisGraph G, class P>
  requires DenseProblem<P, G>
[[nodiscard]] FixpointReport verify_fixpoint(const P& problem, const DenseResult<G, lattice_t<P>>& result) {
  return detail::verify_dense(problem, result);
}

/// Checks that a sparse result is a post-fixpoint of `problem`: every block
/// reached by an executable edge is reached, every value that can be
/// computed holds a state, and every state is above its transfer (or, for a
/// block argument, above its boundary and the join of what the executable
/// in-edges pass to it). Reads the program through its public shape only.
template <SparseProgram Prog, class L, class P>
  requires SparseProblem<P, Prog> && std::same_as<L, lattice_t<P>>
[[nodiscard]] FixpointReport verify_fixpoint(const P& problem, const SparseResult<Prog, L>& result) {
  const Prog& prog = result.program();
  FixpointReport report;
  std::vector<const L*> scratch;
  using Value = program_value_t<Prog>;

  // The states of `v`'s operands (and extra operands) into `scratch`; whether all are initialized.
  auto gather_operands = [&](const Value& v) {
    scratch.clear();
    bool all = true;
    auto add = [&](const Value& x) {
      const L* s = result.lookup(x);
      all = all && s != nullptr;
      scratch.push_back(s);
    };
    if constexpr (SsaProgram<Prog>) {
      for (const auto& x : prog.operands(v)) add(x);
    } else {
      for (const auto& e : in_edge_range(prog, v)) add(source(e, prog));
    }
    if constexpr (detail::HasExtraOperands<P, Value>) {
      for (const auto& x : problem.extra_operands(v)) add(x);
    }
    return all;
  };
  // Checks op result `v` against its transfer.
  auto check_result = [&](const Value& v, std::size_t vi) {
    const bool all = gather_operands(v);
    if (!all && !detail::visit_with_uninitialized_operands<P>()) return;
    const L computed = static_cast<L>(problem.transfer(v, OperandStates<L>(std::span<const L* const>(scratch))));
    const L* state = result.lookup(v);
    if (state == nullptr) {
      report.violations.push_back({vi, ViolationKind::unreached_but_reachable});
    } else if (!computed.leq(*state)) {
      report.violations.push_back({vi, ViolationKind::out_below_transfer});
    }
  };

  if constexpr (SsaProgram<Prog>) {
    const auto& cfg = prog.cfg();
    using Cfg = ssa_cfg_t<Prog>;
    std::vector<bool> is_entry(vertex_count(cfg), false);
    for (const auto& b : result.roots()) is_entry[vertex_index(cfg, b)] = true;
    std::vector<const L*> branch;
    // Branch operand states of block `b` into `branch`; whether all are initialized.
    auto gather_branch = [&](const vertex_t<Cfg>& b) {
      branch.clear();
      if constexpr (SsaProgramWithBranchOperands<Prog>) {
        for (const auto& x : prog.branch_operands(b)) {
          const L* s = result.lookup(x);
          if (s == nullptr) return false;
          branch.push_back(s);
        }
      }
      return true;
    };
    auto edge_live = [&](const edge_t<Cfg>& e) {
      const auto s = source(e, cfg);
      if (!result.block_reached(s)) return false;
      if constexpr (SparseBranchProblem<P, Prog>) {
        if (!gather_branch(s)) return false;
        return static_cast<bool>(problem.edge_executable(e, OperandStates<L>(std::span<const L* const>(branch))));
      } else {
        return true;
      }
    };
    for (const auto& b : vertex_range(cfg)) {
      ++report.checked;
      bool reachable = is_entry[vertex_index(cfg, b)];
      for (const auto& e : in_edge_range(cfg, b)) reachable = reachable || edge_live(e);
      if (reachable && !result.block_reached(b)) {
        report.violations.push_back({vertex_index(cfg, b), ViolationKind::block_not_executable});
      }
      if (!result.block_reached(b)) continue;
      // Each live in-edge is decided, and its forwarded operands read, once for
      // all of the block's arguments.
      std::vector<Value> arguments;
      for (const auto& a : prog.block_arguments(b)) arguments.push_back(a);
      std::vector<std::optional<L>> joined(arguments.size());
      if (is_entry[vertex_index(cfg, b)]) {
        for (std::size_t i = 0; i < arguments.size(); ++i) joined[i] = static_cast<L>(problem.boundary(arguments[i]));
      }
      for (const auto& e : in_edge_range(cfg, b)) {
        if (!edge_live(e)) continue;
        if constexpr (SparseEdgeTransfer<P, Prog>) (void)gather_branch(source(e, cfg));
        std::size_t i = 0;
        for (const auto& x : prog.forwarded_operands(e)) {
          if (i >= arguments.size()) break;
          const L* s = result.lookup(x);
          if (s != nullptr) {
            L contribution = [&]() -> L {
              if constexpr (SparseEdgeTransfer<P, Prog>) {
                return static_cast<L>(
                    problem.transfer_edge(e, arguments[i], *s, OperandStates<L>(std::span<const L* const>(branch))));
              } else {
                return *s;
              }
            }();
            if (!joined[i]) {
              joined[i] = std::move(contribution);
            } else {
              (void)joined[i]->join(contribution);
            }
          }
          ++i;
        }
      }
      for (std::size_t i = 0; i < arguments.size(); ++i) {
        ++report.checked;
        const L* state = result.lookup(arguments[i]);
        const std::size_t vi = kildall::value_index(prog, arguments[i]);
        if (state == nullptr) {
          if (joined[i]) report.violations.push_back({vi, ViolationKind::unreached_but_reachable});
        } else if (joined[i] && !joined[i]->leq(*state)) {
          report.violations.push_back({vi, ViolationKind::argument_below_join});
        }
      }
      for (const auto& v : prog.block_values(b)) {
        ++report.checked;
        check_result(v, kildall::value_index(prog, v));
      }
    }
  } else {
    for (const auto& v : vertex_range(prog)) {
      ++report.checked;
      check_result(v, vertex_index(prog, v));
    }
  }
  return report;
}

}  // namespace kildall
