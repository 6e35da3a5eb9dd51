// Text cleaning for the OOM parser and the context scanner: ANSI codes, line ends, log
// prefixes, whitespace. Private to src/diagnose/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace oomkit::diagnose_detail {

struct Line {
  std::string text;    // ANSI codes removed, tabs as spaces
  int64_t number = 0;  // 1-based, counting '\n'
};

/// Removes ANSI escape sequences (CSI "ESC [ ... final", OSC "ESC ] ... BEL"), and colour codes
/// whose ESC was lost on the way ("[31m").
std::string strip_ansi(const std::string& s);
/// Splits on LF, CRLF and lone CR (progress bars: same line number); drops NUL bytes.
std::vector<Line> split_lines(std::string_view text);
std::string lower(std::string_view s);
bool is_space(char c);
/// `s` with every whitespace character removed.
std::string squash(std::string_view s);
std::string trim(std::string_view s);
/// Removes the log prefixes loggers put before each line: timestamps, "[rank0]:", "(pid=12)",
/// levels, glog's "E1123 10:00:00.123 42 file.cc:12]", NCCL's "host:pid:tid [0]", pytest's "E   ".
std::string strip_log_prefix(std::string s);

}  // namespace oomkit::diagnose_detail
