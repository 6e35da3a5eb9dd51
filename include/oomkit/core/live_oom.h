// The typed record of an out-of-memory error caught in this process: the memory backend fills
// it at the refused allocation (CPU: oomkit's tracking allocator; CUDA: c10's OOM observer,
// LibTorch >= 2.0), so the trainer and the playbook read numbers, not a formatted message.
// (diagnose/oom_record.h parses the messages of foreign logs; oom_record_from_live() in
// diagnose/playbook.h turns this record into the same OomRecord.)
#pragma once

#include <cstdint>
#include <string>

namespace oomkit {

struct LiveOom {
  int64_t requested_bytes = 0;  // the refused request (CUDA: the allocator's rounded block size)
  int64_t limit_bytes = 0;      // what the allocator had to live within: the budget or memory
                                // fraction when set, else the device's total capacity
  int64_t allocated_bytes = 0;  // in live tensors when the request was refused
  int64_t reserved_bytes = 0;   // held by the allocator then (CPU: equals allocated_bytes)
  std::string device;           // "cpu", "cuda:0"
  std::string phase;            // the step phase in progress ("forward", "backward", ...), set by
                                // the trainer; "" when unknown
  int64_t num_ooms = 0;         // the backend's num_ooms counting this one
};

}  // namespace oomkit
