// Tests of kildall/graph/region_branch.hpp on a toy structured IR (not the reference IR: an if
// op with two regions, a counted loop op with an induction variable, yield, br): the RegionCfg it
// flattens to, and the generic sparse solver (intervals, executable edges by arms) over it;
// oracle: edges and ranges hand-computed from the toy's semantics, and a concrete interpreter of
// the toy IR whose every observed value must lie in the solved ranges.

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <kildall/graph/dominators.hpp>
#include <kildall/graph/region_branch.hpp>
#include <kildall/graph/ssa_program.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/interval_transfer.hpp>
#include <kildall/solver/sparse.hpp>

namespace {

// ---- The toy IR -------------------------------------------------------------------------------
// Values are numbered; an op defines results; a block has arguments and ops, the last its
// terminator. Regions: `if_` owns two (then, else; entered on operand 0 nonzero / zero), `loop`
// one (operands: lower, upper, step, then the initial iteration values; the body's arguments are
// the induction variable, then the iteration values). `yield` ends a region's block: to the
// owner's results (if_), or to the next iteration or the results (loop). `br` jumps within a
// region, passing its operands; `ret` ends the function. Arithmetic wraps at 32 bits.

enum class Kind : std::uint8_t { constant, add, less, if_, loop, yield, br, ret };

constexpr std::uint32_t none = 0xFFFFFFFFu;

struct ToyOp {
  Kind kind = Kind::constant;
  std::uint32_t block = 0;
  std::vector<std::size_t> operands;
  std::vector<std::size_t> results;
  std::int32_t constant = 0;
  std::vector<std::uint32_t> regions;  // the entry block of each region
  std::uint32_t target = none;         // br: the block entered
  std::uint32_t slot = none;           // br: its branch slot id
};

struct ToyBlock {
  std::vector<std::size_t> arguments;
  std::vector<std::size_t> ops;
  std::uint32_t parent = none;  // the op owning its region (none: the function body)
};

struct ToyProgram {
  std::vector<ToyOp> ops;
  std::vector<ToyBlock> blocks;
  std::vector<std::size_t> defining_op;  // per value: its op, or none for a block argument
  std::vector<std::uint32_t> argument_of;  // per value: its block, for a block argument
  std::uint32_t slots = 0;

  std::uint32_t add_block(std::size_t arguments, std::uint32_t parent = none) {
    const auto b = static_cast<std::uint32_t>(blocks.size());
    blocks.push_back({{}, {}, parent});
    for (std::size_t i = 0; i < arguments; ++i) blocks[b].arguments.push_back(new_value(none, b));
    return b;
  }
  std::size_t add_op(std::uint32_t b, Kind kind, std::vector<std::size_t> operands, std::size_t results = 0,
                     std::int32_t constant = 0) {
    const std::size_t o = ops.size();
    ops.push_back({kind, b, std::move(operands), {}, constant, {}, none, none});
    for (std::size_t i = 0; i < results; ++i) ops[o].results.push_back(new_value(o, none));
    blocks[b].ops.push_back(o);
    return o;
  }
  std::size_t constant(std::uint32_t b, std::int32_t c) { return ops[add_op(b, Kind::constant, {}, 1, c)].results[0]; }
  std::size_t add(std::uint32_t b, std::size_t x, std::size_t y) {
    return ops[add_op(b, Kind::add, {x, y}, 1)].results[0];
  }
  std::size_t less(std::uint32_t b, std::size_t x, std::size_t y) {
    return ops[add_op(b, Kind::less, {x, y}, 1)].results[0];
  }
  void br(std::uint32_t b, std::uint32_t target, std::vector<std::size_t> passed) {
    const std::size_t o = add_op(b, Kind::br, std::move(passed));
    ops[o].target = target;
    ops[o].slot = slots++;
  }
  /// A region of `owner` entered at a new block with `arguments` arguments.
  std::uint32_t add_region(std::size_t owner, std::size_t arguments) {
    const std::uint32_t b = add_block(arguments, static_cast<std::uint32_t>(owner));
    ops[owner].regions.push_back(b);
    return b;
  }

