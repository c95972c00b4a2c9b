#pragma once
/// \file
/// The noisy dialect in kildall's reference IR, plugged in from outside
/// through the IR's op table (`ir::OpRegistry`): the parser, printer,
/// verifier and interpreter learn the ops without knowing them.
///
///     %x = noisy.encode %c : i5 -> !noisy.i32
///     %y = noisy.add %x, %x : !noisy.i32        (also noisy.sub, noisy.mul)
///     %z = noisy.reduce_noise %y : !noisy.i32
///     %d = noisy.decode %z : !noisy.i32 -> i5
///
/// The interpreter treats the ops as plain 32-bit integer arithmetic
/// (`reduce_noise` is the identity, `decode` truncates). On top of the
/// registration:
///   - `IrNoisyProgram`, the adapter that makes a function a `NoisyProgram`
///     (its def-use graph, with the kind of each value), plus its CFG;
///   - `analyze_ir_noise`, the noise analysis over the function's CFG (dead
///     blocks stay uninitialized);
///   - `find_noise_error` / `verify_module_noise`, the article's verification
///     with its wording and `file:line:col` of the op;
///   - `IrReduceNoiseEditor` / `apply_reduce_noise`, the rewrite;
///   - `placement_diagnostic`, a `PlacementError` as an IR diagnostic;
///   - `IrRebalanceEditor` and `IrLayout`, what `rebalance.hpp` needs to
///     rewrite a function's add/sub/mul trees.

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <boost/graph/graph_traits.hpp>
#include <boost/iterator/counting_iterator.hpp>

#include <kildall/ir/function_shape.hpp>
#include <kildall/ir/cfg_view.hpp>
#include <kildall/ir/def_use_view.hpp>
#include <kildall/ir/diagnostics.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/rewriter.hpp>
#include <kildall/ir/types.hpp>
#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/noise_model.hpp>
#include <kildall/noisy/placement.hpp>
#include <kildall/noisy/program_concept.hpp>
#include <kildall/noisy/rewrite.hpp>
#include <kildall/noisy/verify.hpp>
#include <kildall/solver/observer.hpp>

namespace kildall::noisy {

/// The noisy dialect's type and op codes in one registry.
struct IrDialect {
  ir::Type type;                   ///< `!noisy.i32`.
  ir::OpCode encode = 0;           ///< `noisy.encode`.
  ir::OpCode decode = 0;           ///< `noisy.decode`.
  ir::OpCode add = 0;              ///< `noisy.add`.
  ir::OpCode sub = 0;              ///< `noisy.sub`.
  ir::OpCode mul = 0;              ///< `noisy.mul`.
  ir::OpCode reduce_noise = 0;     ///< `noisy.reduce_noise`.

