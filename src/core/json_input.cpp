#include "oomkit/core/json_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "oomkit/core/error.h"

namespace oomkit {

using nlohmann::json;

namespace {

// Thrown from the parser callback; caught in parse_json_input (never escapes).
struct TooDeep {};

const char* file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

// RAII file descriptor.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string bounded_excerpt(std::string_view text, size_t max_chars) {
  std::string out;
  const size_t limit = std::min(text.size(), max_chars);
  size_t i = 0;
  while (i < limit) {
    const auto c = static_cast<unsigned char>(text[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool valid = len > 0 && i + len <= text.size();
    for (size_t k = 1; valid && k < len; ++k) valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    if (!valid) {
      out.push_back('?');
      ++i;
      continue;
    }
    if (i + len > limit) break;  // do not cut a character in two
    if (len == 1 && (c < 0x20 || c == 0x7F)) out.push_back(c == '\n' || c == '\t' ? ' ' : '?');
    else out.append(text.substr(i, len));
    i += len;
  }
  if (i < text.size()) out += "...";
  return out;
}

std::string describe_json_value(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case json::value_t::number_integer: return fmt::format("the number {}", v.get<int64_t>());
    case json::value_t::number_unsigned: return fmt::format("the number {}", v.get<uint64_t>());
    case json::value_t::number_float: return fmt::format("the number {}", v.get<double>());
    case json::value_t::string: return "a string \"" + bounded_excerpt(v.get_ref<const std::string&>()) + "\"";
    case json::value_t::array: return fmt::format("an array of {} values", v.size());
    case json::value_t::object: return fmt::format("an object with {} keys", v.size());
    case json::value_t::binary: return "binary data";
    case json::value_t::discarded: return "a discarded value";
  }
  return "a value";
}

json parse_json_input(std::string_view text, const std::string& source) {
  // The callback sees every container start with its depth (number of enclosing containers)
  // before anything below it is parsed, so a deep value is refused at depth kMaxJsonDepth.
  const json::parser_callback_t depth_guard = [](int depth, json::parse_event_t event, json&) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= kMaxJsonDepth) {
      throw TooDeep{};
    }
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), depth_guard);
  } catch (const TooDeep&) {
    throw InputError(source, fmt::format("JSON nested deeper than {} levels", kMaxJsonDepth));
  } catch (const json::out_of_range& e) {
    // 406: "number overflow parsing '1e400'"
    throw InputError(source, "number out of range: " + bounded_excerpt(e.what(), 2 * kMaxErrorExcerptChars));
  } catch (const json::exception& e) {
    throw InputError(source, "malformed JSON: " + bounded_excerpt(e.what(), 2 * kMaxErrorExcerptChars));
  }
}

void check_input_path(const std::string& path, const std::string& field, bool allow_directory) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    throw InputError(field, "'" + bounded_excerpt(path, 4096) + "': " + std::strerror(errno));
  }
  if (S_ISREG(st.st_mode) || (allow_directory && S_ISDIR(st.st_mode))) return;
  throw InputError(field, "'" + bounded_excerpt(path, 4096) + "' is " + file_type_name(st.st_mode) +
                              (allow_directory ? ", not a regular file or a directory" : ", not a regular file"));
}

