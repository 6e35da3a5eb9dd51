#include "oomkit/core/timeline.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <utility>

#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/json_input.h"

namespace oomkit {

using nlohmann::json;

namespace {
constexpr const char* kCsvHeader =
    "step,micro_step,phase,t_ns,allocated_bytes,reserved_bytes,active_bytes,inactive_split_bytes,"
    "peak_allocated_bytes,delta_bytes,rss_bytes\n";
}  // namespace

json to_json(const TimelineMark& m) {
  return json{{"type", "mark"},
              {"step", m.step},
              {"micro_step", m.micro_step},
              {"phase", m.phase},
              {"t_ns", m.t_ns},
              {"allocated_bytes", m.allocated_bytes},
              {"reserved_bytes", m.reserved_bytes},
              {"active_bytes", m.active_bytes},
              {"inactive_split_bytes", m.inactive_split_bytes},
              {"peak_allocated_bytes", m.peak_allocated_bytes},
              {"delta_bytes", m.delta_bytes},
              {"rss_bytes", m.rss_bytes}};
}

TimelineMark mark_from_json(const json& j, const std::string& where) {
  const JsonFields f(j, where);
  TimelineMark m;
  m.step = f.int64_or("step", 0);
  m.micro_step = f.int64_or("micro_step", 0);
  m.phase = f.string_or("phase", "");
  m.t_ns = f.int64_or("t_ns", 0);
  m.allocated_bytes = f.int64_or("allocated_bytes", 0);
  m.reserved_bytes = f.int64_or("reserved_bytes", 0);
  m.active_bytes = f.int64_or("active_bytes", 0);
  m.inactive_split_bytes = f.int64_or("inactive_split_bytes", 0);
  m.peak_allocated_bytes = f.int64_or("peak_allocated_bytes", 0);
  m.delta_bytes = f.int64_or("delta_bytes", 0);
  m.rss_bytes = f.int64_or("rss_bytes", 0);
  return m;
}

json to_json(const RunHeader& r) {
  json j{{"type", "run"},    {"version", r.version}, {"device", r.device},           {"model", r.model},
         {"options", r.options}, {"limit_bytes", r.limit_bytes}, {"estimate", r.estimate}};
  if (r.resumed_from_step) j["resumed_from_step"] = *r.resumed_from_step;
  if (r.start_unix_ns) j["start_unix_ns"] = *r.start_unix_ns;
  return j;
}

json to_json(const StepRecord& s) {
  json j{{"type", "step"},
         {"step", s.step},
         {"peak_bytes", s.peak_bytes},
         {"peak_phase", s.peak_phase},
         {"start_allocated_bytes", s.start_allocated_bytes}};
  // A value the step did not record (a hand-made or older timeline) reads back as NaN and is
  // left out again rather than written as null.
  for (auto [key, v] : {std::pair<const char*, double>{"loss", s.loss}, {"lr", s.lr}, {"ms", s.ms},
                        {"tokens_per_s", s.tokens_per_s}, {"grad_norm", s.grad_norm}}) {
    if (!std::isnan(v)) j[key] = v;
  }
  if (s.val_loss && !std::isnan(*s.val_loss)) j["val_loss"] = *s.val_loss;
  if (s.skipped) j["skipped"] = true;
  return j;
}

json to_json(const EventRecord& e) {
  json j = e.fields.is_object() ? e.fields : json::object();
  j["type"] = "event";
  j["name"] = e.name;
  j["step"] = e.step;
  if (e.t_ns) j["t_ns"] = *e.t_ns;
  return j;
}

namespace {

// A float that JSON may hold as NaN/inf is written as null by nlohmann; read it back as NaN.
double number_or_nan(const JsonFields& f, const char* key) {
  const json* v = f.find(key);
  if (v == nullptr) return std::numeric_limits<double>::quiet_NaN();
  if (!v->is_number()) f.fail(key, "must be a number, got " + describe_json_value(*v));
  return v->get<double>();
}

RunHeader run_from_json(const JsonFields& f) {
  RunHeader r;
  r.version = f.int64_or("version", 1);
  if (r.version < 1 || r.version > kRunRecordsVersion) {
    f.fail("version", "record layout version " + std::to_string(r.version) + " is not supported (this oomkit reads 1.." +
                          std::to_string(kRunRecordsVersion) + ")");
  }
  r.device = f.string_or("device", "");
  for (auto [key, out] : {std::pair<const char*, json*>{"model", &r.model}, {"options", &r.options}, {"estimate", &r.estimate}}) {
    if (const json* v = f.find(key)) {
      if (!v->is_object()) f.fail(key, "must be an object, got " + describe_json_value(*v));
      *out = *v;
    }
  }
  r.limit_bytes = f.int64_or("limit_bytes", 0);
  if (r.limit_bytes < 0) f.fail("limit_bytes", "must not be negative");
  if (f.has("resumed_from_step")) {
    r.resumed_from_step = f.int64("resumed_from_step");
    if (*r.resumed_from_step < 0) f.fail("resumed_from_step", "must not be negative");
  }
  if (f.has("start_unix_ns")) {
    r.start_unix_ns = f.int64("start_unix_ns");
    if (*r.start_unix_ns < 0) f.fail("start_unix_ns", "must not be negative");
  }
  return r;
}

StepRecord step_from_json(const JsonFields& f) {
  StepRecord s;
  s.step = f.int64("step");
  s.peak_bytes = f.int64_or("peak_bytes", 0);
  s.peak_phase = f.string_or("peak_phase", "");
  s.start_allocated_bytes = f.int64_or("start_allocated_bytes", 0);
  s.loss = number_or_nan(f, "loss");
  s.lr = number_or_nan(f, "lr");
  s.ms = number_or_nan(f, "ms");
  s.tokens_per_s = number_or_nan(f, "tokens_per_s");
  s.grad_norm = number_or_nan(f, "grad_norm");
  if (f.has("val_loss")) s.val_loss = number_or_nan(f, "val_loss");
  s.skipped = f.boolean_or("skipped", false);
  return s;
}

EventRecord event_from_json(const JsonFields& f) {
  EventRecord e;
  e.name = f.string("name");
  e.step = f.int64_or("step", 0);
  if (f.has("t_ns")) e.t_ns = f.int64("t_ns");
  e.fields = f.value();
  for (const char* key : {"type", "name", "step", "t_ns"}) e.fields.erase(key);
  return e;
}

// A run killed mid-write leaves a torn last line; a resumed run appending after it would glue
// its first record to it. Cuts the file after its last newline (the reader skips a torn last
// line anyway, so nothing readable is lost).
void drop_torn_tail(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size == 0) return;
  std::ifstream in(path, std::ios::binary);
  uint64_t end = size;
  char chunk[65536];
  while (end > 0) {
    const uint64_t begin = end > sizeof(chunk) ? end - sizeof(chunk) : 0;
    in.seekg(static_cast<std::streamoff>(begin));
    in.read(chunk, static_cast<std::streamsize>(end - begin));
    if (!in) return;
    for (uint64_t i = end - begin; i-- > 0;) {
      if (chunk[i] == '\n') {
        if (begin + i + 1 < size) std::filesystem::resize_file(path, begin + i + 1, ec);
        return;
      }
    }
    end = begin;
  }
  std::filesystem::resize_file(path, 0, ec);  // no complete line at all
}

}  // namespace

