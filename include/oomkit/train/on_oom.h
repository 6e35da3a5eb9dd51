// `oomkit train --on-oom abort|diagnose|recover`: what an out-of-memory error inside a training
// step does. Torch-free, so TrainOptions can hold it; the handling lives in oom_recovery.h.
#pragma once

#include <string>

namespace oomkit {

enum class OnOom {
  kAbort,     // flush the timeline, one line, exit kExitOom
  kDiagnose,  // the playbook with live probes, oom_report.json/.txt, exit kExitOom (the default)
  kRecover,   // the playbook, then continue the same step with the cheapest fix a probe showed
};

/// Exit code of `oomkit train` stopped by an OOM (abort, diagnose, or recover that found no fix).
inline constexpr int kExitOom = 3;

/// "abort", "diagnose", "recover".
const char* to_string(OnOom mode);
/// Inverse of to_string(); throws InputError("--on-oom") for anything else.
OnOom parse_on_oom(const std::string& text);

}  // namespace oomkit
