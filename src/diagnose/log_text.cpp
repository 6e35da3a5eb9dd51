// Text scanning shared by the OOM parser and the evidence reader (see log_text.h). Everything
// is a hand-written linear scan: std::regex cost ~1.5 s per MB of log and ~10 ms per report.
#include "log_text.h"

#include <algorithm>
#include <bitset>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace oomkit::diagnose_detail {

std::vector<LineView> split_line_views(std::string_view text) {
  std::vector<LineView> lines;
  lines.reserve(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  for_each_line_view(text, [&](const LineView& l) { lines.push_back(l); });
  return lines;
}

std::string strip_ansi(std::string_view s) {
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
      while (j < s.size() && j - i <= 9 && (is_digit(s[j]) || s[j] == ';')) ++j;
      if (j > i + 1 && j < s.size() && s[j] == 'm') {
        i = j;
        continue;
      }
    }
    if (c == '\0') continue;
    out.push_back(c == '\t' ? ' ' : c);
  }
  return out;
}

bool printed_advice(std::string_view lo) {
  return printed_advice_by([lo](std::string_view phrase) { return lo.find(phrase) != std::string_view::npos; });
}

namespace {
bool word_char(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }
}  // namespace

bool word_starts_at(std::string_view s, size_t p) { return p == 0 || !word_char(s[p - 1]); }

bool is_word_at(std::string_view lo, size_t p, size_t n) {
  return word_starts_at(lo, p) && (p + n >= lo.size() || !word_char(lo[p + n]));
}

bool contains_word(std::string_view s, std::string_view w) {
  for (size_t p = s.find(w); p != std::string_view::npos; p = s.find(w, p + 1)) {
    if (is_word_at(s, p, w.size())) return true;
  }
  return false;
}

bool fine_told(std::string_view s) {
  for (size_t p = s.find("fine"); p != std::string_view::npos; p = s.find("fine", p + 1)) {
    if (!is_word_at(s, p, 4)) continue;
    const std::string_view after = s.substr(p + 4, 6);
    if (after.size() >= 4 && (after[0] == '-' || after[0] == ' ') &&
        (after.substr(1, 3) == "tun" || after.substr(1, 4) == "grai")) {
      continue;
    }
    return true;
  }
  return false;
}

bool contains_word_start(std::string_view s, std::string_view w) {
  const bool word = !w.empty() && (is_alpha(w[0]) || is_digit(w[0]));
  for (size_t p = s.find(w); p != std::string_view::npos; p = s.find(w, p + 1)) {
    if (!word || word_starts_at(s, p)) return true;
  }
  return false;
}

bool contains_any(std::string_view s, std::initializer_list<std::string_view> ps) {
  return std::any_of(ps.begin(), ps.end(), [&](std::string_view p) { return s.find(p) != std::string_view::npos; });
}

bool in_list(std::string_view x, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), x) != set.end();
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower_char(c);
  return out;
}


std::string squash(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (!is_space(c)) out.push_back(c);
  }
  return out;
}

std::string_view trim_view(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

std::string trim(std::string_view s) { return std::string(trim_view(s)); }

size_t ifind(std::string_view hay, std::string_view needle, size_t from) {
  if (needle.empty()) return from <= hay.size() ? from : std::string_view::npos;
  if (hay.size() < needle.size() || from > hay.size() - needle.size()) return std::string_view::npos;
  const char first = needle[0];
  const char first_upper = (first >= 'a' && first <= 'z') ? static_cast<char>(first - 32) : first;
  const size_t last = hay.size() - needle.size();
  auto match_at = [&](size_t i) {
    size_t k = 1;
    while (k < needle.size() && lower_char(hay[i + k]) == needle[k]) ++k;
    return k == needle.size();
  };
  size_t i = from;
  if (first != first_upper) {
    // A letter first: eight bytes at a time, OR 0x20 folds case (only 'X' and 'x' fold to 'x'),
    // then the bytes equal to it are found with the zero-byte test of Mycroft (Hacker's Delight,
    // 6-1); a flagged byte is checked one by one, so a false flag costs a compare.
    constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
    const uint64_t pattern = kOnes * static_cast<unsigned char>(first);
    for (; i + 8 <= last + 1; i += 8) {
      uint64_t w = 0;
      std::memcpy(&w, hay.data() + i, 8);
      const uint64_t x = (w | (kOnes * 0x20)) ^ pattern;
      if (((x - kOnes) & ~x & kHigh) == 0) continue;
      for (size_t j = i; j < i + 8; ++j) {
        if ((hay[j] == first || hay[j] == first_upper) && match_at(j)) return j;
      }
    }
  }
  for (; i <= last; ++i) {
    const char c = hay[i];
    if ((c == first || c == first_upper) && match_at(i)) return i;
  }
  return std::string_view::npos;
}

bool icontains(std::string_view hay, std::string_view needle) { return ifind(hay, needle) != std::string_view::npos; }

bool istarts_with(std::string_view hay, std::string_view prefix) {
  if (hay.size() < prefix.size()) return false;
  for (size_t k = 0; k < prefix.size(); ++k) {
    if (lower_char(hay[k]) != prefix[k]) return false;
  }
  return true;
}

namespace {

size_t digits(std::string_view s, size_t i) {
  size_t j = i;
  while (j < s.size() && is_digit(s[j])) ++j;
  return j - i;
}

// "2024-01-02 10:11:12.345+00:00 " / "2024-01-02T10:11:12Z"
size_t iso_timestamp(std::string_view s) {
  if (s.size() < 19 || digits(s, 0) != 4 || (s[4] != '-' && s[4] != '/') || digits(s, 5) != 2 || s[7] != s[4] ||
      digits(s, 8) != 2 ||
      (s[10] != 'T' && s[10] != ' ') || digits(s, 11) != 2 || s[13] != ':' || digits(s, 14) != 2 || s[16] != ':' ||
      digits(s, 17) != 2) {
    return 0;
  }
  size_t i = 19;
  if (i < s.size() && (s[i] == '.' || s[i] == ',') && digits(s, i + 1) > 0) i += 1 + digits(s, i + 1);
  if (i < s.size() && s[i] == 'Z') {
    ++i;
  } else if (i < s.size() && (s[i] == '+' || s[i] == '-') && digits(s, i + 1) == 2) {
    i += 3;
    if (i < s.size() && s[i] == ':') ++i;
    i += std::min<size_t>(2, digits(s, i));
  }
  return i;
}

// "10:11:12.345 "
size_t clock_time(std::string_view s) {
  if (s.size() < 8 || digits(s, 0) != 2 || s[2] != ':' || digits(s, 3) != 2 || s[5] != ':' || digits(s, 6) != 2) return 0;
  size_t i = 8;
  if (i < s.size() && (s[i] == '.' || s[i] == ',') && digits(s, i + 1) > 0) i += 1 + digits(s, i + 1);
  return i;
}

// glog: "E1123 10:00:00.123456 42 file.cc:12] "
size_t glog(std::string_view s) {
  if (s.size() < 22 || (s[0] != 'I' && s[0] != 'W' && s[0] != 'E' && s[0] != 'F') || digits(s, 1) != 4 || s[5] != ' ') return 0;
  size_t i = 6 + clock_time(s.substr(6));
  // absl's form (TensorFlow >= 2.16, XLA, JAX): "E0000 00:00:1712345678.901234   12345 cuda_blas.cc:190] ",
  // the seconds since the epoch where glog has the clock's seconds
  if (i == 6 && digits(s, 6) == 2 && s.size() > 12 && s[8] == ':' && digits(s, 9) == 2 && s[11] == ':' &&
      digits(s, 12) >= 2) {
    i = 12 + digits(s, 12);
    if (i < s.size() && s[i] == '.') i += 1 + digits(s, i + 1);
  }
  if (i == 6) return 0;
  const size_t close = s.find(']', i);
  if (close == std::string_view::npos || close - i > 120) return 0;
  return close + 1;
}

size_t bracketed(std::string_view s) {  // "[anything up to 80]" with an optional ':'
  if (s.empty() || s[0] != '[') return 0;
  const size_t close = s.find(']', 1);
  if (close == std::string_view::npos || close > 81) return 0;
  size_t i = close + 1;
  if (i < s.size() && s[i] == ':') ++i;
  return i;
}

size_t paren_pid(std::string_view s) {  // "(pid=12)", "(RayWorker pid=12, ip=...)", "(rank 3)"
  if (s.empty() || s[0] != '(') return 0;
  const size_t close = s.find(')', 1);
  if (close == std::string_view::npos || close > 121) return 0;
  const std::string_view inner = s.substr(1, close - 1);
  if (!icontains(inner, "pid") && !icontains(inner, "rank")) return 0;
  return close + 1;
}

size_t level(std::string_view s) {
  for (std::string_view l : {"ERROR", "WARNING", "WARN", "INFO", "DEBUG", "CRITICAL", "FATAL"}) {
    if (s.substr(0, l.size()) == l &&
        (s.size() == l.size() || !(is_alpha(s[l.size()]) || is_digit(s[l.size()]) || s[l.size()] == '_'))) {
      size_t i = l.size();
      if (i < s.size() && s[i] == ':') ++i;
      return i;
    }
  }
  return 0;
}

size_t rank_colon(std::string_view s) {  // "rank 3:", "rank3 :"
  if (!istarts_with(s, "rank")) return 0;
  size_t i = 4;
  while (i < s.size() && is_space(s[i])) ++i;
  const size_t d = digits(s, i);
  if (d == 0) return 0;
  i += d;
  while (i < s.size() && is_space(s[i])) ++i;
  return (i < s.size() && s[i] == ':') ? i + 1 : 0;
}

// Android's logcat prefixes, after the time they start with (iso_timestamp(), clock_time()):
// Android Studio's "12848-12876 E/RKNN: " and "1234-1250/com.example.app E/RKNN: " (pid-tid, the
// package, a level letter, the tag); `adb logcat`'s default (threadtime) "03-14 10:21:33.456  1234
// 1250 E RKNN    : " (its month-day first); the brief format's "E/RKNN    ( 1234): ".
size_t logcat_prefix(std::string_view s) {
  auto level_at = [&](size_t i) { return i < s.size() && std::string_view("VDIWEF").find(s[i]) != std::string_view::npos; };
  // The tag up to its ": " (no spaces inside, padding spaces before the colon allowed), within 40.
  auto tag_end = [&](size_t i) -> size_t {
    size_t k = i;
    while (k < s.size() && k < i + 40 && s[k] != ':' && s[k] != ' ' && s[k] != '(') ++k;
    if (k == i) return 0;
    while (k < s.size() && s[k] == ' ') ++k;
    return k;
  };
  // threadtime: "MM-DD " then the clock, then "pid tid L TAG : "
  if (s.size() > 6 && digits(s, 0) == 2 && s[2] == '-' && digits(s, 3) == 2 && s[5] == ' ' && digits(s, 6) == 2 &&
      s.size() > 8 && s[8] == ':') {
    size_t i = 6 + clock_time(s.substr(6));
    for (int field = 0; field < 2; ++field) {  // pid, tid
      const size_t sp = i;
      while (i < s.size() && s[i] == ' ') ++i;
      const size_t d = digits(s, i);
      if (i == sp || d == 0) return 0;
      i += d;
    }
    if (i + 2 >= s.size() || s[i] != ' ' || !level_at(i + 1) || s[i + 2] != ' ') return 0;
    const size_t k = tag_end(i + 3);
    return k > 0 && k + 1 < s.size() && s[k] == ':' && s[k + 1] == ' ' ? k + 2 : 0;
  }
  // brief: "E/TAG    ( 1234): "
  if (level_at(0) && s.size() > 2 && s[1] == '/') {
    const size_t k = tag_end(2);
    if (k == 0 || k >= s.size() || s[k] != '(') return 0;
    const size_t close = s.find("): ", k);
    if (close == std::string_view::npos || close > k + 12) return 0;
    for (size_t j = k + 1; j < close; ++j) {
      if (s[j] != ' ' && !is_digit(s[j])) return 0;
    }
    return close + 3;
  }
  // Android Studio: "pid-tid[/package] L/TAG: "
  size_t i = digits(s, 0);
  if (i == 0 || i >= s.size() || s[i] != '-') return 0;
  const size_t d = digits(s, i + 1);
  if (d == 0) return 0;
  i += 1 + d;
  if (i < s.size() && s[i] == '/') {  // the package
    while (i < s.size() && s[i] != ' ' && i < 200) ++i;
  }
  if (i + 3 >= s.size() || s[i] != ' ' || !level_at(i + 1) || s[i + 2] != '/') return 0;
  const size_t k = tag_end(i + 3);
  return k > 0 && k + 1 < s.size() && s[k] == ':' && s[k + 1] == ' ' ? k + 2 : 0;
}

size_t number_colon(std::string_view s) {  // "12: " (pdsh, torchrun --tee)
  const size_t d = digits(s, 0);
  if (d == 0 || d > 4 || d >= s.size() || s[d] != ':' || d + 1 >= s.size() || !is_space(s[d + 1])) return 0;
  return d + 1;
}

size_t nccl_host(std::string_view s) {  // "host:1234:5678 [0] "
  size_t i = 0;
  while (i < s.size() && (is_alpha(s[i]) || is_digit(s[i]) || s[i] == '.' || s[i] == '-' || s[i] == '_')) ++i;
  if (i == 0 || i >= s.size() || s[i] != ':') return 0;
  size_t d = digits(s, i + 1);
  if (d == 0) return 0;
  i += 1 + d;
  if (i >= s.size() || s[i] != ':') return 0;
  d = digits(s, i + 1);
  if (d == 0) return 0;
  i += 1 + d;
  while (i < s.size() && is_space(s[i])) ++i;
  if (i >= s.size() || s[i] != '[') return 0;
  const size_t close = s.find(']', i);
  if (close == std::string_view::npos || close - i > 6) return 0;
  return close + 1;
}

size_t pytest_e(std::string_view s) {  // "E   "
  return (s.size() >= 3 && s[0] == 'E' && s[1] == ' ' && s[2] == ' ') ? 3 : 0;
}

size_t quote_mark(std::string_view s) { return (!s.empty() && (s[0] == '>' || s[0] == '|')) ? 1 : 0; }

}  // namespace

bool has_log_prefix(std::string_view s) {
  for (int k = 0; k < 10 && !s.empty(); ++k) {
    size_t n = 0;
    while (n < s.size() && is_space(s[n])) ++n;
    if (n == 0) n = quote_mark(s);
    if (n > 0) {
      s.remove_prefix(std::min(n, s.size()));
      continue;
    }
    // A level in any case with its colon ("Warning: ...", "info: ...").
    for (std::string_view l : {"warning:", "info:", "error:", "debug:"}) {
      if (istarts_with(s, l)) return true;
    }
    // A tag in brackets or parentheses is a logger's only with a time, a rank, a pid or a level
    // inside ("[2024-05-01 10:00:00]", "[rank0]:", "[INFO]", "(pid=12)"); not a title's "[Bug]:"
    // nor a sentence in parentheses that names a rank.
    if (s[0] == '[' || s[0] == '(') {
      const size_t close = s.find(s[0] == '[' ? ']' : ')');
      if (close == std::string_view::npos || close > 121) return false;
      const std::string_view inner = s.substr(1, close - 1);
      if (!inner.empty() && is_digit(inner[0])) return true;
      if (istarts_with(inner, "rank") && inner.size() <= 8) return true;
      if (icontains(inner, "pid=") || icontains(inner, "pid ")) return true;
      for (std::string_view l : {"info", "warning", "warn", "error", "debug", "critical", "fatal"}) {
        if (inner.size() == l.size() && istarts_with(inner, l)) return true;
      }
      return false;
    }
    for (auto f : {iso_timestamp, glog, clock_time, level, rank_colon, number_colon, nccl_host, pytest_e}) {
      if (f(s) > 0) return true;
    }
    return false;
  }
  return false;
}

std::string strip_log_prefix(std::string_view s) {
  // What TensorFlow's / XLA's logging (absl, glog-style) leaves after its timestamp: ": E
  // external/.../cuda_blas.cc:226] " (a level letter, the source file and line).
  auto tf_level = [](std::string_view t) -> size_t {
    if (t.size() < 6 || t[0] != ':' || t[1] != ' ' || std::string_view("IWEF").find(t[2]) == std::string_view::npos ||
        t[3] != ' ') {
      return 0;
    }
    const size_t close = t.find("] ", 4);
    if (close == std::string_view::npos || close > 160) return 0;
    size_t d = close;
    while (d > 4 && is_digit(t[d - 1])) --d;
    if (d == close || t[d - 1] != ':' || t.substr(4, d - 4).find(' ') != std::string_view::npos) return 0;
    return close + 2;
  };
  for (int k = 0; k < 10 && !s.empty(); ++k) {
    size_t n = 0;
    while (n < s.size() && is_space(s[n])) ++n;
    if (n == 0) n = tf_level(s);
    if (n == 0) {
      for (auto f : {iso_timestamp, glog, clock_time, bracketed, paren_pid, level, rank_colon, number_colon, nccl_host,
                     pytest_e, quote_mark, logcat_prefix}) {
        n = f(s);
        if (n > 0) break;
      }
    }
    if (n == 0) break;
    s.remove_prefix(std::min(n, s.size()));
  }
  return std::string(s);
}

size_t launcher_prefix(std::string_view s, int64_t* process) {
  auto number = [&](std::string_view t, size_t i, size_t d) {
    int64_t v = 0;
    for (size_t k = i; k < i + d && k < i + 15; ++k) v = v * 10 + (t[k] - '0');
    return v;
  };
  size_t n = 0;
  for (int k = 0; k < 4; ++k) {
    const std::string_view rest = s.substr(n);
    size_t m = rank_colon(rest);  // "rank 3:"
    if (m > 0 && process) {
      size_t i = 4;
      while (i < rest.size() && is_space(rest[i])) ++i;
      *process = number(rest, i, digits(rest, i));
    }
    if (m == 0 && !rest.empty() && rest[0] == '[') {
      // "[rank3]:", "[default0]:" (torchrun's per-process prefixes); mpirun's "[1,0]<stderr>:" (job, rank)
      for (std::string_view tag : {"rank", "default"}) {
        if (rest.substr(1, tag.size()) != tag) continue;
        const size_t d = digits(rest, 1 + tag.size());
        const size_t close = 1 + tag.size() + d;
        if (d > 0 && close < rest.size() && rest[close] == ']') {
          m = close + 1 + (close + 1 < rest.size() && rest[close + 1] == ':');
          if (process) *process = number(rest, 1 + tag.size(), d);
        }
      }
      const size_t job = digits(rest, 1);
      if (m == 0 && job > 0 && 1 + job < rest.size() && rest[1 + job] == ',') {
        const size_t d = digits(rest, 2 + job);
        const size_t close = 2 + job + d;
        if (d > 0 && close < rest.size() && rest[close] == ']') {
          m = close + 1;
          if (m < rest.size() && rest[m] == '<') {
            const size_t gt = rest.find('>', m);
            if (gt != std::string_view::npos && gt - m <= 8) m = gt + 1;
          }
          if (m < rest.size() && rest[m] == ':') ++m;
          if (process) *process = number(rest, 2 + job, d);
        }
      }
    }
    if (m == 0) {
      m = paren_pid(rest);  // "(pid=12)", "(RayWorker pid=12, ip=...)": the pid tells the process
      if (m > 0 && process) {
        const size_t pid = ifind(rest.substr(0, m), "pid=");
        if (pid != std::string_view::npos) *process = 1000000 + number(rest, pid + 4, digits(rest, pid + 4));
      }
    }
    if (m == 0) break;
    n += m;
    while (n < s.size() && is_space(s[n])) ++n;
  }
  return n;
}

// Whether `text` holds a digit run followed by a size unit (see log_text.h).
bool size_named(std::string_view text, bool megabytes) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (!is_digit(text[i]) || (i + 1 < text.size() && is_digit(text[i + 1]))) continue;
    size_t j = i + 1;
    if (j < text.size() && text[j] == ' ') ++j;
    if (j >= text.size()) continue;
    const std::string_view unit = text.substr(j, 3);
    if (unit[0] == 'g' && (unit.size() == 1 || !is_alpha(unit[1]) || unit.substr(0, 2) == "gb" || unit == "gib")) return true;
    if (megabytes && (unit.substr(0, 2) == "mb" || unit == "mib")) return true;
  }
  return false;
}

