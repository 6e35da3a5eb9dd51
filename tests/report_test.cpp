// Tests of `oomkit report`'s library: input loading, downsampling, the page data and the HTML.
// Expected values are computed here from the fixture files (tests/data/report/, written by
// make_fixtures.py in the trainer's timeline format), never taken from the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/report/chrome_trace.h"
#include "oomkit/report/downsample.h"
#include "oomkit/report/html_report.h"
#include "oomkit/report/report.h"
#include "oomkit/report/report_input.h"

using namespace oomkit;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kData = std::string(OOMKIT_SOURCE_DIR) + "/tests/data/report";

std::vector<json> jsonl(const std::string& path) {
  std::ifstream in(path);
  std::vector<json> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

std::vector<json> of_type(const std::vector<json>& records, const std::string& type) {
  std::vector<json> out;
  for (const json& r : records) {
    if (r["type"] == type) out.push_back(r);
  }
  return out;
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("oomkit_report_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TimelineMark mark(int64_t step, int64_t allocated, int64_t peak) {
  TimelineMark m;
  m.step = step;
  m.phase = "after_forward";
  m.allocated_bytes = allocated;
  m.peak_allocated_bytes = peak;
  return m;
}

}  // namespace

// Downsampling: short timelines are untouched; long ones are cut to at most max_points, in
// order, and keep the first and last marks and the global maxima of allocated and of peak.
TEST(Downsample, KeepsEverythingWhenShort) {
  std::vector<TimelineMark> marks;
  for (int i = 0; i < 50; ++i) marks.push_back(mark(i, i, i));
  const auto keep = downsample_keep_peaks(marks, 50);
  ASSERT_EQ(keep.size(), 50u);
  for (size_t i = 0; i < keep.size(); ++i) EXPECT_EQ(keep[i], i);
}

TEST(Downsample, LongTimelineKeepsPeaksAndEnds) {
  std::vector<TimelineMark> marks;
  for (int64_t i = 0; i < 100000; ++i) marks.push_back(mark(i, 1000 + (i * 7919) % 1000, 2000 + (i * 104729) % 500));
  marks[31337].allocated_bytes = 50000;  // a single spike in allocated
  marks[77777].peak_allocated_bytes = 90000;  // and a different one in peak
  marks[4242].allocated_bytes = 3;  // and a dip
  const auto keep = downsample_keep_peaks(marks, 1000);
  EXPECT_LE(keep.size(), 1000u);
  EXPECT_GE(keep.size(), 300u);  // one bucket per 3 points: at least one mark per bucket
  EXPECT_TRUE(std::is_sorted(keep.begin(), keep.end()));
  EXPECT_EQ(std::set<size_t>(keep.begin(), keep.end()).size(), keep.size());
  EXPECT_EQ(keep.front(), 0u);
  EXPECT_EQ(keep.back(), marks.size() - 1);
  for (size_t want : {size_t{31337}, size_t{77777}, size_t{4242}}) {
    EXPECT_TRUE(std::binary_search(keep.begin(), keep.end(), want)) << want;
  }
}

TEST(Downsample, RejectsTooFewPoints) {
  EXPECT_THROW(downsample_keep_peaks({}, 7), InputError);
}

// Embedding: the data in <script type="application/json"> can never close the element or
// open a comment, parses back to the same value, and invalid UTF-8 does not throw.
TEST(Embed, JsonForScriptEscapesMarkupAndRoundTrips) {
  const json data = {{"name", "a </script><script>alert(1)</script> <!-- & \"q\""}, {"n", 3}};
  const std::string s = json_for_script(data);
  EXPECT_EQ(s.find('<'), std::string::npos);
  EXPECT_EQ(s.find('>'), std::string::npos);
  EXPECT_EQ(s.find('&'), std::string::npos);
  EXPECT_EQ(json::parse(s), data);
  const json bad = {{"name", std::string("ok \xff\xfe end")}};
  EXPECT_NO_THROW(json::parse(json_for_script(bad)));
  EXPECT_EQ(html_escape("<a href=\"x\">&'</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
}

// Loading: a run directory yields every mark/step/event of its timeline plus summary.json and
// oom_report.json; the run record's estimate is used when no other is given.
TEST(Load, RunDirectory) {
  const auto records = jsonl(kData + "/run_oom/timeline.jsonl");
  const ReportInput in = load_report_input(kData + "/run_oom");
  EXPECT_TRUE(in.has_timeline());
  EXPECT_EQ(in.marks.size(), of_type(records, "mark").size());
  EXPECT_EQ(in.steps.size(), of_type(records, "step").size());
  EXPECT_EQ(in.events.size(), of_type(records, "event").size());
  EXPECT_EQ(in.run["limit_bytes"], records[0]["limit_bytes"]);
  EXPECT_EQ(in.estimate["peak_bytes"], records[0]["estimate"]["peak_bytes"]);
  ASSERT_TRUE(in.oom_report.is_object());
  EXPECT_EQ(in.oom_report["findings"].size(), 2u);
  ASSERT_TRUE(in.summary.is_object());
  EXPECT_TRUE(in.summary.contains("categories"));
}

TEST(Load, TimelineFileEstimateAndOomReport) {
  const ReportInput t = load_report_input(kData + "/run_ok/timeline.jsonl");
  EXPECT_EQ(t.marks.size(), of_type(jsonl(kData + "/run_ok/timeline.jsonl"), "mark").size());
  EXPECT_TRUE(t.summary.is_object());  // summary.json beside the file
  const ReportInput e = load_report_input(kData + "/estimate_sweep.json");
  EXPECT_FALSE(e.has_timeline());
  EXPECT_TRUE(e.estimate.contains("sweep"));
  const ReportInput o = load_report_input(kData + "/run_oom/oom_report.json");
  EXPECT_TRUE(o.oom_report.contains("findings"));
  EXPECT_TRUE(o.estimate.is_null());
}

// Bad input: a typed error naming the path (and the record), never a crash.
TEST(Load, BadInputThrowsInputError) {
  const fs::path dir = scratch("bad");
  try {
    load_report_input((dir / "missing").string());
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), (dir / "missing").string());
  }
  EXPECT_THROW(load_report_input(dir.string()), InputError);  // a folder without timeline.jsonl
  std::ofstream(dir / "garbage.json") << "{ not json";
  EXPECT_THROW(load_report_input((dir / "garbage.json").string()), InputError);
  std::ofstream(dir / "other.json") << R"({"hello": 1})";
  EXPECT_THROW(load_report_input((dir / "other.json").string()), InputError);
  std::ofstream(dir / "wrong.jsonl") << R"({"type":"run","version":1})" << "\n"
                                     << R"({"type":"mark","step":1,"phase":"after_forward","allocated_bytes":"lots"})"
                                     << "\n";
  try {
    load_report_input((dir / "wrong.jsonl").string());
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("record 2"), std::string::npos) << e.what();
  }
}

