// The OOM-message parser (see include/oomkit/diagnose/oom_record.h for the families).
//
// How it reads a log: each line is cleaned of ANSI codes; a line holding a family's head
// ("CUDA out of memory", "CUBLAS_STATUS_ALLOC_FAILED", ...) starts a report; the report's text
// runs to the next head on the same line, or else on over the following lines (their log
// prefixes removed) until the family's last field, a blank line or a traceback line. Fields
// are then read from that text with every whitespace character removed, so a message wrapped
// anywhere — between words or inside "G\niB" — reads the same as the one-line original.
#include "oomkit/diagnose/oom_record.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>

#include <nlohmann/json.hpp>

#include "oomkit/core/units.h"

namespace oomkit {

std::optional<int64_t> OomRecord::effective_capacity_bytes() const {
  if (allowed_bytes && (!total_capacity_bytes || *allowed_bytes < *total_capacity_bytes)) return allowed_bytes;
  return total_capacity_bytes;
}

namespace {

constexpr auto kIcase = std::regex::ECMAScript | std::regex::icase;
constexpr size_t kMaxWindowChars = 4000;  // a report is < 1 KiB; bounds the regex work per report
constexpr int kMaxContinuationLines = 12;

struct Line {
  std::string text;
  int64_t number = 0;  // 1-based, counting '\n'
};

// Removes ANSI escape sequences (CSI "ESC [ ... final", OSC "ESC ] ... BEL"), and colour codes
// whose ESC was lost on the way ("[31m").
std::string strip_ansi(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\x1b') {
      if (i + 1 < s.size() && s[i + 1] == '[') {
        size_t j = i + 2;
        while (j < s.size() && !(s[j] >= '@' && s[j] <= '~')) ++j;
        i = j;
      } else if (i + 1 < s.size() && s[i + 1] == ']') {
        size_t j = i + 2;
        while (j < s.size() && s[j] != '\x07' && !(s[j] == '\x1b' && j + 1 < s.size() && s[j + 1] == '\\')) ++j;
        i = (j < s.size() && s[j] == '\x1b') ? j + 1 : j;
      } else {
        ++i;
      }
      continue;
    }
    if (c == '[') {  // "[31m", "[0m", "[1;31m" without their ESC
      size_t j = i + 1;
      while (j < s.size() && j - i <= 9 && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == ';')) ++j;
      if (j > i + 1 && j < s.size() && s[j] == 'm') {
        i = j;
        continue;
      }
    }
    out.push_back(c == '\t' ? ' ' : c);
  }
  return out;
}

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  int64_t number = 1;
  std::string current;
  auto flush = [&] {
    lines.push_back({strip_ansi(current), number});
    current.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      flush();
      ++number;
    } else if (c == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') continue;  // CRLF
      flush();  // a lone CR (progress bars) starts a new line on the same line number
    } else if (c != '\0') {
      current.push_back(c);
    }
  }
  if (!current.empty()) flush();
  return lines;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string squash(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (!is_space(c)) out.push_back(c);
  }
  return out;
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

// Log prefixes that loggers put before each line: timestamps, "[rank0]:", "(pid=12)", levels,
// glog's "E1123 10:00:00.123 42 file.cc:12]", NCCL's "host:pid:tid [0]", pytest's "E   ".
std::string strip_log_prefix(std::string s) {
  static const std::regex kPrefix(
      R"(^(\s+|\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\s*)"
      R"(|\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\s*|[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+\s+\S+:\d+\]\s*)"
      R"(|\[[^\]]{0,80}\]:?\s*|\([^)]{0,60}(?:pid|rank)[^)]{0,60}\)\s*)"
      R"(|(?:ERROR|WARNING|WARN|INFO|DEBUG|CRITICAL|FATAL)\b:?\s*|rank\s*\d+\s*:\s*|\d{1,4}:\s+)"
      R"(|[\w.-]+:\d+:\d+\s+\[\d+\]\s*|E\s{2,}|>\s*|\|\s*))",
      std::regex::ECMAScript);
  for (int k = 0; k < 10 && !s.empty(); ++k) {
    std::smatch m;
    const std::string head = s.substr(0, std::min<size_t>(s.size(), 240));
    if (!std::regex_search(head, m, kPrefix) || m.length(0) == 0) break;
    s.erase(0, static_cast<size_t>(m.length(0)));
  }
  return s;
}

