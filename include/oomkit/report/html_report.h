// The self-contained HTML report: one file with the data embedded as JSON and an inline
// script that draws inline SVG charts. No network, no external file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "oomkit/report/report_input.h"

namespace oomkit {

struct HtmlReportOptions {
  std::string title;           // page title; empty: derived from the model name and the source
  size_t max_points = 20000;   // most timeline marks embedded (downsample_keep_peaks) and envelope rows; >= 8
  int64_t zoom_step = -1;      // the step drawn phase by phase; -1: the OOM step, else the step with the highest peak
};

/// The data the page's script draws, as embedded in the page (documented in docs/report.md):
/// {"title","source","kind":"run"|"estimate"|"diagnosis","run","estimate","summary",
///  "diagnosis","stats":{...,"recovered"?},"timeline":{"total_marks","marks":[...],
///  "envelope":[[first_step,last_step,min_allocated,max_allocated,max_peak,max_reserved],...]},
///  "events":[...],"estimate_periods":[{"from_step"|null,"peak_bytes","phases","source"}],
///  "zoom":{"step","marks":[...],"predicted":[...]},"categories":[...]}. Every size in bytes.
/// The envelope covers every mark (at most max_points rows, consecutive steps merged past
/// that); "marks" are the downsampled marks (downsample_keep_peaks). estimate_periods: the
/// run's estimate, then each OOM recovery's from the step it recovered at.
/// Throws InputError("--step") when zoom_step names a step that has no marks.
nlohmann::json build_report_data(const ReportInput& input, const HtmlReportOptions& options);

/// Serialises `data` for a <script type="application/json"> element: every '<', '>' and '&'
/// becomes its \u00XX escape (so "</script>" and "<!--" cannot end the element early), and
/// invalid UTF-8 is replaced by U+FFFD instead of throwing. The result parses back to `data`.
std::string json_for_script(const nlohmann::json& data);

/// Escapes text for HTML element content and attribute values (& < > " ').
std::string html_escape(const std::string& text);

/// The complete page. Throws what build_report_data() throws.
std::string render_html_report(const ReportInput& input, const HtmlReportOptions& options);

/// The inline stylesheet and script of the page (html_assets.cpp).
const char* report_stylesheet();
const char* report_script();

}  // namespace oomkit
