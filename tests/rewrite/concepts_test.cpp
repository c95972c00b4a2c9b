// Tests of kildall/rewrite/concepts.hpp: which types model each concept (oracle: the member list of the header's comment, type by type) and what FoldedResult holds.
#include <kildall/rewrite/concepts.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "toy_ir.hpp"

// A named namespace: clang flags the unused defaulted == of types in an anonymous one.
namespace rewrite_concepts_test {

namespace rw = kildall::rewrite;

// A minimal adapter with every RewritableIr member; the variants below each lack one thing.
struct Minimal {
  using op_type = int;
  using value_type = int;
  using kind_type = std::string;
  std::vector<int> ints;
  [[nodiscard]] std::string kind(int) const { return "k"; }
  [[nodiscard]] std::span<const int> operands(int) const { return ints; }
  [[nodiscard]] std::span<const int> results(int) const { return ints; }
  [[nodiscard]] std::optional<int> defining_op(int v) const { return v; }
  [[nodiscard]] std::span<const int> users(int) const { return ints; }
  [[nodiscard]] bool is_trivially_dead(int) const { return false; }
  template <class F>
  void for_each_op(F&& f) const {
    for (const int i : ints) f(i);
  }
  void replace_all_uses(int, int) {}
  void erase(int) {}
};

// Kinds must be hashable.
struct UnhashableKind {
  int k = 0;
  friend bool operator==(const UnhashableKind&, const UnhashableKind&) = default;
};
struct WithUnhashableKind : Minimal {
  using kind_type = UnhashableKind;
  [[nodiscard]] UnhashableKind kind(int) const { return {}; }
};

// No users: the driver could not re-queue what a change affects.
struct WithoutUsers {
  using op_type = int;
  using value_type = int;
  using kind_type = int;
  [[nodiscard]] int kind(int) const { return 0; }
  [[nodiscard]] std::span<const int> operands(int) const { return {}; }
  [[nodiscard]] std::span<const int> results(int) const { return {}; }
  [[nodiscard]] std::optional<int> defining_op(int v) const { return v; }
  [[nodiscard]] bool is_trivially_dead(int) const { return false; }
  template <class F>
  void for_each_op(F&&) const {}
  void replace_all_uses(int, int) {}
  void erase(int) {}
};

// Users yielding the wrong handle type.
struct UsersOfStrings : Minimal {
  [[nodiscard]] std::vector<std::string> users(int) const { return {}; }
};

// A folder, and one whose fold answers bool instead of FoldOutcome.
struct MinimalFoldable : Minimal {
  using constant_type = long;
  rw::FoldOutcome fold(int, std::vector<rw::FoldedResult<int, long>>&) { return rw::FoldOutcome::none; }
  std::optional<int> materialize_constant(long, int, int) { return std::nullopt; }
};
struct FoldAnswersBool : Minimal {
  using constant_type = long;
  bool fold(int, std::vector<rw::FoldedResult<int, long>>&) { return false; }
  std::optional<int> materialize_constant(long, int, int) { return std::nullopt; }
};

// Ops that are neither indexed nor hashable cannot be kept on a worklist.
struct Opaque {
  int id = 0;
  friend bool operator==(const Opaque&, const Opaque&) = default;
};
struct WithOpaqueOps {
  using op_type = Opaque;
  using value_type = int;
  using kind_type = int;
  [[nodiscard]] int kind(Opaque) const { return 0; }
  [[nodiscard]] std::span<const int> operands(Opaque) const { return {}; }
  [[nodiscard]] std::span<const int> results(Opaque) const { return {}; }
  [[nodiscard]] std::optional<Opaque> defining_op(int) const { return std::nullopt; }
  [[nodiscard]] std::span<const Opaque> users(int) const { return {}; }
  [[nodiscard]] bool is_trivially_dead(Opaque) const { return false; }
  template <class F>
  void for_each_op(F&&) const {}
  void replace_all_uses(int, int) {}
  void erase(Opaque) {}
};
struct WithIndexedOpaqueOps : WithOpaqueOps {
  [[nodiscard]] std::size_t op_index(Opaque op) const { return static_cast<std::size_t>(op.id); }
};

}  // namespace rewrite_concepts_test

using namespace rewrite_concepts_test;

TEST_CASE("OpKind: copyable, equality-comparable and hashable") {
  static_assert(rw::OpKind<int>);
  static_assert(rw::OpKind<std::string>);
  static_assert(rw::OpKind<toy::Kind>);
  static_assert(!rw::OpKind<UnhashableKind>);
  static_assert(!rw::OpKind<std::vector<int>>);
}

TEST_CASE("RewritableIr: every member of the list, with the right handle types") {
  static_assert(rw::RewritableIr<Minimal>);
  static_assert(rw::RewritableIr<toy::Function>);
  static_assert(!rw::RewritableIr<WithUnhashableKind>);
  static_assert(!rw::RewritableIr<WithoutUsers>);
  static_assert(!rw::RewritableIr<UsersOfStrings>);
  static_assert(!rw::RewritableIr<int>);
}

TEST_CASE("WorklistIr and IndexedOps: hashable ops or a dense op index") {
  static_assert(rw::WorklistIr<Minimal>);  // int ops hash
  static_assert(!rw::IndexedOps<Minimal>);
  static_assert(rw::RewritableIr<WithOpaqueOps>);
  static_assert(!rw::WorklistIr<WithOpaqueOps>);
  static_assert(rw::IndexedOps<WithIndexedOpaqueOps>);
  static_assert(rw::WorklistIr<WithIndexedOpaqueOps>);
  static_assert(rw::IndexedOps<toy::Function>);
}

TEST_CASE("FoldableIr: a constant type, fold answering a FoldOutcome, and materialize_constant") {
  static_assert(rw::FoldableIr<MinimalFoldable>);
  static_assert(rw::FoldableIr<toy::Function>);
  static_assert(!rw::FoldableIr<Minimal>);
  static_assert(!rw::FoldableIr<FoldAnswersBool>);
}

TEST_CASE("FoldedResult holds either an existing value or a constant") {
  using F = rw::FoldedResult<int, std::uint64_t>;
  const F value = F::value(7);
  const F constant = F::constant(7);
  CHECK(value.is_value());
  CHECK(std::get<0>(value.folded) == 7);
  CHECK_FALSE(constant.is_value());
  CHECK(std::get<1>(constant.folded) == 7u);
  // Same type for value and constant still tells them apart.
  using Same = rw::FoldedResult<int, int>;
  CHECK(Same::value(1).is_value());
  CHECK_FALSE(Same::constant(1).is_value());
}
