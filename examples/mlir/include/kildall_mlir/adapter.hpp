#pragma once
/// \file
/// MLIR's IR as kildall graphs, without copying it: the non-intrusive
/// adaptation of `examples/custom_graph/`, applied to a real compiler.
///
/// * `BlockGraph` (dense view): the blocks of one region (a `func.func` body)
///   as a control-flow graph. A vertex is an `mlir::Block*`; an edge is one
///   successor slot of a terminator (`cf.cond_br %c, ^bb1, ^bb1` has two
///   parallel edges). Out-edges walk the terminator's successor list, in-edges
///   walk the block's own use list (MLIR keeps one `BlockOperand` per branch
///   to a block), so both directions read the IR itself.
/// * `ValueGraph` (def-use view): the SSA values of the region as a plain
///   def-use graph. A vertex is an `mlir::Value`; there is an edge `x -> y`
///   when `y` is a result of an op that reads `x`, or a block argument that a
///   branch passes `x` to. Out-edges walk `x`'s use list; in-edges walk the
///   user op's operand array (for a result) or the branches into the
///   argument's block (for a block argument), so again nothing is copied.
/// * `RegionShape` (SSA shape): the region as a `kildall::SsaProgram`
///   (`kildall/graph/ssa_program.hpp`), the one adapter every sparse analysis
///   of MLIR's IR runs on (`kildall::solve_sparse(shape, problem)`): the
///   values of `ValueGraph`, the blocks of `BlockGraph` as its CFG, the
///   operands of the op defining each result, what each branch forwards along
///   each edge and what each terminator decides its successors with. It also
///   answers the IR questions an analysis's `edge_executable` has
///   (`edge_allowed`), so that analyses are semantics only.
///
/// What the views do store is an *index map*: each block and each value gets a
/// dense number (kildall's solvers keep their per-vertex state in vectors),
/// held in an `llvm::DenseMap` plus a vector of handles in layout order; the
/// shape adds the operand lists it hands out. Build the views after the last
/// change to the region and keep the IR unchanged while they are used (as
/// with MLIR's own `DominanceInfo`).
///
/// Both graph views model `kildall::AnalysisGraph` through a
/// `boost::graph_traits` specialization and free functions found by
/// argument-dependent lookup, and the shape models
/// `kildall::SsaProgramWithBranchOperands`; the static_asserts at the end of
/// this header check it.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <boost/graph/graph_traits.hpp>

#include <llvm/ADT/APInt.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <mlir/Dialect/ControlFlow/IR/ControlFlowOps.h>
#include <mlir/IR/Block.h>
#include <mlir/IR/BuiltinAttributes.h>
#include <mlir/IR/BuiltinTypes.h>
#include <mlir/IR/Operation.h>
#include <mlir/IR/Region.h>
#include <mlir/IR/Value.h>
#include <mlir/Interfaces/ControlFlowInterfaces.h>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/ssa_program.hpp>

namespace kildall_mlir {

/// The bit width kildall's analyses give values of type `type`: N for `iN`
/// with N <= 64, 64 for `index` (MLIR's internal storage width of `index`),
/// nothing for any other type (floats, vectors, memrefs, wider integers).
[[nodiscard]] inline std::optional<unsigned> analysis_width(mlir::Type type) {
  if (auto integer = type.dyn_cast<mlir::IntegerType>()) {
    if (integer.getWidth() >= 1 && integer.getWidth() <= 64) return integer.getWidth();
    return std::nullopt;
  }
  if (type.isa<mlir::IndexType>()) return 64u;
  return std::nullopt;
}

// ===========================================================================
// The dense view: blocks
// ===========================================================================

/// A CFG edge: successor slot `successor` of the terminator of `source`, leading to `target`.
struct BlockEdge {
  mlir::Block* source = nullptr;  ///< The block whose terminator branches.
  mlir::Block* target = nullptr;  ///< The successor block.
  unsigned successor = 0;         ///< Index of the slot in the terminator's successor list.
  /// Edges compare field by field.
  friend bool operator==(const BlockEdge&, const BlockEdge&) = default;
};

/// The blocks of one region as a bidirectional, indexed graph (see the file comment).
class BlockGraph {
 public:
  /// The CFG of `region` (which must outlive the view and keep its blocks while the view is used).
  explicit BlockGraph(mlir::Region& region) : region_(&region) {
    for (mlir::Block& block : region) {
      index_.try_emplace(&block, static_cast<std::uint32_t>(blocks_.size()));
      blocks_.push_back(&block);
    }
  }

