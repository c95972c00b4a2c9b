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
    const kildall::Bitset* unset = result.before(b);
    if (unset == nullptr) continue;  // unreachable block: no state, nothing to report
    for (std::size_t r : blocks[b].reads) {
      if (unset->test(r)) found.emplace_back(b, r);
    }
  }
  return found;
}
// --- end of the snippet -------------------------------------------------------

// --- docs/solvers.md: "Worked example: constant propagation over your own IR" --
#include <kildall/graph/successor_list.hpp>
#include <kildall/lattice/flat.hpp>
#include <kildall/solver/sparse.hpp>

#include <cstdint>
#include <optional>
#include <span>

// The IR (verbatim).
namespace tiny {
enum class Op { argument, constant, add, mul, less };
struct Value { Op op; std::uint64_t constant = 0; std::vector<std::size_t> operands = {}; };
struct Successor { std::size_t block; std::vector<std::size_t> args; };  // args go to block's arguments
struct Block {
  std::vector<std::size_t> arguments, values;  // indices into Function::values
  std::optional<std::size_t> condition;        // cond_br: successors[0] if condition != 0, else successors[1]
  std::vector<Successor> successors;           // none: return
};
struct Function { std::vector<Value> values; std::vector<Block> blocks; };  // blocks[0] is the entry
}  // namespace tiny

// The shape adapter (verbatim).
// The shape of a tiny::Function (models kildall::SsaProgram).
class TinyShape {
 public:
  using value_type = std::size_t;  // an integer: its own index
  explicit TinyShape(const tiny::Function& fn)
      : fn_(&fn), cfg_(kildall::successor_list_graph(fn.blocks.size(), [&fn](std::size_t b) {
          std::vector<std::size_t> targets;
          for (const tiny::Successor& s : fn.blocks[b].successors) targets.push_back(s.block);
          return targets;
        })) {}
  const kildall::SuccessorListGraph& cfg() const { return cfg_; }
  std::size_t entries() const { return 0; }
  std::size_t value_count() const { return fn_->values.size(); }
  const std::vector<std::size_t>& block_arguments(std::size_t b) const { return fn_->blocks[b].arguments; }
  const std::vector<std::size_t>& block_values(std::size_t b) const { return fn_->blocks[b].values; }
  const std::vector<std::size_t>& operands(std::size_t v) const { return fn_->values[v].operands; }
  const std::vector<std::size_t>& forwarded_operands(const kildall::SuccessorEdge& e) const {
    return fn_->blocks[e.source].successors[e.slot].args;
  }
  std::span<const std::size_t> branch_operands(std::size_t b) const {
    const std::optional<std::size_t>& c = fn_->blocks[b].condition;
    return c ? std::span<const std::size_t>(&*c, 1) : std::span<const std::size_t>();
  }

 private:
  const tiny::Function* fn_;
  kildall::SuccessorListGraph cfg_;
};

// The analysis (verbatim).
// SCCP: each value is unknown (bottom), one constant, or not a constant (top).
struct ConstantPropagation {
  using lattice_type = kildall::Flat<std::uint64_t>;
  const tiny::Function* fn;

  lattice_type transfer(std::size_t v, kildall::OperandStates<lattice_type> operands) const {
    const tiny::Value& value = fn->values[v];
    if (value.op == tiny::Op::constant) return lattice_type::of(value.constant);
    const std::uint64_t* a = operands[0].if_constant();
    const std::uint64_t* b = operands[1].if_constant();
    if (a == nullptr || b == nullptr) return lattice_type::top();
    switch (value.op) {
      case tiny::Op::add: return lattice_type::of(*a + *b);
      case tiny::Op::mul: return lattice_type::of(*a * *b);
      default: return lattice_type::of(*a < *b ? 1 : 0);
    }
  }
  lattice_type boundary(std::size_t) const { return lattice_type::top(); }  // function arguments: unknown
  bool edge_executable(const kildall::SuccessorEdge& e, kildall::OperandStates<lattice_type> branch) const {
    if (branch.empty()) return true;                  // br: its one successor
    const std::uint64_t* c = branch[0].if_constant();
    if (c == nullptr) return branch[0].is_top();      // unknown condition: both ways
    return e.slot == (*c != 0 ? 0U : 1U);             // constant condition: one way
  }
};
// --- end of the worked example's declarations ----------------------------------

