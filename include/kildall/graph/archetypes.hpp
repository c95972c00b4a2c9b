#pragma once
/// \file
/// Graph archetypes: the least a type can offer and still model one of
/// kildall's graph concepts, after Boost.Graph's archetype classes
/// (`boost/graph/graph_archetypes.hpp`; Siek, Lee & Lumsdaine, "The Boost
/// Graph Library", 2002, ch. 2.4). A generic algorithm that compiles and runs
/// against the archetype of the concept it asks for relies on nothing more
/// than that concept; one that quietly needs more (integral vertices, a
/// default-constructible descriptor, a multi-pass iterator, `edge ==`, a
/// copy of the graph, `num_vertices` where only successors were promised)
/// fails to compile here instead of at a user's door.
///
/// What every archetype gives, and nothing else:
///   - opaque vertex and edge descriptors (a class wrapping an index: not
///     integral, not default-constructible, not ordered or hashable; edges are
///     not even equality-comparable, as the concepts do not ask it);
///   - a `boost::graph_traits` specialization naming only the two descriptors;
///   - only the free functions (hidden friends, found by ADL) its concept
///     requires, each returning a pair of input-only iterators;
///   - no copy and no move of the graph itself.
/// Tests build archetypes from an edge list; `vertex_at(i)` and
/// `vertex::id()` exist for tests and are not part of any concept.

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>

namespace kildall::archetypes {

/// An opaque vertex handle: copyable and equality-comparable, nothing more.
class vertex {
 public:
  /// The vertex numbered `id` in the edge list the archetype was built from.
  explicit vertex(std::size_t id) : id_(id) {}
  /// The number this vertex had in the edge list (for tests, not for algorithms).
  [[nodiscard]] std::size_t id() const { return id_; }
  /// Vertices are equal when they name the same vertex.
  friend bool operator==(const vertex&, const vertex&) = default;

 private:
  std::size_t id_;
};

/// An opaque edge handle: copyable, and not even equality-comparable.
class edge {
 public:
  /// The edge at position `id` in the edge list the archetype was built from.
  explicit edge(std::size_t id) : id_(id) {}
  /// The position of this edge in the edge list (for tests, not for algorithms).
  [[nodiscard]] std::size_t id() const { return id_; }

 private:
  std::size_t id_;
};

namespace detail {

/// A single-pass iterator yielding `Value` by value (a C++20
/// `std::input_iterator` that is not a `std::forward_iterator`). `Position` is
/// either a `const std::size_t*` into a list of ids or a plain counter.
template <class Value, class Position>
class input_only_iterator {
 public:
  using iterator_concept = std::input_iterator_tag;
  using iterator_category = std::input_iterator_tag;
  using value_type = Value;
  using difference_type = std::ptrdiff_t;
  using reference = Value;
  using pointer = void;

  /// A singular iterator (C++20 sentinels must be default-constructible).
  input_only_iterator() = default;
  /// An iterator at `position`.
  explicit input_only_iterator(Position position) : position_(position) {}

  /// The current element, by value.
  [[nodiscard]] Value operator*() const {
    if constexpr (std::is_pointer_v<Position>) {
      return Value(*position_);
    } else {
      return Value(position_);
    }
  }
  /// Advances; an input iterator promises nothing about copies made before.
  input_only_iterator& operator++() {
    ++position_;
    return *this;
  }
  /// Post-increment of an input-only iterator returns nothing.
  void operator++(int) { ++position_; }
  /// Iterators over the same sequence are equal at the same position.
  friend bool operator==(const input_only_iterator&, const input_only_iterator&) = default;

 private:
  Position position_{};
};

/// The edge list in compressed-row form, by source and by target.
struct edge_storage {
  std::size_t vertex_count = 0;
  std::vector<std::size_t> sources;      ///< by edge id
  std::vector<std::size_t> targets;      ///< by edge id
  std::vector<std::size_t> out_offsets;  ///< out_ids[out_offsets[v] .. out_offsets[v+1])
  std::vector<std::size_t> out_ids;      ///< edge ids grouped by source, in edge-list order
  std::vector<std::size_t> in_offsets;   ///< in_ids[in_offsets[v] .. in_offsets[v+1])
  std::vector<std::size_t> in_ids;       ///< edge ids grouped by target, in edge-list order