  /// The region viewed.
  [[nodiscard]] mlir::Region& region() const { return *region_; }
  /// The entry block (nullptr for an empty region, e.g. an external function).
  [[nodiscard]] mlir::Block* entry() const { return blocks_.empty() ? nullptr : blocks_.front(); }
  /// The blocks in layout order.
  [[nodiscard]] std::span<mlir::Block* const> blocks() const { return blocks_; }
  /// The dense index of `block`, which must be a block of the region.
  [[nodiscard]] std::size_t index_of(mlir::Block* block) const { return index_.find(block)->second; }
  /// Whether `block` is a block of the region.
  [[nodiscard]] bool contains(mlir::Block* block) const { return index_.count(block) != 0; }

 private:
  mlir::Region* region_;
  std::vector<mlir::Block*> blocks_;
  llvm::DenseMap<mlir::Block*, std::uint32_t> index_;
};

/// The member types every edge iterator below declares: it yields `Edge`
/// values (prvalues, so an input iterator to C++17 code) and is multi-pass (a
/// forward iterator to C++20 code).
template <class Edge>
struct EdgeIteratorTypes {
  using value_type = Edge;                             ///< Yielded type.
  using difference_type = std::ptrdiff_t;              ///< Distance type.
  using reference = Edge;                              ///< Yields by value.
  using pointer = void;                                ///< No pointers.
  using iterator_category = std::input_iterator_tag;   ///< C++17 view: yields prvalues.
  using iterator_concept = std::forward_iterator_tag;  ///< C++20 view: multi-pass.
  /// No state: lets the iterators default their `operator==`.
  friend bool operator==(const EdgeIteratorTypes&, const EdgeIteratorTypes&) = default;
};

/// Iterates the successor edges of one block (reads the terminator's successor list).
class SuccessorEdgeIterator : public EdgeIteratorTypes<BlockEdge> {
 public:
  /// A singular iterator.
  SuccessorEdgeIterator() = default;
  /// At successor slot `slot` of `block`.
  SuccessorEdgeIterator(mlir::Block* block, unsigned slot) : block_(block), slot_(slot) {}
  /// The edge of the current slot.
  BlockEdge operator*() const { return {block_, block_->getSuccessor(slot_), slot_}; }
  /// Next slot.
  SuccessorEdgeIterator& operator++() {
    ++slot_;
    return *this;
  }
  /// Post-increment.
  SuccessorEdgeIterator operator++(int) {
    SuccessorEdgeIterator copy = *this;
    ++slot_;
    return copy;
  }
  /// Iterators compare by position.
  friend bool operator==(const SuccessorEdgeIterator&, const SuccessorEdgeIterator&) = default;

 private:
  mlir::Block* block_ = nullptr;
  unsigned slot_ = 0;
};

/// Iterates the edges into one block (reads the block's use list: one `BlockOperand` per branch slot).
class PredecessorEdgeIterator : public EdgeIteratorTypes<BlockEdge> {
 public:
  /// A singular iterator.
  PredecessorEdgeIterator() = default;
  /// At use `use` of `block`.
  PredecessorEdgeIterator(mlir::Block* block, mlir::Block::use_iterator use) : block_(block), use_(use) {}
  /// The edge of the current branch slot.
  BlockEdge operator*() const { return {use_->getOwner()->getBlock(), block_, use_->getOperandNumber()}; }
  /// Next branch into the block.
  PredecessorEdgeIterator& operator++() {
    ++use_;
    return *this;
  }
  /// Post-increment.
  PredecessorEdgeIterator operator++(int) {
    PredecessorEdgeIterator copy = *this;
    ++use_;
    return copy;
  }
  /// Iterators compare by position.
  friend bool operator==(const PredecessorEdgeIterator& a, const PredecessorEdgeIterator& b) {
    return a.use_ == b.use_;
  }

