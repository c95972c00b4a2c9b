// Compiles and runs the C++ blocks of docs/rewrites.md, as printed there, so the page cannot rot (oracles: the circuit's truth table before and after rewriting, the figures the page states, and the grid example's row and column of every thread id).
// (tests/docs/check_doc_snippets.py checks the blocks are verbatim.)

// --- docs/rewrites.md: "Your IR" (verbatim) -----------------------------------
#include <algorithm>
#include <memory>
#include <vector>

namespace circuit {
enum class Gate { input, constant, and_, or_, not_, output };
struct Node {
  Gate gate;
  bool value = false;            // of a constant
  std::vector<Node*> operands;
  std::vector<Node*> users;      // one entry per use
  bool erased = false;
};
struct Circuit {
  std::vector<std::unique_ptr<Node>> nodes;  // nodes never move: a Node* is a handle
  Node* add(Gate gate, std::vector<Node*> operands, bool value = false) {
    nodes.push_back(std::make_unique<Node>(Node{gate, value, operands, {}, false}));
    for (Node* operand : operands) operand->users.push_back(nodes.back().get());
    return nodes.back().get();
  }
  void erase(Node* node) {
    for (Node* operand : node->operands)
      operand->users.erase(std::find(operand->users.begin(), operand->users.end(), node));
    node->operands.clear();
    node->erased = true;
  }
};
}  // namespace circuit
// --- end of the snippet -------------------------------------------------------

// --- docs/rewrites.md: "The adapter" (verbatim) -------------------------------
#include <kildall/rewrite/concepts.hpp>

#include <array>
#include <optional>

// kildall::rewrite's view of a Circuit: a node is an op and its one result.
struct CircuitIr {
  using op_type = circuit::Node*;     // hashable: the driver's worklist hashes it
  using value_type = circuit::Node*;
  using kind_type = circuit::Gate;
  using constant_type = bool;
  circuit::Circuit* circuit;

  circuit::Gate kind(circuit::Node* n) const { return n->gate; }
  const std::vector<circuit::Node*>& operands(circuit::Node* n) const { return n->operands; }
  std::array<circuit::Node*, 1> results(circuit::Node* n) const { return {n}; }
  std::optional<circuit::Node*> defining_op(circuit::Node* v) const { return v; }
  const std::vector<circuit::Node*>& users(circuit::Node* v) const { return v->users; }
  bool is_trivially_dead(circuit::Node* n) const { return n->gate != circuit::Gate::output && n->users.empty(); }
  template <class F>
  void for_each_op(F&& f) const {
    for (const auto& n : circuit->nodes)
      if (!n->erased) f(n.get());
  }
  void replace_all_uses(circuit::Node* from, circuit::Node* to) {
    for (circuit::Node* user : from->users) {
      std::replace(user->operands.begin(), user->operands.end(), from, to);
      to->users.push_back(user);
    }
    from->users.clear();
  }
  void erase(circuit::Node* n) { circuit->erase(n); }
  circuit::Node* create(circuit::Gate gate, std::vector<circuit::Node*> operands) {
    return circuit->add(gate, std::move(operands));
  }

  // Folding: x & 0 = 0, x & 1 = x, x | 1 = 1, x | 0 = x, not of a constant.
  kildall::rewrite::FoldOutcome fold(circuit::Node* n,
                                     std::vector<kildall::rewrite::FoldedResult<circuit::Node*, bool>>& results) {
    using Result = kildall::rewrite::FoldedResult<circuit::Node*, bool>;
    const auto constant = [](circuit::Node* v) {
      return v->gate == circuit::Gate::constant ? std::optional<bool>(v->value) : std::nullopt;
    };
    if (n->gate == circuit::Gate::not_ && constant(n->operands[0])) {
      results.push_back(Result::constant(!*constant(n->operands[0])));
      return kildall::rewrite::FoldOutcome::folded;
    }
    if (n->gate != circuit::Gate::and_ && n->gate != circuit::Gate::or_) return kildall::rewrite::FoldOutcome::none;
    const bool absorbing = n->gate == circuit::Gate::or_;
    for (int i = 0; i < 2; ++i) {
      if (const std::optional<bool> c = constant(n->operands[i])) {
        results.push_back(*c == absorbing ? Result::constant(absorbing) : Result::value(n->operands[1 - i]));
        return kildall::rewrite::FoldOutcome::folded;
      }
    }
    return kildall::rewrite::FoldOutcome::none;
  }
  std::optional<circuit::Node*> materialize_constant(bool c, circuit::Node* /*like*/, circuit::Node* /*before*/) {
    return circuit->add(circuit::Gate::constant, {}, c);
  }
};
static_assert(kildall::rewrite::FoldableIr<CircuitIr> && kildall::rewrite::WorklistIr<CircuitIr>);
// --- end of the snippet -------------------------------------------------------

