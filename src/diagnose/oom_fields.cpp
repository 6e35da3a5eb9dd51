// Field reading for the OOM parser (see oom_fields.h and include/oomkit/diagnose/oom_record.h).
// Every field is found by its printed label in the whitespace-free report text and read with
// the hand-written size scanner of log_text.h: linear in the report, no std::regex.
#include "oom_fields.h"

#include <cctype>
#include <limits>

#include "log_text.h"
#include "oomkit/core/units.h"

namespace oomkit::diagnose_detail {

namespace {

constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();

// A figure other than the request printed negative (a "free: -1" from a failed query) carries no
// size: left unread. A negative request is kept as printed and flagged (set_requested()).
std::optional<int64_t> take(const std::optional<PrintedSize>& v, OomRecord& r) {
  if (!v || v->negative) return std::nullopt;
  if (v->overflow) r.size_overflow = true;
  return v->bytes;
}

void set_requested(const std::optional<PrintedSize>& v, OomRecord& r) {
  if (!v) return;
  if (v->negative) r.size_overflow = true;
  r.requested_bytes = v->negative ? v->bytes : take(v, r);
  r.requested_printed = v->printed;
}

// a + b, capped at INT64_MAX (and flagged) instead of overflowing.
int64_t sat_add(int64_t a, int64_t b, OomRecord& r) {
  if (b > 0 && a > kMaxInt64 - b) {
    r.size_overflow = true;
    return kMaxInt64;
  }
  return a + b;
}

// a x k (k >= 0), capped at INT64_MAX (and flagged) instead of overflowing.
int64_t sat_mul(int64_t a, int64_t k, OomRecord& r) {
  if (k > 0 && a > kMaxInt64 / k) {
    r.size_overflow = true;
    return kMaxInt64;
  }
  return a * k;
}

// A plain byte count at `begin`: digits not followed by a decimal point or a unit letter
// ("118497280failed" is bytes; "512MBfailed" is a user's sentence, left unread). More digits than
// int64 holds (a size_t that wrapped below zero) are kept as INT64_MAX, flagged. Returns whether
// one was read.
bool set_byte_count(const std::string& s, size_t begin, OomRecord& r) {
  size_t end = begin;
  while (end < s.size() && is_digit(s[end])) ++end;
  const size_t n = end - begin;
  if (n == 0 || (end < s.size() && (s[end] == '.' || std::string_view("bBkKmMgGtT").find(s[end]) != std::string_view::npos))) {
    return false;
  }
  r.requested_printed = s.substr(begin, n);
  if (n <= 18) {
    r.requested_bytes = *integer_at(s, begin);
  } else {
    r.requested_bytes = kMaxInt64;
    r.size_overflow = true;
  }
  return true;
}

// A hexadecimal byte count at `begin` ("0x639c00", bmlib's and RKNN's sizes), shown as printed. More
// than int64 holds is kept as INT64_MAX, flagged. Returns whether one was read ("0x" and a digit).
bool set_hex_byte_count(const std::string& s, size_t begin, OomRecord& r) {
  if (!istarts_with(std::string_view(s).substr(std::min(begin, s.size())), "0x")) return false;
  size_t end = begin + 2;
  while (end < s.size() && std::isxdigit(static_cast<unsigned char>(s[end]))) ++end;
  if (end == begin + 2) return false;
  r.requested_printed = s.substr(begin, end - begin);
  size_t first = begin + 2;  // leading zeros do not count towards the 15 digits int64 holds in full
  while (first + 1 < end && s[first] == '0') ++first;
  if (end - first > 15 && !(end - first == 16 && s[first] >= '0' && s[first] <= '7')) {
    r.requested_bytes = kMaxInt64;
    r.size_overflow = true;
    return true;
  }
  int64_t v = 0;
  for (size_t k = first; k < end; ++k) {
    const char c = lower_char(s[k]);
    v = v * 16 + ((c >= '0' && c <= '9') ? c - '0' : c - 'a' + 10);
  }
  r.requested_bytes = v;
  return true;
}

// ggml's graph allocator: "failed to allocate <BACKEND> buffer of size N", read at its own head
// (the last "failed to allocate" before the size: an earlier line folded into the report may hold
// another): the size and the device its backend names (CUDA0 cuda:0, ROCm0 hip:0, MUSA0 musa:0,
// SYCL0 xpu:0, Vulkan0 vulkan:0, Metal / MTL0 mps, CPU cpu; "_Host" and the like dropped).
void ggml_buffer(const std::string& s, OomRecord& r) {
  size_t q = ifind(s, "bufferofsize");
  if (q != std::string::npos) set_byte_count(s, q + 12, r);
  size_t p = q == std::string::npos ? std::string::npos : lower(s.substr(0, q)).rfind("failedtoallocate");
  size_t name_at = p == std::string::npos ? p : p + 16;
  if (p == std::string::npos || q <= name_at) {  // llama.cpp's loader: "unable to allocate CUDA0 buffer", no size
    p = ifind(s, "errorloadingmodel:unabletoallocate");
    q = p == std::string::npos ? p : ifind(s, "buffer", p + 34);
    name_at = p == std::string::npos ? p : p + 34;
    if (q == std::string::npos || q <= name_at) return;
  }
  std::string backend = lower(s.substr(name_at, q - name_at));
  if (backend == "backend") return;  // the loader before 2024 named no backend
  if (const size_t u = backend.find('_'); u != std::string::npos) backend.resize(u);
  size_t d = backend.size();
  while (d > 0 && is_digit(backend[d - 1])) --d;
  const std::string name = backend.substr(0, d), index = backend.substr(d);
  const std::string type = name == "rocm" ? "hip" : name == "sycl" ? "xpu" : (name == "metal" || name == "mtl") ? "mps" : name;
  r.device = index.empty() || type == "cpu" ? type : type + ":" + index;
}

// A byte count printed with thousands separators ("805,306,368") right after `label` in the
// squashed message, or nullopt; more digits than int64 holds are kept as INT64_MAX, flagged.
// `printed` gets the count as printed.
std::optional<int64_t> grouped_count_after(const std::string& s, std::string_view label, OomRecord& r,
                                           std::string* printed = nullptr) {
  const size_t p = ifind(s, label);
  if (p == std::string::npos) return std::nullopt;
  size_t end = p + label.size();
  std::string digits;
  while (end < s.size() && (is_digit(s[end]) || (s[end] == ',' && end + 1 < s.size() && is_digit(s[end + 1])))) {
    if (s[end] != ',') digits.push_back(s[end]);
    ++end;
  }
  if (digits.empty()) return std::nullopt;
  if (printed) *printed = s.substr(p + label.size(), end - p - label.size()) + " bytes";
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));  // leading zeros carry no size
  // Beyond int64 only past 9223372036854775807 (19 digits compared as text, same length).
  if (digits.size() > 19 || (digits.size() == 19 && digits > "9223372036854775807")) {
    r.size_overflow = true;
    return kMaxInt64;
  }
  return std::stoll(digits);
}

