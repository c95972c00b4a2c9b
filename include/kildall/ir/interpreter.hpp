#pragma once
/// \file
/// A reference interpreter: every op that is not control flow runs its
/// record's `eval` (op_definition.hpp; the built-ins' exact wrapping integer
/// semantics of arith.hpp, a dialect's own); branches, returns and calls
/// move between blocks and frames. Calls use an
/// explicit frame stack (no C++ recursion, so deep recursion in the program
/// cannot overflow the host stack), and a step budget turns non-terminating
/// programs into a reported status. Undefined behaviour (division by zero,
/// signed overflow of `divsi`/`remsi`, over-wide shifts, a dialect op's own
/// undefined cases) stops execution with a status and the op's location; it
/// is never executed. An optional observer sees every value as it is
/// defined and every block as it is entered: the oracle that the analyses'
/// tests compare against.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kildall/ir/arith.hpp>
#include <kildall/ir/function_regions.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/symbol_table.hpp>

namespace kildall::ir {

/// How an execution ended.
enum class ExecStatus : std::uint8_t {
  returned,            ///< The function returned; `results` holds the values.
  undefined_behavior,  ///< An op's behaviour was undefined; `message` and `loc` say which.
  step_limit,          ///< The step budget ran out (e.g. an infinite loop).
  error,               ///< Bad request or an op without semantics (call to a declaration, ...).
};

/// The outcome of one execution.
struct ExecResult {
  ExecStatus status = ExecStatus::returned;  ///< How it ended.
  std::vector<std::uint64_t> results;        ///< Returned bit patterns (when `returned`).
  std::string message;                       ///< Why it stopped otherwise.
  SourceLoc loc;                             ///< The op that stopped it.
  std::uint64_t steps = 0;                   ///< Ops executed.
};

/// Interpreter options.
struct InterpreterOptions {
  std::uint64_t max_steps = 1'000'000;  ///< Step budget (ops executed).
  /// Called for every value defined (function index, value, bits); may be empty.
  std::function<void(std::uint32_t, ValueId, std::uint64_t)> on_value;
  /// Called for every block entered (function index, block); may be empty.
  std::function<void(std::uint32_t, BlockId)> on_block;
};

/// Executes functions of one module (which must be verified and outlive the interpreter).
class Interpreter {
 public:
  /// Prepares to run functions of `module`.
  explicit Interpreter(const Module& module)
      : module_(&module), registry_(module.registry), symbols_(module), callee_(functions_named_by_ops(module, symbols_)) {}

  /// Runs function `name` on `arguments` (bit patterns; integer arguments are truncated to their
  /// width): a function of the top-level module (`f`), or of a nested one (`m::@f`, `m::f`).
  [[nodiscard]] ExecResult run(std::string_view name, std::span<const std::uint64_t> arguments,
                               const InterpreterOptions& options = {}) const {
    std::vector<std::string_view> path;
    for (std::string_view rest = name;;) {
      const std::size_t cut = rest.find("::");
      std::string_view part = rest.substr(0, cut);
      if (!part.empty() && part.front() == '@') part.remove_prefix(1);
      path.push_back(part);
      if (cut == std::string_view::npos) break;
      rest.remove_prefix(cut + 2);
    }
    const auto symbol = symbols_.resolve(SymbolTables::top, path);
    if (!symbol || symbol->kind != Symbol::Kind::function)
      return fail(ExecStatus::error, "no function '@" + std::string(name) + "'", {});
    return run(symbol->index, arguments, options);
  }

