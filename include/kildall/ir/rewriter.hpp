#pragma once
/// \file
/// In-place rewrites of one function: create ops before or after another op
/// (or at the end of a block), replace uses of a value (all, all but those in
/// one op, or those a predicate selects), erase ops, and turn a terminator
/// into an unconditional branch. New ops and values are appended to the
/// function's vectors and linked into the block's op list, so existing ids
/// stay valid. Views (`CfgView`, `DefUseView`) taken before a rewrite must be
/// rebuilt after it. Use replacement scans the flat operand array: O(operands)
/// per call, so many replacements go through the batched `replace_all_uses(span)`.

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <span>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <kildall/ir/module.hpp>
#include <kildall/ir/name_table.hpp>
#include <kildall/ir/op_registry.hpp>

namespace kildall::ir {

/// Rewrites one function in place.
class Rewriter {
 public:
  /// Rewrites `fn` (which must outlive the rewriter).
  explicit Rewriter(Function& fn) : fn_(&fn) {}

  /// The function being rewritten.
  [[nodiscard]] Function& function() const { return *fn_; }
  /// The ops this rewriter has erased (those of erased ops' regions included).
  [[nodiscard]] std::uint64_t erased_count() const { return erased_count_; }

  /// Makes room for `ops` more ops, `values` more values, `operands` more operands,
  /// `successors` more successors and `name_bytes` more bytes of names, so that a batch of
  /// rewrites grows each array of the function once, to its final size, instead of doubling it
  /// (which would leave up to half of it unused).
  void reserve(std::size_t ops, std::size_t values, std::size_t operands = 0, std::size_t successors = 0,
               std::size_t name_bytes = 0) {
    Function& fn = *fn_;
    if (name_bytes) fn.names.reserve(fn.names.size() + name_bytes);
    fn.ops.reserve(fn.ops.size() + ops);
    fn.values.reserve(fn.values.size() + values);
    fn.operands.reserve(fn.operands.size() + operands);
    fn.successors.reserve(fn.successors.size() + successors);
  }

  /// Creates an unlinked op with `operands`, fresh results of `result_types` and inline attributes
  /// (see `OpData::imm`/`aux`); link it with `insert_after`/`insert_before`/`append`.
  OpId create(OpCode code, std::span<const ValueId> operands, std::span<const Type> result_types,
              std::uint64_t imm = 0, std::uint32_t aux = 0, SourceLoc loc = {}) {
    Function& fn = *fn_;
    if (result_types.size() > max_op_results) throw std::length_error("Rewriter::create: more than 65535 results");
    const auto op = static_cast<OpId>(fn.ops.size());
    OpData data;
    data.code = static_cast<std::uint16_t>(code);
    data.imm = imm;
    data.aux = aux;
    data.loc = loc;
    data.operand_begin = static_cast<std::uint32_t>(fn.operands.size());
    data.operand_count = static_cast<std::uint32_t>(operands.size());
    fn.operands.insert(fn.operands.end(), operands.begin(), operands.end());
    data.successor_begin = static_cast<std::uint32_t>(fn.successors.size());
    data.result_begin = static_cast<ValueId>(fn.values.size());
    data.result_count = static_cast<std::uint16_t>(result_types.size());
    for (std::uint32_t i = 0; i < result_types.size(); ++i)
      fn.values.push_back({result_types[i], op, i, 0, 0, false});
    fn.ops.push_back(data);
    return op;
  }

  /// Creates an op (see `create`) and links it right after `anchor`.
  OpId create_after(OpId anchor, OpCode code, std::span<const ValueId> operands, std::span<const Type> result_types,
                    std::uint64_t imm = 0, std::uint32_t aux = 0) {
    const OpId op = create(code, operands, result_types, imm, aux, fn_->ops[anchor].loc);
    insert_after(anchor, op);
    return op;
  }

