/// \file
/// kildall on MLIR's own IR, checked on generated `func`/`arith`/`cf` programs
/// (benchmarks/mlir_program_generator.hpp, fixed seeds):
///
///  1. The views are MLIR's graphs: `BlockGraph`'s out- and in-edges are the
///     terminators' successor lists and the blocks' predecessor lists, and
///     kildall's dominator tree over it equals `mlir::DominanceInfo`;
///     `ValueGraph`'s out-edges and in-edges describe the same edge set, and a
///     result's in-edges are its op's operands; `RegionShape` (the
///     `kildall::SsaProgram` the analyses are solved on) numbers the same
///     values and derives the same def-use edges: its operands are a result's
///     in-edges, its forwarded operands a block argument's.
///  2. Same analyses, two IRs: kildall's integer ranges and SCCP over the MLIR
///     adapter give, value by value, exactly what the same analyses give over
///     kildall's reference IR (`kildall::ir`) parsed from the same text.
///  3. Soundness against concrete execution: kildall's reference interpreter
///     runs every function on random arguments; each value it computes must
///     lie in kildall's range and in MLIR's `IntegerRangeAnalysis` range, equal
///     the constant either SCCP claims, and every block it enters must be
///     executable for both frameworks.
///  4. Agreement with MLIR's `IntegerRangeAnalysis` and
///     `SparseConstantPropagation` (each run with `DeadCodeAnalysis`) is
///     counted value by value and printed; docs/mlir.md explains the
///     differences. Set KILDALL_MLIR_AGREEMENT_OPS to analyse larger programs.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h>
#include <mlir/Analysis/DataFlow/DeadCodeAnalysis.h>
#include <mlir/Analysis/DataFlow/IntegerRangeAnalysis.h>
#include <mlir/Analysis/DataFlowFramework.h>
#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/ControlFlow/IR/ControlFlow.h>
#include <mlir/Dialect/ControlFlow/IR/ControlFlowOps.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/Dominance.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/IR/Verifier.h>
#include <mlir/Parser/Parser.h>

#include <kildall/graph/dominators.hpp>
#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/interpreter.hpp>
#include <kildall/ir/verifier.hpp>
#include <kildall/solver/verify.hpp>
#include <kildall_mlir/analyses.hpp>
#include <mlir_program_generator.hpp>

