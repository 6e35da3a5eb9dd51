#include "oomkit/report/report.h"

#include <filesystem>
#include <fstream>

#include "oomkit/core/error.h"
#include "oomkit/report/chrome_trace.h"

namespace oomkit {

namespace fs = std::filesystem;

ReportFormat parse_report_format(const std::string& text, const std::string& field) {
  if (text == "html") return ReportFormat::kHtml;
  if (text == "chrome-trace" || text == "trace" || text == "perfetto") return ReportFormat::kChromeTrace;
  throw InputError(field, "unknown format '" + text + "'", "use html or chrome-trace");
}

std::string default_report_path(const std::string& input, ReportFormat format) {
  const bool html = format == ReportFormat::kHtml;
  std::error_code ec;
  if (fs::is_directory(input, ec)) return (fs::path(input) / (html ? "report.html" : "trace.json")).string();
  fs::path p(input);
  p.replace_extension(html ? ".html" : ".trace.json");
  return p.string();
}

std::string write_report(const ReportOptions& options) {
  ReportInput input = load_report_input(options.input);
  if (!options.estimate_path.empty()) {
    input.estimate = read_json_file(options.estimate_path, "--estimate");
    if (!input.estimate.is_object()) throw InputError("--estimate", "not a JSON object");
  }
  if (!options.oom_report_path.empty()) {
    input.oom_report = read_json_file(options.oom_report_path, "--oom-report");
    if (!input.oom_report.is_object()) throw InputError("--oom-report", "not a JSON object");
  }
  const std::string out = options.output.empty() ? default_report_path(options.input, options.format)
                                                 : options.output;
  if (options.format == ReportFormat::kChromeTrace) {
    if (!input.has_timeline()) {
      throw InputError("--format", "a Chrome trace needs a timeline; '" + options.input + "' has none",
                       "pass a run directory of `oomkit train` or its timeline.jsonl");
    }
    ChromeTraceOptions trace_options;
    trace_options.max_points = options.html.max_points;
    if (input.other_ranks.empty()) {
      write_chrome_trace(input.records, out, "--output", trace_options);
      return out;
    }
    std::vector<RankTimeline> ranks{{0, &input.records}};
    for (const auto& r : input.other_ranks) ranks.push_back({r.rank, &r.records});
    write_trace_file(chrome_trace_from_ranks(ranks, trace_options), out, "--output");
    return out;
  }
  const std::string html = render_html_report(input, options.html);
  std::ofstream f(out, std::ios::out | std::ios::trunc | std::ios::binary);
  if (!f) throw InputError("--output", "cannot write '" + out + "'");
  f << html;
  f.flush();
  if (!f) throw InputError("--output", "write failed for '" + out + "'");
  return out;
}

}  // namespace oomkit