 private:
  mlir::Block* block_ = nullptr;
  mlir::Block::use_iterator use_;
};

/// Boost.Graph traversal category of `BlockGraph`.
struct BlockGraphTraversalCategory : boost::bidirectional_graph_tag, boost::vertex_list_graph_tag {};

/// Successor edges of `block`, in successor order.
[[nodiscard]] inline std::pair<SuccessorEdgeIterator, SuccessorEdgeIterator> out_edges(mlir::Block* block,
                                                                                       const BlockGraph&) {
  return {SuccessorEdgeIterator(block, 0), SuccessorEdgeIterator(block, block->getNumSuccessors())};
}
/// Edges into `block` (one per branch slot naming it).
[[nodiscard]] inline std::pair<PredecessorEdgeIterator, PredecessorEdgeIterator> in_edges(mlir::Block* block,
                                                                                          const BlockGraph&) {
  return {PredecessorEdgeIterator(block, block->use_begin()), PredecessorEdgeIterator(block, block->use_end())};
}
/// The block an edge leads to.
[[nodiscard]] inline mlir::Block* target(const BlockEdge& e, const BlockGraph&) { return e.target; }
/// The block an edge comes from.
[[nodiscard]] inline mlir::Block* source(const BlockEdge& e, const BlockGraph&) { return e.source; }
/// All blocks, in layout order.
[[nodiscard]] inline std::pair<mlir::Block* const*, mlir::Block* const*> vertices(const BlockGraph& g) {
  return {g.blocks().data(), g.blocks().data() + g.blocks().size()};
}
/// The number of blocks.
[[nodiscard]] inline std::size_t num_vertices(const BlockGraph& g) { return g.blocks().size(); }
/// The dense index of `block` (kildall's vertex-index hook; `kildall::vertex_index` finds it).
[[nodiscard]] inline std::size_t vertex_index_of(kildall::vertex_index_tag, const BlockGraph& g, mlir::Block* block) {
  return g.index_of(block);
}

// ===========================================================================
// The def-use view: values
// ===========================================================================

/// The block argument that operand `operand` of `op` is forwarded to, if `op` branches and
/// forwards it (MLIR's `BranchOpInterface::getSuccessorBlockArgument`).
[[nodiscard]] inline std::optional<mlir::BlockArgument> forwarded_to(mlir::Operation* op, unsigned operand) {
  if (op->getNumSuccessors() == 0) return std::nullopt;
  auto branch = llvm::dyn_cast<mlir::BranchOpInterface>(op);
  if (!branch) return std::nullopt;
  return branch.getSuccessorBlockArgument(operand);
}

/// The operand of `edge`'s terminator that the edge passes to argument `position` of its
/// target, or nullptr (the terminator does not implement `BranchOpInterface`, or the value is
/// produced by the terminator itself rather than forwarded).
[[nodiscard]] inline mlir::OpOperand* forwarded_operand(const BlockEdge& edge, unsigned position) {
  mlir::Operation* terminator = edge.source->getTerminator();
  auto branch = llvm::dyn_cast<mlir::BranchOpInterface>(terminator);
  if (!branch) return nullptr;
  const mlir::SuccessorOperands operands = branch.getSuccessorOperands(edge.successor);
  if (position >= operands.size() || operands.isOperandProduced(position)) return nullptr;
  const mlir::OperandRange forwarded = operands.getForwardedOperands();
  const unsigned index = forwarded.getBeginOperandIndex() + (position - operands.getProducedOperandCount());
  return &terminator->getOpOperand(index);
}

/// A def-use edge: operand slot `use` carries its value to `target` (a result of the
/// slot's owner op, or the block argument a branch forwards it to).
struct ValueEdge {
  mlir::OpOperand* use = nullptr;  ///< The operand slot.
  mlir::Value target;              ///< The value computed from (or receiving) it.
  /// Edges compare field by field.
  friend bool operator==(const ValueEdge&, const ValueEdge&) = default;
};

/// The SSA values of one region as a bidirectional, indexed graph (see the file comment).
/// Values are numbered block by block in layout order, each block's arguments first, then the
/// results of its ops in order, so a block's arguments and its results are two contiguous spans.
class ValueGraph {
 public:
  /// The def-use graph of the region of `blocks` (which must outlive the view).
  explicit ValueGraph(const BlockGraph& blocks) : blocks_(&blocks) {
    const std::size_t n = blocks.blocks().size();
    argument_begin_.reserve(n + 1);
    result_begin_.reserve(n);
    for (mlir::Block* block : blocks.blocks()) {
      argument_begin_.push_back(static_cast<std::uint32_t>(values_.size()));
      for (mlir::BlockArgument argument : block->getArguments()) add(argument);
      result_begin_.push_back(static_cast<std::uint32_t>(values_.size()));
      for (mlir::Operation& op : *block)
        for (mlir::Value result : op.getResults()) add(result);
    }
    argument_begin_.push_back(static_cast<std::uint32_t>(values_.size()));
  }

