#pragma once
/// \file
/// The printer: writes a module in the MLIR custom syntax accepted by
/// `mlir-opt` (16), one op per line, inside a `module { ... }`. Value and block
/// names from the source are kept; values and blocks created by rewrites get
/// fresh numbers that cannot collide with them (`ValueNamer`). Printing is a
/// loop over blocks and ops (no recursion) into one string buffer.

#include <algorithm>
#include <charconv>
#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <kildall/ir/arith.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/parser.hpp>

namespace kildall::ir {

namespace detail {

/// Appends `n` in decimal (signed or unsigned) to `out`.
template <std::integral N>
void append_decimal(std::string& out, N n) {
  char buffer[24];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, n).ptr;
  out.append(buffer, end);
}

}  // namespace detail

/// The printed names of the values and blocks of one function: source names
/// are kept; unnamed values get `%N` above the largest numeric source name,
/// unnamed blocks get an unused `^bbN`.
class ValueNamer {
 public:
  /// Names for `fn`.
  explicit ValueNamer(const Function& fn) : fn_(&fn), number_(fn.values.size(), no_index) {
    std::uint32_t next = 0;
    bool any_unnamed = false;
    for (ValueId v = 0; v < fn.values.size(); ++v) {
      if (fn.values[v].name_size == 0) {
        any_unnamed = true;
      } else if (const auto n = detail::numeric_name(fn.value_name(v))) {
        next = std::max(next, *n + 1);
      } else if (fn.value_name(v).find('#') != std::string_view::npos && !in_pack(v)) {
        any_unnamed = true;  // `%r#1` outside its pack (a rewrite took the name over): printed as `%N`
        number_[v] = 0;
      }
    }
    if (any_unnamed)
      for (ValueId v = 0; v < fn.values.size(); ++v)
        if (fn.values[v].name_size == 0 || number_[v] == 0) number_[v] = next++;
    // Unnamed blocks get `^bbN` with the least N no source label `^bbN` has taken;
    // only labels of that form can collide, so no set of every label is built.
    block_number_.assign(fn.blocks.size(), no_index);
    std::vector<bool> taken;  // by N: a source label is `bbN`
    bool any_unnamed_block = false;
    for (BlockId b = 0; b < fn.blocks.size(); ++b) {
      if (fn.blocks[b].name_size == 0) {
        any_unnamed_block = true;
        continue;
      }
      const std::string_view label = fn.block_name(b);
      if (label.size() < 3 || label.substr(0, 2) != "bb") continue;
      if (const auto n = detail::numeric_name(label.substr(2)); n && *n <= fn.blocks.size()) {
        if (taken.size() <= *n) taken.resize(*n + 1, false);
        taken[*n] = true;
      }
    }
    if (any_unnamed_block) {
      std::uint32_t counter = 0;
      for (BlockId b = 0; b < fn.blocks.size(); ++b) {
        if (fn.blocks[b].name_size != 0) continue;
        while (counter < taken.size() && taken[counter]) ++counter;
        block_number_[b] = counter++;
      }
    }
  }

  /// Appends `%name` of `value` to `out`.
  void append_value(std::string& out, ValueId value) const {
    out.push_back('%');
    if (number_[value] == no_index) {
      out.append(fn_->value_name(value));
    } else {
      detail::append_decimal(out, number_[value]);
    }
  }
  /// Appends the name of the results of `op` from result `first` on that one name
  /// binds: `%r:2` for the pack `%r#0`, `%r#1`, else `%name` of that one result.
  /// Returns how many results it named.
  std::uint32_t append_result_group(std::string& out, OpId op, std::uint32_t first) const {
    const OpData& o = fn_->ops[op];
    const ValueId v = o.result_begin + first;
    const std::string_view name = fn_->value_name(v);
    if (number_[v] != no_index || name.size() < 2 || name[name.size() - 2] != '#' || name.back() != '0') {
      append_value(out, v);
      return 1;
    }
    const std::string_view base = name.substr(0, name.size() - 2);
    std::uint32_t count = 1;
    while (first + count < o.result_count && number_[v + count] == no_index &&
           is_pack_member(fn_->value_name(v + count), base, count))
      ++count;
    out.push_back('%');
    out.append(base).push_back(':');
    detail::append_decimal(out, count);
    return count;
  }
  /// `%name` of `value`.
  [[nodiscard]] std::string value(ValueId value) const {
    std::string out;
    append_value(out, value);
    return out;
  }
  /// Appends `^label` of `block` to `out`.
  void append_block(std::string& out, BlockId block) const {
    out.push_back('^');
    if (block_number_[block] == no_index) {
      out.append(fn_->block_name(block));
    } else {
      out.append("bb");
      detail::append_decimal(out, block_number_[block]);
    }
  }
  /// `^label` of `block`.
  [[nodiscard]] std::string block(BlockId block) const {
    std::string out;
    append_block(out, block);
    return out;
  }

