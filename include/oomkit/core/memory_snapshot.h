// memory_viz snapshots: the dictionary torch.cuda.memory._snapshot() returns in PyTorch 2.x,
// pickled as torch.cuda.memory._dump_snapshot() writes it, so https://pytorch.org/memory_viz
// and `python -m torch.cuda._memory_viz` read oomkit's CPU recordings like a CUDA one.
//
// Layout (the Snapshot/Segment/Block/Frame/TraceEntry TypedDicts of the _snapshot docstring in
// torch/cuda/memory.py; the keys the readers use are listed in tests/memory_snapshot_test.py):
//   {"segments": [{"device", "address", "total_size", "allocated_size", "active_size",
//                  "requested_size", "stream", "segment_type", "blocks": [
//                    {"address", "size", "requested_size", "state", "frames": [Frame]}]}],
//    "device_traces": [[{"action", "addr", "size", "stream", "time_us", "frames"
//                        (+ "device_free" for "oom")}]],
//    "oomkit": {...}}   (extra key, ignored by PyTorch's readers: what oomkit measured)
//   Frame: {"filename", "line", "name"}; frames[0] is the innermost.
// Torch-free: the CPU recorder (profile/tracking_allocator.h) fills MemorySnapshotData.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace oomkit {

/// One frame of an allocation's context, as PyTorch's Frame TypedDict.
struct SnapshotFrame {
  std::string filename;
  int64_t line = 0;
  std::string name;
};

/// An allocated block; on CPU each storage is its own segment with one block (no cache).
struct SnapshotBlock {
  uint64_t address = 0;
  int64_t size_bytes = 0;            // Block.size
  int64_t requested_size_bytes = 0;  // Block.requested_size (<= size)
  std::string state = "active_allocated";  // "active_allocated" | "active_pending_free" | "inactive"
  int32_t frames = -1;               // index into MemorySnapshotData::frame_stacks; -1: no frames
};

struct SnapshotSegment {
  uint64_t address = 0;
  int64_t total_size_bytes = 0;  // Segment.total_size: the sum of its blocks' sizes
  int64_t stream = 0;
  std::vector<SnapshotBlock> blocks;  // in address order, contiguous from `address`
};

/// TraceEntry.action values.
enum class TraceAction { kAlloc, kFreeRequested, kFreeCompleted, kSegmentAlloc, kSegmentFree, kOom };
const char* trace_action_name(TraceAction a);

struct SnapshotTraceEntry {
  TraceAction action = TraceAction::kAlloc;
  uint64_t addr = 0;               // omitted for kOom
  int64_t size_bytes = 0;          // kOom: the refused request
  int64_t time_us = 0;             // microseconds since the Unix epoch
  int32_t frames = -1;             // index into frame_stacks; -1: none
  int64_t device_free_bytes = 0;   // kOom only: what was still free under the budget
};

/// Everything one snapshot holds (one device: index 0).
struct MemorySnapshotData {
  std::vector<std::vector<SnapshotFrame>> frame_stacks;
  std::vector<SnapshotSegment> segments;
  std::vector<SnapshotTraceEntry> trace;  // oldest first
  // What oomkit measured, written under "oomkit" (PyTorch's readers ignore the key):
  std::string device = "cpu";
  int64_t allocated_bytes = 0;     // the allocator's counter when the segments were taken
  int64_t reserved_bytes = 0;      // CPU: = allocated_bytes (nothing is cached)
  std::string segments_at = "dump";  // "dump" or "oom" (segments taken when an OOM was raised)
  int64_t max_entries = 0;         // the trace's bound (--memory-history)
  int64_t dropped_entries = 0;     // entries pushed out of the bounded trace
};

/// The pickle (protocol 2, core/pickle.h) of `data` in the layout above.
std::string memory_snapshot_pickle(const MemorySnapshotData& data);

/// Sum of the segments' total_size (reserved bytes as PyTorch's readers count them).
int64_t snapshot_reserved_bytes(const MemorySnapshotData& data);

}  // namespace oomkit
