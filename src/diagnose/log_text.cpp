// Text cleaning shared by the OOM parser and the context scanner (see log_text.h).
#include "log_text.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace oomkit::diagnose_detail {

// Removes ANSI escape sequences (CSI "ESC [ ... final", OSC "ESC ] ... BEL"), and colour codes
// whose ESC was lost on the way ("[31m").
std::string strip_ansi(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\x1b') {
      if (i + 1 < s.size() && s[i + 1] == '[') {
        size_t j = i + 2;
        while (j < s.size() && !(s[j] >= '@' && s[j] <= '~')) ++j;
        i = j;
      } else if (i + 1 < s.size() && s[i + 1] == ']') {
        size_t j = i + 2;
        while (j < s.size() && s[j] != '\x07' && !(s[j] == '\x1b' && j + 1 < s.size() && s[j + 1] == '\\')) ++j;
        i = (j < s.size() && s[j] == '\x1b') ? j + 1 : j;
      } else {
        ++i;
      }
      continue;
    }
    if (c == '[') {  // "[31m", "[0m", "[1;31m" without their ESC
      size_t j = i + 1;
      while (j < s.size() && j - i <= 9 && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == ';')) ++j;
      if (j > i + 1 && j < s.size() && s[j] == 'm') {
        i = j;
        continue;
      }
    }
    out.push_back(c == '\t' ? ' ' : c);
  }
  return out;
}

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  int64_t number = 1;
  std::string current;
  auto flush = [&] {
    lines.push_back({strip_ansi(current), number});
    current.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      flush();
      ++number;
    } else if (c == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') continue;  // CRLF
      flush();  // a lone CR (progress bars) starts a new line on the same line number
    } else if (c != '\0') {
      current.push_back(c);
    }
  }
  if (!current.empty()) flush();
  return lines;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string squash(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (!is_space(c)) out.push_back(c);
  }
  return out;
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

// Log prefixes that loggers put before each line: timestamps, "[rank0]:", "(pid=12)", levels,
// glog's "E1123 10:00:00.123 42 file.cc:12]", NCCL's "host:pid:tid [0]", pytest's "E   ".
std::string strip_log_prefix(std::string s) {
  static const std::regex kPrefix(
      R"(^(\s+|\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\s*)"
      R"(|\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\s*|[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+\s+\S+:\d+\]\s*)"
      R"(|\[[^\]]{0,80}\]:?\s*|\([^)]{0,60}(?:pid|rank)[^)]{0,60}\)\s*)"
      R"(|(?:ERROR|WARNING|WARN|INFO|DEBUG|CRITICAL|FATAL)\b:?\s*|rank\s*\d+\s*:\s*|\d{1,4}:\s+)"
      R"(|[\w.-]+:\d+:\d+\s+\[\d+\]\s*|E\s{2,}|>\s*|\|\s*))",
      std::regex::ECMAScript);
  for (int k = 0; k < 10 && !s.empty(); ++k) {
    std::smatch m;
    const std::string head = s.substr(0, std::min<size_t>(s.size(), 240));
    if (!std::regex_search(head, m, kPrefix) || m.length(0) == 0) break;
    s.erase(0, static_cast<size_t>(m.length(0)));
  }
  return s;
}

// ---- family heads --------------------------------------------------------------------------

}  // namespace oomkit::diagnose_detail