 private:
  /// Whether `name` is `<base>#<index>`.
  [[nodiscard]] static bool is_pack_member(std::string_view name, std::string_view base, std::uint32_t index) {
    if (name.size() <= base.size() + 1 || name.substr(0, base.size()) != base || name[base.size()] != '#')
      return false;
    const auto n = detail::numeric_name(name.substr(base.size() + 1));
    return n && *n == index;
  }
  /// Whether `v`, named `<base>#<k>`, is result k of a run of its op's results named
  /// `<base>#0` .. `<base>#<k>` (a pack as parsed, which prints back as `%base:N`).
  [[nodiscard]] bool in_pack(ValueId v) const {
    const ValueData& value = fn_->values[v];
    const std::string_view name = fn_->value_name(v);
    const std::size_t hash = name.rfind('#');
    const auto k = detail::numeric_name(name.substr(hash + 1));
    if (value.is_block_argument || !k || *k > value.position) return false;
    const std::string_view base = name.substr(0, hash);
    for (std::uint32_t i = 0; i <= *k; ++i)
      if (!is_pack_member(fn_->value_name(v - *k + i), base, i)) return false;
    return true;
  }

  const Function* fn_;
  BodyArray<std::uint32_t> number_;          // by value: its `%N`, or no_index to print its source name
  std::vector<std::uint32_t> block_number_;  // by block: its `^bbN`, or no_index to print its label
};

/// How much text `print_function` gathers before it calls its `drain`.
inline constexpr std::size_t print_drain_bytes = std::size_t{1} << 20;

/// The printer and the API offered to dialect print hooks.
class OpAsmPrinter {
 public:
  /// Called with the text printed so far once it holds `print_drain_bytes` (see `set_drain`).
  using DrainFunction = void (*)(void* context, std::string& out);
  /// Prints into `out` using the names of `namer` and the types of `registry`.
  OpAsmPrinter(std::string& out, const ValueNamer& namer, const OpRegistry& registry)
      : out_(&out), namer_(&namer), registry_(&registry) {}

