#include "oomkit/diagnose/oom_report.h"

#include <cctype>
#include <filesystem>
#include <cmath>
#include <fstream>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"
#include "log_text.h"

namespace oomkit {

namespace {

nlohmann::json finding_json(const Finding& f) {
  nlohmann::json j{{"category", cause_name(f.category)},
                   {"title", f.title},
                   {"evidence", f.evidence},
                   {"playbook_step", f.playbook_step},
                   {"fix", f.fix},
                   {"confidence", f.confidence()},
                   {"probe", f.probe}};
  if (f.saving_bytes) j["saving_bytes"] = *f.saving_bytes;
  return j;
}


void numbers_line(const OomRecord& r, std::string& out) {
  std::vector<std::string> parts;
  // A size beyond int64 is kept as INT64_MAX with size_overflow set (oom_record.h): printing that as
  // "8.00 EiB" would be a wrong number, so it is shown as what it is.
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  auto add = [&](const char* label, const std::optional<int64_t>& v) {
    if (!v) return;
    if (r.size_overflow && *v == kMax) parts.push_back(fmt::format("{} beyond int64's range (over 8 EiB)", label));
    else parts.push_back(fmt::format("{} {}", label, format_bytes(*v)));
  };
  if (r.requested_is_lower_bound) parts.push_back("requested more than 1 EiB");
  else if (r.size_overflow && r.requested_bytes == kMax && !r.requested_printed.empty())
    parts.push_back(fmt::format(diagnose_detail::printed_negative(r.requested_printed) ? "requested {} (negative: a corrupted size)"
                                                              : "requested {} (beyond int64's range, over 8 EiB)",
                                diagnose_detail::spaced_unit(r.requested_printed)));
  else add("requested", r.requested_bytes);
  add("capacity", r.total_capacity_bytes);
  add("allowed", r.allowed_bytes);
  add("free", r.free_bytes);
  add("allocated", r.allocated_bytes);
  add("reserved", r.reserved_bytes);
  add("reserved-unallocated", r.reserved_unallocated_bytes);
  add("private pools", r.private_pool_bytes);
  add("this process", r.process_bytes);
  add("non-PyTorch", r.non_pytorch_bytes);
  add("largest free block", r.largest_free_block_bytes);
  add("largest allocation the device allows", r.max_allocation_bytes);
  if (parts.empty()) {
    out += "  (no sizes in the message)\n";
    return;
  }
  std::string line = "  ";
  for (size_t i = 0; i < parts.size(); ++i) line += (i ? " | " : "") + parts[i];
  out += line + "\n";
  for (const auto& p : r.processes) out += fmt::format("  process {} holds {}\n", p.pid, format_bytes(p.bytes));
}

}  // namespace

nlohmann::json oom_report_json(const PlaybookResult& result) {
  const Diagnosis& d = result.diagnosis;
  nlohmann::json j;
  j["oom"] = d.oom ? oom_record_to_json(*d.oom) : nlohmann::json(nullptr);
  // The verdict per report: a category, or "ambiguous" when the evidence does not settle it
  // (then "findings" are the candidates in the order the evidence ranks them, each with a probe).
  j["verdict"] = d.verdict();
  if (!d.findings.empty()) {
    j["confidence"] = d.findings.front().confidence();
    j["confidence_score"] = std::round(d.findings.front().score * 100.0) / 100.0;
  } else {
    j["confidence"] = "low";
    j["confidence_score"] = 0.0;
  }
  j["framework"] = d.framework.empty() ? "pytorch" : d.framework;
  j["framework_assumed"] = d.framework_assumed;
  if (!d.phase.empty()) j["phase"] = d.phase;
  j["deciding_evidence"] = nlohmann::json::array();
  for (const auto& e : d.deciding) {
    j["deciding_evidence"].push_back({{"line", e.line},
                                      {"category", cause_name(e.cause)},
                                      {"weight", std::round(e.weight * 100.0) / 100.0},
                                      {"what", e.what}});
  }
  if (!d.notes.empty()) j["notes"] = d.notes;
  j["findings"] = nlohmann::json::array();
  for (const auto& f : d.findings) j["findings"].push_back(finding_json(f));
  j["probes"] = nlohmann::json::array();
  for (const auto& p : result.probes) {
    j["probes"].push_back({{"name", p.name}, {"ok", p.ok}, {"peak_bytes", p.peak_bytes}, {"change", p.change}});
  }
  if (result.recovery) {
    j["recovery"] = {{"applied", result.recovery->applied},
                     {"change", result.recovery->change},
                     {"from", result.recovery->from},
                     {"to", result.recovery->to}};
  }
  return j;
}

nlohmann::json oom_report_json(const Diagnosis& diagnosis) {
  PlaybookResult r;
  r.diagnosis = diagnosis;
  return oom_report_json(r);
}

std::string oom_report_text(const PlaybookResult& result) {
  const Diagnosis& d = result.diagnosis;
  std::string out;
  if (d.oom) {
    const OomRecord& r = *d.oom;
    out += fmt::format("OOM at line {}: {} ({}{}){}\n", r.line, r.family, r.device.empty() ? "device not stated" : r.device,
                       r.subsystem.empty() ? "" : ", " + r.subsystem,
                       r.occurrences > 1 ? fmt::format(", seen {} times", r.occurrences) : "");
    // Not cut inside a UTF-8 character (a CJK sentence, nvidia-smi's box drawing).
    std::string msg = r.message.size() > 300 ? std::string(diagnose_detail::utf8_prefix(r.message, 300)) + "..." : r.message;
    out += "  " + msg + "\n";
    numbers_line(r, out);
  } else {
    out += "OOM (no message parsed)\n";
  }
  if (!d.framework.empty() || !d.phase.empty()) {
    out += fmt::format("Framework: {}{}{}\n", d.framework.empty() ? "pytorch" : d.framework,
                       d.framework_assumed ? " (assumed: the log names no framework; the fixes are worded for PyTorch)" : "",
                       d.phase.empty() ? "" : "; failed in: " + d.phase);
  }
  if (d.findings.empty()) {
    out += "No finding.\n";
  } else if (d.ambiguous()) {
    out += "Verdict: ambiguous: the evidence does not settle the cause. The candidates below are ranked; each one's probe "
           "tells it apart.\n";
  } else {
    out += fmt::format("Verdict: {} ({} confidence)\n", cause_name(d.findings.front().category), d.findings.front().confidence());
  }
  if (!d.deciding.empty()) {
    // The evidence that ranked the first finding first: it decided the verdict, or, when the
    // verdict is ambiguous, only put that candidate ahead.
    out += d.ambiguous() ? fmt::format("Ranked {} first:\n", cause_name(d.findings.front().category)) : "Decided by:\n";
    for (const auto& e : d.deciding) {
      out += e.line > 0 ? fmt::format("  line {}: {}\n", e.line, e.what) : fmt::format("  {}\n", e.what);
    }
  }
  int n = 0;
  for (const auto& f : d.findings) {
    out += fmt::format("{:2}. [{}] {}: {} (playbook step {})\n", ++n, f.confidence(), cause_name(f.category), f.title,
                       f.playbook_step);
    for (const auto& e : f.evidence) out += "      evidence: " + e + "\n";
    out += "      fix: " + f.fix + "\n";
    if (f.saving_bytes) out += "      predicted saving: " + format_bytes(*f.saving_bytes) + "\n";
    if (!f.probe.empty()) out += "      probe: " + f.probe + "\n";
  }
  if (!d.notes.empty()) {
    out += "Notes:\n";
    for (const auto& note : d.notes) out += "  - " + note + "\n";
  }
  if (!result.probes.empty()) {
    out += "Probes:\n";
    for (const auto& p : result.probes) {
      out += fmt::format("  {:<24} {:<4} peak {:>12}  {}\n", p.name, p.ok ? "ok" : "OOM",
                         p.peak_bytes > 0 ? format_bytes(p.peak_bytes) : std::string("-"), p.change);
    }
  }
  if (result.recovery) {
    out += fmt::format("Recovery{}: {}\n", result.recovery->applied ? " (applied)" : " (proposed)", result.recovery->change);
  }
  return out;
}

std::string oom_report_text(const Diagnosis& diagnosis) {
  PlaybookResult r;
  r.diagnosis = diagnosis;
  return oom_report_text(r);
}

void write_oom_report(const PlaybookResult& result, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string json_path = (std::filesystem::path(dir) / "oom_report.json").string();
  const std::string text_path = (std::filesystem::path(dir) / "oom_report.txt").string();
  std::ofstream j(json_path);
  std::ofstream t(text_path);
  if (!j || !t) throw InputError("--out", "cannot write " + json_path + " / " + text_path);
  j << oom_report_json(result).dump(2) << "\n";
  t << oom_report_text(result);
  if (!j || !t) throw InputError("--out", "failed writing " + json_path + " / " + text_path);
}

}  // namespace oomkit
