// The deepspeed profile and DeepSpeed's own model-states estimator (host RAM beside GPU
// memory). Sources: microsoft/DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py
// (estimate_zero2_model_states_mem_needs, the contiguous-gradient IPG buffer in backward()),
// stage3.py (estimate_zero3_model_states_mem_needs, __ipg_bucket_flat_buffer), config.py (the
// bucket defaults) and docs/code-docs/source/memory.rst.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include <fmt/format.h>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"
#include "oomkit/estimate/framework.h"
#include "oomkit/estimate/parameters.h"

namespace oomkit {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }
std::string str(int64_t v) { return std::to_string(v); }

}  // namespace

std::vector<DeepSpeedStatesRow> deepspeed_states_table(int zero_stage, int64_t total_params, int64_t largest_layer_params,
                                                       int64_t gpus_per_node, int64_t num_nodes,
                                                       double additional_buffer_factor) {
  if (gpus_per_node < 1) throw InputError("--gpus-per-node", "must be >= 1");
  if (num_nodes < 1) throw InputError("--dp", "must be a multiple of --gpus-per-node");
  const int64_t P = total_params;
  const int64_t total_gpus = num_nodes * gpus_per_node;
  std::vector<DeepSpeedStatesRow> rows;
  if (zero_stage <= 2) {
    // estimate_zero2_model_states_mem_needs():
    //   offload: gpu = 2·P; cpu = P·max(4·total_gpus, 16)·factor
    //   none:    gpu = 2·P + int(18·P / total_gpus); cpu = P·4·gpus_per_node·factor
    for (bool offload : {true, false}) {
      DeepSpeedStatesRow r;
      r.zero_stage = 2;
      r.offload_optimizer = offload;
      if (offload) {
        r.gpu_bytes = 2 * P;
        r.cpu_bytes = static_cast<int64_t>(static_cast<double>(P * std::max<int64_t>(4 * total_gpus, 16)) * additional_buffer_factor);
      } else {
        r.gpu_bytes = 2 * P + static_cast<int64_t>(static_cast<double>(18 * P) / static_cast<double>(total_gpus));
        r.cpu_bytes = static_cast<int64_t>(static_cast<double>(P * 4 * gpus_per_node) * additional_buffer_factor);
      }
      rows.push_back(r);
    }
    return rows;
  }
  // estimate_zero3_model_states_mem_needs(); gpus_factor = 1 / num_nodes.
  const double gpus_factor = 1.0 / static_cast<double>(num_nodes);
  const int64_t largest_layer_memory = 4 * largest_layer_params;
  for (bool cpu_offload : {true, false}) {
    for (bool cpu_offload_params : {true, false}) {
      if (!cpu_offload && cpu_offload_params) continue;
      for (bool zero_init : {true, false}) {
        DeepSpeedStatesRow r;
        r.zero_stage = 3;
        r.offload_optimizer = cpu_offload;
        r.offload_param = cpu_offload_params;
        r.zero_init = zero_init;
        double cpu = 0;
        auto mx = [&](double a, double b) { return std::max(a, b); };
        if (cpu_offload) {
          const double k = cpu_offload_params ? 18.0 : 16.0;
          r.gpu_bytes = cpu_offload_params ? largest_layer_memory
                                           : largest_layer_memory + static_cast<int64_t>(static_cast<double>(2 * P) / static_cast<double>(total_gpus));
          cpu = zero_init ? static_cast<double>(P) * k * gpus_factor * additional_buffer_factor
                          : static_cast<double>(P) * mx(static_cast<double>(4 * gpus_per_node), k * gpus_factor) * additional_buffer_factor;
        } else {
          r.gpu_bytes = largest_layer_memory + static_cast<int64_t>(static_cast<double>(18 * P) / static_cast<double>(total_gpus));
          cpu = zero_init ? static_cast<double>(largest_layer_params * 4 * gpus_per_node) * additional_buffer_factor
                          : static_cast<double>(P * 4 * gpus_per_node) * additional_buffer_factor;
        }
        r.cpu_bytes = static_cast<int64_t>(cpu);
        rows.push_back(r);
      }
    }
  }
  return rows;
}