// An accelerator's own allocator (family "device_alloc"; the subsystem says which; the heads are
// in oom_parser.cpp). Sizes are the byte counts the messages print.
void read_device_alloc(const std::string& s, OomRecord& r) {
  if (r.subsystem == "mxnet_workspace") {  // "Minimum workspace size: N Bytes Given: M Bytes" (squashed)
    r.device = "gpu";
    r.requested_bytes = grouped_count_after(s, "minimumworkspacesize:", r, &r.requested_printed);
    r.allowed_bytes = grouped_count_after(s, "given:", r);
    return;
  }
  if (r.subsystem == "tpu_runtime") {  // "Bad hardware status": a TPU's, no figures
    r.device = "tpu";
    return;
  }
  if (r.subsystem == "cupy") {  // CuPy's pool, on a CUDA device: the pool's bytes and its limit
    r.device = "cuda";
    r.requested_bytes = grouped_count_after(s, "outofmemoryallocating", r, &r.requested_printed);
    r.reserved_bytes = grouped_count_after(s, "allocatedsofar:", r);
    r.allowed_bytes = grouped_count_after(s, "limitsetto:", r);
    // CuPy <= 6: "out of memory to allocate N bytes (total T bytes)", T = N + the pool's bytes.
    if (!r.requested_bytes) {
      r.requested_bytes = grouped_count_after(s, "outofmemorytoallocate", r, &r.requested_printed);
      const auto total = grouped_count_after(s, "(total", r);
      if (r.requested_bytes && total && *total >= *r.requested_bytes) r.reserved_bytes = *total - *r.requested_bytes;
    }
    return;
  }
  if (r.subsystem == "ggml_context") {  // "(needed 412241472, available 411791504)": plain byte counts
    r.device = "ggml_context";
    if (const size_t p = ifind(s, "(needed"); p != std::string::npos) set_byte_count(s, p + 7, r);
    if (const size_t p = ifind(s, ",available"); p != std::string::npos) {
      size_t end = 0;
      const auto avail = integer_at(s, p + 10, &end);
      if (avail && end < s.size() && s[end] == ')') r.total_capacity_bytes = *avail;  // plain bytes, not "2e8"
    }
    return;
  }
  if (r.subsystem == "metal_buffer") {  // "length 0x86004000 must not exceed 2048 MB."
    r.device = "mps";
    if (const size_t p = ifind(s, "length0x"); p != std::string::npos) set_hex_byte_count(s, p + 6, r);
    r.max_allocation_bytes = take(size_after(s, "mustnotexceed", true), r);  // Metal's "MB": MiB
    return;
  }
  if (r.subsystem == "mps_buffer") {  // "Invalid buffer size: 70.96 GB": one buffer over maxBufferLength
    r.device = "mps";
    set_requested(size_after(s, "invalidbuffersize:", true), r);  // format_size's "GB": GiB
    return;
  }
  if (r.subsystem == "mlx") {
    // "[metal::malloc] Attempting to allocate N bytes which is greater than the maximum allowed
    // buffer size of M bytes.", "[malloc] Unable to allocate N bytes.": plain byte counts.
    set_requested(size_after(s, "attemptingtoallocate"), r);
    if (!r.requested_bytes) set_requested(size_after(s, "unabletoallocate"), r);
    r.max_allocation_bytes = take(size_after(s, "maximumallowedbuffersizeof"), r);  // Metal's maxBufferLength
    // Metal's (MLX runs mostly on Apple silicon), unless the message names CUDA: "[malloc]" is the
    // words of MLX's CUDA backend too.
    r.device = icontains(s, "cuda") ? "cuda" : "mps";
    return;
  }
  if (r.subsystem == "theano") {
    // "Error allocating N bytes of device memory (out of memory). Driver report F bytes free and T
    // bytes total" (squashed): plain byte counts.
    r.device = "cuda";
    auto count_before = [&](std::string_view label, std::string_view unit) -> std::optional<int64_t> {
      const size_t p = ifind(s, label);
      if (p == std::string::npos) return std::nullopt;
      size_t end = 0;
      const auto v = integer_at(s, p + label.size(), &end);
      if (!v || !istarts_with(std::string_view(s).substr(end), unit)) return std::nullopt;
      return v;
    };
    if (const auto n = count_before("errorallocating", "bytesofdevicememory")) {
      r.requested_bytes = *n;
      r.requested_printed = std::to_string(*n) + " bytes";
    }
    r.free_bytes = count_before("driverreport", "bytesfree");
    r.total_capacity_bytes = count_before("bytesfreeand", "bytestotal");
    return;
  }
  if (r.subsystem == "catboost") {  // "Requested 5696 MB; Free 3958.169335 MB": MB of 1024 x 1024 bytes
    r.device = "cuda";
    set_requested(size_after(s, "requested", true), r);
    r.free_bytes = take(size_after(s, ";free", true), r);
    return;
  }
  if (r.subsystem == "rmm") {  // "CUDA error (failed to allocate 240 bytes) at: .../rmm/..."
    set_requested(size_after(s, "failedtoallocate"), r);
    r.device = "cuda";
    return;
  }
  if (r.subsystem == "megengine") {  // "requesting N bytes (X MiB) ... device=0 mem_free=F mem_tot=T"
    set_requested(size_after(s, "requesting"), r);
    r.free_bytes = take(size_after(s, "mem_free="), r);
    r.total_capacity_bytes = take(size_after(s, "mem_tot="), r);
    r.device = "cuda";
    // "device=0", or MegEngine's own locator "device=gpu3:0" / "on gpu3:0" (GPU 3, stream 0).
    size_t p = ifind(s, "device=");
    if (p != std::string::npos) p += 7;
    else if ((p = ifind(s, "ongpu")) != std::string::npos) p += 2;
    if (p != std::string::npos) {
      if (ifind(std::string_view(s).substr(p, 3), "gpu") == 0) p += 3;
      if (p < s.size() && is_digit(s[p])) {
        r.device = "cuda:" + std::string(1, s[p]);
        for (size_t k = p + 1; k < s.size() && is_digit(s[k]) && r.device.size() < 9; ++k) r.device += s[k];
      }
    }
    return;
  }
  if (r.subsystem == "cuda_jl") {  // "Out of GPU memory trying to allocate 2.000 GiB"
    set_requested(size_after(s, "outofgpumemorytryingtoallocate"), r);
    r.device = "cuda";
    return;
  }
  if (r.subsystem == "directml") {  // "Could not allocate tensor with 58982400 bytes. There is not enough GPU video memory"
    set_requested(size_after(s, "couldnotallocatetensorwith"), r);
    r.device = "dml";
    return;
  }
  if (r.subsystem == "vulkan") {  // "Device memory allocation of size 118497280 failed."
    if (const size_t p = ifind(s, "devicememoryallocationofsize"); p != std::string::npos) set_byte_count(s, p + 28, r);
    // The failing call with its byte count before the spec's words, as a Rust backend prints it:
    // "allocate_memory(2147302400): A device memory allocation has failed"; the last such call
    // before them ("allocate_memory(1048576) ok; allocate_memory(4294967296) failed: ..."), else
    // the first after them, in decimal (a hex count is not read).
    if (!r.requested_bytes) {
      const size_t words = ifind(s, "memoryallocationhasfailed");
      size_t call = std::string::npos;
      for (size_t p = ifind(s, "allocate_memory("); p != std::string::npos; p = ifind(s, "allocate_memory(", p + 16)) {
        if (p > words && call != std::string::npos) break;
        call = p;  // the last before the words, else the first after them ("... has failed (in allocate_memory(N))")
        if (p > words) break;
      }
      if (call != std::string::npos && !(s.compare(call + 16, 2, "0x") == 0 || s.compare(call + 16, 2, "0X") == 0)) {
        set_byte_count(s, call + 16, r);
      }
    }
    r.device = "vulkan";
    return;
  }
  if (r.subsystem == "tt_metal") {
    // "... allocate N B <KIND> buffer across K banks, where each bank needs to store X B, but bank
    // size is [only] Y B (allocated: A B, free: F B, largest free block: L B)": the bank figures
    // are per bank (the buffer is interleaved evenly over them), the device's are K times them;
    // X x K, what the buffer takes once laid out (page-rounded), may exceed N.
    set_requested(size_after(s, "notenoughspacetoallocate"), r);
    r.device = "tt";
    if (const size_t p = ifind(s, "notenoughspacetoallocate"); p != std::string::npos) {
      const size_t kind = s.find_first_not_of("0123456789", p + 24);
      const size_t buffer = ifind(s, "buffer", kind);
      if (kind != std::string::npos && buffer != std::string::npos && buffer > kind + 1 && lower_char(s[kind]) == 'b') {
        r.device = "tt:" + lower(s.substr(kind + 1, buffer - kind - 1));  // tt:dram, tt:l1, tt:l1_small, tt:trace
      }
    }
    const auto banks = integer_after(s, "across");
    if (!banks || *banks <= 0 || !icontains(s, "banks")) return;
    auto per_bank = [&](std::string_view label) -> std::optional<int64_t> {
      const auto bytes = take(size_after(s, label), r);
      return bytes ? std::optional<int64_t>(sat_mul(*bytes, *banks, r)) : std::nullopt;
    };
    r.laid_out_bytes = per_bank("eachbankneedstostore");
    r.total_capacity_bytes = per_bank("banksizeisonly");
    if (!r.total_capacity_bytes) r.total_capacity_bytes = per_bank("banksizeis");
    r.allocated_bytes = per_bank("(allocated:");
    r.free_bytes = per_bank(",free:");
    r.largest_free_block_bytes = per_bank("largestfreeblock:");
    return;
  }
  if (r.subsystem == "rknn") {  // "failed to malloc npu memory!, size: 59187712, flags: 0x2": bytes
    r.device = "npu";
    const size_t p = ifind(s, "size:");
    if (p == std::string::npos) return;
    if (!set_hex_byte_count(s, p + 5, r)) set_byte_count(s, p + 5, r);  // "size: 0x8000000" or "size: 59187712"
    return;
  }
  if (r.subsystem == "bmlib") {  // "bm_alloc_gmem failed, dev_id = 0, size = 0x639c00"
    const auto dev = integer_after(s, "dev_id");
    r.device = dev ? "sophon:" + std::to_string(*dev) : "sophon";
    if (const size_t p = ifind(s, "size=0x"); p != std::string::npos) set_hex_byte_count(s, p + 5, r);
    return;
  }
  if (r.subsystem == "ggml") {  // "failed to allocate CUDA0 buffer of size 18387836928"
    ggml_buffer(s, r);
    return;
  }
  if (r.subsystem == "onnxruntime") {  // "Failed to allocate memory for requested buffer of size 2147483648"
    r.requested_bytes = grouped_count_after(s, "requestedbufferofsize", r, &r.requested_printed);
    return;  // its device: from the provider the line or the one before names (parse_oom_log())
  }
  if (r.subsystem == "tensorrt") {  // "Requested amount of GPU memory (17920000000 bytes) could not be allocated"
    set_requested(size_after(s, "requestedamountofgpumemory("), r);
    if (!r.requested_bytes) set_requested(size_after(s, "requestedsizewas"), r);  // TensorRT 10: "(Requested size was N bytes.)"
    r.device = "cuda";
    return;
  }
  if (r.subsystem == "tflm_arena") {  // "Requested: 40, available 0, missing: 40" / "Needed 62536 but only 54272 was available"
    r.requested_bytes = grouped_count_after(s, "requested:", r, &r.requested_printed);
    if (!r.requested_bytes) r.requested_bytes = grouped_count_after(s, "needed", r, &r.requested_printed);
    if (auto avail = grouped_count_after(s, "available", r)) r.free_bytes = avail;
    if (!r.free_bytes) r.free_bytes = grouped_count_after(s, "butonly", r);
    return;
  }
  if (r.subsystem == "opencl") {  // "requested N bytes, but max alloc size supported by device is M bytes"
    set_requested(size_after(s, "allocation:requested"), r);
    r.max_allocation_bytes = take(size_after(s, "maxallocsizesupportedbydeviceis"), r);
    r.device = "gpu";
    return;
  }
}