namespace {

using kildall::Interval;
using kildall::bench::ProgramShape;
using kildall_mlir::analysis_width;

/// One context for every test, with the three dialects the programs use.
mlir::MLIRContext& context() {
  static mlir::MLIRContext* ctx = [] {
    mlir::DialectRegistry registry;
    registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect>();
    auto* c = new mlir::MLIRContext(registry, mlir::MLIRContext::Threading::DISABLED);
    c->loadAllAvailableDialects();
    return c;
  }();
  return *ctx;
}

/// The ops per program (KILDALL_MLIR_AGREEMENT_OPS overrides).
std::size_t program_ops() {
  if (const char* env = std::getenv("KILDALL_MLIR_AGREEMENT_OPS")) return std::strtoull(env, nullptr, 10);
  return 1500;
}

/// A generated program, parsed by MLIR and by kildall's reference IR.
struct Program {
  std::string name;
  std::string text;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  kildall::ir::OpRegistry registry;
  kildall::ir::Module ir;
  std::vector<mlir::func::FuncOp> functions;
  /// Per function: the MLIR value of each kildall value id.
  std::vector<std::vector<mlir::Value>> mlir_value_of;
};

/// The line of an op's location.
unsigned line_of(mlir::Operation* op) {
  auto loc = op->getLoc().dyn_cast<mlir::FileLineColLoc>();
  return loc ? loc.getLine() : 0;
}

std::unique_ptr<Program> make_program(ProgramShape shape, std::uint64_t seed) {
  auto p = std::make_unique<Program>();
  p->name = std::string(kildall::bench::to_string(shape)) + "/" + std::to_string(seed);
  p->text = kildall::bench::generate_mlir_program(shape, program_ops(), seed, 150);
  p->module = mlir::parseSourceString<mlir::ModuleOp>(p->text, mlir::ParserConfig(&context()));
  REQUIRE_MESSAGE(p->module, "MLIR rejected the generated program " << p->name);
  REQUIRE(mlir::succeeded(mlir::verify(p->module.get())));
  p->ir = kildall::ir::parse_and_verify(p->text, p->registry, p->name);
  for (auto f : p->module->getOps<mlir::func::FuncOp>()) p->functions.push_back(f);
  REQUIRE(p->functions.size() == p->ir.functions.size());
  // Correspond values: a result by (line, result number), an argument by (block, position).
  for (std::size_t f = 0; f < p->functions.size(); ++f) {
    std::map<std::tuple<bool, unsigned, unsigned>, mlir::Value> by_key;
    unsigned b = 0;
    for (mlir::Block& block : p->functions[f].getBody()) {
      for (mlir::BlockArgument a : block.getArguments()) by_key[{true, b, a.getArgNumber()}] = a;
      for (mlir::Operation& op : block)
        for (mlir::OpResult r : op.getResults()) by_key[{false, line_of(&op), r.getResultNumber()}] = r;
      ++b;
    }
    const kildall::ir::Function& fn = p->ir.functions[f];
    std::vector<mlir::Value>& map = p->mlir_value_of.emplace_back(fn.values.size());
    for (kildall::ir::ValueId v = 0; v < fn.values.size(); ++v) {
      const kildall::ir::ValueData& data = fn.values[v];
      const auto key = data.is_block_argument
                           ? std::tuple<bool, unsigned, unsigned>{true, data.owner, data.position}
                           : std::tuple<bool, unsigned, unsigned>{false, fn.ops[data.owner].loc.line, data.position};
      const auto it = by_key.find(key);
      REQUIRE_MESSAGE(it != by_key.end(), "no MLIR value for value " << v << " of @" << fn.name);
      map[v] = it->second;
    }
  }
  return p;
}

/// The generated programs of the tests: every shape, two seeds.
const std::vector<std::unique_ptr<Program>>& programs() {
  static const auto all = [] {
    std::vector<std::unique_ptr<Program>> v;
    for (ProgramShape shape : {ProgramShape::dag, ProgramShape::cfg, ProgramShape::constant_heavy})
      for (std::uint64_t seed : {1u, 2u}) v.push_back(make_program(shape, seed));
    return v;
  }();
  return all;
}

/// MLIR's integer range of `v`, as a kildall interval (nullopt: uninitialized).
std::optional<Interval> mlir_range(const mlir::DataFlowSolver& solver, mlir::Value v) {
  const auto* lattice = solver.lookupState<mlir::dataflow::IntegerValueRangeLattice>(v);
  if (!lattice || lattice->getValue().isUninitialized()) return std::nullopt;
  const mlir::ConstantIntRanges& r = lattice->getValue().getValue();
  return Interval::from_bounds(*analysis_width(v.getType()), r.umin().getZExtValue(), r.umax().getZExtValue(),
                               r.smin().getSExtValue(), r.smax().getSExtValue());
}

/// MLIR's constant state of `v`: nullopt when uninitialized, else a constant or nullopt inside (overdefined).
std::optional<std::optional<std::uint64_t>> mlir_constant(const mlir::DataFlowSolver& solver, mlir::Value v) {
  const auto* lattice = solver.lookupState<mlir::dataflow::Lattice<mlir::dataflow::ConstantValue>>(v);
  if (!lattice || lattice->getValue().isUninitialized()) return std::nullopt;
  auto attr = lattice->getValue().getConstantValue().dyn_cast_or_null<mlir::IntegerAttr>();
  if (!attr) return std::optional<std::uint64_t>{};
  return std::optional<std::uint64_t>(attr.getValue().getZExtValue());
}

/// Whether MLIR's dead-code analysis found `block` live.
bool mlir_live(const mlir::DataFlowSolver& solver, mlir::Block* block) {
  const auto* state = solver.lookupState<mlir::dataflow::Executable>(block);
  return state && state->isLive();
}

/// MLIR's `IntegerRangeAnalysis` and `SparseConstantPropagation`, each with `DeadCodeAnalysis`.
struct MlirSolvers {
  mlir::DataFlowSolver ranges;
  mlir::DataFlowSolver constants;
  explicit MlirSolvers(mlir::ModuleOp module) {
    ranges.load<mlir::dataflow::DeadCodeAnalysis>();
    ranges.load<mlir::dataflow::IntegerRangeAnalysis>();
    REQUIRE(mlir::succeeded(ranges.initializeAndRun(module)));
    constants.load<mlir::dataflow::DeadCodeAnalysis>();
    constants.load<mlir::dataflow::SparseConstantPropagation>();
    REQUIRE(mlir::succeeded(constants.initializeAndRun(module)));
  }
};

/// Whether to print examples of each difference (KILDALL_MLIR_AGREEMENT_VERBOSE set).
bool verbose() { return std::getenv("KILDALL_MLIR_AGREEMENT_VERBOSE") != nullptr; }

/// `v` as text: its defining op, or `^bbN(argument K)` for a block argument.
std::string describe(mlir::Value v) {
  std::string text;
  llvm::raw_string_ostream out(text);
  if (mlir::Operation* op = v.getDefiningOp()) {
    op->print(out, mlir::OpPrintingFlags().useLocalScope());
  } else {
    out << "block argument " << v.cast<mlir::BlockArgument>().getArgNumber();
  }
  return out.str();
}

/// The name of the op defining `v`, or `block argument`.
std::string op_name(mlir::Value v) {
  mlir::Operation* op = v.getDefiningOp();
  return op ? op->getName().getStringRef().str() : std::string("block argument");
}

/// A named counter table, printed at the end of a test.
struct Tally {
  std::map<std::string, std::size_t> counts;
  void add(const std::string& what) { ++counts[what]; }
  /// Counts `what` and, when verbose, prints the first few examples of a difference.
  void add(const std::string& what, mlir::Value v, const std::string& detail) {
    const std::size_t n = ++counts[what];
    if (verbose() && n <= 4 && what.find("equal") == std::string::npos && what.find("both") == std::string::npos &&
        what != "same constant")
      std::printf("  [%s] %s   (%s)\n", what.c_str(), describe(v).c_str(), detail.c_str());
  }
  void print(const char* title) const {
    std::size_t total = 0;
    for (const auto& [what, n] : counts) total += n;
    std::printf("%s (%zu values)\n", title, total);
    for (const auto& [what, n] : counts)
      std::printf("  %-44s %8zu  %5.1f%%\n", what.c_str(), n, total ? 100.0 * static_cast<double>(n) / static_cast<double>(total) : 0.0);
  }
};

}  // namespace