  edge_storage(std::size_t n, std::span<const std::pair<std::size_t, std::size_t>> edges)
      : vertex_count(n), out_offsets(n + 1, 0), in_offsets(n + 1, 0) {
    sources.reserve(edges.size());
    targets.reserve(edges.size());
    for (std::size_t id = 0; id < edges.size(); ++id) {
      const auto [from, to] = edges[id];
      if (from >= n || to >= n) {
        throw std::out_of_range("kildall::archetypes: edge " + std::to_string(id) + " (" +
                                std::to_string(from) + " -> " + std::to_string(to) +
                                ") names a vertex outside [0, " + std::to_string(n) + ")");
      }
      sources.push_back(from);
      targets.push_back(to);
      ++out_offsets[from + 1];
      ++in_offsets[to + 1];
    }
    for (std::size_t v = 0; v < n; ++v) {
      out_offsets[v + 1] += out_offsets[v];
      in_offsets[v + 1] += in_offsets[v];
    }
    out_ids.resize(edges.size());
    in_ids.resize(edges.size());
    std::vector<std::size_t> out_fill(out_offsets.begin(), out_offsets.end() - 1);
    std::vector<std::size_t> in_fill(in_offsets.begin(), in_offsets.end() - 1);
    for (std::size_t id = 0; id < edges.size(); ++id) {
      out_ids[out_fill[sources[id]]++] = id;
      in_ids[in_fill[targets[id]]++] = id;
    }
  }
};

}  // namespace detail

/// Which operations an archetype offers. `indexed` requires `vertex_list`
/// (as `IndexedGraph` refines `VertexListGraph`).
struct capabilities {
  bool forward = false;      ///< `out_edges(v, g)`, `target(e, g)`
  bool backward = false;     ///< `in_edges(v, g)`, `source(e, g)`
  bool vertex_list = false;  ///< `vertices(g)`, `num_vertices(g)`
  bool indexed = false;      ///< `vertex_index_of(kildall::vertex_index_tag, g, v)`
};

/// A graph offering exactly the operations in `Caps`, built from an edge list
/// over vertices `0 .. n-1`. Out- and in-edges come in edge-list order, as
/// they do in a `boost::adjacency_list` built by `add_edge` in the same order.
template <capabilities Caps>
  requires(!Caps.indexed || Caps.vertex_list)
class graph {
 public:
  /// The iterator of `out_edges` and `in_edges`.
  using edge_iterator = detail::input_only_iterator<edge, const std::size_t*>;
  /// The iterator of `vertices`.
  using vertex_iterator = detail::input_only_iterator<vertex, std::size_t>;

  /// A graph on vertices `0 .. num_vertices-1` with the given `(source, target)`
  /// edges; throws `std::out_of_range` naming the first edge with an endpoint
  /// outside that range.
  graph(std::size_t num_vertices, std::span<const std::pair<std::size_t, std::size_t>> edges)
      : storage_(num_vertices, edges) {}
  /// Same, from a braced list of edges.
  graph(std::size_t num_vertices, std::initializer_list<std::pair<std::size_t, std::size_t>> edges)
      : storage_(num_vertices, std::span(edges.begin(), edges.size())) {}
  /// Same, from a vector of edges.
  graph(std::size_t num_vertices, const std::vector<std::pair<std::size_t, std::size_t>>& edges)
      : storage_(num_vertices, std::span(edges)) {}

  /// Algorithms take graphs by reference: an archetype cannot be copied or moved.
  graph(const graph&) = delete;
  /// Not assignable either.
  graph& operator=(const graph&) = delete;
  /// Releases the edge storage.
  ~graph() = default;

