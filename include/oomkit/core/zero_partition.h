// ZeRO stage 1's partition of the parameters over the data-parallel ranks: which rank keeps
// (and updates) each parameter's optimizer state. Torch-free, so the estimator and the tests
// can compute exactly the partition the trainer uses (train --zero 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace oomkit {

/// PyTorch's ZeroRedundancyOptimizer partition (torch/distributed/optim/zero_redundancy_optimizer.py,
/// `_partition_parameters`, torch 1.13, one parameter group): the parameters sorted by number
/// of elements, largest first (a stable sort: equal sizes keep their order), each given to the
/// rank holding the fewest elements so far (the lowest rank on a tie, `_get_min_index`).
/// `numels[i]` is parameter i's element count; returns, for each rank 0..world_size-1, the
/// indices i it owns, in the order they were assigned (the order of that rank's optimizer).
/// Throws std::invalid_argument for world_size < 1 or a negative numel.
std::vector<std::vector<size_t>> zero_partition(const std::vector<int64_t>& numels, int world_size);

}  // namespace oomkit
