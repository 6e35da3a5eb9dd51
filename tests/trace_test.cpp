// Tests of the Chrome trace export (Trace Event Format: "M" metadata, "X" complete events with
// integer microsecond ts/dur, "C" counters, "i" instants). The output is parsed back with
// nlohmann::json and checked against counts and times computed here from the fixture timeline.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/timeline.h"
#include "oomkit/report/chrome_trace.h"
#include "oomkit/report/report.h"

using namespace oomkit;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kTimeline = std::string(OOMKIT_SOURCE_DIR) + "/tests/data/report/run_oom/timeline.jsonl";
// A real `oomkit train` run (default gpt-nano settings), killed during step 45.
const std::string kRealTimeline = std::string(OOMKIT_SOURCE_DIR) + "/tests/data/report/train_killed/timeline.jsonl";

std::vector<json> events_of(const json& trace, const std::string& ph) {
  std::vector<json> out;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == ph) out.push_back(e);
  }
  return out;
}

}  // namespace

// Every event has a known phase type; every non-metadata event an integer ts; X events an
// integer non-negative dur. Counts: one step X per run of marks of one step, one phase X per
// further mark, four counters per mark (peak allocated, allocated, reserved, rss: every fixture
// measured rss) plus the closing peak sample, one instant per event.
void check_events_and_counts(const std::string& path, bool expect_instants) {
  const auto records = read_timeline(path);
  size_t marks = 0, groups = 0, events = 0;
  int64_t prev_step = -1;
  for (const json& r : records) {
    if (r["type"] == "mark") {
      ++marks;
      if (r["step"].get<int64_t>() != prev_step) ++groups, prev_step = r["step"];
    }
    if (r["type"] == "event") ++events;
  }
  const json trace = json::parse(json(chrome_trace_from_timeline(records)).dump());
  for (const json& e : trace["traceEvents"]) {
    const std::string ph = e["ph"];
    ASSERT_TRUE(ph == "M" || ph == "X" || ph == "C" || ph == "i") << e.dump();
    if (ph != "M") {
      ASSERT_TRUE(e["ts"].is_number_integer()) << e.dump();
    }
    if (ph == "X") {
      ASSERT_TRUE(e["dur"].is_number_integer()) << e.dump();
      EXPECT_GE(e["dur"].get<int64_t>(), 0);
    }
  }
  std::vector<json> x;
  for (const json& e : events_of(trace, "X")) {
    if (e["cat"] == "step" || e["cat"] == "phase") x.push_back(e);
  }
  size_t steps = 0;
  for (const json& e : x) steps += e["cat"] == "step";
  EXPECT_EQ(steps, groups);
  EXPECT_EQ(x.size() - steps, marks - groups);
  EXPECT_EQ(events_of(trace, "C").size(), 4 * marks + 1);
  const auto instants = events_of(trace, "i");
  ASSERT_EQ(instants.size(), events);
  std::set<std::string> names;
  for (const json& e : instants) names.insert(e["name"].get<std::string>());
  if (expect_instants) {
    EXPECT_TRUE(names.count("oom") && names.count("recover") && names.count("checkpoint"));
  }
  std::set<std::string> meta;
  for (const json& e : events_of(trace, "M")) meta.insert(e["name"].get<std::string>());
  EXPECT_TRUE(meta.count("process_name") && meta.count("thread_name"));
}

TEST(ChromeTrace, EventsAndCountsFromTimeline) {
  check_events_and_counts(kTimeline, true);
  check_events_and_counts(kRealTimeline, false);
}

