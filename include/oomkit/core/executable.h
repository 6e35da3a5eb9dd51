// Where the running executable lives: used to find its siblings (`oomkit-train` beside
// `oomkit`) and the installed data folder (bin/../share/oomkit/models).
#pragma once

#include <string>

namespace oomkit {

/// Absolute path of the folder holding the running executable (Linux: /proc/self/exe, links
/// resolved); empty when it cannot be read. Never throws.
std::string executable_dir();

}  // namespace oomkit