// --- docs/rewrites.md: "Patterns and the driver" (verbatim) -------------------
#include <kildall/rewrite/greedy_driver.hpp>

kildall::rewrite::PatternSet<CircuitIr> circuit_patterns() {
  using circuit::Gate;
  using circuit::Node;
  using Rewriter = kildall::rewrite::Rewriter<CircuitIr>;
  kildall::rewrite::PatternSet<CircuitIr> set;
  // not(not x) -> x
  set.add("double_not", Gate::not_, kildall::rewrite::Benefit{1}, [](Node* n, Rewriter& rewriter) {
    Node* inner = n->operands[0];
    if (inner->gate != Gate::not_) return false;
    rewriter.replace_op(n, inner->operands[0]);
    return true;
  });
  // x & x -> x, x | x -> x
  set.add("idempotent", kildall::rewrite::any_kind, kildall::rewrite::Benefit{1}, [](Node* n, Rewriter& rewriter) {
    if ((n->gate != Gate::and_ && n->gate != Gate::or_) || n->operands[0] != n->operands[1]) return false;
    rewriter.replace_op(n, n->operands[0]);
    return true;
  });
  // not a & not b -> not(a | b), when the two nots have no other use: one gate fewer
  set.add("de_morgan", Gate::and_, kildall::rewrite::Benefit{2}, [](Node* n, Rewriter& rewriter) {
    Node* a = n->operands[0];
    Node* b = n->operands[1];
    if (a->gate != Gate::not_ || b->gate != Gate::not_ || a == b || a->users.size() != 1 || b->users.size() != 1)
      return false;
    Node* either = rewriter.create(Gate::or_, std::vector<Node*>{a->operands[0], b->operands[0]});
    rewriter.replace_op(n, rewriter.create(Gate::not_, std::vector<Node*>{either}));
    return true;
  });
  return set;
}

// output(((not x & not y) & 1) | (z & z))
kildall::rewrite::RewriteResult simplify_example(circuit::Circuit& c) {
  using circuit::Gate;
  circuit::Node* x = c.add(Gate::input, {});
  circuit::Node* y = c.add(Gate::input, {});
  circuit::Node* z = c.add(Gate::input, {});
  circuit::Node* one = c.add(Gate::constant, {}, true);
  circuit::Node* both = c.add(Gate::and_, {c.add(Gate::not_, {x}), c.add(Gate::not_, {y})});
  circuit::Node* left = c.add(Gate::and_, {both, one});
  c.add(Gate::output, {c.add(Gate::or_, {left, c.add(Gate::and_, {z, z})})});

  CircuitIr ir{&c};
  return kildall::rewrite::apply_patterns_greedily(ir, circuit_patterns());
}
// --- end of the snippet -------------------------------------------------------

#include <doctest/doctest.h>

#include <cstddef>
#include <map>
#include <stdexcept>

// --- docs/rewrites.md: "The reference IR" (verbatim) -------------------------
#include <kildall/ir/analysis/unsigned_when_equivalent.hpp>
#include <kildall/ir/assume.hpp>
#include <kildall/ir/canonicalize.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/verifier.hpp>

// A thread's row and column in a 32-wide grid, the thread id asserted in [0, 1023].
std::string simplify_grid() {
  kildall::ir::OpRegistry registry;
  (void)kildall::ir::add_assume_op(registry);
  kildall::ir::Module module = kildall::ir::parse_and_verify(R"(
func.func @grid(%tid: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1023 = arith.constant 1023 : i32
  %t = kildall.assume %tid in [%c0, %c1023] : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i32
  %row = arith.divsi %t, %c32 : i32
  %scaled = arith.muli %one, %row : i32
  %col = arith.remsi %t, %c32 : i32
  return %scaled, %col : i32, i32
})", registry, "grid.mlir");
  kildall::ir::Function& fn = module.functions[0];
  {
    const kildall::ir::IntRangeAnalysis ranges(fn, &registry);
    (void)kildall::ir::apply_arith_unsigned_when_equivalent(fn, ranges);  // divsi -> divui, remsi -> remui
  }
  (void)kildall::ir::canonicalize(fn, registry);  // 1 * row is row; %one is dead
  kildall::ir::verify(module);
  return kildall::ir::print_module(module);
}
// --- end of the snippet -------------------------------------------------------