// ---- family heads --------------------------------------------------------------------------

struct Head {
  std::regex re;
  const char* family;
  const char* subsystem;
};

const std::vector<Head>& heads() {
  static const std::vector<Head> kHeads = {
      {std::regex(R"((?:\bCPU\s+)?out of memory\s*\(oomkit --memory-limit\))", kIcase), "oomkit_cpu_budget", "oomkit_budget"},
      {std::regex(R"(MPS backend out of memory)", kIcase), "pytorch", "caching_allocator"},
      {std::regex(R"(cuda runtime error\s*\(2\)\s*:\s*out of memory)", kIcase), "cuda_error_oom", "cuda_runtime"},
      {std::regex(R"(\b(?:CUDA|HIP)\s+error\s*:\s*out of memory)", kIcase), "cuda_error_oom", "cuda_runtime"},
      {std::regex(R"(Cuda failure\s*(?:\d+\s*)?'out of memory')", kIcase), "cuda_error_oom", "nccl"},
      {std::regex(R"(Failed to CUDA calloc\s+\d+\s*bytes)", kIcase), "cuda_error_oom", "nccl"},
      {std::regex(R"(CUDA_ERROR_OUT_OF_MEMORY|cudaErrorMemoryAllocation|hipErrorOutOfMemory|HIP_ERROR_OutOfMemory)",
                  std::regex::ECMAScript), "cuda_error_oom", "cuda_runtime"},
      {std::regex(R"(Allocation on device\s*\d*\s*would exceed allowed memory\.?\s*(?:\(out of memory\))?)", kIcase), "pytorch_async",
       "cuda_malloc_async"},
      {std::regex(R"(CUBLAS_STATUS_ALLOC_FAILED)", kIcase), "cublas_alloc_failed", "cublas"},
      {std::regex(R"(CUDNN_STATUS_ALLOC_FAILED)", kIcase), "cudnn_alloc_failed", "cudnn"},
      {std::regex(R"(DefaultCPUAllocator:\s*(?:can't allocate memory|not enough memory))", kIcase),
       "cpu_default_allocator", "cpu_allocator"},
      // The caching allocator of any device: "CUDA out of memory.", "XPU out of memory.",
      // "Out of memory." Validated below (a "Tried to allocate" must follow, or the sentence must end).
      {std::regex(R"((?:\b([A-Za-z]+)\s+)?\bout of memory\b)", kIcase), "pytorch", "caching_allocator"},
  };
  return kHeads;
}

struct HeadHit {
  size_t pos = 0;
  size_t end = 0;
  size_t head_index = 0;
  std::string device_word;  // the word before "out of memory" for the generic head
};

// Plain-text anchors of the heads: the regexes run only on a window around each anchor, so a
// megabyte-long line costs a linear scan, never a quadratic regex search.
const char* const kAnchors[] = {"out of memory", "cublas_status_alloc_failed", "cudnn_status_alloc_failed",
                                "defaultcpuallocator", "failed to cuda calloc", "cuda_error_out_of_memory",
                                "cudaerrormemoryallocation", "hiperroroutofmemory", "hip_error_outofmemory",
                                "would exceed allowed memory"};

