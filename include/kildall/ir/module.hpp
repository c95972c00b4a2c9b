#pragma once
/// \file
/// The data structures of the reference IR: a `Module` of `Function`s, each a
/// list of blocks of operations in SSA form, in the style of MLIR's `func`
/// dialect. Everything is index based and stored in flat vectors: a function
/// owns one vector of operations, one of values, one flat array of operand
/// value ids and one of successors, so walking a million-op function touches
/// contiguous memory and no pointers. Operations of a block form a doubly
/// linked list through indices so that rewrites can insert and erase in O(1).
///
/// Operands of an operation are `[regular operands..., successor 0 operands...,
/// successor 1 operands...]`, like MLIR; each successor records how many of the
/// trailing operands it forwards to its block's arguments.

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kildall/ir/diagnostics.hpp>
#include <kildall/ir/types.hpp>
#include <kildall/support/large_array_allocator.hpp>
#include <kildall/support/prefetch.hpp>

namespace kildall::ir {

/// The array type of a function body and of the views over it: a
/// `std::vector` whose buffers of 2 MiB or more are offered to transparent
/// huge pages (the solvers' per-node allocator), so that filling the arrays
/// of a function of a million ops costs one page fault per 2 MiB instead of
/// one per 4 KiB.
template <class T>
using BodyArray = kildall::detail::LargeArray<T>;

/// The string type of a function's name arena: a `std::basic_string` on the
/// same allocator as `BodyArray` (a million-op function holds megabytes of names).
using BodyString = std::basic_string<char, std::char_traits<char>, kildall::detail::LargeArrayAllocator<char>>;

/// Index of a value (operation result or block argument) within its function.
using ValueId = std::uint32_t;
/// Index of an operation within its function.
using OpId = std::uint32_t;
/// Index of a block within its function (blocks are numbered in layout order; 0 is the entry).
using BlockId = std::uint32_t;
/// Index of an operation kind in an `OpRegistry`.
using OpCode = std::uint32_t;
/// Index of a region within its function (0 is the function body).
using RegionId = std::uint32_t;

/// The "none" index for `ValueId`, `OpId` and `BlockId`.
inline constexpr std::uint32_t no_index = std::numeric_limits<std::uint32_t>::max();

/// An SSA value: an operation result or a block argument (20 bytes).
struct ValueData {
  Type type;                          ///< Its type.
  std::uint32_t owner = no_index;     ///< Defining op (result) or owning block (argument).
  std::uint32_t position = 0;         ///< Result number or argument number.
  std::uint32_t name_begin = 0;       ///< Name (without '%') in `Function::names`; empty = unnamed.
  std::uint32_t name_size : 31 = 0;   ///< Length of the name (below 2^31).
  bool is_block_argument : 1 = false;  ///< True for block arguments.
};

/// One control-flow successor of a terminator.
struct Successor {
  BlockId block = no_index;           ///< Target block.
  std::uint32_t operand_begin = 0;    ///< First forwarded operand, relative to the op's operands.
  std::uint32_t operand_count = 0;    ///< Number of operands forwarded to the block's arguments.
};

/// The largest number of results, or of successors, of one op (`OpData` stores them in 16 bits).
inline constexpr std::uint32_t max_op_results = 0xFFFF;
/// The largest op code (`OpData` stores it in 16 bits): at most 65536 registered op kinds.
inline constexpr OpCode max_op_code = 0xFFFF;

/// An operation (56 bytes: the counts that are small by nature are 16 bits wide).
struct OpData {
  std::uint16_t code = 0;              ///< Kind (`OpCode`: index into the registry).
  std::uint16_t result_count = 0;      ///< Number of results (at most `max_op_results`).
  std::uint16_t successor_count = 0;   ///< Number of successors (at most `max_op_results`).
  bool erased = false;                 ///< Set by `Rewriter::erase`; erased ops are unlinked.
  BlockId block = no_index;            ///< Parent block.
  OpId prev = no_index;                ///< Previous op in the block.
  OpId next = no_index;                ///< Next op in the block.
  std::uint32_t operand_begin = 0;     ///< First operand in `Function::operands`.
  std::uint32_t operand_count = 0;     ///< Number of operands (including successor operands).
  ValueId result_begin = 0;            ///< First result (results are consecutive values).
  std::uint32_t successor_begin = 0;   ///< First successor in `Function::successors`.
  std::uint32_t aux = 0;               ///< Second inline attribute word (e.g. a string length).
  std::uint64_t imm = 0;               ///< Inline attribute: constant bits, predicate, or a string offset.
  SourceLoc loc;                       ///< Location of the op name in the source.
};
static_assert(sizeof(ValueData) == 20 && sizeof(OpData) == 56, "the IR's per-value and per-op footprint");

/// A basic block.
struct BlockData {
  OpId first_op = no_index;            ///< First op (or `no_index` if empty).
  OpId last_op = no_index;             ///< Last op; the terminator once verified.
  ValueId argument_begin = 0;          ///< First argument (arguments are consecutive values).
  std::uint32_t argument_count = 0;    ///< Number of arguments.
  std::uint32_t name_begin = 0;        ///< Label (without '^') in `Function::names`; empty = unnamed.
  std::uint32_t name_size = 0;         ///< Length of the label.
  SourceLoc loc;                       ///< Location of the label (or of the body for the entry block).
};

/// A region: the blocks an op owns (MLIR's `Region`, e.g. the arms of `scf.if`,
/// the body of `scf.for`); region 0 is the function body. The blocks of one
/// region are consecutive block ids, the body's first.
struct RegionData {
  OpId parent = no_index;         ///< The op that owns it (`no_index` for the function body).
  std::uint32_t index = 0;        ///< Its position among the parent's regions.
  BlockId first_block = 0;        ///< Its entry block.
  std::uint32_t block_count = 0;  ///< Its blocks are `[first_block, first_block + block_count)`.
};

/// A symbol's visibility (MLIR's `sym_visibility`): who may refer to it.
enum class Visibility : std::uint8_t {
  public_,   ///< The default: visible outside the module (no keyword).
  private_,  ///< `private`: only within the module.
  nested,    ///< `nested`: within the module and the modules it is nested in.
};

/// The source text of one op's attribute dictionary: `[begin, begin + size)` of `Function::names`.
struct OpAttributeText {
  OpId op = no_index;       ///< The op.
  std::uint32_t begin = 0;  ///< Offset of `{...}` in the function's name arena.
  std::uint32_t size = 0;   ///< Its length.
};

/// A `func.func`: signature plus a body of blocks (no blocks = an external declaration).
struct Function {
  std::string name;                    ///< Symbol name, without '@'.
  std::vector<Type> result_types;      ///< Result types of the signature.
  std::vector<Type> argument_types;    ///< Argument types (= entry block arguments).
  Visibility visibility = Visibility::public_;  ///< `func.func private` / `nested`.
  std::string attributes;              ///< `attributes {...}` as written (its `{...}`; empty: none).
  SourceLoc loc;                       ///< Location of `func.func`.
  /// The nested module it is written in (`Module::nested_modules`), or `no_index` for the
  /// top-level module: its symbol table.
  std::uint32_t parent_module = no_index;