  /// Creates an op (see `create`) and links it right before `anchor`.
  OpId create_before(OpId anchor, OpCode code, std::span<const ValueId> operands, std::span<const Type> result_types,
                     std::uint64_t imm = 0, std::uint32_t aux = 0) {
    const OpId op = create(code, operands, result_types, imm, aux, fn_->ops[anchor].loc);
    insert_before(anchor, op);
    return op;
  }

  /// Creates `arith.constant bits : type` right before `anchor`; returns its result.
  ValueId constant_before(OpId anchor, Type type, std::uint64_t bits) {
    const Type types[] = {type};
    const OpId op = create_before(anchor, code_of(BuiltinOp::constant), {}, types, bits & width_mask(type.width()));
    return fn_->ops[op].result_begin;
  }

  /// Turns single-result `op` into `arith.constant bits` of its result's type, in place: the
  /// result value keeps its id, name and uses; the op's operands and successors are dropped.
  void replace_with_constant(OpId op, std::uint64_t bits) {
    Function& fn = *fn_;
    OpData& o = fn.ops[op];
    o.code = static_cast<std::uint16_t>(code_of(BuiltinOp::constant));
    o.imm = bits & width_mask(fn.values[o.result_begin].type.width());
    o.aux = 0;
    o.operand_count = 0;
    o.successor_count = 0;
  }

  /// Creates `arith.constant bits : type` at the start of `block` (after existing leading constants
  /// is not guaranteed); returns its result.
  ValueId constant_at_start(BlockId block, Type type, std::uint64_t bits) {
    const Type types[] = {type};
    const OpId op = create(code_of(BuiltinOp::constant), {}, types, bits & width_mask(type.width()),
                           0, fn_->blocks[block].loc);
    const OpId first = fn_->blocks[block].first_op;
    if (first == no_index) append(block, op);
    else insert_before(first, op);
    return fn_->ops[op].result_begin;
  }

  /// Links unlinked `op` right after `anchor`.
  void insert_after(OpId anchor, OpId op) {
    Function& fn = *fn_;
    OpData& a = fn.ops[anchor];
    OpData& o = fn.ops[op];
    o.block = a.block;
    o.prev = anchor;
    o.next = a.next;
    if (a.next != no_index) fn.ops[a.next].prev = op;
    else fn.blocks[a.block].last_op = op;
    a.next = op;
  }

  /// Links unlinked `op` right before `anchor`.
  void insert_before(OpId anchor, OpId op) {
    Function& fn = *fn_;
    OpData& a = fn.ops[anchor];
    OpData& o = fn.ops[op];
    o.block = a.block;
    o.next = anchor;
    o.prev = a.prev;
    if (a.prev != no_index) fn.ops[a.prev].next = op;
    else fn.blocks[a.block].first_op = op;
    a.prev = op;
  }

  /// Links unlinked `op` at the end of `block`.
  void append(BlockId block, OpId op) {
    Function& fn = *fn_;
    OpData& o = fn.ops[op];
    BlockData& b = fn.blocks[block];
    o.block = block;
    o.prev = b.last_op;
    o.next = no_index;
    if (b.last_op != no_index) fn.ops[b.last_op].next = op;
    else b.first_op = op;
    b.last_op = op;
  }

  /// Replaces every use of `from` by `to`; returns the number of uses replaced.
  std::size_t replace_all_uses(ValueId from, ValueId to) {
    return replace_uses_if(from, to, [](OpId) { return true; });
  }

  /// Replaces every use of `from` by `to` except those in op `except`.
  std::size_t replace_all_uses_except(ValueId from, ValueId to, OpId except) {
    return replace_uses_if(from, to, [except](OpId user) { return user != except; });
  }

