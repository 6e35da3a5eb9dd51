// The memory profiler (see include/oomkit/profile/profiler.h). Collect, don't kill: every
// public entry point catches everything and records it in errors_.
#include "oomkit/profile/profiler.h"

#include <algorithm>
#include <exception>

#include <nlohmann/json.hpp>

namespace oomkit {

namespace {
constexpr size_t kMaxErrors = 32;  // distinct messages kept; further ones are only counted

/// Adds the wall time of its scope to a counter (the profiler's own overhead).
class ScopedTimer {
 public:
  explicit ScopedTimer(int64_t& total_ns) : total_ns_(total_ns), start_(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() {
    total_ns_ += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count();
  }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  int64_t& total_ns_;
  std::chrono::steady_clock::time_point start_;
};
}  // namespace

Profiler::Profiler(MemoryBackend* backend, TimelineWriter* writer, bool enabled)
    : backend_(backend),
      writer_(writer),
      enabled_(enabled),
      start_(std::chrono::steady_clock::now()),
      start_unix_ns_(std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count()) {
  if (enabled_ && backend_ == nullptr) {
    enabled_ = false;
    record_error("profiler: no memory backend given; profiling disabled");
    return;
  }
  if (!enabled_) return;
  try {
    backend_->reset_peak();
    last_allocated_bytes_ = backend_->snapshot().allocated_bytes.current;
  } catch (const std::exception& e) {
    record_error(std::string("profiler: backend: ") + e.what());
  }
}

int64_t Profiler::elapsed_ns() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count();
}

void Profiler::record_error(const std::string& what) noexcept {
  try {
    if (std::find(errors_.begin(), errors_.end(), what) != errors_.end()) return;
    if (errors_.size() >= kMaxErrors) {
      if (suppressed_errors_++ == 0) errors_.push_back("profiler: more errors followed; only the first were kept");
      return;
    }
    errors_.push_back(what);
  } catch (...) {
    ++suppressed_errors_;  // out of memory while recording: count it, nothing more
  }
}

void Profiler::check_writer() noexcept {
  if (writer_ != nullptr && !writer_->good()) {
    record_error("profiler: writing the timeline '" + writer_->jsonl_path() +
                 "' failed; later records were not written");
    writer_ = nullptr;
  }
}

namespace {
// The phase that follows `mark` (for the backend's allocation frames).
const char* phase_after(Phase mark, int64_t micro_step, int64_t num_micro_batches) {
  switch (mark) {
    case Phase::kStepStart: return "forward";
    case Phase::kAfterForward: return "loss";
    case Phase::kAfterLoss: return "backward";
    case Phase::kAfterBackward: return micro_step + 1 < num_micro_batches ? "forward" : "optimizer_step";
    case Phase::kAfterOptimizerStep: return "zero_grad";
    case Phase::kAfterZeroGrad:
    case Phase::kEval: return "after_step";
  }
  return "after_step";
}
}  // namespace

void Profiler::announce_phase(Phase mark, int64_t micro_step) noexcept {
  if (backend_ != nullptr) backend_->set_allocation_phase(phase_after(mark, micro_step, num_micro_batches_), phase_step_);
}

void Profiler::begin_step(int64_t step, int64_t num_micro_batches) noexcept {
  num_micro_batches_ = std::max<int64_t>(1, num_micro_batches);
  phase_step_ = step;
  if (!enabled_) {
    announce_phase(Phase::kStepStart, 0);
    return;
  }
  if (in_step_) record_error("profiler: begin_step(" + std::to_string(step) + ") before end_step() of step " +
                             std::to_string(current_.step) + "; that step was dropped");
  try {
    current_ = StepMemory{};
  } catch (...) {
    record_error("profiler: cannot reset the step record");
  }
  current_.step = step;
  in_step_ = true;
  mark(Phase::kStepStart, 0);
}

void Profiler::mark(Phase phase, int64_t micro_step) noexcept {
  announce_phase(phase, micro_step);
  if (!enabled_) return;
  ScopedTimer timer(overhead_ns_);
  try {
    const MemoryStats s = backend_->snapshot();
    backend_->reset_peak();
    TimelineMark m;
    m.step = current_.step;
    m.micro_step = micro_step;
    m.phase = std::string(phase_name(phase));
    m.t_ns = elapsed_ns();
    m.allocated_bytes = s.allocated_bytes.current;
    m.reserved_bytes = s.reserved_bytes.current;
    m.active_bytes = s.active_bytes.current;
    m.inactive_split_bytes = s.inactive_split_bytes.current;
    m.peak_allocated_bytes = std::max(s.allocated_bytes.peak, s.allocated_bytes.current);
    m.delta_bytes = m.allocated_bytes - last_allocated_bytes_;
    m.rss_bytes = s.process_rss_bytes;
    last_allocated_bytes_ = m.allocated_bytes;
    if (in_step_) {
      if (phase == Phase::kStepStart) {
        // The interval before step_start belongs to the previous step's tail, not this step.
        current_.start_allocated_bytes = m.allocated_bytes;
        current_.peak_bytes = m.allocated_bytes;
        current_.peak_phase = m.phase;
      } else if (m.peak_allocated_bytes > current_.peak_bytes) {
        current_.peak_bytes = m.peak_allocated_bytes;
        current_.peak_phase = m.phase;
      }
      current_.marks.push_back(m);
    }
    marks_.push_back(m);
    if (writer_ != nullptr) {
      writer_->write_mark(m);
      check_writer();
    }
  } catch (const std::exception& e) {
    record_error(std::string("profiler: mark ") + std::string(phase_name(phase)) + ": " + e.what());
  } catch (...) {
    record_error(std::string("profiler: mark ") + std::string(phase_name(phase)) + ": unknown error");
  }
}

StepMemory Profiler::end_step() noexcept {
  if (!enabled_) return {};
  ScopedTimer timer(overhead_ns_);
  if (!in_step_) {
    record_error("profiler: end_step() without begin_step()");
    return {};
  }
  in_step_ = false;
  try {
    steps_.push_back(current_);
    return current_;
  } catch (...) {
    record_error("profiler: cannot keep the step record");
    StepMemory partial;
    partial.step = current_.step;
    partial.peak_bytes = current_.peak_bytes;
    return partial;
  }
}

// Runs one write through the writer, turning any failure into a recorded error.
template <typename Write>
void Profiler::guarded_write(const char* what, Write&& write) noexcept {
  if (writer_ == nullptr) return;
  try {
    write(*writer_);
    check_writer();
  } catch (const std::exception& e) {
    record_error(std::string("profiler: timeline ") + what + ": " + e.what());
  } catch (...) {
    record_error(std::string("profiler: timeline ") + what + ": unknown error");
  }
}

void Profiler::write_run(const RunHeader& run) noexcept {
  guarded_write("run record", [&](TimelineWriter& w) { w.write_run(run); });
}

void Profiler::write_step(const StepRecord& step) noexcept {
  guarded_write("step record", [&](TimelineWriter& w) { w.write_step(step); });
}

void Profiler::write_summary(const nlohmann::json& summary) noexcept {
  guarded_write("summary record", [&](TimelineWriter& w) { w.write_summary(summary); });
}

void Profiler::write_event(const std::string& name, const nlohmann::json& fields) noexcept {
  guarded_write("event", [&](TimelineWriter& w) {
    EventRecord e;
    e.name = name;
    e.step = current_.step;
    e.t_ns = elapsed_ns();
    if (fields.is_object()) e.fields = fields;
    // A caller may name the step itself (an OOM between steps).
    if (const auto it = e.fields.find("step"); it != e.fields.end() && it->is_number_integer()) {
      e.step = it->get<int64_t>();
      e.fields.erase(it);
    }
    w.write_event(e);
  });
}

StepRecord Profiler::step_record(const StepMemory& step) {
  StepRecord r;
  r.step = step.step;
  r.peak_bytes = step.peak_bytes;
  r.peak_phase = step.peak_phase;
  r.start_allocated_bytes = step.start_allocated_bytes;
  return r;
}

}  // namespace oomkit
