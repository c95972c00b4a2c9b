// The one translation unit that holds doctest's runner; every test executable links it.
// One executable holds the test files of a folder, and CTest runs it once per file
// with --source-file=<pattern> (tests/CMakeLists.txt): a pattern that selects no
// test case is a broken registration, not a pass, so the run fails.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string_view>

namespace {

/// How many test cases passed the command line's filters in this run.
unsigned selected_test_cases = 0;

/// A doctest listener that records the count above at the end of the run.
struct SelectedTestCaseCounter : doctest::IReporter {
  explicit SelectedTestCaseCounter(const doctest::ContextOptions& /*options*/) {}
  void report_query(const doctest::QueryData& /*data*/) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override {
    selected_test_cases = stats.numTestCasesPassingFilters;
  }
  void test_case_start(const doctest::TestCaseData& /*data*/) override {}
  void test_case_reenter(const doctest::TestCaseData& /*data*/) override {}
  void test_case_end(const doctest::CurrentTestCaseStats& /*stats*/) override {}
  void test_case_exception(const doctest::TestCaseException& /*exception*/) override {}
  void subcase_start(const doctest::SubcaseSignature& /*signature*/) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData& /*data*/) override {}
  void log_message(const doctest::MessageData& /*data*/) override {}
  void test_case_skipped(const doctest::TestCaseData& /*data*/) override {}
};

}  // namespace

DOCTEST_REGISTER_LISTENER("kildall_selected_test_cases", 1, SelectedTestCaseCounter);

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit()) {
    return result;  // --help, --list-test-cases, ...
  }
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    const bool filters_by_file = argument.starts_with("--source-file=") || argument.starts_with("-sf=");
    if (filters_by_file && selected_test_cases == 0) {
      std::fprintf(stderr, "%s: no test case matches %s\n", argv[0], argv[i]);
      return 1;
    }
  }
  return result;
}