size_t zh_host_memory_named(std::string_view lo) {
  constexpr std::string_view kMemory = "\xe5\x86\x85\xe5\xad\x98", kOverflow = "\xe5\x86\x85\xe5\xad\x98\xe6\xba\xa2\xe5\x87\xba";
  auto count = [&](std::string_view x) {
    size_t k = 0;
    for (size_t p = lo.find(x); p != std::string_view::npos; p = lo.find(x, p + x.size())) ++k;
    return k;
  };
  return count(kMemory) - count(kOverflow);
}

// Counts in prose (see log_text.h).
std::vector<ProseCount> prose_counts(std::string_view lo) {
  std::vector<ProseCount> out;
  for (size_t p = 0; p < lo.size(); ++p) {
    if (!is_digit(lo[p])) continue;
    const bool starts = p == 0 || !(word_char(lo[p - 1]) || lo[p - 1] == '.' || lo[p - 1] == ',');
    size_t e = p;
    std::string digits;
    while (e < lo.size() && (is_digit(lo[e]) || lo[e] == '.' || (lo[e] == ',' && e + 1 < lo.size() && is_digit(lo[e + 1])))) {
      if (lo[e] != ',') digits += lo[e];
      ++e;
    }
    if (starts) {
      try {
        out.push_back({std::stod(digits), p, e});
      } catch (...) {  // (no number: std::stod rejected the run)
      }
    }
    p = e;
  }
  return out;
}

// A count just after "after" (see log_text.h).
bool count_told_after(std::string_view lo, const ProseCount& c) {
  std::string_view head = trim_view(lo.substr(0, std::min(c.begin, lo.size())));
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::string_view f : {"the first", "only", "just", "about", "around", "over", "more than", "~", "roughly",
                               "approximately", "nearly", "almost"}) {
      if (head.size() >= f.size() && head.substr(head.size() - f.size()) == f &&
          (f == "~" || head.size() == f.size() || !word_char(head[head.size() - f.size() - 1]))) {
        head = trim_view(head.substr(0, head.size() - f.size()));
        stripped = true;
      }
    }
  }
  return head.size() >= 5 && head.substr(head.size() - 5) == "after" &&
         (head.size() == 5 || !word_char(head[head.size() - 6]));
}

// One GPU unable to hold a model of B parameters (see log_text.h).
bool single_gpu_cannot_hold_model(std::string_view lo) {
  // A model's size in billions where a word starts ("70b", "13 b", "llama-70b"), not "70b tokens".
  auto billions_named = [](std::string_view c) {
    for (const ProseCount& n : prose_counts(c)) {
      std::string_view after = c.substr(n.end);
      if (!after.empty() && after.front() == ' ') after.remove_prefix(1);
      if (!after.empty() && after.front() == 'b' && (after.size() == 1 || !is_alpha(after[1])) &&
          after.substr(1, 6) != " token") {
        return true;
      }
    }
    return false;
  };
  static constexpr std::string_view kOneDevice[] = {
      "single gpu", "one gpu", "single card", "one card", "a single device", "one device",
      "\xe5\x8d\x95\xe5\x8d\xa1", "\xe5\x8d\x95\xe5\xbc\xa0\xe5\x8d\xa1", "\xe4\xb8\x80\xe5\xbc\xa0\xe5\x8d\xa1"};  // 单卡, 单张卡, 一张卡
  static constexpr std::string_view kCannotHold[] = {
      "cannot load", "can't load", "can not load", "unable to load", "couldn't load", "could not load",
      "cannot fit", "can't fit", "can not fit", "unable to fit", "doesn't fit", "does not fit",
      "cannot hold", "can't hold", "\xe6\x97\xa0\xe6\xb3\x95\xe5\x8a\xa0\xe8\xbd\xbd",  // 无法加载
      "\xe5\x8a\xa0\xe8\xbd\xbd\xe4\xb8\x8d\xe4\xba\x86", "\xe6\x94\xbe\xe4\xb8\x8d\xe4\xb8\x8b",  // 加载不了, 放不下
      "\xe8\xa3\x85\xe4\xb8\x8d\xe4\xb8\x8b"};  // 装不下
  // (A clause holds a phrase only where the line does: a line without both is read no further.)
  if (!contains_any(lo, kOneDevice) || !contains_any(lo, kCannotHold)) return false;
  for (std::string_view c : clauses(lo)) {
    if (!billions_named(c) || c.find('?') != std::string_view::npos || contains_word(c, "if") ||
        zh_asked_supposed_or_denied(c)) {
      continue;
    }
    if (contains_any(c, kOneDevice) && contains_any(c, kCannotHold)) return true;
  }
  return false;
}