// "GPU1has…" / "(GPU 0;": the device index after a device word ending at `pos`.
std::string device_index_before(std::string_view s, size_t pos, std::string& word) {
  size_t j = pos;
  while (j > 0 && is_digit(s[j - 1])) --j;
  if (j == pos) return "";
  size_t w = j;
  while (w > 0 && is_alpha(s[w - 1]) && j - w < 8) --w;
  word = lower(s.substr(w, j - w));
  return std::string(s.substr(j, pos - j));
}

// numpy's "(<shape>) and data type <dtype>" from `open` (just after the '(') of the squashed
// message: the shape ("50000, 50000, 8", a 1-d "(100000000000,)" without its comma) into
// r.tensor_shape and the dtype as numpy prints it ("float64", "<U1000", "|S10", "datetime64[ns]")
// into r.dtype; false when they are not there.
bool numpy_shape_and_dtype(const std::string& s, size_t open, OomRecord& r) {
  const size_t close = s.find(')', open);
  const size_t t = close == std::string::npos ? std::string::npos : ifind(s, "anddatatype", close);
  if (close == std::string::npos || close - open >= 200 || t != close + 1) return false;
  std::string shape = s.substr(open, close - open);
  if (!shape.empty() && shape.back() == ',') shape.pop_back();
  size_t e = t + 11;
  while (e < s.size() && e - t < 11 + 24 &&
         (is_alpha(s[e]) || is_digit(s[e]) || s[e] == '<' || s[e] == '>' || s[e] == '|' || s[e] == '=' || s[e] == '[' ||
          s[e] == ']')) {
    ++e;
  }
  r.tensor_shape = shape;
  r.dtype = s.substr(t + 11, e - t - 11);
  return true;
}

// The bytes of one element of a TensorFlow dtype name; 0 when unknown.
int64_t tf_dtype_bytes(const std::string& dtype) {
  const std::string d = lower(dtype);
  if (d == "float" || d == "float32" || d == "int32" || d == "uint32" || d == "qint32") return 4;
  if (d == "half" || d == "float16" || d == "bfloat16" || d == "int16" || d == "uint16") return 2;
  if (d == "double" || d == "float64" || d == "int64" || d == "uint64" || d == "complex64") return 8;
  if (d == "int8" || d == "uint8" || d == "bool" || d == "qint8" || d == "quint8") return 1;
  if (d == "complex128") return 16;
  // An element size read off BFC's rounded request where the message names no dtype ("8-byte").
  if (d == "1-byte" || d == "2-byte" || d == "4-byte" || d == "8-byte" || d == "16-byte") return std::stoi(d);
  return 0;
}

// requested = product(shape) x element size of r.dtype, overflow-checked; leaves requested
// unset when the shape does not parse or the dtype is unknown.
void tensorflow_size_impl(OomRecord& r) {
  const std::vector<int64_t> dims = tensor_dims(r.tensor_shape);
  const bool ok = !dims.empty();
  int64_t elements = 1;
  for (const int64_t dim : dims) {
    if (dim != 0 && elements > kMaxInt64 / dim) {
      r.size_overflow = true;
      elements = kMaxInt64;
    } else {
      elements *= dim;
    }
  }
  const int64_t esize = tf_dtype_bytes(r.dtype);
  if (ok && esize > 0) {
    r.requested_bytes = elements > kMaxInt64 / esize ? kMaxInt64 : elements * esize;
    if (elements > kMaxInt64 / esize) r.size_overflow = true;
    r.requested_printed = "shape[" + r.tensor_shape + "]" + (r.dtype_assumed ? "" : " and type " + r.dtype);
  }
}

// The dtype after "andtype" at `at` of the squashed message ("andtypefloaton/job:..." -> "float").
std::string tf_dtype_after(std::string_view s, size_t at) {
  size_t e = at + 7;
  while (e < s.size() && (is_alpha(s[e]) || is_digit(s[e]))) ++e;
  std::string dtype(s.substr(at + 7, e - at - 7));
  if (dtype.size() > 2 && lower(dtype.substr(dtype.size() - 2)) == "on") dtype.resize(dtype.size() - 2);
  return dtype;
}

// TensorFlow's shape with spaces, not commas, between its dimensions in the spaced report ("OOM when
// allocating tensor with shape [1 160 192 224 48] and type float", as a log re-typed or quoted prints
// it; the squashed report joins them into one number): "1,160,192,224,48", or "" where the bracket
// holds anything but digits and spaces or fewer than two dimensions.
std::string tf_spaced_dims(std::string_view spaced) {
  const size_t sh = std::min(ifind(spaced, "tensor with shape"), ifind(spaced, "tensor of shape"));
  const size_t open = sh == std::string_view::npos ? std::string_view::npos : spaced.find('[', sh);
  const size_t close = open == std::string_view::npos ? std::string_view::npos : spaced.find(']', open);
  if (open == std::string_view::npos || close == std::string_view::npos || open - sh > 18 || close - open > 120) return "";
  const std::string_view inside = spaced.substr(open + 1, close - open - 1);
  std::string dims;
  size_t count = 0;
  for (size_t k = 0; k < inside.size();) {
    if (inside[k] == ' ') {
      ++k;
      continue;
    }
    if (!is_digit(inside[k])) return "";
    const size_t b = k;
    while (k < inside.size() && is_digit(inside[k])) ++k;
    dims += (count++ ? "," : "") + std::string(inside.substr(b, k - b));
  }
  return count >= 2 ? dims : "";
}

