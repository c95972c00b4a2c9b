#pragma once
/// \file
/// kildall's integer range analysis and sparse conditional constant
/// propagation over MLIR's IR, through the region shape of `adapter.hpp`.
///
/// These are the two analyses of `kildall/ir/analysis/` (int_range.hpp,
/// sccp.hpp) transplanted onto MLIR: the same generic sparse solver
/// (`kildall::solve_sparse`, Wegman & Zadeck's SCCP generalized to any
/// join-semilattice, with executable-edge tracking), the same lattices
/// (`kildall::Interval` after MLIR's `ConstantIntRanges`; `kildall::Flat`),
/// the same transfer functions (`kildall/lattice/interval_transfer.hpp`; the
/// exact two's-complement evaluators of `kildall/ir/arith.hpp`). Only the
/// program's shape differs, and it is written once, for every analysis:
/// `RegionShape` (adapter.hpp) says which op an `mlir::Value` comes from, what
/// a branch forwards to a block argument and which successor a branch can
/// take. The two problems here are semantics only (a lattice, `transfer`,
/// `boundary`, `edge_executable`), solved by
/// `kildall::solve_sparse(shape, problem)`.
///
/// Op coverage: the integer ops of the `arith` dialect (constant, add/sub/mul,
/// div/rem signed and unsigned, and/or/xor, shifts, min/max, cmpi, select,
/// extsi/extui/trunci, index_cast/index_castui) on scalar integers of at most
/// 64 bits and `index`. Any other op gets the full range (or "overdefined"),
/// as MLIR's own analyses do for ops without `InferIntRangeInterface` (or
/// without a folder). Branches: `cf.cond_br` directly, any other
/// `BranchOpInterface` terminator (`cf.switch`, ...) through its
/// `getSuccessorForOperands`, like MLIR's `DeadCodeAnalysis`. The analysis is
/// intraprocedural: function arguments and `func.call` results are unknown.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <llvm/ADT/SmallVector.h>
#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/IR/BuiltinAttributes.h>

#include <kildall/ir/arith.hpp>
#include <kildall/ir/builtin_ops.hpp>
#include <kildall/lattice/flat.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/interval_transfer.hpp>
#include <kildall/solver/options.hpp>
#include <kildall/solver/sparse.hpp>

#include <kildall_mlir/adapter.hpp>

