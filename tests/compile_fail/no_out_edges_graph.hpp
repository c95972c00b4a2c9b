#pragma once
// A user graph that specializes boost::graph_traits and offers everything
// kildall::reverse_postorder needs except `out_edges`, unless
// KILDALL_TEST_WITH_OUT_EDGES is defined (the positive control).

#include <cstddef>
#include <utility>
#include <vector>

#include <boost/graph/graph_traits.hpp>

namespace user {

struct Edge {
  std::size_t from;
  std::size_t to;
};

struct Cfg {
  std::vector<std::vector<Edge>> successors;
};

inline std::size_t target(const Edge& e, const Cfg&) { return e.to; }
inline std::size_t num_vertices(const Cfg& g) { return g.successors.size(); }

struct VertexIterator {
  using value_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  std::size_t v = 0;
  std::size_t operator*() const { return v; }
  VertexIterator& operator++() {
    ++v;
    return *this;
  }
  VertexIterator operator++(int) {
    VertexIterator old = *this;
    ++v;
    return old;
  }
  bool operator==(const VertexIterator&) const = default;
};
inline std::pair<VertexIterator, VertexIterator> vertices(const Cfg& g) {
  return {VertexIterator{0}, VertexIterator{g.successors.size()}};
}

#ifdef KILDALL_TEST_WITH_OUT_EDGES
inline auto out_edges(std::size_t v, const Cfg& g) {
  return std::pair(g.successors[v].begin(), g.successors[v].end());
}
#endif

}  // namespace user

template <>
struct boost::graph_traits<user::Cfg> {
  using vertex_descriptor = std::size_t;
  using edge_descriptor = user::Edge;
};
