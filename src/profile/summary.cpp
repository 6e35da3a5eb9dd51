// The end-of-run memory summary (see include/oomkit/profile/summary.h).
#include "oomkit/profile/summary.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "oomkit/core/units.h"

namespace oomkit {
namespace {

const TimelineMark* find_mark(const StepMemory& step, std::string_view phase) {
  for (const TimelineMark& m : step.marks) {
    if (m.phase == phase) return &m;
  }
  return nullptr;
}

void add_phase_rows(const StepMemory& step, const std::string& kind, const Estimate* estimate,
                    std::vector<PhaseRow>& rows) {
  for (const TimelineMark& m : step.marks) {
    PhaseRow r;
    r.step_kind = kind;
    r.step = step.step;
    r.micro_step = m.micro_step;
    r.phase = m.phase;
    r.allocated_bytes = m.allocated_bytes;
    r.peak_bytes = m.peak_allocated_bytes;
    r.delta_bytes = m.delta_bytes;
    if (estimate != nullptr) {
      for (const PhasePrediction& p : estimate->phases) {
        if (p.step_kind == kind && p.phase == m.phase) {
          r.predicted_allocated_bytes = p.allocated_bytes;
          r.predicted_peak_bytes = p.peak_bytes;
          break;
        }
      }
    }
    rows.push_back(std::move(r));
  }
}

std::string ratio_text(int64_t measured, int64_t estimated) {
  if (estimated <= 0) return "-";
  return fmt::format("{:.3f}", static_cast<double>(measured) / static_cast<double>(estimated));
}

std::string bytes_or_dash(int64_t bytes) { return bytes < 0 ? "-" : format_bytes(bytes); }

}  // namespace

MemorySummary summarize_memory(const std::string& device, const std::vector<StepMemory>& steps,
                               const StaticMemory& measured, const Estimate* estimate,
                               const std::vector<std::string>& profiler_errors) {
  MemorySummary s;
  s.device = device;
  s.num_steps = static_cast<int64_t>(steps.size());
  s.static_memory = measured;
  s.profiler_errors = profiler_errors;
  if (steps.empty()) return s;
  for (const StepMemory& step : steps) {
    if (step.peak_bytes > s.peak_bytes) {
      s.peak_bytes = step.peak_bytes;
      s.peak_step = step.step;
      s.peak_phase = step.peak_phase;
    }
  }
  add_phase_rows(steps.front(), "first", estimate, s.phases);
  if (steps.size() > 1) add_phase_rows(steps.back(), "steady", estimate, s.phases);

  const StepMemory& steady = steps.back();
  auto est = [&](Category c) -> int64_t { return estimate != nullptr ? estimate->total(c) : -1; };
  // Parameters include the buffers (the causal mask), as the estimator counts them.
  s.categories.push_back({"parameters", measured.parameters_bytes + measured.buffers_bytes,
                          est(Category::kParameters), "storages of model.parameters() and model.buffers()"});
  // Gradients from storages when they are alive at the end of the run; after
  // zero_grad(set_to_none) they are gone, and the drop at the steady step's after_zero_grad
  // mark (the bytes zero_grad freed) measures them instead.
  int64_t gradients = measured.gradients_bytes;
  int64_t gradients_estimate = est(Category::kGradients);
  std::string gradients_source = "storages of parameter .grad()";
  const TimelineMark* zero_grad = find_mark(steady, phase_name(Phase::kAfterZeroGrad));
  if (gradients == 0 && zero_grad != nullptr && zero_grad->delta_bytes < 0) {
    gradients = -zero_grad->delta_bytes;
    gradients_source = fmt::format("freed by zero_grad(set_to_none) at step {}", steady.step);
    // Under oomkit's ZeRO-2 zero_grad frees this rank's share; the estimate's counterpart is the
    // share it keeps after backward, not every gradient (which exists only at backward's end).
    if (estimate != nullptr && estimate->gradients_kept_bytes > 0 && estimate->gradients_kept_bytes < gradients_estimate) {
      gradients_estimate = estimate->gradients_kept_bytes;
      gradients_source += " (this rank's share, ZeRO-2)";
    }
  }
  s.categories.push_back({"gradients", gradients, gradients_estimate, gradients_source});
  s.categories.push_back({"optimizer_state", measured.optimizer_state_bytes, est(Category::kOptimizerState),
                          measured.unmeasured_optimizer_states > 0
                              ? fmt::format("storages of optimizer state ({} states of unknown type not counted)",
                                            measured.unmeasured_optimizer_states)
                              : std::string("storages of optimizer state")});
  const TimelineMark* start = find_mark(steady, phase_name(Phase::kStepStart));
  const TimelineMark* forward = find_mark(steady, phase_name(Phase::kAfterForward));
  int64_t activations = 0;
  if (start != nullptr && forward != nullptr) {
    activations = forward->allocated_bytes - start->allocated_bytes;
    s.categories.push_back({"activations", activations, est(Category::kActivations),
                            fmt::format("after_forward - step_start, step {}", steady.step)});
  }
  // Transient: what the peak holds beyond the step's starting memory and the forward's saved
  // activations (backward and optimizer temporaries, gradients being created while activations
  // are still alive). Never negative: the peak is at least the after_forward allocation.
  if (start != nullptr) {
    s.categories.push_back({"transient", steady.peak_bytes - start->allocated_bytes - activations,
                            est(Category::kTransient),
                            fmt::format("step {} peak - step_start - activations", steady.step)});
  }
  s.categories.push_back(
      {"peak", steady.peak_bytes,
       // The c10 allocator's view: without the CUDA context and workspaces (--overhead), which the
       // estimate adds to its phase peak; the overhead items the phases count (the OOM-retry RNG
       // state, DDP's gradient buckets) stay in.
       estimate != nullptr ? estimate->peak_bytes - (estimate->setup.cuda ? estimate->setup.overhead_bytes : 0) : -1,
       fmt::format("step {} peak, during {}", steady.step, steady.peak_phase)});
  return s;
}

std::string format_memory_summary(const MemorySummary& s) {
  std::string out;
  out += fmt::format("memory on {}: {} profiled steps, peak {} at step {} ({})\n", s.device, s.num_steps,
                     format_bytes(s.peak_bytes), s.peak_step, s.peak_phase.empty() ? "-" : s.peak_phase);
  if (!s.phases.empty()) {
    out += fmt::format("{:<7} {:>5} {:>2} {:<21} {:>12} {:>12} {:>13} {:>12} {:>7}\n", "step", "#", "mb", "phase",
                       "allocated", "peak", "delta", "predicted", "ratio");
    for (const PhaseRow& r : s.phases) {
      out += fmt::format("{:<7} {:>5} {:>2} {:<21} {:>12} {:>12} {:>13} {:>12} {:>7}\n", r.step_kind, r.step,
                         r.micro_step, r.phase, format_bytes(r.allocated_bytes), format_bytes(r.peak_bytes),
                         (r.delta_bytes > 0 ? "+" : "") + format_bytes(r.delta_bytes),
                         bytes_or_dash(r.predicted_allocated_bytes),
                         ratio_text(r.allocated_bytes, r.predicted_allocated_bytes));
    }
  }
  if (!s.categories.empty()) {
    out += fmt::format("{:<16} {:>12} {:>12} {:>7}  {}\n", "category", "measured", "estimated", "ratio", "source");
    for (const CategoryRow& c : s.categories) {
      out += fmt::format("{:<16} {:>12} {:>12} {:>7}  {}\n", c.category, format_bytes(c.measured_bytes),
                         bytes_or_dash(c.estimated_bytes), ratio_text(c.measured_bytes, c.estimated_bytes), c.source);
    }
  }
  for (const std::string& e : s.profiler_errors) out += "profiler error: " + e + "\n";
  return out;
}

nlohmann::json memory_summary_to_json(const MemorySummary& s) {
  using nlohmann::json;
  json phases = json::array();
  for (const PhaseRow& r : s.phases) {
    json j = {{"step_kind", r.step_kind}, {"step", r.step},           {"micro_step", r.micro_step},
              {"phase", r.phase},         {"allocated_bytes", r.allocated_bytes}, {"peak_bytes", r.peak_bytes},
              {"delta_bytes", r.delta_bytes}};
    if (r.predicted_allocated_bytes >= 0) j["predicted_allocated_bytes"] = r.predicted_allocated_bytes;
    if (r.predicted_peak_bytes >= 0) j["predicted_peak_bytes"] = r.predicted_peak_bytes;
    phases.push_back(std::move(j));
  }
  json categories = json::array();
  for (const CategoryRow& c : s.categories) {
    json j = {{"category", c.category}, {"measured_bytes", c.measured_bytes}, {"source", c.source}};
    if (c.estimated_bytes >= 0) {
      j["estimated_bytes"] = c.estimated_bytes;
      if (c.estimated_bytes > 0) j["ratio"] = static_cast<double>(c.measured_bytes) / static_cast<double>(c.estimated_bytes);
    }
    categories.push_back(std::move(j));
  }
  const StaticMemory& m = s.static_memory;
  return {{"device", s.device},
          {"num_steps", s.num_steps},
          {"peak_bytes", s.peak_bytes},
          {"peak_step", s.peak_step},
          {"peak_phase", s.peak_phase},
          {"static",
           {{"parameters_bytes", m.parameters_bytes},
            {"gradients_bytes", m.gradients_bytes},
            {"optimizer_state_bytes", m.optimizer_state_bytes},
            {"buffers_bytes", m.buffers_bytes},
            {"num_parameters", m.num_parameters},
            {"unmeasured_optimizer_states", m.unmeasured_optimizer_states}}},
          {"phases", std::move(phases)},
          {"categories", std::move(categories)},
          {"profiler_errors", s.profiler_errors}};
}

}  // namespace oomkit
