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
/// Reads every size and the device from the squashed report `s` into `r`. `spaced`: the same report
/// with its spaces (TensorFlow's shape printed with spaces between its dimensions is read from it).
void read_fields(const std::string& s, OomRecord& r, const std::string& device_word, std::string_view spaced = {});
/// TensorFlow: requested = product(tensor_shape) x the size of `dtype` (overflow-checked).
void tensorflow_size(OomRecord& r);
/// A TensorFlow report whose message prints no dtype (cut after "and type", TF 0.x's shape proto)
/// takes its element size from BFC's warning in `s` (squashed): its rounded request
/// ("(roundedto24662507520)"; BFC rounds up to a multiple of 256 bytes, bfc_allocator.cc
/// RoundedBytes) or, without one (TF 1.x), its printed size ("tryingtoallocate256.00MiB"); see
/// tf_element_bytes_for(). Sets `dtype` to "<k>-byte" and the requested bytes. Unchanged when none
/// fits or a dtype was printed.
void tf_dtype_from_bfc_rounding(std::string_view s, OomRecord& r);
/// The element size k in {1, 2, 4, 8, 16} with product(`shape`) x k equal to `bytes`: BFC's rounded
/// request (`rounded`: within 256 bytes below it) or a printed size (within 0.5% + 256 bytes); 0
/// when none fits.
int tf_element_bytes_for(const std::string& shape, int64_t bytes, bool rounded);
/// The dimensions of a TensorFlow shape as printed, "1,1,100000,512" -> {1, 1, 100000, 512}; empty
/// when any part is not an unsigned integer (<= 18 digits).
std::vector<int64_t> tensor_dims(std::string_view shape);
/// The bytes of one element of a numpy dtype as its MemoryError prints it ("float64", "<U1000",
/// "|S10", "object", "<f8", "datetime64[ns]"; numpy's dtype.itemsize); 0 when unknown.
int64_t numpy_itemsize(std::string_view dtype);
/// Completes derived fields: 1.x reserved - allocated; 2.x allocated + unallocated.
void derive(OomRecord& r);
/// Decides the caching-allocator family (pytorch1/pytorch2/pytorch) and `complete`.
void settle_family(const std::string& s, OomRecord& r);

}  // namespace oomkit::diagnose_detail