  /// Runs function number `function` on `arguments`.
  [[nodiscard]] ExecResult run(std::uint32_t function, std::span<const std::uint64_t> arguments,
                               const InterpreterOptions& options = {}) const {
    const Function& entry = module_->functions[function];
    if (arguments.size() != entry.argument_types.size())
      return fail(ExecStatus::error, "wrong number of arguments for '@" + entry.name + "'", entry.loc);
    std::vector<Frame> stack;
    std::vector<std::uint64_t> scratch, results, out;
    ExecResult outcome;
    if (!push_frame(stack, function, arguments, options, outcome)) return outcome;
    while (true) {
      Frame& frame = stack.back();
      const Function& fn = module_->functions[frame.function];
      const OpData& o = fn.ops[frame.op];
      if (++outcome.steps > options.max_steps) {
        outcome.status = ExecStatus::step_limit;
        outcome.message = "step limit of " + std::to_string(options.max_steps) + " exceeded";
        outcome.loc = o.loc;
        return outcome;
      }
      auto& regs = frame.registers;
      const auto operands = fn.operands_of(frame.op);
      const auto set = [&](ValueId v, std::uint64_t bits) {
        regs[v] = bits;
        if (options.on_value) options.on_value(frame.function, v, bits);
      };
      const OpCode code = o.code;
      // Control flow is structure (successors, frames); everything else is its record's `eval`.
      if (is(code, BuiltinOp::br) || is(code, BuiltinOp::cond_br)) {
        std::uint32_t taken = 0;
        if (is(code, BuiltinOp::cond_br)) taken = regs[operands[0]] ? 0 : 1;
        const Successor& s = fn.successors[o.successor_begin + taken];
        enter_block(frame, fn, s, scratch, options);
        continue;
      }
      if (is(code, BuiltinOp::return_)) {
        results.clear();
        for (const ValueId v : operands) results.push_back(regs[v]);
        stack.pop_back();
        if (stack.empty()) {
          outcome.status = ExecStatus::returned;
          outcome.results = results;
          return outcome;
        }
        Frame& caller = stack.back();
        const Function& caller_fn = module_->functions[caller.function];
        const OpData& call = caller_fn.ops[caller.op];
        for (std::uint32_t i = 0; i < call.result_count; ++i) {
          caller.registers[call.result_begin + i] = results[i];
          if (options.on_value) options.on_value(caller.function, call.result_begin + i, results[i]);
        }
        caller.op = call.next;
        continue;
      }
      const OpDefinition& def = registry_->op(code);
      // A call runs its callee in a new frame: the function it names, or (indirect) the one its
      // operand 0 holds. A function value is the function's index in the module, which an op
      // naming a function without calling it (`func.constant`) produces.
      if (def.calls != CallKind::none) {
        const bool indirect = def.calls == CallKind::value;
        const std::uint64_t callee = indirect ? regs[operands[0]] : callee_[frame.function][frame.op];
        if (callee >= module_->functions.size() || module_->functions[callee].is_declaration())
          return fail(ExecStatus::error, "call to a function without body", o.loc, outcome.steps);
        if (indirect && !agrees(fn, frame.op, module_->functions[callee]))  // a function value not made by `func.constant`
          return fail(ExecStatus::error, "indirect call to a function of another type", o.loc, outcome.steps);
        scratch.clear();
        for (const ValueId v : operands.subspan(indirect ? 1 : 0)) scratch.push_back(regs[v]);
        const std::vector<std::uint64_t> arguments_copy = scratch;
        if (!push_frame(stack, static_cast<std::uint32_t>(callee), arguments_copy, options, outcome)) return outcome;
        continue;  // `frame` may dangle now; the loop re-reads the top.
      }
      if (def.names_function) {
        set(o.result_begin, callee_[frame.function][frame.op]);
        frame.op = o.next;
        continue;
      }
      // Regions: an op owning them enters one (or skips to its results), and a region's
      // terminator goes where its parent's flow says, read as the CFG view reads it
      // (`FunctionRegions`, function_regions.hpp): a loop by its induction variable, others by the arms.
      if (!fn.regions.empty() && (def.region_flow.described() || def.terminator)) {
        const FunctionRegions regions(fn, *registry_);
        const bool owner = def.region_flow.described();
        const auto flow = owner ? regions.region_entry(frame.op) : regions.region_exit(frame.op);
        if (!flow.successors.empty()) {
          const std::span<const ValueId> bounds = regions.induction_bounds(flow.owner);
          std::optional<RegionBranch<ValueId>> next;
          std::optional<std::uint64_t> iv;
          if (bounds.empty()) {
            next = choose(flow.successors, flow.deciding, regs);
          } else if (owner) {  // a loop: enter while the induction variable is below the bound
            iv = regs[bounds[0]];
            next = pick(flow.successors, signed_less(fn, bounds[0], *iv, regs[bounds[1]]));
          } else {  // the loop's next iteration, or its end
            const ValueId iv_value = fn.argument(fn.regions[fn.region_of(o.block)].first_block, 0);
            iv = (regs[iv_value] + regs[bounds[2]]) & width_mask(fn.values[iv_value].type.width());
            next = pick(flow.successors, signed_less(fn, iv_value, *iv, regs[bounds[1]]));
          }
          if (!next) return fail(ExecStatus::error, "no region successor to take", o.loc, outcome.steps);
          take(frame, fn, flow.owner, *next, iv, scratch, options);
          continue;
        }
      }
      if (!def.eval) return fail(ExecStatus::error, "no interpreter semantics for '" + std::string(op_name(fn, frame.op, *registry_)) + "'", o.loc, outcome.steps);
      if (def.terminator) return fail(ExecStatus::error, "dialect terminators cannot be interpreted", o.loc, outcome.steps);
      scratch.clear();
      for (const ValueId v : operands) scratch.push_back(regs[v]);
      out.assign(o.result_count, 0);
      EvalStatus status = def.eval(fn, frame.op, scratch, out);
      if (!status.ok) return fail(ExecStatus::undefined_behavior, std::move(status.message), o.loc, outcome.steps);
      for (std::uint32_t i = 0; i < o.result_count; ++i) set(o.result_begin + i, out[i]);
      frame.op = o.next;
    }
  }

