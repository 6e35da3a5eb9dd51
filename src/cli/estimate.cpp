// `oomkit estimate`: the analytic training-memory estimate, its verdict against a GPU, the
// largest micro-batch and the chapter's model-size sweep.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "run_flags.h"
#include "oomkit/core/error.h"
#include "oomkit/core/log.h"
#include "oomkit/core/model_config.h"
#include "oomkit/core/units.h"
#include "oomkit/estimate/communication.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/format.h"
#include "oomkit/estimate/framework.h"
#include "oomkit/estimate/gpus.h"
#include "oomkit/estimate/inference.h"
#include "oomkit/estimate/precision_auto.h"
#include "oomkit/estimate/quantization.h"
#include "oomkit/estimate/verdict.h"

namespace oomkit::cli {
namespace {

struct EstimateOptions {
  std::string model;
  // -b, -t, --grad-accum, --checkpoint-every (run_flags.h); T's default depends on the model
  TrainingSetup setup;
  bool seq_len_given = false;
  SetupFlags setup_flags{{"fp32", "adamw", "eager", "none"}, "cuda"};  // the enum flags and --device
  int64_t adam8bit_block_size = 2048;
  int64_t dp = 1;
  int zero = 0;
  int64_t tp = 1;
  int64_t pp = 1;
  bool offload_optimizer = false;
  bool offload_params = false;
  LoraConfig lora;  // --lora-rank, --lora-alpha (targets from lora_targets)
  std::string lora_targets;
  bool no_dropout = false;
  std::string overhead = "500MiB";
  std::string margin = "0.15";
  std::string gpu;
  std::string memory;
  std::string method = "detailed";
  int64_t gpus = 1;
  std::string host_memory;
  std::string link_bandwidth = "31.5GB";
  double link_gbps = 0.0;  // --link-gbps (gigabits per second), when link_gbps_given
  bool link_gbps_given = false;
  bool max_batch = false;
  bool check = false;
  bool sweep = false;
  bool json = false;
  std::string framework = "oomkit";
  bool sequence_parallel = false;
  bool distributed_optimizer = false;
  int64_t vocab_divisible_by = 128;
  std::string normalization = "auto";
  std::string position_embedding = "auto";
  double hidden_dropout = -1.0;
  double attention_dropout = -1.0;
  int64_t reduce_bucket_size = 500'000'000;
  int64_t prefetch_bucket_size = 50'000'000;
  int64_t max_live_parameters = 1'000'000'000;
  int64_t persistence_threshold = 100'000;
  bool no_zero_init = false;
  int64_t gpus_per_node = 0;
  std::string quantize_base = "none";
  std::string mode = "training";
  int64_t max_new_tokens = 128;
  std::string kv_cache_dtype = "auto";
  bool max_context = false;
  bool no_double_quant = false;
};

double parse_margin(const std::string& text) {
  std::string s = text;
  bool percent = !s.empty() && s.back() == '%';
  if (percent) s.pop_back();
  const std::optional<double> v = parse_whole_double(s);
  if (!v) throw InputError("--margin", "not a number: '" + text + "'", "write 0.15 or 15%");
  return percent ? *v / 100.0 : *v;
}

TrainingSetup make_setup(const EstimateOptions& o, const ModelConfig* model) {
  TrainingSetup s = o.setup;  // B, T, accumulation, checkpoint_every as given
  if (!o.seq_len_given) s.seq_len = model ? std::min<int64_t>(1024, model->n_positions) : 1024;
  apply_setup_flags(o.setup_flags, s);
  s.adam8bit_block_size = o.adam8bit_block_size;
  s.dropout = !o.no_dropout;
  s.parallel.data_parallel = o.dp;
  s.parallel.zero_stage = o.zero;
  s.parallel.tensor_parallel = o.tp;
  s.parallel.pipeline_parallel = o.pp;
  s.parallel.offload_optimizer = o.offload_optimizer;
  s.parallel.offload_parameters = o.offload_params;
  s.lora.rank = o.lora.rank;
  s.lora.alpha = o.lora.alpha;
  if (!o.lora_targets.empty()) s.lora.targets = split_comma_list(o.lora_targets);
  s.overhead_bytes = parse_size_flag(o.overhead, "--overhead", SizeRule::kZeroAllowed);
  s.safety_margin = parse_margin(o.margin);
  if (o.method == "detailed") s.method = EstimateMethod::kDetailed;
  else if (o.method == "chapter") s.method = EstimateMethod::kChapter;
  else throw InputError("--method", "unknown value '" + o.method + "'; valid: detailed, chapter");
  s.framework = parse_framework(o.framework);
  s.megatron.sequence_parallel = o.sequence_parallel;
  s.megatron.make_vocab_size_divisible_by = o.vocab_divisible_by;
  s.megatron.normalization = o.normalization;
  s.megatron.position_embedding = o.position_embedding;
  s.megatron.hidden_dropout = o.hidden_dropout;
  s.megatron.attention_dropout = o.attention_dropout;
  for (const auto& [flag, v] : {std::pair<const char*, double>{"--hidden-dropout", o.hidden_dropout}, {"--attention-dropout", o.attention_dropout}}) {
    if (v == -1.0) continue;
    if (s.framework != Framework::kMegatron) throw InputError(flag, "needs --framework megatron");
    if (!(v >= 0.0 && v < 1.0)) throw InputError(flag, "must be in [0, 1), got " + std::to_string(v));
  }
  if (o.distributed_optimizer) {
    if (s.framework != Framework::kMegatron) throw InputError("--use-distributed-optimizer", "needs --framework megatron");
    if (o.zero > 1) throw InputError("--use-distributed-optimizer", "is ZeRO-1 over DP; --zero " + std::to_string(o.zero) + " contradicts it");
    s.parallel.zero_stage = 1;
  }
  s.deepspeed.reduce_bucket_size = o.reduce_bucket_size;
  s.deepspeed.stage3_prefetch_bucket_size = o.prefetch_bucket_size;
  s.deepspeed.stage3_max_live_parameters = o.max_live_parameters;
  s.deepspeed.stage3_param_persistence_threshold = o.persistence_threshold;
  s.deepspeed.zero_init = !o.no_zero_init;
  s.deepspeed.gpus_per_node = o.gpus_per_node;
  for (const auto& [flag, v] : {std::pair<const char*, int64_t>{"--reduce-bucket-size", o.reduce_bucket_size},
                                {"--stage3-prefetch-bucket-size", o.prefetch_bucket_size},
                                {"--stage3-max-live-parameters", o.max_live_parameters},
                                {"--stage3-param-persistence-threshold", o.persistence_threshold},
                                {"--gpus-per-node", o.gpus_per_node}}) {
    if (v < 0) throw InputError(flag, "must be >= 0, got " + std::to_string(v));
  }
  s.quantization.base = parse_base_quantization(o.quantize_base);
  s.quantization.double_quant = !o.no_double_quant;
  if (o.no_double_quant && s.quantization.base != BaseQuantization::kNf4) {
    throw InputError("--no-double-quant", "applies to --quantize-base nf4");
  }
  if (o.vocab_divisible_by < 1) throw InputError("--make-vocab-size-divisible-by", "must be >= 1");
  if (s.framework != Framework::kMegatron) {
    if (o.sequence_parallel) throw InputError("--sequence-parallel", "needs --framework megatron");
    if (o.normalization != "auto") throw InputError("--normalization", "needs --framework megatron");
    if (o.position_embedding != "auto") throw InputError("--position-embedding-type", "needs --framework megatron");
  }
  if (o.zero < 0 || o.zero > 3) throw InputError("--zero", "must be 0, 1, 2 or 3, got " + std::to_string(o.zero));
  return s;
}

// The link's bytes per second: --link-gbps (Gb/s, as NICs and InfiniBand are rated: 400 -> 50e9)
// or --link-bandwidth (a size per second, 31.5GB for PCIe 4.0 x16).
double link_bytes_per_second(const EstimateOptions& o) {
  if (o.link_gbps_given) {
    if (!(o.link_gbps >= 1e-3) || !std::isfinite(o.link_gbps) || o.link_gbps > 1e9) {
      throw InputError("--link-gbps", fmt::format("must be gigabits per second in [0.001, 1e9], got {}", o.link_gbps));
    }
    return o.link_gbps * 1e9 / 8.0;
  }
  return static_cast<double>(parse_size_flag(o.link_bandwidth, "--link-bandwidth", SizeRule::kPositive));
}

// The hardware the remedies may use: --gpus, --host-memory (default: this machine's RAM),
// --link-bandwidth (bytes per second, e.g. 31.5GB for PCIe 4.0 x16).
RemedyResources resources(const EstimateOptions& o) {
  RemedyResources r;
  if (o.gpus < 1) throw InputError("--gpus", "must be >= 1, got " + std::to_string(o.gpus));
  r.gpus = o.gpus;
  if (!o.host_memory.empty()) {
    r.host_memory_bytes = parse_size_flag(o.host_memory, "--host-memory", SizeRule::kPositive);
  }
  r.link_bytes_per_second = link_bytes_per_second(o);
  return r;
}

// Capacity from --gpu or --memory; nullopt when neither is given.
std::optional<std::pair<int64_t, std::string>> capacity(const EstimateOptions& o) {
  if (!o.gpu.empty() && !o.memory.empty()) throw InputError("--memory", "give --gpu or --memory, not both");
  if (!o.gpu.empty()) {
    const GpuSpec& g = find_gpu(o.gpu);
    return std::make_pair(g.capacity_bytes, g.name + " (" + g.stated + ")");
  }
  if (!o.memory.empty()) {
    const int64_t bytes = parse_size_flag(o.memory, "--memory", SizeRule::kPositive);
    return std::make_pair(bytes, "--memory " + o.memory);
  }
  return std::nullopt;
}

int run_inference(const EstimateOptions& o, const std::optional<std::pair<int64_t, std::string>>& cap) {
  if (o.model.empty()) throw InputError("--model", "required (a config.json path or a shipped name such as gpt2)");
  const ModelConfig model = resolve_model_config(o.model);
  InferenceSetup s;
  s.batch_size = o.setup.micro_batch_size;
  s.prompt_len = o.seq_len_given ? o.setup.seq_len : std::min<int64_t>(128, model.n_positions / 2);
  s.max_new_tokens = o.max_new_tokens;
  s.precision = parse_precision(o.setup_flags.choices.precision);
  if (o.kv_cache_dtype == "auto") s.kv_cache_bytes_per_element = 0;
  else if (o.kv_cache_dtype == "fp32") s.kv_cache_bytes_per_element = 4;
  else if (o.kv_cache_dtype == "bf16" || o.kv_cache_dtype == "fp16") s.kv_cache_bytes_per_element = 2;
  else if (o.kv_cache_dtype == "fp8" || o.kv_cache_dtype == "int8") s.kv_cache_bytes_per_element = 1;
  else throw InputError("--kv-cache-dtype", "unknown value '" + o.kv_cache_dtype + "'; valid: auto, fp32, bf16, fp16, fp8, int8");
  s.quantization.base = parse_base_quantization(o.quantize_base);
  s.quantization.double_quant = !o.no_double_quant;
  s.cuda = o.setup_flags.device == "cuda";
  s.overhead_bytes = parse_size_flag(o.overhead, "--overhead", SizeRule::kZeroAllowed);
  const double margin = parse_margin(o.margin);
  const InferenceEstimate e = estimate_inference(model, s);
  if ((o.max_batch || o.max_context) && !cap) {
    throw InputError(o.max_batch ? "--max-batch" : "--max-context", "needs a capacity", "add --gpu NAME or --memory SIZE");
  }
  const int64_t mb = o.max_batch ? max_inference_batch(model, s, cap->first, margin) : -1;
  const int64_t mc = o.max_context ? max_inference_context(model, s, cap->first, margin) : -1;
  if (o.json) {
    fmt::print("{}\n", inference_to_json(e, mb, mc));
    return kExitOk;
  }
  fmt::print("{}", format_inference(e));
  if (cap) {
    const int64_t usable = usable_bytes(cap->first, margin);
    fmt::print("\n{}: usable {} at margin {:.0f}%: {} (headroom {})\n", cap->second, format_bytes(usable), margin * 100,
               e.peak_bytes <= usable ? "fits" : "does NOT fit", format_bytes(usable - e.peak_bytes));
  }
  if (o.max_batch) {
    fmt::print("largest batch that fits: {}\n", mb > 0 ? std::to_string(mb) : "none (even a batch of 1 does not fit)");
  }
  if (o.max_context) {
    fmt::print("largest context (prompt + {} new tokens) that fits: {}\n", s.max_new_tokens,
               mc > 0 ? std::to_string(mc)
                      : fmt::format("none (a 1-token prompt + {} new tokens {})", s.max_new_tokens,
                                    s.max_new_tokens + 1 > model.n_positions
                                        ? fmt::format("exceeds the model's {} positions", model.n_positions)
                                        : std::string("does not fit")));
  }
  return kExitOk;
}

// `--precision auto` as `oomkit train` resolves it (precision_auto.h): on --device cpu this
// machine's CPU decides; on --device cuda the GPU named by --gpu (its compute capability).
AutoPrecision resolve_estimate_auto_precision(const EstimateOptions& o) {
  AutoPrecisionInput in = o.setup_flags.device == "cuda" ? AutoPrecisionInput{} : this_cpu_auto_precision_input();
  if (o.setup_flags.device == "cuda") {
    if (o.gpu.empty()) {
      throw InputError("--precision", "auto on --device cuda needs the GPU whose compute capability decides",
                       "add --gpu NAME, or --device cpu to resolve it on this machine's CPU");
    }
    in.gpu = true;
    in.gpu_capability = gpu_compute_capability(o.gpu);
    in.gpu_name = find_gpu(o.gpu).name;
  }
  return resolve_auto_precision(in);
}

int run_estimate(const EstimateOptions& given) {
  EstimateOptions o = given;
  // Checked first, whatever else is given: a bad --gpus is a bad input even where no fix is asked for.
  if (o.gpus < 1) throw InputError("--gpus", "must be >= 1, got " + std::to_string(o.gpus));
  // Checked when given, whether or not a table or a fix uses it.
  if (o.link_gbps_given) (void)link_bytes_per_second(o);
  if (o.setup_flags.choices.precision == "auto") {
    const AutoPrecision a = resolve_estimate_auto_precision(o);
    o.setup_flags.choices.precision = to_string(a.precision);
    if (!o.json) fmt::print("{}\n", format_auto_precision(a));
  }
  const auto cap = capacity(o);
  if (o.mode == "inference") return run_inference(o, cap);
  if (o.mode != "training") throw InputError("--mode", "unknown value '" + o.mode + "'; valid: training, inference");
  if (o.sweep) {
    const TrainingSetup s = make_setup(o, nullptr);
    std::vector<ModelConfig> models = o.model.empty() ? sweep_models() : std::vector<ModelConfig>{resolve_model_config(o.model)};
    const auto rows = sweep(models, s);
    if (o.json) fmt::print("{}\n", sweep_to_json(rows));
    else fmt::print("{}", format_sweep(rows, s));
    return kExitOk;
  }
  if (o.model.empty()) throw InputError("--model", "required (a config.json path or a shipped name such as gpt2)");
  const ModelConfig model = resolve_model_config(o.model);
  const TrainingSetup s = make_setup(o, &model);
  const Estimate e = estimate_memory(model, s);
  TrainingSetup other_setup = s;
  other_setup.method = s.method == EstimateMethod::kDetailed ? EstimateMethod::kChapter : EstimateMethod::kDetailed;
  const Estimate other = estimate_memory(model, other_setup);

  if (o.max_batch && !cap) throw InputError("--max-batch", "needs a capacity", "add --gpu NAME or --memory SIZE");
  if (o.check && !cap) throw InputError("--check", "needs a capacity", "add --gpu NAME or --memory SIZE");
  std::optional<Verdict> verdict;
  int64_t max_batch = -1;
  std::vector<BatchPoint> curve;
  if (cap) {
    verdict = judge(model, e, cap->first, resources(o));
    if (o.max_batch) {
      max_batch = max_micro_batch(model, s, cap->first);
      curve = batch_curve(model, s, cap->first);
    }
  }
  // Data parallelism: what each ZeRO stage moves per step beside what it saves (communication.h).
  std::optional<CommunicationTable> comm;
  if (s.parallel.data_parallel > 1 && s.parallel.tensor_parallel == 1 && s.parallel.pipeline_parallel == 1) {
    comm = communication_table(model, s, link_bytes_per_second(o));
  }
  if (o.json) {
    std::string text = verdict ? verdict_to_json(e, *verdict, max_batch, curve) : estimate_to_json(e);
    if (comm) {
      nlohmann::json j = nlohmann::json::parse(text);
      j["communication"] = communication_to_json(*comm);
      text = j.dump(2);
    }
    fmt::print("{}\n", text);
    return o.check && !verdict->fits ? kExitDoesNotFit : kExitOk;
  }
  fmt::print("{}", format_estimate(e));
  // The chapter method is oomkit's own formula; the framework profiles have their own terms.
  if (s.framework == Framework::kOomkit || s.framework == Framework::kHf) fmt::print("{}", format_method_comparison(e, other));
  if (verdict) fmt::print("{}", format_verdict(*verdict, cap->second, s.safety_margin));
  if (o.max_batch) fmt::print("{}", format_batch_curve(max_batch, curve, verdict->usable_bytes));
  if (comm) fmt::print("{}", format_communication(*comm));
  if (!comm && s.parallel.data_parallel > 1) {
    fmt::print("\n(no data-parallel communication table: the traffic of --tp/--pp groups is not modelled)\n");
  }
  return o.check && !verdict->fits ? kExitDoesNotFit : kExitOk;
}

}  // namespace

Subcommand add_estimate_command(CLI::App& parent) {
  auto o = std::make_shared<EstimateOptions>();
  CLI::App* app = parent.add_subcommand("estimate", "Estimate training memory (per GPU) and whether it fits");
  app->add_option("--model", o->model, "A config.json, a folder holding one, a shipped name (gpt2, llama-2-7b, ...; any case) or ORG/NAME in the Hugging Face cache")->type_name("NAME|FILE");
  add_setup_flags(app, o->setup, o->setup_flags, RunFlagsFor::kEstimate);
  app->add_option("--adam8bit-block-size", o->adam8bit_block_size, "8-bit Adam quantization block (elements)")->capture_default_str();
  app->add_option("--dp", o->dp, "Data-parallel GPUs N")->capture_default_str();
  app->add_option("--zero", o->zero, "ZeRO stage 0-3 (2: FSDP shard-grad-op, 3: full-shard)")->capture_default_str();
  app->add_option("--tp", o->tp, "Tensor-parallel degree t")->capture_default_str();
  app->add_option("--pp", o->pp, "Pipeline stages p (1F1B; reports the first stage)")->capture_default_str();
  app->add_flag("--offload-optimizer", o->offload_optimizer, "Optimizer state on the CPU");
  app->add_flag("--offload-params", o->offload_params, "Parameters on the CPU between uses");
  add_lora_flags(app, o->lora, o->lora_targets, RunFlagsFor::kEstimate);
  app->add_flag("--no-dropout", o->no_dropout, "Ignore the config's dropout probabilities");
  app->add_option("--overhead", o->overhead, std::string("CUDA context + workspace (0: none), ") + kSizeHelp)
      ->check(size_check(SizeRule::kZeroAllowed))
      ->capture_default_str();
  app->add_option("--margin", o->margin, "Safety margin kept free (0.15 or 15%)")->capture_default_str();
  app->add_option("--gpu", o->gpu, "GPU from `oomkit gpus` (e.g. a100-sxm4-80gb)");
  app->add_option("--memory", o->memory, std::string("Capacity instead of --gpu, ") + kSizeHelp)
      ->check(size_check(SizeRule::kPositive));
  app->add_option("--method", o->method, "Activation formula (chapter: (34d + 5hT)·B·T·L)")->check(one_of({"detailed", "chapter"}))->capture_default_str();
  app->add_option("--gpus", o->gpus, "GPUs available to the fixes (ZeRO shards over them)")->capture_default_str();
  app->add_option("--host-memory", o->host_memory,
                  std::string("Host RAM available for offload (default: this machine's), ") + kSizeHelp)
      ->check(size_check(SizeRule::kPositive));
  app->add_option("--link-bandwidth", o->link_bandwidth,
                  std::string("Link bytes per second for the cost of ZeRO/offload traffic, ") + kSizeHelp)
      ->check(size_check(SizeRule::kPositive))
      ->capture_default_str();
  app->add_option("--link-gbps", o->link_gbps,
                  "The link in gigabits per second instead of --link-bandwidth (400 for 400 Gb/s InfiniBand)")
      ->excludes("--link-bandwidth");
  app->add_flag("--max-batch", o->max_batch, "Find the largest micro-batch that fits (needs --gpu or --memory)");
  app->add_flag("--check", o->check,
                "Exit 4 when the run does not fit the --gpu/--memory capacity (0 when it fits)");
  app->add_flag("--sweep", o->sweep, "The chapter's model-size table (all shipped models unless --model)");
  app->add_flag("--json", o->json, "JSON with every item in bytes");
  app->add_option("--framework", o->framework, "Whose memory layout")->check(one_of({"oomkit", "hf", "megatron", "deepspeed"}))->capture_default_str();
  app->add_flag("--sequence-parallel", o->sequence_parallel, "megatron: sequence parallelism over the TP group");
  app->add_flag("--use-distributed-optimizer", o->distributed_optimizer, "megatron: fp32 master + Adam sharded over DP (= --zero 1)");
  app->add_option("--make-vocab-size-divisible-by", o->vocab_divisible_by, "megatron: V padded to a multiple of this times TP")->capture_default_str();
  app->add_option("--normalization", o->normalization, "megatron: auto|layernorm|rmsnorm (auto: the config's family)")->capture_default_str();
  app->add_option("--position-embedding-type", o->position_embedding, "megatron: auto|learned|rope")->capture_default_str();
  app->add_option("--reduce-bucket-size", o->reduce_bucket_size, "deepspeed: reduce_bucket_size (elements)")->capture_default_str();
  app->add_option("--stage3-prefetch-bucket-size", o->prefetch_bucket_size, "deepspeed: stage3_prefetch_bucket_size (elements)")->capture_default_str();
  app->add_option("--stage3-max-live-parameters", o->max_live_parameters, "deepspeed: stage3_max_live_parameters (elements)")->capture_default_str();
  app->add_option("--stage3-param-persistence-threshold", o->persistence_threshold, "deepspeed: stage3_param_persistence_threshold (elements)")->capture_default_str();
  app->add_flag("--no-zero-init", o->no_zero_init, "deepspeed: the model is built whole on every rank (no deepspeed.zero.Init)");
  app->add_option("--gpus-per-node", o->gpus_per_node, "deepspeed: GPUs per node (default: all --dp GPUs on one node)");
  app->add_option("--mode", o->mode, "Training or inference memory")->check(one_of({"training", "inference"}))->capture_default_str();
  app->add_option("--max-new-tokens", o->max_new_tokens, "inference: tokens generated after the prompt (--seq-len)")->capture_default_str();
  app->add_option("--kv-cache-dtype", o->kv_cache_dtype, "inference: KV cache element type (auto: the precision's)")->check(one_of({"auto", "fp32", "bf16", "fp16", "fp8", "int8"}))->capture_default_str();
  app->add_flag("--max-context", o->max_context, "inference: the largest prompt + new tokens that fits (needs --gpu or --memory)");
  app->add_option("--quantize-base", o->quantize_base, "Frozen LoRA base: nf4 (QLoRA) or int8 (LLM.int8())")->check(one_of({"none", "nf4", "int8"}))->capture_default_str();
  app->add_flag("--no-double-quant", o->no_double_quant, "nf4 without double quantization (4.5 instead of 4.127 bits/param)");
  app->add_option("--hidden-dropout", o->hidden_dropout, "megatron: hidden dropout p (default: the config's)");
  app->add_option("--attention-dropout", o->attention_dropout, "megatron: attention dropout p (default: the config's)");
  app->footer(
      "Examples:\n"
      "  oomkit estimate --model llama-2-7b --gpu a100-sxm4-80gb --batch-size 1 --seq-len 4096\n"
      "  oomkit estimate --model gpt2-xl --gpu rtx-4090 --precision bf16-mixed --checkpointing full --max-batch\n"
      "  oomkit estimate --model llama-3-8b --gpu h100-sxm --precision bf16-mixed --dp 8 --zero 3 --check\n"
      "  oomkit estimate --model llama-2-7b --lora-rank 16 --quantize-base nf4 --gpu t4\n"
      "  oomkit estimate --model mistral-7b --mode inference --gpu l4 --max-context\n"
      "  oomkit estimate --sweep\n"
      "  oomkit estimate --model gpt2 --gpu t4 --json > estimate.json   # then: oomkit report estimate.json\n"
      "--model also takes a folder holding config.json (a Hugging Face snapshot) and ORG/NAME from the local\n"
      "Hugging Face cache ($HF_HUB_CACHE, $HF_HOME/hub or ~/.cache/huggingface/hub; nothing is downloaded).");
  return {app, [o, app]() {
            o->seq_len_given = app->count("--seq-len") > 0;
            o->link_gbps_given = app->count("--link-gbps") > 0;
            return run_estimate(*o);
          }};
}

}  // namespace oomkit::cli
