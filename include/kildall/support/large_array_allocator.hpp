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
/// the advice is ignored and the array behaves like any other allocation. The
/// process can turn the advice off (`set_huge_page_advice`,
/// `huge_page_advice.hpp`: a short process on a VM that reports freed memory
/// to its host pays more for fresh huge pages than for 4 KiB ones).
/// The last huge page of an array is advised only when the array fills three
/// quarters of it, so a written array holds at most 512 KiB past its end.
/// Smaller arrays use plain `operator new`. Freed large arrays go to the
/// process's cache of freed arrays (`huge_buffer_cache()`, `array_reuse.hpp`:
/// 64 MiB of arrays of at most `largest_reused_array_bytes()`, a process
/// setting), which hands them back to the next allocation of the same rounded
/// size, already mapped, and frees larger ones.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <type_traits>
#include <vector>

#include <kildall/support/array_reuse.hpp>
#include <kildall/support/huge_page_advice.hpp>

/// \cond INTERNAL
#if defined(__linux__) && __has_include(<sys/mman.h>)
#include <sys/mman.h>
#define KILDALL_DETAIL_HAS_MADVISE 1
#else
#define KILDALL_DETAIL_HAS_MADVISE 0
#endif
/// \endcond

namespace kildall::detail {

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
    const std::size_t advised = advised_bytes(bytes);
    if (void* reused = huge_buffer_cache().take(rounded, advised)) return static_cast<T*>(reused);
    void* p = ::operator new(rounded, std::align_val_t{huge_page_bytes});
#if KILDALL_DETAIL_HAS_MADVISE
    if (advised != 0) (void)::madvise(p, advised, MADV_HUGEPAGE);  // advice only
#endif
    return static_cast<T*>(p);
  }

  void deallocate(T* p, std::size_t n) noexcept {
    // Unsized deletes: clang (before 19) does not declare the sized ones by default.
    if (!is_large(n * sizeof(T))) {
      ::operator delete(p, std::align_val_t{alignof(T)});
    } else {
      huge_buffer_cache().give(p, round_up(n * sizeof(T)), advised_bytes(n * sizeof(T)));  // (or frees it)
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
  // The part of an array of `bytes` advised as huge pages: none when the process turned the
  // advice off; else its last huge page only when the array fills at least three quarters of
  // it: a written array then holds at most 512 KiB past its end, and a mostly empty last page
  // stays on 4 KiB pages (a fault per page, but only for what is written).
  [[nodiscard]] static std::size_t advised_bytes(std::size_t bytes) noexcept {
    if (huge_page_advice() == HugePageAdvice::none) return 0;
    const std::size_t whole = bytes / huge_page_bytes * huge_page_bytes;
    return bytes - whole >= huge_page_bytes / 4 * 3 ? round_up(bytes) : whole;
  }
};

/// A `std::vector` on `LargeArrayAllocator`: the array type of per-node and
/// per-value data that a large graph or function fills once. It fills an
/// array of integers, enums or pointers with one value (`LargeArray(n, value)`,
/// `assign(n, value)`) in one `memset`-like pass: `std::vector`'s own fill, on
/// an allocator other than `std::allocator`, constructs element by element and
/// reads the value again for each (it may alias the array), 5 instructions per
/// element, and these fills were a twentieth of SCCP's instructions over one
/// large function (docs/performance.md, "The sweep").
template <class T>
class LargeArray : public std::vector<T, LargeArrayAllocator<T>> {
  using Base = std::vector<T, LargeArrayAllocator<T>>;
  static constexpr bool fills_fast = std::is_integral_v<T> || std::is_enum_v<T> || std::is_pointer_v<T>;

 public:
  using Base::Base;
  using Base::assign;
  LargeArray() = default;
  /// `n` copies of `value`.
  LargeArray(std::size_t n, const T& value) { assign(n, value); }

  /// Replaces the contents with `n` copies of `value`.
  void assign(std::size_t n, const T& value) {
    if constexpr (fills_fast) {
      const T copy = value;  // read once: it may be an element of this array
      this->clear();
      this->resize(n);  // value-initialized: zeroed in one pass
      if (copy != T{}) std::fill(this->begin(), this->end(), copy);
    } else {
      Base::assign(n, value);
    }
  }
};

/// One byte per flag, for the per-node flags a solver reads on every visit
/// (reached, block reached, edge live, is an argument). Not `std::vector<bool>`:
/// libstdc++ reaches a bit through its iterator's arithmetic (a signed
/// division and a fix-up) on every access, and those accesses were 6% of all
/// instructions of SCCP over one function of 1e6 ops (docs/performance.md,
/// "Instructions per op"). A byte costs 7/8 of a byte more per node.
///
/// The bytes are a `FlagByte`, not `unsigned char`: a store through a character type may
/// modify any object, so after each flag a loop writes (a value reached, an argument placed)
/// the compiler reloads every array pointer the loop holds; an enum's store modifies only
/// objects of its own type.
class FlagArray {
 public:
  /// The byte of one flag.
  enum class FlagByte : std::uint8_t {
    clear = 0,  ///< The flag is off.
    set = 1,    ///< The flag is on.
  };

  /// One writable flag (converts to `bool`, assigned from `bool`).
  class reference {
   public:
    /// Whether the flag is on.
    [[nodiscard]] operator bool() const noexcept { return *byte_ != FlagByte::clear; }  // NOLINT: a flag reads as bool
    /// Turns the flag on or off.
    reference& operator=(bool on) noexcept {
      *byte_ = on ? FlagByte::set : FlagByte::clear;
      return *this;
    }
    /// Copies another flag's value (not the reference).
    reference& operator=(const reference& other) noexcept { return *this = static_cast<bool>(other); }
    /// Another handle on the same flag.
    reference(const reference&) = default;

   private:
    friend class FlagArray;
    explicit reference(FlagByte& byte) noexcept : byte_(&byte) {}
    FlagByte* byte_;
  };

  /// No flags.
  FlagArray() = default;
  /// `n` flags, each `on`.
  FlagArray(std::size_t n, bool on) { assign(n, on); }
  /// Replaces the flags with `n` flags, each `on` (one `memset`-like pass).
  void assign(std::size_t n, bool on) { bytes_.assign(n, on ? FlagByte::set : FlagByte::clear); }
  /// Keeps the first `n` flags; new ones are `on`.
  void resize(std::size_t n, bool on = false) { bytes_.resize(n, on ? FlagByte::set : FlagByte::clear); }
  /// Removes every flag (the buffer stays).
  void clear() noexcept { bytes_.clear(); }
  /// Whether flag `i` is on.
  [[nodiscard]] bool operator[](std::size_t i) const noexcept { return bytes_[i] != FlagByte::clear; }
  /// Flag `i`, to read or write.
  [[nodiscard]] reference operator[](std::size_t i) noexcept { return reference(bytes_[i]); }
  /// Number of flags.
  [[nodiscard]] std::size_t size() const noexcept { return bytes_.size(); }
  /// Whether there are no flags.
  [[nodiscard]] bool empty() const noexcept { return bytes_.empty(); }
  /// Bytes allocated (one per flag of capacity).
  [[nodiscard]] std::size_t capacity() const noexcept { return bytes_.capacity(); }
  /// The same flags.
  friend bool operator==(const FlagArray&, const FlagArray&) = default;

 private:
  LargeArray<FlagByte> bytes_;
};

/// Gives the whole 4 KiB pages of `array`'s capacity past its elements (past a string's
/// terminator) back to the system, for an array on `LargeArrayAllocator` (a `LargeArray` or a
/// string) that was reserved for an upper bound and will keep that buffer: the huge page its
/// last element lies on was mapped whole, up to 2 MiB past the end. Growing into the capacity
/// later maps fresh zeroed pages again; nothing constructed is touched. Does nothing for a
/// buffer below `huge_page_bytes` (`operator new`'s) or where `madvise` is unavailable.
template <class Array>
void release_unused_capacity(Array& array) noexcept {
  using T = typename Array::value_type;
  const std::size_t capacity_bytes = array.capacity() * sizeof(T);
  if (capacity_bytes < huge_page_bytes) return;
#if KILDALL_DETAIL_HAS_MADVISE
  constexpr std::uintptr_t page = 4096;
  const auto begin = reinterpret_cast<std::uintptr_t>(array.data());
  const std::uintptr_t used = begin + (array.size() + 1) * sizeof(T);  // + 1: room for a terminator
  const std::uintptr_t from = (used + page - 1) / page * page;
  const std::uintptr_t to = (begin + capacity_bytes) / page * page;
  if (from < to) (void)::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
#endif
}

}  // namespace kildall::detail

#undef KILDALL_DETAIL_HAS_MADVISE
