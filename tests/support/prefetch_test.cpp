// Tests support/prefetch.hpp (hints only: reading and writing what was prefetched, and a hint
// one past the end of an array, leave the program's values as they were); oracle: a sum.

#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include <kildall/support/prefetch.hpp>

TEST_CASE("prefetch hints change no value and never fault") {
  std::vector<int> values(1024, 7);
  for (std::size_t i = 0; i < values.size(); i += 16) {
    kildall::detail::prefetch_for_read(&values[i]);
    kildall::detail::prefetch_for_write(&values[i]);
  }
  kildall::detail::prefetch_for_read(values.data() + values.size());  // one past the end: still a hint
  long sum = 0;
  for (const int v : values) sum += v;
  CHECK(sum == 7 * 1024);
}