// What the page says about them.
static_assert(kildall::SsaProgram<TinyShape>);
static_assert(kildall::SsaProgramWithBranchOperands<TinyShape>);
static_assert(kildall::SparseProblem<ConstantPropagation, TinyShape>);
static_assert(kildall::SparseBranchProblem<ConstantPropagation, TinyShape>);
static_assert(!kildall::SparseEdgeTransfer<ConstantPropagation, TinyShape>);

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/region_branch.hpp>
#include <kildall/lattice/environment.hpp>
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

// --- docs/solvers.md: "The shape" and "The analysis" (the listings, verbatim) --
namespace sparse_listing {
using Cfg = kildall::SuccessorListGraph;  // any AnalysisGraph of blocks
using L = kildall::Interval;
using Value = std::size_t;
using Block = kildall::vertex_t<Cfg>;
using CfgEdge = kildall::edge_t<Cfg>;
template <class T>
using Range = std::vector<T>;
using kildall::OperandStates;

struct Shape {
  using value_type = Value;                          // copyable; an integer is its own index
  const Cfg& cfg() const;                            // the blocks and their edges
  Block entries() const;                             // the entry block, or a range of them
  std::size_t value_count() const;                   // values are numbered [0, value_count())
  std::size_t value_index(Value v) const;            // optional when Value is an integer
  Range<Value> block_arguments(Block b) const;       // b's arguments (phis), in order
  Range<Value> block_values(Block b) const;          // the results of b's ops, in program order
  Range<Value> operands(Value v) const;              // the operands of the op defining v, in order
  Range<Value> forwarded_operands(CfgEdge e) const;  // what e passes to its target's arguments, in order
  // optional:
  Range<Value> branch_operands(Block b) const;       // what b's terminator decides its successors with
};

static_assert(kildall::SsaProgram<Shape>);
static_assert(kildall::SsaProgramWithBranchOperands<Shape>);
static_assert(kildall::SparseProgram<Shape>);

struct P {
  using lattice_type = L;                                       // a JoinSemiLattice
  L transfer(Value v, OperandStates<L> operands) const;         // an op's result from its operands' states
  L boundary(Value argument) const;                             // the entry block's arguments
  // optional:
  bool edge_executable(CfgEdge e, OperandStates<L> branch_operands) const;  // can the terminator take e?
  L transfer_edge(CfgEdge e, Value argument, const L& incoming, OperandStates<L> branch_operands) const;
  Range<Value> extra_operands(Value v) const;                   // more values v's transfer reads
  static constexpr bool visit_with_uninitialized_operands = true;  // call transfer before all are known
};

// The listing is what the solver's concepts ask for, optional members included.
static_assert(kildall::SparseProblem<P, Shape>);
static_assert(kildall::SparseBranchProblem<P, Shape>);
static_assert(kildall::SparseEdgeTransfer<P, Shape>);
static_assert(kildall::detail::HasExtraOperands<P, Value>);
static_assert(kildall::detail::visit_with_uninitialized_operands<P>());

// and the optional members are really optional, the others really required:
struct Minimal {  // transfer and boundary only
  using lattice_type = L;
  L transfer(Value v, OperandStates<L> operands) const;
  L boundary(Value argument) const;
};
static_assert(kildall::SparseProblem<Minimal, Shape> && !kildall::SparseBranchProblem<Minimal, Shape> &&
              !kildall::SparseEdgeTransfer<Minimal, Shape>);
static_assert(!kildall::detail::visit_with_uninitialized_operands<Minimal>());
struct NoBoundary {  // a CFG needs the entry arguments' state; a def-use graph does not
  using lattice_type = L;
  L transfer(Value v, OperandStates<L> operands) const;
};
static_assert(!kildall::SparseProblem<NoBoundary, Shape>);
static_assert(kildall::SparseProblem<NoBoundary, boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>>);

// An integer value type is its own index: the shape without value_index is still an SsaProgram.
struct ShapeWithoutIndex {
  using value_type = Value;
  const Cfg& cfg() const;
  Block entries() const;
  std::size_t value_count() const;
  Range<Value> block_arguments(Block b) const;
  Range<Value> block_values(Block b) const;
  Range<Value> operands(Value v) const;
  Range<Value> forwarded_operands(CfgEdge e) const;
};
static_assert(kildall::SsaProgram<ShapeWithoutIndex> && !kildall::SsaProgramWithBranchOperands<ShapeWithoutIndex>);
}  // namespace sparse_listing