 private:
  struct Frame {
    std::uint32_t function = 0;
    OpId op = no_index;
    std::vector<std::uint64_t> registers;
  };

  static ExecResult fail(ExecStatus status, std::string message, SourceLoc loc, std::uint64_t steps = 0) {
    ExecResult r;
    r.status = status;
    r.message = std::move(message);
    r.loc = loc;
    r.steps = steps;
    return r;
  }

  /// Whether `callee`'s signature is what indirect call `op` of `fn` passes and expects.
  static bool agrees(const Function& fn, OpId op, const Function& callee) {
    const auto arguments = fn.operands_of(op).subspan(1);
    const OpData& o = fn.ops[op];
    if (arguments.size() != callee.argument_types.size() || o.result_count != callee.result_types.size()) return false;
    for (std::size_t i = 0; i < arguments.size(); ++i)
      if (fn.values[arguments[i]].type != callee.argument_types[i]) return false;
    for (std::uint32_t i = 0; i < o.result_count; ++i)
      if (fn.values[o.result_begin + i].type != callee.result_types[i]) return false;
    return true;
  }

  bool push_frame(std::vector<Frame>& stack, std::uint32_t function, std::span<const std::uint64_t> arguments,
                  const InterpreterOptions& options, ExecResult& outcome) const {
    const Function& fn = module_->functions[function];
    if (fn.is_declaration()) {
      outcome = fail(ExecStatus::error, "'@" + fn.name + "' has no body", fn.loc, outcome.steps);
      return false;
    }
    Frame frame;
    frame.function = function;
    frame.registers.assign(fn.values.size(), 0);
    frame.op = fn.blocks[0].first_op;
    if (options.on_block) options.on_block(function, 0);
    for (std::uint32_t i = 0; i < arguments.size(); ++i) {
      const ValueId v = fn.argument(0, i);
      const unsigned width = fn.values[v].type.width();
      const std::uint64_t bits = width ? arguments[i] & width_mask(width) : arguments[i];
      frame.registers[v] = bits;
      if (options.on_value) options.on_value(function, v, bits);
    }
    stack.push_back(std::move(frame));
    return true;
  }

