#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/timeline.h"

using namespace oomkit;

// A mark written to the timeline reads back field for field, and the CSV twin gets a row.
TEST(Timeline, MarkRoundTripAndCsv) {
  const auto dir = std::filesystem::temp_directory_path() / "oomkit_timeline_test";
  std::filesystem::remove_all(dir);
  const std::string path = (dir / "t.jsonl").string();
  {
    TimelineWriter w(path);
    w.write({{"type", "run"}, {"device", "cpu"}});
    TimelineMark m;
    m.step = 3;
    m.phase = "after_forward";
    m.allocated_bytes = 123456789;
    m.delta_bytes = -42;
    w.write_mark(m);
  }
  const auto records = read_timeline(path);
  ASSERT_EQ(records.size(), 2u);
  const TimelineMark back = mark_from_json(records[1]);
  EXPECT_EQ(back.step, 3);
  EXPECT_EQ(back.phase, "after_forward");
  EXPECT_EQ(back.allocated_bytes, 123456789);
  EXPECT_EQ(back.delta_bytes, -42);
  std::ifstream csv((dir / "t.csv").string());
  std::string header, row;
  std::getline(csv, header);
  std::getline(csv, row);
  EXPECT_EQ(header.rfind("step,micro_step,phase", 0), 0u);
  EXPECT_EQ(row.rfind("3,0,after_forward,", 0), 0u);
}

// A torn last line (a run killed mid-write) is skipped; a torn middle line is an error.
TEST(Timeline, TornLastLineIsSkipped) {
  const auto path = (std::filesystem::temp_directory_path() / "oomkit_torn.jsonl").string();
  {
    std::ofstream out(path);
    out << R"({"type":"run"})" << "\n" << R"({"type":"mark","step":1)";
  }
  EXPECT_EQ(read_timeline(path).size(), 1u);
  {
    std::ofstream out(path);
    out << R"({"type":"run")" << "\n" << R"({"type":"mark"})" << "\n";
  }
  EXPECT_THROW(read_timeline(path), InputError);
}

// The typed records: what the one writer writes, the one reader reads back field for field.
TEST(RunRecords, TypedRoundTrip) {
  const auto path = (std::filesystem::temp_directory_path() / "oomkit_records.jsonl").string();
  {
    TimelineWriter w(path);
    RunHeader run;
    run.device = "cpu";
    run.model = {{"model_type", "gpt2"}, {"n_embd", 128}};
    run.options = {{"batch_size", 4}};
    run.limit_bytes = 512 * 1048576LL;
    w.write_run(run);
    TimelineMark m;
    m.step = 2;
    m.phase = "after_backward";
    m.t_ns = 99;
    m.allocated_bytes = 7;
    w.write_mark(m);
    StepRecord s;
    s.step = 2;
    s.peak_bytes = 123;
    s.peak_phase = "after_backward";
    s.loss = 2.5;
    s.lr = 1e-3;
    s.ms = 10.0;
    s.tokens_per_s = 100.0;
    s.grad_norm = 0.5;
    s.val_loss = 2.75;
    w.write_step(s);
    EventRecord e;
    e.name = "oom";
    e.step = 2;
    e.t_ns = 100;
    e.fields = {{"phase", "backward"}, {"requested_bytes", 4096}};
    w.write_event(e);
    w.write_summary({{"steps_done", 3}});
  }
  const RunRecords r = read_run_records(path);
  ASSERT_TRUE(r.run.has_value());
  EXPECT_EQ(r.run->version, kRunRecordsVersion);
  EXPECT_EQ(r.run->device, "cpu");
  EXPECT_EQ(r.run->model["n_embd"], 128);
  EXPECT_EQ(r.run->limit_bytes, 512 * 1048576LL);
  EXPECT_TRUE(r.run->estimate.is_null());
  ASSERT_EQ(r.marks.size(), 1u);
  EXPECT_EQ(r.marks[0].t_ns, 99);
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].peak_bytes, 123);
  EXPECT_DOUBLE_EQ(r.steps[0].loss, 2.5);
  ASSERT_TRUE(r.steps[0].val_loss.has_value());
  EXPECT_DOUBLE_EQ(*r.steps[0].val_loss, 2.75);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].name, "oom");
  EXPECT_EQ(r.events[0].t_ns, 100);
  EXPECT_EQ(r.events[0].fields["requested_bytes"], 4096);
  EXPECT_FALSE(r.events[0].fields.contains("type"));
  EXPECT_EQ(r.summary["steps_done"], 3);
  EXPECT_FALSE(r.summary.contains("type"));
}