  BodyArray<BlockData> blocks;         ///< Blocks in layout order; block 0 is the entry.
  BodyArray<OpData> ops;               ///< All ops, including erased ones.
  BodyArray<ValueData> values;         ///< All values.
  BodyArray<ValueId> operands;         ///< Flat operand array.
  BodyArray<Successor> successors;     ///< Flat successor array.
  BodyString names;                    ///< Arena of value/block names and string attributes.
  /// The regions, or empty when the body is the only one (no op owns a region); otherwise
  /// region 0 is the body and the others follow sorted by (parent op, index), so the regions
  /// of one op are consecutive.
  std::vector<RegionData> regions;
  /// Attribute dictionaries of ops that have one, as written (kept and printed back, not
  /// interpreted), sorted by op.
  std::vector<OpAttributeText> op_attributes;

  /// True for a declaration without body.
  [[nodiscard]] bool is_declaration() const { return blocks.empty(); }
  /// The operands of `op`.
  [[nodiscard]] std::span<const ValueId> operands_of(OpId op) const {
    const OpData& o = ops[op];
    return {operands.data() + o.operand_begin, o.operand_count};
  }
  /// The operands of `op`, mutable.
  [[nodiscard]] std::span<ValueId> operands_of(OpId op) {
    const OpData& o = ops[op];
    return {operands.data() + o.operand_begin, o.operand_count};
  }
  /// The successors of `op`.
  [[nodiscard]] std::span<const Successor> successors_of(OpId op) const {
    const OpData& o = ops[op];
    return {successors.data() + o.successor_begin, o.successor_count};
  }
  /// The operands that successor `s` of `op` forwards.
  [[nodiscard]] std::span<const ValueId> successor_operands(OpId op, const Successor& s) const {
    return operands_of(op).subspan(s.operand_begin, s.operand_count);
  }
  /// The number of regular (non-successor) operands of `op`.
  [[nodiscard]] std::uint32_t regular_operand_count(OpId op) const {
    const OpData& o = ops[op];
    return o.successor_count == 0 ? o.operand_count : successors[o.successor_begin].operand_begin;
  }
  /// Result `i` of `op`.
  [[nodiscard]] ValueId result(OpId op, std::uint32_t i = 0) const { return ops[op].result_begin + i; }
  /// Argument `i` of `block`.
  [[nodiscard]] ValueId argument(BlockId block, std::uint32_t i) const { return blocks[block].argument_begin + i; }
  /// The terminator (last op) of `block`, or `no_index` if the block is empty.
  [[nodiscard]] OpId terminator(BlockId block) const { return blocks[block].last_op; }
  /// The name of `value` without '%' (empty if unnamed).
  [[nodiscard]] std::string_view value_name(ValueId value) const {
    return std::string_view(names).substr(values[value].name_begin, values[value].name_size);
  }
  /// The label of `block` without '^' (empty if unnamed).
  [[nodiscard]] std::string_view block_name(BlockId block) const {
    return std::string_view(names).substr(blocks[block].name_begin, blocks[block].name_size);
  }
  /// The string stored in the arena at [`begin`, `begin + size`).
  [[nodiscard]] std::string_view arena_string(std::uint64_t begin, std::uint32_t size) const {
    return std::string_view(names).substr(static_cast<std::size_t>(begin), size);
  }
  /// Appends `text` to the arena and returns its offset.
  std::uint32_t intern(std::string_view text) {
    const auto begin = static_cast<std::uint32_t>(names.size());
    names.append(text);
    return begin;
  }
  /// The attribute dictionary of `op` as written (`{...}`), or empty. O(log of the ops with one).
  [[nodiscard]] std::string_view attributes_of(OpId op) const {
    if (op_attributes.empty()) return {};
    std::size_t lo = 0, hi = op_attributes.size();
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (op_attributes[mid].op < op) lo = mid + 1;
      else hi = mid;
    }
    if (lo == op_attributes.size() || op_attributes[lo].op != op) return {};
    return arena_string(op_attributes[lo].begin, op_attributes[lo].size);
  }
  /// The number of blocks of the function body (region 0); all blocks when no op owns a region.
  [[nodiscard]] std::uint32_t body_block_count() const {
    return regions.empty() ? static_cast<std::uint32_t>(blocks.size()) : regions[0].block_count;
  }
  /// The region `block` belongs to (0: the body). O(log regions).
  [[nodiscard]] RegionId region_of(BlockId block) const {
    if (regions.empty() || block < regions[0].block_count) return 0;
    std::size_t lo = 1, hi = regions.size();  // the last region whose first block is <= block
    while (hi - lo > 1) {
      const std::size_t mid = (lo + hi) / 2;
      if (regions[mid].first_block <= block) lo = mid;
      else hi = mid;
    }
    return static_cast<RegionId>(lo);
  }
  /// The regions `op` owns, as the id range `[first, last)` (empty for most ops). O(log regions).
  [[nodiscard]] std::pair<RegionId, RegionId> regions_of(OpId op) const {
    if (regions.size() < 2) return {0, 0};
    std::size_t lo = 1, hi = regions.size();
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (regions[mid].parent < op) lo = mid + 1;
      else hi = mid;
    }
    std::size_t last = lo;
    while (last < regions.size() && regions[last].parent == op) ++last;
    return {static_cast<RegionId>(lo), static_cast<RegionId>(last)};
  }
  /// Whether `block` lies in a region of an erased op (erasing an op erases its regions' ops).
  [[nodiscard]] bool in_erased_region(BlockId block) const {
    const OpId parent = parent_op(block);
    return parent != no_index && ops[parent].erased;
  }
  /// The op owning the region of `block`, or `no_index` for a block of the body.
  [[nodiscard]] OpId parent_op(BlockId block) const {
    return regions.empty() ? no_index : regions[region_of(block)].parent;
  }
  /// The block that defines `value` (its parent block for a result).
  [[nodiscard]] BlockId defining_block(ValueId value) const {
    const ValueData& v = values[value];
    return v.is_block_argument ? v.owner : ops[v.owner].block;
  }
  /// A forward range over the `OpId`s of one block, in order.
  class BlockOps;
  /// The ops of `block` in order (a forward range over `OpId`).
  [[nodiscard]] BlockOps ops_of(BlockId block) const;
};