std::vector<HeadHit> find_heads(const std::string& line) {
  std::vector<HeadHit> hits;
  const std::string lowered = lower(line);
  std::vector<size_t> anchors;
  for (const char* a : kAnchors) {
    for (size_t p = lowered.find(a); p != std::string::npos; p = lowered.find(a, p + 1)) anchors.push_back(p);
  }
  if (anchors.empty()) return hits;
  std::sort(anchors.begin(), anchors.end());
  for (size_t a : anchors) {
    const size_t from = a > 80 ? a - 80 : 0;
    const std::string window = line.substr(from, 200);
    for (size_t h = 0; h < heads().size(); ++h) {
      for (auto it = std::sregex_iterator(window.begin(), window.end(), heads()[h].re); it != std::sregex_iterator(); ++it) {
        HeadHit hit{from + static_cast<size_t>(it->position(0)), from + static_cast<size_t>(it->position(0) + it->length(0)), h, {}};
        if (it->size() > 1 && (*it)[1].matched) hit.device_word = (*it)[1].str();
        const bool dup = std::any_of(hits.begin(), hits.end(), [&](const HeadHit& o) {
          return o.pos == hit.pos && o.head_index == hit.head_index;
        });
        if (!dup) hits.push_back(hit);
      }
    }
  }
  std::sort(hits.begin(), hits.end(), [](const HeadHit& a, const HeadHit& b) {
    return a.pos != b.pos ? a.pos < b.pos : a.head_index < b.head_index;
  });
  std::vector<HeadHit> kept;  // drop a hit that overlaps an earlier (more specific) one
  for (const auto& hit : hits) {
    bool overlaps = false;
    for (const auto& k : kept) overlaps = overlaps || (hit.pos < k.end && k.pos < hit.end);
    if (!overlaps) kept.push_back(hit);
  }
  return kept;
}

// ---- sizes ---------------------------------------------------------------------------------

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

bool report_done(const std::string& family, const std::string& s) {
  if (family == "pytorch_async") return s.find("memoryfraction):") != std::string::npos &&
                                        s.find("memoryfraction):") + 16 < s.size();
  if (family == "pytorch" || family == "pytorch2" || family == "oomkit_cpu_budget") {
    return s.find("reservedintotal") != std::string::npos || s.find("cached)") != std::string::npos ||
           s.find("butunallocated") != std::string::npos || s.find("pool.") != std::string::npos;
  }
  return true;  // the other families are one-line reports
}

bool starts_traceback(const std::string& s) {
  return s.rfind("Traceback", 0) == 0 || s.rfind("File \"", 0) == 0 || s.rfind("During handling", 0) == 0 ||
         s.rfind("The above exception", 0) == 0;
}

// The generic head must be followed by "Tried to allocate" or end its sentence: "CUDA out of
// memory errors are common" in prose is not a report.
bool generic_head_is_report(const HeadHit& hit, const std::string& squashed_tail) {
  static const std::regex kTriedSoon(R"(^[.,:;!'"`)\]]*(?:[A-Za-z]+Error:)?Triedtoallocate)", kIcase);
  if (std::regex_search(squashed_tail, kTriedSoon)) return true;
  static const std::regex kEnds(R"(^(?:$|[.:;!'"`)\]]))");
  const std::string type = device_type_from_word(hit.device_word);
  const bool device_named = !type.empty() || lower(hit.device_word) == "gpu";
  return device_named && std::regex_search(squashed_tail, kEnds);
}

}  // namespace

