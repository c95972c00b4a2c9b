// Must NOT compile: user::Cfg has no out_edges, so it is not a ForwardGraph.
// tests/compile_fail/CMakeLists.txt checks the compiler names what is missing.
#include <kildall/graph/reverse_postorder.hpp>

#include "no_out_edges_graph.hpp"

int main() {
  const user::Cfg cfg{{{user::Edge{0, 1}}, {}}};
  return static_cast<int>(kildall::reverse_postorder(cfg, std::size_t{0}).size());
}
