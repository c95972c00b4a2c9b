// A downstream program: analyses a Boost.Graph CFG with kildall's core.
#include <kildall/kildall.hpp>

#include <boost/graph/adjacency_list.hpp>

#include <cstdio>
#include <string_view>

int main() {
  using Cfg = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  Cfg cfg(4);
  add_edge(0, 1, cfg);
  add_edge(0, 2, cfg);
  add_edge(1, 3, cfg);
  add_edge(2, 3, cfg);
  const auto order = kildall::reverse_postorder(cfg, std::size_t{0});
  if (order.size() != 4 || order.front() != 0 || order.back() != 3) {
    std::puts("consumer: wrong reverse post-order");
    return 1;
  }
  if (std::string_view(kildall::version_string).empty()) return 1;
  std::printf("consumer: ok (%s) kildall %s\n", KILDALL_CONSUME_MODE, kildall::version_string);
  return 0;
}
