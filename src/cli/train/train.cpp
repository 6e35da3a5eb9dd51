// `oomkit train` (the oomkit-train executable): binds flags to oomkit::TrainOptions and calls oomkit::run_training().
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

#include "commands.h"
#include "run_flags.h"
#include "oomkit/core/error.h"
#include "oomkit/core/log.h"
#include "oomkit/core/units.h"
#include "oomkit/report/chrome_trace.h"
#include "oomkit/core/executable.h"
#include "oomkit/estimate/precision_auto.h"
#include "oomkit/profile/memory_backend.h"
#include "oomkit/train/launch.h"
#include "oomkit/train/trainer.h"

namespace oomkit::cli {

namespace {

struct TrainFlags {
  TrainOptions options;
  RunChoices choices{"fp32", "adamw", "eager", "none"};  // --precision, --optimizer, --attention, --checkpointing
  std::string memory_limit;
  std::string on_oom = "diagnose";
  std::string trace;  // --trace: Chrome trace of the timeline, written when the run ends
  bool no_profile = false;
  bool json = false;
  int nproc_per_node = 0;  // --nproc-per-node: > 1 starts that many local workers (launch.h)
};

}  // namespace

Subcommand add_train_command(CLI::App& parent, std::vector<std::string> argv) {
  auto flags = std::make_shared<TrainFlags>();
  TrainOptions& o = flags->options;
  CLI::App* app = parent.add_subcommand("train", kTrainDescription);
  app->footer(kTrainExamples);
  app->add_option("--model", o.model, "Shipped model name (models/*.json, any case), a config.json, a folder holding one, or ORG/NAME in the Hugging Face cache")->capture_default_str();
  app->add_option("--data", o.data,
                  "UTF-8 text (byte tokens), llm.c .bin (GPT-2 uint16 or Llama-3 uint32 tokens) or nanoGPT .bin, or a "
                  "quoted glob of shards read in sorted order as one stream ('dir/fineweb_train_*.bin'); default: the "
                  "license corpus");
  app->add_option("--val-data", o.val_data,
                  "Validation tokens from this file or glob (formats as --data) instead of the tail of --data");
  app->add_option("--run-dir", o.run_dir, "Output folder (default runs/<model>-<YYYYmmdd-HHMMSS>)");
  app->add_option("--timeline", o.timeline, "Timeline JSONL path (default <run-dir>/timeline.jsonl; CSV beside it)");
  app->add_option("--save", o.save, "Checkpoint path, written every --save-every steps and at the end");
  app->add_option("--save-every", o.save_every, "Steps between checkpoints (0: only at the end)")->capture_default_str();
  app->add_option("--resume", o.resume, "Continue from a checkpoint written by --save");
  app->add_option("--init-from", o.init_from,
                  "Start from a Hugging Face GPT-2 snapshot folder: its config.json is the model, its "
                  "model.safetensors (or sharded index) the weights (instead of --model)");
  app->add_option("--save-hf", o.save_hf,
                  "At the end, write the weights as model.safetensors + config.json (transformers' "
                  "GPT2LMHeadModel layout) into this folder");
  app->add_option("--device", o.device, "cpu or cuda")->capture_default_str();
  app->add_option("-b,--batch-size", o.batch_size, "B: sequences per micro-batch")->capture_default_str();
  app->add_option("--grad-accum", o.grad_accum, "Micro-batches per optimizer step")->capture_default_str();
  app->add_option("-t,--seq-len", o.seq_len, "T: tokens per sequence (<= n_positions)")->capture_default_str();
  app->add_option("--steps", o.steps, "Optimizer steps in total")->capture_default_str();
  app->add_option("--lr", o.lr, "Peak learning rate")->capture_default_str();
  app->add_option("--warmup", o.warmup_steps, "Linear warmup steps")->capture_default_str();
  app->add_option("--min-lr", o.min_lr, "Learning rate at the end of the cosine decay")->capture_default_str();
  app->add_option("--weight-decay", o.weight_decay, "Decoupled weight decay (L2 for sgd)")->capture_default_str();
  app->add_option("--grad-clip", o.grad_clip, "Clip the global gradient norm (0: off)")->capture_default_str();
  app->add_option("--seed", o.seed, "Seed of the model init, data windows and dropout (>= 0)")
      ->check(non_negative_check())
      ->capture_default_str();
  app->add_option("--threads", o.threads, "Intra-op threads (0: every core)")->capture_default_str();
  add_run_choice_flags(app, flags->choices, RunFlagsFor::kTrain);
  app->add_option("--checkpoint-every", o.checkpoint_every, "With full: checkpoint every K-th block")->capture_default_str();
  app->add_option("--dropout", o.dropout, "Override every dropout probability of the config, in [0, 1)")
      ->check(probability_check());
  app->add_option("--eval-every", o.eval_every, "Steps between validation passes (0: only at the end)")->capture_default_str();
  app->add_option("--eval-batches", o.eval_batches, "Validation batches per pass")->capture_default_str();
  app->add_option("--val-fraction", o.val_fraction, "Tail of the data held out for validation")->capture_default_str();
  app->add_option("--log-every", o.log_every, "Steps between progress lines (0: about 25 per run)")->capture_default_str();
  app->add_option("--mfu-probe-seconds", o.mfu_probe_seconds,
                  "Seconds of 512x512 matmuls (the run's compute dtype) timed at start as MFU's peak FLOP/s; 0: no MFU")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app->add_option("--memory-limit", flags->memory_limit,
                  std::string("Memory budget (an allocation past it is an OOM; a budget below the model's parameter "
                              "bytes is refused), ") + kSizeHelp)
      ->check(size_check(SizeRule::kPositive));
  app->add_option("--on-oom", flags->on_oom,
                  "On an out-of-memory error in a step: abort (exit 3) | diagnose (playbook with live probes, "
                  "oom_report.json, exit 3) | recover (apply the cheapest fix a probe showed, continue the same step)")
      ->capture_default_str();
  app->add_flag("--no-profile", flags->no_profile, "No phase marks and no timeline");
  app->add_option("--trace", flags->trace,
                  "Also write the timeline as a Chrome trace (Perfetto, chrome://tracing) to this path at the end");
  app->add_option("--memory-snapshot", o.memory_snapshot,
                  "Record every allocation and free (with its op and phase) and write a memory_viz pickle "
                  "(torch.cuda.memory._dump_snapshot's layout; open it in https://pytorch.org/memory_viz) to this "
                  "path at the end, or after an OOM stop");
  app->add_option("--memory-history", o.memory_history,
                  "With --memory-snapshot: trace entries kept, the newest (_record_memory_history's max_entries)")
      ->capture_default_str();
  app->add_flag("--json", flags->json, "Print the summary as JSON on stdout (progress lines go to stderr)");
  app->add_option("--nproc-per-node", flags->nproc_per_node,
                  "Data parallelism: start N local worker processes (ranks 0..N-1, as torchrun); a worker started "
                  "by torchrun/Slurm with RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT joins without it")
      ->check(CLI::Range(1, 1024));
  app->add_option("--backend", o.backend, "Data-parallel backend: gloo (CPU) | nccl (CUDA builds with NCCL)")
      ->capture_default_str();
  app->add_option("--bucket-cap-mb", o.bucket_cap_mb, "Gradient all-reduce bucket size in MiB (DDP's bucket_cap_mb)")
      ->capture_default_str();
  app->add_option("--dist-timeout", o.dist_timeout_s,
                  "Seconds a rank waits for the others (rendezvous and every collective) before failing")
      ->capture_default_str();

  auto run = [flags, &parent, app, argv]() -> int {
    TrainOptions options = flags->options;
    if (!options.init_from.empty() && app->count("--model") > 0) {
      throw InputError("--init-from", "takes the model from the snapshot's config.json; drop --model");
    }
    if (!options.val_data.empty() && app->count("--val-fraction") > 0) {
      throw InputError("--val-fraction", "holds out the tail of --data; with --val-data the validation is that file",
                       "drop one of --val-fraction and --val-data");
    }
    RunChoices choices = flags->choices;
    if (choices.precision == "auto") {  // resolved as `oomkit estimate` does (precision_auto.h)
      AutoPrecisionInput in = options.device == "cuda" ? AutoPrecisionInput{} : this_cpu_auto_precision_input();
      if (options.device == "cuda") {
        in.gpu = true;
        in.gpu_capability = cuda_compute_capability(0);
        in.gpu_name = "cuda:0";
      }
      const AutoPrecision a = resolve_auto_precision(in);
      choices.precision = to_string(a.precision);
      options.precision_auto = format_auto_precision(a);
    }
    apply_run_choices(choices, options);
    if (!flags->memory_limit.empty()) {
      options.memory_limit_bytes = parse_size_flag(flags->memory_limit, "--memory-limit", SizeRule::kPositive);
    }
    options.on_oom = parse_on_oom(flags->on_oom);
    options.profile = !flags->no_profile;
    options.progress_to_stderr = flags->json;
    options.quiet = parent.get_option("--quiet")->as<bool>();
    if (flags->nproc_per_node > 1) {
      if (std::getenv("WORLD_SIZE") != nullptr) {
        throw InputError("--nproc-per-node", "this process is already a worker of a job (WORLD_SIZE is set)",
                         "drop --nproc-per-node when torchrun or srun starts the workers");
      }
      options.validate();  // once here, not once per worker
      if (options.backend == "nccl") {
        throw InputError("--backend", "nccl needs a CUDA build of LibTorch with NCCL; this oomkit-train is CPU-only",
                         "use --backend gloo");
      }
      LaunchOptions launch;
      launch.nproc_per_node = flags->nproc_per_node;
      launch.executable = executable_dir() + "/oomkit-train";
      launch.argv = strip_launcher_flags(argv);
      return launch_local_workers(launch);
    }
    if (!flags->trace.empty()) {
      if (flags->no_profile) throw InputError("--trace", "needs the timeline; drop --no-profile");
      const std::filesystem::path trace_dir = std::filesystem::path(flags->trace).parent_path();
      std::error_code ec;
      if (!trace_dir.empty()) std::filesystem::create_directories(trace_dir, ec);
      std::ofstream probe(flags->trace, std::ios::app);  // fail before training, not after it
      if (!probe) throw InputError("--trace", "cannot write '" + flags->trace + "'");
    }
    const TrainSummary summary = run_training(options);
    // A data-parallel worker (RANK set): rank 0 prints the JSON summary; rank r's trace goes
    // to <trace stem>.rank<r><ext>, beside rank 0's.
    const char* rank_env = std::getenv("RANK");
    const std::string rank = rank_env != nullptr && std::getenv("WORLD_SIZE") != nullptr ? rank_env : "0";
    if (!flags->trace.empty() && !summary.timeline.empty()) {
      std::string trace = flags->trace;
      if (rank != "0") {
        const std::filesystem::path p(trace);
        trace = (p.parent_path() / (p.stem().string() + ".rank" + rank + p.extension().string())).string();
      }
      write_chrome_trace_from_file(summary.timeline, trace);
      log::info("trace: {} (open in https://ui.perfetto.dev or chrome://tracing)", trace);
    }
    if (flags->json && rank == "0") std::printf("%s\n", summary.to_json().dump(2).c_str());
    return summary.exit_code;
  };
  return {app, run};
}

}  // namespace oomkit::cli
