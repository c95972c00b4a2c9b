// Tests of kildall/ir/types.hpp: encodings, widths and bit helpers
// (checked against direct arithmetic).
#include <doctest/doctest.h>

#include <cstdint>

#include <kildall/ir/types.hpp>

using namespace kildall::ir;

TEST_CASE("type kinds and widths") {
  for (unsigned w = 1; w <= 64; ++w) {
    const Type t = Type::integer(w);
    CHECK(t.is_integer());
    CHECK(t.is_integer_like());
    CHECK_FALSE(t.is_index());
    CHECK(t.width() == w);
  }
  CHECK(Type::index().is_index());
  CHECK(Type::index().width() == 64);
  CHECK(Type::dialect(3).is_dialect());
  CHECK(Type::dialect(3).dialect_id() == 3);
  CHECK(Type::dialect(3).width() == 0);
  CHECK(Type::function(3).is_function());
  CHECK(Type::function(3).function_id() == 3);
  CHECK_FALSE(Type::function(3).is_dialect());
  CHECK_FALSE(Type::dialect(3).is_function());
  CHECK_FALSE(Type::function(0).is_integer_like());
  CHECK(Type::function(0).width() == 0);
  CHECK(Type::function(0) != Type::dialect(0));
  CHECK(Type().is_null());
  CHECK(Type::i1() == Type::integer(1));
  CHECK(Type::integer(8) != Type::index());
}

TEST_CASE("width_mask and sign_extend") {
  for (unsigned w = 1; w <= 12; ++w)
    for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << w); ++bits) {
      const std::int64_t expected =
          bits >= (std::uint64_t{1} << (w - 1)) ? static_cast<std::int64_t>(bits) - (std::int64_t{1} << w)
                                                : static_cast<std::int64_t>(bits);
      CHECK(sign_extend(bits, w) == expected);
      CHECK(sign_extend(bits | (std::uint64_t{1} << w) * 5, w) == expected);  // high garbage ignored
    }
  CHECK(width_mask(64) == ~std::uint64_t{0});
  CHECK(width_mask(0) == 0);
  CHECK(sign_extend(std::uint64_t{1} << 63, 64) == INT64_MIN);
}
