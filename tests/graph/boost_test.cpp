// <kildall/graph/boost.hpp>: Boost's vertex_index property answers kildall's
// vertex-index hook. Boost's headers come first here, so this file also
// checks that <kildall/graph/concepts.hpp> brings the bridge in by itself.
#include <boost/graph/adjacency_list.hpp>

#include <kildall/graph/concepts.hpp>

#include <doctest/doctest.h>

#include <kildall/graph/reverse_postorder.hpp>

#include <cstddef>
#include <vector>

namespace {

using ListGraph = boost::adjacency_list<boost::listS, boost::listS, boost::bidirectionalS,
                                        boost::property<boost::vertex_index_t, std::size_t>>;
using VecGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

}  // namespace

TEST_CASE("the bridge came in with concepts.hpp because Boost's properties.hpp was first") {
  static_assert(kildall::detail::HasBoostVertexIndex<ListGraph>);
  static_assert(kildall::AnalysisGraph<ListGraph>);
}

TEST_CASE("a listS graph's index is its vertex_index property, not an address order") {
  ListGraph g;
  std::vector<boost::graph_traits<ListGraph>::vertex_descriptor> vs;
  const std::size_t index_of[] = {3, 0, 4, 1, 2};  // a permutation, so identity-like guesses fail
  for (std::size_t i = 0; i < 5; ++i) {
    vs.push_back(add_vertex(g));
    put(boost::vertex_index, g, vs.back(), index_of[i]);
  }
  for (std::size_t i = 0; i < 5; ++i) CHECK(kildall::vertex_index(g, vs[i]) == index_of[i]);
  add_edge(vs[0], vs[1], g);
  add_edge(vs[1], vs[2], g);
  const auto order = kildall::reverse_postorder(g, vs[0]);
  REQUIRE(order.size() == 3);
  CHECK(order[0] == vs[0]);
  CHECK(order[2] == vs[2]);
}

TEST_CASE("integral Boost graphs keep the identity index") {
  VecGraph g(3);
  for (std::size_t v = 0; v < 3; ++v) CHECK(kildall::vertex_index(g, v) == v);
}

namespace user {

// A graph with both a Boost index and kildall's own hook: the graph's own
// hook is the better match and wins over the bridge's template.
struct TwoIndexGraph {
  using vertex_descriptor = std::size_t;
  using edge_descriptor = std::size_t;
};
inline std::size_t get(boost::vertex_index_t, const TwoIndexGraph&, std::size_t v) { return v + 100; }
inline std::size_t vertex_index_of(kildall::vertex_index_tag, const TwoIndexGraph&, std::size_t v) { return 2 - v; }

// Only Boost's index: the bridge answers for it, instead of the identity
// an integral descriptor would otherwise get.
struct BoostIndexGraph {
  using vertex_descriptor = std::size_t;
  using edge_descriptor = std::size_t;
};
inline std::size_t get(boost::vertex_index_t, const BoostIndexGraph&, std::size_t v) { return 2 - v; }

}  // namespace user

TEST_CASE("a graph's own hook wins over Boost's property; Boost's wins over the identity") {
  CHECK(kildall::vertex_index(user::TwoIndexGraph{}, std::size_t{0}) == 2);
  CHECK(kildall::vertex_index(user::BoostIndexGraph{}, std::size_t{0}) == 2);
  CHECK(kildall::vertex_index(user::BoostIndexGraph{}, std::size_t{2}) == 0);
}