// Times: a phase X starts at the previous mark's t_ns / 1000 and ends at its own (rounded
// down to whole microseconds), and lies inside its step's X event.
TEST(ChromeTrace, PhaseTimesNestInSteps) {
  const auto records = read_timeline(kTimeline);
  std::vector<json> marks;
  for (const json& r : records) {
    if (r["type"] == "mark") marks.push_back(r);
  }
  const json trace = chrome_trace_from_timeline(records);
  // The first "forward" interval: between the first two marks of step 1.
  ASSERT_EQ(marks[1]["phase"], "after_forward");
  const int64_t begin_us = marks[0]["t_ns"].get<int64_t>() / 1000;
  const int64_t end_us = marks[1]["t_ns"].get<int64_t>() / 1000;
  bool found = false;
  std::map<int64_t, std::pair<int64_t, int64_t>> step_span;
  for (const json& e : events_of(trace, "X")) {
    if (e["cat"] == "step") step_span[e["args"]["step"]] = {e["ts"], e["ts"].get<int64_t>() + e["dur"].get<int64_t>()};
    if (e["name"] == "forward" && e["ts"] == begin_us) {
      found = true;
      EXPECT_EQ(e["dur"].get<int64_t>(), end_us - begin_us);
      EXPECT_EQ(e["args"]["allocated_bytes"], marks[1]["allocated_bytes"]);
    }
  }
  EXPECT_TRUE(found);
  for (const json& e : events_of(trace, "X")) {
    if (e["cat"] != "phase") continue;
    const auto span = step_span.at(e["args"]["step"]);
    EXPECT_GE(e["ts"].get<int64_t>(), span.first);
    EXPECT_LE(e["ts"].get<int64_t>() + e["dur"].get<int64_t>(), span.second);
  }
}

// Strings: quotes, backslashes, control characters and markup survive a write/parse round
// trip; invalid UTF-8 is replaced rather than producing an unreadable file.
TEST(ChromeTrace, StringsEscapedAndFileParses) {
  const std::string nasty = "oom \"quoted\" \\ back\nnew\tline </script>";
  std::vector<json> records = {
      {{"type", "run"}, {"device", "cpu"}, {"model", {{"_name_or_path", std::string("m\xff")}}}},
      {{"type", "mark"}, {"step", 1}, {"phase", "step_start"}, {"t_ns", 1500}, {"allocated_bytes", 10}},
      {{"type", "mark"}, {"step", 1}, {"phase", "after_forward"}, {"t_ns", 2999}, {"allocated_bytes", 20}},
      {{"type", "event"}, {"name", nasty}, {"step", 1}, {"t_ns", 2500}}};
  const fs::path dir = fs::temp_directory_path() / "oomkit_trace_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "trace.json").string();
  write_chrome_trace(records, path);
  const json back = json::parse(std::ifstream(path));
  const auto instants = events_of(back, "i");
  ASSERT_EQ(instants.size(), 1u);
  EXPECT_EQ(instants[0]["name"], nasty);
  EXPECT_EQ(instants[0]["ts"], 2);  // 2500 ns -> 2 us
  const auto x = events_of(back, "X");
  ASSERT_EQ(x.size(), 2u);          // the step and its forward interval
  EXPECT_EQ(x[1]["ts"], 1);         // 1500 ns -> 1 us
  EXPECT_EQ(x[1]["dur"], 1);        // 2999 ns -> 2 us
}

TEST(ChromeTrace, ErrorsAndNames) {
  EXPECT_EQ(phase_interval_name("after_optimizer_step"), "optimizer_step");
  EXPECT_EQ(phase_interval_name("after_zero_grad"), "zero_grad");
  EXPECT_EQ(phase_interval_name("custom"), "custom");
  const std::vector<json> no_time = {{{"type", "mark"}, {"step", 1}, {"phase", "step_start"}}};
  EXPECT_THROW(chrome_trace_from_timeline(no_time), InputError);
  const std::vector<json> bad_type = {{{"type", "mark"}, {"step", "one"}, {"phase", "x"}, {"t_ns", 1}}};
  EXPECT_THROW(chrome_trace_from_timeline(bad_type), InputError);
  try {
    write_chrome_trace(std::vector<json>{}, "/nonexistent/dir/trace.json");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--trace");
  }
}

namespace {

// The samples of one counter track: (ts, bytes) in file order. Each counter event must carry
// exactly one arg, "bytes", so Perfetto names the track "<name> bytes".
std::vector<std::pair<int64_t, int64_t>> track(const json& trace, const std::string& name) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const json& e : events_of(trace, "C")) {
    EXPECT_EQ(e["args"].size(), 1u) << e.dump();
    EXPECT_TRUE(e["args"].contains("bytes")) << e.dump();
    if (e["name"] == name) out.emplace_back(e["ts"].get<int64_t>(), e["args"]["bytes"].get<int64_t>());
  }
  return out;
}

int64_t max_of(const std::vector<std::pair<int64_t, int64_t>>& samples) {
  int64_t m = 0;
  for (const auto& s : samples) m = std::max(m, s.second);
  return m;
}

}  // namespace