// A record of the wrong shape is an InputError naming the file, the record and the key (the
// issue-12 reproducers: {"type": 5}, a mark with "step": "zero"); a newer layout is refused.
TEST(RunRecords, BadRecordsNameTheKey) {
  const std::string bad = std::string(OOMKIT_SOURCE_DIR) + "/tests/data/bad-inputs/";
  auto error_of = [](const std::string& path) -> std::string {
    try {
      read_run_records(path);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error_of(bad + "diagnose-timeline-type-number.jsonl").find("record 1: key 'type': must be a string, got the number 5"),
            std::string::npos);
  EXPECT_NE(error_of(bad + "timeline-step-string.jsonl").find("record 2: key 'step': must be an integer, got a string \"zero\""),
            std::string::npos);
  const auto path = (std::filesystem::temp_directory_path() / "oomkit_records_v9.jsonl").string();
  std::ofstream(path) << R"({"type":"run","version":9})" << "\n" << R"({"type":"mark","step":0,"phase":"x","t_ns":0})" << "\n";
  EXPECT_NE(error_of(path).find("key 'version'"), std::string::npos);
  std::ofstream(path) << R"({"type":"mark","step":0,"phase":"x"})" << "\n" << R"({"type":"run"})" << "\n";
  EXPECT_NE(error_of(path).find("key 't_ns'"), std::string::npos);
  std::ofstream(path) << R"({"type":"mark","step":1e19,"phase":"x","t_ns":0})" << "\n" << R"({"type":"run"})" << "\n";
  EXPECT_NE(error_of(path).find("out of range"), std::string::npos);
}

// A resumed run appends a second header with resumed_from_step S: the first run's records of
// steps >= S (it ran past its last checkpoint before it was killed) are dropped, so every step
// appears once, from the run that the model's trajectory actually went through.
TEST(RunRecords, ResumedRunReplacesStepsPastTheCheckpoint) {
  std::vector<nlohmann::json> recs = {{{"type", "run"}, {"version", 1}}};
  auto mark = [](int64_t step, int64_t t) {
    return nlohmann::json{{"type", "mark"}, {"step", step}, {"phase", "step_start"}, {"t_ns", t}};
  };
  for (int64_t s = 0; s < 4; ++s) {
    recs.push_back(mark(s, s));
    recs.push_back({{"type", "step"}, {"step", s}, {"loss", 1.0}});
  }
  recs.push_back({{"type", "event"}, {"name", "checkpoint"}, {"step", 1}});
  recs.push_back({{"type", "event"}, {"name", "oom"}, {"step", 3}});
  recs.push_back({{"type", "run"}, {"version", 2}, {"resumed_from_step", 2}});
  for (int64_t s = 2; s < 5; ++s) {
    recs.push_back(mark(s, 100 + s));
    recs.push_back({{"type", "step"}, {"step", s}, {"loss", 2.0}});
  }
  const RunRecords r = parse_run_records(recs, "t");
  ASSERT_EQ(r.marks.size(), 5u);
  ASSERT_EQ(r.steps.size(), 5u);
  for (int64_t s = 0; s < 5; ++s) {
    EXPECT_EQ(r.marks[s].step, s);
    EXPECT_EQ(r.steps[s].step, s);
    EXPECT_DOUBLE_EQ(r.steps[s].loss, s < 2 ? 1.0 : 2.0);
  }
  EXPECT_EQ(r.marks[2].t_ns, 102);
  ASSERT_EQ(r.events.size(), 1u);  // the oom at step 3 belonged to the overtaken part
  EXPECT_EQ(r.events[0].name, "checkpoint");
  EXPECT_EQ(r.run->resumed_from_step, 2);
}