  /// The CFG view the values live in.
  [[nodiscard]] const BlockGraph& blocks() const { return *blocks_; }
  /// The region viewed.
  [[nodiscard]] mlir::Region& region() const { return blocks_->region(); }
  /// All values, in numbering order.
  [[nodiscard]] std::span<const mlir::Value> values() const { return values_; }
  /// The dense index of `value`, which must be a value of the region.
  [[nodiscard]] std::size_t index_of(mlir::Value value) const { return index_.find(value)->second; }
  /// Whether `value` is defined in the region (not in a nested region, not outside).
  [[nodiscard]] bool contains(mlir::Value value) const { return index_.count(value) != 0; }
  /// The dense index of `value`, or `values().size()` when it is not a value of the region.
  [[nodiscard]] std::size_t index_or_end(mlir::Value value) const {
    const auto it = index_.find(value);
    return it == index_.end() ? values_.size() : it->second;
  }
  /// The arguments of `block`.
  [[nodiscard]] std::span<const mlir::Value> arguments_of(mlir::Block* block) const {
    const std::size_t b = blocks_->index_of(block);
    return std::span<const mlir::Value>(values_).subspan(argument_begin_[b], result_begin_[b] - argument_begin_[b]);
  }
  /// The results of the ops of `block`, in order.
  [[nodiscard]] std::span<const mlir::Value> results_of(mlir::Block* block) const {
    const std::size_t b = blocks_->index_of(block);
    return std::span<const mlir::Value>(values_).subspan(result_begin_[b], argument_begin_[b + 1] - result_begin_[b]);
  }

 private:
  void add(mlir::Value value) {
    index_.try_emplace(value, static_cast<std::uint32_t>(values_.size()));
    values_.push_back(value);
  }

  const BlockGraph* blocks_;
  std::vector<mlir::Value> values_;
  llvm::DenseMap<mlir::Value, std::uint32_t> index_;
  std::vector<std::uint32_t> argument_begin_;  // per block, plus the end
  std::vector<std::uint32_t> result_begin_;    // per block
};

/// Iterates the out-edges of one value: walks its use list; a use by an op of the region
/// yields one edge per result of the op, or one edge to the block argument when the op is a
/// branch forwarding the value; uses by ops elsewhere (nested regions) yield none.
class UseEdgeIterator : public EdgeIteratorTypes<ValueEdge> {
 public:
  /// A singular iterator.
  UseEdgeIterator() = default;
  /// At use `use` of a value of `region` (`end` ends the walk).
  UseEdgeIterator(mlir::Value::use_iterator use, mlir::Value::use_iterator end, const mlir::Region* region)
      : use_(use), end_(end), region_(region) {
    settle();
  }
  /// The current edge.
  ValueEdge operator*() const {
    return {&*use_, forwarded_ ? forwarded_ : use_->getOwner()->getResult(result_)};
  }
  /// Next edge.
  UseEdgeIterator& operator++() {
    if (++result_ >= count_) next_use();
    return *this;
  }
  /// Post-increment.
  UseEdgeIterator operator++(int) {
    UseEdgeIterator copy = *this;
    ++*this;
    return copy;
  }
  /// Iterators compare by position.
  friend bool operator==(const UseEdgeIterator& a, const UseEdgeIterator& b) {
    return a.use_ == b.use_ && a.result_ == b.result_;
  }

 private:
  void next_use() {
    ++use_;
    result_ = 0;
    settle();
  }
  // Stops at the first use (from the current one) that yields an edge.
  void settle() {
    for (; use_ != end_; ++use_) {
      mlir::Operation* user = use_->getOwner();
      forwarded_ = nullptr;
      count_ = 0;
      if (user->getParentRegion() != region_) continue;
      if (auto argument = forwarded_to(user, use_->getOperandNumber())) {
        forwarded_ = *argument;
        count_ = 1;
      } else {
        count_ = user->getNumResults();
      }
      if (count_ > 0) return;
    }
    result_ = 0;
  }