  void enter_block(Frame& frame, const Function& fn, const Successor& s, std::vector<std::uint64_t>& scratch,
                   const InterpreterOptions& options) const {
    const auto forwarded = fn.successor_operands(frame.op, s);
    scratch.assign(forwarded.size(), 0);
    for (std::size_t i = 0; i < forwarded.size(); ++i) scratch[i] = frame.registers[forwarded[i]];  // parallel copy
    if (options.on_block) options.on_block(frame.function, s.block);
    for (std::uint32_t i = 0; i < scratch.size(); ++i) {
      const ValueId arg = fn.argument(s.block, i);
      frame.registers[arg] = scratch[i];
      if (options.on_value) options.on_value(frame.function, arg, scratch[i]);
    }
    frame.op = fn.blocks[s.block].first_op;
  }

  /// Whether `a` < `b` read as signed values of `like`'s width.
  static bool signed_less(const Function& fn, ValueId like, std::uint64_t a, std::uint64_t b) {
    return evaluate_compare(CmpPredicate::slt, a, b, fn.values[like].type.width());
  }
  /// The successor of `options` entering a region (`enter`), or the one back to the owner's results.
  template <class Successors>
  static std::optional<RegionBranch<ValueId>> pick(const Successors& options, bool enter) {
    for (const RegionBranch<ValueId> s : options)
      if ((s.target != RegionBranch<ValueId>::parent) == enter) return s;
    return std::nullopt;
  }
  /// The successor of `options` whose arm the deciding operand takes (the first if none decides).
  template <class Successors>
  static std::optional<RegionBranch<ValueId>> choose(const Successors& options, std::optional<ValueId> deciding,
                                                     const std::vector<std::uint64_t>& regs) {
    if (options.empty()) return std::nullopt;
    if (!deciding) return options.front();
    const std::int8_t arm = regs[*deciding] != 0 ? 0 : 1;
    for (const RegionBranch<ValueId> s : options)
      if (s.arm < 0 || s.arm == arm) return s;
    return std::nullopt;
  }
  /// Goes to region successor `s` of `owner`: a region's entry block, whose arguments get the
  /// forwarded values (after the induction variable `iv` of a loop's body), or back to `owner`'s
  /// results and the op after it.
  void take(Frame& frame, const Function& fn, OpId owner, const RegionBranch<ValueId>& s,
            std::optional<std::uint64_t> iv, std::vector<std::uint64_t>& scratch,
            const InterpreterOptions& options) const {
    scratch.assign(s.forwarded.size(), 0);
    for (std::size_t i = 0; i < s.forwarded.size(); ++i) scratch[i] = frame.registers[s.forwarded[i]];  // parallel copy
    const auto assign = [&](ValueId v, std::uint64_t bits) {
      frame.registers[v] = bits;
      if (options.on_value) options.on_value(frame.function, v, bits);
    };
    if (s.target != RegionBranch<ValueId>::parent) {
      const BlockId entry = s.target;
      if (options.on_block) options.on_block(frame.function, entry);
      const std::uint32_t skip = iv ? 1 : 0;
      if (iv) assign(fn.argument(entry, 0), *iv);
      for (std::uint32_t i = 0; i < scratch.size(); ++i) assign(fn.argument(entry, i + skip), scratch[i]);
      frame.op = fn.blocks[entry].first_op;
      return;
    }
    for (std::uint32_t i = 0; i < scratch.size() && i < fn.ops[owner].result_count; ++i)
      assign(fn.result(owner, i), scratch[i]);
    frame.op = fn.ops[owner].next;
  }

  const Module* module_;
  const OpRegistry* registry_;
  SymbolTables symbols_;
  std::vector<std::vector<std::uint32_t>> callee_;  // by function, by op: the function it names
};

/// Runs function `name` of `module` once (see `Interpreter`).
[[nodiscard]] inline ExecResult interpret(const Module& module, std::string_view name,
                                          std::span<const std::uint64_t> arguments,
                                          const InterpreterOptions& options = {}) {
  return Interpreter(module).run(name, arguments, options);
}

}  // namespace kildall::ir
