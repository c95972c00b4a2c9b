#pragma once
/// \file
/// Sparse conditional constant propagation (Wegman & Zadeck 1991) on the tiny
/// SSA language of `ssa.hpp`, as a `kildall::SparseCfgProblem` over the
/// lattice `kildall::Flat<std::int64_t>`. Branches on known constants make only
/// one successor executable; values in blocks never executable stay
/// uninitialized. Works with any CFG type: `slot(e)` tells which successor
/// slot of its source block a CFG edge `e` is.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include <kildall/lattice/flat.hpp>
#include <kildall/solver/sparse.hpp>

#include "ssa.hpp"

namespace classic {

/// SCCP over program `p` whose CFG edges map to successor slots through `Slot`.
template <class Slot>
struct ConstantPropagation {
  using lattice_type = kildall::Flat<std::int64_t>;
  const SsaProgram* p;  ///< the program
  Slot slot;            ///< CFG edge -> successor slot of its source

  /// Constants fold; any non-constant operand makes the result top.
  lattice_type transfer(std::size_t v, kildall::OperandStates<lattice_type> ops) const {
    const SsaValue& val = p->values[v];
    if (val.op == Op::constant) return lattice_type::of(val.constant);
    const std::int64_t* a = ops[0].if_constant();
    const std::int64_t* b = ops[1].if_constant();
    if (a == nullptr || b == nullptr) return lattice_type::top();
    return lattice_type::of(SsaProgram::apply(val.op, *a, *b));
  }
  std::size_t block_of(std::size_t v) const { return p->values[v].block; }
  bool is_block_argument(std::size_t v) const { return p->values[v].op == Op::argument; }
  const std::vector<std::size_t>& block_arguments(std::size_t b) const { return p->blocks[b].arguments; }
  const std::vector<std::size_t>& block_values(std::size_t b) const { return p->blocks[b].values; }
  /// The value the branch along `e` passes to argument `arg` of `e`'s target.
  template <class Edge>
  std::optional<std::size_t> incoming_value(std::size_t arg, const Edge& e) const {
    const SsaValue& a = p->values[arg];
    const SsaBlock& target_block = p->blocks[a.block];
    std::size_t index = 0;
    while (target_block.arguments[index] != arg) ++index;
    return p->blocks[source_block(e)].successors[slot(e)].args[index];
  }
  /// Function arguments are unknown.
  lattice_type entry_argument_state(std::size_t) const { return lattice_type::top(); }
  /// A `cond_br` reads its condition.
  std::span<const std::size_t> branch_operands(std::size_t b) const {
    const auto& c = p->blocks[b].condition;
    return c ? std::span<const std::size_t>(&*c, 1) : std::span<const std::size_t>();
  }
  /// On a constant condition only the matching slot is executable.
  template <class Edge>
  bool edge_executable(const Edge& e, kildall::OperandStates<lattice_type> condition) const {
    if (condition.empty()) return true;
    const std::int64_t* c = condition[0].if_constant();
    if (c == nullptr) return !condition[0].is_bottom();
    return slot(e) == (*c != 0 ? 0U : 1U);
  }

 private:
  template <class Edge>
  std::size_t source_block(const Edge& e) const {
    return slot.source(e);
  }
};

/// Slots of `SsaCfg` edges: stored on the edge.
struct SsaCfgSlot {
  const SsaCfg* cfg;  ///< the CFG
  /// The successor slot of `e`.
  std::size_t operator()(const SsaCfg::edge_descriptor& e) const { return (*cfg)[e].slot; }
  /// The block `e` leaves.
  std::size_t source(const SsaCfg::edge_descriptor& e) const { return boost::source(e, *cfg); }
};

}  // namespace classic