 private:
  std::size_t new_value(std::size_t op, std::uint32_t block) {
    defining_op.push_back(op);
    argument_of.push_back(block);
    return defining_op.size() - 1;
  }
};

// ---- The toy IR as a RegionBranchProgram (what the tested header asks of an IR) ----------------

class ToyRegions {
 public:
  using op_type = std::size_t;
  using value_type = std::size_t;
  using Branch = kildall::RegionBranch<std::size_t>;

  explicit ToyRegions(const ToyProgram& p) : p_(&p) {}
  [[nodiscard]] std::size_t block_count() const { return p_->blocks.size(); }
  [[nodiscard]] std::size_t successor_slot_count() const { return p_->slots; }
  [[nodiscard]] bool has_regions() const {
    for (const ToyOp& o : p_->ops)
      if (!o.regions.empty()) return true;
    return false;
  }
  [[nodiscard]] const std::vector<std::size_t>& ops(std::uint32_t b) const { return p_->blocks[b].ops; }
  [[nodiscard]] std::vector<kildall::BlockBranch> block_successors(std::uint32_t b) const {
    const auto& ops = p_->blocks[b].ops;
    if (ops.empty() || p_->ops[ops.back()].kind != Kind::br) return {};
    const ToyOp& br = p_->ops[ops.back()];
    return {{br.target, br.slot}};
  }
  using Flow = kildall::RegionFlowAt<std::size_t, std::size_t, std::vector<Branch>>;
  /// An if enters then (arm 0) or else (arm 1) on its operand; a loop its body, or its results.
  [[nodiscard]] Flow region_entry(std::size_t o) const {
    const ToyOp& op = p_->ops[o];
    if (op.kind == Kind::if_) return {o, {{op.regions[0], {}, 0}, {op.regions[1], {}, 1}}, op.operands[0]};
    if (op.kind != Kind::loop) return {};
    const auto iteration = std::span<const std::size_t>(op.operands).subspan(3);  // after the bounds
    return {o, {{op.regions[0], iteration, -1}, {Branch::parent, iteration, -1}}, {}};
  }
  /// A yield goes to its if's results; or to its loop's next iteration, or the loop's results.
  [[nodiscard]] Flow region_exit(std::size_t o) const {
    const ToyOp& op = p_->ops[o];
    if (op.kind != Kind::yield) return {};
    const std::size_t owner = p_->blocks[op.block].parent;
    if (p_->ops[owner].kind == Kind::loop)
      return {owner, {{p_->ops[owner].regions[0], op.operands, -1}, {Branch::parent, op.operands, -1}}, {}};
    return {owner, {{Branch::parent, op.operands, -1}}, {}};
  }
  [[nodiscard]] std::span<const std::size_t> induction_bounds(std::size_t o) const {
    const ToyOp& op = p_->ops[o];
    if (op.kind != Kind::loop) return {};
    return std::span<const std::size_t>(op.operands).subspan(0, 3);
  }

 private:
  const ToyProgram* p_;
};

static_assert(kildall::RegionBranchProgram<ToyRegions>);
static_assert(kildall::RegionBranchProgramWithInduction<ToyRegions>);
using ToyCfg = kildall::RegionCfg<std::size_t, std::size_t>;
static_assert(kildall::AnalysisGraph<ToyCfg>);

// ---- Its SSA shape over the flattened CFG: what an IR writes once to run the sparse solver ------

class ToyShape {
 public:
  using value_type = std::size_t;