// A Chinese clause asking only why (see log_text.h).
bool zh_asked_why_only(std::string_view c) {
  if (c.find("\xe4\xb8\xba\xe4\xbb\x80\xe4\xb9\x88") == std::string_view::npos &&  // 为什么
      c.find("\xe4\xb8\xba\xe4\xbd\x95") == std::string_view::npos) {               // 为何
    return false;
  }
  // 没, 不是, 不会, 未, 是否, 吗, 如果, 假如, 的话, 够不够
  for (std::string_view x : {"\xe6\xb2\xa1", "\xe4\xb8\x8d\xe6\x98\xaf", "\xe4\xb8\x8d\xe4\xbc\x9a", "\xe6\x9c\xaa",
                             "\xe6\x98\xaf\xe5\x90\xa6", "\xe5\x90\x97", "\xe5\xa6\x82\xe6\x9e\x9c",
                             "\xe5\x81\x87\xe5\xa6\x82", "\xe7\x9a\x84\xe8\xaf\x9d",
                             "\xe5\xa4\x9f\xe4\xb8\x8d\xe5\xa4\x9f"}) {
    if (c.find(x) != std::string_view::npos) return false;
  }
  // 不 alone denies ("为什么显存不随着batch增加？"); in 不断 / 不停 it is "continually", in 不够 / 不足 the
  // shortage asked about ("为什么24G的显存还不够用？", why are 24G not enough?).
  for (size_t p = c.find("\xe4\xb8\x8d"); p != std::string_view::npos; p = c.find("\xe4\xb8\x8d", p + 3)) {
    const std::string_view next = c.substr(p + 3, 3);
    if (next != "\xe6\x96\xad" && next != "\xe5\x81\x9c" && next != "\xe5\xa4\x9f" && next != "\xe8\xb6\xb3") {
      return false;  // 断, 停, 够, 足
    }
  }
  return true;
}

// The memory's own shortage asked only why (see log_text.h).
bool zh_shortage_asked_why(std::string_view c) {
  if (!zh_asked_why_only(c) || c.find("\xe4\xbf\xae\xe5\xa4\x8d") != std::string_view::npos) return false;  // 修复
  for (std::string_view m : {"\xe6\x98\xbe\xe5\xad\x98", "\xe5\x86\x85\xe5\xad\x98"}) {  // 显存, 内存
    for (size_t p = c.find(m); p != std::string_view::npos; p = c.find(m, p + 6)) {
      const std::string_view after = c.substr(p + 6, 18);
      if (after.find("\xe4\xb8\x8d\xe5\xa4\x9f") != std::string_view::npos ||  // 不够
          after.find("\xe4\xb8\x8d\xe8\xb6\xb3") != std::string_view::npos) {  // 不足
        return true;
      }
    }
  }
  return false;
}

// A setting beside a rise (see log_text.h).
bool zh_setting_near(std::string_view lo, size_t begin, size_t end) {
  static constexpr std::string_view kSettings[] = {
      "batch", "bs", "seq", "lr", "max_", "size",
      "\xe5\xba\x8f\xe5\x88\x97", "\xe6\x89\xb9", "\xe9\x95\xbf\xe5\xba\xa6", "\xe5\xb0\xba\xe5\xaf\xb8",  // 序列, 批, 长度, 尺寸
      "\xe5\x88\x86\xe8\xbe\xa8\xe7\x8e\x87", "\xe5\x9b\xbe\xe7\x89\x87", "\xe8\xbe\x93\xe5\x85\xa5",       // 分辨率, 图片, 输入
      "\xe6\xa0\xb7\xe6\x9c\xac", "\xe5\xad\xa6\xe4\xb9\xa0\xe7\x8e\x87"};                                  // 样本, 学习率
  std::string_view next = lo.substr(std::min(end, lo.size()), 24);
  for (bool skipped = true; skipped;) {
    skipped = false;
    while (!next.empty() && next.front() == ' ') next.remove_prefix(1), skipped = true;
    for (std::string_view f : {"\xe4\xba\x86", "\xe5\x88\xb0", "\xe4\xb8\x80\xe4\xb8\x8b"}) {  // 了, 到, 一下
      if (next.substr(0, f.size()) == f) next.remove_prefix(f.size()), skipped = true;
    }
  }
  const std::string_view before = lo.substr(begin >= 12 ? begin - 12 : 0, begin >= 12 ? 12 : begin);
  for (std::string_view w : kSettings) {
    if (next.substr(0, w.size()) == w || before.find(w) != std::string_view::npos) return true;
  }
  return false;
}

// A rise asked only why, told going on in its clause (see log_text.h).
bool zh_rise_asked_why(std::string_view c) {
  // (Not another measure's rise named in the clause: "为什么训练时loss一直增加？" (loss), 耗时 / 时间 (time),
  // 速度 (speed), 精度 / 准确率 (accuracy), 损失 (loss).)
  if (!zh_asked_why_only(c) ||
      contains_any(c, {"loss", "acc", "\xe8\x80\x97\xe6\x97\xb6", "\xe6\x97\xb6\xe9\x97\xb4", "\xe9\x80\x9f\xe5\xba\xa6",
                       "\xe7\xb2\xbe\xe5\xba\xa6", "\xe5\x87\x86\xe7\xa1\xae\xe7\x8e\x87", "\xe6\x8d\x9f\xe5\xa4\xb1"})) {
    return false;
  }
  if (std::none_of(std::begin(kZhOngoing), std::end(kZhOngoing),
                   [&](std::string_view o) { return c.find(o) != std::string_view::npos; })) {
    return false;
  }
  for (std::string_view x : kZhRise) {
    for (size_t p = c.find(x); p != std::string_view::npos; p = c.find(x, p + 3)) {
      if (!zh_setting_near(c, p, p + x.size())) return true;
    }
  }
  return false;
}

// Chinese asked, supposed, denied or fixed (see log_text.h).
bool zh_asked_supposed_or_denied(std::string_view text) {
  // 如果 ... 的话 / 的話 (if ... in case) supposes, unless what follows the last 的话 tells the memory
  // exceeded or blown (超显存 / 爆显存 / 显存不足 / 显存不够 / 超内存 / 爆内存, traditional 超顯存 / 爆顯存 /
  // 顯存不足, or OOM as a word): "我在8张3090上面训练如果使用deepspeed zero2的话会超显存" tells what a setting
  // did, "如果显存不够的话，可以..." supposes the shortage. Still a supposition where the consequence is
  // hedged or asked (可能 "might", 会不会 / 能不能 / 是不是 "whether", 想问 / 请问 "I'd like to ask") or the
  // condition is someone else's words (说如果 / 说 ... 如果: "README里说如果内存小于32G的话会爆内存").
  size_t dehua = std::string_view::npos;  // the last 的话 / 的話
  for (std::string_view d : {std::string_view("\xe7\x9a\x84\xe8\xaf\x9d"), std::string_view("\xe7\x9a\x84\xe8\xa9\xb1")}) {
    const size_t at = text.rfind(d);
    if (at != std::string_view::npos && (dehua == std::string_view::npos || at > dehua)) dehua = at;
  }
  const size_t ruguo = text.find("\xe5\xa6\x82\xe6\x9e\x9c");  // 如果
  bool consequence_told = false;
  if (dehua != std::string_view::npos) {
    const std::string_view rest = text.substr(dehua + 6);
    const std::string_view head = text.substr(0, std::min(ruguo, dehua));
    consequence_told =
        (contains_any(rest, {"\xe8\xb6\x85\xe6\x98\xbe\xe5\xad\x98", "\xe7\x88\x86\xe6\x98\xbe\xe5\xad\x98",
                             "\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3", "\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe5\xa4\x9f",
                             "\xe8\xb6\x85\xe5\x86\x85\xe5\xad\x98", "\xe7\x88\x86\xe5\x86\x85\xe5\xad\x98",
                             "\xe8\xb6\x85\xe9\xa1\xaf\xe5\xad\x98", "\xe7\x88\x86\xe9\xa1\xaf\xe5\xad\x98",
                             "\xe9\xa1\xaf\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3", "out of memory"}) ||
         contains_word(rest, "oom")) &&
        !contains_any(rest, {"\xe5\x8f\xaf\xe8\x83\xbd", "\xe4\xbc\x9a\xe4\xb8\x8d\xe4\xbc\x9a",
                             "\xe8\x83\xbd\xe4\xb8\x8d\xe8\x83\xbd", "\xe6\x98\xaf\xe4\xb8\x8d\xe6\x98\xaf"}) &&
        !contains_any(text, {"\xe6\x83\xb3\xe9\x97\xae", "\xe8\xaf\xb7\xe9\x97\xae"}) &&
        head.find("\xe8\xaf\xb4") == std::string_view::npos;  // 说 (says)
  }
  if (!consequence_told && (ruguo != std::string_view::npos || dehua != std::string_view::npos)) return true;
  // Asked: a question mark, 吗, 是否 (whether), 够不够 (enough or not); not the question that asks only for a
  // way out after the failure is told ("会爆内存无法正常运行，有办法解决吗？": it blows the memory and cannot run,
  // is there a way to solve it?): the clause of 有办法解决 / 怎么解决 / 如何解决 / 怎么办 / 有什么办法 /
  // 有什么解决 and what follows it are no asking of the failure.
  std::string_view asked_text = text;
  for (std::string_view fix_ask : {"\xe6\x9c\x89\xe5\x8a\x9e\xe6\xb3\x95\xe8\xa7\xa3\xe5\x86\xb3",
                                   "\xe6\x80\x8e\xe4\xb9\x88\xe8\xa7\xa3\xe5\x86\xb3",
                                   "\xe5\xa6\x82\xe4\xbd\x95\xe8\xa7\xa3\xe5\x86\xb3",
                                   "\xe6\x80\x8e\xe4\xb9\x88\xe5\x8a\x9e",
                                   "\xe6\x9c\x89\xe4\xbb\x80\xe4\xb9\x88\xe5\x8a\x9e\xe6\xb3\x95",
                                   "\xe6\x9c\x89\xe4\xbb\x80\xe4\xb9\x88\xe8\xa7\xa3\xe5\x86\xb3"}) {
    const size_t at = asked_text.find(fix_ask);
    if (at == std::string_view::npos) continue;
    // (Back to the mark that opens its clause: "，" "。" "；" "," ";".)
    size_t open = 0;
    for (std::string_view mark : {"\xef\xbc\x8c", "\xe3\x80\x82", "\xef\xbc\x9b", ",", ";"}) {
      const size_t m = asked_text.substr(0, at).rfind(mark);
      if (m != std::string_view::npos && m + mark.size() > open) open = m + mark.size();
    }
    if (open > 0) asked_text = asked_text.substr(0, open);
  }
  for (const char* x : {"\xef\xbc\x9f", "?", "\xe5\x90\x97", "\xe6\x98\xaf\xe5\x90\xa6", "\xe5\xa4\x9f\xe4\xb8\x8d\xe5\xa4\x9f"}) {
    if (asked_text.find(x) != std::string_view::npos) return true;
  }
  for (const char* x : {"\xe4\xb8\x8d\xe4\xbc\x9a\xe7\x88\x86",
                        "\xe6\xb2\xa1\xe6\x9c\x89\xe7\x88\x86", "\xe6\xb2\xa1\xe7\x88\x86", "\xe4\xb8\x8d\xe7\x88\x86",
                        // 没撑爆 / 没有撑爆 / 不会撑爆 / 不撑爆 ("did not / will not blow it up"), 没爆掉
                        "\xe6\xb2\xa1\xe6\x92\x91\xe7\x88\x86", "\xe6\xb2\xa1\xe6\x9c\x89\xe6\x92\x91\xe7\x88\x86",
                        "\xe4\xb8\x8d\xe4\xbc\x9a\xe6\x92\x91\xe7\x88\x86", "\xe4\xb8\x8d\xe6\x92\x91\xe7\x88\x86",
                        "\xe6\xb2\xa1\xe7\x88\x86\xe6\x8e\x89",
                        // 不会超 / 没有超 / 没超 / 不超显存 / 不超内存 (did not / will not exceed: "就不会超显存了",
                        // "没有超显存")
                        "\xe4\xb8\x8d\xe4\xbc\x9a\xe8\xb6\x85", "\xe6\xb2\xa1\xe6\x9c\x89\xe8\xb6\x85",
                        "\xe6\xb2\xa1\xe8\xb6\x85", "\xe4\xb8\x8d\xe8\xb6\x85\xe6\x98\xbe\xe5\xad\x98",
                        "\xe4\xb8\x8d\xe8\xb6\x85\xe5\x86\x85\xe5\xad\x98",
                        "\xe6\xb2\xa1\xe6\x9c\x89\xe6\xba\xa2\xe5\x87\xba", "\xe6\x9c\xaa\xe6\xba\xa2\xe5\x87\xba",
                        "\xe4\xbf\xae\xe5\xa4\x8d",
                        // 没有内存过载 / 没有显存过载 / 没有过载 (not overloaded)
                        "\xe6\xb2\xa1\xe6\x9c\x89\xe5\x86\x85\xe5\xad\x98\xe8\xbf\x87\xe8\xbd\xbd",
                        "\xe6\xb2\xa1\xe6\x9c\x89\xe6\x98\xbe\xe5\xad\x98\xe8\xbf\x87\xe8\xbd\xbd",
                        "\xe6\xb2\xa1\xe6\x9c\x89\xe8\xbf\x87\xe8\xbd\xbd"}) {
    if (text.find(x) != std::string_view::npos) return true;
  }
  // 没有 / 没 / 未 right before a verb of memory used up: "显存没有用完" (the GPU's memory was not used up)
  for (std::string_view verb : kZhUsedUp) {
    for (size_t p = text.find(verb); p != std::string_view::npos; p = text.find(verb, p + 1)) {
      const std::string_view before = text.substr(0, p);
      for (std::string_view neg : {"\xe6\xb2\xa1\xe6\x9c\x89", "\xe6\xb2\xa1", "\xe6\x9c\xaa"}) {
        if (before.size() >= neg.size() && before.substr(before.size() - neg.size()) == neg) return true;
      }
    }
  }
  return false;
}

