// Tests of kildall/rewrite/greedy_driver.hpp on the toy IR: oracle = an evaluator of the toy IR (rewritten programs compute what the originals did on random inputs), a fixpoint check (no op folds, is dead or is matched by a pattern), and statistics worked out by hand.
#include <kildall/rewrite/greedy_driver.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "toy_ir.hpp"

namespace {

namespace rw = kildall::rewrite;
using toy::Kind;
using toy::OpId;
using toy::ValueId;

toy::PatternSet toy_patterns() {
  toy::PatternSet set;
  toy::add_toy_patterns(set);
  return set;
}

// Every live op of `fn` is a fixpoint: not dead, matched by no pattern, and not foldable when `folded_too`.
void check_fixpoint(toy::Function& fn, const toy::PatternSet& set, bool folded_too) {
  std::vector<OpId> live;
  fn.for_each_op([&](OpId op) { live.push_back(op); });
  toy::Rewriter rewriter(fn);
  for (const OpId op : live) {
    CHECK_FALSE(fn.is_trivially_dead(op));
    std::vector<rw::FoldedResult<ValueId, std::uint64_t>> folded;
    if (folded_too) CHECK(fn.fold(op, folded) == rw::FoldOutcome::none);
    for (std::size_t p = 0; p < set.size(); ++p) {
      const auto& root = set[p].root();
      if (root.has_value() && *root != fn.kind(op)) continue;
      const bool matched = set[p].match_and_rewrite(op, rewriter);
      CHECK_MESSAGE(!matched, "pattern ", std::string(set[p].name()), " still matches op ", op);
      if (matched) return;  // the IR changed: stop checking this function
    }
  }
}

// x, 0 -> s = x + 0 -> n1 = -s -> n2 = -n1 -> ret n2
toy::Function small_program() {
  toy::Function fn;
  const ValueId x = fn.create(Kind::arg, {}, 0);
  const ValueId zero = fn.create(Kind::constant, {}, 0);
  const ValueId s = fn.create(Kind::add, {x, zero});
  const ValueId n1 = fn.create(Kind::neg, {s});
  const ValueId n2 = fn.create(Kind::neg, {n1});
  fn.create(Kind::ret, {n2});
  return fn;
}

}  // namespace

TEST_CASE("rewritten random programs compute what the originals did, and end at a fixpoint") {
  const toy::PatternSet set = toy_patterns();
  std::mt19937_64 rng(20);
  std::uint64_t applications = 0, folds = 0, dead = 0;
  for (int program = 0; program < 3000; ++program) {
    const std::size_t size = 4 + program % 60;
    const toy::Function original = toy::random_function(rng, size);
    toy::Function rewritten = original;
    // Both orders; every third program without folding (the patterns alone).
    const rw::GreedyConfig config{
        .fold = program % 3 != 2,
        .order = program % 2 == 0 ? rw::TraversalOrder::bottom_up : rw::TraversalOrder::top_down};
    const rw::RewriteResult result = rw::apply_patterns_greedily(rewritten, set, config);
    REQUIRE_MESSAGE(result.converged(), result.message());
    applications += result.statistics.rewrites();
    folds += result.statistics.folds;
    dead += result.statistics.dead_erased;
    CHECK(rewritten.live_op_count() <= original.live_op_count() + result.statistics.created);
    for (int run = 0; run < 4; ++run) {
      const std::vector<std::uint64_t> inputs = {rng(), run == 0 ? 0 : rng(), run == 1 ? 1 : rng()};
      REQUIRE(toy::evaluate(rewritten, inputs) == toy::evaluate(original, inputs));
    }
    check_fixpoint(rewritten, set, config.fold);
  }
  // Not vacuous: every mechanism fired many times.
  CHECK(applications > 3000);
  CHECK(folds > 1000);
  CHECK(dead > 1000);
}