/// A forward range over the ops of one block, following the `next` links.
class Function::BlockOps {
 public:
  /// Iterator over `OpId`.
  class iterator {
   public:
    using value_type = OpId;               ///< Iterated type.
    using difference_type = std::ptrdiff_t;  ///< Required by std::forward_iterator.
    /// A singular iterator.
    iterator() = default;
    /// Position at `op` of `fn`.
    iterator(const Function* fn, OpId op) : fn_(fn), op_(op) {}
    /// The current op.
    OpId operator*() const { return op_; }
    /// Advances to the next op.
    iterator& operator++() {
      op_ = fn_->ops[op_].next;
      return *this;
    }
    /// Post-increment.
    iterator operator++(int) {
      iterator copy = *this;
      ++*this;
      return copy;
    }
    /// Iterators compare by position.
    friend bool operator==(const iterator& a, const iterator& b) { return a.op_ == b.op_; }

   private:
    const Function* fn_ = nullptr;
    OpId op_ = no_index;
  };
  /// The ops of `block` in `fn`.
  BlockOps(const Function& fn, BlockId block) : fn_(&fn), first_(fn.blocks[block].first_op) {}
  /// First op.
  [[nodiscard]] iterator begin() const { return {fn_, first_}; }
  /// Past the last op.
  [[nodiscard]] iterator end() const { return {fn_, no_index}; }

