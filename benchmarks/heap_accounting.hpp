#pragma once
// Heap accounting for the benchmarks' memory counters: this header replaces the global
// `operator new` and `operator delete` (all of them, over-aligned ones included: kildall's
// large arrays are allocated 2 MiB-aligned, `support/large_array_allocator.hpp`), so include
// it in exactly one translation unit of a benchmark program. It counts the bytes live, the
// peak of the bytes in use, and every byte allocated. Freed large arrays that the process's
// buffer cache keeps for reuse are live but not in use; an array the cache hands out again is
// not allocated anew, so `allocated` counts only what the cache could not serve.
//   const std::size_t base = heap::in_use();
//   heap::peak = base;
//   ... the work measured ...
//   peak_extra = heap::peak - base;

#include <cstddef>
#include <cstdlib>
#include <iterator>
#include <new>

#include <kildall/support/large_array_allocator.hpp>

namespace kildall::bench::heap {

inline std::size_t live = 0;       ///< Bytes allocated and not freed (the cache's kept buffers included).
inline std::size_t peak = 0;       ///< The highest `in_use()` since it was last set.
inline std::size_t allocated = 0;  ///< Every byte allocated so far.

/// Bytes live and not kept by the buffer cache.
[[nodiscard]] inline std::size_t in_use() noexcept { return live - kildall::detail::huge_buffer_cache().kept_bytes(); }

namespace detail {

inline constexpr std::size_t header = 16;  // a block's size, stored in front of it (keeps malloc's 16-byte alignment)

inline void note(std::size_t size) noexcept {
  live += size;
  allocated += size;
  if (const std::size_t used = in_use(); used > peak) peak = used;
}

inline void* allocate(std::size_t size) {
  void* raw = std::malloc(size + header);
  if (!raw) throw std::bad_alloc();
  *static_cast<std::size_t*>(raw) = size;
  note(size);
  return static_cast<char*>(raw) + header;
}

inline void release(void* p) noexcept {
  if (!p) return;
  char* raw = static_cast<char*>(p) - header;
  live -= *reinterpret_cast<std::size_t*>(raw);
  std::free(raw);
}

// Blocks aligned beyond malloc's 16 bytes (the huge-page arrays) are few: their sizes are kept
// in a small table instead of a header, which would cost a whole alignment unit.
struct AlignedBlock {
  void* p;
  std::size_t size;
};
inline AlignedBlock aligned_blocks[4096];
inline std::size_t aligned_count = 0;

inline void* allocate_aligned(std::size_t size, std::align_val_t align) {
  const auto a = static_cast<std::size_t>(align);
  if (a <= header) return allocate(size);
  if (aligned_count == std::size(aligned_blocks)) throw std::bad_alloc();
  void* p = std::aligned_alloc(a, (size + a - 1) / a * a);
  if (!p) throw std::bad_alloc();
  aligned_blocks[aligned_count++] = {p, size};
  note(size);
  return p;
}

inline void release_aligned(void* p, std::align_val_t align) noexcept {
  if (!p) return;
  if (static_cast<std::size_t>(align) <= header) return release(p);
  for (std::size_t i = 0; i < aligned_count; ++i) {
    if (aligned_blocks[i].p == p) {
      live -= aligned_blocks[i].size;
      aligned_blocks[i] = aligned_blocks[--aligned_count];
      break;
    }
  }
  std::free(p);
}

}  // namespace detail
}  // namespace kildall::bench::heap

void* operator new(std::size_t size) { return kildall::bench::heap::detail::allocate(size); }
void* operator new[](std::size_t size) { return kildall::bench::heap::detail::allocate(size); }
void operator delete(void* p) noexcept { kildall::bench::heap::detail::release(p); }
void operator delete[](void* p) noexcept { kildall::bench::heap::detail::release(p); }
void operator delete(void* p, std::size_t) noexcept { kildall::bench::heap::detail::release(p); }
void operator delete[](void* p, std::size_t) noexcept { kildall::bench::heap::detail::release(p); }
void* operator new(std::size_t size, std::align_val_t a) { return kildall::bench::heap::detail::allocate_aligned(size, a); }
void* operator new[](std::size_t size, std::align_val_t a) { return kildall::bench::heap::detail::allocate_aligned(size, a); }
void operator delete(void* p, std::align_val_t a) noexcept { kildall::bench::heap::detail::release_aligned(p, a); }
void operator delete[](void* p, std::align_val_t a) noexcept { kildall::bench::heap::detail::release_aligned(p, a); }
void operator delete(void* p, std::size_t, std::align_val_t a) noexcept {
  kildall::bench::heap::detail::release_aligned(p, a);
}
void operator delete[](void* p, std::size_t, std::align_val_t a) noexcept {
  kildall::bench::heap::detail::release_aligned(p, a);
}
