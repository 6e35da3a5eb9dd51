// Chrome trace event export of a memory timeline, for Perfetto (ui.perfetto.dev) and
// chrome://tracing. Format: "Trace Event Format" (Google, docs.google.com/document/d/
// 1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU): a JSON object {"traceEvents":[...]} with
//  - "M" metadata: process_name, thread_name, thread_sort_index;
//  - "X" complete events: each step (tid 1) and each phase interval inside it (tid 1, nested),
//    named by the work between two marks: forward, loss, backward, optimizer_step, zero_grad,
//    eval; on tid 2 each OOM's recovery (from the "oom" event to the "recover" event, or to the
//    last probe when nothing was recovered) and each probe step inside it ("probe" events);
//  - "C" counters, one track per statistic, each an event named by the statistic with one arg
//    "bytes" (Perfetto names a JSON counter track "<name> <arg>": "allocated bytes"):
//    "allocated" and "reserved" (allocated_bytes / reserved_bytes at each mark), "peak
//    allocated" (peak_allocated_bytes: the highest allocated_bytes between the previous mark
//    and this one, drawn over that interval, so the track reaches the run's true peak) and
//    "rss" (when measured);
//  - "i" instant events: oom, checkpoint, recover and every other timeline event (tid 2).
// Time: when the run header carries start_unix_ns, the trace carries "baseTimeNanoseconds" as
// PyTorch 2.x's Kineto traces do (libkineto output_json.cpp / ChromeTraceBaseTime: the Unix
// time in ns, system_clock, floored to a 3-month interval of 7,889,238 s) and every "ts" is
// microseconds since that base; a PyTorch profiler trace recorded in the same quarter has the
// same base, so both traces' ts share one axis, and base + ts * 1000 is the event's Unix time
// in ns. Without start_unix_ns (older timelines) "ts" counts from the run's start and the
// base is absent. "ts" and "dur" are integer microseconds, rounded down (so nested intervals
// stay nested).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "oomkit/core/timeline.h"

namespace oomkit {

/// The name of the work that ends at a mark: "after_forward" -> "forward", "after_loss" ->
/// "loss", "after_backward" -> "backward", "after_optimizer_step" -> "optimizer_step",
/// "after_zero_grad" -> "zero_grad", "eval" -> "eval"; any other phase keeps its name.
std::string phase_interval_name(const std::string& phase);

/// Kineto's base time for a Unix time in ns: floored to a multiple of 7,889,238 s (3 months of
/// 2,629,746 s), as libkineto's ChromeTraceBaseTime does. Requires unix_ns >= 0.
int64_t kineto_base_time_ns(int64_t unix_ns);

struct ChromeTraceOptions {
  /// Most marks written as counter samples and phase slices; 0 keeps every mark. Otherwise
  /// (>= 8) the marks kept are downsample_keep_peaks(marks, max_points): each bucket's lowest
  /// and highest allocated and highest peak, so the counter tracks keep the run's extremes;
  /// a step slice is written for each step holding a kept mark, and a counter holds its last
  /// kept value until the next. otherData.downsampled then says how many marks were kept.
  size_t max_points = 0;
  /// The trace process every event is written under (Trace Event "pid"); >= 1.
  int pid = 1;
  /// A data-parallel rank: >= 0 names the process "..., rank r" (and sorts it by r); -1: one process.
  int rank = -1;
};

/// Builds the trace from a run's typed records (read_run_records()).
/// Throws InputError("--max-points") when options.max_points is 1..7.
nlohmann::json chrome_trace_from_timeline(const RunRecords& records, const ChromeTraceOptions& options = {});
/// The same from raw records (read_timeline()), typed with parse_run_records(): records of
/// unknown type are ignored; a mark without "t_ns" or a field of the wrong type throws
/// InputError("timeline record N: ...").
nlohmann::json chrome_trace_from_timeline(const std::vector<nlohmann::json>& records,
                                          const ChromeTraceOptions& options = {});

/// One rank's records, for chrome_trace_from_ranks().
struct RankTimeline {
  int rank = 0;
  const RunRecords* records = nullptr;
};

/// A data-parallel run's trace, one process per rank (pid = rank + 1, named "oomkit train:
/// MODEL, rank r"), each as chrome_trace_from_timeline() draws it. The ranks share one time axis:
/// each rank's "ts" counts from Kineto's base of the first rank's start (a rank whose own base
/// differs, a start across a 3-month boundary, is shifted onto it), so a collective's wait on one
/// rank lines up with the other ranks' work. Throws InputError as chrome_trace_from_timeline().
nlohmann::json chrome_trace_from_ranks(const std::vector<RankTimeline>& ranks, const ChromeTraceOptions& options = {});

/// Writes chrome_trace_from_timeline(records) to `path`. For `oomkit train --trace PATH` the
/// trainer calls it after the run (and after an OOM) with the records it wrote.
/// Throws InputError(field, ...) when `path` cannot be written.
void write_chrome_trace(const RunRecords& records, const std::string& path, const std::string& field = "--trace",
                        const ChromeTraceOptions& options = {});
void write_chrome_trace(const std::vector<nlohmann::json>& records, const std::string& path,
                        const std::string& field = "--trace", const ChromeTraceOptions& options = {});

/// Writes a built trace (chrome_trace_from_timeline() / chrome_trace_from_ranks()) to `path` as
/// one line of JSON. Throws InputError(field, ...) when `path` cannot be written.
void write_trace_file(const nlohmann::json& trace, const std::string& path, const std::string& field);

/// Reads the timeline at `timeline_path` and writes its trace to `trace_path`.
/// Throws InputError as read_timeline() and write_chrome_trace() do.
void write_chrome_trace_from_file(const std::string& timeline_path, const std::string& trace_path,
                                  const std::string& field = "--trace", const ChromeTraceOptions& options = {});

}  // namespace oomkit