  /// Replaces the uses of `from` by `to` in the live ops `user` for which `pred(user)` holds.
  template <class Pred>
  std::size_t replace_uses_if(ValueId from, ValueId to, Pred pred) {
    Function& fn = *fn_;
    std::size_t count = 0;
    for (OpId op = 0; op < fn.ops.size(); ++op) {
      if (fn.ops[op].erased) continue;
      for (ValueId& v : fn.operands_of(op))
        if (v == from && pred(op)) {
          v = to;
          ++count;
        }
    }
    return count;
  }

  /// Batched replacement, one pass over the operands: every use of a value `v` by a live op
  /// becomes `replacement[v]` unless that is `no_index` (values past the span's end are kept).
  /// Use this instead of one `replace_all_uses` per value when replacing many values.
  std::size_t replace_all_uses(std::span<const ValueId> replacement) {
    Function& fn = *fn_;
    std::size_t count = 0;
    for (OpId op = 0; op < fn.ops.size(); ++op) {
      if (fn.ops[op].erased) continue;
      for (ValueId& v : fn.operands_of(op))
        if (v < replacement.size() && replacement[v] != no_index) {
          v = replacement[v];
          ++count;
        }
    }
    return count;
  }

  /// Number of uses of each value by live ops, indexed by `ValueId` (one pass over the operands).
  [[nodiscard]] BodyArray<std::uint32_t> use_counts() const {
    BodyArray<std::uint32_t> counts;
    use_counts(counts);
    return counts;
  }
  /// `use_counts()` into `counts` (resized to the values; a caller counting again and again
  /// keeps its memory).
  void use_counts(BodyArray<std::uint32_t>& counts) const {
    counts.assign(fn_->values.size(), 0);
    for (OpId op = 0; op < fn_->ops.size(); ++op) {
      if (fn_->ops[op].erased) continue;
      for (const ValueId v : fn_->operands_of(op)) ++counts[v];
    }
  }

  /// Number of uses of `value` by live ops.
  [[nodiscard]] std::size_t use_count(ValueId value) const {
    std::size_t count = 0;
    for (OpId op = 0; op < fn_->ops.size(); ++op) {
      if (fn_->ops[op].erased) continue;
      for (const ValueId v : fn_->operands_of(op)) count += v == value;
    }
    return count;
  }

  /// Unlinks and marks `op` erased (its results must have no remaining uses).
  void erase(OpId op) {
    Function& fn = *fn_;
    OpData& o = fn.ops[op];
    if (o.erased) return;
    if (o.prev != no_index) fn.ops[o.prev].next = o.next;
    else fn.blocks[o.block].first_op = o.next;
    if (o.next != no_index) fn.ops[o.next].prev = o.prev;
    else fn.blocks[o.block].last_op = o.prev;
    o.prev = o.next = no_index;
    o.erased = true;
    ++erased_count_;
    // The ops of its regions go with it (their blocks stay, empty, in a region of an erased op).
    if (!fn.regions.empty()) {
      const auto [first, last] = fn.regions_of(op);
      std::vector<OpId> inner;
      for (RegionId r = first; r < last; ++r)
        for (BlockId b = fn.regions[r].first_block; b < fn.regions[r].first_block + fn.regions[r].block_count; ++b)
          for (const OpId x : fn.ops_of(b)) inner.push_back(x);
      for (const OpId x : inner) erase(x);
    }
  }

  /// Creates an unlinked `cf.br ^target(forwarded...)` (link it with `insert_after`/`insert_before`).
  OpId create_branch(BlockId target, std::span<const ValueId> forwarded, SourceLoc loc = {}) {
    const std::vector<ValueId> operands(forwarded.begin(), forwarded.end());  // may alias the operand array
    Function& fn = *fn_;
    const OpId br = create(code_of(BuiltinOp::br), operands, {}, 0, 0, loc);
    fn.ops[br].successor_begin = static_cast<std::uint32_t>(fn.successors.size());
    fn.ops[br].successor_count = 1;
    fn.successors.push_back({target, 0, static_cast<std::uint32_t>(operands.size())});
    return br;
  }

