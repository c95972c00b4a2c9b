// Compiles and exercises the snippets of docs/concepts.md, so the page cannot rot.
#include <kildall/graph/concepts.hpp>
#include <kildall/graph/reverse_postorder.hpp>
#include <kildall/lattice/concepts.hpp>

#include <doctest/doctest.h>

#include <boost/iterator/counting_iterator.hpp>

#include <cstddef>
#include <utility>
#include <vector>

// --- docs/concepts.md: the smallest conforming graph --------------------------
namespace my {
struct Cfg { std::vector<std::vector<std::size_t>> succ; };
struct Edge { std::size_t from, to; };
struct EdgeIt {  // an input iterator over a block's successors, as edges
  using value_type = Edge;
  using difference_type = std::ptrdiff_t;
  std::size_t from = 0;
  const std::size_t* p = nullptr;
  Edge operator*() const { return {from, *p}; }
  EdgeIt& operator++() { ++p; return *this; }
  EdgeIt operator++(int) { EdgeIt old = *this; ++p; return old; }
  bool operator==(const EdgeIt&) const = default;
};
inline std::pair<EdgeIt, EdgeIt> out_edges(std::size_t v, const Cfg& g) {
  const auto& s = g.succ[v];
  return {{v, s.data()}, {v, s.data() + s.size()}};
}
inline std::size_t target(Edge e, const Cfg&) { return e.to; }
inline auto vertices(const Cfg& g) {
  using It = boost::counting_iterator<std::size_t>;
  return std::pair{It(0), It(g.succ.size())};
}
inline std::size_t num_vertices(const Cfg& g) { return g.succ.size(); }
}  // namespace my

template <> struct boost::graph_traits<my::Cfg> {
  using vertex_descriptor = std::size_t;
  using edge_descriptor = my::Edge;
};
static_assert(kildall::ForwardAnalysisGraph<my::Cfg>);

// --- docs/concepts.md: the smallest bounded lattice ---------------------------
struct Bit {
  bool value = false;
  [[nodiscard]] kildall::ChangeResult join(const Bit& o) {
    const bool before = value;
    value = value || o.value;
    return kildall::change_if(before != value);
  }
  [[nodiscard]] bool leq(const Bit& o) const { return !value || o.value; }
  static Bit bottom() { return {}; }
  static Bit top() { return {true}; }
  [[nodiscard]] bool is_bottom() const { return !value; }
  [[nodiscard]] bool is_top() const { return value; }
  friend bool operator==(const Bit&, const Bit&) = default;
};
static_assert(kildall::BoundedLattice<Bit>);

TEST_CASE("the documented graph works with generic code") {
  const my::Cfg cfg{{{1, 2}, {3}, {3}, {}}};
  const auto order = kildall::reverse_postorder(cfg, std::size_t{0});
  REQUIRE(order.size() == 4);
  CHECK(order.front() == 0);
  CHECK(order.back() == 3);
}

TEST_CASE("the documented lattice behaves as a two-point chain") {
  Bit a = Bit::bottom();
  CHECK(a.is_bottom());
  CHECK(kildall::is_changed(a.join(Bit::top())));
  CHECK(a.is_top());
  CHECK_FALSE(kildall::is_changed(a.join(Bit::bottom())));
  CHECK(Bit::bottom().leq(Bit::top()));
  CHECK_FALSE(Bit::top().leq(Bit::bottom()));
}
