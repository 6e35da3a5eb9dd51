// memory_viz snapshot pickles (see include/oomkit/core/memory_snapshot.h).
#include "oomkit/core/memory_snapshot.h"

#include <stdexcept>

#include "oomkit/core/pickle.h"

namespace oomkit {

namespace {

// The caching allocator's small/large pool boundary (kSmallSize = 1 MiB in
// c10/cuda/CUDACachingAllocator.cpp): Segment.segment_type.
constexpr int64_t kSmallSegmentBytes = int64_t{1} << 20;

void write_frames(PickleWriter& w, const MemorySnapshotData& data, int32_t index) {
  w.begin_list();
  if (index >= 0) {
    if (static_cast<size_t>(index) >= data.frame_stacks.size()) {
      throw std::out_of_range("memory snapshot: frame stack " + std::to_string(index) + " does not exist");
    }
    for (const SnapshotFrame& f : data.frame_stacks[static_cast<size_t>(index)]) {
      w.begin_dict();
      w.key("filename");
      w.string(f.filename);
      w.key("line");
      w.integer(f.line);
      w.key("name");
      w.string(f.name);
      w.end_dict();
    }
  }
  w.end_list();
}

}  // namespace

const char* trace_action_name(TraceAction a) {
  switch (a) {
    case TraceAction::kAlloc: return "alloc";
    case TraceAction::kFreeRequested: return "free_requested";
    case TraceAction::kFreeCompleted: return "free_completed";
    case TraceAction::kSegmentAlloc: return "segment_alloc";
    case TraceAction::kSegmentFree: return "segment_free";
    case TraceAction::kOom: return "oom";
  }
  return "unknown";
}

int64_t snapshot_reserved_bytes(const MemorySnapshotData& data) {
  int64_t total = 0;
  for (const SnapshotSegment& s : data.segments) total += s.total_size_bytes;
  return total;
}

std::string memory_snapshot_pickle(const MemorySnapshotData& data) {
  PickleWriter w;
  w.begin_dict();

  w.key("segments");
  w.begin_list();
  for (const SnapshotSegment& seg : data.segments) {
    int64_t allocated = 0;
    int64_t active = 0;
    int64_t requested = 0;
    int64_t blocks_total = 0;
    for (const SnapshotBlock& b : seg.blocks) {
      blocks_total += b.size_bytes;
      if (b.state == "active_allocated") {
        allocated += b.size_bytes;
        requested += b.requested_size_bytes;
      }
      if (b.state != "inactive") active += b.size_bytes;
    }
    if (blocks_total != seg.total_size_bytes) {
      throw std::logic_error("memory snapshot: segment blocks sum to " + std::to_string(blocks_total) +
                             " bytes, total_size is " + std::to_string(seg.total_size_bytes));
    }
    w.begin_dict();
    w.key("device");
    w.integer(0);
    w.key("address");
    w.unsigned_integer(seg.address);
    w.key("total_size");
    w.integer(seg.total_size_bytes);
    w.key("allocated_size");
    w.integer(allocated);
    w.key("active_size");
    w.integer(active);
    w.key("requested_size");
    w.integer(requested);
    w.key("stream");
    w.integer(seg.stream);
    w.key("segment_type");
    w.string(seg.total_size_bytes > kSmallSegmentBytes ? "large" : "small");
    w.key("blocks");
    w.begin_list();
    uint64_t address = seg.address;
    for (const SnapshotBlock& b : seg.blocks) {
      w.begin_dict();
      w.key("address");
      w.unsigned_integer(address);
      w.key("size");
      w.integer(b.size_bytes);
      w.key("requested_size");
      w.integer(b.requested_size_bytes);
      w.key("state");
      w.string(b.state);
      w.key("frames");
      write_frames(w, data, b.frames);
      w.end_dict();
      address += static_cast<uint64_t>(b.size_bytes);
    }
    w.end_list();
    w.end_dict();
  }
  w.end_list();

  w.key("device_traces");
  w.begin_list();
  w.begin_list();  // device 0
  for (const SnapshotTraceEntry& e : data.trace) {
    w.begin_dict();
    w.key("action");
    w.string(trace_action_name(e.action));
    if (e.action != TraceAction::kOom) {
      w.key("addr");
      w.unsigned_integer(e.addr);
    } else {
      w.key("device_free");
      w.integer(e.device_free_bytes);
    }
    w.key("size");
    w.integer(e.size_bytes);
    w.key("stream");
    w.integer(0);
    w.key("time_us");
    w.integer(e.time_us);
    w.key("frames");
    write_frames(w, data, e.frames);
    w.end_dict();
  }
  w.end_list();
  w.end_list();

  w.key("oomkit");
  w.begin_dict();
  w.key("device");
  w.string(data.device);
  w.key("allocated_bytes");
  w.integer(data.allocated_bytes);
  w.key("reserved_bytes");
  w.integer(data.reserved_bytes);
  w.key("segments_at");
  w.string(data.segments_at);
  w.key("max_entries");
  w.integer(data.max_entries);
  w.key("dropped_entries");
  w.integer(data.dropped_entries);
  w.end_dict();

  w.end_dict();
  return w.finish();
}

}  // namespace oomkit