// --- docs/solvers.md: "Structured control flow: regions" (the listing, verbatim) --
namespace region_listing {
using Op = std::uint32_t;
using Value = std::size_t;
template <class T>
using Range = std::vector<T>;

using Flow = kildall::RegionFlowAt<Op, Value, Range<kildall::RegionBranch<Value>>>;  // owner, successors, deciding

struct Regions {
  using op_type = Op;                                     // copyable and hashable
  using value_type = Value;
  std::size_t block_count() const;                        // blocks are numbered [0, block_count())
  std::size_t successor_slot_count() const;               // the ids of the program's own branch slots
  bool has_regions() const;                               // false: the plain block graph
  Range<Op> ops(std::uint32_t b) const;                   // b's ops in order; the last is its terminator
  Range<kildall::BlockBranch> block_successors(std::uint32_t b) const;  // its own slots: {target, id}
  Flow region_entry(Op o) const;                          // where o goes first, if it owns regions
  Flow region_exit(Op o) const;                           // where o goes as a region's terminator
  // optional:
  Range<Value> induction_bounds(Op o) const;              // a loop's lower bound, upper bound, step
};

// The listing is what the concept asks for, the optional member included; without it, still a program.
static_assert(kildall::RegionBranchProgramWithInduction<Regions>);
struct WithoutInduction {
  using op_type = Op;
  using value_type = Value;
  std::size_t block_count() const;
  std::size_t successor_slot_count() const;
  bool has_regions() const;
  Range<Op> ops(std::uint32_t b) const;
  Range<kildall::BlockBranch> block_successors(std::uint32_t b) const;
  Flow region_entry(Op o) const;
  Flow region_exit(Op o) const;
};
static_assert(kildall::RegionBranchProgram<WithoutInduction> &&
              !kildall::RegionBranchProgramWithInduction<WithoutInduction>);
static_assert(!kildall::RegionBranchProgram<Flow>);
// The flattened graph is an AnalysisGraph.
static_assert(kildall::AnalysisGraph<kildall::RegionCfg<Op, Value>>);
}  // namespace region_listing

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

TEST_CASE("docs/solvers.md: a persistent environment as a dense state") {
  // --- docs/solvers.md: "The recommended state of a dense analysis" (verbatim) ---
using Env = kildall::Environment<std::uint32_t, kildall::Flat<std::int64_t>>;  // value -> constant
Env in;                                          // bottom: nothing known yet
Env out = in;                                    // O(1): shares every node
out.set(7, kildall::Flat<std::int64_t>::of(42));  // O(log n) new nodes
CHECK(in.find(7) == nullptr);                    // `in` is unchanged
CHECK(out.get(7).constant() == 42);
CHECK(out.join(in) == kildall::ChangeResult::unchanged);  // in <= out: nothing moves
  // --- end of the snippet ---
  CHECK(in.is_bottom());
  CHECK(out.size() == 1);
  Env copy = out;
  CHECK(copy.shares_root_with(out));
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
    REQUIRE((result.before(block) == nullptr) == (fresh.before(block) == nullptr));
    if (fresh.before(block) != nullptr) {
      CHECK(*result.before(block) == *fresh.before(block));
      CHECK(*result.after(block) == *fresh.after(block));
    }
  }
  CHECK(kildall::verify_fixpoint(problem, result).ok());
  // x1 is now written on both paths into b3: no read of an unset variable left.
  CHECK(reads_of_unset(g, blocks, 2).empty());
}

namespace {

// Live variables, for "before/after in program order in both directions".
struct Live {
  using lattice_type = kildall::Bitset;
  const std::vector<Block>* blocks;
  kildall::Bitset boundary(std::size_t) const { return {}; }
  kildall::Bitset transfer(std::size_t b, const kildall::Bitset& live_out) const {
    kildall::Bitset in = live_out;
    for (std::size_t w : (*blocks)[b].writes) in.reset(w);
    for (std::size_t r : (*blocks)[b].reads) in.set(r);
    return in;
  }
};

}  // namespace

