// Tests of kildall/rewrite/applicator.hpp: the pattern that applies at an op is the first matching one by decreasing benefit, insertion order among equals, any-kind patterns included, filtered ones never (oracle: a log of the patterns tried, against the order worked out by hand).
#include <kildall/rewrite/applicator.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "toy_ir.hpp"

namespace {

namespace rw = kildall::rewrite;
using toy::Kind;
using toy::OpId;
using toy::ValueId;

// A pattern that logs its name and matches when `matches`, changing the op in place (a no-op change).
void add_logged(toy::PatternSet& set, std::vector<std::string>& log, const std::string& name, auto root,
                std::uint32_t benefit, bool matches) {
  set.add(name, root, rw::Benefit{benefit}, [&log, name, matches](OpId op, toy::Rewriter& rewriter) {
    log.push_back(name);
    if (matches) rewriter.modify_in_place(op, [] {});
    return matches;
  });
}

struct OneAdd {
  toy::Function fn;
  OpId add = 0;
  OneAdd() {
    const ValueId x = fn.create(Kind::arg, {}, 0);
    add = fn.create(Kind::add, {x, x});
    fn.create(Kind::ret, {add});
  }
};

}  // namespace

TEST_CASE("higher benefit is tried first; equal benefits keep insertion order") {
  std::vector<std::string> log;
  toy::PatternSet set;
  add_logged(set, log, "low", Kind::add, 1, true);
  add_logged(set, log, "high_fails", Kind::add, 5, false);
  add_logged(set, log, "mid_a", Kind::add, 3, false);
  add_logged(set, log, "mid_b", Kind::add, 3, true);
  add_logged(set, log, "mid_c", Kind::add, 3, true);
  add_logged(set, log, "other_kind", Kind::mul, 9, true);
  const rw::PatternApplicator<toy::Function> applicator(set);
  OneAdd ir;
  toy::Rewriter rewriter(ir.fn);
  const std::optional<std::size_t> applied = applicator.match_and_rewrite(ir.add, rewriter);
  CHECK(applied == std::optional<std::size_t>(3));  // mid_b
  CHECK(log == std::vector<std::string>{"high_fails", "mid_a", "mid_b"});
  const auto order = applicator.candidates(Kind::add);
  CHECK(std::vector<std::uint32_t>(order.begin(), order.end()) == std::vector<std::uint32_t>{1, 2, 3, 4, 0});
}

TEST_CASE("any-kind patterns join every bucket by benefit, and alone serve the kinds nothing is rooted at") {
  std::vector<std::string> log;
  toy::PatternSet set;
  add_logged(set, log, "add_low", Kind::add, 1, false);
  add_logged(set, log, "any_mid", rw::any_kind, 2, false);
  add_logged(set, log, "add_high", Kind::add, 3, false);
  add_logged(set, log, "any_high", rw::any_kind, 3, false);
  const rw::PatternApplicator<toy::Function> applicator(set);
  OneAdd ir;
  toy::Rewriter rewriter(ir.fn);
  CHECK_FALSE(applicator.match_and_rewrite(ir.add, rewriter).has_value());
  CHECK(log == std::vector<std::string>{"add_high", "any_high", "any_mid", "add_low"});
  log.clear();
  CHECK_FALSE(applicator.match_and_rewrite(0, rewriter).has_value());  // the arg: only any-kind patterns
  CHECK(log == std::vector<std::string>{"any_high", "any_mid"});
  CHECK(rewriter.change_count() == 0);
}

TEST_CASE("a filter drops patterns at construction") {
  std::vector<std::string> log;
  toy::PatternSet set;
  add_logged(set, log, "kept", Kind::add, 1, true);
  add_logged(set, log, "dropped", Kind::add, 2, true);
  const rw::PatternApplicator<toy::Function> applicator(
      set, [](const rw::Pattern<toy::Function>& p) { return p.name() != "dropped"; });
  OneAdd ir;
  toy::Rewriter rewriter(ir.fn);
  CHECK(applicator.match_and_rewrite(ir.add, rewriter) == std::optional<std::size_t>(0));
  CHECK(log == std::vector<std::string>{"kept"});
  CHECK(applicator.candidates(Kind::add).size() == 1);
  CHECK(applicator.candidates(Kind::mul).empty());
}

TEST_CASE("a pattern that breaks its contract is named in a logic_error") {
  OneAdd ir;
  toy::Rewriter rewriter(ir.fn);
  toy::PatternSet mutates_then_fails;
  mutates_then_fails.add("sneaky", Kind::add, rw::Benefit{1}, [](OpId op, toy::Rewriter& r) {
    r.modify_in_place(op, [] {});
    return false;
  });
  CHECK_THROWS_WITH_AS(rw::PatternApplicator<toy::Function>(mutates_then_fails).match_and_rewrite(ir.add, rewriter),
                       "kildall::rewrite: pattern 'sneaky' changed the IR but reported no match", std::logic_error);
  toy::PatternSet claims = {};
  claims.add("claims", Kind::add, rw::Benefit{1}, [](OpId, toy::Rewriter&) { return true; });
  CHECK_THROWS_WITH_AS(rw::PatternApplicator<toy::Function>(claims).match_and_rewrite(ir.add, rewriter),
                       "kildall::rewrite: pattern 'claims' reported a match but made no change through the rewriter",
                       std::logic_error);
}
