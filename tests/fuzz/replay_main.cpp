// Replay driver for the fuzz targets in ordinary (g++) builds: the same
// `LLVMFuzzerTestOneInput` that libFuzzer calls, run over
//   1. every file of the seed corpus directory (argv[1]), sorted by name;
//   2. N deterministic pseudo-random inputs (argv[2], or the environment
//      variable KILDALL_FUZZ_REPLAY_INPUTS), half random bytes, half mutations
//      of corpus files (byte flips, insertions, deletions, truncation,
//      splices, repeated chunks), from a fixed seed (argv[3], default 1).
// A file given instead of a directory is run alone (reproducing a crash
// without clang). A bug aborts inside the target, failing the CTest test;
// the input that failed is then written to `replay-crash-<target>.bin` in
// the working directory (the build directory under CTest).
//
//   test_fuzz_<target> <corpus-dir | input-file> [random-inputs] [seed]

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>{});
}

std::string current_input;
std::string crash_file = "replay-crash.bin";

// On abort (a failed check, an uncaught exception, a sanitizer report with
// abort_on_error): save the input, then die as before. (stdio in a signal
// handler is not async-signal-safe; acceptable for a test that is dying anyway.)
extern "C" void save_input_and_die(int sig) {
  if (std::FILE* f = std::fopen(crash_file.c_str(), "wb")) {
    std::fwrite(current_input.data(), 1, current_input.size(), f);
    std::fclose(f);
    std::fprintf(stderr, "replay: failing input (%zu bytes) saved as %s\n", current_input.size(), crash_file.c_str());
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void run(const std::string& input) {
  current_input = input;
  // A copy of exactly `size` bytes, so ASan sees reads past the end.
  std::vector<std::uint8_t> bytes(input.begin(), input.end());
  (void)LLVMFuzzerTestOneInput(bytes.empty() ? nullptr : bytes.data(), bytes.size());
}

std::string mutate(std::string s, const std::vector<std::string>& corpus, std::mt19937_64& rng) {
  const auto pick = [&](std::size_t n) { return n == 0 ? std::size_t{0} : static_cast<std::size_t>(rng() % n); };
  const unsigned edits = 1 + static_cast<unsigned>(rng() % 4);
  for (unsigned e = 0; e < edits; ++e) {
    switch (rng() % 7) {
      case 0:  // flip a byte
        if (!s.empty()) s[pick(s.size())] = static_cast<char>(rng());
        break;
      case 1:  // insert random bytes
        s.insert(pick(s.size() + 1), std::string(1 + pick(4), static_cast<char>(rng())));
        break;
      case 2:  // delete a range
        if (!s.empty()) {
          const std::size_t at = pick(s.size());
          s.erase(at, 1 + pick(std::min<std::size_t>(16, s.size() - at)));
        }
        break;
      case 3:  // truncate
        s.resize(pick(s.size() + 1));
        break;
      case 4:  // splice with another corpus entry
        if (!corpus.empty()) {
          const std::string& other = corpus[pick(corpus.size())];
          s = s.substr(0, pick(s.size() + 1)) + other.substr(pick(other.size() + 1));
        }
        break;
      case 5:  // repeat a chunk
        if (!s.empty()) {
          const std::size_t at = pick(s.size());
          const std::string chunk = s.substr(at, 1 + pick(32));
          s.insert(at, chunk);
        }
        break;
      default:  // an interesting byte
        if (!s.empty()) {
          static const char interesting[] = {'\0', '\n', '%', '^', '{', '}', '(', ')', ':', ',', '-', '9', '\xff'};
          s[pick(s.size())] = interesting[pick(sizeof interesting)];
        }
        break;
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <corpus-dir | input-file> [random-inputs] [seed]\n", argv[0]);
    return 2;
  }
  const std::filesystem::path where = argv[1];
  crash_file = "replay-crash-" + std::filesystem::path(argv[0]).filename().string() + ".bin";
  std::signal(SIGABRT, save_input_and_die);
  std::signal(SIGSEGV, save_input_and_die);
  if (std::filesystem::is_regular_file(where)) {
    run(read_file(where));
    std::printf("ran 1 input (%s)\n", argv[1]);
    return 0;
  }
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(where))
    for (const auto& entry : std::filesystem::directory_iterator(where))
      if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "%s: no corpus files in '%s'\n", argv[0], argv[1]);
    return 2;
  }
  std::vector<std::string> corpus;
  for (const auto& f : files) corpus.push_back(read_file(f));
  for (const std::string& input : corpus) run(input);

  std::size_t count = 2000;
  if (const char* env = std::getenv("KILDALL_FUZZ_REPLAY_INPUTS")) count = std::strtoull(env, nullptr, 10);
  else if (argc > 2) count = std::strtoull(argv[2], nullptr, 10);
  const std::uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < count; ++i) {
    if (i % 2 == 0) {
      std::string bytes(static_cast<std::size_t>(rng() % 600), '\0');
      for (char& c : bytes) c = static_cast<char>(rng());
      run(bytes);
    } else {
      run(mutate(corpus[static_cast<std::size_t>(rng() % corpus.size())], corpus, rng));
    }
  }
  std::printf("ran %zu corpus files and %zu pseudo-random inputs\n", corpus.size(), count);
  return 0;
}