namespace kildall_mlir {

/// What an `arith` op computes, in the vocabulary of kildall's reference IR
/// (`kildall::ir::BuiltinOp`): the binary ops, `cmpi`, `select`, the three
/// casts (`index_cast` is `extsi`/`trunci`, `index_castui` is
/// `extui`/`trunci`, chosen by the widths) and `constant`. Nothing for any
/// other op.
[[nodiscard]] inline std::optional<kildall::ir::BuiltinOp> classify(mlir::Operation* op) {
  using kildall::ir::BuiltinOp;
  namespace arith = mlir::arith;
  if (llvm::isa<arith::ConstantOp>(op)) return BuiltinOp::constant;
  if (llvm::isa<arith::AddIOp>(op)) return BuiltinOp::addi;
  if (llvm::isa<arith::SubIOp>(op)) return BuiltinOp::subi;
  if (llvm::isa<arith::MulIOp>(op)) return BuiltinOp::muli;
  if (llvm::isa<arith::DivSIOp>(op)) return BuiltinOp::divsi;
  if (llvm::isa<arith::DivUIOp>(op)) return BuiltinOp::divui;
  if (llvm::isa<arith::RemSIOp>(op)) return BuiltinOp::remsi;
  if (llvm::isa<arith::RemUIOp>(op)) return BuiltinOp::remui;
  if (llvm::isa<arith::AndIOp>(op)) return BuiltinOp::andi;
  if (llvm::isa<arith::OrIOp>(op)) return BuiltinOp::ori;
  if (llvm::isa<arith::XOrIOp>(op)) return BuiltinOp::xori;
  if (llvm::isa<arith::ShLIOp>(op)) return BuiltinOp::shli;
  if (llvm::isa<arith::ShRSIOp>(op)) return BuiltinOp::shrsi;
  if (llvm::isa<arith::ShRUIOp>(op)) return BuiltinOp::shrui;
  if (llvm::isa<arith::MinSIOp>(op)) return BuiltinOp::minsi;
  if (llvm::isa<arith::MaxSIOp>(op)) return BuiltinOp::maxsi;
  if (llvm::isa<arith::MinUIOp>(op)) return BuiltinOp::minui;
  if (llvm::isa<arith::MaxUIOp>(op)) return BuiltinOp::maxui;
  if (llvm::isa<arith::FloorDivSIOp>(op)) return BuiltinOp::floordivsi;
  if (llvm::isa<arith::CeilDivSIOp>(op)) return BuiltinOp::ceildivsi;
  if (llvm::isa<arith::CeilDivUIOp>(op)) return BuiltinOp::ceildivui;
  if (llvm::isa<arith::CmpIOp>(op)) return BuiltinOp::cmpi;
  if (llvm::isa<arith::SelectOp>(op)) return BuiltinOp::select;
  if (llvm::isa<arith::ExtSIOp>(op)) return BuiltinOp::extsi;
  if (llvm::isa<arith::ExtUIOp>(op)) return BuiltinOp::extui;
  if (llvm::isa<arith::TruncIOp>(op)) return BuiltinOp::trunci;
  const bool signed_cast = llvm::isa<arith::IndexCastOp>(op);
  if (signed_cast || llvm::isa<arith::IndexCastUIOp>(op)) {
    const auto from = analysis_width(op->getOperand(0).getType());
    const auto to = analysis_width(op->getResult(0).getType());
    if (!from || !to) return std::nullopt;
    if (*to < *from) return BuiltinOp::trunci;
    return signed_cast ? BuiltinOp::extsi : BuiltinOp::extui;
  }
  return std::nullopt;
}

/// The bits (zero-extended) of an integer `arith.constant`, if `op` is one of at most 64 bits.
[[nodiscard]] inline std::optional<std::uint64_t> constant_bits(mlir::Operation* op) {
  auto constant = llvm::dyn_cast<mlir::arith::ConstantOp>(op);
  if (!constant) return std::nullopt;
  auto attr = constant.getValue().dyn_cast<mlir::IntegerAttr>();
  if (!attr || !analysis_width(attr.getType())) return std::nullopt;
  return attr.getValue().getZExtValue();
}

/// The `arith.cmpi` predicate of `op` (MLIR and kildall number them alike).
[[nodiscard]] inline kildall::CmpPredicate predicate_of(mlir::Operation* op) {
  return static_cast<kildall::CmpPredicate>(llvm::cast<mlir::arith::CmpIOp>(op).getPredicate());
}

// ===========================================================================
// Integer ranges
// ===========================================================================

/// The range of an `arith` op's result from its operands' ranges (kildall's transfer functions).
/// `operands` are in operand order; `width` is the result's analysis width.
[[nodiscard]] inline kildall::Interval infer_range(mlir::Operation* op, kildall::ir::BuiltinOp kind, unsigned width,
                                                   std::span<const kildall::Interval> operands) {
  using kildall::ir::BuiltinOp;
  using kildall::Interval;
  if (kildall::ir::is_binary_arith(kildall::ir::code_of(kind))) {  // the IR's own records' transfers
    const auto& record = kildall::ir::binary_arith_ops[kildall::ir::code_of(kind) - kildall::ir::code_of(BuiltinOp::addi)];
    return record.infer_ranges(operands[0], operands[1]);
  }
  switch (kind) {
    case BuiltinOp::constant: {
      const auto bits = constant_bits(op);
      return bits ? Interval::from_unsigned(width, *bits, *bits) : Interval::full(width);
    }
    case BuiltinOp::cmpi:
      return kildall::infer_cmp_interval(static_cast<kildall::CmpPredicate>(predicate_of(op)), operands[0],
                                         operands[1]);
    case BuiltinOp::select: return kildall::infer_select(operands[0], operands[1], operands[2]);
    case BuiltinOp::extsi: return kildall::infer_sext(operands[0], width);
    case BuiltinOp::extui: return kildall::infer_zext(operands[0], width);
    case BuiltinOp::trunci: return kildall::infer_trunc(operands[0], width);
    default: return Interval::full(width);
  }
}

/// kildall's integer range problem over one MLIR region (models `kildall::SparseBranchProblem`
/// over `RegionShape`). Values of types without an analysis width get the placeholder
/// `Interval::full(64)`, meaning "not analysed".
class IntRangeProblem {
 public:
  /// The lattice.
  using lattice_type = kildall::Interval;