 private:
  const Function* fn_;
  OpId first_;
};

inline Function::BlockOps Function::ops_of(BlockId block) const { return BlockOps(*this, block); }

/// Renumbers the blocks of `fn`: block `b` becomes `new_id[b]`, or goes when that is `no_index`
/// (its ops must be erased already: an erased op of a dropped block gets block `no_index`, and
/// the arguments of a dropped block get owner `no_index` and lose their names). The kept blocks
/// must map onto `[0, kept)` one to one; the ops' parent blocks, the successors of live ops and
/// the block arguments' owners follow. The regions are the caller's to update.
inline void renumber_blocks(Function& fn, std::span<const BlockId> new_id) {
  std::uint32_t kept = 0;
  for (const BlockId id : new_id) kept += id != no_index;
  BodyArray<BlockData> blocks(kept);
  for (BlockId b = 0; b < fn.blocks.size(); ++b)
    if (new_id[b] != no_index) blocks[new_id[b]] = fn.blocks[b];
  for (BlockId b = 0; b < fn.blocks.size(); ++b) {
    if (new_id[b] != no_index) continue;
    for (std::uint32_t i = 0; i < fn.blocks[b].argument_count; ++i) {
      ValueData& v = fn.values[fn.blocks[b].argument_begin + i];
      v.owner = no_index;
      v.name_size = 0;
    }
  }
  fn.blocks = std::move(blocks);
  for (OpData& op : fn.ops) {
    if (op.block != no_index) op.block = new_id[op.block];
    if (op.erased) continue;
    for (std::uint32_t s = 0; s < op.successor_count; ++s) {
      Successor& successor = fn.successors[op.successor_begin + s];
      successor.block = new_id[successor.block];
    }
  }
  for (ValueData& v : fn.values)
    if (v.is_block_argument && v.owner != no_index) v.owner = new_id[v.owner];
}

