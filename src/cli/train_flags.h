// The flags of `oomkit train`, declared torch-free: the torch-free `oomkit` knows them (--help,
// completion, the man page) and `oomkit-train` (src/cli/train/train.cpp) runs them.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "oomkit/core/train_options.h"
#include "run_flags.h"

namespace oomkit::cli {

/// train's flags as parsed: TrainOptions' fields bound directly, and the flags that are
/// spellings (the enum flags, --device, --memory-limit, --on-oom) or steer the command.
struct TrainFlags {
  TrainOptions options;
  SetupFlags setup_flags{{"fp32", "adamw", "eager", "none"}, "cpu"};  // enum flags and --device
  std::string memory_limit;
  std::string on_oom = "diagnose";
  std::string trace;  // --trace: Chrome trace of the timeline, written when the run ends
  bool no_profile = false;
  bool json = false;
  int nproc_per_node = 0;  // --nproc-per-node: > 1 starts that many local workers (train/launch.h)
};

/// Adds the `train` subcommand to `parent` with every flag of it, bound to `flags` (which must
/// outlive `parent`). Values are checked while parsing where a flag has a rule (run_flags.h).
CLI::App* add_train_flags(CLI::App& parent, TrainFlags& flags);

/// The TrainOptions of the parsed command line: the bound fields plus the spellings mapped to
/// the library's types (--precision ..., --device, --memory-limit, --on-oom, --no-profile,
/// --json, -q). Throws InputError naming the flag (e.g. --init-from with --model).
TrainOptions train_options_from_flags(const TrainFlags& flags, const CLI::App& train, bool quiet);

}  // namespace oomkit::cli
