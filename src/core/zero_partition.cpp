// ZeroRedundancyOptimizer's greedy partition (zero_partition.h).
#include "oomkit/core/zero_partition.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace oomkit {

std::vector<std::vector<size_t>> zero_partition(const std::vector<int64_t>& numels, int world_size) {
  if (world_size < 1) throw std::invalid_argument("zero_partition: world_size must be >= 1, got " + std::to_string(world_size));
  for (int64_t n : numels) {
    if (n < 0) throw std::invalid_argument("zero_partition: a parameter has " + std::to_string(n) + " elements");
  }
  std::vector<size_t> order(numels.size());
  std::iota(order.begin(), order.end(), size_t{0});
  // sorted(params, key=numel, reverse=True): Python's sort is stable and reverse=True keeps
  // equal keys in their original order, as std::stable_sort with a strict "greater" does.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return numels[a] > numels[b]; });
  std::vector<std::vector<size_t>> owned(static_cast<size_t>(world_size));
  std::vector<int64_t> sizes(static_cast<size_t>(world_size), 0);
  for (size_t i : order) {
    const size_t rank = static_cast<size_t>(std::min_element(sizes.begin(), sizes.end()) - sizes.begin());  // first minimum
    owned[rank].push_back(i);
    sizes[rank] += numels[i];
  }
  return owned;
}

}  // namespace oomkit
