// `oomkit report`: the library entry point behind the subcommand (src/cli/report.cpp).
#pragma once

#include <string>

#include "oomkit/report/html_report.h"

namespace oomkit {

enum class ReportFormat { kHtml, kChromeTrace };

/// "html" | "chrome-trace" (also "trace", "perfetto"). Throws InputError(field) otherwise.
ReportFormat parse_report_format(const std::string& text, const std::string& field = "--format");

struct ReportOptions {
  std::string input;            // RUN_DIR | TIMELINE.jsonl | ESTIMATE.json | oom_report.json
  std::string output;           // empty: <run dir>/report.html or trace.json, else beside the input
  ReportFormat format = ReportFormat::kHtml;
  std::string estimate_path;    // optional estimate JSON shown with the run (e.g. a --sweep)
  std::string oom_report_path;  // optional oom_report.json (default: the run directory's)
  HtmlReportOptions html;       // html.max_points also bounds the marks of a Chrome trace
};

/// The path a report is written to when ReportOptions::output is empty.
std::string default_report_path(const std::string& input, ReportFormat format);

/// Loads the input, renders the report in the chosen format and writes it. Returns the path
/// written. Throws InputError for bad input (see load_report_input, build_report_data) and
/// InputError("--output") when the file cannot be written; a Chrome trace of an input without
/// a timeline throws InputError("--format").
std::string write_report(const ReportOptions& options);

}  // namespace oomkit
