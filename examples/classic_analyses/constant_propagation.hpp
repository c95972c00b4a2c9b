#pragma once
/// \file
/// Sparse conditional constant propagation (Wegman & Zadeck 1991) on the tiny
/// SSA language of `ssa.hpp`, as a `kildall::SparseProblem` over the lattice
/// `kildall::Flat<std::int64_t>`. Only semantics: the program's shape (values,
/// operands, blocks, what branches pass) is `SsaShape`, written once for the
/// language. Branches on known constants make only one successor executable;
/// values in blocks never executable stay uninitialized.

#include <cstddef>
#include <cstdint>

#include <kildall/lattice/flat.hpp>
#include <kildall/solver/sparse.hpp>

#include "ssa.hpp"

namespace classic {

/// SCCP over the program of `Shape` (an `SsaShape`).
template <class Shape>
struct ConstantPropagation {
  using lattice_type = kildall::Flat<std::int64_t>;
  const Shape* shape;  ///< the program's shape

  /// Constants fold; any non-constant operand makes the result top.
  lattice_type transfer(std::size_t v, kildall::OperandStates<lattice_type> ops) const {
    const SsaValue& val = shape->program().values[v];
    if (val.op == Op::constant) return lattice_type::of(val.constant);
    const std::int64_t* a = ops[0].if_constant();
    const std::int64_t* b = ops[1].if_constant();
    if (a == nullptr || b == nullptr) return lattice_type::top();
    return lattice_type::of(SsaProgram::apply(val.op, *a, *b));
  }
  /// Function arguments are unknown.
  lattice_type boundary(std::size_t) const { return lattice_type::top(); }
  /// On a constant condition only the matching slot is executable.
  template <class Edge>
  bool edge_executable(const Edge& e, kildall::OperandStates<lattice_type> condition) const {
    if (condition.empty()) return true;
    const std::int64_t* c = condition[0].if_constant();
    if (c == nullptr) return !condition[0].is_bottom();
    return shape->slot(e) == (*c != 0 ? 0U : 1U);
  }
};

}  // namespace classic
