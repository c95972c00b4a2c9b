// Compiles and runs the C++ blocks of docs/solvers.md, as printed there, so the
// page cannot rot (tests/docs/check_doc_snippets.py checks they are verbatim).
// (Moved here from tests/solver/solvers_doc_test.cpp.)

// --- docs/solvers.md: "Writing a new analysis in under 50 lines" (verbatim) ---
#include <kildall/lattice/bitset.hpp>
#include <kildall/solver/dense.hpp>
#include <kildall/solver/verify.hpp>

#include <boost/graph/adjacency_list.hpp>

#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

using Cfg = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
struct Block { std::vector<std::size_t> reads, writes; };  // reads happen first

// The state is the set of variables that may still be unset.
struct MaybeUnset {
  using lattice_type = kildall::Bitset;
  const std::vector<Block>* blocks;
  std::size_t num_vars;

  kildall::Bitset boundary(std::size_t) const { return kildall::Bitset::full(num_vars); }
  kildall::Bitset transfer(std::size_t b, const kildall::Bitset& in) const {
    kildall::Bitset out = in;
    for (std::size_t w : (*blocks)[b].writes) out.reset(w);
    return out;
  }
};

// (block, variable) pairs where a variable may be read before it is set.
std::vector<std::pair<std::size_t, std::size_t>> reads_of_unset(const Cfg& cfg, const std::vector<Block>& blocks,
                                                                std::size_t num_vars) {
  const MaybeUnset problem{&blocks, num_vars};
  const auto result = kildall::solve_forward(cfg, std::size_t{0}, problem);
  if (!result.converged()) throw std::runtime_error(result.outcome().message());
  if (!kildall::verify_fixpoint(problem, result).ok()) throw std::logic_error("not a fixpoint");
  std::vector<std::pair<std::size_t, std::size_t>> found;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const kildall::Bitset* unset = result.lookup_in(b);
    if (unset == nullptr) continue;  // unreachable block: no state, nothing to report
    for (std::size_t r : blocks[b].reads) {
      if (unset->test(r)) found.emplace_back(b, r);
    }
  }
  return found;
}
// --- end of the snippet -------------------------------------------------------

#include <kildall/graph/concepts.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/solver/sparse.hpp>
#include <kildall/solver/trace.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string>

namespace {

// Captures what a stream receives while it lives.
class Capture {
 public:
  explicit Capture(std::ostream& stream) : stream_(stream), saved_(stream.rdbuf(text_.rdbuf())) {}
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;
  ~Capture() { stream_.rdbuf(saved_); }
  [[nodiscard]] std::string str() const { return text_.str(); }

 private:
  std::ostream& stream_;
  std::ostringstream text_;
  std::streambuf* saved_;
};

// Oracle for reads_of_unset: enumerate every path from block 0 (simple paths
// plus one extra lap around each cycle are enough for "may be unset", which
// only depends on the set of blocks a path passes through before the read).
std::vector<std::pair<std::size_t, std::size_t>> reads_of_unset_by_paths(const Cfg& cfg,
                                                                         const std::vector<Block>& blocks,
                                                                         std::size_t num_vars) {
  std::vector<std::vector<bool>> may_be_unset(blocks.size(), std::vector<bool>(num_vars, false));
  // Depth-first over (block, set-of-written-variables) states: finite, so it terminates.
  struct State { std::size_t block; std::vector<bool> written; };
  std::vector<State> stack{{0, std::vector<bool>(num_vars, false)}};
  std::vector<std::vector<std::vector<bool>>> seen(blocks.size());
  while (!stack.empty()) {
    State s = stack.back();
    stack.pop_back();
    bool known = false;
    for (const auto& w : seen[s.block]) known = known || w == s.written;
    if (known) continue;
    seen[s.block].push_back(s.written);
    for (std::size_t var = 0; var < num_vars; ++var)
      if (!s.written[var]) may_be_unset[s.block][var] = true;
    std::vector<bool> after = s.written;
    for (std::size_t w : blocks[s.block].writes) after[w] = true;
    for (auto [e, end] = out_edges(s.block, cfg); e != end; ++e) stack.push_back({target(*e, cfg), after});
  }
  std::vector<std::pair<std::size_t, std::size_t>> found;
  for (std::size_t b = 0; b < blocks.size(); ++b)
    for (std::size_t r : blocks[b].reads)
      if (may_be_unset[b][r]) found.emplace_back(b, r);
  return found;
}

// The CFG of the first test: b0 writes x0 -> b1, b2; b1 reads x0, writes x1 -> b3;
// b2 -> b3; b3 reads x1 (unset along b2); b4 reads x0 (unreachable: no report).
Cfg sample_cfg() {
  Cfg cfg(5);
  add_edge(0, 1, cfg);
  add_edge(0, 2, cfg);
  add_edge(1, 3, cfg);
  add_edge(2, 3, cfg);
  add_edge(4, 3, cfg);
  return cfg;
}
const std::vector<Block> kSampleBlocks{{{}, {0}}, {{0}, {1}}, {{}, {}}, {{1}, {}}, {{0}, {}}};

}  // namespace