  explicit ToyShape(const ToyProgram& p) : p_(&p), cfg_(ToyRegions(p)) {
    values_.resize(cfg_.vertex_count());
    for (std::uint32_t v = 0; v < cfg_.vertex_count(); ++v) {
      if (!cfg_.induction_bounds(v).empty()) values_[v].push_back(p.blocks[v].arguments[0]);
      const std::uint32_t b = cfg_.block_of(v);
      const std::optional<std::size_t> after = cfg_.continuation_after(v), end = cfg_.part_end(v);
      const auto& ops = p.blocks[b].ops;
      std::size_t i = 0;
      if (after) while (ops[i++] != *after) {}
      for (; i < ops.size() && (!end || ops[i] != *end); ++i)
        values_[v].insert(values_[v].end(), p.ops[ops[i]].results.begin(), p.ops[ops[i]].results.end());
    }
  }
  [[nodiscard]] const ToyCfg& cfg() const { return cfg_; }
  [[nodiscard]] static std::uint32_t entries() { return 0; }
  [[nodiscard]] std::size_t value_count() const { return p_->defining_op.size(); }
  [[nodiscard]] std::span<const std::size_t> block_arguments(std::uint32_t v) const {
    if (const std::optional<std::size_t> after = cfg_.continuation_after(v)) return p_->ops[*after].results;
    const std::span<const std::size_t> arguments = p_->blocks[v].arguments;
    return arguments.subspan(cfg_.induction_bounds(v).empty() ? 0 : 1);
  }
  [[nodiscard]] std::span<const std::size_t> block_values(std::uint32_t v) const { return values_[v]; }
  [[nodiscard]] std::span<const std::size_t> operands(std::size_t x) const {
    if (p_->defining_op[x] != none) return p_->ops[p_->defining_op[x]].operands;
    return cfg_.induction_bounds(p_->argument_of[x]);  // an induction variable, or none
  }
  [[nodiscard]] std::span<const std::size_t> forwarded_operands(const kildall::RegionCfgEdge& e) const {
    if (cfg_.is_region_edge(e)) return cfg_.forwarded(e);
    return p_->ops[p_->blocks[cfg_.block_of(e.source)].ops.back()].operands;  // a br passes all its operands
  }
  [[nodiscard]] std::span<const std::size_t> branch_operands(std::uint32_t v) const {
    return cfg_.deciding_operands(v);
  }
  [[nodiscard]] const ToyProgram& program() const { return *p_; }

 private:
  const ToyProgram* p_;
  ToyCfg cfg_;
  std::vector<std::vector<std::size_t>> values_;
};

static_assert(kildall::SsaProgramWithBranchOperands<ToyShape>);

// ---- Integer ranges on the toy, as a sparse problem (semantics only) ---------------------------

using kildall::Interval;
constexpr unsigned width = 32;

struct ToyRanges {
  using lattice_type = Interval;
  const ToyShape* shape;

  [[nodiscard]] Interval transfer(std::size_t v, kildall::OperandStates<Interval> in) const {
    const ToyProgram& p = shape->program();
    if (p.defining_op[v] == none)  // a loop's induction variable, from its bounds
      return kildall::infer_induction_variable(in[0], in[1], in[2]);
    const ToyOp& op = p.ops[p.defining_op[v]];
    switch (op.kind) {
      case Kind::constant: return Interval::constant(width, static_cast<std::uint32_t>(op.constant));
      case Kind::add: return kildall::infer_add(in[0], in[1]);
      case Kind::less: {
        const std::optional<bool> known = kildall::infer_cmp(kildall::CmpPredicate::slt, in[0], in[1]);
        return known ? Interval::constant(width, *known ? 1u : 0u) : Interval::from_signed(width, 0, 1);
      }
      default: return Interval::full(width);
    }
  }
  [[nodiscard]] Interval boundary(std::size_t) const { return Interval::full(width); }
  /// A region edge with an arm is taken only when the deciding operand may be nonzero (arm 0)
  /// or zero (arm 1).
  [[nodiscard]] bool edge_executable(const kildall::RegionCfgEdge& e, kildall::OperandStates<Interval> branch) const {
    if (!shape->cfg().is_region_edge(e)) return true;
    const std::optional<std::uint32_t> arm = shape->cfg().arm(e);
    if (!arm || branch.empty()) return true;
    const Interval& c = branch[0];
    return *arm == 0 ? !c.is_constant() || c.umin() != 0 : c.contains(0);
  }
};

// ---- The oracle: a concrete interpreter of the toy IR -----------------------------------------

struct Trace {
  std::vector<std::vector<std::int32_t>> seen;  // per value: what it took
  std::vector<bool> visited;                    // per block
};

class Interpreter {
 public:
  explicit Interpreter(const ToyProgram& p) : p_(&p), env_(p.defining_op.size(), 0) {
    trace_.seen.resize(p.defining_op.size());
    trace_.visited.assign(p.blocks.size(), false);
  }
  Trace run(const std::vector<std::int32_t>& inputs) {
    (void)execute(0, inputs);
    return trace_;
  }

