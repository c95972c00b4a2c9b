#pragma once
/// \file
/// The core of kildall in one include: graph concepts and orders, lattice
/// concepts and lattices, and the fixed-point solvers. Needs only the standard
/// library and Boost.Graph's headers. The optional parts have their own
/// umbrella headers: `kildall/lp.hpp` (model builder), `kildall/lp/eigen.hpp`,
/// `kildall/lp/glpk.hpp` (GPL), `kildall/ir.hpp` and `kildall/noisy.hpp`.
/// Three core headers are included on their own, to keep this one's parse
/// time down (docs/performance.md, "Compile time"): the law kit
/// `kildall/lattice/laws.hpp`, the persistent `kildall/lattice/environment.hpp`
/// (it needs `<atomic>`, a third of a second) and the successor-list adaptor
/// `kildall/graph/successor_list.hpp`.

#include <kildall/version.hpp>
#include <kildall/graph/concepts.hpp>
#include <kildall/graph/dominators.hpp>
#include <kildall/graph/index_iterator.hpp>
#include <kildall/graph/reverse_postorder.hpp>
#include <kildall/graph/reversed.hpp>
#include <kildall/graph/scc.hpp>
#include <kildall/graph/ssa_program.hpp>
#include <kildall/graph/vertex_map.hpp>
#include <kildall/graph/wto.hpp>
#include <kildall/lattice/bitset.hpp>
#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>
#include <kildall/lattice/flat.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/interval_transfer.hpp>
#include <kildall/lattice/lifted.hpp>
#include <kildall/lattice/map.hpp>
#include <kildall/lattice/powerset.hpp>
#include <kildall/lattice/product.hpp>
#include <kildall/solver/dense.hpp>
#include <kildall/solver/observer.hpp>
#include <kildall/solver/options.hpp>
#include <kildall/solver/problem.hpp>
#include <kildall/solver/sparse.hpp>
#include <kildall/solver/status.hpp>
#include <kildall/solver/trace.hpp>
#include <kildall/solver/verify.hpp>
#include <kildall/solver/worklist.hpp>