TEST_CASE("the block and value views are MLIR's own CFG and def-use graph") {
  std::size_t blocks = 0, values = 0, dominance_pairs = 0, forwarded = 0;
  for (const auto& p : programs()) {
    for (mlir::func::FuncOp f : p->functions) {
      const kildall_mlir::BlockGraph cfg(f.getBody());              // vertices: mlir::Block*
      const kildall_mlir::ValueGraph defuse(cfg);                   // vertices: mlir::Value
      const auto tree = kildall::dominator_tree(cfg, cfg.entry());  // any kildall graph algorithm
      // Blocks: out-edges are the successor list, in-edges the predecessor list.
      for (mlir::Block* b : kildall::vertex_range(cfg)) {
        ++blocks;
        std::vector<mlir::Block*> succ, pred;
        for (const auto& e : kildall::out_edge_range(cfg, b)) {
          CHECK(source(e, cfg) == b);
          succ.push_back(target(e, cfg));
        }
        for (const auto& e : kildall::in_edge_range(cfg, b)) {
          CHECK(target(e, cfg) == b);
          pred.push_back(source(e, cfg));
        }
        CHECK(succ == std::vector<mlir::Block*>(b->getSuccessors().begin(), b->getSuccessors().end()));
        std::vector<mlir::Block*> mlir_pred(b->getPredecessors().begin(), b->getPredecessors().end());
        std::sort(pred.begin(), pred.end());
        std::sort(mlir_pred.begin(), mlir_pred.end());
        CHECK(pred == mlir_pred);
        CHECK(kildall::vertex_index(cfg, b) < kildall::vertex_count(cfg));
      }
      // Dominators: kildall's tree over the view against MLIR's DominanceInfo.
      mlir::DominanceInfo dominance(f);
      for (mlir::Block* a : kildall::vertex_range(cfg)) {
        const std::size_t ai = kildall::vertex_index(cfg, a);
        CHECK(tree.is_reachable(ai) == dominance.isReachableFromEntry(a));
        if (!tree.is_reachable(ai)) continue;
        for (mlir::Block* b : kildall::vertex_range(cfg)) {
          const std::size_t bi = kildall::vertex_index(cfg, b);
          if (!tree.is_reachable(bi)) continue;
          ++dominance_pairs;
          CHECK(tree.dominates(ai, bi) == dominance.dominates(a, b));
        }
      }
      // Values: the out-edge set equals the in-edge set; a result's in-edges are its operands.
      std::vector<std::pair<std::size_t, std::size_t>> out, in;
      for (mlir::Value v : kildall::vertex_range(defuse)) {
        ++values;
        const std::size_t vi = kildall::vertex_index(defuse, v);
        for (const auto& e : kildall::out_edge_range(defuse, v)) {
          CHECK(source(e, defuse) == v);
          out.emplace_back(vi, kildall::vertex_index(defuse, target(e, defuse)));
        }
        std::vector<mlir::Value> operands;
        for (const auto& e : kildall::in_edge_range(defuse, v)) {
          CHECK(target(e, defuse) == v);
          operands.push_back(source(e, defuse));
          in.emplace_back(kildall::vertex_index(defuse, source(e, defuse)), vi);
        }
        if (mlir::Operation* op = v.getDefiningOp(); op && op->getNumSuccessors() == 0)
          CHECK(operands == std::vector<mlir::Value>(op->getOperands().begin(), op->getOperands().end()));
      }
      std::sort(out.begin(), out.end());
      std::sort(in.begin(), in.end());
      CHECK(out == in);
      // The shape the sparse solver runs on: the same blocks and values, and the same def-use
      // edges (an op result's operands; what each branch slot forwards to each argument).
      const kildall_mlir::RegionShape shape(defuse);
      CHECK(&shape.cfg() == &cfg);
      REQUIRE(shape.entries().size() == 1);
      CHECK(shape.entries()[0] == &f.getBody().front());
      std::size_t numbered = 0;
      std::vector<std::pair<std::size_t, std::size_t>> derived;
      for (mlir::Block* b : kildall::vertex_range(shape.cfg())) {
        const auto arguments = shape.block_arguments(b);
        CHECK(std::vector<mlir::Value>(arguments.begin(), arguments.end()) ==
              std::vector<mlir::Value>(b->getArguments().begin(), b->getArguments().end()));
        std::vector<mlir::Value> results;
        for (mlir::Operation& op : *b) results.insert(results.end(), op.getResults().begin(), op.getResults().end());
        const auto block_values = shape.block_values(b);
        CHECK(std::vector<mlir::Value>(block_values.begin(), block_values.end()) == results);
        numbered += arguments.size() + block_values.size();
        for (mlir::Value v : arguments) CHECK(shape.operands(v).empty());
        for (mlir::Value v : block_values) {
          CHECK(kildall::value_index(shape, v) == kildall::vertex_index(defuse, v));
          const auto operands = shape.operands(v);
          std::vector<mlir::Value> sources;
          for (const auto& e : kildall::in_edge_range(defuse, v)) sources.push_back(source(e, defuse));
          CHECK(std::vector<mlir::Value>(operands.begin(), operands.end()) == sources);
          for (mlir::Value x : operands)
            derived.emplace_back(kildall::value_index(shape, x), kildall::value_index(shape, v));
        }
        const auto branch_operands = shape.branch_operands(b);
        const std::vector<mlir::Value> branch(branch_operands.begin(), branch_operands.end());
        if (auto cond_br = llvm::dyn_cast<mlir::cf::CondBranchOp>(b->getTerminator())) {
          CHECK(branch == std::vector<mlir::Value>{cond_br.getCondition()});
        } else {
          CHECK(branch.empty());  // cf.br and func.return decide nothing
        }
        for (const auto& e : kildall::out_edge_range(shape.cfg(), b)) {
          const auto passed = shape.forwarded_operands(e);
          const auto receiving = shape.block_arguments(target(e, cfg));
          CHECK(passed.size() == receiving.size());
          for (std::size_t i = 0; i < passed.size() && i < receiving.size(); ++i) {
            derived.emplace_back(kildall::value_index(shape, passed[i]), kildall::value_index(shape, receiving[i]));
            ++forwarded;
          }
        }
      }
      CHECK(numbered == shape.value_count());
      std::sort(derived.begin(), derived.end());
      CHECK(derived == in);
    }
  }
  std::printf("views: %zu blocks, %zu values, %zu dominance pairs checked against MLIR; "
              "shape: %zu forwarded operands\n",
              blocks, values, dominance_pairs, forwarded);
}