void read_tensorflow(std::string_view s, OomRecord& r, std::string_view spaced) {
  // "OOM when allocating tensor with shape[...] and type float"; TensorFlow before 1.1 printed
  // "tensor of shape [...] and type float" (`s` has no spaces).
  size_t p = ifind(s, "tensorwithshape");
  size_t label = 15;
  if (p == std::string_view::npos) {
    p = ifind(s, "tensorofshape");
    label = 13;
  }
  // TensorFlow 0.x printed the TensorShapeProto: "tensor with shape dim { size: 10000 } dim { size:
  // 18 }" (`s` has no spaces: "dim{size:10000}dim{size:18}"), no dtype.
  if (p != std::string_view::npos && istarts_with(s.substr(p + label), "dim{size:")) {
    std::string shape;
    size_t i = p + label;
    while (istarts_with(s.substr(i), "dim{size:")) {
      i += 9;
      const size_t b = i;
      while (i < s.size() && is_digit(s[i])) ++i;
      if (i == b || i >= s.size() || s[i] != '}' || i - b > 18) break;
      if (!shape.empty()) shape += ",";
      shape += std::string(s.substr(b, i - b));
      ++i;
    }
    if (!shape.empty()) r.tensor_shape = shape;
    // "... dim { size: 1024 } and type half on /gpu:0"
    if (!shape.empty() && istarts_with(s.substr(i), "andtype")) {
      r.dtype = tf_dtype_after(s, i);
      tensorflow_size_impl(r);
    }
  } else if (p != std::string_view::npos) {
    size_t i = p + label;
    if (i < s.size() && s[i] == '[') ++i;
    const size_t close = s.find(']', i);
    if (close != std::string_view::npos && close - i < 200) {
      r.tensor_shape = std::string(s.substr(i, close - i));
      if (r.tensor_shape.find(',') == std::string::npos && !spaced.empty()) {
        if (std::string dims = tf_spaced_dims(spaced); !dims.empty()) r.tensor_shape = std::move(dims);
      }
      const size_t t = ifind(s, "andtype", close);
      if (t == close + 1) r.dtype = tf_dtype_after(s, t);
      tensorflow_size_impl(r);
    }
  }
  if (p != std::string_view::npos) {
    tf_dtype_from_bfc_rounding(s, r);
  } else {
    set_requested(size_after(s, "ranoutofmemorytryingtoallocate", false, true), r);
  }
  const size_t dev = ifind(s, "/device:");
  if (dev != std::string_view::npos) {  // "/device:GPU:0" -> "gpu:0"; XLA's "/device:XLA_CPU:0" -> "cpu:0"
    size_t e = dev + 8;
    while (e < s.size() && (is_alpha(s[e]) || s[e] == '_')) ++e;
    if (e < s.size() && s[e] == ':') {
      size_t end = 0;
      if (integer_at(s, e + 1, &end)) e = end;
    }
    r.device = lower(s.substr(dev + 8, e - dev - 8));
    if (r.device.rfind("xla_", 0) == 0) r.device.erase(0, 4);
  } else if (const size_t old_gpu = ifind(s, "on/gpu:"); old_gpu != std::string_view::npos && old_gpu + 7 < s.size() &&
             is_digit(s[old_gpu + 7])) {  // TF 0.x: "... and type half on /gpu:0"
    r.device = "gpu:" + std::string(1, s[old_gpu + 7]);
  } else if (const size_t bfc = ifind(s, "gpu_"); bfc != std::string_view::npos && is_digit(bfc + 4 < s.size() ? s[bfc + 4] : 'x')) {
    r.device = "gpu:" + std::string(1, s[bfc + 4]);
  }
}

void read_oom_killer(std::string_view s, OomRecord& r) {
  r.device = "cpu";
  for (std::string_view label : {"killedprocess", "killprocess", "worker(pid", "worker(pid(s)"}) {
    if (auto pid = integer_after(s, label)) {
      r.killed_pid = pid;
      break;
    }
  }
  // The kernel prints anon-rss in kB (KiB: "anon-rss:61234567kB"); a figure retyped with another unit
  // ("anon-rss:61.5GB") is read in that unit (binary, as the kernel's kB is), a bare number in kB.
  if (const auto v = size_after(s, "anon-rss:", true, true)) {
    r.rss_bytes = take(v, r);
  } else if (const auto kb = integer_after(s, "anon-rss:")) {
    if (*kb < kMaxInt64 / 1024) r.rss_bytes = *kb * 1024;
  }
  if (r.subsystem == "dask_nanny") {  // "Process memory: 3.91 GiB -- Worker memory limit: 4.00 GiB"
    r.rss_bytes = take(size_after(s, "processmemory:"), r);
    r.allowed_bytes = take(size_after(s, "workermemorylimit:"), r);
  }
}

void read_vllm(std::string_view s, OomRecord& r) {
  if (auto tokens = integer_after(s, "notenoughmemorytohandle")) r.max_model_len = tokens;  // TGI: tokens it must hold
  r.max_model_len = integer_after(s, "maxseqlen");
  r.kv_cache_tokens = integer_after(s, "storedinkvcache");
  set_requested(size_before(s, "kvcacheisneeded"), r);  // "(4.00 GiB KV cache is needed, ..."
  if (auto avail = size_after(s, "availablekvcachememory(")) r.free_bytes = take(avail, r);
  // (The short form: "1.75 GiB KV cache is needed, available 0.13 GiB".)
  else if (auto short_avail = size_after(s, "kvcacheisneeded,available")) r.free_bytes = take(short_avail, r);
}

}  // namespace

// The bytes of one element of a numpy dtype as its MemoryError prints it ("float64", "<U1000",
// "|S10", "object", "<f8", "datetime64[ns]"); 0 when unknown. numpy's dtype.itemsize: a unicode
// string holds 4 bytes a character, a bytes string 1, an object a pointer (8).
int64_t numpy_itemsize(std::string_view dtype) {
  while (!dtype.empty() && (dtype.front() == '<' || dtype.front() == '>' || dtype.front() == '|' || dtype.front() == '=')) {
    dtype.remove_prefix(1);
  }
  if (dtype.empty()) return 0;
  if (dtype == "object" || dtype == "O") return 8;
  if (dtype == "bool" || dtype == "?") return 1;
  auto digits_from = [&](size_t at) -> int64_t {
    int64_t v = 0;
    size_t k = at;
    while (k < dtype.size() && is_digit(dtype[k]) && k - at < 9) v = v * 10 + (dtype[k++] - '0');
    return k == at ? 0 : v;
  };
  // The one-letter codes with a byte count: "U1000" (x4), "S10", "a10", "V8", "f8", "i4", "u2", "c16", "M8", "m8".
  if (dtype.size() >= 2 && is_digit(dtype[1])) {
    const int64_t n = digits_from(1);
    switch (dtype[0]) {
      case 'U': return 4 * n;
      case 'S': case 'a': case 'V': case 'f': case 'i': case 'u': case 'c': case 'M': case 'm': case 'b': return n;
      default: return 0;
    }
  }
  // The names with a bit count: float64, int8, uint16, complex128, datetime64[ns], timedelta64[s].
  for (std::string_view name : {"float", "int", "uint", "complex", "datetime", "timedelta"}) {
    if (dtype.substr(0, name.size()) == name && dtype.size() > name.size() && is_digit(dtype[name.size()])) {
      const int64_t bits = digits_from(name.size());
      return bits % 8 == 0 ? bits / 8 : 0;
    }
  }
  return 0;
}


void tensorflow_size(OomRecord& r) { tensorflow_size_impl(r); }

// See oom_fields.h.
int tf_element_bytes_for(const std::string& shape, int64_t bytes, bool rounded) {
  const std::vector<int64_t> dims = tensor_dims(shape);
  int64_t elements = dims.empty() ? 0 : 1;
  for (const int64_t dim : dims) elements = dim != 0 && elements > kMaxInt64 / dim ? 0 : elements * dim;
  if (elements <= 0 || bytes <= 0) return 0;
  for (const int k : {1, 2, 4, 8, 16}) {
    if (elements > kMaxInt64 / k) break;
    const int64_t b = elements * k;
    // k and 2k differ by half: a printed size's half-a-digit (<= 0.5%) never fits two.
    const bool fits = rounded ? bytes >= b && bytes - b < 256 : (b > bytes ? b - bytes : bytes - b) <= bytes / 200 + 256;
    if (fits) return k;
  }
  return 0;
}

void tf_dtype_from_bfc_rounding(std::string_view s, OomRecord& r) {
  if ((!r.dtype.empty() && !r.dtype_assumed) || r.tensor_shape.empty()) return;
  int k = 0;
  if (const size_t rt = ifind(s, "(roundedto"); rt != std::string_view::npos) {
    if (const auto rounded = integer_at(s, rt + 10)) k = tf_element_bytes_for(r.tensor_shape, *rounded, true);
  } else if (const auto printed = size_after(s, "ranoutofmemorytryingtoallocate", false, true)) {
    // TF 1.x printed the size alone ("trying to allocate 256.00MiB"): within its last digit's half.
    k = printed->overflow ? 0 : tf_element_bytes_for(r.tensor_shape, printed->bytes, false);
  }
  if (k == 0) return;
  r.dtype = std::to_string(k) + "-byte";
  r.dtype_assumed = false;
  tensorflow_size_impl(r);
  r.requested_printed = "shape[" + r.tensor_shape + "] (" + r.dtype + " elements, from BFC's request before it)";
}

