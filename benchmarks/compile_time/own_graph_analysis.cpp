// The translation unit benchmarks/compile_time.sh times: the whole core
// (<kildall/kildall.hpp>), a compiler's own CFG adapted in a few lines, and
// one analysis (reaching definitions with the dense solver, checked by
// verify_fixpoint). No Boost header: a compiler's own graph does not need one.
#include <kildall/kildall.hpp>

#include <cstddef>
#include <cstdio>
#include <utility>
#include <vector>

namespace mycc {

/// A branch between two blocks, by index.
struct Edge {
  std::size_t from;  ///< the block branching
  std::size_t to;    ///< the block branched to
};

/// A compiler's CFG: blocks by index, with their out- and in-edges.
struct Cfg {
  std::vector<std::vector<Edge>> succ;  ///< out-edges of each block
  std::vector<std::vector<Edge>> pred;  ///< in-edges of each block
  explicit Cfg(std::size_t blocks) : succ(blocks), pred(blocks) {}
  void branch(std::size_t from, std::size_t to) {
    succ[from].push_back({from, to});
    pred[to].push_back({from, to});
  }
};

// The adapter: five free functions found by argument-dependent lookup.
inline auto out_edges(std::size_t b, const Cfg& g) { return std::pair(g.succ[b].cbegin(), g.succ[b].cend()); }
inline auto in_edges(std::size_t b, const Cfg& g) { return std::pair(g.pred[b].cbegin(), g.pred[b].cend()); }
inline std::size_t target(const Edge& e, const Cfg&) { return e.to; }
inline std::size_t source(const Edge& e, const Cfg&) { return e.from; }

/// Counts 0, 1, ... (the block indices).
struct BlockIterator {
  using value_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  std::size_t block = 0;
  std::size_t operator*() const { return block; }
  BlockIterator& operator++() { return ++block, *this; }
  BlockIterator operator++(int) { return BlockIterator{block++}; }
  bool operator==(const BlockIterator&) const = default;
};
inline auto vertices(const Cfg& g) { return std::pair(BlockIterator{0}, BlockIterator{g.succ.size()}); }
inline std::size_t num_vertices(const Cfg& g) { return g.succ.size(); }

}  // namespace mycc

/// The descriptors (block indices are their own dense index).
template <>
struct boost::graph_traits<mycc::Cfg> {
  using vertex_descriptor = std::size_t;  ///< a block
  using edge_descriptor = mycc::Edge;     ///< a branch
};

/// Reaching definitions: out = gen + (in - kill).
struct ReachingDefinitions {
  using lattice_type = kildall::Bitset;
  std::vector<kildall::Bitset> gen, kill;
  kildall::Bitset boundary(std::size_t) const { return {}; }
  kildall::Bitset transfer(std::size_t b, kildall::Bitset reaching) const {
    reaching.subtract(kill[b]);
    (void)reaching.join(gen[b]);
    return reaching;
  }
};

int main() {
  mycc::Cfg cfg(4);  // 0: x = 0 (d0); y = 5 (d1)   1: while (x < y)   2: x = x + 1 (d2)   3: return x
  cfg.branch(0, 1);
  cfg.branch(1, 2);
  cfg.branch(2, 1);
  cfg.branch(1, 3);
  const ReachingDefinitions problem{{{0, 1}, {}, {2}, {}}, {{2}, {}, {0}, {}}};
  const auto result = kildall::solve_forward(cfg, std::size_t{0}, problem);
  if (!result.converged() || !kildall::verify_fixpoint(problem, result).ok()) return 1;
  for (std::size_t b = 0; b < 4; ++b) {
    std::printf("reaching the end of block %zu:", b);
    for (std::size_t d : *result.after(b)) std::printf(" d%zu", d);
    std::printf("\n");
  }
  return 0;
}
