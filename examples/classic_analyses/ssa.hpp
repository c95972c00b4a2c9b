#pragma once
/// \file
/// A tiny SSA language for the sparse worked examples: blocks with arguments
/// (phi nodes), arithmetic values and a terminator (`return`, `br`, or
/// `cond_br` on a value). Also: a concrete interpreter (the oracle of the
/// tests), a random program generator, and the two graphs the sparse solver
/// works over, built as Boost.Graph `adjacency_list`s:
///
///   * the CFG: one vertex per block, one edge per successor slot, tagged with
///     the slot (0 = taken / only successor, 1 = not taken);
///   * `SsaShape`, the program's shape for kildall's sparse solver (an
///     `SsaProgram` adapter: values, operands, blocks, what each branch
///     passes): written once for this IR, used by every sparse analysis;
///   * the def-use graph (one vertex per value, an edge operand -> user and
///     from every value a branch passes to the argument receiving it), for
///     the tools that want the values as a plain graph.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

namespace classic {

/// What an SSA value computes.
enum class Op : std::uint8_t {
  argument,  ///< a block argument (a function argument in the entry block)
  constant,  ///< `constant`
  add,       ///< lhs + rhs (wrapping)
  sub,       ///< lhs - rhs (wrapping)
  mul,       ///< lhs * rhs (wrapping)
  less,      ///< lhs < rhs ? 1 : 0 (signed)
};

/// One SSA value.
struct SsaValue {
  Op op = Op::constant;      ///< what it computes
  std::size_t block = 0;     ///< the block defining it
  std::int64_t constant = 0; ///< for Op::constant
  std::size_t lhs = 0;       ///< first operand (binary ops)
  std::size_t rhs = 0;       ///< second operand (binary ops)
};

/// A successor slot of a terminator: the block and the values passed to its arguments.
struct SsaSuccessor {
  std::size_t block;               ///< target block
  std::vector<std::size_t> args;   ///< one value per argument of `block`
};

/// A block: arguments, values in order, terminator.
struct SsaBlock {
  std::vector<std::size_t> arguments;       ///< block arguments (values with Op::argument)
  std::vector<std::size_t> values;          ///< the other values, in order
  std::optional<std::size_t> condition;     ///< cond_br: branch to successors[0] iff condition != 0
  std::vector<SsaSuccessor> successors;     ///< 0: return, 1: br, 2: cond_br
};

/// A function: blocks[0] is the entry, whose arguments are the inputs.
struct SsaProgram {
  std::vector<SsaValue> values;  ///< all values; a value's index is its identity
  std::vector<SsaBlock> blocks;  ///< all blocks