TEST_CASE("docs/solvers.md: reads of maybe-unset variables") {
  const Cfg cfg = sample_cfg();
  const auto found = reads_of_unset(cfg, kSampleBlocks, 2);
  CHECK(found == std::vector<std::pair<std::size_t, std::size_t>>{{3, 1}});
  CHECK(found == reads_of_unset_by_paths(cfg, kSampleBlocks, 2));
}

TEST_CASE("docs/solvers.md: reads of maybe-unset variables agree with path enumeration on random CFGs") {
  std::mt19937 rng(7);
  for (int round = 0; round < 40; ++round) {
    const std::size_t n = 2 + rng() % 7, vars = 1 + rng() % 4;
    Cfg cfg(n);
    for (std::size_t v = 0; v < n; ++v) {
      const std::size_t out = rng() % 3;
      for (std::size_t k = 0; k < out; ++k) add_edge(v, rng() % n, cfg);
    }
    std::vector<Block> blocks(n);
    for (Block& b : blocks) {
      for (std::size_t var = 0; var < vars; ++var) {
        if (rng() % 3 == 0) b.reads.push_back(var);
        if (rng() % 3 == 0) b.writes.push_back(var);
      }
    }
    CAPTURE(round);
    CHECK(reads_of_unset(cfg, blocks, vars) == reads_of_unset_by_paths(cfg, blocks, vars));
  }
}

// --- docs/solvers.md: "Dense problems" (the listing, verbatim) ----------------
namespace dense_listing {
using G = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
using L = kildall::Bitset;
using Vertex = kildall::vertex_t<G>;
using Edge = kildall::edge_t<G>;

struct P {
  using lattice_type = L;                          // a JoinSemiLattice (kildall/lattice/concepts.hpp)
  L boundary(Vertex root) const;                   // state entering a root
  L transfer(Vertex v, const L& in) const;         // must be monotone
  // optional:
  bool edge_executable(Edge e, const L& from) const;  // false: e is dead given the state at its origin
  L transfer_edge(Edge e, const L& from) const;       // refine along e (x < 10 on the true edge)
};

// The listing is what the solver's concepts ask for, optional members included.
static_assert(kildall::DenseProblem<P, G>);
static_assert(kildall::DenseEdgeExecutability<P, G>);
static_assert(kildall::DenseEdgeTransfer<P, G>);
// and the members are really required / optional:
static_assert(!kildall::DenseProblem<kildall::Bitset, G>);
static_assert(kildall::DenseProblem<MaybeUnset, G> && !kildall::DenseEdgeExecutability<MaybeUnset, G> &&
              !kildall::DenseEdgeTransfer<MaybeUnset, G>);
}  // namespace dense_listing

