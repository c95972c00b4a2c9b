#pragma once
/// \file
/// Cache-line prefetch hints (`__builtin_prefetch` where the compiler has it, nothing
/// elsewhere): walks whose next addresses are known a few steps ahead (a worklist taken
/// first in, first out; a node's children) issue their misses together instead of one
/// after the other.

namespace kildall::detail {

/// Asks for the cache line at `p` ahead of a read.
inline void prefetch_for_read(const void* p) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p, 0);
#else
  (void)p;
#endif
}

/// Asks for the cache line at `p` ahead of a write.
inline void prefetch_for_write(const void* p) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p, 1);
#else
  (void)p;
#endif
}

}  // namespace kildall::detail
