// The core without Boost: <kildall/kildall.hpp> includes no Boost header, a
// compiler's own graph specializes boost::graph_traits through kildall's
// declaration alone, gives a non-integral vertex its index through kildall's
// hook, and the dense solver runs on it.
#include <kildall/kildall.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <utility>
#include <vector>

#if defined(BOOST_VERSION) || defined(BOOST_GRAPH_TRAITS_HPP) || defined(BOOST_GRAPH_PROPERTIES_HPP)
#error "the core must not include Boost headers (docs/graphs.md, 'The core includes no Boost header')"
#endif

namespace pcc {

/// Blocks are handled by pointer, so the index must come from the hook.
struct Block {
  std::size_t id;
  std::vector<Block*> succ;
  std::vector<Block*> pred;
};
struct Function {
  std::vector<Block*> blocks;  ///< by id
};
struct Edge {
  Block* from;
  Block* to;
};

/// Iterates a block's successor (or predecessor) list as edges.
struct EdgeIterator {
  using value_type = Edge;
  using difference_type = std::ptrdiff_t;
  Block* self = nullptr;
  Block* const* at = nullptr;
  bool outgoing = true;
  Edge operator*() const { return outgoing ? Edge{self, *at} : Edge{*at, self}; }
  EdgeIterator& operator++() { return ++at, *this; }
  EdgeIterator operator++(int) { EdgeIterator old = *this; ++at; return old; }
  bool operator==(const EdgeIterator& other) const { return at == other.at; }
};

inline std::pair<EdgeIterator, EdgeIterator> out_edges(Block* b, const Function&) {
  return {{b, b->succ.data(), true}, {b, b->succ.data() + b->succ.size(), true}};
}
inline std::pair<EdgeIterator, EdgeIterator> in_edges(Block* b, const Function&) {
  return {{b, b->pred.data(), false}, {b, b->pred.data() + b->pred.size(), false}};
}
inline Block* target(const Edge& e, const Function&) { return e.to; }
inline Block* source(const Edge& e, const Function&) { return e.from; }
inline auto vertices(const Function& f) { return std::pair(f.blocks.cbegin(), f.blocks.cend()); }
inline std::size_t num_vertices(const Function& f) { return f.blocks.size(); }
inline std::size_t vertex_index_of(kildall::vertex_index_tag, const Function&, Block* b) { return b->id; }

}  // namespace pcc

template <>
struct boost::graph_traits<pcc::Function> {
  using vertex_descriptor = pcc::Block*;
  using edge_descriptor = pcc::Edge;
};

namespace {

/// The lengths (below 8) of the paths from the entry to each block.
struct Depth {
  using lattice_type = kildall::Bitset;  // a set of path lengths
  kildall::Bitset boundary(pcc::Block*) const { return {0}; }
  kildall::Bitset transfer(pcc::Block*, kildall::Bitset in) const {
    kildall::Bitset out;
    for (std::size_t d : in) {
      if (d + 1 < 8) (void)out.join(kildall::Bitset{d + 1});
    }
    return out;
  }
};

}  // namespace

TEST_CASE("a pointer-vertex CFG is an analysis graph without any Boost header") {
  static_assert(kildall::AnalysisGraph<pcc::Function>);
  std::vector<pcc::Block> storage(4);
  pcc::Function f;
  for (std::size_t i = 0; i < 4; ++i) {
    storage[i].id = 3 - i;  // ids are not the storage order
    f.blocks.push_back(nullptr);
  }
  for (auto& b : storage) f.blocks[b.id] = &b;
  auto branch = [](pcc::Block& from, pcc::Block& to) {
    from.succ.push_back(&to);
    to.pred.push_back(&from);
  };
  branch(storage[0], storage[1]);  // a diamond 0 -> {1, 2} -> 3
  branch(storage[0], storage[2]);
  branch(storage[1], storage[3]);
  branch(storage[2], storage[3]);
  for (auto& b : storage) CHECK(kildall::vertex_index(f, &b) == b.id);

  const auto result = kildall::solve_forward(f, &storage[0], Depth{});
  REQUIRE(result.converged());
  CHECK(kildall::verify_fixpoint(Depth{}, result).ok());
  CHECK(*result.before(&storage[3]) == kildall::Bitset{2});
  CHECK(*result.after(&storage[3]) == kildall::Bitset{3});
}
