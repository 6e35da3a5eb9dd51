// `oomkit train` (the oomkit-train executable): the flags (train_flags.cpp, torch-free) give
// oomkit::TrainOptions; this runs them: oomkit::run_training() or the local data-parallel launch.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

#include "commands.h"
#include "train_flags.h"
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

Subcommand add_train_command(CLI::App& parent, std::vector<std::string> argv) {
  auto flags = std::make_shared<TrainFlags>();
  CLI::App* app = add_train_flags(parent, *flags);  // train_flags.cpp: the torch-free declaration
  auto run = [flags, &parent, app, argv]() -> int {
    // --precision auto as `oomkit estimate` resolves it (precision_auto.h): this CPU, or the CUDA
    // device's compute capability.
    auto resolve_auto = [](bool cuda) {
      AutoPrecisionInput in = cuda ? AutoPrecisionInput{} : this_cpu_auto_precision_input();
      if (cuda) {
        in.gpu = true;
        in.gpu_capability = cuda_compute_capability(0);
        in.gpu_name = "cuda:0";
      }
      return resolve_auto_precision(in);
    };
    const TrainOptions options =
        train_options_from_flags(*flags, *app, parent.get_option("--quiet")->as<bool>(), resolve_auto);
    if (flags->nproc_per_node > 1) {
      if (std::getenv("WORLD_SIZE") != nullptr) {
        throw InputError("--nproc-per-node", "this process is already a worker of a job (WORLD_SIZE is set)",
                         "drop --nproc-per-node when torchrun or srun starts the workers");
      }
      options.validate();  // once here, not once per worker
      options.validate_data_parallel();
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