  mlir::Value::use_iterator use_, end_;
  const mlir::Region* region_ = nullptr;
  mlir::Value forwarded_;
  unsigned result_ = 0;
  unsigned count_ = 0;
};

/// Iterates the in-edges of one value, in operand order: for an op result, the op's operands
/// (except those a branch forwards to its successors); for a block argument, the operand each
/// branch into the block forwards to it.
class DefinitionEdgeIterator : public EdgeIteratorTypes<ValueEdge> {
 public:
  /// A singular iterator.
  DefinitionEdgeIterator() = default;
  /// At operand `operand` of the op defining result `target` (`end`: past its last operand).
  DefinitionEdgeIterator(mlir::Value target, mlir::OpOperand* operand, mlir::OpOperand* end)
      : target_(target), operand_(operand), operand_end_(end) {
    settle();
  }
  /// At branch `use` into the block of argument `target`.
  DefinitionEdgeIterator(mlir::BlockArgument target, mlir::Block::use_iterator use, mlir::Block::use_iterator end)
      : target_(target), branch_(use), branch_end_(end), is_argument_(true) {
    settle();
  }
  /// The current edge.
  ValueEdge operator*() const { return {operand_, target_}; }
  /// Next edge.
  DefinitionEdgeIterator& operator++() {
    if (is_argument_) {
      ++branch_;
    } else {
      ++operand_;
    }
    settle();
    return *this;
  }
  /// Post-increment.
  DefinitionEdgeIterator operator++(int) {
    DefinitionEdgeIterator copy = *this;
    ++*this;
    return copy;
  }
  /// Iterators compare by position.
  friend bool operator==(const DefinitionEdgeIterator& a, const DefinitionEdgeIterator& b) {
    return a.is_argument_ ? a.branch_ == b.branch_ : a.operand_ == b.operand_;
  }

 private:
  void settle() {
    if (is_argument_) {
      const unsigned position = target_.cast<mlir::BlockArgument>().getArgNumber();
      for (; branch_ != branch_end_; ++branch_) {
        const BlockEdge edge{branch_->getOwner()->getBlock(), target_.getParentBlock(), branch_->getOperandNumber()};
        operand_ = forwarded_operand(edge, position);
        if (operand_) return;
      }
      operand_ = nullptr;
      return;
    }
    while (operand_ != operand_end_ && forwarded_to(operand_->getOwner(), operand_->getOperandNumber())) ++operand_;
  }

