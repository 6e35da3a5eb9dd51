// PLACEHOLDER: replaced by the module that owns `oomkit gpus`.
#include <stdexcept>

#include "commands.h"

namespace oomkit::cli {

Subcommand add_gpus_command(CLI::App& parent) {
  CLI::App* app = parent.add_subcommand("gpus", "(not built yet)");
  return {app, [] () -> int { throw std::runtime_error("oomkit gpus: not built yet"); }};
}

}  // namespace oomkit::cli
