#pragma once
/// \file
/// Applying a placement: for each chosen op `v`, a `reduce_noise` of `v` is
/// inserted right after `v` and every other use of `v` is redirected to the
/// reduced value (the article's rewrite). The program is edited through a
/// `ReduceNoiseEditor`, a two-function concept your IR implements (kildall's
/// reference IR: `ir_dialect.hpp`; a Boost.Graph DAG: examples/noisy_boost_dag).

#include <concepts>
#include <ranges>
#include <vector>

namespace kildall::noisy {

/// An editable program: `insert_reduce_noise_after(v)` inserts `r =
/// reduce_noise v` right after `v`'s op and returns `r`; `redirect_uses(v,
/// r)` makes every use of `v` except `r`'s own operand use `r`.
template <class E>
concept ReduceNoiseEditor = requires(E& editor, const typename E::value_type& v) {
  typename E::value_type;
  { editor.insert_reduce_noise_after(v) } -> std::convertible_to<typename E::value_type>;
  editor.redirect_uses(v, v);
};

/// Inserts a reduce_noise after every value of `placement` (in order) and
/// redirects the other uses; returns the new values, one per placed value.
template <ReduceNoiseEditor E, std::ranges::input_range Placement>
  requires std::convertible_to<std::ranges::range_reference_t<Placement>, typename E::value_type>
std::vector<typename E::value_type> insert_reduce_noise(E& editor, const Placement& placement) {
  std::vector<typename E::value_type> reduced;
  for (const auto& v : placement) {
    const typename E::value_type r = editor.insert_reduce_noise_after(v);
    editor.redirect_uses(v, r);
    reduced.push_back(r);
  }
  return reduced;
}

}  // namespace kildall::noisy
