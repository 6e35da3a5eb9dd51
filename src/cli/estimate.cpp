// PLACEHOLDER: replaced by the module that owns `oomkit estimate`.
#include <stdexcept>

#include "commands.h"

namespace oomkit::cli {

Subcommand add_estimate_command(CLI::App& parent) {
  CLI::App* app = parent.add_subcommand("estimate", "(not built yet)");
  return {app, [] () -> int { throw std::runtime_error("oomkit estimate: not built yet"); }};
}

}  // namespace oomkit::cli
