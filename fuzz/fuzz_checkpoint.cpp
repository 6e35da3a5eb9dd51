// libFuzzer: the torch-free part of a checkpoint: the OOMKCKPT framing and the range checks of
// its meta JSON. The input is tried both as a whole file and as the meta text (and, framed with
// a valid header, as a payload). Invariant: a payload / checked meta or an InputError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "oomkit/core/checkpoint_format.h"
#include "oomkit/core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    (void)oomkit::checkpoint_payload(bytes, "fuzz.ckpt", "--resume");
  } catch (const oomkit::InputError&) {
  }
  const std::string framed = oomkit::checkpoint_header(bytes) + bytes;
  if (oomkit::checkpoint_payload(framed, "fuzz.ckpt", "--resume") != bytes) std::abort();
  try {
    const oomkit::CheckpointMeta m = oomkit::check_checkpoint_meta(bytes, 1000000, "fuzz.ckpt", "--resume");
    if (m.step < 0 || m.step > 1000000 || m.data_position < 0 || !(m.loss_scale > 0.0) || m.good_steps < 0) std::abort();
  } catch (const oomkit::InputError&) {
  }
  return 0;
}