 private:
  void set(std::size_t v, std::int32_t x) {
    env_[v] = x;
    trace_.seen[v].push_back(x);
  }
  static std::int32_t wrap(std::int64_t x) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(x)); }
  /// Runs from block `b` with `arguments` until a yield or ret; returns its operands' values.
  std::vector<std::int32_t> execute(std::uint32_t b, std::vector<std::int32_t> arguments) {
    for (;;) {
      trace_.visited[b] = true;
      for (std::size_t i = 0; i < arguments.size(); ++i) set(p_->blocks[b].arguments[i], arguments[i]);
      for (const std::size_t o : p_->blocks[b].ops) {
        const ToyOp& op = p_->ops[o];
        std::vector<std::int32_t> in;
        for (const std::size_t x : op.operands) in.push_back(env_[x]);
        switch (op.kind) {
          case Kind::constant: set(op.results[0], op.constant); break;
          case Kind::add: set(op.results[0], wrap(std::int64_t{in[0]} + in[1])); break;
          case Kind::less: set(op.results[0], in[0] < in[1] ? 1 : 0); break;
          case Kind::if_: {
            const auto out = execute(op.regions[in[0] != 0 ? 0 : 1], {});
            for (std::size_t i = 0; i < op.results.size(); ++i) set(op.results[i], out[i]);
            break;
          }
          case Kind::loop: {
            std::vector<std::int32_t> iteration(in.begin() + 3, in.end());
            for (std::int32_t iv = in[0]; iv < in[1]; iv = wrap(std::int64_t{iv} + in[2])) {
              std::vector<std::int32_t> body{iv};
              body.insert(body.end(), iteration.begin(), iteration.end());
              iteration = execute(op.regions[0], body);
              if (in[2] <= 0) break;  // would not end
            }
            for (std::size_t i = 0; i < op.results.size(); ++i) set(op.results[i], iteration[i]);
            break;
          }
          case Kind::br:
            b = op.target;
            arguments = in;
            break;
          case Kind::yield:
          case Kind::ret: return in;
        }
        if (op.kind == Kind::br) break;
      }
    }
  }

  const ToyProgram* p_;
  std::vector<std::int32_t> env_;
  Trace trace_;
};

/// Every value the interpreter saw on `inputs` lies in its solved range, and every block it ran
/// is reached.
template <class Result>
void check_sound(const ToyProgram& p, const Result& result, const std::vector<std::int32_t>& inputs) {
  const Trace trace = Interpreter(p).run(inputs);
  for (std::uint32_t b = 0; b < p.blocks.size(); ++b)
    if (trace.visited[b]) CHECK(result.block_reached(b));
  for (std::size_t v = 0; v < trace.seen.size(); ++v) {
    for (const std::int32_t x : trace.seen[v]) {
      const Interval* range = result.lookup(v);
      REQUIRE(range != nullptr);
      CHECK(range->contains_signed(x));
    }
  }
}

/// `x` is exactly [lo, hi].
void check_range(const Interval* x, std::int64_t lo, std::int64_t hi) {
  REQUIRE(x != nullptr);
  CHECK(x->smin() == lo);
  CHECK(x->smax() == hi);
}

// The if program: the then region has two blocks (a br inside a region).
//   ^0(%x):  %one = 1; %five = 5; %seven = 7; %c = less(lhs, rhs)
//            %r = if %c { ^1: br ^3(%five)   ^3(%y): yield %y } else { ^2: yield %seven }
//            %s = add %r, %one; ret %s
struct IfProgram {
  ToyProgram p;
  std::size_t x = 0, one = 0, five = 0, seven = 0, c = 0, r = 0, s = 0, y = 0, if_op = 0;
  /// `decided`: %c = less(%one, %five) (true); else less(%x, %five) (unknown).
  explicit IfProgram(bool decided) {
    const std::uint32_t entry = p.add_block(1);
    x = p.blocks[entry].arguments[0];
    one = p.constant(entry, 1);
    five = p.constant(entry, 5);
    seven = p.constant(entry, 7);
    c = p.less(entry, decided ? one : x, five);
    if_op = p.add_op(entry, Kind::if_, {c}, 1);
    r = p.ops[if_op].results[0];
    s = p.add(entry, r, one);
    p.add_op(entry, Kind::ret, {s});
    const std::uint32_t then_entry = p.add_region(if_op, 0);
    const std::uint32_t else_entry = p.add_region(if_op, 0);
    const std::uint32_t then_exit = p.add_block(1, static_cast<std::uint32_t>(if_op));
    y = p.blocks[then_exit].arguments[0];
    p.br(then_entry, then_exit, {five});
    p.add_op(then_exit, Kind::yield, {y});
    p.add_op(else_entry, Kind::yield, {seven});
  }
};

}  // namespace