// --- docs/solvers.md: "Sparse (SSA) problems", with a CFG (the listing, verbatim)
namespace sparse_listing {
using Values = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
using Blocks = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
using L = kildall::Interval;
using Value = kildall::vertex_t<Values>;
using Block = kildall::vertex_t<Blocks>;
using CfgEdge = kildall::edge_t<Blocks>;
template <class T>
using Range = std::vector<T>;
using kildall::OperandStates;

struct P {
  using lattice_type = L;
  L transfer(Value v, OperandStates<L> operands) const;        // non-argument values
  Block block_of(Value v) const;
  bool is_block_argument(Value v) const;                       // joined, not transferred
  Range<Value> block_arguments(Block b) const;
  Range<Value> block_values(Block b) const;                    // the other values of b, in order
  std::optional<Value> incoming_value(Value arg, CfgEdge e) const;  // what e passes to arg
  L entry_argument_state(Value arg) const;                     // function arguments
  // optional, together (else every out-edge of an executable block is executable):
  Range<Value> branch_operands(Block b) const;                 // what b's terminator reads
  bool edge_executable(CfgEdge e, OperandStates<L> branch_operands) const;
  // optional: call transfer even when some operand is uninitialized
  static constexpr bool visit_with_uninitialized_operands = true;
};

static_assert(kildall::SparseProblem<P, Values>);
static_assert(kildall::SparseCfgProblem<P, Values, Blocks>);
static_assert(kildall::SparseBranchProblem<P, Values, Blocks>);
static_assert(kildall::detail::visit_with_uninitialized_operands<P>());
}  // namespace sparse_listing

TEST_CASE("docs/solvers.md: sparse noise analysis, its trace and an incremental re-solve") {
  // --- docs/solvers.md: "Without a CFG" (verbatim) ---
  using Dag = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  struct NoiseBound {  // the article's noise analysis for inputs and muls, on a Boost DAG
    using lattice_type = kildall::Interval;
    kildall::Interval transfer(std::size_t, kildall::OperandStates<kildall::Interval> operands) const {
      if (operands.empty()) return kildall::Interval::from_unsigned(32, 0, 12);  // an input: fresh noise
      std::uint64_t sum = 0;                                                   // a mul: noise adds up
      for (const kildall::Interval* operand : operands) sum += operand->umax();
      return kildall::Interval::from_unsigned(32, 0, sum);
    }
  };
  Dag dag(3);  // %2 = noisy.mul %0, %1
  add_edge(0, 2, dag);
  add_edge(1, 2, dag);
  auto result = kildall::solve_sparse(dag, NoiseBound{});
  const kildall::Interval* noise = result.lookup(2);  // [0, 24]
  // --- end of the snippet ---
  REQUIRE(result.converged());
  REQUIRE(noise != nullptr);
  CHECK(*noise == kildall::Interval::from_unsigned(32, 0, 24));
  CHECK(kildall::verify_fixpoint(NoiseBound{}, result).ok());

  std::string trace_text;
  {
    const Capture cerr(std::cerr);
    // --- docs/solvers.md: "Observers and tracing" (verbatim) ---
    const std::vector<std::string> ir_text{"%0 = noisy.encode %a", "%1 = noisy.encode %b", "%2 = noisy.mul %0, %1"};
    auto trace = kildall::make_trace(std::cerr,
        [&](std::size_t v) { return ir_text[v]; },                              // "%2 = noisy.mul %0, %1"
        [](const kildall::Interval& x) { return kildall::to_mlir_debug_string(x); });
    auto traced = kildall::solve_sparse(dag, NoiseBound{}, {}, trace);
    // Inferring ranges for %2 = noisy.mul %0, %1
    // Inferred range unsigned : [0, 24] signed : [0, 24]
    // --- end of the snippet ---
    CHECK(traced.converged());
    trace_text = cerr.str();
  }
  CAPTURE(trace_text);
  CHECK(trace_text.find("Inferring ranges for %2 = noisy.mul %0, %1\n"
                        "Inferred range unsigned : [0, 24] signed : [0, 24]\n") != std::string::npos);

  // --- docs/solvers.md: "Incremental re-solve", sparse (verbatim) ---
  auto r = kildall::solve_sparse(dag, NoiseBound{});
  add_edge(2, 3, dag);  // a new value %3 = noisy.mul %2, %0
  add_edge(0, 3, dag);
  r = kildall::resolve_sparse(dag, NoiseBound{}, std::move(r), std::vector<std::size_t>{3});
  // --- end of the snippet ---
  const auto fresh = kildall::solve_sparse(dag, NoiseBound{});  // oracle: a fresh solve
  REQUIRE(r.converged());
  for (std::size_t v = 0; v < 4; ++v) {
    REQUIRE(r.lookup(v) != nullptr);
    CHECK(*r.lookup(v) == *fresh.lookup(v));
  }
  CHECK(r.lookup(3)->umax() == 36);
  CHECK(r.visits(0) == 0);  // untouched by the change: kept, not visited again
}

