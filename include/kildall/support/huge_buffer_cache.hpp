#pragma once
/// \file
/// Internal: a process-wide cache of freed huge-page buffers, so that the next
/// array of the same size reuses pages that are already mapped.
///
/// The arrays of `LargeArrayAllocator` are written once per analysis, view or
/// verification of a large function, then freed; the next pass over the same
/// function allocates arrays of exactly the same sizes again (one element per
/// value, block or edge). Freed memory goes back to the kernel (large blocks
/// are `mmap`ed), so each new array is faulted in and zeroed by the kernel
/// again: on a function of 1e6 ops a quarter of a solve was the page-fault
/// path (`clear_page_erms`). The cache keeps the most recently freed buffers,
/// up to `capacity_bytes` in all, and hands one back when a buffer of exactly
/// the same (huge-page-rounded) size and layout is asked for (the layout is
/// the caller's tag: `LargeArrayAllocator` passes how much of the buffer it
/// advised as huge pages, so a reused buffer is no more resident than a fresh
/// one would be). Exact sizes only: a larger buffer handed out would be
/// returned under the smaller size and its tail would stay mapped
/// unaccounted. When a new buffer does not fit, the oldest
/// are freed first (first in, first out). A buffer larger than
/// `largest_buffer_bytes` is not kept: large buffers are mostly reservations
/// (a stack as deep as the graph could be, a parser's arrays for what the
/// rest of the text can hold) or one of a kind, whose written pages would
/// stay mapped without a same-size request to reuse them. That limit can be
/// changed while the cache is in use (the process's cache follows the process's
/// setting, `array_reuse.hpp`). Thread-safe (one mutex).

#include <array>
#include <cstddef>
#include <mutex>
#include <new>

namespace kildall::detail {

/// Freed buffers of whole huge pages, kept for reuse by size (see the file comment).
/// `Free` releases a buffer that leaves the cache: `Free{}(pointer, bytes)`.
template <class Free>
class HugeBufferCache {
 public:
  /// The most buffers kept at once.
  static constexpr std::size_t max_buffers = 32;

  /// A cache that keeps at most `capacity_bytes` of freed buffers, each of at
  /// most `largest_buffer_bytes`.
  HugeBufferCache(std::size_t capacity_bytes, std::size_t largest_buffer_bytes) noexcept
      : capacity_bytes_(capacity_bytes), largest_buffer_bytes_(largest_buffer_bytes) {}
  HugeBufferCache(const HugeBufferCache&) = delete;
  HugeBufferCache& operator=(const HugeBufferCache&) = delete;
  /// Frees every buffer still kept.
  ~HugeBufferCache() { clear(); }

  /// A kept buffer of exactly `bytes` given with `layout` (the most recently
  /// freed one), removed from the cache; `nullptr` when there is none.
  [[nodiscard]] void* take(std::size_t bytes, std::size_t layout) noexcept {
    const std::lock_guard lock(mutex_);
    for (std::size_t i = count_; i-- > 0;) {
      if (entries_[i].bytes != bytes || entries_[i].layout != layout) continue;
      void* p = entries_[i].pointer;
      erase(i);
      return p;
    }
    return nullptr;
  }

  /// Keeps `p` (a buffer of `bytes`, tagged `layout`) for reuse, freeing the
  /// oldest buffers to make room; a buffer larger than the largest kept is
  /// freed at once.
  void give(void* p, std::size_t bytes, std::size_t layout) noexcept {
    std::array<Entry, max_buffers + 1> evicted{};
    std::size_t evicted_count = 0;
    {
      const std::lock_guard lock(mutex_);
      if (bytes > largest_buffer_bytes_ || bytes > capacity_bytes_) {
        evicted[evicted_count++] = {p, bytes, layout};
      } else {
        while (count_ == max_buffers || total_bytes_ + bytes > capacity_bytes_) {
          evicted[evicted_count++] = entries_[0];
          erase(0);
        }
        entries_[count_++] = {p, bytes, layout};
        total_bytes_ += bytes;
      }
    }
    for (std::size_t i = 0; i < evicted_count; ++i) Free{}(evicted[i].pointer, evicted[i].bytes);
  }

  /// Frees every kept buffer.
  void clear() noexcept {
    const std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < count_; ++i) Free{}(entries_[i].pointer, entries_[i].bytes);
    count_ = 0;
    total_bytes_ = 0;
  }

  /// Bytes kept now.
  [[nodiscard]] std::size_t kept_bytes() const noexcept {
    const std::lock_guard lock(mutex_);
    return total_bytes_;
  }

  /// The largest buffer kept.
  [[nodiscard]] std::size_t largest_buffer_bytes() const noexcept {
    const std::lock_guard lock(mutex_);
    return largest_buffer_bytes_;
  }

  /// Keeps buffers of at most `bytes` from now on; kept buffers larger than that are freed.
  void set_largest_buffer_bytes(std::size_t bytes) noexcept {
    std::array<Entry, max_buffers> evicted{};
    std::size_t evicted_count = 0;
    {
      const std::lock_guard lock(mutex_);
      largest_buffer_bytes_ = bytes;
      for (std::size_t i = count_; i-- > 0;) {
        if (entries_[i].bytes <= bytes) continue;
        evicted[evicted_count++] = entries_[i];
        erase(i);
      }
    }
    for (std::size_t i = 0; i < evicted_count; ++i) Free{}(evicted[i].pointer, evicted[i].bytes);
  }

 private:
  struct Entry {
    void* pointer = nullptr;
    std::size_t bytes = 0;
    std::size_t layout = 0;
  };
  void erase(std::size_t i) noexcept {  // keeps the order (oldest first)
    total_bytes_ -= entries_[i].bytes;
    for (; i + 1 < count_; ++i) entries_[i] = entries_[i + 1];
    --count_;
  }

  mutable std::mutex mutex_;
  std::array<Entry, max_buffers> entries_{};
  std::size_t count_ = 0;
  std::size_t total_bytes_ = 0;
  std::size_t capacity_bytes_;
  std::size_t largest_buffer_bytes_;
};

}  // namespace kildall::detail