TEST_CASE("RegionCfg: an if op cuts its block into a continuation; region edges forward and carry arms") {
  const IfProgram prog(true);
  const ToyCfg cfg{ToyRegions(prog.p)};
  REQUIRE(cfg.block_count() == 4);
  REQUIRE(cfg.vertex_count() == 5);  // blocks 0-3, then the continuation after the if
  const std::uint32_t cont = 4;
  CHECK(cfg.continuation_of(prog.if_op) == cont);
  CHECK(cfg.continuation_after(cont) == prog.if_op);
  CHECK_FALSE(cfg.continuation_after(0).has_value());
  CHECK(cfg.part_end(0) == prog.if_op);
  CHECK_FALSE(cfg.part_end(cont).has_value());
  CHECK(cfg.block_of(cont) == 0);
  CHECK(cfg.block_of(2) == 2);
  // The if's part enters then (arm 0) and else (arm 1), deciding on %c.
  const auto from_entry = cfg.successors(0);
  REQUIRE(from_entry.size() == 2);
  CHECK(from_entry[0].target == 1);
  CHECK(from_entry[1].target == 2);
  CHECK(cfg.arm(from_entry[0]) == 0u);
  CHECK(cfg.arm(from_entry[1]) == 1u);
  CHECK(cfg.forwarded(from_entry[0]).empty());
  REQUIRE(cfg.deciding_operands(0).size() == 1);
  CHECK(cfg.deciding_operands(0)[0] == prog.c);
  // The br inside the then region is the program's own slot 0, not a region edge.
  REQUIRE(cfg.successors(1).size() == 1);
  CHECK(cfg.successors(1)[0] == kildall::RegionCfgEdge{1, 3, 0});
  CHECK_FALSE(cfg.is_region_edge(cfg.successors(1)[0]));
  // Both yields go to the continuation, forwarding what they yield; no arms.
  REQUIRE(cfg.predecessors(cont).size() == 2);
  for (const kildall::RegionCfgEdge& e : cfg.predecessors(cont)) {
    CHECK(cfg.is_region_edge(e));
    CHECK_FALSE(cfg.arm(e).has_value());
    REQUIRE(cfg.forwarded(e).size() == 1);
    CHECK(cfg.forwarded(e)[0] == (e.source == 3 ? prog.y : prog.seven));
  }
  CHECK(cfg.successors(cont).empty());  // ret
  CHECK(cfg.edges().size() == 5);
  CHECK(num_edges(cfg) == 5);  // (Boost's name: what a solver sizes its edge arrays by)
  // The continuation is dominated by the if's part, not by either arm.
  const auto dom = kildall::dominator_tree(cfg, ToyCfg::entry());
  CHECK(dom.immediate_dominator(cont) == 0u);
  CHECK_FALSE(dom.dominates(1, cont));
}

TEST_CASE("RegionCfg: without regions it is the plain block graph") {
  ToyProgram p;
  const std::uint32_t b0 = p.add_block(0), b1 = p.add_block(1);
  const std::size_t k = p.constant(b0, 3);
  p.br(b0, b1, {k});
  p.add_op(b1, Kind::ret, {});
  const ToyCfg cfg{ToyRegions(p)};
  CHECK(cfg.vertex_count() == 2);
  REQUIRE(cfg.edges().size() == 1);
  CHECK(cfg.edges()[0] == kildall::RegionCfgEdge{0, 1, 0});
  CHECK(cfg.deciding_operands(0).empty());
  CHECK(cfg.induction_bounds(1).empty());
}

TEST_CASE("sparse solver through an if: a decided condition leaves the other region unreached") {
  const IfProgram prog(true);
  const ToyShape shape(prog.p);
  const auto result = kildall::solve_sparse(shape, ToyRanges{&shape});
  REQUIRE(result.converged());
  CHECK(result.block_reached(1));
  CHECK(result.block_reached(3));
  CHECK_FALSE(result.block_reached(2));  // else: never entered
  check_range(result.lookup(prog.y), 5, 5);
  check_range(result.lookup(prog.r), 5, 5);  // from the live arm only (the else yields 7)
  check_range(result.lookup(prog.s), 6, 6);
  for (const std::int32_t x : {-3, 0, 9}) check_sound(prog.p, result, {x});
}

