// Compiles and runs the C++ blocks of docs/noisy.md, so the page cannot rot
// (tests/docs/check_doc_snippets.py checks they are verbatim).
#include <kildall/ir/verifier.hpp>
#include <kildall/noisy.hpp>

#include <doctest/doctest.h>

#include <boost/graph/adjacency_list.hpp>

#include <algorithm>
#include <concepts>
#include <string>
#include <utility>
#include <vector>

// --- docs/noisy.md: "Any graph: the NoisyProgram concept" (verbatim) ---------
// The page shows the concept's definition; this copy must accept and reject
// exactly what kildall::noisy::NoisyProgram does (checked below).
namespace documented {
using kildall::AnalysisGraph;
using kildall::vertex_t;
using kildall::noisy::NoisyOp;

template <class G>
concept NoisyProgram = AnalysisGraph<G> && requires(const G& g, const vertex_t<G>& v) {
  { noisy_op(g, v) } -> std::convertible_to<NoisyOp>;   // found by ADL
};
}  // namespace documented

// --- docs/noisy.md: the Boost.Graph adaptation (verbatim; the compilable form
// proposed for the page, whose version passes the namespace `circuit` where a
// circuit value is needed) ------------------------------------------------------
namespace circuit {
struct Gate { kildall::noisy::NoisyOp kind; std::string name; };
using Circuit = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, Gate>;
kildall::noisy::NoisyOp noisy_op(const Circuit& g, Circuit::vertex_descriptor v) { return g[v].kind; }
}

// The ops after which a reduce_noise goes; empty if the circuit is already legal.
std::vector<circuit::Circuit::vertex_descriptor> plan(const circuit::Circuit& c) {
  auto analysis = kildall::noisy::analyze_noise(c);           // noise per vertex
  if (kildall::noisy::find_noise_violations(analysis).empty()) return {};
  return kildall::noisy::place_reduce_noise_greedy(c);
}
// --- end of the snippets -----------------------------------------------------

namespace {

using kildall::noisy::NoisyOp;
using Plain = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
using Forward = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, circuit::Gate>;

// A type with noisy_op of the wrong result type.
namespace wrong {
struct Gate { int kind; };
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, Gate>;
[[maybe_unused]] int noisy_op(const Graph& g, Graph::vertex_descriptor v) { return g[v].kind; }
}  // namespace wrong

template <class G>
constexpr bool same_verdict = documented::NoisyProgram<G> == kildall::noisy::NoisyProgram<G>;

static_assert(documented::NoisyProgram<circuit::Circuit> && kildall::noisy::NoisyProgram<circuit::Circuit>);
static_assert(same_verdict<Plain> && !documented::NoisyProgram<Plain>);              // no noisy_op
static_assert(same_verdict<Forward> && !documented::NoisyProgram<Forward>);          // no in_edges
static_assert(same_verdict<wrong::Graph> && !documented::NoisyProgram<wrong::Graph>);  // not a NoisyOp
static_assert(same_verdict<kildall::noisy::IrNoisyProgram>);

circuit::Circuit::vertex_descriptor gate(circuit::Circuit& g, NoisyOp kind, std::string name,
                                         const std::vector<circuit::Circuit::vertex_descriptor>& operands = {}) {
  const auto v = add_vertex(g);  // (add_vertex(property, g) trips GCC 12's -Wuninitialized inside Boost)
  g[v] = circuit::Gate{kind, std::move(name)};
  for (const auto o : operands) add_edge(o, v, g);
  return v;
}

}  // namespace