// Counters (issue 13 item 3): one track per statistic, named "allocated", "reserved", "peak
// allocated", "rss" with the one arg "bytes". On the real default run (tests/data/report/
// train_default, written by `oomkit train`) the marks top out at 116.36 MiB allocated while the
// run's peak (summary.json peak_allocated_bytes, written by the trainer from the backend's
// peak, not from the marks) is 120.36 MiB: the peak track must reach the summary's peak, and
// each mark's peak since the previous mark must be drawn from the previous mark's time on.
TEST(ChromeTrace, PeakCounterReachesTheRunsPeak) {
  const std::string dir = std::string(OOMKIT_SOURCE_DIR) + "/tests/data/report/train_default";
  const json summary = json::parse(std::ifstream(dir + "/summary.json"));
  const RunRecords records = read_run_records(dir + "/timeline.jsonl");
  const json trace = chrome_trace_from_timeline(records);
  std::set<std::string> names;
  for (const json& e : events_of(trace, "C")) names.insert(e["name"].get<std::string>());
  EXPECT_EQ(names, (std::set<std::string>{"allocated", "reserved", "peak allocated", "rss"}));
  const auto peak = track(trace, "peak allocated");
  const auto allocated = track(trace, "allocated");
  const int64_t run_peak = summary["peak_allocated_bytes"].get<int64_t>();
  EXPECT_EQ(max_of(peak), run_peak);
  EXPECT_LT(max_of(allocated), run_peak);  // the marks alone miss the peak (116.36 < 120.36 MiB)
  const auto& marks = records.marks;
  ASSERT_EQ(peak.size(), marks.size() + 1);
  ASSERT_EQ(allocated.size(), marks.size());
  for (size_t k = 1; k < marks.size(); ++k) {
    EXPECT_EQ(peak[k].first, marks[k - 1].t_ns / 1000) << k;  // timeline has no start_unix_ns
    EXPECT_EQ(peak[k].second, marks[k].peak_allocated_bytes) << k;
    EXPECT_EQ(allocated[k].first, marks[k].t_ns / 1000) << k;
  }
  EXPECT_EQ(peak.back().second, marks.back().allocated_bytes);
  EXPECT_FALSE(trace.contains("baseTimeNanoseconds"));
}

// Base time (issue 13 item 3): with the run header's start_unix_ns the trace carries Kineto's
// "baseTimeNanoseconds" (libkineto ChromeTraceBaseTime: the Unix time floored to a multiple of
// 7,889,238 s) and each ts is microseconds since it, so base + ts*1000 is the event's Unix time
// to the microsecond. Golden: 1764500000123456789 // 7889238000000000 * 7889238000000000 =
// 1759300074000000000 (Python integer arithmetic).
TEST(ChromeTrace, BaseTimeAsKinetoWritesIt) {
  const int64_t start_unix_ns = 1764500000123456789;
  EXPECT_EQ(kineto_base_time_ns(start_unix_ns), 1759300074000000000);
  EXPECT_EQ(kineto_base_time_ns(1759300074000000000), 1759300074000000000);
  EXPECT_EQ(kineto_base_time_ns(1759300073999999999), 1759300074000000000 - 7889238000000000);
  std::vector<json> records = {
      {{"type", "run"}, {"device", "cpu"}, {"start_unix_ns", start_unix_ns}},
      {{"type", "mark"}, {"step", 0}, {"phase", "step_start"}, {"t_ns", 2000}, {"allocated_bytes", 10}},
      {{"type", "mark"}, {"step", 0}, {"phase", "after_forward"}, {"t_ns", 5'000'500}, {"allocated_bytes", 30},
       {"peak_allocated_bytes", 40}},
      {{"type", "event"}, {"name", "eval"}, {"step", 0}, {"t_ns", 6'000'000}}};
  const json trace = json::parse(chrome_trace_from_timeline(records).dump());
  ASSERT_TRUE(trace["baseTimeNanoseconds"].is_number_integer());
  const int64_t base = trace["baseTimeNanoseconds"].get<int64_t>();
  EXPECT_EQ(base, 1759300074000000000);
  const auto allocated = track(trace, "allocated");
  ASSERT_EQ(allocated.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    const int64_t unix_ns = start_unix_ns + records[k + 1]["t_ns"].get<int64_t>();
    EXPECT_EQ(allocated[k].first, (unix_ns - base) / 1000);
    EXPECT_LE(base + allocated[k].first * 1000, unix_ns);
    EXPECT_GT(base + allocated[k].first * 1000 + 1000, unix_ns);
  }
  const auto instants = events_of(trace, "i");
  ASSERT_EQ(instants.size(), 1u);
  EXPECT_EQ(instants[0]["ts"].get<int64_t>(), (start_unix_ns + 6'000'000 - base) / 1000);
  // The header field round-trips through the typed reader.
  const RunRecords typed = parse_run_records(records, "test");
  ASSERT_TRUE(typed.run && typed.run->start_unix_ns);
  EXPECT_EQ(*typed.run->start_unix_ns, start_unix_ns);
  EXPECT_EQ(to_json(*typed.run)["start_unix_ns"], start_unix_ns);
  records[0]["start_unix_ns"] = -1;
  EXPECT_THROW(parse_run_records(records, "test"), InputError);
}

