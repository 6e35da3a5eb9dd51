// One snapshot of a device's memory, under PyTorch's own statistic names
// (torch.cuda.memory_stats(): "allocated_bytes.all.current", ".peak", ...), all in bytes.
#pragma once

#include <cstdint>
#include <string>

namespace oomkit {

/// A statistic with its current value and its peak since the last reset_peak().
struct StatPair {
  int64_t current = 0;
  int64_t peak = 0;
};

struct MemoryStats {
  StatPair allocated_bytes;        // bytes in live tensors' storages (the caching allocator's "allocated")
  StatPair reserved_bytes;         // bytes the allocator holds from the device (CPU: equals allocated)
  StatPair active_bytes;           // allocated + blocks awaiting stream sync (CPU: equals allocated)
  StatPair inactive_split_bytes;   // free bytes inside split, partly used blocks (fragmentation)
  int64_t num_allocs = 0;          // cumulative allocation calls
  int64_t num_frees = 0;           // cumulative free calls
  int64_t num_ooms = 0;            // allocations refused (CUDA OOM, or the CPU budget)
  int64_t num_alloc_retries = 0;   // cudaMalloc retries after freeing cached blocks (CUDA only)
  int64_t limit_bytes = 0;         // the budget in force (--memory-limit, memory fraction); 0: none
  int64_t device_total_bytes = 0;  // device capacity (cudaMemGetInfo total; CPU: MemTotal)
  int64_t device_free_bytes = 0;   // device free (cudaMemGetInfo free; CPU: MemAvailable)
  int64_t process_rss_bytes = 0;   // resident set of this process from /proc/self/statm (CPU)
};

}  // namespace oomkit
