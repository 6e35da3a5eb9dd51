// The report page's stylesheet and script: src/report/assets/report.css and report.js, embedded
// at build time (cmake/embed_assets.cmake writes the definitions, NUL-terminated).
#pragma once

#include <cstddef>

namespace oomkit {

extern const unsigned char kReportCss[];  // src/report/assets/report.css
extern const std::size_t kReportCss_size;
extern const unsigned char kReportJs[];  // src/report/assets/report.js
extern const std::size_t kReportJs_size;

}  // namespace oomkit