// Page data: the peak is the largest allocated-or-peak value over all marks; the zoomed step
// is the OOM step when there was one, else the complete step with the highest peak; the
// categories pair the summary's measured bytes with the estimate's.
TEST(PageData, StatsZoomAndCategories) {
  const auto records = jsonl(kData + "/run_ok/timeline.jsonl");
  int64_t peak = 0;
  std::map<int64_t, int64_t> step_peak;
  for (const json& m : of_type(records, "mark")) {
    const int64_t p = std::max(m["allocated_bytes"].get<int64_t>(), m["peak_allocated_bytes"].get<int64_t>());
    peak = std::max(peak, p);
    step_peak[m["step"]] = std::max(step_peak[m["step"]], p);
  }
  int64_t want_step = step_peak.begin()->first;
  for (const auto& [s, p] : step_peak) {
    if (p > step_peak[want_step]) want_step = s;
  }
  const json d = build_report_data(load_report_input(kData + "/run_ok"), {});
  EXPECT_EQ(d["kind"], "run");
  EXPECT_EQ(d["stats"]["peak_bytes"], peak);
  EXPECT_EQ(d["zoom"]["step"], want_step);
  EXPECT_EQ(d["zoom"]["marks"].size(), 6u);  // one optimizer step without accumulation: 6 marks
  EXPECT_EQ(d["zoom"]["step_kind"], want_step == 1 ? "first" : "steady");
  EXPECT_EQ(d["zoom"]["predicted"].size(), 6u);
  EXPECT_EQ(d["stats"]["oom"], false);
  EXPECT_EQ(d["timeline"]["marks"].size(), of_type(records, "mark").size());
  const json summary = json::parse(std::ifstream(kData + "/run_ok/summary.json"));
  ASSERT_GE(d["categories"].size(), summary["categories"].size());
  EXPECT_EQ(d["categories"][0]["category"], "parameters");
  EXPECT_EQ(d["categories"][3]["measured_bytes"], summary["categories"][3]["measured_bytes"]);
  // The summary pairs each measured category with the estimator's number for the same quantity
  // (activations: the after-forward rise); categories it lacks come from the estimate's totals.
  EXPECT_EQ(d["categories"][3]["estimated_bytes"], summary["categories"][3]["estimated_bytes"]);
  EXPECT_EQ(d["categories"][5]["category"], "overhead");
  EXPECT_EQ(d["categories"][5]["estimated_bytes"], records[0]["estimate"]["totals"]["overhead"]);
  EXPECT_TRUE(d["categories"][5]["measured_bytes"].is_null());

  const json o = build_report_data(load_report_input(kData + "/run_oom"), {});
  EXPECT_EQ(o["stats"]["oom"], true);
  EXPECT_EQ(o["zoom"]["step"], 2);  // the fixture's OOM event is at step 2
  EXPECT_EQ(o["stats"]["oom_step"], 2);
}

