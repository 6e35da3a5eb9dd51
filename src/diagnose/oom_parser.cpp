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
#include "log_text.h"
#include "oom_fields.h"

namespace oomkit {

std::optional<int64_t> OomRecord::effective_capacity_bytes() const {
  if (allowed_bytes && (!total_capacity_bytes || *allowed_bytes < *total_capacity_bytes)) return allowed_bytes;
  return total_capacity_bytes;
}

namespace {

using namespace diagnose_detail;

constexpr auto kIcase = std::regex::ECMAScript | std::regex::icase;
constexpr size_t kMaxWindowChars = 4000;  // a report is < 1 KiB; bounds the regex work per report
constexpr int kMaxContinuationLines = 12;


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
  size_t next_skip = 0;     // a head wrapped onto the next line: its characters there
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


// The heads of `line`, including one wrapped onto the next line ("CUDA out of m" / "emory."):
// the line is probed joined to the start of the next (cleaned) line, with and without a space.
std::vector<HeadHit> heads_of_line(const std::string& line, const std::string& next_clean) {
  std::vector<HeadHit> hits = find_heads(line);
  if (next_clean.empty()) return hits;
  for (const std::string joiner : {"", " "}) {
    const std::string probe = line + joiner + next_clean.substr(0, 60);
    for (HeadHit hit : find_heads(probe)) {
      if (hit.pos >= line.size() || hit.end <= line.size() + joiner.size()) continue;
      const bool overlaps = std::any_of(hits.begin(), hits.end(), [&](const HeadHit& o) { return hit.pos < o.end && o.pos < hit.end; });
      if (overlaps) continue;
      hit.next_skip = hit.end - line.size() - joiner.size();
      hit.end = line.size();
      hits.push_back(hit);
    }
  }
  std::sort(hits.begin(), hits.end(), [](const HeadHit& a, const HeadHit& b) { return a.pos < b.pos; });
  return hits;
}

bool report_done(const std::string& family, const std::string& s) {
  if (family == "pytorch_async") return s.find("memoryfraction):") != std::string::npos &&
                                        s.find("memoryfraction):") + 16 < s.size();
  if (family == "pytorch" || family == "pytorch2" || family == "oomkit_cpu_budget") {
    return s.find("reservedintotal") != std::string::npos || s.find("cached)") != std::string::npos ||
           s.find("butunallocated") != std::string::npos || s.find("pool.") != std::string::npos;
  }
  if (family == "cpu_default_allocator") {
    static const std::regex kBytes(R"(youtriedtoallocate\d+bytes)", kIcase);
    return std::regex_search(s, kBytes);
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

// Whether a continuation line holds the head of another report (heads wrapped into it from
// the report being read, the first `skip` characters, do not count).
bool starts_new_report(const std::string& line, size_t skip) {
  for (const HeadHit& h : find_heads(line)) {
    if (h.pos < skip) continue;
    if (h.head_index + 1 != heads().size()) return true;
    if (generic_head_is_report(h, squash(line.substr(h.end, 300)))) return true;
  }
  return false;
}

}  // namespace

std::vector<OomRecord> parse_oom_log(std::string_view text) {
  const std::vector<Line> lines = split_lines(text);
  std::vector<OomRecord> records;
  std::vector<std::string> squashed_of;  // parallel to records
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i].text;
    const std::string next_clean = i + 1 < lines.size() ? trim(strip_log_prefix(lines[i + 1].text.substr(0, 400))) : "";
    const std::vector<HeadHit> hits = heads_of_line(line, next_clean);
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
      if (begin == 0) spaced = trim(strip_log_prefix(spaced));
      if (one_line && h == 0 && begin == 0 && i > 0) {  // a wrapped one-line report may start a line earlier
        const std::string prev = trim(strip_log_prefix(lines[i - 1].text.substr(0, 400)));
        if (!prev.empty() && !starts_traceback(prev) && find_heads(prev).empty()) spaced = prev + " " + spaced;
      }
      std::string s = squash(spaced);
      OomRecord r;
      r.family = head.family;
      r.subsystem = head.subsystem;
      r.line = lines[i].number;
      const bool generic_head = hit.head_index + 1 == heads().size();
      if (generic_head) {
        // "Tried to allocate" may follow on this line or, for the last head, on the next one.
        const std::string own_tail = squash(line.substr(hit.end, std::min<size_t>(end - hit.end, 300)));
        const std::string joined_tail =
            last_on_line ? own_tail + squash(next_clean.substr(std::min(hit.next_skip, next_clean.size()), 300)) : own_tail;
        if (!generic_head_is_report(hit, own_tail) && !generic_head_is_report(hit, joined_tail)) continue;
      }
      if (last_on_line) {
        const std::string prefix = line.substr(0, hit.pos);
        for (size_t j = i + 1; j < lines.size() && j <= i + kMaxContinuationLines; ++j) {
          if (report_done(r.family, s) || s.size() > kMaxWindowChars) break;
          std::string next = lines[j].text.substr(0, kMaxWindowChars);
          if (!trim(prefix).empty() && next.rfind(prefix, 0) == 0) next.erase(0, prefix.size());
          next = strip_log_prefix(next);
          const std::string next_trimmed = trim(next);
          if (next_trimmed.empty() || starts_traceback(next_trimmed) ||
              starts_new_report(next_trimmed, j == i + 1 ? hit.next_skip : 0)) {
            break;
          }
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