std::vector<OomRecord> parse_oom_log(std::string_view text) {
  const std::vector<Line> lines = split_lines(text);
  std::vector<OomRecord> records;
  std::vector<std::string> squashed_of;  // parallel to records
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i].text;
    const std::vector<HeadHit> hits = find_heads(line);
    for (size_t h = 0; h < hits.size(); ++h) {
      const HeadHit& hit = hits[h];
      const Head& head = heads()[hit.head_index];
      const bool last_on_line = h + 1 == hits.size();
      const size_t end = last_on_line ? line.size() : hits[h + 1].pos;
      // One-line families may state their size before the head ("failed to allocate 17.79G
      // (19104890880 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY"): read from the previous head.
      const bool one_line = std::string(head.family) != "pytorch" && std::string(head.family) != "oomkit_cpu_budget" &&
                            std::string(head.family) != "pytorch_async";
      const size_t begin = one_line ? (h == 0 ? (hit.pos > 160 ? hit.pos - 160 : 0) : std::max(hits[h - 1].end, hit.pos > 160 ? hit.pos - 160 : 0)) : hit.pos;
      std::string spaced = trim(line.substr(begin, std::min(end - begin, kMaxWindowChars)));
      std::string s = squash(spaced);
      OomRecord r;
      r.family = head.family;
      r.subsystem = head.subsystem;
      r.line = lines[i].number;
      const bool generic_head = hit.head_index + 1 == heads().size();
      if (generic_head &&
          !generic_head_is_report(hit, squash(line.substr(hit.end, std::min<size_t>(end - hit.end, 300))))) {
        // Maybe "Tried to allocate" is on the next line.
        bool next_has_tried = false;
        if (last_on_line && i + 1 < lines.size()) {
          const std::string next = squash(strip_log_prefix(lines[i + 1].text.substr(0, 300)));
          std::string tail = squash(line.substr(hit.end, 300));
          tail.erase(std::remove_if(tail.begin(), tail.end(), [](char c) { return std::ispunct(static_cast<unsigned char>(c)) != 0; }), tail.end());
          next_has_tried = tail.empty() && lower(next).rfind("triedtoallocate", 0) == 0;
        }
        if (!next_has_tried) continue;
      }
      if (last_on_line) {
        const std::string prefix = line.substr(0, hit.pos);
        for (size_t j = i + 1; j < lines.size() && j <= i + kMaxContinuationLines; ++j) {
          if (report_done(r.family, s) || s.size() > kMaxWindowChars) break;
          std::string next = lines[j].text.substr(0, kMaxWindowChars);
          if (!trim(prefix).empty() && next.rfind(prefix, 0) == 0) next.erase(0, prefix.size());
          next = strip_log_prefix(next);
          if (trim(next).empty() || starts_traceback(trim(next)) || !find_heads(next).empty()) break;
          spaced += " " + trim(next);
          s += squash(next);
        }
      }
      if (s.size() > kMaxWindowChars) s.resize(kMaxWindowChars);
      read_fields(s, r, hit.device_word);
      derive(r);
      settle_family(s, r);
      r.message = spaced.size() > 1200 ? spaced.substr(0, 1200) : spaced;

      // Merge repeats, cut-off copies and NCCL's two-line report.
      bool merged = false;
      for (size_t k = records.size(); k-- > 0 && !merged;) {
        OomRecord& prev = records[k];
        const std::string& ps = squashed_of[k];
        const bool same_text = ps == s;
        const bool cut_copy = s.size() >= 24 && ps.size() > s.size() && ps.compare(0, s.size(), s) == 0;
        const bool nccl_pair = prev.subsystem == "nccl" && r.subsystem == "nccl" && !prev.requested_bytes &&
                               r.requested_bytes && r.line - prev.line <= 4;
        if (same_text || cut_copy) {
          ++prev.occurrences;
          merged = true;
        } else if (nccl_pair) {
          prev.requested_bytes = r.requested_bytes;
          prev.message += " " + r.message;
          merged = true;
        } else if (ps.size() >= 24 && s.size() > ps.size() && s.compare(0, ps.size(), ps) == 0) {
          r.occurrences = prev.occurrences + 1;  // the earlier one was a cut-off copy of this one
          r.line = prev.line;
          prev = r;
          squashed_of[k] = s;
          merged = true;
        }
      }
      if (!merged) {
        records.push_back(std::move(r));
        squashed_of.push_back(s);
      }
    }
  }
  return records;
}

nlohmann::json oom_record_to_json(const OomRecord& r) {
  nlohmann::json j{{"family", r.family},     {"device", r.device},         {"subsystem", r.subsystem},
                   {"line", r.line},         {"occurrences", r.occurrences}, {"message", r.message},
                   {"complete", r.complete}};
  auto put = [&](const char* key, const std::optional<int64_t>& v) {
    if (v) j[key] = *v;
  };
  put("requested_bytes", r.requested_bytes);
  if (r.requested_is_lower_bound) j["requested_is_lower_bound"] = true;
  put("total_capacity_bytes", r.total_capacity_bytes);
  put("free_bytes", r.free_bytes);
  put("allocated_bytes", r.allocated_bytes);
  put("reserved_bytes", r.reserved_bytes);
  put("reserved_unallocated_bytes", r.reserved_unallocated_bytes);
  put("private_pool_bytes", r.private_pool_bytes);
  put("allowed_bytes", r.allowed_bytes);
  put("process_bytes", r.process_bytes);
  put("non_pytorch_bytes", r.non_pytorch_bytes);
  put("other_process_bytes", r.other_process_bytes);
  if (!r.processes.empty()) {
    j["processes"] = nlohmann::json::array();
    for (const auto& p : r.processes) j["processes"].push_back({{"pid", p.pid}, {"bytes", p.bytes}});
  }
  return j;
}

}  // namespace oomkit