  /// The problem over the region of `shape` (which must outlive it).
  explicit IntRangeProblem(const RegionShape& shape) : shape_(&shape) {}

  /// The shape the problem asks its IR questions (`edge_allowed`).
  [[nodiscard]] const RegionShape& shape() const { return *shape_; }
  /// The analysis width of `v`'s type (64 for types the analysis does not cover).
  [[nodiscard]] static unsigned width_of(mlir::Value v) { return analysis_width(v.getType()).value_or(64); }
  /// Function arguments may hold anything.
  [[nodiscard]] kildall::Interval boundary(mlir::Value v) const { return kildall::Interval::full(width_of(v)); }

  /// An edge is executable when the ranges of its source's branch operands allow it (an empty
  /// range, no value flowing, allows none).
  [[nodiscard]] bool edge_executable(const BlockEdge& e, kildall::OperandStates<kildall::Interval> branch) const {
    llvm::SmallVector<std::optional<std::uint64_t>, 2> constants;
    for (const kildall::Interval* range : branch) {
      if (range->is_empty()) return false;
      constants.push_back(range->is_constant() ? std::optional<std::uint64_t>(range->umin()) : std::nullopt);
    }
    return shape_->edge_allowed(e, constants);
  }

  /// The range of result `v` from its op's operand ranges (`states`: the operands of its op but
  /// the forwarded ones, `RegionShape::operands`).
  [[nodiscard]] kildall::Interval transfer(mlir::Value v, kildall::OperandStates<kildall::Interval> states) const {
    const auto width = analysis_width(v.getType());
    if (!width) return kildall::Interval::full(64);
    mlir::Operation* op = v.getDefiningOp();
    const auto kind = classify(op);
    if (!kind || op->getNumResults() != 1 || states.size() != op->getNumOperands()) return kildall::Interval::full(*width);
    llvm::SmallVector<kildall::Interval, 3> operands;
    for (std::size_t i = 0; i < states.size(); ++i) {
      const auto operand_width = analysis_width(op->getOperand(static_cast<unsigned>(i)).getType());
      if (!operand_width || states[i].width() != *operand_width) return kildall::Interval::full(*width);
      operands.push_back(states[i]);
    }
    return infer_range(op, *kind, *width, operands);
  }

 private:
  const RegionShape* shape_;
};

/// Owns the views and the shape of a region, a problem over the shape and the solver result
/// (at stable addresses: the problem and the result point into the shape, the shape into the
/// views). `Problem` is `IntRangeProblem`, `ConstantProblem`, or any problem constructible from
/// a `const RegionShape&` that models `kildall::SparseProblem<Problem, RegionShape>`.
template <class Problem>
class RegionAnalysis {
 public:
  /// The lattice.
  using lattice_type = typename Problem::lattice_type;
  /// The solver result type.
  using Result = kildall::SparseResult<RegionShape, lattice_type>;

  /// Runs the analysis on `region` (a `func.func` body: non-empty, isolated from above).
  explicit RegionAnalysis(mlir::Region& region, const kildall::SolverOptions& options = {})
      : blocks_(std::make_unique<BlockGraph>(region)),
        values_(std::make_unique<ValueGraph>(*blocks_)),
        shape_(std::make_unique<RegionShape>(*values_)),
        problem_(std::make_unique<Problem>(*shape_)),
        result_(kildall::solve_sparse(*shape_, *problem_, options)) {}

  /// The state of `v`, or nullptr when uninitialized (its block is dead, or it was never computed).
  [[nodiscard]] const lattice_type* lookup(mlir::Value v) const { return result_.lookup(v); }
  /// Whether `b` was found executable (reached by the solver).
  [[nodiscard]] bool executable(mlir::Block* b) const { return result_.block_reached(b); }
  /// The solver's result (status, statistics, visit counts; `program()` is `shape()`).
  [[nodiscard]] const Result& result() const { return result_; }
  /// The block view.
  [[nodiscard]] const BlockGraph& blocks() const { return *blocks_; }
  /// The value view.
  [[nodiscard]] const ValueGraph& values() const { return *values_; }
  /// The shape the analysis ran on.
  [[nodiscard]] const RegionShape& shape() const { return *shape_; }
  /// The problem (the analysis's semantics).
  [[nodiscard]] const Problem& problem() const { return *problem_; }

