#pragma once
/// \file
/// Internal: a compressed-sparse-row graph over dense `std::uint32_t`
/// indices, the form the sparse solver derives from an SSA program shape
/// (operands, dependents). Models `ForwardAnalysisGraph` so that the
/// iteration orders of `graph/` run on it unchanged.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <utility>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/solver/detail/large_array_allocator.hpp>

namespace kildall::detail {

/// Adjacency lists of `[0, n)` in two arrays: `begin[v]..begin[v+1]` indexes `target`.
class CsrGraph {
 public:
  using vertex_descriptor = std::uint32_t;  ///< A node index.
  /// An edge: its source and target indices.
  struct edge_descriptor {
    std::uint32_t source;  ///< Source index.
    std::uint32_t target;  ///< Target index.
  };

  /// Builds the lists from `(source, target)` pairs over `n` nodes, keeping the pairs' order per source.
  template <class Pairs>
  void assign(std::size_t n, const Pairs& pairs) {
    begin_.assign(n + 1, 0);
    for (const auto& [s, t] : pairs) ++begin_[s + 1];
    for (std::size_t v = 0; v < n; ++v) begin_[v + 1] += begin_[v];
    target_.resize(begin_[n]);
    std::vector<std::uint32_t> fill(begin_.begin(), begin_.end() - 1);
    for (const auto& [s, t] : pairs) target_[fill[s]++] = t;
  }

  /// Number of nodes.
  [[nodiscard]] std::size_t size() const noexcept { return begin_.empty() ? 0 : begin_.size() - 1; }
  /// The targets of `v`'s edges, in insertion order.
  [[nodiscard]] std::span<const std::uint32_t> targets(std::size_t v) const noexcept {
    return {target_.data() + begin_[v], begin_[v + 1] - begin_[v]};
  }
  /// Bytes held.
  [[nodiscard]] std::size_t bytes() const noexcept {
    return begin_.capacity() * sizeof(std::uint32_t) + target_.capacity() * sizeof(std::uint32_t);
  }

  /// Iterates the out-edges of one node.
  class edge_iterator {
   public:
    using value_type = edge_descriptor;
    using difference_type = std::ptrdiff_t;
    using reference = edge_descriptor;
    using pointer = void;
    using iterator_category = std::input_iterator_tag;
    using iterator_concept = std::forward_iterator_tag;
    edge_iterator() = default;
    edge_iterator(std::uint32_t source, const std::uint32_t* at) : source_(source), at_(at) {}
    edge_descriptor operator*() const { return {source_, *at_}; }
    edge_iterator& operator++() {
      ++at_;
      return *this;
    }
    edge_iterator operator++(int) {
      edge_iterator copy = *this;
      ++at_;
      return copy;
    }
    friend bool operator==(const edge_iterator& a, const edge_iterator& b) { return a.at_ == b.at_; }

   private:
    std::uint32_t source_ = 0;
    const std::uint32_t* at_ = nullptr;
  };

  /// Iterates node indices.
  class vertex_iterator {
   public:
    using value_type = std::uint32_t;
    using difference_type = std::ptrdiff_t;
    using reference = std::uint32_t;
    using pointer = void;
    using iterator_category = std::input_iterator_tag;
    using iterator_concept = std::forward_iterator_tag;
    vertex_iterator() = default;
    explicit vertex_iterator(std::uint32_t i) : i_(i) {}
    std::uint32_t operator*() const { return i_; }
    vertex_iterator& operator++() {
      ++i_;
      return *this;
    }
    vertex_iterator operator++(int) {
      vertex_iterator copy = *this;
      ++i_;
      return copy;
    }
    friend bool operator==(vertex_iterator, vertex_iterator) = default;

   private:
    std::uint32_t i_ = 0;
  };

  friend std::pair<edge_iterator, edge_iterator> out_edges(std::uint32_t v, const CsrGraph& g) {
    const std::uint32_t* base = g.target_.data();
    return {edge_iterator(v, base + g.begin_[v]), edge_iterator(v, base + g.begin_[v + 1])};
  }
  friend std::uint32_t target(const edge_descriptor& e, const CsrGraph&) { return e.target; }
  friend std::uint32_t source(const edge_descriptor& e, const CsrGraph&) { return e.source; }
  friend std::pair<vertex_iterator, vertex_iterator> vertices(const CsrGraph& g) {
    return {vertex_iterator(0), vertex_iterator(static_cast<std::uint32_t>(g.size()))};
  }
  friend std::size_t num_vertices(const CsrGraph& g) { return g.size(); }

 private:
  std::vector<std::uint32_t, LargeArrayAllocator<std::uint32_t>> begin_;
  std::vector<std::uint32_t, LargeArrayAllocator<std::uint32_t>> target_;
};

static_assert(ForwardAnalysisGraph<CsrGraph>);

}  // namespace kildall::detail
