#include "oomkit/report/report_input.h"

#include <filesystem>
#include <map>
#include <string_view>
#include <fstream>
#include <sstream>

#include "oomkit/core/error.h"
#include "oomkit/core/json_input.h"

namespace oomkit {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kInputHint =
    "pass a run directory of `oomkit train`, its timeline.jsonl, an `oomkit estimate --json` "
    "file or an oom_report.json";

bool is_estimate(const json& j) {
  return j.is_object() && (j.contains("items") || j.contains("totals") || j.contains("sweep") ||
                           j.contains("batch_curve"));
}

bool is_oom_report(const json& j) {
  return j.is_object() && (j.contains("findings") || j.contains("oom"));
}

// The first non-blank line of a file (at most 1 MiB of it), to tell JSON Lines from a JSON document.
std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  char c = 0;
  while (line.size() < (size_t{1} << 20) && in.get(c)) {
    if (c != '\n') {
      line.push_back(c);
    } else if (line.find_first_not_of(" \t\r") != std::string::npos) {
      return line;
    } else {
      line.clear();
    }
  }
  return line;
}

bool looks_like_timeline(const std::string& path) {
  if (fs::path(path).extension() == ".jsonl") return true;
  try {
    const json j = parse_json_input(first_line(path), path);
    return j.is_object() && j.contains("type") && j["type"].is_string();
  } catch (const InputError&) {
    return false;
  }
}

void read_timeline_into(const std::string& path, ReportInput& in) {
  in.timeline_path = path;
  in.records = read_run_records(path);
  const RunRecords& r = in.records;
  if (r.run) in.run = to_json(*r.run);
  in.marks = r.marks;
  for (const StepRecord& s : r.steps) in.steps.push_back(to_json(s));
  for (const EventRecord& e : r.events) in.events.push_back(to_json(e));
  in.summary = r.summary;
  if (!r.run && r.marks.empty()) {
    throw InputError(path, "no \"run\" or \"mark\" record: not an oomkit timeline", kInputHint);
  }
}

// summary.json and oom_report.json beside the timeline, when present.
void read_siblings(const fs::path& dir, ReportInput& in) {
  const fs::path summary = dir / "summary.json";
  if (fs::is_regular_file(summary)) {
    // summary.json and the timeline's "summary" record may hold different parts (the trainer's
    // run summary, the profiler's memory summary): keep both, summary.json winning on a clash.
    json file = read_json_file(summary.string(), summary.string());
    if (in.summary.is_object() && file.is_object()) {
      in.summary.update(file);
    } else {
      in.summary = std::move(file);
    }
  }
  const fs::path oom = dir / "oom_report.json";
  if (fs::is_regular_file(oom)) in.oom_report = read_json_file(oom.string(), oom.string());
}

// The other ranks' timelines beside rank 0's (timeline.rank<r>.jsonl, r >= 1), rank ascending.
void read_other_ranks(const fs::path& dir, ReportInput& in) {
  std::error_code ec;
  std::map<int, fs::path> found;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    constexpr std::string_view kHead = "timeline.rank", kTail = ".jsonl";
    if (name.size() <= kHead.size() + kTail.size() || name.compare(0, kHead.size(), kHead) != 0 ||
        name.compare(name.size() - kTail.size(), kTail.size(), kTail) != 0) {
      continue;
    }
    const std::string digits = name.substr(kHead.size(), name.size() - kHead.size() - kTail.size());
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const int rank = std::stoi(digits);
    if (rank >= 1 && entry.is_regular_file(ec)) found[rank] = entry.path();
  }
  for (const auto& [rank, path] : found) {
    ReportInput::RankRun r;
    r.rank = rank;
    r.timeline_path = path.string();
    r.records = read_run_records(r.timeline_path);
    const fs::path summary = dir / ("summary.rank" + std::to_string(rank) + ".json");
    if (fs::is_regular_file(summary, ec)) r.summary = read_json_file(summary.string(), summary.string());
    in.other_ranks.push_back(std::move(r));
  }
}

}  // namespace

std::string json_string(const json& j, const char* key, const std::string& fallback) {
  if (!j.is_object()) return fallback;
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

int64_t json_int(const json& j, const char* key, int64_t fallback) {
  if (!j.is_object()) return fallback;
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (it->is_number_integer()) return it->get<int64_t>();
  if (it->is_number_float()) {
    const double v = it->get<double>();
    if (v > -9.2e18 && v < 9.2e18) return static_cast<int64_t>(v);
  }
  return fallback;
}

json read_json_file(const std::string& path, const std::string& field) {
  return read_json_input_file(path, field, kMaxJsonFileBytes);
}

ReportInput load_report_input(const std::string& path) {
  ReportInput in;
  in.source = path;
  std::error_code ec;
  if (path.empty()) throw InputError("input", "no input given", kInputHint);
  if (!fs::exists(path, ec)) throw InputError(path, "no such file or directory", kInputHint);
  check_input_path(path, path, /*allow_directory=*/true);  // a FIFO or device would block or never end

  if (fs::is_directory(path, ec)) {
    const fs::path timeline = fs::path(path) / "timeline.jsonl";
    if (!fs::is_regular_file(timeline)) {
      throw InputError(path, "no timeline.jsonl in this directory", kInputHint);
    }
    read_timeline_into(timeline.string(), in);
    read_siblings(fs::path(path), in);
    read_other_ranks(fs::path(path), in);
  } else if (looks_like_timeline(path)) {
    read_timeline_into(path, in);
    read_siblings(fs::absolute(path).parent_path(), in);
    if (fs::path(path).filename() == "timeline.jsonl") read_other_ranks(fs::absolute(path).parent_path(), in);
  } else {
    json doc = read_json_file(path, path);
    if (is_estimate(doc)) {
      in.estimate = std::move(doc);
    } else if (is_oom_report(doc)) {
      in.oom_report = std::move(doc);
    } else {
      throw InputError(path, "neither a timeline, an estimate nor an oom_report", kInputHint);
    }
  }
  if (in.estimate.is_null() && in.run.is_object() && in.run.contains("estimate") &&
      in.run["estimate"].is_object()) {
    in.estimate = in.run["estimate"];
  }
  return in;
}

}  // namespace oomkit