  /// The `NoisyOp` of an op code (`plain` for every non-noisy op).
  [[nodiscard]] NoisyOp kind_of_op(ir::OpCode code) const noexcept {
    if (code == encode) return NoisyOp::encode;
    if (code == decode) return NoisyOp::decode;
    if (code == add) return NoisyOp::add;
    if (code == sub) return NoisyOp::sub;
    if (code == mul) return NoisyOp::mul;
    if (code == reduce_noise) return NoisyOp::reduce_noise;
    return NoisyOp::plain;
  }
};

/// Bit width of `!noisy.i32` in the interpreter.
inline constexpr unsigned noisy_integer_width = 32;

/// Registers `!noisy.i32` and the six `noisy.*` ops (formats, verification,
/// interpreter semantics) in `registry`. Throws `ir::RegistryError` if they
/// are already registered.
inline IrDialect register_noisy_dialect(ir::OpRegistry& registry) {
  IrDialect d;
  d.type = registry.add_type("noisy.i32");
  const ir::Type noisy = d.type;
  // Not `"'" + name`: GCC 12 at -O3 warns falsely on it (-Wrestrict, GCC PR 105329).
  const auto type_text = [](const ir::OpRegistry& types, ir::Type t) {
    return std::string("'").append(types.type_name(t)).append("'");
  };
  const auto plain_ok = [](ir::Type t) { return t.is_integer() && t.width() <= noisy_integer_width; };
  static constexpr std::uint64_t mask = ir::width_mask(noisy_integer_width);

  const auto arithmetic = [&](const char* name, auto compute) {
    ir::OpDefinition def;
    def.name = name;
    def.format = ir::OpFormat::binary;
    def.verify = [noisy, type_text](const ir::Function& fn, ir::OpId op, const ir::OpRegistry& types) -> std::optional<std::string> {
      const ir::Type t = fn.values[fn.result(op)].type;
      if (t != noisy) return "operands and result must have type '!noisy.i32', but got " + type_text(types, t);
      return std::nullopt;
    };
    def.eval = [compute](const ir::Function&, ir::OpId, std::span<const std::uint64_t> in,
                               std::span<std::uint64_t> out) {
      out[0] = compute(in[0], in[1]) & mask;
      return ir::EvalStatus::success();
    };
    return registry.add_op(std::move(def));
  };
  d.add = arithmetic("noisy.add", [](std::uint64_t a, std::uint64_t b) { return a + b; });
  d.sub = arithmetic("noisy.sub", [](std::uint64_t a, std::uint64_t b) { return a - b; });
  d.mul = arithmetic("noisy.mul", [](std::uint64_t a, std::uint64_t b) { return a * b; });

  ir::OpDefinition reduce;
  reduce.name = "noisy.reduce_noise";
  reduce.format = ir::OpFormat::unary;
  reduce.verify = [noisy, type_text](const ir::Function& fn, ir::OpId op, const ir::OpRegistry& types) -> std::optional<std::string> {
    const ir::Type t = fn.values[fn.result(op)].type;
    if (t != noisy) return "operand and result must have type '!noisy.i32', but got " + type_text(types, t);
    return std::nullopt;
  };
  reduce.eval = [](const ir::Function&, ir::OpId, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
    out[0] = in[0];
    return ir::EvalStatus::success();
  };
  d.reduce_noise = registry.add_op(std::move(reduce));

  ir::OpDefinition encode;
  encode.name = "noisy.encode";
  encode.format = ir::OpFormat::cast_arrow;
  encode.verify = [noisy, type_text, plain_ok](const ir::Function& fn, ir::OpId op, const ir::OpRegistry& types) -> std::optional<std::string> {
    const ir::Type from = fn.values[fn.operands_of(op)[0]].type;
    const ir::Type to = fn.values[fn.result(op)].type;
    if (!plain_ok(from)) return "operand must be an integer of at most 32 bits, but got " + type_text(types, from);
    if (to != noisy) return "result must have type '!noisy.i32', but got " + type_text(types, to);
    return std::nullopt;
  };
  encode.eval = [](const ir::Function&, ir::OpId, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
    out[0] = in[0] & mask;
    return ir::EvalStatus::success();
  };
  d.encode = registry.add_op(std::move(encode));

  ir::OpDefinition decode;
  decode.name = "noisy.decode";
  decode.format = ir::OpFormat::cast_arrow;
  decode.verify = [noisy, type_text, plain_ok](const ir::Function& fn, ir::OpId op, const ir::OpRegistry& types) -> std::optional<std::string> {
    const ir::Type from = fn.values[fn.operands_of(op)[0]].type;
    const ir::Type to = fn.values[fn.result(op)].type;
    if (from != noisy) return "operand must have type '!noisy.i32', but got " + type_text(types, from);
    if (!plain_ok(to)) return "result must be an integer of at most 32 bits, but got " + type_text(types, to);
    return std::nullopt;
  };
  decode.eval = [](const ir::Function& fn, ir::OpId op, std::span<const std::uint64_t> in, std::span<std::uint64_t> out) {
    out[0] = in[0] & ir::width_mask(fn.values[fn.result(op)].type.width());
    return ir::EvalStatus::success();
  };
  d.decode = registry.add_op(std::move(decode));
  return d;
}

/// A reference-IR function seen as a `NoisyProgram`: the vertices are its
/// values (`ir::ValueId`), the edges its def-use graph (`ir::DefUseView`),
/// and each value's kind comes from its defining op (a block argument of
/// type `!noisy.i32` is a `join`, or an `input` in the entry block; a noisy
/// result of a non-noisy op, e.g. a call, is an `input`). Also carries the
/// function's shape (`ir::FunctionShape`) for `analyze_ir_noise`. Views of the function
/// as it is now: rebuild after a rewrite. Not copyable or movable (analysis
/// results point into it).
class IrNoisyProgram {
 public:
  /// The program of `fn` (which, like `dialect`, must outlive it).
  IrNoisyProgram(const ir::Function& fn, const IrDialect& dialect)
      : fn_(&fn), dialect_(&dialect), values_(fn), shape_(fn), kinds_(fn.values.size(), NoisyOp::plain) {
    for (ir::ValueId v = 0; v < fn.values.size(); ++v) {
      const ir::ValueData& data = fn.values[v];
      const bool noisy = data.type == dialect.type;
      if (data.is_block_argument) {
        if (noisy) kinds_[v] = data.owner == 0 ? NoisyOp::input : NoisyOp::join;
        continue;
      }
      if (fn.ops[data.owner].erased) continue;
      const NoisyOp kind = dialect.kind_of_op(fn.ops[data.owner].code);
      kinds_[v] = kind != NoisyOp::plain ? kind : (noisy ? NoisyOp::input : NoisyOp::plain);
    }
  }
  IrNoisyProgram(const IrNoisyProgram&) = delete;             ///< Not copyable (results point into it).
  IrNoisyProgram& operator=(const IrNoisyProgram&) = delete;  ///< Not assignable.