TEST_CASE("docs/solvers.md: before/after are in program order in both directions") {
  // b0 writes x0 -> b1 reads x0, writes x1 -> b2 reads x1.
  Cfg g(3);
  add_edge(0, 1, g);
  add_edge(1, 2, g);
  const std::vector<Block> blocks{{{}, {0}}, {{0}, {1}}, {{1}, {}}};
  const auto forward = kildall::solve_forward(g, std::size_t{0}, MaybeUnset{&blocks, 2});
  REQUIRE(forward.converged());
  CHECK(*forward.before(1) == kildall::Bitset{1});  // forward: before = the join entering the transfer
  CHECK(*forward.after(1) == kildall::Bitset{});    // after = the transfer's result
  const auto backward = kildall::solve_backward(g, std::size_t{2}, Live{&blocks});
  REQUIRE(backward.converged());
  CHECK(backward.direction() == kildall::Direction::backward);
  CHECK(*backward.before(1) == kildall::Bitset{0});  // backward: before = live-in (the transfer's result)
  CHECK(*backward.after(1) == kildall::Bitset{1});   // after = live-out (the join over the successors)
  CHECK(*backward.after(0) == kildall::Bitset{0});
  CHECK(*backward.before(0) == kildall::Bitset{});
  CHECK(kildall::verify_fixpoint(Live{&blocks}, backward).ok());
  // Unreached: nullptr both ways.
  Cfg h(2);
  const auto unreached = kildall::solve_forward(h, std::size_t{0}, MaybeUnset{&blocks, 2});
  CHECK(unreached.before(1) == nullptr);
  CHECK(unreached.after(1) == nullptr);
  CHECK_FALSE(unreached.reached(1));
}

namespace {

// A concrete interpreter of tiny: the oracle of the worked example.
struct TinyRun {
  std::vector<std::optional<std::uint64_t>> value;  // per value: the last value computed, if any
  std::vector<bool> block_visited;
};
TinyRun run(const tiny::Function& fn, std::uint64_t a) {
  TinyRun r{std::vector<std::optional<std::uint64_t>>(fn.values.size()), std::vector<bool>(fn.blocks.size(), false)};
  r.value[fn.blocks[0].arguments[0]] = a;
  std::size_t b = 0;
  for (int step = 0; step < 100; ++step) {
    r.block_visited[b] = true;
    for (std::size_t v : fn.blocks[b].values) {
      const tiny::Value& x = fn.values[v];
      if (x.op == tiny::Op::constant) {
        r.value[v] = x.constant;
        continue;
      }
      const std::uint64_t l = *r.value[x.operands[0]], rr = *r.value[x.operands[1]];
      r.value[v] = x.op == tiny::Op::add ? l + rr : x.op == tiny::Op::mul ? l * rr : (l < rr ? 1 : 0);
    }
    const tiny::Block& block = fn.blocks[b];
    if (block.successors.empty()) break;
    const tiny::Successor& next =
        block.condition && *r.value[*block.condition] == 0 ? block.successors[1] : block.successors[0];
    for (std::size_t i = 0; i < next.args.size(); ++i) r.value[fn.blocks[next.block].arguments[i]] = *r.value[next.args[i]];
    b = next.block;
  }
  return r;
}

// Every concrete run agrees with the analysis: executed blocks are reached, and
// a value the analysis calls constant has that value.
template <class Result>
void check_sound(const tiny::Function& fn, const Result& result) {
  for (std::uint64_t a : {0U, 1U, 7U, 1000U}) {
    const TinyRun r = run(fn, a);
    for (std::size_t b = 0; b < fn.blocks.size(); ++b)
      if (r.block_visited[b]) CHECK(result.block_reached(b));
    for (std::size_t v = 0; v < fn.values.size(); ++v) {
      if (!r.value[v]) continue;
      CAPTURE(v);
      REQUIRE(result.lookup(v) != nullptr);
      if (const std::uint64_t* c = result.lookup(v)->if_constant()) CHECK(*c == *r.value[v]);
    }
  }
}

}  // namespace