RunRecords parse_run_records(const std::vector<json>& records, const std::string& source) {
  RunRecords out;
  for (size_t i = 0; i < records.size(); ++i) {
    const JsonFields f(records[i], source + " record " + std::to_string(i + 1));
    const std::string type = f.string("type");
    if (type == "run") {
      out.run = run_from_json(f);
      if (const auto from = out.run->resumed_from_step) {
        auto overtaken = [from](const auto& r) { return r.step >= *from; };
        out.marks.erase(std::remove_if(out.marks.begin(), out.marks.end(), overtaken), out.marks.end());
        out.steps.erase(std::remove_if(out.steps.begin(), out.steps.end(), overtaken), out.steps.end());
        out.events.erase(std::remove_if(out.events.begin(), out.events.end(), overtaken), out.events.end());
        out.summary = json();  // the earlier run's summary, if it had finished, is superseded
      }
    } else if (type == "mark") {
      out.marks.push_back(mark_from_json(records[i], f.where()));
      if (out.marks.back().phase.empty()) f.fail("phase", "a mark needs its phase");
      if (!f.has("t_ns")) f.fail("t_ns", "a mark needs its time (ns since the run's start)");
    } else if (type == "step") {
      out.steps.push_back(step_from_json(f));
    } else if (type == "event") {
      out.events.push_back(event_from_json(f));
    } else if (type == "summary") {
      out.summary = records[i];
      out.summary.erase("type");
    }
  }
  return out;
}

