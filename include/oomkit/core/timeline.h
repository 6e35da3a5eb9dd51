// The memory timeline: what the profiler writes and what report/diagnose read.
//
// JSON Lines, one object per line, each with a "type":
//   {"type":"run", "version":1, "device":"cpu", "model":{...config.json...}, "options":{...},
//    "estimate":{...estimate JSON...}, "limit_bytes":N, "start_unix_ns":N}        first line
//   {"type":"mark", "step":S, "micro_step":M, "phase":"after_forward", "t_ns":N,
//    "allocated_bytes":N, "reserved_bytes":N, "active_bytes":N, "inactive_split_bytes":N,
//    "peak_allocated_bytes":N  (peak since the previous mark), "delta_bytes":N (allocated now
//    minus at the previous mark), "rss_bytes":N}
//   {"type":"step", "step":S, "loss":x, "lr":x, "ms":x, "tokens_per_s":x, "peak_bytes":N,
//    "peak_phase":"after_forward" (the mark whose interval held the peak), "val_loss":x?}
//   {"type":"event", "name":"oom"|"checkpoint"|"recover"|"eval"|..., "step":S, "t_ns":N, ...}
//     "probe" (--on-oom): one per probe step of the OOM playbook, written at its end: "probe"
//     (its name), "change", "ok", "peak_bytes", "dur_ns" (so it began at t_ns - dur_ns), "error"?;
//     "recover": "change", "from", "to", "finding", "estimate" (estimate_to_json() of the
//     recovered setup) or "estimate_error".
//   {"type":"summary", ...}                                                       last line
// Data-parallel runs write one timeline per rank (rank 0 at the usual path, rank r at
// <stem>.rank<r>.jsonl) and every record carries "rank": r; their "collective" events time each
// all-reduce: "op", "what" (grad_bucket, loss, val_loss, ...), "bucket", "bytes", "begin_ns" and
// "end_ns" (on the t_ns clock).
// The records are typed below (RunHeader, TimelineMark, StepRecord, EventRecord, the summary):
// TimelineWriter is the one writer (the trainer and its profiler), read_run_records() the one
// reader (report, Chrome trace, diagnose --timeline, the playbook). The run header's "version"
// is kRunRecordsVersion; a reader refuses a newer one.
// t_ns counts from the run's start (steady clock). A CSV twin holds the "mark" records with the
// same column names. Every record is flushed when written, so a killed run leaves a valid file
// up to its last complete line; read_timeline() skips a torn last line.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <optional>

#include <nlohmann/json.hpp>

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
/// Reads a "mark" record; absent fields are 0 (or "" for the phase). Throws InputError(where,
/// "key '<k>': ...") when a field has the wrong type or an integer out of int64 range.
TimelineMark mark_from_json(const nlohmann::json& j, const std::string& where = "timeline mark");

/// Version of the record layout, written in the run header.
/// 2 added "resumed_from_step" to the run header (a resumed run appends to its timeline).
inline constexpr int64_t kRunRecordsVersion = 2;

/// {"type":"run"}: the first record.
struct RunHeader {
  int64_t version = kRunRecordsVersion;
  std::string device;             // "cpu", "cuda:0"
  nlohmann::json model;           // the model's config.json (model_config_to_json), an object
  nlohmann::json options;         // the run's settings (flags resolved), an object
  nlohmann::json estimate;        // estimate_to_json() of the run's setup, or null
  int64_t limit_bytes = 0;        // the memory budget (--memory-limit), 0 = none
  /// Set when this run resumed from a checkpoint at that step and appended to the timeline of
  /// the earlier run: records of steps >= it written before this header were overtaken (the
  /// killed run went past its last checkpoint) and the reader drops them.
  std::optional<int64_t> resumed_from_step;
  /// The wall-clock time of t_ns = 0: nanoseconds since the Unix epoch (std::chrono::
  /// system_clock, the clock PyTorch's profiler stamps its events with), read together with
  /// the steady clock that t_ns counts on. Lets a trace line up with other tools' traces.
  /// Absent in timelines written before it existed (readers then use t_ns alone).
  std::optional<int64_t> start_unix_ns;
};