TEST_CASE("docs/noisy.md: the circuit adaptation analyses and places reduce_noise") {
  // The article's test_single_insertion_branching as a circuit.
  circuit::Circuit g;
  const auto x = gate(g, NoisyOp::encode, "x");
  const auto y = gate(g, NoisyOp::encode, "y");
  const auto m = gate(g, NoisyOp::mul, "m", {x, y});
  auto b = m, c = m;
  for (int i = 1; i <= 4; ++i) {
    b = gate(g, NoisyOp::add, "b" + std::to_string(i), {b, y});
    c = gate(g, NoisyOp::sub, "c" + std::to_string(i), {c, i == 1 ? x : y});
  }
  gate(g, NoisyOp::decode, "out_b", {b});
  gate(g, NoisyOp::decode, "out_c", {c});

  // The noise per vertex, by the page's table: encode 12, mul the sum, add/sub 1 + max.
  const auto analysis = kildall::noisy::analyze_noise(g);
  CHECK(analysis.noise_bound(m) == 24);
  CHECK(analysis.noise_bound(b) == 28);
  CHECK(analysis.noise_bound(c) == 28);

  const auto placement = plan(g);
  CHECK_FALSE(placement.empty());
  // Greedy's placement, applied virtually, makes the circuit legal.
  kildall::noisy::NoiseAnalysisOptions options;
  options.reduce_after.assign(num_vertices(g), false);
  for (const auto v : placement) options.reduce_after[v] = true;
  const auto reduced = kildall::noisy::analyze_noise(g, {}, options);
  CHECK(kildall::noisy::find_noise_violations(reduced).empty());

  // A legal circuit needs nothing.
  circuit::Circuit small;
  const auto p = gate(small, NoisyOp::encode, "p");
  const auto q = gate(small, NoisyOp::add, "q", {p, p});
  gate(small, NoisyOp::decode, "out", {q});
  CHECK(plan(small).empty());
}

TEST_CASE("docs/noisy.md: the analysis over the CFG (a shape) joins executable edges only") {
  using namespace kildall;
  using namespace kildall::noisy;
  ir::OpRegistry registry;
  const IrDialect dialect = register_noisy_dialect(registry);
  const ir::Module m = ir::parse_and_verify("func.func @f(%x: !noisy.i32) -> !noisy.i32 {\n"
                                            "  cf.br ^join(%x : !noisy.i32)\n"
                                            "^dead:\n"
                                            "  %m = noisy.mul %x, %x : !noisy.i32\n"
                                            "  cf.br ^join(%m : !noisy.i32)\n"
                                            "^join(%j: !noisy.i32):\n"
                                            "  return %j : !noisy.i32\n"
                                            "}\n",
                                            registry, "doc.mlir");
  const ir::Function& fn = m.functions[0];
  const IrNoisyProgram program(fn, dialect);
  const ir::ValueId x = fn.argument(0, 0), mul = fn.result(fn.blocks[1].first_op), j = fn.argument(2, 0);
  REQUIRE(program.kind(mul) == NoisyOp::mul);
  REQUIRE(program.kind(j) == NoisyOp::join);

  // The problem is semantics only, solvable over the def-use graph and over the shape.
  static_assert(SparseProblem<NoiseProblem<IrNoisyProgram>, IrNoisyProgram>);
  static_assert(SparseProblem<NoiseProblem<IrNoisyProgram>, ir::FunctionShape>);
  static_assert(SsaProgram<ir::FunctionShape>);

  // Over the shape: the dead block's values are uninitialized and the join sees only %x.
  const auto over_cfg = analyze_noise_over_cfg(program, program.shape());
  static_assert(std::same_as<decltype(over_cfg), const NoiseAnalysis<IrNoisyProgram, ir::FunctionShape>>);
  REQUIRE(over_cfg.converged());
  CHECK(over_cfg.noise_bound(x) == 12u);
  CHECK(over_cfg.noise(mul) == nullptr);
  CHECK(over_cfg.noise_bound(j) == 12u);
  CHECK_FALSE(over_cfg.solver_result().block_reached(1));
  CHECK(over_cfg.solver_result().block_reached(2));
  CHECK(&over_cfg.solver_result().program() == &program.shape());
  // analyze_ir_noise is the same call with the function's shape().
  const auto ir_noise = analyze_ir_noise(program);
  for (ir::ValueId v = 0; v < fn.values.size(); ++v) {
    REQUIRE((ir_noise.noise(v) == nullptr) == (over_cfg.noise(v) == nullptr));
    if (over_cfg.noise(v) != nullptr) CHECK(*ir_noise.noise(v) == *over_cfg.noise(v));
  }

  // Over the def-use graph alone every value is analysed and the join takes every input.
  const auto over_values = analyze_noise(program);
  static_assert(std::same_as<decltype(over_values), const NoiseAnalysis<IrNoisyProgram>>);
  CHECK(over_values.noise_bound(mul) == 24u);
  CHECK(over_values.noise_bound(j) == 24u);
}
