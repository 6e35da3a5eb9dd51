// `oomkit estimate`: the analytic training-memory estimate, its verdict against a GPU, the
// largest micro-batch and the chapter's model-size sweep.
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "commands.h"
#include "oomkit/core/error.h"
#include "oomkit/core/log.h"
#include "oomkit/core/model_config.h"
#include "oomkit/core/units.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/format.h"
#include "oomkit/estimate/gpus.h"
#include "oomkit/estimate/verdict.h"

namespace oomkit::cli {
namespace {

struct EstimateOptions {
  std::string model;
  int64_t batch_size = 1;
  std::optional<int64_t> seq_len;
  int64_t grad_accum = 1;
  std::string precision = "fp32";
  std::string optimizer = "adamw";
  int64_t adam8bit_block_size = 2048;
  std::string attention = "eager";
  std::string checkpointing = "none";
  int64_t checkpoint_every = 1;
  int64_t dp = 1;
  int zero = 0;
  int64_t tp = 1;
  int64_t pp = 1;
  bool offload_optimizer = false;
  bool offload_params = false;
  int64_t lora_rank = 0;
  std::string lora_targets;
  bool no_dropout = false;
  std::string overhead = "500MiB";
  std::string margin = "0.15";
  std::string device = "cuda";
  std::string gpu;
  std::string memory;
  std::string method = "detailed";
  int64_t gpus = 1;
  std::string host_memory;
  std::string link_bandwidth = "31.5GB";
  bool max_batch = false;
  bool sweep = false;
  bool json = false;
};

double parse_margin(const std::string& text) {
  std::string s = text;
  bool percent = !s.empty() && s.back() == '%';
  if (percent) s.pop_back();
  double v = 0.0;
  size_t used = 0;
  try {
    v = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != s.size()) throw InputError("--margin", "not a number: '" + text + "'", "write 0.15 or 15%");
  return percent ? v / 100.0 : v;
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string part;
  while (std::getline(in, part, ',')) {
    if (!part.empty()) out.push_back(part);
  }
  return out;
}

TrainingSetup make_setup(const EstimateOptions& o, const ModelConfig* model) {
  TrainingSetup s;
  s.micro_batch_size = o.batch_size;
  s.seq_len = o.seq_len ? *o.seq_len : (model ? std::min<int64_t>(1024, model->n_positions) : 1024);
  s.gradient_accumulation_steps = o.grad_accum;
  s.precision = parse_precision(o.precision);
  s.optimizer = parse_optimizer(o.optimizer);
  s.adam8bit_block_size = o.adam8bit_block_size;
  s.attention = parse_attention(o.attention);
  s.checkpointing = parse_checkpointing(o.checkpointing);
  s.checkpoint_every = o.checkpoint_every;
  s.dropout = !o.no_dropout;
  s.parallel.data_parallel = o.dp;
  s.parallel.zero_stage = o.zero;
  s.parallel.tensor_parallel = o.tp;
  s.parallel.pipeline_parallel = o.pp;
  s.parallel.offload_optimizer = o.offload_optimizer;
  s.parallel.offload_parameters = o.offload_params;
  s.lora.rank = o.lora_rank;
  if (!o.lora_targets.empty()) s.lora.targets = split_commas(o.lora_targets);
  if (o.device != "cuda" && o.device != "cpu") {
    throw InputError("--device", "unknown value '" + o.device + "'; valid: cuda, cpu");
  }
  s.cuda = o.device == "cuda";
  s.overhead_bytes = parse_bytes(o.overhead, "--overhead");
  s.safety_margin = parse_margin(o.margin);
  if (o.method == "detailed") s.method = EstimateMethod::kDetailed;
  else if (o.method == "chapter") s.method = EstimateMethod::kChapter;
  else throw InputError("--method", "unknown value '" + o.method + "'; valid: detailed, chapter");
  if (o.zero < 0 || o.zero > 3) throw InputError("--zero", "must be 0, 1, 2 or 3, got " + std::to_string(o.zero));
  return s;
}

// The hardware the remedies may use: --gpus, --host-memory (default: this machine's RAM),
// --link-bandwidth (bytes per second, e.g. 31.5GB for PCIe 4.0 x16).
RemedyResources resources(const EstimateOptions& o) {
  RemedyResources r;
  if (o.gpus < 1) throw InputError("--gpus", "must be >= 1, got " + std::to_string(o.gpus));
  r.gpus = o.gpus;
  if (!o.host_memory.empty()) {
    r.host_memory_bytes = parse_bytes(o.host_memory, "--host-memory");
    if (r.host_memory_bytes <= 0) throw InputError("--host-memory", "must be positive");
  }
  const int64_t link = parse_bytes(o.link_bandwidth, "--link-bandwidth");
  if (link <= 0) throw InputError("--link-bandwidth", "must be positive (bytes per second, e.g. 31.5GB)");
  r.link_bytes_per_second = static_cast<double>(link);
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
    const int64_t bytes = parse_bytes(o.memory, "--memory");
    if (bytes <= 0) throw InputError("--memory", "must be positive");
    return std::make_pair(bytes, "--memory " + o.memory);
  }
  return std::nullopt;
}

int run_estimate(const EstimateOptions& o) {
  const auto cap = capacity(o);
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
  if (o.json) {
    if (verdict) fmt::print("{}\n", verdict_to_json(e, *verdict, max_batch, curve));
    else fmt::print("{}\n", estimate_to_json(e));
    return kExitOk;
  }
  fmt::print("{}", format_estimate(e));
  fmt::print("{}", format_method_comparison(e, other));
  if (verdict) fmt::print("{}", format_verdict(*verdict, cap->second, s.safety_margin));
  if (o.max_batch) fmt::print("{}", format_batch_curve(max_batch, curve, verdict->usable_bytes));
  return kExitOk;
}

}  // namespace

