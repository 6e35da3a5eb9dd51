// Shell completion (bash, zsh) and the man page, generated from the CLI11 definition of every
// command: `oomkit completion bash|zsh` and `oomkit man` (hidden; the build writes oomkit.1 with
// it). Nothing is listed by hand: a flag added to a command appears in all three.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.h"

namespace oomkit::cli {

/// One flag (or positional argument) of a command, as the shells and the man page need it.
struct FlagSpec {
  std::vector<std::string> names;   // "-b", "--batch-size" (short first); a positional: its name
  bool takes_value = false;         // false: a switch (add_flag)
  std::string value_name;           // "INT", "SIZE", "FILE", "{a,b}" ...
  std::vector<std::string> values;  // an enum flag's valid values (its one_of() check); empty: any
  enum class Path { kNone, kFile, kDir } path = Path::kNone;  // type name with FILE or PATH, or DIR
  // Names offered for a free value, beside any path completion: --gpu the GPU catalogue's names,
  // --model the shipped models' (a config.json path is completed as a file too).
  std::vector<std::string> suggestions;
  std::string help;
  std::string default_value;        // "" when none is shown
};

struct CommandSpec {
  std::string name;
  std::string description;
  std::vector<FlagSpec> flags;        // --help first
  std::vector<FlagSpec> positionals;
};

struct CliSpec {
  std::string name;         // "oomkit"
  std::string description;
  std::string version;      // "oomkit 0.1.0"
  std::vector<FlagSpec> global_flags;
  std::vector<CommandSpec> commands;  // in declaration order, hidden ones (group "") left out
  std::string footer;
};

/// Walks `app` (the top-level app with its subcommands declared) into a CliSpec. A flag's
/// values come from the "{a,b,c}" description of its one_of() check; it completes paths when
/// its type name names FILE or PATH (NAME|FILE too: files) or is DIR (folders).
CliSpec describe_cli(CLI::App& app);

/// A bash script defining _oomkit and `complete -F _oomkit oomkit`: commands, every flag of
/// the command being typed, the values of enum flags, files or folders after path flags.
std::string bash_completion(const CliSpec& cli);

/// A zsh #compdef script (_arguments per command) with the same content.
std::string zsh_completion(const CliSpec& cli);

/// oomkit.1 in man(7) macros: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, COMMANDS (every flag of
/// every command with its help and default), EXIT STATUS (the app's footer).
std::string man_page(const CliSpec& cli);

/// `oomkit completion bash|zsh [-o FILE]`: prints (or writes) the script for the app `parent`.
Subcommand add_completion_command(CLI::App& parent);

/// `oomkit man [-o FILE]`: prints (or writes) the man page; hidden from --help.
Subcommand add_man_command(CLI::App& parent);

}  // namespace oomkit::cli
