// Tests detail::CsrGraph (row-by-row and counted construction, the graph concept); oracle: std::vector<std::vector<std::uint32_t>> adjacency lists.
#include <kildall/solver/detail/csr_graph.hpp>

#include <kildall/graph/concepts.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace {

using kildall::detail::CsrGraph;
using Lists = std::vector<std::vector<std::uint32_t>>;

static_assert(kildall::ForwardAnalysisGraph<CsrGraph>);

Lists random_lists(std::mt19937& rng) {
  const std::size_t n = rng() % 60;
  Lists lists(n);
  if (n == 0) return lists;
  for (auto& row : lists) {
    const std::size_t degree = rng() % 5;
    for (std::size_t k = 0; k < degree; ++k) row.push_back(static_cast<std::uint32_t>(rng() % n));
  }
  return lists;
}

// Every view of the graph (targets, targets_all, out_edges, vertices) against the lists.
void check_against(const CsrGraph& g, const Lists& lists) {
  REQUIRE(g.size() == lists.size());
  CHECK(num_vertices(g) == lists.size());
  std::vector<std::uint32_t> all;
  for (std::uint32_t v = 0; v < lists.size(); ++v) {
    const auto targets = g.targets(v);
    CHECK(std::vector<std::uint32_t>(targets.begin(), targets.end()) == lists[v]);
    std::vector<std::uint32_t> via_edges;
    for (auto [it, end] = out_edges(v, g); it != end; ++it) {
      CHECK(source(*it, g) == v);
      via_edges.push_back(target(*it, g));
    }
    CHECK(via_edges == lists[v]);
    all.insert(all.end(), lists[v].begin(), lists[v].end());
  }
  const auto flat = g.targets_all();
  CHECK(std::vector<std::uint32_t>(flat.begin(), flat.end()) == all);
  std::uint32_t expected = 0;
  for (auto [it, end] = vertices(g); it != end; ++it) CHECK(*it == expected++);
  CHECK(expected == lists.size());
}

}  // namespace

TEST_CASE("CsrGraph built row by row holds the lists it was given") {
  for (unsigned seed = 0; seed < 200; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const Lists lists = random_lists(rng);
    CsrGraph g;
    g.start_rows(lists.size());
    for (const auto& row : lists) {
      for (std::uint32_t t : row) g.push(t);
      g.end_row();
    }
    check_against(g, lists);
  }
}

TEST_CASE("CsrGraph built from counted pairs keeps each source's pairs in emission order") {
  for (unsigned seed = 0; seed < 200; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const Lists lists = random_lists(rng);
    // Emit the pairs interleaved across sources (round-robin over positions), so
    // that rows are not contiguous in the emission order.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    for (std::size_t k = 0; k < 5; ++k)
      for (std::uint32_t v = 0; v < lists.size(); ++v)
        if (k < lists[v].size()) pairs.emplace_back(v, lists[v][k]);
    int calls = 0;
    CsrGraph g;
    g.assign_counted(lists.size(), [&](auto&& emit) {
      ++calls;
      for (auto [s, t] : pairs) emit(s, t);
    });
    CHECK(calls == 2);
    check_against(g, lists);
  }
}

TEST_CASE("CsrGraph rows built past, at and below their size hints, and rebuilt either way, hold the lists") {
  // Rows are written into arrays sized ahead by the hints and grown past them: every hint, too
  // small (growth), exact or too large (unused tail), must give the same lists, and so must a
  // graph rebuilt row by row after a counted build and the other way round.
  for (unsigned seed = 0; seed < 200; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const Lists lists = random_lists(rng);
    std::size_t total = 0;
    for (const auto& row : lists) total += row.size();
    const std::size_t row_hints[] = {0, lists.size() / 2, lists.size(), 3 * lists.size() + 7};
    const std::size_t target_hints[] = {0, total / 3, total, 2 * total + 5};
    CsrGraph g;
    for (const std::size_t rows_hint : row_hints) {
      for (const std::size_t targets_hint : target_hints) {
        g.start_rows(rows_hint, targets_hint);
        for (const auto& row : lists) {
          for (std::uint32_t t : row) g.push(t);
          g.end_row();
        }
        CHECK(g.pushed() == total);
        check_against(g, lists);
      }
    }
    const Lists other = random_lists(rng);
    g.assign_counted(other.size(), [&](auto&& emit) {
      for (std::uint32_t v = 0; v < other.size(); ++v)
        for (std::uint32_t t : other[v]) emit(v, t);
    });
    check_against(g, other);
    g.start_rows(1, 1);
    for (const auto& row : lists) {
      for (std::uint32_t t : row) g.push(t);
      g.end_row();
    }
    check_against(g, lists);
  }
}

TEST_CASE("A rebuilt CsrGraph forgets its previous rows") {
  CsrGraph g;
  g.start_rows();
  g.push(1);
  g.end_row();
  g.end_row();
  check_against(g, Lists{{1}, {}});
  g.start_rows();
  g.end_row();
  check_against(g, Lists{{}});
  CHECK(CsrGraph{}.size() == 0);
}
