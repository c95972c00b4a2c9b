/// \file
/// `kildall-mlir-opt`: MLIR's `mlir-opt` driver with kildall's analyses as
/// passes, so an MLIR user can try kildall on their own `func`/`arith`/`cf`
/// files (docs/mlir.md):
///
///   kildall-mlir-opt --kildall-int-range file.mlir
///       every op result gets `kildall.range = "[smin, smax] u[umin, umax]"`
///       (kildall's integer range); ops in blocks found dead get
///       `kildall.dead`. With `{remarks}` each value, block arguments
///       included, is also reported as a remark at its location; with
///       `{compare}` MLIR's own `IntegerRangeAnalysis` runs too and every
///       value where the two differ gets a remark saying which is tighter.
///   kildall-mlir-opt --kildall-sccp file.mlir
///       kildall's sparse conditional constant propagation rewrites like
///       MLIR's `--sccp`: each value found constant in a live block is
///       replaced by an `arith.constant`, and pure ops left without users are
///       erased (follow with `--canonicalize` to fold branches and clean up).
///
/// Every pass and dialect of MLIR's own `mlir-opt` for func/arith/cf is
/// registered too (`--sccp`, `--canonicalize`, `--cse`, ...), so the two
/// frameworks can be compared on the same command line.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <llvm/ADT/APInt.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/Support/raw_ostream.h>
#include <mlir/Analysis/DataFlow/DeadCodeAnalysis.h>
#include <mlir/Analysis/DataFlow/IntegerRangeAnalysis.h>
#include <mlir/Analysis/DataFlowFramework.h>
#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/ControlFlow/IR/ControlFlow.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/IR/Builders.h>
#include <mlir/IR/DialectRegistry.h>
#include <mlir/Interfaces/SideEffectInterfaces.h>
#include <mlir/Pass/Pass.h>
#include <mlir/Pass/PassRegistry.h>
#include <mlir/Tools/mlir-opt/MlirOptMain.h>
#include <mlir/Transforms/Passes.h>

#include <kildall_mlir/analyses.hpp>

namespace {

/// Reports a solve that stopped before its fixpoint as an error on `f`; true when it converged.
template <class Analysis>
bool check_converged(mlir::func::FuncOp f, const Analysis& analysis) {
  if (analysis.result().converged()) return true;
  f.emitError() << "kildall: the solver stopped before a fixpoint (status "
                << static_cast<int>(analysis.result().status()) << ")";
  return false;
}

/// MLIR's range of `v` as a kildall interval, if MLIR's analysis reached it.
std::optional<kildall::Interval> mlir_range(const mlir::DataFlowSolver& solver, mlir::Value v) {
  const auto* lattice = solver.lookupState<mlir::dataflow::IntegerValueRangeLattice>(v);
  const auto width = kildall_mlir::analysis_width(v.getType());
  if (!lattice || lattice->getValue().isUninitialized() || !width) return std::nullopt;
  const mlir::ConstantIntRanges& r = lattice->getValue().getValue();
  return kildall::Interval::from_bounds(*width, r.umin().getZExtValue(), r.umax().getZExtValue(),
                                        r.smin().getSExtValue(), r.smax().getSExtValue());
}

/// `--kildall-int-range`: annotates every op result with kildall's integer range.
struct IntRangePass : mlir::PassWrapper<IntRangePass, mlir::OperationPass<mlir::func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(IntRangePass)

  IntRangePass() = default;
  IntRangePass(const IntRangePass& other) : PassWrapper(other) {}

  [[nodiscard]] llvm::StringRef getArgument() const override { return "kildall-int-range"; }
  [[nodiscard]] llvm::StringRef getDescription() const override {
    return "Annotate op results with kildall's integer ranges (kildall.range)";
  }

  Option<bool> remarks{*this, "remarks", llvm::cl::desc("Also report every value's range as a remark"),
                       llvm::cl::init(false)};
  Option<bool> compare{*this, "compare",
                       llvm::cl::desc("Run MLIR's IntegerRangeAnalysis too and remark where the two differ"),
                       llvm::cl::init(false)};