RunRecords read_run_records(const std::string& jsonl_path) {
  return parse_run_records(read_timeline(jsonl_path), jsonl_path);
}

void TimelineWriter::write_summary(const json& summary) {
  json rec = summary.is_object() ? summary : json::object();
  rec["type"] = "summary";
  write(rec);
}

void TimelineWriter::write_step(const StepRecord& step) {
  write(to_json(step));
  if (jsonl_.good()) last_step_written_ = step.step;
}

TimelineWriter::TimelineWriter(const std::string& jsonl_path, bool append) : jsonl_path_(jsonl_path) {
  std::filesystem::path p(jsonl_path);
  std::filesystem::path csv = p;
  csv.replace_extension(".csv");
  if (csv == p) csv += ".csv";
  csv_path_ = csv.string();
  if (p.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(p.parent_path(), ec);
  }
  std::error_code ec;
  const bool csv_existed = std::filesystem::exists(csv_path_, ec);
  if (append) {
    drop_torn_tail(jsonl_path_);
    drop_torn_tail(csv_path_);
  }
  const auto mode = append ? std::ios::out | std::ios::app : std::ios::out | std::ios::trunc;
  jsonl_.open(jsonl_path_, mode);
  if (!jsonl_) throw InputError("--timeline", "cannot write '" + jsonl_path_ + "'");
  csv_.open(csv_path_, mode);
  if (!csv_) throw InputError("--timeline", "cannot write '" + csv_path_ + "'");
  if (!append || !csv_existed) {
    csv_ << kCsvHeader;
    csv_.flush();
  }
}

void TimelineWriter::write(const json& record) {
  if (rank_ >= 0 && record.is_object()) {
    json with_rank = record;
    with_rank["rank"] = rank_;
    jsonl_ << with_rank.dump() << '\n';
    jsonl_.flush();
    return;
  }
  jsonl_ << record.dump() << '\n';
  jsonl_.flush();
}

void TimelineWriter::write_mark(const TimelineMark& m) {
  write(to_json(m));
  csv_ << m.step << ',' << m.micro_step << ',' << m.phase << ',' << m.t_ns << ',' << m.allocated_bytes << ','
       << m.reserved_bytes << ',' << m.active_bytes << ',' << m.inactive_split_bytes << ','
       << m.peak_allocated_bytes << ',' << m.delta_bytes << ',' << m.rss_bytes << '\n';
  csv_.flush();
}

std::vector<json> parse_timeline_text(std::string_view bytes, const std::string& source) {
  std::vector<std::string_view> lines;
  for (size_t start = 0; start < bytes.size();) {
    size_t end = bytes.find('\n', start);
    if (end == std::string_view::npos) end = bytes.size();
    std::string_view line = bytes.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") != std::string_view::npos) lines.push_back(line);
    start = end + 1;
  }
  std::vector<json> records;
  records.reserve(lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    try {
      records.push_back(parse_json_input(lines[i], source + " line " + std::to_string(i + 1)));
    } catch (const InputError&) {
      if (i + 1 == lines.size()) break;  // torn last line of a killed run
      throw;
    }
  }
  return records;
}

std::vector<json> read_timeline(const std::string& jsonl_path) {
  return parse_timeline_text(read_input_file(jsonl_path, jsonl_path, kMaxTimelineFileBytes), jsonl_path);
}

}  // namespace oomkit
