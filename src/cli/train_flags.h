// The flags of `oomkit train`, declared torch-free: the torch-free `oomkit` knows them (--help,
// completion, the man page) and `oomkit-train` (src/cli/train/train.cpp) runs them.
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "oomkit/core/train_options.h"
#include "oomkit/estimate/precision_auto.h"
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
  std::string lora_targets;  // --lora-targets, a comma list (empty: LoraConfig's default q,k,v,o)
};

/// Adds the `train` subcommand to `parent` with every flag of it, bound to `flags` (which must
/// outlive `parent`). Values are checked while parsing where a flag has a rule (run_flags.h).
CLI::App* add_train_flags(CLI::App& parent, TrainFlags& flags);

/// The TrainOptions of the parsed command line: the bound fields plus the spellings mapped to
/// the library's types (--precision ..., --device, --memory-limit, --on-oom, --no-profile,
/// --json, -q, --lora-targets). `--precision auto` is resolved by resolve_auto(setup.cuda)
/// (precision_auto.h; oomkit-train asks the CUDA device for its compute capability) and
/// recorded in TrainOptions::precision_auto. Throws InputError naming the flag (e.g. --init-from
/// with --model, --lora-targets without --lora-rank, auto without a resolver).
TrainOptions train_options_from_flags(const TrainFlags& flags, const CLI::App& train, bool quiet,
                                      const std::function<AutoPrecision(bool cuda)>& resolve_auto = nullptr);

}  // namespace oomkit::cli
