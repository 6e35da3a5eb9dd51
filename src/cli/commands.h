// One function per subcommand, each in its own file under src/cli/. Each binds its flags to a
// plain options struct and returns a runner that calls one library function (micromamba's
// set_*_command pattern). run_app() (app.cpp) parses and maps exceptions to exit codes; both
// executables use it: `oomkit` (torch-free, main.cpp) and `oomkit-train` (train/main.cpp).
#pragma once

#include <string>

#include <functional>
#include <vector>

#include <CLI/CLI.hpp>

namespace oomkit::cli {

struct Subcommand {
  CLI::App* app = nullptr;
  std::function<int()> run;  // returns the process exit code
};

Subcommand add_estimate_command(CLI::App& parent);  // estimate.cpp
Subcommand add_gpus_command(CLI::App& parent);      // gpus.cpp
Subcommand add_diagnose_command(CLI::App& parent);  // diagnose.cpp
Subcommand add_report_command(CLI::App& parent);    // report.cpp
// train/train.cpp (oomkit-train only); `argv`: the process's command line, which
// --nproc-per-node hands to the workers it starts.
Subcommand add_train_command(CLI::App& parent, std::vector<std::string> argv = {});

/// The one-line description of `oomkit train`, shown by `oomkit --help` and `oomkit train --help`.
extern const char* const kTrainDescription;

/// The "Examples:" footer of `oomkit train --help` (torch-free, like the description).
extern const char* const kTrainExamples;

/// The top-level app of both executables: name, version flag, -q/--quiet and -v/--verbose.
void init_app(CLI::App& app);

/// Parses argv and runs the one subcommand parsed. Maps exceptions to exit codes: CLI11 parse
/// errors and InputError -> one "error: ..." line (+ "hint: ...") and 2; any other exception ->
/// "error: ..." (a c10 backtrace cut off) and 1. Initialises logging from -q/-v. A failed write
/// to stdout (full disk, closed pipe, ulimit -f: SIGXFSZ is ignored) turns exit 0 into 2.
int run_app(CLI::App& app, const std::vector<Subcommand>& subcommands, int argc, char** argv);

/// Index in argv of the command word (the first argument that is not a global flag -q/-v), or 0
/// when there is none.
int command_index(int argc, char** argv);

}  // namespace oomkit::cli