  mlir::Value target_;
  mlir::OpOperand* operand_ = nullptr;
  mlir::OpOperand* operand_end_ = nullptr;
  mlir::Block::use_iterator branch_, branch_end_;
  bool is_argument_ = false;
};

/// Boost.Graph traversal category of `ValueGraph`.
struct ValueGraphTraversalCategory : boost::bidirectional_graph_tag, boost::vertex_list_graph_tag {};

/// Edges to the values computed from (or receiving) `value`.
[[nodiscard]] inline std::pair<UseEdgeIterator, UseEdgeIterator> out_edges(mlir::Value value, const ValueGraph& g) {
  const mlir::Region* region = &g.region();
  return {UseEdgeIterator(value.use_begin(), value.use_end(), region),
          UseEdgeIterator(value.use_end(), value.use_end(), region)};
}
/// Edges from the values `value` is computed from (or receives), in operand order.
[[nodiscard]] inline std::pair<DefinitionEdgeIterator, DefinitionEdgeIterator> in_edges(mlir::Value value,
                                                                                        const ValueGraph&) {
  if (auto argument = value.dyn_cast<mlir::BlockArgument>()) {
    mlir::Block* block = argument.getOwner();
    return {DefinitionEdgeIterator(argument, block->use_begin(), block->use_end()),
            DefinitionEdgeIterator(argument, block->use_end(), block->use_end())};
  }
  mlir::Operation* op = value.getDefiningOp();
  mlir::MutableArrayRef<mlir::OpOperand> operands = op->getOpOperands();
  mlir::OpOperand* end = operands.data() + operands.size();
  return {DefinitionEdgeIterator(value, operands.data(), end), DefinitionEdgeIterator(value, end, end)};
}
/// The value an edge leads to.
[[nodiscard]] inline mlir::Value target(const ValueEdge& e, const ValueGraph&) { return e.target; }
/// The value an edge carries.
[[nodiscard]] inline mlir::Value source(const ValueEdge& e, const ValueGraph&) { return e.use->get(); }
/// All values, in numbering order.
[[nodiscard]] inline std::pair<const mlir::Value*, const mlir::Value*> vertices(const ValueGraph& g) {
  return {g.values().data(), g.values().data() + g.values().size()};
}
/// The number of values.
[[nodiscard]] inline std::size_t num_vertices(const ValueGraph& g) { return g.values().size(); }
/// The dense index of `value` (kildall's vertex-index hook; `kildall::vertex_index` finds it).
[[nodiscard]] inline std::size_t vertex_index_of(kildall::vertex_index_tag, const ValueGraph& g, mlir::Value value) {
  return g.index_of(value);
}

// ===========================================================================
// The SSA shape
// ===========================================================================

/// The shape of one region for kildall's sparse solver: models
/// `kildall::SsaProgramWithBranchOperands` (see the file comment of
/// `kildall/graph/ssa_program.hpp`), so every sparse analysis of MLIR's IR is
/// `kildall::solve_sparse(shape, problem)` with a problem that is semantics
/// only.
///
/// * values: the `mlir::Value`s of `ValueGraph`, numbered as there (`value_index`);
/// * `cfg()`: the `BlockGraph`; `entries()`: the region's entry block;
/// * `block_arguments(b)`, `block_values(b)`: `b`'s arguments, and the results of its ops in order;
/// * `operands(v)`: the operands of the op defining result `v`, except the successor operands a
///   branch forwards to block arguments (those reach the arguments along CFG edges instead);
/// * `forwarded_operands(e)`: the successor operands the branch of `e` passes along `e`, in
///   argument order (MLIR's `BranchOpInterface::getSuccessorOperands(...).getForwardedOperands()`);
/// * `branch_operands(b)`: the operands of `b`'s terminator that it does not forward (the
///   condition of `cf.cond_br`, the flag of `cf.switch`): what it decides its successors with.
///
/// Besides, `edge_allowed` answers for an analysis's `edge_executable` which successors a
/// terminator can take given what is known of its branch operands. The shape stores the three
/// operand lists it hands out (the regular operands of each op, the branch operands of each
/// terminator, the forwarded operands of each successor slot), 8 bytes per operand.
///
/// A terminator whose successor operands include operands it *produces* itself
/// (`SuccessorOperands::getProducedOperandCount() > 0`: none in the `cf` dialect) forwards
/// nothing along that edge here: kildall's `SsaProgram` passes values by position from the first
/// argument on, so the forwarded tail cannot be placed. Such block arguments only see their other
/// in-edges (as with a terminator that does not implement `BranchOpInterface`).
class RegionShape {
 public:
  /// A value is an `mlir::Value` of the region.
  using value_type = mlir::Value;

  /// The shape of the region of `values` (which must outlive the shape, as must its `BlockGraph`).
  explicit RegionShape(const ValueGraph& values) : values_(&values) {
    const std::span<const mlir::Value> all = values.values();
    operand_begin_.assign(all.size(), 0);
    operand_end_.assign(all.size(), 0);
    mlir::Operation* previous = nullptr;
    for (std::size_t i = 0; i < all.size(); ++i) {
      mlir::Operation* op = all[i].getDefiningOp();
      if (op != nullptr && op == previous) {  // another result of the same op: the same operands
        operand_begin_[i] = operand_begin_[i - 1];
        operand_end_[i] = operand_end_[i - 1];
        continue;
      }
      previous = op;
      operand_begin_[i] = static_cast<std::uint32_t>(operands_.size());
      if (op != nullptr) {
        for (mlir::OpOperand& operand : op->getOpOperands())
          if (!forwarded_to(op, operand.getOperandNumber())) operands_.push_back(operand.get());
      }
      operand_end_[i] = static_cast<std::uint32_t>(operands_.size());
    }
    const auto blocks = values.blocks().blocks();
    branch_begin_.reserve(blocks.size() + 1);
    slot_begin_.reserve(blocks.size());
    for (mlir::Block* block : blocks) {
      branch_begin_.push_back(static_cast<std::uint32_t>(branch_operands_.size()));
      slot_begin_.push_back(static_cast<std::uint32_t>(forwarded_begin_.size()));
      if (block->empty() || block->back().getNumSuccessors() == 0) continue;
      mlir::Operation* terminator = &block->back();
      for (mlir::OpOperand& operand : terminator->getOpOperands())
        if (!forwarded_to(terminator, operand.getOperandNumber())) branch_operands_.push_back(operand.get());
      auto branch = llvm::dyn_cast<mlir::BranchOpInterface>(terminator);
      for (unsigned slot = 0; slot < terminator->getNumSuccessors(); ++slot) {
        forwarded_begin_.push_back(static_cast<std::uint32_t>(forwarded_.size()));
        if (!branch) continue;
        const mlir::SuccessorOperands operands = branch.getSuccessorOperands(slot);
        if (operands.getProducedOperandCount() != 0) continue;
        for (mlir::Value v : operands.getForwardedOperands()) forwarded_.push_back(v);
      }
    }
    branch_begin_.push_back(static_cast<std::uint32_t>(branch_operands_.size()));
    forwarded_begin_.push_back(static_cast<std::uint32_t>(forwarded_.size()));
  }

