// The memory timeline: what the profiler writes and what report/diagnose read.
//
// JSON Lines, one object per line, each with a "type":
//   {"type":"run", "version":1, "device":"cpu", "model":{...config.json...}, "options":{...},
//    "estimate":{...estimate JSON...}, "limit_bytes":N}                          first line
//   {"type":"mark", "step":S, "micro_step":M, "phase":"after_forward", "t_ns":N,
//    "allocated_bytes":N, "reserved_bytes":N, "active_bytes":N, "inactive_split_bytes":N,
//    "peak_allocated_bytes":N  (peak since the previous mark), "delta_bytes":N (allocated now
//    minus at the previous mark), "rss_bytes":N}
//   {"type":"step", "step":S, "loss":x, "lr":x, "ms":x, "tokens_per_s":x, "peak_bytes":N,
//    "peak_phase":"after_forward" (the mark whose interval held the peak), "val_loss":x?}
//   {"type":"event", "name":"oom"|"checkpoint"|"recover"|"eval"|..., "step":S, "t_ns":N, ...}
//   {"type":"summary", ...}                                                       last line
// t_ns counts from the run's start (steady clock). A CSV twin holds the "mark" records with the
// same column names. Every record is flushed when written, so a killed run leaves a valid file
// up to its last complete line; read_timeline() skips a torn last line.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "oomkit/core/memory_stats.h"

namespace oomkit {

/// One "mark" record.
struct TimelineMark {
  int64_t step = 0;
  int64_t micro_step = 0;
  std::string phase;
  int64_t t_ns = 0;
  int64_t allocated_bytes = 0;
  int64_t reserved_bytes = 0;
  int64_t active_bytes = 0;
  int64_t inactive_split_bytes = 0;
  int64_t peak_allocated_bytes = 0;
  int64_t delta_bytes = 0;
  int64_t rss_bytes = 0;
};

nlohmann::json to_json(const TimelineMark& mark);
TimelineMark mark_from_json(const nlohmann::json& j);

/// Appends records to `<path>` (JSON Lines) and, for marks, to `<path minus .jsonl>.csv`.
/// Throws InputError("--timeline") if either file cannot be opened for writing.
class TimelineWriter {
 public:
  explicit TimelineWriter(const std::string& jsonl_path);
  void write(const nlohmann::json& record);  // any record; flushed
  void write_mark(const TimelineMark& mark); // JSONL + CSV row; flushed
  const std::string& jsonl_path() const { return jsonl_path_; }
  const std::string& csv_path() const { return csv_path_; }
  /// False once a write to either file failed (disk full, file removed...): the profiler
  /// checks it after each record and reports the failure at the end of the run.
  bool good() const { return jsonl_.good() && csv_.good(); }

 private:
  std::string jsonl_path_;
  std::string csv_path_;
  std::ofstream jsonl_;
  std::ofstream csv_;
};

/// Reads a timeline file. Lines that do not parse are skipped only when they are the last
/// line (a run killed mid-write); elsewhere they throw InputError(path, "line N: ...").
std::vector<nlohmann::json> read_timeline(const std::string& jsonl_path);

}  // namespace oomkit
