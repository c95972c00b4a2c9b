// The analysis manager (kildall/pass/analysis_manager.hpp); oracle: construction counters kept by the analyses themselves, and sums recomputed by hand.
#include <doctest/doctest.h>

#include <kildall/pass/analysis_manager.hpp>

#include "toy_ir.hpp"

using namespace kildall::pass;

TEST_CASE("an analysis is computed once, then served from the cache") {
  toy::Context context;
  toy::Function f{"f", {1, 2, 3}, false};
  AnalysisManager<toy::Function, toy::Context> am(f, context);
  CHECK(am.cached<toy::SumAnalysis>() == nullptr);
  const toy::SumAnalysis& a = am.get<toy::SumAnalysis>();
  CHECK(a.sum == 6);
  CHECK(&am.get<toy::SumAnalysis>() == &a);
  CHECK(am.cached<toy::SumAnalysis>() == &a);
  CHECK(context.sums_computed == 1);
  CHECK(am.counters().computed == 1);
  CHECK(am.counters().cache_hits == 1);
  CHECK(am.get<toy::CountAnalysis>().count == 3);  // built from the unit alone
  CHECK(am.size() == 2);
}

TEST_CASE("preservation keeps, invalidation recomputes from the changed unit") {
  toy::Context context;
  toy::Function f{"f", {1, 2, 3}, false};
  AnalysisManager<toy::Function, toy::Context> am(f, context);
  (void)am.get<toy::SumAnalysis>();
  (void)am.get<toy::CountAnalysis>();
  am.invalidate(PreservedAnalyses::all());
  CHECK(am.size() == 2);
  f.values = {10, 20};  // a pass changes the unit and keeps only the count
  am.invalidate(PreservedAnalyses::none().preserve<toy::CountAnalysis>());
  CHECK(am.size() == 1);
  CHECK(am.counters().invalidated == 1);
  CHECK(am.cached<toy::SumAnalysis>() == nullptr);
  CHECK(am.get<toy::SumAnalysis>().sum == 30);  // recomputed
  CHECK(context.sums_computed == 2);
  CHECK(am.get<toy::CountAnalysis>().count == 3);  // kept (stale by the pass's word, as MLIR trusts it)
  am.clear();
  CHECK(am.size() == 0);
  CHECK(am.get<toy::CountAnalysis>().count == 2);
}

TEST_CASE("PreservedAnalyses") {
  CHECK(PreservedAnalyses::all().preserves<toy::SumAnalysis>());
  CHECK(PreservedAnalyses::all().preserves_all());
  CHECK_FALSE(PreservedAnalyses::none().preserves<toy::SumAnalysis>());
  PreservedAnalyses p = PreservedAnalyses::none();
  p.preserve<toy::SumAnalysis>();
  CHECK(p.preserves<toy::SumAnalysis>());
  CHECK(p.preserves<const toy::SumAnalysis&>());  // cv-ref stripped: one key per type
  CHECK_FALSE(p.preserves<toy::CountAnalysis>());
  CHECK(type_key<toy::SumAnalysis>() != type_key<toy::CountAnalysis>());
}
