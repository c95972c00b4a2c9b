#pragma once
/// \file
/// The process's choice of how large a freed array it keeps for reuse.
///
/// `LargeArrayAllocator` (the solvers' per-node arrays, the reference IR's function bodies and
/// views) hands a freed array of at most `largest_reused_array_bytes()` to the process's cache
/// of freed buffers (`huge_buffer_cache.hpp`, 64 MiB in all), from which the next array of the
/// same size is taken with its pages already mapped; a larger array goes back to the kernel,
/// and the next one of its size is faulted in afresh. On a virtual machine whose guest reports
/// freed memory to the host (`free_page_reporting.hpp`) that costs what the host charges for
/// backing it again, which varies from one process to the next.
///
/// The default, 16 MiB, keeps the per-value arrays of one analysis of a function of a million
/// values (SCCP's 16-byte states included) for the next analysis: with 8 MiB, SCCP solved again
/// and again on one 1e6-op function ran up to a third slower in some processes than in others,
/// with 16 MiB in none (docs/performance.md, "Where the time goes when the instructions are
/// spread thin"). A one-shot tool that runs each analysis once gains nothing from keeping such
/// arrays and holds them until it exits: `kildall-opt` sets 8 MiB at start-up (its peak memory
/// on that function is then what it was). The setting is the cache's own limit: it applies to
/// arrays freed after it, and frees the kept arrays above it; set it once, at start-up.
///
/// The cache itself (`detail::huge_buffer_cache()`) lives here, with the one limit it keeps.

#include <cstddef>
#include <new>

#include <kildall/support/huge_buffer_cache.hpp>

namespace kildall {

/// The largest freed array kept for reuse unless the process sets another (see the file comment).
inline constexpr std::size_t default_largest_reused_array_bytes = std::size_t{16} << 20;

namespace detail {

/// Size of a transparent huge page on x86-64 and AArch64 (4 KiB base pages).
inline constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

/// Releases a buffer of `LargeArrayAllocator` (whole huge pages, 2 MiB-aligned).
struct FreeHugePages {
  /// Frees `p`.
  void operator()(void* p, std::size_t /*bytes*/) const noexcept { ::operator delete(p, std::align_val_t{huge_page_bytes}); }
};

/// The process's cache of freed large arrays: 64 MiB, about the per-value and per-block arrays
/// of one analysis of a function of a million values (4-16 MiB each), each of at most the
/// process's setting (`largest_reused_array_bytes()`, which is the cache's own limit).
/// Built in static storage and never destroyed: arrays freed by static destructors still find
/// it, and building it allocates nothing (a replaced `operator new` may ask the cache how much
/// it keeps).
[[nodiscard]] inline HugeBufferCache<FreeHugePages>& huge_buffer_cache() noexcept {
  using Cache = HugeBufferCache<FreeHugePages>;
  alignas(Cache) static unsigned char storage[sizeof(Cache)];
  static Cache* const cache =
      ::new (static_cast<void*>(storage)) Cache(std::size_t{64} << 20, default_largest_reused_array_bytes);
  return *cache;
}

}  // namespace detail

/// The largest array (in bytes, rounded up to whole huge pages) `LargeArrayAllocator` keeps
/// for reuse when it is freed now.
[[nodiscard]] inline std::size_t largest_reused_array_bytes() noexcept {
  return detail::huge_buffer_cache().largest_buffer_bytes();
}

/// Sets the largest array kept for reuse from now on, and frees kept arrays larger than that
/// (thread-safe; meant to be called once, at start-up: see the file comment). 0 keeps none.
inline void set_largest_reused_array_bytes(std::size_t bytes) noexcept {
  detail::huge_buffer_cache().set_largest_buffer_bytes(bytes);
}

}  // namespace kildall
