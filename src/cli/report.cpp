// PLACEHOLDER: replaced by the module that owns `oomkit report`.
#include <stdexcept>

#include "commands.h"

namespace oomkit::cli {

Subcommand add_report_command(CLI::App& parent) {
  CLI::App* app = parent.add_subcommand("report", "(not built yet)");
  return {app, [] () -> int { throw std::runtime_error("oomkit report: not built yet"); }};
}

}  // namespace oomkit::cli
