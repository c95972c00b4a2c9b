// Tests of kildall/rewrite/pattern_set.hpp: patterns kept in insertion order, found by name, and bad additions refused (oracle: hand-written expectations).
#include <kildall/rewrite/pattern_set.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "toy_ir.hpp"

namespace {

namespace rw = kildall::rewrite;
using toy::Kind;
using toy::OpId;

bool never(OpId, toy::Rewriter&) { return false; }

class Named final : public rw::Pattern<toy::Function> {
 public:
  explicit Named(std::string name) : Pattern(std::move(name), Kind::mul, rw::Benefit{4}) {}
  [[nodiscard]] bool match_and_rewrite(const OpId&, toy::Rewriter&) const override { return false; }
};

}  // namespace

TEST_CASE("patterns keep insertion order and are found by name") {
  toy::PatternSet set;
  CHECK(set.empty());
  set.add("first", Kind::add, rw::Benefit{1}, never);
  Named& second = set.emplace<Named>("second");
  set.add(rw::make_pattern<toy::Function>("third", rw::any_kind, rw::Benefit{9}, never));
  REQUIRE(set.size() == 3);
  CHECK(set[0].name() == "first");
  CHECK(&set[1] == &second);
  CHECK(set[2].name() == "third");
  CHECK(set.find("second") == std::optional<std::size_t>(1));
  CHECK_FALSE(set.find("fourth").has_value());
}

TEST_CASE("a null pattern or a second pattern of the same name is refused") {
  toy::PatternSet set;
  set.add("same", Kind::add, rw::Benefit{1}, never);
  CHECK_THROWS_WITH_AS(set.add("same", Kind::mul, rw::Benefit{2}, never),
                       "kildall::rewrite::PatternSet::add: a pattern named 'same' is already in the set",
                       std::invalid_argument);
  CHECK_THROWS_AS(set.add(std::unique_ptr<rw::Pattern<toy::Function>>{}), std::invalid_argument);
  CHECK(set.size() == 1);
}

TEST_CASE("the toy patterns form a set") {
  toy::PatternSet set;
  toy::add_toy_patterns(set);
  CHECK(set.size() == 5);
  CHECK(set.find("neg_neg").has_value());
}
