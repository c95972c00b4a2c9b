// Tests support/huge_buffer_cache.hpp (reuse by exact size and layout, most recent first, first-in-first-out eviction within the capacity, oversized buffers freed, a changed largest size, everything freed once); oracle: a recording free function and the pointers given.

#include <doctest/doctest.h>

#include <cstddef>
#include <utility>
#include <vector>

#include <kildall/support/huge_buffer_cache.hpp>
#include <kildall/support/large_array_allocator.hpp>

namespace {

std::vector<std::pair<void*, std::size_t>> freed;  // what the cache released, in order

struct RecordFree {
  void operator()(void* p, std::size_t bytes) const { freed.emplace_back(p, bytes); }
};

using Cache = kildall::detail::HugeBufferCache<RecordFree>;

// Distinct addresses to hand to the cache (never dereferenced).
char buffers[8];
void* buffer(int i) { return &buffers[i]; }

}  // namespace

TEST_CASE("a buffer is handed back only for the same size and layout, the most recent first") {
  freed.clear();
  {
    Cache cache(100, 50);
    CHECK(cache.take(10, 0) == nullptr);
    cache.give(buffer(0), 10, 0);
    cache.give(buffer(1), 10, 0);
    cache.give(buffer(2), 20, 0);
    CHECK(cache.kept_bytes() == 40);
    CHECK(cache.take(10, 1) == nullptr);  // same size, other layout
    CHECK(cache.take(15, 0) == nullptr);  // no larger buffer for a smaller request
    CHECK(cache.take(10, 0) == buffer(1));
    CHECK(cache.take(10, 0) == buffer(0));
    CHECK(cache.take(10, 0) == nullptr);
    CHECK(cache.kept_bytes() == 20);
    CHECK(freed.empty());
  }
  REQUIRE(freed.size() == 1);  // the destructor frees what is left
  CHECK(freed[0] == std::pair<void*, std::size_t>{buffer(2), 20});
}

TEST_CASE("the oldest buffers are freed to make room, and oversized ones are not kept") {
  freed.clear();
  Cache cache(100, 40);
  cache.give(buffer(0), 40, 0);
  cache.give(buffer(1), 30, 0);
  cache.give(buffer(2), 40, 0);  // 110 > 100: the oldest goes
  REQUIRE(freed.size() == 1);
  CHECK(freed[0].first == buffer(0));
  CHECK(cache.kept_bytes() == 70);
  cache.give(buffer(3), 41, 0);  // larger than any kept buffer: freed at once
  REQUIRE(freed.size() == 2);
  CHECK(freed[1].first == buffer(3));
  CHECK(cache.take(30, 0) == buffer(1));
  cache.clear();
  REQUIRE(freed.size() == 3);
  CHECK(freed[2].first == buffer(2));
  CHECK(cache.kept_bytes() == 0);
  CHECK(cache.take(40, 0) == nullptr);
}

TEST_CASE("lowering the largest buffer kept frees the kept ones above it; later buffers follow the new limit") {
  freed.clear();
  Cache cache(100, 40);
  CHECK(cache.largest_buffer_bytes() == 40);
  cache.give(buffer(0), 40, 0);
  cache.give(buffer(1), 10, 0);
  cache.give(buffer(2), 30, 0);
  cache.set_largest_buffer_bytes(20);
  CHECK(cache.largest_buffer_bytes() == 20);
  REQUIRE(freed.size() == 2);  // the two above 20, newest first
  CHECK(freed[0].first == buffer(2));
  CHECK(freed[1].first == buffer(0));
  CHECK(cache.kept_bytes() == 10);
  CHECK(cache.take(10, 0) == buffer(1));
  cache.give(buffer(3), 30, 0);  // above the new limit: freed at once
  REQUIRE(freed.size() == 3);
  CHECK(freed[2].first == buffer(3));
  cache.set_largest_buffer_bytes(50);  // raised: kept again
  cache.give(buffer(4), 30, 0);
  CHECK(freed.size() == 3);
  CHECK(cache.take(30, 0) == buffer(4));
}

TEST_CASE("at most max_buffers are kept, however small") {
  freed.clear();
  Cache cache(1000, 1000);
  static char many[Cache::max_buffers + 1];
  for (std::size_t i = 0; i <= Cache::max_buffers; ++i) cache.give(&many[i], 1, 0);
  REQUIRE(freed.size() == 1);
  CHECK(freed[0].first == &many[0]);
  CHECK(cache.kept_bytes() == Cache::max_buffers);
}

TEST_CASE("a large array freed and allocated again at the same size reuses the buffer, contents rewritten") {
  using kildall::detail::huge_page_bytes;
  using Array = kildall::detail::LargeArray<std::size_t>;
  const std::size_t n = 3 * huge_page_bytes / sizeof(std::size_t);  // 6 MiB: within the process cache's limit
  const void* first = nullptr;
  {
    Array a(n, 7);
    first = a.data();
  }
  Array b(n, 0);  // value-initialised even though the pages held 7s
  CHECK(b.data() == first);
  std::size_t sum = 0;
  for (const std::size_t x : b) sum += x;
  CHECK(sum == 0);
}
