// oomkit: estimate, measure and diagnose transformer training memory.
//
// This executable is torch-free: `estimate`, `diagnose`, `report`, `gpus` and `--version` start
// in milliseconds. `train` is handed, git-style, to the `oomkit-train` executable beside this
// one (found through /proc/self/exe; argv unchanged, so its exit code and signals are the run's
// own).
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "completion.h"
#include "train_flags.h"
#include "oomkit/core/error.h"
#include "oomkit/core/executable.h"

namespace {

// Replaces this process with <this executable's folder>/oomkit-train; returns only on failure.
int exec_train(char** argv) {
  const std::string dir = oomkit::executable_dir();
  const std::string train = (dir.empty() ? std::string(".") : dir) + "/oomkit-train";
  ::execv(train.c_str(), argv);
  const int err = errno;
  std::fprintf(stderr, "error: train: cannot run %s: %s\n", train.c_str(), std::strerror(err));
  std::fprintf(stderr,
               "hint: `oomkit train` needs oomkit-train beside oomkit; build with LibTorch "
               "(cmake -DOOMKIT_WITH_TORCH=ON)\n");
  return oomkit::kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  const int command = oomkit::cli::command_index(argc, argv);
  if (command > 0 && std::strcmp(argv[command], "train") == 0) return exec_train(argv);

  CLI::App app{"oomkit: estimate, measure and diagnose the memory of transformer training"};
  oomkit::cli::init_app(app);
  // train's flags are declared here too (train_flags.cpp, torch-free) so that this executable
  // knows every command's flags; a train command line is never parsed here (exec_train above).
  oomkit::cli::TrainFlags train_flags;
  const std::vector<oomkit::cli::Subcommand> subcommands = {
      oomkit::cli::add_estimate_command(app), oomkit::cli::add_gpus_command(app),
      {oomkit::cli::add_train_flags(app, train_flags), [] { return oomkit::kExitFailure; }},
      oomkit::cli::add_diagnose_command(app), oomkit::cli::add_report_command(app),
      oomkit::cli::add_completion_command(app), oomkit::cli::add_man_command(app)};
  return oomkit::cli::run_app(app, subcommands, argc, argv);
}