TEST_CASE("docs/solvers.md: constant propagation over your own IR, and its incremental re-solve") {
  // --- docs/solvers.md: the worked example's solve (verbatim) ---
  // entry(%a):  %one = 1; %two = 2; %c = %two < %one; cond_br %c, ^then(%a), ^else(%two)
  // ^then(%x):  %y = %x * %x; br ^join(%y)
  // ^else(%z):  %w = %z + %one; br ^join(%w)
  // ^join(%r):  return
  using tiny::Op;
  tiny::Function fn{{{Op::argument}, {Op::constant, 1}, {Op::constant, 2}, {Op::less, 0, {2, 1}},  // %a %one %two %c
                     {Op::argument}, {Op::mul, 0, {4, 4}},                                         // %x %y
                     {Op::argument}, {Op::add, 0, {6, 1}},                                         // %z %w
                     {Op::argument}},                                                              // %r
                    {{{0}, {1, 2, 3}, 3, {{1, {0}}, {2, {2}}}},  // entry
                     {{4}, {5}, {}, {{3, {5}}}},                 // ^then
                     {{6}, {7}, {}, {{3, {7}}}},                 // ^else
                     {{8}, {}, {}, {}}}};                        // ^join
  const TinyShape shape(fn);
  const ConstantPropagation problem{&fn};
  auto result = kildall::solve_sparse(shape, problem);
  const bool then_reached = result.block_reached(1);                // false: %c is the constant 0
  const kildall::Flat<std::uint64_t>* y = result.lookup(5);         // nullptr: never computed
  const std::uint64_t r = result.lookup(8)->constant();             // 3: only ^else reaches ^join
  const bool fixpoint = kildall::verify_fixpoint(problem, result).ok();  // true
  // --- end of the snippet ---
  REQUIRE(result.converged());
  CHECK_FALSE(then_reached);
  CHECK(y == nullptr);
  CHECK(r == 3);
  CHECK(fixpoint);
  // "%a is top, %x and %y stay uninitialized", the constants fold.
  CHECK(result.lookup(0)->is_top());
  CHECK(result.lookup(4) == nullptr);
  CHECK_FALSE(result.reached(4));
  CHECK_FALSE(result.reached(5));
  CHECK(result.lookup(3)->constant() == 0);  // %c = 2 < 1
  CHECK(result.lookup(6)->constant() == 2);  // %z = %two
  CHECK(result.lookup(7)->constant() == 3);  // %w = %z + %one
  CHECK(result.block_reached(0));
  CHECK(result.block_reached(2));
  CHECK(result.block_reached(3));
  CHECK(result.roots() == std::vector<std::size_t>{0});
  CHECK(&result.program() == &shape);
  CHECK(result.visits(5) == 0);
  CHECK(result.statistics().nodes == 9);
  CHECK(result.statistics().nodes_reached == 7);
  CHECK(result.outcome().message() == "converged");
  check_sound(fn, result);
  // The same answer in reverse post-order ("RPO still selectable").
  kildall::SolverOptions rpo;
  rpo.order = kildall::IterationOrder::reverse_postorder;
  const auto by_rpo = kildall::solve_sparse(shape, problem, rpo);
  REQUIRE(by_rpo.converged());
  for (std::size_t v = 0; v < fn.values.size(); ++v) {
    REQUIRE((by_rpo.lookup(v) == nullptr) == (result.lookup(v) == nullptr));
    if (result.lookup(v) != nullptr) CHECK(*by_rpo.lookup(v) == *result.lookup(v));
  }

  {
    // --- docs/solvers.md: "One shape, many solves" (verbatim) ---
    const kildall::SsaProgramIndex index(shape);        // derived and ordered once
    auto constants = kildall::solve_sparse(index, problem);
    auto again = kildall::solve_sparse(index, problem);  // no derivation: the solve alone
    // --- end of the snippet ---
    for (const auto* prepared : {&constants, &again}) {
      REQUIRE(prepared->converged());
      CHECK(&prepared->program() == &shape);
      for (std::size_t v = 0; v < fn.values.size(); ++v) {
        REQUIRE((prepared->lookup(v) == nullptr) == (result.lookup(v) == nullptr));
        if (result.lookup(v) != nullptr) CHECK(*prepared->lookup(v) == *result.lookup(v));
        CHECK(prepared->visits(v) == result.visits(v));
      }
    }
  }

  // --- docs/solvers.md: "Incremental re-solve", with a CFG (verbatim) ---
  fn.values[2].constant = 0;  // %two = 0: now %c = 0 < 1 is 1 and ^then is taken instead of ^else
  result = kildall::resolve_sparse(shape, problem, std::move(result), std::vector<std::size_t>{2});
  // --- end of the snippet ---
  REQUIRE(result.converged());
  CHECK(result.lookup(3)->constant() == 1);
  CHECK(result.block_reached(1));
  CHECK_FALSE(result.block_reached(2));
  CHECK(result.lookup(6) == nullptr);
  CHECK(result.lookup(7) == nullptr);
  CHECK(result.lookup(5)->is_top());  // %a * %a
  CHECK(result.lookup(8)->is_top());
  CHECK(result.visits(0) == 0);  // untouched by the change: kept, not visited again
  CHECK(kildall::verify_fixpoint(problem, result).ok());
  check_sound(fn, result);
  const auto fresh = kildall::solve_sparse(shape, problem);  // oracle: a fresh solve
  for (std::size_t v = 0; v < fn.values.size(); ++v) {
    CAPTURE(v);
    REQUIRE((fresh.lookup(v) == nullptr) == (result.lookup(v) == nullptr));
    if (fresh.lookup(v) != nullptr) CHECK(*fresh.lookup(v) == *result.lookup(v));
  }
  for (std::size_t b = 0; b < fn.blocks.size(); ++b) CHECK(fresh.block_reached(b) == result.block_reached(b));
}

