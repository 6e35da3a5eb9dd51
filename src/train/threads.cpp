#include "oomkit/train/threads.h"

#include <thread>

#include <torch/torch.h>

namespace oomkit {

int configure_threads(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  at::set_num_threads(threads);
  return at::get_num_threads();
}

}  // namespace oomkit
