// PLACEHOLDER: replaced by the module that owns `oomkit train`.
#include <stdexcept>

#include "commands.h"

namespace oomkit::cli {

Subcommand add_train_command(CLI::App& parent) {
  CLI::App* app = parent.add_subcommand("train", "(not built yet)");
  return {app, [] () -> int { throw std::runtime_error("oomkit train: not built yet"); }};
}

}  // namespace oomkit::cli