namespace {

// Integers under max, with an honest join (or, with `lie`, one that always claims "unchanged").
struct MaxInt {
  std::int64_t value = -1;
  bool lie = false;
  [[nodiscard]] kildall::ChangeResult join(const MaxInt& o) {
    const std::int64_t before = value;
    value = std::max(value, o.value);
    return lie ? kildall::ChangeResult::unchanged : kildall::change_if(before != value);
  }
  [[nodiscard]] bool leq(const MaxInt& o) const { return value <= o.value; }
  friend bool operator==(const MaxInt& a, const MaxInt& b) { return a.value == b.value; }
};

// Around a loop 0 -> 1 -> 0: counts up to 5, then (non-monotone) drops back to 0.
struct CountAndDrop {
  using lattice_type = MaxInt;
  bool lie = false;
  MaxInt boundary(std::size_t) const { return MaxInt{0, lie}; }
  MaxInt transfer(std::size_t, const MaxInt& in) const { return MaxInt{in.value < 5 ? in.value + 1 : 0, lie}; }
};

// Counts up to 5: monotone, but its lattice may lie about change.
struct CountToFive {
  using lattice_type = MaxInt;
  bool lie = false;
  MaxInt boundary(std::size_t) const { return MaxInt{0, lie}; }
  MaxInt transfer(std::size_t, const MaxInt& in) const { return MaxInt{std::min<std::int64_t>(in.value + 1, 5), lie}; }
};

}  // namespace

TEST_CASE("docs/solvers.md: options, termination and status") {
  const kildall::SolverOptions defaults;
  CHECK(defaults.order == kildall::IterationOrder::weak_topological_order);
  CHECK(defaults.widening);
  CHECK(defaults.widening_delay == 3);
  CHECK(defaults.narrowing_passes == 0);
  CHECK(defaults.max_visits_per_node == 10000);
  CHECK(defaults.check_monotonicity);
#ifdef NDEBUG
  CHECK_FALSE(defaults.check_change_results);
#else
  CHECK(defaults.check_change_results);
#endif
  Cfg loop(2);
  add_edge(0, 1, loop);
  add_edge(1, 0, loop);

  // An honest lattice converges; one whose join lies about change is caught.
  const auto honest = kildall::solve_forward(loop, std::size_t{0}, CountToFive{false});
  REQUIRE(honest.converged());
  CHECK(honest.after(1)->value == 5);
  kildall::SolverOptions checked;
  checked.check_change_results = true;
  const auto lying = kildall::solve_forward(loop, std::size_t{0}, CountToFive{true}, checked);
  CHECK(lying.status() == kildall::SolveStatus::wrong_change_result);
  CHECK(lying.outcome().offending_node.has_value());

  // A non-monotone transfer: reported by the check; with the check off, joined, so it converges.
  const auto reported = kildall::solve_forward(loop, std::size_t{0}, CountAndDrop{});
  CHECK(reported.status() == kildall::SolveStatus::non_monotone);
  CHECK(reported.outcome().offending_node.has_value());
  kildall::SolverOptions unchecked;
  unchecked.check_monotonicity = false;
  const auto joined = kildall::solve_forward(loop, std::size_t{0}, CountAndDrop{}, unchecked);
  REQUIRE(joined.converged());
  CHECK(joined.before(0)->value == 4);  // 0, 2, 4 around the loop
  CHECK(joined.before(1)->value == 5);
  CHECK(joined.after(1)->value == 4);   // transfer(5) = 0 went down: joined away, not taken
  CHECK(kildall::verify_fixpoint(CountAndDrop{}, joined).ok());
  CHECK(joined.statistics().max_visits < 20);  // far from the visit cap

  // A shape naming a value outside its numbering: invalid input.
  tiny::Function bad{{{tiny::Op::constant, 1}}, {{{}, {0, 7}, {}, {}}}};
  const TinyShape bad_shape(bad);
  const auto invalid = kildall::solve_sparse(bad_shape, ConstantPropagation{&bad});
  CHECK(invalid.status() == kildall::SolveStatus::invalid_input);
}
