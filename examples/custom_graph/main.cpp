// kildall on a compiler's own CFG: `cfg.hpp` adapts mycc::Cfg in a few lines;
// here we run kildall's graph algorithms on it as-is.

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/reverse_postorder.hpp>
#include <kildall/graph/reversed.hpp>
#include <kildall/graph/scc.hpp>

#include <cstddef>
#include <iostream>
#include <string>
#include <vector>

#include "custom_graph/cfg.hpp"
#include "classic_analyses/mycc_liveness.hpp"

// The adapter makes the compiler's CFG a full analysis graph.
static_assert(kildall::AnalysisGraph<mycc::Cfg>);
static_assert(kildall::AnalysisGraph<kildall::Reversed<mycc::Cfg>>);

namespace {

std::string names(const mycc::Cfg& cfg, const std::vector<std::size_t>& blocks) {
  std::string out;
  for (std::size_t b : blocks) out += (out.empty() ? "" : " ") + cfg.blocks[b].name;
  return out;
}

}  // namespace

int main() {
  const mycc::Cfg cfg = mycc::sample_cfg();
  const std::size_t entry = 0;

  std::cout << "blocks:\n";
  for (const mycc::Block& b : cfg.blocks) {
    std::cout << "  " << b.name << ":";
    for (const mycc::Instruction& i : b.instructions) std::cout << "  " << i.text << ";";
    std::cout << "  ->";
    for (std::size_t s : b.successors) std::cout << " " << cfg.blocks[s].name;
    std::cout << "\n";
  }

  // Reverse post-order from the entry: the classic forward iteration order
  // (`IterationOrder::reverse_postorder`; the solvers' default is the weak
  // topological order of kildall/graph/wto.hpp).
  const std::vector<std::size_t> rpo = kildall::reverse_postorder(cfg, entry);
  std::cout << "reverse post-order: " << names(cfg, rpo) << "\n";

  // Blocks RPO never reached are dead.
  const auto position = kildall::order_positions(cfg, rpo);
  std::vector<std::size_t> unreachable;
  for (std::size_t b = 0; b < cfg.blocks.size(); ++b) {
    if (!position[b]) unreachable.push_back(b);
  }
  std::cout << "unreachable: " << names(cfg, unreachable) << "\n";

  // Loops are the cyclic strongly connected components. Searching from the
  // entry first makes each component's first member its header.
  const std::size_t roots[] = {entry};
  const auto scc = kildall::strongly_connected_components(cfg, roots);
  std::cout << "strongly connected components (sinks first):";
  for (std::size_t c = 0; c < scc.count(); ++c) {
    const auto members = scc.members(c);
    std::cout << " {" << names(cfg, {members.begin(), members.end()}) << "}";
  }
  std::cout << "\n";
  for (std::size_t c = 0; c < scc.count(); ++c) {
    if (!scc.is_cyclic(c)) continue;
    const auto members = scc.members(c);
    std::cout << "loop headed by " << cfg.blocks[members.front()].name << ": "
              << names(cfg, {members.begin(), members.end()})
              << (members.size() == 1 ? " (self-loop)" : "") << "\n";
  }

  // A loop nested in another shares its component; self-loops are asked directly.
  for (std::size_t b = 0; b < cfg.blocks.size(); ++b) {
    if (kildall::has_self_loop(cfg, b)) std::cout << "self-loop: " << cfg.blocks[b].name << "\n";
  }

  // Backward analyses run on the same graph with its edges flipped: no copy.
  const std::size_t exit = 4;
  const kildall::Reversed backward(cfg);
  std::cout << "backward order (RPO of the reversed CFG from exit): "
            << names(cfg, kildall::reverse_postorder(backward, exit)) << "\n";

  // Live variables: a backward dataflow problem solved by kildall's dense
  // solver directly on this CFG (examples/classic_analyses/mycc_liveness.hpp).
  classic::print_live_in(std::cout, cfg);

  std::cout << "done\n";
  return 0;
}
