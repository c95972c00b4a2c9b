// Tests support/huge_page_advice.hpp (the process's setting and its effect on LargeArrayAllocator); oracle: the kernel's own record of the advice (/proc/self/smaps VmFlags "hg").

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <kildall/support/huge_page_advice.hpp>
#include <kildall/support/large_array_allocator.hpp>

namespace {

using kildall::HugePageAdvice;

/// Restores the process's advice when a test ends.
struct AdviceGuard {
  HugePageAdvice saved = kildall::huge_page_advice();
  AdviceGuard() = default;
  AdviceGuard(const AdviceGuard&) = delete;
  AdviceGuard& operator=(const AdviceGuard&) = delete;
  ~AdviceGuard() { kildall::set_huge_page_advice(saved); }
};

/// Whether the kernel marked the mapping that holds `address` with MADV_HUGEPAGE ("hg" in
/// its VmFlags); nullopt where /proc/self/smaps is unavailable.
std::optional<bool> mapping_advised(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  if (!smaps) return std::nullopt;
  const auto target = reinterpret_cast<std::uintptr_t>(address);
  bool inside = false;
  std::string line;
  while (std::getline(smaps, line)) {
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
    char dash = 0;
    std::istringstream header(line);
    if (header >> std::hex >> begin >> dash >> end && dash == '-' && line.find(':') > line.find(' ')) {
      inside = begin <= target && target < end;
      continue;
    }
    if (inside && line.starts_with("VmFlags:")) {
      std::istringstream flags(line.substr(8));
      std::string flag;
      while (flags >> flag)
        if (flag == "hg") return true;
      return false;
    }
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("the advice is 'advise' by default and set for the whole process") {
  AdviceGuard guard;
  CHECK(kildall::huge_page_advice() == HugePageAdvice::advise);
  kildall::set_huge_page_advice(HugePageAdvice::none);
  CHECK(kildall::huge_page_advice() == HugePageAdvice::none);
  kildall::set_huge_page_advice(HugePageAdvice::advise);
  CHECK(kildall::huge_page_advice() == HugePageAdvice::advise);
}

TEST_CASE("LargeArrayAllocator advises huge pages only while the advice is 'advise'") {
  AdviceGuard guard;
  // 12 MiB: larger than any buffer the cache of freed arrays keeps, so each is a fresh mapping.
  constexpr std::size_t elements = (std::size_t{12} << 20) / sizeof(std::uint64_t);
  kildall::set_huge_page_advice(HugePageAdvice::advise);
  const kildall::detail::LargeArray<std::uint64_t> advised(elements, 1);
  kildall::set_huge_page_advice(HugePageAdvice::none);
  const kildall::detail::LargeArray<std::uint64_t> plain(elements, 2);
  const std::optional<bool> advised_flag = mapping_advised(advised.data());
  const std::optional<bool> plain_flag = mapping_advised(plain.data());
  if (!advised_flag || !plain_flag) {
    MESSAGE("skipped: /proc/self/smaps has no VmFlags for the arrays (not Linux)");
    return;
  }
  CHECK(*advised_flag);
  CHECK_FALSE(*plain_flag);
  CHECK(advised.back() == 1);
  CHECK(plain.back() == 2);
}
