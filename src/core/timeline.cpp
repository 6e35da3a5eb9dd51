#include "oomkit/core/timeline.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"

namespace oomkit {

using nlohmann::json;

namespace {
constexpr const char* kCsvHeader =
    "step,micro_step,phase,t_ns,allocated_bytes,reserved_bytes,active_bytes,inactive_split_bytes,"
    "peak_allocated_bytes,delta_bytes,rss_bytes\n";
}  // namespace

json to_json(const TimelineMark& m) {
  return json{{"type", "mark"},
              {"step", m.step},
              {"micro_step", m.micro_step},
              {"phase", m.phase},
              {"t_ns", m.t_ns},
              {"allocated_bytes", m.allocated_bytes},
              {"reserved_bytes", m.reserved_bytes},
              {"active_bytes", m.active_bytes},
              {"inactive_split_bytes", m.inactive_split_bytes},
              {"peak_allocated_bytes", m.peak_allocated_bytes},
              {"delta_bytes", m.delta_bytes},
              {"rss_bytes", m.rss_bytes}};
}

TimelineMark mark_from_json(const json& j) {
  TimelineMark m;
  m.step = j.value("step", int64_t{0});
  m.micro_step = j.value("micro_step", int64_t{0});
  m.phase = j.value("phase", std::string{});
  m.t_ns = j.value("t_ns", int64_t{0});
  m.allocated_bytes = j.value("allocated_bytes", int64_t{0});
  m.reserved_bytes = j.value("reserved_bytes", int64_t{0});
  m.active_bytes = j.value("active_bytes", int64_t{0});
  m.inactive_split_bytes = j.value("inactive_split_bytes", int64_t{0});
  m.peak_allocated_bytes = j.value("peak_allocated_bytes", int64_t{0});
  m.delta_bytes = j.value("delta_bytes", int64_t{0});
  m.rss_bytes = j.value("rss_bytes", int64_t{0});
  return m;
}

TimelineWriter::TimelineWriter(const std::string& jsonl_path) : jsonl_path_(jsonl_path) {
  std::filesystem::path p(jsonl_path);
  std::filesystem::path csv = p;
  csv.replace_extension(".csv");
  if (csv == p) csv += ".csv";
  csv_path_ = csv.string();
  if (p.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(p.parent_path(), ec);
  }
  jsonl_.open(jsonl_path_, std::ios::out | std::ios::trunc);
  if (!jsonl_) throw InputError("--timeline", "cannot write '" + jsonl_path_ + "'");
  csv_.open(csv_path_, std::ios::out | std::ios::trunc);
  if (!csv_) throw InputError("--timeline", "cannot write '" + csv_path_ + "'");
  csv_ << kCsvHeader;
  csv_.flush();
}

void TimelineWriter::write(const json& record) {
  jsonl_ << record.dump() << '\n';
  jsonl_.flush();
}

void TimelineWriter::write_mark(const TimelineMark& m) {
  write(to_json(m));
  csv_ << m.step << ',' << m.micro_step << ',' << m.phase << ',' << m.t_ns << ',' << m.allocated_bytes << ','
       << m.reserved_bytes << ',' << m.active_bytes << ',' << m.inactive_split_bytes << ','
       << m.peak_allocated_bytes << ',' << m.delta_bytes << ',' << m.rss_bytes << '\n';
  csv_.flush();
}

std::vector<json> read_timeline(const std::string& jsonl_path) {
  std::ifstream in(jsonl_path);
  if (!in) throw InputError(jsonl_path, "cannot read timeline");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) lines.push_back(std::move(line));
  }
  std::vector<json> records;
  records.reserve(lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    try {
      records.push_back(json::parse(lines[i]));
    } catch (const json::parse_error& e) {
      if (i + 1 == lines.size()) break;  // torn last line of a killed run
      throw InputError(jsonl_path, "line " + std::to_string(i + 1) + ": not JSON: " + e.what());
    }
  }
  return records;
}

}  // namespace oomkit