/// The ids `compact_body` gave: by old id, the new one, or `no_index` for what it dropped.
struct BodyRenumbering {
  BodyArray<OpId> op;        ///< By old op id.
  BodyArray<ValueId> value;  ///< By old value id.
};

/// Drops `fn`'s erased ops and the values nothing defines any more (the results of erased ops,
/// block arguments removed from their block's range, the arguments of dropped blocks), and
/// numbers what is left in program order: blocks in layout order, each block's arguments and
/// then its ops (and their results) in list order; the operand and successor arrays are written
/// anew in that op order. Names, types, locations, immediates and attributes stay with their
/// ops and values, so the function prints the same; only ids change, and whatever holds ids of
/// `fn` must be mapped through the result. A rewrite that erased most of a large function's
/// ops leaves live ops scattered over an array of mostly erased ones: each later walk of the
/// body then reads a cache line per op. Not done for a function with regions (its region table
/// is ordered by the ids of the ops owning them): returns nothing then, and `fn` is unchanged.
/// Throws `std::invalid_argument` (before changing anything) when a live op uses a value that
/// nothing defines.
[[nodiscard]] inline std::optional<BodyRenumbering> compact_body(Function& fn) {
  if (!fn.regions.empty()) return std::nullopt;
  BodyRenumbering map;
  map.op.assign(fn.ops.size(), no_index);
  map.value.assign(fn.values.size(), no_index);
  // The new ids, in one walk of the block lists (an operand may be defined in a block laid out
  // later, so the ids come before the copy); the live ops in their new order, so that the copy
  // reads them from an array instead of following the lists again.
  BodyArray<OpId> order;
  BodyArray<ValueId> block_start(fn.blocks.size());  // by block: its first new value id
  ValueId value_count = 0;
  std::size_t operand_count = 0;
  std::size_t successor_count = 0;
  for (BlockId b = 0; b < fn.blocks.size(); ++b) {
    const BlockData& block = fn.blocks[b];
    block_start[b] = value_count;
    for (std::uint32_t i = 0; i < block.argument_count; ++i) map.value[block.argument_begin + i] = value_count++;
    for (OpId op = block.first_op; op != no_index; op = fn.ops[op].next) {
      const OpData& o = fn.ops[op];
      map.op[op] = static_cast<OpId>(order.size());
      order.push_back(op);
      for (std::uint32_t i = 0; i < o.result_count; ++i) map.value[o.result_begin + i] = value_count++;
      operand_count += o.operand_count;
      successor_count += o.successor_count;
    }
  }
  BodyArray<OpData> ops(order.size());
  BodyArray<ValueData> values(value_count);
  BodyArray<ValueId> operands(operand_count);
  BodyArray<Successor> successors(successor_count);
  const auto renumbered = [&](OpId id) { return id == no_index ? no_index : map.op[id]; };
  // The copy, op after op in the new order; `fn` itself changes only once it is done.
  static constexpr std::size_t ahead = 16;  // ops asked for this far on: their records are scattered
  std::size_t operand_at = 0, successor_at = 0;
  BlockId block = no_index;
  ValueId next_value = 0;  // the next new value id in program order (an op without results starts there)
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i + ahead < order.size()) {
      const OpData& later = fn.ops[order[i + ahead]];
      kildall::detail::prefetch_for_read(&later);
    }
    const OpId op = order[i];
    OpData o = fn.ops[op];
    const auto id = static_cast<OpId>(i);
    for (std::uint32_t k = 0; k < o.operand_count; ++k) {
      const ValueId v = fn.operands[o.operand_begin + k];
      if (v >= map.value.size() || map.value[v] == no_index)
        throw std::invalid_argument("compact_body: a live op of @" + fn.name + " uses a value nothing defines");
      operands[operand_at + k] = map.value[v];
    }
    std::copy_n(fn.successors.begin() + o.successor_begin, o.successor_count, successors.begin() + successor_at);
    if (o.block != block) {
      block = o.block;
      next_value = block_start[block] + fn.blocks[block].argument_count;
    }
    const ValueId results = next_value;
    next_value += o.result_count;
    for (std::uint32_t r = 0; r < o.result_count; ++r) {
      values[results + r] = fn.values[o.result_begin + r];
      values[results + r].owner = id;
    }
    o.prev = renumbered(o.prev);
    o.next = renumbered(o.next);
    o.operand_begin = static_cast<std::uint32_t>(operand_at);
    o.successor_begin = static_cast<std::uint32_t>(successor_at);
    o.result_begin = results;
    operand_at += o.operand_count;
    successor_at += o.successor_count;
    ops[id] = o;
  }
  // The blocks: their arguments, first and last ops.
  for (BlockId b = 0; b < fn.blocks.size(); ++b) {
    BlockData& data = fn.blocks[b];
    for (std::uint32_t i = 0; i < data.argument_count; ++i) values[block_start[b] + i] = fn.values[data.argument_begin + i];
    data.argument_begin = block_start[b];
    data.first_op = renumbered(data.first_op);
    data.last_op = renumbered(data.last_op);
  }
  std::erase_if(fn.op_attributes, [&](const OpAttributeText& a) { return map.op[a.op] == no_index; });
  for (OpAttributeText& a : fn.op_attributes) a.op = map.op[a.op];
  std::sort(fn.op_attributes.begin(), fn.op_attributes.end(),
            [](const OpAttributeText& a, const OpAttributeText& b) { return a.op < b.op; });
  fn.ops = std::move(ops);
  fn.values = std::move(values);
  fn.operands = std::move(operands);
  fn.successors = std::move(successors);
  return map;
}