  /// The function.
  [[nodiscard]] const ir::Function& function() const noexcept { return *fn_; }
  /// The dialect's codes.
  [[nodiscard]] const IrDialect& dialect() const noexcept { return *dialect_; }
  /// The def-use graph.
  [[nodiscard]] const ir::DefUseView& values() const noexcept { return values_; }
  /// The function's shape (blocks, CFG, what branches pass) for the CFG form of the analysis.
  [[nodiscard]] const ir::FunctionShape& shape() const noexcept { return shape_; }
  /// The kind of value `v`.
  [[nodiscard]] NoisyOp kind(ir::ValueId v) const { return kinds_[v]; }

 private:
  const ir::Function* fn_;
  const IrDialect* dialect_;
  ir::DefUseView values_;
  ir::FunctionShape shape_;
  std::vector<NoisyOp> kinds_;
};

// The graph functions of IrNoisyProgram (those of its def-use view), found by ADL.

/// Uses of `v`.
[[nodiscard]] inline auto out_edges(ir::ValueId v, const IrNoisyProgram& g) { return ir::out_edges(v, g.values()); }
/// Operands of `v` (or the values flowing into a block argument).
[[nodiscard]] inline auto in_edges(ir::ValueId v, const IrNoisyProgram& g) { return ir::in_edges(v, g.values()); }
/// The using value of `e`.
[[nodiscard]] inline ir::ValueId target(const ir::DefUseEdge& e, const IrNoisyProgram&) { return e.target; }
/// The used value of `e`.
[[nodiscard]] inline ir::ValueId source(const ir::DefUseEdge& e, const IrNoisyProgram&) { return e.source; }
/// All values.
[[nodiscard]] inline auto vertices(const IrNoisyProgram& g) { return ir::vertices(g.values()); }
/// Number of values.
[[nodiscard]] inline std::size_t num_vertices(const IrNoisyProgram& g) { return g.values().value_count(); }
/// The kind of `v` (the `NoisyProgram` requirement).
[[nodiscard]] inline NoisyOp noisy_op(const IrNoisyProgram& g, ir::ValueId v) { return g.kind(v); }

}  // namespace kildall::noisy

