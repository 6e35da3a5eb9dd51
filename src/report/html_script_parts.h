// The two halves of the report page's inline script, joined by report_script().
#pragma once

namespace oomkit {

extern const char kReportScriptCharts[];    // html_script.cpp
extern const char kReportScriptSections[];  // html_script_sections.cpp

}  // namespace oomkit