std::string read_input_file(const std::string& path, const std::string& field, size_t max_bytes) {
  const std::string shown = bounded_excerpt(path, 4096);
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (f.fd < 0) throw InputError(field, "cannot read '" + shown + "': " + std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw InputError(field, "cannot read '" + shown + "': " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) {
    throw InputError(field, "'" + shown + "' is " + file_type_name(st.st_mode) + ", not a regular file");
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    throw InputError(field, fmt::format("'{}' is {} bytes, more than the {} this input may have", shown,
                                        static_cast<uint64_t>(st.st_size), max_bytes));
  }
  std::string bytes;
  bytes.resize(static_cast<size_t>(st.st_size));
  size_t got = 0;
  // A file may grow while read (a live timeline): read what fstat saw, no more.
  while (got < bytes.size()) {
    const ssize_t n = ::read(f.fd, bytes.data() + got, bytes.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(field, "cannot read '" + shown + "': " + std::strerror(errno));
    }
    if (n == 0) break;  // shrank meanwhile
    got += static_cast<size_t>(n);
  }
  bytes.resize(got);
  return bytes;
}

json read_json_input_file(const std::string& path, const std::string& field, size_t max_bytes) {
  return parse_json_input(read_input_file(path, field, max_bytes), field);
}

int64_t json_to_int64(const json& v, const std::string& where, std::string_view key) {
  const std::string prefix = key.empty() ? std::string() : "key '" + std::string(key) + "': ";
  if (v.is_number_integer() && !v.is_number_unsigned()) return v.get<int64_t>();
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return static_cast<int64_t>(u);
    throw InputError(where, prefix + describe_json_value(v) + " is out of range (at most 2^63 - 1)");
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    // [-2^63, 2^63): both bounds are exact doubles; the cast below is then defined.
    if (!(std::isfinite(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0)) {
      throw InputError(where, prefix + describe_json_value(v) + " is out of range for an integer");
    }
    if (d != std::trunc(d)) throw InputError(where, prefix + "must be an integer, got " + describe_json_value(v));
    return static_cast<int64_t>(d);
  }
  throw InputError(where, prefix + "must be an integer, got " + describe_json_value(v));
}

JsonFields::JsonFields(const nlohmann::json& object, std::string where) : object_(object), where_(std::move(where)) {
  if (!object_.is_object()) throw InputError(where_, "expected a JSON object, got " + describe_json_value(object_));
}

void JsonFields::fail(const char* key, const std::string& message) const {
  throw InputError(where_, std::string("key '") + key + "': " + message);
}

const nlohmann::json* JsonFields::find(const char* key) const {
  const auto it = object_.find(key);
  if (it == object_.end() || it->is_null()) return nullptr;
  return &*it;
}

bool JsonFields::has(const char* key) const { return find(key) != nullptr; }

const nlohmann::json& JsonFields::require(const char* key) const {
  const nlohmann::json* v = find(key);
  if (v == nullptr) fail(key, object_.contains(key) ? "must not be null" : "missing");
  return *v;
}

int64_t JsonFields::int64(const char* key) const { return json_to_int64(require(key), where_, key); }

int64_t JsonFields::int64_or(const char* key, int64_t fallback) const {
  const nlohmann::json* v = find(key);
  return v == nullptr ? fallback : json_to_int64(*v, where_, key);
}

double JsonFields::number(const char* key) const {
  const nlohmann::json& v = require(key);
  if (!v.is_number()) fail(key, "must be a number, got " + describe_json_value(v));
  const double d = v.get<double>();
  if (!std::isfinite(d)) fail(key, "not a finite number");
  return d;
}

double JsonFields::number_or(const char* key, double fallback) const {
  return has(key) ? number(key) : fallback;
}

std::string JsonFields::string(const char* key) const {
  const nlohmann::json& v = require(key);
  if (!v.is_string()) fail(key, "must be a string, got " + describe_json_value(v));
  return v.get<std::string>();
}

std::string JsonFields::string_or(const char* key, const std::string& fallback) const {
  return has(key) ? string(key) : fallback;
}

bool JsonFields::boolean_or(const char* key, bool fallback) const {
  const nlohmann::json* v = find(key);
  if (v == nullptr) return fallback;
  if (!v->is_boolean()) fail(key, "must be true or false, got " + describe_json_value(*v));
  return v->get<bool>();
}

JsonFields JsonFields::object(const char* key) const {
  const nlohmann::json& v = require(key);
  if (!v.is_object()) fail(key, "must be an object, got " + describe_json_value(v));
  return JsonFields(v, where_ + ": " + key);
}

}  // namespace oomkit
