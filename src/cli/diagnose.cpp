// PLACEHOLDER: replaced by the module that owns `oomkit diagnose`.
#include <stdexcept>

#include "commands.h"

namespace oomkit::cli {

Subcommand add_diagnose_command(CLI::App& parent) {
  CLI::App* app = parent.add_subcommand("diagnose", "(not built yet)");
  return {app, [] () -> int { throw std::runtime_error("oomkit diagnose: not built yet"); }};
}

}  // namespace oomkit::cli