TEST(PageData, StepOptionValidatedAndMaxPointsApplied) {
  const ReportInput in = load_report_input(kData + "/run_ok");
  HtmlReportOptions opt;
  opt.zoom_step = 4;
  EXPECT_EQ(build_report_data(in, opt)["zoom"]["step"], 4);
  opt.zoom_step = 999;
  try {
    build_report_data(in, opt);
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--step");
  }
  opt.zoom_step = -1;
  opt.max_points = 20;
  EXPECT_LE(build_report_data(in, opt)["timeline"]["marks"].size(), 20u);
}

// The page: self-contained (no external reference, a CSP forbidding network), exactly the two
// script elements, and input text never appears unescaped.
TEST(Html, SelfContainedAndEscaped) {
  const std::string html = render_html_report(load_report_input(kData + "/run_oom"), {});
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
  std::string without_ns = html;  // the SVG namespace URI is a name, not a request
  for (size_t p; (p = without_ns.find("http://www.w3.org/2000/svg")) != std::string::npos;) without_ns.erase(p, 26);
  for (const char* external : {"src=", "href=", "http://", "https://", "@import", "url("}) {
    EXPECT_EQ(without_ns.find(external), std::string::npos) << external;
  }
  size_t closes = 0;
  for (size_t p = html.find("</script>"); p != std::string::npos; p = html.find("</script>", p + 1)) ++closes;
  EXPECT_EQ(closes, 2u);  // the data element and the script; the fixture's "</script>" is escaped
  EXPECT_EQ(html.find("<b>not bold</b>"), std::string::npos);
  EXPECT_EQ(html.find("<!-- \\\"quoted"), std::string::npos);
  EXPECT_NE(html.find("<title>oomkit report: gpt-nano</title>"), std::string::npos);
}

// The entry point: default output paths, format names, and the errors of impossible requests.
TEST(WriteReport, PathsFormatsAndErrors) {
  EXPECT_EQ(default_report_path(kData + "/run_ok", ReportFormat::kHtml), kData + "/run_ok/report.html");
  EXPECT_EQ(default_report_path(kData + "/run_ok", ReportFormat::kChromeTrace), kData + "/run_ok/trace.json");
  EXPECT_EQ(default_report_path("/x/est.json", ReportFormat::kHtml), "/x/est.html");
  EXPECT_EQ(parse_report_format("chrome-trace"), ReportFormat::kChromeTrace);
  EXPECT_THROW(parse_report_format("pdf"), InputError);

  const fs::path dir = scratch("write");
  ReportOptions o;
  o.input = kData + "/estimate_sweep.json";
  o.output = (dir / "e.html").string();
  EXPECT_EQ(write_report(o), o.output);
  EXPECT_GT(fs::file_size(o.output), 10000u);
  o.format = ReportFormat::kChromeTrace;
  try {
    write_report(o);
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--format");
  }
  o.format = ReportFormat::kHtml;
  o.output = (dir / "no" / "such" / "dir" / "r.html").string();
  EXPECT_THROW(write_report(o), InputError);
}