DeepSpeedParamCounts deepspeed_param_counts(const ModelConfig& model, const LoraConfig& lora) {
  DeepSpeedParamCounts out;
  // model.modules(): one module per tensor-name prefix ("transformer.h.N.attn.c_attn"), its own
  // parameters (weight and bias) summed; shared (tied) parameters counted once in the total.
  std::map<std::string, int64_t> modules;
  for (const auto& t : parameter_tensors(model, lora)) {
    out.total = checked_add(out.total, checked_mul(t.numel(), t.count, "parameters"), "parameters");
    const auto dot = t.name.rfind('.');
    const std::string module = dot == std::string::npos ? t.name : t.name.substr(0, dot);
    modules[module] += t.numel();
  }
  for (const auto& [name, n] : modules) {
    if (n > out.largest_layer) {
      out.largest_layer = n;
      out.largest_layer_name = name;
    }
  }
  return out;
}

std::string format_deepspeed_states_table(const std::vector<DeepSpeedStatesRow>& rows, const DeepSpeedParamCounts& counts,
                                          int64_t gpus_per_node, int64_t num_nodes) {
  std::string out = fmt::format(
      "DeepSpeed ZeRO-{} model states (estimate_zero{}_model_states_mem_needs; params, gradients, optimizer states only):\n"
      "HW: {} node(s), {} GPU(s) per node. SW: {} total params, {} largest layer params ({}).\n"
      "  per CPU    |  per GPU   |   Options\n",
      rows.empty() ? 2 : rows.front().zero_stage, rows.empty() ? 2 : rows.front().zero_stage, num_nodes, gpus_per_node,
      counts.total, counts.largest_layer, counts.largest_layer_name);
  for (const auto& r : rows) {
    std::string options;
    if (r.zero_stage == 3) options += fmt::format("offload_param={}, ", r.offload_param ? "cpu " : "none");
    options += fmt::format("offload_optimizer={}", r.offload_optimizer ? "cpu " : "none");
    if (r.zero_stage == 3) options += fmt::format(", zero_init={}", r.zero_init ? 1 : 0);
    out += fmt::format(" {:>7.2f} GiB | {:>6.2f} GiB | {}\n", static_cast<double>(r.cpu_bytes) / 1073741824.0,
                       static_cast<double>(r.gpu_bytes) / 1073741824.0, options);
  }
  return out;
}

