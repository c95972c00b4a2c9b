#pragma once
/// \file
/// `VertexMap<G, T>`: one `T` per vertex of an `IndexedGraph`, stored densely
/// in a `std::vector` at each vertex's `kildall::vertex_index` (the
/// "vector property map" of Boost.Graph, keyed by any vertex descriptor).
/// Solvers keep their per-vertex lattice values, worklist flags and orders in
/// it: lookups are array accesses, never hashing.

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <kildall/graph/concepts.hpp>

namespace kildall {

/// A dense map from the vertices of a graph to values of type `T`. Holds a
/// pointer to the graph (which must outlive the map) so that `operator[]` can
/// take a vertex; the size is fixed at `num_vertices(g)` on construction.
/// For `T = bool` the storage is `std::vector<bool>` and references are proxies.
template <IndexedGraph G, std::copyable T>
class VertexMap {
 public:
  /// Mutable reference to a value (a proxy when `T` is `bool`).
  using reference = typename std::vector<T>::reference;
  /// Read-only reference to a value.
  using const_reference = typename std::vector<T>::const_reference;

  /// A map giving every vertex of `g` the value `T{}`.
  explicit VertexMap(const G& g)
    requires std::default_initializable<T>
      : graph_(std::addressof(g)), values_(vertex_count(g)) {}

  /// A map giving every vertex of `g` the value `initial`.
  VertexMap(const G& g, const T& initial) : graph_(std::addressof(g)), values_(vertex_count(g), initial) {}

  /// The value of vertex `v` (unchecked, like `std::vector::operator[]`).
  [[nodiscard]] reference operator[](const vertex_t<G>& v) { return values_[vertex_index(*graph_, v)]; }
  /// The value of vertex `v` (unchecked).
  [[nodiscard]] const_reference operator[](const vertex_t<G>& v) const {
    return values_[vertex_index(*graph_, v)];
  }

  /// The value of vertex `v`; throws `std::out_of_range` naming the index if
  /// the graph's `vertex_index` of `v` is not below `size()`.
  [[nodiscard]] reference at(const vertex_t<G>& v) { return values_[checked(vertex_index(*graph_, v))]; }
  /// The value of vertex `v`, checked as the mutable `at`.
  [[nodiscard]] const_reference at(const vertex_t<G>& v) const {
    return values_[checked(vertex_index(*graph_, v))];
  }

  /// The value at vertex index `index` (unchecked).
  [[nodiscard]] reference at_index(std::size_t index) { return values_[index]; }
  /// The value at vertex index `index` (unchecked).
  [[nodiscard]] const_reference at_index(std::size_t index) const { return values_[index]; }

  /// The number of values: `num_vertices(g)` at construction.
  [[nodiscard]] std::size_t size() const noexcept { return values_.size(); }

  /// Sets every vertex's value to `value`.
  void fill(const T& value) { std::fill(values_.begin(), values_.end(), value); }

  /// All values, in vertex-index order.
  [[nodiscard]] const std::vector<T>& values() const noexcept { return values_; }

  /// The graph this map belongs to.
  [[nodiscard]] const G& graph() const noexcept { return *graph_; }

  /// Maps are equal when they hold equal values (the graphs are not compared).
  [[nodiscard]] friend bool operator==(const VertexMap& a, const VertexMap& b)
    requires std::equality_comparable<T>
  {
    return a.values_ == b.values_;
  }

 private:
  [[nodiscard]] std::size_t checked(std::size_t index) const {
    if (index >= values_.size()) {
      throw std::out_of_range("kildall::VertexMap: vertex_index " + std::to_string(index) +
                              " is not below the map's size " + std::to_string(values_.size()));
    }
    return index;
  }

  const G* graph_;
  std::vector<T> values_;
};

}  // namespace kildall
