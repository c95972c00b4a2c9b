#pragma once
/// \file
/// Internal: the allocator of arrays that a large graph or function fills
/// once: the solvers' per-node arrays (lattice states, visit counters,
/// iteration order and positions), the WTO's and the dominator tree's, and the
/// reference IR's function bodies and views (`ir::BodyArray`).
///
/// A solve over a million nodes writes every element of a few arrays of tens
/// of megabytes exactly once. With 4 KiB pages that first write costs one
/// page fault per 4 KiB (about a quarter of a 1M-value interval solve was
/// the kernel mapping pages). Arrays of at least `huge_page_bytes` are
/// therefore aligned to 2 MiB and, on Linux, offered to transparent huge
/// pages with `madvise(MADV_HUGEPAGE)` (the kernel's "madvise" THP mode,
/// Debian's default): one fault per 2 MiB. Where huge pages are unavailable
/// the advice is ignored and the array behaves like any other allocation.
/// The last huge page of an array is advised only when the array fills three
/// quarters of it, so a written array holds at most 512 KiB past its end.
/// Smaller arrays use plain `operator new`.

#include <cstddef>
#include <limits>
#include <new>
#include <vector>

/// \cond INTERNAL
#if defined(__linux__) && __has_include(<sys/mman.h>)
#include <sys/mman.h>
#define KILDALL_DETAIL_HAS_MADVISE 1
#else
#define KILDALL_DETAIL_HAS_MADVISE 0
#endif
/// \endcond

namespace kildall::detail {

/// Size of a transparent huge page on x86-64 and AArch64 (4 KiB base pages).
inline constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

/// A stateless standard allocator: arrays of `huge_page_bytes` or more are
/// 2 MiB-aligned, rounded up to whole huge pages and advised as huge-page
/// candidates; smaller ones come from `operator new`.
template <class T>
struct LargeArrayAllocator {
  using value_type = T;

  LargeArrayAllocator() noexcept = default;
  template <class U>
  constexpr LargeArrayAllocator(const LargeArrayAllocator<U>&) noexcept {}  // NOLINT: rebinding is implicit

  [[nodiscard]] T* allocate(std::size_t n) {
    constexpr auto largest_object = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
    if (n > (largest_object - huge_page_bytes) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (!is_large(bytes)) return static_cast<T*>(::operator new(bytes, std::align_val_t{alignof(T)}));
    const std::size_t rounded = round_up(bytes);
    void* p = ::operator new(rounded, std::align_val_t{huge_page_bytes});
#if KILDALL_DETAIL_HAS_MADVISE
    // The last huge page only when the array fills at least three quarters of it: a written
    // array then holds at most 512 KiB past its end, and a mostly empty last page stays on
    // 4 KiB pages (a fault per page, but only for what is written).
    const std::size_t whole = bytes / huge_page_bytes * huge_page_bytes;
    const bool tail_mostly_used = bytes - whole >= huge_page_bytes / 4 * 3;
    (void)::madvise(p, tail_mostly_used ? rounded : whole, MADV_HUGEPAGE);  // advice only
#endif
    return static_cast<T*>(p);
  }

  void deallocate(T* p, std::size_t n) noexcept {
    // Unsized deletes: clang (before 19) does not declare the sized ones by default.
    if (!is_large(n * sizeof(T))) {
      ::operator delete(p, std::align_val_t{alignof(T)});
    } else {
      ::operator delete(p, std::align_val_t{huge_page_bytes});
    }
  }

  template <class U>
  friend constexpr bool operator==(const LargeArrayAllocator&, const LargeArrayAllocator<U>&) noexcept {
    return true;
  }

 private:
  [[nodiscard]] static constexpr bool is_large(std::size_t bytes) noexcept { return bytes >= huge_page_bytes; }
  [[nodiscard]] static constexpr std::size_t round_up(std::size_t bytes) noexcept {  // whole huge pages
    return (bytes + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes;
  }
};

/// A `std::vector` on `LargeArrayAllocator`: the array type of per-node and
/// per-value data that a large graph or function fills once.
template <class T>
using LargeArray = std::vector<T, LargeArrayAllocator<T>>;

}  // namespace kildall::detail

#undef KILDALL_DETAIL_HAS_MADVISE
