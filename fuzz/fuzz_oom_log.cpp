// libFuzzer: the OOM log parser and the diagnosis on what it finds (`oomkit diagnose LOG`).
// Invariant: any text gives records and diagnoses (or none), never a sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "oomkit/diagnose/diagnosis.h"
#include "oomkit/diagnose/oom_record.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto& record : oomkit::parse_oom_log(text)) (void)oomkit::oom_record_to_json(record);
  (void)oomkit::diagnose_log(text);
  return 0;
}
