#pragma once
/// \file
/// Whether this machine is a virtual machine whose kernel reports freed memory
/// to the hypervisor (virtio-balloon *free page reporting*, Linux's
/// `page_reporting`), and the huge-page advice a one-shot process should take
/// there (`huge_page_advice.hpp` says why fresh huge pages cost more on such a
/// machine).
///
/// The probe reads sysfs's virtio devices: a memory balloon (virtio device id
/// 5) bound to its driver whose negotiated features include
/// `VIRTIO_BALLOON_F_REPORTING` (bit 5 of the `features` file, one '0' or '1'
/// per bit; virtio specification 1.2, section 5.5.3). It reads a few small
/// files with C stdio and POSIX `opendir` (no `<fstream>` or `<filesystem>`:
/// `support/` is part of the core, which keeps heavy standard headers out).

#include <cstdio>
#include <string>

#include <kildall/support/huge_page_advice.hpp>

/// \cond INTERNAL
#if __has_include(<dirent.h>) && __has_include(<sys/stat.h>)
#include <dirent.h>
#include <sys/stat.h>
#define KILDALL_DETAIL_HAS_DIRENT 1
#else
#define KILDALL_DETAIL_HAS_DIRENT 0
#endif
/// \endcond

namespace kildall {

/// sysfs's folder of virtio devices, where `freed_memory_reported_to_host` looks.
inline constexpr const char* virtio_devices_folder = "/sys/bus/virtio/devices";

namespace detail {
/// The first whitespace-separated word of the file at `path` (at most 255
/// bytes), or "" when it cannot be read.
[[nodiscard]] inline std::string first_word_of_file(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "r");
  if (file == nullptr) return {};
  char buffer[256] = {};
  const bool read = std::fscanf(file, "%255s", buffer) == 1;
  std::fclose(file);
  return read ? std::string(buffer) : std::string();
}
}  // namespace detail

/// Whether the kernel reports freed memory to a hypervisor: some device in
/// `devices` (one folder per device, as in sysfs) has id `0x0005` (a memory
/// balloon), a `driver` entry (bound), and a '1' at bit 5 of its `features`.
/// False where the folder is missing or unreadable (not Linux, no virtio).
[[nodiscard]] inline bool freed_memory_reported_to_host(const std::string& devices = virtio_devices_folder) {
#if KILDALL_DETAIL_HAS_DIRENT
  constexpr std::size_t reporting_feature_bit = 5;
  DIR* folder = ::opendir(devices.c_str());
  if (folder == nullptr) return false;
  bool reported = false;
  while (const dirent* entry = ::readdir(folder)) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    const std::string device = devices + "/" + name;
    if (detail::first_word_of_file(device + "/device") != "0x0005") continue;
    struct stat driver {};
    if (::stat((device + "/driver").c_str(), &driver) != 0) continue;  // not bound: nothing reports
    const std::string features = detail::first_word_of_file(device + "/features");
    if (features.size() > reporting_feature_bit && features[reporting_feature_bit] == '1') {
      reported = true;
      break;
    }
  }
  ::closedir(folder);
  return reported;
#else
  (void)devices;
  return false;
#endif
}

/// The advice for a short process that allocates most of its memory once (a
/// command-line tool run on one input): `none` where freed memory is reported
/// to a hypervisor (`freed_memory_reported_to_host(devices)`), `advise` elsewhere.
[[nodiscard]] inline HugePageAdvice huge_page_advice_for_one_shot_process(
    const std::string& devices = virtio_devices_folder) {
  return freed_memory_reported_to_host(devices) ? HugePageAdvice::none : HugePageAdvice::advise;
}

}  // namespace kildall

#undef KILDALL_DETAIL_HAS_DIRENT