TEST_CASE("statistics of a small program, worked out by hand") {
  // Bottom-up: ret; n2 = -(-s) becomes s (neg_neg); ret again; n1 is dead;
  // s = x + 0 becomes x (add_zero); ret again; the 0 is dead; x stays.
  // The second sweep visits x and ret and changes nothing.
  toy::Function fn = small_program();
  const rw::RewriteResult result = rw::apply_patterns_greedily(fn, toy_patterns());
  CHECK(result.converged());
  CHECK(result.message() == "converged after 2 sweep(s)");
  const rw::RewriteStatistics& s = result.statistics;
  CHECK(s.applications_of("neg_neg") == 1);
  CHECK(s.applications_of("add_zero") == 1);
  CHECK(s.applications_of("mul_one") == 0);
  CHECK(s.applications_of("constant_right") == 0);
  CHECK(s.rewrites() == 2);
  CHECK(s.folds == 0);
  CHECK(s.dead_erased == 2);
  CHECK(s.erased == 4);
  CHECK(s.created == 0);
  CHECK(s.iterations == 2);
  CHECK(s.visits == 10);
  CHECK(fn.live_op_count() == 2);  // x and ret x
  CHECK(toy::evaluate(fn, {42}) == std::vector<std::uint64_t>{42});
}

TEST_CASE("folding comes first and materializes constants") {
  // ret (2 * 3): the mul folds to a new constant 6; both old constants die.
  toy::Function fn;
  const ValueId two = fn.create(Kind::constant, {}, 2);
  const ValueId three = fn.create(Kind::constant, {}, 3);
  const ValueId product = fn.create(Kind::mul, {two, three});
  fn.create(Kind::ret, {product});
  const rw::RewriteResult result = rw::apply_patterns_greedily(fn, toy_patterns());
  CHECK(result.converged());
  CHECK(result.statistics.folds == 1);
  CHECK(result.statistics.created == 1);
  CHECK(result.statistics.dead_erased == 2);
  CHECK(result.statistics.erased == 3);
  CHECK(result.statistics.rewrites() == 0);
  CHECK(fn.live_op_count() == 2);
  CHECK(toy::evaluate(fn, {}) == std::vector<std::uint64_t>{6});

  SUBCASE("without folding, the patterns alone leave the product") {
    toy::Function unfolded;
    const ValueId a = unfolded.create(Kind::constant, {}, 2);
    const ValueId b = unfolded.create(Kind::constant, {}, 3);
    unfolded.create(Kind::ret, {unfolded.create(Kind::mul, {a, b})});
    const rw::RewriteResult r = rw::apply_patterns_greedily(unfolded, toy_patterns(), rw::GreedyConfig{.fold = false});
    CHECK(r.converged());
    CHECK(r.statistics.folds == 0);
    CHECK(unfolded.live_op_count() == 4);
  }
}

