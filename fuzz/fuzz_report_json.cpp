// libFuzzer: a JSON document as `oomkit report` reads it (estimate --json output, summary.json,
// oom_report.json) and the page data built from it. Invariant: page data or an InputError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "oomkit/core/error.h"
#include "oomkit/core/json_input.h"
#include "oomkit/report/html_report.h"
#include "oomkit/report/report_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const nlohmann::json doc = oomkit::parse_json_input(text, "fuzz.json");
    (void)oomkit::describe_json_value(doc);
    oomkit::ReportInput in;
    in.source = "fuzz.json";
    in.estimate = doc;      // as an estimate input
    in.summary = doc;       // as a run's summary.json
    in.oom_report = doc;    // as an oom_report.json
    (void)oomkit::json_for_script(oomkit::build_report_data(in, {}));
  } catch (const oomkit::InputError&) {
  }
  return 0;
}
