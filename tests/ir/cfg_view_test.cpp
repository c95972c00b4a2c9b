// Tests of kildall/ir/cfg_view.hpp: the view models kildall's graph concepts,
// its edges equal a direct scan of the terminators (random programs), parallel
// edges are kept, and the generic algorithms (reverse post-order, dominators)
// run on it unchanged.
#include <doctest/doctest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/dominators.hpp>
#include <kildall/graph/reverse_postorder.hpp>
#include <kildall/ir/cfg_view.hpp>
#include <kildall/ir/verifier.hpp>

#include "random_programs.hpp"

using namespace kildall::ir;

static_assert(kildall::AnalysisGraph<CfgView>);
static_assert(kildall::ForwardAnalysisGraph<CfgView>);
static_assert(std::forward_iterator<IndexIterator>);

TEST_CASE("edges, predecessors and parallel edges of a small CFG") {
  const OpRegistry registry;
  const Module m = parse_and_verify(R"(func.func @f(%c: i1) {
  cf.cond_br %c, ^a, ^a
^a:
  cf.br ^b
^b:
  cf.cond_br %c, ^a, ^exit
^exit:
  return
}
)",
                                    registry);
  const CfgView cfg(m.functions[0]);
  REQUIRE(kildall::vertex_count(cfg) == 4);
  CHECK(cfg.successors(0).size() == 2);  // two parallel edges to ^a
  CHECK(cfg.successors(0)[0].target == 1);
  CHECK(cfg.successors(0)[1].target == 1);
  CHECK(cfg.predecessors(1).size() == 3);  // twice from the entry, once from ^b
  CHECK(cfg.predecessors(0).empty());
  CHECK(cfg.successors(3).empty());
  const auto rpo = kildall::reverse_postorder(cfg, CfgView::entry());
  CHECK(rpo == std::vector<BlockId>{0, 1, 2, 3});
  const auto dom = kildall::dominator_tree(cfg, CfgView::entry());
  CHECK(dom.dominates(1, 2));
  CHECK(dom.dominates(2, 3));
  CHECK_FALSE(dom.dominates(3, 2));
}

TEST_CASE("the view's edges are exactly the terminators' successors (random programs)") {
  const OpRegistry registry;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    testing::ProgramShape shape;
    shape.blocks = 2 + static_cast<unsigned>(seed % 7);
    const Module m = parse_and_verify(testing::random_program(seed, shape), registry, "r.mlir");
    const Function& fn = m.functions[0];
    const CfgView cfg(fn);
    std::vector<std::tuple<BlockId, BlockId, std::uint32_t>> scanned, viewed, reversed;
    for (BlockId b = 0; b < fn.blocks.size(); ++b) {
      const OpId t = fn.terminator(b);
      for (std::uint32_t i = 0; i < fn.ops[t].successor_count; ++i)
        scanned.emplace_back(b, fn.successors[fn.ops[t].successor_begin + i].block, fn.ops[t].successor_begin + i);
      for (const auto& e : kildall::out_edge_range(cfg, b)) {
        CHECK(source(e, cfg) == b);
        viewed.emplace_back(e.source, target(e, cfg), e.successor);
      }
      for (const auto& e : kildall::in_edge_range(cfg, b)) {
        CHECK(target(e, cfg) == b);
        reversed.emplace_back(e.source, e.target, e.successor);
      }
    }
    std::ranges::sort(reversed);
    CHECK(scanned == viewed);
    std::ranges::sort(scanned);
    CHECK(scanned == reversed);
  }
}

TEST_CASE("the view says whether a block ends in an unregistered op with successors") {
  const OpRegistry registry;
  const ParseOptions unregistered{.allow_unregistered_ops = true};
  const auto unregistered_branch = [&](const char* text) {
    const Module m = parse_and_verify(text, registry, "t.mlir", unregistered);
    return CfgView(m.functions.at(0), registry).has_unregistered_branch();
  };
  CHECK(unregistered_branch(R"(func.func @f() {
  "foo.br"() [^bb1] : () -> ()
^bb1:
  return
})"));
  // An unregistered op that is not a branch, and an unregistered terminator without successors.
  CHECK_FALSE(unregistered_branch(R"(func.func @f(%c: i1) {
  "foo.op"() : () -> ()
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  "foo.return"() : () -> ()
^bb2:
  return
})"));
  // In a later block only.
  CHECK(unregistered_branch(R"(func.func @f(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return
^bb2:
  "foo.br"() [^bb1] : () -> ()
})"));
}