TEST_CASE("two patterns undoing each other are reported by name at the rewrite limit, without hanging") {
  toy::PatternSet set;
  set.add("unrelated", Kind::neg, rw::Benefit{1}, [](OpId, toy::Rewriter&) { return false; });
  // x + x -> x * 2
  set.add("add_to_mul", Kind::add, rw::Benefit{1}, [](OpId op, toy::Rewriter& r) {
    const toy::Op& o = r.ir().op(op);
    if (o.operands[0] != o.operands[1]) return false;
    const ValueId x = o.operands[0];
    const OpId two = r.create(Kind::constant, std::initializer_list<ValueId>{}, std::uint64_t{2});
    r.replace_op(op, r.create(Kind::mul, std::initializer_list<ValueId>{x, two}));
    return true;
  });
  // x * 2 -> x + x
  set.add("mul_to_add", Kind::mul, rw::Benefit{1}, [](OpId op, toy::Rewriter& r) {
    const toy::Op& o = r.ir().op(op);
    if (!r.ir().is_constant(o.operands[1], 2)) return false;
    const ValueId x = o.operands[0];
    r.replace_op(op, r.create(Kind::add, std::initializer_list<ValueId>{x, x}));
    return true;
  });
  toy::Function fn;
  const ValueId x = fn.create(Kind::arg, {}, 0);
  fn.create(Kind::ret, {fn.create(Kind::add, {x, x})});

  SUBCASE("an explicit limit") {
    const rw::RewriteResult result = rw::apply_patterns_greedily(fn, set, rw::GreedyConfig{.max_rewrites = 1000});
    CHECK(result.status == rw::RewriteStatus::rewrite_limit);
    CHECK_FALSE(result.converged());
    CHECK(result.still_firing == std::vector<std::string>{"add_to_mul", "mul_to_add"});
    CHECK_FALSE(result.folding_still_firing);
    CHECK(result.statistics.rewrites() == 1000);
    CHECK(result.statistics.iterations == 1);
    CHECK(result.message() == "did not converge: stopped at the rewrite limit; still firing: add_to_mul mul_to_add");
    // Still a correct program: 2x.
    CHECK(toy::evaluate(fn, {21}) == std::vector<std::uint64_t>{42});
  }
  SUBCASE("the default limit: 64 per op of the input plus 1024") {
    const rw::RewriteResult result = rw::apply_patterns_greedily(fn, set);
    CHECK(result.status == rw::RewriteStatus::rewrite_limit);
    CHECK(result.statistics.rewrites() == 64 * 3 + 1024);
    CHECK(result.still_firing == std::vector<std::string>{"add_to_mul", "mul_to_add"});
  }
}

TEST_CASE("the iteration limit names the patterns that applied in the last sweep") {
  toy::Function fn = small_program();
  const rw::RewriteResult result = rw::apply_patterns_greedily(fn, toy_patterns(), rw::GreedyConfig{.max_iterations = 1});
  CHECK(result.status == rw::RewriteStatus::iteration_limit);
  CHECK(result.statistics.iterations == 1);
  CHECK(result.still_firing == std::vector<std::string>{"add_zero", "neg_neg"});
  CHECK(result.message() == "did not converge within 1 sweep(s); still firing: add_zero neg_neg");

  SUBCASE("folding that still fires is reported") {
    toy::Function folding;
    const ValueId a = folding.create(Kind::constant, {}, 2);
    folding.create(Kind::ret, {folding.create(Kind::neg, {a})});
    const rw::RewriteResult r = rw::apply_patterns_greedily(folding, toy_patterns(), rw::GreedyConfig{.max_iterations = 1});
    CHECK(r.status == rw::RewriteStatus::iteration_limit);
    CHECK(r.still_firing.empty());
    CHECK(r.folding_still_firing);
    CHECK(r.message() == "did not converge within 1 sweep(s); still firing: (folding)");
  }
}

TEST_CASE("the two traversal orders visit in opposite directions") {
  // Two independent neg(neg x) chains: bottom-up rewrites the later one first.
  for (const rw::TraversalOrder order : {rw::TraversalOrder::bottom_up, rw::TraversalOrder::top_down}) {
    toy::Function fn;
    const ValueId x = fn.create(Kind::arg, {}, 0);
    const OpId first = fn.create(Kind::neg, {fn.create(Kind::neg, {x})});
    const OpId second = fn.create(Kind::neg, {fn.create(Kind::neg, {x})});
    fn.create(Kind::ret, {first});
    fn.create(Kind::ret, {second});
    toy::PatternSet set;
    std::vector<OpId> rewritten;
    set.add("neg_neg_logged", Kind::neg, rw::Benefit{1}, [&rewritten](OpId op, toy::Rewriter& r) {
      const ValueId inner = r.ir().op(op).operands[0];
      if (r.ir().kind(inner) != Kind::neg) return false;
      rewritten.push_back(op);
      r.replace_op(op, r.ir().op(inner).operands[0]);
      return true;
    });
    const rw::RewriteResult result = rw::apply_patterns_greedily(fn, set, rw::GreedyConfig{.order = order});
    CHECK(result.converged());
    const std::vector<OpId> expected =
        order == rw::TraversalOrder::bottom_up ? std::vector<OpId>{second, first} : std::vector<OpId>{first, second};
    CHECK(rewritten == expected);
  }
}

