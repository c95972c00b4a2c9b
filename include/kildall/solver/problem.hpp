#pragma once
/// \file
/// What every solver problem has: a lattice type, `P::lattice_type`. The
/// problem concepts themselves live with their solvers (`DenseProblem` in
/// `dense.hpp`, `SparseProblem`/`SparseBranchProblem`/`SparseEdgeTransfer` in `sparse.hpp`).

#include <kildall/graph/concepts.hpp>

namespace kildall {

/// The lattice of a problem: `P::lattice_type`.
template <class P>
using lattice_t = typename P::lattice_type;

}  // namespace kildall