#include <kildall/ir/interpreter.hpp>

namespace {

// The value of every output of `c` with inputs (in creation order) set from the bits of `inputs`.
std::vector<bool> outputs(const circuit::Circuit& c, unsigned inputs) {
  std::map<const circuit::Node*, bool> value;
  unsigned next_input = 0;
  for (const auto& n : c.nodes)
    if (n->gate == circuit::Gate::input) value[n.get()] = ((inputs >> next_input++) & 1u) != 0;
  std::vector<bool> result;
  // Nodes may be created after their users (rewrites append), so evaluate by recursion on operands.
  const auto eval = [&value](const auto& self, const circuit::Node* n) -> bool {
    if (const auto it = value.find(n); it != value.end()) return it->second;
    const auto arg = [&](std::size_t i) { return self(self, n->operands.at(i)); };
    bool v = false;
    switch (n->gate) {
      case circuit::Gate::constant: v = n->value; break;
      case circuit::Gate::and_: v = arg(0) && arg(1); break;
      case circuit::Gate::or_: v = arg(0) || arg(1); break;
      case circuit::Gate::not_: v = !arg(0); break;
      case circuit::Gate::output: v = arg(0); break;
      case circuit::Gate::input: throw std::logic_error("unset input");
    }
    value[n] = v;
    return v;
  };
  for (const auto& n : c.nodes)
    if (n->gate == circuit::Gate::output && !n->erased) result.push_back(eval(eval, n.get()));
  return result;
}

std::size_t live_nodes(const circuit::Circuit& c) {
  std::size_t n = 0;
  for (const auto& node : c.nodes) n += node->erased ? 0 : 1;
  return n;
}

}  // namespace

TEST_CASE("docs/rewrites.md: the circuit example") {
  circuit::Circuit c;
  const kildall::rewrite::RewriteResult result = simplify_example(c);
  // The page's claims.
  CHECK(result.converged());
  CHECK(result.message() == "converged after 2 sweep(s)");
  CHECK(result.statistics.applications_of("de_morgan") == 1);
  CHECK(result.statistics.applications_of("idempotent") == 1);
  CHECK(result.statistics.applications_of("double_not") == 0);
  CHECK(result.statistics.folds == 1);
  CHECK(result.statistics.created == 2);
  CHECK(live_nodes(c) == 7);  // x, y, z, or(x, y), its not, or(not, z), output
  // The function the circuit was built to compute, ((not x & not y) & 1) | (z & z), on every input.
  for (unsigned inputs = 0; inputs < 8; ++inputs) {
    const bool x = (inputs & 1u) != 0, y = (inputs & 2u) != 0, z = (inputs & 4u) != 0;
    CHECK(outputs(c, inputs) == std::vector<bool>{(!x && !y) || z});
  }
}

TEST_CASE("docs/rewrites.md: the reference IR example") {
  const std::string out = simplify_grid();
  // The page's claims: unsigned division and remainder, %row returned directly, %one gone.
  CHECK(out.find("%row = arith.divui %t, %c32_i32 : i32") != std::string::npos);  // %c32 hoisted
  CHECK(out.find("%col = arith.remui %t, %c32_i32 : i32") != std::string::npos);
  CHECK(out.find("return %row, %col : i32, i32") != std::string::npos);
  CHECK(out.find("arith.muli") == std::string::npos);
  CHECK(out.find("%one") == std::string::npos);
  // Same results as the original on every thread id of the asserted range.
  kildall::ir::OpRegistry registry;
  (void)kildall::ir::add_assume_op(registry);
  const kildall::ir::Module rewritten = kildall::ir::parse_and_verify(out, registry, "out.mlir");
  const kildall::ir::Interpreter after(rewritten);
  for (std::uint64_t tid = 0; tid < 1024; ++tid) {
    const kildall::ir::ExecResult r = after.run(0u, std::vector<std::uint64_t>{tid});
    REQUIRE(r.status == kildall::ir::ExecStatus::returned);
    CHECK(r.results == std::vector<std::uint64_t>{tid / 32, tid % 32});
  }
}
