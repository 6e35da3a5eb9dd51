// What `oomkit report` reads: a training run (timeline.jsonl + summary.json + oom_report.json),
// an estimate JSON (optionally with sweep / max-batch arrays), or an oom_report.json alone.
// Formats: include/oomkit/core/timeline.h, include/oomkit/estimate/estimate.h (estimate_to_json),
// docs/report.md (oom_report.json and the summary record as the report reads them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "oomkit/core/timeline.h"

namespace oomkit {

/// Everything the HTML report and the Chrome trace are drawn from. Absent parts are null JSON
/// (is_null()) or empty vectors.
struct ReportInput {
  std::string source;                     // the path the user passed, for display
  std::string timeline_path;              // empty when no timeline was read
  // run, steps, events and summary are the typed records of `records` as JSON, for the page.
  nlohmann::json run;                     // the timeline's "run" record (model, options, estimate, limit_bytes)
  std::vector<TimelineMark> marks;        // every "mark" record, in file order
  std::vector<nlohmann::json> steps;      // every "step" record
  std::vector<nlohmann::json> events;     // every "event" record (oom, checkpoint, recover, eval...)
  nlohmann::json summary;                 // summary.json, else the timeline's "summary" record
  nlohmann::json estimate;                // estimate JSON: --estimate file, an estimate input, or run.estimate
  nlohmann::json oom_report;              // oom_report.json (findings, probes, recovery)
  RunRecords records;                     // the timeline's typed records (read_run_records), for the trace
  /// The other ranks of a data-parallel run (`oomkit train --nproc-per-node N` writes rank r's
  /// timeline.rank<r>.jsonl and summary.rank<r>.json beside rank 0's timeline.jsonl), rank
  /// ascending; empty for a one-process run.
  struct RankRun {
    int rank = 0;
    std::string timeline_path;
    RunRecords records;
    nlohmann::json summary;               // summary.rank<r>.json, null when absent
  };
  std::vector<RankRun> other_ranks;

  bool has_timeline() const { return !timeline_path.empty(); }
};

/// Loads `path`, which may be:
///  - a run directory: reads `timeline.jsonl`, and `summary.json` / `oom_report.json` beside it
///    when present, and the other ranks' `timeline.rank<r>.jsonl` / `summary.rank<r>.json`;
///  - a timeline `.jsonl` file (its folder is searched for summary.json / oom_report.json);
///  - an estimate JSON (has "items", "totals", "sweep" or "batch_curve");
///  - an oom_report.json (has "findings" or "oom").
/// Throws InputError(path, ...) when the path is missing, unreadable, not JSON, of an unknown
/// kind, or when a timeline record has a field of the wrong type (naming its line).
ReportInput load_report_input(const std::string& path);

/// Field readers that never throw: `j[key]` when `j` is an object holding a value of the right
/// type (a string; an integer, or a float rounded toward zero), else `fallback`. The report
/// reads records written by other tools and a wrong type must not abort the picture.
std::string json_string(const nlohmann::json& j, const char* key, const std::string& fallback = {});
int64_t json_int(const nlohmann::json& j, const char* key, int64_t fallback);

/// Reads one JSON document from `path`. Throws InputError(field, ...) when unreadable or not JSON.
nlohmann::json read_json_file(const std::string& path, const std::string& field);

}  // namespace oomkit