  /// The value view (the numbering of the values).
  [[nodiscard]] const ValueGraph& values() const { return *values_; }
  /// The region.
  [[nodiscard]] mlir::Region& region() const { return values_->region(); }

  // --- kildall::SsaProgram --------------------------------------------------

  /// The blocks and their edges.
  [[nodiscard]] const BlockGraph& cfg() const { return values_->blocks(); }
  /// The entry block (as a range of at most one block: none for an empty region).
  [[nodiscard]] std::span<mlir::Block* const> entries() const {
    const auto blocks = cfg().blocks();
    return blocks.first(blocks.empty() ? 0 : 1);
  }
  /// The number of values (block arguments and op results of the region's blocks).
  [[nodiscard]] std::size_t value_count() const { return values_->values().size(); }
  /// The dense index of `v` (`value_count()` when `v` is not a value of the region: the solver
  /// then stops with `SolveStatus::invalid_input` rather than reading out of bounds).
  [[nodiscard]] std::size_t value_index(mlir::Value v) const { return values_->index_or_end(v); }
  /// The arguments of `b`, in order.
  [[nodiscard]] std::span<const mlir::Value> block_arguments(mlir::Block* b) const { return values_->arguments_of(b); }
  /// The results of the ops of `b`, in program order.
  [[nodiscard]] std::span<const mlir::Value> block_values(mlir::Block* b) const { return values_->results_of(b); }
  /// The operands of the op defining result `v`, in order, without the successor operands a
  /// branch forwards to block arguments; none for a block argument.
  [[nodiscard]] std::span<const mlir::Value> operands(mlir::Value v) const {
    const std::size_t i = value_index(v);
    if (i >= operand_begin_.size()) return {};
    return std::span<const mlir::Value>(operands_).subspan(operand_begin_[i], operand_end_[i] - operand_begin_[i]);
  }
  /// The successor operands the terminator of `e.source` passes along `e` to the arguments of
  /// `e.target`, in argument order (none when the terminator is not a `BranchOpInterface`, or
  /// produces some of those operands itself: see the class comment).
  [[nodiscard]] std::span<const mlir::Value> forwarded_operands(const BlockEdge& e) const {
    const std::size_t k = slot_begin_[cfg().index_of(e.source)] + e.successor;
    return std::span<const mlir::Value>(forwarded_).subspan(forwarded_begin_[k],
                                                            forwarded_begin_[k + 1] - forwarded_begin_[k]);
  }
  /// The operands the terminator of `b` decides its successors with (those it does not forward).
  [[nodiscard]] std::span<const mlir::Value> branch_operands(mlir::Block* b) const {
    const std::size_t i = cfg().index_of(b);
    return std::span<const mlir::Value>(branch_operands_).subspan(branch_begin_[i],
                                                                  branch_begin_[i + 1] - branch_begin_[i]);
  }

  // --- IR facts for analyses ------------------------------------------------

  /// Whether edge `e` may be taken when the branch operands of its source (`branch_operands`)
  /// hold `constants` (one entry per branch operand: its bits when known to be one constant).
  /// `cf.cond_br` is decided directly; other `BranchOpInterface` terminators through
  /// `getSuccessorForOperands`, like MLIR's `DeadCodeAnalysis`; any other terminator may take
  /// every successor.
  [[nodiscard]] bool edge_allowed(const BlockEdge& e, std::span<const std::optional<std::uint64_t>> constants) const {
    mlir::Operation* terminator = e.source->getTerminator();
    if (llvm::isa<mlir::cf::CondBranchOp>(terminator)) {
      if (constants.empty() || !constants[0]) return true;
      return (*constants[0] != 0) == (e.successor == 0);
    }
    auto branch = llvm::dyn_cast<mlir::BranchOpInterface>(terminator);
    if (!branch) return true;
    const std::span<const mlir::Value> operands = branch_operands(e.source);
    llvm::SmallVector<mlir::Attribute, 4> attributes;
    for (std::size_t i = 0; i < operands.size(); ++i) {
      const std::optional<std::uint64_t> bits = i < constants.size() ? constants[i] : std::nullopt;
      const mlir::Type type = operands[i].getType();
      if (!bits || !analysis_width(type)) {
        attributes.push_back({});
        continue;
      }
      attributes.push_back(mlir::IntegerAttr::get(type, llvm::APInt(*analysis_width(type), *bits)));
    }
    mlir::Block* taken = branch.getSuccessorForOperands(attributes);
    return taken == nullptr || taken == e.target;
  }

