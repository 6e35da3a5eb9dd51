// The flags of `oomkit train` (see train_flags.h). Torch-free: linked into `oomkit` and
// `oomkit-train`.
#include "train_flags.h"

#include <algorithm>
#include <cstdint>

#include "commands.h"
#include "oomkit/core/error.h"

namespace oomkit::cli {

CLI::App* add_train_flags(CLI::App& parent, TrainFlags& flags) {
  TrainOptions& o = flags.options;
  CLI::App* app = parent.add_subcommand("train", kTrainDescription);
  app->footer(kTrainExamples);
  app->add_option("--model", o.model, "Shipped model name (models/*.json, any case), a config.json, a folder holding one, or ORG/NAME in the Hugging Face cache")->type_name("NAME|FILE")->capture_default_str();
  app->add_option("--data", o.data,
                  "UTF-8 text (byte tokens), llm.c .bin (GPT-2 uint16 or Llama-3 uint32 tokens) or nanoGPT .bin, or a "
                  "quoted glob of shards read in sorted order as one stream ('dir/fineweb_train_*.bin'); default: the "
                  "license corpus")->type_name("FILE|GLOB");
  app->add_option("--val-data", o.val_data,
                  "Validation tokens from this file or glob (formats as --data) instead of the tail of --data")->type_name("FILE|GLOB");
  app->add_option("--run-dir", o.run_dir, "Output folder (default runs/<model>-<YYYYmmdd-HHMMSS>)")->type_name("DIR");
  app->add_option("--timeline", o.timeline, "Timeline JSONL path (default <run-dir>/timeline.jsonl; CSV beside it)")->type_name("FILE");
  app->add_option("--save", o.save, "Checkpoint path, written every --save-every steps and at the end")->type_name("FILE");
  app->add_option("--save-every", o.save_every, "Steps between checkpoints (0: only at the end)")->capture_default_str();
  app->add_option("--resume", o.resume, "Continue from a checkpoint written by --save")->type_name("FILE");
  app->add_option("--init-from", o.init_from,
                  "Start from a Hugging Face GPT-2 or LLaMA/Mistral snapshot folder: its config.json is the model, its "
                  "model.safetensors (or sharded index) the weights (instead of --model)")->type_name("DIR");
  app->add_option("--save-hf", o.save_hf,
                  "At the end, write the weights as model.safetensors + config.json (transformers' "
                  "GPT2LMHeadModel or LlamaForCausalLM layout) into this folder")->type_name("DIR");
  add_setup_flags(app, o.setup, flags.setup_flags, RunFlagsFor::kTrain);
  // LoRA fine-tuning (train/lora.h), named as `oomkit estimate` names it: the estimate of a LoRA
  // run counts exactly these adapters.
  add_lora_flags(app, o.setup.lora, flags.lora_targets, RunFlagsFor::kTrain);
  app->add_option("--steps", o.steps, "Optimizer steps in total")->capture_default_str();
  app->add_option("--lr", o.lr, "Peak learning rate")->capture_default_str();
  app->add_option("--warmup", o.warmup_steps,
                  "Linear warmup steps (not given: 20, or a tenth of --steps when that is fewer)")
      ->capture_default_str();
  app->add_option("--min-lr", o.min_lr, "Learning rate at the end of the cosine decay")->capture_default_str();
  app->add_option("--weight-decay", o.setup.weight_decay, "Decoupled weight decay (L2 for sgd)")->capture_default_str();
  app->add_option("--grad-clip", o.grad_clip, "Clip the global gradient norm (0: off)")->capture_default_str();
  app->add_option("--seed", o.seed, "Seed of the model init, data windows and dropout (>= 0)")
      ->check(non_negative_check())
      ->capture_default_str();
  app->add_option("--threads", o.setup.cpu_threads, "Intra-op threads (0: every core)")->capture_default_str();
  app->add_option("--dropout", o.dropout, "Override every dropout probability of the config, in [0, 1)")
      ->check(probability_check());
  app->add_option("--eval-every", o.eval_every, "Steps between validation passes (0: only at the end)")->capture_default_str();
  app->add_option("--eval-batches", o.eval_batches, "Validation batches per pass")->capture_default_str();
  app->add_option("--val-fraction", o.val_fraction, "Tail of the data held out for validation")->capture_default_str();
  app->add_option("--log-every", o.log_every, "Steps between progress lines (0: about 25 per run)")->capture_default_str();
  app->add_option("--mfu-probe-seconds", o.mfu_probe_seconds,
                  "Seconds of 512x512 matmuls (the run's compute dtype) timed at start as MFU's peak FLOP/s; 0: no MFU")
      ->check(non_negative_check())
      ->capture_default_str();
  app->add_option("--memory-limit", flags.memory_limit,
                  std::string("Memory budget (an allocation past it is an OOM; a budget below the model's parameter "
                              "bytes is refused), ") + kSizeHelp)
      ->check(size_check(SizeRule::kPositive));
  app->add_option("--on-oom", flags.on_oom,
                  "On an out-of-memory error in a step: abort (exit 3) | diagnose (playbook with live probes, "
                  "oom_report.json, exit 3) | recover (apply the cheapest fix a probe showed, continue the same step); "
                  "under data parallelism with --zero 2 the ranks decide together (recover: a smaller micro-batch on "
                  "every rank, same global batch)")
      ->check(one_of({"abort", "diagnose", "recover"}))
      ->capture_default_str();
  app->add_flag("--no-profile", flags.no_profile, "No phase marks and no timeline");
  app->add_option("--trace", flags.trace,
                  "Also write the timeline as a Chrome trace (Perfetto, chrome://tracing) to this path at the end")->type_name("FILE");
  app->add_option("--memory-snapshot", o.memory_snapshot,
                  "Record every allocation and free (with its op and phase) and write a memory_viz pickle "
                  "(torch.cuda.memory._dump_snapshot's layout; open it in https://pytorch.org/memory_viz) to this "
                  "path at the end, or after an OOM stop")->type_name("FILE");
  app->add_option("--memory-history", o.memory_history,
                  "With --memory-snapshot: trace entries kept, the newest (_record_memory_history's max_entries)")
      ->capture_default_str();
  app->add_flag("--json", flags.json, "Print the summary as JSON on stdout (progress lines go to stderr)");
  app->add_option("--nproc-per-node", flags.nproc_per_node,
                  "Data parallelism: start N local worker processes (ranks 0..N-1, as torchrun); a worker started "
                  "by torchrun/Slurm with RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT joins without it")
      ->check(CLI::Range(1, 1024));
  app->add_option("--backend", o.backend, "Data-parallel backend: gloo (CPU) | nccl (CUDA builds with NCCL)")
      ->capture_default_str();
  app->add_option("--bucket-cap-mb", o.bucket_cap_mb, "Gradient all-reduce bucket size in MiB (DDP's bucket_cap_mb)")
      ->capture_default_str();
  app->add_option("--zero", o.zero_stage,
                  "Data parallelism: 0 keeps the whole optimizer state on every rank (DDP); 1 shards it over the "
                  "ranks (ZeRO-1, as PyTorch's ZeroRedundancyOptimizer: each rank updates its share of the "
                  "parameters and broadcasts them); 2 also shards the gradients (ZeRO-2: after backward each "
                  "gradient is reduced to the rank that updates it and dropped by the others; no DDP buckets)")
      ->capture_default_str();
  app->add_option("--dist-timeout", o.dist_timeout_s,
                  "Seconds a rank waits for the others (rendezvous and every collective) before failing")
      ->capture_default_str();
  return app;
}

TrainOptions train_options_from_flags(const TrainFlags& flags, const CLI::App& train, bool quiet,
                                      const std::function<AutoPrecision(bool cuda)>& resolve_auto) {
  TrainOptions options = flags.options;
  if (!options.init_from.empty() && train.count("--model") > 0) {
    throw InputError("--init-from", "takes the model from the snapshot's config.json; drop --model");
  }
  if (!options.val_data.empty() && train.count("--val-fraction") > 0) {
    throw InputError("--val-fraction", "holds out the tail of --data; with --val-data the validation is that file",
                     "drop one of --val-fraction and --val-data");
  }
  // A short run (--steps 20) would be warmup from end to end with the default 20 steps of it.
  if (train.count("--warmup") == 0 && options.steps > 0) options.warmup_steps = std::min<int64_t>(options.warmup_steps, options.steps / 10);
  if (!flags.lora_targets.empty()) {
    if (options.setup.lora.rank == 0) throw InputError("--lora-targets", "needs --lora-rank > 0");
    options.setup.lora.targets = split_comma_list(flags.lora_targets);
  }
  SetupFlags setup_flags = flags.setup_flags;
  if (setup_flags.choices.precision == "auto") {
    if (!resolve_auto) throw InputError("--precision", "auto is resolved where the run happens (oomkit-train)");
    const AutoPrecision a = resolve_auto(setup_flags.device == "cuda");
    setup_flags.choices.precision = to_string(a.precision);
    options.precision_auto = format_auto_precision(a);
  }
  apply_setup_flags(setup_flags, options.setup);
  if (!flags.memory_limit.empty()) {
    options.memory_limit_bytes = parse_size_flag(flags.memory_limit, "--memory-limit", SizeRule::kPositive);
  }
  options.on_oom = parse_on_oom(flags.on_oom);
  options.profile = !flags.no_profile;
  options.progress_to_stderr = flags.json;
  options.quiet = quiet;
  return options;
}

}  // namespace oomkit::cli