  /// Replaces terminator `op` by `cf.br ^target(forwarded...)`; returns the new op.
  OpId replace_with_branch(OpId op, BlockId target, std::span<const ValueId> forwarded) {
    const OpId br = create_branch(target, forwarded, fn_->ops[op].loc);
    insert_after(op, br);
    erase(op);
    return br;
  }

  /// Replaces terminator `op` by `cf.br` to its successor number `taken`,
  /// forwarding the same operands; returns the new op.
  OpId replace_with_branch(OpId op, std::uint32_t taken) {
    const Function& fn = *fn_;
    const Successor chosen = fn.successors[fn.ops[op].successor_begin + taken];
    return replace_with_branch(op, chosen.block, fn.successor_operands(op, chosen));
  }

  /// Gives `value` the source name `name` (without '%'); see `unique_name` to keep names unique.
  void set_name(ValueId value, std::string_view name) {
    ValueData& v = fn_->values[value];
    v.name_begin = fn_->intern(name);
    v.name_size = static_cast<std::uint32_t>(name.size());
    if (v.name_size != 0 && indexed_[first_byte(name)]) names_.insert(fn_->names, v.name_begin, v.name_size);
  }

  /// Moves the name of `from` to `to` (e.g. from a replaced value to its replacement); `from`
  /// becomes unnamed.
  void transfer_name(ValueId from, ValueId to) {
    fn_->values[to].name_begin = fn_->values[from].name_begin;
    fn_->values[to].name_size = fn_->values[from].name_size;
    fn_->values[from].name_size = 0;
  }

  /// `base`, or `base_N` with the least N that makes it unused in the function.
  [[nodiscard]] std::string unique_name(std::string_view base) {
    std::string name(base);
    if (!taken(name)) return name;
    // Names are only ever added, so the least free suffix of `base` never
    // decreases: each search starts where the last one for `base` ended.
    std::size_t& n = next_suffix_[name];
    for (;; ++n) {
      name.resize(base.size());
      name += '_';
      name += std::to_string(n);
      if (!taken(name)) return name;
    }
  }

  /// An unused MLIR-style name for a constant: `c42_i32`, `c-1_i8`, `c0` (an `index`), `true`, `false`.
  [[nodiscard]] std::string constant_name(Type type, std::uint64_t bits) {
    if (type == Type::i1()) return unique_name((bits & 1) ? "true" : "false");
    const std::int64_t value = sign_extend(bits, type.width());
    std::string base = "c" + std::to_string(value);
    if (!type.is_index()) base += "_i" + std::to_string(type.width());
    return unique_name(base);
  }

 private:
  Function* fn_;
  [[nodiscard]] static std::size_t first_byte(std::string_view name) {
    return static_cast<unsigned char>(name.front());
  }

  // Whether `name` is some value's name. The set of names in use holds only
  // the names whose first byte some candidate has had: a function of a
  // million `%123`-style names that gets constants named `c42_i32` indexes
  // only its names that start with 'c' (one pass over the values per new
  // first byte), not a hash table of every name.
  [[nodiscard]] bool taken(std::string_view name) {
    if (name.empty()) return false;  // the empty name means "unnamed"
    const std::size_t first = first_byte(name);
    if (!indexed_[first]) {
      indexed_[first] = true;
      const std::string_view arena = fn_->names;
      for (const ValueData& v : fn_->values)
        if (v.name_size != 0 && static_cast<unsigned char>(arena[v.name_begin]) == first)
          names_.insert(arena, v.name_begin, v.name_size);
    }
    return names_.contains(fn_->names, name);
  }

  std::uint64_t erased_count_ = 0;  // ops erased by `erase`
  detail::ArenaNameSet names_;  // the names in use that start with an indexed byte
  std::array<bool, 256> indexed_{};  // by first byte: whether its names are in `names_`
  std::unordered_map<std::string, std::size_t> next_suffix_;  // by base: the least suffix not known taken
};

}  // namespace kildall::ir
