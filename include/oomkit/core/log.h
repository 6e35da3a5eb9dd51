// The one place spdlog is included. Everything logs through these; `--quiet` raises the level.
#pragma once

#include <spdlog/spdlog.h>
#include <spdlog/fmt/fmt.h>

namespace oomkit::log {

/// Sets the global pattern ("[oomkit] level: message" on stderr) and level.
void init(bool quiet, bool verbose);

using spdlog::debug;
using spdlog::error;
using spdlog::info;
using spdlog::warn;

}  // namespace oomkit::log