 private:
  std::unique_ptr<BlockGraph> blocks_;
  std::unique_ptr<ValueGraph> values_;
  std::unique_ptr<RegionShape> shape_;
  std::unique_ptr<Problem> problem_;
  Result result_;
};

/// kildall's integer ranges of one region.
using IntRangeAnalysis = RegionAnalysis<IntRangeProblem>;

// ===========================================================================
// Constants (SCCP)
// ===========================================================================

/// The SCCP lattice: a zero-extended bit pattern or overdefined (top); "uninitialized" is the
/// solver's missing state.
using ConstantState = kildall::Flat<std::uint64_t>;

/// kildall's sparse conditional constant propagation over one MLIR region (models
/// `kildall::SparseBranchProblem` over `RegionShape`). Folds `arith` ops with the exact semantics
/// of `kildall/ir/arith.hpp` (undefined cases such as division by zero never fold); any other op
/// is overdefined.
class ConstantProblem {
 public:
  /// The lattice.
  using lattice_type = ConstantState;

  /// The problem over the region of `shape` (which must outlive it).
  explicit ConstantProblem(const RegionShape& shape) : shape_(&shape) {}

  /// The shape the problem asks its IR questions (`edge_allowed`).
  [[nodiscard]] const RegionShape& shape() const { return *shape_; }
  /// Function arguments are unknown.
  [[nodiscard]] ConstantState boundary(mlir::Value) const { return ConstantState::top(); }

  /// An edge is executable when the constants among its source's branch operands allow it.
  [[nodiscard]] bool edge_executable(const BlockEdge& e, kildall::OperandStates<ConstantState> branch) const {
    llvm::SmallVector<std::optional<std::uint64_t>, 2> constants;
    for (const ConstantState* state : branch) {
      if (state->is_bottom()) return false;
      const std::uint64_t* bits = state->if_constant();
      constants.push_back(bits ? std::optional<std::uint64_t>(*bits) : std::nullopt);
    }
    return shape_->edge_allowed(e, constants);
  }

  /// The constant state of result `v` from its op's operand states (`RegionShape::operands`).
  [[nodiscard]] ConstantState transfer(mlir::Value v, kildall::OperandStates<ConstantState> states) const {
    using kildall::ir::BuiltinOp;
    const auto width = analysis_width(v.getType());
    if (!width) return ConstantState::top();
    mlir::Operation* op = v.getDefiningOp();
    const auto kind = classify(op);
    if (!kind || op->getNumResults() != 1 || states.size() != op->getNumOperands()) return ConstantState::top();
    if (*kind == BuiltinOp::constant) {
      const auto bits = constant_bits(op);
      return bits ? ConstantState::of(*bits) : ConstantState::top();
    }
    if (*kind == BuiltinOp::select) return select_state(op, states);
    llvm::SmallVector<std::uint64_t, 2> bits;
    bool all_constant = true;
    for (std::size_t i = 0; i < states.size(); ++i) {
      if (states[i].is_bottom()) return ConstantState::bottom();
      if (!analysis_width(op->getOperand(static_cast<unsigned>(i)).getType())) return ConstantState::top();
      const std::uint64_t* c = states[i].if_constant();
      all_constant = all_constant && c != nullptr;
      bits.push_back(c ? *c : 0);
    }
    if (!all_constant) {
      const auto folded = fold_with_unknown_operands(op, *kind, *width, states);
      return folded ? ConstantState::of(*folded) : ConstantState::top();
    }
    const unsigned operand_width = *analysis_width(op->getOperand(0).getType());
    const kildall::ir::OpCode code = kildall::ir::code_of(*kind);
    if (kildall::ir::is_binary_arith(code)) {
      const kildall::ir::ArithResult r = kildall::ir::evaluate_binary(code, *width, bits[0], bits[1]);
      return r.defined() ? ConstantState::of(r.value) : ConstantState::top();
    }
    if (*kind == BuiltinOp::cmpi)
      return ConstantState::of(kildall::ir::evaluate_compare(predicate_of(op), bits[0], bits[1], operand_width) ? 1 : 0);
    if (kildall::ir::is_cast(code)) return ConstantState::of(kildall::ir::evaluate_cast(code, operand_width, *width, bits[0]));
    return ConstantState::top();
  }