class OpRegistry;

/// An op of no registered dialect written at module level, between functions (read with
/// `--allow-unregistered-dialect`), in the one form such ops take there in MLIR's tests:
/// `"dialect.op"() {attrs} : () -> ()`. It is opaque, and kept to be printed back; a function its
/// attributes name (`{uses = [@f]}`) has a user other than a call (`for_each_symbol_reference`,
/// lexer.hpp).
struct ModuleLevelOp {
  std::string name;            ///< `dialect.op`.
  std::string attributes;      ///< Its attribute dictionary as written (`{...}`), or empty.
  std::uint32_t position = 0;  ///< The number of functions (of any module) written before it.
  SourceLoc loc;               ///< Where it was written.
  /// The nested module it is written in, or `no_index` for the top-level module.
  std::uint32_t parent_module = no_index;
  /// The number of nested modules opened before it (orders it among them; see `walk_module`).
  std::uint32_t modules_before = 0;
};

/// A module written inside the top-level one or inside another nested module (MLIR's
/// `builtin.module`, `module @name attributes {...} { ... }`): a symbol table of its own. Its
/// functions are in `Module::functions` with the others (`Function::parent_module` says whose
/// they are), so per-function passes see every function of the file.
struct NestedModule {
  std::string name;                 ///< `@name` without '@' (empty: unnamed, its symbols unreachable from outside).
  std::string attributes;           ///< `attributes {...}` as written (its `{...}`; empty: none).
  std::uint32_t parent_module = no_index;  ///< The nested module it is written in, or `no_index` (the top level).
  std::uint32_t position = 0;       ///< The number of functions (of any module) written before it.
  SourceLoc loc;                    ///< Where `module` (or `builtin.module`) was written.
};

