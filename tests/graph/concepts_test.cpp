#include <kildall/graph/concepts.hpp>

#include <kildall/graph/boost.hpp>  // Boost's vertex_index property (ListGraph)

#include <doctest/doctest.h>

#include <array>
#include <forward_list>
#include <initializer_list>
#include <iterator>
#include <ranges>  // only to compare the core's own range concepts with the standard ones
#include <string>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/reverse_graph.hpp>

namespace {
using VecGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
using ListGraph = boost::adjacency_list<boost::listS, boost::listS, boost::bidirectionalS,
                                        boost::property<boost::vertex_index_t, std::size_t>>;
using DirectedOnly = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using Csr = boost::compressed_sparse_row_graph<boost::directedS>;

/// Counts up to a sentinel: an iterator/sentinel pair of different types.
struct UpTo {
  struct End {
    int last;  ///< one past the last value
  };
  struct It {
    using value_type = int;
    using difference_type = std::ptrdiff_t;
    int at = 0;
    int operator*() const { return at; }
    It& operator++() { return ++at, *this; }
    It operator++(int) { return It{at++}; }
    bool operator==(const It&) const = default;
    bool operator==(const End& e) const { return at == e.last; }
  };
  int last = 0;
  [[nodiscard]] It begin() const { return It{0}; }
  [[nodiscard]] End end() const { return End{last}; }
};

/// Has a `begin` but no `end`.
struct OnlyBegin {
  [[nodiscard]] const int* begin() const { return nullptr; }
};

/// The core's `InputRange` (spelled without `<ranges>`) agrees with `std::ranges::input_range`.
template <class R>
constexpr bool agrees = kildall::detail::InputRange<R> == std::ranges::input_range<R>;
}  // namespace

TEST_CASE("the core's range concepts agree with <ranges>") {
  static_assert(agrees<std::vector<int>> && kildall::detail::InputRange<std::vector<int>>);
  static_assert(agrees<const std::vector<int>> && agrees<std::forward_list<int>>);
  static_assert(agrees<int[3]> && agrees<const int[3]> && agrees<std::array<int, 2>>);
  static_assert(agrees<std::initializer_list<int>> && agrees<const UpTo> && kildall::detail::InputRange<const UpTo>);
  static_assert(agrees<int> && !kildall::detail::InputRange<int>);
  static_assert(agrees<int*> && agrees<std::pair<int*, int*>> && agrees<OnlyBegin>);
  static_assert(!kildall::detail::InputRange<OnlyBegin> && !kildall::detail::InputRange<std::pair<int*, int*>>);
  static_assert(kildall::detail::RangeOf<const std::vector<std::size_t>, std::size_t>);
  static_assert(kildall::detail::RangeOf<const UpTo, long>);
  static_assert(!kildall::detail::RangeOf<const std::vector<std::string>, std::size_t>);
  static_assert(!kildall::detail::RangeOf<std::size_t, std::size_t>);
  // And at run time: a range-for over the sentinel-delimited range sees 0, 1, 2.
  int sum = 0;
  for (int i : UpTo{3}) sum += i;
  CHECK(sum == 3);
}

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
