#include <kildall/kildall.hpp>

#include <boost/graph/adjacency_list.hpp>

#include <iostream>
#include <vector>

using Cfg = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
struct Block { std::vector<std::size_t> uses, defs; };

// Live variables: live-in(b) = uses(b) | (live-out(b) - defs(b)), solved backward.
struct Liveness {
  using lattice_type = kildall::Bitset;
  const std::vector<Block>* blocks;
  kildall::Bitset boundary(std::size_t) const { return {}; }  // nothing live at exit
  kildall::Bitset transfer(std::size_t b, const kildall::Bitset& live_out) const {
    kildall::Bitset live = live_out;
    for (std::size_t d : (*blocks)[b].defs) live.reset(d);
    for (std::size_t u : (*blocks)[b].uses) live.set(u);
    return live;
  }
};

int main() {
  Cfg cfg(3);  // 0: x = 1   ->  1: loop, y = x + y  ->  2: return y
  add_edge(0, 1, cfg); add_edge(1, 1, cfg); add_edge(1, 2, cfg);
  const std::vector<Block> blocks{{{}, {0}}, {{0, 1}, {1}}, {{1}, {}}};
  const Liveness problem{&blocks};
  const auto result = kildall::solve_backward(cfg, std::size_t{2}, problem);
  if (!result.converged() || !kildall::verify_fixpoint(problem, result).ok()) return 1;
  for (std::size_t b = 0; b < 3; ++b) {  // before(b): the state at the top of block b
    std::cout << "live into block " << b << ":";
    for (std::size_t v : *result.before(b)) std::cout << ' ' << "xy"[v];
    std::cout << '\n';
  }
}
