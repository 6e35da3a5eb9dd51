#include "oomkit/report/html_report.h"

#include <algorithm>
#include <map>
#include <set>

#include "oomkit/core/error.h"
#include "oomkit/report/downsample.h"

namespace oomkit {

using nlohmann::json;

namespace {

const char* const kCategoryOrder[] = {"parameters", "gradients", "optimizer_state", "buffers",
                                      "activations", "transient", "overhead", "peak"};

std::string model_name_of(const json& model) {
  if (!model.is_object()) return {};
  for (const char* key : {"_name_or_path", "name"}) {
    if (model.contains(key) && model[key].is_string()) return model[key].get<std::string>();
  }
  return {};
}

// The highest allocated a mark saw: at the mark, or between the previous mark and it.
int64_t mark_peak_bytes(const TimelineMark& m) { return std::max(m.allocated_bytes, m.peak_allocated_bytes); }

// The index of the first mark with the run's highest mark_peak_bytes(); `marks` not empty.
size_t peak_mark(const std::vector<TimelineMark>& marks) {
  size_t peak_i = 0;
  for (size_t i = 1; i < marks.size(); ++i) {
    if (mark_peak_bytes(marks[i]) > mark_peak_bytes(marks[peak_i])) peak_i = i;
  }
  return peak_i;
}

json mark_to_page(const TimelineMark& m, double x) {
  json j = to_json(m);  // the timeline's own field names; the page draws fewer of them
  for (const char* unused : {"type", "active_bytes", "inactive_split_bytes", "rss_bytes"}) j.erase(unused);
  j["x"] = x;
  return j;
}

// x position of every mark: step + slot / slots, where slots is the most marks any step has,
// so that the same phase sits at the same offset in every step (an interrupted step included).
std::vector<double> mark_positions(const std::vector<TimelineMark>& marks) {
  std::map<int64_t, int64_t> per_step;
  for (const TimelineMark& m : marks) ++per_step[m.step];
  int64_t slots = 1;
  for (const auto& [step, count] : per_step) slots = std::max(slots, count);
  std::vector<double> x(marks.size());
  std::map<int64_t, int64_t> seen;
  for (size_t i = 0; i < marks.size(); ++i) {
    x[i] = static_cast<double>(marks[i].step) + static_cast<double>(seen[marks[i].step]++) / slots;
  }
  return x;
}

const json* find_number_field(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number() ? &j[key] : nullptr;
}

// Per-category estimated and measured bytes. The measured side comes from the run summary,
// which may hold {"categories":[{"category","measured_bytes","estimated_bytes"}]} or
// {"categories"|"attribution":{"<category>":{"measured_bytes","estimated_bytes"}}}.
json build_categories(const ReportInput& in) {
  std::map<std::string, json> rows;
  auto row = [&](const std::string& c) -> json& {
    json& r = rows[c];
    if (r.is_null()) r = json{{"category", c}, {"estimated_bytes", nullptr}, {"measured_bytes", nullptr}};
    return r;
  };
  if (in.estimate.is_object() && in.estimate.contains("totals") && in.estimate["totals"].is_object()) {
    for (const auto& [c, v] : in.estimate["totals"].items()) {
      if (v.is_number()) row(c)["estimated_bytes"] = v;
    }
  }
  // The attribution may sit at the top of the summary or inside its memory part.
  const json* holder = &in.summary;
  for (const char* part : {"memory", "memory_summary"}) {
    if (in.summary.is_object() && in.summary.contains(part) && in.summary[part].is_object()) holder = &in.summary[part];
  }
  for (const char* key : {"categories", "attribution"}) {
    if (!holder->is_object() || !holder->contains(key)) continue;
    const json& cats = (*holder)[key];
    auto take = [&](const std::string& c, const json& v) {
      if (v.is_number()) {
        row(c)["measured_bytes"] = v;
        return;
      }
      // A negative size means "not available" (the profiler writes -1 for "no estimate").
      if (const json* m = find_number_field(v, "measured_bytes"); m && *m >= 0) row(c)["measured_bytes"] = *m;
      if (const json* e = find_number_field(v, "estimated_bytes"); e && *e >= 0) row(c)["estimated_bytes"] = *e;
      if (v.is_object() && v.contains("source") && v["source"].is_string()) row(c)["source"] = v["source"];
    };
    if (cats.is_array()) {
      for (const json& v : cats) {
        if (v.is_object() && v.contains("category") && v["category"].is_string()) take(v["category"], v);
      }
    } else if (cats.is_object()) {
      for (const auto& [c, v] : cats.items()) take(c, v);
    }
    break;
  }
  json out = json::array();
  std::set<std::string> done;
  for (const char* c : kCategoryOrder) {
    if (rows.count(c)) out.push_back(rows[c]);
    done.insert(c);
  }
  for (const auto& [c, r] : rows) {
    if (!done.count(c)) out.push_back(r);
  }
  return out;
}

// The per-step envelope over every mark (not the downsampled ones): one row per step,
// [first_step, last_step, min allocated, max allocated, max peak (allocated or peak since the
// previous mark), max reserved], in step order. Past max_points steps, consecutive steps are
// merged into max_points groups (min of the minima, max of the maxima), so the envelope keeps
// every extreme at any run length.
json build_envelope(const std::vector<TimelineMark>& marks, size_t max_points) {
  struct Row {
    int64_t first, last, lo, hi, peak, reserved;
  };
  std::map<int64_t, Row> by_step;
  for (const TimelineMark& m : marks) {
    const int64_t peak = std::max(m.allocated_bytes, m.peak_allocated_bytes);
    auto [it, fresh] = by_step.try_emplace(m.step, Row{m.step, m.step, m.allocated_bytes, m.allocated_bytes, peak,
                                                        m.reserved_bytes});
    if (fresh) continue;
    Row& r = it->second;
    r.lo = std::min(r.lo, m.allocated_bytes);
    r.hi = std::max(r.hi, m.allocated_bytes);
    r.peak = std::max(r.peak, peak);
    r.reserved = std::max(r.reserved, m.reserved_bytes);
  }
  std::vector<Row> rows;
  rows.reserve(by_step.size());
  for (const auto& [step, r] : by_step) rows.push_back(r);
  if (max_points > 0 && rows.size() > max_points) {
    std::vector<Row> merged;
    for (size_t g = 0; g < max_points; ++g) {
      const size_t begin = g * rows.size() / max_points, end = (g + 1) * rows.size() / max_points;
      Row r = rows[begin];
      for (size_t k = begin + 1; k < end; ++k) {
        r.last = rows[k].last;
        r.lo = std::min(r.lo, rows[k].lo);
        r.hi = std::max(r.hi, rows[k].hi);
        r.peak = std::max(r.peak, rows[k].peak);
        r.reserved = std::max(r.reserved, rows[k].reserved);
      }
      merged.push_back(r);
    }
    rows.swap(merged);
  }
  json out = json::array();
  for (const Row& r : rows) out.push_back(json::array({r.first, r.last, r.lo, r.hi, r.peak, r.reserved}));
  return out;
}

// The estimates in force over the run: the run's own from its first step, then each recovery's
// (the "recover" event's "estimate", written by `oomkit train --on-oom recover`) from the step it
// recovered at. An older timeline's recover event has no estimate: then the summary's
// estimated_peak_bytes (the trainer re-estimates the recovered setup for it) gives the peak.
json estimate_periods(const ReportInput& in) {
  json out = json::array();
  const auto phases_of = [](const json& est) {
    return est.is_object() && est.contains("phases") && est["phases"].is_array() ? est["phases"] : json::array();
  };
  if (const json* p = find_number_field(in.estimate, "peak_bytes")) {
    out.push_back({{"from_step", nullptr}, {"peak_bytes", *p}, {"phases", phases_of(in.estimate)}, {"source", "run"}});
  }
  for (const json& e : in.events) {
    if (json_string(e, "name") != "recover") continue;
    json period{{"from_step", json_int(e, "step", 0)}, {"change", json_string(e, "change")}};
    if (e.contains("estimate") && e["estimate"].is_object() && find_number_field(e["estimate"], "peak_bytes")) {
      period["peak_bytes"] = e["estimate"]["peak_bytes"];
      period["phases"] = phases_of(e["estimate"]);
      period["source"] = "recover event";
    } else if (const json* p = find_number_field(in.summary, "estimated_peak_bytes");
               p && p->get<double>() > 0 && (out.empty() || out.back()["peak_bytes"] != *p)) {
      period["peak_bytes"] = *p;
      period["phases"] = json::array();
      period["source"] = "summary.json estimated_peak_bytes";
    } else {
      continue;
    }
    out.push_back(std::move(period));
  }
  return out;
}

int64_t pick_zoom_step(const ReportInput& in, int64_t requested) {
  std::map<int64_t, int64_t> step_peak;
  for (const TimelineMark& m : in.marks) {
    int64_t& p = step_peak[m.step];
    p = std::max({p, m.allocated_bytes, m.peak_allocated_bytes});
  }
  if (requested >= 0) {
    if (!step_peak.count(requested)) {
      const std::string range = step_peak.empty() ? std::string("none")
          : std::to_string(step_peak.begin()->first) + ".." + std::to_string(step_peak.rbegin()->first);
      throw InputError("--step", "step " + std::to_string(requested) + " has no marks in the timeline",
                       "steps in this timeline: " + range);
    }
    return requested;
  }
  for (const json& e : in.events) {
    if (json_string(e, "name") == "oom" && e.contains("step") && e["step"].is_number_integer() &&
        step_peak.count(e["step"].get<int64_t>())) {
      return e["step"].get<int64_t>();
    }
  }
  std::set<int64_t> complete;
  for (const json& s : in.steps) {
    if (s.contains("step") && s["step"].is_number_integer()) complete.insert(s["step"].get<int64_t>());
  }
  int64_t best = step_peak.begin()->first;
  int64_t best_peak = -1;
  for (const auto& [step, peak] : step_peak) {
    if (!complete.empty() && !complete.count(step)) continue;
    if (peak > best_peak) best = step, best_peak = peak;
  }
  return best;
}

}  // namespace

json build_report_data(const ReportInput& in, const HtmlReportOptions& options) {
  json d;
  const json model = in.run.is_object() && in.run.contains("model") ? in.run["model"]
                     : in.estimate.is_object() && in.estimate.contains("model") ? in.estimate["model"] : json();
  const std::string name = model_name_of(model);
  d["kind"] = in.has_timeline() ? "run" : !in.estimate.is_null() ? "estimate" : "diagnosis";
  d["title"] = !options.title.empty() ? options.title
               : "oomkit report" + (name.empty() ? std::string() : ": " + name);
  d["source"] = in.source;
  json run = in.run.is_object() ? in.run : json::object();
  run.erase("estimate");
  d["run"] = run;
  d["estimate"] = in.estimate;
  // `oomkit estimate --max-batch --json` names the largest micro-batch "max_batch".
  if (d["estimate"].is_object() && d["estimate"].contains("max_batch") &&
      !d["estimate"].contains("max_micro_batch_size")) {
    d["estimate"]["max_micro_batch_size"] = d["estimate"]["max_batch"];
  }
  d["summary"] = in.summary;
  d["diagnosis"] = in.oom_report;
  d["categories"] = build_categories(in);

  json stats = json::object();
  stats["steps"] = in.steps.size();
  stats["total_marks"] = in.marks.size();
  // limit_bytes 0 is the run header's "no budget": no limit line.
  if (const json* lim = find_number_field(in.run, "limit_bytes"); lim && lim->get<double>() > 0) stats["limit_bytes"] = *lim;
  if (const json* p = find_number_field(in.estimate, "peak_bytes")) stats["estimate_peak_bytes"] = *p;

  const json periods = estimate_periods(in);
  d["estimate_periods"] = periods;
  // After a recovery the run is compared with the recovered setup's estimate (as the trainer's
  // closing table does), over the marks from the recovery step on.
  if (periods.size() > 1 && !in.marks.empty()) {
    const json& last = periods.back();
    const int64_t from = last["from_step"].get<int64_t>();
    int64_t measured = 0;
    for (const TimelineMark& m : in.marks) {
      if (m.step >= from) measured = std::max({measured, m.allocated_bytes, m.peak_allocated_bytes});
    }
    stats["recovered"] = {{"from_step", from}, {"change", last.value("change", "")},
                          {"estimate_peak_bytes", last["peak_bytes"]}, {"measured_peak_bytes", measured},
                          {"start_estimate_peak_bytes", periods.front()["peak_bytes"]}};
  }

  const std::vector<double> x = mark_positions(in.marks);
  json timeline_marks = json::array();
  if (!in.marks.empty()) {
    const size_t peak_i = peak_mark(in.marks);
    int64_t max_reserved = 0;
    for (const TimelineMark& m : in.marks) max_reserved = std::max(max_reserved, m.reserved_bytes);
    stats["peak_bytes"] = mark_peak_bytes(in.marks[peak_i]);
    stats["peak_step"] = in.marks[peak_i].step;
    stats["peak_phase"] = in.marks[peak_i].phase;
    stats["max_reserved_bytes"] = max_reserved;
    for (size_t i : downsample_keep_peaks(in.marks, options.max_points)) {
      timeline_marks.push_back(mark_to_page(in.marks[i], x[i]));
    }
    const int64_t zoom = pick_zoom_step(in, options.zoom_step);
    json zm = json::array();
    for (size_t i = 0; i < in.marks.size(); ++i) {
      if (in.marks[i].step == zoom) zm.push_back(mark_to_page(in.marks[i], x[i]));
    }
    const std::string kind = zoom == in.marks.front().step ? "first" : "steady";
    // The prediction in force at the zoomed step: after a recovery, the recovered setup's.
    json predicted = json::array();
    for (const json& period : periods) {
      if (!period["from_step"].is_null() && period["from_step"].get<int64_t>() > zoom) continue;
      predicted = json::array();
      for (const json& p : period["phases"]) {
        if (p.is_object() && json_string(p, "step_kind") == kind) predicted.push_back(p);
      }
    }
    json step_record;
    for (const json& s : in.steps) {
      if (json_int(s, "step", -1) == zoom) step_record = s;
    }
    // Events of the zoomed step (an OOM, a recovery), placed after the marks that precede them.
    json zoom_events = json::array();
    for (const json& e : in.events) {
      if (json_int(e, "step", -1) != zoom || !e.contains("t_ns") || !e["t_ns"].is_number()) continue;
      size_t after = 0;
      for (const json& m : zm) after += m["t_ns"].get<int64_t>() <= e["t_ns"].get<int64_t>();
      json ze = e;
      ze.erase("type");
      ze["after"] = after;
      zoom_events.push_back(std::move(ze));
    }
    d["zoom"] = {{"step", zoom}, {"step_kind", kind}, {"marks", zm}, {"predicted", predicted},
                 {"record", step_record}, {"events", zoom_events}};
  } else if (options.max_points < 8) {
    downsample_keep_peaks(in.marks, options.max_points);  // validates the option
  }
  d["timeline"] = {{"total_marks", in.marks.size()},
                   {"marks", timeline_marks},
                   {"envelope", build_envelope(in.marks, options.max_points)}};

  // Events, placed on the x axis just after the last mark at or before them.
  json events = json::array();
  bool oom = false;
  for (const json& e : in.events) {
    json ev = e;
    ev.erase("type");
    ev.erase("estimate");  // a recovery's estimate: in estimate_periods
    const int64_t step = json_int(e, "step", -1);
    const bool has_t = e.contains("t_ns") && e["t_ns"].is_number();
    double ex = static_cast<double>(step);
    for (size_t i = 0; i < in.marks.size(); ++i) {
      const bool before = has_t ? in.marks[i].t_ns <= e["t_ns"].get<int64_t>() : in.marks[i].step <= step;
      if (before) ex = x[i];
    }
    ev["x"] = ex;
    if (json_string(e, "name") == "oom") {
      oom = true;
      stats["oom_step"] = step;
    }
    events.push_back(std::move(ev));
  }
  if (in.oom_report.is_object() && in.oom_report.contains("oom")) oom = true;
  stats["oom"] = oom;
  // A run killed mid-way has no summary; its last step may have no "step" record.
  stats["complete"] = !in.summary.is_null();
  if (!in.marks.empty()) stats["last_step"] = in.marks.back().step;
  d["events"] = events;
  d["stats"] = stats;
  // A data-parallel run: one row per rank (rank 0 is the run above), and the other ranks'
  // allocated bytes at their kept marks, drawn over rank 0's timeline.
  if (!in.other_ranks.empty()) {
    json ranks = json::array();
    auto row = [&](int rank, const RunRecords& r, const json& summary) {
      json j{{"rank", rank}, {"marks", r.marks.size()}};
      if (!r.marks.empty()) {
        const TimelineMark& pm = r.marks[peak_mark(r.marks)];
        j["peak_allocated_bytes"] = mark_peak_bytes(pm);
        j["peak_step"] = pm.step;
        j["peak_phase"] = pm.phase;
      }
      if (const json* e = find_number_field(summary, "estimated_peak_bytes")) {
        j["estimated_peak_bytes"] = *e;
      } else if (r.run) {  // the rank's own estimate in its run header (a run killed before its summary)
        const json header = to_json(*r.run);
        if (header.contains("estimate")) {
          if (const json* est = find_number_field(header["estimate"], "peak_bytes")) j["estimated_peak_bytes"] = *est;
        }
      }
      if (!r.steps.empty()) j["last_loss"] = r.steps.back().loss;
      if (rank > 0 && !r.marks.empty()) {
        const std::vector<double> rx = mark_positions(r.marks);
        json pts = json::array();
        for (size_t i : downsample_keep_peaks(r.marks, options.max_points)) {
          pts.push_back(json::array({rx[i], r.marks[i].allocated_bytes, r.marks[i].step}));
        }
        j["points"] = std::move(pts);  // [x, allocated_bytes, step]
      }
      ranks.push_back(std::move(j));
    };
    row(0, in.records, in.summary);
    for (const auto& r : in.other_ranks) row(r.rank, r.records, r.summary);
    d["ranks"] = std::move(ranks);
  }
  return d;
}

std::string json_for_script(const json& data) {
  const std::string raw = data.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(raw.size() + raw.size() / 16);
  for (char c : raw) {
    switch (c) {
      case '<': out += "\\u003c"; break;
      case '>': out += "\\u003e"; break;
      case '&': out += "\\u0026"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string render_html_report(const ReportInput& input, const HtmlReportOptions& options) {
  const json data = build_report_data(input, options);
  std::string html;
  html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  // No network: the page may load nothing from anywhere.
  html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n";
  html += "<meta name=\"generator\" content=\"oomkit report\">\n";
  html += "<title>" + html_escape(data["title"].get<std::string>()) + "</title>\n";
  html += "<style>\n";
  html += report_stylesheet();
  html += "</style>\n</head>\n<body>\n";
  html += "<main id=\"app\"><noscript>This report draws its charts with JavaScript; "
          "enable it to see them.</noscript></main>\n";
  html += "<div id=\"tooltip\" role=\"tooltip\" hidden></div>\n";
  html += "<script type=\"application/json\" id=\"oomkit-data\">";
  html += json_for_script(data);
  html += "</script>\n<script>\n";
  html += report_script();
  html += "</script>\n</body>\n</html>\n";
  return html;
}

}  // namespace oomkit
