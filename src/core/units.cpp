#include "oomkit/core/units.h"

#include <cctype>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "oomkit/core/error.h"

namespace oomkit {

std::string format_bytes(int64_t bytes) {
  const char* sign = bytes < 0 ? "-" : "";
  // |INT64_MIN| does not fit in int64; go through double for the magnitude.
  const double magnitude = std::fabs(static_cast<double>(bytes));
  if (magnitude < kKiB) return fmt::format("{}{} B", sign, static_cast<int64_t>(magnitude));
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = magnitude / kKiB;
  int unit = 0;
  while (value >= 1024.0 && unit < 5) {
    value /= 1024.0;
    ++unit;
  }
  return fmt::format("{}{:.2f} {}", sign, value, kUnits[unit]);
}

std::string format_bytes_pytorch(int64_t bytes) {
  const uint64_t size = bytes < 0 ? 0 : static_cast<uint64_t>(bytes);
  if (size <= 1024) return fmt::format("{} bytes", size);
  if (size <= 1048576) return fmt::format("{:.2f} KiB", static_cast<double>(size) / 1024.0);
  if (size <= 1073741824ULL) return fmt::format("{:.2f} MiB", static_cast<double>(size) / 1048576.0);
  return fmt::format("{:.2f} GiB", static_cast<double>(size) / 1073741824.0);
}

std::string format_decimal_gb(int64_t bytes) {
  return fmt::format("{:.2f} GB", static_cast<double>(bytes) / static_cast<double>(kGB));
}

int64_t parse_bytes(std::string_view text, std::string_view field) {
  const std::string f(field);
  std::string s(text);
  auto trim = [](std::string& v) {
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.pop_back();
    size_t i = 0;
    while (i < v.size() && std::isspace(static_cast<unsigned char>(v[i]))) ++i;
    v.erase(0, i);
  };
  trim(s);
  if (s.empty()) throw InputError(f, "empty size", "write e.g. 24GiB, 80GB or 512MiB");
  if (s[0] == '-') throw InputError(f, "size must not be negative: '" + s + "'");
  size_t pos = 0;
  while (pos < s.size() && (std::isdigit(static_cast<unsigned char>(s[pos])) || s[pos] == '.')) ++pos;
  const std::string number = s.substr(0, pos);
  std::string unit = s.substr(pos);
  trim(unit);
  if (number.empty() || number.find('.') != number.rfind('.') || number == ".") {
    throw InputError(f, "not a size: '" + s + "'", "write e.g. 24GiB, 80GB or 512MiB");
  }
  std::string lower;
  for (char c : unit) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  int64_t multiplier = 0;
  if (lower.empty() || lower == "b" || lower == "bytes" || lower == "byte") multiplier = 1;
  else if (lower == "kib" || lower == "k") multiplier = kKiB;
  else if (lower == "mib" || lower == "m") multiplier = kMiB;
  else if (lower == "gib" || lower == "g") multiplier = kGiB;
  else if (lower == "tib" || lower == "t") multiplier = kTiB;
  else if (lower == "kb") multiplier = kKB;
  else if (lower == "mb") multiplier = kMB;
  else if (lower == "gb") multiplier = kGB;
  else if (lower == "tb") multiplier = kTB;
  else throw InputError(f, "unknown unit '" + unit + "' in '" + s + "'", "units: B, KiB, MiB, GiB, TiB, KB, MB, GB, TB");

  const long double value = std::stold(number) * static_cast<long double>(multiplier);
  if (!std::isfinite(value) || value >= static_cast<long double>(std::numeric_limits<int64_t>::max())) {
    throw InputError(f, "size too large: '" + s + "'");
  }
  // Rounded in long double: a value just below 2^63 ("9223372036854775803") rounds to 2^63 as a
  // double, which llround cannot return (found by fuzz_size).
  return static_cast<int64_t>(std::llroundl(value));
}

int64_t checked_mul(int64_t a, int64_t b, std::string_view field) {
  int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) {
    throw InputError(std::string(field), "value too large: the byte count overflows 64 bits");
  }
  return out;
}

int64_t checked_add(int64_t a, int64_t b, std::string_view field) {
  int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out)) {
    throw InputError(std::string(field), "value too large: the byte count overflows 64 bits");
  }
  return out;
}

}  // namespace oomkit
