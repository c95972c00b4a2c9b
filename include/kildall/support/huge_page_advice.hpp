#pragma once
/// \file
/// The process's choice of page size for large arrays: whether
/// `LargeArrayAllocator` (the solvers' per-node arrays, the reference IR's
/// function bodies and views) offers them to transparent huge pages.
///
/// Huge pages make the first write of a large array one page fault per 2 MiB
/// instead of one per 4 KiB, and fewer TLB misses afterwards. That wins where
/// fresh memory is cheap to fault in: a long-lived process, which mostly reuses
/// memory it freed moments ago, and any bare-metal machine. It loses in a
/// short process on a virtual machine whose guest reports freed memory to the
/// hypervisor (virtio-balloon *free page reporting*, Linux's
/// `page_reporting`): the kernel reports large free blocks a few seconds
/// after they are freed and the host takes their memory back, so a huge page
/// is carved out of such a block and the host must back all of it again on
/// the first touch, while 4 KiB pages come first from the smaller free blocks
/// the kernel never reports. Measured (docs/performance.md, "Huge pages and
/// free page reporting"): on such a VM, `kildall-opt` on a 1e6-op function
/// spends 0.25-0.49 s of system time with huge pages when its input follows
/// a pause or another large process, and 0.10-0.22 s with 4 KiB pages in
/// every case; run back to back, huge pages are faster by 0.05-0.10 s.
///
/// The default is `HugePageAdvice::advise`, the long-lived process's choice.
/// A one-shot tool calls `set_huge_page_advice(huge_page_advice_for_one_shot_process())`
/// (`free_page_reporting.hpp`) at start-up, before it allocates, as
/// `kildall-opt` does unless told otherwise. The setting applies to arrays allocated after it; set it once,
/// before the first large array: the cache of freed buffers
/// (`huge_buffer_cache.hpp`) matches buffers by the advice in force when each
/// is freed.

#include <atomic>

namespace kildall {

/// Whether new large arrays are offered to transparent huge pages.
enum class HugePageAdvice : unsigned char {
  advise,  ///< `madvise(MADV_HUGEPAGE)` on each array of 2 MiB or more (the default).
  none,    ///< No advice: the kernel's default page size (4 KiB unless THP is "always").
};

namespace detail {
/// The process-wide setting behind `huge_page_advice()`.
[[nodiscard]] inline std::atomic<HugePageAdvice>& huge_page_advice_setting() noexcept {
  static std::atomic<HugePageAdvice> setting{HugePageAdvice::advise};
  return setting;
}
}  // namespace detail

/// The advice `LargeArrayAllocator` gives arrays allocated now.
[[nodiscard]] inline HugePageAdvice huge_page_advice() noexcept {
  return detail::huge_page_advice_setting().load(std::memory_order_relaxed);
}

/// Sets the advice for arrays allocated from now on (thread-safe; meant to be
/// called once, at start-up: see the file comment).
inline void set_huge_page_advice(HugePageAdvice advice) noexcept {
  detail::huge_page_advice_setting().store(advice, std::memory_order_relaxed);
}

}  // namespace kildall
