// The thread pool (kildall/pass/thread_pool.hpp); oracle: every index visited exactly once (per-index counters), the lowest failing index's exception rethrown, threads actually used.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <kildall/pass/thread_pool.hpp>

using namespace kildall::pass;

TEST_CASE("every index once, many loops on one pool") {
  ThreadPool pool(3);
  CHECK(pool.size() == 3);
  for (std::size_t n : {0u, 1u, 2u, 7u, 1000u}) {
    std::vector<std::atomic<int>> hits(n);
    pool.for_each_index(n, [&](std::size_t i) { ++hits[i]; });
    for (std::size_t i = 0; i < n; ++i) CHECK(hits[i] == 1);
  }
}

TEST_CASE("work spreads over threads") {
  ThreadPool pool(2);
  std::mutex m;
  std::set<std::thread::id> ids;
  std::atomic<int> waiting{0};
  // Each of the first two indices waits (bounded) for the other: both run at once only with two threads.
  pool.for_each_index(2, [&](std::size_t) {
    ++waiting;
    for (int spin = 0; spin < 2000 && waiting < 2; ++spin) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const std::lock_guard lock(m);
    ids.insert(std::this_thread::get_id());
  });
  CHECK(ids.size() == 2);
}

TEST_CASE("the exception of the lowest failing index, whatever finished first") {
  ThreadPool pool(2);
  for (int round = 0; round < 20; ++round) {
    try {
      pool.for_each_index(50, [](std::size_t i) {
        if (i % 7 == 3) throw std::runtime_error("index " + std::to_string(i));
      });
      FAIL("no exception");
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()) == "index 3");
    }
  }
  std::atomic<int> after{0};
  pool.for_each_index(10, [&](std::size_t) { ++after; });  // the pool still works
  CHECK(after == 10);
}

TEST_CASE("a pool of one runs on the caller") {
  ThreadPool pool(1);
  const auto caller = std::this_thread::get_id();
  bool same = true;
  pool.for_each_index(5, [&](std::size_t) { same = same && std::this_thread::get_id() == caller; });
  CHECK(same);
}