// Issue 12 / issue 9 item 4: the timeline's typed records are checked by the one reader, so a
// typed field of the wrong type (a limit that is a string, a step "one", an event name 5) is an
// InputError naming the file, the record and the key (exit 2), not a page drawn from guesses.
// (Replaces the earlier "oddly typed records still give a page" assertion for those fields.)
// The free-form summary keeps its leniency: categories that are a string still give a page.
TEST(PageData, OddlyTypedRecordsDoNotThrow) {
  const fs::path dir = scratch("odd");
  const std::string mark = R"({"type":"mark","step":1,"phase":"step_start","t_ns":5,"allocated_bytes":7})";
  const std::pair<const char*, const char*> bad[] = {{R"({"type":"run","limit_bytes":"lots"})", "record 1: key 'limit_bytes'"},
                                                     {R"({"type":"step","step":"one"})", "record 1: key 'step'"},
                                                     {R"({"type":"event","name":5,"step":1})", "record 1: key 'name'"},
                                                     {R"({"type":"event","name":"oom","step":1.5})", "record 1: key 'step'"}};
  for (const auto& [record, expected] : bad) {
    std::ofstream(dir / "t.jsonl") << record << "\n" << mark << "\n";
    try {
      load_report_input((dir / "t.jsonl").string());
      ADD_FAILURE() << "accepted " << record;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
  std::ofstream(dir / "t.jsonl") << R"({"type":"run","limit_bytes":0})" << "\n" << mark << "\n"
                                 << R"({"type":"summary","categories":"oops"})" << "\n";
  const ReportInput in = load_report_input((dir / "t.jsonl").string());
  json d;
  ASSERT_NO_THROW(d = build_report_data(in, {}));
  EXPECT_EQ(d["stats"]["peak_bytes"], 7);
  EXPECT_FALSE(d["stats"].contains("limit_bytes"));  // 0 = no budget: no limit line
  EXPECT_EQ(json_int(json{{"a", 2.9}}, "a", -1), 2);
  EXPECT_EQ(json_int(json{{"a", "2"}}, "a", -1), -1);
  EXPECT_EQ(json_string(json{{"a", 1}}, "a", "x"), "x");
}

// The per-step envelope (issue 13 item 1): one row per step over every mark, [first_step,
// last_step, min allocated, max allocated, max peak, max reserved], each computed here from the
// real default run's marks (tests/data/report/train_default); with max_points below the number
// of steps, consecutive steps merge and the extremes survive.
TEST(PageData, EnvelopeOnePointPerStep) {
  const auto records = jsonl(kData + "/train_default/timeline.jsonl");
  std::map<int64_t, std::array<int64_t, 4>> want;  // lo, hi, peak, reserved
  for (const json& m : of_type(records, "mark")) {
    const int64_t a = m["allocated_bytes"], p = std::max(a, m["peak_allocated_bytes"].get<int64_t>()), r = m["reserved_bytes"];
    auto it = want.find(m["step"]);
    if (it == want.end()) {
      want[m["step"]] = {a, a, p, r};
      continue;
    }
    auto& w = it->second;
    w = {std::min(w[0], a), std::max(w[1], a), std::max(w[2], p), std::max(w[3], r)};
  }
  const ReportInput in = load_report_input(kData + "/train_default");
  const json env = build_report_data(in, {})["timeline"]["envelope"];
  ASSERT_EQ(env.size(), want.size());
  size_t k = 0;
  for (const auto& [step, w] : want) {
    EXPECT_EQ(env[k], json::array({step, step, w[0], w[1], w[2], w[3]})) << step;
    ++k;
  }
  HtmlReportOptions opt;
  opt.max_points = 8;
  const json merged = build_report_data(in, opt)["timeline"]["envelope"];
  ASSERT_EQ(merged.size(), 8u);
  int64_t top = 0, low = INT64_MAX;
  for (const auto& [step, w] : want) top = std::max(top, w[2]), low = std::min(low, w[0]);
  int64_t mtop = 0, mlow = INT64_MAX;
  for (const json& r : merged) mtop = std::max(mtop, r[4].get<int64_t>()), mlow = std::min(mlow, r[2].get<int64_t>());
  EXPECT_EQ(mtop, top);
  EXPECT_EQ(mlow, low);
  EXPECT_EQ(merged.front()[0], want.begin()->first);
  EXPECT_EQ(merged.back()[1], want.rbegin()->first);
}

// After an OOM recovery (issue 13 item 1) the page compares the run with the recovered setup's
// estimate (the "recover" event's, as `oomkit train --on-oom recover` writes it) from the
// recovery step on: estimate_periods lists both, stats.recovered holds the recovered peak and
// the measured peak from that step, and a zoomed step after the recovery is predicted by it.
TEST(PageData, RecoveredEstimateFromTheRecoveryOn) {
  ReportInput in = load_report_input(kData + "/run_oom");
  json recovered = in.estimate;
  recovered["peak_bytes"] = 12345678;
  for (json& p : recovered["phases"]) p["allocated_bytes"] = 1000 + p["allocated_bytes"].get<int64_t>() % 1000;
  int64_t rec_step = -1;
  for (json& e : in.events) {
    if (e["name"] == "recover") {
      e["estimate"] = recovered;
      rec_step = e["step"];
    }
  }
  ASSERT_GE(rec_step, 0);
  int64_t measured = 0;
  for (const TimelineMark& m : in.marks) {
    if (m.step >= rec_step) measured = std::max({measured, m.allocated_bytes, m.peak_allocated_bytes});
  }
  HtmlReportOptions opt;
  opt.zoom_step = rec_step + 1;
  const json d = build_report_data(in, opt);
  ASSERT_EQ(d["estimate_periods"].size(), 2u);
  EXPECT_TRUE(d["estimate_periods"][0]["from_step"].is_null());
  EXPECT_EQ(d["estimate_periods"][1]["from_step"], rec_step);
  const json& r = d["stats"]["recovered"];
  EXPECT_EQ(r["estimate_peak_bytes"], 12345678);
  EXPECT_EQ(r["measured_peak_bytes"], measured);
  EXPECT_EQ(r["start_estimate_peak_bytes"], in.estimate["peak_bytes"]);
  ASSERT_FALSE(d["zoom"]["predicted"].empty());
  for (const json& p : d["zoom"]["predicted"]) EXPECT_LT(p["allocated_bytes"].get<int64_t>(), 2000);
  for (const json& e : d["events"]) EXPECT_FALSE(e.contains("estimate"));  // carried once, in the periods
  opt.zoom_step = rec_step - 1;  // before the recovery: the run's own estimate
  const json before = build_report_data(in, opt);
  ASSERT_FALSE(before["zoom"]["predicted"].empty());
  for (const json& p : before["zoom"]["predicted"]) EXPECT_GT(p["allocated_bytes"].get<int64_t>(), 2000);
  // Without a recovery the stats carry no "recovered".
  EXPECT_FALSE(build_report_data(load_report_input(kData + "/run_ok"), {})["stats"].contains("recovered"));
}

// A data-parallel run directory (timeline.rank<r>.jsonl and summary.rank<r>.json beside rank 0's):
// the other ranks are read, the page data has one row per rank with its own peak and estimate and
// the overlay points, and the Chrome trace has one process per rank on one time axis.
TEST(Ranks, RunDirectoryWithTwoRanks) {
  const fs::path dir = scratch("ranks");
  const auto records = jsonl(kData + "/run_ok/timeline.jsonl");
  fs::copy_file(kData + "/run_ok/summary.json", dir / "summary.json");
  // Rank 0: the fixture run, started at a known Unix time; rank 1: the same run, 1 MiB more
  // allocated at every mark, started 2 ms later.
  const int64_t start_ns = int64_t{1764547200} * 1000000000;  // 2025-12-01T00:00:00Z
  int64_t rank1_peak = 0;
  {
    std::ofstream out0(dir / "timeline.jsonl");
    for (json r : records) {
      if (r["type"] == "run") r["start_unix_ns"] = start_ns;
      out0 << r.dump() << "\n";
    }
    std::ofstream out(dir / "timeline.rank1.jsonl");
    for (json r : records) {
      if (r["type"] == "mark") {
        r["allocated_bytes"] = r["allocated_bytes"].get<int64_t>() + (1 << 20);
        r["peak_allocated_bytes"] = r["peak_allocated_bytes"].get<int64_t>() + (1 << 20);
        rank1_peak = std::max({rank1_peak, r["allocated_bytes"].get<int64_t>(), r["peak_allocated_bytes"].get<int64_t>()});
      }
      if (r["type"] == "run") r["start_unix_ns"] = start_ns + 2000000;
      out << r.dump() << "\n";
    }
    std::ofstream(dir / "summary.rank1.json") << json{{"estimated_peak_bytes", 123456789}}.dump();
    std::ofstream(dir / "timeline.rank1.csv") << "not read\n";         // another file of the rank
    std::ofstream(dir / "timeline.rankx.jsonl") << "not a rank\n";     // not a rank number: ignored
  }
  const ReportInput in = load_report_input(dir.string());
  ASSERT_EQ(in.other_ranks.size(), 1u);
  EXPECT_EQ(in.other_ranks[0].rank, 1);
  EXPECT_EQ(in.other_ranks[0].records.marks.size(), in.marks.size());
  EXPECT_EQ(in.other_ranks[0].summary["estimated_peak_bytes"], 123456789);

  const json d = build_report_data(in, HtmlReportOptions{});
  ASSERT_TRUE(d.contains("ranks"));
  ASSERT_EQ(d["ranks"].size(), 2u);
  EXPECT_EQ(d["ranks"][0]["rank"], 0);
  EXPECT_EQ(d["ranks"][1]["rank"], 1);
  EXPECT_EQ(d["ranks"][1]["peak_allocated_bytes"], rank1_peak);
  EXPECT_EQ(d["ranks"][0]["peak_allocated_bytes"].get<int64_t>(), rank1_peak - (1 << 20));
  EXPECT_EQ(d["ranks"][1]["estimated_peak_bytes"], 123456789);
  EXPECT_FALSE(d["ranks"][0].contains("points"));  // rank 0 is the timeline itself
  ASSERT_TRUE(d["ranks"][1].contains("points"));
  EXPECT_EQ(d["ranks"][1]["points"].size(), in.marks.size());

  const json trace = chrome_trace_from_ranks({{0, &in.records}, {1, &in.other_ranks[0].records}});
  std::map<int, int> per_pid;
  std::map<int, std::string> names;
  for (const json& e : trace["traceEvents"]) {
    ++per_pid[e["pid"].get<int>()];
    if (e["ph"] == "M" && e["name"] == "process_name") names[e["pid"]] = e["args"]["name"];
  }
  ASSERT_EQ(per_pid.size(), 2u);
  EXPECT_EQ(per_pid[1], per_pid[2]);
  EXPECT_NE(names[1].find("rank 0"), std::string::npos);
  EXPECT_NE(names[2].find("rank 1"), std::string::npos);
  EXPECT_EQ(trace["otherData"]["ranks"].size(), 2u);
  // One time axis: rank 1's first counter sample is 2 ms (2000 us) after rank 0's.
  auto first_ts = [&](int pid) {
    for (const json& e : trace["traceEvents"]) {
      if (e["pid"] == pid && e["ph"] == "C") return e["ts"].get<int64_t>();
    }
    return int64_t{-1};
  };
  EXPECT_EQ(first_ts(2) - first_ts(1), 2000);

  // `oomkit report --format chrome-trace` on the directory writes that trace.
  ReportOptions o;
  o.input = dir.string();
  o.format = ReportFormat::kChromeTrace;
  const std::string out = write_report(o);
  std::ifstream f(out);
  const json written = json::parse(f);
  EXPECT_EQ(written["otherData"]["ranks"].size(), 2u);
}
