// `--precision auto` (see precision_auto.h for the rule and its sources).
#include "oomkit/estimate/precision_auto.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "oomkit/estimate/gpus.h"
#include "oomkit/estimate/matmul_workspace.h"

namespace oomkit {
namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// oneDNN's cpu_isa names (ONEDNN_MAX_CPU_ISA, oneDNN docs "CPU Dispatcher Control"), in order:
// whether a cap lets oneDNN run avx512_bf16 (AVX512_CORE_BF16 and above) and AMX-BF16 kernels.
bool cap_allows_avx512_bf16(const std::string& cap) {
  const std::string c = upper(cap);
  return onednn_cap_allows_amx(cap) || c == "AVX512_CORE_BF16" || c == "AVX512_CORE_FP16" || c.rfind("AVX10", 0) == 0;
}

}  // namespace

AutoPrecision resolve_auto_precision(const AutoPrecisionInput& in) {
  if (in.gpu) {
    const std::string name = in.gpu_name.empty() ? "the GPU" : in.gpu_name;
    if (!in.gpu_capability) {
      return {Precision::kFp32, fmt::format("{}: compute capability unknown", name)};
    }
    const ComputeCapability& cc = *in.gpu_capability;
    if (cc.major >= 8) {
      return {Precision::kBf16Mixed, fmt::format("{}: compute capability {}.{} >= 8.0", name, cc.major, cc.minor)};
    }
    return {Precision::kFp32, fmt::format("{}: compute capability {}.{} < 8.0, no bf16 tensor cores", name, cc.major, cc.minor)};
  }
  const bool avx512_bf16 = in.cpu_flags.count("avx512_bf16") > 0;
  const bool amx_bf16 = in.cpu_flags.count("amx_bf16") > 0;
  if (amx_bf16 && onednn_cap_allows_amx(in.onednn_isa_cap)) return {Precision::kBf16Mixed, "amx_bf16"};
  if (avx512_bf16 && cap_allows_avx512_bf16(in.onednn_isa_cap)) return {Precision::kBf16Mixed, "avx512_bf16"};
  if (avx512_bf16 || amx_bf16) {
    return {Precision::kFp32, fmt::format("{} capped off by ONEDNN_MAX_CPU_ISA={}", avx512_bf16 ? "avx512_bf16" : "amx_bf16",
                                          in.onednn_isa_cap)};
  }
  return {Precision::kFp32, "no avx512_bf16 or amx_bf16 in the CPU flags"};
}

std::set<std::string> read_cpu_flags(const std::string& cpuinfo_path) {
  std::ifstream in(cpuinfo_path);
  std::string line;
  while (std::getline(in, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    while (!key.empty() && std::isspace(static_cast<unsigned char>(key.back()))) key.pop_back();
    if (key != "flags") continue;
    std::istringstream words(line.substr(colon + 1));
    std::set<std::string> flags;
    for (std::string w; words >> w;) flags.insert(w);
    return flags;
  }
  return {};
}

AutoPrecisionInput this_cpu_auto_precision_input() {
  AutoPrecisionInput in;
  in.cpu_flags = read_cpu_flags();
  in.onednn_isa_cap = onednn_isa_cap_in_environment();
  return in;
}

std::string format_auto_precision(const AutoPrecision& a) {
  return fmt::format("precision auto -> {} ({})", to_string(a.precision), a.reason);
}

std::optional<ComputeCapability> gpu_compute_capability(const std::string& gpu_name) {
  const GpuSpec& g = find_gpu(gpu_name);
  if (g.compute_capability.empty()) return std::nullopt;
  ComputeCapability cc;
  char dot = 0;
  std::istringstream s(g.compute_capability);
  s >> cc.major >> dot >> cc.minor;
  return cc;
}

}  // namespace oomkit