TEST_CASE("sparse solver through an if: an unknown condition joins both arms into the results") {
  const IfProgram prog(false);
  const ToyShape shape(prog.p);
  const auto result = kildall::solve_sparse(shape, ToyRanges{&shape});
  REQUIRE(result.converged());
  CHECK(result.block_reached(1));
  CHECK(result.block_reached(2));
  check_range(result.lookup(prog.r), 5, 7);
  check_range(result.lookup(prog.s), 6, 8);
  for (const std::int32_t x : {-3, 4, 5, 100}) check_sound(prog.p, result, {x});
}

TEST_CASE("sparse solver through a loop: the induction variable's range comes from the bounds") {
  // ^0(%n): %zero = 0; %ten = 10; %one = 1; %big = 1000
  //         %r = loop %zero to %ten step %one iter(%zero) { ^1(%iv, %acc):
  //              %next = add %iv, %one; %small = less %next, %big
  //              %c = if %small { ^2: yield %next } else { ^3: yield %big }
  //              yield %c }
  //         %s = add %r, %n; ret %s
  ToyProgram p;
  const std::uint32_t entry = p.add_block(1);
  const std::size_t n = p.blocks[entry].arguments[0];
  const std::size_t zero = p.constant(entry, 0), ten = p.constant(entry, 10), one = p.constant(entry, 1),
                    big = p.constant(entry, 1000);
  const std::size_t loop = p.add_op(entry, Kind::loop, {zero, ten, one, zero}, 1);
  const std::size_t r = p.ops[loop].results[0];
  const std::size_t s = p.add(entry, r, n);
  p.add_op(entry, Kind::ret, {s});
  const std::uint32_t body = p.add_region(loop, 2);
  const std::size_t iv = p.blocks[body].arguments[0], acc = p.blocks[body].arguments[1];
  const std::size_t next = p.add(body, iv, one);
  const std::size_t small = p.less(body, next, big);
  const std::size_t if_op = p.add_op(body, Kind::if_, {small}, 1);
  const std::size_t c = p.ops[if_op].results[0];
  p.add_op(body, Kind::yield, {c});
  p.add_op(p.add_region(if_op, 0), Kind::yield, {next});
  const std::uint32_t never = p.add_region(if_op, 0);
  p.add_op(never, Kind::yield, {big});

  const ToyShape shape(p);
  const ToyCfg& cfg = shape.cfg();
  // Two continuations: after the loop (in the entry block), after the if (in the body).
  REQUIRE(cfg.vertex_count() == 6);
  const std::uint32_t after_loop = cfg.continuation_of(loop), after_if = cfg.continuation_of(if_op);
  CHECK(cfg.block_of(after_if) == body);
  // The body's first argument is the induction variable: no edge forwards it, the bounds compute it.
  REQUIRE(cfg.induction_bounds(body).size() == 3);
  CHECK(cfg.induction_bounds(body)[1] == ten);
  CHECK(shape.block_arguments(body).size() == 1);
  for (const kildall::RegionCfgEdge& e : cfg.predecessors(body)) CHECK(cfg.forwarded(e).size() == 1);
  CHECK(cfg.predecessors(body).size() == 2);       // from the loop op, and the yield's next iteration
  CHECK(cfg.predecessors(after_loop).size() == 2);  // skipping the body, and leaving it

  const auto result = kildall::solve_sparse(shape, ToyRanges{&shape});
  REQUIRE(result.converged());
  check_range(result.lookup(iv), 0, 9);
  check_range(result.lookup(next), 1, 10);
  check_range(result.lookup(small), 1, 1);  // next < 1000 always
  CHECK_FALSE(result.block_reached(never));
  check_range(result.lookup(c), 1, 10);  // yielded by the live arm only
  // The loop's result joins its initial value with what the body yields back to it.
  check_range(result.lookup(r), 0, 10);
  CHECK(result.lookup(acc)->contains_signed(0));
  CHECK(result.lookup(acc)->contains_signed(10));
  CHECK(result.block_reached(after_loop));
  for (const std::int32_t x : {-7, 0, 12}) check_sound(p, result, {x});
}
