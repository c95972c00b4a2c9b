#include <kildall/graph/concepts.hpp>

#include <kildall/graph/boost.hpp>  // Boost's vertex_index property (ListGraph)

#include <doctest/doctest.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/reverse_graph.hpp>

namespace {
using VecGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
using ListGraph = boost::adjacency_list<boost::listS, boost::listS, boost::bidirectionalS,
                                        boost::property<boost::vertex_index_t, std::size_t>>;
using DirectedOnly = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using Csr = boost::compressed_sparse_row_graph<boost::directedS>;
}  // namespace

TEST_CASE("Boost.Graph graphs model the concepts unchanged") {
  static_assert(kildall::AnalysisGraph<VecGraph>);
  static_assert(kildall::AnalysisGraph<ListGraph>);
  static_assert(kildall::AnalysisGraph<boost::reverse_graph<VecGraph>>);
  static_assert(kildall::ForwardAnalysisGraph<Csr>);
  static_assert(kildall::ForwardAnalysisGraph<DirectedOnly>);
  // A directedS adjacency_list stores no in-edges, so it is not backward-traversable.
  static_assert(!kildall::BackwardGraph<DirectedOnly>);
  static_assert(!kildall::Graph<int*>);
  static_assert(!kildall::ForwardGraph<int>);
}

TEST_CASE("vertex_index is dense for integral and property-map graphs") {
  VecGraph g(4);
  add_edge(0, 1, g);
  for (std::size_t v = 0; v < 4; ++v) CHECK(kildall::vertex_index(g, v) == v);

  ListGraph lg;
  std::vector<boost::graph_traits<ListGraph>::vertex_descriptor> vs;
  for (std::size_t i = 0; i < 5; ++i) {
    vs.push_back(add_vertex(lg));
    put(boost::vertex_index, lg, vs.back(), i);
  }
  std::vector<bool> seen(5, false);
  for (auto v : kildall::vertex_range(lg)) {
    const std::size_t idx = kildall::vertex_index(lg, v);
    REQUIRE(idx < kildall::vertex_count(lg));
    CHECK_FALSE(seen[idx]);
    seen[idx] = true;
  }
}

TEST_CASE("edge ranges follow the graph") {
  VecGraph g(3);
  add_edge(0, 1, g);
  add_edge(0, 2, g);
  add_edge(2, 1, g);
  std::vector<std::size_t> succ;
  for (auto e : kildall::out_edge_range(g, 0)) succ.push_back(target(e, g));
  CHECK(succ == std::vector<std::size_t>{1, 2});
  std::vector<std::size_t> pred;
  for (auto e : kildall::in_edge_range(g, 1)) pred.push_back(source(e, g));
  std::sort(pred.begin(), pred.end());
  CHECK(pred == std::vector<std::size_t>{0, 2});
}
