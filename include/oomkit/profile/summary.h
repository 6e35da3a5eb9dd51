// The end-of-run memory summary: the per-phase table with its delta column (the seed chapter's
// profiling utility, "Out-of-memory errors", step 2) and the per-category attribution beside
// the estimator's prediction, with the measured/estimated ratio (nanoGPT's "fluff ratio").
// Torch-free: built from the profiler's steps, the storages measured by
// measure_static_memory() (static_memory.h) and an optional oomkit::Estimate.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "oomkit/estimate/estimate.h"
#include "oomkit/profile/profiler.h"

namespace oomkit {

/// Static memory measured from tensor storages, each storage counted once across all fields
/// (a tied lm_head/wte weight is one storage).
struct StaticMemory {
  int64_t parameters_bytes = 0;       // storages of module.parameters()
  int64_t gradients_bytes = 0;        // storages of the parameters' defined .grad()
  int64_t optimizer_state_bytes = 0;  // storages of the optimizer's per-parameter state tensors
  int64_t buffers_bytes = 0;          // storages of module.buffers() (e.g. a causal mask)
  int64_t num_parameters = 0;         // elements of the distinct parameter tensors
  int64_t unmeasured_optimizer_states = 0;  // param states of a type the walk cannot read
};

/// One row of the per-phase table. Predicted values are -1 without an estimate or a matching
/// PhasePrediction (matched on step_kind and phase).
struct PhaseRow {
  std::string step_kind;  // "first" (first profiled step) or "steady" (last profiled step)
  int64_t step = 0;
  int64_t micro_step = 0;
  std::string phase;
  int64_t allocated_bytes = 0;
  int64_t peak_bytes = 0;   // peak in the interval ending at this mark
  int64_t delta_bytes = 0;  // allocated now minus at the previous mark
  int64_t predicted_allocated_bytes = -1;
  int64_t predicted_peak_bytes = -1;
};

/// One row of the attribution: measured bytes beside the estimator's category total.
struct CategoryRow {
  std::string category;        // "parameters", "gradients", "optimizer_state", "activations",
                               // "transient", "peak"
  int64_t measured_bytes = 0;
  int64_t estimated_bytes = -1;  // -1: no estimate (or the estimator has no such category)
  std::string source;            // how the measured value was obtained
};

struct MemorySummary {
  std::string device;                  // "cpu", "cuda:0"
  int64_t num_steps = 0;               // profiled optimizer steps
  int64_t peak_bytes = 0;              // highest step peak over the run
  int64_t peak_step = 0;               // the step that held it
  std::string peak_phase;              // and the phase interval
  StaticMemory static_memory;
  std::vector<PhaseRow> phases;        // the first step's marks, then the last step's
  std::vector<CategoryRow> categories;
  std::vector<std::string> profiler_errors;
};

/// Builds the summary from the profiler's closed steps. Attribution, on the last (steady) step:
/// parameters (+ buffers, as the estimator counts the causal mask), gradients and
/// optimizer_state from `measured`; when `measured` holds no gradients (zero_grad with
/// set_to_none freed them before the end of the run), gradients = the bytes freed at the
/// steady step's after_zero_grad mark; activations = allocated
/// at the first after_forward mark minus allocated at step_start (the forward's rise);
/// transient = the step peak minus allocated at step_start minus activations (what the peak
/// adds on top: backward and optimizer temporaries, gradients created while activations live). `estimate` may be null; with one, each category gets the estimator's
/// Estimate::total() and each phase row its PhasePrediction, and the peak row is compared
/// with Estimate::peak_bytes minus the overhead category (CUDA context: not allocator memory).
/// Never throws on empty input: no steps gives empty tables.
MemorySummary summarize_memory(const std::string& device, const std::vector<StepMemory>& steps,
                               const StaticMemory& measured, const Estimate* estimate,
                               const std::vector<std::string>& profiler_errors = {});

/// The summary as text: the per-phase table (allocated, peak, delta, predicted, ratio) and the
/// attribution table (measured, estimated, ratio), sizes through format_bytes().
std::string format_memory_summary(const MemorySummary& summary);

/// The summary as JSON, all sizes in bytes, for summary.json and the timeline's "summary"
/// record: {"device","num_steps","peak_bytes","peak_step","peak_phase","static":{...},
/// "phases":[{step_kind,step,micro_step,phase,allocated_bytes,peak_bytes,delta_bytes,
/// predicted_allocated_bytes?,predicted_peak_bytes?}],"categories":[{category,measured_bytes,
/// estimated_bytes?,ratio?,source}],"profiler_errors":[...]}. Absent predictions are omitted.
nlohmann::json memory_summary_to_json(const MemorySummary& summary);

}  // namespace oomkit