// The machine running out or stalling (see log_text.h).
bool cuda_memory_named(std::string_view t) {
  return t.find("cuda") != std::string_view::npos || t.find("gpu") != std::string_view::npos || contains_word(t, "vram") ||
         t.find("\xe6\x98\xbe\xe5\xad\x98") != std::string_view::npos ||
         t.find("\xe9\xa1\xaf\xe5\xad\x98") != std::string_view::npos ||  // 显存, 顯存 (traditional)
         t.find("\xe6\x98\xbe\xe5\x8d\xa1\xe5\x86\x85\xe5\xad\x98") != std::string_view::npos ||  // 显卡内存 (the graphics card's memory)
         t.find("video memory") != std::string_view::npos || t.find("video ram") != std::string_view::npos ||
         t.find("graphics memory") != std::string_view::npos;
}

bool gpu_denial_names_other(std::string_view lo, size_t e) {
  const std::string_view after = lo.substr(std::min(e, lo.size()), 12);
  for (std::string_view w : {" mem", " ram", " vram", " usage", " util", " process", "s were", " was used", " is used",
                             " offload", " graph"}) {
    if (after.rfind(w, 0) == 0) return true;
  }
  return false;
}

std::string gpu_denials_blanked(std::string_view lo) {
  std::string out(lo);
  for (std::string_view d : {"without gpu", "without a gpu", "without any gpu", "without the gpu", "without cuda", "no gpu"}) {
    for (size_t p = out.find(d); p != std::string::npos; p = out.find(d, p + 1)) {
      const size_t e = p + d.size();
      if ((p > 0 && word_char(out[p - 1])) || (e < out.size() && word_char(out[e]) && out[e] != 's')) continue;
      if (gpu_denial_names_other(out, e)) continue;
      std::fill(out.begin() + static_cast<std::ptrdiff_t>(p), out.begin() + static_cast<std::ptrdiff_t>(e), ' ');
    }
  }
  return out;
}

// The GPU's RAM told with "of" / "on" ("it exhausts the available RAM of GPU", "the RAM on the GPU"): the
// words whole ("program on the GPU", "histogram of GPU usage" are none), not a GPU machine's RAM ("the
// RAM on the GPU server", "RAM of GPU nodes").
bool gpu_ram_of_gpu_named(std::string_view lo) {
  for (std::string_view g : {"ram of gpu", "ram of the gpu", "ram of my gpu", "ram on gpu", "ram on the gpu", "ram on my gpu"}) {
    for (size_t p = lo.find(g); p != std::string_view::npos; p = lo.find(g, p + 1)) {
      const size_t e = p + g.size();
      if ((p > 0 && word_char(lo[p - 1])) || (e < lo.size() && word_char(lo[e]) && lo[e] != 's')) continue;
      size_t a = e < lo.size() && lo[e] == 's' ? e + 1 : e;  // ("the RAM of GPUs")
      while (a < lo.size() && lo[a] == ' ') ++a;
      size_t z = a;
      while (z < lo.size() && is_alpha(lo[z])) ++z;
      const std::string_view next = lo.substr(a, z - a);
      if (!in_list(next, {"server", "servers", "node", "nodes", "machine", "machines", "box", "instance", "instances",
                          "workstation", "cluster", "host", "rig"})) {
        return true;
      }
    }
  }
  return false;
}

bool gpu_ram_named(std::string_view lo) {
  return lo.find("video ram") != std::string_view::npos || lo.find("gpu ram") != std::string_view::npos ||
         lo.find("graphics ram") != std::string_view::npos || lo.find("vram") != std::string_view::npos ||
         lo.find("gpu's ram") != std::string_view::npos || lo.find("gpus' ram") != std::string_view::npos ||
         gpu_ram_of_gpu_named(lo);
}

bool accelerator_near(std::string_view lo, size_t at, size_t len) {
  const size_t from = at > 40 ? at - 40 : 0;
  return accelerator_named(lo.substr(from, at - from + len + 40));
}

bool accelerator_named(std::string_view t) {
  return cuda_memory_named(t) || contains_word(t, "npu") ||
         t.find("ascend") != std::string_view::npos || contains_word(t, "tpu") || contains_word(t, "xpu") ||
         contains_word(t, "hbm") || contains_word(t, "mps") || t.find("device memory") != std::string_view::npos ||
         t.find("accelerator") != std::string_view::npos;
}

bool cpu_memory_word(std::string_view lo) {
  for (size_t p = lo.find("cpu"); p != std::string_view::npos; p = lo.find("cpu", p + 1)) {
    if (!is_word_at(lo, p, 3)) continue;
    // Where something is moved, as the fix ("Fix checkpoint OOM by loading to CPU first", "offload
    // the optimizer onto the CPU"): not the memory that ran out.
    {
      std::string_view before = lo.substr(0, p);
      if (before.size() >= 4 && before.substr(before.size() - 4) == "the ") before.remove_suffix(4);
      bool moved_to = false;
      for (std::string_view to : {" to ", " onto ", " into "}) {
        moved_to = moved_to || (before.size() >= to.size() && before.substr(before.size() - to.size()) == to);
      }
      if (moved_to) continue;
    }
    // The processor's model after it ("CPU: i9-13900K", "CPU AMD Ryzen 9", "配置：CPU i9，显卡 ..."):
    // a hardware listing, not the memory that ran out.
    size_t q = p + 3;
    while (q < lo.size() && (lo[q] == ' ' || lo[q] == ':' || lo[q] == '=')) ++q;
    if (lo.compare(q, 3, "\xef\xbc\x9a") == 0) q += 3;  // '：'
    while (q < lo.size() && lo[q] == ' ') ++q;
    const std::string_view next = lo.substr(q, 14);
    bool model = next.size() >= 2 && next[0] == 'i' && (next[1] == '3' || next[1] == '5' || next[1] == '7' || next[1] == '9');
    for (std::string_view m : {"ryzen", "xeon", "epyc", "threadripper", "intel", "amd ", "core i", "apple m", "m1", "m2",
                               "m3", "m4"}) {
      model = model || next.compare(0, m.size(), m) == 0;
    }
    if (!model) return true;
  }
  return false;
}

bool machine_runs_out(std::string_view lo) {
  for (std::string_view m : {"system", "machine", "computer", "laptop", "pc", "desktop", "workstation"}) {
    for (size_t at = lo.find(m); at != std::string_view::npos; at = lo.find(m, at + 1)) {
      if (!is_word_at(lo, at, m.size())) continue;
      const std::string_view next = lo.substr(at + m.size(), 10);
      if (next.rfind(" prompt", 0) == 0 || next.rfind(" learning", 0) == 0 || next.rfind(" message", 0) == 0 ||
          next.rfind("-wide", 0) == 0) {
        continue;  // "system prompt", "machine learning model"
      }
      // The verb within the 40 characters after the noun, said of it.
      const std::string_view rest = lo.substr(at + m.size(), 40);
      // ("freeze" as written in "so my 4GB laptop freeze", the noun in "system freeze on ...")
      // (Also halted: "it makes my computer system halted".)
      for (std::string_view x : {"ran out of", "runs out of", "run out of", "is out of memory", "unresponsive", "froze",
                                 "freezes", "freeze", "is freezing", "was freezing", "hangs", "hung", "halted", "halts"}) {
        const size_t p = rest.find(x);
        if (p == std::string_view::npos || !word_starts_at(rest, p)) continue;
        if (x == "froze" && p + 5 < rest.size() && is_alpha(rest[p + 5])) continue;  // "frozen"
        if (x == "freeze" && !is_word_at(rest, p, 6)) continue;                        // ("freezes" above; "freezer")
        // (Halting said of the machine itself, at the clause's end: "my computer system halted."; not the
        // verb with an object or a span, "the queue system halts my job", "halts training", "halts for a
        // minute".)
        if (x == "halted" || x == "halts") {
          const size_t e = at + m.size() + p + x.size();
          if (e < lo.size() && lo[e] != '.' && lo[e] != ',' && lo[e] != ';' && lo[e] != '!' && lo[e] != ')' &&
              lo.compare(e, 4, " and") != 0 && lo.compare(e, 11, " completely") != 0) {
            continue;
          }
        }
        const std::string_view before = rest.substr(0, p);
        if (before.find("without") == std::string_view::npos && before.find("not") == std::string_view::npos &&
            before.find("n't") == std::string_view::npos && before.find("never") == std::string_view::npos &&
            before.find("no longer") == std::string_view::npos) {
          return true;
        }
      }
    }
  }
  return false;
}