  /// Appends raw text.
  OpAsmPrinter& operator<<(std::string_view text) {
    out_->append(text);
    return *this;
  }
  /// Appends `%name` of `value`.
  void print_operand(ValueId value) { namer_->append_value(*out_, value); }
  /// Appends `%a, %b, ...`.
  void print_operands(std::span<const ValueId> values) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i) out_->append(", ");
      print_operand(values[i]);
    }
  }
  /// Appends the spelling of `type`.
  void print_type(Type type) {
    if (type.is_integer()) {
      out_->push_back('i');
      print_unsigned(type.width());
    } else if (type.is_index()) {
      out_->append("index");
    } else {
      out_->append(registry_->type_name(type));
    }
  }
  /// Appends `T1, T2, ...`.
  void print_types(std::span<const Type> types) {
    for (std::size_t i = 0; i < types.size(); ++i) {
      if (i) out_->append(", ");
      print_type(types[i]);
    }
  }
  /// Appends `n` in decimal.
  void print_unsigned(std::uint64_t n) { detail::append_decimal(*out_, n); }
  /// Appends `n` in signed decimal.
  void print_signed(std::int64_t n) { detail::append_decimal(*out_, n); }
  /// Appends `T1, T2, ...`, the types of `count` consecutive values from `first` (an op's
  /// results, a block's arguments).
  void print_types_of(const Function& fn, ValueId first, std::uint32_t count) {
    for (std::uint32_t i = 0; i < count; ++i) {
      if (i) *this << ", ";
      print_type(fn.values[first + i].type);
    }
  }
  /// Appends `T1, T2, ...`, the types of `values`.
  void print_types_of(const Function& fn, std::span<const ValueId> values) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i) *this << ", ";
      print_type(fn.values[values[i]].type);
    }
  }
  /// Prints the result types of `op` as a function type's: `T`, `(T1, T2)` or `()`.
  void print_result_types(const Function& fn, OpId op) {
    const OpData& o = fn.ops[op];
    if (o.result_count == 1 && !fn.values[o.result_begin].type.is_function()) {  // `-> ((T) -> R)` stays parenthesized
      print_type(fn.values[o.result_begin].type);
      return;
    }
    *this << "(";
    print_types_of(fn, o.result_begin, o.result_count);
    *this << ")";
  }
  /// Appends `%a = %x, %b = %y`: the arguments of `block` from number `first` on, each bound to
  /// one of `values` (`scf.for`'s `iter_args`, `scf.while`'s operands).
  void print_bindings(const Function& fn, BlockId block, std::uint32_t first, std::span<const ValueId> values) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i) *this << ", ";
      print_operand(fn.argument(block, first + static_cast<std::uint32_t>(i)));
      *this << " = ";
      print_operand(values[i]);
    }
  }
  /// Appends ` %a, %b : T1, T2` (nothing for no values): the operands of `return`-like ops.
  void print_values_and_types(const Function& fn, std::span<const ValueId> values) {
    if (values.empty()) return;
    *this << " ";
    print_operands(values);
    *this << " : ";
    print_types_of(fn, values);
  }
  /// After each op line, once the output holds `print_drain_bytes` or more, calls
  /// `drain(context, out)`, which may write the text somewhere and clear it (`print_function`'s
  /// `drain`): a block of a million ops is then printed through a buffer of about a megabyte.
  void set_drain(DrainFunction drain, void* context) {
    drain_ = drain;
    drain_context_ = context;
  }
  /// The indentation, in spaces, of the ops being printed (a region's go 2 deeper).
  [[nodiscard]] int indent() const { return indent_; }
  /// Sets the indentation of the ops printed next.
  void set_indent(int spaces) { indent_ = spaces; }
  /// Appends one line per op of `block` at the current indentation, after a line with its label
  /// (and arguments) when `print_label`; without its terminator when `skip_terminator`.
  void print_block(const Function& fn, BlockId block, bool print_label, bool skip_terminator = false) {
    const BlockData& data = fn.blocks[block];
    if (print_label) {
      out_->append(static_cast<std::size_t>(std::max(indent_ - 2, 0)), ' ');
      namer_->append_block(*out_, block);
      if (data.argument_count) {
        out_->append("(");
        for (std::uint32_t i = 0; i < data.argument_count; ++i) {
          if (i) out_->append(", ");
          print_operand(data.argument_begin + i);
          out_->append(": ");
          print_type(fn.values[data.argument_begin + i].type);
        }
        out_->append(")");
      }
      out_->append(":\n");
    }
    for (const OpId op : fn.ops_of(block)) {
      if (skip_terminator && op == data.last_op) continue;
      out_->append(static_cast<std::size_t>(indent_), ' ');
      print_op(fn, op);
      out_->append("\n");
      if (drain_ != nullptr && out_->size() >= print_drain_bytes) drain_(drain_context_, *out_);
    }
  }
  /// Appends region `r`: `{`, its blocks one step deeper than the op that owns it, and `}` at
  /// the op's indentation. The entry block's label and arguments are printed only with
  /// `print_entry_arguments` (otherwise the op's syntax names them); with
  /// `elide_empty_terminator`, a single block's terminator without operands or attributes is
  /// left out, as MLIR does for an implicit `scf.yield`.
  void print_region(const Function& fn, RegionId r, bool print_entry_arguments, bool elide_empty_terminator) {
    const RegionData& region = fn.regions[r];
    out_->append("{\n");
    const int outer = indent_;
    indent_ += 2;
    for (BlockId b = region.first_block; b < region.first_block + region.block_count; ++b) {
      const OpId last = fn.blocks[b].last_op;
      const bool implicit = elide_empty_terminator && region.block_count == 1 && last != no_index &&
                            fn.ops[last].operand_count == 0 && fn.attributes_of(last).empty();
      print_block(fn, b, b != region.first_block || print_entry_arguments, implicit);
    }
    indent_ = outer;
    out_->append(static_cast<std::size_t>(indent_), ' ');
    out_->append("}");
  }
  /// Appends `^label` or `^label(%a, %b : T1, T2)` for successor `s` of `op`.
  void print_successor(const Function& fn, OpId op, const Successor& s) {
    namer_->append_block(*out_, s.block);
    if (s.operand_count == 0) return;
    out_->push_back('(');
    const auto forwarded = fn.successor_operands(op, s);
    print_operands(forwarded);
    out_->append(" : ");
    for (std::size_t i = 0; i < forwarded.size(); ++i) {
      if (i) out_->append(", ");
      print_type(fn.values[forwarded[i]].type);
    }
    out_->push_back(')');
  }
  /// The names in use.
  [[nodiscard]] const ValueNamer& namer() const { return *namer_; }
  /// The registry in use.
  [[nodiscard]] const OpRegistry& registry() const { return *registry_; }

  /// Prints one op (without indentation or newline).
  void print_op(const Function& fn, OpId op) {
    const OpData& o = fn.ops[op];
    for (std::uint32_t i = 0; i < o.result_count;) {
      if (i) out_->append(", ");
      i += namer_->append_result_group(*out_, op, i);
    }
    if (o.result_count) out_->append(" = ");
    const OpDefinition& def = registry_->op(o.code);
    const bool is_return = is(o.code, BuiltinOp::return_);
    if (def.format == OpFormat::generic) {
      out_->append("\"").append(fn.arena_string(o.imm, o.aux)).append("\"");
    } else {
      out_->append(is_return ? std::string_view("return") : std::string_view(def.name));
    }
    const auto operands = fn.operands_of(op);
    const auto type_of = [&](ValueId v) { return fn.values[v].type; };
    const std::string_view attributes = fn.attributes_of(op);
    const auto print_attributes = [&] {  // ` {...}`, where the op's format puts it
      if (!attributes.empty()) *this << " " << attributes;
    };
    switch (def.format) {
      case OpFormat::binary:
        *this << " ";
        print_operands(operands);
        print_attributes();
        *this << " : ";
        print_type(type_of(o.result_begin));
        return;
      case OpFormat::unary:
        *this << " ";
        print_operands(operands);
        print_attributes();
        *this << " : ";
        print_type(type_of(o.result_begin));
        return;
      case OpFormat::cast_arrow:
      case OpFormat::cast_to:
        *this << " ";
        print_operand(operands[0]);
        print_attributes();
        *this << " : ";
        print_type(type_of(operands[0]));
        *this << (def.format == OpFormat::cast_to ? " to " : " -> ");
        print_type(type_of(o.result_begin));
        return;
      case OpFormat::custom:
        def.print(*this, fn, op);
        return;
      case OpFormat::constant: {
        print_attributes();
        const Type t = type_of(o.result_begin);
        if (t == Type::i1()) {
          *this << ((o.imm & 1) ? " true" : " false");
          return;
        }
        *this << " ";
        print_signed(sign_extend(o.imm, t.width()));
        *this << " : ";
        print_type(t);
        return;
      }
      case OpFormat::compare:
        *this << " " << predicate_name(static_cast<CmpPredicate>(o.imm)) << ", ";
        print_operands(operands);
        print_attributes();
        *this << " : ";
        print_type(type_of(operands[0]));
        return;
      case OpFormat::index_binary:
        *this << " ";
        print_operands(operands);
        print_attributes();
        return;
      case OpFormat::index_compare:
        *this << " " << predicate_name(static_cast<CmpPredicate>(o.imm)) << "(";
        print_operands(operands);
        *this << ")";
        print_attributes();
        return;
      case OpFormat::index_constant:
        *this << " ";
        print_signed(static_cast<std::int64_t>(o.imm));
        print_attributes();
        return;
      case OpFormat::bool_constant:
        *this << ((o.imm & 1) ? " true" : " false");
        print_attributes();
        return;
      case OpFormat::select:
        *this << " ";
        print_operands(operands);
        print_attributes();
        *this << " : ";
        print_type(type_of(o.result_begin));
        return;
      case OpFormat::branch:
      case OpFormat::cond_branch: {
        *this << " ";
        const std::uint32_t regular = fn.regular_operand_count(op);
        for (std::uint32_t i = 0; i < regular; ++i) {
          print_operand(operands[i]);
          *this << ", ";
        }
        const auto succs = fn.successors_of(op);
        for (std::size_t i = 0; i < succs.size(); ++i) {
          if (i) *this << ", ";
          print_successor(fn, op, succs[i]);
        }
        print_attributes();
        return;
      }
      case OpFormat::return_op:
      case OpFormat::scf_yield:
        print_attributes();
        print_values_and_types(fn, operands);
        return;
      case OpFormat::scf_condition:
        *this << "(";
        print_operand(operands[0]);
        *this << ")";
        print_attributes();
        print_values_and_types(fn, operands.subspan(1));
        return;
      case OpFormat::scf_if: {
        *this << " ";
        print_operand(operands[0]);
        if (o.result_count) {
          *this << " -> (";
          print_types_of(fn, o.result_begin, o.result_count);
          *this << ")";
        }
        const auto [first, last] = fn.regions_of(op);
        for (RegionId r = first; r < last; ++r) {
          *this << (r == first ? " " : " else ");
          print_region(fn, r, false, o.result_count == 0);
        }
        print_attributes();
        return;
      }
      case OpFormat::scf_for: {
        const RegionId body = fn.regions_of(op).first;
        const BlockId entry = fn.regions[body].first_block;
        *this << " ";
        print_operand(fn.argument(entry, 0));
        *this << " = ";
        print_operand(operands[0]);
        *this << " to ";
        print_operand(operands[1]);
        *this << " step ";
        print_operand(operands[2]);
        if (o.result_count) {
          *this << " iter_args(";
          print_bindings(fn, entry, 1, operands.subspan(3));
          *this << ") -> (";
          print_types_of(fn, o.result_begin, o.result_count);
          *this << ")";
        }
        if (!type_of(operands[0]).is_index()) {
          *this << " : ";
          print_type(type_of(operands[0]));
        }
        *this << " ";
        print_region(fn, body, false, o.result_count == 0);
        print_attributes();
        return;
      }
      case OpFormat::scf_while: {
        const RegionId before = fn.regions_of(op).first;
        const BlockId entry = fn.regions[before].first_block;
        *this << " (";
        print_bindings(fn, entry, 0, operands);
        *this << ") : (";
        print_types_of(fn, operands);
        *this << ") -> ";
        print_result_types(fn, op);
        *this << " ";
        print_region(fn, before, false, false);
        *this << " do ";
        print_region(fn, before + 1, true, false);
        if (!attributes.empty()) *this << " attributes " << attributes;
        return;
      }
      case OpFormat::generic: {
        const std::uint32_t regular = fn.regular_operand_count(op);
        *this << "(";
        print_operands(operands.subspan(0, regular));
        *this << ")";
        const auto succs = fn.successors_of(op);
        if (!succs.empty()) {
          *this << " [";
          for (std::size_t i = 0; i < succs.size(); ++i) {
            if (i) *this << ", ";
            print_successor(fn, op, succs[i]);
          }
          *this << "]";
        }
        print_attributes();
        *this << " : (";
        print_types_of(fn, operands.subspan(0, regular));
        *this << ") -> ";
        print_result_types(fn, op);
        return;
      }
      case OpFormat::call: {
        *this << " @" << fn.arena_string(o.imm, o.aux) << "(";
        print_operands(operands);
        *this << ")";
        print_attributes();
        *this << " : (";
        print_types_of(fn, operands);
        *this << ") -> ";
        print_result_types(fn, op);
        return;
      }
      case OpFormat::call_indirect: {
        *this << " ";
        print_operand(operands[0]);
        *this << "(";
        print_operands(operands.subspan(1));
        *this << ")";
        print_attributes();
        *this << " : ";
        print_type(type_of(operands[0]));
        return;
      }
      case OpFormat::function_constant:
        print_attributes();
        *this << " @" << fn.arena_string(o.imm, o.aux) << " : ";
        print_type(type_of(o.result_begin));
        return;
    }
  }

 private:
  std::string* out_;
  const ValueNamer* namer_;
  const OpRegistry* registry_;
  int indent_ = 4;
  DrainFunction drain_ = nullptr;
  void* drain_context_ = nullptr;
};

