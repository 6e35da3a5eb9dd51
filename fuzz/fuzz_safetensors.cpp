// libFuzzer: the safetensors reader (include/oomkit/core/safetensors.h) and the sharded index.
// Invariants: a file is either accepted or one InputError; an accepted file's tensors tile its
// byte buffer exactly, with sizes that match their shapes; rewriting an accepted file with the
// writer and reading it back gives the same tensors, bytes and metadata.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "oomkit/core/error.h"
#include "oomkit/core/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    (void)oomkit::parse_safetensors_index(bytes, "fuzz.index.json");
  } catch (const oomkit::InputError&) {
  }
  try {
    const oomkit::SafetensorsFile file = oomkit::SafetensorsFile::from_bytes(std::move(bytes), "fuzz.safetensors");
    const auto& header = file.header();
    uint64_t covered = 0;
    std::vector<oomkit::SafetensorsWriteTensor> tensors;
    for (const auto& t : header.tensors) {
      if (t.begin != covered) std::abort();
      if (t.size_bytes() != static_cast<uint64_t>(t.numel()) * oomkit::safetensors_dtype_bytes(t.dtype)) std::abort();
      covered = t.end;
      tensors.push_back({t.name, t.dtype, t.shape, file.data(t)});
    }
    if (covered != header.data_bytes) std::abort();
    std::string rewritten = oomkit::safetensors_header_bytes(tensors, header.metadata);
    for (const auto& t : tensors) rewritten.append(t.data);
    const oomkit::SafetensorsFile back = oomkit::SafetensorsFile::from_bytes(std::move(rewritten), "rewritten");
    if (back.header().metadata != header.metadata || back.header().tensors.size() != header.tensors.size()) std::abort();
    for (const auto& t : header.tensors) {
      const oomkit::SafetensorsTensorInfo* again = back.header().find(t.name);
      if (again == nullptr || again->dtype != t.dtype || again->shape != t.shape || back.data(*again) != file.data(t)) {
        std::abort();
      }
    }
  } catch (const oomkit::InputError&) {
  }
  return 0;
}
