// report_stylesheet() and report_script(): the asset files embedded at build time.
#include "oomkit/report/html_report.h"
#include "report_assets.h"

namespace oomkit {

const char* report_stylesheet() { return reinterpret_cast<const char*>(kReportCss); }
const char* report_script() { return reinterpret_cast<const char*>(kReportJs); }

}  // namespace oomkit
