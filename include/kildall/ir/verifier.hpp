#pragma once
/// \file
/// The verifier: the structural and type rules MLIR checks after parsing.
/// Terminators end every block and appear nowhere else; branches pass as many
/// operands, of the right types, as their target blocks take; the entry block
/// has no predecessors; returns and calls match the signatures (a call's
/// callee is looked up in the symbol table of its function's module,
/// symbol_table.hpp; `func.call_indirect` and `func.constant` agree with
/// their function types); `arith` ops
/// get integer types and casts change the width in the right direction; dialect
/// ops run their own `verify` hook; and every use is dominated by its
/// definition (dominators by Cooper-Harvey-Kennedy, kildall/graph/dominators.hpp; as in
/// MLIR, uses inside unreachable blocks are not checked). The first violation
/// throws `IrError` at the offending op's location.

#include <cstdint>
#include <string>
#include <vector>

#include <kildall/ir/arith.hpp>
#include <kildall/graph/dominators.hpp>
#include <kildall/graph/successor_list.hpp>
#include <kildall/ir/cfg_view.hpp>
#include <kildall/ir/diagnostics.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/parser.hpp>
#include <kildall/ir/symbol_table.hpp>

namespace kildall::ir {

namespace detail {

/// `@name` of nested module `m`, or "(unnamed)", for messages.
[[nodiscard]] inline std::string nested_module_name(const Module& module, std::uint32_t m) {
  const std::string& name = module.nested_modules[m].name;
  return name.empty() ? std::string("(unnamed)") : "'@" + name + "'";
}

/// Verifies one function; `symbols` resolves the functions its ops name.
inline void verify_function(const Module& module, const Function& fn, const SymbolTables& symbols) {
  const OpRegistry& registry = *module.registry;
  const auto fail = [&](SourceLoc loc, std::string message) {
    throw IrError(Diagnostic{module.source_name, loc, std::move(message)});
  };
  // Not `"'" + name`: GCC 12 at -O3 warns falsely on it (-Wrestrict, GCC PR 105329).
  const auto type_name = [&](Type t) { return std::string("'").append(registry.type_name(t)).append("'"); };
  const auto op_fail = [&](OpId op, const std::string& message) {
    fail(fn.ops[op].loc, "'" + std::string(op_name(fn, op, registry)) + "' op " + message);
  };
  if (fn.is_declaration()) {
    if (fn.visibility == Visibility::public_) fail(fn.loc, "a function declaration (no body) must be 'private' or 'nested'");
    return;
  }
  // Position of each op within its block, for same-block dominance.
  BodyArray<std::uint32_t> position(fn.ops.size(), 0);
  for (BlockId b = 0; b < fn.blocks.size(); ++b) {
    const BlockData& block = fn.blocks[b];
    if (fn.in_erased_region(b)) continue;  // emptied with the op that owned it
    if (block.last_op == no_index) fail(block.loc, "block with no terminator");
    std::uint32_t index = 0;
    for (const OpId op : fn.ops_of(b)) {
      position[op] = index++;
      const OpDefinition& def = registry.op(fn.ops[op].code);
      if ((def.terminator || fn.ops[op].successor_count) && op != block.last_op)
        op_fail(op, "must be the last operation in its block");
      if (!def.terminator && !def.may_terminate && op == block.last_op) fail(fn.ops[op].loc, "block with no terminator");
    }
  }
  // Per-op rules.
  for (OpId op = 0; op < fn.ops.size(); ++op) {
    const OpData& o = fn.ops[op];
    if (o.erased) continue;
    const auto operands = fn.operands_of(op);
    const auto type_of = [&](ValueId v) { return fn.values[v].type; };
    for (const Successor& s : fn.successors_of(op)) {
      const BlockData& target = fn.blocks[s.block];
      const auto label = [&] { return "'^" + std::string(fn.block_name(s.block)) + "'"; };  // for messages only
      if (s.block == 0) op_fail(op, "branches to the entry block, which cannot have predecessors");
      if (!fn.regions.empty()) {
        const RegionId region = fn.region_of(o.block);
        if (fn.region_of(s.block) != region) op_fail(op, "branches to " + label() + " in another region");
        if (s.block == fn.regions[region].first_block)
          op_fail(op, "branches to the entry block of its region, which cannot have predecessors");
      }
      // An unregistered op may pass nothing to a block with arguments: what it passes is unknown
      // anyway (FunctionShape makes such arguments unknown), as MLIR does not verify such an op.
      const bool opaque_passes_nothing = s.operand_count == 0 && is(o.code, BuiltinOp::unregistered);
      if (s.operand_count != target.argument_count && !opaque_passes_nothing)
        op_fail(op, "passes " + std::to_string(s.operand_count) + " operand(s) to " + label() + ", which takes " +
                        std::to_string(target.argument_count) + " argument(s)");
      for (std::uint32_t i = 0; i < s.operand_count; ++i) {
        const Type passed = type_of(operands[s.operand_begin + i]);
        const Type expected = fn.values[target.argument_begin + i].type;
        if (passed != expected)
          op_fail(op, "passes " + type_name(passed) + " as argument #" + std::to_string(i) + " of " + label() +
                          ", which has type " + type_name(expected));
      }
    }
    // An op's own rules are its record's `verify` (below); returns and calls check the
    // function's signature and the module's symbols.
    const OpDefinition& def = registry.op(o.code);
    if (is(o.code, BuiltinOp::return_)) {
      if (fn.parent_op(o.block) != no_index) op_fail(op, "expects parent op 'func.func'");
      if (operands.size() != fn.result_types.size())
        op_fail(op, "has " + std::to_string(operands.size()) + " operand(s), but the function returns " +
                        std::to_string(fn.result_types.size()) + " value(s)");
      for (std::size_t i = 0; i < operands.size(); ++i)
        if (type_of(operands[i]) != fn.result_types[i])
          op_fail(op, "operand #" + std::to_string(i) + " has type " + type_name(type_of(operands[i])) +
                          ", but the function returns " + type_name(fn.result_types[i]));
    } else if (def.names_function || def.calls != CallKind::none) {
      // A call agrees with the signature of its callee: the function it names (looked up in the
      // symbol table of this function's module), or the function type of its operand 0; a
      // `func.constant`'s type is its function's signature.
      FunctionSignature signature;
      std::string callee;  // for messages: '@f', or the callee operand's type
      if (def.names_function) {
        const auto name = fn.arena_string(o.imm, o.aux);
        const auto f = symbols.function(fn.parent_module, name);
        if (!f)
          op_fail(op, std::string(def.calls == CallKind::none ? "names" : "calls") + " undefined function " +
                          quote_source("@" + std::string(name)) +
                          (fn.parent_module == no_index
                               ? std::string()
                               : " (not in the symbol table of module " + nested_module_name(module, fn.parent_module) + ")"));
        const Function& target = module.functions[*f];
        signature = {target.argument_types, target.result_types};
        callee = "'@" + target.name + "'";
        if (def.calls == CallKind::none && type_of(o.result_begin) != registry.function_type(signature))
          op_fail(op, "has type " + type_name(type_of(o.result_begin)) + ", but " + callee + " has type " +
                          type_name(registry.function_type(signature)));
      } else {
        if (operands.empty() || !type_of(operands[0]).is_function()) op_fail(op, "calls a value that is not a function");
        signature = registry.signature(type_of(operands[0]));
        callee = "its callee of type " + type_name(type_of(operands[0]));
      }
      if (def.calls != CallKind::none) {
        const auto arguments = def.calls == CallKind::value ? operands.subspan(1) : operands;
        if (arguments.size() != signature.inputs.size())
          op_fail(op, "passes " + std::to_string(arguments.size()) + " operand(s), but " + callee + " takes " +
                          std::to_string(signature.inputs.size()));
        for (std::size_t i = 0; i < arguments.size(); ++i)
          if (type_of(arguments[i]) != signature.inputs[i])
            op_fail(op, "operand #" + std::to_string(i) + " has type " + type_name(type_of(arguments[i])) + ", but " +
                            callee + " expects " + type_name(signature.inputs[i]));
        if (o.result_count != signature.results.size())
          op_fail(op, "has " + std::to_string(o.result_count) + " result(s), but " + callee + " returns " +
                          std::to_string(signature.results.size()));
        for (std::uint32_t i = 0; i < o.result_count; ++i)
          if (type_of(o.result_begin + i) != signature.results[i])
            op_fail(op, "result #" + std::to_string(i) + " has type " + type_name(type_of(o.result_begin + i)) +
                            ", but " + callee + " returns " + type_name(signature.results[i]));
      }
    }
    if (const VerifyHook& hook = def.verify) {
      if (auto message = hook(fn, op, registry)) op_fail(op, *message);
    }
  }
  // Dominance. Without regions: over the CFG from the entry block. With regions, the blocks of
  // each region dominate only within it (one tree over a virtual root branching to every
  // region's entry), and a use inside a region sees a value of an enclosing region when the
  // value dominates the op that owns the region, as in MLIR.
  const auto check = [&](const auto& dominators) {
    for (BlockId b = 0; b < fn.blocks.size(); ++b) {
      if (!dominators.is_reachable(b)) continue;
      for (const OpId op : fn.ops_of(b)) {
        const auto operands = fn.operands_of(op);
        for (std::size_t i = 0; i < operands.size(); ++i) {
          const ValueId v = operands[i];
          const ValueData& value = fn.values[v];
          const BlockId def_block = fn.defining_block(v);
          BlockId use_block = b;
          OpId user = op;
          if (!fn.regions.empty()) {
            const RegionId def_region = fn.region_of(def_block);
            while (user != no_index && fn.region_of(use_block) != def_region) {
              user = fn.parent_op(use_block);
              if (user != no_index) use_block = fn.ops[user].block;
            }
            if (user == no_index)
              op_fail(op, "operand #" + std::to_string(i) + " ('%" + std::string(fn.value_name(v)) +
                              "') is defined in a region that does not enclose this use");
          }
          if (!dominators.is_reachable(use_block)) continue;  // inside a region of an unreachable block
          const bool ok = def_block == use_block
                              ? (value.is_block_argument || position[value.owner] < position[user])
                              : dominators.dominates(def_block, use_block);
          if (!ok)
            op_fail(op, "operand #" + std::to_string(i) + " ('%" + std::string(fn.value_name(v)) +
                            "') does not dominate this use");
        }
      }
    }
  };
  if (fn.regions.empty()) {
    const CfgView cfg(fn);
    check(kildall::dominator_tree(cfg, CfgView::entry()));
    return;
  }
  const std::size_t root = fn.blocks.size();
  const auto graph = kildall::successor_list_graph(root + 1, [&](std::size_t v) {
    std::vector<std::size_t> targets;
    if (v == root) {
      for (const RegionData& region : fn.regions) targets.push_back(region.first_block);
    } else {
      const OpId terminator = fn.blocks[v].last_op;  // the branches within v's region
      if (terminator != no_index)
        for (const Successor& succ : fn.successors_of(terminator)) targets.push_back(succ.block);
    }
    return targets;
  });
  check(kildall::dominator_tree(graph, root));
}

}  // namespace detail

/// Verifies `module`; throws `IrError` at the first violation.
inline void verify(const Module& module) {
  const SymbolTables symbols(module);
  for (const Function& fn : module.functions) detail::verify_function(module, fn, symbols);
}

/// Parses and verifies `source` (see `parse_module` and `verify`).
[[nodiscard]] inline Module parse_and_verify(std::string_view source, const OpRegistry& registry,
                                             std::string file = "<input>", const ParseOptions& options = {}) {
  Module module = parse_module(source, registry, std::move(file), options);
  verify(module);
  return module;
}

}  // namespace kildall::ir