/// `IrNoisyProgram` in Boost.Graph's vocabulary (that of `ir::DefUseView`).
template <>
struct boost::graph_traits<kildall::noisy::IrNoisyProgram> : boost::graph_traits<kildall::ir::DefUseView> {};

namespace kildall::noisy {

static_assert(NoisyProgram<IrNoisyProgram>);

/// The noise analysis of an IR function over its CFG, from the entry block:
/// block arguments join over executable edges, dead blocks stay
/// uninitialized. `observer` (optional) sees every visit.
template <class O = NoObserver>
[[nodiscard]] NoiseAnalysis<IrNoisyProgram, ir::FunctionShape> analyze_ir_noise(const IrNoisyProgram& program,
                                                                               const NoiseParameters& parameters = {},
                                                                               NoiseAnalysisOptions options = {},
                                                                               O&& observer = O{}) {
  return analyze_noise_over_cfg(program, program.shape(), parameters, std::move(options), std::forward<O>(observer));
}

/// Where the op defining `v` (or the block of a block argument) is.
[[nodiscard]] inline ir::SourceLoc location_of(const ir::Function& fn, ir::ValueId v) {
  const ir::ValueData& data = fn.values[v];
  return data.is_block_argument ? fn.blocks[data.owner].loc : fn.ops[data.owner].loc;
}

/// MLIR's diagnostic prefix for the op defining `v`: its quoted name and
/// ` op `, e.g. `'noisy.add' op `.
[[nodiscard]] inline std::string op_prefix(const ir::Module& module, const ir::Function& fn, ir::ValueId v) {
  const ir::ValueData& data = fn.values[v];
  if (data.is_block_argument) return "block argument #" + std::to_string(data.position) + " ";
  return "'" + module.registry->op(fn.ops[data.owner].code).name + "' op ";
}

/// The first noise violation of `fn` in layout order (blocks, then ops), as
/// the article reports it: `'noisy.mul' op Found op after which the noise
/// exceeds the allowable maximum of 26; it was: 48`, at the op, followed by a
/// `note: see current operation: ...` line. Nullopt when legal.
[[nodiscard]] inline std::optional<ir::Diagnostic> find_noise_error(const ir::Module& module, const ir::Function& fn,
                                                                   const IrDialect& dialect,
                                                                   const NoiseParameters& parameters = {}) {
  if (fn.is_declaration()) return std::nullopt;
  const IrNoisyProgram program(fn, dialect);
  const auto analysis = analyze_ir_noise(program, parameters);
  for (ir::BlockId b = 0; b < fn.blocks.size(); ++b) {
    for (const ir::OpId op : fn.ops_of(b)) {
      for (std::uint32_t r = 0; r < fn.ops[op].result_count; ++r) {
        const auto violation = noise_violation_at(analysis, fn.result(op, r));
        if (!violation) continue;
        const ir::SourceLoc loc = fn.ops[op].loc;
        std::string message = op_prefix(module, fn, violation->value) +
                              noise_violation_message(parameters.maximum, violation->noise);
        message += "\n" + module.source_name + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column) +
                   ": note: see current operation: " + ir::print_op(fn, op, *module.registry);
        return ir::Diagnostic{module.source_name, loc, std::move(message)};
      }
    }
  }
  return std::nullopt;
}

/// Verifies the noise of every function of `module`; throws `ir::IrError` at
/// the first offending op (see `find_noise_error`).
inline void verify_module_noise(const ir::Module& module, const IrDialect& dialect,
                                const NoiseParameters& parameters = {}) {
  for (const ir::Function& fn : module.functions)
    if (auto error = find_noise_error(module, fn, dialect, parameters)) throw ir::IrError(std::move(*error));
}

