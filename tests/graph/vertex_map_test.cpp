#include <kildall/graph/vertex_map.hpp>

#include <kildall/graph/archetypes.hpp>
#include <kildall/graph/reversed.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "test_graphs.hpp"

namespace {
namespace ar = kildall::archetypes;
using ListGraph = boost::adjacency_list<boost::listS, boost::listS, boost::bidirectionalS,
                                        boost::property<boost::vertex_index_t, std::size_t>>;

// Writes a distinct value through every vertex and reads it back by index:
// operator[] must land on the vertex's own slot.
template <class G>
void check_dense_by_index(const G& g) {
  kildall::VertexMap<G, std::size_t> map(g, 99);
  REQUIRE(map.size() == kildall::vertex_count(g));
  for (auto v : kildall::vertex_range(g)) CHECK(map[v] == 99);
  for (auto v : kildall::vertex_range(g)) map[v] = 1000 + kildall::vertex_index(g, v);
  for (std::size_t i = 0; i < map.size(); ++i) CHECK(map.at_index(i) == 1000 + i);
  for (auto v : kildall::vertex_range(g)) CHECK(map.at(v) == 1000 + kildall::vertex_index(g, v));
  map.fill(7);
  CHECK(map.values() == std::vector<std::size_t>(map.size(), 7));
  CHECK(&map.graph() == &g);
}
}  // namespace

TEST_CASE("VertexMap is dense over integral, property-map, archetype and reversed graphs") {
  const auto g = kildall::test::make_boost_graph(kildall::test::irreducible_vertex_count,
                                                 kildall::test::irreducible_cfg());
  check_dense_by_index(g);

  ListGraph lg;
  // Indices in reverse insertion order. (add_vertex(g) then put: the
  // add_vertex(property, g) overload trips a GCC 12 -Wmaybe-uninitialized false
  // positive inside Boost's named_graph.hpp at -O1 with sanitizers.)
  for (std::size_t i = 0; i < 6; ++i) put(boost::vertex_index, lg, add_vertex(lg), 5 - i);
  check_dense_by_index(lg);

  const ar::indexed_graph minimal(5, {});
  check_dense_by_index(minimal);
  check_dense_by_index(kildall::Reversed(g));
}

TEST_CASE("VertexMap holds any copyable value, including bool and strings") {
  const ar::indexed_graph g(3, {});
  kildall::VertexMap<ar::indexed_graph, bool> visited(g);
  CHECK_FALSE(visited[g.vertex_at(1)]);
  visited[g.vertex_at(1)] = true;
  CHECK(visited.values() == std::vector<bool>{false, true, false});

  kildall::VertexMap<ar::indexed_graph, std::string> names(g, "?");
  names[g.vertex_at(2)] += "2";
  const auto copy = names;
  CHECK(copy == names);
  CHECK(copy.at_index(2) == "?2");
  names.fill("");
  CHECK_FALSE(copy == names);
}

namespace {
// An adapter with a bug: the index of vertex 1 is 9 although there are 2 vertices.
struct OutOfRangeIndexGraph {};
}  // namespace

template <>
struct boost::graph_traits<OutOfRangeIndexGraph> {
  using vertex_descriptor = std::size_t;
  using edge_descriptor = std::size_t;
};

namespace {
const std::vector<std::size_t> broken_vertices = {0, 1};
auto vertices(const OutOfRangeIndexGraph&) { return std::pair(broken_vertices.begin(), broken_vertices.end()); }
std::size_t num_vertices(const OutOfRangeIndexGraph&) { return 2; }
std::size_t get(boost::vertex_index_t, const OutOfRangeIndexGraph&, std::size_t v) { return v == 1 ? 9 : v; }
}  // namespace

TEST_CASE("VertexMap::at names an out-of-range vertex_index") {
  const OutOfRangeIndexGraph g;
  kildall::VertexMap<OutOfRangeIndexGraph, int> map(g);
  CHECK(map.at(0) == 0);
  CHECK_THROWS_WITH_AS((void)map.at(1), "kildall::VertexMap: vertex_index 9 is not below the map's size 2",
                       std::out_of_range);
}

TEST_CASE("VertexMap over a 1M-vertex graph") {
  const std::size_t n = 1'000'000;
  const ar::indexed_graph g(n, {});
  kildall::VertexMap<ar::indexed_graph, std::uint32_t> map(g, 1);
  CHECK(map.size() == n);
  std::size_t sum = 0;
  for (auto v : kildall::vertex_range(g)) sum += map[v];
  CHECK(sum == n);
}
