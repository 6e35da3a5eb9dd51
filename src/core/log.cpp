#include "oomkit/core/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

namespace oomkit::log {

void init(bool quiet, bool verbose) {
  auto logger = spdlog::stderr_color_mt("oomkit");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("[oomkit] %^%l%$: %v");
  spdlog::set_level(quiet ? spdlog::level::warn : (verbose ? spdlog::level::debug : spdlog::level::info));
}

}  // namespace oomkit::log
