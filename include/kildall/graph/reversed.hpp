#pragma once
/// \file
/// `Reversed<G>`: a non-owning view of a graph with every edge turned around
/// (the transpose graph, as in Boost.Graph's `reverse_graph`). Out-edges of
/// the view are the in-edges of `G` and the view's `target` is `G`'s
/// `source`, so a backward dataflow problem (liveness, post-dominators) runs
/// on the same forward engine as a forward one, without copying the graph.
///
/// Why not `boost::reverse_graph`: it requires `G` to be a complete Boost
/// BidirectionalGraph (traversal-category tags, iterator typedefs and degree
/// functions in `graph_traits<G>`), which kildall's concepts do not promise;
/// `Reversed` works for any type modelling kildall's concepts, archetypes
/// included.
///
/// The view offers exactly what the direction swap allows:
///   - `ForwardGraph`  when `G` is a `BackwardGraph` (out_edges = G's in_edges),
///   - `BackwardGraph` when `G` is a `ForwardGraph`  (in_edges = G's out_edges),
///   - `VertexListGraph` and `IndexedGraph` when `G` has them (passed through:
///     vertex descriptors and indices are those of `G`).
/// So `Reversed` of an `AnalysisGraph` is an `AnalysisGraph`, and reversing
/// twice gives back the original adjacency. Edge descriptors are `G`'s own, so
/// per-edge data keyed by `G`'s edges stays valid on the view (unlike Boost's
/// `reverse_graph`, `source`/`target` of the view must be called with the
/// view, not with `G`).

#include <cstddef>
#include <memory>

#include <kildall/graph/concepts.hpp>

namespace kildall {

/// A view of `g` with all edges reversed. Holds a pointer to `g`, which must
/// outlive the view.
template <Graph G>
class Reversed {
 public:
  /// The view of `g` reversed.
  explicit Reversed(const G& g) noexcept : graph_(std::addressof(g)) {}

  /// The graph being viewed.
  [[nodiscard]] const G& base() const noexcept { return *graph_; }

  /// ForwardGraph: the out-edges of `v` in the view are its in-edges in `G`.
  [[nodiscard]] friend auto out_edges(const vertex_t<G>& v, const Reversed& r)
    requires BackwardGraph<G>
  {
    return in_edges(v, *r.graph_);
  }
  /// ForwardGraph: an edge of the view leads to its source in `G`.
  [[nodiscard]] friend vertex_t<G> target(const edge_t<G>& e, const Reversed& r)
    requires BackwardGraph<G>
  {
    return source(e, *r.graph_);
  }
  /// BackwardGraph: the in-edges of `v` in the view are its out-edges in `G`.
  [[nodiscard]] friend auto in_edges(const vertex_t<G>& v, const Reversed& r)
    requires ForwardGraph<G>
  {
    return out_edges(v, *r.graph_);
  }
  /// BackwardGraph: an edge of the view comes from its target in `G`.
  [[nodiscard]] friend vertex_t<G> source(const edge_t<G>& e, const Reversed& r)
    requires ForwardGraph<G>
  {
    return target(e, *r.graph_);
  }
  /// VertexListGraph: the vertices of `G`.
  [[nodiscard]] friend auto vertices(const Reversed& r)
    requires VertexListGraph<G>
  {
    return vertices(*r.graph_);
  }
  /// VertexListGraph: the vertex count of `G`.
  [[nodiscard]] friend auto num_vertices(const Reversed& r)
    requires VertexListGraph<G>
  {
    return num_vertices(*r.graph_);
  }
  /// IndexedGraph: the index of `v` in `G` (kildall's vertex-index hook).
  [[nodiscard]] friend std::size_t vertex_index_of(vertex_index_tag, const Reversed& r, const vertex_t<G>& v)
    requires IndexedGraph<G>
  {
    return kildall::vertex_index(*r.graph_, v);
  }

 private:
  const G* graph_;
};

/// `Reversed(g)` deduces `Reversed<G>`. Caution: for a view `r` of type
/// `Reversed<H>`, `Reversed(r)` deduces a copy of `r` (class template argument
/// deduction prefers the copy constructor); write `reversed(r)` to reverse twice.
template <class G>
Reversed(const G&) -> Reversed<G>;

/// The view of `g` with every edge reversed: `Reversed<G>(g)`, also when `g`
/// is itself a `Reversed` view (then the result is the original adjacency).
template <Graph G>
[[nodiscard]] Reversed<G> reversed(const G& g) noexcept {
  return Reversed<G>(g);
}

}  // namespace kildall

/// `Reversed<G>` has `G`'s vertex and edge descriptors.
template <class G>
struct boost::graph_traits<kildall::Reversed<G>> {
  /// `G`'s vertex handle.
  using vertex_descriptor = kildall::vertex_t<G>;
  /// `G`'s edge handle (reversed only through the view's `source`/`target`).
  using edge_descriptor = kildall::edge_t<G>;
};