/// The default of `print_function`'s `drain`: keeps the whole text in `out`.
struct KeepText {
  /// Does nothing.
  void operator()(std::string&) const noexcept {}
};

/// Appends function `fn` (indented by `indent` spaces) to `out`. After each
/// op line, if `out` holds `print_drain_bytes` or more, calls `drain(out)`,
/// which may write the text somewhere and clear `out`: printing a function of
/// millions of ops, even in one block, then needs a buffer of about a
/// megabyte, not its whole text.
template <class Drain = KeepText>
void print_function(const Function& fn, const OpRegistry& registry, std::string& out, int indent = 2,
                    Drain drain = {}) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  const ValueNamer namer(fn);
  OpAsmPrinter printer(out, namer, registry);
  if constexpr (!std::is_same_v<Drain, KeepText>)
    printer.set_drain([](void* context, std::string& text) { (*static_cast<Drain*>(context))(text); }, &drain);
  out += pad;
  out += "func.func ";
  if (fn.visibility == Visibility::private_) out += "private ";
  if (fn.visibility == Visibility::nested) out += "nested ";
  out += "@";
  out += fn.name;
  out += "(";
  const bool named = !fn.is_declaration();
  for (std::size_t i = 0; i < fn.argument_types.size(); ++i) {
    if (i) out += ", ";
    if (named) {
      printer.print_operand(fn.argument(0, static_cast<std::uint32_t>(i)));
      out += ": ";
    }
    printer.print_type(fn.argument_types[i]);
  }
  out += ")";
  if (!fn.result_types.empty()) {
    out += " -> ";
    if (fn.result_types.size() == 1 && !fn.result_types[0].is_function()) {
      printer.print_type(fn.result_types[0]);
    } else {
      out += "(";
      printer.print_types(fn.result_types);
      out += ")";
    }
  }
  if (!fn.attributes.empty()) {
    out += " attributes ";
    out += fn.attributes;
  }
  if (fn.is_declaration()) {
    out += "\n";
    return;
  }
  out += " {\n";
  printer.set_indent(indent + 2);
  for (BlockId b = 0; b < fn.body_block_count(); ++b) printer.print_block(fn, b, b != 0);
  out += pad;
  out += "}\n";
}

