// Reaching definitions on a Boost.Graph CFG: which assignments may reach each point?
#include <kildall/kildall.hpp>
#include <boost/graph/adjacency_list.hpp>
#include <iostream>
#include <vector>

using Cfg = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
struct ReachingDefinitions {
  using lattice_type = kildall::Bitset;    // the numbers of the definitions that may reach a point
  std::vector<kildall::Bitset> gen, kill;  // per block: the definitions it makes / overwrites
  kildall::Bitset boundary(std::size_t) const { return {}; }  // nothing is defined on entry
  kildall::Bitset transfer(std::size_t b, kildall::Bitset reaching) const {
    reaching.subtract(kill[b]);
    (void)reaching.join(gen[b]);  // out = gen + (in - kill); join says whether it grew
    return reaching;
  }
};

int main() {
  Cfg cfg(4);  // 0: x = 0 (d0); y = 5 (d1)   1: while (x < y)   2: x = x + 1 (d2)   3: return x
  add_edge(0, 1, cfg); add_edge(1, 2, cfg); add_edge(2, 1, cfg); add_edge(1, 3, cfg);
  const ReachingDefinitions problem{{{0, 1}, {}, {2}, {}}, {{2}, {}, {0}, {}}};  // gen and kill of blocks 0..3
  const auto result = kildall::solve_forward(cfg, std::size_t{0}, problem);
  if (!result.converged() || !kildall::verify_fixpoint(problem, result).ok()) return 1;
  for (std::size_t b = 0; b < 4; ++b) {
    std::cout << "reaching the end of block " << b << ":";
    for (std::size_t d : *result.after(b)) std::cout << " d" << d;
    std::cout << '\n';
  }
}
