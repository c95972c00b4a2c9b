#pragma once
/// \file
/// A fixed pool of `std::thread`s that runs an index loop in parallel: the
/// pass manager runs a function pipeline on every function this way (MLIR's
/// multi-threaded execution of isolated ops, docs "Pass Infrastructure").
/// Indices are handed out one at a time from an atomic counter; the calling
/// thread works too. An exception thrown for an index is kept, and after the
/// loop the one of the lowest index is rethrown, so a failing run reports
/// the same error whatever the thread count.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace kildall::pass {

/// Worker threads that run `for_each_index` loops.
class ThreadPool {
 public:
  /// A pool of `threads` workers in all (the caller counts as one; 0 = the hardware's count).
  explicit ThreadPool(unsigned threads = 0) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  ~ThreadPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  /// Threads that run a loop (the workers and the caller).
  [[nodiscard]] std::size_t size() const noexcept { return workers_.size() + 1; }

  /// Calls `body(i)` for every `i` in [0, count), in parallel, and returns when
  /// all are done; rethrows the exception of the lowest failing index. `body`
  /// must be safe to call concurrently for different indices. Not reentrant.
  template <class Body>
  void for_each_index(std::size_t count, Body&& body) {
    std::vector<std::exception_ptr> errors(count);
    const auto guarded = [&](std::size_t i) {
      try {
        body(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    };
    Loop loop(count, guarded);  // holds the address of `guarded`, which outlives it
    if (workers_.empty() || count <= 1) {
      for (std::size_t i = 0; i < count; ++i) loop.run(i);
    } else {
      {
        std::lock_guard lock(mutex_);
        loop_ = &loop;
        ++generation_;
      }
      wake_.notify_all();
      drain(loop);
      std::unique_lock lock(mutex_);
      done_.wait(lock, [&] { return busy_ == 0; });
      loop_ = nullptr;
    }
    for (const std::exception_ptr& e : errors)
      if (e) std::rethrow_exception(e);
  }

 private:
  // A type-erased loop body (no <functional> in the core).
  struct Loop {
    template <class F>
    Loop(std::size_t n, const F& f)
        : count(n), context(&f), call([](const void* c, std::size_t i) { (*static_cast<const F*>(c))(i); }) {}
    void run(std::size_t i) const { call(context, i); }
    std::size_t count;
    std::atomic<std::size_t> next{0};
    const void* context;
    void (*call)(const void*, std::size_t);
  };

  static void drain(Loop& loop) {
    for (std::size_t i = loop.next.fetch_add(1); i < loop.count; i = loop.next.fetch_add(1)) loop.run(i);
  }

  void work() {
    std::size_t seen = 0;
    for (;;) {
      Loop* loop = nullptr;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || (loop_ && generation_ != seen); });
        if (stopping_) return;
        seen = generation_;
        loop = loop_;
        ++busy_;
      }
      drain(*loop);
      {
        std::lock_guard lock(mutex_);
        --busy_;
      }
      done_.notify_all();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  Loop* loop_ = nullptr;
  std::size_t generation_ = 0;
  std::size_t busy_ = 0;
  bool stopping_ = false;
};

}  // namespace kildall::pass
