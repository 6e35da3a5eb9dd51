// Framework profiles: the memory layout of Megatron-LM and DeepSpeed runs, item by item, each
// term citing the framework's source. `estimate_memory()` dispatches to them by
// TrainingSetup::framework; the oomkit and hf profiles use its own op model.
#pragma once

#include <cstdint>
#include <string>

#include "oomkit/core/model_config.h"
#include "oomkit/estimate/estimate.h"

namespace oomkit {

struct ActivationModel;

/// The hf profile: changes `am` (built for oomkit's trainer) to Hugging Face Transformers'
/// eager modules: GPT-2's Python NewGELUActivation saves three more (B, T, d_ff) tensors, and
/// the loss runs on a contiguous (B, T-1, V) copy of the shifted logits (both families).
void apply_hf_differences(const ModelConfig& model, const TrainingSetup& setup, ActivationModel& am);

/// "oomkit", "hf", "megatron", "deepspeed"; parse throws InputError(field) listing them.
Framework parse_framework(const std::string& s, const std::string& field = "--framework");
const char* to_string(Framework f);

/// Megatron-LM's parameter layout of `model` on the most loaded GPU (the first pipeline stage),
/// in elements. Source: megatron/training/theoretical_memory_usage.py,
/// compute_weight_and_optimizer_memory(): Linear weights and the vocab-parallel embedding split
/// over TP, norms replicated; plus what that formula leaves out (biases, learned positions).
struct MegatronParameters {
  int64_t padded_vocab = 0;        // V padded to make_vocab_size_divisible_by · TP
  int64_t tp_sharded = 0;          // elements split over TP on this GPU (already divided)
  int64_t replicated = 0;          // norms (and row-parallel biases, positions): full on each TP rank
  int64_t biases_and_positions = 0;// part of the two above that Megatron's formula does not count
  int64_t total() const { return tp_sharded + replicated; }
};

/// Throws InputError("--normalization" / "--position-embedding-type") for unknown values.
MegatronParameters megatron_parameters(const ModelConfig& model, const TrainingSetup& setup);

/// The megatron profile (Megatron-LM with --bf16 or --fp16, Adam): bf16 parameters, fp32 main
/// gradients, fp32 master weights + Adam moments (sharded over DP by the distributed optimizer,
/// `--zero 1`), activations per Korthikanti et al. 2022 Table 2 as Megatron's
/// compute_activation_memory() / compute_activation_memory_without_sp() count them, generalised
/// to GQA, SwiGLU, dropout off, eager attention and full recompute. Per GPU, first pipeline
/// stage. Throws InputError for a precision, optimizer or ZeRO stage Megatron does not have.
Estimate estimate_megatron(const ModelConfig& model, const TrainingSetup& setup);

}  // namespace oomkit

namespace oomkit {

/// Every option row in DeepSpeed's order (stage 2: offload cpu, none; stage 3: param+optimizer
/// offload with zero_init 1/0, optimizer offload 1/0, none 1/0). The arithmetic is DeepSpeed's,
/// float for float (Python's int() truncation included). Throws InputError("--dp") for
/// gpus_per_node or num_nodes < 1.
std::vector<DeepSpeedStatesRow> deepspeed_states_table(int zero_stage, int64_t total_params, int64_t largest_layer_params,
                                                       int64_t gpus_per_node, int64_t num_nodes,
                                                       double additional_buffer_factor = 1.5);

DeepSpeedParamCounts deepspeed_param_counts(const ModelConfig& model, const LoraConfig& lora);

/// The table as DeepSpeed prints it ("  per CPU  |  per GPU |   Options"), sizes in GiB as
/// DeepSpeed's /2**30 (it labels them "GB"; oomkit prints GiB).
std::string format_deepspeed_states_table(const std::vector<DeepSpeedStatesRow>& rows, const DeepSpeedParamCounts& counts,
                                          int64_t gpus_per_node, int64_t num_nodes);

/// The deepspeed profile: DeepSpeed's mixed-precision ZeRO layout per GPU (2-byte params and
/// gradients, fp32 master + gradients + Adam moments sharded by stage, offload to CPU), the
/// contiguous-gradient reduce bucket (reduce_bucket_size elements of the 2-byte dtype), ZeRO-3's
/// gathered working set (the largest layer's params and grads, the prefetch bucket, capped by
/// stage3_max_live_parameters) and persistent small parameters, plus the activations of the op
/// model in the 2-byte dtype. Throws InputError for fp32 setups with ZeRO offload, non-Adam
/// optimizers or ZeRO with pipeline parallelism.
Estimate estimate_deepspeed(const ModelConfig& model, const TrainingSetup& setup);

}  // namespace oomkit
