// The memory profiler: snapshots at every phase of every step, written to the timeline as
// they happen. Collect, don't kill (kineto): nothing here throws into the training step;
// failures are collected in errors() and reported at the end.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "oomkit/core/phases.h"
#include "oomkit/core/timeline.h"
#include "oomkit/profile/memory_backend.h"

namespace oomkit {

/// The memory picture of one optimizer step.
struct StepMemory {
  int64_t step = 0;
  int64_t peak_bytes = 0;        // highest allocated_bytes during the step
  std::string peak_phase;        // the mark closing the interval that held the peak
  int64_t start_allocated_bytes = 0;
  std::vector<TimelineMark> marks;
};

class Profiler {
 public:
  /// `backend` must outlive the profiler. `writer` may be null (no timeline file). With
  /// enabled == false every call is a no-op costing one branch (`--no-profile`).
  Profiler(MemoryBackend* backend, TimelineWriter* writer, bool enabled = true);

  /// Starts optimizer step `step` of `num_micro_batches` micro-batches (gradient accumulation)
  /// and records the kStepStart mark. Each mark also names the phase that follows it for the
  /// backend's allocation frames (MemoryBackend::set_allocation_phase): "forward", "loss",
  /// "backward", "forward" again after a micro-batch's backward or "optimizer_step" after the
  /// last, "zero_grad", then "after_step" (evaluation, checkpoints) until the next step.
  void begin_step(int64_t step, int64_t num_micro_batches = 1) noexcept;
  /// Records a mark for `phase` of micro-batch `micro_step` of the current step: snapshot,
  /// peak since the previous mark (then resets the backend's peak), delta, write to timeline.
  /// Outside begin_step()/end_step() (e.g. kEval between steps) the mark is recorded and
  /// written with the last step's number but does not enter any step's peak.
  void mark(Phase phase, int64_t micro_step = 0) noexcept;
  /// Closes the step: its peak (max of allocated at step_start and the peaks of the later
  /// marks' intervals) and the phase that held it. Returns an empty StepMemory when disabled.
  StepMemory end_step() noexcept;
  /// Abandons the current step (an OOM escaped it): its marks stay in marks() and the
  /// timeline, but it enters no steps() record. No-op outside a step.
  void abort_step() noexcept { in_step_ = false; }

  /// Write the typed records of timeline.h through the profiler, so I/O failures are collected
  /// like the marks' (never throw). No-ops without a writer; written even when disabled.
  void write_run(const RunHeader& run) noexcept;
  void write_step(const StepRecord& step) noexcept;
  void write_summary(const nlohmann::json& summary) noexcept;
  /// Writes the event `name` at the current step, now, with `fields` (an object) as its
  /// other keys. Written even when profiling is disabled, as long as there is a writer.
  void write_event(const std::string& name, const nlohmann::json& fields) noexcept;
  /// The memory part of the "step" record for `step` (step, peak_bytes, peak_phase,
  /// start_allocated_bytes); the trainer adds loss, lr, ms, tokens_per_s and writes it.
  static StepRecord step_record(const StepMemory& step);

  /// Every mark so far, in order (kept in memory for the end-of-run summary).
  const std::vector<TimelineMark>& marks() const { return marks_; }
  const std::vector<StepMemory>& steps() const { return steps_; }
  /// Profiler failures (I/O errors, backend errors), reported at the end of the run.
  const std::vector<std::string>& errors() const { return errors_; }
  bool enabled() const { return enabled_; }
  /// Wall time spent inside begin_step()/mark()/end_step() so far (the profiler's own cost,
  /// timeline writes included), measured with the steady clock around each call.
  int64_t overhead_ns() const { return overhead_ns_; }
  int64_t elapsed_ns() const;
  /// The wall-clock time of elapsed_ns() == 0, in ns since the Unix epoch (system_clock),
  /// read at construction right after the steady clock: RunHeader::start_unix_ns.
  int64_t start_unix_ns() const { return start_unix_ns_; }

 private:
  MemoryBackend* backend_;
  TimelineWriter* writer_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
  int64_t start_unix_ns_ = 0;
  int64_t last_allocated_bytes_ = 0;
  int64_t num_micro_batches_ = 1;
  int64_t phase_step_ = 0;
  StepMemory current_;
  std::vector<TimelineMark> marks_;
  std::vector<StepMemory> steps_;
  std::vector<std::string> errors_;
  int64_t suppressed_errors_ = 0;
  int64_t overhead_ns_ = 0;
  bool in_step_ = false;

  template <typename Write>
  void guarded_write(const char* what, Write&& write) noexcept;
  void record_error(const std::string& what) noexcept;
  void announce_phase(Phase mark, int64_t micro_step) noexcept;
  void check_writer() noexcept;
};

}  // namespace oomkit
