// libFuzzer: the size parser (parse_bytes) and format_bytes. Invariant: a non-negative int64
// or an InputError; format_bytes of any int64 never misbehaves.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const int64_t bytes = oomkit::parse_bytes(text, "--memory");
    if (bytes < 0) std::abort();
    (void)oomkit::format_bytes(bytes);
  } catch (const oomkit::InputError&) {
  }
  if (size >= sizeof(int64_t)) {
    int64_t v = 0;
    std::memcpy(&v, data, sizeof(v));
    (void)oomkit::format_bytes(v);
    (void)oomkit::format_bytes_pytorch(v);
  }
  return 0;
}
