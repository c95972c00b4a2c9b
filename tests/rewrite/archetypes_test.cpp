// Tests of kildall/rewrite/archetypes.hpp: each archetype models exactly its concepts, and the applicator and greedy driver compile and run on them with patterns that use only the concepts (oracle: the ops left, worked out by hand).
#include <kildall/rewrite/archetypes.hpp>

#include <kildall/rewrite/applicator.hpp>
#include <kildall/rewrite/concepts.hpp>
#include <kildall/rewrite/greedy_driver.hpp>
#include <kildall/rewrite/pattern_set.hpp>

#include <doctest/doctest.h>

#include <concepts>
#include <cstddef>
#include <span>
#include <vector>

namespace {

namespace rw = kildall::rewrite;
namespace ar = kildall::rewrite::archetypes;

// What the handles do not offer.
static_assert(!std::default_initializable<ar::basic_op<true>>);
static_assert(!std::totally_ordered<ar::basic_op<true>>);
static_assert(!std::equality_comparable<ar::value>);
static_assert(!std::equality_comparable<ar::constant>);
static_assert(!std::copyable<ar::rewritable_ir> && !std::movable<ar::rewritable_ir>);
static_assert(!rw::Hashable<ar::foldable_ir::op_type>);

// Which concepts each archetype models.
static_assert(rw::RewritableIr<ar::rewritable_ir> && rw::WorklistIr<ar::rewritable_ir>);
static_assert(!rw::IndexedOps<ar::rewritable_ir> && !rw::FoldableIr<ar::rewritable_ir>);
static_assert(rw::RewritableIr<ar::foldable_ir> && rw::WorklistIr<ar::foldable_ir>);
static_assert(rw::IndexedOps<ar::foldable_ir> && rw::FoldableIr<ar::foldable_ir>);

const ar::kind passthrough{5};

// A pattern using only RewritableIr: an op of kind 5 is replaced by its first operand.
template <class Ir>
void add_generic_patterns(rw::PatternSet<Ir>& set) {
  set.add("passthrough", passthrough, rw::Benefit{1}, [](const rw::op_t<Ir>& op, rw::Rewriter<Ir>& rewriter) {
    for (const auto& operand : rewriter.ir().operands(op)) {
      rewriter.replace_op(op, operand);
      return true;
    }
    return false;
  });
}

// c = constant; f = forward(c); t = to_constant 7; p = passthrough(t); sink(f); sink(p); an unused constant.
template <class Ir>
void build(Ir& ir) {
  const ar::value c = ir.result(ir.create(ar::constant_kind, {}, 1));
  const ar::value f = ir.result(ir.create(ar::forward, std::span(&c, 1)));
  const ar::value t = ir.result(ir.create(ar::to_constant, {}, 7));
  const ar::value p = ir.result(ir.create(passthrough, std::span(&t, 1)));
  ir.create(ar::sink, std::span(&f, 1));
  ir.create(ar::sink, std::span(&p, 1));
  ir.create(ar::constant_kind, {}, 2);
}

}  // namespace

TEST_CASE("the driver runs on the archetype with hashable ops and no folder") {
  ar::rewritable_ir ir;
  build(ir);
  rw::PatternSet<ar::rewritable_ir> set;
  add_generic_patterns(set);
  const rw::RewriteResult result = rw::apply_patterns_greedily(ir, set);
  CHECK(result.converged());
  CHECK(result.statistics.applications_of("passthrough") == 1);
  CHECK(result.statistics.dead_erased == 1);  // the unused constant
  CHECK(result.statistics.folds == 0);
  CHECK(ir.live_ops() == 5);  // c, f, t, and the two sinks
}

TEST_CASE("the driver folds on the archetype with op_index and a folder") {
  ar::foldable_ir ir;
  build(ir);
  rw::PatternSet<ar::foldable_ir> set;
  add_generic_patterns(set);
  const rw::PatternApplicator<ar::foldable_ir> applicator(set);
  const rw::RewriteResult result = rw::apply_patterns_greedily(ir, applicator);
  CHECK(result.converged());
  CHECK(result.statistics.applications_of("passthrough") == 1);
  CHECK(result.statistics.folds == 2);    // forward -> c, to_constant -> a new constant 7
  CHECK(result.statistics.created == 1);  // the constant 7
  CHECK(ir.live_ops() == 4);              // c, the constant 7, the two sinks
}