// --max-points (issue 13 item 3): a seeded random 1000-step saw-tooth (6 marks a step) written
// with max_points 200 keeps at most 200 marks per counter track, keeps the global maxima of
// allocated and of peak, writes phase slices only for kept marks and says it downsampled; with
// 0 every mark is written; `oomkit report --format chrome-trace --max-points` (write_report)
// passes the limit through; below 8 is refused naming --max-points.
TEST(ChromeTrace, MaxPointsBoundsTheTrace) {
  std::vector<json> records = {{{"type", "run"}, {"device", "cpu"}}};
  uint64_t state = 12345;
  const auto next = [&state]() { state = state * 6364136223846793005ULL + 1442695040888963407ULL; return state >> 33; };
  int64_t t = 0, max_alloc = 0, max_peak = 0;
  const char* phases[] = {"step_start", "after_forward", "after_loss", "after_backward", "after_optimizer_step",
                          "after_zero_grad"};
  for (int step = 0; step < 1000; ++step) {
    for (int p = 0; p < 6; ++p) {
      t += 1000 + static_cast<int64_t>(next() % 5000);
      const int64_t alloc = (p == 1 || p == 2 ? 100 : 10) * 1000 + static_cast<int64_t>(next() % 997);
      const int64_t peak = alloc + static_cast<int64_t>(next() % 20000);
      max_alloc = std::max(max_alloc, alloc);
      max_peak = std::max(max_peak, peak);
      records.push_back({{"type", "mark"}, {"step", step}, {"phase", phases[p]}, {"t_ns", t},
                         {"allocated_bytes", alloc}, {"reserved_bytes", alloc}, {"peak_allocated_bytes", peak}});
    }
  }
  ChromeTraceOptions opts;
  opts.max_points = 200;
  const json small = chrome_trace_from_timeline(records, opts);
  const auto alloc = track(small, "allocated");
  EXPECT_LE(alloc.size(), 200u);
  EXPECT_GE(alloc.size(), 100u);
  EXPECT_EQ(max_of(alloc), max_alloc);
  EXPECT_EQ(max_of(track(small, "peak allocated")), max_peak);
  size_t phase_slices = 0;
  for (const json& e : events_of(small, "X")) phase_slices += e["cat"] == "phase";
  EXPECT_LE(phase_slices, alloc.size());
  EXPECT_EQ(small["otherData"]["downsampled"]["marks"], 6000);
  EXPECT_EQ(small["otherData"]["downsampled"]["kept_marks"], alloc.size());
  const json full = chrome_trace_from_timeline(records);
  EXPECT_EQ(track(full, "allocated").size(), 6000u);
  EXPECT_FALSE(full["otherData"].contains("downsampled"));
  EXPECT_LT(small.dump().size() * 20, full.dump().size());

  const fs::path dir = fs::temp_directory_path() / "oomkit_trace_max_points";
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    std::ofstream f(dir / "timeline.jsonl");
    for (const json& r : records) f << r.dump() << '\n';
  }
  ReportOptions ro;
  ro.input = (dir / "timeline.jsonl").string();
  ro.output = (dir / "trace.json").string();
  ro.format = ReportFormat::kChromeTrace;
  ro.html.max_points = 500;
  write_report(ro);
  const json written = json::parse(std::ifstream(ro.output));
  EXPECT_LE(track(written, "allocated").size(), 500u);
  EXPECT_EQ(written["otherData"]["downsampled"]["max_points"], 500);
  opts.max_points = 7;
  try {
    chrome_trace_from_timeline(records, opts);
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--max-points");
  }
}