/// A `PlacementError` on `program` as a diagnostic at the offending op.
[[nodiscard]] inline ir::Diagnostic placement_diagnostic(const ir::Module& module, const IrNoisyProgram& program,
                                                         const PlacementError& error) {
  const ir::Function& fn = program.function();
  const auto v = static_cast<ir::ValueId>(error.vertex_index());
  if (v >= fn.values.size()) return ir::Diagnostic{module.source_name, fn.loc, error.what()};
  return ir::Diagnostic{module.source_name, location_of(fn, v), op_prefix(module, fn, v) + error.reason()};
}

/// The `ReduceNoiseEditor` of an IR function: inserts `noisy.reduce_noise`
/// ops with the rewriter and redirects uses in one scan at `commit()`.
class IrReduceNoiseEditor {
 public:
  /// The value handle.
  using value_type = ir::ValueId;

  /// Edits `fn` (which must outlive the editor).
  IrReduceNoiseEditor(ir::Function& fn, const IrDialect& dialect)
      : rewriter_(fn), dialect_(&dialect), redirect_(fn.values.size(), ir::no_index) {}

  /// Inserts `r = noisy.reduce_noise v` right after the op defining `v`
  /// (at the start of the block for a block argument); returns `r`.
  ir::ValueId insert_reduce_noise_after(ir::ValueId v) {
    ir::Function& fn = rewriter_.function();
    const ir::ValueId operands[] = {v};
    const ir::Type types[] = {dialect_->type};
    const ir::ValueData data = fn.values[v];
    ir::OpId op = ir::no_index;
    if (!data.is_block_argument) {
      op = rewriter_.create_after(data.owner, dialect_->reduce_noise, operands, types);
    } else {
      op = rewriter_.create(dialect_->reduce_noise, operands, types, 0, 0, fn.blocks[data.owner].loc);
      const ir::OpId first = fn.blocks[data.owner].first_op;
      if (first == ir::no_index) rewriter_.append(data.owner, op);
      else rewriter_.insert_before(first, op);
    }
    created_.push_back(op);
    return fn.result(op);
  }

  /// Records that the uses of `v` (except by the reduce_noise of `v`) become uses of `r`.
  void redirect_uses(ir::ValueId v, ir::ValueId r) {
    if (v < redirect_.size()) redirect_[v] = r;
  }

  /// Applies the recorded redirections (one scan over all operands).
  void commit() {
    ir::Function& fn = rewriter_.function();
    std::vector<bool> skip(fn.ops.size(), false);
    for (const ir::OpId op : created_) skip[op] = true;
    for (ir::OpId op = 0; op < fn.ops.size(); ++op) {
      if (skip[op] || fn.ops[op].erased) continue;
      for (ir::ValueId& x : fn.operands_of(op))
        if (x < redirect_.size() && redirect_[x] != ir::no_index) x = redirect_[x];
    }
  }

 private:
  ir::Rewriter rewriter_;
  const IrDialect* dialect_;
  std::vector<ir::ValueId> redirect_;
  std::vector<ir::OpId> created_;
};

static_assert(ReduceNoiseEditor<IrReduceNoiseEditor>);

/// Inserts `noisy.reduce_noise` after each value of `placement` in `fn` and
/// redirects the other uses; returns the new values.
inline std::vector<ir::ValueId> apply_reduce_noise(ir::Function& fn, const IrDialect& dialect,
                                                   const std::vector<ir::ValueId>& placement) {
  IrReduceNoiseEditor editor(fn, dialect);
  std::vector<ir::ValueId> reduced = insert_reduce_noise(editor, placement);
  editor.commit();
  return reduced;
}

