// Tests support/large_array_allocator.hpp (alignment, huge-page rounding, every element usable, unused capacity returned, FlagArray reads and writes); oracle: address arithmetic, sums over the elements, the kernel's page residency (mincore) and std::vector<bool>.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <numeric>
#include <vector>

#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include <kildall/lattice/interval.hpp>
#include <kildall/support/large_array_allocator.hpp>

namespace {

using kildall::detail::huge_page_bytes;
using kildall::detail::LargeArrayAllocator;

bool aligned_to(const void* p, std::size_t alignment) {
  return reinterpret_cast<std::uintptr_t>(p) % alignment == 0;
}

}  // namespace

TEST_CASE("small arrays are ordinary, correctly aligned allocations") {
  LargeArrayAllocator<kildall::Interval> alloc;
  kildall::Interval* p = alloc.allocate(10);
  CHECK(aligned_to(p, alignof(kildall::Interval)));
  alloc.deallocate(p, 10);
  std::uint32_t* none = LargeArrayAllocator<std::uint32_t>{}.allocate(0);
  LargeArrayAllocator<std::uint32_t>{}.deallocate(none, 0);
}

TEST_CASE("arrays of a huge page or more are aligned to a huge page and fully usable") {
  for (const std::size_t bytes : {huge_page_bytes, huge_page_bytes + 8, 5 * huge_page_bytes - 8}) {
    const std::size_t n = bytes / sizeof(std::uint64_t);
    LargeArrayAllocator<std::uint64_t> alloc;
    std::uint64_t* p = alloc.allocate(n);
    CHECK(aligned_to(p, huge_page_bytes));
    for (std::size_t i = 0; i < n; ++i) p[i] = i * 3;  // every element writable (ASan checks the bounds)
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += p[i];
    CHECK(sum == 3 * (n * (n - 1) / 2));
    alloc.deallocate(p, n);
  }
}

TEST_CASE("a vector grows across the huge-page threshold and keeps its elements") {
  std::vector<std::uint32_t, LargeArrayAllocator<std::uint32_t>> v;
  const std::size_t n = 3 * huge_page_bytes / sizeof(std::uint32_t);
  for (std::size_t i = 0; i < n; ++i) v.push_back(static_cast<std::uint32_t>(i));
  CHECK(aligned_to(v.data(), huge_page_bytes));
  std::vector<std::uint32_t> expected(n);
  std::iota(expected.begin(), expected.end(), 0u);
  CHECK(std::equal(v.begin(), v.end(), expected.begin(), expected.end()));
  v.shrink_to_fit();
  v.resize(10);
  v.shrink_to_fit();
  CHECK(v.back() == 9);
}

TEST_CASE("an impossible size throws instead of wrapping around") {
  LargeArrayAllocator<kildall::Interval> alloc;
  CHECK_THROWS_AS((void)alloc.allocate(std::numeric_limits<std::size_t>::max() / 8), std::bad_array_new_length);
}

TEST_CASE("allocators are interchangeable across element types") {
  CHECK(LargeArrayAllocator<int>{} == LargeArrayAllocator<double>{});
  const LargeArrayAllocator<double> rebound{LargeArrayAllocator<int>{}};
  CHECK(rebound == LargeArrayAllocator<int>{});
}

#if defined(__linux__)
TEST_CASE("release_unused_capacity returns the pages past the elements and keeps the elements") {
  // Residency of the 4 KiB page at `p` (mincore), the oracle.
  const auto resident = [](const void* p) {
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    unsigned char state = 0;
    const auto at = reinterpret_cast<std::uintptr_t>(p) / page * page;
    REQUIRE(::mincore(reinterpret_cast<void*>(at), page, &state) == 0);
    return (state & 1) != 0;
  };
  kildall::detail::LargeArray<std::uint64_t> array;
  const std::size_t capacity = 3 * huge_page_bytes / sizeof(std::uint64_t);
  array.resize(capacity, 7);  // every page of the buffer written
  const std::size_t kept = huge_page_bytes / sizeof(std::uint64_t) + 1000;
  array.resize(kept);
  REQUIRE(array.capacity() == capacity);
  CHECK(resident(array.data() + capacity - 1));
  kildall::detail::release_unused_capacity(array);
  CHECK(array.size() == kept);
  CHECK(std::all_of(array.begin(), array.end(), [](std::uint64_t x) { return x == 7; }));
  CHECK(resident(array.data() + kept - 1));
  CHECK_FALSE(resident(array.data() + kept + 1024));  // the next whole page on
  CHECK_FALSE(resident(array.data() + capacity - 1));
  array.resize(capacity, 9);  // growing into the capacity maps zeroed pages again
  CHECK(array[kept] == 9);
  CHECK(array[capacity - 1] == 9);
  // A string on the allocator keeps its text and terminator.
  std::basic_string<char, std::char_traits<char>, LargeArrayAllocator<char>> text;
  text.reserve(2 * huge_page_bytes);
  text.assign(5000, 'x');
  kildall::detail::release_unused_capacity(text);
  CHECK(text == std::string(5000, 'x').c_str());
  CHECK(text.c_str()[5000] == '\0');
  // A small array (operator new's) is left alone.
  kildall::detail::LargeArray<std::uint32_t> small(100, 3);
  kildall::detail::release_unused_capacity(small);
  CHECK(small[99] == 3);
}
#endif

TEST_CASE("a FlagArray reads back what was written, at every size and across the huge-page threshold") {
  using kildall::detail::FlagArray;
  // Oracle: a std::vector<bool> written the same way.
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{63}, 3 * huge_page_bytes + 5}) {
    FlagArray flags(n, false);
    std::vector<bool> expected(n, false);
    REQUIRE(flags.size() == n);
    CHECK(flags.empty() == (n == 0));
    for (std::size_t i = 0; i < n; i += 3) {
      flags[i] = true;
      expected[i] = true;
    }
    for (std::size_t i = 1; i < n; i += 7) {
      flags[i] = flags[i - 1];  // a flag copied from another, not the reference rebound
      expected[i] = expected[i - 1];
    }
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < n; ++i) mismatches += flags[i] != expected[i] ? 1 : 0;
    CHECK(mismatches == 0);
    const FlagArray& read_only = flags;
    if (n > 3) CHECK(read_only[3]);
    if (n > 4) CHECK_FALSE(read_only[4]);
    FlagArray copy = flags;
    CHECK(copy == flags);
    if (n > 0) {
      copy[n - 1] = !copy[n - 1];
      CHECK_FALSE(copy == flags);
    }
  }
  FlagArray grown(2, true);
  grown.resize(5);  // new flags are off unless asked
  CHECK(grown[1]);
  CHECK_FALSE(grown[4]);
  grown.resize(7, true);
  CHECK(grown[6]);
  CHECK_FALSE(grown[4]);
  grown.assign(3, true);
  CHECK(grown.size() == 3);
  CHECK(grown[0]);
  CHECK(grown[2]);
  grown.clear();
  CHECK(grown.empty());
  CHECK(grown.capacity() >= 3);
}