// Probe and recovery slices (issue 13 item 3): an "oom" event followed by "probe" events (t_ns
// at the probe's end, dur_ns its length) and a "recover" event gives one "oom recovery" slice
// from the OOM to the recovery and one "probe <name>" slice per probe, inside it, on the events
// thread; an OOM whose probes found nothing gives "oom playbook (not recovered)" ending at the
// last probe; an OOM with no playbook (--on-oom abort) gives no slice.
TEST(ChromeTrace, ProbeAndRecoverySlices) {
  const std::vector<json> records = {
      {{"type", "run"}, {"device", "cpu"}},
      {{"type", "mark"}, {"step", 2}, {"phase", "step_start"}, {"t_ns", 1'000'000}},
      {{"type", "event"}, {"name", "oom"}, {"step", 2}, {"t_ns", 2'000'000}},
      {{"type", "event"}, {"name", "probe"}, {"step", 2}, {"t_ns", 5'000'000}, {"probe", "micro_batch_1"},
       {"ok", true}, {"peak_bytes", 123}, {"dur_ns", 2'500'000}},
      {{"type", "event"}, {"name", "probe"}, {"step", 2}, {"t_ns", 9'000'000}, {"probe", "bf16_mixed"},
       {"ok", false}, {"dur_ns", 3'000'000}},
      {{"type", "event"}, {"name", "recover"}, {"step", 2}, {"t_ns", 9'500'000}, {"change", "micro_batch_size"},
       {"from", 8}, {"to", 4}},
      {{"type", "event"}, {"name", "oom"}, {"step", 7}, {"t_ns", 20'000'000}},
      {{"type", "event"}, {"name", "probe"}, {"step", 7}, {"t_ns", 26'000'000}, {"probe", "micro_batch_1"},
       {"ok", false}, {"dur_ns", 4'000'000}},
      {{"type", "event"}, {"name", "oom"}, {"step", 9}, {"t_ns", 30'000'000}}};
  const json trace = chrome_trace_from_timeline(records);
  std::map<std::string, std::vector<json>> slices;
  for (const json& e : events_of(trace, "X")) {
    if (e["cat"] == "probe" || e["cat"] == "recovery") slices[e["name"].get<std::string>()].push_back(e);
  }
  ASSERT_EQ(slices["oom recovery"].size(), 1u);
  const json& rec = slices["oom recovery"][0];
  EXPECT_EQ(rec["ts"], 2000);
  EXPECT_EQ(rec["dur"], 7500);
  EXPECT_EQ(rec["tid"], 2);
  EXPECT_EQ(rec["args"]["change"], "micro_batch_size");
  ASSERT_EQ(slices["probe micro_batch_1"].size(), 2u);
  EXPECT_EQ(slices["probe micro_batch_1"][0]["ts"], 2500);
  EXPECT_EQ(slices["probe micro_batch_1"][0]["dur"], 2500);
  EXPECT_EQ(slices["probe micro_batch_1"][0]["args"]["peak_bytes"], 123);
  ASSERT_EQ(slices["probe bf16_mixed"].size(), 1u);
  EXPECT_EQ(slices["probe bf16_mixed"][0]["ts"], 6000);
  EXPECT_EQ(slices["probe bf16_mixed"][0]["dur"], 3000);
  EXPECT_EQ(slices["probe bf16_mixed"][0]["args"]["ok"], false);
  ASSERT_EQ(slices["oom playbook (not recovered)"].size(), 1u);
  EXPECT_EQ(slices["oom playbook (not recovered)"][0]["ts"], 20000);
  EXPECT_EQ(slices["oom playbook (not recovered)"][0]["dur"], 6000);
  EXPECT_EQ(slices.size(), 4u);  // the third OOM (no probes, no recover) has no slice
  size_t oom_instants = 0;
  for (const json& e : events_of(trace, "i")) {
    EXPECT_NE(e["name"], "probe");
    oom_instants += e["name"] == "oom";
  }
  EXPECT_EQ(oom_instants, 3u);
}
