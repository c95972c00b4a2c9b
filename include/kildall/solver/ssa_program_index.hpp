#pragma once
/// \file
/// `SsaProgramIndex`: an `SsaProgram` shape prepared once for any number of
/// sparse solves. `solve_sparse(shape, problem)` derives compact index arrays
/// from the shape (the def-use edges, including the ones from a forwarded
/// operand to the block argument it reaches; the CFG's edges; each block's
/// branch operands) and orders them (Bourdoncle's weak topological order, or
/// reverse post-order) before it iterates. When one function is analysed more
/// than once (SCCP, then integer ranges, then a noise analysis; or the same
/// analysis after every pass that left the function unchanged), building the
/// index once and handing it to `solve_sparse(index, problem)` does that work
/// once. A problem with `extra_operands` is layered on top at solve time (its
/// extra operands, and the dependents and order over the union); the rest is
/// shared.
///
/// The index refers to the shape and reads it after construction only through
/// the value and block handles it stored and, for a shape that hands out its
/// operands as spans of value indices (`ir::FunctionShape`), through those
/// spans; it is stale once the program changes (rebuild it, or use
/// `resolve_sparse` on the shape).

#include <cstddef>
#include <cstdint>

#include <kildall/graph/ssa_program.hpp>
#include <kildall/solver/detail/iteration_plan.hpp>
#include <kildall/solver/detail/ssa_arrays.hpp>
#include <kildall/solver/options.hpp>

namespace kildall {

namespace detail {
template <class Prog, class P, class O>
class SparseEngine;
}  // namespace detail

/// The solver-ready index of one `SsaProgram` shape, reusable across sparse
/// solves of that shape (`solve_sparse(index, problem, options)`). Holds a
/// pointer to the shape, which must outlive it. Not thread-safe to build;
/// once built, any number of solves (also concurrent ones) may read it.
template <SsaProgram Prog>
class SsaProgramIndex {
 public:
  /// Derives the index of `program` and its iteration plan in `order` (a
  /// solve asking for the other order builds its own plan).
  explicit SsaProgramIndex(const Prog& program, IterationOrder order = IterationOrder::weak_topological_order)
      : program_(&program), order_(order) {
    if (arrays_.derive(program, detail::NoExtraOperands{}, detail::DependentsNeed::any)) plan_ = detail::plan_of_every_vertex(arrays_.dependents, order);
  }

  /// The shape indexed.
  [[nodiscard]] const Prog& program() const noexcept { return *program_; }
  /// False when the shape names a value or block outside its own numbering,
  /// places a value in two blocks, or passes more values over an edge than
  /// the target block has arguments; a solve over it ends `invalid_input`.
  [[nodiscard]] bool valid() const noexcept { return arrays_.valid; }
  /// The order the stored plan follows.
  [[nodiscard]] IterationOrder order() const noexcept { return order_; }
  /// Number of values.
  [[nodiscard]] std::size_t value_count() const noexcept { return arrays_.value_count; }
  /// Number of blocks.
  [[nodiscard]] std::size_t block_count() const noexcept { return arrays_.block_count; }
  /// Number of CFG edges.
  [[nodiscard]] std::size_t edge_count() const noexcept { return arrays_.edges.size(); }
  /// Bytes held (arrays and plan).
  [[nodiscard]] std::size_t bytes() const noexcept { return arrays_.bytes() + plan_.bytes(); }

 private:
  template <class, class, class>
  friend class detail::SparseEngine;

  const Prog* program_;
  IterationOrder order_;
  detail::SsaArrays<Prog> arrays_;
  detail::IterationPlan<std::uint32_t> plan_;
};

}  // namespace kildall
