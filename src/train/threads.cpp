#include "oomkit/train/threads.h"

#include <dlfcn.h>
#include <unistd.h>
#include <malloc.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <thread>

#include <ATen/Version.h>
#include <torch/torch.h>

#include "oomkit/estimate/matmul_workspace.h"

namespace oomkit {

int configure_threads(int threads) {
  cap_onednn_isa();  // before LibTorch's first oneDNN matmul; a no-op once decided (matmul_workspace.h)
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  at::set_num_threads(threads);
  return at::get_num_threads();
}

bool sanitizer_malloc() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

bool configure_malloc() {
  if (sanitizer_malloc()) return false;  // the sanitizer's allocator ignores mallopt
  constexpr int kMmapThresholdBytes = 32 << 20;  // glibc DEFAULT_MMAP_THRESHOLD_MAX (64-bit)
  const bool mmap_ok = ::mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes) == 1;
  const bool trim_ok = ::mallopt(M_TRIM_THRESHOLD, 2 * kMmapThresholdBytes) == 1;
  return mmap_ok && trim_ok;
}

std::string blas_core_name() {
  using CoreNameFn = char* (*)();
  const auto fn = reinterpret_cast<CoreNameFn>(::dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  if (fn == nullptr) return "";
  const char* name = fn();
  return name == nullptr ? "" : std::string(name);
}

std::string blas_core_fit() {
  const std::string core = blas_core_name();
  if (core.empty()) return "";
  std::string lower = core;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  // OpenBLAS's generic x86-64 fallbacks (SSE/AVX1 kernels), the ones a wider CPU should not run.
  const bool generic = lower == "prescott" || lower == "core2" || lower == "penryn" || lower == "dunnington" ||
                       lower == "nehalem" || lower == "atom" || lower == "sandybridge" || lower == "unknown";
  if (!generic) return "";
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f")) return "SkylakeX";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
#endif
  return "";
}

std::string blas_core_hint() {
  const std::string fit = blas_core_fit();
  if (fit.empty()) return "";
  return "OpenBLAS chose its generic '" + blas_core_name() + "' kernels on this CPU, whose model it does not recognise; " +
         "matmul runs several times faster with `export OPENBLAS_CORETYPE=" + fit + "` (set before oomkit starts)";
}

std::string choose_aten_cpu_capability() {
  if (const char* set = std::getenv("ATEN_CPU_CAPABILITY"); set != nullptr && *set != '\0') return "";  // the user's
#if defined(__x86_64__)
  // The subsets DispatchStub.cpp requires of a CPU for its AVX512 capability (cpuinfo's
  // avx512vl, avx512bw, avx512dq and fma3); the kernels are compiled with -mavx512f -mavx512bw
  // -mavx512vl -mavx512dq -mfma. ATen does not check the CPU when the variable says avx512.
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma")) {
    ::setenv("ATEN_CPU_CAPABILITY", "avx512", 1);
    return "avx512";
  }
#endif
  return "";
}

std::string aten_cpu_capability() {
  const std::string config = at::show_config();
  const std::string key = "CPU capability usage: ";
  const size_t p = config.find(key);
  if (p == std::string::npos) return "";
  const size_t begin = p + key.size();
  size_t end = begin;
  while (end < config.size() && std::isalnum(static_cast<unsigned char>(config[end]))) ++end;
  return config.substr(begin, end - begin);
}

void exec_with_fitting_blas_core(char** argv) {
  if (const char* set = std::getenv("OPENBLAS_CORETYPE"); set != nullptr && *set != '\0') return;  // the user's, or ours
  // Help and version run no matmul: not worth a second start (~0.6 s here).
  if (argv == nullptr || argv[0] == nullptr) return;  // an empty argv (execve allows it): nothing to re-run
  for (char** a = argv + 1; *a != nullptr; ++a) {
    const std::string arg = *a;
    if (arg == "--help" || arg == "-h" || arg == "--help-all" || arg == "--version" || arg == "-V") return;
  }
  const std::string fit = blas_core_fit();
  if (fit.empty()) return;
  ::setenv("OPENBLAS_CORETYPE", fit.c_str(), 1);
  ::execv("/proc/self/exe", argv);
  ::unsetenv("OPENBLAS_CORETYPE");  // execv failed: run on as loaded; blas_core_hint() warns
}

}  // namespace oomkit