 private:
  const ValueGraph* values_;
  std::vector<mlir::Value> operands_;            // non-forwarded operands, op by op
  std::vector<std::uint32_t> operand_begin_;    // per value: its op's operands in operands_
  std::vector<std::uint32_t> operand_end_;      // per value
  std::vector<mlir::Value> branch_operands_;    // per block, in block order
  std::vector<std::uint32_t> branch_begin_;     // per block, plus the end
  std::vector<mlir::Value> forwarded_;          // per successor slot, block by block
  std::vector<std::uint32_t> forwarded_begin_;  // per successor slot, plus the end
  std::vector<std::uint32_t> slot_begin_;       // per block: its first successor slot
};

}  // namespace kildall_mlir

/// `kildall_mlir::BlockGraph` in Boost.Graph's vocabulary.
template <>
struct boost::graph_traits<kildall_mlir::BlockGraph> {
  using vertex_descriptor = mlir::Block*;                                  ///< A block.
  using edge_descriptor = kildall_mlir::BlockEdge;                         ///< A branch slot.
  using out_edge_iterator = kildall_mlir::SuccessorEdgeIterator;           ///< Iterates out-edges.
  using in_edge_iterator = kildall_mlir::PredecessorEdgeIterator;          ///< Iterates in-edges.
  using vertex_iterator = mlir::Block* const*;                             ///< Iterates blocks.
  using directed_category = boost::bidirectional_tag;                      ///< Directed, both ways.
  using edge_parallel_category = boost::allow_parallel_edge_tag;           ///< Parallel edges occur.
  using traversal_category = kildall_mlir::BlockGraphTraversalCategory;   ///< What can be traversed.
  using vertices_size_type = std::size_t;                                  ///< Vertex count type.
  using edges_size_type = std::size_t;                                     ///< Edge count type.
  using degree_size_type = std::size_t;                                    ///< Degree type.
  /// The "no block" block.
  static mlir::Block* null_vertex() { return nullptr; }
};

/// `kildall_mlir::ValueGraph` in Boost.Graph's vocabulary.
template <>
struct boost::graph_traits<kildall_mlir::ValueGraph> {
  using vertex_descriptor = mlir::Value;                                   ///< A value.
  using edge_descriptor = kildall_mlir::ValueEdge;                         ///< A use.
  using out_edge_iterator = kildall_mlir::UseEdgeIterator;                 ///< Iterates out-edges.
  using in_edge_iterator = kildall_mlir::DefinitionEdgeIterator;           ///< Iterates in-edges.
  using vertex_iterator = const mlir::Value*;                              ///< Iterates values.
  using directed_category = boost::bidirectional_tag;                      ///< Directed, both ways.
  using edge_parallel_category = boost::allow_parallel_edge_tag;           ///< Parallel edges occur.
  using traversal_category = kildall_mlir::ValueGraphTraversalCategory;   ///< What can be traversed.
  using vertices_size_type = std::size_t;                                  ///< Vertex count type.
  using edges_size_type = std::size_t;                                     ///< Edge count type.
  using degree_size_type = std::size_t;                                    ///< Degree type.
  /// The "no value" value.
  static mlir::Value null_vertex() { return {}; }
};

static_assert(kildall::AnalysisGraph<kildall_mlir::BlockGraph>, "the block view must be a kildall AnalysisGraph");
static_assert(kildall::AnalysisGraph<kildall_mlir::ValueGraph>, "the value view must be a kildall AnalysisGraph");
static_assert(kildall::SsaProgramWithBranchOperands<kildall_mlir::RegionShape>,
              "the region shape must be a kildall SsaProgram naming its branch operands");
