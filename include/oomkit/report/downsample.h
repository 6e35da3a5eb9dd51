// Downsampling a long memory timeline for drawing without losing its peaks.
#pragma once

#include <cstddef>
#include <vector>

#include "oomkit/core/timeline.h"

namespace oomkit {

/// Chooses at most `max_points` (>= 8) of `marks` to draw, returned as ascending indices.
/// With no more marks than `max_points` every index is kept. Otherwise the marks are cut into
/// (max_points - 2) / 3 contiguous buckets and each bucket keeps its mark of lowest
/// allocated_bytes, of highest allocated_bytes and of highest peak_allocated_bytes (min/max
/// decimation, as oscilloscopes and Perfetto's counter tracks do), plus the first and the last
/// mark. So the global maximum of allocated and of peak always survives, and a drawn line
/// spans the same range as the full one.
/// Throws InputError("--max-points") when max_points < 8.
std::vector<size_t> downsample_keep_peaks(const std::vector<TimelineMark>& marks, size_t max_points);

}  // namespace oomkit
