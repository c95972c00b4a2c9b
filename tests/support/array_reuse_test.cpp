// Tests support/array_reuse.hpp (the process's largest reused array and its effect on LargeArrayAllocator); oracle: the cache of freed buffers' own count of the bytes it keeps, and the address a reused array comes back at.

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>

#include <kildall/support/array_reuse.hpp>
#include <kildall/support/large_array_allocator.hpp>

namespace {

/// Restores the process's setting, and empties the cache, when a test ends.
struct ReuseGuard {
  std::size_t saved = kildall::largest_reused_array_bytes();
  ReuseGuard() { kildall::detail::huge_buffer_cache().clear(); }
  ReuseGuard(const ReuseGuard&) = delete;
  ReuseGuard& operator=(const ReuseGuard&) = delete;
  ~ReuseGuard() {
    kildall::set_largest_reused_array_bytes(saved);
    kildall::detail::huge_buffer_cache().clear();
  }
};

constexpr std::size_t mib = std::size_t{1} << 20;

/// The bytes the cache keeps after an array of `bytes` is allocated, written and freed.
std::size_t kept_after_freeing(std::size_t bytes) {
  {
    kildall::detail::LargeArray<std::uint8_t> array(bytes, 1);
    CHECK(array.back() == 1);
  }
  return kildall::detail::huge_buffer_cache().kept_bytes();
}

}  // namespace

TEST_CASE("the default keeps arrays of up to 16 MiB, and the setting reads back") {
  CHECK(kildall::default_largest_reused_array_bytes == 16 * mib);
  const ReuseGuard guard;
  kildall::set_largest_reused_array_bytes(8 * mib);
  CHECK(kildall::largest_reused_array_bytes() == 8 * mib);
  kildall::set_largest_reused_array_bytes(kildall::default_largest_reused_array_bytes);
  CHECK(kildall::largest_reused_array_bytes() == 16 * mib);
}

TEST_CASE("a freed array is kept only up to the process's largest reused size") {
  const ReuseGuard guard;
  SUBCASE("larger than the setting: back to the kernel") {
    kildall::set_largest_reused_array_bytes(8 * mib);
    CHECK(kept_after_freeing(12 * mib) == 0);
    CHECK(kept_after_freeing(8 * mib) == 8 * mib);  // (at the limit: kept)
  }
  SUBCASE("within the setting: kept, and handed back to the next array of its size") {
    kildall::set_largest_reused_array_bytes(16 * mib);
    const std::uint8_t* first = nullptr;
    {
      kildall::detail::LargeArray<std::uint8_t> array(12 * mib, 1);
      first = array.data();
    }
    CHECK(kildall::detail::huge_buffer_cache().kept_bytes() == 12 * mib);
    kildall::detail::LargeArray<std::uint8_t> again(12 * mib, 2);
    CHECK(again.data() == first);
    CHECK(kildall::detail::huge_buffer_cache().kept_bytes() == 0);
  }
  SUBCASE("lowering the setting frees a kept array above it") {
    kildall::set_largest_reused_array_bytes(16 * mib);
    CHECK(kept_after_freeing(12 * mib) == 12 * mib);
    kildall::set_largest_reused_array_bytes(8 * mib);
    CHECK(kildall::detail::huge_buffer_cache().kept_bytes() == 0);
  }
  SUBCASE("0 keeps none") {
    kildall::set_largest_reused_array_bytes(0);
    CHECK(kept_after_freeing(2 * mib) == 0);
  }
}
