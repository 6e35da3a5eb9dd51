// Reading an OOM report's fields from its whitespace-free text. Private to src/diagnose/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "oomkit/diagnose/oom_record.h"

namespace oomkit::diagnose_detail {

/// "cuda", "hip", "xpu", "mtia", "npu", "cpu", "mps" for the word before "out of memory"; "".
std::string device_type_from_word(const std::string& word);
/// Reads every size and the device from the squashed report `s` into `r`.
void read_fields(const std::string& s, OomRecord& r, const std::string& device_word);
/// TensorFlow: requested = product(tensor_shape) x the size of `dtype` (overflow-checked).
void tensorflow_size(OomRecord& r);
/// The dimensions of a TensorFlow shape as printed, "1,1,100000,512" -> {1, 1, 100000, 512}; empty
/// when any part is not an unsigned integer (<= 18 digits).
std::vector<int64_t> tensor_dims(std::string_view shape);
/// Completes derived fields: 1.x reserved - allocated; 2.x allocated + unallocated.
void derive(OomRecord& r);
/// Decides the caching-allocator family (pytorch1/pytorch2/pytorch) and `complete`.
void settle_family(const std::string& s, OomRecord& r);

}  // namespace oomkit::diagnose_detail
