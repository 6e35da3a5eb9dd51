// Field reading for the OOM parser (see oom_fields.h and include/oomkit/diagnose/oom_record.h).
#include "oom_fields.h"

#include <cmath>
#include <regex>

#include "log_text.h"
#include "oomkit/core/units.h"

namespace oomkit::diagnose_detail {

namespace {

constexpr auto kIcase = std::regex::ECMAScript | std::regex::icase;

const std::string kNum = R"((\d+(?:\.\d+)?))";
const std::string kUnit = R"((bytes|byte|[KMGTPE]iB|[KMGT]B|B))";

std::optional<int64_t> to_bytes(const std::string& number, const std::string& unit, bool mps_units) {
  const std::string u = lower(unit);
  long double mult = 1;
  if (u == "bytes" || u == "byte" || u == "b") mult = 1;
  else if (u == "kib") mult = kKiB;
  else if (u == "mib") mult = kMiB;
  else if (u == "gib") mult = kGiB;
  else if (u == "tib") mult = kTiB;
  else if (u == "pib") mult = static_cast<long double>(kTiB) * 1024;
  else if (u == "eib") mult = static_cast<long double>(kTiB) * 1024 * 1024;
  else if (u == "kb") mult = mps_units ? kKiB : kKB;
  else if (u == "mb") mult = mps_units ? kMiB : kMB;
  else if (u == "gb") mult = mps_units ? kGiB : kGB;
  else if (u == "tb") mult = mps_units ? kTiB : kTB;
  else return std::nullopt;
  if (number.size() > 24) return std::nullopt;
  const long double value = std::stold(number) * mult;
  if (!(value < 9.0e18L)) return std::nullopt;
  return static_cast<int64_t>(std::llround(static_cast<double>(value)));
}

// The first size matched by `pattern` (which has a kNum group then a kUnit group at
// `group`, `group + 1`).
std::optional<int64_t> find_size(const std::string& s, const std::regex& re, bool mps, int group = 1) {
  std::smatch m;
  if (!std::regex_search(s, m, re)) return std::nullopt;
  return to_bytes(m[group].str(), m[group + 1].str(), mps);
}

std::regex sized(const std::string& before, const std::string& after) {
  return std::regex(before + kNum + kUnit + after, kIcase);
}

std::optional<int64_t> find_plain_bytes(const std::string& s, const std::regex& re) {
  std::smatch m;
  if (!std::regex_search(s, m, re) || m[1].length() > 18) return std::nullopt;
  return std::stoll(m[1].str());
}

}  // namespace

std::string device_type_from_word(const std::string& word) {
  const std::string w = lower(word);
  for (const char* known : {"cuda", "hip", "xpu", "mtia", "npu", "cpu", "mps"}) {
    if (w == known) return w;
  }
  return "";
}

// Reads every field from the squashed text `s` into `r`.
void read_fields(const std::string& s, OomRecord& r, const std::string& device_word) {
  static const std::regex kTried = sized(R"(Triedtoallocate)", "");
  static const std::regex kTried1EB(R"(Triedtoallocatemorethan1EB)", kIcase);
  static const std::regex kGpu1(R"(\((?:GPU|XPU|device)(\d+);)", kIcase);
  static const std::regex kTotal1 = sized("", R"(totalcapacity)");
  static const std::regex kAlready1 = sized("", R"(alreadyallocated)");
  static const std::regex kFree1 = sized(";", R"(free)");
  static const std::regex kAllowed = sized("", R"(allowed)");
  static const std::regex kReserved1 = sized("", R"(reservedintotal)");
  static const std::regex kCached1 = sized(";", R"(cached\))");
  static const std::regex kCapacity2(R"((GPU|XPU|CPU|NPU|MTIA|device)(\d+)hasatotalcapacityof)" + kNum + kUnit +
                                         R"(ofwhich)" + kNum + kUnit + R"(isfree)", kIcase);
  static const std::regex kProcess(R"(Process(\d+)has)" + kNum + kUnit + R"(memoryinuse)", kIcase);
  static const std::regex kThisProcess = sized(R"(thisprocesshas)", R"(memoryinuse)");
  static const std::regex kAllocated2 = sized(R"(Oftheallocatedmemory)", R"(isallocatedbyPyTorch)");
  static const std::regex kPrivate2 = sized(R"(with)", R"(allocatedinprivatepools)");
  static const std::regex kUnalloc2 = sized(R"(and)", R"(isreservedbyPyTorchbutunallocated)");
  static const std::regex kMps(R"(MPSallocated:)" + kNum + kUnit + R"(,otherallocations:)" + kNum + kUnit +
                                   R"(,maxallowed:)" + kNum + kUnit, kIcase);
  static const std::regex kCpuBytes(R"(youtriedtoallocate(\d+)bytes)", kIcase);
  static const std::regex kCalloc(R"(FailedtoCUDAcalloc(\d+)bytes)", kIcase);
  static const std::regex kDriverBytes(R"(failedtoallocate[^()]{0,24}\((\d+)bytes\))", kIcase);
  static const std::regex kCudaIndex(R"(cuda:(\d+))", kIcase);

  const bool mps = s.find("MPSbackend") != std::string::npos || s.find("mpsbackend") != std::string::npos;
  std::string type = device_type_from_word(device_word);
  std::smatch m;

  if (std::regex_search(s, kTried1EB)) {
    r.requested_bytes = int64_t{1} << 60;
    r.requested_is_lower_bound = true;
  } else if (auto v = find_size(s, kTried, mps)) {
    r.requested_bytes = v;
  }
  if (mps) {
    r.device = "mps";
    if (std::regex_search(s, m, kMps)) {
      r.allocated_bytes = to_bytes(m[1].str(), m[2].str(), true);
      r.non_pytorch_bytes = to_bytes(m[3].str(), m[4].str(), true);
      r.allowed_bytes = to_bytes(m[5].str(), m[6].str(), true);
      r.reserved_bytes = r.allocated_bytes;
    }
    return;
  }
  // PyTorch 1.x fields.
  if (std::regex_search(s, m, kGpu1)) r.device = (type.empty() ? "cuda" : type) + ":" + m[1].str();
  r.total_capacity_bytes = find_size(s, kTotal1, false);
  r.allocated_bytes = find_size(s, kAlready1, false);
  r.free_bytes = find_size(s, kFree1, false);
  r.allowed_bytes = find_size(s, kAllowed, false);
  r.reserved_bytes = find_size(s, kReserved1, false);
  if (!r.reserved_bytes) r.reserved_bytes = find_size(s, kCached1, false);
  // PyTorch 2.x fields.
  if (std::regex_search(s, m, kCapacity2)) {
    const std::string word = lower(m[1].str());
    if (word == "cpu") type = "cpu";
    if (type.empty()) type = (word == "xpu" || word == "npu" || word == "mtia") ? word : "cuda";
    r.device = type + ":" + m[2].str();
    r.total_capacity_bytes = to_bytes(m[3].str(), m[4].str(), false);
    r.free_bytes = to_bytes(m[5].str(), m[6].str(), false);
  }
  for (auto it = std::sregex_iterator(s.begin(), s.end(), kProcess); it != std::sregex_iterator(); ++it) {
    auto bytes = to_bytes((*it)[2].str(), (*it)[3].str(), false);
    if (bytes && (*it)[1].length() <= 12) r.processes.push_back({std::stoll((*it)[1].str()), *bytes});
  }
  if (!r.processes.empty()) {
    int64_t sum = 0;
    for (const auto& p : r.processes) sum += p.bytes;
    r.other_process_bytes = sum;
  }
  r.process_bytes = find_size(s, kThisProcess, false);
  if (auto v = find_size(s, kAllocated2, false)) r.allocated_bytes = v;
  r.private_pool_bytes = find_size(s, kPrivate2, false);
  if (auto v = find_size(s, kUnalloc2, false)) r.reserved_unallocated_bytes = v;
  // The cudaMallocAsync backend (PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync).
  static const std::regex kAsyncDevice(R"(Allocationondevice(\d+)wouldexceedallowedmemory)", kIcase);
  static const std::regex kAsyncAllocated = sized(R"(Currentlyallocated:)", "");
  static const std::regex kAsyncRequested = sized(R"(Requested:)", "");
  static const std::regex kAsyncLimit = sized(R"(Devicelimit:)", "");
  static const std::regex kAsyncFree = sized(R"(Free\(accordingtoCUDA\):)", "");
  static const std::regex kAsyncFraction = sized(R"(memoryfraction\):)", "");
  if (std::regex_search(s, m, kAsyncDevice)) {
    r.device = "cuda:" + m[1].str();
    r.allocated_bytes = find_size(s, kAsyncAllocated, false);
    r.requested_bytes = find_size(s, kAsyncRequested, false);
    r.total_capacity_bytes = find_size(s, kAsyncLimit, false);
    r.free_bytes = find_size(s, kAsyncFree, false);
    r.allowed_bytes = find_size(s, kAsyncFraction, false);  // "17179869184.00 GiB" (no fraction) overflows: dropped
    if (r.allowed_bytes && r.total_capacity_bytes && *r.allowed_bytes >= *r.total_capacity_bytes) r.allowed_bytes.reset();
  }
  // Outside the caching allocator.
  if (auto v = find_plain_bytes(s, kCpuBytes)) r.requested_bytes = v;
  if (auto v = find_plain_bytes(s, kCalloc)) r.requested_bytes = v;
  if (!r.requested_bytes) {
    if (auto v = find_plain_bytes(s, kDriverBytes)) r.requested_bytes = v;
  }
  if (r.device.empty() && std::regex_search(s, m, kCudaIndex)) r.device = "cuda:" + m[1].str();
}

// Completes derived fields: 1.x reserved - allocated; 2.x allocated + unallocated.
void derive(OomRecord& r) {
  if (r.reserved_bytes && r.allocated_bytes && !r.reserved_unallocated_bytes) {
    r.reserved_unallocated_bytes = std::max<int64_t>(0, *r.reserved_bytes - *r.allocated_bytes);
  }
  if (!r.reserved_bytes && r.allocated_bytes && r.reserved_unallocated_bytes) {
    r.reserved_bytes = *r.allocated_bytes + *r.reserved_unallocated_bytes;
  }
}

// Decides the caching-allocator family from the text and whether the message is complete.
void settle_family(const std::string& s, OomRecord& r) {
  static const std::regex k1(R"(totalcapacity;|alreadyallocated|reservedintotalbyPyTorch|cached\))", kIcase);
  static const std::regex k2(R"(hasatotalcapacityof|isallocatedbyPyTorch|butunallocated|MPSbackend|Triedtoallocatemorethan|Triedtoallocate)" +
                                 kNum + "?" + kUnit + R"(?\.)", kIcase);
  if (r.family == "oomkit_cpu_budget") {
    r.device = "cpu";
    r.complete = s.find("butunallocated") != std::string::npos;
    return;
  }
  if (r.family == "pytorch_async") {
    r.complete = r.free_bytes.has_value() && r.total_capacity_bytes.has_value();
    return;
  }
  if (r.family != "pytorch") {
    r.complete = true;
    return;
  }
  if (std::regex_search(s, k1)) {
    r.family = "pytorch1";
    r.complete = r.reserved_bytes.has_value();
  } else if (std::regex_search(s, k2) || r.device == "mps") {
    r.family = "pytorch2";
    r.complete = r.device == "mps" ? r.allowed_bytes.has_value() : s.find("butunallocated") != std::string::npos;
  } else {
    r.complete = false;
  }
}

}  // namespace oomkit::diagnose_detail
