// Chrome trace event export of a memory timeline, for Perfetto (ui.perfetto.dev) and
// chrome://tracing. Format: "Trace Event Format" (Google, docs.google.com/document/d/
// 1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU): a JSON object {"traceEvents":[...]} with
//  - "M" metadata: process_name, thread_name, thread_sort_index;
//  - "X" complete events: each step (tid 1) and each phase interval inside it (tid 1, nested),
//    named by the work between two marks: forward, loss, backward, optimizer_step, zero_grad, eval;
//  - "C" counters: allocated_bytes, reserved_bytes (and rss_bytes when measured) at every mark;
//  - "i" instant events: oom, checkpoint, recover and every other timeline event (tid 2).
// Timestamps "ts" and durations "dur" are integer microseconds from the run's start (t_ns / 1000,
// rounded down, so nested intervals stay nested).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "oomkit/core/timeline.h"

namespace oomkit {

/// The name of the work that ends at a mark: "after_forward" -> "forward", "after_loss" ->
/// "loss", "after_backward" -> "backward", "after_optimizer_step" -> "optimizer_step",
/// "after_zero_grad" -> "zero_grad", "eval" -> "eval"; any other phase keeps its name.
std::string phase_interval_name(const std::string& phase);

/// Builds the trace from a run's typed records (read_run_records()).
nlohmann::json chrome_trace_from_timeline(const RunRecords& records);
/// The same from raw records (read_timeline()), typed with parse_run_records(): records of
/// unknown type are ignored; a mark without "t_ns" or a field of the wrong type throws
/// InputError("timeline record N: ...").
nlohmann::json chrome_trace_from_timeline(const std::vector<nlohmann::json>& records);

/// Writes chrome_trace_from_timeline(records) to `path`. For `oomkit train --trace PATH` the
/// trainer calls it after the run (and after an OOM) with the records it wrote.
/// Throws InputError(field, ...) when `path` cannot be written.
void write_chrome_trace(const RunRecords& records, const std::string& path, const std::string& field = "--trace");
void write_chrome_trace(const std::vector<nlohmann::json>& records, const std::string& path,
                        const std::string& field = "--trace");

/// Reads the timeline at `timeline_path` and writes its trace to `trace_path`.
/// Throws InputError as read_timeline() and write_chrome_trace() do.
void write_chrome_trace_from_file(const std::string& timeline_path, const std::string& trace_path,
                                  const std::string& field = "--trace");

}  // namespace oomkit