 private:
  /// `arith.select`: the chosen side for a known condition, else the join of both sides, except
  /// `select(a == b, a, b) = b` and `select(a != b, a, b) = a` (MLIR's select folder).
  [[nodiscard]] static ConstantState select_state(mlir::Operation* op, kildall::OperandStates<ConstantState> states) {
    if (const std::uint64_t* condition = states[0].if_constant()) return *condition ? states[1] : states[2];
    if (auto cmp = op->getOperand(0).getDefiningOp<mlir::arith::CmpIOp>()) {
      const mlir::Value t = op->getOperand(1), f = op->getOperand(2);
      const bool same_pair = (cmp.getLhs() == t && cmp.getRhs() == f) || (cmp.getLhs() == f && cmp.getRhs() == t);
      if (same_pair && cmp.getPredicate() == mlir::arith::CmpIPredicate::eq) return states[2];
      if (same_pair && cmp.getPredicate() == mlir::arith::CmpIPredicate::ne) return states[1];
    }
    ConstantState joined = states[1];
    (void)joined.join(states[2]);
    return joined;
  }

  /// The result an op with some unknown operand computes anyway, if an identity decides it (the
  /// ones `kildall::ir::SccpProblem` applies without extra def-use edges): the identities of
  /// `kildall::ir::fold_binary_identity`, `cmpi <pred>, x, x`, `x & ~x = 0`, `x | ~x = ~0`.
  [[nodiscard]] static std::optional<std::uint64_t> fold_with_unknown_operands(
      mlir::Operation* op, kildall::ir::BuiltinOp kind, unsigned width, kildall::OperandStates<ConstantState> states) {
    using kildall::ir::BuiltinOp;
    if (op->getNumOperands() != 2) return std::nullopt;
    const mlir::Value a = op->getOperand(0), b = op->getOperand(1);
    if (kind == BuiltinOp::cmpi) {
      if (a != b) return std::nullopt;
      return kildall::ir::compare_of_equal_operands(predicate_of(op)) ? 1 : 0;
    }
    const kildall::ir::OpCode code = kildall::ir::code_of(kind);
    if (!kildall::ir::is_binary_arith(code)) return std::nullopt;
    if (const auto r = kildall::ir::fold_binary_identity(code, width, a == b, states[0].if_constant(),
                                                         states[1].if_constant()))
      return r;
    if ((kind == BuiltinOp::andi || kind == BuiltinOp::ori) && (is_not_of(b, a, width) || is_not_of(a, b, width)))
      return kind == BuiltinOp::andi ? 0 : kildall::ir::width_mask(width);
    return std::nullopt;
  }

  /// Whether `v` is `arith.xori x, c` (either order) with `c` an all-ones `arith.constant`.
  [[nodiscard]] static bool is_not_of(mlir::Value v, mlir::Value x, unsigned width) {
    auto xor_op = v.getDefiningOp<mlir::arith::XOrIOp>();
    if (!xor_op) return false;
    for (unsigned i = 0; i < 2; ++i) {
      if (xor_op->getOperand(i) != x) continue;
      mlir::Operation* other = xor_op->getOperand(1 - i).getDefiningOp();
      const auto bits = other ? constant_bits(other) : std::nullopt;
      if (bits && (*bits & kildall::ir::width_mask(width)) == kildall::ir::width_mask(width)) return true;
    }
    return false;
  }

  const RegionShape* shape_;
};

/// kildall's constants of one region.
using ConstantAnalysis = RegionAnalysis<ConstantProblem>;

static_assert(kildall::SparseBranchProblem<IntRangeProblem, RegionShape>,
              "the range problem must decide executable edges over the region shape");
static_assert(kildall::SparseBranchProblem<ConstantProblem, RegionShape>,
              "the constant problem must decide executable edges over the region shape");

/// The constant bits of `v` under `analysis`, if it is one constant.
[[nodiscard]] inline std::optional<std::uint64_t> constant_of(const ConstantAnalysis& analysis, mlir::Value v) {
  const ConstantState* state = analysis.lookup(v);
  if (!state || !state->is_constant()) return std::nullopt;
  return state->constant();
}

}  // namespace kildall_mlir
