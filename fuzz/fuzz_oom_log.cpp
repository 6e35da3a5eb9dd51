// libFuzzer: what `oomkit diagnose LOG [--json]` does with any text: the OOM log parser, the
// diagnosis of every report found, and both outputs (oom_report_json dumped as the CLI dumps it,
// oom_report_text). Invariants: no sanitizer report, no exception, every parsed size >= 0 (a
// wrapped or negative size is a wrong number).
// diagnose_log() parses the log itself (parse_oom_log) and keeps each record in Diagnosis::oom,
// so the log is read once per input, as the CLI reads it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "oomkit/diagnose/diagnosis.h"
#include "oomkit/diagnose/oom_record.h"
#include "oomkit/diagnose/oom_report.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const oomkit::Diagnosis& d : oomkit::diagnose_log(text)) {
    const nlohmann::json j = oomkit::oom_report_json(d);
    // `oomkit diagnose --json`: invalid UTF-8 from the log is replaced, never an exception.
    (void)j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    if (d.oom) {
      const nlohmann::json record = oomkit::oom_record_to_json(*d.oom);
      for (const auto& [key, value] : record.items()) {
        const bool is_size = key.size() > 6 && key.compare(key.size() - 6, 6, "_bytes") == 0;
        if (is_size && value.is_number() && value.get<double>() < 0) std::abort();
      }
    }
    (void)d.verdict();
    (void)oomkit::oom_report_text(d);
  }
  return 0;
}