TEST_CASE("bad configurations and failing patterns get clear errors") {
  toy::Function fn = small_program();
  CHECK_THROWS_AS((void)rw::apply_patterns_greedily(fn, toy_patterns(), rw::GreedyConfig{.max_iterations = 0}),
                  std::invalid_argument);
  CHECK_THROWS_WITH_AS((void)rw::apply_patterns_greedily(fn, toy_patterns(), rw::GreedyConfig{.max_rewrites = 0}),
                       "kildall::rewrite::apply_patterns_greedily: max_rewrites must be at least 1",
                       std::invalid_argument);
  toy::PatternSet throwing;
  throwing.add("throws", Kind::add, rw::Benefit{1}, [](OpId, toy::Rewriter&) -> bool {
    throw std::runtime_error("pattern failed");
  });
  CHECK_THROWS_WITH_AS((void)rw::apply_patterns_greedily(fn, throwing), "pattern failed", std::runtime_error);
  toy::PatternSet lying;
  lying.add("claims_a_match", Kind::ret, rw::Benefit{1}, [](OpId, toy::Rewriter&) { return true; });
  CHECK_THROWS_WITH_AS((void)rw::apply_patterns_greedily(fn, lying),
                       "kildall::rewrite: pattern 'claims_a_match' reported a match but made no change through the "
                       "rewriter",
                       std::logic_error);
}

TEST_CASE("an empty function and an empty pattern set converge at once") {
  toy::Function empty;
  const rw::RewriteResult result = rw::apply_patterns_greedily(empty, toy_patterns());
  CHECK(result.converged());
  CHECK(result.statistics.iterations == 1);
  CHECK(result.statistics.visits == 0);
  toy::Function fn = small_program();
  const rw::RewriteResult no_patterns = rw::apply_patterns_greedily(fn, toy::PatternSet{});
  CHECK(no_patterns.converged());
  CHECK(no_patterns.statistics.applications.empty());
}

namespace {

// The toy IR whose constants cannot be materialized: folds to constants are cancelled.
struct NoConstants : toy::Function {
  std::optional<ValueId> materialize_constant(std::uint64_t, ValueId, OpId) { return std::nullopt; }
};

// The toy IR whose folder also moves a constant to the right of an add, in place
// (`always_in_place`: claims an in-place change for every add, a folder that never settles).
struct InPlaceFolding : toy::Function {
  bool always_in_place = false;
  rw::FoldOutcome fold(OpId op, std::vector<rw::FoldedResult<ValueId, std::uint64_t>>& results) {
    const toy::Op& o = this->op(op);
    if (o.kind == Kind::add && (always_in_place || (kind(o.operands[0]) == Kind::constant &&
                                                    kind(o.operands[1]) != Kind::constant))) {
      if (!always_in_place) swap_operands(op);
      return rw::FoldOutcome::updated_in_place;
    }
    return toy::Function::fold(op, results);
  }
};

template <class Ir>
rw::PatternSet<Ir> add_zero_only() {
  rw::PatternSet<Ir> set;
  set.add("add_zero_right", Kind::add, rw::Benefit{1}, [](OpId op, rw::Rewriter<Ir>& r) {
    if (!r.ir().is_constant(r.ir().op(op).operands[1], 0)) return false;
    r.replace_op(op, r.ir().op(op).operands[0]);
    return true;
  });
  return set;
}

}  // namespace

TEST_CASE("a fold whose constant cannot be materialized is cancelled, and the op stays") {
  NoConstants fn;
  const ValueId two = fn.create(Kind::constant, {}, 2);
  const ValueId three = fn.create(Kind::constant, {}, 3);
  fn.create(Kind::ret, {fn.create(Kind::mul, {two, three})});
  static_assert(rw::FoldableIr<NoConstants>);
  rw::PatternSet<NoConstants> none;
  const rw::RewriteResult result = rw::apply_patterns_greedily(fn, none);
  CHECK(result.converged());
  CHECK(result.statistics.folds == 0);
  CHECK(result.statistics.created == 0);
  CHECK(fn.live_op_count() == 4);
  CHECK(toy::evaluate(fn, {}) == std::vector<std::uint64_t>{6});
}