bool batch_one_named(std::string_view lo) {
  for (size_t p = lo.find("batch"); p != std::string_view::npos; p = lo.find("batch", p + 5)) {
    size_t b = p;
    while (b > 0 && (is_alpha(lo[b - 1]) || is_digit(lo[b - 1]) || lo[b - 1] == '_')) --b;
    size_t q = p + 5;
    while (q < lo.size() && (is_alpha(lo[q]) || is_digit(lo[q]) || lo[q] == '_')) ++q;
    if (contains_any(lo.substr(b, q - b), {"batches", "batchnorm", "idx", "index", "num", "count", "eval", "val", "test",
                                           "infer", "predict"})) {
      continue;
    }
    bool joined = q > p + 5;  // "batch_size", "batchsize": a size's name
    for (;;) {
      while (q < lo.size() && (lo[q] == ' ' || lo[q] == '=' || lo[q] == ':' || lo[q] == '"' || lo[q] == '\'' ||
                               lo[q] == '`' || lo[q] == '-')) {
        joined = joined || lo[q] != ' ';
        ++q;
      }
      bool word = false;
      for (std::string_view w : {"size", "of", "to", "is", "as", "just", "only"}) {
        if (lo.compare(q, w.size(), w) == 0 && (q + w.size() >= lo.size() || !is_alpha(lo[q + w.size()]))) {
          q += w.size();
          word = joined = true;
          break;
        }
      }
      if (!word) break;
    }
    if (joined && q < lo.size() && lo[q] == '1' &&
        (q + 1 >= lo.size() || !(is_digit(lo[q + 1]) || is_alpha(lo[q + 1]) || lo[q + 1] == '*' || lo[q + 1] == '/' ||
                                 ((lo[q + 1] == '.' || lo[q + 1] == ',') && q + 2 < lo.size() && is_digit(lo[q + 2]))))) {
      return true;
    }
  }
  return false;
}

// A machine's memory beyond any accelerator's (see log_text.h).
bool host_sized_memory_named(std::string_view lo) {
  static constexpr std::string_view kNouns[] = {"node", "server", "machine", "box", "instance", "cluster", "ram", "memory"};
  auto noun_in = [&](std::string_view window) {
    for (std::string_view w : kNouns) {
      for (size_t p = window.find(w); p != std::string_view::npos; p = window.find(w, p + 1)) {
        if (word_starts_at(window, p)) return true;
      }
    }
    return false;
  };
  // Not an accelerator's memory told in sum ("an MI300X node with 1.5TB of HBM", "a DGX node with
  // 640GB", "8 x 80GB") nor a disk's ("a 512GB NVMe scratch disk").
  if (gpu_named(lo) || accelerator_named(lo) || contains_any(lo, {"hbm", "vram", "dgx", "hgx", "disk", "ssd", "nvme",
                                                                  "storage", "scratch", "dataset", " file"})) {
    return false;
  }
  for (size_t i = 0; i < lo.size(); ++i) {
    if (!is_digit(lo[i]) || (i > 0 && (is_digit(lo[i - 1]) || lo[i - 1] == '.' || is_alpha(lo[i - 1])))) continue;
    size_t j = i;
    double value = 0.0;
    while (j < lo.size() && is_digit(lo[j]) && j - i < 9) value = value * 10 + (lo[j++] - '0');
    if (j < lo.size() && lo[j] == '.') {
      double scale = 0.1;
      for (++j; j < lo.size() && is_digit(lo[j]); ++j, scale /= 10) value += (lo[j] - '0') * scale;
    }
    size_t u = j;
    if (u < lo.size() && lo[u] == ' ') ++u;
    size_t e = u;
    while (e < lo.size() && is_alpha(lo[e])) ++e;
    const std::string_view unit = lo.substr(u, e - u);
    double gib = 0.0;
    if (unit == "tb" || unit == "tib" || unit == "t") gib = value * 1024.0;
    else if (unit == "gb" || unit == "gib" || unit == "g") gib = value;
    if (gib < 256.0 || gib > 1.0e7) continue;
    if (lo.substr(e, 12).find("total") != std::string_view::npos) continue;  // "(320GB total)": a sum of devices
    const size_t from = i >= 20 ? i - 20 : 0;
    if (noun_in(lo.substr(e, 20)) || noun_in(lo.substr(from, i - from))) return true;
  }
  return false;
}