TEST_CASE("kildall's analyses give the same answers over MLIR's IR as over kildall's own IR") {
  std::size_t ranges_compared = 0, constants_compared = 0, constants_differing = 0;
  for (const auto& p : programs()) {
    for (std::size_t f = 0; f < p->functions.size(); ++f) {
      const kildall::ir::Function& fn = p->ir.functions[f];
      const kildall::ir::IntRangeAnalysis own_ranges(fn);
      const kildall::ir::SccpAnalysis own_constants(fn, p->registry);
      const kildall_mlir::IntRangeAnalysis ranges(p->functions[f].getBody());
      const kildall_mlir::ConstantAnalysis constants(p->functions[f].getBody());
      REQUIRE(ranges.result().converged());
      REQUIRE(constants.result().converged());
      // The results are about the analyses' shapes, solved from the entry block.
      CHECK(&ranges.result().program() == &ranges.shape());
      CHECK(ranges.result().roots() == std::vector<mlir::Block*>{&p->functions[f].getBody().front()});
      CHECK(constants.result().roots() == std::vector<mlir::Block*>{&p->functions[f].getBody().front()});
      // Solving a problem on the shape directly (docs/mlir.md) is what RegionAnalysis does.
      const kildall_mlir::IntRangeProblem range_problem(ranges.shape());
      const auto direct = kildall::solve_sparse(ranges.shape(), range_problem);
      REQUIRE(direct.converged());
      for (mlir::Value v : ranges.values().values()) {
        const Interval* a = direct.lookup(v);
        const Interval* b = ranges.lookup(v);
        CHECK(((a == nullptr) == (b == nullptr) && (a == nullptr || *a == *b)));
      }
      for (mlir::Block* b : ranges.blocks().blocks()) CHECK(direct.block_reached(b) == ranges.executable(b));
      bool has_look_through = false;
      for (kildall::ir::OpId op = 0; op < fn.ops.size() && !has_look_through; ++op)
        has_look_through = kildall::ir::forwarded_value(fn, op) != kildall::ir::no_index;
      for (kildall::ir::ValueId v = 0; v < fn.values.size(); ++v) {
        const mlir::Value mv = p->mlir_value_of[f][v];
        const Interval* own = own_ranges.lookup(v);
        const Interval* theirs = ranges.lookup(mv);
        CHECK_MESSAGE((own == nullptr) == (theirs == nullptr), p->name << " @" << fn.name << " value " << v);
        if (own && theirs)
          CHECK_MESSAGE(*own == *theirs, p->name << " @" << fn.name << " value " << v << ": " << kildall::to_string(*own)
                                                 << " vs " << kildall::to_string(*theirs));
        ++ranges_compared;
        // Constants: the reference SCCP also looks through an operand's defining op ((a + b) - b = a,
        // kildall::ir::forwarded_value), which needs def-use edges the MLIR view does not add;
        // so the reference may be tighter, only ever in functions where that identity occurs.
        const kildall::ir::ConstantState* own_c = own_constants.lookup(v);
        const kildall_mlir::ConstantState* their_c = constants.lookup(mv);
        const bool same = (own_c == nullptr) == (their_c == nullptr) && (!own_c || *own_c == *their_c);
        const bool reference_tighter = !same && (!own_c || (their_c && own_c->leq(*their_c)));
        CHECK_MESSAGE((same || (reference_tighter && has_look_through)),
                      p->name << " @" << fn.name << " value " << v << ": " << own_constants.describe(v));
        constants_differing += same ? 0 : 1;
        ++constants_compared;
      }
    }
  }
  std::printf("same analysis, two IRs: %zu ranges identical; %zu constants compared, %zu differ (look-through)\n",
              ranges_compared, constants_compared, constants_differing);
}

