// oom_report.json and its readable twin. The JSON schema (the report engineer renders it; keep
// it exactly):
//   {"oom": {oom_record_to_json(): parsed fields, sizes in bytes, "family"},
//    "findings": [{"category","title","evidence":[strings],"playbook_step":N,"fix",
//                  "saving_bytes"?,"confidence":"high"|"medium"|"low","probe"}],
//    "probes": [{"name","ok","peak_bytes","change"}],
//    "recovery": {"applied","change","from","to"}?}
// "oom" is null when the playbook ran without a parsed message. Findings are best first; when
// none is "high" they are candidates (the text report says "ambiguous"), each with the probe that
// tells it apart.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "oomkit/diagnose/playbook.h"

namespace oomkit {

/// The oom_report.json object for one diagnosed OOM (with probes/recovery from the live playbook).
nlohmann::json oom_report_json(const PlaybookResult& result);
nlohmann::json oom_report_json(const Diagnosis& diagnosis);

/// The readable report: the parsed numbers, the verdict (or "ambiguous" and the candidates),
/// each finding with evidence, fix, predicted saving and probe, then notes, probes, recovery.
std::string oom_report_text(const PlaybookResult& result);
std::string oom_report_text(const Diagnosis& diagnosis);

/// Writes `<dir>/oom_report.json` and `<dir>/oom_report.txt` (creating `dir`).
/// Throws InputError("--out", ...) when a file cannot be written.
void write_oom_report(const PlaybookResult& result, const std::string& dir);

}  // namespace oomkit