TEST_CASE("an in-place fold counts as a fold, and the op then meets the patterns in the same visit") {
  InPlaceFolding fn;
  const ValueId x = fn.create(Kind::arg, {}, 0);
  const ValueId zero = fn.create(Kind::constant, {}, 0);
  fn.create(Kind::ret, {fn.create(Kind::add, {zero, x})});  // 0 + x: the pattern only sees x + 0
  const rw::RewriteResult result = rw::apply_patterns_greedily(fn, add_zero_only<InPlaceFolding>());
  CHECK(result.converged());
  CHECK(result.statistics.folds == 1);
  CHECK(result.statistics.applications_of("add_zero_right") == 1);
  // ret, add (folded, then rewritten), ret (a user of the replaced add), zero (dead), x; then x, ret.
  CHECK(result.statistics.visits == 5 + 2);
  CHECK(fn.live_op_count() == 2);

  SUBCASE("a folder that always claims an in-place change stops at the iteration limit, named") {
    InPlaceFolding restless;
    restless.always_in_place = true;
    const ValueId a = restless.create(Kind::arg, {}, 0);
    restless.create(Kind::ret, {restless.create(Kind::add, {a, a})});
    const rw::RewriteResult r = rw::apply_patterns_greedily(restless, add_zero_only<InPlaceFolding>());
    CHECK(r.status == rw::RewriteStatus::iteration_limit);
    CHECK(r.statistics.iterations == 10);
    CHECK(r.statistics.folds == 10);
    CHECK(r.folding_still_firing);
    CHECK(r.still_firing.empty());
  }
}

namespace {

// The toy IR with a region step that reports a change on its first `changes` calls (as
// unreachable blocks found one sweep after another would) and counts its calls.
struct RegionSimplifying : toy::Function {
  std::size_t changes = 0;
  std::size_t calls = 0;
  std::uint64_t simplify_regions() {
    ++calls;
    return calls <= changes ? 1 : 0;
  }
};
static_assert(rw::RegionSimplifyingIr<RegionSimplifying> && !rw::RegionSimplifyingIr<toy::Function>);

}  // namespace

TEST_CASE("region simplification runs after every sweep, and a change there asks for another sweep") {
  const auto pattern_set = [] {
    rw::PatternSet<RegionSimplifying> s;
    return s;
  }();
  RegionSimplifying fn;
  static_cast<toy::Function&>(fn) = small_program();
  fn.changes = 2;
  const rw::RewriteResult result = rw::apply_patterns_greedily(fn, pattern_set);
  CHECK(result.converged());
  CHECK(fn.calls == 3);  // two sweeps that it changed, one that changed nothing
  CHECK(result.statistics.iterations == 3);
  CHECK(result.statistics.region_simplifications == 2);

  RegionSimplifying off;
  static_cast<toy::Function&>(off) = small_program();
  off.changes = 2;
  rw::GreedyConfig config;
  config.simplify_regions = false;
  const rw::RewriteResult without = rw::apply_patterns_greedily(off, pattern_set, config);
  CHECK(without.converged());
  CHECK(off.calls == 0);
  CHECK(without.statistics.region_simplifications == 0);

  RegionSimplifying endless;
  static_cast<toy::Function&>(endless) = small_program();
  endless.changes = 1000;
  config = {};
  config.max_iterations = 4;
  const rw::RewriteResult stopped = rw::apply_patterns_greedily(endless, pattern_set, config);
  CHECK(stopped.status == rw::RewriteStatus::iteration_limit);
  CHECK(endless.calls == 4);
  CHECK(stopped.message().find("region simplification") != std::string::npos);
}
