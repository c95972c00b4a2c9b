// Tests support/free_page_reporting.hpp (the virtio balloon probe and the one-shot advice); oracle: fake sysfs trees built by the test, one per case.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <kildall/support/free_page_reporting.hpp>

namespace {

namespace fs = std::filesystem;
using kildall::HugePageAdvice;

/// A fake `/sys/bus/virtio/devices` under a fresh temporary folder.
struct FakeVirtioDevices {
  fs::path root;
  explicit FakeVirtioDevices(const std::string& name)
      : root(fs::temp_directory_path() / ("kildall_free_page_reporting_test_" + std::to_string(::getpid()) + "_" + name)) {
    fs::remove_all(root);
    fs::create_directories(root);
  }
  FakeVirtioDevices(const FakeVirtioDevices&) = delete;
  FakeVirtioDevices& operator=(const FakeVirtioDevices&) = delete;
  ~FakeVirtioDevices() {
    std::error_code ignored;
    fs::remove_all(root, ignored);
  }
  /// Adds device `name` with id `id` and feature bits `features`, bound to a driver or not.
  void add(const std::string& name, const std::string& id, const std::string& features, bool bound) const {
    const fs::path device = root / name;
    fs::create_directories(device);
    std::ofstream(device / "device") << id << '\n';
    std::ofstream(device / "features") << features << '\n';
    if (bound) fs::create_directories(device / "driver");  // sysfs: a link to the driver's folder
  }
};

const std::string reporting_features = "0110010100000000000000000000000010000000";  // bits 1, 2, 5, 7, 32
const std::string no_reporting_features = "0110000100000000000000000000000010000000";

}  // namespace

TEST_CASE("free page reporting is found on a bound virtio balloon that offers it") {
  const FakeVirtioDevices devices("reporting");
  devices.add("virtio0", "0x0002", reporting_features, true);  // a block device: never counts
  CHECK_FALSE(kildall::freed_memory_reported_to_host(devices.root.string()));
  devices.add("virtio1", "0x0005", reporting_features, true);
  CHECK(kildall::freed_memory_reported_to_host(devices.root.string()));
}

TEST_CASE("no free page reporting: no balloon, a balloon without the feature or without a driver") {
  SUBCASE("no such folder") {
    CHECK_FALSE(kildall::freed_memory_reported_to_host((fs::temp_directory_path() / "kildall_no_such_folder_0x5").string()));
  }
  SUBCASE("a balloon without VIRTIO_BALLOON_F_REPORTING") {
    const FakeVirtioDevices devices("no_feature");
    devices.add("virtio0", "0x0005", no_reporting_features, true);
    CHECK_FALSE(kildall::freed_memory_reported_to_host(devices.root.string()));
  }
  SUBCASE("a balloon not bound to its driver") {
    const FakeVirtioDevices devices("unbound");
    devices.add("virtio0", "0x0005", reporting_features, false);
    CHECK_FALSE(kildall::freed_memory_reported_to_host(devices.root.string()));
  }
  SUBCASE("unreadable ids and short feature strings") {
    const FakeVirtioDevices devices("garbage");
    devices.add("virtio0", "0x00z5", reporting_features, true);
    devices.add("virtio1", "5", reporting_features, true);
    devices.add("virtio2", "0x0005", "0110", true);
    CHECK_FALSE(kildall::freed_memory_reported_to_host(devices.root.string()));
  }
}

TEST_CASE("a one-shot process is told 'none' exactly where freed memory is reported") {
  const FakeVirtioDevices devices("one_shot");
  devices.add("virtio0", "0x0005", no_reporting_features, true);
  CHECK(kildall::huge_page_advice_for_one_shot_process(devices.root.string()) == HugePageAdvice::advise);
  devices.add("virtio1", "0x0005", reporting_features, true);
  CHECK(kildall::huge_page_advice_for_one_shot_process(devices.root.string()) == HugePageAdvice::none);
}