std::vector<int64_t> tensor_dims(std::string_view shape) {
  std::vector<int64_t> dims;
  size_t k = 0;
  while (k < shape.size()) {
    size_t end = 0;
    auto dim = integer_at(shape, k, &end);
    if (!dim) return {};
    dims.push_back(*dim);
    k = end;
    if (k < shape.size()) {
      if (shape[k] != ',') return {};
      ++k;
    }
  }
  return dims;
}

std::string device_type_from_word(const std::string& word) {
  const std::string w = lower(word);
  for (const char* known : {"cuda", "hip", "xpu", "mtia", "npu", "cpu", "mps"}) {
    if (w == known) return w;
  }
  return "";
}

void read_fields(const std::string& s, OomRecord& r, const std::string& device_word, std::string_view spaced) {
  // CTranslate2's CUDA check and Thrust's device algorithms failing: the GPU's memory.
  if (r.family == "cuda_error_oom" && (r.subsystem == "ctranslate2" || r.subsystem == "thrust") && r.device.empty()) {
    r.device = "cuda";
  }
  // A CUDA runtime call failing (cudaMalloc's error 2, "CUDA error: out of memory"): the GPU's
  // memory, whatever the message leaves unsaid (a "GPU n" or "hip" on it sets it below).
  if (r.family == "cuda_error_oom" && r.subsystem == "cuda_runtime" && ifind(s, "cudamalloc") != std::string::npos &&
      r.device.empty()) {
    r.device = "cuda";
  }
  // cuBLAS and cuDNN are CUDA libraries: their allocation or handle failures are on the GPU; a CUDA
  // runtime error named as one ("CUDA error: out of memory", "cuda runtime error (2)",
  // CUDA_ERROR_OUT_OF_MEMORY) too, and HIP's (hipErrorOutOfMemory) on a ROCm GPU.
  if (r.device.empty() && (r.family == "cublas_alloc_failed" || r.family == "cudnn_alloc_failed")) {
    const bool rocm = ifind(s, "hipblas") != std::string::npos || ifind(s, "rocblas") != std::string::npos ||
                      ifind(s, "miopen") != std::string::npos;
    r.device = rocm ? "hip" : "cuda";
  }
  if (r.device.empty() && r.family == "cuda_error_oom" && r.subsystem == "cuda_runtime") {
    if (ifind(s, "hiperror") != std::string::npos || ifind(s, "hip_error") != std::string::npos) {
      r.device = "hip";
    } else if (ifind(s, "cudaerror") != std::string::npos || ifind(s, "cudaruntimeerror") != std::string::npos ||
               ifind(s, "cuda_error_out_of_memory") != std::string::npos || ifind(s, "cudaerrormemoryallocation") != std::string::npos ||
               ifind(s, "==cudasuccess") != std::string::npos) {  // MXNet's mshadow "Check failed: err == cudaSuccess"
      r.device = "cuda";
    }
  }
  if (r.family == "tensorflow") return read_tensorflow(s, r, spaced);
  if (r.family == "oom_killer") return read_oom_killer(s, r);
  if (r.family == "vllm_kv_cache") return read_vllm(s, r);
  if (r.family == "host_alloc") {  // host RAM; numpy states the size ("Unable to allocate 7.45 GiB for an array")
    r.device = "cpu";
    // HotSpot's commit failure: "os::commit_memory(0x0000000731400000, 3293577216, 0) failed;
    // error='Cannot allocate memory' (errno=12)" (address, bytes, executable); its error report's "Native memory allocation (malloc) failed to allocate N bytes" / "(mmap) failed to map N bytes".
    if (r.subsystem == "jvm") {
      if (const size_t p = ifind(s, "os::commit_memory("); p != std::string::npos) {
        if (const size_t comma = s.find(',', p); comma != std::string::npos && comma < p + 40) set_byte_count(s, comma + 1, r);
      }
      // Android's runtime (ART): "java.lang.OutOfMemoryError: Failed to allocate a 134217744 byte
      // allocation with 25165824 free bytes and 80MB until OOM": the request and the heap's free bytes.
      if (const size_t p = ifind(s, "failedtoallocatea"); p != std::string::npos && icontains(s, "byteallocation")) {
        size_t end = p + 17;
        if (auto n = integer_at(s, end, &end)) {
          r.requested_bytes = *n;
          r.requested_printed = s.substr(p + 17, end - (p + 17)) + " bytes";
        }
        if (const size_t w = ifind(s, "allocationwith"); w != std::string::npos) {
          size_t free_end = w + 14;
          if (auto free = integer_at(s, free_end, &free_end); free && istarts_with(std::string_view(s).substr(free_end), "freebytes")) {
            r.free_bytes = *free;
          }
        }
      }
      for (const char* label : {"failedtoallocate", "failedtomap"}) {
        if (r.requested_bytes) break;
        if (const size_t p = ifind(s, label); p != std::string::npos && icontains(s, "nativememoryallocation")) {
          set_requested(size_at(s, p + std::strlen(label)), r);
        }
      }
      return;
    }
    if (r.subsystem == "opencv") {  // "Insufficient memory (Failed to allocate 192000004 bytes)"
      set_requested(size_after(s, "failedtoallocate"), r);
      return;
    }
    if (r.subsystem == "jemalloc") {  // "Requested: 12786980896, active: 64869105664": byte counts
      r.requested_bytes = grouped_count_after(s, "requested:", r, &r.requested_printed);
      r.allocated_bytes = grouped_count_after(s, "active:", r);
      return;
    }
    if (r.subsystem == "wasm_heap") {  // "Cannot enlarge memory, requested N bytes, but the limit is L bytes!"
      set_requested(size_after(s, "enlargememory,requested"), r);
      if (!r.requested_bytes) set_requested(size_after(s, "arraystosize"), r);  // "... arrays to size N bytes (OOM)"
      r.allowed_bytes = take(size_after(s, "thelimitis"), r);
      // "... compile with -s INITIAL_MEMORY=X with X higher than the current value 16777216": the heap's
      // fixed size (no growth), in bytes
      if (!r.allowed_bytes) r.allowed_bytes = grouped_count_after(s, "thecurrentvalue", r);
      return;
    }
    if (r.subsystem == "caffe") {  // "host allocation of size 282240000 failed": bytes
      r.requested_bytes = grouped_count_after(s, "hostallocationofsize", r, &r.requested_printed);
      // "... of size -1294967296 failed": a blob's count that wrapped past int32 (Caffe's sizes are
      // size_t, its counts int), kept as printed and flagged like any negative request.
      if (const size_t p = ifind(s, "hostallocationofsize"); !r.requested_bytes && p != std::string::npos) {
        if (const size_t m = p + 20; m + 1 < s.size() && s[m] == '-' && is_digit(s[m + 1])) {
          size_t e = m + 1;
          while (e < s.size() && is_digit(s[e])) ++e;
          r.size_overflow = true;
          r.requested_bytes = kMaxInt64;
          r.requested_printed = s.substr(m, e - m) + " bytes";
        }
      }
      return;
    }
    if (r.subsystem == "tcmalloc") {  // "tcmalloc: large alloc 12884901888 bytes == (nil) @ ...": bytes
      r.requested_bytes = grouped_count_after(s, "largealloc", r, &r.requested_printed);
      return;
    }
    if (r.subsystem == "malloc") {  // "Failed attempt to allocate 95668727220bytes" (or "1,073,741,824 bytes")
      r.requested_bytes = grouped_count_after(s, "failedattempttoallocate", r, &r.requested_printed);
      return;
    }
    if (r.subsystem == "paddle_cpu") {  // "Fail to alloc memory of 564023296 size, error code is 12": bytes
      r.requested_bytes = grouped_count_after(s, "failtoallocmemoryof", r, &r.requested_printed);
      return;
    }
    if (r.subsystem == "ollama") {  // "requires more system memory (18.5 GiB) than is available (12.1 GiB)"
      set_requested(size_after(s, "systemmemory("), r);
      r.free_bytes = take(size_after(s, "isavailable("), r);
      return;
    }
    if (r.subsystem == "postgres") {  // "invalid memory alloc request size 1073774812", "Failed on request of size 8192 in ..."
      r.requested_bytes = grouped_count_after(s, "allocrequestsize", r, &r.requested_printed);
      if (!r.requested_bytes) r.requested_bytes = grouped_count_after(s, "requestofsize", r, &r.requested_printed);
      return;
    }
    if (r.subsystem == "clickhouse") {  // "would use 9.32 GiB (attempt to allocate chunk of 4194304 bytes), maximum: 9.31 GiB"
      set_requested(size_after(s, "attempttoallocatechunkof"), r);  // "4194304 bytes", also "4.00 MiB"
      r.allocated_bytes = take(size_after(s, "woulduse"), r);  // what the tracker would hold with the chunk
      r.allowed_bytes = take(size_after(s, "maximum:"), r);     // the limit (max_memory_usage, or the server's)
      return;
    }
    if (r.subsystem == "mysql") {  // "Out of memory (Needed 1048576 bytes)"
      r.requested_bytes = grouped_count_after(s, "outofmemory(needed", r, &r.requested_printed);
      return;
    }
    if (r.subsystem == "duckdb") {  // "... allocate data of size 16.0 MiB (4.4 GiB/4.4 GiB used)", "... block of 262144 bytes"
      size_t p = ifind(s, "allocate");
      if (p == std::string::npos) p = ifind(s, "pin");
      if (p == std::string::npos) return;
      p = s.find_first_of("0123456789", p);
      if (p == std::string::npos) return;
      set_requested(size_at(s, p), r);
      if (const size_t open = s.find('(', p); open != std::string::npos) {
        const auto used = size_at(s, open + 1);
        const size_t slash = used ? used->end : std::string::npos;
        if (used && slash < s.size() && s[slash] == '/' && icontains(s.substr(slash), "used")) {
          r.allocated_bytes = take(used, r);
          r.allowed_bytes = take(size_at(s, slash + 1), r);  // the memory_limit
        }
      }
      return;
    }
    if (r.subsystem == "r") {  // "cannot allocate vector of size 3.2 Gb": R prints bytes / 1024^3 as "Gb"
      set_requested(size_after(s, "cannotallocatevectorofsize", true), r);
      if (!r.requested_bytes) set_requested(size_after(s, "allocateavectorofsize", true), r);
      // zh_CN: "无法分配大小为8.9 Gb的向量", the same binary "Gb"; "of length N" is a count, no size.
      if (!r.requested_bytes) set_requested(size_after(s, "\xe6\x97\xa0\xe6\xb3\x95\xe5\x88\x86\xe9\x85\x8d\xe5\xa4\xa7\xe5\xb0\x8f\xe4\xb8\xba", true), r);
      // Its other catalogues, the words before the size (oom_parser.cpp's heads), binary units as in
      // English: es "tamaño" ends in a non-ASCII letter before the number; fr prints octets ("26.8 Go", "216.8 Mo").
      for (std::string_view label : {std::string_view("vecteurdetaille"), std::string_view("vektordergr\xc3\xb6\xc3\x9f" "e"),
                                     std::string_view("vettoredidimensione"), std::string_view("vectordetama"),
                                     std::string_view("vetordetamanho"),
                                     std::string_view("\xe9\x85\x8d\xe7\xbd\xae\xe5\xa4\xa7\xe5\xb0\x8f\xe7\x82\xba")}) {  // 配置大小為
        if (r.requested_bytes) break;
        const size_t p = ifind(s, label);
        if (p == std::string::npos) continue;
        size_t q = p + label.size();
        for (int k = 0; k < 4 && q < s.size() && !is_digit(s[q]); ++k) ++q;
        size_t e = q;
        while (e < s.size() && (is_digit(s[e]) || s[e] == '.')) ++e;
        if (e == q) continue;
        if (e + 1 < s.size() && lower_char(s[e + 1]) == 'o' && (lower_char(s[e]) == 'k' || lower_char(s[e]) == 'm' ||
                                                                 lower_char(s[e]) == 'g' || lower_char(s[e]) == 't')) {
          std::optional<PrintedSize> octets = size_at(s.substr(q, e - q) + static_cast<char>(s[e]) + "B", 0, true);
          if (octets) octets->printed = s.substr(q, e - q) + " " + s.substr(e, 2);
          set_requested(octets, r);
        } else {
          set_requested(size_at(s, q, true), r);
        }
      }
      return;
    }
    if (r.subsystem == "ggml") {  // "failed to allocate CPU buffer of size N" (or a backend's pinned host buffer)
      ggml_buffer(s, r);
      // ggml_aligned_malloc's "(attempted to allocate 24576.00 MB)": size / 2^20.
      if (!r.requested_bytes) set_requested(size_after(s, "attemptedtoallocate", true), r);
      r.device = "cpu";
      return;
    }
    if (r.subsystem == "numpy") {
      set_requested(size_after(s, "unabletoallocate"), r);
      if (!r.requested_bytes) {  // numpy's '{:#.3g}' keeps the point of a 3-digit number: "123. GiB"
        if (const size_t p = ifind(s, "unabletoallocate"); p != std::string::npos) {
          std::string t(std::string_view(s).substr(p + 16, 40));
          size_t d = 0;
          while (d < t.size() && is_digit(t[d])) ++d;
          if (d > 0 && d + 1 < t.size() && t[d] == '.' && is_alpha(t[d + 1])) {
            t.erase(d, 1);
            set_requested(size_at(t, 0), r);
          }
        }
      }
      // numpy 1.18 on names the array's shape and dtype after its size ("... 5.38 PiB for an array with
      // shape (8796093022208, 86) and data type float64"): kept, so a size no host has can be told
      // from a corrupted one (the shape asks for it).
      if (const size_t p = ifind(s, "foranarraywithshape("); r.requested_bytes && p != std::string::npos) {
        numpy_shape_and_dtype(s, p + 20, r);
      }
      // numpy before 1.18: "Unable to allocate array with shape (50000, 50000, 8) and data type
      // float64", no size: the shape's product times the dtype's size (as TensorFlow's shape[...]).
      if (const size_t p = ifind(s, "unabletoallocatearraywithshape("); !r.requested_bytes && p != std::string::npos &&
                                                                         numpy_shape_and_dtype(s, p + 31, r)) {
        // The shape's product times numpy's item size (its string and object dtypes too), overflow-checked.
        const int64_t item = numpy_itemsize(r.dtype);
        long double bytes = static_cast<long double>(item);
        for (const int64_t dim : tensor_dims(r.tensor_shape)) bytes *= static_cast<long double>(dim);
        if (item > 0 && !tensor_dims(r.tensor_shape).empty()) {
          if (bytes >= 9223372036854775807.0L) {
            r.size_overflow = true;
            r.requested_bytes = kMaxInt64;
          } else {
            r.requested_bytes = static_cast<int64_t>(bytes);
          }
          r.requested_printed = "shape (" + r.tensor_shape + ") and data type " + r.dtype;
        }
      }
    }
    return;
  }
  if (r.family == "paddle" && r.subsystem == "fluid_pool") {
    // "enforce allocating <= available failed, A > B": plain byte counts, the pool Fluid wants
    // (FLAGS_fraction_of_gpu_memory_to_use x total) and the device's free memory.
    r.device = "cuda";
    const size_t p = ifind(s, "availablefailed,");
    if (p == std::string::npos) return;
    size_t gt = p + 16;
    while (gt < s.size() && is_digit(s[gt])) ++gt;
    if (gt >= s.size() || s[gt] != '>' || !set_byte_count(s, p + 16, r)) return;
    if (r.requested_bytes == 0) r.requested_bytes.reset();  // a zero size is no evidence
    size_t end = 0;
    if (const auto free = integer_at(s, gt + 1, &end)) r.free_bytes = *free;
    return;
  }
  if (r.family == "paddle" && r.subsystem == "paddle_cuda") {  // "Fail to alloc memory of N size, error code is 2": bytes
    r.device = "cuda";
    r.requested_bytes = grouped_count_after(s, "failtoallocmemoryof", r, &r.requested_printed);
    return;
  }
  if (r.family == "paddle") {
    // string::HumanReadableSize: "%f" of the size divided by 1024 per step, labelled "kB", "MB",
    // "GB" (the fractions it prints, .25, .0625, .75 of a MB, are binary ones): binary units.
    r.device = "cuda";
    set_requested(size_after(s, "cannotallocate", true), r);
    r.allocated_bytes = take(size_before(s, "memoryhasbeenallocated", true), r);
    r.free_bytes = take(size_after(s, "availablememoryisonly", true), r);
    return;
  }
  if (r.family == "pytorch_alloc_retry") {  // "... on device 6 while trying to allocate N bytes (free: F, total: T)."
    set_requested(size_after(s, "whiletryingtoallocate"), r);
    if (!r.requested_bytes) set_requested(size_after(s, "whiletryingtomap"), r);  // expandable_segments' page
    // Plain byte counts: a number followed by a decimal point or a unit ("3.55GB") is not this
    // message's, and is left unread rather than read wrong.
    auto bytes_after = [&](std::string_view label) -> std::optional<int64_t> {
      const size_t p = ifind(s, label);
      if (p == std::string::npos) return std::nullopt;
      size_t end = 0;
      auto v = integer_at(s, p + label.size(), &end);
      if (!v || (end < s.size() && (s[end] == '.' || is_alpha(s[end])))) return std::nullopt;
      return v;
    };
    r.free_bytes = bytes_after("(free:");
    r.total_capacity_bytes = bytes_after(",total:");
    const auto device = integer_after(s, "ondevice");
    r.device = device ? "cuda:" + std::to_string(*device) : "cuda";
    return;
  }
  if (r.family == "device_alloc") return read_device_alloc(s, r);
  if (r.family == "metal") {  // Apple GPU, unified memory
    r.device = "mps";
    return;
  }
  if (r.family == "model_offload") {  // the GPU the model was meant for: no size in the message
    r.device = "cuda";
    return;
  }
  if (r.family == "xla") {
    const bool tpu = icontains(s, "attemptingtoallocate") || icontains(s, "attemptingtoreserve") || icontains(s, "memoryspacehbm");
    set_requested(size_after(s, "attemptingtoallocate", false, true), r);
    if (!r.requested_bytes) set_requested(size_after(s, "attemptingtoreserve", false, true), r);
    if (!r.requested_bytes) set_requested(size_after(s, "whiletryingtoallocate", false, true), r);
    if (!r.requested_bytes) set_requested(size_after(s, "outofmemoryallocating", false, true), r);
    if (!r.requested_bytes) {  // "Failed to allocate request for 5.66GiB (6075580416B)": the exact bytes first
      if (const size_t p = ifind(s, "failedtoallocaterequestfor"); p != std::string::npos) {
        auto shown = size_at(s, p + 26, false, true);
        if (shown && shown->end < s.size() && s[shown->end] == '(') {
          size_t end = 0;
          auto exact = integer_at(s, shown->end + 1, &end);
          if (exact && end < s.size() && (s[end] == 'B' || s[end] == 'b')) {
            r.requested_bytes = *exact;
            r.requested_printed = shown->printed + " (" + std::to_string(*exact) + "B)";
          } else {
            set_requested(shown, r);
          }
        } else {
          set_requested(shown, r);
        }
      }
    }
    // "Failed to allocate 98697216 bytes for new constant": the constant's plain byte count.
    if (!r.requested_bytes && icontains(s, "fornewconstant")) set_requested(size_after(s, "failedtoallocate", false, true), r);
    // The TPU compiler: "Used 8.38G of 8.00G hbm. Exceeded hbm capacity by 385.25M."
    if (const size_t p = ifind(s, "used"); p != std::string::npos && icontains(s, "memoryspace")) {
      if (auto used = size_at(s, p + 4, false, true)) {
        r.allocated_bytes = take(used, r);
        if (istarts_with(std::string_view(s).substr(used->end), "of")) r.total_capacity_bytes = take(size_at(s, used->end + 2, false, true), r);
      }
      if (!r.requested_bytes) set_requested(size_after(s, "capacityby", false, true), r);
    }
    r.free_bytes = take(size_after(s, "thereare", false, true), r);
    r.device = tpu || icontains(s, "hbm") || icontains(s, "tpu") ? "tpu" : "gpu";
    return;
  }
  if (r.family == "th_cpu_allocator") {
    // c10's DefaultCPUAllocator says the same words with a byte count ("not enough memory: you tried to
    // allocate 9437184 bytes", its "DefaultCPUAllocator: " head not pasted): that allocator's, exact.
    if (const size_t at = ifind(s, "youtriedtoallocate"); at != std::string::npos) {
      size_t k = at + 18;
      while (k < s.size() && is_digit(s[k])) ++k;
      if (k > at + 18 && lower(s.substr(k, 5)) == "bytes") {
        r.family = "cpu_default_allocator";
        if (auto n = integer_after(s, "youtriedtoallocate")) {
          r.requested_bytes = *n;
          r.requested_printed = std::to_string(*n) + " bytes";
        } else {  // a count beyond int64 (a corrupted size): flagged, never dropped
          r.requested_bytes = kMaxInt64;
          r.size_overflow = true;
          r.requested_printed = std::string(s.substr(at + 18, k - at - 18)) + " bytes";
        }
        r.device = "cpu";
        return;
      }
    }
    if (auto n = integer_after(s, "youtriedtoallocate")) {
      if (*n < kMaxInt64 / kGiB) {
        r.requested_bytes = *n * kGiB;  // THAlloc printed size / 2^30 truncated, labelled "GB"
        r.requested_is_truncated = true;
        r.requested_printed = std::to_string(*n) + "GB";
      } else {
        r.requested_bytes = kMaxInt64;
        r.size_overflow = true;
      }
    }
    r.device = "cpu";
    return;
  }

  const bool mps = icontains(s, "mpsbackend");
  std::string type = device_type_from_word(device_word);

  if (icontains(s, "triedtoallocatemorethan1eb")) {
    r.requested_bytes = int64_t{1} << 60;
    r.requested_is_lower_bound = true;
    r.requested_printed = "more than 1EB";
  } else {
    set_requested(size_after(s, "triedtoallocate", mps), r);
  }
  if (mps) {
    r.device = "mps";
    r.allocated_bytes = take(size_after(s, "mpsallocated:", true), r);
    r.non_pytorch_bytes = take(size_after(s, "otherallocations:", true), r);
    r.allowed_bytes = take(size_after(s, "maxallowed:", true), r);
    r.reserved_bytes = r.allocated_bytes;
    return;
  }
  // PyTorch 1.x fields: "(GPU 0; Y total capacity; Z already allocated; W free; [A allowed;] R reserved in total by PyTorch)"
  for (std::string_view open : {"(gpu", "(xpu", "(device"}) {
    const size_t p = ifind(s, open);
    if (p == std::string::npos) continue;
    size_t end = 0;
    if (integer_at(s, p + open.size(), &end) && end < s.size() && s[end] == ';') {
      r.device = (type.empty() ? "cuda" : type) + ":" + std::string(s.substr(p + open.size(), end - p - open.size()));
      break;
    }
  }
  r.total_capacity_bytes = take(size_before(s, "totalcapacity"), r);
  r.allocated_bytes = take(size_before(s, "alreadyallocated"), r);
  r.free_bytes = take(size_before(s, "free"), r);
  r.allowed_bytes = take(size_before(s, "allowed"), r);
  r.reserved_bytes = take(size_before(s, "reservedintotal"), r);
  if (!r.reserved_bytes) {
    // 1.0-1.3: "C cached" is amount_cached - amount_allocated, the cached free part.
    if (auto cached = size_before(s, "cached")) r.reserved_unallocated_bytes = take(cached, r);
  }
  // PyTorch 2.x: "GPU n has a total capacity of Y of which W is free." (2.1 printed "capacty").
  if (const size_t p = ifind(s, "hasatotalcapac"); p != std::string::npos) {
    std::string word;
    const std::string index = device_index_before(s, p, word);
    size_t i = p + 14;
    if (istarts_with(std::string_view(s).substr(i), "ity")) i += 3;
    else if (istarts_with(std::string_view(s).substr(i), "ty")) i += 2;
    if (istarts_with(std::string_view(s).substr(i), "of")) i += 2;
    if (auto cap = size_at(s, i)) {
      r.total_capacity_bytes = take(cap, r);
      if (istarts_with(std::string_view(s).substr(cap->end), "ofwhich")) {
        r.free_bytes = take(size_at(s, cap->end + 7), r);
      }
    }
    if (!index.empty()) {
      if (word == "cpu") type = "cpu";
      if (type.empty()) type = (word == "xpu" || word == "npu" || word == "mtia") ? word : "cuda";
      r.device = type + ":" + index;
    }
  }
  // "Process p has M memory in use" (other processes, or this one under another PID).
  for (size_t p = ifind(s, "process"); p != std::string::npos; p = ifind(s, "process", p + 7)) {
    size_t end = 0;
    auto pid = integer_at(s, p + 7, &end);
    if (!pid || !istarts_with(std::string_view(s).substr(end), "has")) continue;
    auto bytes = size_at(s, end + 3);
    if (!bytes || !istarts_with(std::string_view(s).substr(bytes->end), "memoryinuse")) continue;
    if (bytes->overflow) r.size_overflow = true;
    r.processes.push_back({*pid, bytes->bytes});
  }
  if (!r.processes.empty()) {
    int64_t sum = 0;
    for (const auto& p : r.processes) sum = sat_add(sum, p.bytes, r);
    r.other_process_bytes = sum;
  }
  r.process_bytes = take(size_after(s, "thisprocesshas"), r);
  if (auto v = size_after(s, "oftheallocatedmemory")) r.allocated_bytes = take(v, r);
  r.private_pool_bytes = take(size_before(s, "allocatedinprivatepools"), r);
  if (auto v = size_before(s, "isreservedbypytorchbutunallocated")) r.reserved_unallocated_bytes = take(v, r);
  // The cudaMallocAsync backend (PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync).
  if (const size_t p = ifind(s, "allocationondevice"); p != std::string::npos && icontains(s, "wouldexceedallowedmemory")) {
    size_t end = 0;
    if (integer_at(s, p + 18, &end)) r.device = "cuda:" + std::string(s.substr(p + 18, end - p - 18));
    r.allocated_bytes = take(size_after(s, "currentlyallocated:"), r);
    set_requested(size_after(s, "requested:"), r);
    r.total_capacity_bytes = take(size_after(s, "devicelimit:"), r);
    r.free_bytes = take(size_after(s, "free(accordingtocuda):"), r);
    if (auto frac = size_after(s, "memoryfraction):"); frac && !frac->overflow) r.allowed_bytes = frac->bytes;
    // "17179869184.00 GiB" (no fraction set) overflows: no cap, and not a corrupted size.
    if (r.allowed_bytes && r.total_capacity_bytes && *r.allowed_bytes >= *r.total_capacity_bytes) r.allowed_bytes.reset();
  }
  // Outside the caching allocator.
  // DefaultCPUAllocator: "... N bytes" (also "1,073,741,824 bytes" as a user or another program
  // writes it: the whole grouped count, not its first group)
  if (auto n = grouped_count_after(s, "youtriedtoallocate", r, &r.requested_printed)) {
    r.requested_bytes = *n;
  } else if (ifind(s, "youtriedtoallocate") != std::string::npos) {
    set_requested(size_after(s, "youtriedtoallocate"), r);  // 5,000 digits: an overflow, flagged
  }
  if (auto n = integer_after(s, "failedtocudacalloc")) r.requested_bytes = *n;
  if (auto n = integer_after(s, "failedtocudamalloc")) r.requested_bytes = *n;
  // ggml's CUDA / HIP backend: "allocating 17536.01 MiB on device 0: cudaMalloc failed: out of memory".
  // Cut short before "cudaMalloc failed" (ggml prints the line only on failure): read to its end.
  size_t ggml_end = ifind(s, "cudamallocfailed");
  if (ggml_end == std::string::npos && ifind(s, "_buffer_type_alloc_buffer:allocating") != std::string::npos) ggml_end = s.size();
  if (const size_t f = ggml_end; !r.requested_bytes && f != std::string::npos) {
    // The last "allocating" before it: an earlier line folded into the report may hold another.
    if (const size_t p = s.rfind("allocating", f); p != std::string::npos) {
      set_requested(size_at(s, p + 10), r);
      if (const auto device = integer_after(std::string_view(s).substr(p, f - p), "ondevice")) {
        r.device = "cuda:" + std::to_string(*device);
      }
    }
  }
  if (!r.requested_bytes) {
    if (const size_t p = ifind(s, "failedtoallocate"); p != std::string::npos) {
      const size_t open = s.find('(', p);
      if (open != std::string::npos && open - p <= 40) {
        size_t end = 0;
        auto n = integer_at(s, open + 1, &end);
        if (n && istarts_with(std::string_view(s).substr(end), "bytes)")) {
          r.requested_bytes = *n;
          r.requested_printed = std::to_string(*n) + " bytes";
        }
      }
    }
  }
  // The driver's code after a byte count of its own ("Failed to allocate 1073741824 bytes for new
  // constant: CUDA_ERROR_OUT_OF_MEMORY", TensorFlow's "failed to alloc 8589934592 bytes on host:
  // CUDA_ERROR_OUT_OF_MEMORY"): that count, in bytes.
  if (!r.requested_bytes && r.family == "cuda_error_oom" && ifind(s, "cuda_error_out_of_memory") != std::string::npos) {
    for (std::string_view label : {"failedtoallocate", "failedtoalloc"}) {
      const size_t p = ifind(s, label);
      if (p == std::string::npos) continue;
      size_t end = 0;
      auto n = integer_at(s, p + label.size(), &end);
      if (n && istarts_with(std::string_view(s).substr(end), "bytes")) {
        r.requested_bytes = *n;
        r.requested_printed = std::to_string(*n) + " bytes";
        break;
      }
    }
  }
  // c10's DefaultCPUAllocator (c10/core/impl/alloc_cpu.cpp): host RAM, whatever device the
  // script uses.
  if (r.family == "cpu_default_allocator") r.device = "cpu";
  if (r.device.empty()) {
    if (const size_t p = ifind(s, "cuda:"); p != std::string::npos) {
      size_t end = 0;
      if (integer_at(s, p + 5, &end)) r.device = "cuda:" + std::string(s.substr(p + 5, end - p - 5));
    }
  }
  // The word before "out of memory" names the device without an index ("RuntimeError: CUDA out of
  // memory." with no figures): that device.
  if (r.device.empty() && !type.empty()) r.device = type;
}

