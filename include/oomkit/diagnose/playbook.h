// The live playbook: what `oomkit train --on-oom diagnose|recover` runs after catching an OOM.
// Torch-free: the trainer supplies the probes as a callback that runs one step of a modified
// setup (its tensors released afterwards) and reports ok/oom and the peak.
//
// Order (the chapter's eight steps, "Out-of-memory errors"):
//   1 the OOM record and MemoryStats: capacity, free, allocator vs process, other processes;
//   2 the failed step's marks: which phase crossed the limit;
//   3 probe micro-batch 1 (same effective batch through accumulation); if it OOMs, static memory
//     does not fit: stop probing, report the estimator's sharding/offload numbers (step 8);
//   4 probe --checkpointing full;  5 probe smaller micro-batches with accumulation (B/2, B/4, ...);
//   6 probe bf16-mixed when running fp32;  7 leak: regression of allocated at step_start over the
//     recent steps;  8 offload / sharding from the estimator when static memory does not fit.
// With an estimator, the probes after micro-batch 1 are the remedies catalogue's fitting plans
// within recover_scope (estimate/remedies.h), cheapest first, until one completes. The recovery
// is the cheapest fix a probe showed to work, by the catalogue's cost model: accumulation (same
// math, no extra compute) < activation checkpointing (same math, ~33% more compute) <
// bf16-mixed (reduced-precision compute). A leak or eval-without-no-grad is reported, never
// "recovered" (it would OOM again).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "oomkit/core/live_oom.h"
#include "oomkit/core/memory_stats.h"
#include "oomkit/core/timeline.h"
#include "oomkit/diagnose/diagnosis.h"

namespace oomkit {

/// A modified setup to try for one step.
struct ProbeRequest {
  std::string name;      // "micro_batch_1", "checkpointing_full", "micro_batch_4_accum_2", "bf16_mixed"
  TrainingSetup setup;   // the full setup to run (micro_batch_size * gradient_accumulation_steps kept)
  std::string change;    // human-readable, e.g. "--batch-size 8 --grad-accum 1 -> --batch-size 4 --grad-accum 2"
  std::string from;      // "--batch-size 8 --grad-accum 1"
  std::string to;        // "--batch-size 4 --grad-accum 2"
};

/// What one probe step did.
struct ProbeResult {
  bool ok = false;          // the step completed
  int64_t peak_bytes = 0;   // peak allocated during the step (0 when unknown)
  std::string error;        // the OOM message when !ok
};

/// The trainer's side. run_step must release every tensor of the probe step before returning
/// and must not throw (an OOM is reported as ok = false).
struct LiveProbes {
  std::function<ProbeResult(const ProbeRequest&)> run_step;
};

struct PlaybookInput {
  std::optional<OomRecord> oom;       // the live OOM: from the backend's typed record (oom_record_from_live),
                                      // else parsed from the caught exception's message
  std::vector<TimelineMark> marks;    // the run's marks so far (the failed step's last)
  std::optional<MemoryStats> stats;   // a snapshot right after the OOM
  std::string failed_phase;           // where the step threw, when the trainer knows: "forward",
                                      // "backward", "optimizer_step", "eval"; "" to infer from marks
  bool eval_grad_enabled = false;     // the OOM came in evaluation with autograd on
  RunSettings run;                    // model, setup, capacity (the budget; 0 -> from oom/stats)
  EstimateFn estimate;                // may be empty: no estimator numbers then
  RemedyScope recover_scope = RemedyScope::running_trainer(false, false);  // what the probes may change
  int leak_window_steps = 20;         // step_start marks used for the leak regression
};

/// One probe as reported: {"name","ok","peak_bytes"} plus the change it tried.
struct ProbeRecord {
  std::string name;
  bool ok = false;
  int64_t peak_bytes = 0;
  std::string change;
};

/// The fix `recover` applies. `applied` is false as returned by run_playbook(); the trainer sets
/// it once it continues with `setup`.
struct Recovery {
  bool applied = false;
  std::string change;
  std::string from;
  std::string to;
  TrainingSetup setup;
};

struct PlaybookResult {
  Diagnosis diagnosis;
  std::vector<ProbeRecord> probes;
  std::optional<Recovery> recovery;
};

/// Least-squares line through (step, bytes): slope in bytes per step and R^2.
struct GrowthFit {
  double slope_bytes_per_step = 0.0;
  double r2 = 0.0;
  int64_t points = 0;
  int64_t first_bytes = 0;
  int64_t last_bytes = 0;
};

/// Fits points; nullopt with fewer than 3 points or all steps equal.
std::optional<GrowthFit> fit_growth(const std::vector<std::pair<int64_t, int64_t>>& step_bytes);

/// True when the fit shows a leak: >= 4 points, R^2 >= 0.9, positive slope, and a total rise
/// of at least 1 MiB and 2% of the first value (ordinary jitter stays under that).
bool is_leak(const GrowthFit& fit);

/// Regression of allocated_bytes at the step_start marks of the last `window` steps.
std::optional<GrowthFit> step_start_growth(const std::vector<TimelineMark>& marks, int window = 20);

/// The phase whose interval crossed the limit: the one following the failed step's last mark
/// ("forward" after step_start, "loss" after after_forward, "backward" after after_loss,
/// "optimizer_step" after after_backward, ...). "" without marks.
std::string crossing_phase(const std::vector<TimelineMark>& marks);

/// Builds a playbook input from timeline records (read_timeline()): every "mark" record; the
/// budget from the "run" record's "limit_bytes"; from the last "event" named "oom", the typed
/// record when it carries "requested_bytes", "allocated_bytes" and "device" (plus
/// "reserved_bytes", "limit_bytes"; oom_record_from_live), else its "message" (parsed with
/// parse_oom_log), and "phase" (the failed phase) when present. The
/// trainer's oom event should therefore carry {"name":"oom","step":S,"phase":"backward",
/// "message":"<the exception's what()>"}.
PlaybookInput playbook_input_from_timeline(const RunRecords& records);
/// The same from raw records (read_timeline()), typed by parse_run_records() (InputError on a
/// record of the wrong shape).
PlaybookInput playbook_input_from_timeline(const std::vector<nlohmann::json>& records);

/// The OomRecord of a typed live OOM (no message parsing): CPU -> family "oomkit_cpu_budget"
/// (subsystem "oomkit_budget"), CUDA -> "pytorch2" (subsystem "caching_allocator"), with
/// requested, allocated and reserved bytes as recorded, reserved - allocated as the
/// reserved-unallocated bytes, and the limit as the total capacity (free = limit - reserved)
/// when it is known (> 0). `message` says it came from the backend's record.
OomRecord oom_record_from_live(const LiveOom& live);

/// Runs the playbook. Throws only what the estimator throws (InputError for an invalid setup).
PlaybookResult run_playbook(const PlaybookInput& input, const LiveProbes& probes);

}  // namespace oomkit
