#include "oomkit/report/downsample.h"

#include <algorithm>

#include "oomkit/core/error.h"

namespace oomkit {

std::vector<size_t> downsample_keep_peaks(const std::vector<TimelineMark>& marks, size_t max_points) {
  if (max_points < 8) {
    throw InputError("--max-points", "must be at least 8, got " + std::to_string(max_points));
  }
  const size_t n = marks.size();
  std::vector<size_t> keep;
  if (n <= max_points) {
    keep.resize(n);
    for (size_t i = 0; i < n; ++i) keep[i] = i;
    return keep;
  }
  const size_t buckets = (max_points - 2) / 3;
  keep.reserve(buckets * 3 + 2);
  keep.push_back(0);
  for (size_t b = 0; b < buckets; ++b) {
    // Bucket b covers [begin, end): equal shares of n, the remainder spread evenly.
    const size_t begin = b * n / buckets;
    const size_t end = (b + 1) * n / buckets;
    size_t lo = begin, hi = begin, peak = begin;
    for (size_t i = begin; i < end; ++i) {
      if (marks[i].allocated_bytes < marks[lo].allocated_bytes) lo = i;
      if (marks[i].allocated_bytes > marks[hi].allocated_bytes) hi = i;
      if (marks[i].peak_allocated_bytes > marks[peak].peak_allocated_bytes) peak = i;
    }
    keep.push_back(lo);
    keep.push_back(hi);
    keep.push_back(peak);
  }
  keep.push_back(n - 1);
  std::sort(keep.begin(), keep.end());
  keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
  return keep;
}

}  // namespace oomkit
