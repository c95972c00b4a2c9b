// The noisy model on a graph kildall has never seen: a Boost.Graph
// adjacency_list whose vertices are ops of a noisy program (a DAG; edges go
// from an operand to its user, in operand order). Adapting it takes one
// free function, `noisy_op`, found by argument-dependent lookup through the
// vertex property's namespace. Then the noise analysis, the verifier, the
// greedy placement and the generic rewrite all run on it unchanged.

#include <cstddef>
#include <iostream>
#include <string>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include <kildall/noisy.hpp>

namespace circuit {

using kildall::noisy::NoisyOp;

/// One op of the circuit.
struct Gate {
  NoisyOp kind;
  std::string name;
};

/// The circuit: vertices are gates, an edge a -> b means "b reads a".
using Circuit = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, Gate>;
using Node = Circuit::vertex_descriptor;

/// The whole adaptation: what kind of op a vertex is.
NoisyOp noisy_op(const Circuit& g, Node v) { return g[v].kind; }

Node gate(Circuit& g, NoisyOp kind, std::string name, std::vector<Node> operands = {}) {
  const Node v = boost::add_vertex(g);
  g[v] = Gate{kind, std::move(name)};
  for (const Node o : operands) boost::add_edge(o, v, g);
  return v;
}

/// Editing the circuit: what the generic rewrite needs.
struct Editor {
  using value_type = Node;
  Circuit* g;
  Node insert_reduce_noise_after(Node v) { return gate(*g, NoisyOp::reduce_noise, "reduce(" + (*g)[v].name + ")", {v}); }
  void redirect_uses(Node v, Node r) {
    std::vector<Node> users;
    for (auto [it, end] = boost::out_edges(v, *g); it != end; ++it)
      if (boost::target(*it, *g) != r) users.push_back(boost::target(*it, *g));
    for (const Node u : users) {
      std::vector<Node> operands;
      for (auto [it, end] = boost::in_edges(u, *g); it != end; ++it) operands.push_back(boost::source(*it, *g));
      boost::clear_in_edges(u, *g);
      for (const Node o : operands) boost::add_edge(o == v ? r : o, u, *g);
    }
  }
};

}  // namespace circuit

int main() {
  using namespace kildall::noisy;
  using circuit::gate;
  static_assert(NoisyProgram<circuit::Circuit>);

  // The article's test_single_insertion_branching, as a circuit.
  circuit::Circuit g;
  const auto x = gate(g, NoisyOp::encode, "x");
  const auto y = gate(g, NoisyOp::encode, "y");
  const auto m = gate(g, NoisyOp::mul, "m", {x, y});
  auto b = m, c = m;
  for (int i = 1; i <= 4; ++i) {
    b = gate(g, NoisyOp::add, std::string("b").append(std::to_string(i)), {b, y});
    c = gate(g, NoisyOp::sub, std::string("c").append(std::to_string(i)), {c, i == 1 ? x : y});
  }
  gate(g, NoisyOp::decode, "out_b", {b});
  gate(g, NoisyOp::decode, "out_c", {c});

  const auto analysis = analyze_noise(g);
  for (const auto v : kildall::vertex_range(g)) {
    if (!is_noisy_value(g[v].kind)) continue;
    std::cout << g[v].name << ": noise " << analysis.noise_bound(v).value_or(0) << "\n";
  }
  for (const auto& violation : find_noise_violations(analysis))
    std::cout << g[violation.value].name << ": " << noise_violation_message(26, violation.noise) << "\n";

  const auto placement = place_reduce_noise_greedy(g);
  std::cout << "greedy places " << placement.size() << " reduce_noise:";
  for (const auto v : placement) std::cout << " after " << g[v].name;
  std::cout << "\n";

  circuit::Editor editor{&g};
  (void)insert_reduce_noise(editor, placement);
  const bool legal = verify_noise(g).empty();
  std::cout << (legal ? "after the rewrite: legal\n" : "after the rewrite: still illegal\n");
  return legal ? 0 : 1;
}
