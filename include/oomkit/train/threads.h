#pragma once

namespace oomkit {

/// Sets LibTorch's intra-op thread count (at::set_num_threads). `threads` <= 0 means every
/// core (std::thread::hardware_concurrency()): Debian's LibTorch starts with one thread.
/// Returns the count in force afterwards.
int configure_threads(int threads);

}  // namespace oomkit
