// The causes: names (the cases README's terms), default title / playbook step / fix / probe,
// confidence levels, and ranking.
#include <algorithm>
#include <string>

#include "oomkit/diagnose/diagnosis.h"

namespace oomkit {

namespace {

struct CauseInfo {
  OomCause cause;
  const char* name;
  int step;
  const char* title;
  const char* fix;
  const char* probe;
};

// Default title, playbook step, fix and probe per cause; rules add the evidence and may
// replace the fix with a sized one.
const CauseInfo kCauses[] = {
    {OomCause::kFragmentation, "fragmentation", 1,
     "Fragmentation: the allocator holds free cached blocks, but none large enough",
     "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (PyTorch >= 2.1; on 1.x max_split_size_mb:128); "
     "keep tensor shapes fixed between steps (pad batches to one length)",
     "torch.cuda.memory_summary(): is inactive_split_bytes large? Does the OOM come only after hours with "
     "varying shapes rather than at the first step?"},
    {OomCause::kActivationsBatch, "activations_batch", 5,
     "Activations of the micro-batch do not fit",
     "oomkit train --batch-size <B/2> --grad-accum <2x> (same effective batch), or --checkpointing full",
     "Playbook step 3: run one step at micro-batch 1. If it fits, activations scale with B; if not, static "
     "memory does not fit."},
    {OomCause::kActivationsSeqlen, "activations_seqlen", 5,
     "Sequence length: activations grow with T, the eager attention scores with T^2",
     "oomkit train --attention sdpa (no (B,h,T,T) matrix), --checkpointing full, or a shorter --seq-len",
     "Halve T for one step: the failing request shrinks ~4x if it is the (B,h,T,T) attention term, ~2x if "
     "it is linear in T (logits, MLP)."},
    {OomCause::kStaticModelTooLarge, "static_model_too_large", 3,
     "Static memory (parameters + gradients + optimizer state) does not fit",
     "--precision bf16, --optimizer adam-8bit, ZeRO/FSDP sharding (oomkit estimate --zero 3 --dp N) or "
     "--offload-optimizer; check with `oomkit estimate --model ...`",
     "Playbook step 3: does one step at micro-batch 1 still OOM? Does the OOM happen while loading or "
     "moving the model (.to(device), load_state_dict)?"},
    {OomCause::kOptimizerState, "optimizer_state", 8,
     "Optimizer state: Adam's two fp32 moments (8 bytes/parameter) are created at the first step",
     "--optimizer adam-8bit (2 B/param) or lion/sgd (4 B/param), or --offload-optimizer",
     "Does the OOM happen in the first optimizer.step() (exp_avg/exp_avg_sq in the traceback)?"},
    {OomCause::kLeakAcrossSteps, "leak_across_steps", 7,
     "Leak across steps: memory at the start of each step keeps rising",
     "Keep numbers, not graphs: losses.append(loss.item()) instead of losses.append(loss); detach() "
     "tensors kept for logging; del references held across steps",
     "Log torch.cuda.memory_allocated() at each step start (oomkit train records step_start marks): "
     "steady growth per step is a leak."},
    {OomCause::kEvalWithoutNoGrad, "eval_without_no_grad", 7,
     "Evaluation without no-grad: every validation batch keeps its autograd graph",
     "Wrap evaluation in `with torch.no_grad():` (or torch.inference_mode()); model.eval() alone does not "
     "stop graph building",
     "Does memory rise on each validation batch and does the OOM come during validation?"},
    {OomCause::kOtherProcess, "other_process", 1,
     "Memory held outside this process's allocator",
     "Free the GPU: stop the other process (stale Jupyter kernels, a second run), or pick a free GPU "
     "with CUDA_VISIBLE_DEVICES",
     "Playbook step 1: nvidia-smi --query-compute-apps=pid,used_memory --format=csv before starting"},
    {OomCause::kMultiGpuImbalance, "multi_gpu_imbalance", 1,
     "Several ranks put memory on one GPU (usually cuda:0)",
     "torch.cuda.set_device(local_rank) before creating tensors; torch.load(path, map_location='cpu' or "
     "f'cuda:{local_rank}'); DistributedDataParallel instead of DataParallel",
     "nvidia-smi: do several processes sit on GPU 0 while the other GPUs are emptier?"},
    {OomCause::kGenerationKvCache, "generation_kv_cache", 5,
     "Generation: the KV cache grows with every generated token",
     "Cap max_new_tokens and the generation batch, run generation under torch.no_grad(), free the cache "
     "between calls",
     "Does memory grow with each generated token, and does the OOM come inside generate()?"},
    {OomCause::kCpuRam, "cpu_ram", 1,
     "Host (CPU) RAM is exhausted",
     "Use less host memory: fewer DataLoader workers, no per-sample features kept in Python lists, "
     "torch.load(..., mmap=True); oomkit train --memory-limit budgets the trainer",
     "free -h / /proc/meminfo during the run: does RSS grow through the epoch (accumulation) or jump "
     "at one allocation (one huge tensor)?"},
    {OomCause::kOther, "other", 1, "Other cause", "See the evidence", "See the evidence"},
};

const CauseInfo& info(OomCause c) {
  for (const auto& ci : kCauses) {
    if (ci.cause == c) return ci;
  }
  return kCauses[sizeof(kCauses) / sizeof(kCauses[0]) - 1];
}


// A short list: past six candidates the rest are noise.
constexpr size_t kMaxFindings = 6;

}  // namespace

const char* cause_name(OomCause c) { return info(c).name; }

const char* default_fix(OomCause c) { return info(c).fix; }

const char* default_probe(OomCause c) { return info(c).probe; }

const char* default_title(OomCause c) { return info(c).title; }

std::string framework_title(OomCause cause, const std::string& fw) {
  // Evaluation where the framework's own loop builds no graph: HF Trainer's evaluation_loop and
  // Lightning's validation loop run under torch.no_grad (transformers trainer.py prediction_step,
  // lightning's loops), Keras' predict / evaluate, JAX and MLX build none (gradients are functions
  // of the loss: jax.grad, mx.value_and_grad), MegEngine records only inside a GradManager's
  // `with gm:` block, nor does a native runtime: what
  // fills the device there is the outputs kept across batches (or a user's own loop).
  if (cause != OomCause::kEvalWithoutNoGrad) return {};
  if (fw == "hf") {
    return "Evaluation memory: predictions / logits gathered on the GPU across batches (the Trainer evaluates under "
           "no_grad), or an evaluation loop of your own without no-grad";
  }
  if (fw == "lightning") {
    return "Evaluation memory: validation outputs kept on the GPU across batches (Lightning's loop runs under no_grad), "
           "or an evaluation of your own without no-grad";
  }
  if (fw == "tensorflow" || fw == "jax" || fw == "native" || fw == "mlx" || fw == "megengine" || fw == "caffe" ||
      fw == "mxnet" || fw == "darknet" || fw == "rapids") {
    return "Evaluation / inference memory: outputs kept on the device across batches, or an inference batch too large";
  }
  return {};
}

std::optional<OomCause> cause_from_name(std::string_view name) {
  for (const auto& ci : kCauses) {
    if (name == ci.name) return ci.cause;
  }
  return std::nullopt;
}

Finding make_finding(OomCause cause, double score) {
  const CauseInfo& ci = info(cause);
  Finding f;
  f.category = cause;
  f.title = ci.title;
  f.playbook_step = ci.step;
  f.fix = ci.fix;
  f.probe = ci.probe;
  f.score = score;
  return f;
}

const char* Finding::confidence() const { return score >= 0.75 ? "high" : (score >= 0.5 ? "medium" : "low"); }

bool Diagnosis::ambiguous() const {
  if (findings.empty() || findings.front().score < 0.75) return true;
  return findings.size() > 1 && findings[1].score > findings.front().score - 0.1;
}

std::string Diagnosis::verdict() const { return ambiguous() ? "ambiguous" : cause_name(findings.front().category); }

// The remedies catalogue's entries (remedies.h) that act on a cause, in catalogue order; the
// oomkit flags beside a worded fix are theirs (remedy_flag_hint), so the diagnosis, the
// estimator's plans and `oomkit train` name one set of fixes.
std::vector<RemedyKind> catalogue_remedies(OomCause cause, bool sdpa_supported) {
  switch (cause) {
    case OomCause::kActivationsBatch:
      return {RemedyKind::kMicroBatch, RemedyKind::kCheckpointingFull, RemedyKind::kPrecisionBf16Mixed};
    case OomCause::kActivationsSeqlen:
      if (sdpa_supported) return {RemedyKind::kAttentionSdpa, RemedyKind::kCheckpointingFull};
      return {RemedyKind::kCheckpointingFull};
    case OomCause::kStaticModelTooLarge:
      return {RemedyKind::kPrecisionBf16, RemedyKind::kOptimizerAdam8bit, RemedyKind::kZero3, RemedyKind::kOffloadOptimizer,
              RemedyKind::kLora};
    case OomCause::kOptimizerState:
      return {RemedyKind::kOptimizerAdam8bit, RemedyKind::kOptimizerAdafactor, RemedyKind::kZero1,
              RemedyKind::kOffloadOptimizer};
    default:
      return {};
  }
}

std::string catalogue_flags(OomCause cause, bool sdpa_supported) {
  std::string out;
  for (RemedyKind k : catalogue_remedies(cause, sdpa_supported)) out += (out.empty() ? "" : ", ") + remedy_flag_hint(k);
  return out;
}

namespace {

// Frameworks with no PyTorch setting to word a fix in: where one has no wording of its own, a
// native runtime's is given (not PyTorch's), and no oomkit flag, nor PyTorch's probes.
bool outside_pytorch(const std::string& fw) {
  return fw == "native" || fw == "paddle" || fw == "numpy" || fw == "dask" || fw == "mlx" || fw == "megengine" ||
         fw == "caffe" || fw == "mxnet" || fw == "darknet" || fw == "rapids" || fw == "ray";
}

}  // namespace

// Fixes worded in the framework the log comes from, with oomkit's own flag beside it where
// oomkit can do the same (the catalogue's flags; --attention sdpa only when this build has it).
std::string framework_fix(OomCause cause, const std::string& fw, bool sdpa_supported) {
  // The framework's own wording; else, for Paddle, CuPy and numpy, a native runtime's (no PyTorch setting); else PyTorch's.
  auto pick = [&](std::initializer_list<std::pair<const char*, const char*>> table) -> std::string {
    const char* fallback = nullptr;
    const char* native = nullptr;
    for (const auto& [name, text] : table) {
      if (fw == name) return text;
      if (std::string(name) == "pytorch") fallback = text;
      if (std::string(name) == "native") native = text;
    }
    if ((fw == "cupy" || outside_pytorch(fw)) && native) {
      return native;
    }
    return fallback ? fallback : "";
  };
  std::string fix, flag;
  switch (cause) {
    case OomCause::kActivationsBatch:
      fix = pick({{"pytorch", "Halve the micro-batch and accumulate gradients (loss / k, optimizer.step() every k micro-batches); "
                              "torch.utils.checkpoint on the blocks; torch.autocast(dtype=torch.bfloat16)"},
                  {"hf", "TrainingArguments(per_device_train_batch_size=<B/2>, gradient_accumulation_steps=<2x>, "
                         "gradient_checkpointing=True, bf16=True)"},
                  {"accelerate", "Accelerator(gradient_accumulation_steps=<2x>, mixed_precision='bf16') with a DataLoader "
                                 "batch_size of <B/2>; model.gradient_checkpointing_enable()"},
                  {"deepspeed", "ds_config: train_micro_batch_size_per_gpu <B/2> with gradient_accumulation_steps <2x>; "
                                "activation_checkpointing; bf16.enabled true"},
                  {"lightning", "Trainer(accumulate_grad_batches=<2x>, precision='bf16-mixed') with a DataLoader batch_size "
                                "of <B/2>; activation checkpointing in the LightningModule"},
                  {"fsdp", "A smaller per-rank batch with gradient accumulation (no_sync() between micro-batches); "
                           "apply_activation_checkpointing; MixedPrecision(param_dtype=torch.bfloat16)"},
                  {"jax", "A smaller per-device batch with optax.MultiSteps(every_k_schedule=k); jax.checkpoint (remat) "
                          "on the blocks; bf16 activations"},
                  {"tensorflow", "A smaller batch_size in model.fit; tf.keras.mixed_precision.set_global_policy('mixed_float16')"},
                  {"vllm", "Lower max_num_seqs / max_num_batched_tokens (fewer sequences in flight)"},
                  {"oomkit", "oomkit train --batch-size <B/2> --grad-accum <2x> (same effective batch), or --checkpointing full"},
                  {"mlx", "A smaller batch (mlx_lm.lora --batch-size <B/2>); --grad-checkpoint (mlx_lm.lora) to recompute "
                          "the layers' activations; bf16 or quantized weights"},
                  {"megengine", "A smaller batch_size with gradient accumulation (loss / k, optimizer.step() every k batches); "
                                "DTR (megengine.dtr.enable()) or sublinear memory (trace's SublinearMemoryConfig) to recompute "
                                "activations; megengine.amp.autocast mixed precision"},
                  {"mxnet", "A smaller batch_size (the DataLoader's or the data iterator's, or data_shapes); "
                            "MXNET_BACKWARD_DO_MIRROR=1 to recompute activations in the backward pass (memory mirroring); "
                            "mixed precision (mxnet.contrib.amp)"},
                  {"caffe", "A smaller batch_size in the data / input layer of the prototxt, with iter_size <2x> in "
                            "solver.prototxt (gradients accumulated over iterations, the same effective batch); Caffe built "
                            "with cuDNN (USE_CUDNN := 1) in place of each convolution's im2col buffer"},
                  {"rapids", "Smaller partitions: more npartitions or a smaller chunksize / blocksize (dask_cudf.read_csv(..., "
                             "chunksize=...)), so each GPU holds less at once; RMM managed memory "
                             "(rmm.reinitialize(managed_memory=True)) or dask-cuda's spilling (LocalCUDACluster(device_memory_"
                             "limit=...))"},
                  {"darknet", "A larger subdivisions= in the .cfg's [net] section (subdivisions=<2x>: the same batch= in "
                              "mini-batches of batch/subdivisions images per pass), or a smaller batch="},
                  {"native", "A smaller batch: fewer images, streams or sequences at once (llama.cpp: a smaller -b / -ub); lower-"
                             "precision weights and activations"},
                  {"paddle", "A smaller batch_size with gradient accumulation (loss / k, optimizer.step() every k batches); "
                             "recompute (paddle.distributed.fleet.utils.recompute) on the blocks; paddle.amp.auto_cast mixed "
                             "precision"}});
      flag = catalogue_flags(cause, sdpa_supported);
      break;
    case OomCause::kActivationsSeqlen: {
      fix = pick({{"pytorch", "Shorter sequences (truncate / a smaller max length); F.scaled_dot_product_attention "
                              "(PyTorch >= 2.0) or flash-attn instead of eager attention (no (B,h,T,T) scores); "
                              "torch.utils.checkpoint"},
                  {"hf", "A smaller max_length / max_seq_length; from_pretrained(..., attn_implementation='sdpa' or "
                         "'flash_attention_2'); gradient_checkpointing=True"},
                  {"accelerate", "A smaller max length; attn_implementation='sdpa' / 'flash_attention_2'; "
                                 "model.gradient_checkpointing_enable()"},
                  {"deepspeed", "A smaller max length; flash/SDPA attention; activation_checkpointing in ds_config "
                                "(partition_activations, cpu_checkpointing)"},
                  {"lightning", "A smaller max length; SDPA / flash attention in the model; activation checkpointing"},
                  {"fsdp", "A smaller max length; SDPA / flash attention; apply_activation_checkpointing"},
                  {"jax", "Shorter sequences; jax.nn.dot_product_attention(implementation='cudnn') or a Pallas flash "
                          "kernel; jax.checkpoint (remat)"},
                  {"tensorflow", "Shorter sequences / smaller inputs; mixed_float16"},
                  {"vllm", "Lower max_model_len"},
                  {"oomkit", "oomkit train: a shorter --seq-len, --checkpointing full"},
                  {"paddle", "Smaller inputs: a shorter max length, smaller images or crops (PaddleSeg: a sliding-window "
                             "test_config); recompute on the blocks"},
                  {"mlx", "Shorter inputs (mlx_lm.lora --max-seq-length); a lower --prefill-step-size for long prompts; "
                          "--grad-checkpoint"},
                  {"megengine", "Smaller inputs: a shorter length, smaller images or crops; DTR (megengine.dtr.enable()) to "
                                "recompute activations"},
                  {"mxnet", "Smaller inputs: a smaller image scale or max_data_shape, the largest bucket's length; "
                            "MXNET_BACKWARD_DO_MIRROR=1"},
                  {"caffe", "Smaller inputs: the input dims (input_shape / crop_size) in the prototxt, images resized or "
                            "tiled; Caffe built with cuDNN (USE_CUDNN := 1)"},
                  {"rapids", "Smaller pieces: fewer rows or columns at once (more partitions, a smaller chunksize), "
                             "narrower dtypes (category, int32, float32); RMM managed memory"},
                  {"darknet", "A smaller width= / height= in the .cfg's [net] section (multiples of 32); random=0 in the "
                              "[yolo] layers (multi-scale training grows the input up to 1.4x)"},
                  {"native", "Smaller inputs: a shorter context (llama.cpp: a smaller -c), smaller tiles or images (ncnn: a "
                             "smaller tile size)"}});
      if (fw == "oomkit" && sdpa_supported) fix += ", --attention sdpa";
      flag = catalogue_flags(cause, sdpa_supported) + ", a shorter --seq-len";
      break;
    }
    case OomCause::kStaticModelTooLarge:
      fix = pick({{"pytorch", "bf16 weights (model.to(torch.bfloat16)), an 8-bit optimizer (bitsandbytes.optim.AdamW8bit), "
                              "FSDP/ZeRO sharding over GPUs or CPU offload; load on the CPU first "
                              "(torch.load(path, map_location='cpu'))"},
                  {"hf", "from_pretrained(..., torch_dtype=torch.bfloat16) or quantized (BitsAndBytesConfig load_in_4bit, "
                         "LoRA/QLoRA); optim='adamw_bnb_8bit'; shard with deepspeed ZeRO-3 (deepspeed='ds_config.json') "
                         "or fsdp='full_shard'"},
                  {"accelerate", "accelerate config with FSDP (FULL_SHARD) or DeepSpeed ZeRO-3 and CPU offload; "
                                 "bf16 weights; device_map='auto' for inference"},
                  {"deepspeed", "zero_optimization.stage 3 with offload_param / offload_optimizer {device: cpu}; "
                                "bf16 weights"},
                  {"lightning", "Trainer(strategy='fsdp' or 'deepspeed_stage_3', precision='bf16-true')"},
                  {"fsdp", "ShardingStrategy.FULL_SHARD over more GPUs, CPUOffload(offload_params=True), "
                           "MixedPrecision / bf16 parameters"},
                  {"jax", "Shard parameters across devices (jax.sharding.NamedSharding / pjit), bf16 parameters"},
                  {"tensorflow", "A smaller model, mixed_float16, tf.distribute strategies across GPUs"},
                  {"vllm", "tensor_parallel_size=<GPUs>, a quantized checkpoint (AWQ/GPTQ, quantization=...), or a "
                           "smaller model; lower gpu_memory_utilization only if something else shares the GPU"},
                  {"oomkit", "oomkit train --precision bf16 --optimizer adam-8bit; size ZeRO/offload with oomkit estimate "
                             "--zero 3 --dp N / --offload-optimizer"},
                  {"mlx", "A smaller or quantized model (mlx_lm.convert -q --q-bits 4); LoRA (mlx_lm.lora) instead of full "
                          "fine-tuning; unified memory is the Mac's RAM: close what else holds it"},
                  {"megengine", "A smaller model or half-precision weights (megengine.amp); the model split over GPUs "
                                "(megengine.distributed)"},
                  {"mxnet", "A smaller network, or float16 parameters (net.cast('float16') with multi_precision=True in "
                            "the optimizer)"},
                  {"caffe", "A smaller network (fewer or narrower layers) or a GPU with more memory; caffe.set_mode_cpu() "
                            "runs it in host RAM"},
                  {"darknet", "A smaller network (a -tiny .cfg) or a GPU with more memory"},
                  {"rapids", "The data does not fit one GPU: partition it over several GPUs with dask_cudf (LocalCUDACluster), "
                             "RMM managed memory (rmm.reinitialize(managed_memory=True)) to spill into host RAM, or process it "
                             "in chunks"},
                  {"native", "Fewer layers on the device (llama.cpp: a lower -ngl), a smaller or more strongly quantized model"},
                  {"paddle", "A smaller model, or half-precision weights (paddle.amp.decorate(models, level='O2')); the "
                             "model sharded over GPUs"}});
      flag = catalogue_flags(cause, sdpa_supported) + " (size them with oomkit estimate)";
      break;
    case OomCause::kOptimizerState:
      fix = pick({{"pytorch", "bitsandbytes.optim.AdamW8bit (2 B/param instead of 8), Adafactor or SGD; "
                              "ZeroRedundancyOptimizer across ranks"},
                  {"hf", "optim='adamw_bnb_8bit' (or 'adafactor'); ZeRO stage 1/2 with offload_optimizer via deepspeed=..."},
                  {"accelerate", "bnb.optim.AdamW8bit; DeepSpeed ZeRO-2 with offload_optimizer in accelerate config"},
                  {"deepspeed", "zero_optimization.stage >= 1 (optimizer states sharded) and offload_optimizer {device: cpu}"},
                  {"lightning", "Trainer(strategy='deepspeed_stage_2_offload'); an 8-bit optimizer in configure_optimizers"},
                  {"fsdp", "FULL_SHARD or SHARD_GRAD_OP shards optimizer state; bnb 8-bit optimizer"},
                  {"jax", "optax.adafactor or 8-bit moments; shard the optimizer state like the parameters"},
                  {"tensorflow", "A lighter optimizer (Adafactor, SGD)"},
                  {"oomkit", "oomkit train --optimizer adam-8bit (2 B/param) or lion/sgd/adafactor"},
                  {"mlx", "A lighter optimizer (mlx.optimizers.Adafactor or SGD); LoRA, whose optimizer state is the "
                          "adapters' alone"},
                  {"megengine", "A lighter optimizer (megengine.optimizer.SGD), or fewer trainable parameters"},
                  {"caffe", "type: \"SGD\" in solver.prototxt (one history blob per parameter; Adam keeps two)"},
                  {"mxnet", "SGD with momentum (one state per parameter) in place of Adam (two)"},
                  {"native", "A lighter optimizer, or its state kept off the device"}});
      flag = catalogue_flags(cause, sdpa_supported);
      break;
    case OomCause::kLeakAcrossSteps:
      fix = pick({{"pytorch", "Keep numbers, not graphs: losses.append(loss.item()) instead of losses.append(loss); detach() "
                              "tensors kept for logging; del references held across steps"},
                  {"hf", "compute_metrics / callbacks that keep tensors on the GPU: .detach().cpu() them; "
                         "eval_accumulation_steps; a transformers upgrade when a version leaks"},
                  {"lightning", "Return loss (not a list of tensors) and log with self.log(...); detach what you keep in "
                                "*_epoch_end"},
                  {"jax", "Do not keep device arrays from every step (jax.device_get them); avoid re-jitting per step "
                          "(new shapes / closures grow the compilation cache)"},
                  {"tensorflow", "tf.keras.backend.clear_session() between models; no new tf.function per step"},
                  {"mlx", "Keep no arrays from every step (float(loss) / loss.item() for logging); mx.eval() each step so "
                          "graphs do not pile up; mx.clear_cache() (older MLX: mx.metal.clear_cache())"},
                  {"megengine", "Keep numbers, not tensors: loss.item() for logging; detach() what is kept across steps"},
                  {"native", "Free the buffers a step, request or program no longer needs; memory that grows per step is a "
                             "buffer kept per step"}});
      flag = "(timeline: oomkit train records step_start marks for the leak regression)";
      break;
    case OomCause::kEvalWithoutNoGrad:
      fix = pick({{"pytorch", "Wrap evaluation in `with torch.no_grad():` (or torch.inference_mode()); model.eval() alone "
                              "does not stop graph building; move kept outputs to the CPU (.cpu())"},
                  {"hf", "eval_accumulation_steps=<k> (moves predictions to the CPU), a smaller per_device_eval_batch_size, "
                         "preprocess_logits_for_metrics (argmax before gathering logits); inference under "
                         "torch.inference_mode()"},
                  {"lightning", "Do not collect validation outputs on the GPU (outputs.append(x.detach().cpu())); "
                                "a smaller val batch"},
                  {"jax", "A smaller eval batch; jax.device_get predictions per batch instead of keeping them on device"},
                  {"tensorflow", "A smaller batch in model.predict / evaluate; training=False"},
                  {"megengine", "Evaluate outside the GradManager's `with gm:` block (nothing recorded there); move kept "
                                "outputs off the GPU (.numpy()); a smaller eval batch"},
                  {"native", "Free each batch's outputs once they are read; a smaller inference batch"},
                  {"paddle", "Wrap evaluation in `with paddle.no_grad():`; model.eval() alone does not stop graph building; "
                             "move kept outputs off the GPU (.numpy())"}});
      break;
    case OomCause::kOtherProcess:
      fix = pick({{"pytorch", "Free the GPU: stop the other process (stale Jupyter kernels, a second run; nvidia-smi lists "
                              "them), or pick a free GPU with CUDA_VISIBLE_DEVICES"},
                  {"jax", "XLA_PYTHON_CLIENT_PREALLOCATE=false (or XLA_PYTHON_CLIENT_MEM_FRACTION=.45) so JAX does not "
                          "take 75% up front; stop the other process or pick a free GPU"},
                  {"tensorflow", "tf.config.experimental.set_memory_growth(gpu, True) so TF does not take the whole GPU; "
                                 "stop the other process"},
                  {"vllm", "gpu_memory_utilization is a share of the whole GPU: lower it when other processes hold "
                           "memory, or free the GPU"},
                  {"paddle", "Free the GPU (nvidia-smi lists the other processes) or pick a free one with CUDA_VISIBLE_DEVICES; "
                             "on a shared GPU a lower FLAGS_fraction_of_gpu_memory_to_use"},
                  {"mlx", "Unified memory is shared with every app on the Mac: close the other programs holding it "
                          "(Activity Monitor's Memory tab), or other MLX processes"},
                  {"native", "Free the device: stop the other programs using it (its own tool lists them: nvidia-smi, rocm-smi, "
                             "tt-smi, bm-smi), or pick another device"}});
      break;
    case OomCause::kMultiGpuImbalance:
      fix = pick({{"pytorch", "torch.cuda.set_device(local_rank) before creating tensors; torch.load(path, map_location="
                              "'cpu' or f'cuda:{local_rank}'); DistributedDataParallel instead of DataParallel"},
                  {"hf", "Launch with torchrun / accelerate launch (python train.py on several GPUs is DataParallel, "
                         "which gathers outputs on GPU 0); device_map='auto' balances layers for inference"},
                  {"accelerate", "accelerate launch with the right num_processes; no .to('cuda') before "
                                 "accelerator.prepare()"},
                  {"deepspeed", "deepspeed --num_gpus N; no .cuda()/.to('cuda:0') before deepspeed.initialize; "
                                "map_location='cpu' when loading checkpoints"},
                  {"lightning", "Trainer(devices=N, strategy='ddp'); map_location='cpu' in load_from_checkpoint"},
                  {"jax", "Check the device mesh / sharding: one device holds unsharded arrays"},
                  {"native", "Spread the buffers over the devices evenly (llama.cpp: --tensor-split, --main-gpu); check which "
                             "device each buffer is placed on"}});
      break;
    case OomCause::kGenerationKvCache:
      fix = pick({{"pytorch", "Cap max_new_tokens and the generation batch; generate under torch.inference_mode(); free "
                              "the cache between calls"},
                  {"hf", "Cap max_new_tokens / num_beams and the batch; generate() under torch.inference_mode(); "
                         "cache_implementation='quantized' or 'offloaded'"},
                  {"vllm", "Lower max_model_len (or raise gpu_memory_utilization when the GPU is yours alone), lower "
                           "max_num_seqs; tensor_parallel_size for more KV space"},
                  {"jax", "A smaller decode batch / max length; a paged or quantized KV cache"},
                  {"mlx", "A bounded, rotating KV cache (mlx_lm --max-kv-size), a quantized KV cache (--kv-bits 4 or 8), a "
                          "shorter context or fewer sequences at once"},
                  {"native", "A shorter context and fewer parallel sequences (llama.cpp: a smaller -c and -np, a quantized KV "
                             "cache with -ctk q8_0 -ctv q8_0)"}});
      break;
    case OomCause::kCpuRam:
      fix = pick({{"pytorch", "Fewer DataLoader workers (num_workers) and no Python lists of objects in the dataset "
                              "(copy-on-read: numpy arrays instead); torch.load(path, mmap=True); more RAM / swap"},
                  {"hf", "from_pretrained(..., low_cpu_mem_usage=True, torch_dtype=torch.bfloat16); lower "
                         "dataloader_num_workers; datasets streaming or memory-mapped Arrow"},
                  {"accelerate", "low_cpu_mem_usage=True loading; fewer DataLoader workers"},
                  {"deepspeed", "CPU offload needs host RAM: offload to NVMe or offload less; fewer ranks per node "
                                "loading the full checkpoint at once"},
                  {"lightning", "Fewer DataLoader workers; load checkpoints with map_location='cpu' once"},
                  {"jax", "Smaller host-side batches / tf.data prefetch; XLA_PYTHON_CLIENT_PREALLOCATE has no effect on RAM"},
                  {"tensorflow", "tf.data with a smaller shuffle buffer / cache() off"},
                  {"oomkit", "oomkit train --memory-limit budgets the trainer's host memory"},
                  {"native", "Less in host memory at once: smaller images or arrays, fewer concurrent inputs, a memory-mapped model "
                             "(llama.cpp's default); more RAM or swap"}});
      flag = "--memory-limit <budget>";
      break;
    case OomCause::kFragmentation:
      fix = pick({{"pytorch", "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (PyTorch >= 2.1; on 1.x max_split_size_mb:128); "
                              "keep tensor shapes fixed between steps (pad batches to one length)"},
                  {"jax", "XLA_PYTHON_CLIENT_ALLOCATOR=platform (no BFC pool) to test; fixed shapes"},
                  {"tensorflow", "TF_GPU_ALLOCATOR=cuda_malloc_async; fixed shapes"},
                  {"mxnet", "MXNET_GPU_MEM_POOL_TYPE=Round (its pool in rounded sizes) or Unpooled; fixed shapes "
                            "(bucketing with few buckets)"},
                  {"mlx", "A lower buffer-cache limit (mx.set_cache_limit) or mx.clear_cache() between requests; fixed "
                          "shapes"},
                  {"native", "Allocate the large, long-lived buffers first and free buffers in a fixed order; split the "
                             "largest buffer"}});
      break;
    case OomCause::kOther:
      return "";
  }
  if (!flag.empty() && fw != "oomkit" && fw != "jax" && fw != "tensorflow" && fw != "vllm" && !outside_pytorch(fw)) {
    fix += " — oomkit train: " + flag;
  }
  return fix;
}

// Probes in the framework the log comes from where the default's (PyTorch's) do not apply: a
// native runtime ("native", an accelerator's own allocator), Paddle, numpy, Dask, MLX, MegEngine
// and Caffe have no torch.cuda to ask. "" keeps the default.
std::string framework_probe(OomCause cause, const std::string& fw) {
  if (!outside_pytorch(fw)) return "";
  switch (cause) {
    case OomCause::kActivationsBatch:
      return "Run once with half the batch (images, streams, sequences at once): if it fits, the working set scales with it";
    case OomCause::kActivationsSeqlen:
      return "Run once with half the context or input size (tile, image): the failing buffer shrinks with it";
    case OomCause::kStaticModelTooLarge:
      return "Load the model alone, with no input: does the load itself fail, or fit only with fewer layers on the device?";
    case OomCause::kOptimizerState:
      return "Does it fail at the first update step, after the forward and backward passes completed?";
    case OomCause::kLeakAcrossSteps:
      return "Watch the device's used memory over steps or requests with its own tool: steady growth is a leak";
    case OomCause::kEvalWithoutNoGrad:
      return "Does memory rise with each inference batch and stay up after it?";
    case OomCause::kOtherProcess:
      // A Mac's unified memory is shared with every app: Activity Monitor, not an accelerator's tool.
      if (fw == "mlx") return "Check Activity Monitor's Memory tab (or vm_stat) for what else holds the Mac's memory before starting";
      return "List the programs holding the device with its own tool (nvidia-smi, rocm-smi, tt-smi, bm-smi) before starting";
    case OomCause::kMultiGpuImbalance:
      return "Watch each device's memory: one fuller than the others?";
    case OomCause::kGenerationKvCache:
      return "Halve the context or the parallel sequences: the KV cache shrinks with them";
    case OomCause::kCpuRam:
      return "Watch the process's resident memory (top, free -h) up to the failure";
    case OomCause::kFragmentation:
      return "Log the allocator's free total and largest free block before the failing allocation";
    case OomCause::kOther:
      return "";
  }
  return "";
}

void rank_findings(std::vector<Finding>& findings) {
  std::vector<Finding> merged;
  merged.reserve(findings.size());
  for (auto& f : findings) {
    auto it = std::find_if(merged.begin(), merged.end(), [&](const Finding& m) { return m.category == f.category; });
    if (it == merged.end()) {
      merged.push_back(std::move(f));
      continue;
    }
    const bool replace = f.score > it->score;
    std::vector<std::string> evidence = replace ? f.evidence : it->evidence;
    for (const auto& e : (replace ? it->evidence : f.evidence)) {
      if (std::find(evidence.begin(), evidence.end(), e) == evidence.end()) evidence.push_back(e);
    }
    auto saving = f.saving_bytes ? f.saving_bytes : it->saving_bytes;
    if (replace) *it = std::move(f);
    it->evidence = std::move(evidence);
    if (!it->saving_bytes) it->saving_bytes = saving;
  }
  for (auto& f : merged) {
    f.evidence.erase(std::remove_if(f.evidence.begin(), f.evidence.end(), [](const std::string& e) { return e.empty(); }),
                     f.evidence.end());
  }
  std::stable_sort(merged.begin(), merged.end(), [](const Finding& a, const Finding& b) { return a.score > b.score; });
  if (!merged.empty() && merged.front().score >= 0.75) {  // a verdict: keep only the real contenders
    merged.erase(std::remove_if(merged.begin() + 1, merged.end(), [](const Finding& f) { return f.score < 0.3; }),
                 merged.end());
  }
  if (merged.size() > kMaxFindings) merged.resize(kMaxFindings);
  findings = std::move(merged);
}


}  // namespace oomkit
