// Inputs found by the libFuzzer targets (fuzz/, scripts/fuzz.sh), kept as regression tests.
// tests/data/oom-cases/fuzz-findings/*.log: every file goes through what `oomkit diagnose
// [--json]` does, in a child process with a deadline (a hang fails in seconds, not at ctest's
// timeout); a new reproducer needs only to be dropped into that folder.
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "oomkit/diagnose/diagnosis.h"
#include "oomkit/diagnose/oom_report.h"

namespace {

const std::string kFindings = std::string(OOMKIT_SOURCE_DIR) + "/tests/data/oom-cases/fuzz-findings";

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// diagnose_log + both outputs, as fuzz/fuzz_oom_log.cpp runs them.
void diagnose_fully(const std::string& text) {
  for (const auto& d : oomkit::diagnose_log(text)) {
    (void)oomkit::oom_report_json(d).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    (void)oomkit::oom_report_text(d);
  }
}

bool mentions(const std::vector<oomkit::Diagnosis>& ds, const std::string& needle) {
  for (const auto& d : ds) {
    for (const auto& f : d.findings) {
      for (const auto& e : f.evidence) {
        if (e.find(needle) != std::string::npos) return true;
      }
    }
  }
  return false;
}

}  // namespace

TEST(FuzzRegressions, EveryOomLogFindingIsDiagnosedWithinADeadline) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(kFindings)) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << kFindings;
  for (const auto& path : files) {
    const std::string text = read_all(path);
    SCOPED_TRACE(path);
    // 20 s: the slowest of these takes milliseconds even under ASan; SIGALRM kills a hang.
    EXPECT_EXIT(
        {
          alarm(20);
          diagnose_fully(text);
          std::_Exit(0);
        },
        ::testing::ExitedWithCode(0), "");
  }
}

// The fuzzer's hang (fuzz_oom_log, timeout after 10 s): a line naming a "sequence" with a digit
// run longer than integer_at() reads (19+ digits) restarted the scan at the line's start forever.
// Now the run is skipped and a long input named later on the line ("912 AA") is still evidence.
TEST(FuzzRegressions, TooLongDigitRunDoesNotRestartTheInputSizeScan) {
  const std::string log =
      "I changed the sequence 77777777777777777777777777777777777777777777 to our 912 AA sequence.\n"
      "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity; "
      "12.10 GiB already allocated; 1.20 GiB free; 13.50 GiB reserved in total by PyTorch)\n";
  const auto ds = oomkit::diagnose_log(log);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(mentions(ds, "a long input")) << oomkit::oom_report_text(ds.front());
  // A run alone, with no long input after it: no such evidence, and the scan ends.
  const auto alone = oomkit::diagnose_log(
      "sequence length 1234567890123456789012345\n"
      "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity; "
      "12.10 GiB already allocated; 1.20 GiB free; 13.50 GiB reserved in total by PyTorch)\n");
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_FALSE(mentions(alone, "a long input"));
}
