// Tests of the process settings of include/oomkit/train/threads.h: intra-op threads, glibc
// malloc thresholds, and the OpenBLAS kernel hint.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "oomkit/train/threads.h"

namespace oomkit {
namespace {

long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

// Allocates, writes and frees `bytes`; returns the minor page faults this caused.
long faults_of_one_round(size_t bytes) {
  const long before = minor_faults();
  auto* p = static_cast<volatile char*>(std::malloc(bytes));
  if (p == nullptr) return -1;
  for (size_t i = 0; i < bytes; i += 4096) p[i] = static_cast<char>(i);
  std::free(const_cast<char*>(p));
  return minor_faults() - before;
}

// Invariant: the thread count asked for is the one in force (<= 0 means every core, >= 1).
TEST(ConfigureThreads, SetsTheCountAskedFor) {
  EXPECT_EQ(configure_threads(1), 1);
  EXPECT_GE(configure_threads(0), 1);
  configure_threads(1);
}

// Invariant: after configure_malloc, a 24 MiB buffer (below the 32 MiB mmap threshold) that is
// freed and allocated again is served from the heap pages already faulted in, as a training
// step's activations are: glibc neither returns it to the kernel (trim threshold 64 MiB) nor
// maps it fresh. 24 MiB are 6144 pages of 4 KiB; a reused buffer faults (almost) none. Without
// the call, a fresh process maps the first round and faults the second one in again.
TEST(ConfigureMalloc, FreedBuffersAreReusedWithoutPageFaults) {
  if (sanitizer_malloc()) {
    EXPECT_FALSE(configure_malloc());
    GTEST_SKIP() << "a sanitizer's allocator replaces glibc malloc: no thresholds to set (scripts/sanitize.sh)";
  }
  ASSERT_TRUE(configure_malloc());
  constexpr size_t kBytes = 24u << 20;
  ASSERT_GE(faults_of_one_round(kBytes), 0);  // warm-up: the heap grows once
  const long second = faults_of_one_round(kBytes);
  const long third = faults_of_one_round(kBytes);
  EXPECT_LT(second, 256) << "a freed 24 MiB buffer was given back to the kernel and faulted in again";
  EXPECT_LT(third, 256);
}

// Invariant: the hint is either empty or names the environment variable to set and the
// generic core that OpenBLAS reported (the text a user acts on).
TEST(BlasCoreHint, EmptyOrActionable) {
  const std::string hint = blas_core_hint();
  if (hint.empty()) GTEST_SKIP() << "OpenBLAS runs kernels fit for this CPU (" << blas_core_name() << ")";
  EXPECT_NE(hint.find("OPENBLAS_CORETYPE="), std::string::npos) << hint;
  EXPECT_NE(hint.find(blas_core_name()), std::string::npos) << hint;
}

}  // namespace
}  // namespace oomkit
