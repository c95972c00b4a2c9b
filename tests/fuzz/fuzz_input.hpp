#pragma once
// FuzzInput: turns a fuzzer's byte string into a deterministic stream of
// choices. Structured fuzz targets (random programs, graphs, lattice operation
// sequences) draw every decision from it, so libFuzzer's mutations change the
// structure locally. Once the bytes are used up every draw returns 0: any
// input, the empty one included, decodes to a finite, well-formed case.
// Also: fuzz_failure(), the one way a target reports a bug (message + abort,
// which libFuzzer and the replay test both catch).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

namespace kildall::fuzz {

/// A cursor over fuzz bytes that hands out bounded choices.
class FuzzInput {
 public:
  /// Reads from `data[0, size)` (not copied: must outlive the cursor).
  FuzzInput(const std::uint8_t* data, std::size_t size) noexcept : data_(data), size_(size) {}

  /// The next byte, or 0 past the end.
  [[nodiscard]] std::uint8_t byte() noexcept { return pos_ < size_ ? data_[pos_++] : 0; }

  /// The next 8 bytes as a little-endian integer (missing bytes are 0).
  [[nodiscard]] std::uint64_t u64() noexcept {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < 8; ++i) v |= std::uint64_t{byte()} << (8 * i);
    return v;
  }

  /// A number in [0, n) (n > 0), from one byte when n <= 256, else from 8 bytes.
  [[nodiscard]] std::uint64_t below(std::uint64_t n) noexcept {
    if (n <= 1) return 0;
    if (n <= 256) return byte() % n;
    return u64() % n;
  }

  /// A choice source for generators: the same as `u64()`.
  [[nodiscard]] std::uint64_t operator()() noexcept { return u64(); }

  /// True when every byte has been consumed.
  [[nodiscard]] bool exhausted() const noexcept { return pos_ >= size_; }

  /// The bytes not consumed yet.
  [[nodiscard]] std::string_view rest() const noexcept {
    return pos_ >= size_ ? std::string_view{}
                         : std::string_view(reinterpret_cast<const char*>(data_ + pos_), size_ - pos_);
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

/// Reports a bug found by a fuzz target and aborts (libFuzzer saves the input
/// as a crash; the replay test fails).
[[noreturn]] inline void fuzz_failure(std::string_view what, std::string_view detail = {}) {
  std::fprintf(stderr, "\n*** kildall fuzz failure: %.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data());
  std::fflush(stderr);
  std::abort();
}

/// `fuzz_failure(what, detail())` unless `ok`.
template <class Detail>
inline void fuzz_check(bool ok, std::string_view what, Detail&& detail) {
  if (!ok) fuzz_failure(what, std::string(detail()));
}

}  // namespace kildall::fuzz
