// Tests of kildall/rewrite/rewriter.hpp on the toy IR: each change is made (oracle: the toy's use lists and its evaluator) and announced to the listener in the documented order, and misuse throws.
#include <kildall/rewrite/rewriter.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "toy_ir.hpp"

namespace {

namespace rw = kildall::rewrite;
using toy::Kind;
using toy::OpId;
using toy::ValueId;

// Records every notification as text.
class Recorder final : public rw::RewriteListener<toy::Function> {
 public:
  std::vector<std::string> events;
  void inserted(const OpId& op) override { events.push_back("inserted " + std::to_string(op)); }
  void modifying(const OpId& op) override { events.push_back("modifying " + std::to_string(op)); }
  void modified(const OpId& op) override { events.push_back("modified " + std::to_string(op)); }
  void replacing_uses(const ValueId& v) override { events.push_back("replacing_uses " + std::to_string(v)); }
  void erasing(const OpId& op) override { events.push_back("erasing " + std::to_string(op)); }
};

std::vector<OpId> users_of(const toy::Function& fn, ValueId v) {
  std::vector<OpId> found;
  for (const OpId u : fn.users(v)) found.push_back(u);
  return found;
}

}  // namespace

TEST_CASE("replace_op replaces every use, erases the op, and announces both") {
  toy::Function fn;
  const ValueId x = fn.create(Kind::arg, {}, 0);    // 0
  const ValueId n = fn.create(Kind::neg, {x});      // 1
  const ValueId s = fn.create(Kind::add, {n, n});   // 2
  fn.create(Kind::ret, {s});                        // 3
  Recorder recorder;
  toy::Rewriter rewriter(fn, &recorder);
  rewriter.replace_op(n, x);
  CHECK(recorder.events == std::vector<std::string>{"replacing_uses 1", "erasing 1"});
  CHECK(fn.op(n).erased);
  CHECK(users_of(fn, n).empty());
  CHECK(users_of(fn, x).size() == 2);  // s uses x twice
  CHECK(toy::evaluate(fn, {5}) == std::vector<std::uint64_t>{10});
  CHECK(rewriter.change_count() == 2);
}

TEST_CASE("create forwards to the IR and announces the op; inserted announces one made directly") {
  toy::Function fn;
  const ValueId x = fn.create(Kind::arg, {}, 0);
  Recorder recorder;
  toy::Rewriter rewriter(fn, &recorder);
  const OpId made = rewriter.create(Kind::neg, std::initializer_list<ValueId>{x}, std::uint64_t{0});
  CHECK(fn.kind(made) == Kind::neg);
  const OpId direct = fn.create(Kind::constant, {}, 3);
  rewriter.inserted(direct);
  CHECK(recorder.events == std::vector<std::string>{"inserted 1", "inserted 2"});
  CHECK(rewriter.change_count() == 2);
}

TEST_CASE("modify_in_place runs the change between modifying and modified") {
  toy::Function fn;
  const ValueId x = fn.create(Kind::arg, {}, 0);
  const ValueId c = fn.create(Kind::constant, {}, 4);
  const OpId s = fn.create(Kind::add, {c, x});
  fn.create(Kind::ret, {s});
  Recorder recorder;
  toy::Rewriter rewriter(fn, &recorder);
  rewriter.modify_in_place(s, [&] {
    recorder.events.push_back("change");
    fn.swap_operands(s);
  });
  CHECK(recorder.events == std::vector<std::string>{"modifying 2", "change", "modified 2"});
  CHECK(fn.op(s).operands[0] == x);
  CHECK(toy::evaluate(fn, {1}) == std::vector<std::uint64_t>{5});
}

TEST_CASE("replace_all_uses announces the value and moves its uses") {
  toy::Function fn;
  const ValueId x = fn.create(Kind::arg, {}, 0);
  const ValueId y = fn.create(Kind::arg, {}, 1);
  fn.create(Kind::ret, {x});
  Recorder recorder;
  toy::Rewriter rewriter(fn, &recorder);
  rewriter.replace_all_uses(x, y);
  CHECK(recorder.events == std::vector<std::string>{"replacing_uses 0"});
  CHECK(users_of(fn, x).empty());
  CHECK(toy::evaluate(fn, {1, 2}) == std::vector<std::uint64_t>{2});
}

TEST_CASE("misuse gets clear errors and changes nothing") {
  toy::Function fn;
  const ValueId x = fn.create(Kind::arg, {}, 0);
  const OpId r = fn.create(Kind::ret, {x});
  Recorder recorder;
  toy::Rewriter rewriter(fn, &recorder);
  CHECK_THROWS_AS(rewriter.erase_op(x), std::logic_error);  // x is still used
  const std::vector<ValueId> two = {x, x};
  CHECK_THROWS_WITH_AS(rewriter.replace_op(x, two),
                       "kildall::rewrite::Rewriter::replace_op: 2 replacement values for an op of 1 results",
                       std::invalid_argument);
  CHECK(recorder.events.empty());
  CHECK(rewriter.change_count() == 0);
  CHECK_FALSE(fn.op(x).erased);
  // Without a listener the rewriter is a checked wrapper.
  toy::Rewriter plain(fn);
  plain.erase_op(r);
  plain.erase_op(x);
  CHECK(fn.live_op_count() == 0);
}