/// Appends the opening line of a module: `module @name attributes {...} {` and a newline.
inline void print_module_header(std::string_view name, std::string_view attributes, std::string& out) {
  out += "module ";
  if (!name.empty()) {
    out += "@";
    out += name;
    out += " ";
  }
  if (!attributes.empty()) {
    out += "attributes ";
    out += attributes;
    out += " ";
  }
  out += "{\n";
}

/// Appends the opening line of `module` (`module @name attributes {...} {` and a newline).
inline void print_module_header(const Module& module, std::string& out) {
  print_module_header(module.name, module.attributes, out);
}

/// Appends `module` to `out` as `module { ... }`: its functions, nested modules and, between
/// them, its module-level unregistered ops, in the order they were written. `drain` as for
/// `print_function`.
template <class Drain = KeepText>
void print_module(const Module& module, std::string& out, Drain drain = {}) {
  print_module_header(module, out);
  std::size_t indent = 2;
  struct Printer {
    const Module& module;
    std::string& out;
    Drain& drain;
    std::size_t& indent;
    void open(std::uint32_t m) {
      out.append(indent, ' ');
      print_module_header(module.nested_modules[m].name, module.nested_modules[m].attributes, out);
      indent += 2;
    }
    void close(std::uint32_t) {
      indent -= 2;
      out.append(indent, ' ');
      out += "}\n";
    }
    void function(std::uint32_t f) {
      print_function(module.functions[f], *module.registry, out, static_cast<int>(indent), drain);
    }
    void opaque_op(std::uint32_t i) {
      const ModuleLevelOp& op = module.opaque_ops[i];
      out.append(indent, ' ');
      out += "\"";
      out += op.name;
      out += "\"() ";
      if (!op.attributes.empty()) {
        out += op.attributes;
        out += " ";
      }
      out += ": () -> ()\n";
    }
  };
  walk_module(module, Printer{module, out, drain, indent});
  out += "}\n";
}

/// `module` as text.
[[nodiscard]] inline std::string print_module(const Module& module) {
  std::string out;
  print_module(module, out);
  return out;
}

/// One op as text, with the names of `namer` (build the namer once per function).
[[nodiscard]] inline std::string print_op(const Function& fn, OpId op, const OpRegistry& registry,
                                          const ValueNamer& namer) {
  std::string out;
  OpAsmPrinter printer(out, namer, registry);
  printer.print_op(fn, op);
  return out;
}

/// One op as text, with the names its function would print (O(function size): for one-off messages).
[[nodiscard]] inline std::string print_op(const Function& fn, OpId op, const OpRegistry& registry) {
  return print_op(fn, op, registry, ValueNamer(fn));
}

}  // namespace kildall::ir
