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
