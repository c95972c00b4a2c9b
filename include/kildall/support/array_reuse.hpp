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
/// on that function is then what it was). The setting applies to arrays freed after it; set it
/// once, at start-up.

#include <atomic>
#include <cstddef>

namespace kildall {

/// The largest freed array kept for reuse unless the process sets another (see the file comment).
inline constexpr std::size_t default_largest_reused_array_bytes = std::size_t{16} << 20;

namespace detail {
/// The process-wide setting behind `largest_reused_array_bytes()`.
[[nodiscard]] inline std::atomic<std::size_t>& largest_reused_array_setting() noexcept {
  static std::atomic<std::size_t> setting{default_largest_reused_array_bytes};
  return setting;
}
}  // namespace detail

/// The largest array (in bytes, rounded up to whole huge pages) `LargeArrayAllocator` keeps
/// for reuse when it is freed now.
[[nodiscard]] inline std::size_t largest_reused_array_bytes() noexcept {
  return detail::largest_reused_array_setting().load(std::memory_order_relaxed);
}

/// Sets the largest array kept for reuse from now on (thread-safe; meant to be called once, at
/// start-up: see the file comment). 0 keeps none.
inline void set_largest_reused_array_bytes(std::size_t bytes) noexcept {
  detail::largest_reused_array_setting().store(bytes, std::memory_order_relaxed);
}

}  // namespace kildall