  /// Applies `op` to concrete operands (wrapping arithmetic, no UB).
  [[nodiscard]] static std::int64_t apply(Op op, std::int64_t a, std::int64_t b) {
    const auto ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
    switch (op) {
      case Op::add: return static_cast<std::int64_t>(ua + ub);
      case Op::sub: return static_cast<std::int64_t>(ua - ub);
      case Op::mul: return static_cast<std::int64_t>(ua * ub);
      case Op::less: return a < b ? 1 : 0;
      default: return 0;
    }
  }
};

/// What one concrete run observed.
struct SsaTrace {
  std::vector<std::vector<std::int64_t>> seen;  ///< per value: every value it took
  std::vector<bool> block_visited;              ///< per block
};

/// Runs `p` on `inputs` (one per entry argument) for at most `max_blocks`
/// block executions, recording every value computed.
inline SsaTrace run(const SsaProgram& p, const std::vector<std::int64_t>& inputs, std::size_t max_blocks = 200) {
  SsaTrace trace{std::vector<std::vector<std::int64_t>>(p.values.size()), std::vector<bool>(p.blocks.size(), false)};
  std::vector<std::int64_t> env(p.values.size(), 0);
  auto record = [&](std::size_t v, std::int64_t x) {
    env[v] = x;
    trace.seen[v].push_back(x);
  };
  const auto& entry_args = p.blocks[0].arguments;
  for (std::size_t i = 0; i < entry_args.size(); ++i) record(entry_args[i], inputs.at(i));
  std::size_t block = 0;
  for (std::size_t step = 0; step < max_blocks; ++step) {
    trace.block_visited[block] = true;
    const SsaBlock& b = p.blocks[block];
    for (std::size_t v : b.values) {
      const SsaValue& val = p.values[v];
      record(v, val.op == Op::constant ? val.constant : SsaProgram::apply(val.op, env[val.lhs], env[val.rhs]));
    }
    if (b.successors.empty()) break;
    const SsaSuccessor& next = b.successors.size() == 1 || env[*b.condition] != 0 ? b.successors[0] : b.successors[1];
    std::vector<std::int64_t> passed;
    for (std::size_t a : next.args) passed.push_back(env[a]);
    const auto& params = p.blocks[next.block].arguments;
    for (std::size_t i = 0; i < params.size(); ++i) record(params[i], passed[i]);
    block = next.block;
  }
  return trace;
}

/// A random, valid SSA function with `num_blocks` blocks. Operands are taken
/// from the same block or the entry block (which dominates every block), so
/// every use is dominated by its definition; loops, unreachable blocks,
/// branches on constants and on inputs all occur.
inline SsaProgram random_ssa_program(std::mt19937& rng, std::size_t num_blocks) {
  SsaProgram p;
  p.blocks.resize(num_blocks);
  auto add_value = [&](SsaValue v) {
    p.values.push_back(v);
    return p.values.size() - 1;
  };
  for (std::size_t b = 0; b < num_blocks; ++b) {
    const std::size_t nargs = rng() % 3;
    for (std::size_t i = 0; i < nargs; ++i) p.blocks[b].arguments.push_back(add_value({Op::argument, b}));
  }
  for (std::size_t b = 0; b < num_blocks; ++b) {
    SsaBlock& blk = p.blocks[b];
    std::vector<std::size_t> visible = blk.arguments;
    if (b != 0) {
      visible.insert(visible.end(), p.blocks[0].arguments.begin(), p.blocks[0].arguments.end());
      visible.insert(visible.end(), p.blocks[0].values.begin(), p.blocks[0].values.end());
    }
    const std::size_t nvalues = 1 + rng() % 4;
    for (std::size_t i = 0; i < nvalues; ++i) {
      SsaValue v{Op::constant, b};
      if (visible.empty() || rng() % 3 == 0) {
        v.constant = static_cast<std::int64_t>(rng() % 5);
      } else {
        v.op = static_cast<Op>(2 + rng() % 4);
        v.lhs = visible[rng() % visible.size()];
        v.rhs = visible[rng() % visible.size()];
      }
      const std::size_t id = add_value(v);
      blk.values.push_back(id);
      visible.push_back(id);
    }
    const std::size_t nsucc = (b + 1 == num_blocks && rng() % 2 == 0) ? 0 : 1 + rng() % 2;
    std::vector<std::size_t> targets;
    while (targets.size() < nsucc) {
      // Mostly forward, sometimes backward (loops) - never two slots to one block.
      std::size_t t = rng() % 3 == 0 ? rng() % num_blocks : std::min(num_blocks - 1, b + 1 + rng() % 2);
      if (t == 0) t = 1 % num_blocks;  // the entry has no predecessors
      if (std::find(targets.begin(), targets.end(), t) != targets.end()) {
        if (num_blocks <= 2 || targets.size() + 1 >= num_blocks) break;
        continue;
      }
      targets.push_back(t);
    }
    if (num_blocks == 1) targets.clear();
    for (std::size_t t : targets) {
      SsaSuccessor s{t, {}};
      for (std::size_t i = 0; i < p.blocks[t].arguments.size(); ++i) s.args.push_back(visible[rng() % visible.size()]);
      blk.successors.push_back(std::move(s));
    }
    if (blk.successors.size() == 2) blk.condition = visible[rng() % visible.size()];
  }
  return p;
}

/// Edge property of the CFG: which successor slot of its source the edge is.
struct SlotProperty {
  std::size_t slot = 0;  ///< index into SsaBlock::successors
};

/// Def-use graph: vertices are values.
using DefUseGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
/// CFG: vertices are blocks, edges carry their successor slot.
using SsaCfg = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, boost::no_property, SlotProperty>;

/// The def-use graph of `p` (operand -> user in operand order; passed value -> block argument).
inline DefUseGraph def_use_graph(const SsaProgram& p) {
  DefUseGraph g(p.values.size());
  for (std::size_t v = 0; v < p.values.size(); ++v) {
    const SsaValue& val = p.values[v];
    if (val.op != Op::argument && val.op != Op::constant) {
      add_edge(val.lhs, v, g);
      add_edge(val.rhs, v, g);
    }
  }
  for (const SsaBlock& b : p.blocks) {
    for (const SsaSuccessor& s : b.successors) {
      for (std::size_t i = 0; i < s.args.size(); ++i) add_edge(s.args[i], p.blocks[s.block].arguments[i], g);
    }
  }
  return g;
}

/// The CFG of `p`, one edge per successor slot.
inline SsaCfg control_flow_graph(const SsaProgram& p) {
  SsaCfg g(p.blocks.size());
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    for (std::size_t slot = 0; slot < p.blocks[b].successors.size(); ++slot) {
      add_edge(b, p.blocks[b].successors[slot].block, SlotProperty{slot}, g);
    }
  }
  return g;
}

