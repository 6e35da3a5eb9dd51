// Data-parallel communication per optimizer step (issue 14 item 6): which collectives a DP/ZeRO
// setup runs, the bytes each GPU sends, their time at a link bandwidth, and, beside them, the
// per-GPU memory each ZeRO stage saves: the trade-off `oomkit estimate --dp N` prints.
//
// One traffic model, shared with the remedies' cost model (remedies.h: "bytes moved over the
// link per optimizer step"). Ring collectives over N GPUs (Patarasuk & Yuan 2009): an all-reduce
// sends 2·(N-1)/N of its payload from every GPU, a reduce-scatter or an all-gather (N-1)/N.
// Per stage (Rajbhandari et al. 2020, "ZeRO", section 7: DP and ZeRO-1/2 move 2Ψ, ZeRO-3 3Ψ, Ψ
// counted in elements of one size):
//   0 (DDP): all-reduce the gradients once per step (accumulation runs under no_sync);
//   1: reduce-scatter the gradients once per step, then all-gather the updated parameters
//      (framework oomkit, what `train --zero 1` does, as PyTorch's ZeroRedundancyOptimizer
//      under DDP: all-reduce the gradients, then each rank broadcasts the parameters it
//      updated, one all-gather's volume in all: 3Ψ);
//   2: the same, but the gradients after every micro-batch (sharded, they cannot accumulate whole);
//   3 (FSDP full-shard): all-gather the parameters in the forward and again in the backward of
//     every micro-batch, reduce-scatter the gradients after every micro-batch.
// Element sizes (gradient_reduce_bytes_per_element, updated_parameter_bytes_per_element):
// gradients 4 B, 2 B in pure bf16 and under --framework deepspeed in mixed precision (its
// communication_data_type defaults to the model's dtype); the updated parameters ZeRO-1/2 gather
// are the fp32 master weights (4 B) under AMP (oomkit, hf) and the half-precision working copy
// (2 B) under deepspeed and megatron; ZeRO-3 gathers the compute copy (4 B in fp32, else 2 B).
// LoRA reduces and gathers its adapters only, while ZeRO-3 still gathers the frozen base.
// Tensor/pipeline-parallel traffic (activations) is not modelled. Torch-free.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "oomkit/core/model_config.h"
#include "oomkit/core/training_setup.h"
#include "oomkit/estimate/estimate.h"

namespace oomkit {

/// One collective of an optimizer step, seen from one GPU.
struct CollectiveTraffic {
  std::string op;              // "all_reduce", "reduce_scatter", "all_gather", "broadcast", "reduce"
  std::string tensors;         // "gradients", "updated parameters", "parameters (forward)", "parameters (backward)"
  int64_t calls_per_step = 0;  // 1, or the micro-batches per step for ZeRO-3's gathers
  int64_t payload_bytes = 0;   // the whole tensor set one call reduces or gathers
  int64_t bytes_per_gpu = 0;   // what one GPU sends per step: calls · payload · ring factor
};

/// Bytes per element of the gradients a data-parallel step reduces (see the model above).
double gradient_reduce_bytes_per_element(const TrainingSetup& s);
/// Bytes per element of the updated parameters ZeRO-1/2 all-gather (see the model above).
double updated_parameter_bytes_per_element(const TrainingSetup& s);

/// The collectives of one optimizer step of data parallelism over N = s.parallel.data_parallel
/// GPUs at ZeRO stage s.parallel.zero_stage, per the model above. `base` counts the model's
/// parameters, `lora` the same model with the run's adapters (used when s.lora.rank > 0).
/// Empty for N = 1. Bytes are rounded to whole bytes per collective; a collective of 2^63 bytes
/// or more per step throws InputError("--grad-accum").
std::vector<CollectiveTraffic> data_parallel_collectives(const ParameterCount& base, const ParameterCount& lora,
                                                         const TrainingSetup& s);

/// One row of the trade-off: a ZeRO stage at the run's N GPUs.
struct ZeroStageTraffic {
  int zero_stage = 0;
  std::vector<CollectiveTraffic> collectives;
  int64_t bytes_per_gpu = 0;  // sum over the collectives
  double seconds = 0.0;       // bytes_per_gpu / link bytes per second
  int64_t peak_bytes = 0;     // the estimator's per-GPU peak at this stage
  int64_t saved_bytes = 0;    // the first row's peak (DP's, where the framework runs it) minus this one's
};

/// The stages a framework profile runs (megatron: 0, and 1 = --use-distributed-optimizer;
/// the others 0-3), each with its traffic and the estimator's peak, for the run's N GPUs.
struct CommunicationTable {
  int64_t gpus = 1;
  int chosen_stage = 0;                  // the run's own --zero
  double link_bytes_per_second = 0.0;
  std::vector<ZeroStageTraffic> stages;
};

/// Builds the table by re-running estimate_memory() at every stage the framework runs (the
/// run's setup otherwise unchanged); a stage the framework refuses with the rest of the setup
/// (DeepSpeed's optimizer offload below ZeRO-1) is left out, and the first row left is the
/// baseline of saved_bytes. InputError from the run's own stage is rethrown. Throws std::invalid_argument when N < 2 or when
/// `link_bytes_per_second` is not positive; tensor or pipeline parallelism (t or p > 1) is
/// refused with InputError("--tp"/"--pp") since their traffic is not modelled.
CommunicationTable communication_table(const ModelConfig& model, const TrainingSetup& s, double link_bytes_per_second);

/// The table as printed by `oomkit estimate` (sizes in GiB/MiB, seconds at the link, the run's
/// stage marked with '*').
std::string format_communication(const CommunicationTable& t);

/// {"gpus","zero_stage","baseline_zero_stage","link_bytes_per_second","stages":[{"zero_stage","bytes_per_gpu",
///  "seconds","peak_bytes","saved_bytes","collectives":[{"op","tensors","calls_per_step",
///  "payload_bytes","bytes_per_gpu"}]}]}: every size in bytes.
nlohmann::json communication_to_json(const CommunicationTable& t);

}  // namespace oomkit
