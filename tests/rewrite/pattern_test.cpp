// Tests of kildall/rewrite/pattern.hpp: a pattern keeps its name, root and benefit, and runs its match-and-rewrite (oracle: the toy IR after the rewrite, and hand-written expectations).
#include <kildall/rewrite/pattern.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "toy_ir.hpp"

namespace {

namespace rw = kildall::rewrite;
using toy::Kind;
using toy::OpId;
using toy::ValueId;

// A pattern written as a class: neg(neg x) -> x.
class DoubleNegation final : public rw::Pattern<toy::Function> {
 public:
  DoubleNegation() : Pattern("double_negation", Kind::neg, rw::Benefit{3}) {}
  [[nodiscard]] bool match_and_rewrite(const OpId& op, toy::Rewriter& rewriter) const override {
    const ValueId inner = rewriter.ir().op(op).operands[0];
    if (rewriter.ir().kind(inner) != Kind::neg) return false;
    rewriter.replace_op(op, rewriter.ir().op(inner).operands[0]);
    return true;
  }
};

}  // namespace

TEST_CASE("Benefit: 1 by default, ordered by value") {
  static_assert(rw::Benefit{}.value == 1);
  static_assert(rw::Benefit{2} > rw::Benefit{1});
  static_assert(rw::Benefit{5} == rw::Benefit{5});
}

TEST_CASE("a pattern class: name, root, benefit, and its rewrite") {
  const DoubleNegation pattern;
  CHECK(pattern.name() == "double_negation");
  REQUIRE(pattern.root().has_value());
  CHECK(*pattern.root() == Kind::neg);
  CHECK(pattern.benefit() == rw::Benefit{3});

  toy::Function fn;
  const ValueId x = fn.create(Kind::arg, {}, 0);
  const OpId inner = fn.create(Kind::neg, {x});
  const OpId outer = fn.create(Kind::neg, {inner});
  fn.create(Kind::ret, {outer});
  toy::Rewriter rewriter(fn);
  CHECK_FALSE(pattern.match_and_rewrite(inner, rewriter));  // neg of an argument
  CHECK(rewriter.change_count() == 0);
  CHECK(pattern.match_and_rewrite(outer, rewriter));
  CHECK(fn.op(outer).erased);
  CHECK(toy::evaluate(fn, {9}) == std::vector<std::uint64_t>{9});
}

TEST_CASE("make_pattern wraps a callable, rooted at a kind or at any kind") {
  int calls = 0;
  const auto rooted = rw::make_pattern<toy::Function>("rooted", Kind::add, rw::Benefit{2},
                                                      [&calls](const OpId&, toy::Rewriter&) {
                                                        ++calls;
                                                        return false;
                                                      });
  CHECK(rooted->name() == "rooted");
  CHECK(rooted->root() == std::optional<Kind>(Kind::add));
  CHECK(rooted->benefit().value == 2);
  const auto any = rw::make_pattern<toy::Function>("any", rw::any_kind, rw::Benefit{}, [](OpId, toy::Rewriter&) {
    return false;
  });
  CHECK_FALSE(any->root().has_value());
  toy::Function fn;
  toy::Rewriter rewriter(fn);
  CHECK_FALSE(rooted->match_and_rewrite(0, rewriter));
  CHECK(calls == 1);
}

TEST_CASE("a pattern needs a name") {
  CHECK_THROWS_WITH_AS((void)rw::make_pattern<toy::Function>("", Kind::add, rw::Benefit{},
                                                             [](OpId, toy::Rewriter&) { return false; }),
                       "kildall::rewrite::Pattern: a pattern needs a non-empty name", std::invalid_argument);
}
