// What the framework profiles report beside the GPU table (DeepSpeed's model-states rows).
// The framework knobs a TrainingSetup holds (Framework, MegatronOptions, DeepSpeedOptions,
// QuantizationOptions) are core types: oomkit/core/training_setup.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oomkit/core/training_setup.h"

namespace oomkit {

/// One row of DeepSpeed's "per CPU | per GPU" model-states table, in bytes, as
/// deepspeed/runtime/zero/stage_1_and_2.py estimate_zero2_model_states_mem_needs() and
/// stage3.py estimate_zero3_model_states_mem_needs() compute it (params, gradients, optimizer
/// states; no activations, no buffers). cpu_bytes includes DeepSpeed's additional_buffer_factor.
struct DeepSpeedStatesRow {
  int zero_stage = 2;          // 2 (also used for stage 1) or 3
  bool offload_param = false;  // "offload_param": {"device": "cpu"} (stage 3 only)
  bool offload_optimizer = false;
  bool zero_init = true;       // deepspeed.zero.Init (stage 3 only)
  int64_t cpu_bytes = 0;       // host RAM per node
  int64_t gpu_bytes = 0;
};

/// DeepSpeed's model_to_params(): total parameters (a tied head once) and the largest module's
/// own parameters (weight + bias of one Linear / Embedding / norm).
struct DeepSpeedParamCounts {
  int64_t total = 0;
  int64_t largest_layer = 0;
  std::string largest_layer_name;
};

}  // namespace oomkit