Estimate estimate_deepspeed(const ModelConfig& model, const TrainingSetup& setup) {
  setup.validate(model);
  const auto& par = setup.parallel;
  const auto& ds = setup.deepspeed;
  const bool mixed = setup.precision == Precision::kBf16Mixed || setup.precision == Precision::kFp16Mixed;
  if (!mixed) {
    throw InputError("--precision", std::string("the deepspeed profile models DeepSpeed's bf16/fp16 ZeRO optimizer, got ") +
                                        to_string(setup.precision),
                     "use --precision bf16-mixed (DeepSpeed \"bf16\": {\"enabled\": true}) or fp16-mixed");
  }
  if (setup.optimizer != OptimizerKind::kAdamW) {
    throw InputError("--optimizer", std::string("the deepspeed profile models Adam(W), got ") + to_string(setup.optimizer));
  }
  if (par.pipeline_parallel > 1 && par.zero_stage >= 2) {
    throw InputError("--pp", "DeepSpeed's pipeline engine supports ZeRO stage 0 or 1 only");
  }
  if (par.offload_parameters && par.zero_stage != 3) throw InputError("--offload-params", "needs --zero 3 (offload_param is ZeRO-3's)");
  if (par.offload_optimizer && par.zero_stage == 0) throw InputError("--offload-optimizer", "needs --zero 1, 2 or 3");
  const int64_t N = par.data_parallel;
  const int64_t gpus_per_node = ds.gpus_per_node > 0 ? ds.gpus_per_node : N;
  if (N % gpus_per_node != 0) {
    throw InputError("--gpus-per-node", str(gpus_per_node) + " does not divide --dp " + str(N));
  }

  // The activations and their transients in the 2-byte compute dtype: the op model of a pure
  // bf16 module (DeepSpeed casts the module to bf16/fp16; no autocast copies), no ZeRO.
  TrainingSetup op = setup;
  op.framework = Framework::kOomkit;
  op.precision = Precision::kBf16;
  op.optimizer = OptimizerKind::kSgd;  // no optimizer state or transients here: DeepSpeed's step
  op.weight_decay = 0.0;               // runs on the fp32 partition, counted above
  op.parallel.zero_stage = 0;
  op.parallel.offload_optimizer = op.parallel.offload_parameters = false;
  op.parallel.data_parallel = 1;
  const Estimate act = estimate_memory(model, op);

  Estimate e;
  e.model = model;
  e.setup = setup;
  e.parameters = act.parameters;
  auto add = [&](std::string path, Category c, int64_t bytes, std::string formula) {
    e.items.push_back({std::move(path), c, bytes, std::move(formula)});
    e.totals[static_cast<int>(c)] = checked_add(e.totals[static_cast<int>(c)], bytes, "estimate");
  };
  auto add_host = [&](std::string path, int64_t bytes, std::string formula) {
    e.host_items.push_back({std::move(path), Category::kOptimizerState, bytes, std::move(formula)});
    e.host_bytes = checked_add(e.host_bytes, bytes, "estimate");
  };
  const DeepSpeedParamCounts counts = deepspeed_param_counts(model, setup.lora);
  // Trainable parameters carry gradients and optimizer state; a frozen LoRA base only its
  // 2-byte weights.
  int64_t trainable = 0, persistent = 0, tp_total = 0;
  for (const auto& t : parameter_tensors(model, setup.lora)) {
    const int64_t n = checked_mul(t.numel(), t.count, "parameters");
    tp_total += n;
    if (t.trainable) trainable += n;
    // ZeRO-3 keeps parameters of at most stage3_param_persistence_threshold elements whole on
    // every rank (stage3.py, persistent parameters).
    if (t.numel() <= ds.stage3_param_persistence_threshold) persistent += n;
  }
  const int64_t P = tp_total, frozen = P - trainable;
  const int stage = par.zero_stage;
  auto shard = [&](int64_t bytes, bool sharded) { return sharded ? ceil_div(bytes, N) : bytes; };
  const std::string n_str = str(N);

  // ---- GPU: 2-byte params, 2-byte grads, fp32 grads + master + Adam ("18 = 2_grads_16bit +
  // 4_grads_32bit + 4_params_32bit + 8_optimizer_states_32bit", stage_1_and_2.py).
  if (par.offload_parameters) {
    add("parameters/bf16", Category::kParameters, 0, "offload_param: the 2-byte parameters live on the CPU between uses");
  } else if (stage == 3) {
    add("parameters/bf16", Category::kParameters, checked_add(ceil_div(2 * (P - persistent), N), 2 * persistent, "estimate"),
        "2·P/" + n_str + " B partitioned, plus " + str(persistent) + " params under stage3_param_persistence_threshold (" +
            str(ds.stage3_param_persistence_threshold) + ") kept whole");
  } else {
    add("parameters/bf16", Category::kParameters, 2 * P, str(P) + " params · 2 B, whole on every rank");
  }
  if (stage >= 2 || par.offload_optimizer) {
    // Stage 2/3 keep only the rank's 2-byte gradient partition; with optimizer offload the
    // estimator counts no gradient on the GPU (they stream to the CPU's fp32 partition).
    add("gradients/bf16_partition", Category::kGradients, par.offload_optimizer ? 0 : ceil_div(2 * trainable, N),
        par.offload_optimizer ? std::string("offload_optimizer: gradients are copied to the CPU partition")
                              : "2·P_trainable/" + n_str + " B: this rank's 2-byte gradient partition");
  } else {
    add("gradients/bf16", Category::kGradients, 2 * trainable, "2·P_trainable B: the 2-byte gradients, whole (stage " + str(stage) + ")");
  }
  if (!par.offload_optimizer) {
    const bool sharded = stage >= 1;
    add("gradients/fp32_partition", Category::kGradients, shard(4 * trainable, sharded),
        std::string("4·P_trainable") + (sharded ? "/" + n_str : "") + " B: fp32 gradients of the optimizer's partition");
    add("optimizer_state/fp32_master_and_adam", Category::kOptimizerState, shard(12 * trainable, sharded),
        std::string("12·P_trainable") + (sharded ? "/" + n_str : "") + " B: fp32 master weights + Adam exp_avg, exp_avg_sq");
  }
  if (frozen > 0) add("parameters/frozen_note", Category::kParameters, 0, str(frozen) + " frozen params: no gradients or optimizer state");
  // ---- buckets (config.py defaults; elements of the 2-byte dtype) ----
  if (stage >= 1) {
    // contiguous_gradients (default true): stage 1/2's backward() allocates one
    // reduce_bucket_size buffer (a second only with overlap_comm, default off below stage 3);
    // stage 3 keeps one __ipg_bucket_flat_buffer.
    add("transient/reduce_bucket", Category::kTransient, checked_mul(2, ds.reduce_bucket_size, "estimate"),
        "reduce_bucket_size (" + str(ds.reduce_bucket_size) + ") · 2 B: the contiguous-gradient IPG buffer");
  }
  if (stage == 3 && !par.offload_parameters) {
    // The gathered working set: the largest layer's 2-byte params + grads (DeepSpeed's
    // largest_layer_memory = 4·largest_layer_params) and the prefetch bucket, capped by
    // stage3_max_live_parameters.
    const int64_t live = std::min(checked_add(counts.largest_layer, ds.stage3_prefetch_bucket_size, "estimate"),
                                  ds.stage3_max_live_parameters);
    add("transient/zero3_gathered", Category::kTransient, checked_add(2 * live, 2 * counts.largest_layer, "estimate"),
        "2 B · min(largest layer " + str(counts.largest_layer) + " + stage3_prefetch_bucket_size " +
            str(ds.stage3_prefetch_bucket_size) + ", stage3_max_live_parameters) + 2 B · largest layer (its gradient)");
  } else if (stage == 3) {
    add("transient/zero3_gathered", Category::kTransient, 4 * counts.largest_layer,
        "4 B · largest layer " + str(counts.largest_layer) + ": fetched from the CPU, 2-byte params + grads");
  }
  // ---- activations from the op model ----
  for (const auto& it : act.items) {
    if (it.bytes == 0) continue;
    if (it.category == Category::kActivations || it.category == Category::kTransient) add(it.path, it.category, it.bytes, it.formula);
  }
  const int64_t overhead = setup.cuda ? setup.overhead_bytes : 0;
  if (overhead > 0) add("overhead/cuda_context", Category::kOverhead, overhead, "CUDA context + cuBLAS/cuDNN workspace (--overhead)");

  // ---- host RAM (per node), DeepSpeed's layout of what offload moves ----
  const int64_t nodes = N / gpus_per_node;
  if (par.offload_optimizer) {
    add_host("host/fp32_master_grads_adam", ceil_div(16 * trainable, nodes),
             "16·P_trainable / nodes B: fp32 master, gradients and Adam moments of this node's " + str(gpus_per_node) +
                 " ranks (DeepSpeed's estimator adds ×1.5 on top)");
  }
  if (par.offload_parameters) {
    add_host("host/bf16_params", ceil_div(2 * P, nodes), "2·P / nodes B: the offloaded 2-byte parameters");
  }
  if (!ds.zero_init && stage == 3) {
    add_host("host/model_load", checked_mul(4 * P, gpus_per_node, "estimate"),
             "4·P·gpus_per_node B: without deepspeed.zero.Init every rank builds the full fp32 model on the CPU first");
  }
  e.host_table = deepspeed_states_table(stage == 3 ? 3 : 2, counts.total, counts.largest_layer, gpus_per_node, nodes);
  e.host_counts = counts;

  // ---- phases: static, + activations after forward, peak in backward with the buckets ----
  const int64_t stat = checked_add(checked_add(e.total(Category::kParameters), e.total(Category::kGradients), "estimate"),
                                   e.total(Category::kOptimizerState), "estimate");
  const int64_t fwd = checked_add(stat, e.total(Category::kActivations), "estimate");
  const int64_t peak = checked_add(fwd, e.total(Category::kTransient), "estimate");
  for (const char* kind : {"first", "steady"}) {
    e.phases.push_back({kind, "step_start", stat, stat});
    e.phases.push_back({kind, "after_forward", fwd, fwd});
    e.phases.push_back({kind, "after_backward", stat, peak});
    e.phases.push_back({kind, "after_optimizer_step", stat, stat});
  }
  e.peak_bytes = checked_add(peak, overhead, "estimate");
  e.peak_phase = "steady/after_backward";
  return e;
}

}  // namespace oomkit
