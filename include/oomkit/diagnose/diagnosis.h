// Classifying an OOM: ranked findings, each tied to a step of the seed chapter's eight-step
// playbook ("Out-of-memory errors" section):
//   1 confirm available GPU memory (capacity, other processes)   5 reduce batch / sequence length
//   2 memory profiling checkpoints (which phase crossed)          6 mixed precision
//   3 minimal batch size (static memory vs activations)           7 memory leaks
//   4 activation (gradient) checkpointing                         8 CPU offloading / sharding
// Fragmentation advice (reserved vs allocated) comes from the chapter's reading of the error
// message and is filed under step 1, where the message is read.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "oomkit/core/model_config.h"
#include "oomkit/diagnose/word_prior.h"
#include "oomkit/diagnose/oom_record.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/remedies.h"

namespace oomkit {

/// Causes, in the terms of tests/data/oom-cases/README.md.
enum class OomCause {
  kFragmentation,
  kActivationsBatch,
  kActivationsSeqlen,
  kStaticModelTooLarge,
  kOptimizerState,
  kLeakAcrossSteps,
  kEvalWithoutNoGrad,
  kOtherProcess,
  kMultiGpuImbalance,
  kGenerationKvCache,
  kCpuRam,
  kOther,
};

/// "fragmentation", "activations_batch", ..., "other".
const char* cause_name(OomCause c);
/// Inverse of cause_name(); nullopt for an unknown name.
std::optional<OomCause> cause_from_name(std::string_view name);

/// One ranked finding.
struct Finding {
  OomCause category = OomCause::kOther;
  std::string title;                   // one line
  std::vector<std::string> evidence;   // numbers from the message / timeline / estimate
  int playbook_step = 1;               // 1-8, see the file comment
  std::string fix;                     // an `oomkit train` flag, a PYTORCH_CUDA_ALLOC_CONF setting or the code change
  std::optional<int64_t> saving_bytes; // predicted by re-running the estimator with the fix
  std::string probe;                   // the question or probe that confirms or rules this cause out
  double score = 0.0;                  // 0..1, ranks findings; see confidence()
  /// "high" (score >= 0.75), "medium" (>= 0.5) or "low".
  const char* confidence() const;
};

/// One piece of evidence from the log (not from the message itself) that weighs for a cause.
/// Weights follow one scale (see context.cpp): a traceback frame or an explicit statement
/// ("fails already at batch size 1", memory rising step after step) 0.3-0.55; a logged
/// setting 0.1-0.3; a single word ("evaluation", "NCCL", a GPU count) <= 0.1, never deciding.
struct Signal {
  /// The opening of `what` for a failure the user tells at batch size 1 (context.cpp reads it; the
  /// allocator's figures weigh it in classify.cpp).
  static constexpr const char* kFailsAtBatchOne = "fails even at batch size 1";
  OomCause cause = OomCause::kOther;
  double weight = 0.0;   // added to the cause's score; negative weighs against it
  int64_t line = 0;      // 1-based log line it was read from (0: the whole log)
  std::string what;      // "traceback: optimizer.step()", "logged: per_device_train_batch_size=8", ...
  bool prose = false;    // read from the user's sentences (a statement), not from a frame, a setting or logged figures
};

/// One torch.cuda.memory_summary() table pasted in a log: its "Allocated memory" and "GPU reserved
/// memory" rows' Peak Usage column, in bytes (0 where the row is cut off).
struct MemorySummaryTable {
  int64_t line = 0;     // 1-based line of its first row read
  int64_t device = -1;  // its header's "device ID N"; -1: not printed
  int64_t allocated_peak_bytes = 0;
  int64_t reserved_peak_bytes = 0;
};

/// What the log says around one OOM report. Built by read_log_evidence() + context_at() in one
/// pass over the log for all reports together.
struct LogContext {
  bool eval = false;            // evaluation / inference / validation in the traceback or the last log lines
  bool no_grad_seen = false;    // "no_grad" / "inference_mode" appears
  bool no_grad_frame = false;   // the report's traceback runs under no_grad (a no_grad frame, or its decorator's wrapper)
  bool generation = false;      // generate() / past_key_values / KV cache / max_new_tokens (an LLM generating)
  bool multi_gpu = false;       // DataParallel/DDP/torchrun ranks or several device ids
  bool loading = false;         // torch.load / load_state_dict / from_pretrained / .to() in the traceback
  bool in_backward = false;     // the traceback goes through backward()
  bool in_optimizer = false;    // the traceback goes through optimizer.step (Adam moments created lazily)
  bool in_attention = false;    // the traceback goes through attention / softmax / sdpa
  bool no_autograd = false;     // the traceback goes through a runtime without autograd (vLLM's engine and
                                // workers, ONNX Runtime, TensorRT): no graph is kept there
  bool autograd_free_log = false;  // the log names only stacks without PyTorch's autograd at inference
                                   // (TensorFlow / Keras, JAX, ONNX Runtime, TensorRT, Core ML, MLX, ggml ...)
                                   // and never torch: no evaluation keeps an autograd graph there
  std::optional<double> growth_per_step_bytes;  // slope of memory over "step N ... mem X" lines, when rising
  int64_t steps_seen = 0;       // distinct step counters before the OOM
  std::vector<std::string> clues;  // "log line 12 (eval): model.eval()" etc., for evidence
  // The whole log as evidence (issue 10):
  std::string phase;            // where it failed: "model_load", "forward", "loss", "backward", "optimizer_step",
                                // "eval", "generate", "dataloader"; "" when the log does not say
  std::string framework;        // "pytorch", "hf", "accelerate", "deepspeed", "lightning", "fsdp", "jax",
                                // "tensorflow", "vllm", "oomkit" (most specific seen in the log)
  bool torch_named = false;     // "torch" / "pytorch" appears as a word in the log
  bool framework_named = false; // the log names a framework (PyTorch or one of those above); else "pytorch" is assumed
  std::optional<int64_t> batch_size;   // logged micro-batch size (per device)
  std::optional<int64_t> seq_len;      // logged max/sequence length
  std::optional<int64_t> num_gpus;     // logged world size / GPU count
  std::optional<int64_t> gpus_named;   // GPUs counted in the user's words ("8x H100", "on 2 GPUs"): what the
                                       // machine has, which the run may not all use
  std::string model_name;       // a model id named in the log ("meta-llama/Llama-2-7b-hf")
  std::optional<int64_t> model_params;       // parameters of a model named with its size ("7B", "Llama3.1 8B")
  bool llm_inference = false;                // an LLM is named and nothing in the log trains it
  bool llm_exported = false;                 // an LLM is named, nothing trains it, and the failing run is its export
  bool quantized = false;                    // the log names quantized weights (4-bit, int8, GPTQ, AWQ, bitsandbytes)
  bool training = false;                     // the log names training (train, epoch, optimizer, backward, ...)
  bool optimizer_state_small = false;        // adapters (LoRA / PEFT), SGD, Adafactor or an offloaded optimizer named
  bool adapters_named = false;               // adapters (LoRA / QLoRA / PEFT) named, not denied: the base model frozen
  bool full_training_named = false;          // full fine-tuning / full training named as the run ("14B full training")
  bool device_map_split = false;             // device_map="auto" / "balanced" / "sequential": layers spread over the GPUs
  bool state_sharded = false;                // DeepSpeed (ZeRO), FSDP or a tensor- / model-parallel size named
  bool one_gpu_told = false;                 // one GPU told as the run's ("on a single A100", 单卡 / 单张: one card)
  bool sharding_denied = false;              // FSDP / DeepSpeed named as not used, or ZeRO stage 0: a whole copy per GPU
  int64_t replay_memory_line = 0;            // first line naming an RL agent's replay memory (DQN's experience
                                             // replay, a replay buffer): held in host RAM, filling as it collects
  bool structure_model_named = false;        // a protein structure model named (AlphaFold, OpenFold, ...): one complex per step
  int64_t training_line = 0;                 // the first such line
  std::optional<int64_t> stated_device_bytes; // device memory the log states ("VRAM: 98304M", "should have 96 GB")
  std::optional<int64_t> host_ram_bytes;      // the host's RAM the log names ("a Desktop with 8GB RAM", "RAM: 16 GB"), the largest; not set where the log names Linux or a memory fraction
  std::optional<int64_t> named_device_bytes;  // the GPU's size in the user's words ("GPU 12GB", "RTX 2080 11G")
  int64_t job_stop_line = 0;  // a line telling a scheduler stopped the job (SLURM's time limit, scancel, PBS walltime); 0: none
  std::string job_stop_what;  // ... in words ("SLURM cancelled the job at its time limit")
  int64_t interrupt_line = 0; // a line before the report showing the run interrupted by hand (KeyboardInterrupt, "^C"); 0: none
  int64_t kv_cache_failed_line = 0;  // llama.cpp's "failed to allocate buffer for kv cache" just after the report; 0: none
  int64_t compute_buffer_failed_line = 0;  // ggml's graph allocator failing to reserve its compute buffers
                                           // ("ggml_gallocr_reserve_n: failed to allocate ...") at or just after the report; 0: none
  bool llama_context = false;  // llama.cpp's context in the log (llama_new_context_with_model, llama_context, llama_kv_cache)
  bool megengine_named = false;  // MegEngine named as a word ("import megengine as mge")
  bool caffe_named = false;      // Caffe named ("import caffe", pycaffe, a .prototxt / .caffemodel file)
  bool mxnet_named = false;      // MXNet named as a word ("import mxnet as mx", "mxnet-cu112", Gluon's gluoncv)
  bool darknet_named = false;    // Darknet named ("./darknet detector train", its dark_cuda.c in an error)
  bool rapids_named = false;     // RAPIDS named (cudf, dask_cudf, dask_cuda's LocalCUDACluster, cuml)
  int caffe_cudnn = 0;           // Caffe's cuDNN build told: 1 in use (USE_CUDNN := 1, CuDNNConvolution layers), -1 off
                                 // (Makefile.config's "# USE_CUDNN := 1" commented out), 0 not told
  bool mlx_named = false;        // Apple's MLX named ("import mlx.core as mx", "mlx_lm.generate")
  bool native_runtime_named = false;  // llama.cpp, ggml or Ollama named ("ggml_cuda_pool_malloc", "Ollama")
  int64_t no_gpu_line = 0;  // a line telling the machine has no GPU ("GPU: none", "Is CUDA available: False", "CPU only"); 0: none
  int64_t unified_memory_line = 0;  // a line naming an NVIDIA Jetson board, whose GPU allocates from the board's shared RAM; 0: none
  int64_t accelerator_line = 0;     // a line naming an accelerator (GPU, CUDA, VRAM, TPU, NPU, MPS, a GPU's model, a card's number,
                                    // frames included); 0: none; -1: not read past the log's line 2000 (counts as named)
  int64_t illegal_access_line = 0;  // a line printing CUDA's "an illegal memory access was encountered"; 0: none
  int64_t host_allocator_line = 0;  // the report's line or one of the 12 after it naming CUDA's caching host allocator (pinned host memory); 0: none
  std::optional<MemorySummaryTable> memory_summary;  // torch.cuda.memory_summary()'s table nearest the report
                                                     // in its window, peaks not all zero; none: no table
  bool larger_gpu_named = false;  // a device of more than 80 GiB named anywhere (H200, B200, MI300X, ...)
  int64_t tensors_kept_line = 0;  // a line telling tensors (and their graphs) kept across steps: "total_loss += loss",
                                  // "the graph is kept", training_epoch_end's outputs (0: none)
  std::vector<Signal> signals;  // weighed evidence, in log order
  /// The whole log's resemblance to the labelled reports of each cause (word_prior.h), best
  /// first; diagnose_log() reads the log's words once and shares them with each report; null: not read.
  std::shared_ptr<const std::vector<WordPriorScore>> word_prior;
};

/// The whole log read once: every line's facts, for context_at(). Opaque.
struct LogEvidence;

/// Reads every line of `log_text` once (linear time, no std::regex): traceback frames, logged
/// settings, memory figures per step, statements and single words. Never throws on content.
std::shared_ptr<const LogEvidence> read_log_evidence(std::string_view log_text);

/// The context of the report at 1-based line `oom_line`: traceback and statements between the
/// previous report (`prev_oom_line`, 0 if none) and the next one (`next_oom_line`, 0 if none),
/// settings logged anywhere before, memory figures since the previous report.
LogContext context_at(const LogEvidence& evidence, int64_t oom_line, int64_t prev_oom_line = 0,
                      int64_t next_oom_line = 0);

/// read_log_evidence() + context_at() for one report (kept for callers with one OOM).
LogContext scan_context(std::string_view log_text, int64_t oom_line);

/// The run the OOM came from, when the user says it (CLI flags) or the trainer knows it.
struct RunSettings {
  ModelConfig model;
  TrainingSetup setup;
  int64_t capacity_bytes = 0;  // 0: take it from the message (allowed, else total capacity)
  RemedyResources resources;   // the hardware the fixes may use (default: one GPU, this machine's RAM)
  RemedyScope scope;           // the fixes that may be offered (default: all; oomkit train: what it implements)
};

struct DiagnoseOptions {
  std::optional<RunSettings> run;  // ties the findings to the estimator when set
  EstimateFn estimate;             // required when `run` is set
  bool sdpa_supported = false;     // this oomkit build's trainer accepts --attention sdpa (LibTorch >= 2.0)
  /// The word prior diagnose_log() reads the log with: nullptr = builtin_word_prior(); a model
  /// with no words turns it off (the corpus scorer's cross-validation trains its own per part).
  const WordPriorModel* word_prior = nullptr;
  /// The caller states that the text reports an out-of-memory failure (an issue's text that
  /// tells of it in other words, or not at all: "the first GPU's usage is much larger than the
  /// others"): when diagnose_log() finds no report, the whole text is read as one numberless
  /// report of family "described" at its first non-blank line. Off: such a text has no report.
  bool described = false;
};

/// A line of the log (or the message) that decided the ranking.
struct DecidingEvidence {
  int64_t line = 0;          // 1-based log line; the report's own line for message numbers
  OomCause cause = OomCause::kOther;
  double weight = 0.0;
  std::string what;
};

/// The answer for one OOM record.
struct Diagnosis {
  std::optional<OomRecord> oom;
  std::vector<Finding> findings;  // best first
  std::vector<std::string> notes; // caveats about the message (PID namespaces, cut-off text, ...)
  std::string framework;          // the framework the fixes are worded in ("pytorch" by default; "native" for an
                                  // accelerator's own runtime, "paddle" for PaddlePaddle's allocators, "numpy"
                                  // for numpy's failure in a log that never names PyTorch)
  bool framework_assumed = false; // "pytorch" only by default: neither the log nor the message's family names a
                                  // framework (a bare "Killed", an account in words), so the fixes' wording is a guess
  std::string phase;              // where it failed, when the log says ("" otherwise)
  std::vector<DecidingEvidence> deciding;  // the evidence behind the first finding, strongest first
  /// True when no finding reaches "high" or the runner-up is within 0.1 of it: the findings
  /// are then candidates, each with the probe that tells it apart, not a verdict.
  bool ambiguous() const;
  /// The first finding's category name, or "ambiguous".
  std::string verdict() const;
};

/// Classifies one OOM. With options.run, static memory, activation share and each fix's saving
/// come from options.estimate (throws InputError from the estimator for an invalid setup).
Diagnosis diagnose_oom(const OomRecord& oom, const LogContext& context, const DiagnoseOptions& options = {});

/// parse_oom_log() + read_log_evidence()/context_at() + diagnose_oom() for every OOM in
/// `log_text`; empty when the text holds no OOM report. Keeps every report: for a log of many,
/// for_each_diagnosis() hands them over one at a time.
std::vector<Diagnosis> diagnose_log(std::string_view log_text, const DiagnoseOptions& options = {});

/// The reports of diagnose_log(), in the same order, handed to `fn(index, count, diagnosis)` as
/// each is made (index 0-based, count the log's number of reports), so that a caller printing
/// them holds one at a time (`oomkit diagnose` on a log of 100k reports). Not called for a log
/// without a report. Exceptions from `fn` propagate.
void for_each_diagnosis(std::string_view log_text, const DiagnoseOptions& options,
                        const std::function<void(size_t index, size_t count, Diagnosis&& diagnosis)>& fn);

/// Adds the estimator's view of `run` (static memory vs capacity, activation share, the saving
/// of each fix) to `findings`. The fixes are the remedies catalogue's (find_remedies() with
/// run.resources and run.scope): the evidence lists each fix alone in the catalogue's order,
/// then the cheapest combinations that fit and the more-hardware plans; the finding's fix is the
/// catalogue's best plan. "Does not fit" is the catalogue's rule: peak > usable bytes. `capacity_bytes`
/// is the budget the run failed in; `oom` (may be null) lets allocated bytes be compared with
/// the estimate. When the estimate fits, causes outside the model's own step (leak, eval
/// without no-grad, fragmentation, other processes) move up. Used by diagnose_oom() and the
/// live playbook. Throws InputError from the estimator for an invalid model/setup, and when
/// capacity_bytes <= 0.
void add_estimate_findings(const RunSettings& run, const EstimateFn& estimate, int64_t capacity_bytes,
                           const OomRecord* oom, std::vector<Finding>& findings, std::vector<std::string>& notes);

/// A finding for `cause` with its default title, playbook step, fix and probe, and `score`.
Finding make_finding(OomCause cause, double score);

/// Sorts best first and merges findings of the same category (keeping the higher score and
/// all evidence). Keeps at most six; after a "high" verdict, only contenders scoring >= 0.3.
void rank_findings(std::vector<Finding>& findings);

}  // namespace oomkit