Subcommand add_estimate_command(CLI::App& parent) {
  auto o = std::make_shared<EstimateOptions>();
  CLI::App* app = parent.add_subcommand("estimate", "Estimate training memory (per GPU) and whether it fits");
  app->add_option("--model", o->model, "Hugging Face config.json path or shipped name (gpt2, llama-2-7b, ...)");
  app->add_option("--batch-size", o->batch_size, "Micro-batch size B (sequences)")->capture_default_str();
  app->add_option("--seq-len", o->seq_len, "Sequence length T (default min(1024, n_positions))");
  app->add_option("--grad-accum", o->grad_accum, "Gradient accumulation steps")->capture_default_str();
  app->add_option("--precision", o->precision, "fp32|bf16-mixed|fp16-mixed|bf16|chapter")->capture_default_str();
  app->add_option("--optimizer", o->optimizer, "adamw|adam|sgd|sgd-momentum|lion|adafactor|adam-8bit")->capture_default_str();
  app->add_option("--adam8bit-block-size", o->adam8bit_block_size, "8-bit Adam quantization block (elements)")->capture_default_str();
  app->add_option("--attention", o->attention, "eager|sdpa|flash")->capture_default_str();
  app->add_option("--checkpointing", o->checkpointing, "Activation checkpointing: none|full|selective")->capture_default_str();
  app->add_option("--checkpoint-every", o->checkpoint_every, "With full: checkpoint blocks i with i % K == 0")->capture_default_str();
  app->add_option("--dp", o->dp, "Data-parallel GPUs N")->capture_default_str();
  app->add_option("--zero", o->zero, "ZeRO stage 0-3 (2: FSDP shard-grad-op, 3: full-shard)")->capture_default_str();
  app->add_option("--tp", o->tp, "Tensor-parallel degree t")->capture_default_str();
  app->add_option("--pp", o->pp, "Pipeline stages p (1F1B; reports the first stage)")->capture_default_str();
  app->add_flag("--offload-optimizer", o->offload_optimizer, "Optimizer state on the CPU");
  app->add_flag("--offload-params", o->offload_params, "Parameters on the CPU between uses");
  app->add_option("--lora-rank", o->lora_rank, "LoRA rank r (0: off)")->capture_default_str();
  app->add_option("--lora-targets", o->lora_targets, "Comma list: q,k,v,o,gate,up,down (gpt2 also c_attn,c_proj,c_fc,mlp_c_proj)");
  app->add_flag("--no-dropout", o->no_dropout, "Ignore the config's dropout probabilities");
  app->add_option("--overhead", o->overhead, "CUDA context + workspace (e.g. 500MiB)")->capture_default_str();
  app->add_option("--margin", o->margin, "Safety margin kept free (0.15 or 15%)")->capture_default_str();
  app->add_option("--device", o->device, "cuda|cpu (cpu: no context overhead)")->capture_default_str();
  app->add_option("--gpu", o->gpu, "GPU from `oomkit gpus` (e.g. a100-80gb)");
  app->add_option("--memory", o->memory, "Capacity instead of --gpu: 24GiB or 24GB");
  app->add_option("--method", o->method, "detailed|chapter")->capture_default_str();
  app->add_option("--gpus", o->gpus, "GPUs available to the fixes (ZeRO shards over them)")->capture_default_str();
  app->add_option("--host-memory", o->host_memory, "Host RAM available for offload (default: this machine's)");
  app->add_option("--link-bandwidth", o->link_bandwidth, "Link bytes per second for the cost of ZeRO/offload traffic")
      ->capture_default_str();
  app->add_flag("--max-batch", o->max_batch, "Find the largest micro-batch that fits (needs --gpu or --memory)");
  app->add_flag("--sweep", o->sweep, "The chapter's model-size table (all shipped models unless --model)");
  app->add_flag("--json", o->json, "JSON with every item in bytes");
  return {app, [o]() { return run_estimate(*o); }};
}

}  // namespace oomkit::cli