void derive(OomRecord& r) {
  if (r.reserved_bytes && r.allocated_bytes && !r.reserved_unallocated_bytes) {
    // Both non-negative: the difference cannot overflow.
    r.reserved_unallocated_bytes = std::max<int64_t>(0, *r.reserved_bytes - *r.allocated_bytes);
  }
  if (!r.reserved_bytes && r.allocated_bytes && r.reserved_unallocated_bytes) {
    r.reserved_bytes = sat_add(*r.allocated_bytes, *r.reserved_unallocated_bytes, r);
  }
}

void settle_family(const std::string& s, OomRecord& r) {
  if (r.family == "oomkit_cpu_budget") {
    r.device = "cpu";
    r.complete = icontains(s, "butunallocated");
    return;
  }
  if (r.family == "pytorch_async") {
    r.complete = r.free_bytes.has_value() && r.total_capacity_bytes.has_value();
    return;
  }
  if (r.family == "pytorch_alloc_retry") {  // cut off before "(free: F"
    r.complete = r.requested_bytes.has_value() && r.free_bytes.has_value();
    return;
  }
  if (r.family != "pytorch") {
    r.complete = true;
    return;
  }
  const bool v1 = icontains(s, "totalcapacity;") || icontains(s, "alreadyallocated") ||
                  icontains(s, "reservedintotalbypytorch") || icontains(s, "cached)");
  bool v2 = icontains(s, "hasatotalcapac") || icontains(s, "isallocatedbypytorch") || icontains(s, "butunallocated") ||
            icontains(s, "mpsbackend") || icontains(s, "triedtoallocatemorethan");
  if (!v2) {  // "Tried to allocate 2.00 MiB." ends its sentence in 2.x; 1.x goes on with " (GPU 0; ..."
    if (const size_t p = ifind(s, "triedtoallocate"); p != std::string::npos) {
      auto size = size_at(s, p + 15);
      v2 = size && size->end < s.size() && s[size->end] == '.';
    }
  }
  if (v1) {
    r.family = "pytorch1";
    r.complete = r.reserved_bytes.has_value() || icontains(s, "cached)");
  } else if (v2 || r.device == "mps") {
    r.family = "pytorch2";
    r.complete = r.device == "mps" ? r.allowed_bytes.has_value() : icontains(s, "butunallocated");
  } else {
    r.complete = false;
  }
}

}  // namespace oomkit::diagnose_detail
