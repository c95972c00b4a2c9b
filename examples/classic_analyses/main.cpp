// The classic dataflow analyses on one small function, run on a Boost.Graph
// CFG and on the hand-written mycc::Cfg of examples/custom_graph, with the
// same problem code: live variables, reaching definitions, available
// expressions, interval analysis (dense) and SCCP (sparse).

#include <cstddef>
#include <iostream>
#include <vector>

#include <kildall/solver/verify.hpp>

#include "available_expressions.hpp"
#include "constant_propagation.hpp"
#include "interval_analysis.hpp"
#include "live_variables.hpp"
#include "program.hpp"
#include "reaching_definitions.hpp"
#include "ssa.hpp"

namespace {

// x0 = 0; x1 = 1; while (x0 < 10) { x2 = x0 + x1; x0 = x2; } return x0;   (b4 is dead)
classic::Program sample() {
  using classic::Rhs;
  classic::Program p;
  p.num_vars = 3;
  p.blocks.resize(5);
  p.blocks[0].body = {{0, Rhs::constant, 0}, {1, Rhs::constant, 1}};
  p.blocks[0].successors = {1};
  p.blocks[1].branch = classic::Branch{0, 10};
  p.blocks[1].successors = {2, 3};
  p.blocks[2].body = {{2, Rhs::add, 0, 0, 1}, {0, Rhs::copy, 0, 2}};
  p.blocks[2].successors = {1};
  p.blocks[3].returns = {0};
  p.blocks[4].body = {{0, Rhs::input}};
  p.blocks[4].successors = {3};
  return p;
}

template <class G>
void analyse(const char* name, const G& g, const classic::Program& p) {
  std::cout << "== " << name << "\n";
  const auto live = classic::live_variables(g, p);
  const classic::Definitions defs(p);
  const auto reaching = classic::reaching_definitions(g, p, defs);
  const auto available = classic::available_expressions(g, p);
  kildall::SolverOptions options;
  options.narrowing_passes = 2;
  const auto ranges = classic::interval_analysis(g, p, options);
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    std::cout << "b" << b << ": live-in {";
    for (std::size_t v : *live.before(b)) std::cout << " x" << v;
    std::cout << " }";
    if (const auto* in = reaching.before(b)) {
      std::cout << "  reaching {";
      for (std::size_t d : *in) std::cout << " d" << d;
      std::cout << " }  available " << available.before(b)->size() << "  x0 in " << ranges.before(b)->vars[0];
    } else {
      std::cout << "  unreachable";
    }
    std::cout << "\n";
  }
  const bool ok = kildall::verify_fixpoint(classic::LiveVariables{&p}, live).ok() &&
                  kildall::verify_fixpoint(classic::IntervalAnalysis<G>{&p, &g}, ranges).ok();
  std::cout << "fixpoints verified: " << (ok ? "yes" : "NO") << "\n";
}

}  // namespace

int main() {
  const classic::Program p = sample();
  analyse("Boost.Graph adjacency_list", classic::boost_cfg(p), p);
  analyse("mycc::Cfg", classic::mycc_cfg(p), p);

  // SCCP on SSA: entry(a): one = 1; t = one < a; cond_br one, b1, b2 ... b2 is dead.
  using classic::Op;
  classic::SsaProgram ssa;
  ssa.blocks.resize(3);
  ssa.values = {{Op::argument, 0}, {Op::constant, 0, 1}, {Op::add, 1, 0, 1, 1}, {Op::mul, 2, 0, 0, 1}};
  ssa.blocks[0].arguments = {0};
  ssa.blocks[0].values = {1};
  ssa.blocks[0].condition = 1;
  ssa.blocks[0].successors = {{1, {}}, {2, {}}};
  ssa.blocks[1].values = {2};
  ssa.blocks[2].values = {3};
  const auto cfg = classic::control_flow_graph(ssa);
  const auto shape = classic::ssa_shape(ssa, cfg);
  const classic::ConstantPropagation<decltype(shape)> sccp{&shape};
  const auto r = kildall::solve_sparse(shape, sccp);
  std::cout << "== SCCP\n%2 = " << *r.lookup(2) << ", block 2 executable: " << (r.block_reached(2) ? "yes" : "no")
            << ", %3: " << (r.lookup(3) ? "computed" : "uninitialized") << "\n";
  std::cout << "done\n";
}