  void runOnOperation() override {
    mlir::func::FuncOp f = getOperation();
    if (f.isExternal()) return;
    const kildall_mlir::IntRangeAnalysis analysis(f.getBody());
    if (!check_converged(f, analysis)) return signalPassFailure();
    std::optional<mlir::DataFlowSolver> solver;
    if (compare) {
      solver.emplace();
      solver->load<mlir::dataflow::DeadCodeAnalysis>();
      solver->load<mlir::dataflow::IntegerRangeAnalysis>();
      if (mlir::failed(solver->initializeAndRun(f))) return signalPassFailure();
    }
    for (mlir::Value v : analysis.values().values()) {
      if (!kildall_mlir::analysis_width(v.getType())) continue;
      const kildall::Interval* range = analysis.lookup(v);
      const std::string text = range ? kildall::to_string(*range) : std::string("uninitialized");
      if (remarks) mlir::emitRemark(v.getLoc()) << "kildall range " << text;
      if (solver) compare_with_mlir(*solver, v, range);
    }
    mlir::Builder builder(&getContext());
    for (mlir::Block* block : analysis.blocks().blocks()) {
      const bool live = analysis.executable(block);
      for (mlir::Operation& op : *block) {
        if (!live) {
          op.setAttr("kildall.dead", builder.getUnitAttr());
          continue;
        }
        if (op.getNumResults() != 1 || !kildall_mlir::analysis_width(op.getResult(0).getType())) continue;
        if (const kildall::Interval* range = analysis.lookup(op.getResult(0)))
          op.setAttr("kildall.range", builder.getStringAttr(kildall::to_string(*range)));
      }
    }
  }

  /// Remarks where kildall's range of `v` and MLIR's differ.
  static void compare_with_mlir(const mlir::DataFlowSolver& solver, mlir::Value v, const kildall::Interval* range) {
    const auto theirs = mlir_range(solver, v);
    if (!range && !theirs) return;
    if (range && theirs && *range == *theirs) return;
    const std::string mine = range ? kildall::to_string(*range) : "uninitialized";
    const std::string other = theirs ? kildall::to_string(*theirs) : "uninitialized";
    const char* verdict = !range ? "MLIR reaches it, kildall finds it dead"
                          : !theirs ? "kildall reaches it, MLIR finds it dead"
                          : range->leq(*theirs) ? "kildall tighter"
                          : theirs->leq(*range) ? "MLIR tighter"
                                                 : "incomparable";
    mlir::emitRemark(v.getLoc()) << verdict << ": kildall " << mine << ", MLIR " << other;
  }
};

/// `--kildall-sccp`: kildall's sparse conditional constant propagation, rewriting like `--sccp`.
struct SccpPass : mlir::PassWrapper<SccpPass, mlir::OperationPass<mlir::func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SccpPass)

  [[nodiscard]] llvm::StringRef getArgument() const override { return "kildall-sccp"; }
  [[nodiscard]] llvm::StringRef getDescription() const override {
    return "Replace values kildall's SCCP proves constant by arith.constant";
  }
  void getDependentDialects(mlir::DialectRegistry& registry) const override {
    registry.insert<mlir::arith::ArithDialect>();
  }

  void runOnOperation() override {
    mlir::func::FuncOp f = getOperation();
    if (f.isExternal()) return;
    // The analysis reads the IR through views that must not change while it is used: collect
    // the replacements first, rewrite afterwards.
    const kildall_mlir::ConstantAnalysis analysis(f.getBody());
    if (!check_converged(f, analysis)) return signalPassFailure();
    std::vector<std::pair<mlir::Value, std::uint64_t>> replace;
    for (mlir::Value v : analysis.values().values()) {
      if (!analysis.executable(v.getParentBlock()) || v.use_empty()) continue;
      if (mlir::Operation* op = v.getDefiningOp(); op && llvm::isa<mlir::arith::ConstantOp>(op)) continue;
      if (const auto bits = kildall_mlir::constant_of(analysis, v)) replace.emplace_back(v, *bits);
    }
    mlir::OpBuilder builder(&getContext());
    for (const auto& [v, bits] : replace) {
      const mlir::Type type = v.getType();
      if (auto argument = v.dyn_cast<mlir::BlockArgument>()) {
        builder.setInsertionPointToStart(argument.getOwner());
      } else {
        builder.setInsertionPoint(v.getDefiningOp());
      }
      const llvm::APInt value(*kildall_mlir::analysis_width(type), bits);
      auto constant = builder.create<mlir::arith::ConstantOp>(v.getLoc(), mlir::IntegerAttr::get(type, value));
      v.replaceAllUsesWith(constant);
    }
    // Erase the pure ops whose results all lost their users.
    llvm::SetVector<mlir::Operation*> defining_ops;
    for (const auto& entry : replace)
      if (mlir::Operation* op = entry.first.getDefiningOp()) defining_ops.insert(op);
    for (mlir::Operation* op : defining_ops)
      if (op->use_empty() && mlir::wouldOpBeTriviallyDead(op)) op->erase();
  }
};

}  // namespace

int main(int argc, char** argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect>();
  mlir::registerTransformsPasses();
  mlir::PassRegistration<IntRangePass>();
  mlir::PassRegistration<SccpPass>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "kildall-mlir-opt: MLIR's optimizer driver with kildall's analyses\n", registry));
}
