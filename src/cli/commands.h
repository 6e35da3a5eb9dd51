// One function per subcommand, each in its own file under src/cli/. Each binds its flags to a
// plain options struct and returns a runner that calls one library function (micromamba's
// set_*_command pattern). main.cpp maps exceptions to exit codes.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace oomkit::cli {

struct Subcommand {
  CLI::App* app = nullptr;
  std::function<int()> run;  // returns the process exit code
};

Subcommand add_estimate_command(CLI::App& parent);  // estimate.cpp
Subcommand add_gpus_command(CLI::App& parent);      // gpus.cpp
Subcommand add_train_command(CLI::App& parent);     // train.cpp
Subcommand add_diagnose_command(CLI::App& parent);  // diagnose.cpp
Subcommand add_report_command(CLI::App& parent);    // report.cpp

}  // namespace oomkit::cli
