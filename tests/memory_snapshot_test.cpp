// memory_viz snapshot pickles (core/memory_snapshot.h), without LibTorch. The end-to-end check
// of `oomkit train --memory-snapshot` against PyTorch's readers is tests/memory_snapshot_test.py.
#include "oomkit/core/memory_snapshot.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <unistd.h>

namespace oomkit {
namespace {

MemorySnapshotData two_segments() {
  MemorySnapshotData d;
  d.frame_stacks = {{{"oomkit/op", 0, "aten::addmm"}, {"oomkit/step", 3, "forward"}}};
  SnapshotSegment a;
  a.address = 0x7f0000001000ULL;
  a.total_size_bytes = 4096;
  a.blocks.push_back(SnapshotBlock{a.address, 4096, 4000, "active_allocated", 0});
  SnapshotSegment b;
  b.address = 0x7f0000100000ULL;
  b.total_size_bytes = 3 << 20;  // > 1 MiB: a "large" segment
  b.blocks.push_back(SnapshotBlock{b.address, 1 << 20, 1 << 20, "active_allocated", -1});
  b.blocks.push_back(SnapshotBlock{0, 2 << 20, 0, "inactive", -1});
  d.segments = {a, b};
  SnapshotTraceEntry alloc;
  alloc.action = TraceAction::kAlloc;
  alloc.addr = a.address;
  alloc.size_bytes = 4000;
  alloc.time_us = 1764500000000000;
  alloc.frames = 0;
  SnapshotTraceEntry oom;
  oom.action = TraceAction::kOom;
  oom.size_bytes = 1 << 22;
  oom.device_free_bytes = 12345;
  d.trace = {alloc, oom};
  d.allocated_bytes = 4096 + (1 << 20);
  d.reserved_bytes = d.allocated_bytes;
  d.max_entries = 100;
  return d;
}

// Segment totals are the sum of their blocks' sizes (what 2.x's segsum asserts per segment).
TEST(MemorySnapshotTest, ReservedIsTheSumOfSegments) {
  EXPECT_EQ(snapshot_reserved_bytes(two_segments()), 4096 + (3 << 20));
}

// A segment whose blocks do not fill it, or a frame index past the table, is refused instead
// of producing a file the readers reject.
TEST(MemorySnapshotTest, InconsistentDataThrows) {
  MemorySnapshotData d = two_segments();
  d.segments[0].total_size_bytes = 8192;
  EXPECT_THROW(memory_snapshot_pickle(d), std::logic_error);
  d = two_segments();
  d.trace[0].frames = 7;
  EXPECT_THROW(memory_snapshot_pickle(d), std::out_of_range);
}

// The layout as Python loads it: 2.x's keys on segments, blocks (addresses derived from the
// segment start, as MemoryViz.js derives them), frames, trace entries (oom: device_free, no addr).
TEST(MemorySnapshotTest, PythonReadsTheLayout) {
  if (std::system("python3 -c 'import pickle' > /dev/null 2>&1") != 0) GTEST_SKIP() << "no python3";
  const auto path = std::filesystem::temp_directory_path() / ("oomkit_snapshot_" + std::to_string(::getpid()) + ".pickle");
  std::ofstream(path, std::ios::binary) << memory_snapshot_pickle(two_segments());
  const std::string script =
      "import pickle, sys\n"
      "d = pickle.load(open(sys.argv[1], 'rb'))\n"
      "s0, s1 = d['segments']\n"
      "assert s0['address'] == 0x7f0000001000 and s0['total_size'] == 4096 and s0['device'] == 0, s0\n"
      "assert s0['allocated_size'] == 4096 and s0['requested_size'] == 4000 and s0['segment_type'] == 'small', s0\n"
      "assert s1['segment_type'] == 'large' and s1['allocated_size'] == 1 << 20 and s1['active_size'] == 1 << 20, s1\n"
      "assert [b['address'] for b in s1['blocks']] == [0x7f0000100000, 0x7f0000200000], s1\n"
      "assert s0['blocks'][0]['frames'] == [{'filename': 'oomkit/op', 'line': 0, 'name': 'aten::addmm'},"
      " {'filename': 'oomkit/step', 'line': 3, 'name': 'forward'}], s0\n"
      "assert s1['blocks'][1]['state'] == 'inactive' and s1['blocks'][1]['frames'] == []\n"
      "a, o = d['device_traces'][0]\n"
      "assert a['action'] == 'alloc' and a['addr'] == 0x7f0000001000 and a['size'] == 4000, a\n"
      "assert a['time_us'] == 1764500000000000 and a['stream'] == 0 and len(a['frames']) == 2, a\n"
      "assert o['action'] == 'oom' and o['device_free'] == 12345 and 'addr' not in o, o\n"
      "assert d['oomkit']['allocated_bytes'] == 4096 + (1 << 20) and d['oomkit']['max_entries'] == 100\n";
  const std::string cmd = "python3 -c \"$OOMKIT_SCRIPT\" " + path.string();
  ::setenv("OOMKIT_SCRIPT", script.c_str(), 1);
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace oomkit
