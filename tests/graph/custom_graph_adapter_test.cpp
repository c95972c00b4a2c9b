// The hand-written CFG of examples/custom_graph, adapted in cfg.hpp, runs every
// graph algorithm exactly as a Boost adjacency_list with the same edges does.

#include <custom_graph/cfg.hpp>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/reverse_postorder.hpp>
#include <kildall/graph/reversed.hpp>
#include <kildall/graph/scc.hpp>
#include <kildall/graph/vertex_map.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "test_graphs.hpp"

namespace {
using kildall::test::EdgeList;

static_assert(kildall::AnalysisGraph<mycc::Cfg>);
static_assert(kildall::AnalysisGraph<kildall::Reversed<mycc::Cfg>>);
// No get(vertex_index, ...) is written: block indices are their own index.
static_assert(!kildall::detail::HasBoostVertexIndex<mycc::Cfg>);

// Out-edges as (from, to) pairs, visiting every vertex in vertices() order.
template <class G>
EdgeList all_out_edges(const G& g) {
  EdgeList out;
  for (auto v : kildall::vertex_range(g)) {
    for (auto e : kildall::out_edge_range(g, v)) {
      out.emplace_back(kildall::vertex_index(g, source(e, g)), kildall::vertex_index(g, target(e, g)));
    }
  }
  return out;
}
}  // namespace

TEST_CASE("the adapted Cfg agrees with adjacency_list on random and irreducible graphs") {
  std::mt19937 rng(99);
  std::vector<std::pair<std::size_t, EdgeList>> graphs = {
      {kildall::test::irreducible_vertex_count, kildall::test::irreducible_cfg()}};
  for (int trial = 0; trial < 150; ++trial) {
    const std::size_t n = 1 + rng() % 40;
    graphs.emplace_back(n, kildall::test::random_edges(rng, n, rng() % (3 * n)));
  }
  for (const auto& [n, edges] : graphs) {
    const mycc::Cfg cfg = mycc::cfg_from_edges(n, edges);
    // compute_predecessors() lists predecessors in block order, so the oracle
    // gets the edges grouped by source (a stable sort keeps successor order).
    EdgeList by_source = edges;
    std::stable_sort(by_source.begin(), by_source.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    const auto g = kildall::test::make_boost_graph(n, by_source);
    CHECK(all_out_edges(cfg) == all_out_edges(g));
    CHECK(all_out_edges(kildall::Reversed(cfg)) == all_out_edges(kildall::Reversed(g)));
    CHECK(kildall::reverse_postorder(cfg, std::size_t{0}) == kildall::reverse_postorder(g, std::size_t{0}));
    CHECK(kildall::reverse_postorder(cfg) == kildall::reverse_postorder(g));
    CHECK(kildall::reverse_postorder(kildall::Reversed(cfg)) == kildall::reverse_postorder(kildall::Reversed(g)));
    CHECK(kildall::strongly_connected_components(cfg).component_ids() ==
          kildall::strongly_connected_components(g).component_ids());
    CHECK(kildall::strongly_connected_components(kildall::Reversed(cfg)).component_ids() ==
          kildall::strongly_connected_components(kildall::Reversed(g)).component_ids());
  }
}

TEST_CASE("the sample CFG: loop, nested self-loop, dead block") {
  const mycc::Cfg cfg = mycc::sample_cfg();
  const auto rpo = kildall::reverse_postorder(cfg, std::size_t{0});
  CHECK(rpo.size() == cfg.blocks.size() - 1);  // "dead" is unreachable
  const auto scc = kildall::strongly_connected_components(cfg);
  CHECK(scc.component_of(1) == scc.component_of(3));  // head and spin share the loop
  CHECK(scc.in_cycle(2));
  CHECK_FALSE(scc.in_cycle(0));
  CHECK(kildall::has_self_loop(cfg, 3));

  // Per-block state for a solver, on the CFG and on its reversed view alike.
  kildall::VertexMap<mycc::Cfg, std::size_t> instruction_count(cfg);
  for (std::size_t b : kildall::vertex_range(cfg)) instruction_count[b] = cfg.blocks[b].instructions.size();
  CHECK(instruction_count[0] == 2);
  const kildall::Reversed backward(cfg);
  kildall::VertexMap<kildall::Reversed<mycc::Cfg>, std::size_t> predecessors(backward);
  for (std::size_t b : kildall::vertex_range(backward)) {
    for (auto e : kildall::out_edge_range(backward, b)) ++predecessors[target(e, backward)];
  }
  for (std::size_t b = 0; b < cfg.blocks.size(); ++b) CHECK(predecessors[b] == cfg.blocks[b].successors.size());
}

TEST_CASE("a 200k-block Cfg chain closed into a loop") {
  const std::size_t n = 200'000;
  const mycc::Cfg cfg = mycc::cfg_from_edges(n, kildall::test::chain(n, true));
  CHECK(kildall::reverse_postorder(cfg, std::size_t{0}).size() == n);
  CHECK(kildall::reverse_postorder(kildall::Reversed(cfg), std::size_t{0}).back() == 1);
  const auto scc = kildall::strongly_connected_components(cfg);
  CHECK(scc.count() == 1);
  CHECK(scc.in_cycle(n / 2));
}