  /// The vertex numbered `id` (for tests: the concepts offer no such thing);
  /// throws `std::out_of_range` if `id` is not a vertex.
  [[nodiscard]] vertex vertex_at(std::size_t id) const {
    if (id >= storage_.vertex_count) {
      throw std::out_of_range("kildall::archetypes: no vertex " + std::to_string(id));
    }
    return vertex(id);
  }

  /// ForwardGraph: the out-edges of `v`.
  [[nodiscard]] friend std::pair<edge_iterator, edge_iterator> out_edges(const vertex& v, const graph& g)
    requires(Caps.forward)
  {
    const std::size_t* ids = g.storage_.out_ids.data();
    return {edge_iterator(ids + g.storage_.out_offsets[v.id()]),
            edge_iterator(ids + g.storage_.out_offsets[v.id() + 1])};
  }
  /// ForwardGraph: the vertex edge `e` leads to.
  [[nodiscard]] friend vertex target(const edge& e, const graph& g)
    requires(Caps.forward)
  {
    return vertex(g.storage_.targets[e.id()]);
  }
  /// BackwardGraph: the in-edges of `v`.
  [[nodiscard]] friend std::pair<edge_iterator, edge_iterator> in_edges(const vertex& v, const graph& g)
    requires(Caps.backward)
  {
    const std::size_t* ids = g.storage_.in_ids.data();
    return {edge_iterator(ids + g.storage_.in_offsets[v.id()]),
            edge_iterator(ids + g.storage_.in_offsets[v.id() + 1])};
  }
  /// BackwardGraph: the vertex edge `e` comes from.
  [[nodiscard]] friend vertex source(const edge& e, const graph& g)
    requires(Caps.backward)
  {
    return vertex(g.storage_.sources[e.id()]);
  }
  /// VertexListGraph: all vertices, in id order.
  [[nodiscard]] friend std::pair<vertex_iterator, vertex_iterator> vertices(const graph& g)
    requires(Caps.vertex_list)
  {
    return {vertex_iterator(0), vertex_iterator(g.storage_.vertex_count)};
  }
  /// VertexListGraph: the number of vertices.
  [[nodiscard]] friend std::size_t num_vertices(const graph& g)
    requires(Caps.vertex_list)
  {
    return g.storage_.vertex_count;
  }
  /// IndexedGraph: the dense index of `v`, through kildall's vertex-index hook.
  [[nodiscard]] friend std::size_t vertex_index_of(vertex_index_tag, const graph& g, const vertex& v)
    requires(Caps.indexed)
  {
    (void)g;
    return v.id();
  }

 private:
  detail::edge_storage storage_;
};

/// Models `ForwardGraph` only.
using forward_graph = graph<capabilities{.forward = true}>;
/// Models `BackwardGraph` only.
using backward_graph = graph<capabilities{.backward = true}>;
/// Models `BidirectionalGraph` only (no vertex list, no index).
using bidirectional_graph = graph<capabilities{.forward = true, .backward = true}>;
/// Models `VertexListGraph` only (no edges, no index).
using vertex_list_graph = graph<capabilities{.vertex_list = true}>;
/// Models `IndexedGraph` only (vertices and their index, no edges).
using indexed_graph = graph<capabilities{.vertex_list = true, .indexed = true}>;
/// Models `ForwardAnalysisGraph` only: what a forward solver, `reverse_postorder`
/// and `strongly_connected_components` need.
using forward_analysis_graph = graph<capabilities{.forward = true, .vertex_list = true, .indexed = true}>;
/// Models `AnalysisGraph`: both directions, vertex list, index.
using analysis_graph =
    graph<capabilities{.forward = true, .backward = true, .vertex_list = true, .indexed = true}>;

}  // namespace kildall::archetypes

/// The archetypes name their two descriptor types and nothing else.
template <kildall::archetypes::capabilities Caps>
struct boost::graph_traits<kildall::archetypes::graph<Caps>> {
  /// The opaque vertex handle.
  using vertex_descriptor = kildall::archetypes::vertex;
  /// The opaque edge handle.
  using edge_descriptor = kildall::archetypes::edge;
};
