// The one door through which oomkit reads JSON written by someone else: model configs, timelines,
// summaries, estimate and oom_report files, checkpoint metadata.
//
// Every nlohmann::json exception (a parse error, a number out of double range such as 1e400, a
// wrong type such as "model_type": 5) becomes an InputError naming the file (or record) and the
// key, so `main` exits 2 with one `error:` line. Error text is bounded: a bad value is described
// ("a string \"zero\"", "an array of 3 values", "the number 1e+19"), never dumped, so a 100 MB or
// 100k-deep value neither floods the terminal nor recurses. Nesting deeper than kMaxJsonDepth is
// refused while parsing (nlohmann's parser has no depth limit of its own; its dump() recurses).
//
// Files are opened with O_NONBLOCK and fstat'ed before reading: a directory, FIFO, socket or
// device (/dev/zero) is refused with exit 2 instead of blocking or reading forever, and a file
// larger than the caller's bound is refused before it is read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace oomkit {

/// Deepest nesting accepted in any JSON input (a config.json nests 2 levels, a timeline record 4).
inline constexpr int kMaxJsonDepth = 64;
/// Largest JSON document read whole (config, summary, estimate, oom_report, checkpoint meta).
inline constexpr size_t kMaxJsonFileBytes = size_t{256} << 20;  // 256 MiB
/// Largest timeline (JSON Lines) file read.
inline constexpr size_t kMaxTimelineFileBytes = size_t{4} << 30;  // 4 GiB
/// Longest error-message excerpt of a bad value or of the JSON library's own message.
inline constexpr size_t kMaxErrorExcerptChars = 80;

/// Parses one JSON document. `source` names the input in errors (a path, "path line 3").
/// Throws InputError(source, ...) for malformed JSON, numbers out of double range, invalid
/// UTF-8 in strings and nesting deeper than kMaxJsonDepth. Never throws another exception type
/// (std::bad_alloc aside).
nlohmann::json parse_json_input(std::string_view text, const std::string& source);

/// A bounded, non-recursive description of a value for error messages: `null`, `true`,
/// `the number 5`, `a string "zero"` (truncated to kMaxErrorExcerptChars), `an array of 3 values`,
/// `an object with 2 keys`.
std::string describe_json_value(const nlohmann::json& value);

/// Shortens `text` to at most `max_chars` bytes (cut at a UTF-8 boundary), marking the cut
/// with "...". Control bytes and invalid UTF-8 become '?', so the result is printable.
std::string bounded_excerpt(std::string_view text, size_t max_chars = kMaxErrorExcerptChars);

/// Refuses anything but a regular file (or, with `allow_directory`, a directory) without
/// opening it for a blocking read: throws InputError(field, "'path': is a FIFO, not a regular
/// file") for FIFOs, sockets, character and block devices, and "no such file" when missing.
void check_input_path(const std::string& path, const std::string& field, bool allow_directory = false);

/// Reads a whole regular file of at most `max_bytes` bytes. Opens with O_NONBLOCK and checks
/// the type with fstat on the open descriptor (no race with a swapped path). Throws
/// InputError(field, ...) when missing, unreadable, not a regular file, or larger than
/// `max_bytes`.
std::string read_input_file(const std::string& path, const std::string& field,
                            size_t max_bytes = kMaxJsonFileBytes);

/// read_input_file() + parse_json_input(), errors naming `field` (usually the path itself).
nlohmann::json read_json_input_file(const std::string& path, const std::string& field,
                                    size_t max_bytes = kMaxJsonFileBytes);

/// Converts a JSON number to int64: integers in range, and floats that are finite, integral
/// and inside [-2^63, 2^63). Throws InputError(where, "key '<key>': ...") otherwise, naming
/// the value (bounded). `key` may be empty when the value is not inside an object.
int64_t json_to_int64(const nlohmann::json& value, const std::string& where, std::string_view key);

/// Typed, throwing access to the fields of one JSON object. Every error is
/// InputError(where, "key '<key>': expected <type>, got <description>").
class JsonFields {
 public:
  /// Throws InputError(where, "expected a JSON object, got ...") when `object` is not one.
  JsonFields(const nlohmann::json& object, std::string where);

  /// True when the key is present and not null.
  bool has(const char* key) const;
  /// The raw value, or nullptr when absent or null.
  const nlohmann::json* find(const char* key) const;

  int64_t int64(const char* key) const;                          // required
  int64_t int64_or(const char* key, int64_t fallback) const;     // absent/null -> fallback
  double number(const char* key) const;                          // finite double, required
  double number_or(const char* key, double fallback) const;
  std::string string(const char* key) const;
  std::string string_or(const char* key, const std::string& fallback) const;
  bool boolean_or(const char* key, bool fallback) const;
  /// An object-valued key as JsonFields (where: "<where>: <key>"); throws when absent or not an object.
  JsonFields object(const char* key) const;

  const nlohmann::json& value() const { return object_; }
  const std::string& where() const { return where_; }
  [[noreturn]] void fail(const char* key, const std::string& message) const;

 private:
  const nlohmann::json& require(const char* key) const;
  const nlohmann::json& object_;
  std::string where_;
};

}  // namespace oomkit
