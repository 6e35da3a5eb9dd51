// oomkit-train: `oomkit train`, the LibTorch half of oomkit. `oomkit` execs it with its own
// argv (global flags, then `train`, then the train flags), so it parses the same command line.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "oomkit/train/threads.h"

int main(int argc, char** argv) {
  oomkit::exec_with_fitting_blas_core(argv);  // OpenBLAS's kernels are chosen at load: may re-execute once
  oomkit::choose_aten_cpu_capability();       // ATen's, at its first kernel: before any tensor op
  CLI::App app{"oomkit: estimate, measure and diagnose the memory of transformer training"};
  oomkit::cli::init_app(app);
  const std::vector<oomkit::cli::Subcommand> subcommands = {oomkit::cli::add_train_command(app, std::vector<std::string>(argv, argv + argc))};
  return oomkit::cli::run_app(app, subcommands, argc, argv);
}