/// Program order, regions and uses of an IR function for `plan_rebalance`
/// (`rebalance.hpp`): layout order (a block's arguments, then its ops, block
/// by block); a region is a block, so a rebuilt tree never leaves its block;
/// every use counts, also by ops without results (`func.return`), which the
/// def-use graph does not show.
class IrLayout {
 public:
  /// The layout of `fn` as it is now (which must outlive it).
  explicit IrLayout(const ir::Function& fn) : fn_(&fn), position_(fn.values.size(), 0), uses_(fn.values.size(), 0) {
    for (ir::OpId op = 0; op < fn.ops.size(); ++op) {
      if (fn.ops[op].erased) continue;
      for (const ir::ValueId v : fn.operands_of(op)) ++uses_[v];
    }
    std::size_t next = 0;
    for (ir::BlockId b = 0; b < fn.blocks.size(); ++b) {
      for (std::uint32_t i = 0; i < fn.blocks[b].argument_count; ++i) position_[fn.argument(b, i)] = next;
      ++next;
      for (const ir::OpId op : fn.ops_of(b)) {
        for (std::uint32_t r = 0; r < fn.ops[op].result_count; ++r) position_[fn.result(op, r)] = next;
        ++next;
      }
    }
  }
  /// Position of the op defining `v` (of its block's start for an argument).
  [[nodiscard]] std::size_t position(const IrNoisyProgram&, ir::ValueId v) const { return position_[v]; }
  /// True when `a` and `b` are defined in the same block.
  [[nodiscard]] bool same_region(const IrNoisyProgram&, ir::ValueId a, ir::ValueId b) const {
    return fn_->defining_block(a) == fn_->defining_block(b);
  }
  /// True when `v` has exactly one use by a live op.
  [[nodiscard]] bool single_use(const IrNoisyProgram&, ir::ValueId v) const { return uses_[v] == 1; }

 private:
  const ir::Function* fn_;
  std::vector<std::size_t> position_;
  std::vector<std::uint32_t> uses_;
};

/// The `RebalanceEditor` (`rebalance.hpp`) of an IR function: creates
/// `noisy.add`/`sub`/`mul` ops before an anchor, rewrites an op in place,
/// erases ops.
class IrRebalanceEditor {
 public:
  /// The value handle.
  using value_type = ir::ValueId;

  /// Edits `fn` (which must outlive the editor).
  IrRebalanceEditor(ir::Function& fn, const IrDialect& dialect) : rewriter_(fn), dialect_(&dialect) {}

  /// Creates `kind lhs, rhs` right before the op defining `anchor`; returns its value.
  ir::ValueId create_before(ir::ValueId anchor, NoisyOp kind, ir::ValueId lhs, ir::ValueId rhs) {
    ir::Function& fn = rewriter_.function();
    const ir::ValueId operands[] = {lhs, rhs};
    const ir::Type types[] = {dialect_->type};
    return fn.result(rewriter_.create_before(fn.values[anchor].owner, code_of(kind), operands, types));
  }

  /// Makes the op defining `v` compute `kind lhs, rhs` (same result value).
  void rewrite(ir::ValueId v, NoisyOp kind, ir::ValueId lhs, ir::ValueId rhs) {
    ir::Function& fn = rewriter_.function();
    const ir::OpId op = fn.values[v].owner;
    fn.ops[op].code = static_cast<std::uint16_t>(code_of(kind));
    const std::span<ir::ValueId> operands = fn.operands_of(op);
    operands[0] = lhs;
    operands[1] = rhs;
  }

  /// Erases the op defining `v` (which has no uses left).
  void erase(ir::ValueId v) { rewriter_.erase(rewriter_.function().values[v].owner); }

 private:
  [[nodiscard]] ir::OpCode code_of(NoisyOp kind) const {
    switch (kind) {
      case NoisyOp::add: return dialect_->add;
      case NoisyOp::sub: return dialect_->sub;
      case NoisyOp::mul: return dialect_->mul;
      default: throw std::invalid_argument("IrRebalanceEditor: only add, sub and mul are rebuilt");
    }
  }

  ir::Rewriter rewriter_;
  const IrDialect* dialect_;
};

}  // namespace kildall::noisy