std::string_view utf8_prefix(std::string_view s, size_t n) {
  if (s.size() <= n) return s;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

// Memory told as full (see log_text.h).
bool memory_full_told(std::string_view lo) {
  if (contains_word(lo, "not") || lo.find("n't") != std::string_view::npos || contains_word(lo, "never")) return false;
  for (const char* f : {"gets full", "get full", "got full", "gets completely full", "becomes full", "became full", "is full",
                        "is completely full", "is almost full", "is totally full", "was full", "were full", "are full"}) {
    for (size_t p = lo.find(f); p != std::string_view::npos; p = lo.find(f, p + 1)) {
      const size_t end = p + std::strlen(f);
      if (!word_starts_at(lo, p) || (end < lo.size() && is_alpha(lo[end]))) continue;
      // What is full: the memory or "it" in the 30 characters before, not a disk, a queue or /tmp.
      const std::string_view before = lo.substr(p > 30 ? p - 30 : 0, p > 30 ? 30 : p);
      if (!(contains_word(before, "memory") || contains_word(before, "ram") || contains_word(before, "vram") ||
            contains_word(before, "it") || contains_word(before, "gpu")) ||
          contains_word(before, "disk") || contains_word(before, "storage") || contains_word(before, "drive") ||
          contains_word(before, "queue") || before.find("/tmp") != std::string_view::npos) {
        continue;
      }
      // The phrase ends there: punctuation, the line's end, or a word that does not make "full" an
      // adjective of something else ("full of old checkpoints", "full speed", "full bf16 training").
      const std::string_view after = lo.substr(end);
      if (after.empty() || std::string_view(".,;:!?)(-").find(after.front()) != std::string_view::npos) return true;
      for (const char* x : {" and", " now", " again", " already", " when", " after", " at ", " so", " but", " then", " with",
                            " on ", " during", " while", " because", " too", " quickly", " soon", " immediately", " by ",
                            " in ", " within", " before"}) {
        if (after.substr(0, std::strlen(x)) == x) return true;
      }
    }
  }
  return false;
}

// The first GPU alone used, in words (see log_text.h): "only" as a word before the first GPU's
// name, or right after it ("gpu 0 only"), that "only" not followed by a number ("gpu 0 memory used:
// only 4.1gb" is a reading), a verb of use or of filling, and not advice ("to use only the first
// GPU, set CUDA_VISIBLE_DEVICES") nor a one-GPU machine ("I only have one GPU", "only GPU 0 is
// visible").
bool only_first_gpu_used(std::string_view lo) {
  // zh: 只有 (only) with the first card (0号卡, 第一张卡, 第一块卡, gpu0, 卡0) and its use (占满 "filled",
  // 在涨 "rising", 在跑 "running", 占用 "occupied", 在用 "in use"); not 只有一张 / 只有一块 / 只有一个 / 单卡
  // (only one card).
  if (lo.find("\xe5\x8f\xaa\xe6\x9c\x89") != std::string_view::npos) {
    auto any = [&](std::initializer_list<const char*> ws) {
      return std::any_of(ws.begin(), ws.end(), [&](const char* w) { return lo.find(w) != std::string_view::npos; });
    };
    if (any({"0\xe5\x8f\xb7\xe5\x8d\xa1", "0 \xe5\x8f\xb7\xe5\x8d\xa1", "\xe7\xac\xac\xe4\xb8\x80\xe5\xbc\xa0\xe5\x8d\xa1",
             "\xe7\xac\xac\xe4\xb8\x80\xe5\x9d\x97\xe5\x8d\xa1", "gpu0", "gpu 0", "\xe5\x8d\xa1" "0"}) &&
        any({"\xe5\x8d\xa0\xe6\xbb\xa1", "\xe5\x9c\xa8\xe6\xb6\xa8", "\xe5\x9c\xa8\xe8\xb7\x91", "\xe5\x8d\xa0\xe7\x94\xa8",
             "\xe5\x9c\xa8\xe7\x94\xa8"}) &&
        !any({"\xe5\x8f\xaa\xe6\x9c\x89\xe4\xb8\x80\xe5\xbc\xa0", "\xe5\x8f\xaa\xe6\x9c\x89\xe4\xb8\x80\xe5\x9d\x97",
              "\xe5\x8f\xaa\xe6\x9c\x89\xe4\xb8\x80\xe4\xb8\xaa", "\xe5\x8d\x95\xe5\x8d\xa1"})) {
      return true;
    }
  }
  if (lo.find("use only") != std::string_view::npos || lo.find("set cuda_visible_devices") != std::string_view::npos ||
      lo.find("setting cuda_visible_devices") != std::string_view::npos || contains_word(lo, "set") ||
      lo.find("only have") != std::string_view::npos || lo.find("only one") != std::string_view::npos ||
      lo.find("only 1 ") != std::string_view::npos || contains_word(lo, "visible")) {
    return false;
  }
  // Some "only" (as a word, not before a number) with the first GPU named after it or "only" right
  // after the name.
  bool first = false;
  for (size_t only = lo.find("only"); !first && only != std::string_view::npos; only = lo.find("only", only + 1)) {
    if (!is_word_at(lo, only, 4)) continue;
    size_t after_only = only + 4;
    while (after_only < lo.size() && lo[after_only] == ' ') ++after_only;
    if (after_only < lo.size() && is_digit(lo[after_only])) continue;  // "only 4.1gb"
    for (std::string_view g : kFirstGpuNames) {
      for (size_t at = lo.find(g); !first && at != std::string_view::npos; at = lo.find(g, at + 1)) {
        first = at > only || lo.substr(at + g.size(), 5) == " only";
      }
    }
  }
  if (!first) return false;
  for (const char* v : {"used", "uses", "allocated", "allocates", "occupied", "goes", "lands", "loaded", "increases", "grows",
                        "fills", "full", "busy", "grabs", "piles"}) {
    if (contains_word(lo, v)) return true;
  }
  return false;
}

// GPU memory uneven across devices, in the user's words, on one line (`raw`, `lo` its lowercase):
// a GPU, a card (显卡, 号卡, N 张卡), 显存 or a rank 0 named on the line and, in one clause of it
// (split at ". ", "; ", " but ", " while ", ", and "), the memory named (memory, mem, VRAM, 显存; "usage" where the line holds
// no percentage, utilization, time or speed) with a word of unevenness ("imbalance", "unbalanced",
// "uneven", "unequal", "not balanced", "more ... than the others", "than other GPUs", 不均衡 /
// 不平衡): "GPUs memory imbalance", "the memory usage of GPU0 is significantly higher than other
// GPUs", "the usage of the first GPU is much larger than the others". Not a program's line
// (has_log_prefix()), a fix announced ("fixed", "fixes"), an unevenness expected or meant ("as
// expected", "on purpose"), denied ("no imbalance", "no longer", "nothing uneven"), nor another
// thing uneven on the line: experts' routing, a dataset, labels or samples, the loss, time, speed,
// utilization, a LoRA rank.
bool gpu_memory_imbalance_prose(std::string_view raw, std::string_view lo) {
  auto any_word = [&](std::string_view t, std::initializer_list<const char*> ws) {
    return std::any_of(ws.begin(), ws.end(), [&](const char* w) { return contains_word(t, w); });
  };
  auto any_text = [&](std::string_view t, std::initializer_list<const char*> ws) {
    return std::any_of(ws.begin(), ws.end(), [&](const char* w) { return t.find(w) != std::string_view::npos; });
  };
  const bool gpu = any_word(lo, {"gpu", "gpus", "gpu0", "ranks", "card", "cards"}) ||
                   // 显卡 (graphics card), 号卡 (card No.), 张卡 (N cards), 显存 (a GPU's memory, by its name)
                   any_text(lo, {"rank 0", "rank0", "cuda:0", "\xe6\x98\xbe\xe5\x8d\xa1", "\xe5\x8f\xb7\xe5\x8d\xa1",
                                 "\xe5\xbc\xa0\xe5\x8d\xa1", "\xe6\x98\xbe\xe5\xad\x98"});
  if (!gpu || has_log_prefix(raw)) return false;
  if (any_word(lo, {"fixed", "fixes", "fixing", "expert", "experts", "router", "routing", "dataset", "label", "labels",
                    "sample", "samples", "loss", "time", "speed", "utilization", "util", "idle", "lora"}) ||
      any_text(lo, {"as expected", "is expected", "on purpose", "no imbalance", "not unbalanced", "not imbalanced",
                    "isn't unbalanced", "not uneven", "no longer", "no more", "nothing"})) {
    return false;
  }
  const bool usage_is_memory = lo.find('%') == std::string_view::npos;
  size_t from = 0;
  while (from < lo.size()) {
    size_t end = lo.size(), sep_size = 0;
    for (std::string_view sep : {". ", "; ", " but ", " while ", ", and "}) {
      const size_t at = lo.find(sep, from);
      if (at < end) {
        end = at;
        sep_size = sep.size();
      }
    }
    const std::string_view clause = lo.substr(from, end - from);
    from = end + sep_size;
    if (sep_size == 0) from = lo.size();
    const bool memory = any_word(clause, {"memory", "memories", "mem", "vram"}) || any_text(clause, {"\xe6\x98\xbe\xe5\xad\x98"}) ||
                        (usage_is_memory && any_word(clause, {"usage"}));
    const bool uneven =
        any_word(clause, {"imbalance", "imbalanced", "unbalanced", "unbalance", "uneven", "unevenly", "unequal", "unequally"}) ||
        any_text(clause, {"not balanced", "than the others", "than others", "than the other gpu", "than other gpu",
                          "than the other rank", "than other rank", "\xe4\xb8\x8d\xe5\x9d\x87\xe8\xa1\xa1",
                          "\xe4\xb8\x8d\xe5\xb9\xb3\xe8\xa1\xa1"}) ||  // 不均衡, 不平衡
        only_first_gpu_used(clause);
    if (memory && uneven) return true;
  }
  return false;
}

namespace {

// Multiplier of a unit at `pos`; 0 when none. `len` receives its length.
long double unit_at(std::string_view s, size_t pos, bool mps, bool bare, size_t& len) {
  auto is = [&](std::string_view u) { return istarts_with(s.substr(pos), u); };
  const long double k2 = 1024.0L;
  if (is("bytes")) { len = 5; return 1; }
  if (is("byte")) { len = 4; return 1; }
  static const char kPrefixes[] = "kmgtpe";
  for (int p = 0; p < 6; ++p) {
    const char pre = kPrefixes[p];
    if (pos >= s.size() || lower_char(s[pos]) != pre) continue;
    const long double bin = std::pow(k2, p + 1);
    const long double dec = std::pow(1000.0L, p + 1);
    if (pos + 2 < s.size() + 0 && lower_char(s[pos + 1]) == 'i' && lower_char(s[pos + 2]) == 'b') {
      len = 3;
      return bin;
    }
    if (pos + 1 < s.size() && lower_char(s[pos + 1]) == 'b') {
      len = 2;
      return mps ? bin : dec;
    }
    if (bare) {
      len = 1;
      return bin;
    }
    return 0;
  }
  if (pos < s.size() && lower_char(s[pos]) == 'b') {
    len = 1;
    return 1;
  }
  return 0;
}

}  // namespace

std::optional<PrintedSize> size_at(std::string_view s, size_t pos, bool mps_units, bool bare_suffix) {
  // A minus sign before the digits ("you tried to allocate -8589934592 bytes"): a size that wrapped
  // past int64 in a shape's product, kept as printed and flagged like one beyond int64.
  // (Also with the typeset minus U+2212, as a rendered page pastes it.)
  constexpr std::string_view kMinus = "\xe2\x88\x92";
  const size_t sign = pos + 1 < s.size() && s[pos] == '-' && is_digit(s[pos + 1])                     ? 1
                      : pos + 3 < s.size() && s.substr(pos, 3) == kMinus && is_digit(s[pos + 3]) ? 3
                                                                                                   : 0;
  const bool negative = sign > 0;
  size_t i = pos + sign;
  const size_t int_digits = digits(s, i);
  if (int_digits == 0) return std::nullopt;
  i += int_digits;
  size_t frac_digits = 0;
  if (i < s.size() && s[i] == '.' && digits(s, i + 1) > 0) {
    frac_digits = digits(s, i + 1);
    i += 1 + frac_digits;
  }
  size_t unit_len = 0;
  const long double mult = unit_at(s, i, mps_units, bare_suffix, unit_len);
  if (mult == 0) return std::nullopt;
  PrintedSize out;
  out.begin = pos;
  out.end = i + unit_len;
  out.printed = std::string(s.substr(pos, out.end - pos));
  if (negative) {
    out.negative = true;
    out.overflow = true;
    out.bytes = std::numeric_limits<int64_t>::max();
    return out;
  }
  // Leading zeros carry no size ("0001073741824 bytes" is 1 GiB): the significant digits decide.
  size_t zeros = 0;
  while (zeros + 1 < int_digits && s[pos + zeros] == '0') ++zeros;
  if (int_digits - zeros > 30) {
    out.overflow = true;
    out.bytes = std::numeric_limits<int64_t>::max();
    return out;
  }
  const std::string number(
      s.substr(pos + zeros, int_digits - zeros + (frac_digits ? frac_digits + 1 : 0)).substr(0, 64));
  const long double value = std::strtold(number.c_str(), nullptr) * mult;
  // Beyond int64 only past its maximum (2^63 - 1, exact in long double's 64-bit mantissa); rounded
  // in long double, not through a double (which rounds 2^63 - 1 up to 2^63).
  if (!(value < 9223372036854775807.5L)) {
    out.overflow = true;
    out.bytes = std::numeric_limits<int64_t>::max();
  } else {
    out.bytes = static_cast<int64_t>(std::llroundl(value));
  }
  return out;
}

bool question_tacked_on(std::string_view clause, size_t p) {
  for (size_t c = clause.find(", ", p); c != std::string_view::npos; c = clause.find(", ", c + 2)) {
    const std::string_view rest = clause.substr(c + 2);
    for (std::string_view q : {"is there", "are there", "how ", "what ", "why", "can ", "could ", "any ", "does ", "do ",
                               "should ", "is it", "please"}) {
      if (rest.substr(0, q.size()) == q) return true;
    }
  }
  return false;
}

bool problem_told_there(std::string_view clause) {
  // "there" opens the clause or the part after its last comma ("when I try to create the API,
  // there has always been ..."), only joining words before it ("and", "but", "so", "then"): not a
  // question's inner clause ("does the process get killed when there is an error ...?").
  const size_t comma = clause.rfind(", ", clause.find("there"));
  const std::vector<std::string_view> w = alnum_words(comma == std::string_view::npos ? clause : clause.substr(comma + 2));
  size_t i = 0;
  while (i < w.size() && in_list(w[i], {"and", "but", "so", "then", "however", "also"})) ++i;
  if (i >= w.size() || w[i] != "there") return false;
  size_t k = i + 1;
  auto skip = [&](std::initializer_list<std::string_view> set) {
    while (k < w.size() && in_list(w[k], set)) ++k;
  };
  skip({"always", "still", "also"});
  if (k >= w.size()) return false;
  if (in_list(w[k], {"has", "have", "had", "s"})) {
    // "there has (always) been", "there's always been"; "there's a problem" is "there is"
    const bool s_form = w[k] == "s";
    ++k;
    skip({"always", "still", "also"});
    if (k < w.size() && w[k] == "been") {
      ++k;
    } else if (!s_form) {
      return false;
    }
  } else if (in_list(w[k], {"is", "was", "are", "were"})) {
    ++k;
  } else {
    return false;
  }
  skip({"always", "still", "also", "a", "an", "the", "this", "some"});
  return k < w.size() && in_list(w[k], {"problem", "problems", "issue", "issues", "error", "errors", "bug"});
}

bool kill_not_the_failure(std::string_view lo, size_t p) {
  const std::string_view before = lo.substr(p > 16 ? p - 16 : 0, std::min<size_t>(p, 16));
  if (contains_any(before, {"object is ", "object was ", "objects are ", "objects were "})) {
    return true;
  }
  const std::string_view cl = clause_at(lo, p);
  const size_t until = cl.find("until");
  if (until == std::string_view::npos || static_cast<size_t>(cl.data() - lo.data()) + until >= p) return false;
  return contains_any(cl.substr(0, until), {"not freed", "not released", "n't freed", "n't released", "not free ", "n't free ",
                                            "never freed", "never released", "stays allocated", "remains allocated",
                                            "held until", "kept until"});
}

bool asked_at(std::string_view lo, size_t p) {
  const std::string_view whole = clause_at(lo, p);
  const std::string_view trimmed = trim_view(whole);
  return !trimmed.empty() && trimmed.back() == '?' &&
         !question_tacked_on(whole, p - static_cast<size_t>(whole.data() - lo.data())) && !problem_told_there(whole);
}

bool leak_guessed(std::string_view lo) {
  const size_t lk = lo.find("leak");
  if (lk == std::string_view::npos) return false;
  return contains_any(clause_at(lo, lk), {"might be", "may be", "could be", "thinking that", "wondering if", "whether",
                                          "suspect", "probably", "maybe", "perhaps"});
}

bool image_format_named(std::string_view lo) {
  for (std::string_view f : {"bmp", "png", "jpg", "jpeg", "tiff"}) {
    if (contains_word(lo, f)) return true;
  }
  return false;
}

std::vector<std::string_view> sentences(std::string_view lo) {
  std::vector<std::string_view> out;
  size_t from = 0;
  for (size_t i = 0; i < lo.size(); ++i) {
    if ((lo[i] == '.' || lo[i] == '?' || lo[i] == '!') && (i + 1 == lo.size() || lo[i + 1] == ' ')) {
      out.push_back(lo.substr(from, i + 1 - from));
      from = i + 1;
    }
  }
  if (from < lo.size()) out.push_back(lo.substr(from));
  return out;
}

std::vector<std::string_view> alnum_words(std::string_view t) {
  std::vector<std::string_view> w;
  for (size_t p = 0; p < t.size();) {
    while (p < t.size() && !(is_alpha(t[p]) || is_digit(t[p]))) ++p;
    size_t e = p;
    while (e < t.size() && (is_alpha(t[e]) || is_digit(t[e]))) ++e;
    if (e > p) w.push_back(t.substr(p, e - p));
    p = e;
  }
  return w;
}

std::vector<std::string_view> clauses(std::string_view lo) {
  std::vector<std::string_view> out;
  size_t from = 0;
  // A clause that opens with a concession ("although empty_cache did not help, no_grad fixed it",
  // "even though ..., ..."): its first ", " ends it.
  auto concessive = [&](size_t at) {
    while (at < lo.size() && lo[at] == ' ') ++at;
    for (std::string_view w : {"although ", "even though ", "though ", "whereas ", "while "}) {
      if (lo.compare(at, w.size(), w) == 0) return true;
    }
    return false;
  };
  bool open_concession = concessive(0);
  size_t sentence_end = 0;  // where the sentence holding the last dash looked at ends (the dash's test below)
  for (size_t i = 0; i + 1 < lo.size(); ++i) {
    // (A comma right after the opener is an aside: "Although, to be honest, ..." goes on; the
    // concession holds at least three words.)
    if (open_concession && lo[i] == ',' && lo[i + 1] == ' ' &&
        std::count(lo.begin() + static_cast<std::ptrdiff_t>(from), lo.begin() + static_cast<std::ptrdiff_t>(i), ' ') >= 3) {
      out.push_back(lo.substr(from, i + 1 - from));
      from = i + 1;
      open_concession = false;
      continue;
    }
    const bool stop = (lo[i] == '.' || lo[i] == ';' || lo[i] == '?' || lo[i] == '!') && lo[i + 1] == ' ';
    const bool but = lo.compare(i, 5, " but ") == 0;
    // A hyphen dash after a clause of three words or more ("I couldn't do it - after the training
    // started, all 32 gigs of RAM were taken"): what the one side denies is not the other's. Not in a
    // sentence that asks ("Is the RAM exhausted - or is it the VRAM?": its first half is asked too),
    // nor after a label ("System RAM - maxed out"). (Not an em dash, which more often opens an aside
    // that explains: "OOMs at iteration 3 — the allocator can't find a contiguous block because of
    // fragmentation".)
    bool dash = i > 0 && lo[i] == ' ' && (lo.compare(i, 3, " - ") == 0 || lo.compare(i, 4, " -- ") == 0) &&
                is_alpha(lo[i - 1]);
    if (dash) {
      // The sentence's end: the next ". ", "! ", "? " or the line's end (found once per sentence, so
      // a line of many dashes stays linear).
      if (sentence_end < i) {
        sentence_end = i + 1;
        while (sentence_end < lo.size() &&
               !((lo[sentence_end] == '.' || lo[sentence_end] == '!' || lo[sentence_end] == '?') &&
                 (sentence_end + 1 == lo.size() || lo[sentence_end + 1] == ' '))) {
          ++sentence_end;
        }
      }
      const std::string_view before = trim_view(lo.substr(from, i - from));  // three words: two spaces between them
      dash = !(sentence_end < lo.size() && lo[sentence_end] == '?') && std::count(before.begin(), before.end(), ' ') >= 2;
    }
    // A contrast inside a sentence ("no_grad fixed it, while empty_cache did nothing", "the batch
    // was halved, although it still OOMs"): what one side denies is not the other's.
    auto at = [&](std::string_view w) { return lo.compare(i, w.size(), w) == 0; };
    // ("even though" whole: the split goes before "even", not between its words.)
    const char n1 = lo[i + 1];  // the next word's first letter: most spaces open none of these
    const bool contrast = lo[i] == ' ' && (n1 == 'w' || n1 == 'a' || n1 == 'e' || n1 == 't' || n1 == 'h') &&
                          (at(" whereas ") || at(" although ") || at(" even though ") ||
                           (at(" though ") && !(i >= 4 && lo.compare(i - 4, 4, "even") == 0)) ||
                           (i > 0 && lo[i - 1] == ',' && (at(" while ") || at(" however"))));
    if (stop || but || contrast || dash) {
      out.push_back(lo.substr(from, i + 1 - from));
      from = i + 1;
      open_concession = concessive(from);
      continue;
    }
    // An ASCII comma beside a non-ASCII byte, as in Chinese text ("内存被吃光了,GPU显存还有").
    if (lo[i] == ',' && ((i > 0 && static_cast<unsigned char>(lo[i - 1]) >= 0x80) ||
                         static_cast<unsigned char>(lo[i + 1]) >= 0x80)) {
      out.push_back(lo.substr(from, i + 1 - from));
      from = i + 1;
      continue;
    }
    // U+FF0C U+FF1B U+FF1F U+FF01 (EF BC 8C / 9B / 9F / 81) and U+3002 (E3 80 82).
    const bool wide = i + 2 < lo.size() &&
                      ((lo[i] == '\xef' && lo[i + 1] == '\xbc' &&
                        (lo[i + 2] == '\x8c' || lo[i + 2] == '\x9b' || lo[i + 2] == '\x9f' || lo[i + 2] == '\x81')) ||
                       (lo[i] == '\xe3' && lo[i + 1] == '\x80' && lo[i + 2] == '\x82'));
    if (wide) {
      out.push_back(lo.substr(from, i + 3 - from));
      from = i + 3;
      i += 2;
    }
  }
  out.push_back(lo.substr(from));
  return out;
}

std::string_view clause_at(std::string_view lo, size_t pos) {
  for (std::string_view c : clauses(lo)) {
    const size_t from = static_cast<size_t>(c.data() - lo.data());
    if (pos >= from && pos < from + c.size()) return c;
  }
  return {};
}

bool name_told_absent(std::string_view lo, size_t at) {
  if (at >= lo.size()) return false;
  // (Cheap first: no denial's word within reach before the name and no search on the line, as on nearly every
  // line of a real log, is no denial; the clause is not split then.)
  const std::string_view reach = lo.substr(at >= 40 ? at - 40 : 0, at >= 40 ? 40 : at);
  const bool searched = lo.find("grep") != std::string_view::npos || lo.find("search") != std::string_view::npos;
  if (!searched && !contains_any(reach, {"no", "n't", "never", "without"})) return false;
  const std::string_view after = lo.substr(at);
  // Searched for and not found: a search told on the line, its empty result after the name.
  if (searched && (contains_word_start(lo, "grep") || contains_word_start(lo, "search")) &&
      contains_any(after, {"found nothing", "nothing found", "no matches", "no hits", "returns nothing", "returned nothing",
                           "gives nothing", "gave nothing", "nothing came up", "found no "})) {
    return true;
  }
  const std::string_view cl = clause_at(lo, at);
  if (cl.empty()) return false;
  const size_t from = static_cast<size_t>(cl.data() - lo.data());
  std::string_view head = cl.substr(0, at - from);
  // (A device's or the memory's name between the denial and the failure's: "no CUDA OOM", "not a GPU OOM".)
  for (std::string_view dev : {"cuda ", "gpu ", "cpu ", "host ", "vram ", "ram ", "memory "}) {
    if (head.size() >= dev.size() && head.substr(head.size() - dev.size()) == dev &&
        word_starts_at(lo, from + head.size() - dev.size())) {
      head.remove_suffix(dev.size());
      break;
    }
  }
  bool without = false, denied = false;
  for (std::string_view d : {"no ", "no more ", "not ", "not a ", "not an ", "never ", "isn't ", "isn't a ", "isn't an ",
                             "wasn't ", "wasn't a ", "wasn't an ", "without ", "without a ", "without an ", "without any "}) {
    if (head.size() >= d.size() && head.substr(head.size() - d.size()) == d && word_starts_at(lo, from + head.size() - d.size())) {
      denied = true;
      without = d.rfind("without", 0) == 0;
      break;
    }
  }
  // "any" after a denial a few words back: "I didn't see any OOM", "we never got any out of memory".
  if (!denied && head.size() >= 4 && head.substr(head.size() - 4) == "any " && word_starts_at(lo, from + head.size() - 4)) {
    const std::string_view near = head.substr(head.size() >= 24 ? head.size() - 24 : 0);
    denied = contains_any(near, {"n't ", "not ", "never ", "without "});
  }
  if (!denied) return false;
  // The work told failing for it ("I can't train it without OOM"), or the failure coming later.
  // (Also asked how to do the work without it: "how run null text inversion on a T4 without CUDA out of memory",
  // "is there a way to train it without OOM", "so I can run it on my GPU without CUDA OOM".)
  if (without && (contains_any(cl, {"can't", "cannot", "can not", "unable", "not able", "difficult", "hard to", "impossible",
                                    "fail", "struggl", "is there a way", "is there any way", "so i can", "so that i can",
                                    "wondering"}) ||
                  contains_word(cl, "how"))) {
    return false;
  }
  return !contains_any(after, {"until", "till ", "but then", "at first"});
}

size_t zh_kill_at(std::string_view lo) {
  constexpr std::string_view kGpuMemory = "\xe6\x98\xbe\xe5\xad\x98";  // 显存
  if (lo.find(kGpuMemory) != std::string_view::npos) return std::string_view::npos;
  static constexpr std::string_view kKilled[] = {
      "\xe8\xa2\xabkill",                        // 被kill
      "\xe8\x87\xaa\xe5\x8a\xa8kill",            // 自动kill
      "kill\xe6\x8e\x89",                        // kill掉
      "kill\xe4\xba\x86",                        // kill了
      "kill\xe7\xa8\x8b\xe5\xba\x8f",            // kill程序
      "kill\xe8\xbf\x9b\xe7\xa8\x8b",            // kill进程
      "\xe8\xa2\xab\xe6\x9d\x80",                // 被杀
      "\xe6\x9d\x80\xe6\x8e\x89",                // 杀掉
      "\xe6\x9d\x80\xe6\xad\xbb",                // 杀死
      "\xe7\xb3\xbb\xe7\xbb\x9f\xe4\xbc\x9aoom",  // 系统会oom
      "\xe7\xb3\xbb\xe7\xbb\x9foom",             // 系统oom
  };
  for (std::string_view k : kKilled) {
    for (size_t p = lo.find(k); p != std::string_view::npos; p = lo.find(k, p + 1)) {
      const std::string_view before = lo.substr(p >= 9 ? p - 9 : 0, p >= 9 ? 9 : p);
      if (before.find("\xe6\xb2\xa1") != std::string_view::npos ||  // 没 (not)
          before.find("\xe4\xb8\x8d") != std::string_view::npos ||  // 不 (not)
          before.find("\xe6\x88\x91") != std::string_view::npos ||  // 我 (I: my own kill)
          before.find("\xe6\x89\x8b\xe5\x8a\xa8") != std::string_view::npos) {  // 手动 (by hand)
        continue;
      }
      // The user's act with its object first: 把 / 将 up to eight characters before, in the same clause
      // ("把进程kill掉", "将后台任务杀掉": kill the (background) process).
      std::string_view object = lo.substr(p >= 24 ? p - 24 : 0, p >= 24 ? 24 : p);
      for (std::string_view cut : {"\xef\xbc\x8c", "\xe3\x80\x82", ",", "."}) {  // ， 。 , .
        if (const size_t c = object.rfind(cut); c != std::string_view::npos) object.remove_prefix(c + cut.size());
      }
      if (object.find("\xe6\x8a\x8a") != std::string_view::npos ||  // 把
          object.find("\xe5\xb0\x86") != std::string_view::npos) {  // 将
        continue;
      }
      return p;
    }
  }
  return std::string_view::npos;
}

bool zh_kill_told(std::string_view lo) {
  // Memory told growing or leaking on the line ("内存持续增长，直到内存被耗尽被操作系统kill掉": it grows
  // until the OS kills it): the kill ends that growth, which the growth's reading weighs.
  for (std::string_view grows : {"\xe5\xa2\x9e\xe9\x95\xbf", "\xe5\xa2\x9e\xe5\x8a\xa0", "\xe6\xb3\x84\xe6\xbc\x8f",
                                 "\xe6\xb3\x84\xe9\x9c\xb2"}) {  // 增长 增加 泄漏 泄露
    if (lo.find(grows) != std::string_view::npos) return false;
  }
  return zh_kill_at(lo) != std::string_view::npos;
}

bool hotspot_native_failure(std::string_view message) {
  return icontains(message, "commit_memory") || icontains(message, "native memory allocation");
}

bool printed_negative(std::string_view printed) {
  return (!printed.empty() && printed[0] == '-') || printed.substr(0, 3) == "\xe2\x88\x92";
}

EqualHoldings equal_small_holdings(const std::vector<int64_t>& held, int64_t small_max) {
  EqualHoldings out;
  std::vector<int64_t> small;
  for (const int64_t x : held) {
    if (x > small_max) {
      ++out.large;
    } else if (small.size() < 64) {
      small.push_back(x);
    }
  }
  for (const int64_t x : small) {
    size_t near = 0;
    int64_t hi = x;
    for (const int64_t y : small) {
      if (y >= x && static_cast<double>(y) <= 1.1 * static_cast<double>(x)) ++near, hi = std::max(hi, y);
    }
    if (near > out.count) out.count = near, out.lo = x, out.hi = hi;
  }
  return out;
}

std::string spaced_unit(std::string_view printed) {
  for (size_t i = 1; i < printed.size(); ++i) {
    if (is_digit(printed[i - 1]) && is_alpha(printed[i])) {
      return std::string(printed.substr(0, i)) + " " + std::string(printed.substr(i));
    }
  }
  return std::string(printed);
}

std::optional<PrintedSize> size_after(std::string_view s, std::string_view label, bool mps_units, bool bare_suffix) {
  const size_t p = ifind(s, label);
  if (p == std::string_view::npos) return std::nullopt;
  return size_at(s, p + label.size(), mps_units, bare_suffix);
}

std::optional<PrintedSize> size_before(std::string_view s, std::string_view label, bool mps_units) {
  for (size_t p = ifind(s, label); p != std::string_view::npos; p = ifind(s, label, p + 1)) {
    size_t i = p;
    size_t letters = 0;
    while (i > 0 && is_alpha(s[i - 1]) && letters < 5) {
      --i;
      ++letters;
    }
    size_t j = i;
    while (j > 0 && (is_digit(s[j - 1]) || s[j - 1] == '.') && i - j < 40) --j;
    while (j < i && !is_digit(s[j])) ++j;
    if (j == i) continue;
    auto v = size_at(s, j, mps_units, false);
    if (v && v->end == p) {
      // "-512.00 MiB free": the minus before the digits makes it a corrupted figure, not 512 MiB.
      if (j > 0 && s[j - 1] == '-') v->negative = v->overflow = true;
      return v;
    }
  }
  return std::nullopt;
}

std::optional<int64_t> integer_at(std::string_view s, size_t pos, size_t* end) {
  const size_t d = digits(s, pos);
  if (d == 0 || d > 18) return std::nullopt;
  int64_t v = 0;
  for (size_t k = 0; k < d; ++k) v = v * 10 + (s[pos + k] - '0');
  if (end) *end = pos + d;
  return v;
}

std::optional<int64_t> integer_after(std::string_view s, std::string_view label) {
  const size_t p = ifind(s, label);
  if (p == std::string_view::npos) return std::nullopt;
  size_t i = p + label.size();
  while (i < s.size() && (is_space(s[i]) || s[i] == '=' || s[i] == ':' || s[i] == '(' || s[i] == '"' || s[i] == '\'')) ++i;
  return integer_at(s, i);
}

std::optional<ProseNumber> prose_number_at(std::string_view lo, size_t p) {
  if (p >= lo.size() || !is_digit(lo[p]) || (p > 0 && (word_char(lo[p - 1]) || lo[p - 1] == '.'))) return std::nullopt;
  ProseNumber out;
  size_t e = p;
  while (e < lo.size() && (is_digit(lo[e]) || lo[e] == '.')) ++e;
  size_t u = e;
  if (u < lo.size() && lo[u] == ' ') ++u;
  size_t ue = u;
  while (ue < lo.size() && is_alpha(lo[ue])) ++ue;
  const std::string_view unit = lo.substr(u, ue - u);
  constexpr int64_t kMiB = int64_t{1} << 20, kGiB = int64_t{1} << 30, kTiB = int64_t{1} << 40;
  // A plural names devices of that size ("8 A100-40Gs", "two 24GBs").
  if (unit == "gb" || unit == "gib" || unit == "g" || unit == "gs" || unit == "gbs") out.unit_bytes = kGiB;
  else if (unit == "mb" || unit == "mib" || unit == "m") out.unit_bytes = kMiB;
  else if (unit == "tb" || unit == "tib") out.unit_bytes = kTiB;
  out.chars = e - p;
  out.end = ue;
  if (out.unit_bytes > 0 && out.chars <= 12) out.value = std::strtod(std::string(lo.substr(p, e - p)).c_str(), nullptr);
  return out;
}

// The GPU's memory named on the line ("GPU RAM", "VRAM", "GPUs' RAM", "graphics"), or a CUDA
// message: then "RAM" there is not the host's.
bool gpu_memory_named(std::string_view lo) {
  // zh: 显存 (the GPU's memory), GPU内存 / 显卡内存 / 显卡的内存 (the GPU's / the graphics card's memory).
  // (Also the GPU's RAM told with "of" / "on": gpu_ram_of_gpu_named(), below.)
  if (gpu_ram_of_gpu_named(lo)) return true;
  for (std::string_view g : {"gpu ram", "gpu's ram", "gpus'", "vram", "video ram", "graphics", "gpu memory", "cuda",
                             "\xe6\x98\xbe\xe5\xad\x98", "\xe9\xa1\xaf\xe5\xad\x98", "gpu\xe5\x86\x85\xe5\xad\x98",
                             "\xe6\x98\xbe\xe5\x8d\xa1\xe5\x86\x85\xe5\xad\x98",
                             "\xe6\x98\xbe\xe5\x8d\xa1\xe7\x9a\x84\xe5\x86\x85\xe5\xad\x98"}) {
    if (lo.find(g) != std::string_view::npos) return true;
  }
  return false;
}

const std::vector<GpuModelName>& gpu_model_names() {
  static const std::vector<GpuModelName> kNames = {
      // NVIDIA data-centre. The A100, A800, V100 come in two memory sizes: no catalogue entry.
      {"a100", "", false, false}, {"a800", "", false, false}, {"h100", "h100-pcie", false, false},
      {"h800", "", false, false}, {"h200", "h200", false, true}, {"gh200", "", false, true},
      {"b200", "b200", false, true}, {"gb200", "", false, true}, {"b300", "", false, true},
      {"gb300", "", false, true},
      {"v100", "", false, false}, {"p100", "", false, false}, {"k80", "", false, false},
      {"t4", "t4", true, false}, {"a10", "", false, false}, {"a10g", "a10g", false, false},
      {"l4", "l4", true, false}, {"a40", "", false, false}, {"l40", "", false, false},
      {"l40s", "l40s", false, false}, {"a5000", "", false, false}, {"a6000", "rtx-a6000", false, false},
      // NVIDIA consumer cards by number ("RTX 3090", "2080 Ti", "my 1660 Super").
      {"1050", "", true, false}, {"1060", "", true, false}, {"1070", "", true, false}, {"1080", "", true, false},
      {"1650", "", true, false}, {"1660", "", true, false}, {"2060", "", true, false}, {"2070", "", true, false},
      {"2080", "", true, false}, {"3050", "", true, false}, {"3060", "", true, false}, {"3070", "", true, false},
      {"3080", "", true, false}, {"3090", "rtx-3090", true, false}, {"4060", "", true, false},
      {"4070", "", true, false}, {"4080", "", true, false}, {"4090", "rtx-4090", true, false},
      {"5060", "", true, false}, {"5070", "", true, false}, {"5080", "", true, false}, {"5090", "rtx-5090", true, false},
      // AMD Radeon consumer cards by number ("AMD 7900XTX", "RX 6800").
      {"6700", "", true, false}, {"6800", "", true, false}, {"6900", "", true, false}, {"7600", "", true, false},
      {"7800", "", true, false}, {"7900", "", true, false},
      // AMD Instinct.
      {"mi250", "", false, true}, {"mi300", "", false, true}, {"mi300x", "mi300x", false, true},
      {"mi325", "", false, true}, {"mi355", "", false, true},
  };
  return kNames;
}

bool card_number_at(std::string_view lo, size_t p, size_t n) {
  // (Not a decimal's or a count's digits, "2.3090", "1,3090", nor a longer number, "40607".)
  return word_starts_at(lo, p) && (p == 0 || (lo[p - 1] != '.' && lo[p - 1] != ',')) &&
         (p + n >= lo.size() || (lo[p + n] != 'p' && !is_digit(lo[p + n])));
}

// A container's or a cluster node's memory named: "the pod is restarted", "the container's memory
// limit", "cgroup", Kubernetes, Docker, an ECS task (Korean 컨테이너, 도커), a Spark driver's or
// executor's memory ("Databricks driver", "driver node", "executor memory"; not TensorFlow's
// executor.cc). Their limits are cgroup limits over host RAM,
// unless the line names a GPU (by a model's name too: "on the A100") or another accelerator's
// memory (an NPU's "device memory"); "driver" alone is as often the GPU's.
bool container_memory_named(std::string_view lo) {
  for (const char* w : {"pod", "pods", "container", "containers", "cgroup", "cgroups", "kubernetes", "k8s", "databricks",
                        "docker", "ecs"}) {
    if (contains_word(lo, w)) return true;
  }
  // Korean: 컨테이너 (container), 도커 (Docker)
  if (lo.find("\xec\xbb\xa8\xed\x85\x8c\xec\x9d\xb4\xeb\x84\x88") != std::string_view::npos ||
      lo.find("\xeb\x8f\x84\xec\xbb\xa4") != std::string_view::npos) {
    return true;
  }
  return lo.find("driver node") != std::string_view::npos || lo.find("spark driver") != std::string_view::npos ||
         lo.find("driver memory") != std::string_view::npos || lo.find("executor memory") != std::string_view::npos ||
         lo.find("spark.executor.memory") != std::string_view::npos || lo.find("spark.driver.memory") != std::string_view::npos;
}

// A GPU named in `lo` by that word or a model's ("RTX 3090", "A100", "T4"), CUDA, or zh 显存 /
// 显卡 (the GPU's memory / card).
bool gpu_named(std::string_view lo) {
  // (Also a card's line named without its model number: "a Quadro", "GeForce"; NVIDIA's TITAN only
  // before its model's letters, "a single TITAN X", "Titan RTX": not Amazon's Titan models, a
  // database, a host named titan.)
  for (std::string_view w : {"gpu", "gpus", "cuda", "rtx", "gtx", "tpu", "quadro", "geforce"}) {
    if (contains_word(lo, w)) return true;
  }
  for (size_t p = lo.find("titan "); p != std::string_view::npos; p = lo.find("titan ", p + 6)) {
    if (!word_starts_at(lo, p)) continue;
    for (std::string_view m : {"x", "xp", "v", "z", "rtx", "black"}) {
      if (lo.compare(p + 6, m.size(), m) == 0 && is_word_at(lo, p + 6, m.size())) return true;
    }
  }
  // The cards named by four digits ("3090", "7900"), found in one pass over the line's digits.
  static const std::bitset<10000> kCardNumbers = [] {
    std::bitset<10000> b;
    for (const GpuModelName& g : gpu_model_names()) {
      if (!is_digit(g.word[0])) continue;
      if (g.word.size() != 4) throw std::logic_error("gpu_model_names(): a card named by digits has four of them");
      b.set(static_cast<size_t>(std::atoi(std::string(g.word).c_str())));
    }
    return b;
  }();
  for (size_t p = 0; p + 4 <= lo.size(); ++p) {
    if (!is_digit(lo[p]) || !is_digit(lo[p + 1]) || !is_digit(lo[p + 2]) || !is_digit(lo[p + 3])) continue;
    const size_t v = static_cast<size_t>((lo[p] - '0') * 1000 + (lo[p + 1] - '0') * 100 + (lo[p + 2] - '0') * 10 + (lo[p + 3] - '0'));
    if (kCardNumbers.test(v) && card_number_at(lo, p, 4)) return true;
  }
  for (const GpuModelName& g : gpu_model_names()) {
    if (!is_digit(g.word[0]) && contains_word(lo, g.word)) return true;
  }
  // (Also a card counted: 张卡 / 块卡 / 单卡 / 双卡 / 多卡, "一张卡一张图都爆", one card, one image, it blows;
  // or by its number, zh_cards_counted_at(): "8卡训练也爆", "四卡训练".)
  if (gpu_memory_named(lo) || lo.find("\xe6\x98\xbe\xe5\x8d\xa1") != std::string_view::npos ||  // 显卡
      contains_any(lo, {"\xe5\xbc\xa0\xe5\x8d\xa1", "\xe5\x9d\x97\xe5\x8d\xa1", "\xe5\x8d\x95\xe5\x8d\xa1",
                        "\xe5\x8f\x8c\xe5\x8d\xa1", "\xe5\xa4\x9a\xe5\x8d\xa1"})) {
    return true;
  }
  for (size_t p = lo.find(kZhCard); p != std::string_view::npos; p = lo.find(kZhCard, p + kZhCard.size())) {
    if (zh_cards_counted_at(lo, p) > 0) return true;
  }
  return false;
}

int64_t zh_cards_counted_at(std::string_view lo, size_t p) {
  // 卡 as "stuck": 卡住 / 卡死 / 卡顿 / 卡在 / 卡了 / 卡着 / 卡主.
  const std::string_view next = lo.substr(p + kZhCard.size(), 3);
  for (std::string_view stuck : {"\xe4\xbd\x8f", "\xe6\xad\xbb", "\xe9\xa1\xbf", "\xe5\x9c\xa8", "\xe4\xba\x86",
                                 "\xe7\x9d\x80", "\xe4\xb8\xbb"}) {
    if (next == stuck) return 0;
  }
  size_t e = p;
  if (e >= 3 && (lo.compare(e - 3, 3, "\xe5\xbc\xa0") == 0 || lo.compare(e - 3, 3, "\xe5\x9d\x97") == 0)) e -= 3;  // 张, 块
  if (e > 0 && lo[e - 1] == ' ') --e;
  if (e >= 3) {
    const std::string_view zh = lo.substr(e - 3, 3);
    if (zh == "\xe4\xb8\xa4") return 2;  // 两
    if (zh == "\xe5\x9b\x9b") return 4;  // 四
    if (zh == "\xe5\x85\xab") return 8;  // 八
  }
  return small_count_before(lo, e);
}

int64_t small_count_before(std::string_view lo, size_t e) {
  size_t b = e;
  while (b > 0 && is_digit(lo[b - 1])) --b;
  if (b == e || e - b > 4 || (b > 0 && (lo[b - 1] == '.' || is_alpha(lo[b - 1])))) return 0;
  return std::stoll(std::string(lo.substr(b, e - b)));
}

}  // namespace oomkit::diagnose_detail
