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
// further mark, three counters per mark (allocated, reserved, rss), one instant per event.
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
  const auto x = events_of(trace, "X");
  size_t steps = 0;
  for (const json& e : x) steps += e["cat"] == "step";
  EXPECT_EQ(steps, groups);
  EXPECT_EQ(x.size() - steps, marks - groups);
  EXPECT_EQ(events_of(trace, "C").size(), 3 * marks);
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
    write_chrome_trace({}, "/nonexistent/dir/trace.json");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--trace");
  }
}
