// libFuzzer: the timeline / summary reader: JSON Lines -> typed run records -> the Chrome
// trace and the report's page data. Invariant: records or an InputError, nothing else.
#include <cstddef>
#include <cstdint>
#include <string>

#include "oomkit/core/error.h"
#include "oomkit/core/timeline.h"
#include "oomkit/report/chrome_trace.h"
#include "oomkit/report/html_report.h"
#include "oomkit/report/report_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const oomkit::RunRecords records = oomkit::parse_run_records(oomkit::parse_timeline_text(text, "fuzz"), "fuzz");
    (void)oomkit::chrome_trace_from_timeline(records);
    oomkit::ReportInput in;
    in.source = "fuzz";
    in.timeline_path = "fuzz.jsonl";
    in.records = records;
    if (records.run) in.run = oomkit::to_json(*records.run);
    in.marks = records.marks;
    for (const auto& s : records.steps) in.steps.push_back(oomkit::to_json(s));
    for (const auto& e : records.events) in.events.push_back(oomkit::to_json(e));
    in.summary = records.summary;
    if (in.run.is_object() && in.run.contains("estimate")) in.estimate = in.run["estimate"];
    if (!in.marks.empty()) (void)oomkit::build_report_data(in, {});
  } catch (const oomkit::InputError&) {
  }
  return 0;
}
