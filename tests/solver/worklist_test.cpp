// Tests PriorityWorklist (push, peek_min, pop_min with its hint, erase, reset); oracle: std::set<std::size_t> under the same operations.
#include <kildall/solver/worklist.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <random>
#include <set>

TEST_CASE("PriorityWorklist behaves as an ordered set (random operations against std::set)") {
  for (unsigned seed = 0; seed < 50; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const std::size_t capacity = 1 + rng() % (seed < 25 ? 200 : 300'000);
    kildall::PriorityWorklist worklist(capacity);
    std::set<std::size_t> oracle;
    for (int op = 0; op < 3000; ++op) {
      const unsigned kind = rng() % 4;
      const std::size_t x = rng() % capacity;
      if (kind < 2) {
        CHECK(worklist.push(x) == oracle.insert(x).second);
      } else if (kind == 2) {
        if (oracle.empty()) continue;
        const std::size_t expected = *oracle.begin();
        oracle.erase(oracle.begin());
        CHECK(worklist.pop_min() == expected);
      } else {
        CHECK(worklist.erase(x) == (oracle.erase(x) == 1));
      }
      REQUIRE(worklist.size() == oracle.size());
      CHECK(worklist.empty() == oracle.empty());
      CHECK(worklist.contains(x) == (oracle.count(x) == 1));
      if (!oracle.empty()) CHECK(worklist.peek_min() == *oracle.begin());  // and leaves it pending
      CHECK(worklist.size() == oracle.size());
    }
    while (!oracle.empty()) {
      CHECK(worklist.pop_min() == *oracle.begin());
      oracle.erase(oracle.begin());
    }
    CHECK(worklist.empty());
  }
}

TEST_CASE("PriorityWorklist in a solver's pattern: runs pushed ahead, popped in order, a few pushed behind (against std::set)") {
  // The pattern of a sparse solve in program order: a block's values queued together, taken
  // lowest first, while their dependents are queued just ahead and a loop's header behind.
  for (unsigned seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const std::size_t capacity = 5'000 + rng() % 50'000;
    kildall::PriorityWorklist worklist(capacity);
    std::set<std::size_t> oracle;
    std::size_t next = 0;  // the next run starts here
    for (int round = 0; round < 2'000; ++round) {
      const std::size_t run = 1 + rng() % 70;
      for (std::size_t i = 0; i < run && next < capacity; ++i, ++next)
        CHECK(worklist.push(next) == oracle.insert(next).second);
      for (unsigned pops = rng() % 90; pops > 0 && !oracle.empty(); --pops) {
        const std::size_t popped = worklist.pop_min();
        REQUIRE(popped == *oracle.begin());
        oracle.erase(oracle.begin());
        const std::size_t ahead = popped + 1 + rng() % 200;
        if (ahead < capacity) CHECK(worklist.push(ahead) == oracle.insert(ahead).second);
        if (rng() % 16 == 0) {  // behind: below everything pending
          const std::size_t behind = rng() % (popped + 1);
          CHECK(worklist.push(behind) == oracle.insert(behind).second);
        }
      }
      REQUIRE(worklist.size() == oracle.size());
    }
    while (!oracle.empty()) {
      REQUIRE(worklist.pop_min() == *oracle.begin());
      oracle.erase(oracle.begin());
    }
    CHECK(worklist.empty());
  }
}

TEST_CASE("PriorityWorklist edge cases and footprint") {
  kildall::PriorityWorklist empty(0);
  CHECK(empty.empty());
  kildall::PriorityWorklist one(1);
  CHECK(one.push(0));
  CHECK_FALSE(one.push(0));  // deduplicated
  CHECK(one.pop_min() == 0);
  CHECK(one.empty());

  kildall::PriorityWorklist big(1'000'000);
  CHECK(big.push(999'999));
  CHECK(big.push(64));
  CHECK(big.push(63));
  CHECK(big.pop_min() == 63);
  CHECK(big.pop_min() == 64);
  CHECK(big.pop_min() == 999'999);
  // About one bit per position, plus the upper levels.
  CHECK(big.bytes() <= 1'000'000 / 8 + 4096);
  big.reset(10);
  CHECK(big.capacity() == 10);
  CHECK(big.empty());
}