TEST_CASE("docs/solvers.md: verification") {
  const Cfg cfg = sample_cfg();
  const MaybeUnset problem{&kSampleBlocks, 2};
  const auto result = kildall::solve_forward(cfg, std::size_t{0}, problem);
  std::string printed;
  {
    const Capture cout(std::cout);
    // --- docs/solvers.md: "Verification" (verbatim) ---
    const kildall::FixpointReport report = kildall::verify_fixpoint(problem, result);
    CHECK(report.ok());                   // every node at a post-fixpoint
    std::cout << report.message() << '\n';  // "post-fixpoint (N nodes checked)" or the violations
    // --- end of the snippet ---
    printed = cout.str();
  }
  CHECK(printed.rfind("post-fixpoint (", 0) == 0);
  CHECK(printed.find("nodes checked)") != std::string::npos);
  // "A result from ... a different problem fails it".
  const std::vector<Block> other{{{}, {}}, {{0}, {}}, {{}, {}}, {{1}, {}}, {{0}, {}}};
  const kildall::FixpointReport wrong = kildall::verify_fixpoint(MaybeUnset{&other, 2}, result);
  CHECK_FALSE(wrong.ok());
  CAPTURE(wrong.message());
  CHECK(wrong.message().rfind("post-fixpoint (", 0) != 0);
}

TEST_CASE("docs/solvers.md: incremental dense re-solve equals a fresh solve") {
  Cfg g = sample_cfg();
  std::vector<Block> blocks = kSampleBlocks;
  const MaybeUnset problem{&blocks, 2};
  const std::size_t entry = 0, v = 2, x = 1, a = 4, b = 1;
  // --- docs/solvers.md: "Incremental re-solve", dense (verbatim) ---
  auto result = kildall::solve_forward(g, entry, problem);
  blocks[v].writes.push_back(x);  // the transfer of v changed
  add_edge(a, b, g);              // and an edge a -> b appeared
  result = kildall::resolve_forward(g, entry, problem, std::move(result), std::vector{v, b});
  // --- end of the snippet ---
  const auto fresh = kildall::solve_forward(g, entry, problem);  // oracle
  REQUIRE(result.converged());
  for (std::size_t block = 0; block < blocks.size(); ++block) {
    CAPTURE(block);
    REQUIRE((result.lookup_in(block) == nullptr) == (fresh.lookup_in(block) == nullptr));
    if (fresh.lookup_in(block) != nullptr) CHECK(*result.lookup_in(block) == *fresh.lookup_in(block));
  }
  CHECK(kildall::verify_fixpoint(problem, result).ok());
  // x1 is now written on both paths into b3: no read of an unset variable left.
  CHECK(reads_of_unset(g, blocks, 2).empty());
}