/// {"type":"step"}: one optimizer step, written when it completes.
struct StepRecord {
  int64_t step = 0;
  int64_t peak_bytes = 0;              // highest allocated_bytes during the step
  std::string peak_phase;              // the mark whose interval held the peak
  int64_t start_allocated_bytes = 0;   // allocated at step_start
  double loss = 0.0;                   // nats/token, mean over the step's micro-batches
  double lr = 0.0;
  double ms = 0.0;                     // wall time of the step
  double tokens_per_s = 0.0;
  double grad_norm = 0.0;              // L2 norm before clipping
  std::optional<double> val_loss;      // when the step ended with an evaluation
  bool skipped = false;                // fp16 loss scaling skipped the update
};

/// {"type":"event"}: something that happened at a step (oom, recover, checkpoint, eval, ...).
struct EventRecord {
  std::string name;
  int64_t step = 0;
  std::optional<int64_t> t_ns;         // absent in hand-written timelines
  nlohmann::json fields = nlohmann::json::object();  // every other key, as written
};

/// Every record of one timeline, typed. `summary` is the {"type":"summary"} record (an object,
/// without "type") or null for a run that did not finish.
struct RunRecords {
  std::optional<RunHeader> run;
  std::vector<TimelineMark> marks;
  std::vector<StepRecord> steps;
  std::vector<EventRecord> events;
  nlohmann::json summary;
};

nlohmann::json to_json(const RunHeader& run);
nlohmann::json to_json(const StepRecord& step);
nlohmann::json to_json(const EventRecord& event);

/// Types `records` (as read_timeline() returns them). `source` names the input in errors, each
/// "<source> record N: key '<k>': ..." (InputError). A later run header (a resumed run) replaces
/// the earlier one and drops the earlier records of steps >= its resumed_from_step, so the
/// result is the trajectory the model actually took. Records of an unknown "type" are skipped
/// (a newer writer may add kinds); a run header with a version above kRunRecordsVersion, a
/// record that is not an object or has no string "type", and a field of the wrong type throw.
RunRecords parse_run_records(const std::vector<nlohmann::json>& records, const std::string& source);

/// The one reader: read_timeline() + parse_run_records(), errors naming the file and line.
RunRecords read_run_records(const std::string& jsonl_path);

/// Appends records to `<path>` (JSON Lines) and, for marks, to `<path minus .jsonl>.csv`.
/// With `append` false both files start empty; with `append` true (a resumed run) records go
/// after the existing ones and the CSV header is written only to a new CSV file.
/// Throws InputError("--timeline") if either file cannot be opened for writing.
class TimelineWriter {
 public:
  explicit TimelineWriter(const std::string& jsonl_path, bool append = false);
  void write(const nlohmann::json& record);  // any record; flushed
  void write_mark(const TimelineMark& mark); // JSONL + CSV row; flushed
  void write_run(const RunHeader& run) { write(to_json(run)); }
  void write_step(const StepRecord& step);
  void write_event(const EventRecord& event) { write(to_json(event)); }
  /// The {"type":"summary"} record: `summary` (an object) with "type" added.
  void write_summary(const nlohmann::json& summary);
  const std::string& jsonl_path() const { return jsonl_path_; }
  const std::string& csv_path() const { return csv_path_; }
  /// False once a write to either file failed (disk full, file removed...): the profiler
  /// checks it after each record and reports the failure at the end of the run.
  bool good() const { return jsonl_.good() && csv_.good(); }
  /// The step of the last "step" record written completely (flushed without error), or -1.
  int64_t last_step_written() const { return last_step_written_; }
  /// Data-parallel runs: every record written from now on carries "rank": `rank` (one
  /// timeline per rank). Single-process runs leave it unset and write no "rank" key (rank 0).
  void set_rank(int rank) { rank_ = rank; }
  int rank() const { return rank_; }

 private:
  std::string jsonl_path_;
  std::string csv_path_;
  std::ofstream jsonl_;
  std::ofstream csv_;
  int64_t last_step_written_ = -1;
  int rank_ = -1;  // < 0: no "rank" key
};

/// Reads a timeline file. Lines that do not parse are skipped only when they are the last
/// line (a run killed mid-write); elsewhere they throw InputError(path, "line N: ...").
std::vector<nlohmann::json> read_timeline(const std::string& jsonl_path);

/// The same from the file's bytes; `source` names it in errors ("<source> line N: ...").
std::vector<nlohmann::json> parse_timeline_text(std::string_view text, const std::string& source);

}  // namespace oomkit
