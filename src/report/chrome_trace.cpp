#include "oomkit/report/chrome_trace.h"

#include <cstdint>
#include <fstream>
#include <algorithm>
#include <map>
#include <optional>

#include "oomkit/core/error.h"
#include "oomkit/core/timeline.h"
#include "oomkit/report/downsample.h"
#include "oomkit/report/report_input.h"

namespace oomkit {

using nlohmann::json;

namespace {

constexpr int kPhaseTid = 1;
constexpr int kEventTid = 2;

// t_ns from the run's start -> integer microseconds, rounded down (so that a phase inside a
// step, whose ends are two of the step's marks, stays inside the step after rounding).
int64_t to_us(int64_t t_ns) { return t_ns >= 0 ? t_ns / 1000 : -((-t_ns + 999) / 1000); }

json metadata(int pid, const char* name, int tid, json args) {
  json e{{"ph", "M"}, {"name", name}, {"pid", pid}, {"args", std::move(args)}};
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

int64_t kineto_base_time_ns(int64_t unix_ns) {
  constexpr int64_t kTrimonthNs = int64_t{7889238} * 1000000000;  // libkineto's _trimonths
  return unix_ns / kTrimonthNs * kTrimonthNs;
}

json chrome_trace_from_timeline(const std::vector<json>& records, const ChromeTraceOptions& options) {
  return chrome_trace_from_timeline(parse_run_records(records, "timeline"), options);
}

json chrome_trace_from_timeline(const RunRecords& records, const ChromeTraceOptions& options) {
  const json run = records.run ? to_json(*records.run) : json();
  const std::vector<TimelineMark>& marks = records.marks;
  std::map<int64_t, json> step_records;
  for (const StepRecord& s : records.steps) step_records[s.step] = to_json(s);

  // The time axis: t_ns from the run's start, shifted to Kineto's base when the start's Unix
  // time is known.
  std::optional<int64_t> base_ns;
  int64_t offset_ns = 0;
  if (records.run && records.run->start_unix_ns) {
    base_ns = kineto_base_time_ns(*records.run->start_unix_ns);
    offset_ns = *records.run->start_unix_ns - *base_ns;
  }
  const auto ts_of = [offset_ns](int64_t t_ns) { return to_us(offset_ns + t_ns); };

  // The marks written: all, or the downsampled ones (ascending indices).
  std::vector<char> kept(marks.size(), 1);
  const bool downsampled = options.max_points != 0 && marks.size() > options.max_points;
  if (options.max_points != 0) {
    const std::vector<size_t> keep = downsample_keep_peaks(marks, options.max_points);  // throws below 8
    if (downsampled) {
      std::fill(kept.begin(), kept.end(), 0);
      for (size_t k : keep) kept[k] = 1;
    }
  }

  json out = json::array();
  const std::string device = run.is_object() ? json_string(run, "device", "cpu") : "cpu";
  const int pid = options.pid;
  const std::string process = "oomkit train: " + model_name(run) + (options.rank >= 0 ? ", rank " + std::to_string(options.rank) : "");
  out.push_back(metadata(pid, "process_name", -1, {{"name", process}}));
  if (options.rank >= 0) out.push_back(metadata(pid, "process_sort_index", -1, {{"sort_index", options.rank}}));
  out.push_back(metadata(pid, "process_labels", -1, {{"labels", "device " + device}}));
  out.push_back(metadata(pid, "thread_name", kPhaseTid, {{"name", "steps and phases"}}));
  out.push_back(metadata(pid, "thread_sort_index", kPhaseTid, {{"sort_index", 0}}));
  out.push_back(metadata(pid, "thread_name", kEventTid, {{"name", "events, OOM recovery and probes"}}));
  out.push_back(metadata(pid, "thread_sort_index", kEventTid, {{"sort_index", 1}}));

  // Counters, one event name per statistic so that each is its own track (chrome://tracing
  // would stack the args of one counter event on top of each other).
  const auto counter = [&out, pid](const char* name, int64_t ts, int64_t bytes) {
    out.push_back({{"ph", "C"}, {"name", name}, {"pid", pid}, {"ts", ts}, {"args", {{"bytes", bytes}}}});
  };
  bool has_rss = false;
  for (const TimelineMark& m : marks) has_rss = has_rss || m.rss_bytes > 0;
  size_t num_kept = 0;
  for (size_t k = 0; k < marks.size(); ++k) {
    if (!kept[k]) continue;
    ++num_kept;
    const TimelineMark& m = marks[k];
    const int64_t ts = ts_of(m.t_ns);
    // The peak since the previous mark happened inside (previous mark, this mark]: drawn from the
    // previous mark on (from the run's start for the first mark), held until the next sample.
    const int64_t interval_start_ts = k == 0 ? ts_of(0) : ts_of(marks[k - 1].t_ns);
    counter("peak allocated", std::min(interval_start_ts, ts), std::max(m.peak_allocated_bytes, m.allocated_bytes));
    counter("allocated", ts, m.allocated_bytes);
    counter("reserved", ts, m.reserved_bytes);
    if (has_rss) counter("rss", ts, m.rss_bytes);
  }
  // After the last mark the peak since it is what is allocated at it.
  if (!marks.empty()) counter("peak allocated", ts_of(marks.back().t_ns), marks.back().allocated_bytes);

  // Steps and the phases inside them: consecutive marks of one step bound one interval.
  size_t i = 0;
  while (i < marks.size()) {
    size_t j = i;
    bool any_kept = kept[i] != 0;
    while (j + 1 < marks.size() && marks[j + 1].step == marks[i].step) {
      ++j;
      if (kept[j]) any_kept = true;
    }
    if (!any_kept) {
      i = j + 1;
      continue;
    }
    const int64_t step = marks[i].step;
    const int64_t begin_us = ts_of(marks[i].t_ns);
    const int64_t end_us = std::max(begin_us, ts_of(marks[j].t_ns));
    json step_args{{"step", step}, {"allocated_bytes_at_start", marks[i].allocated_bytes}};
    const auto rec = step_records.find(step);
    if (rec != step_records.end()) {
      for (const char* key : {"loss", "lr", "ms", "tokens_per_s", "peak_bytes", "peak_phase", "val_loss"}) {
        if (rec->second.contains(key)) step_args[key] = rec->second[key];
      }
    } else {
      step_args["incomplete"] = true;  // no "step" record: the run stopped inside this step
    }
    out.push_back({{"ph", "X"}, {"name", "step " + std::to_string(step)}, {"cat", "step"}, {"pid", pid},
                   {"tid", kPhaseTid}, {"ts", begin_us}, {"dur", end_us - begin_us}, {"args", step_args}});
    for (size_t k = i + 1; k <= j; ++k) {
      if (!kept[k]) continue;
      const int64_t ts = std::max(begin_us, ts_of(marks[k - 1].t_ns));
      const int64_t te = std::min(end_us, std::max(ts, ts_of(marks[k].t_ns)));
      out.push_back({{"ph", "X"}, {"name", phase_interval_name(marks[k].phase)}, {"cat", "phase"},
                     {"pid", pid}, {"tid", kPhaseTid}, {"ts", ts}, {"dur", te - ts},
                     {"args", mark_args(marks[k])}});
    }
    i = j + 1;
  }

  // Events: an event without t_ns sits at the last mark of its step. Probes are slices (their
  // t_ns is the end, dur_ns their length); every other event an instant.
  const auto event_t_ns = [&marks](const EventRecord& e) {
    if (e.t_ns) return *e.t_ns;
    int64_t t_ns = 0;
    for (const TimelineMark& m : marks) {
      if (m.step <= e.step) t_ns = m.t_ns;
    }
    return t_ns;
  };
  const std::vector<EventRecord>& events = records.events;
  for (size_t k = 0; k < events.size(); ++k) {
    const EventRecord& e = events[k];
    json args = to_json(e);
    args.erase("type");
    args.erase("t_ns");
    const int64_t t_ns = event_t_ns(e);
    if (e.name == "probe") {
      const int64_t dur_ns = std::max<int64_t>(0, json_int(e.fields, "dur_ns", 0));
      const int64_t ts = ts_of(t_ns - dur_ns);
      out.push_back({{"ph", "X"}, {"name", "probe " + json_string(e.fields, "probe", "?")}, {"cat", "probe"},
                     {"pid", pid}, {"tid", kEventTid}, {"ts", ts}, {"dur", std::max<int64_t>(0, ts_of(t_ns) - ts)},
                     {"args", std::move(args)}});
      continue;
    }
    out.push_back({{"ph", "i"}, {"name", e.name.empty() ? std::string("event") : e.name}, {"cat", "event"},
                   {"s", "t"}, {"pid", pid}, {"tid", kEventTid}, {"ts", ts_of(t_ns)}, {"args", args}});
    if (e.name != "oom") continue;
    // The OOM's handling: up to its "recover" event, else up to the end of its last probe.
    std::optional<size_t> recover;
    int64_t end_ns = t_ns;
    for (size_t n = k + 1; n < events.size() && events[n].name != "oom"; ++n) {
      if (events[n].name == "probe") end_ns = std::max(end_ns, event_t_ns(events[n]));
      if (events[n].name == "recover") {
        recover = n;
        end_ns = std::max(end_ns, event_t_ns(events[n]));
        break;
      }
    }
    if (!recover && end_ns == t_ns) continue;  // no playbook ran (--on-oom abort)
    json rec_args{{"step", e.step}};
    if (recover) {
      for (const char* key : {"change", "from", "to", "finding"}) {
        if (const auto it = events[*recover].fields.find(key); it != events[*recover].fields.end()) rec_args[key] = *it;
      }
    }
    const int64_t ts = ts_of(t_ns);
    out.push_back({{"ph", "X"}, {"name", recover ? "oom recovery" : "oom playbook (not recovered)"},
                   {"cat", "recovery"}, {"pid", pid}, {"tid", kEventTid}, {"ts", ts},
                   {"dur", std::max<int64_t>(0, ts_of(end_ns) - ts)}, {"args", std::move(rec_args)}});
  }

  json other{{"generator", "oomkit report"}, {"model", model_name(run)}, {"device", device}};
  if (downsampled) {
    other["downsampled"] = {{"marks", marks.size()}, {"kept_marks", num_kept}, {"max_points", options.max_points}};
  }
  json trace{{"traceEvents", std::move(out)}, {"displayTimeUnit", "ms"}, {"otherData", std::move(other)}};
  if (base_ns) trace["baseTimeNanoseconds"] = *base_ns;
  return trace;
}

json chrome_trace_from_ranks(const std::vector<RankTimeline>& ranks, const ChromeTraceOptions& options) {
  json merged;
  std::optional<int64_t> base_ns;
  json ranks_meta = json::array();
  for (const RankTimeline& r : ranks) {
    if (!r.records) continue;
    ChromeTraceOptions o = options;
    o.rank = r.rank;
    o.pid = r.rank + 1;
    json trace = chrome_trace_from_timeline(*r.records, o);
    int64_t shift_us = 0;
    if (trace.contains("baseTimeNanoseconds")) {
      const int64_t own = trace["baseTimeNanoseconds"].get<int64_t>();
      if (!base_ns) base_ns = own;
      shift_us = (own - *base_ns) / 1000;  // bases are whole seconds apart: exact
    }
    if (merged.is_null()) {
      merged = trace;
      merged["traceEvents"] = json::array();
    }
    for (json& e : trace["traceEvents"]) {
      if (shift_us != 0 && e.contains("ts")) e["ts"] = e["ts"].get<int64_t>() + shift_us;
      merged["traceEvents"].push_back(std::move(e));
    }
    ranks_meta.push_back({{"rank", r.rank}, {"pid", o.pid}, {"marks", r.records->marks.size()}});
  }
  if (merged.is_null()) merged = json{{"traceEvents", json::array()}, {"displayTimeUnit", "ms"}};
  if (base_ns) merged["baseTimeNanoseconds"] = *base_ns;
  merged["otherData"]["ranks"] = std::move(ranks_meta);
  return merged;
}

void write_chrome_trace(const RunRecords& records, const std::string& path, const std::string& field,
                        const ChromeTraceOptions& options) {
  write_trace_file(chrome_trace_from_timeline(records, options), path, field);
}

void write_trace_file(const json& trace, const std::string& path, const std::string& field) {
  std::ofstream out(path, std::ios::out | std::ios::trunc);
  if (!out) throw InputError(field, "cannot write '" + path + "'");
  out << trace.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
  out.flush();
  if (!out) throw InputError(field, "write failed for '" + path + "'");
}

void write_chrome_trace(const std::vector<json>& records, const std::string& path, const std::string& field,
                        const ChromeTraceOptions& options) {
  write_chrome_trace(parse_run_records(records, "timeline"), path, field, options);
}

void write_chrome_trace_from_file(const std::string& timeline_path, const std::string& trace_path,
                                  const std::string& field, const ChromeTraceOptions& options) {
  write_chrome_trace(read_run_records(timeline_path), trace_path, field, options);
}

}  // namespace oomkit