/// A module: functions in textual order, the modules nested in it, and its module-level ops.
struct Module {
  std::vector<Function> functions;     ///< The functions, of the nested modules too, in textual order.
  std::vector<ModuleLevelOp> opaque_ops;  ///< Unregistered ops between the functions, in order.
  std::vector<NestedModule> nested_modules;  ///< Nested modules in the order they are opened (a parent before its children).
  std::string name;                    ///< `module @name` (empty if none).
  std::string attributes;              ///< `module attributes {...}` as written (its `{...}`; empty: none).
  std::string source_name;             ///< File name used in diagnostics.
  const OpRegistry* registry = nullptr;  ///< The op table the module was built with (must outlive it).

  /// The function named `name` (without '@') in the top-level module's own symbol table, if any
  /// (symbol_table.hpp resolves names in nested modules and through them).
  [[nodiscard]] std::optional<std::uint32_t> find_function(std::string_view name) const {
    for (std::uint32_t i = 0; i < functions.size(); ++i)
      if (functions[i].parent_module == no_index && functions[i].name == name) return i;
    return std::nullopt;
  }
};

/// Visits what `module` holds in textual order: `visitor.open(m)` and `visitor.close(m)` around
/// the contents of nested module `m`, `visitor.function(f)` for each function,
/// `visitor.opaque_op(i)` for each module-level op. A loop with an explicit stack: nesting depth
/// costs no native stack.
template <class Visitor>
void walk_module(const Module& module, Visitor&& visitor) {
  std::vector<std::uint32_t> open;  // the nested modules around the next item, outermost first
  const auto enter = [&](std::uint32_t parent) {  // closes what does not enclose an item of `parent`
    while (!open.empty() && open.back() != parent) {
      visitor.close(open.back());
      open.pop_back();
    }
  };
  constexpr std::uint32_t last = std::numeric_limits<std::uint32_t>::max();
  // Each item's place: (functions before, modules opened before, op < module < function).
  struct Key {
    std::uint32_t functions = last, modules = last, kind = last;
    auto operator<=>(const Key&) const = default;
  };
  std::size_t f = 0, op = 0, nested = 0;
  while (true) {
    const Key function_key = f < module.functions.size() ? Key{static_cast<std::uint32_t>(f), last - 1, 2} : Key{};
    const Key op_key = op < module.opaque_ops.size()
                           ? Key{module.opaque_ops[op].position, module.opaque_ops[op].modules_before, 0}
                           : Key{};
    const Key module_key = nested < module.nested_modules.size()
                               ? Key{module.nested_modules[nested].position, static_cast<std::uint32_t>(nested), 1}
                               : Key{};
    const Key next = std::min({function_key, op_key, module_key});
    if (next.kind == last) break;
    if (next == op_key) {
      enter(module.opaque_ops[op].parent_module);
      visitor.opaque_op(static_cast<std::uint32_t>(op++));
    } else if (next == module_key) {
      enter(module.nested_modules[nested].parent_module);
      visitor.open(static_cast<std::uint32_t>(nested));
      open.push_back(static_cast<std::uint32_t>(nested++));
    } else {
      enter(module.functions[f].parent_module);
      visitor.function(static_cast<std::uint32_t>(f++));
    }
  }
  enter(no_index);
}

}  // namespace kildall::ir