TEST_CASE("docs/mlir.md: an analysis solved directly over the region's shape is a post-fixpoint") {
  using YourProblem = kildall_mlir::ConstantProblem;
  std::size_t solved = 0;
  for (const auto& p : programs()) {
    for (mlir::func::FuncOp f : p->functions) {
const kildall_mlir::BlockGraph cfg(f.getBody());
const kildall_mlir::ValueGraph values(cfg);
const kildall_mlir::RegionShape shape(values);
const YourProblem problem(shape);
const auto result = kildall::solve_sparse(shape, problem);  // lookup(v), block_reached(b), roots(), program()
      REQUIRE(result.converged());
      CHECK(&result.program() == &shape);
      CHECK(kildall::verify_fixpoint(problem, result).ok());
      ++solved;
    }
  }
  CHECK(solved > 0);
}

TEST_CASE("every value a run computes lies in both frameworks' ranges and constants") {
  std::mt19937_64 rng(20240611);
  std::size_t observed = 0;
  for (const auto& p : programs()) {
    const MlirSolvers mlir_solvers(p->module.get());
    kildall::ir::Interpreter interpreter(p->ir);
    for (std::size_t f = 0; f < p->functions.size(); ++f) {
      const kildall_mlir::IntRangeAnalysis ranges(p->functions[f].getBody());
      const kildall_mlir::ConstantAnalysis constants(p->functions[f].getBody());
      const std::vector<mlir::Value>& value_of = p->mlir_value_of[f];
      kildall::ir::InterpreterOptions options;
      options.max_steps = 20'000;
      std::size_t failures = 0;
      options.on_value = [&](std::uint32_t function, kildall::ir::ValueId v, std::uint64_t bits) {
        if (function != f) return;
        ++observed;
        const mlir::Value mv = value_of[v];
        const unsigned width = *analysis_width(mv.getType());
        bits &= kildall::detail::interval::mask(width);
        const Interval* range = ranges.lookup(mv);
        const auto theirs = mlir_range(mlir_solvers.ranges, mv);
        const auto constant = kildall_mlir::constant_of(constants, mv);
        const auto their_constant = mlir_constant(mlir_solvers.constants, mv);
        const bool ok = range && range->contains(bits) && theirs && theirs->contains(bits) &&
                        (!constant || *constant == bits) && their_constant &&
                        (!*their_constant || **their_constant == bits);
        if (!ok && failures++ < 5) FAIL_CHECK(p->name << " @f" << f << " value " << v << " = " << bits << " escapes");
      };
      options.on_block = [&](std::uint32_t function, kildall::ir::BlockId b) {
        if (function != f) return;
        mlir::Block* block = ranges.blocks().blocks()[b];
        const bool ok = ranges.executable(block) && constants.executable(block) &&
                        mlir_live(mlir_solvers.ranges, block) && mlir_live(mlir_solvers.constants, block);
        if (!ok && failures++ < 5) FAIL_CHECK(p->name << " @f" << f << " block " << b << " runs but was found dead");
      };
      for (int run = 0; run < 4; ++run) {
        std::vector<std::uint64_t> args(3);
        for (auto& a : args) a = run % 2 == 0 ? rng() % 61 - 30 : rng();
        (void)interpreter.run(p->ir.functions[f].name, args, options);
      }
      CHECK(failures == 0);
    }
  }
  std::printf("concrete runs: %zu values observed, all inside both frameworks' facts\n", observed);
  CHECK(observed > 0);
}

