#include "oomkit/report/chrome_trace.h"

#include <cstdint>
#include <fstream>
#include <map>

#include "oomkit/core/error.h"
#include "oomkit/core/timeline.h"
#include "oomkit/report/report_input.h"

namespace oomkit {

using nlohmann::json;

namespace {

constexpr int kPid = 1;
constexpr int kPhaseTid = 1;
constexpr int kEventTid = 2;

// t_ns from the run's start -> integer microseconds, rounded down (so that a phase inside a
// step, whose ends are two of the step's marks, stays inside the step after rounding).
int64_t to_us(int64_t t_ns) { return t_ns >= 0 ? t_ns / 1000 : -((-t_ns + 999) / 1000); }

json metadata(const char* name, int tid, json args) {
  json e{{"ph", "M"}, {"name", name}, {"pid", kPid}, {"args", std::move(args)}};
  if (tid >= 0) e["tid"] = tid;
  return e;
}

std::string model_name(const json& run) {
  if (!run.is_object() || !run.contains("model") || !run["model"].is_object()) return "run";
  const json& m = run["model"];
  for (const char* key : {"_name_or_path", "name"}) {
    if (m.contains(key) && m[key].is_string()) return m[key].get<std::string>();
  }
  return "run";
}

json mark_args(const TimelineMark& m) {
  return json{{"step", m.step},
              {"micro_step", m.micro_step},
              {"phase", m.phase},
              {"allocated_bytes", m.allocated_bytes},
              {"reserved_bytes", m.reserved_bytes},
              {"peak_allocated_bytes", m.peak_allocated_bytes},
              {"delta_bytes", m.delta_bytes}};
}

}  // namespace

std::string phase_interval_name(const std::string& phase) {
  static const std::map<std::string, std::string> kNames = {
      {"after_forward", "forward"},
      {"after_loss", "loss"},
      {"after_backward", "backward"},
      {"after_optimizer_step", "optimizer_step"},
      {"after_zero_grad", "zero_grad"},
      {"eval", "eval"}};
  const auto it = kNames.find(phase);
  return it == kNames.end() ? phase : it->second;
}

json chrome_trace_from_timeline(const std::vector<json>& records) {
  return chrome_trace_from_timeline(parse_run_records(records, "timeline"));
}

json chrome_trace_from_timeline(const RunRecords& records) {
  const json run = records.run ? to_json(*records.run) : json();
  const std::vector<TimelineMark>& marks = records.marks;
  std::map<int64_t, json> step_records;
  for (const StepRecord& s : records.steps) step_records[s.step] = to_json(s);
  std::vector<json> events;
  for (const EventRecord& e : records.events) events.push_back(to_json(e));

  json out = json::array();
  const std::string device = run.is_object() ? json_string(run, "device", "cpu") : "cpu";
  out.push_back(metadata("process_name", -1, {{"name", "oomkit train: " + model_name(run)}}));
  out.push_back(metadata("process_labels", -1, {{"labels", "device " + device}}));
  out.push_back(metadata("thread_name", kPhaseTid, {{"name", "steps and phases"}}));
  out.push_back(metadata("thread_sort_index", kPhaseTid, {{"sort_index", 0}}));
  out.push_back(metadata("thread_name", kEventTid, {{"name", "events"}}));
  out.push_back(metadata("thread_sort_index", kEventTid, {{"sort_index", 1}}));

  // Counters at every mark. One counter per statistic, so that chrome://tracing draws them as
  // separate tracks instead of stacking allocated on top of reserved.
  bool has_rss = false;
  for (const TimelineMark& m : marks) has_rss = has_rss || m.rss_bytes > 0;
  for (const TimelineMark& m : marks) {
    const int64_t ts = to_us(m.t_ns);
    out.push_back({{"ph", "C"}, {"name", "allocated_bytes"}, {"pid", kPid}, {"ts", ts},
                   {"args", {{"allocated_bytes", m.allocated_bytes}}}});
    out.push_back({{"ph", "C"}, {"name", "reserved_bytes"}, {"pid", kPid}, {"ts", ts},
                   {"args", {{"reserved_bytes", m.reserved_bytes}}}});
    if (has_rss) {
      out.push_back({{"ph", "C"}, {"name", "rss_bytes"}, {"pid", kPid}, {"ts", ts},
                     {"args", {{"rss_bytes", m.rss_bytes}}}});
    }
  }

  // Steps and the phases inside them: consecutive marks of one step bound one interval.
  size_t i = 0;
  while (i < marks.size()) {
    size_t j = i;
    while (j + 1 < marks.size() && marks[j + 1].step == marks[i].step) ++j;
    const int64_t step = marks[i].step;
    const int64_t begin_us = to_us(marks[i].t_ns);
    const int64_t end_us = std::max(begin_us, to_us(marks[j].t_ns));
    json step_args{{"step", step}, {"allocated_bytes_at_start", marks[i].allocated_bytes}};
    const auto rec = step_records.find(step);
    if (rec != step_records.end()) {
      for (const char* key : {"loss", "lr", "ms", "tokens_per_s", "peak_bytes", "peak_phase", "val_loss"}) {
        if (rec->second.contains(key)) step_args[key] = rec->second[key];
      }
    } else {
      step_args["incomplete"] = true;  // no "step" record: the run stopped inside this step
    }
    out.push_back({{"ph", "X"}, {"name", "step " + std::to_string(step)}, {"cat", "step"}, {"pid", kPid},
                   {"tid", kPhaseTid}, {"ts", begin_us}, {"dur", end_us - begin_us}, {"args", step_args}});
    for (size_t k = i + 1; k <= j; ++k) {
      const int64_t ts = std::max(begin_us, to_us(marks[k - 1].t_ns));
      const int64_t te = std::min(end_us, std::max(ts, to_us(marks[k].t_ns)));
      out.push_back({{"ph", "X"}, {"name", phase_interval_name(marks[k].phase)}, {"cat", "phase"},
                     {"pid", kPid}, {"tid", kPhaseTid}, {"ts", ts}, {"dur", te - ts},
                     {"args", mark_args(marks[k])}});
    }
    i = j + 1;
  }

  // Events as instants on their own thread; an event without t_ns sits at the last mark of its step.
  for (const json& e : events) {
    int64_t t_ns = 0;
    if (e.contains("t_ns") && e["t_ns"].is_number()) {
      t_ns = e["t_ns"].get<int64_t>();
    } else {
      const int64_t step = json_int(e, "step", -1);
      for (const TimelineMark& m : marks) {
        if (m.step <= step) t_ns = m.t_ns;
      }
    }
    json args = e;
    args.erase("type");
    args.erase("t_ns");
    const std::string name = e.contains("name") && e["name"].is_string() ? e["name"].get<std::string>() : "event";
    out.push_back({{"ph", "i"}, {"name", name}, {"cat", "event"}, {"s", "t"}, {"pid", kPid},
                   {"tid", kEventTid}, {"ts", to_us(t_ns)}, {"args", std::move(args)}});
  }

  return json{{"traceEvents", std::move(out)},
              {"displayTimeUnit", "ms"},
              {"otherData", {{"generator", "oomkit report"}, {"model", model_name(run)}, {"device", device}}}};
}

void write_chrome_trace(const RunRecords& records, const std::string& path, const std::string& field) {
  const json trace = chrome_trace_from_timeline(records);
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) throw InputError(field, "cannot write '" + path + "'");
  out << trace.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
  out.flush();
  if (!out) throw InputError(field, "write failed for '" + path + "'");
}

void write_chrome_trace(const std::vector<json>& records, const std::string& path, const std::string& field) {
  write_chrome_trace(parse_run_records(records, "timeline"), path, field);
}

void write_chrome_trace_from_file(const std::string& timeline_path, const std::string& trace_path,
                                  const std::string& field) {
  write_chrome_trace(read_run_records(timeline_path), trace_path, field);
}

}  // namespace oomkit
