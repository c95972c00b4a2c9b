#pragma once
/// \file
/// What every solver problem has: a lattice type, `P::lattice_type`. The
/// problem concepts themselves live with their solvers (`DenseProblem` in
/// `dense.hpp`, `SparseProblem`/`SparseCfgProblem` in `sparse.hpp`).

#include <concepts>
#include <ranges>

namespace kildall {

/// The lattice of a problem: `P::lattice_type`.
template <class P>
using lattice_t = typename P::lattice_type;

namespace detail {

/// An input range whose elements convert to `V`.
template <class R, class V>
concept RangeOf = std::ranges::input_range<R> && std::convertible_to<std::ranges::range_reference_t<R>, V>;

}  // namespace detail
}  // namespace kildall