TEST_CASE("agreement with MLIR's IntegerRangeAnalysis and SparseConstantPropagation") {
  Tally range_tally, constant_tally, block_tally;
  std::map<std::string, Tally> range_by_shape, constant_by_shape;
  for (const auto& p : programs()) {
    const MlirSolvers mlir_solvers(p->module.get());
    const std::string shape = p->name.substr(0, p->name.find('/'));
    for (mlir::func::FuncOp f : p->functions) {
      const kildall_mlir::IntRangeAnalysis ranges(f.getBody());
      const kildall_mlir::ConstantAnalysis constants(f.getBody());
      for (mlir::Block* b : ranges.blocks().blocks()) {
        const bool k = ranges.executable(b), m = mlir_live(mlir_solvers.ranges, b);
        block_tally.add(k == m ? (k ? "ranges: live in both" : "ranges: dead in both")
                               : (k ? "ranges: dead only for MLIR" : "ranges: dead only for kildall"));
        const bool kc = constants.executable(b), mc = mlir_live(mlir_solvers.constants, b);
        block_tally.add(kc == mc ? (kc ? "sccp: live in both" : "sccp: dead in both")
                                 : (kc ? "sccp: dead only for MLIR" : "sccp: dead only for kildall"));
      }
      for (mlir::Value v : ranges.values().values()) {
        // Ranges.
        const Interval* k = ranges.lookup(v);
        const auto m = mlir_range(mlir_solvers.ranges, v);
        std::string what;
        if (!k || !m) {
          what = !k && !m ? "uninitialized in both (dead)" : !k ? "uninitialized for kildall only" : "uninitialized for MLIR only";
        } else if (*k == *m) {
          what = k->is_full() ? "equal (full range)" : "equal (bounded)";
        } else if (k->leq(*m)) {
          what = "kildall tighter";
        } else if (m->leq(*k)) {
          what = "MLIR tighter";
        } else {
          what = "incomparable";
        }
        if (what == "kildall tighter" || what == "MLIR tighter" || what == "incomparable") what += " at " + op_name(v);
        range_tally.add(what, v, (k ? kildall::to_string(*k) : "-") + " vs MLIR " + (m ? kildall::to_string(*m) : "-"));
        range_by_shape[shape].add(what);
        // Constants.
        const kildall_mlir::ConstantState* kc = constants.lookup(v);
        const auto mc = mlir_constant(mlir_solvers.constants, v);
        if (!kc || !mc) {
          what = !kc && !mc ? "uninitialized in both (dead)" : !kc ? "uninitialized for kildall only" : "uninitialized for MLIR only";
        } else if (kc->is_constant() && *mc) {
          what = kc->constant() == **mc ? "same constant" : "different constants";
        } else if (!kc->is_constant() && !*mc) {
          what = "overdefined in both";
        } else {
          what = kc->is_constant() ? "constant for kildall only" : "constant for MLIR only";
        }
        if (what.find(" only") != std::string::npos || what == "different constants") what += " at " + op_name(v);
        constant_tally.add(what, v, kc && kc->is_constant() ? std::to_string(kc->constant()) : "kildall: not constant");
        constant_by_shape[shape].add(what);
      }
    }
  }
  range_tally.print("integer ranges, kildall vs MLIR IntegerRangeAnalysis");
  for (const auto& [shape, t] : range_by_shape) t.print(("  shape " + shape).c_str());
  constant_tally.print("constants, kildall SCCP vs MLIR SparseConstantPropagation");
  for (const auto& [shape, t] : constant_by_shape) t.print(("  shape " + shape).c_str());
  block_tally.print("blocks (counted once per analysis)");
  // Sound facts about the same executions can differ in precision but never contradict.
  for (const auto& [what, n] : constant_tally.counts) CHECK_MESSAGE(what.find("different") == std::string::npos, what);
  CHECK(range_tally.counts["equal (bounded)"] + range_tally.counts["equal (full range)"] > 0);
}