/// The shape of program `p` over a CFG of its blocks (any kildall
/// `AnalysisGraph` whose vertices are block indices), for kildall's sparse
/// solver: models `kildall::SsaProgram`. `Slot` maps a CFG edge to its source
/// block and its successor slot (`slot(e)`, `slot.source(e)`). The program and
/// the CFG must outlive the shape; a changed branch condition is seen at the
/// next solve, a new value needs a new shape.
template <class Cfg, class Slot>
class SsaShape {
 public:
  using value_type = std::size_t;  ///< A value is its index in `SsaProgram::values`.

  /// The shape of `p` with CFG `cfg`, entered at block `entry`.
  SsaShape(const SsaProgram& p, const Cfg& cfg, Slot slot, std::size_t entry = 0)
      : p_(&p), cfg_(&cfg), slot_(slot), entry_(entry), operand_begin_(p.values.size() + 1, 0) {
    for (std::size_t v = 0; v < p.values.size(); ++v) {
      const SsaValue& val = p.values[v];
      if (val.op != Op::argument && val.op != Op::constant) {
        operands_.push_back(val.lhs);
        operands_.push_back(val.rhs);
      }
      operand_begin_[v + 1] = operands_.size();
    }
  }

  /// The blocks.
  [[nodiscard]] const Cfg& cfg() const { return *cfg_; }
  /// The entry block.
  [[nodiscard]] std::size_t entries() const { return entry_; }
  /// Number of values.
  [[nodiscard]] std::size_t value_count() const { return p_->values.size(); }
  /// The arguments of block `b`.
  [[nodiscard]] const std::vector<std::size_t>& block_arguments(std::size_t b) const { return p_->blocks[b].arguments; }
  /// The other values of block `b`, in order.
  [[nodiscard]] const std::vector<std::size_t>& block_values(std::size_t b) const { return p_->blocks[b].values; }
  /// The operands of value `v` (lhs, rhs of a binary op; none for constants).
  [[nodiscard]] std::span<const std::size_t> operands(std::size_t v) const {
    return {operands_.data() + operand_begin_[v], operand_begin_[v + 1] - operand_begin_[v]};
  }
  /// What edge `e` passes to its target's arguments.
  template <class Edge>
  [[nodiscard]] const std::vector<std::size_t>& forwarded_operands(const Edge& e) const {
    return p_->blocks[slot_.source(e)].successors[slot_(e)].args;
  }
  /// A `cond_br` branches on its condition.
  [[nodiscard]] std::span<const std::size_t> branch_operands(std::size_t b) const {
    const auto& c = p_->blocks[b].condition;
    return c ? std::span<const std::size_t>(&*c, 1) : std::span<const std::size_t>();
  }
  /// The successor slot of edge `e` (0: taken, 1: not taken).
  template <class Edge>
  [[nodiscard]] std::size_t slot(const Edge& e) const {
    return slot_(e);
  }
  /// The program.
  [[nodiscard]] const SsaProgram& program() const { return *p_; }

 private:
  const SsaProgram* p_;
  const Cfg* cfg_;
  Slot slot_;
  std::size_t entry_;
  std::vector<std::size_t> operands_;
  std::vector<std::size_t> operand_begin_;
};

/// Slots of `SsaCfg` edges: stored on the edge.
struct SsaCfgSlot {
  const SsaCfg* cfg;  ///< the CFG
  /// The successor slot of `e`.
  std::size_t operator()(const SsaCfg::edge_descriptor& e) const { return (*cfg)[e].slot; }
  /// The block `e` leaves.
  std::size_t source(const SsaCfg::edge_descriptor& e) const { return boost::source(e, *cfg); }
};

/// The shape of `p` over its Boost CFG `cfg` (see `control_flow_graph`).
inline SsaShape<SsaCfg, SsaCfgSlot> ssa_shape(const SsaProgram& p, const SsaCfg& cfg, std::size_t entry = 0) {
  return SsaShape<SsaCfg, SsaCfgSlot>(p, cfg, SsaCfgSlot{&cfg}, entry);
}

}  // namespace classic
