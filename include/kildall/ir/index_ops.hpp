#pragma once
/// \file
/// The `index` dialect (MLIR's `index.add`, `index.cmp`, `index.constant`, ...)
/// as op records, registered in every `OpRegistry` after the built-in ops.
///
/// Each op is the `arith` op of the same meaning on the `index` type, written
/// the index dialect's way (`OpFormat::index_*`): `index.add %a, %b` (no type:
/// operands and result are `index`), `index.cmp slt(%a, %b)`,
/// `index.constant 42`, `index.bool.constant true`, `index.casts %x : i32 to
/// index`. Semantics, folders and integer-range transfers are the `arith`
/// records' own (`builtin_ops.hpp`): one evaluator and one transfer per
/// operation, whichever dialect spells it.
///
/// `index` is 64 bits here. MLIR leaves its width to the target, and its index
/// dialect folds and infers ranges only where 32 and 64 bits agree, so where an
/// op wraps at 32 bits but not at 64 (`0xffffffff + 1`) kildall concludes more
/// than MLIR does (docs/ir.md, "The index dialect").

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <kildall/ir/builtin_ops.hpp>
#include <kildall/ir/op_definition.hpp>

namespace kildall::ir {

/// One two-operand `index` op: its name and the `arith` op it means on `index`.
struct IndexBinaryRecord {
  std::string_view name;  ///< Its name, e.g. "index.add".
  BuiltinOp meaning;      ///< The `arith` op computing it, e.g. `BuiltinOp::addi`.
};

/// The twenty two-operand ops of the `index` dialect, in registration order.
inline constexpr std::array<IndexBinaryRecord, 20> index_binary_ops = {{
    {"index.add", BuiltinOp::addi},         {"index.sub", BuiltinOp::subi},
    {"index.mul", BuiltinOp::muli},         {"index.divs", BuiltinOp::divsi},
    {"index.divu", BuiltinOp::divui},       {"index.ceildivs", BuiltinOp::ceildivsi},
    {"index.ceildivu", BuiltinOp::ceildivui}, {"index.floordivs", BuiltinOp::floordivsi},
    {"index.rems", BuiltinOp::remsi},       {"index.remu", BuiltinOp::remui},
    {"index.maxs", BuiltinOp::maxsi},       {"index.mins", BuiltinOp::minsi},
    {"index.maxu", BuiltinOp::maxui},       {"index.minu", BuiltinOp::minui},
    {"index.shl", BuiltinOp::shli},         {"index.shrs", BuiltinOp::shrsi},
    {"index.shru", BuiltinOp::shrui},       {"index.and", BuiltinOp::andi},
    {"index.or", BuiltinOp::ori},           {"index.xor", BuiltinOp::xori},
}};

namespace detail {

/// `def` renamed `name` and written in `format`.
[[nodiscard]] inline OpDefinition respelled(OpDefinition def, std::string_view name, OpFormat format) {
  def.name = std::string(name);
  def.format = format;
  return def;
}

}  // namespace detail

/// The records of the `index` dialect, in registration order (after the built-in ops).
[[nodiscard]] inline std::vector<OpDefinition> index_op_definitions() {
  using detail::respelled;
  std::vector<OpDefinition> defs;
  defs.push_back(respelled(detail::constant_definition(), "index.constant", OpFormat::index_constant));
  defs.push_back(respelled(detail::constant_definition(), "index.bool.constant", OpFormat::bool_constant));
  for (const IndexBinaryRecord& r : index_binary_ops) {
    const BinaryArithRecord& meaning = binary_arith_ops[code_of(r.meaning) - code_of(BuiltinOp::addi)];
    defs.push_back(respelled(detail::binary_arith_definition(meaning), r.name, OpFormat::index_binary));
  }
  defs.push_back(respelled(detail::compare_definition(), "index.cmp", OpFormat::index_compare));
  // `index.casts`/`index.castu` are `arith.index_cast`/`index_castui`, written the same way.
  defs.push_back(detail::index_cast_definition("index.casts", true));
  defs.push_back(detail::index_cast_definition("index.castu", false));
  return defs;
}

}  // namespace kildall::ir
