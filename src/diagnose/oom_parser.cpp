// The OOM-message parser (see include/oomkit/diagnose/oom_record.h for the families).
//
// How it reads a log, in one pass: a line is looked at only when it (or the start of the next
// line, for a head wrapped over two lines) holds one of the trigger words "memory", "alloc",
// "kill", "kv cache", "exitcode"; such a line is cleaned of ANSI codes and searched for the
// families' heads ("CUDA out of memory", "CUBLAS_STATUS_ALLOC_FAILED", "OOM when allocating
// tensor", ...). A head starts a report; the report's text runs to the next head on the same
// line, or else on over the following lines (their log prefixes removed) until the family's
// last field, a blank line or a traceback line. Fields are then read from that text with every
// whitespace character removed, so a message wrapped anywhere — between words or inside
// "G\niB" — reads the same as the one-line original. Everything is a hand-written scan (no
// std::regex): linear in the log.
#include "oomkit/diagnose/oom_record.h"

#include <algorithm>
#include <array>
#include <bitset>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <optional>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "log_text.h"
#include "oom_fields.h"
#include "oomkit/core/units.h"

namespace oomkit {

std::optional<int64_t> OomRecord::effective_capacity_bytes() const {
  if (allowed_bytes && (!total_capacity_bytes || *allowed_bytes < *total_capacity_bytes)) return allowed_bytes;
  return total_capacity_bytes;
}

namespace {

using namespace diagnose_detail;

constexpr size_t kMaxWindowChars = 4000;  // a report is < 1 KiB; bounds the work per report
constexpr size_t kMaxLineChars = 64 * 1024;  // a longer line is read up to here
constexpr int kMaxContinuationLines = 12;

enum class Kind { kOomkitBudget, kOneLine, kCaching, kAsync };

struct HeadHit {
  size_t pos = 0;
  size_t end = 0;
  const char* family = "";
  const char* subsystem = "";
  Kind kind = Kind::kOneLine;
  bool generic = false;      // "<word> out of memory": validated by what follows
  bool headless = false;     // "Tried to allocate X (GPU 0; ...": a PyTorch message pasted without its head
  bool at_head = false;      // the report starts at its head: no line before it is read as its start
  std::string_view phrase;   // the head's phrase in kHeads ("" for the generic, headless and shell heads)
  std::string device_word;   // the word before "out of memory" for the generic head
  size_t next_skip = 0;      // a head wrapped onto the next line: its characters there
};

// Finds `phrase` (lower case) in `lo` (lower case) from `from`, a space in the phrase matching
// any run of whitespace, also none. Returns the match's [begin, end) or npos.
std::pair<size_t, size_t> phrase_find(std::string_view lo, std::string_view phrase, size_t from = 0) {
  const char first = phrase[0];
  for (size_t i = lo.find(first, from); i != std::string_view::npos; i = lo.find(first, i + 1)) {
    size_t a = i, b = 0;
    bool ok = true;
    while (b < phrase.size()) {
      if (phrase[b] == ' ') {
        while (a < lo.size() && is_space(lo[a])) ++a;
        ++b;
        continue;
      }
      if (a >= lo.size() || lo[a] != phrase[b]) {
        ok = false;
        break;
      }
      ++a;
      ++b;
    }
    if (ok) return {i, a};
  }
  return {std::string_view::npos, 0};
}

// TensorFlow's BFC warning that says it is no failure ("Allocator (GPU_0_bfc) ran out of memory trying
// to allocate 4.00GiB with freed_by_count=0. The caller indicates that this is not a failure, but may
// mean that there could be performance gains if more memory were available"): the allocator falls
// back and the run goes on. Its words in `lo` (lowercased) from `from`, or its second sentence
// opening `next`, the line below (the warning wrapped).
bool tf_not_a_failure(std::string_view lo, size_t from, std::string_view next) {
  return phrase_find(lo, "indicates that this is not a failure", from).first != std::string_view::npos ||
         istarts_with(trim_view(next), "the caller indicates that this is not a failure");
}

// tcmalloc's large-alloc line in `lo` (lowercased) from `from`, just after "tcmalloc: large alloc":
// " <N> bytes == <result> @ <stack>". The byte count N and where its digits begin, when present.
std::optional<std::pair<int64_t, size_t>> tcmalloc_large_alloc_at(std::string_view lo, size_t from) {
  size_t k = from;
  while (k < lo.size() && lo[k] == ' ') ++k;
  size_t end = k;
  const auto n = integer_at(lo, k, &end);
  if (!n || lo.compare(end, 6, " bytes") != 0) return std::nullopt;
  return std::make_pair(*n, k);
}

// Whether that large allocation failed: tcmalloc prints the pointer it returns after "==", "(nil)"
// or "0" for none (gperftools' tcmalloc.cc, ReportLargeAlloc); an address is a success.
bool tcmalloc_alloc_failed(std::string_view lo, size_t from) {
  const auto n = tcmalloc_large_alloc_at(lo, from);
  if (!n) return false;
  const size_t eq = lo.find("==", n->second);
  if (eq == std::string_view::npos || eq > n->second + 40) return false;
  size_t k = eq + 2;
  while (k < lo.size() && lo[k] == ' ') ++k;
  return lo.compare(k, 5, "(nil)") == 0 || (k < lo.size() && lo[k] == '0' && (k + 1 >= lo.size() || lo[k + 1] != 'x'));
}

// TensorFlow's allocations report (report_tensor_allocations_upon_oom), a head of kHeads.
constexpr const char* kAllocationsReport = "current usage from device:";

// faiss's old "Failed to cudaMalloc N bytes" (`e` the phrase's end): the byte count right after it, and the message
// ending there (a cudaMalloc failing with "(error 46 all CUDA-capable devices are busy or unavailable)"
// or ": an illegal memory access was encountered" is no OOM).
bool bare_cudamalloc_bytes(std::string_view lo, size_t e) {
  size_t k = e;
  while (k < lo.size() && lo[k] == ' ') ++k;
  const size_t digits = k;
  while (k < lo.size() && lo[k] >= '0' && lo[k] <= '9') ++k;
  if (k == digits || lo.compare(k, 6, " bytes") != 0) return false;
  // The message ends there: the line's end, a closing quote or backtick, or a full stop before a space
  // ("... 4294967296 bytes\"  when i use ..."); not a reason after it (": an illegal memory access",
  // "(operation not permitted when stream is capturing)").
  k += 6;
  if (k >= lo.size() || lo[k] == '"' || lo[k] == '\'' || lo[k] == '`') return true;
  return lo[k] == '.' && (k + 1 >= lo.size() || lo[k + 1] == ' ');
}

struct HeadDef {
  const char* phrase;
  const char* family;
  const char* subsystem;
  Kind kind;
};

// Specific heads, most specific first; the generic "<word> out of memory" comes after them.
const HeadDef kHeads[] = {
    {"out of memory (oomkit --memory-limit)", "oomkit_cpu_budget", "oomkit_budget", Kind::kOomkitBudget},
    {"mps backend out of memory", "pytorch", "caching_allocator", Kind::kCaching},
    // PyTorch 2.x's caching allocator when a cudaMalloc fails (alloc_block in
    // c10/cuda/CUDACachingAllocator.cpp, LOG(WARNING)): "memory allocation failed with OOM on device
    // 6 while trying to allocate 20971520 bytes (free: 16252928, total: 287428640768)." It then frees
    // its cached blocks and retries; only a second failure raises OutOfMemoryError.
    {"memory allocation failed with oom on device", "pytorch_alloc_retry", "caching_allocator", Kind::kOneLine},
    // The same warning under PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, whose segments grow
    // by mapping pages (2 or 20 MiB, as its logs show): "expandable_segments: memory mapping failed
    // with OOM on device 0 while trying to map 20971520 bytes (free: 4521984, total: 101971460096)".
    {"memory mapping failed with oom on device", "pytorch_alloc_retry", "expandable_segments", Kind::kOneLine},
    {"cuda runtime error (2) : out of memory", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    {"cuda error: out of memory", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    // An error-check macro's "CUDA error 2 in file ../AMReX_Arena.cpp line 169: out of memory !!!"
    // (AMReX's AMREX_GPU_ERROR_CHECK; 2 is cudaErrorMemoryAllocation), read with the words after it.
    {"cuda error 2 in file", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    // Metal's buffer validation (a debug device, llama.cpp on an iPhone): "-[MTLDebugDevice
    // newBufferWithBytesNoCopy:length:options:deallocator:]:700: failed assertion `Buffer Validation
    // newBufferWith*:length 0x86004000 must not exceed 2048 MB.": one buffer above the device's
    // maxBufferLength (max_allocation_bytes), its length in hex.
    {"must not exceed", "device_alloc", "metal_buffer", Kind::kOneLine},
    // PyTorch's MPS allocator refusing one buffer above the device's maxBufferLength
    // (MPSHeapAllocatorImpl::alloc_buffer_block: TORCH_CHECK(size < m_max_buffer_size, "Invalid
    // buffer size: ", format_size(size))): "RuntimeError: Invalid buffer size: 70.96 GB", its "GB"
    // 2^30 bytes (format_size divides by 1024^3).
    {"invalid buffer size:", "device_alloc", "mps_buffer", Kind::kOneLine},
    {"cuda error : out of memory", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    {"hip error: out of memory", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    {"cuda failure 'out of memory'", "cuda_error_oom", "nccl", Kind::kOneLine},
    {"cuda failure 2 'out of memory'", "cuda_error_oom", "nccl", Kind::kOneLine},
    {"failed to cuda calloc", "cuda_error_oom", "nccl", Kind::kOneLine},
    // A library's own cudaMalloc failing (faiss: "failed to cudaMalloc 47064032 bytes (error 2 out
    // of memory)"): an OOM only with the runtime's "out of memory" on its line.
    {"failed to cudamalloc", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    // dlib's CHECK_CUDA: "Error while calling cudaMalloc(&data, new_size*sizeof(float)) in file
    // .../gpu_data.cpp:191. code: 2, reason: out of memory" (with the same condition).
    {"error while calling cudamalloc", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    {"cuda_error_out_of_memory", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    {"cudaerrormemoryallocation", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    {"hiperroroutofmemory", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    {"hip_error_outofmemory", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    {"allocation on device", "pytorch_async", "cuda_malloc_async", Kind::kAsync},
    {"cublas_status_alloc_failed", "cublas_alloc_failed", "cublas", Kind::kOneLine},
    // cuBLAS's handle could not be created ("failed to create cublas handle:
    // CUBLAS_STATUS_NOT_INITIALIZED" in TensorFlow's and XLA's stream executor, PyTorch's
    // "CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`"): cublasCreate allocates
    // device memory, so it fails with the GPU already full (or a broken installation).
    {"cublas_status_not_initialized", "cublas_alloc_failed", "cublas_init", Kind::kOneLine},
    // ROCm's twins, on a HIP device: hipBLAS's ("HIPBLAS_STATUS_ALLOC_FAILED", "HIPBLAS_STATUS_NOT_INITIALIZED
    // when calling `hipblasCreate(handle)`"), rocBLAS's ("failed to create rocBLAS handle:
    // rocblas_status_memory_error", an internal allocation failed) and MIOpen's (miopenStatusAllocFailed).
    {"hipblas_status_alloc_failed", "cublas_alloc_failed", "cublas", Kind::kOneLine},
    {"rocblas_status_memory_error", "cublas_alloc_failed", "cublas", Kind::kOneLine},
    {"hipblas_status_not_initialized", "cublas_alloc_failed", "cublas_init", Kind::kOneLine},
    {"cudnn_status_alloc_failed", "cudnn_alloc_failed", "cudnn", Kind::kOneLine},
    {"miopenstatusallocfailed", "cudnn_alloc_failed", "cudnn", Kind::kOneLine},
    {"defaultcpuallocator: can't allocate memory", "cpu_default_allocator", "cpu_allocator", Kind::kOneLine},
    {"defaultcpuallocator: not enough memory", "cpu_default_allocator", "cpu_allocator", Kind::kOneLine},
    {"torch: not enough memory", "th_cpu_allocator", "cpu_allocator", Kind::kOneLine},
    // ... pasted without its "$ Torch: " head ("not enough memory: you tried to allocate 0GB", an issue's
    // title): TH's own words after it.
    {"not enough memory: you tried to allocate", "th_cpu_allocator", "cpu_allocator", Kind::kOneLine},
    // c10's other DefaultCPUAllocator wording without its head ("[enforce fail at alloc_cpu.cpp:75] err == 0.
    // can't allocate memory: you tried to allocate 268435456 bytes"): its byte count (oom_fields).
    {"can't allocate memory: you tried to allocate", "th_cpu_allocator", "cpu_allocator", Kind::kOneLine},
    {"attempting to allocate", "xla", "xla", Kind::kOneLine},
    // XLA's GPU client placing a jit's baked-in constant (GpuExecutable's buffer for a literal):
    // "INTERNAL: Failed to allocate 98697216 bytes for new constant".
    {"bytes for new constant", "xla", "xla", Kind::kOneLine},
    // The TPU runtime loading a program: "RESOURCE_EXHAUSTED: Error loading program 'jit_f':
    // Attempting to reserve 6.14G at the bottom of memory. That was not possible."
    {"attempting to reserve", "xla", "xla", Kind::kOneLine},
    {"out of memory while trying to allocate", "xla", "xla", Kind::kOneLine},
    {"oom when allocating tensor", "tensorflow", "tensorflow_bfc", Kind::kOneLine},
    {"ran out of memory trying to allocate", "tensorflow", "tensorflow_bfc", Kind::kOneLine},
    // TensorFlow 2 eager: "ResourceExhaustedError: failed to allocate memory [Op:Conv2D]" (no shape).
    {"resourceexhaustederror: failed to allocate memory", "tensorflow", "tensorflow_bfc", Kind::kOneLine},
    {"resource exhausted: failed to allocate memory", "tensorflow", "tensorflow_bfc", Kind::kOneLine},
    // The allocations report TensorFlow appends to its OOM error (RunOptions'
    // report_tensor_allocations_upon_oom): "Current usage from device: /job:localhost/.../device:GPU:0,
    // allocator: GPU_0_bfc" and the largest tensors. Pasted alone it is the OOM's report (no size);
    // after the error it is that error's echo (merged).
    {kAllocationsReport, "tensorflow", "tensorflow_bfc", Kind::kOneLine},
    // Apple's Metal (MLX, llama.cpp, PyTorch's MPS kernels): "[METAL] Command buffer execution failed:
    // Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)".
    {"kiogpucommandbuffercallbackerroroutofmemory", "metal", "metal", Kind::kOneLine},
    {"out of memory: killed process", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    {"out of memory: kill process", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    {"memory cgroup out of memory", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    {"oom-kill:", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    // SLURM's cgroup report: "Detected 1 oom-kill event(s) in StepId=125757.batch. Some of your
    // processes may have been killed by the cgroup out-of-memory handler."
    {"oom-kill event", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    {"cgroup out-of-memory handler", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    // transformers/accelerate with device_map="auto": the model did not fit the GPU, so some of its
    // modules were placed on the CPU or the disk, which a quantized model refuses ("Some modules
    // are dispatched on the CPU or the disk. Make sure you have enough GPU RAM to fit the
    // quantized model."). No size: the whole model is what does not fit.
    {"some modules are dispatched on the cpu or the disk", "model_offload", "device_map", Kind::kOneLine},
    // Host-memory allocations outside PyTorch's allocators: numpy's "Unable to allocate 7.45 GiB for
    // an array with shape (...)", the kernel's ENOMEM ("[Errno 12] Cannot allocate memory": fork,
    // mmap), C++'s std::bad_alloc, Python's MemoryError (at the start of its line).
    {"unable to allocate", "host_alloc", "numpy", Kind::kOneLine},
    {"cannot allocate memory", "host_alloc", "enomem", Kind::kOneLine},
    {"std::bad_alloc", "host_alloc", "bad_alloc", Kind::kOneLine},
    // RAPIDS' device allocator (RMM) naming its size: "std::bad_alloc: CUDA error (failed to allocate
    // 240 bytes) at: .../rmm/mr/device/cuda_memory_resource.hpp" (cuML, cuDF): the GPU's memory.
    {"cuda error (failed to allocate", "device_alloc", "rmm", Kind::kOneLine},
    // ... and its pool's cap: "RMM failure at: .../pool_memory_resource.hpp:196: Maximum pool size exceeded".
    {"maximum pool size exceeded", "device_alloc", "rmm", Kind::kOneLine},
    // ... and libgdf's (cuDF before 0.7) error code for a failed RMM allocation: "GDFError:
    // GDF_MEMORYMANAGER_ERROR" (gdf_error in cudf/types.h, returned when RMM_ALLOC fails).
    {"gdf_memorymanager_error", "device_alloc", "rmm", Kind::kOneLine},
    {"memoryerror", "host_alloc", "python", Kind::kOneLine},
    // The JVM's (Java, Scala, Spark, DJL, MSFragger ...): "java.lang.OutOfMemoryError: Java heap
    // space" / "GC overhead limit exceeded" / "Direct buffer memory": its heap (capped by -Xmx) or
    // the host's RAM behind it.
    {"java.lang.outofmemoryerror", "host_alloc", "jvm", Kind::kOneLine},
    // (Its message without the package, "OutOfMemoryError: Java heap space", as a title or retold.)
    {"outofmemoryerror: java heap space", "host_alloc", "jvm", Kind::kOneLine},
    {"outofmemoryerror: gc overhead limit exceeded", "host_alloc", "jvm", Kind::kOneLine},
    {"outofmemoryerror: direct buffer memory", "host_alloc", "jvm", Kind::kOneLine},
    // Julia's: "ERROR: OutOfMemoryError()" (Base's exception for a failed host allocation; CUDA.jl's
    // device failure is OutOfGPUMemoryError), not a module's exception (torch.cuda.OutOfMemoryError()).
    {"outofmemoryerror()", "host_alloc", "julia", Kind::kOneLine},
    // V8's (Node.js, browsers, Electron, Deno): an ArrayBuffer's backing store the embedder's allocator
    // could not give ("RangeError: Array buffer allocation failed", message-template.h's
    // kArrayBufferAllocationFailed: a typed array, a WASM module's buffer, a downloaded model file;
    // the host's memory or a browser's per-process cap) and the JavaScript heap at V8's own limit
    // ("FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory", raised
    // with --max-old-space-size, often with RAM to spare): host memory's kind, its cap named in the fix.
    {"array buffer allocation failed", "host_alloc", "v8", Kind::kOneLine},
    {"javascript heap out of memory", "host_alloc", "v8", Kind::kOneLine},
    // Android's runtime (ART) in logcat: "E/art: Throwing OutOfMemoryError "Failed to allocate a
    // 111118082 byte allocation with 1048576 free bytes and 94MB until OOM"": the app's Java heap.
    {"throwing outofmemoryerror", "host_alloc", "jvm", Kind::kOneLine},
    // HotSpot failing to commit the memory it reserved (its heap, a thread's stack), as its error
    // report prints it: "# Native memory allocation (malloc) failed to allocate 3293577216 bytes for
    // committing reserved memory.", "(mmap) failed to map N bytes": the process may not have that
    // much (a container's limit, the host's RAM), whatever -Xmx allows. Its warning a few lines above
    // ("os::commit_memory(0x..., 3293577216, 0) failed; error='Cannot allocate memory' (errno=12)";
    // 'Not enough space' where the C library words ENOMEM so) is the same failure: a report when its
    // errno is ENOMEM's.
    {"os::commit_memory(", "host_alloc", "jvm", Kind::kOneLine},
    {"native memory allocation (malloc) failed to allocate", "host_alloc", "jvm", Kind::kOneLine},
    {"native memory allocation (mmap) failed to map", "host_alloc", "jvm", Kind::kOneLine},
    // jemalloc's malloc() failing (SPAdes, Redis, Rust and C++ tools linked with it): "<jemalloc>:
    // Error in malloc(): out of memory. Requested: 12786980896, active: 64869105664" (bytes; active:
    // the pages jemalloc holds for the process's live allocations).
    {"error in malloc(): out of memory", "host_alloc", "jemalloc", Kind::kOneLine},
    // A program's own report of a failed malloc (kraken2 loading its database): "Failed attempt to
    // allocate 95668727220bytes; you may not have enough free memory to load this database."
    {"failed attempt to allocate", "host_alloc", "malloc", Kind::kOneLine},
    // PaddlePaddle's host allocator (CPUAllocator::Alloc, paddle/fluid/memory/detail/system_allocator.cc,
    // posix_memalign failing): "ResourceExhaustedError: Fail to alloc memory of 564023296 size, error code
    // is 12." (bytes; 12 is ENOMEM). Its CUDA allocator words a failure the same way with its CUDA error
    // code (2): find_heads() makes that one a GPU report (family paddle, subsystem paddle_cuda).
    {"fail to alloc memory of", "host_alloc", "paddle_cpu", Kind::kOneLine},
    // gperftools' tcmalloc (Colab's and many Python builds' malloc) on an allocation above its
    // large-alloc threshold: "tcmalloc: large alloc 12884901888 bytes == (nil) @ 0x7f..." when the
    // allocation failed (nil, or 0); with an address after "==" it succeeded and is only a warning.
    {"tcmalloc: large alloc", "host_alloc", "tcmalloc", Kind::kOneLine},
    // Ollama's check before it loads a model into host memory (llm/server.go): "model requires more
    // system memory (18.5 GiB) than is available (12.1 GiB)": requested and free host RAM.
    {"requires more system memory", "host_alloc", "ollama", Kind::kOneLine},
    // R's allocator (R_alloc / allocVector in memory.c): "Error: cannot allocate vector of size 3.2 Gb"
    // (binary Gb: bytes / 1024^3) and "Error: vector memory exhausted (limit reached?)" (R_MAX_VSIZE,
    // or the host's RAM behind it): an R session's host memory.
    {"cannot allocate vector of size", "host_alloc", "r", Kind::kOneLine},
    {"vector memory exhausted", "host_alloc", "r", Kind::kOneLine},
    // R in a Chinese locale (R's zh_CN catalogue): "错误: 无法分配大小为8.9 Gb的向量"; and R's
    // vector too long for the memory to count ("cannot allocate vector of length 3000000000": a
    // length, not bytes).
    {"\xe6\x97\xa0\xe6\xb3\x95\xe5\x88\x86\xe9\x85\x8d\xe5\xa4\xa7\xe5\xb0\x8f\xe4\xb8\xba", "host_alloc", "r", Kind::kOneLine},  // 无法分配大小为
    {"cannot allocate vector of length", "host_alloc", "r", Kind::kOneLine},
    // ... told in the user's words ("an error that it cannot allocate a vector of size 16.4 Gb"): R
    // never prints the "a".
    {"allocate a vector of size", "host_alloc", "r", Kind::kOneLine},
    // R's message in its other catalogues where the words come before the size (R's po/*.po for
    // "cannot allocate vector of size %0.1f Gb"): fr "impossible d'allouer un vecteur de taille
    // 26.8 Go" (Go / Mo: octets), de "kann Vektor der Größe 26.8 GB nicht allozieren", it "non è
    // possibile allocare un vettore di dimensione", es "no se puede ubicar un vector de tamaño",
    // pt_BR "não é possível alocar vetor de tamanho", zh_TW "無法配置大小為 8.9 Gb 的向量".
    {"impossible d'allouer un vecteur de taille", "host_alloc", "r", Kind::kOneLine},
    {"impossible d\xe2\x80\x99" "allouer un vecteur de taille", "host_alloc", "r", Kind::kOneLine},  // ’ (typeset)
    {"kann vektor der gr\xc3\xb6\xc3\x9f" "e", "host_alloc", "r", Kind::kOneLine},                      // Größe
    {"non \xc3\xa8 possibile allocare un vettore di dimensione", "host_alloc", "r", Kind::kOneLine},
    {"no se puede ubicar un vector de tama", "host_alloc", "r", Kind::kOneLine},
    {"n\xc3\xa3o \xc3\xa9 poss\xc3\xadvel alocar vetor de tamanho", "host_alloc", "r", Kind::kOneLine},
    {"\xe7\x84\xa1\xe6\xb3\x95\xe9\x85\x8d\xe7\xbd\xae\xe5\xa4\xa7\xe5\xb0\x8f\xe7\x82\xba", "host_alloc", "r", Kind::kOneLine},  // 無法配置大小為
    // DuckDB's buffer manager (host RAM within its memory_limit): "Out of Memory Error: could not
    // allocate block of 262144 bytes", "... failed to allocate data of size 16.0 MiB (4.4 GiB/4.4 GiB
    // used)", "... failed to pin block of size 256.0 KiB": a block or data, not a texture, and not
    // on a GPU (a renderer's or a game engine's "Out of Memory Error ... on device CUDA").
    {"out of memory error: could not allocate block", "host_alloc", "duckdb", Kind::kOneLine},
    {"out of memory error: failed to allocate block", "host_alloc", "duckdb", Kind::kOneLine},
    {"out of memory error: failed to allocate data of size", "host_alloc", "duckdb", Kind::kOneLine},
    {"out of memory error: failed to pin block", "host_alloc", "duckdb", Kind::kOneLine},
    // PostgreSQL's memory contexts (src/backend/utils/mmgr/mcxt.c): "ERROR:  invalid memory alloc
    // request size 1073774812" (one palloc above MaxAllocSize, 1 GB - 1: refused whatever memory is
    // free) and "DETAIL:  Failed on request of size 8192 in memory context "ExprContext"." (under
    // "ERROR:  out of memory": the backend's malloc failed, host RAM). Sizes in bytes.
    {"invalid memory alloc request size", "host_alloc", "postgres", Kind::kOneLine},
    {"failed on request of size", "host_alloc", "postgres", Kind::kOneLine},
    // PostgreSQL's own "ERROR:  out of memory" / "FATAL:  out of memory" (two spaces after the level,
    // as its elog prints it) when the DETAIL line is not pasted.
    {"error:  out of memory", "host_alloc", "postgres", Kind::kOneLine},
    {"fatal:  out of memory", "host_alloc", "postgres", Kind::kOneLine},
    // MySQL / MariaDB (mysys my_malloc, ER_OUTOFMEMORY 1037/1041): "Out of memory (Needed 1048576
    // bytes)", "ERROR 1041 (HY000): Out of memory; check if mysqld or some other process uses all
    // available memory": the server's host RAM.
    {"out of memory (needed ", "host_alloc", "mysql", Kind::kOneLine},
    {"out of memory; check if mysqld", "host_alloc", "mysql", Kind::kOneLine},
    // SQLite's SQLITE_NOMEM (result code 7): its allocator's malloc failed. As Python's sqlite3
    // raises it ("sqlite3.OperationalError: out of memory"), by its code's name (node-sqlite3's
    // "Error: SQLITE_NOMEM: out of memory", C's sqlite3_errstr) and as the sqlite3 shell prints it
    // ("Runtime error near line 3: out of memory (7)"), Node's better-sqlite3 by its SqliteError class
    // ("SqliteError: out of memory", code 'SQLITE_NOMEM'); Rust's rusqlite by its ErrorCode variant
    // ("SqliteFailure(Error { code: OutOfMemory, extended_code: 7 }, ...)").
    {"sqlite3.operationalerror: out of memory", "host_alloc", "sqlite", Kind::kOneLine},
    {"sqliteerror: out of memory", "host_alloc", "sqlite", Kind::kOneLine},  // Node's better-sqlite3
    {"code: outofmemory, extended_code: 7", "host_alloc", "sqlite", Kind::kOneLine},
    {"sqlite_nomem", "host_alloc", "sqlite", Kind::kOneLine},
    {"near line", "host_alloc", "sqlite", Kind::kOneLine},
    // Redis refusing a write above its maxmemory setting: "OOM command not allowed when used memory >
    // 'maxmemory'": a configured cap, not the host's RAM.
    {"oom command not allowed when used memory", "host_alloc", "redis", Kind::kOneLine},
    // ClickHouse's MemoryTracker: "Memory limit (for query) exceeded: would use 9.32 GiB (attempt to
    // allocate chunk of 4194304 bytes), maximum: 9.31 GiB ... (MEMORY_LIMIT_EXCEEDED)"; also "(total)",
    // "(for user)".
    {"memory limit (for query) exceeded", "host_alloc", "clickhouse", Kind::kOneLine},
    {"memory limit (for user) exceeded", "host_alloc", "clickhouse", Kind::kOneLine},
    {"memory limit (total) exceeded", "host_alloc", "clickhouse", Kind::kOneLine},
    // ... and as newer releases word it: "(total) memory limit exceeded: would use ...".
    {"(for query) memory limit exceeded", "host_alloc", "clickhouse", Kind::kOneLine},
    {"(for user) memory limit exceeded", "host_alloc", "clickhouse", Kind::kOneLine},
    {"(total) memory limit exceeded", "host_alloc", "clickhouse", Kind::kOneLine},
    // Emscripten's heap (a WebAssembly module's linear memory, src/library.js emscripten_resize_heap):
    // "Cannot enlarge memory, requested 2148487168 bytes, but the limit is 2147483648 bytes!" (growth
    // up to MAXIMUM_MEMORY, 2 GiB by default) and, without ALLOW_MEMORY_GROWTH, "Cannot enlarge memory
    // arrays to size 2148487168 bytes (OOM). Either (1) compile with -s INITIAL_MEMORY=X ...": the
    // heap size the module asked for, against a cap set when it was linked.
    {"cannot enlarge memory", "host_alloc", "wasm_heap", Kind::kOneLine},
    // Dask's nanny restarting a worker above its memory_limit ("distributed.nanny - WARNING - Worker
    // exceeded 95% memory budget. Restarting", newer "Worker tcp://... (pid=...) exceeded 95% memory
    // budget. Restarting..."): the worker's host RAM within the limit it was given.
    {"% memory budget", "oom_killer", "dask_nanny", Kind::kOneLine},
    // Its worker's warning before that ("Memory use is high but worker has no data to store to disk.
    // Perhaps some other process is leaking memory?  Process memory: 3.91 GiB -- Worker memory limit:
    // 4.00 GiB"): the worker's own process near its limit.
    {"worker has no data to store to disk", "oom_killer", "dask_nanny", Kind::kOneLine},
    // Ray's memory monitor killing a task or actor as the node's RAM nears its threshold: the raylet's
    // "1 Workers (tasks / actors) killed due to memory pressure (OOM)" and the task's own
    // "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory."
    {"killed due to memory pressure (oom)", "oom_killer", "ray_memory_monitor", Kind::kOneLine},
    {"killed due to the node running low on memory", "oom_killer", "ray_memory_monitor", Kind::kOneLine},
    // ... and before Ray 2.0 its Python monitor's exception (ray/memory_monitor.py, raised in the task
    // as "ray.exceptions.RayTaskError(RayOutOfMemoryError)"): "ray.memory_monitor.RayOutOfMemoryError:
    // More than 95% of the memory on node ip-10-0-0-1 is used (30.53 / 31.42 GB)": the node's host RAM.
    {"rayoutofmemoryerror", "oom_killer", "ray_memory_monitor", Kind::kOneLine},
    // Ray's object store (plasma, in the host's shared memory, /dev/shm) full: "ray.exceptions.
    // ObjectStoreFullError: Failed to put object ... in object store because it is full."
    {"objectstorefullerror", "host_alloc", "ray_object_store", Kind::kOneLine},
    // A DataLoader worker's SIGBUS, told by the main process: its /dev/shm segment could not grow.
    {"unexpected bus error encountered in worker", "oom_killer", "shared_memory", Kind::kOneLine},
    // ... and PaddlePaddle's DataLoader's words for it: "ERROR: Unexpected BUS error encountered in DataLoader
    // worker. This might be caused by insufficient shared memory (shm)".
    {"unexpected bus error encountered in dataloader worker", "oom_killer", "shared_memory", Kind::kOneLine},
    // cuDNN found no algorithm whose workspace fits: PyTorch's wording of a cuDNN allocation failure.
    {"unable to find a valid cudnn algorithm", "cudnn_alloc_failed", "cudnn", Kind::kOneLine},
    {"killed by signal: killed", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    // joblib's loky executor (scikit-learn's n_jobs): TerminatedWorkerError "... or by an excessive memory
    // usage causing the Operating System to kill the worker" (a worker SIGKILLed, its exit code -9).
    {"excessive memory usage causing the operating system to kill the worker", "oom_killer", "linux_oom_killer",
     Kind::kOneLine},  // (not where the exit codes it lists name a segfault, SIGSEGV(-11): read below)
    // A DataLoader worker killed by SIGBUS: its shared-memory segment (/dev/shm) could not grow.
    {"killed by signal: bus error", "oom_killer", "shared_memory", Kind::kOneLine},
    {"exitcode : -9", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    {"signals.sigkill", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    // A launcher's report of a child ended by SIGKILL: DeepSpeed's "... exits with return code = -9",
    // subprocess/torchrun wordings, a container's exit status 137 (128 + 9).
    {"with return code = -9", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    {"with return code -9", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    {"exit code : -9", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    {"exit code -9", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    {"exit code 137", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    {"exited with code 137", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    {"exit status 137", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    // ... as users and Docker Desktop tell it: "it crashes with error code 137".
    {"error code 137", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    {"signal 9 (sigkill)", "oom_killer", "linux_oom_killer", Kind::kOneLine},
    {"can be stored in kv cache", "vllm_kv_cache", "vllm", Kind::kOneLine},
    {"no available memory for the cache blocks", "vllm_kv_cache", "vllm", Kind::kOneLine},
    {"kv cache is needed, which is larger than the available kv cache memory", "vllm_kv_cache", "vllm", Kind::kOneLine},
    // ... as users shorten it: "ValueError: 1.75 GiB KV cache is needed, available 0.13 GiB" (its
    // size's unit before it, as vLLM prints it: not prose, "much more KV cache is needed, available VRAM").
    {"gib kv cache is needed, available", "vllm_kv_cache", "vllm", Kind::kOneLine},
    // text-generation-inference's warm-up: "Not enough memory to handle 16000 total tokens with 2 prefill tokens".
    {"not enough memory to handle", "vllm_kv_cache", "tgi", Kind::kOneLine},
    // XLA: "RESOURCE_EXHAUSTED: Failed to allocate request for 5.66GiB (6075580416B) on device ordinal 0" and
    // the TPU compiler's "Ran out of memory in memory space hbm. Used 8.38G of 8.00G hbm."
    {"failed to allocate request for", "xla", "xla", Kind::kOneLine},
    {"ran out of memory in memory space", "xla", "xla", Kind::kOneLine},
    // PaddlePaddle's allocators (ResourceExhaustedError): "Out of memory error on GPU 0. Cannot
    // allocate 18.062744MB memory on GPU 0, [5.726685GB memory has been allocated and] available
    // memory is only 17.537501MB."
    {"out of memory error on gpu", "paddle", "paddle", Kind::kOneLine},
    // Paddle Fluid (<= 1.x) sizing its GPU memory pool at start-up (GpuMaxChunkSize(),
    // paddle/fluid/platform/gpu_info.cc): "EnforceNotMet: enforce allocating <= available failed,
    // 14802874401 > 12088311552": FLAGS_fraction_of_gpu_memory_to_use of the total, in bytes, above
    // what the device has free.
    {"enforce allocating <= available failed", "paddle", "fluid_pool", Kind::kOneLine},
    // Accelerators' own allocators, outside CUDA ("device_alloc"; the subsystem names which).
    // Vulkan (llama.cpp's ggml_vulkan, ncnn): "ggml_vulkan: Device memory allocation of size
    // 118497280 failed." then "vk::Device::allocateMemory: ErrorOutOfDeviceMemory" (one report;
    // "ErrorOutOfHostMemory" there makes it host RAM), ggml's "Requested buffer size exceeds device
    // memory allocation limit: ErrorOutOfDeviceMemory", the C API's VK_ERROR_OUT_OF_DEVICE_MEMORY
    // and ncnn's "vkAllocateMemory failed -2" (-2 is that code; -1, VK_ERROR_OUT_OF_HOST_MEMORY,
    // is host RAM: a "host_alloc" report, subsystem "vulkan_host"; other codes are not memory).
    // Julia's CUDA.jl: "ERROR: Out of GPU memory trying to allocate 2.000 GiB" (its OutOfGPUMemoryError).
    {"out of gpu memory trying to allocate", "device_alloc", "cuda_jl", Kind::kOneLine},
    // Theano's CUDA backend (CudaNdarray, theano/sandbox/cuda): "MemoryError: Error allocating 240008000
    // bytes of device memory (out of memory). Driver report 95178752 bytes free and 12079136768 bytes
    // total".
    {"bytes of device memory (out of memory)", "device_alloc", "theano", Kind::kOneLine},
    // ... and with its CNMeM pool on: "MemoryError: Error allocating 1073741824 bytes of device memory
    // (CNMEM_STATUS_OUT_OF_MEMORY)."
    {"bytes of device memory (cnmem_status_out_of_memory)", "device_alloc", "theano", Kind::kOneLine},
    // CatBoost's GPU memory pool (TStackLikeMemoryPool::Create, catboost/cuda/cuda_lib/memory_pool/
    // stack_like_memory_pool.h): "Error: Out of memory. Requested 5696 MB; Free 3958.169335 MB", its
    // MB 1024 x 1024 bytes. Only as CatBoost throws it (read below): "~300 MB; free disk" is none.
    // (The same pool serves CatBoost's pinned host memory; its GPU's is the one met in practice.)
    {"mb; free ", "device_alloc", "catboost", Kind::kOneLine},
    // MegEngine's CUDA allocator (its "[mgb] ERR" log): "cudaMalloc failed while requesting 57933824
    // bytes (55.250MiB) of memory; error: out of memory(last_err=2(out of memory) device=0
    // mem_free=29.312MiB mem_tot=24220.312MiB)".
    {"cudamalloc failed while requesting", "device_alloc", "megengine", Kind::kOneLine},
    // ... and its graph's allocator raising it (MegEngine issue #448): "RuntimeError: out of memory
    // while requesting 68719476736 bytes; you can try setting MGB_CUDA_RESERVE_MEMORY to reserve all
    // memory".
    {"out of memory while requesting", "device_alloc", "megengine", Kind::kOneLine},
    // torch-directml (PyTorch on DirectML, Windows' GPUs of any vendor): "RuntimeError: Could not allocate
    // tensor with 58982400 bytes. There is not enough GPU video memory available!"
    {"could not allocate tensor with", "device_alloc", "directml", Kind::kOneLine},
    {"device memory allocation of size", "device_alloc", "vulkan", Kind::kOneLine},
    {"erroroutofdevicememory", "device_alloc", "vulkan", Kind::kOneLine},
    {"vk_error_out_of_device_memory", "device_alloc", "vulkan", Kind::kOneLine},
    {"vkallocatememory failed", "device_alloc", "vulkan", Kind::kOneLine},
    // The Vulkan spec's own descriptions of the two codes, as Rust's ash / vulkano print a
    // vk::Result: "A device memory allocation has failed." (VK_ERROR_OUT_OF_DEVICE_MEMORY), "A host
    // memory allocation has failed." (VK_ERROR_OUT_OF_HOST_MEMORY).
    {"a device memory allocation has failed", "device_alloc", "vulkan", Kind::kOneLine},
    {"a host memory allocation has failed", "host_alloc", "vulkan_host", Kind::kOneLine},
    // ... and their Debug forms: ash's vk::Result ("Err` value: ERROR_OUT_OF_DEVICE_MEMORY"), vulkano's
    // OomError ("Err(OomError(OutOfDeviceMemory))").
    {"error_out_of_device_memory", "device_alloc", "vulkan", Kind::kOneLine},
    {"outofdevicememory", "device_alloc", "vulkan", Kind::kOneLine},
    {"error_out_of_host_memory", "host_alloc", "vulkan_host", Kind::kOneLine},
    {"outofhostmemory", "host_alloc", "vulkan_host", Kind::kOneLine},
    {"erroroutofhostmemory", "host_alloc", "vulkan_host", Kind::kOneLine},
    {"vk_error_out_of_host_memory", "host_alloc", "vulkan_host", Kind::kOneLine},
    // ggml (llama.cpp, whisper.cpp): its CUDA / HIP backend's "ggml_backend_cuda_buffer_type_alloc_buffer:
    // allocating 17536.01 MiB on device 0: cudaMalloc failed: out of memory" and the graph
    // allocator's "failed to allocate ROCm0 buffer of size 18387836928" after it (one report; alone,
    // a "device_alloc" report, subsystem "ggml", the device from the backend's name).
    {"cudamalloc failed: out of memory", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    // MXNet's mshadow CUDA check: "Check failed: err == cudaSuccess (2 vs. 0) Name: MapPlanKernel
    // ErrStr:out of memory" (cudaGetErrorString after "ErrStr:").
    {"errstr:out of memory", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    // Thrust's device algorithms (XGBoost's gpu_hist, cuDF): "terminate called after throwing an
    // instance of 'thrust::system::system_error' what(): parallel_for failed: out of memory": the
    // GPU's memory (its "cudaErrorMemoryAllocation" wording is read by that head above).
    {"parallel_for failed: out of memory", "cuda_error_oom", "thrust", Kind::kOneLine},
    // ggml prints "ggml_backend_cuda_buffer_type_alloc_buffer: allocating X MiB on device N: ..." only
    // when the allocation failed: the same report cut before "cudaMalloc failed" (a paste cut short).
    {"_buffer_type_alloc_buffer: allocating", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    // CTranslate2 (faster-whisper, OpenNMT's translators) checks every CUDA call with
    // THROW_ON_CUDA_ERROR (src/cuda/utils.h): "RuntimeError: CUDA failed with error out of memory",
    // cudaGetErrorString's words after "with error".
    {"cuda failed with error out of memory", "cuda_error_oom", "ctranslate2", Kind::kOneLine},
    // ONNX Runtime's BFC arena (onnxruntime/core/framework/bfc_arena.cc, AllocateRawInternal):
    // "Failed to allocate memory for requested buffer of size 2147483648" (bytes), the arena of
    // whichever execution provider ran the node (CUDA's, or the CPU's).
    {"failed to allocate memory for requested buffer", "device_alloc", "onnxruntime", Kind::kOneLine},
    {"failed to allocate", "device_alloc", "ggml", Kind::kOneLine},
    // llama.cpp's loader giving up on a buffer of the model's weights (llama-model.cpp, load_tensors:
    // "llama_model_load: error loading model: unable to allocate CUDA0 buffer", before 2024 "unable
    // to allocate backend buffer"), as Ollama relays it too ("llama runner process has terminated:
    // error loading model: unable to allocate CUDA0 buffer"); after the graph allocator's sized
    // line, the same report. The CPU's buffer types ("CPU", "CPU_REPACK", "CPU_Mapped") are host RAM.
    {"error loading model: unable to allocate", "device_alloc", "ggml", Kind::kOneLine},
    // ggml's CPU buffers (ggml.c ggml_aligned_malloc: posix_memalign / vm_allocate failing with
    // ENOMEM): "ggml_aligned_malloc: insufficient memory (attempted to allocate 24576.00 MB)", size /
    // 2^20 as "MB"; then the CPU buffer type's "ggml_backend_cpu_buffer_type_alloc_buffer: failed to
    // allocate buffer of size 25769803776" (ggml-backend.cpp): host RAM, one report.
    {"ggml_aligned_malloc: insufficient memory", "host_alloc", "ggml", Kind::kOneLine},
    // ... and ggml_init's own check on that malloc in the ggml.c of 2023 (gpt4all's, whisper.cpp's):
    // "GGML_ASSERT: .../ggml.c:4411: ctx->mem_buffer != NULL" (also "GGML_ASSERT(ctx->mem_buffer !=
    // NULL) failed"): the context's arena could not be had from host RAM; no size printed.
    {"ctx->mem_buffer != null", "host_alloc", "ggml", Kind::kOneLine},
    // MLX's allocators (mlx/backend/metal/allocator.cpp, mlx/backend/cuda/allocator.cpp): a buffer
    // above Metal's maxBufferLength, "[metal::malloc] Attempting to allocate N bytes which is greater
    // than the maximum allowed buffer size of M bytes." (max_allocation_bytes = M); the device's
    // memory, "[malloc] Unable to allocate N bytes." (before MLX 0.24.1 "[malloc_or_wait] ..."); and
    // the count of Metal buffers alive at once, "[metal::malloc] Resource limit (499000) exceeded."
    // (a count, no size).
    {"[metal::malloc] attempting to allocate", "device_alloc", "mlx", Kind::kOneLine},
    {"[metal::malloc] resource limit", "device_alloc", "mlx", Kind::kOneLine},
    {"[malloc_or_wait] unable to allocate", "device_alloc", "mlx", Kind::kOneLine},
    {"[malloc] unable to allocate", "device_alloc", "mlx", Kind::kOneLine},
    {"[metal::malloc] unable to allocate", "device_alloc", "mlx", Kind::kOneLine},
    // ... and its buffer-size words quoted without the tag ("Using mlx I get: Attempting to allocate N
    // bytes which is greater than the maximum allowed buffer size of M bytes.").
    {"which is greater than the maximum allowed buffer size", "device_alloc", "mlx", Kind::kOneLine},
    // ggml's context arena (ggml.c before its graph allocator, and the examples built on it:
    // llama.cpp, whisper.cpp, starcoder.cpp, ggml's gpt-2): "ggml_new_tensor_impl: not enough space
    // in the context's memory pool (needed 412241472, available 411791504)" (later
    // "ggml_new_object: ..."). The arena's size is fixed when the program creates the context
    // (ggml_init_params.mem_size): a size the program computed, not the machine's memory.
    {"not enough space in the context's memory pool", "device_alloc", "ggml_context", Kind::kOneLine},
    // ... and its scratch buffer (ggml_set_scratch, in ggml.c of 2023: "ggml_new_tensor_impl: not enough
    // space in the scratch memory pool (needed 173910528, available 150994944)"), sized by the program
    // alike (chatglm.cpp's SCRATCH_SIZE, llama.cpp's MEM_REQ_SCRATCH0).
    {"not enough space in the scratch memory pool", "device_alloc", "ggml_context", Kind::kOneLine},
    // OpenCV's cv::fastMalloc (host RAM), as 2.x-4.x print it: "OpenCV Error: Insufficient memory
    // (Failed to allocate 192000004 bytes) in cv::OutOfMemoryError", "error: (-4) Failed to allocate
    // N bytes in function OutOfMemoryError", "error: (-4:Insufficient memory) Failed to allocate N
    // bytes in function 'OutOfMemoryError'".
    // MXNet's convolution refusing a workspace below its need (src/operator/convolution-inl.h:
    // "Check failed: (param_.workspace) >= (required_size) Minimum workspace size: 1228800000 Bytes
    // Given: 1073741824 Bytes"): the operator's workspace parameter (MB, 1024 by default) caps it,
    // whatever the device has free; no allocation failed.
    {"(param_.workspace) >= (required_size)", "device_alloc", "mxnet_workspace", Kind::kOneLine},
    // The TPU runtime's "Bad hardware status" (TPUEstimator's "UnavailableError: Bad hardware status:
    // 0x1", "Bad hardware status: Queue is closed"): not the true error, the TPU maintainers' reading
    // in tensorflow/tpu#403, t5#767, automl#955: most often the program outgrew the TPU's HBM (a
    // larger model, batch or image than the settings it was tuned with). No size.
    {"bad hardware status", "device_alloc", "tpu_runtime", Kind::kOneLine},
    // LuaJIT's allocator (Torch7, OpenResty): "luajit: not enough memory" (LUA_ERRMEM). LuaJIT 2.0 on
    // x64 keeps every GC object in the lowest 2 GB of the address space (1 GB on some systems) unless
    // built with GC64: the Lua heap's cap, whatever RAM the machine has (Torch's tensors live outside it).
    {"luajit: not enough memory", "host_alloc", "luajit", Kind::kOneLine},
    // ... and Lua's panic when LUA_ERRMEM is raised outside a protected call (lua_atpanic's default
    // handler prints "PANIC: unprotected error in call to Lua API (not enough memory)"): the same heap.
    {"unprotected error in call to lua api (not enough memory)", "host_alloc", "luajit", Kind::kOneLine},
    // Caffe's host allocation (include/caffe/syncedmem.hpp CaffeMallocHost: CHECK(*ptr) << "host
    // allocation of size " << size << " failed"), glog's "Check failed: *ptr host allocation of size
    // 282240000 failed": a blob's CPU copy, in bytes.
    {"host allocation of size", "host_alloc", "caffe", Kind::kOneLine},
    // Caffe's CUDA_CHECK (include/caffe/util/device_alternate.hpp): "Check failed: error ==
    // cudaSuccess (2 vs. 0)  out of memory" (2 is cudaErrorMemoryAllocation; cudaGetErrorString's
    // words after it): the GPU's memory, no size. Only with those words right after it (read below).
    {"== cudasuccess (2 vs. 0)", "cuda_error_oom", "cuda_runtime", Kind::kOneLine},
    {"insufficient memory (failed to allocate", "host_alloc", "opencv", Kind::kOneLine},
    {"insufficient memory) failed to allocate", "host_alloc", "opencv", Kind::kOneLine},
    {"error: (-4) failed to allocate", "host_alloc", "opencv", Kind::kOneLine},
    // Tenstorrent's tt-metal bank manager: "Out of Memory: Not enough space to allocate 3294625792 B
    // DRAM buffer across 12 banks, where each bank needs to store 274686208 B, but bank size is
    // 1071821792 B (allocated: 784847680 B, free: 286974112 B, largest free block: 216504544 B)".
    {"not enough space to allocate", "device_alloc", "tt_metal", Kind::kOneLine},
    // Sophon's bmlib (BM1684 NPUs): "bm_alloc_gmem failed, dev_id = 0, size = 0x639c00".
    {"bm_alloc_gmem failed", "device_alloc", "bmlib", Kind::kOneLine},
    // Rockchip's RKNN runtime (RK3568 / RK3588 NPUs, whose memory the kernel's IOMMU or CMA maps):
    // "E RKNN: failed to malloc npu memory!, size: 59187712, flags: 0x2" (bytes).
    {"failed to malloc npu memory", "device_alloc", "rknn", Kind::kOneLine},
    // OpenVINO's GPU plugin (OpenCL): "[GPU] Exceeded max size of memory object allocation:
    // requested 2305843008391495680 bytes, but max alloc size supported by device is 4294959104 bytes."
    {"exceeded max size of memory object allocation", "device_alloc", "opencl", Kind::kOneLine},
    // OpenCL's own error codes for a failed allocation (cl.h): CL_MEM_OBJECT_ALLOCATION_FAILURE (-4),
    // a buffer the device could not place, and CL_OUT_OF_RESOURCES (-5), the device's resources
    // (memory, registers, local memory) exhausted for a kernel; no size printed.
    // (pyopencl prints them without "CL_": "clEnqueueWriteBuffer failed: MEM_OBJECT_ALLOCATION_FAILURE",
    // "... failed: OUT_OF_RESOURCES".)
    {"mem_object_allocation_failure", "device_alloc", "opencl", Kind::kOneLine},
    {"cl_out_of_resources", "device_alloc", "opencl", Kind::kOneLine},
    {"failed: out_of_resources", "device_alloc", "opencl", Kind::kOneLine},
    // TensorFlow Lite Micro's tensor arena, a buffer of kTensorArenaSize bytes the program gives the
    // interpreter (SingleArenaBufferAllocator): "Failed to allocate tail memory. Requested: 40,
    // available 0, missing: 40", "Failed to resize buffer. Requested: ...", MicroAllocator's "Arena
    // size is too small for all buffers. Needed 62536 but only 54272 was available."
    {"failed to allocate tail memory. requested:", "device_alloc", "tflm_arena", Kind::kOneLine},
    {"failed to resize buffer. requested:", "device_alloc", "tflm_arena", Kind::kOneLine},
    // Its wording as a program above it reports it (ESPHome's micro_wake_word: "Failed to resize
    // buffer..." then "Failed to allocate tensors for the streaming model"), without the numbers.
    {"failed to resize buffer", "device_alloc", "tflm_arena", Kind::kOneLine},
    {"arena size is too small for all buffers", "device_alloc", "tflm_arena", Kind::kOneLine},
    // TensorRT's allocator (nvinfer1's DefaultAllocator, the execution context's and the builder's
    // buffers): "[TRT] Requested amount of GPU memory (17920000000 bytes) could not be allocated.",
    // "Error Code 1: Cuda Runtime (out of memory)" and "Error Code 2: OutOfMemory (no further
    // information)" on the lines around it: one failure (device_echo merges them), its size in bytes.
    {"requested amount of gpu memory (", "device_alloc", "tensorrt", Kind::kOneLine},
    {"error code 1: cuda runtime (out of memory)", "device_alloc", "tensorrt", Kind::kOneLine},
    {"error code 2: outofmemory", "device_alloc", "tensorrt", Kind::kOneLine},
    // CuPy's memory pool (cupy.cuda.memory.OutOfMemoryError): "Out of memory allocating 805,306,368
    // bytes (allocated so far: 536,870,912 bytes[, limit set to: 1,073,741,824 bytes])."
    {"out of memory allocating", "device_alloc", "cupy", Kind::kOneLine},
    // CuPy <= 6's wording of the same error (Chainer 5 prints it): "out of memory to allocate 205520896
    // bytes (total 16068929536 bytes)", the total being the request plus what the pool holds
    // (cupy/cuda/memory.pyx, _try_malloc: total = size + pool.total_bytes()).
    {"out of memory to allocate", "device_alloc", "cupy", Kind::kOneLine},
};

// Cheap prefilter: does the text hold a trigger word of any head?
// For each byte, the (lowercase) letter a trigger starting with it has second: 'e' after m/M
// ("memory"), ... ; '*' for k/K ("kill", "kv cache"); 0 where no trigger starts.
constexpr std::array<char, 256> kTriggerSecond = [] {
  std::array<char, 256> t{};
  auto both = [&t](char c, char second) {
    t[static_cast<unsigned char>(c)] = second;
    t[static_cast<unsigned char>(c - 32)] = second;
  };
  both('m', 'e');
  both('a', '*');  // "alloc", TensorFlow Lite Micro's "arena size is too small"
  both('k', '*');
  both('e', 'x');
  both('r', 'e');
  both('s', 'i');
  both('d', 'i');
  both('u', 'n');
  both('b', 'l');  // cuBLAS's "CUBLAS_STATUS_NOT_INITIALIZED", hipBLAS's "HIPBLAS_STATUS_NOT_INITIALIZED"
  both('c', 'o');  // "error code 137" (a container's SIGKILL, as users tell it; cheaper here than a '1','3' pair)
  both('h', 'a');  // the TPU runtime's "Bad hardware status"
  both('w', 'o');  // MXNet's "(param_.workspace) >= (required_size)"
  both('o', 'b');  // Ray's "ObjectStoreFullError"
  both('i', 'n');  // PyTorch's MPS allocator's "Invalid buffer size: 70.96 GB"
  t[0xe6] = '\x97';  // R's Chinese "无法分配大小为" (UTF-8 e6 97 a0 ...)
  t[0xe7] = '\x84';  // and its zh_TW "無法配置大小為" (e7 84 a1 ...)
  return t;
}();

bool has_trigger(std::string_view s) {
  // Each trigger is looked for only where its first two letters are: most lines hold none.
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    const char want = kTriggerSecond[static_cast<unsigned char>(s[i])];
    if (want == 0) continue;
    const char d = lower_char(s[i + 1]);
    if (want != '*' && d != want) continue;
    const std::string_view rest = s.substr(i);
    switch (lower_char(s[i])) {
      case 'm':
        if (istarts_with(rest, "memory") || istarts_with(rest, "mem_buffer != null")) return true;  // (ggml_init's assert)
        break;
      case 'a':
        // R's other catalogues: "d'allouer un vecteur", "nicht allozieren", "alocar vetor" (told
        // apart by their third and fifth letters: "al" opens many words).
        if (d == 'l' && rest.size() > 4) {
          const char c2 = lower_char(rest[2]), c4 = lower_char(rest[4]);
          if (c2 == 'l' && ((c4 == 'c' && istarts_with(rest, "alloc")) || (c4 == 'u' && istarts_with(rest, "allouer un vecteur")) ||
                            (c4 == 'z' && istarts_with(rest, "allozieren")))) {
            return true;
          }
          if (c2 == 'o' && istarts_with(rest, "alocar vetor")) return true;
        }
        if (d == 'r' && istarts_with(rest, "arena size is too small")) return true;
        break;
      case 'k':
        if ((d == 'i' && istarts_with(rest, "kill")) || (d == 'v' && istarts_with(rest, "kv cache"))) return true;
        break;
      case 'o':
        if (istarts_with(rest, "objectstorefullerror")) return true;
        break;
      case 'e':
        if (istarts_with(rest, "exitcode") || istarts_with(rest, "exit code") || istarts_with(rest, "exit status") ||
            istarts_with(rest, "exited with code") || istarts_with(rest, "exceed")) {  // Metal's "must not exceed"
          return true;
        }
        break;
      case 'r':
        if (istarts_with(rest, "return code") || istarts_with(rest, "resize buffer")) return true;
        // CatBoost's pool, "Requested 5696 MB; Free 3958.169335 MB", pasted without its "Error: Out of
        // memory." (its head, "mb; free ", within the next 48 bytes).
        if (istarts_with(rest, "requested ") && ifind(rest.substr(0, 48), "mb; free") != std::string_view::npos) return true;
        // OpenCL's CL_OUT_OF_RESOURCES (its CL_MEM_OBJECT_ALLOCATION_FAILURE holds "alloc").
        if (i >= 7 && s[i - 1] == '_' && istarts_with(s.substr(i - 7), "out_of_resources")) return true;
        break;
      case 's':
        if (istarts_with(rest, "signal 9")) return true;
        break;
      case 'd':
        if (istarts_with(rest, "dispatched on the cpu")) return true;
        break;
      case 'u':
        if (rest.size() > 2 && rest[2] == ' ' && istarts_with(rest, "un vector de tama")) return true;
        if (istarts_with(rest, "unable to find a valid cudnn")) return true;
        if (istarts_with(rest, "unexpected bus error encountered in")) return true;
        break;
      case 'b':
        if (istarts_with(rest, "blas_status_not_initialized")) return true;
        break;
      case 'c':
        if (istarts_with(rest, "code 137")) return true;
        break;
      case 'h':
        if (istarts_with(rest, "hardware status")) return true;
        break;
      case 'i':
        if (istarts_with(rest, "invalid buffer size:")) return true;
        break;
      case 'w':
        if (istarts_with(rest, "workspace) >= (required_size)")) return true;
        break;
      case '\xe6':  // R's message in a Chinese locale: "无法分配大小为"
        if (rest.rfind("\xe6\x97\xa0\xe6\xb3\x95\xe5\x88\x86\xe9\x85\x8d\xe5\xa4\xa7\xe5\xb0\x8f", 0) == 0) return true;
        break;
      case '\xe7':  // zh_TW: "無法配置大小"
        if (rest.rfind("\xe7\x84\xa1\xe6\xb3\x95\xe9\x85\x8d\xe7\xbd\xae\xe5\xa4\xa7\xe5\xb0\x8f", 0) == 0) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

bool device_word_named(const std::string& word) {
  return !device_type_from_word(word).empty() || lower(word) == "gpu";
}

// The generic head must be followed by "Tried to allocate" or end its sentence: "CUDA out of
// memory errors are common" in prose is not a report.
bool generic_head_is_report(const std::string& device_word, std::string_view squashed_tail, bool error_line = false) {
  size_t i = 0;
  while (i < squashed_tail.size() && std::string_view(".,:;!'\"`)]").find(squashed_tail[i]) != std::string_view::npos) ++i;
  std::string_view rest = squashed_tail.substr(i);
  // "(XxxError:)?Tried to allocate"
  size_t e = 0;
  while (e < rest.size() && is_alpha(rest[e])) ++e;
  if (e > 5 && e + 1 < rest.size() + 1 && rest.substr(0, e).size() >= 5 && rest.substr(e - 5, 5) == "Error" &&
      e < rest.size() && rest[e] == ':') {
    if (istarts_with(rest.substr(e + 1), "triedtoallocate")) return true;
  }
  if (istarts_with(rest, "triedtoallocate")) return true;
  // "RuntimeError: after cudaLaunch in triple_chevron_launcher::launch(): out of memory": an error
  // line that ends with the head.
  if (error_line && (squashed_tail.empty() || squashed_tail == "." || squashed_tail == "!")) return true;
  if (!device_word_named(device_word)) return false;
  return squashed_tail.empty() || std::string_view(".:;!'\"`)]").find(squashed_tail[0]) != std::string_view::npos;
}

// A shell's report of SIGKILL: the whole line "Killed" (markdown quotes around it allowed), bash's
// "./run.sh: line 3: 4711 Killed   python ...", zsh's "[1]    14875 killed     python main.py".
bool shell_killed(std::string_view line, size_t& pos) {
  std::string_view t = trim_view(line);
  while (!t.empty() && (t.front() == '`' || t.front() == '"' || t.front() == '\'' || t.front() == '>')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == '`' || t.back() == '"' || t.back() == '\'' || t.back() == '.')) t.remove_suffix(1);
  t = trim_view(t);
  if (t == "Killed" || t == "killed") {
    pos = static_cast<size_t>(t.data() - line.data());
    return true;
  }
  for (const char* word : {"Killed", "killed"}) {
    for (size_t p = line.find(word); p != std::string_view::npos; p = line.find(word, p + 1)) {
      size_t j = p;
      while (j > 0 && line[j - 1] == ' ') --j;
      size_t d = j;
      while (d > 0 && is_digit(line[d - 1])) --d;
      const bool after_pid = d < j && j < p && (d == 0 || line[d - 1] == ' ');
      const bool then_space = p + 6 < line.size() && line[p + 6] == ' ';
      if (!after_pid || !then_space) continue;
      size_t before = d;
      while (before > 0 && line[before - 1] == ' ') --before;
      const bool bash = ifind(line.substr(0, d), "line ") != std::string_view::npos;
      const bool zsh_job = before > 0 && line[before - 1] == ']';  // "[1]    14875 killed"
      if (bash || zsh_job) {
        pos = zsh_job ? line.rfind('[', before - 1) : d;
        if (pos == std::string_view::npos) pos = d;
        return true;
      }
    }
  }
  return false;
}

// `next` is the next line, cleaned, when known: a head whose report goes on there is checked
// against it (PaddlePaddle's message wrapped after "on GPU 0.").
// tt-metal's "<N> B <KIND> buffer" right after "not enough space to allocate" (`lo` lower case,
// from `from`): the bank manager's own wording ("32768 B L1 buffer", "5368709120 B DRAM buffer").
bool tt_metal_buffer_follows(std::string_view lo, size_t from) {
  size_t k = from;
  auto spaces = [&] {
    while (k < lo.size() && lo[k] == ' ') ++k;
  };
  spaces();
  const size_t digits_begin = k;
  while (k < lo.size() && is_digit(lo[k])) ++k;
  if (k == digits_begin) return false;
  spaces();
  if (k + 1 >= lo.size() || lo[k] != 'b' || lo[k + 1] != ' ') return false;
  ++k;
  spaces();
  const size_t kind_begin = k;
  while (k < lo.size() && (is_alpha(lo[k]) || is_digit(lo[k]) || lo[k] == '_')) ++k;
  if (k == kind_begin) return false;
  return lo.substr(k, 7) == " buffer";
}

// An error code's name in C source pasted into a log: a comment ("//", "/*"), "#define", "case ",
// a comparison (" == "), a string returned or a table's entry ("return \"...", "{CL_"). `lo` is
// lower case.
bool error_code_in_source(std::string_view lo) {
  return contains_any(lo, {"/*", "//", "case ", "#define", " == ", "return \"", "{cl_"});
}

std::vector<HeadHit> find_heads(const std::string& line, const std::string& next = {}) {
  std::vector<HeadHit> hits;
  const std::string lo = lower(line);
  // The line's adjacent character pairs (pair_bit(), 4096 bits): a head whose first two or last two
  // characters (neither a space, which phrase_find() matches to any run of whitespace) are not a
  // pair of the line is not looked for (one pass over the line in place of one search per head).
  std::bitset<4096> pairs;
  for (size_t i = 0; i + 1 < lo.size(); ++i) pairs.set(pair_bit(lo[i], lo[i + 1]));
  auto absent = [&](char a, char b) { return a != ' ' && b != ' ' && !pairs.test(pair_bit(a, b)); };
  for (const HeadDef& h : kHeads) {
    const std::string_view ph = h.phrase;
    if (ph.size() >= 2 && (absent(ph[0], ph[1]) || absent(ph[ph.size() - 2], ph[ph.size() - 1]))) continue;
    for (auto [b, e] = phrase_find(lo, h.phrase); b != std::string::npos; std::tie(b, e) = phrase_find(lo, h.phrase, e)) {
      HeadHit hit;
      hit.pos = b;
      hit.end = e;
      hit.family = h.family;
      hit.subsystem = h.subsystem;
      hit.kind = h.kind;
      hit.phrase = h.phrase;
      const std::string_view family = h.family;
      // PaddlePaddle's "Fail to alloc memory of N size, error code is C": its host allocator's with C
      // 12 (ENOMEM from posix_memalign), its CUDA allocator's with another code (2,
      // cudaErrorMemoryAllocation, cuda_allocator.cc): a GPU report of the paddle family then; with
      // no code on the line, none (the message around it tells which allocator failed).
      if (std::string_view(h.subsystem) == "paddle_cpu") {
        const size_t code = lo.find("error code is ", e);
        if (code == std::string::npos) continue;
        const size_t c = code + 14;
        const bool enomem = lo.compare(c, 2, "12") == 0 && (c + 2 >= lo.size() || !is_digit(lo[c + 2]));
        if (!enomem) {
          hit.family = "paddle";
          hit.subsystem = "paddle_cuda";
        }
      }
      if (h.kind == Kind::kOomkitBudget) {  // "CPU out of memory (oomkit ...)": start at "CPU"
        if (hit.pos >= 4 && lo.compare(hit.pos - 4, 4, "cpu ") == 0) hit.pos -= 4;
      }
      if (h.kind == Kind::kAsync) {  // "Allocation on device 0 would exceed allowed memory. (out of memory)"
        const auto [wb, we] = phrase_find(lo, "would exceed allowed memory", e);
        if (wb == std::string::npos || wb - e > 12) {
          // The message cut to its head, as ComfyUI's error report and log print it
          // ("Exception Message: Allocation on device ", "torch.OutOfMemoryError: Allocation on
          // device", "!!! Exception during processing !!! Allocation on device", alone on the line in
          // its error dialog): nothing after it on the line, and before it nothing or an error told
          // (an exception's name, "failed:", "!!!"), not a heading ("Allocation on device 0" in a
          // summary, "INFO: Allocation on device").
          size_t k = e;
          while (k < lo.size() && (lo[k] == ' ' || lo[k] == '\t' || lo[k] == '\r')) ++k;
          if (k < lo.size()) continue;
          size_t before = b;
          while (before > 0 && (lo[before - 1] == ' ' || lo[before - 1] == '\t')) --before;
          // The phrase alone on its line is ComfyUI's error dialog.
          if (before > 0) {
            if (lo[before - 1] != ':' && lo[before - 1] != '*' && lo[before - 1] != '!') continue;
            const std::string_view lead = std::string_view(lo).substr(before > 60 ? before - 60 : 0, before > 60 ? 60 : before);
            if (lead.find("error") == std::string_view::npos && lead.find("exception") == std::string_view::npos &&
                lead.find("failed") == std::string_view::npos && lead.find("!!!") == std::string_view::npos) {
              continue;
            }
          }
        } else {
          hit.end = we;
          const auto [ob, oe] = phrase_find(lo, ". (out of memory)", we);
          if (ob == we) hit.end = oe;
        }
      }
      if (family == "xla" && (std::string_view(h.phrase) == "attempting to allocate" ||
                              std::string_view(h.phrase) == "attempting to reserve")) {
        const size_t from = b > 80 ? b - 80 : 0;
        if (lo.find("resource", from) > b && phrase_find(lo, "not possible", e).first == std::string::npos) continue;
      }
      // TensorFlow's BFC warning that says it is no failure (tf_not_a_failure()), wrapped or not.
      if (family == "tensorflow" &&
          tf_not_a_failure(lo, e, std::string_view(h.phrase) == "ran out of memory trying to allocate" ? next : "")) {
        continue;
      }
      // TensorFlow's allocations report names its allocator ("allocator: GPU_0_bfc"); "Current
      // usage from device: cuda:0, memory allocated ..." in another program's log is a status line.
      // It and the allocator's retry warning start at their heads.
      if (hit.phrase == kAllocationsReport && lo.find("allocator", e) == std::string::npos) continue;
      // (MLX's tagged words, MegEngine's "[mgb] ERR cudaMalloc failed ..." and llama.cpp's loader line
      // are whole on their line: a shell command or a progress line before them is none of theirs.)
      hit.at_head = hit.phrase == kAllocationsReport || family == "pytorch_alloc_retry" || std::string_view(h.subsystem) == "fluid_pool" ||
                    std::string_view(h.subsystem) == "ggml_context" || std::string_view(h.subsystem) == "mlx" ||
                    std::string_view(h.subsystem) == "megengine" || hit.phrase == "error loading model: unable to allocate";
      // A library's cudaMalloc failing is an OOM only with the runtime's "out of memory" after it, or
      // (faiss before 1.5: "Failed to cudaMalloc 4294967296 bytes", no error code) with the message
      // ending at its byte count (bare_cudamalloc_bytes()).
      if ((hit.phrase == "failed to cudamalloc" || hit.phrase == "error while calling cudamalloc" ||
           hit.phrase == "cudamalloc failed while requesting") &&
          lo.find("out of memory", e) == std::string::npos && !(hit.phrase == "failed to cudamalloc" && bare_cudamalloc_bytes(lo, e))) {
        continue;
      }
      // "error code 137" in a user's words is a kill for memory only where a run is told ending with
      // it ("crashes / exits / fails / dies with error code 137", "I got error code 137"); not asked,
      // denied, defined as something else, after the user's own kill -9 or a docker stop.
      // Read in the clause that holds it ("I encountered error code 137 while setting it up. How can I
      // fix this?" asks of the fix, not of the code).
      if (hit.phrase == "error code 137") {
        const std::string_view clause = clause_at(lo, b);
        if (!contains_any(clause, {"crash", "exit", "fail", "die", "died", "dies", "killed", "terminat", "stopp", "stops",
                                   "encounter", "got ", "get ", "getting"}) ||
            contains_any(clause, {"?", "never", "not ", "n't", "kill -9", "kill -s", "docker stop", "docker kill", "means",
                                  "stands for", "api ", "http", "rate limit", "launcher"})) {
          continue;
        }
      }
      // ggml_vulkan's allocation "of size N failed"; tt-metal's "N B <KIND> buffer": their own
      // wordings, not a user's "not enough space to allocate the buffer on disk". tt-metal's
      // "Out of Memory: " before its phrase is the message's too.
      if (hit.phrase == "device memory allocation of size") {  // "... of size 118497280 failed."
        size_t k = e;
        while (k < lo.size() && lo[k] == ' ') ++k;
        const size_t digits_begin = k;
        while (k < lo.size() && is_digit(lo[k])) ++k;
        while (k < lo.size() && lo[k] == ' ') ++k;
        if (k == digits_begin || lo.compare(k, 6, "failed") != 0) continue;
      }
      if (hit.phrase == "not enough space to allocate") {
        if (!tt_metal_buffer_follows(lo, e)) continue;
        constexpr std::string_view kOutOfMemory = "out of memory: ";
        if (b >= kOutOfMemory.size() && lo.compare(b - kOutOfMemory.size(), kOutOfMemory.size(), kOutOfMemory) == 0) {
          hit.pos = b - kOutOfMemory.size();
        }
      }
      // PostgreSQL's elog level as it prints it: "ERROR:  out of memory" (two spaces, the level a word
      // of its own), not "OutOfMemoryError: Out of memory allocating ..." or "CUDA error: out of memory".
      if (std::string_view(h.subsystem) == "postgres" && std::string_view(h.phrase).find(":  out of memory") != std::string_view::npos &&
          ((b > 0 && is_alpha(lo[b - 1])) || lo.compare(b + 6, 2, "  ") != 0 || (b + 8 < lo.size() && lo[b + 8] == ' '))) {
        continue;
      }
      // The sqlite3 shell's "... error near line N: out of memory (7)": the code after the words.
      if (std::string_view(h.subsystem) == "sqlite" && hit.phrase == std::string_view("near line")) {
        // Since 3.3x "... error near line N: out of memory (7)"; older shells "Error: near line N: out of memory".
        const size_t words = lo.find(": out of memory", e);
        if (words == std::string::npos || words > e + 12) continue;
        const bool coded = lo.compare(words, 19, ": out of memory (7)") == 0;
        if (!coded && !(b >= 7 && lo.compare(b - 7, 7, "error: ") == 0)) continue;
        hit.end = words + (coded ? 19 : 15);
      }
      // SQLITE_NOMEM or OpenCL's codes in C source ("case SQLITE_NOMEM:", a comment, a #define, a
      // comparison, a table of names) name the code, no failure.
      if ((std::string_view(h.subsystem) == "sqlite" || std::string_view(h.subsystem) == "opencl") &&
          error_code_in_source(lo)) {
        continue;
      }
      if (std::string_view(h.subsystem) == "sqlite" && hit.phrase == std::string_view("sqlite_nomem")) {
        const auto [wb, we] = phrase_find(lo, ": out of memory", e);  // "SQLITE_NOMEM: out of memory": one report
        if (wb == e) hit.end = we;
      }
      if (std::string_view(h.subsystem) == "duckdb" &&
          (lo.find("gpu") != std::string::npos || lo.find("cuda") != std::string::npos || lo.find("on device") != std::string::npos)) {
        continue;
      }
      // ONNX Runtime's message as it prints it, not quoted in advice ('if you see "Failed to allocate
      // memory for requested buffer of size ..."').
      if (std::string_view(h.subsystem) == "onnxruntime") {
        size_t k = b;
        while (k > 0 && lo[k - 1] == ' ') --k;
        if (k > 0 && (lo[k - 1] == '"' || lo[k - 1] == '\'' || lo[k - 1] == '`' ||
                      (k >= 3 && lo.compare(k - 3, 3, "\xe2\x80\x9c") == 0))) {  // “
          continue;
        }
      }
      // TensorFlow Lite Micro's arena told without its numbers: the phrase ends its line ("Failed to
      // resize buffer..." / "Failed to resize buffer."), not a sentence about another buffer ("Failed
      // to resize buffer for image: ...", "Failed to resize buffer in gradio's stream").
      if (hit.phrase == "failed to resize buffer") {
        size_t k = e;
        while (k < lo.size() && (lo[k] == '.' || lo[k] == ' ' || lo[k] == '\r' || lo[k] == '!')) ++k;
        if (k < lo.size()) continue;
      }
      // CuPy's wording: its pool's "(allocated so far: ..." or CuPy named ("Out of memory allocating
      // N bytes." alone is also XLA's CPU runtime's and other programs').
      // (Its older wording, "... bytes (total N bytes)": the total after it, or CuPy named.)
      if (std::string_view(h.subsystem) == "cupy" && lo.find("allocated so far", e) == std::string::npos &&
          lo.find("bytes (total ", e) == std::string::npos && lo.find("cupy") == std::string::npos) {
        continue;
      }
      // ggml's graph allocator: "failed to allocate <BACKEND> buffer of size <N>" only (not XLA's
      // "Failed to allocate request for", not a user's "failed to allocate memory").
      const bool loader = hit.phrase == "error loading model: unable to allocate";
      if ((hit.phrase == "failed to allocate" || loader) && std::string_view(h.subsystem) == "ggml") {
        size_t k = e;
        while (k < lo.size() && lo[k] == ' ') ++k;
        const size_t backend = k;
        while (k < lo.size() && (is_alpha(lo[k]) || is_digit(lo[k]) || lo[k] == '_')) ++k;
        const std::string_view name = std::string_view(lo).substr(backend, k - backend);
        if (!loader && lo.compare(backend, 15, "buffer of size ") == 0) {
          k = backend;
          // A buffer type's own allocator: "ggml_backend_cpu_buffer_type_alloc_buffer: failed to
          // allocate buffer of size N", the CPU's (and AMX's) host RAM, another backend's device.
          const size_t fn = lo.rfind("_buffer_type_alloc_buffer", b);
          if (fn == std::string::npos || fn + 40 < b || k + 15 >= lo.size() || !is_digit(lo[k + 15])) {
            continue;
          }
          const size_t fn_begin = lo.rfind("ggml_backend_", fn);
          const std::string_view type = fn_begin == std::string::npos || fn_begin + 64 < fn
                                            ? std::string_view()
                                            : std::string_view(lo).substr(fn_begin + 13, fn - fn_begin - 13);
          if (type == "cpu" || type == "amx") {
            hit.family = "host_alloc";
            hit.subsystem = "ggml";
          }
        } else {
          if (k == backend || lo.compare(k, loader ? 7 : 16, loader ? " buffer" : " buffer of size ") != 0) continue;
          if (!loader && (k + 16 >= lo.size() || !is_digit(lo[k + 16]))) continue;
          // ggml's buffer types only: a backend's name and index (CUDA0, ROCm1, Vulkan0, MTL0, SYCL0)
          // or CPU / Metal, with an optional "_Host", "_Mapped", "_Split", "_REPACK" ...; not
          // "output", "DMA". The loader before 2024 said "backend" only.
          bool known = loader && name == "backend";
          for (std::string_view kind : {"cuda", "rocm", "musa", "sycl", "vulkan", "cann", "opencl", "metal", "mtl", "cpu"}) {
            if (known || name.rfind(kind, 0) != 0) continue;
            size_t j = kind.size();
            while (j < name.size() && is_digit(name[j])) ++j;
            known = j == name.size() || name[j] == '_';
          }
          if (!known) continue;
          if (name.rfind("cpu", 0) == 0 || name.find("_host") != std::string_view::npos) {  // the host's (pinned) memory
            hit.family = "host_alloc";
            hit.subsystem = "ggml";
          }
        }
      }
      // Caffe's CUDA_CHECK: cudaGetErrorString's words right after the codes, and the message from
      // glog's "Check failed:" where it is on the line.
      if (hit.phrase == "== cudasuccess (2 vs. 0)") {
        const size_t words = lo.find("out of memory", e);
        if (words == std::string::npos || words > e + 8) continue;
        hit.end = words + 13;
        const size_t check = lo.rfind("check failed:", b);
        if (check != std::string::npos && check + 40 > b) hit.pos = check;
      }
      // ggml_init's assert asked about or told gone ("what does GGML_ASSERT ... ctx->mem_buffer != NULL
      // mean?", "the old GGML_ASSERT ... is gone, now it runs fine"): no failure of this run.
      if (hit.phrase == "ctx->mem_buffer != null" &&
          (asked_at(lo, b) || contains_any(lo, {"what does", " mean?", "never hit", "is gone", "no longer", "runs fine",
                                                "works fine", "fixed"}))) {
        continue;
      }
      // The TPU runtime's "Bad hardware status" as TPUEstimator raises it (UnavailableError, "Queue is
      // closed", the status's hex code) or a TPU named on its line; not another runtime's words ("NCCL
      // ... bad hardware status" on two RTX 3090s) nor a TPU denied ("(not TPU)").
      if (hit.phrase == "bad hardware status" &&
          (!contains_any(lo, {"unavailableerror", "queue is closed", "status: 0x", "tpu"}) ||
           contains_any(lo, {"not tpu", "not a tpu", "no tpu", "nccl", "faq"}))) {
        continue;
      }
      // tcmalloc's large allocation is a failure only where it returned none: "== (nil)", "== 0".
      if (hit.phrase == "tcmalloc: large alloc" && !tcmalloc_alloc_failed(lo, e)) continue;
      if (hit.phrase == "cuda error 2 in file") {
        const size_t words = lo.find("out of memory", e);
        if (words == std::string::npos || words > e + 200) continue;
        hit.end = words + 13;  // the message runs to cudaGetErrorString's words
      }
      // The MPS allocator's words carry the buffer's size as PyTorch's format_size() prints it, a number then
      // " GB", " MB", " KB" or " bytes" ("Invalid buffer size: 70.96 GB"): not libpng's "Invalid buffer size:
      // 4096 (expected 16384)", gRPC's "Invalid buffer size: 0" nor another library's bare count.
      if (std::string_view(h.subsystem) == "mps_buffer") {
        size_t k = e;
        while (k < lo.size() && lo[k] == ' ') ++k;
        const size_t d = k;
        while (k < lo.size() && (is_digit(lo[k]) || lo[k] == '.')) ++k;
        const std::string_view unit = std::string_view(lo).substr(k);
        if (k == d || !(unit.rfind(" gb", 0) == 0 || unit.rfind(" mb", 0) == 0 || unit.rfind(" kb", 0) == 0 ||
                        unit.rfind(" bytes", 0) == 0)) {
          continue;
        }
      }
      // XLA's constant placed is logged too ("Allocated 98697216 bytes for new constant"): only its failure;
      // and with the driver's code spelled after it (": CUDA_ERROR_OUT_OF_MEMORY: out of memory") that head's
      // report is the one.
      if (hit.phrase == "bytes for new constant" &&
          (lo.rfind("failed to allocate", b) == std::string::npos || lo.find("out of memory", e) != std::string::npos ||
           lo.find("cuda_error", e) != std::string::npos)) {
        continue;
      }
      if (std::string_view(h.subsystem) == "metal_buffer") {
        // Metal's words only: "newBufferWith...:length 0x... must not exceed N MB".
        const size_t len = lo.rfind("length 0x", b);
        if (len == std::string::npos || len + 40 < b || lo.find("newbufferwith") == std::string::npos) continue;
        hit.pos = lo.rfind("newbufferwith", len);
      }
      // MLX's own words as it raises them, not a user's "[malloc] unable to allocate" heading a
      // note: its bracketed tag, then the count of bytes (or the resource limit's count).
      if (std::string_view(h.subsystem) == "mlx") {
        size_t k = e;
        while (k < lo.size() && lo[k] == ' ') ++k;
        const bool limit = hit.phrase == "[metal::malloc] resource limit";
        const bool untagged = hit.phrase == "which is greater than the maximum allowed buffer size";
        if (untagged) {
          // The request before it: "Attempting to allocate N bytes which is greater ...".
          const size_t a = lo.rfind("attempting to allocate ", b);
          if (a == std::string::npos || a + 60 < b || !is_digit(lo[a + 23])) continue;
          hit.pos = a;
        } else if (limit ? (k >= lo.size() || lo[k] != '(') : (k >= lo.size() || !is_digit(lo[k]))) {
          continue;
        }
      }
      // ncnn's VkResult: -2 the device's memory, -1 the host's; any other code is not memory.
      if (hit.phrase == "vkallocatememory failed") {
        size_t k = e;
        while (k < lo.size() && lo[k] == ' ') ++k;
        auto code_is = [&](char digit) {
          return k + 1 < lo.size() && lo[k] == '-' && lo[k + 1] == digit && (k + 2 >= lo.size() || !is_digit(lo[k + 2]));
        };
        if (!code_is('2') && !code_is('1')) continue;
        if (code_is('1')) {
          hit.family = "host_alloc";
          hit.subsystem = "vulkan_host";
        }
      }
      // PaddlePaddle's own sentence goes on "... on GPU 0. Cannot allocate X memory ...", on this
      // line or, wrapped, the next; a user's "an out of memory error on GPU 1 after a few epochs"
      // is prose, read by mentioned_oom().
      if (family == "paddle" && std::string_view(h.subsystem) == "paddle" && phrase_find(lo, "cannot allocate", e).first > e + 24 &&
          !(trim_view(std::string_view(lo).substr(e)).size() <= 4 && lower(next.substr(0, 20)).rfind("cannot allocate", 0) == 0)) {
        continue;
      }
      // The JVM's exception and ggml's arena message as printed: first on the line, after a name
      // and its colon ("Caused by: ", "ggml_new_object: "), an exception's words ("Exception in
      // thread \"main\" ") or a log prefix; not quoted in a sentence ("the javadoc says it may
      // throw java.lang.OutOfMemoryError").
      if (std::string_view(h.subsystem) == "jvm" || std::string_view(h.subsystem) == "ggml_context") {
        const std::string_view lead = trim_view(std::string_view(lo).substr(0, b));
        // A log prefix ("[ERROR] ", "E   ", a timestamp and level) ends in ']' or is short.
        if (!lead.empty() && lead.back() != ':' && lead.back() != ']' && lead.size() > 12 &&
            lead.find("exception") == std::string_view::npos) {
          continue;
        }
      }
      // ggml's line cut short only: the whole one is read by "cudaMalloc failed: out of memory" (or
      // tells another error).
      if (h.phrase == std::string_view("_buffer_type_alloc_buffer: allocating") &&
          (lo.find("malloc failed", e) != std::string::npos || lo.find("failed:", e) != std::string::npos)) {
        continue;
      }
      // CatBoost's pool as it throws it: "Requested <number> MB" right before "MB; Free", "<number> MB"
      // after it closing the message, and nothing but its own "Error: Out of memory." (or a quote, a
      // log prefix's ']') before "Requested": not "the job requested 300 MB; free 200 MB was
      // left on the scratch disk", "Pod status: requested 512 mb; free 128 mb on node".
      if (std::string_view(h.subsystem) == "catboost") {
        size_t k = b;
        while (k > 0 && lo[k - 1] == ' ') --k;
        const size_t digits_end = k;
        while (k > 0 && (is_digit(lo[k - 1]) || lo[k - 1] == '.')) --k;
        if (k == digits_end || !std::any_of(lo.begin() + static_cast<std::ptrdiff_t>(k),
                                            lo.begin() + static_cast<std::ptrdiff_t>(digits_end), is_digit)) {
          continue;
        }
        while (k > 0 && lo[k - 1] == ' ') --k;
        if (k < 9 || lo.compare(k - 9, 9, "requested") != 0) continue;
        std::string_view lead = trim_view(std::string_view(lo).substr(0, k - 9));
        while (!lead.empty() && (lead.back() == '`' || lead.back() == '"' || lead.back() == '\'')) lead.remove_suffix(1);
        lead = trim_view(lead);
        const bool own_head = lead.empty() || lead.back() == ']' ||
                              (lead.size() >= 14 && lead.compare(lead.size() - 14, 14, "out of memory.") == 0);
        if (!own_head) continue;
        size_t f = e;
        while (f < lo.size() && (is_digit(lo[f]) || lo[f] == '.')) ++f;
        if (f == e || lo.compare(f, 3, " mb") != 0) continue;
        const std::string_view tail = trim_view(std::string_view(lo).substr(f + 3));
        if (!std::all_of(tail.begin(), tail.end(), [](char c) { return c == '`' || c == '"' || c == '\'' || c == '.' || c == ' '; })) {
          continue;
        }
      }
      if (family == "host_alloc") {
        const std::string_view sub = h.subsystem;
        // Theano's CUDA allocation raised as Python's MemoryError ("MemoryError: Error allocating N bytes
        // of device memory (out of memory)"): the device's report, which its own head reads.
        if (sub == "python" && (lo.find("bytes of device memory (out of memory)") != std::string::npos ||
                                lo.find("bytes of device memory (cnmem_status_out_of_memory)") != std::string::npos)) {
          continue;
        }
        // R's message as R prints it: first on the line, or after "Error: " / "Error in <call> : "
        // (a log prefix "[1] " allowed); not quoted in code (tryCatch, grepl("cannot allocate vector
        // of size", ...)) nor in advice or documentation ("If you see 'Error: cannot allocate ...'").
        if (sub == "r") {
          constexpr std::string_view kZhError = "\xe9\x94\x99\xe8\xaf\xaf";  // 错误 (zh: error)
          constexpr std::string_view kZhColon = "\xef\xbc\x9a";                 // ： (fullwidth colon)
          constexpr std::string_view kZhVector = "\xe7\x9a\x84\xe5\x90\x91\xe9\x87\x8f";  // 的向量 (zh: "'s vector")
          constexpr std::string_view kZhVectorOld = "\xe7\x9a\x84\xe7\x9f\xa2\xe9\x87\x8f";  // 的矢量
          std::string_view lead = trim_view(std::string_view(lo).substr(0, b));
          // Told inline as the error the user got, after a colon, quoted or not ("but get this error:
          // `Error: cannot allocate vector of size 38.6 Gb`", '... this error: "Error: ..."', "I get
          // this error: Error: ..."): the lead after that colon and its quote. Not advice or a
          // supposition ("If you see `Error: ...`", "Should you see", "you would get this error:").
          {
            size_t cut = std::string_view::npos;
            for (std::string_view q : {std::string_view("`"), std::string_view("\""), std::string_view("\xe2\x80\x9c")}) {
              const size_t at = lead.rfind(q);
              if (at != std::string_view::npos && (cut == std::string_view::npos || at > cut)) cut = at;
            }
            const size_t quote_len = cut != std::string_view::npos && lead[cut] == '\xe2' ? 3 : 1;
            std::string_view before = cut != std::string_view::npos ? trim_view(lead.substr(0, cut)) : std::string_view();
            std::string_view inner = cut != std::string_view::npos ? trim_view(lead.substr(cut + quote_len)) : std::string_view();
            if (cut == std::string_view::npos) {
              // Unquoted: the lead's last "<words>: " before an error word.
              const size_t colon = lead.size() >= 2 ? lead.rfind(": ", lead.size() - 2) : std::string_view::npos;
              if (colon != std::string_view::npos) {
                before = trim_view(lead.substr(0, colon + 1));
                inner = trim_view(lead.substr(colon + 2));
              }
            }
            // (In the words just before the colon: "I would like to fit a model but get this error:" tells one.)
            const std::string_view near = before.substr(before.size() > 32 ? before.size() - 32 : 0);
            const bool supposed = contains_any(near, {"if you", "should you", "would", "could be", "could get", "might",
                                                      "may ", "when you", "you will see", "you'll see", "avoid"});
            // Received, not described ("The typical message is: Error: ..." on a how-to page).
            const bool received = before.empty() || contains_any(near, {"get", "got", "receiv", "see", "saw", "throw",
                                                                        "this error", "following error", "the error",
                                                                        "error message"});
            if (!inner.empty() && (before.empty() || before.back() == ':') && !supposed && received &&
                (cut != std::string_view::npos || inner.rfind("error", 0) == 0)) {
              lead = inner;
            }
          }
          const bool zh = static_cast<unsigned char>(h.phrase[0]) >= 0x80;  // zh_CN's or zh_TW's wording
          const bool colon = !lead.empty() && (lead.back() == ':' || (lead.size() >= kZhColon.size() &&
                                                                      lead.substr(lead.size() - kZhColon.size()) == kZhColon));
          // rpy2 re-raises it: "rpy2.rinterface_lib.embedded.RRuntimeError: Error: cannot allocate ...".
          const bool reraised = lead.size() > 6 && lead.compare(lead.size() - 6, 6, "error:") == 0 &&
                                lead.find("rruntimeerror") != std::string_view::npos;
          // R's "Error: " / "Error in <call> : " in its catalogues: es "Error", it "Errore", pt_BR
          // "Erro", fr "Erreur", de "Fehler", zh_CN "错误", zh_TW "錯誤".
          const bool error_word = lead.rfind("erro", 0) == 0 || lead.rfind("erreur", 0) == 0 || lead.rfind("fehler", 0) == 0 ||
                                  lead.rfind("[1] error", 0) == 0 || lead.rfind(kZhError, 0) == 0 ||
                                  lead.rfind("\xe9\x8c\xaf\xe8\xaa\xa4", 0) == 0;  // 錯誤
          const bool printed = lead.empty() || reraised || (colon && (error_word || lead.rfind("warning", 0) == 0));
          // The message told in the user's words: a report where it is neither supposed nor advised.
          const bool told_in_words = h.phrase == std::string_view("allocate a vector of size") &&
                                     !contains_any(lo, {"if you", "should you", "would", "avoid", "?"});
          if (!told_in_words && (!printed || lead.find('"') != std::string_view::npos)) continue;
          // The Chinese wording's size is followed by "的向量" (older catalogues: "的矢量"), not a
          // buffer's or a table's size.
          if (zh && phrase_find(lo, kZhVector, e).first > e + 24 && phrase_find(lo, kZhVectorOld, e).first > e + 24) continue;
        }
        // numpy's wording only: a size, then "for an array"; not "unable to allocate a port". numpy
        // before 1.18 printed no size: "Unable to allocate array with shape (50000, 50000, 8) and
        // data type float64".
        if (sub == "numpy" && phrase_find(lo, "for an array", e).first > e + 40 &&
            phrase_find(lo, "array with shape", e).first > e + 2) {
          continue;
        }
        // "DefaultCPUAllocator: can't allocate memory: ... Error code 12 (Cannot allocate memory)":
        // the errno of a report already read on this line; HotSpot's commit warning is the JVM's head.
        // The kernel's words quoted in the user's sentence beside the GPU it ran on ('a tesla K40 GPU
        // with 12G video ram but still encountered "cannot allocate memory" error'): the error as
        // the user names it, on no stated device (mentioned_oom() reads the line), not ENOMEM printed.
        // Not where the line names the host's side: errno 12 ("Cannot allocate memory (12)"), the
        // host, its RAM, swap, DataLoader workers.
        if (sub == "enomem" && b > 0 && (lo[b - 1] == '"' || lo[b - 1] == '\'' || lo[b - 1] == '`' ||
                                         (b >= 3 && lo.compare(b - 3, 3, "\xe2\x80\x9c") == 0)) &&
            lo.find("errno") == std::string::npos && lo.compare(e, 5, " (12)") != 0 && (gpu_named(lo) || cuda_memory_named(lo)) &&
            !contains_word(lo, "host") && !contains_word_start(lo, "swap") && lo.find("dataloader") == std::string::npos &&
            lo.find("worker") == std::string::npos &&
            !(contains_word(lo, "ram") && !gpu_ram_named(lo))) {
          continue;
        }
        if (sub == "enomem" && (lo.rfind("allocator", b) != std::string::npos || lo.rfind("tried to allocate", b) != std::string::npos ||
                                lo.find("os::commit_memory(") != std::string::npos)) {
          continue;
        }
        if (sub == "jvm" && hit.phrase == std::string_view("os::commit_memory(") &&
            lo.find("errno=12") == std::string::npos && lo.find("cannot allocate memory") == std::string::npos &&
            lo.find("not enough space") == std::string::npos) {
          continue;  // another errno: not memory
        }
        // RAPIDS' device allocator (RMM, under cuDF / cuML / cuGraph) raising through Python and C++:
        // "MemoryError: std::bad_alloc: out_of_memory: CUDA error at: .../cuda_memory_resource.hpp:70:
        // cudaErrorMemoryAllocation out of memory", "... RMM failure at: ... Maximum pool size
        // exceeded": the GPU's memory (the CUDA error on the line is the report), not the host's.
        if ((sub == "python" || sub == "bad_alloc") &&
            (lo.find("cudaerrormemoryallocation") != std::string::npos || lo.find("rmm failure") != std::string::npos ||
             lo.find("/rmm/") != std::string::npos || lo.find("cuda error") != std::string::npos)) {
          continue;
        }
        // Python's exception name, not a substring of another one ("torch.OutOfMemoryError",
        // "_ArrayMemoryError") nor a code line ("except MemoryError:"): first on its line.
        // numpy's head reads "MemoryError: Unable to allocate 3.00 GiB for an array ..." (with its
        // wording, as above); a paste cut before it ("MemoryError: Unable to allocate 3.64 GiB") is
        // Python's MemoryError alone.
        const size_t ua = phrase_find(lo, "unable to allocate", e).first;
        const bool numpy_reads = ua != std::string::npos &&
                                 (phrase_find(lo, "for an array", ua).first <= ua + 18 + 40 ||
                                  phrase_find(lo, "array with shape", ua).first <= ua + 18 + 2);
        if (sub == "python" && (!trim_view(std::string_view(lo).substr(0, b)).empty() ||
                                (e < lo.size() && (is_alpha(lo[e]) || lo[e] == '_')) || numpy_reads)) {
          continue;
        }
        // A MemoryError raised for an accelerator's memory ("MemoryError: CUDA out of memory on GPU
        // 0", CuPy's "MemoryError: GPU out of memory", "cuMemAlloc results in
        // CUDA_ERROR_OUT_OF_MEMORY"): the device's head on the line reads it, not the host's.
        if (sub == "python" && (cuda_memory_named(lo) || lo.find("cumemalloc") != std::string::npos)) {
          continue;
        }
        // Python's exception line is one report: its message after "MemoryError:" ("out of
        // memory", "cannot allocate memory for array", "std::bad_alloc") is not a second head.
        if (sub == "python") hit.end = lo.size();
      }
      if (std::string_view(h.subsystem) == "julia" && b > 0 && (lo[b - 1] == '.' || is_alpha(lo[b - 1]) || lo[b - 1] == '_')) {
        continue;
      }
      if (family == "oom_killer" && is_digit(h.phrase[std::strlen(h.phrase) - 1]) && e < lo.size() && is_digit(lo[e])) {
        continue;  // "-90", "1370"
      }
      // joblib's TerminatedWorkerError is printed for any worker death: not a kill for memory where the
      // exit codes it lists name a segfault ("The exit codes of the workers are {SIGSEGV(-11)}").
      if (hit.phrase == std::string_view("excessive memory usage causing the operating system to kill the worker") &&
          (lo.find("sigsegv") != std::string::npos || lo.find("(-11)") != std::string::npos)) {
        continue;
      }
      // MegEngine's line is one report: its "error: out of memory(... mem_free=F mem_tot=T)" after the
      // request is the same failure's figures, not a second head.
      if (std::string_view(h.subsystem) == "megengine" || std::string_view(h.subsystem) == "rmm") hit.end = lo.size();
      hits.push_back(hit);
    }
  }
  size_t kpos = 0;
  if (shell_killed(line, kpos)) {
    HeadHit hit;
    hit.pos = kpos;
    hit.end = line.size();
    hit.family = "oom_killer";
    hit.subsystem = "linux_oom_killer";
    hits.push_back(hit);
  }
  // The generic caching-allocator head "(<word> )?out of memory".
  for (auto [b, e] = phrase_find(lo, "out of memory"); b != std::string::npos; std::tie(b, e) = phrase_find(lo, "out of memory", e)) {
    if (e < lo.size() && (is_alpha(lo[e]) || lo[e] == '_')) continue;  // "out of memoryview"
    if (b > 0 && (is_alpha(lo[b - 1]) || lo[b - 1] == '_')) continue;
    HeadHit hit;
    hit.pos = b;
    hit.end = e;
    hit.family = "pytorch";
    hit.subsystem = "caching_allocator";
    hit.kind = Kind::kCaching;
    hit.generic = true;
    size_t w = b;
    while (w > 0 && is_space(lo[w - 1])) --w;
    size_t ws = w;
    while (ws > 0 && is_alpha(lo[ws - 1])) --ws;
    if (ws < w && w < b) {
      hit.device_word = line.substr(ws, w - ws);
      hit.pos = ws;
    }
    hits.push_back(hit);
  }
  // A PyTorch message pasted without its head: "Tried to allocate X (GPU n; ..." or
  // "Tried to allocate X. GPU n has a total capacity of ...".
  for (auto [b, e] = phrase_find(lo, "tried to allocate"); b != std::string::npos; std::tie(b, e) = phrase_find(lo, "tried to allocate", e)) {
    const std::string tail = squash(std::string_view(lo).substr(e, 160));
    auto size = size_at(tail, 0);
    if (!size) continue;
    const std::string_view after = std::string_view(tail).substr(size->end);
    if (!(istarts_with(after, "(gpu") || istarts_with(after, "(xpu") || istarts_with(after, "(device") ||
          (after.size() > 1 && after[0] == '.' && (istarts_with(after.substr(1), "gpu") || istarts_with(after.substr(1), "xpu"))))) {
      continue;
    }
    HeadHit hit;
    hit.pos = b;
    hit.end = e;
    hit.family = "pytorch";
    hit.subsystem = "caching_allocator";
    hit.kind = Kind::kCaching;
    hit.headless = true;
    hits.push_back(hit);
  }
  std::stable_sort(hits.begin(), hits.end(), [](const HeadHit& a, const HeadHit& b) { return a.pos < b.pos; });
  std::vector<HeadHit> kept;  // drop a hit that overlaps an earlier or more specific one
  for (const auto& hit : hits) {
    bool overlaps = false;
    for (auto& k : kept) {
      if (hit.pos < k.end && k.pos < hit.end) {
        overlaps = true;
        // the specific head wins over the generic one that starts earlier ("CUDA error: out of memory")
        if (k.generic && !hit.generic && !hit.headless) k = hit;
      }
    }
    // A headless "Tried to allocate" right after a generic head belongs to that report; not one
    // after words of the user's between them ("I got CUDA Out of Memory error message (Pubmed
    // dataset). `Tried to allocate 1.45 GiB (GPU 0; ...`": the message pasted in prose), which is
    // a report of its own.
    if (!overlaps && hit.headless && !kept.empty() && kept.back().kind == Kind::kCaching) {
      const size_t from = std::min(kept.back().end, hit.pos);
      const std::string_view between = std::string_view(lo).substr(from, hit.pos - from);
      const bool words_between = std::any_of(between.begin(), between.end(), [](char c) { return is_alpha(c); });
      if (!(kept.back().generic && words_between)) overlaps = true;
    }
    // The driver's or runtime's code spelled out right after it ("CUDA_ERROR_OUT_OF_MEMORY: out of
    // memory", as XLA, TensorFlow and cuda-python print it; "cudaErrorMemoryAllocation: out of
    // memory", as CuPy and Numba print the runtime's cudaGetErrorName and cudaGetErrorString; HIP's
    // the same): the same report, not a second (generic) one.
    const auto error_code_head = [](std::string_view phrase) {
      return phrase == "cuda_error_out_of_memory" || phrase == "cudaerrormemoryallocation" ||
             phrase == "hiperroroutofmemory" || phrase == "hip_error_outofmemory";
    };
    if (!overlaps && hit.generic && !kept.empty() && error_code_head(kept.back().phrase) &&
        hit.pos >= kept.back().end && hit.pos - kept.back().end <= 3) {
      kept.back().end = hit.end;
      overlaps = true;
    }
    if (!overlaps) kept.push_back(hit);
  }
  return kept;
}

// The heads of `line`, including one wrapped onto the next line ("CUDA out of m" / "emory."):
// the line is probed joined to the start of the next (cleaned) line, with and without a space.
std::vector<HeadHit> heads_of_line(const std::string& line, const std::string& next_clean) {
  std::vector<HeadHit> hits = find_heads(line, next_clean);
  if (next_clean.empty()) return hits;
  // A line that ends its sentence ("... but unallocated.") holds no head cut in two.
  const std::string_view t = trim_view(line);
  if (!t.empty() && t.back() == '.') return hits;
  // Only the seam is probed: the last 80 characters of the line and the first 60 of the next.
  const size_t seam = line.size() > 80 ? line.size() - 80 : 0;
  for (const std::string joiner : {"", " "}) {
    const std::string probe = line.substr(seam) + joiner + next_clean.substr(0, 60);
    for (HeadHit hit : find_heads(probe)) {
      hit.pos += seam;
      hit.end += seam;
      if (hit.pos >= line.size() || hit.end <= line.size() + joiner.size()) continue;
      const bool overlaps = std::any_of(hits.begin(), hits.end(), [&](const HeadHit& o) { return hit.pos < o.end && o.pos < hit.end; });
      if (overlaps) continue;
      hit.next_skip = hit.end - line.size() - joiner.size();
      hit.end = line.size();
      hits.push_back(hit);
    }
  }
  std::sort(hits.begin(), hits.end(), [](const HeadHit& a, const HeadHit& b) { return a.pos < b.pos; });
  return hits;
}

// Two reports of one device, when both name one.
bool same_device(const OomRecord& a, const OomRecord& b) { return a.device.empty() || b.device.empty() || a.device == b.device; }

// Two reports' sizes within the rounding of a printed size (two decimals of its unit): the
// allocator's retry warning's exact bytes and the OutOfMemoryError's "Tried to allocate 20.00 MiB".
bool same_size(const OomRecord& a, const OomRecord& b) {
  if (!a.requested_bytes || !b.requested_bytes) return false;
  const double x = static_cast<double>(*a.requested_bytes), y = static_cast<double>(*b.requested_bytes);
  return std::abs(x - y) <= std::max(x, y) / 200.0 + 10240.0;
}

// The same allocation in two reports: the same device and the same size.
bool same_allocation(const OomRecord& a, const OomRecord& b) { return same_device(a, b) && same_size(a, b); }

// A PyTorch message's bare head quoted in a sentence a few lines above the message itself ('So it
// causes "RuntimeError: CUDA out of memory.":' over the pasted traceback): `prev` carries no figure
// and its squashed text `ps`, without the quote's closing marks, is in the later report's `s`.
// (Its size quoted too, 'I get "CUDA out of memory. Tried to allocate 2.00 GiB" every time': the
// same size; the quote ends at its closing mark.)
bool bare_head_quoted(const OomRecord& prev, std::string_view ps, const OomRecord& r, std::string_view s) {
  if (!prev.pytorch_family() || !r.pytorch_family() || (prev.requested_bytes && !same_size(prev, r)) ||
      prev.total_capacity_bytes || prev.allocated_bytes || !r.requested_bytes || !r.total_capacity_bytes ||
      r.line <= prev.line || r.line - prev.line > 40) {
    return false;
  }
  ps = ps.substr(0, std::min(ps.find('"'), ps.find('`')));
  while (!ps.empty() && (ps.back() == '\'' || ps.back() == ':')) ps.remove_suffix(1);
  return ps.size() >= 12 && s.size() > ps.size() && s.find(ps) != std::string_view::npos;
}

// The index of a device ("cuda:1" -> "1"; "" when it names none): ggml's HIP build says
// "cudaMalloc" for the device its graph allocator calls "ROCm1".
std::string device_index(const std::string& device) {
  const size_t c = device.find(':');
  return c == std::string::npos ? std::string() : device.substr(c + 1);
}

bool report_done(const OomRecord& r, const std::string& s) {
  // MXNet's workspace check prints its sizes on the two lines after it ("Minimum workspace size: N
  // Bytes", "Given: M Bytes").
  if (r.subsystem == "mxnet_workspace") return icontains(s, "given:");
  if (r.family == "pytorch_async") {
    // The message cut to its head ("Allocation on device", ComfyUI): nothing follows it.
    constexpr std::string_view kCut = "allocationondevice";
    if (s.size() >= kCut.size() && lower(std::string_view(s).substr(s.size() - kCut.size())) == kCut) return true;
    const size_t p = ifind(s, "memoryfraction):");
    return p != std::string::npos && p + 16 < s.size();
  }
  if (r.family == "pytorch" || r.family == "oomkit_cpu_budget") {
    return icontains(s, "reservedintotal") || icontains(s, "cached)") || icontains(s, "butunallocated") ||
           icontains(s, "pool.");
  }
  if (r.family == "cpu_default_allocator" || r.family == "th_cpu_allocator") {
    const size_t p = ifind(s, "youtriedtoallocate");
    if (p == std::string::npos) return false;
    size_t end = 0;
    if (!integer_at(s, p + 18, &end)) return false;
    return istarts_with(std::string_view(s).substr(end), "bytes") || istarts_with(std::string_view(s).substr(end), "gb");
  }
  if (r.family == "xla") {
    return icontains(s, "bytes") || icontains(s, "free") || icontains(s, "ondevice") || icontains(s, "capacityby") ||
           icontains(s, "b)");
  }
  if (r.family == "tensorflow") return !icontains(s, "tensorwithshape") || icontains(s, "byallocator");
  if (r.family == "paddle") return r.subsystem == "fluid_pool" || icontains(s, "availablememoryisonly");  // wrapped after "on GPU 0."
  if (r.family == "pytorch_alloc_retry") {
    // Often pasted wrapped ("... on device 0" / "while trying to allocate N bytes (free: F," /
    // "total: T)"): read on until the byte counts close, or the sentence ends without them.
    const size_t p = ifind(s, "(free:");
    if (p != std::string::npos) return s.find(')', p) != std::string::npos;
    return !s.empty() && s.back() == '.';
  }
  if (r.family == "vllm_kv_cache") {
    const size_t p = ifind(s, "storedinkvcache(");
    return p == std::string::npos || s.find(')', p) != std::string::npos;
  }
  if (r.subsystem == "tt_metal") {
    // Often wrapped ("... across 8 banks," / "where each bank needs ..." / "(allocated: ...)"): read
    // on through the lines that continue its wording (continues_tt_metal()) until its figures close.
    const size_t p = ifind(s, "(allocated:");
    return p != std::string::npos && s.find(')', p) != std::string::npos;
  }
  if (r.subsystem == "onnxruntime") {
    // Wrapped before its size ("... requested buffer" / "of size 2147483648"): read on until the
    // digits after "of size" are there.
    const size_t p = ifind(s, "requestedbuffer");
    if (p == std::string::npos) return true;
    const size_t of = ifind(s, "ofsize", p);
    return of != std::string::npos && of + 6 < s.size() && is_digit(s[of + 6]);
  }
  if (r.subsystem == "mlx") {
    // MLX's buffer-size message wrapped before its limit ("... greater than the" / "maximum allowed
    // buffer size of N bytes."): read on until that sentence ends.
    return !icontains(s, "whichisgreaterthan") || (!s.empty() && s.back() == '.');
  }
  return true;  // the other families are one-line reports
}

// Whether a line continues the allocator's retry warning wrapped by a paste: a piece of its own
// wording ("while trying to allocate", "(free: F,", "total: T)") or a byte count ("1090519040
// bytes"), not a progress bar ("3%|3 | 3/100"), another process's prefix or a step line.
bool continues_retry_warning(std::string_view t) {
  for (std::string_view piece : {"while ", "trying ", "to allocate", "to map", "allocate ", "map ", "(free", "free:", "total:",
                                 "bytes", ")"}) {
    if (istarts_with(t, piece)) return true;
  }
  size_t end = 0;
  while (end < t.size() && is_digit(t[end])) ++end;
  if (end == 0) return false;
  const std::string_view after = t.substr(end);
  return after.empty() || istarts_with(after, " bytes") || after[0] == ',' || after[0] == ')';
}

// Whether a line continues tt-metal's bank-manager message wrapped onto it.
bool continues_tt_metal(std::string_view t) {
  for (std::string_view piece : {"banks", "where each bank", "bank ", "but bank size", "(allocated:", "allocated:", "free:",
                                 "largest free block", "b ", "b,", "b)"}) {
    if (istarts_with(t, piece)) return true;
  }
  return !t.empty() && is_digit(t[0]);
}

bool starts_traceback(std::string_view s) {
  return s.rfind("Traceback", 0) == 0 || s.rfind("File \"", 0) == 0 || s.rfind("During handling", 0) == 0 ||
         s.rfind("The above exception", 0) == 0;
}

// A line that opens the post's own text after a message ending its line, not the message wrapped
// onto it: markdown (a heading "### Describe the bug", a code fence, a quote, an image), a line in
// another script (CJK after an ASCII message: "补充：服务器内存 256G"), or a sentence's usual first
// word ("Hi all,", "Please help", "Before that the whole system ...", "Unrelated: ..."). A message
// wrapped by a terminal or a copy goes on mid-sentence, with a figure or a lower-case word.
bool post_text_after_message(std::string_view t) {
  if (t.empty()) return false;
  if (t[0] == '#' || t.rfind("```", 0) == 0 || t.rfind("~~~", 0) == 0 || t.rfind("![", 0) == 0 || t[0] == '>') return true;
  if (static_cast<unsigned char>(t[0]) >= 0x80) return true;
  size_t e = 0;
  while (e < t.size() && (is_alpha(t[e]) || t[e] == '\'')) ++e;
  const std::string_view w = t.substr(0, e);
  for (std::string_view opener : {"Hi", "Hello", "Hey", "Please", "When", "Before", "After", "Unrelated", "Thanks", "Thank",
                                  "Note", "Any", "I", "I'm", "We", "My", "This", "It", "Also", "But", "So", "Here", "Is",
                                  "Can", "How", "Why", "What"}) {
    if (w == opener) return true;
  }
  return false;
}

// Whether a continuation line holds the head of another report (heads wrapped into it from
// the report being read, the first `skip` characters, do not count).
bool starts_new_report(const std::string& line, size_t skip) {
  for (const HeadHit& h : find_heads(line)) {
    if (h.pos < skip || h.headless) continue;  // a headless "Tried to allocate" continues the report
    // "Error code 12 (Cannot allocate memory)" ends DefaultCPUAllocator's report: its errno.
    if (std::string_view(h.family) == "host_alloc" && std::string_view(h.subsystem) == "enomem") continue;
    if (!h.generic) return true;
    if (generic_head_is_report(h.device_word, squash(std::string_view(line).substr(h.end, 300)))) return true;
  }
  return false;
}

std::string clean(std::string_view raw) { return strip_ansi(raw.substr(0, kMaxLineChars)); }

// A size told in prose at `t[from]` ("40GiB", "40 GiB", "31.50 GiB"): its number and unit read with the
// spaces between them dropped, but not a space between two numbers ("2 40GiB buffers" is no 240 GiB),
// and a unit of two letters or more ("1 billion elements", "2 batches" are no size); nothing for an
// overflowing or zero size.
std::optional<PrintedSize> told_size_at(std::string_view t, size_t from) {
  std::string squeezed;
  for (size_t k = from; k < t.size() && squeezed.size() < 24; ++k) {
    if (t[k] != ' ') {
      if (is_digit(t[k]) && k > 0 && t[k - 1] == ' ' && !squeezed.empty() && is_digit(squeezed.back())) break;
      squeezed.push_back(t[k]);
    } else if (!squeezed.empty() && is_alpha(squeezed.back())) {
      break;
    }
  }
  const auto size = size_at(squeezed, 0);
  if (!size || size->overflow || size->bytes <= 0) return std::nullopt;
  if (std::count_if(size->printed.begin(), size->printed.end(), [](char c) { return is_alpha(c); }) < 2) return std::nullopt;
  return size;
}

// The request told in prose on `lines[idx]` or the next three entries ("the runtime error \"CUDA out
// of memory\" always occurs in training ... I found that the forward step MemoryReader.get_affinity()
// tried to allocate 40GiB"): the size the user read from the message, set on `r` (which has none).
// The lines after the first are read only as prose: not another report's message ("out of memory",
// "Resource exhausted") nor a program's log record ("W tensorflow/...] Allocator (GPU_0_bfc) ran out of
// memory trying to allocate 1.00GiB").
// The size is told_size_at()'s.
void prose_request_near(const std::vector<LineView>& lines, size_t idx, OomRecord& r) {
  for (size_t j = idx; j < lines.size() && j <= idx + 3 && !r.requested_bytes; ++j) {
    const std::string_view raw_j = lines[j].raw.substr(0, 2000);
    if (j > idx && (has_log_prefix(raw_j) || ifind(raw_j, "out of memory") != std::string_view::npos ||
                    ifind(raw_j, "resource exhausted") != std::string_view::npos ||
                    ifind(raw_j, "resourceexhausted") != std::string_view::npos)) {
      continue;
    }
    const std::string near = lower(raw_j);
    for (std::string_view verb : {"tried to allocate ", "trying to allocate ", "tries to allocate ", "attempted to allocate ",
                                  "attempting to allocate ", "attempts to allocate "}) {
      const size_t v = near.find(verb);
      if (v == std::string::npos) continue;
      const auto size = told_size_at(raw_j, v + verb.size());
      if (!size) continue;
      r.requested_bytes = size->bytes;
      r.requested_printed = size->printed;
      break;
    }
  }
}

}  // namespace

std::vector<OomRecord> parse_oom_log(std::string_view text) {
  const std::vector<LineView> lines = split_line_views(text);
  std::vector<OomRecord> records;
  std::vector<std::string> squashed_of;                // parallel to records
  std::unordered_map<std::string, size_t> by_key;     // identical reports -> their record
  size_t consumed_until = 0;                           // lines read as continuations
  bool title_echoed = false;                           // the title's report met its echo in the post
  size_t title_index = std::string::npos;              // records[title_index]: the report read from line 1
  // records[k] is the title's report, not yet met by its echo in the post (nor counted twice).
  auto title_unechoed = [&](size_t k) { return k == title_index && !title_echoed && records[k].occurrences == 1; };
  std::optional<bool> device_assert_seen;              // a CUDA kernel's assertion in the log, looked for once
  // Whether any line of the log (its first 600 bytes) holds one of `needles`, ASCII case aside:
  // asked once per log (the answers below are kept), not once per report.
  auto log_names = [&lines](std::initializer_list<std::string_view> needles) {
    return std::any_of(lines.begin(), lines.end(), [&](const LineView& l) {
      const std::string_view t = l.raw.substr(0, 600);
      return std::any_of(needles.begin(), needles.end(), [&](std::string_view x) { return ifind(t, x) != std::string_view::npos; });
    });
  };
  std::optional<bool> vram_told;                       // the GPU's memory named anywhere in the log
  std::optional<bool> julia_told, julia_gpu_told;      // Julia named / its GPU arrays named
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i < consumed_until) continue;
    const std::string_view raw = lines[i].raw;
    const std::string_view next_raw = i + 1 < lines.size() ? lines[i + 1].raw.substr(0, 40) : std::string_view();
    if (!has_trigger(raw.substr(0, kMaxLineChars))) {
      // A head wrapped over two lines ("CUDA out of m" / "emory."): probe the seam.
      const std::string_view tail = raw.substr(raw.size() > 40 ? raw.size() - 40 : 0);
      if (next_raw.empty() || ifind(tail, "o") == std::string_view::npos) continue;
      // The seam, with and without a space, in a buffer on the stack (no allocation per line).
      std::array<char, 96> seam{};
      std::copy(tail.begin(), tail.end(), seam.begin());
      std::copy(next_raw.begin(), next_raw.end(), seam.begin() + static_cast<std::ptrdiff_t>(tail.size()));
      if (!has_trigger(std::string_view(seam.data(), tail.size() + next_raw.size()))) {
        seam[tail.size()] = ' ';
        std::copy(next_raw.begin(), next_raw.end(), seam.begin() + static_cast<std::ptrdiff_t>(tail.size()) + 1);
        if (!has_trigger(std::string_view(seam.data(), tail.size() + 1 + next_raw.size()))) continue;
      }
    }
    const std::string line = clean(raw);
    const std::string next_clean = i + 1 < lines.size() ? trim(strip_log_prefix(clean(lines[i + 1].raw.substr(0, 400)))) : "";
    const std::vector<HeadHit> hits = heads_of_line(line, next_clean);
    std::optional<std::string> line_lower;  // made once, for the first head that needs it
    for (size_t h = 0; h < hits.size(); ++h) {
      const HeadHit& hit = hits[h];
      // A message's head told absent or searched for and not found ("No CUDA_ERROR_OUT_OF_MEMORY is
      // raised, the call just blocks", 'I grepped dmesg for "Out of memory: Killed process" and found
      // nothing'): no report (name_told_absent()).
      if (hit.pos > 0) {
        if (!line_lower) line_lower = lower(line);
        if (name_told_absent(*line_lower, hit.pos)) continue;
      }
      // cuBLAS's handle not created after (or before) a CUDA kernel's assertion ("Indexing.cu:1146:
      // indexSelectLargeIndex: ... Assertion `srcIndex < srcSelectDimSize` failed.", "device-side
      // assert triggered", an embedding's index out of range): the assert left the CUDA context
      // unusable, so the handle fails; an index out of range (an embedding's vocabulary, a label), not
      // memory.
      if (std::string_view(hit.subsystem) == "cublas_init") {
        if (!device_assert_seen) {
          device_assert_seen = false;
          for (const auto& l : lines) {
            const std::string_view t = l.raw.substr(0, 600);
            // "device-side assert triggered" (not PyTorch 2.x's hint under every CUDA error, "Compile
            // with `TORCH_USE_CUDA_DSA` to enable device-side assertions"), a kernel's "Assertion `...`
            // failed", an embedding's "IndexError: index out of range in self"
            if (ifind(t, "device-side assert triggered") != std::string_view::npos ||
                (ifind(t, "assertion `") != std::string_view::npos && ifind(t, "` failed") != std::string_view::npos) ||
                ifind(t, "index out of range in self") != std::string_view::npos) {
              device_assert_seen = true;
              break;
            }
          }
        }
        if (*device_assert_seen) continue;
      }
      // ggml_vulkan's pinned (host-visible) buffer failing is a warning it recovers from, with a
      // smaller or a plain host buffer: "Failed to allocate pinned memory." then the Vulkan error.
      if (std::string_view(hit.subsystem) == "vulkan" && i > 0 &&
          ifind(lines[i - 1].raw.substr(0, 400), "failed to allocate pinned memory") != std::string_view::npos) {
        continue;
      }
      const bool ggml = std::string_view(hit.subsystem) == "ggml" || hit.phrase == "cudamalloc failed: out of memory" ||
                        hit.phrase == "_buffer_type_alloc_buffer: allocating";
      if (ggml) {
        // The backend's own line before the graph allocator's failing for a reason other than
        // memory ("cudaMalloc failed: invalid argument"): not an OOM.
        if (std::string_view(hit.subsystem) == "ggml" && i > 0) {
          const std::string_view before = lines[i - 1].raw.substr(0, 400);
          const size_t f = ifind(before, "malloc failed:");
          if (f != std::string_view::npos && ifind(before.substr(f), "out of memory") == std::string_view::npos) continue;
        }
        // llama.cpp retrying the compute buffers with less ("compute buffer allocation failed,
        // retrying without pipeline parallelism"): a failure it recovers from.
        bool retried = false;
        for (size_t j = i + 1; j < lines.size() && j <= i + 4 && !retried; ++j) {
          retried = ifind(lines[j].raw.substr(0, 400), "failed, retrying") != std::string_view::npos;
        }
        if (retried) continue;
      }
      const bool allocations_report = hit.phrase == kAllocationsReport;
      const bool last_on_line = h + 1 == hits.size();
      const size_t end = last_on_line ? line.size() : hits[h + 1].pos;
      // One-line families may state their size before the head ("failed to allocate 17.79G
      // (19104890880 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY"): read from the previous head.
      const bool one_line = hit.kind == Kind::kOneLine;
      const size_t lookback = hit.pos > 160 ? hit.pos - 160 : 0;
      const size_t begin = one_line ? (h == 0 ? lookback : std::max(hits[h - 1].end, lookback)) : hit.pos;
      int64_t prepended_line = 0;  // a wrapped one-line report begun on the previous line
      std::string spaced = trim(std::string_view(line).substr(begin, std::min(end - begin, kMaxWindowChars)));
      if (begin == 0) spaced = trim(strip_log_prefix(spaced));
      // A look-back window cut inside a word or a timestamp ("...49.141806: E external/...") starts at
      // the next word, without the cut's leftover separators.
      if (begin > 0 && begin < hit.pos) {
        const std::string_view window(spaced);
        const size_t head_at = hit.pos - begin;
        size_t cut = 0;
        if (is_alpha(line[begin - 1]) || is_digit(line[begin - 1]) || line[begin - 1] == '.' || line[begin - 1] == ':') {
          const size_t sp = window.find(' ');
          if (sp != std::string_view::npos && sp < head_at) cut = sp;
        }
        while (cut < head_at && cut < window.size() && (window[cut] == ' ' || window[cut] == ':')) ++cut;
        spaced = trim(window.substr(cut));
      }
      // A wrapped one-line report may start a line earlier (its size before its head).
      if (one_line && h == 0 && begin == 0 && i > 0 && !hit.at_head) {
        const std::string prev = trim(strip_log_prefix(clean(lines[i - 1].raw.substr(0, 400))));
        // A markdown code fence ("```", "```text", "~~~") opens the pasted log; it is no part of the message.
        // Only a line that holds a size (the report's, before its head; "2.00 GiB" or "17.79G"), is no
        // log record of its own (its own prefix: TF's "Sum Total of in-use chunks: 7.50GiB" above the
        // error) and does not end a sentence or introduce what follows (the user's "I have a 24GB
        // card, it fails with:"; "GPU: none detected by nvidia-smi ...").
        std::string compact;
        for (size_t q = 0; q < prev.size(); ++q) {
          if (prev[q] == ' ' && q > 0 && q + 1 < prev.size() && is_digit(prev[q - 1]) && is_alpha(prev[q + 1])) continue;
          compact.push_back(prev[q]);
        }
        bool sized = false;
        for (size_t q = 0; q < compact.size() && !sized; ++q) {
          if (!is_digit(compact[q]) || (q > 0 && is_digit(compact[q - 1]))) continue;
          // A size, not a number glued to the next word ("CUDA_VISIBLE_DEVICES=0 python run.py" compacts
          // to "=0python": no size of 0 P), nor a zero.
          const auto size = size_at(compact, q, false, true);
          // Nor a date's or a time's ("2024-03-01T12:00:00" holds "01T" followed by "12:").
          sized = size && size->bytes > 0 &&
                  (size->end >= compact.size() ||
                   (!is_alpha(compact[size->end]) && !is_digit(compact[size->end]) && compact[size->end] != ':'));
        }
        const char last = prev.empty() ? '\0' : prev.back();
        // A record of its own: a timestamp or glog's level and date after any launcher prefix ("[rank1]: ",
        // which every line of a wrapped message carries).
        std::string_view above = lines[i - 1].raw.substr(0, 400);
        above.remove_prefix(std::min(above.size(), launcher_prefix(above, nullptr)));
        while (!above.empty() && above.front() == ' ') above.remove_prefix(1);
        const bool record = (above.size() > 10 && is_digit(above[0]) && is_digit(above[1]) && is_digit(above[2]) &&
                             is_digit(above[3]) && above[4] == '-') ||
                            (above.size() > 6 && std::string_view("IWEF").find(above[0]) != std::string_view::npos &&
                             is_digit(above[1]) && is_digit(above[2]) && is_digit(above[3]) && is_digit(above[4]) &&
                             above[5] == ' ');
        // A program's own record too: a function's name and a colon opening the line
        // ("llama_kv_cache_init:      CUDA0 KV buffer size =  4096.00 MiB").
        size_t ident = 0;
        while (ident < above.size() && (is_alpha(above[ident]) || is_digit(above[ident]) || above[ident] == '_')) ++ident;
        const bool named_record = ident >= 4 && ident < above.size() && above[ident] == ':' &&
                                  above.substr(0, ident).find('_') != std::string_view::npos;
        if (record || named_record || last == ':' || last == '.' || last == '?' || last == '!') {
          sized = false;
        }
        // A command line with its flags is no start of a message ("mlx_lm.generate --model
        // mlx-community/Llama-3-70B-4bit ...": "70B" is no size).
        if (sized && !prev.empty() && !starts_traceback(prev) && prev.rfind("```", 0) != 0 && prev.rfind("~~~", 0) != 0 &&
            prev.find(" --") == std::string::npos && find_heads(prev).empty()) {
          spaced = prev + " " + spaced;
          prepended_line = lines[i - 1].number;
        }
      }
      std::string s = squash(spaced);
      // Markdown pasted around a figure ("Tried to allocate **137.36 GiB.**", `2.00 GiB`): not the message's.
      s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == '*' || c == '`'; }), s.end());
      // The identity of a report: its text from the head on (a one-line family's log prefix
      // and wording before its head, "EXCEPTION occurred: ", are not part of it) and its size.
      std::string from_head = squash(std::string_view(line).substr(hit.pos, std::min(end - hit.pos, kMaxWindowChars)));
      OomRecord r;
      r.family = hit.family;
      r.subsystem = hit.subsystem;
      r.line = lines[i].number;
      if (prepended_line > 0) r.text_lines.push_back(prepended_line);
      r.text_lines.push_back(lines[i].number);
      if (hit.generic) {
        // "Tried to allocate" may follow on this line or, for the last head, on the next one.
        const std::string own_tail = squash(std::string_view(line).substr(hit.end, std::min<size_t>(end - hit.end, 300)));
        const std::string joined_tail =
            last_on_line ? own_tail + squash(std::string_view(next_clean).substr(std::min(hit.next_skip, next_clean.size()), 300))
                         : own_tail;
        const std::string_view before = std::string_view(line).substr(0, hit.pos);
        const bool error_line = before.find("Error:") != std::string_view::npos || before.find("error:") != std::string_view::npos;
        if (!generic_head_is_report(hit.device_word, own_tail, error_line) &&
            !generic_head_is_report(hit.device_word, joined_tail)) {
          continue;
        }
      }
      if (last_on_line) {
        const std::string prefix = line.substr(0, hit.pos);
        for (size_t j = i + 1; j < lines.size() && j <= i + kMaxContinuationLines; ++j) {
          if (report_done(r, s) || s.size() > kMaxWindowChars) break;
          std::string next = clean(lines[j].raw.substr(0, kMaxWindowChars));
          if (!trim(prefix).empty() && next.rfind(prefix, 0) == 0) next.erase(0, prefix.size());
          next = strip_log_prefix(next);
          const std::string next_trimmed = trim(next);
          // Nor a table or a command pasted after the message (nvidia-smi's box, "$ nvidia-smi").
          const bool table_or_command = istarts_with(next_trimmed, "+-") || istarts_with(next_trimmed, "|") ||
                                        istarts_with(next_trimmed, "nvidia-smi") || istarts_with(next_trimmed, "$ ");
          if (next_trimmed.empty() || starts_traceback(next_trimmed) || table_or_command || post_text_after_message(next_trimmed) ||
              starts_new_report(next_trimmed, j == i + 1 ? hit.next_skip : 0) ||
              (r.family == "pytorch_alloc_retry" && !continues_retry_warning(next_trimmed)) ||
              (r.subsystem == "tt_metal" && !continues_tt_metal(next_trimmed)) ||
              (r.subsystem == "onnxruntime" && !istarts_with(next_trimmed, "of size") && !is_digit(next_trimmed[0]))) {
            break;
          }
          // A terminal's wrap pasted with its continuation mark ("10.68 GiB alread\" + "y allocated").
          if (!s.empty() && s.back() == '\\') {
            s.pop_back();
            if (!spaced.empty() && spaced.back() == '\\') spaced.pop_back();
            spaced += next_trimmed;
          } else {
            spaced += " " + next_trimmed;
          }
          s += squash(next);
          from_head += squash(next);
          consumed_until = j + 1;
          // A continuation with a number is the message's (its fields); one without may be the
          // user's sentence read on after a cut-off message, which the word prior should read.
          if (std::any_of(next_trimmed.begin(), next_trimmed.end(), is_digit)) r.text_lines.push_back(lines[j].number);
        }
      }
      if (s.size() > kMaxWindowChars) s.resize(kMaxWindowChars);
      read_fields(s, r, hit.device_word, spaced);
      // Intel's extension for PyTorch on Arc GPUs refuses one block above 4 GB before its caching
      // allocator's numbers: "Current platform can NOT allocate memory block with size larger than
      // 4GB! Tried to allocate 7.03 GiB (GPU 0; ...)": a per-allocation cap, whatever is free.
      if (hit.kind == Kind::kCaching && !r.max_allocation_bytes) {
        const std::string_view head = lines[i].raw.substr(0, kMaxLineChars);
        if (const size_t p = ifind(head, "memory block with size larger than"); p != std::string_view::npos) {
          // Its "4GB" is the 32-bit limit, 4 GiB (2^32 bytes), not 4e9.
          const std::string cap = lower(squash(head.substr(p + 34, 16)));
          size_t num_end = 0;
          if (auto n = integer_at(cap, 0, &num_end); n && *n > 0 && *n < 1024 && cap.compare(num_end, 2, "gb") == 0) {
            r.max_allocation_bytes = *n * (int64_t{1} << 30);
          } else if (auto size = size_at(cap, 0)) {
            r.max_allocation_bytes = size->bytes;
          }
        }
      }
      // ONNX Runtime's arena: its device from the provider named on the message's line ("(CUDA)",
      // "[CUDAExecutionProvider]", "Status Message: CPUExecutionProvider: ...", a CUDA allocator's
      // path) or on the line before, ORT's own "CUDA failure 2: out of memory ; GPU=0 ; ...
      // cuda_allocator.cc"; the CPU provider's arena is host RAM.
      if (r.subsystem == "onnxruntime") {
        for (size_t j = i + 1; j-- > (i > 0 ? i - 1 : 0) && r.device.empty();) {
          const std::string_view l = lines[j].raw.substr(0, kMaxLineChars);
          const bool own_line = j == i;
          if ((own_line && ifind(l, "cuda") != std::string_view::npos) ||
              ifind(l, "cudaexecutionprovider") != std::string_view::npos || ifind(l, "cuda failure") != std::string_view::npos ||
              ifind(l, "cuda_allocator") != std::string_view::npos) {
            r.device = "cuda";
          } else if (ifind(l, "cpuexecutionprovider") != std::string_view::npos) {
            r.device = "cpu";
          }
        }
      }
      if (r.subsystem == "onnxruntime" && r.device == "cpu") r.family = "host_alloc";  // the CPU provider's arena: host RAM
      // cuBLAS's handle under TensorFlow's / XLA's stream executor ("E external/org_tensorflow/
      // tensorflow/stream_executor/cuda/cuda_blas.cc:226] failed to create cublas handle"): their GPU
      // device ("gpu", as TF and XLA name it), which they preallocate per process.
      if (r.subsystem == "cublas_init" || r.subsystem == "cublas") {
        const std::string_view line_raw = lines[i].raw.substr(0, kMaxLineChars);
        if (ifind(line_raw, "stream_executor") != std::string_view::npos || ifind(line_raw, "org_tensorflow") != std::string_view::npos ||
            ifind(line_raw, "/xla/") != std::string_view::npos || ifind(line_raw, "cuda_blas.cc") != std::string_view::npos) {
          r.device = "gpu";
        }
      }
      // ncnn's "vkAllocateMemory failed -1" (VK_ERROR_OUT_OF_HOST_MEMORY) where the log tells the GPU's
      // memory ran out ("Run out of VRAM", "uses 3.6G VRAM"): drivers of integrated and some discrete
      // GPUs report the device's allocations so; the user's account of the device decides.
      if (r.subsystem == "vulkan_host" && ifind(lines[i].raw.substr(0, kMaxLineChars), "vkallocatememory") != std::string_view::npos) {
        if (!vram_told) vram_told = log_names({"vram", "video memory", "gpu memory", "\xe6\x98\xbe\xe5\xad\x98"});  // 显存
        if (*vram_told) {
          r.family = "device_alloc";
          r.subsystem = "vulkan";
          r.device = "vulkan";
        }
      }
      // Julia's OutOfMemoryError() is the host's: where its own error line prints it ("ERROR:
      // OutOfMemoryError()", "LoadError: ..."), or in a log that names Julia; not where the log tells
      // Julia's GPU arrays (CuArray, "|> gpu", CUDA.jl's "Out of GPU memory"): that is the device's.
      if (r.subsystem == "julia") {
        if (!julia_told) {
          julia_told = log_names({"julia", ".jl"});
          julia_gpu_told = log_names({"cuarray", "|> gpu", "out of gpu memory", "cuda.jl"});
        }
        const std::string t = lower(trim(lines[i].raw.substr(0, 200)));
        const bool error_line = t.rfind("error: outofmemoryerror()", 0) == 0 || t.rfind("error: loaderror: outofmemoryerror()", 0) == 0 ||
                                t.rfind("loaderror: outofmemoryerror()", 0) == 0;
        if (*julia_gpu_told || (!*julia_told && !error_line)) continue;
      }
      if (r.family == "tensorflow" && !r.tensor_shape.empty() && r.dtype.empty()) {
        // TF 1.x printed the shape alone; the failing node on the next lines names its dtype
        // ("[[Node: ... = Conv2D[T=DT_FLOAT, ..."), else TF's default float32 is assumed (flagged).
        for (size_t j = i; j < lines.size() && j <= i + 3 && r.dtype.empty(); ++j) {
          const std::string_view l = lines[j].raw.substr(0, kMaxLineChars);
          const size_t t = ifind(l, "t=dt_");
          if (t == std::string_view::npos) continue;
          size_t e = t + 5;
          while (e < l.size() && (is_alpha(l[e]) || is_digit(l[e]))) ++e;
          r.dtype = lower(std::string(l.substr(t + 5, e - t - 5)));
        }
        if (r.dtype.empty()) {
          r.dtype = "float";
          r.dtype_assumed = true;
        }
        tensorflow_size(r);
      }
      derive(r);
      settle_family(s, r);
      r.message = spaced.size() > 1200 ? spaced.substr(0, 1200) : spaced;

      if (from_head.size() > kMaxWindowChars) from_head.resize(kMaxWindowChars);
      // The allocator's retry warning repeats with a new free figure each time: the same failure.
      if (r.family == "pytorch_alloc_retry") {
        if (const size_t f = from_head.find("(free"); f != std::string::npos) from_head.resize(f);
      }
      const std::string key = std::string(r.family) + "|" + std::to_string(r.requested_bytes.value_or(-1)) + "|" + from_head;
      // The lines of a report merged into another are that report's text too.
      // (Appended unsorted: each record's lines are sorted once after the scan; sorting on every
      // merge made 20k repeats of one message take seconds.)
      auto absorb = [](OomRecord& into, const std::vector<int64_t>& more) {
        into.text_lines.insert(into.text_lines.end(), more.begin(), more.end());
      };
      if (auto it = by_key.find(key); it != by_key.end()) {
        OomRecord& same = records[it->second];
        // The log's title repeated in the post ("Title: RuntimeError: CUDA error: out of memory", then
        // the error as printed): the title names the failure, it is no occurrence of its own; the
        // post's line, as printed, is the report's. A title stands apart from the post (a line or
        // more between); a log's first line repeated right below it is a log's repeat.
        if (title_unechoed(it->second) && r.line > 2) {
          title_echoed = true;
          absorb(r, same.text_lines);
          r.occurrences = 1;
          same = std::move(r);
          continue;
        }
        ++same.occurrences;
        absorb(same, r.text_lines);
        continue;
      }
      // Cut-off copies, headless copies, NCCL's two-line report and the OOM killer's several
      // lines (the worker's "killed by signal" and the kernel's "Killed process") are one report.
      bool merged = false;
      const size_t first_k = records.size() > 4 ? records.size() - 4 : 0;
      for (size_t k = records.size(); k-- > first_k && !merged;) {
        OomRecord& prev = records[k];
        const std::string& ps = squashed_of[k];
        const bool copy_of_prev = s.size() >= 24 && ps.size() > s.size() && ps.find(s) != std::string::npos;
        const bool nccl_pair = prev.subsystem == "nccl" && r.subsystem == "nccl" && !prev.requested_bytes &&
                               r.requested_bytes && r.line - prev.line <= 4;
        const bool same_kill = (prev.family == "oom_killer" && r.family == "oom_killer" && r.line - prev.line <= 40) ||
                               // numpy's _ArrayMemoryError then "MemoryError", bad_alloc echoed: one host failure
                               (prev.family == "host_alloc" && r.family == "host_alloc" && r.line - prev.line <= 5 &&
                                // not two allocations of other sizes (two JVMs' failures, two workers')
                                (!prev.requested_bytes || !r.requested_bytes || same_size(prev, r)));
        // TensorFlow's BFC warning, the error and its re-raise are one failure; a second tensor's
        // (another shape, or a BFC request that fits none of the first shape's element sizes) is another.
        const bool tf_other_tensor =
            !prev.tensor_shape.empty() &&
            (!r.tensor_shape.empty() ? r.tensor_shape != prev.tensor_shape
                                     : r.requested_bytes && tf_element_bytes_for(prev.tensor_shape, *r.requested_bytes, false) == 0 &&
                                           prev.requested_bytes != r.requested_bytes);
        const bool tf_echo = prev.family == "tensorflow" && r.family == "tensorflow" && r.line - prev.line <= 400 &&
                             !tf_other_tensor;
        // A report's title on the first line ("Index build error: `invalid memory alloc request size`
        // >= 1GB") names the failure the message further down prints with its size: one report.
        const bool pytorch_family = prev.pytorch_family() && r.pytorch_family();
        // Python's bare MemoryError as the title is the user's name for the sized failure below, of
        // whatever allocator (numpy's _ArrayMemoryError is a MemoryError; a CUDA OOM is called one).
        const bool python_title = prev.family == "host_alloc" && prev.subsystem == "python";
        // So is C++'s std::bad_alloc as the title above the report that raises it, sized or not
        // (RMM's "std::bad_alloc: CUDA error (failed to allocate 240 bytes)").
        const bool bad_alloc_title = prev.line == 1 && !prev.requested_bytes && prev.subsystem == "bad_alloc" &&
                                     icontains(r.message, "bad_alloc");
        const bool title_echo = bad_alloc_title ||
                                (prev.line == 1 && !prev.requested_bytes && r.requested_bytes &&
                                 (python_title || ((prev.family == r.family || pytorch_family) && prev.subsystem == r.subsystem)));
        // ... and the title's message quoted again in the first post, neither sized ("Check failed:
        // error == cudaSuccess (2 vs. 0) out of memory" over 'I got " failed: error == cudaSuccess (2
        // vs. 0)  out of memory" when I run ...'): one failure, the title's clean message kept.
        // (Told in other words than the title's, on the post's first line too; the kill's several lines
        // have their own merge, same_kill, which keeps each line's figures.)
        // (Each such quote: the title's report, echoed already or not.)
        const bool unsized_title_echo = k == title_index && !prev.requested_bytes && !r.requested_bytes &&
                                        prev.family == r.family && prev.subsystem == r.subsystem && r.line <= 41 &&
                                        prev.family != "oom_killer";
        // PaddlePaddle raises its GPU allocator's ResourceExhaustedError as Python's MemoryError (an
        // empty "MemoryError: " line, then the C++ traceback and the error summary): one failure,
        // the GPU's.
        const bool paddle_memory_error = prev.family == "host_alloc" && prev.subsystem == "python" && r.family == "paddle" &&
                                         r.line - prev.line <= 40;
        // An accelerator's allocator and its API's error code on the lines after it ("Device memory
        // allocation of size N failed." then "vk::Device::allocateMemory: ErrorOutOfDeviceMemory"): one
        // failure. Near the report's last line read, not its first (a repeated pair is one failure
        // more); a later full copy of a cut-off one is read below, with every figure.
        const int64_t prev_last = prev.text_lines.empty() ? prev.line : prev.text_lines.back();
        const bool later_is_fuller = ps.size() >= 24 && s.size() > ps.size() && s.find(ps) != std::string::npos;
        const bool device_echo = prev.family == "device_alloc" && r.family == "device_alloc" && prev.subsystem == r.subsystem &&
                                 r.line - prev_last <= 5 && !later_is_fuller &&
                                 (!prev.requested_bytes || !r.requested_bytes || same_allocation(prev, r));
        // ggml's graph allocator naming the buffer its backend just failed to allocate: one failure.
        const bool ggml_backend_line = (prev.family == "cuda_error_oom" && icontains(prev.message, "cudamalloc failed")) ||
                                       (prev.family == "device_alloc" && prev.subsystem == "vulkan") ||
                                       (prev.subsystem == "ggml" && prev.family == r.family);
        // Vulkan's backend places a large buffer in chunks of at most its maxMemoryAllocationSize: the
        // chunk that failed ("Device memory allocation of size 3303014400 failed") is smaller than the
        // graph allocator's buffer ("failed to allocate Vulkan0 buffer of size 8611430400").
        const bool vulkan_chunk = prev.subsystem == "vulkan" && prev.requested_bytes && r.requested_bytes &&
                                  *r.requested_bytes > *prev.requested_bytes;
        const bool ggml_echo = r.subsystem == "ggml" && ggml_backend_line && r.line - prev_last <= 3 &&
                               (device_index(prev.device).empty() || device_index(r.device).empty() ||
                                device_index(prev.device) == device_index(r.device)) &&
                               (!prev.requested_bytes || !r.requested_bytes || same_size(prev, r) || vulkan_chunk);
        // ggml_vulkan's "ErrorOutOfHostMemory" after its sized line: the allocation was host memory.
        const bool vulkan_host_echo = prev.family == "device_alloc" && prev.subsystem == "vulkan" && r.family == "host_alloc" &&
                                      r.subsystem == "vulkan_host" && r.line - prev_last <= 5;
        // HotSpot's commit warning, then its error report's "Native memory allocation ... failed"
        // a few lines below (or the report repeated): one failure, the same size or one unsized.
        const bool jvm_echo = prev.subsystem == "jvm" && r.subsystem == "jvm" && r.line - prev_last <= 6 &&
                              hotspot_native_failure(prev.message) && hotspot_native_failure(r.message) &&
                              (!prev.requested_bytes || !r.requested_bytes || same_size(prev, r));
        // DefaultCPUAllocator's own "Error code 12 (Cannot allocate memory)", wrapped onto a line
        // after the report: the errno of that report, not a second failure.
        const bool errno_tail = r.family == "host_alloc" && r.subsystem == "enomem" &&
                                (prev.family == "cpu_default_allocator" || prev.family == "th_cpu_allocator") &&
                                r.line - prev.line <= 5;
        // PyTorch's caching-allocator warning before its retry, then the OutOfMemoryError the failed
        // retry raised: one failure, told by the error (it carries the allocator's figures).
        // Under expandable_segments the warning states the page it failed to map, not the request:
        // the error that follows on the same device is its failure whatever its size.
        const bool retry_then_error = prev.family == "pytorch_alloc_retry" && r.family != "pytorch_alloc_retry" &&
                                      r.pytorch_family() && r.line - prev.line <= 40 &&
                                      (prev.subsystem == "expandable_segments" ? same_device(prev, r) : same_allocation(prev, r));
        // XLA's BFC allocator (TensorFlow's, in JAX's jaxlib: "external/tsl/tsl/framework/bfc_allocator.cc]
        // Allocator (GPU_0_bfc) ran out of memory trying to allocate 1.00GiB") warning before the
        // XlaRuntimeError it raises for the same bytes: one failure, XLA's.
        const bool bfc_then_xla = prev.family == "tensorflow" && r.family == "xla" && r.line - prev_last <= 10 &&
                                  same_size(prev, r) && prev.tensor_shape.empty();
        if (bfc_then_xla) {
          if (r.device == "gpu" && !prev.device.empty()) r.device = prev.device;
          r.occurrences = prev.occurrences;
          absorb(r, prev.text_lines);
          r.line = prev.line;
          prev = r;
          squashed_of[k] = s;
          merged = true;
        } else if (errno_tail || unsized_title_echo) {
          if (unsized_title_echo) title_echoed = true;
          absorb(prev, r.text_lines);
          merged = true;
        } else if (ggml_echo || jvm_echo) {
          // The second line of one failure: its size where the first had none, its words after.
          if (!prev.requested_bytes && r.requested_bytes) {
            prev.requested_bytes = r.requested_bytes;
            prev.requested_printed = r.requested_printed;
          }
          if (prev.message.size() < 1200) prev.message += " | " + r.message.substr(0, 300);
          // ggml's HIP / MUSA builds print "cudaMalloc" too: the graph allocator's backend names the device.
          if (ggml_echo && prev.family == "cuda_error_oom" && (r.device.rfind("hip", 0) == 0 || r.device.rfind("musa", 0) == 0)) {
            prev.device = r.device;
          }
          absorb(prev, r.text_lines);
          merged = true;
        } else if (vulkan_host_echo) {
          prev.family = r.family;
          prev.subsystem = r.subsystem;
          prev.device = r.device;
          prev.message += " | " + r.message.substr(0, 300);
          absorb(prev, r.text_lines);
          merged = true;
        } else if (retry_then_error) {
          absorb(r, prev.text_lines);
          prev = r;
          squashed_of[k] = s;
          // Later warnings are new reports, not repeats of the error.
          for (auto it = by_key.begin(); it != by_key.end();) it = it->second == k ? by_key.erase(it) : std::next(it);
          by_key.emplace(key, k);
          merged = true;
        } else if (copy_of_prev) {
          ++prev.occurrences;
          absorb(prev, r.text_lines);
          merged = true;
        } else if (nccl_pair) {
          prev.requested_bytes = r.requested_bytes;
          prev.message += " " + r.message;
          absorb(prev, r.text_lines);
          merged = true;
        } else if (paddle_memory_error || title_echo) {
          // The sized report, whole, in the place of the earlier line (a title: from line 1 on; the
          // title names the failure, it is no second one).
          r.occurrences = prev.occurrences;
          if (title_echo) title_echoed = true;
          absorb(r, prev.text_lines);
          prev = r;
          squashed_of[k] = s;
          merged = true;
        } else if (same_kill || tf_echo || device_echo) {
          if (device_echo) {  // a cut-off copy first, the full message after it: every figure of either
            for (auto field : {&OomRecord::total_capacity_bytes, &OomRecord::free_bytes, &OomRecord::allocated_bytes,
                               &OomRecord::laid_out_bytes, &OomRecord::largest_free_block_bytes,
                               &OomRecord::max_allocation_bytes}) {
              if (!(prev.*field) && (r.*field)) prev.*field = r.*field;
            }
          }

          // Keep the more informative line's numbers; the report starts at the first line.
          if (!prev.rss_bytes && r.rss_bytes) prev.rss_bytes = r.rss_bytes;
          if (!prev.killed_pid && r.killed_pid) prev.killed_pid = r.killed_pid;
          if (!prev.requested_bytes && r.requested_bytes) {
            prev.requested_bytes = r.requested_bytes;
            prev.requested_printed = r.requested_printed;
          }
          if (r.family == "tensorflow" && !r.tensor_shape.empty() && prev.tensor_shape.empty()) {
            const int64_t line0 = prev.line;
            tf_dtype_from_bfc_rounding(squashed_of[k], r);  // BFC's warning before it: its request
            if (r.device.empty()) r.device = prev.device;       // "Allocator (GPU_0_bfc)" named the device
            r.occurrences = prev.occurrences + 1;
            absorb(r, prev.text_lines);
            prev = r;
            prev.line = line0;
          } else if (allocations_report) {
            absorb(prev, r.text_lines);  // the error's own report of its allocations, not a second failure
          } else {
            ++prev.occurrences;
            absorb(prev, r.text_lines);
            if (prev.message.size() < 1200) prev.message += " | " + r.message.substr(0, 300);
          }
          merged = true;
        } else if ((ps.size() >= 24 && s.size() > ps.size() && s.find(ps) != std::string::npos) || bare_head_quoted(prev, ps, r, s)) {
          // The earlier one was a cut-off copy of this one; a title's copy is none (the title names
          // the failure) and the post's line is the report's.
          const bool title_copy = title_unechoed(k) && r.line > 2;
          r.occurrences = prev.occurrences + (title_copy ? 0 : 1);
          if (title_copy) title_echoed = true;
          else r.line = prev.line;
          absorb(r, prev.text_lines);
          prev = r;
          squashed_of[k] = s;
          merged = true;
        }
      }
      if (!merged) {
        if (r.line == 1) title_index = records.size();
        by_key.emplace(key, records.size());
        records.push_back(std::move(r));
        squashed_of.push_back(s);
      }
    }
  }
  for (OomRecord& r : records) {
    std::sort(r.text_lines.begin(), r.text_lines.end());
    r.text_lines.erase(std::unique(r.text_lines.begin(), r.text_lines.end()), r.text_lines.end());
    // A message quoted in prose without its sizes ("CUDA out of memory\" always occurs"): the request
    // the user retells a line or three below.
    if (!r.requested_bytes && !r.size_overflow && !r.complete && r.line >= 1) {
      // (lines[] holds a progress bar's frames as entries of one line number: the report's first entry.)
      const auto at = std::lower_bound(lines.begin(), lines.end(), r.line,
                                       [](const LineView& l, int64_t number) { return l.number < number; });
      if (at != lines.end() && at->number == r.line) prose_request_near(lines, static_cast<size_t>(at - lines.begin()), r);
    }
  }
  return records;
}

namespace {

// "ran out of my cuda memory", "out of my 64G ram", "out of GPU memory": "out of" and, within
// the next four words, memory / ram / vram. Returns the position of "out of" or npos.
size_t out_of_some_memory(std::string_view lo) {
  for (size_t p = lo.find("out of "); p != std::string_view::npos; p = lo.find("out of ", p + 7)) {
    size_t i = p + 7;
    for (int w = 0; w < 4 && i < lo.size(); ++w) {
      while (i < lo.size() && !(is_alpha(lo[i]) || is_digit(lo[i]))) ++i;
      size_t j = i;
      while (j < lo.size() && (is_alpha(lo[j]) || is_digit(lo[j]))) ++j;
      const std::string_view word = lo.substr(i, j - i);
      if (word == "shared") break;  // "out of shared memory": a kernel's on-chip limit, not an OOM
      if (word == "memory" || word == "ram" || word == "vram") return p;
      i = j;
    }
  }
  return std::string_view::npos;
}

// Whether `w` is `target` with one letter dropped, added, changed or two neighbours swapped
// (Damerau's single edit), but not `target` itself: "ot", "oout", "memroy", "memmory".
bool one_edit_from(std::string_view w, std::string_view target) {
  if (w == target || w.size() + 1 < target.size() || w.size() > target.size() + 1) return false;
  size_t i = 0;
  while (i < w.size() && i < target.size() && w[i] == target[i]) ++i;
  if (w.size() == target.size()) {
    if (w.substr(i + 1) == target.substr(i + 1)) return true;  // one letter changed
    return i + 1 < w.size() && w[i] == target[i + 1] && w[i + 1] == target[i] && w.substr(i + 2) == target.substr(i + 2);
  }
  if (w.size() < target.size()) return w.substr(i) == target.substr(i + 1);  // one letter dropped
  return w.substr(i + 1) == target.substr(i);                                // one letter added
}

// A service's or an API's limit named on the lower-cased line `lo`, whose RESOURCE_EXHAUSTED is no memory:
// gRPC's StatusCode, a quota, a rate limit, HTTP 429, Firestore, BigQuery, a cloud function, an "api ", a hosted
// model's API (Gemini, Vertex, OpenAI, "ChatGoogleGenerativeAI").
bool service_limit_named(std::string_view lo) {
  return contains_any(lo, {"grpc", "statuscode", "quota", "rate limit", "429", "firestore", "bigquery", "cloud function",
                           "api ", "requests per", "gemini", "vertex", "openai", "generativeai"});
}

// TensorFlow's ResourceExhaustedError named in words with a one-letter slip ("Resource Exchaust Error",
// "resource exhuasted"): the OOM named. (Spelled right in prose it waits for the last pass,
// resource_exhausted_told(): a log's "results in a resource exhausted error (on the host)" sits beside the
// message it retells.) Not a service's limit (service_limit_named()), nor advice ("to avoid", "how to
// handle"), nor asked or supposed. Returns where "resource" starts, or npos.
size_t resource_exhausted_named(std::string_view lo) {
  if (lo.find("resource") == std::string_view::npos || service_limit_named(lo) ||
      contains_any(lo, {"avoid", "handle", "prevent", "catch", "how to", "?"})) {
    return std::string_view::npos;
  }
  for (size_t p = lo.find("resource"); p != std::string_view::npos; p = lo.find("resource", p + 8)) {
    if (!word_starts_at(lo, p)) continue;
    size_t q = p + 8;
    if (q < lo.size() && (lo[q] == ' ' || lo[q] == '_')) ++q;
    size_t e = q;
    while (e < lo.size() && is_alpha(lo[e])) ++e;
    const std::string_view w = lo.substr(q, e - q);
    bool named = false;
    for (std::string_view target : {"exhausted", "exhaust", "exhaustion"}) {
      if (w != target && w.size() >= 6 && one_edit_from(w, target)) named = true;
    }
    const std::string_view clause = clause_at(lo, p);
    if (named && clause.find('?') == std::string_view::npos && !contains_word(clause, "if")) return p;
  }
  return std::string_view::npos;
}

// A title that is TensorFlow's exception's name alone ("ResourceExhaustedError", "tf.errors.ResourceExhaustedError"):
// the failure named, not code.
bool title_names_resource_exhausted(std::string_view lo) {
  const std::string_view t = trim_view(lo);
  constexpr std::string_view kName = "resourceexhaustederror";
  return t.size() >= kName.size() && t.substr(t.size() - kName.size()) == kName &&
         std::all_of(t.begin(), t.end(), [](char c) { return is_alpha(c) || c == '.' || c == '_'; });
}

// TensorFlow's ResourceExhaustedError told in words, spelled right ("if I change the resize process, i got
// resource exhausted error", "a ResourceExhausted error", "resource exhaustion error", '"Resource exhausted"
// errors'): read in the last pass, after every other reading, so a log's "results in a resource exhausted
// error (on the host)" beside the message it retells leaves the message the report. Not a service's limit
// (service_limit_named()), nor asked, advised against or prevented in its clause.
bool resource_exhausted_told(std::string_view lo) {
  if (service_limit_named(lo)) return false;
  for (std::string_view p : {"resource exhausted error", "resourceexhausted error", "resource exhaustion error",
                             "resource exhausted\" error", "resource exhausted' error"}) {
    const size_t at = lo.find(p);
    if (at == std::string_view::npos) continue;
    const std::string_view clause = clause_at(lo, at);
    if (!contains_any(clause, {"avoid", "how to handle", "how to catch", "prevent", "?"})) return true;
  }
  return false;
}

// More memory asked for than the writer's machine or card has, in a sentence ("I appear to be trying
// to use more VRAM then I have", "it needs more memory than my GPU has"): "more" then the memory's
// name (VRAM, memory, RAM, GPU memory) then "than" (or its slip "then") and I / we / it / the GPU /
// my card ... then have / has / had. Not supposed ("if") in its clause. Returns where "more" starts.
size_t more_memory_than_had(std::string_view lo) {
  for (size_t p = lo.find("more "); p != std::string_view::npos; p = lo.find("more ", p + 5)) {
    if (!word_starts_at(lo, p)) continue;
    std::string_view rest = lo.substr(p + 5, 64);
    bool memory = false;
    for (std::string_view m : {"gpu memory ", "video memory ", "vram ", "memory ", "ram ", "ram, "}) {
      if (rest.substr(0, m.size()) == m) {
        rest.remove_prefix(m.size());
        memory = true;
        break;
      }
    }
    if (!memory || !(rest.substr(0, 5) == "than " || rest.substr(0, 5) == "then ")) continue;
    rest.remove_prefix(5);
    const size_t have = std::min({rest.find(" have"), rest.find(" has"), rest.find(" had")});
    if (have == std::string_view::npos || have > 20) continue;
    const std::string_view who = rest.substr(0, have);
    if (!contains_word(who, "i") && !contains_word(who, "we") && !contains_word(who, "it") &&
        !contains_any(who, {"gpu", "card", "machine", "system", "device", "computer", "laptop"})) {
      continue;
    }
    // (Not asked, supposed, denied or requested: "Will it need more VRAM than I have?", "so it does not
    // use more VRAM than I have", "Please support models that need more RAM than the machine has".)
    const std::string_view clause = clause_at(lo, p);
    const std::string_view lead = lo.substr(p >= 24 ? p - 24 : 0, p >= 24 ? 24 : p);
    if (contains_word(clause, "if") || lo.find('?') != std::string_view::npos ||
        contains_any(lead, {"not ", "n't", "never", "without"}) || contains_any(clause, {"support", "allow", "please"})) {
      continue;
    }
    return p;
  }
  return std::string_view::npos;
}

// "out of memory" misspelled by one letter in one of its words: "runns ot of memory", "out of
// memroy", "oout of memory", "Out-of-memroy". Returns the position of the phrase or npos. A
// misspelt "out" starts with its 'o' and is no English word of its own ("bout", "put", "our",
// "oat", "oft", "opt" are); "of" must be spelled right.
size_t misspelled_out_of_memory(std::string_view lo) {
  for (std::string_view sep : {std::string_view(" of "), std::string_view("-of-")}) {
    for (size_t p = lo.find(sep); p != std::string_view::npos; p = lo.find(sep, p + 1)) {
      size_t b = p;
      while (b > 0 && is_alpha(lo[b - 1])) --b;
      if (b > 0 && (is_digit(lo[b - 1]) || lo[b - 1] == '_')) continue;
      const std::string_view before = lo.substr(b, p - b);
      size_t e = p + 4;
      while (e < lo.size() && is_alpha(lo[e])) ++e;
      if (e < lo.size() && (is_digit(lo[e]) || lo[e] == '_')) continue;
      const std::string_view after = lo.substr(p + 4, e - p - 4);
      const bool english = before == "our" || before == "oat" || before == "oft" || before == "opt";
      const bool out_ok = before == "out" || (one_edit_from(before, "out") && before[0] == 'o' && !english);
      const bool memory_ok = after == "memory" || one_edit_from(after, "memory");
      if (before.size() >= 2 && after.size() >= 5 && out_ok && memory_ok && !(before == "out" && after == "memory")) return b;
    }
  }
  // "out" left out after "ran" ("Ran of GPU memory when using ImageNet"): "ran of", one word naming
  // the memory's device at most, then "memory" ("ran of" is no English of its own; "run of" is: "a
  // run of bad luck").
  for (size_t p = lo.find("ran of "); p != std::string_view::npos; p = lo.find("ran of ", p + 1)) {
    if (!word_starts_at(lo, p)) continue;
    std::string_view rest = lo.substr(p + 7);
    for (std::string_view dev : {"gpu ", "cuda ", "vram ", "device ", "video ", "system ", "host ", "cpu "}) {
      if (rest.substr(0, dev.size()) == dev) {
        rest.remove_prefix(dev.size());
        break;
      }
    }
    // (Not asked nor taken back: "it ran of memory? No, sorry, it ran fine.")
    if (rest.substr(0, 6) == "memory" && (rest.size() == 6 || !is_alpha(rest[6])) && !asked_at(lo, p) &&
        !contains_any(lo, {"ran fine", "runs fine", "no, sorry", "never ran"})) {
      return p;
    }
  }
  return std::string_view::npos;
}

// A line that opens with a supposition put to the reader ("if you ...", "if the model does not
// fit ...", "if memory grows every step, check ..."), advice rather than a report; "if I do
// 'Classify Many', I get memory issues" tells what the user did.
bool supposed(std::string_view lo) {
  size_t b = 0;
  while (b < lo.size() && lo[b] == ' ') ++b;
  for (std::string_view s : {"if you", "if your", "if the ", "if it ", "if memory", "if a ", "if there", "if gpu", "if vram",
                             "if ram"}) {
    if (lo.substr(b, s.size()) == s) return true;
  }
  return false;
}

// Text that tells a failure only as denied, over or not real: "doesn't OOM", "not a memory
// error", "never ran out", "no longer dies", "fixed", "solved", "used to crash", "would run out".
// One list for the two prose readings that a single such word anywhere undoes (a notebook's kernel
// dying, between its name and the death; a MemoryError told in a sentence); readings that a denial
// undoes only near their own words (all the memory taken, the memory past its limit, a device named
// on a later line, the OOM killer named acting, "OOM Killed") keep their own tests.
bool told_not_so(std::string_view lo) {
  return contains_any(lo, {"not ", "n't", "never", "no longer", "would", "used to", "fixed", "solved"});
}

// Memory growing without bound, in the user's words: a memory noun and a growth verb on one line
// ("GPU memory was gradually increasing over the first epoch", "memory usage is growing slowly
// (from 21G to 38G in one epoch)", "a memory leak in the training loop"). Returns true for such
// a line.
bool memory_named_near(const std::vector<std::string_view>& w, std::string_view lo, size_t i, size_t before, size_t after);
std::string memory_spelled(std::string_view lo);

bool memory_growth_prose(std::string_view lo) {
  // "memory" misspelt ("memery", "memroy", "memeory": memory_spelled()) read as spelled right.
  if (const std::string spelled = memory_spelled(lo); !spelled.empty()) return memory_growth_prose(spelled);
  // zh: 显存 / 内存 (GPU / host memory) with 泄漏 / 泄露 (leak), 不断增加 / 一直增加 / 持续增加 (keeps
  // increasing) anywhere on the line, or a growth word just after the memory's name (below); not
  // a denial of the leak (below).
  if (lo.find("\xe6\x98\xbe\xe5\xad\x98") != std::string_view::npos || lo.find("\xe5\x86\x85\xe5\xad\x98") != std::string_view::npos) {
    bool grows = false;
    // (Also 不能释放 / 无法释放 / 释放不了: cannot be freed, "内存不能释放，会一直占用内存直到死机".)
    for (const char* w : {"\xe6\xb3\x84\xe6\xbc\x8f", "\xe6\xb3\x84\xe9\x9c\xb2", "\xe4\xb8\x8d\xe6\x96\xad\xe5\xa2\x9e\xe5\x8a\xa0",
                          "\xe4\xb8\x80\xe7\x9b\xb4\xe5\xa2\x9e\xe5\x8a\xa0", "\xe6\x8c\x81\xe7\xbb\xad\xe5\xa2\x9e\xe5\x8a\xa0",
                          "\xe4\xb8\x8d\xe8\x83\xbd\xe9\x87\x8a\xe6\x94\xbe", "\xe6\x97\xa0\xe6\xb3\x95\xe9\x87\x8a\xe6\x94\xbe",
                          "\xe9\x87\x8a\xe6\x94\xbe\xe4\xb8\x8d\xe4\xba\x86"}) {
      grows = grows || lo.find(w) != std::string_view::npos;
    }
    // 慢慢增加 / 逐渐增加 / 逐步增加 (slowly / gradually increasing), not of a setting the user raises
    // ("我逐步增加了batch size": zh_setting_near()).
    for (std::string_view w : {"\xe6\x85\xa2\xe6\x85\xa2\xe5\xa2\x9e\xe5\x8a\xa0", "\xe9\x80\x90\xe6\xb8\x90\xe5\xa2\x9e\xe5\x8a\xa0",
                               "\xe9\x80\x90\xe6\xad\xa5\xe5\xa2\x9e\xe5\x8a\xa0"}) {
      const size_t p = lo.find(w);
      grows = grows || (p != std::string_view::npos && !zh_setting_near(lo, p, p + w.size()));
    }
    // 越来越 (ever more), 涨 (rises), 增长 (grows), 变大 (gets larger), 上升 (goes up), 累积 (accumulates, not
    // 梯度累积 gradient accumulation), 多占 (takes more), 比上一 (more than the previous one) only in the 30
    // bytes (ten characters) after the memory's name ("显存占用越来越大", "每个epoch显存都在增长"):
    // "越来越多的用户" (more and more users) on a line that names memory elsewhere is no growth.
    for (const char* m : {"\xe6\x98\xbe\xe5\xad\x98", "\xe5\x86\x85\xe5\xad\x98"}) {
      for (size_t p = lo.find(m); !grows && p != std::string_view::npos; p = lo.find(m, p + 6)) {
        const std::string_view near = lo.substr(p + 6, 24 + 6);
        for (const char* g : {"\xe8\xb6\x8a\xe6\x9d\xa5\xe8\xb6\x8a", "\xe6\xb6\xa8", "\xe5\xa2\x9e\xe9\x95\xbf",
                              "\xe5\x8f\x98\xe5\xa4\xa7", "\xe4\xb8\x8a\xe5\x8d\x87", "\xe5\xa4\x9a\xe5\x8d\xa0",
                              "\xe6\xaf\x94\xe4\xb8\x8a\xe4\xb8\x80"}) {
          grows = grows || near.find(g) != std::string_view::npos;
        }
        const size_t acc = near.find("\xe7\xb4\xaf\xe7\xa7\xaf");  // 累积, not after 梯度
        grows = grows || (acc != std::string_view::npos && near.find("\xe6\xa2\xaf\xe5\xba\xa6\xe7\xb4\xaf\xe7\xa7\xaf") == std::string_view::npos);
      }
    }
    bool denied = false;
    // 没有泄 / 无泄 / 不会泄 / 不存在泄, also with the memory between: 没有内存泄漏, 没有显存泄漏.
    for (const char* w : {"\xe6\xb2\xa1\xe6\x9c\x89\xe6\xb3\x84", "\xe6\x97\xa0\xe6\xb3\x84", "\xe4\xb8\x8d\xe4\xbc\x9a\xe6\xb3\x84",
                          "\xe4\xb8\x8d\xe5\xad\x98\xe5\x9c\xa8\xe6\xb3\x84", "\xe6\xb2\xa1\xe6\x9c\x89\xe5\x86\x85\xe5\xad\x98\xe6\xb3\x84",
                          "\xe6\xb2\xa1\xe6\x9c\x89\xe6\x98\xbe\xe5\xad\x98\xe6\xb3\x84", "\xe6\x97\xa0\xe5\x86\x85\xe5\xad\x98\xe6\xb3\x84",
                          "\xe6\x97\xa0\xe6\x98\xbe\xe5\xad\x98\xe6\xb3\x84"}) {
      denied = denied || lo.find(w) != std::string_view::npos;
    }
    // Fixed (修复), asked (？, ?, 吗, 是否, 请问, 怎么, 如何), denied (并没有, 并不, 不存在, 未发现, 没发现,
    // 没有增长, 没有上升, 没有涨, 没涨, 不涨) or told as normal or stable (正常, 稳定; not 不正常 / 不稳定,
    // abnormal / unstable): no report. (A question mark ending a clause that asks only why of a
    // rise told going on, zh_rise_asked_why(): the growth is seen, as English "why does the memory
    // keep increasing?" tells it.)
    for (const char* w : {"\xe4\xbf\xae\xe5\xa4\x8d", "\xef\xbc\x9f", "\xe5\x90\x97", "\xe6\x98\xaf\xe5\x90\xa6",
                          "\xe5\xb9\xb6\xe6\xb2\xa1\xe6\x9c\x89", "\xe5\xb9\xb6\xe4\xb8\x8d", "\xe4\xb8\x8d\xe5\xad\x98\xe5\x9c\xa8",
                          "\xe6\x9c\xaa\xe5\x8f\x91\xe7\x8e\xb0", "\xe6\xb2\xa1\xe5\x8f\x91\xe7\x8e\xb0", "\xe6\xad\xa3\xe5\xb8\xb8",
                          "?", "\xe8\xaf\xb7\xe9\x97\xae", "\xe6\x80\x8e\xe4\xb9\x88", "\xe5\xa6\x82\xe4\xbd\x95",
                          "\xe7\xa8\xb3\xe5\xae\x9a", "\xe6\xb2\xa1\xe6\x9c\x89\xe5\xa2\x9e",
                          "\xe6\xb2\xa1\xe6\x9c\x89\xe4\xb8\x8a\xe5\x8d\x87", "\xe6\xb2\xa1\xe6\x9c\x89\xe6\xb6\xa8",
                          "\xe6\xb2\xa1\xe6\xb6\xa8", "\xe4\xb8\x8d\xe6\xb6\xa8",
                          // 没有出现 / 没出现 / 未出现 (did not appear: "没有出现内存泄漏")
                          "\xe6\xb2\xa1\xe6\x9c\x89\xe5\x87\xba\xe7\x8e\xb0", "\xe6\xb2\xa1\xe5\x87\xba\xe7\x8e\xb0",
                          "\xe6\x9c\xaa\xe5\x87\xba\xe7\x8e\xb0"}) {
      const size_t at = lo.find(w);
      if (at == std::string_view::npos) continue;
      if (std::string_view(w) == "\xef\xbc\x9f" || std::string_view(w) == "?") {
        // The rise asked why in its own clause, or a bare why-question after the clause that tells the
        // rise ("显存一直增加，这是为什么？": the memory keeps rising, why is this?).
        const std::string_view asked = clause_at(lo, at > 0 ? at - 1 : 0);
        const size_t asked_at_pos = static_cast<size_t>(asked.data() - lo.data());
        if (zh_rise_asked_why(asked)) continue;
        if (asked_at_pos > 0 && zh_asked_why_only(asked)) {
          const std::string_view told = clause_at(lo, asked_at_pos - 1);
          const size_t told_at = static_cast<size_t>(told.data() - lo.data());
          if (zh_rise_asked_why(lo.substr(told_at, asked_at_pos + asked.size() - told_at))) continue;
        }
      }
      // 正常 / 稳定 after 不 (不正常, 不稳定) tell trouble, not its absence.
      const bool negated_back = (std::string_view(w) == "\xe6\xad\xa3\xe5\xb8\xb8" ||
                                 std::string_view(w) == "\xe7\xa8\xb3\xe5\xae\x9a") &&
                                at >= 3 && lo.substr(at - 3, 3) == "\xe4\xb8\x8d";
      denied = denied || !negated_back;
    }
    if (grows && !denied) return true;
  }
  // The memory named: "memory", "VRAM", "RAM", "RSS", torch.cuda.memory_allocated() /
  // memory_reserved(); a leak also by a size ("started at 10GB and now at 22GB after 5k steps, seems
  // to be leaking").
  const bool memory = contains_word(lo, "memory") || contains_word(lo, "vram") || contains_word(lo, "ram") ||
                      contains_word(lo, "rss") || lo.find("memory_allocated") != std::string_view::npos ||
                      lo.find("memory_reserved") != std::string_view::npos ||
                      (contains_word(lo, "usage") && lo.find('%') == std::string_view::npos &&
                       lo.find("util") == std::string_view::npos && lo.find("cpu usage") == std::string_view::npos &&
                       !contains_word(lo, "disk") && !contains_word(lo, "storage") && lo.find("gpu usage") == std::string_view::npos);
  const bool leak_word = contains_word_start(lo, "leak");
  if (!memory && !(leak_word && size_named(lo, true))) return false;
  // Asked how to find one, supposed, or told as over ("how do I detect memory leaks?", "if memory
  // grows every step, check ...", "is there a memory leak in the latest version?", "no longer grows").
  if (lo.find("how do i") != std::string_view::npos || lo.find("how to") != std::string_view::npos ||
      lo.find("how can i") != std::string_view::npos || lo.find("is there a") != std::string_view::npos ||
      lo.find("no longer") != std::string_view::npos || supposed(lo)) {
    return false;
  }
  // "memory is stable, no leak", "it does not grow": the growth denied.
  // Also growth that levels off ("rises quickly during warmup and then remains constant", "then
  // flattens", "stops growing").
  if (contains_word(lo, "constant")) return false;  // "remains constant", not "constantly"
  for (const char* denied : {"no leak", "not leak", "n't leak", "not a leak", "not grow", "n't grow", "not increas", "n't increas", "stable",
                             "without leak", "no memory leak", "flatten", "plateau", "levels off", "then stays",
                             "then remains", "stays at", "stops growing", "stop growing", "stopped growing", "stays flat",
                             "remains flat"}) {
    // "it never plateaus" is the growth told.
    if (lo.find(denied) != std::string_view::npos && lo.find("never plateau") == std::string_view::npos) return false;
  }
  // A fix announced ("Fixed a memory leak in the tokenizer (#1234)"): a changelog, not a report.
  if (contains_word(lo, "fixed") || contains_word(lo, "fixes")) return false;
  auto any_word = [&](std::initializer_list<const char*> ws) {
    return std::any_of(ws.begin(), ws.end(), [&](const char* w) { return contains_word(lo, w); });
  };
  // A leak or an explosion is a report on its own; growth only when it goes on ("keeps growing",
  // "gradually increasing", "per step", "over the epoch"): "a larger batch increases memory
  // usage" states a fact, not a failure.
  // (Not a leak guessed: "I was thinking that it might be a memory leak", "could be a leak".)
  if (!leak_guessed(lo) && any_word({"leak", "leaks", "leaking"})) return true;
  if (any_word({"explode", "explodes", "exploded", "exploding", "blows up", "blew up"})) return true;
  // Allocation without end: "starts allocating RAM until I get a stack overload", "process
  // allocating memory indefinitely" ("undefinitely", as written).
  if (any_word({"allocating", "allocates", "consuming", "consumes", "eating", "eats"})) {
    if (any_word({"indefinitely", "undefinitely", "endlessly", "forever", "unbounded"})) return true;
    // "until" a failure, not until an event ("until the first step"), and the failure's words where
    // a word starts ("zoom" holds no "oom", "fully" is not "full"); "until it finishes with no
    // errors" is none.
    size_t until = lo.find("until");
    while (until != std::string_view::npos && !word_starts_at(lo, until)) until = lo.find("until", until + 5);
    if (until != std::string_view::npos) {
      const std::string_view after = lo.substr(until);
      // Nor a cache filling up by design and evicting ("keeps allocating until it is full, then evicts").
      const bool no_failure = after.find("no error") != std::string_view::npos || after.find("without error") != std::string_view::npos ||
                              contains_word_start(lo, "evict") || lo.find("by design") != std::string_view::npos ||
                              contains_word_start(lo, "reuse");
      for (const char* end : {"overload", "crash", "oom", "killed", "freez", "out of", "run out", "runs out", "dies", "died",
                              "error", "exhaust"}) {
        if (!no_failure && contains_word_start(after, end)) return true;
      }
      if (!no_failure && contains_word(after, "full")) return true;
    }
  }
  // "Rapidly increasing VRAM use": growth told as going on, fast, with the memory within 40
  // characters of the growth word ("the library is quickly growing in popularity; memory is fine"
  // holds the memory elsewhere).
  if (any_word({"rapidly", "quickly"})) {
    for (const char* g : {"increasing", "growing", "rising", "climbing"}) {
      for (size_t p = lo.find(g); p != std::string_view::npos; p = lo.find(g, p + 1)) {
        if (!is_word_at(lo, p, std::strlen(g))) continue;
        // Growing in something else: "in popularity", "in number" (not "in size" or "in memory").
        const std::string_view then = lo.substr(p + std::strlen(g));
        if (then.substr(0, 4) == " in " && !contains_word_start(then.substr(4, 8), "size") &&
            !contains_word_start(then.substr(4, 8), "memor") && !contains_word_start(then.substr(4, 8), "usage")) {
          continue;
        }
        const size_t from = p > 40 ? p - 40 : 0;
        const std::string_view near = lo.substr(from, p - from + std::strlen(g) + 40);
        if (contains_word(near, "memory") || contains_word(near, "vram") || contains_word(near, "ram")) return true;
      }
    }
  }
  // Memory never freed at each step or call ("each inference call adds a bit of GPU memory that is
  // never freed").
  const bool each = any_word({"keep", "keeps", "kept", "gradually", "slowly", "steadily", "until", "constantly",
                              "continuously", "each", "every", "per", "epoch", "epochs", "iteration", "iterations", "step",
                              "steps", "across", "monotonically", "hour"}) ||
                    lo.find("over time") != std::string_view::npos;
  if (each && (lo.find("never freed") != std::string_view::npos || lo.find("never released") != std::string_view::npos)) {
    return true;
  }
  // Growth as a noun that goes on: "a slow but steady memory growth during TDVP", "unbounded RAM
  // growth", the memory within three words before it.
  if (any_word({"steady", "continuous", "unbounded", "gradual", "linear", "indefinite", "endless"})) {
    const std::vector<std::string_view> w = alnum_words(lo);
    for (size_t i = 0; i < w.size(); ++i) {
      if (w[i] == "growth" && memory_named_near(w, lo, i, 3, 0)) return true;
    }
  }
  // "The longer it trains the more memory it takes."
  if (lo.find("the longer") != std::string_view::npos &&
      (lo.find("the more memory") != std::string_view::npos || lo.find("the more ram") != std::string_view::npos ||
       lo.find("the more vram") != std::string_view::npos)) {
    return true;
  }
  if (!any_word({"growing", "grows", "grew", "increasing", "increases", "accumulates", "climbs", "rising", "rises"}) &&
      lo.find("goes up") == std::string_view::npos && lo.find("going up") == std::string_view::npos &&
      lo.find("go up") == std::string_view::npos && lo.find("ramps up") == std::string_view::npos &&
      lo.find("ramp up") == std::string_view::npos && lo.find("gets bigger") == std::string_view::npos &&
      lo.find("getting bigger") == std::string_view::npos && lo.find("stacks up") == std::string_view::npos &&
      lo.find("creeps up") == std::string_view::npos && lo.find("creeping up") == std::string_view::npos &&
      lo.find("bigger numbers") == std::string_view::npos &&
      lo.find("n't come back down") == std::string_view::npos && lo.find("never comes back") == std::string_view::npos) {
    return false;
  }
  return each;
}

// The memory named within `before` words before or `after` words after word i of `w` (the words
// of `lo`): "memory", "RAM", "VRAM", "HBM" as a word of its own, not a modifier
// ("memory-efficient", "memory pinning").
bool memory_named_near(const std::vector<std::string_view>& w, std::string_view lo, size_t i, size_t before, size_t after) {
  const size_t from = i >= before ? i - before : 0;
  for (size_t k = from; k < w.size() && k <= i + after; ++k) {
    if (k == i || !(w[k] == "memory" || w[k] == "ram" || w[k] == "vram" || w[k] == "hbm")) continue;
    const size_t end = static_cast<size_t>(w[k].data() - lo.data()) + w[k].size();
    if (end < lo.size() && lo[end] == '-') continue;
    if (k + 1 < w.size() && (w[k + 1] == "pinning" || w[k + 1] == "bandwidth" || w[k + 1] == "access" ||
                             w[k + 1] == "layout" || w[k + 1] == "mapping" || w[k + 1] == "management" ||
                             w[k + 1] == "safety" || w[k + 1] == "locality")) {
      continue;
    }
    return true;
  }
  return false;
}

// Whether `x` is one of `set` (log_text's in_list(), under the short name the word readers below use).
bool in(std::string_view x, std::initializer_list<std::string_view> set) { return in_list(x, set); }

// Memory told short, overflowing or taken in large amounts, word by word (so "param overflow" is
// not "RAM overflow"):
//   - too little of it: "a segmentation fault due to lack of system memory", "my GPU lacks memory",
//     "lacking GPU memory" (not "no lack of memory", not "lack of memory-efficient attention" or
//     "memory pinning");
//   - the memory overflowing within three words: "causes memory overflow", "the GPU memory is
//     overflowing", "the activations overflow the GPU memory" (not denied, prevented or avoided
//     before it; not a check, fp16's loss-scale overflow "detected, skipping", a parameter's or an
//     integer's);
//   - taken in large amounts by what should not hold it: "the gradients take a lot of GPU memory",
//     "the cached features eat lots of VRAM" (a verb of taking before "a lot of" / "lots of": not a
//     device's size, "the A100 has a lot of memory", nor a saving, "cuts / offloads a lot of
//     memory"), unless told as expected or by design; or all of it taken: "it using all machine's
//     memory", "eats up all the RAM", "it takes my whole RAM", "consumed the entire GPU memory" (not
//     the framework's default);
//   - met as a wall: "hit a RAM bottleneck", "ran into the memory limit", "hitting the GPU memory
//     ceiling" (read below; not denied, wished, asked or supposed: "if it hits the memory limit, it
//     spills").
bool memory_short_or_taken(std::string_view lo) {
  const std::vector<std::string_view> w = alnum_words(lo);
  // The verbs of taking the memory, for "all" and "whole" / "entire" below.
  auto taking_verb = [](std::string_view v) {
    return in(v, {"take", "takes", "taking", "took", "use", "uses", "using", "used", "eat", "eats", "eating", "ate",
                  "consume", "consumes", "consuming", "consumed", "occupy", "occupies", "occupying", "occupied", "hog",
                  "hogs", "hogging", "fill", "fills", "filling", "filled", "cost", "costs", "costing"});
  };
  const bool as_meant = contains_any(lo, {"expected", "by design", "is normal", "as intended"});
  // Asked, wished or supposed on the line (the whole / entire and the wall readings below): "will this
  // use the entire GPU memory?", "I want it to use the whole GPU memory", "it's supposed to use".
  // ("should" is read before the verb only, below: "hit a RAM bottleneck (which should not exist ...)".)
  const bool wished_or_asked = lo.find('?') != std::string_view::npos ||
                               contains_any(lo, {"want ", "wants ", "wish", "supposed", "would like"});
  for (size_t i = 0; i < w.size(); ++i) {
    const bool denied_before = (i >= 1 && in(w[i - 1], {"no", "not", "without"})) ||
                               (i >= 2 && in(w[i - 2], {"no", "not", "without"}));
    if (w[i] == "lack" && i + 1 < w.size() && w[i + 1] == "of" && !denied_before && memory_named_near(w, lo, i + 1, 0, 2)) {
      return true;
    }
    if ((w[i] == "lacks" || w[i] == "lacking") && !denied_before && memory_named_near(w, lo, i, 0, 2)) return true;
    if (w[i].rfind("overflow", 0) == 0 && memory_named_near(w, lo, i, 3, 3)) {
      bool other = false;
      for (size_t k = i >= 3 ? i - 3 : 0; k < w.size() && k <= i + 3; ++k) {
        other = other || in(w[k], {"check", "checks", "detected", "skipping", "skip", "loss", "scale", "gradient", "gradients",
                                   "fp16", "param", "params", "parameter", "integer", "stack"});
        if (k < i) other = other || in(w[k], {"no", "not", "without", "prevent", "prevents", "prevented", "avoid", "avoids", "avoided"});
      }
      if (!other) return true;
    }
    // All of it taken: "it using all machine's memory (>200G)", "eats up all the RAM", "consumes all
    // the GPU memory", "caching latents cost all my 11G VRAM" (a verb of taking, "up" between or not, then "all"; the memory within three
    // words after); not as meant or the framework's default ("TensorFlow maps all GPU memory by
    // default").
    if (w[i] == "all" && i >= 1 && !as_meant && lo.find("default") == std::string_view::npos) {
      const size_t v = i >= 2 && w[i - 1] == "up" ? i - 2 : i - 1;
      // Denied before the verb: "doesn't use all", "not using all", "no longer eats up all".
      bool denied = false;
      for (size_t k = v >= 3 ? v - 3 : 0; k < v; ++k) denied = denied || in(w[k], {"not", "t", "never", "longer", "no", "without"});
      // The memory within three words after "all", or a size right after it ("uses all 64GB").
      const bool sized = i + 1 < w.size() && !w[i + 1].empty() && is_digit(w[i + 1].front()) &&
                         (w[i + 1].find("gb") != std::string_view::npos || w[i + 1].find("gib") != std::string_view::npos ||
                          (i + 2 < w.size() && in(w[i + 2], {"gb", "gib", "g", "mb", "tb"})));
      if (!denied && taking_verb(w[v]) && (memory_named_near(w, lo, i, 0, 3) || sized)) {
        return true;
      }
    }
    // All of it taken, told as whole or entire: "takes my whole RAM", "consumed the entire GPU memory",
    // "eats up our whole VRAM", "takes nearly the whole RAM", "consumes entire RAM" (a verb of taking, "up"
    // or a word of degree or not, a determiner (none before "entire"), then "whole" / "entire" and the
    // memory within three words after, not a memory's dump, budget or map); not denied, wished, asked
    // or supposed before the verb ("will this use the entire GPU memory?", "I want it to use the whole
    // GPU memory"), not as meant, not the default.
    if ((w[i] == "whole" || w[i] == "entire") && i >= 1 && !as_meant && !wished_or_asked &&
        lo.find("default") == std::string_view::npos &&
        !contains_any(lo, {"memory dump", "memory budget", "memory map", "memory file", "memory layout"})) {
      size_t d = i - 1;  // the determiner's place, or the verb's where "entire" stands alone
      const bool det = in(w[d], {"my", "the", "our", "your", "its", "their"});
      size_t v = det ? d : i;  // the word after which the verb is looked for
      if (v >= 1 && in(w[v - 1], {"nearly", "almost", "basically", "practically", "virtually", "up"})) --v;
      v = v >= 1 ? v - 1 : 0;
      bool denied = !det && w[i] != "entire";
      for (size_t k = v >= 3 ? v - 3 : 0; k < v; ++k) {
        denied = denied || in(w[k], {"not", "t", "never", "longer", "no", "without", "should", "if", "unless", "will", "would"});
      }
      if (!denied && taking_verb(w[v]) && memory_named_near(w, lo, i, 0, 3)) {
        return true;
      }
    }
    // Met as a wall: "hit a RAM bottleneck", "ran into the memory limit", "I ran into the 16GB memory
    // limit of the T4", "we're hitting memory limits" (hit / ran into, a determiner (none before a plural),
    // a size or a device's word or not, the memory, then bottleneck, wall, ceiling, limit or cap); not
    // denied, wished, asked, supposed or reported from others ("unless we hit the RAM ceiling", "the docs
    // say it runs into the memory limit rarely", "is there a way to prevent running into ...?").
    if (in(w[i], {"bottleneck", "wall", "ceiling", "limit", "cap", "limits", "bottlenecks"}) && i >= 2 &&
        in(w[i - 1], {"memory", "ram", "vram"}) && !wished_or_asked) {
      size_t d = i - 2;
      if (d >= 1 && in(w[d], {"gpu", "cpu", "host", "system", "cuda", "device"})) --d;
      if (d >= 1 && !w[d].empty() && is_digit(w[d].front())) --d;  // "16gb"
      if (d >= 1 && in(w[d], {"gb", "gib", "g"}) && !w[d - 1].empty() && is_digit(w[d - 1].front())) d -= 2;  // "16 gb"
      const bool det = in(w[d], {"a", "the", "my", "our", "its", "their"});
      const bool plural = w[i].back() == 's';
      const size_t verb_at = det ? d - 1 : (plural ? d : 0);  // (0 and d == 0: no room for a verb)
      const bool room = det ? d >= 1 : plural;
      const bool hit = room && (in(w[verb_at], {"hit", "hits", "hitting"}) ||
                                (w[verb_at] == "into" && verb_at >= 1 && in(w[verb_at - 1], {"ran", "run", "runs", "running"})));
      if (hit) {
        const size_t v = w[verb_at] == "into" ? verb_at - 1 : verb_at;
        bool denied = false;
        for (size_t k = v >= 4 ? v - 4 : 0; k < v; ++k) {
          denied = denied || in(w[k], {"not", "t", "never", "no", "without", "if", "when", "once", "whenever", "avoid", "before",
                                       "unless", "prevent", "should", "say", "says", "said", "rarely"});
        }
        if (!denied) return true;
      }
    }
    // The memory told gone as "out" ("the GPU memory is soon out", "the VRAM was quickly out", "RAM is
    // all out"): the memory the subject, "is" / "was" (or "gets" / "goes" and their past) and at most
    // one word of time or degree, then "out" closing the clause (not "out of ...", "out there", "out
    // on the CPU"; not "almost out", memory low).
    if (in(w[i], {"memory", "ram", "vram"}) && i + 2 < w.size() && in(w[i + 1], {"is", "was", "gets", "got", "goes", "went"})) {
      size_t o = i + 2;
      if (in(w[o], {"soon", "quickly", "already", "all", "completely", "rapidly", "immediately"}) && o + 1 < w.size()) ++o;
      if (w[o] == "out" && (o + 1 >= w.size() || !in(w[o + 1], {"of", "there", "here", "on", "to", "in"}))) return true;
      // ... and "out of" with its object left off, the clause closing on it ("the gpu memory is out of, what
      // model are you using?").
      if (w[o] == "out" && o + 1 < w.size() && w[o + 1] == "of") {
        for (std::string_view be : {"memory is out of", "memory was out of", "ram is out of", "ram was out of", "vram is out of",
                                    "vram was out of"}) {
          for (size_t p = lo.find(be); p != std::string_view::npos; p = lo.find(be, p + 1)) {
            size_t k = p + be.size();
            while (k < lo.size() && lo[k] == ' ') ++k;
            if (k < lo.size() && (lo[k] == ',' || lo[k] == '.' || lo[k] == '?' || lo[k] == '!' || lo[k] == ';' || lo[k] == ':')) {
              return true;
            }
          }
        }
      }
    }
    const bool a_lot = w[i] == "lot" && i >= 2 && w[i - 1] == "a" && i + 1 < w.size() && w[i + 1] == "of";
    const bool lots = w[i] == "lots" && i >= 1 && i + 1 < w.size() && w[i + 1] == "of";
    if ((a_lot || lots) && !as_meant &&
        in(w[a_lot ? i - 2 : i - 1], {"take", "takes", "taking", "took", "use", "uses", "using", "used", "eat", "eats", "eating",
                                      "ate", "consume", "consumes", "consuming", "consumed", "occupy", "occupies", "occupying",
                                      "occupied", "hog", "hogs", "hogging", "hold", "holds", "holding"}) &&
        memory_named_near(w, lo, i + 1, 0, 2)) {
      return true;
    }
  }
  return false;
}


// Whether the memory told short at `at` of the lower-cased line `lo` is only supposed, asked or denied:
// a condition in its clause ("If 32 GB memory is not large enough, ...", "When the GPU memory is
// insufficient, the scheduler preempts", "in case the memory is not enough"), its words up to the next
// mark asking ("Maybe the GPU memory is not enough? No error is shown"), or the shortness denied ("I
// don't think the memory is insufficient"). Shared by memory_told_not_sufficient() and the parser's
// "memory is insufficient / not enough" names.
bool memory_shortness_supposed(std::string_view lo, size_t at) {
  const std::string_view clause = clause_at(lo, at);
  // ("when" as the condition that opens its clause, "When the GPU memory is insufficient, the scheduler
  // preempts ...", not the premise after a question's verb, "How do I use two A100s when one A100's memory is
  // insufficient?")
  const std::string_view opening = trim_view(clause);
  const bool when_opens = opening.rfind("when ", 0) == 0 || opening.rfind("whenever ", 0) == 0 ||
                          opening.rfind("and when ", 0) == 0 || opening.rfind("but when ", 0) == 0;
  if (contains_word(clause, "if") || when_opens || contains_word(clause, "unless") || contains_word(clause, "whether") ||
      clause.find("in case") != std::string_view::npos ||
      contains_any(clause, {"don't think", "do not think", "didn't think", "doubt that", "not because", "isn't because"})) {
    return true;
  }
  // Asked: the words up to the next mark end in a question mark, and the shortness itself is what is asked
  // (the clause opens with a verb of asking, "Is 24GB of VRAM not sufficient ...?", or hedges, "Maybe the
  // GPU memory is not enough?"); not a question about something else that tells it as given ("How do I use
  // two A100s when one A100 graphics memory is insufficient?").
  const size_t mark = lo.find_first_of(",.;!?", at);
  if (mark == std::string_view::npos || lo[mark] != '?') return false;
  // (Not a modal's question about a way round it: "Can increasing tensor_parallel_size solve the problem that the
  // single card's memory is not enough?")
  for (std::string_view aux : {"is ", "was ", "are ", "were ", "does ", "do ", "did ", "isn't ", "doesn't ", "maybe ",
                               "perhaps "}) {
    if (opening.rfind(aux, 0) == 0) return true;
  }
  return contains_any(clause, {"maybe", "perhaps", "might", "possibly", "probably", "i guess", "i wonder", "could it be"});
}

// Whether the lower-cased line `lo` names the failure ("out of memory", "OOM", "not enough memory",
// "the memory is insufficient / not enough") and every such name is told absent (name_told_absent()) or
// the memory's shortness only supposed, asked or denied (memory_shortness_supposed()). False for a line
// that names no failure.
bool names_all_denied(std::string_view lo) {
  int denied = 0;
  for (std::string_view name : {"out of memory", "out-of-memory", "oom", "not enough memory", "insufficient memory",
                                "memory is insufficient", "memory was insufficient", "memory is not enough",
                                "memory was not enough", "memory isn't enough"}) {
    for (size_t p = lo.find(name); p != std::string_view::npos; p = lo.find(name, p + 1)) {
      if (name == "oom" && !is_word_at(lo, p, 3) &&
          !(word_starts_at(lo, p) && (lo.compare(p, 4, "ooms") == 0 || lo.compare(p, 5, "oomed") == 0))) {
        continue;
      }
      if (!word_starts_at(lo, p)) continue;
      const bool shortness = name.rfind("memory ", 0) == 0;
      if (name_told_absent(lo, p) || (shortness && memory_shortness_supposed(lo, p))) {
        ++denied;
      } else {
        return false;
      }
    }
  }
  // (A failure told live in other words beside the denied name: "This is not a CUDA out of memory error, the
  // machine runs out.")
  return denied > 0 && !contains_any(lo, {"runs out", "ran out", "run out", "running out", "killed", "crashes", "crashed"});
}

// The memory itself told not sufficient (or not large or big enough), in words that ask nothing up to the
// next mark ("since a single GPU's VRAM isn't sufficient to accommodate such large models, are there plans
// ...?"), not "Is 24GB of VRAM not sufficient for the 7B model?", nor something else ("empty_cache() is not
// sufficient", "the memory bandwidth ... is not sufficient").
bool memory_told_not_sufficient(std::string_view lo) {
  // The memory's name, then its verb (is / was, denied, with a curly apostrophe as well), then sufficient or
  // large / big enough ("either my gpu memory nor my cpu memory isn't large enough to run the code", "My VRAM
  // isn't big enough", "my GPU wasn't large enough").
  static constexpr std::string_view kNouns[] = {"vram ", "memory ", "ram ", "gpu "};
  static constexpr std::string_view kVerbs[] = {"isn't ", "is not ", "isn\xe2\x80\x99t ", "wasn't ", "was not ",
                                                "wasn\xe2\x80\x99t ", ""};
  static constexpr std::string_view kWhat[] = {"sufficient", "large enough", "big enough"};
  for (std::string_view noun : kNouns) {
    for (size_t n = lo.find(noun); n != std::string_view::npos; n = lo.find(noun, n + 1)) {
      if (n > 0 && is_alpha(lo[n - 1])) continue;  // (not "dram", "program")
      const std::string_view rest = lo.substr(n + noun.size());
      size_t at = std::string_view::npos;
      for (std::string_view verb : kVerbs) {
        if (rest.rfind(verb, 0) != 0) continue;
        // (The bare "not" only for VRAM's "vram not sufficient"; "gpu" only with a verb.)
        if (verb.empty() && (noun != "vram " || rest.rfind("not sufficient", 0) != 0)) continue;
        const std::string_view tail = verb.empty() ? rest.substr(4) : rest.substr(verb.size());
        for (std::string_view what : kWhat) {
          if (tail.rfind(what, 0) == 0) at = n;
        }
        if (at != std::string_view::npos) break;
      }
      if (at == std::string_view::npos) continue;
      // (Nor supposed, asked or denied: "If 32 GB memory is not large enough, what's the right size?", "When
      // the GPU memory isn't large enough, DeepSpeed offloads", "in case the GPU memory is not large enough".)
      if (!memory_shortness_supposed(lo, at)) return true;
    }
  }
  return false;
}

// The memory told past its cap: "exceed(s / ed / ing) its / the / this (memory) limit" with the memory
// ("memory", "RAM", "VRAM") the subject, within 30 characters before the verb: "it causes the memory
// to exceed its limit after a few epochs"; or the limit named the memory's ("many of them exceeded this
// memory limit", "the job exceeded its memory limit"). Not a prompt's tokens or a file's size past a limit
// (their noun nearer the verb), not denied ("never exceeds the limit", "doesn't exceed"), not a
// rule told for when it happens ("when / if / once the memory exceeds the limit, it spills to disk").
bool memory_exceeds_its_limit(std::string_view lo) {
  for (size_t p = lo.find("exceed"); p != std::string_view::npos; p = lo.find("exceed", p + 6)) {
    if (!word_starts_at(lo, p)) continue;
    size_t e = p + 6;
    while (e < lo.size() && is_alpha(lo[e])) ++e;
    const std::string_view after = lo.substr(e, 26);
    // The memory's name right before, a trouble's noun right after ("I met a RAM exceeding problem", "a
    // GPU memory exceeded error", "memory exceeding issues"): the memory past its limit, named as the
    // trouble; not denied nor supposed in its clause.
    {
      const std::string_view just_before = lo.substr(p >= 7 ? p - 7 : 0, p >= 7 ? 7 : p);
      const bool memory_before = (just_before.size() >= 4 && just_before.substr(just_before.size() - 4) == "ram ") ||
                                 just_before == "memory ";
      const bool trouble_after = after.rfind(" problem", 0) == 0 || after.rfind(" issue", 0) == 0 || after.rfind(" error", 0) == 0;
      const std::string_view clause = memory_before && trouble_after ? clause_at(lo, p) : std::string_view();
      if (memory_before && trouble_after && !contains_word(clause, "if") && !contains_word(clause, "no") &&
          !contains_word(clause, "not") && clause.find("n't") == std::string_view::npos &&
          !contains_any(clause, {"warn", "before", "would", "avoid", "prevent", "feature"})) {
        return true;
      }
    }
    // The limit named as the memory's own ("exceeded this memory limit", "exceeded their memory
    // limit", "exceeds the job's memory limit"): the memory needs no subject of its own then.
    const bool memory_limit = after.rfind(" its memory limit", 0) == 0 || after.rfind(" the memory limit", 0) == 0 ||
                              after.rfind(" this memory limit", 0) == 0 || after.rfind(" their memory limit", 0) == 0 ||
                              after.rfind(" my memory limit", 0) == 0 || after.rfind(" the job's memory limit", 0) == 0 ||
                              after.rfind(" the gpu memory limit", 0) == 0 || after.rfind(" its gpu memory limit", 0) == 0;
    if (!memory_limit && after.rfind(" its limit", 0) != 0 && after.rfind(" the limit", 0) != 0 &&
        after.rfind(" this limit", 0) != 0) {
      continue;
    }
    const size_t from = p > 30 ? p - 30 : 0;
    const std::string_view before = lo.substr(from, p - from);
    const bool denied_or_rule = contains_word(before, "never") || contains_word(before, "not") ||
                                before.find("n't") != std::string_view::npos || contains_word(before, "when") ||
                                contains_word(before, "if") || contains_word(before, "once") ||
                                contains_word(before, "whenever");
    if (memory_limit) {
      if (denied_or_rule || asked_at(lo, p) || contains_any(before, {"token", "file", "upload", "rate", "prompt", "length"})) {
        continue;
      }
      return true;
    }
    // The nearest noun before the verb is the memory's.
    size_t mem = std::string_view::npos;
    for (std::string_view m : {"memory", "ram", "vram"}) {
      for (size_t q = before.find(m); q != std::string_view::npos; q = before.find(m, q + 1)) {
        if (is_word_at(before, q, m.size()) && (mem == std::string_view::npos || q > mem)) mem = q;
      }
    }
    if (mem == std::string_view::npos) continue;
    const std::string_view between = before.substr(mem);
    if (contains_any(between, {"token", "file", "upload", "size", "rate", "prompt", "request", "length"})) continue;
    if (denied_or_rule) continue;
    return true;
  }
  return false;
}

// A line of Python that names an exception (`lo` lowercased): an `except` clause ("except
// tf.errors.ResourceExhaustedError:", "except (ValueError, ResourceExhaustedError) as e:  # retry",
// "except (" opening a tuple over lines), a name alone inside such a tuple
// ("    tf.errors.ResourceExhaustedError,"), an import, a raise or an isinstance() test. The clause is
// the keyword first on the line, then only names, commas, parentheses and "as <name>" up to its ':'
// (a '#' comment after it is dropped): "Except for the first epoch: ResourceExhaustedError" is
// prose ("for the first epoch" are no names of an exception), and so is "I wrapped it in
// try/except but ResourceExhaustedError still kills the notebook:".
bool exception_named_in_code(std::string_view lo) {
  std::string_view t = trim_view(lo);
  if (t.rfind("import ", 0) == 0 || t.rfind("from ", 0) == 0 || t.rfind("raise ", 0) == 0 ||
      t.find("isinstance(") != std::string_view::npos) {
    return true;
  }
  const auto name_char = [](char c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '.'; };
  // A name alone, with the comma or parenthesis of a tuple after it.
  size_t k = 0;
  while (k < t.size() && name_char(t[k])) ++k;
  if (k > 0 && (k == t.size() || ((t[k] == ',' || t[k] == ')') && k + 1 == t.size()))) return true;
  if (t.rfind("except", 0) != 0 || (t.size() > 6 && name_char(t[6]))) return false;
  if (const size_t hash = t.find('#'); hash != std::string_view::npos) t = trim_view(t.substr(0, hash));
  if (t.back() == '(') return true;  // "except (" opening a tuple over lines
  const size_t colon = t.find(':');
  if (colon == std::string_view::npos) return false;
  // Between the keyword and the ':': names, ',', '(', ')' and "as".
  bool a_name = false;
  for (size_t p = 6; p < colon;) {
    const char c = t[p];
    if (c == ' ' || c == ',' || c == '(' || c == ')') {
      ++p;
      continue;
    }
    size_t e = p;
    while (e < colon && name_char(t[e])) ++e;
    if (e == p) return false;  // another character: prose
    const std::string_view w = t.substr(p, e - p);
    // An exception's name: ends in "error" / "exception" / "exhausted", or is dotted; "as" and the
    // name bound after it are allowed.
    const bool exception_name = w.find('.') != std::string_view::npos ||
                                (w.size() > 5 && (w.substr(w.size() - 5) == "error" || w.find("exception") != std::string_view::npos ||
                                                  w.find("exhausted") != std::string_view::npos));
    // Python 2 binds the name after a comma ("except tf.errors.ResourceExhaustedError, e:").
    const std::string_view before_name = trim_view(t.substr(6, p - 6));
    const bool py2_bound =
        trim_view(t.substr(e, colon - e)).empty() && !before_name.empty() && before_name.back() == ',';
    if (exception_name) a_name = true;
    else if (w != "as" && !(p >= 3 && t.substr(p - 3, 3) == "as ") && !py2_bound) return false;
    p = e;
  }
  return a_name;
}

// The rest of a line after "too big to load into memory" going on to the way around it already
// taken: a connective ("so", "hence", "therefore", "thus", "instead", "which is why", "that's
// why"), then within four words a word of the workaround, whoever takes it ("..., so I use
// streaming", "hence we load it in chunks", "so the script streams it", "hence the use of
// np.memmap", "therefore my approach reads it lazily"), and no failure of that way told after it
// ("..., so I stream it, but the kernel dies", "... and the machine freezes"): that is a report.
bool way_around_taken(std::string_view after) {
  const std::vector<std::string_view> w = alnum_words(after);  // "i'm": "i", "m"
  for (size_t i = 0; i < w.size(); ++i) {
    const bool connective = in(w[i], {"so", "hence", "therefore", "thus", "instead"}) ||
                            (w[i] == "why" && i >= 1 && in(w[i - 1], {"which", "that", "s", "thats", "is"}));
    if (!connective) continue;
    for (size_t k = i + 1; k < w.size() && k <= i + 4; ++k) {
      const std::string_view v = w[k];
      const bool workaround =
          in(v, {"use", "uses", "used", "using", "stream", "streams", "streamed", "streaming", "load", "loads", "loaded",
                 "loading", "read", "reads", "reading", "process", "processes", "processed", "processing", "split", "splits",
                 "splitting", "chunk", "chunks", "chunked", "iterate", "iterates", "switched", "mmap", "memmap", "lazily",
                 "lazy", "approach"});
      if (!workaround) continue;
      // The way around failing in turn, told after it.
      const std::string_view rest = after.substr(static_cast<size_t>(v.data() - after.data()));
      for (std::string_view f : {"but", "however", "still", "dies", "died", "crash", "crashes", "crashed", "freezes", "froze",
                                 "frozen", "oom", "killed", "error", "errors", "fails", "failed", "hangs"}) {
        if (contains_word(rest, f)) return false;
      }
      if (rest.find("100%") != std::string_view::npos || rest.find("out of memory") != std::string_view::npos) return false;
      return true;
    }
  }
  return false;
}

// A line that tells of memory trouble in words, neither naming an OOM nor a growth: a memory
// noun ("memory", "RAM", "VRAM", "HBM", zh "显存"/"内存", XLA's "RESOURCE_EXHAUSTED") beside a word
// of failure or pressure ("a CUDA memory error", "used over 12G RAM and crashed", "the RAM usage
// hit the peak and the runtime got restarted", "ram is consumed until it depletes", "RAM is not
// enough", "GPU Memory Leakage", "CUDA内存不足"). A fact about memory ("peak memory 3.2 GiB", "the
// model takes up 13 GB of GPU memory", "memory usage is stable") holds no such word; a bad address
// ("illegal memory access"), an RPC status or quota, or a fix announced is no OOM.
// More memory needed than there is, with both sizes told: "the model requires 24 GB of VRAM but
// only 16 GB is available", "needs 207.42 GiB, host has 30.60 GiB", "need 12.5 GiB, have 8.0
// GiB". A word of need, a size (prose_number_at()) within 30 characters, then within 60 more a second, smaller size
// with a word of having ("available", "free", "has", "have", "only", "left"). Not disk or
// download space, not the other way round ("needs 8 GB, has 24 GB"), not a question or a
// supposition ("if it needs 24 GB and I have 16 GB, ...").
// A size told in prose at `p` of the lower-cased `lo` (prose_number_at() with a memory unit, its text
// at most 12 characters): its bytes and where it ends; nullopt otherwise.
std::optional<std::pair<double, size_t>> memory_size_at(std::string_view lo, size_t p) {
  const std::optional<ProseNumber> s = prose_number_at(lo, p);
  if (!s || s->unit_bytes == 0 || s->chars > 12) return std::nullopt;
  return std::make_pair(s->value * static_cast<double>(s->unit_bytes), s->end);
}

bool needs_more_than_it_has(std::string_view lo) {
  if (lo.find("disk") != std::string_view::npos || lo.find("storage") != std::string_view::npos ||
      lo.find("space") != std::string_view::npos || lo.find("download") != std::string_view::npos ||
      lo.find(" on /") != std::string_view::npos || lo.find('?') != std::string_view::npos) {
    return false;
  }
  // Supposed, conditional, told as a rule, resolved or denied: "in case", "suppose", "when", "runs
  // fine now", "does not need ... anymore", advice ("that is why ... should use").
  for (const char* w : {"if", "whether", "suppose", "case", "when", "whenever", "anymore", "fine", "previously",
                        "should", "recommended", "minimum", "tip"}) {
    if (contains_word(lo, w)) return false;
  }
  if (lo.find("not need") != std::string_view::npos || lo.find("n't need") != std::string_view::npos ||
      lo.find("no longer") != std::string_view::npos) {
    return false;
  }
  for (const char* need : {"requires", "require", "required", "needs", "need", "needed", "requested"}) {
    for (size_t w = lo.find(need); w != std::string_view::npos; w = lo.find(need, w + 1)) {
      if (!is_word_at(lo, w, std::strlen(need))) continue;
      const size_t from = w + std::strlen(need);
      std::optional<std::pair<double, size_t>> x;
      for (size_t xp = from; xp < lo.size() && xp < from + 30 && !x; ++xp) x = memory_size_at(lo, xp);
      if (!x) continue;
      for (size_t yp = x->second; yp < lo.size() && yp < x->second + 60; ++yp) {
        const auto y = memory_size_at(lo, yp);
        if (!y) continue;
        const std::string_view around = lo.substr(x->second, std::min(lo.size(), y->second + 25) - x->second);
        bool having = false;
        for (const char* h : {"available", "free", "has", "have", "only", "left"}) having = having || contains_word(around, h);
        if (having && x->first > y->first * 1.02) return true;
        break;
      }
    }
  }
  return false;
}

// A setting the writer lowered to make the work fit, told in `before` (a clause of `lo` up to its
// "to fit"): "to " ends it, a lowering verb as a word (decrease, reduce, lower, cut, shrink, drop, in
// any tense) with "I" or "we" before it; not advice ("you have to reduce ...", "try to reduce ...",
// "should"), nor "slower" (whole words).
bool lowered_by_writer_to_fit(std::string_view before) {
  if (before.size() < 3 || before.substr(before.size() - 3) != "to ") return false;
  if (contains_word(before, "you") || contains_word(before, "try") || contains_word(before, "should") ||
      contains_any(before, {"learning rate", "schedule"}) || contains_word(before, "lr")) {
    return false;  // (advice, or a setting that holds no memory: "lower the learning rate to fit the schedule")
  }
  const std::vector<std::string_view> w = alnum_words(before);
  for (size_t i = 0; i < w.size(); ++i) {
    if (!in_list(w[i], {"decrease", "decreased", "decreasing", "reduce", "reduced", "reducing", "lower", "lowered", "lowering",
                        "cut", "shrink", "shrank", "shrunk", "drop", "dropped"})) {
      continue;
    }
    for (size_t j = 0; j < i; ++j) {
      if (w[j] == "i" || w[j] == "we") return true;
    }
  }
  return false;
}

// The memory's limit told by what fits:
//   - the largest batch that fits, on the writer's own GPU ("on one 2080ti the largest batch size
//     that fits is 4", "the biggest batch size that fits on my 3090 is 4"): a GPU named, the writer's
//     ("i", "my", "we", "our") or one card ("on one", "on a single"); not a document's figure
//     ("according to the README", "see the model card", "in the paper"), not asked ('?' unless a question is tacked
//     on after it: question_tacked_on()), not supposed ("if");
//   - zh: 只能开到 / 只能设到 / 只能设置到 / 最多只能 / 最大只能 (can only go up to) with a batch in the 24 bytes
//     before or after it, on a line that names a GPU or 显存, its clause not asked or supposed:
//     "我一张2080ti训练表格的那部分只能开到batchsize=4", "batchsize只能开到4".
bool fit_limit_told(std::string_view lo) {
  static constexpr std::string_view kOnlyUpTo[] = {
      "\xe5\x8f\xaa\xe8\x83\xbd\xe5\xbc\x80\xe5\x88\xb0", "\xe5\x8f\xaa\xe8\x83\xbd\xe8\xae\xbe\xe5\x88\xb0",
      "\xe5\x8f\xaa\xe8\x83\xbd\xe8\xae\xbe\xe7\xbd\xae\xe5\x88\xb0", "\xe6\x9c\x80\xe5\xa4\x9a\xe5\x8f\xaa\xe8\x83\xbd",
      "\xe6\x9c\x80\xe5\xa4\xa7\xe5\x8f\xaa\xe8\x83\xbd"};
  // (The phrases first: gpu_named() only on a line that holds one.)
  const bool only_up_to = std::any_of(std::begin(kOnlyUpTo), std::end(kOnlyUpTo),
                                      [&](std::string_view o) { return lo.find(o) != std::string_view::npos; });
  if (only_up_to && (lo.find("\xe6\x98\xbe\xe5\xad\x98") != std::string_view::npos || gpu_named(lo))) {
    for (std::string_view only : kOnlyUpTo) {
      for (size_t p = lo.find(only); p != std::string_view::npos; p = lo.find(only, p + only.size())) {
        if (zh_asked_supposed_or_denied(clause_at(lo, p))) continue;
        const std::string_view near = lo.substr(p >= 24 ? p - 24 : 0, (p >= 24 ? 24 : p) + only.size() + 24);
        if (near.find("batch") != std::string_view::npos || contains_word(near, "bs")) return true;
      }
    }
  }
  if (lo.find("fits") == std::string_view::npos) return false;
  for (std::string_view sen : sentences(lo)) {
    if (contains_word(sen, "if") || contains_any(sen, {"according to", "readme", "model card", "documentation", "the docs",
                                                       "in the paper", "see the "})) {
      continue;
    }
    const bool writers = contains_word(sen, "i") || contains_word(sen, "my") || contains_word(sen, "we") ||
                         contains_word(sen, "our") || contains_any(sen, {"on one ", "on a single "});
    if (!writers || !(gpu_named(sen) || contains_word(sen, "gpu"))) continue;
    for (std::string_view largest : {"largest batch size that fits", "largest batch that fits", "biggest batch size that fits",
                                     "biggest batch that fits", "maximum batch size that fits", "max batch size that fits",
                                     "can only fit a batch", "could only fit a batch", "only fits a batch"}) {
      const size_t at = sen.find(largest);
      if (at != std::string_view::npos && (sen.find('?') == std::string_view::npos || question_tacked_on(sen, at))) return true;
    }
  }
  return false;
}

// zh: more memory needed than the machine has, both sizes told on the line: 需要 <size> with the same
// memory's name (内存 with 内存, 显存 with 显存) in the 12 bytes after the size or before 需要 ("提示需要52G
// 的内存", "显存至少需要24G"), and that memory named elsewhere on the line with a smaller size in the 12
// bytes after it ("机器内存4核32G", "我的显存只有12G"), not a use or a sufficiency beside it (占用 "takes",
// 只要 "only needs", 就够 / 够用 "is enough"). Not on a line that asks (吗, or ?, ？ other than why alone:
// zh_asked_why_only()) or denies the need (不需要 / 并不需要).
bool zh_needs_more_than_it_has(std::string_view lo) {
  constexpr std::string_view kNeed = "\xe9\x9c\x80\xe8\xa6\x81";  // 需要
  if (lo.find(kNeed) == std::string_view::npos ||
      contains_any(lo, {"\xe5\x90\x97", "\xe4\xb8\x8d\xe9\x9c\x80\xe8\xa6\x81"})) {  // 吗, 不需要
    return false;
  }
  // (A question on the line asks of it, unless it asks only why: "为何需要如此之大的内存？" (why is so
  // much memory needed?) tells the need.)
  for (std::string_view c : clauses(lo)) {
    if ((c.find('?') != std::string_view::npos || c.find("\xef\xbc\x9f") != std::string_view::npos) && !zh_asked_why_only(c)) {
      return false;
    }
  }
  // The first size (memory_size_at()) starting in the `span` bytes from `from`.
  auto size_from = [&](size_t from, size_t span) -> std::optional<std::pair<double, size_t>> {
    for (size_t p = from; p < lo.size() && p < from + span; ++p) {
      if (!is_digit(lo[p]) || (p > 0 && is_digit(lo[p - 1]))) continue;
      if (const auto n = memory_size_at(lo, p)) return n;
    }
    return std::nullopt;
  };
  for (std::string_view m : {std::string_view("\xe5\x86\x85\xe5\xad\x98"), std::string_view("\xe6\x98\xbe\xe5\xad\x98")}) {
    for (size_t w = lo.find(kNeed); w != std::string_view::npos; w = lo.find(kNeed, w + kNeed.size())) {
      const auto need = size_from(w + kNeed.size(), 8);
      if (!need) continue;
      const size_t own_before = lo.substr(w >= 12 ? w - 12 : 0, w >= 12 ? 12 : w).find(m);
      const size_t own_after = lo.substr(need->second, 12).find(m);
      if (own_before == std::string_view::npos && own_after == std::string_view::npos) continue;
      for (size_t h = lo.find(m); h != std::string_view::npos; h = lo.find(m, h + m.size())) {
        if (h + 12 >= w && h < need->second + 12) continue;  // the need's own memory word
        const std::string_view beside = lo.substr(h, 24);
        if (contains_any(beside, {"\xe5\x8d\xa0\xe7\x94\xa8", "\xe5\x8f\xaa\xe8\xa6\x81", "\xe5\xb0\xb1\xe5\xa4\x9f",
                                  "\xe5\xa4\x9f\xe7\x94\xa8"})) {  // 占用 只要 就够 够用
          continue;
        }
        const auto has = size_from(h + m.size(), 12);
        if (has && has->first * 1.02 < need->first) return true;
      }
    }
  }
  return false;
}

// A Chinese line whose 显存 / 顯存 (the GPU's memory) sits only in clauses that tell it has room
// (还有 / 还剩 "still has", 充足 "ample", 够用 "enough", 正常 "normal", 很多 "plenty", 空闲 "free"),
// while 内存 (the host's memory) is named in another clause.
bool zh_gpu_memory_only_fine(std::string_view lo) {
  constexpr std::string_view kGpu = "\xe6\x98\xbe\xe5\xad\x98", kGpuTrad = "\xe9\xa1\xaf\xe5\xad\x98",
                             kHost = "\xe5\x86\x85\xe5\xad\x98";
  if (lo.find(kHost) == std::string_view::npos) return false;
  bool gpu_seen = false;
  size_t from = 0;
  while (from < lo.size()) {
    size_t end = lo.size();
    for (const char* sep : {"\xef\xbc\x8c", "\xe3\x80\x82", "\xef\xbc\x9b", ",", "\xef\xbc\x81"}) {
      const size_t at = lo.find(sep, from);
      if (at != std::string_view::npos) end = std::min(end, at + std::strlen(sep));
    }
    const std::string_view clause = lo.substr(from, end - from);
    from = end;
    if (clause.find(kGpu) == std::string_view::npos && clause.find(kGpuTrad) == std::string_view::npos) continue;
    gpu_seen = true;
    bool fine = false;
    for (const char* w : {"\xe8\xbf\x98\xe6\x9c\x89", "\xe8\xbf\x98\xe5\x89\xa9", "\xe5\x85\x85\xe8\xb6\xb3",
                          "\xe5\xa4\x9f\xe7\x94\xa8", "\xe6\xad\xa3\xe5\xb8\xb8", "\xe5\xbe\x88\xe5\xa4\x9a",
                          "\xe7\xa9\xba\xe9\x97\xb2"}) {
      fine = fine || clause.find(w) != std::string_view::npos;
    }
    if (!fine) return false;
  }
  return gpu_seen;
}

// Every "ram" on `lo` (lower case) a listed size ("32GB RAM", "32 GB of RAM", "64g ram"): a machine's
// specification, not memory told running out. False where "ram" is not on the line.
bool ram_only_as_spec(std::string_view lo) {
  bool any = false;
  for (size_t p = lo.find("ram"); p != std::string_view::npos; p = lo.find("ram", p + 3)) {
    if (!is_word_at(lo, p, 3)) continue;
    any = true;
    std::string_view before = lo.substr(0, p);
    while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
    if (before.size() >= 3 && before.substr(before.size() - 3) == " of") {
      before.remove_suffix(3);
      while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
    }
    size_t u = before.size();
    while (u > 0 && is_alpha(before[u - 1])) --u;
    const std::string_view unit = before.substr(u);
    if (unit != "gb" && unit != "g" && unit != "gib" && unit != "tb") return false;
    before = before.substr(0, u);
    while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
    if (before.empty() || !is_digit(before.back())) return false;
  }
  return any;
}

// A Chinese line naming the host's memory (内存) and no accelerator's (显存 / 顯存 / 显卡, a GPU, CUDA,
// VRAM), 内存 not only in 内存溢出 (the generic name of an out-of-memory error, of no device); not a
// leak's title (内存泄漏 / 泄露: the memory grows, which the leak's reading weighs, not a device's).
bool zh_host_memory_only(std::string_view lo) {
  // Not asked, supposed or denied ("如果正常解码过程遇到内存不足 (OOM) 错误": if it meets one).
  if (zh_host_memory_named(lo) == 0 || zh_asked_supposed_or_denied(lo)) return false;
  // GPUs as Chinese counts them ("8卡3090", "每张卡只占用了13G内存": per card; "卡上" on the card): the
  // 内存 told is the cards'.
  constexpr std::string_view kCard = "\xe5\x8d\xa1";  // 卡
  for (size_t p = lo.find(kCard); p != std::string_view::npos; p = lo.find(kCard, p + 3)) {
    const bool counted = (p > 0 && is_digit(lo[p - 1])) || (p >= 3 && lo.substr(p - 3, 3) == "\xe5\xbc\xa0");  // 8卡, 张卡
    const bool on_card = lo.substr(p + 3, 3) == "\xe4\xb8\x8a";                                             // 卡上
    if (counted || on_card) return false;
  }
  return !contains_any(lo, {"\xe6\x98\xbe\xe5\xad\x98", "\xe9\xa1\xaf\xe5\xad\x98", "\xe6\x98\xbe\xe5\x8d\xa1", "gpu",
                            "cuda", "vram", "\xe6\xb3\x84\xe6\xbc\x8f", "\xe6\xb3\x84\xe9\x9c\xb2"});
}

// A memory failure told caused ("the memory would be accumulated and finally caused memory failure",
// "it causes memory failure"), with no modal or denial as a word in the 16 characters before ("this
// might have caused memory failure", "never caused memory failure"); not asked ('?' in its clause).
bool memory_failure_caused(std::string_view lo) {
  for (std::string_view w : {"caused memory failure", "causes memory failure"}) {
    for (size_t p = lo.find(w); p != std::string_view::npos; p = lo.find(w, p + 1)) {
      const std::string_view before = lo.substr(p >= 16 ? p - 16 : 0, p >= 16 ? 16 : p);
      bool hedged = before.find("n't ") != std::string_view::npos;
      for (std::string_view m : {"could", "would", "might", "may", "can", "not", "never", "no", "will"}) {
        hedged = hedged || contains_word(before, m);
      }
      if (!word_starts_at(lo, p) || clause_at(lo, p).find('?') != std::string_view::npos || hedged) continue;
      return true;
    }
  }
  return false;
}

// The memory told short, "short of" / "short on" before the memory's name within its first two words
// ("my 1080ti is running short of gpu memory", "we are short on VRAM", "short of RAM"), in a sentence
// that neither asks ('?') nor supposes ("if you're short on VRAM, pass --lowvram"); not denied just
// before ("we're not short on VRAM", "never short of memory"), not of something else ("short of
// ideas", "short on memory bandwidth") nor a result falling short ("falls short of memory savings").
bool memory_told_short(std::string_view lo) {
  for (std::string_view t : sentences(lo)) {
    if (t.find('?') != std::string_view::npos || contains_word(t, "if")) continue;
    for (std::string_view s : {"short of ", "short on "}) {
      for (size_t p = t.find(s); p != std::string_view::npos; p = t.find(s, p + 1)) {
        if (!word_starts_at(t, p)) continue;
        // Words from "short": the memory's name among the two after "of" / "on" (memory_named_near()).
        const std::string_view from_short = t.substr(p);
        const std::vector<std::string_view> ws = alnum_words(from_short);
        bool memory = memory_named_near(ws, from_short, 1, 0, 2);
        for (size_t k = 2; k < ws.size() && k < 6; ++k) memory = memory && ws[k] != "efficiency" && ws[k] != "savings" && ws[k] != "saving";
        const std::string_view before = t.substr(p >= 12 ? p - 12 : 0, p >= 12 ? 12 : p);
        const bool denied = contains_word(before, "not") || contains_word(before, "never") || contains_word(before, "no") ||
                            before.find("n't ") != std::string_view::npos;
        const bool falls = contains_any(before, {"fall ", "falls ", "fell ", "falling "});
        if (memory && !denied && !falls) return true;
      }
    }
  }
  return false;
}

// `lo` with each word one letter from "memory" (one_edit_from(): "memery", "memroy", "memoy"; five
// letters or more, opening with 'm') spelled right, so the readings of memory trouble read it; empty
// where none is misspelt.
std::string memory_spelled(std::string_view lo) {
  std::string out;
  bool any = false;
  size_t done = 0;
  for (size_t p = lo.find('m'); p != std::string_view::npos; p = lo.find('m', p + 1)) {
    if (p > 0 && (is_alpha(lo[p - 1]) || is_digit(lo[p - 1]))) continue;
    size_t e = p;
    while (e < lo.size() && is_alpha(lo[e])) ++e;
    const std::string_view w = lo.substr(p, e - p);
    if (w.size() < 5 || !one_edit_from(w, "memory")) continue;
    out.append(lo.substr(done, p - done));
    out += "memory";
    done = e;
    any = true;
  }
  if (!any) return {};
  out.append(lo.substr(done));
  return out;
}

// A run told ended by another's hand after the memory it took, in one sentence: the memory's name
// with its use told before "aborted" / "terminated" ("32G memory was used in 10 sec and the job has
// been aborted", "RAM usage reached 60GB and then the process is terminated"); not the user's own
// ("I aborted the run"), nor ended for another reason (a time limit, a timeout, Ctrl-C, "finished",
// "normally", NCCL).
bool ended_after_memory_taken(std::string_view lo) {
  if (lo.find("abort") == std::string_view::npos && lo.find("terminat") == std::string_view::npos) return false;
  for (std::string_view sen : sentences(lo)) {
    size_t end = std::string_view::npos;
    for (std::string_view e : {"has been aborted", "was aborted", "got aborted", "gets aborted", "were aborted", "is aborted",
                               "have been aborted", "has been terminated", "was terminated", "got terminated", "gets terminated",
                               "were terminated", "is terminated", "job aborts", "process aborts"}) {
      end = std::min(end, sen.find(e));
    }
    if (end == std::string_view::npos) continue;
    if (contains_any(sen, {"time limit", "timeout", "timed out", "walltime", "wall time", "ctrl", "normally", "finished", "by me",
                           "manually", "nccl", "i aborted", "we aborted", "i terminated", "we terminated"})) {
      continue;
    }
    const std::string_view before = sen.substr(0, end);
    const bool memory = contains_word(before, "memory") || contains_word(before, "ram") || contains_word(before, "vram");
    const bool taken = size_named(before, true) || contains_any(before, {"used", "usage", "consum", "reached", "exceed", "grew",
                                                                         "growing", "filled", "full", "eaten", "ate "});
    if (memory && taken) return true;
  }
  return false;
}

bool memory_trouble_prose(std::string_view lo) {
  if (const std::string spelled = memory_spelled(lo); !spelled.empty()) return memory_trouble_prose(spelled);
  if (needs_more_than_it_has(lo)) return true;
  // A memory-allocation failure named ("CPU mode memory allocation issue", "I got the memory allocation
  // issue", "a huge GPU memory spike and allocation failure": "memory" in the four words before
  // "allocation", and no other thing allocated just before it, a port, a handle, a context, a job),
  // in a clause that does not deny it ("no memory allocation error", "no allocation failure"), ask
  // about it, suppose or guess it ("probably a memory allocation issue in the tokenizer"), nor tell a
  // fallback ("pinned host allocation failed, falling back to pageable memory"); not on a line of a
  // fix's title or code's words ("Fix memory allocation issues (#123)", "// handle memory allocation
  // failure").
  auto memory_allocation_failure = [](std::string_view c) {
    if (contains_any(c, {"memory allocation issue", "memory allocation error", "memory allocation problem",
                         "memory allocation fail"})) {
      return true;
    }
    for (std::string_view f : {"allocation failure", "allocation failed"}) {
      for (size_t p = c.find(f); p != std::string_view::npos; p = c.find(f, p + 1)) {
        const std::string_view before = c.substr(0, p);
        const std::vector<std::string_view> ws = alnum_words(before);
        if (ws.empty()) continue;
        static constexpr std::string_view kOther[] = {"port", "handle", "descriptor", "context", "address", "ip", "job",
                                                      "node", "slot", "resource", "file", "pinned", "host", "buffer",
                                                      "session", "stream", "queue", "ticket", "ring"};
        if (std::find(std::begin(kOther), std::end(kOther), ws.back()) != std::end(kOther)) continue;
        // (None told: "no allocation failure", "0 allocation failures"; "10 allocation failures" are some.)
        if (ws.back() == "no" || ws.back() == "0" || ws.back() == "zero") continue;
        for (size_t k = ws.size() > 4 ? ws.size() - 4 : 0; k < ws.size(); ++k) {
          if (ws[k] == "memory") return true;
        }
      }
    }
    return false;
  };
  // (A fix's title opens its line with the word: "Fix memory allocation issues on Windows"; "I tried to fix
  // the memory allocation error" is the user's.)
  const std::string_view opening = trim_view(lo).substr(0, 6);
  if (!contains_any(lo, {"//", "(#", "pull request"}) && !contains_word(lo, "pr") && opening.rfind("fix ", 0) != 0 &&
      opening.rfind("fixes ", 0) != 0 &&
      opening.rfind("fixed ", 0) != 0) {
    for (std::string_view c : clauses(lo)) {
      if (memory_allocation_failure(c) && !told_not_so(c) && !contains_word(c, "if") && c.find('?') == std::string_view::npos &&
          !contains_any(c, {"no memory allocation", "without", "probably", "maybe", "might", "could be", "seems", "suspect", "whether", "likely",
                            "perhaps", "handle", "catch", "avoid", "prevent", "fall back", "falling back", "falls back",
                            "retry", "retrying"})) {
        return true;
      }
    }
  }
  auto any_word = [&](std::initializer_list<const char*> ws) {
    return std::any_of(ws.begin(), ws.end(), [&](const char* w) { return contains_word(lo, w); });
  };
  auto any_text = [&](std::initializer_list<const char*> ws) {
    for (const char* w : ws) {
      if (lo.find(w) != std::string_view::npos) return true;
    }
    return false;
  };
  // One GPU told unable to hold a model of billions of parameters ("单卡无法加载70b模型", "a single GPU
  // cannot load the 70B model"): its weights do not fit.
  if (single_gpu_cannot_hold_model(lo)) return true;
  // A run told impossible even with a memory named ("Is it normal that even with 48Go VRAM i cannot run
  // the reverse process for generation with a small batch of 2 ?"): the memory, sized, does not hold
  // the run (asked or not: the inability is told; not supposed with "if").
  // (Not another limit's: "even with 48GB VRAM I cannot run it faster than 2 it/s", "... cannot train
  // because of an NCCL timeout".)
  for (std::string_view c : clauses(lo)) {
    if (!contains_any(c, {"cannot run", "can't run", "cant run", "unable to run", "cannot train", "can't train",
                          "unable to train", "cannot fit", "can't fit", "unable to fit"}) ||
        !contains_word(c, "even") || contains_word(c, "if") ||
        contains_any(c, {"faster", "speed", "it/s", "timeout", "error:", "because of"})) {
      continue;
    }
    if (!contains_any(c, {"vram", "gpu ram", "memory"})) continue;
    // "with" and a size (prose_number_at(): GB / GiB / G / MB / TB; not "m", a count), or Go (French).
    for (size_t with = c.find("with "); with != std::string_view::npos; with = c.find("with ", with + 5)) {
      const std::optional<ProseNumber> n = prose_number_at(c, with + 5);
      if (!n) continue;
      const size_t unit_at = with + 5 + n->chars;
      const std::string_view unit = trim_view(c.substr(unit_at, n->end - unit_at));
      if ((n->unit_bytes > 0 && unit != "m") || unit == "go") return true;
    }
  }
  // zh: a GPU (its model's number, 显卡, "GPU") told blown by the run, 撑爆 / 爆了 / 爆掉 ("T=8直接把3090撑爆了",
  // T=8 blew the 3090 up), in a clause that names no gradient (梯度爆炸 is a gradient explosion), loss or NaN.
  // (Also 都爆 / 也爆 / 直接爆, "blows all the same / too / right away": "一张卡一张图都爆", one card, one image,
  // it still blows.)
  static constexpr std::string_view kZhBlown[] = {"\xe6\x92\x91\xe7\x88\x86", "\xe7\x88\x86\xe4\xba\x86",
                                                  "\xe7\x88\x86\xe6\x8e\x89", "\xe9\x83\xbd\xe7\x88\x86",
                                                  "\xe4\xb9\x9f\xe7\x88\x86", "\xe7\x9b\xb4\xe6\x8e\xa5\xe7\x88\x86"};  // 撑爆, 爆了, 爆掉, 都爆, 也爆, 直接爆
  // (都爆 / 也爆 / 直接爆 only where 爆 stands for itself: not 爆火 (went viral), 爆杀 (crushes), 爆出 (threw),
  // 爆红, 爆款, 爆料, 爆发, 爆满.)
  auto blown_word = [&](std::string_view c) {
    return std::any_of(std::begin(kZhBlown), std::end(kZhBlown), [&](std::string_view w) {
      for (size_t at = c.find(w); at != std::string_view::npos; at = c.find(w, at + 1)) {
        const std::string_view next = c.substr(at + w.size(), 3);
        if (w.size() >= 6 && w.substr(w.size() - 3) == "\xe7\x88\x86" &&
            (next == "\xe7\x81\xab" || next == "\xe6\x9d\x80" || next == "\xe5\x87\xba" || next == "\xe7\xba\xa2" ||
             next == "\xe6\xac\xbe" || next == "\xe6\x96\x99" || next == "\xe5\x8f\x91" || next == "\xe6\xbb\xa1")) {
          continue;
        }
        return true;
      }
      return false;
    });
  };
  // (Denied, 没撑爆 / 不会撑爆 ...: zh_asked_supposed_or_denied(), read by the clause loop below.)
  auto gpu_blown = [&](std::string_view c) {
    return blown_word(c) && gpu_named(c) && c.find("\xe6\xa2\xaf\xe5\xba\xa6") == std::string_view::npos &&  // 梯度 (gradient)
           !contains_word(c, "loss") && !contains_word(c, "nan");
  };
  // zh: a GPU told filled or used up, kZhUsedUp (占满 ...) or 用满 / 吃满 / 满了 ("GPU基本上24G占满", the GPU's
  // 24G all but filled), in a clause that names no utilisation (利用率 / 使用率: a busy GPU, not a full one).
  auto filled_word = [&](std::string_view c) {
    return std::any_of(std::begin(kZhUsedUp), std::end(kZhUsedUp),
                       [&](std::string_view w) { return c.find(w) != std::string_view::npos; }) ||
           c.find("\xe7\x94\xa8\xe6\xbb\xa1") != std::string_view::npos ||  // 用满
           c.find("\xe5\x90\x83\xe6\xbb\xa1") != std::string_view::npos ||  // 吃满
           c.find("\xe6\xbb\xa1\xe4\xba\x86") != std::string_view::npos;    // 满了
  };
  auto gpu_filled = [&](std::string_view c) {
    return filled_word(c) && gpu_named(c) && c.find("\xe5\x88\xa9\xe7\x94\xa8\xe7\x8e\x87") == std::string_view::npos &&  // 利用率
           c.find("\xe4\xbd\xbf\xe7\x94\xa8\xe7\x8e\x87") == std::string_view::npos;  // 使用率
  };
  const bool cjk = any_text({"\xe6\x98\xbe\xe5\xad\x98", "\xe5\x86\x85\xe5\xad\x98",
                             "\xe9\xa1\xaf\xe5\xad\x98"}) ||  // 显存, 内存, 顯存 (traditional)
                   ((blown_word(lo) || filled_word(lo)) && gpu_named(lo));  // (which clause: below)
  // A run told impossible even at a batch of one, memory named or not ("I cannot run with even
  // batch=1", "can't train even with batch size 1", "unable to run it even at batch_size=1"): the
  // smallest step does not fit. In one sentence, not asked, not of speed, no other failure named.
  if (contains_word(lo, "even") && lo.find("batch") != std::string_view::npos) {
    for (std::string_view t : sentences(lo)) {
      // (Nor where the sentence names another failure or points at the message that follows: an error, an
      // exception, a NaN loss, tensors on two devices, "it always stops with" then a RuntimeError's line;
      // an OOM message there is read as one.)
      if (t.find('?') != std::string_view::npos || !contains_word(t, "even") || !batch_one_named(t) ||
          contains_any(t, {"slow", "faster", "minute", "hour", "timeout", "error", "exception", "same device", "assert",
                           "stops with", "fails with", "failed with", "crashes with", "dies with", "raises", "throws"}) ||
          contains_word(t, "nan")) {
        continue;
      }
      for (std::string_view lead : {"not able to ", "unable to ", "can't ", "cannot ", "couldn't ", "could not ", "can not "}) {
        for (size_t p = t.find(lead); p != std::string_view::npos; p = t.find(lead, p + 1)) {
          const std::string_view verb = t.substr(p + lead.size(), 10);
          for (std::string_view v : {"run", "train", "fine-tune", "finetune", "fit", "start", "load", "process"}) {
            if (verb.rfind(v, 0) == 0) return true;
          }
        }
      }
    }
  }
  if (!cjk && !any_word({"memory", "ram", "vram", "hbm", "resource_exhausted"})) return false;
  // zh, clause by clause (split after "，", "。", "；", "！", "？"): the memory named (显存 / 内存) with
  // 不足 / 不(太)够 (not enough), 爆 (blown), 溢出 (overflow), 不会释放 / 没有释放 / 不释放 / 无法释放 /
  // 释放不了 (not released), 满了 (filled up), 过载 (overloaded), 超出 / 超过 / 超显存 (exceeded), kZhUsedUp (用完 / 耗完 / 用光 / 吃光 / 耗尽 / 占满: used up), 装不下 / 放不下 / 塞不下 (does not fit);
  // not where the clause asks (？, 吗, 是否, 够不够 "enough or not"), supposes (如果 "if", 的话 "in
  // case"), tells it as normal (正常), denies (不会爆 / 没有爆 / 没爆 / 不爆 "did not blow", 没有溢出 / 未溢出
  // "no overflow") or tells of a fix (修复): "显存溢出，内存正常" is the GPU's trouble.
  if (cjk) {
    size_t from = 0;
    while (from < lo.size()) {
      size_t end = lo.size();
      for (const char* sep : {"\xef\xbc\x8c", "\xe3\x80\x82", "\xef\xbc\x9b", "\xef\xbc\x81", "\xef\xbc\x9f"}) {
        const size_t at = lo.find(sep, from);
        if (at != std::string_view::npos) end = std::min(end, at + 3);
      }
      // An ASCII ',' right after a non-ASCII byte (Chinese text) also ends a clause ("显存爆了,内存还有很多").
      for (size_t c = lo.find(',', from); c != std::string_view::npos && c < end; c = lo.find(',', c + 1)) {
        if (c > 0 && static_cast<unsigned char>(lo[c - 1]) >= 0x80) {
          end = c + 1;
          break;
        }
      }
      const std::string_view clause = lo.substr(from, end - from);
      from = end;
      auto in = [&](std::initializer_list<const char*> ws) {
        return std::any_of(ws.begin(), ws.end(), [&](const char* w) { return clause.find(w) != std::string_view::npos; });
      };
      if ((gpu_blown(clause) || gpu_filled(clause)) && !zh_asked_supposed_or_denied(clause)) return true;
      if (!in({"\xe6\x98\xbe\xe5\xad\x98", "\xe5\x86\x85\xe5\xad\x98", "\xe9\xa1\xaf\xe5\xad\x98"})) continue;  // 显存, 内存, 顯存 (traditional)
      const size_t normal = clause.find("\xe6\xad\xa3\xe5\xb8\xb8");  // 正常, not 不正常 (abnormal)
      // (Nor 无法正常 / 不能正常 "cannot ... normally": "会爆内存无法正常运行" blows the memory and cannot run.)
      if (normal != std::string_view::npos && !(normal >= 3 && clause.substr(normal - 3, 3) == "\xe4\xb8\x8d") &&
          !(normal >= 6 && (clause.substr(normal - 6, 6) == "\xe6\x97\xa0\xe6\xb3\x95" ||
                            clause.substr(normal - 6, 6) == "\xe4\xb8\x8d\xe8\x83\xbd"))) {
        continue;
      }
      // A memory error named as what the run reported or met (报内存错误 / 报cuda内存错误 / 出现显存错误 / 遇到了内存错误,
      // "reports / meets a memory error"), told or asked why (为什么 / 为啥), not denied (没 / 不会 / 没有 before it).
      for (std::string_view err : {"\xe5\x86\x85\xe5\xad\x98\xe9\x94\x99\xe8\xaf\xaf", "\xe6\x98\xbe\xe5\xad\x98\xe9\x94\x99\xe8\xaf\xaf"}) {
        const size_t e = clause.find(err);
        if (e == std::string_view::npos) continue;
        const std::string_view before = clause.substr(e >= 15 ? e - 15 : 0, e >= 15 ? 15 : e);
        const bool met = contains_any(before, {"\xe6\x8a\xa5", "\xe5\x87\xba\xe7\x8e\xb0", "\xe9\x81\x87\xe5\x88\xb0", "\xe6\x8f\x90\xe7\xa4\xba"});
        const bool denied = contains_any(before, {"\xe6\xb2\xa1", "\xe4\xb8\x8d\xe4\xbc\x9a", "\xe4\xb8\x8d\xe5\x86\x8d"});
        const bool why = contains_any(clause, {"\xe4\xb8\xba\xe4\xbb\x80\xe4\xb9\x88", "\xe4\xb8\xba\xe5\x95\xa5"});
        if (met && !denied && (why || !zh_asked_supposed_or_denied(clause))) return true;
      }
      // (Asked only why of the memory's own shortage, zh_shortage_asked_why(): "为什么24G的显存还不够用？" tells
      // the shortage it asks about.)
      if (zh_asked_supposed_or_denied(clause) && !zh_shortage_asked_why(clause)) continue;
      if (in({"\xe4\xb8\x8d\xe8\xb6\xb3", "\xe4\xb8\x8d\xe5\xa4\x9f", "\xe4\xb8\x8d\xe5\xa4\xaa\xe5\xa4\x9f", "\xe7\x88\x86",
              "\xe6\xba\xa2\xe5\x87\xba", "\xe4\xb8\x8d\xe4\xbc\x9a\xe9\x87\x8a\xe6\x94\xbe",
              "\xe6\xb2\xa1\xe6\x9c\x89\xe9\x87\x8a\xe6\x94\xbe", "\xe4\xb8\x8d\xe9\x87\x8a\xe6\x94\xbe",
              "\xe6\x97\xa0\xe6\xb3\x95\xe9\x87\x8a\xe6\x94\xbe", "\xe9\x87\x8a\xe6\x94\xbe\xe4\xb8\x8d",
              "\xe6\xbb\xa1\xe4\xba\x86",
              "\xe8\xa3\x85\xe4\xb8\x8d\xe4\xb8\x8b", "\xe6\x94\xbe\xe4\xb8\x8d\xe4\xb8\x8b",
              "\xe5\xa1\x9e\xe4\xb8\x8d\xe4\xb8\x8b", "\xe8\xbf\x87\xe8\xbd\xbd", "100%",
              // 超出 / 超过 / 超内存 / 超显存 / 超顯存 (exceeded: "内存超出限制", "跑到一半就超内存了", "问题就是会超显存")
              "\xe8\xb6\x85\xe5\x87\xba", "\xe8\xb6\x85\xe8\xbf\x87", "\xe8\xb6\x85\xe5\x86\x85\xe5\xad\x98",
              "\xe8\xb6\x85\xe6\x98\xbe\xe5\xad\x98", "\xe8\xb6\x85\xe9\xa1\xaf\xe5\xad\x98"}) ||
          std::any_of(std::begin(kZhUsedUp), std::end(kZhUsedUp),
                      [&](std::string_view w) { return clause.find(w) != std::string_view::npos; })) {
        return true;
      }
    }
  }
  // 内存/显存 ... 异常 (abnormal), but not 访问异常 (an access fault) nor 无异常 / 没有异常 (no anomaly).
  if (cjk && any_text({"\xe5\xbc\x82\xe5\xb8\xb8"}) &&
      !any_text({"\xe8\xae\xbf\xe9\x97\xae", "\xe6\x97\xa0\xe5\xbc\x82\xe5\xb8\xb8", "\xe6\xb2\xa1\xe6\x9c\x89\xe5\xbc\x82\xe5\xb8\xb8"})) {
    return true;
  }
  // Not memory pressure: a bad address ("an illegal memory access was encountered"), an RPC's
  // status or an API quota (gRPC's StatusCode.RESOURCE_EXHAUSTED, HTTP 429), a fix announced.
  if (any_text({"memory access", "statuscode", "grpc", "quota", "rate limit"}) ||
      any_word({"429", "fixed", "fixes", "fixing"})) {
    return false;
  }
  if (any_word({"resource_exhausted"})) return true;
  // Growth that levels off ("rises quickly during warmup and then remains constant").
  if (any_text({"then remains", "then stays", "then flattens", "plateau", "levels off", "stops growing", "stopped growing"})) {
    return false;
  }
  // Memory not released, told as expected or meant ("not released back to the OS until the
  // process exits; this is expected with the caching allocator").
  const bool kept_as_meant = any_text({"is expected", "as expected", "by design", "is normal", "intended"});
  // Denied ("no error", "memory is stable"), or another memory: a kernel's on-chip "shared memory"
  // (Triton's OutOfResources), /dev/shm (a DataLoader's shared-memory segment).
  // The trouble itself no longer happening ("memory no longer grows between epochs"; not
  // "'volatile' no longer works ... will result in CUDA memory error").
  for (size_t p = lo.find("no longer "); p != std::string_view::npos; p = lo.find("no longer ", p + 1)) {
    const std::string_view then = lo.substr(p + 10, 12);
    for (const char* t : {"grow", "leak", "increas", "crash", "oom", "run out", "runs out", "happen", "occur", "fill", "overload"}) {
      if (then.substr(0, std::strlen(t)) == t) return false;
    }
  }
  // Asked how, or supposed ("how do I detect memory leaks?", "if the model does not fit in GPU
  // memory, accelerate offloads layers"), unless another sentence of the line tells the failure on its
  // own: "... which leads to insufficient video memory. How do I solve this problem", "... until CPU
  // memory is used up. Is this caused by new hashmap being generated? How can I ..." (the question is
  // the next sentence's; each sentence read alone, as a line of its own).
  if (any_text({"how do i", "how to", "how can i"}) || supposed(lo)) {
    const std::vector<std::string_view> ss = sentences(lo);
    return ss.size() > 1 && std::any_of(ss.begin(), ss.end(), [](std::string_view t) { return memory_trouble_prose(t); });
  }
  // Advice ("Make sure the GPU can allocate enough memory before you start training").
  {
    size_t b = 0;
    while (b < lo.size() && lo[b] == ' ') ++b;
    for (std::string_view a : {"make sure", "please make sure", "ensure ", "please ensure"}) {
      if (lo.substr(b, a.size()) == a) return false;
    }
  }
  if (any_text({"no error", "not an error", "without error", "no crash", "no leak", "not leak", "n't leak", "not a leak",
                "no memory leak", "not a memory leak", "n't a memory leak", "no gpu memory leak", "stays flat", "is flat",
                "not memory", "not due to memory", "not because of memory",
                "is stable", "stays stable", "remains stable", "stable memory", "shared memory", "shared mem", "/dev/shm",
                "feature request", "not a memory", "isn't a memory", "not memory related", "not related to memory",
                "no more memory problem", "no more memory issue", "no more memory error", "no more memory leak",
                "space left on device", "disk space"})) {
    return false;
  }
  // Memory told as a problem, or as too much held where it should not be, in those words: "CUDA
  // memory issues", "extra GPU memory usage", "wasted GPU memory", "higher memory consumption on
  // GPU 0", "why does it need so big memory", "what is taking up memory on the main GPU",
  // "continuous rising of GPU memory", "memory blow-ups during evaluation", "high GPU memory usage",
  // "memory-unfriendly". Not a fact ("higher
  // memory bandwidth", "memory bandwidth is the bottleneck", "see issue #123 for the memory
  // layout") nor a denial ("no problem with RAM").
  if (!any_text({"no problem", "not a problem", "no issue", "not an issue", "as expected", "bandwidth", "without memory",
                 "no memory"}) &&
      (any_text({"memory issue", "memory problem", "ram issue", "ram problem", "extra gpu memory", "wasted gpu memory",
                 "memory consumption", "memory consuming", "so big memory", "so much memory", "too much memory",
                 "to much memory", "too much gpu memory", "to much gpu memory", "too much vram", "to much vram",
                 "taking up memory", "takes up memory", "rising of gpu memory", "memory explod", "memory blow",
                 // the GPU's memory told taken against the user's intent ("foolbox automatically consumes GPU
                 // memory", "it will still take my GPU memory")
                 "automatically consumes gpu memory", "still take my gpu memory", "still takes my gpu memory",
                 "still consumes gpu memory", "still uses gpu memory", "still uses my gpu memory",
                 "memory blew",
                 // memory told high or unfriendly as the complaint ("About high cuda memory allocation with
                 // too long context length", "the kernel is memory-unfriendly for long contexts")
                 "high memory usage", "high gpu memory usage", "high cuda memory", "high vram usage", "high ram usage",
                 "high memory allocation", "memory-unfriendly", "memory unfriendly",
                 // the memory told overloaded ("with ~1000 masks it overloads the memory of the GPU")
                 "overloads the memory", "overloaded the memory", "overloading the memory", "overloads the gpu memory",
                 "overloaded the gpu memory", "overloads gpu memory", "overloads the vram", "overloaded the vram",
                 // a shortage named ("I encountered a memory shortage issue while extracting visual features"), and
                 // the memory told unable to hold a setting ("the gpu memory can not support the commented batch
                 // size 8", "my gpus can not support enough memory size")
                 "memory can not support", "memory cannot support", "memory can't support", "memory could not support",
                 "memory couldn't support", "vram can not support", "vram cannot support", "vram can't support",
                 "vram could not support", "can not support enough memory", "cannot support enough memory"}) &&
       // (an overload supposed in its own clause, "saving them all could cause memory overload", is none)
       !(lo.find("overload") != std::string_view::npos &&
         contains_any(clause_at(lo, lo.find("overload")), {"could", "might", "would", "may "})))) {
    return true;
  }
  // A shortage of the memory named ("I encountered a memory shortage issue", "a shortage of GPU memory"):
  // where a word starts (not "DRAM shortage"), not denied or ruled out in its clause, not a market's
  // ("the memory shortage raised prices").
  for (std::string_view w : {"memory shortage", "ram shortage", "vram shortage", "shortage of memory", "shortage of gpu memory",
                             "shortage of vram", "shortage of ram", "shortage of video memory"}) {
    for (size_t p = lo.find(w); p != std::string_view::npos; p = lo.find(w, p + 1)) {
      const std::string_view cl = clause_at(lo, p);
      if (word_starts_at(lo, p) && !told_not_so(cl) &&
          !contains_any(cl, {"ruled out", "not the", "isn't", "is not", "wasn't", "no memory shortage", "not a "}) &&
          !contains_any(lo, {"market", "price", "supply", "buy", "purchase", "industry", "global"})) {
        return true;
      }
    }
  }
  if (memory_short_or_taken(lo)) return true;
  if (memory_exceeds_its_limit(lo)) return true;
  // Data or a model told larger than the memory there is ("a rollout whose total data size is larger than
  // the available RAM", "the model is bigger than the available GPU memory"): not asked, supposed, nor
  // denied just before ("is not larger than the available RAM").
  if (lo.find('?') == std::string_view::npos && !supposed(lo)) {
    for (std::string_view than : {"larger than the available ", "bigger than the available ", "more than the available ",
                                  "larger than available ", "bigger than available ", "more than available ",
                                  "exceeds the available ", "exceeded the available ", "exceeding the available "}) {
      const size_t p = lo.find(than);
      if (p == std::string_view::npos) continue;
      const std::string_view after = lo.substr(p + than.size(), 16);
      const std::string_view before = lo.substr(p > 16 ? p - 16 : 0, p > 16 ? 16 : p);
      if ((after.rfind("ram", 0) == 0 || after.rfind("memory", 0) == 0 || after.rfind("gpu memory", 0) == 0 ||
           after.rfind("vram", 0) == 0 || after.rfind("system memory", 0) == 0 || after.rfind("host memory", 0) == 0) &&
          !contains_any(before, {"not ", "n't ", "never ", "no "})) {
        return true;
      }
    }
  }
  // The memory told filling up ("this will unnecessarily fill up memory during training", "the cache
  // fills up the RAM"): not asked ('?'), supposed or feared ("I suppose it would fill up memory if
  // ...", "I worry it might"), told harmless ("the page cache fills up the RAM, nothing crashes", "it
  // fills up the memory but trains fine") nor quoted from documentation.
  if (lo.find('?') == std::string_view::npos &&
      !contains_any(lo, {"would", "could", "might", "suppose", "worr", "if ", "fine", "no crash", "nothing crash",
                         "n't crash", "not crash", "page cache", "readme", "document", "as expected", "by design"}) &&
      contains_any(lo, {"fill up memory", "fill up the memory", "fills up memory", "fills up the memory", "filled up memory",
                        "filled up the memory", "fill up ram", "fills up the ram", "filled up the ram", "fill up the ram"})) {
    return true;
  }
  // The machine told freezing, hanging or running out with its memory named on the line ("I didn't
  // know about memory requirements for computing distance matrix, so my 4GB laptop freeze"); not
  // with the memory told fine ("My laptop freeze when I open the page. Memory of the model is fine.").
  if (machine_runs_out(lo) && !contains_any(lo, {"is fine", "are fine", "looks fine", "is ok", "looks ok", "is normal"})) {
    return true;
  }
  // More memory than it should take, compared with something ("higher memory usage than Adam",
  // "DAdaptAdam uses more memory", "disproportionate GPU memory usage", "the memory cost will
  // increase"). Not a fact stated as expected, a saving ("ZeRO-3 reduces memory usage") nor a
  // bandwidth; a status line ("memory on GPU0: 2.1 GB", "memory increase 0.0 MB") holds none of
  // these phrases.
  if (!any_text({"no problem", "not a problem", "as expected", "bandwidth"}) &&
      !any_text({"reduce", "saves", "lower"}) &&
      (any_text({"higher memory usage", "higher memory consumption", "higher gpu memory", "more memory than",
                 "uses more memory", "using more memory", "use more memory", "memory cost will increase",
                 "memory usage rises", "imbalanced memory", "unbalanced memory", "disproportionate"}))) {
    return true;
  }
  // A run told no longer possible within a memory size ("I'm no longer able to run FEVER on a 1024-dim
  // model with 32GB of memory", "I'm unable to process data on machine with 64GB RAM"): in one
  // sentence, not asked.
  // (The verb of the work: run, train, fine-tune, serve, load, process; the size as "32GB of memory" or a card's,
  // "on my 24GB 4090". Not a complaint of speed: "no longer able to run the tests with 32GB in under an hour".)
  for (std::string_view t : sentences(lo)) {
    if (t.find('?') != std::string_view::npos || contains_any(t, {"slow", "faster", "minute", "hour", "timeout"}) ||
        contains_word(t, "speed")) {  // (not "deepspeed")
      continue;
    }
    bool unable = false;
    for (std::string_view lead : {"no longer able to ", "not able to ", "unable to ", "can't ", "cannot ", "can no longer ",
                                  "couldn't ", "could not "}) {
      for (size_t p = t.find(lead); p != std::string_view::npos && !unable; p = t.find(lead, p + 1)) {
        const std::string_view verb = t.substr(p + lead.size(), 10);
        for (std::string_view v : {"run", "train", "fine-tune", "finetune", "serve", "load", "process"}) {
          unable = unable || verb.rfind(v, 0) == 0;
        }
      }
    }
    // ... or the run itself told no longer possible or fitting in it ("now it is no longer possible
    // within 24GB after upgrading", "it no longer fits on my 24GB card")
    unable = unable || contains_any(t, {"no longer possible within", "no longer possible on", "no longer possible with",
                                        "no longer fits"});
    if (!unable) continue;
    for (size_t g = t.find("gb"); g != std::string_view::npos; g = t.find("gb", g + 2)) {
      size_t d = g;
      while (d > 0 && t[d - 1] == ' ') --d;
      if (d > 0 && is_digit(t[d - 1]) && (g + 2 >= t.size() || !is_alpha(t[g + 2]))) {
        return true;
      }
    }
  }
  // A low-memory failure told met ("I hit a reproducible low-VRAM failure mode"), not asked for in
  // documentation ("Please document a low-VRAM failure mode").
  if (any_text({"low-vram failure", "low vram failure", "low-memory failure"}) &&
      any_text({"i hit", "we hit", "reproducible", "i get", "i got", "getting", "happens", "i ran into", "i run into"}) &&
      !any_text({"document", "please add", "would be nice"})) {
    return true;
  }
  if (any_word({"error", "errors", "crash", "crashed", "crashes", "crashing", "insufficient", "leak", "leaks", "leakage",
                "leaking", "exhausted", "depletes", "depleted", "restarted", "killing"}) ||
      // crash written as "crush", told of a program or of when it happens ("the runtime environment crushes
      // after RAM usage goes over 12GB", "my script crushes every time ..."): not "crushes the numbers into
      // a chart", nor praise ("it crushes the old one")
      any_text({"crushes after", "crushed after", "crushes when", "crushed when", "crushes with", "crushed with",
                "crushes because", "crushed because", "crushes due", "crushed due", "crushes every time",
                "crushed every time", "crushes each time", "kernel crush", "runtime crush", "program crush",
                "script crush", "session crush", "environment crush", "notebook crush", "colab crush", "process crush",
                "training crush", "always crushes", "keeps crushing"}) ||
      any_text({"not enough", "isn't enough", "low ram", "low memory", "runs out", "ran out", "run out", "fills up",
                "filled up", "filling up", "more and more", "hit the peak", "can't allocate",
                "cannot allocate", "unable to allocate", "allocate memory", "could not allocate", "couldn't allocate",
                "failed to allocate", "allocate enough memory",
                // "the two contexts compete for limited GPU memory"
                "compete for limited", "competing for limited", "compete for gpu memory", "compete for memory",
                "compete for the memory", "competing for memory",
                // written without the apostrophe: "my gpu doesnt have enough vram"
                "doesnt have enough", "dont have enough", "didnt have enough", "not have enough", "n't have enough",
                "n't enough",
                // memory used up, told as what is left: "filled ... until no more memory is available",
                // "until there's no more memory left" (not "no more memory errors": a fix told)
                "no more memory is available", "no more memory available", "no more memory left", "no memory left",
                "until no more memory"}) ||
      memory_told_not_sufficient(lo) ||
      ended_after_memory_taken(lo) ||
      memory_failure_caused(lo) ||
      memory_told_short(lo) ||
      (!kept_as_meant && any_text({"not released", "never released"}))) {
    return true;
  }
  // Phrases as whole words ("max out", not "max output"; "memory full", not "memory fully"), not of
  // bandwidth ("we hit the memory bandwidth limit").
  if (!any_text({"bandwidth"})) {
    for (const char* w : {"maxed out", "maxes out", "max out", "maxing out", "memory full", "memory ceiling", "memory wall",
                          "hit the memory", "hits the memory", "hitting the memory", "exhausts", "use up all", "uses up all",
                          "used up all", "memory at 100%", "memory is at 100%", "too big for my gpu", "too large for my gpu",
                          "fills completely", "fill completely", "all used up", "is used up", "was used up", "gets used up",
                          "got used up", "usage goes to 100%", "usage reaches 100%", "usage hits 100%", "usage climbs to 100%",
                          "usage jumps to 100%", "usage is at 100%"}) {
      if (contains_word(lo, w)) return true;
    }
    if (any_text({"100% memory"})) return true;
  }
  // The memory too small for what it must hold, a fit in or on something: "the weights do not fit
  // in the memory of one GPU", "too big to fit on a 24 GB card", "data too big to load into
  // memory" (not "does not fit the data"), unless the line goes on to the way around it already
  // taken: "the dataset is too big to load into memory, so I use streaming" is a design choice,
  // no failure (a failure of that way is told in words of its own).
  for (const char* f : {"not fit", "n't fit", "unable to fit", "too big to fit", "too large to fit", "too big to load",
                        "too large to load"}) {
    for (size_t p = lo.find(f); p != std::string_view::npos; p = lo.find(f, p + 1)) {
      const std::string_view after = lo.substr(p + std::strlen(f));
      for (const char* where : {" in ", " into ", " on ", " onto ", " within "}) {
        if (after.substr(0, std::strlen(where)) == where && !way_around_taken(after)) return true;
      }
    }
  }
  // Full, said of the memory (memory_full_told()), not as expected, by design or evicting.
  if (any_text({"by design", "expected", "normal"}) || contains_word_start(lo, "evict")) return false;
  return memory_full_told(lo);
}

// Where `lo` tells a notebook's kernel died: Jupyter's own "kernel appears to have died" (VS
// Code's "kernel ... appears to have died", "the kernel crashed while executing code"), anywhere;
// in a log that names a notebook (`notebook_log`), "kernel" then within 48 bytes a word of
// dying or crashing ("the kernel dies", "kernel keeps crashing", "kernel restarting", zh 崩溃 /
// 挂了), not a CUDA, GPU, Triton or Linux kernel, nor a question of whether it would. npos when none.
size_t notebook_kernel_died(std::string_view lo, bool notebook_log) {
  for (size_t p = lo.find("kernel"); p != std::string_view::npos; p = lo.find("kernel", p + 6)) {
    if (!word_starts_at(lo, p)) continue;
    const std::string_view after = lo.substr(p + 6, 60);
    // Jupyter's own record of the kernel's process gone: "KernelRestarter: restarting kernel (1/5)"
    // (jupyter_client's restarter, when its poll finds the kernel not alive).
    if (after.find("restarter: restarting kernel") == 0 ||
        after.find("appears to have died") != std::string_view::npos ||
        after.find("crashed while executing") != std::string_view::npos) {
      return p;
    }
    if (!notebook_log) continue;
    const std::string_view before = lo.substr(p >= 12 ? p - 12 : 0, p >= 12 ? 12 : p);
    bool other_kernel = false;
    for (const char* k : {"cuda ", "gpu ", "triton ", "linux ", "os ", "compute ", "conv ", "cudnn ", "kernel ", "nvidia "}) {
      other_kernel = other_kernel || (before.size() >= std::strlen(k) && before.substr(before.size() - std::strlen(k)) == k);
    }
    if (other_kernel || lo.compare(p + 6, 7, " module") == 0 || lo.compare(p + 6, 6, " panic") == 0) continue;
    // Its death told another cause: a CUDA error or assert, an interrupt, a segfault, "not memory".
    if (contains_any(lo, {"not memory", "not a memory", "not oom", "not an oom", "device-side assert", "cuda error",
                          "interrupt", "segfault", "segmentation fault", "pip install", "known issue", "known pip"})) {
      continue;
    }
    const std::string_view near = lo.substr(p + 6, 48);
    for (const char* d : {"died", "dies", "dying", "crash", "\xe5\xb4\xa9\xe6\xba\x83", "\xe6\x8c\x82\xe4\xba\x86"}) {
      const size_t q = near.find(d);
      if (q == std::string_view::npos) continue;
      const std::string_view between = near.substr(0, q);
      if (told_not_so(between) || between.find("stopped") != std::string_view::npos || lo.find('?') != std::string_view::npos) {
        continue;
      }
      return p;
    }
  }
  return std::string_view::npos;
}

}  // namespace

std::optional<OomRecord> described_oom(std::string_view text) {
  for (const LineView& l : split_line_views(text)) {
    std::string t = trim(strip_ansi(l.raw.substr(0, 400)));
    if (t.empty()) continue;
    OomRecord r;
    r.family = "described";
    r.line = l.number;
    r.complete = false;
    r.message = std::move(t);
    return r;
  }
  return std::nullopt;
}

// Whether a title asking what memory the work needs (memory_requirement_title(), below) asks ('?')
// or names the work ("to train", "for training", "to run", "for inference", "to fine-tune").
bool memory_requirement_asked(std::string_view lo) {
  return lo.find('?') != std::string_view::npos ||
         contains_any(lo, {"to train", "for training", "to run", "for inference", "to fine-tune", "to finetune",
                           "for fine-tuning", "for finetuning"});
}

// A title (the log's first line, lower-cased) asking what memory the work needs: "GPU memory
// required to train 8x8 patch models", "How much gpu memory does this code need?", "GPU Memory
// requirement". Beside a failure the post shows (a traceback, a printed exception, a crash, a kill,
// a run told failed), the user's reading of that failure: the memory fell short. Whole words only
// ("param required" names no RAM); not a request for a feature, a document or a saving ("Log how much
// GPU memory is used", "Reduce the memory needed", "Add a memory calculator").
bool memory_requirement_title(std::string_view lo) {
  for (const char* w : {"add", "feature", "estimate", "estimator", "print", "log", "calculator", "calculate", "docs",
                        "document", "documentation", "reduce", "reduces", "lower", "lowers", "saving", "saves", "decrease"}) {
    if (contains_word(lo, w)) return false;
  }
  auto memory_word_at = [&](size_t p) {
    for (std::string_view m : {"memory", "vram", "ram"}) {
      if (lo.compare(p, m.size(), m) == 0 && is_word_at(lo, p, m.size())) return m.size();
    }
    return size_t{0};
  };
  auto need_word = [&](std::string_view t) {
    for (const char* v : {"need", "needs", "needed", "require", "requires", "required", "requirement", "requirements"}) {
      if (contains_word(t, v)) return true;
    }
    return false;
  };
  // "how much (GPU) memory / VRAM / RAM ... need / require", the need in the memory's own clause
  // (up to a ',', ';', '?' or " and ", at most 40 characters on): "How much RAM is used for inference,
  // and do I need a GPU?" needs a GPU, not the memory.
  if (const size_t h = lo.find("how much "); h != std::string_view::npos) {
    const std::string_view rest = lo.substr(h + 9, 24);
    for (size_t p = h + 9; p < h + 9 + rest.size(); ++p) {
      if (const size_t len = memory_word_at(p); len > 0) {
        std::string_view clause = lo.substr(p + len, 40);
        clause = clause.substr(0, std::min({clause.find(','), clause.find(';'), clause.find('?'), clause.find(" and "),
                                            clause.size()}));
        if (need_word(clause)) return true;
      }
    }
  }
  // "<memory> requirement(s)", the topic named ("GPU Memory requirement"), or "<memory> required /
  // needed" asked ('?') or for the work named ("to train", "for training", "to run", "for inference",
  // "to fine-tune")
  const bool asked_or_work = memory_requirement_asked(lo);
  for (size_t p = 0; p < lo.size(); ++p) {
    if (const size_t len = memory_word_at(p); len > 0) {
      const std::string_view next = lo.substr(p + len, 14);
      if (next.substr(0, 12) == " requirement") return true;
      for (std::string_view v : {" required", " needed", " is needed", " is required"}) {
        if (asked_or_work && next.substr(0, v.size()) == v) return true;
      }
    }
  }
  return false;
}

// The memory asked whether short, on the lower-cased line `lo`: a '?' and the memory named not
// enough or too small ("is GPU memory not enough?", "Is my VRAM too small for this?", "maybe not
// enough memory?").
bool memory_short_asked(std::string_view lo) {
  if (const std::string spelled = memory_spelled(lo); !spelled.empty()) return memory_short_asked(spelled);
  // zh: 显存 / 内存 (GPU / host memory) with 不够 / 太小 / 不足 (not enough, too small), asked with 吗 / 是不是 /
  // a full-width or ASCII question mark: "是显存不够吗？", "显存是不是太小了？".
  if (contains_any(lo, {"\xe6\x98\xbe\xe5\xad\x98", "\xe5\x86\x85\xe5\xad\x98"}) &&
      contains_any(lo, {"\xe4\xb8\x8d\xe5\xa4\x9f", "\xe5\xa4\xaa\xe5\xb0\x8f", "\xe4\xb8\x8d\xe8\xb6\xb3"}) &&
      contains_any(lo, {"\xe5\x90\x97", "\xe6\x98\xaf\xe4\xb8\x8d\xe6\x98\xaf", "\xef\xbc\x9f", "?"})) {
    return true;
  }
  return lo.find('?') != std::string_view::npos &&
         contains_any(lo, {"memory not enough", "memory is not enough", "not enough memory", "not enough gpu memory",
                           "memory too small", "memory is too small", "vram not enough", "vram is not enough",
                           "not enough vram", "vram too small", "vram is too small", "gpu too small", "gpu is too small"});
}

std::optional<OomRecord> mentioned_oom(std::string_view text) {
  const std::vector<LineView> lines = split_line_views(text);
  // Each line's first 2000 characters, lower-cased once for every pass below.
  std::vector<std::string> lowered;
  lowered.reserve(lines.size());
  for (const LineView& l : lines) lowered.push_back(lower(l.raw.substr(0, 2000)));
  // No message in the log, but the user names one in words ("I received a CUDA out of memory
  // during evaluation", "runtimeerror: cuda out of memory on rtx 3060", "Not enough GPU memory",
  // "it run out of my cuda memory", "causing an out-of-memory error"): one numberless report at
  // the first such line, so the log's evidence is still read. Only when no line names one, the
  // first line that describes memory growing without bound ("memory usage is growing ... memory
  // leak", "the cuda:0 memory explodes") is the report: the user reports the OOM it leads to.
  // A third pass, when neither is found: the first line telling of memory trouble in other
  // words (memory_trouble_prose) or of GPU memory uneven across devices
  // (gpu_memory_imbalance_prose): a report in prose only, whose evidence the log still holds.
  // A notebook's kernel dying (Jupyter's "The kernel appears to have died. It will restart
  // automatically.", VS Code's "The Kernel crashed while executing code in the current cell"): the
  // kernel process gone, most often killed over host RAM: a report on the host ("mentioned",
  // device "cpu"), not a kill the log shows. Told in other words ("the kernel dies", zh "kernel ...
  // 崩溃" crashed) only in a log that names a notebook.
  bool notebook_log = false;
  for (std::string_view w : {"jupyter", "notebook", "ipykernel", "ipynb", "colab", "kaggle", "ipython"}) {
    notebook_log = notebook_log || ifind(text, w) != std::string_view::npos;
  }
  // The first line naming the OOM on no device ("train.py dies with OutOfMemoryError", an issue's
  // title) is the report; a later line naming it on a device ("... OutOfMemoryError in opencv
  // allocation", "CUDA out of memory when ...") tells that device.
  std::optional<OomRecord> deviceless;
  std::optional<OomRecord> later_kill;  // a kill told after the deviceless title (below)
  // A fourth pass, when none of those is found: the memory asked whether short ("is GPU memory not
  // enough?") in a log that tells of an error (shown only in a screenshot): the user's own reading of
  // the failure, a report in prose whose evidence the log still holds. Also, in that pass and with or
  // without an error told, a title asking what memory the work needs beside a failure the post shows
  // (memory_requirement_title(), failure_shown): after every other line's reading, so a line that
  // tells the trouble itself stays the report.
  // (An error told, not denied: "no error on my side" tells none; zh 报错 / 错误, not 没有报错 / 没报错.)
  bool error_told = false;
  for (const std::string& lo : lowered) {
    // (zh: 没有报错 / 没报错, no error; 没有崩溃 / 没崩溃 / 没有自动退出 / 没挂, no crash, no exit.)
    if (contains_any(lo, {"no error", "without error", "not an error", "no errors", "without any error",
                          "\xe6\xb2\xa1\xe6\x9c\x89\xe6\x8a\xa5\xe9\x94\x99", "\xe6\xb2\xa1\xe6\x8a\xa5\xe9\x94\x99",
                          "\xe6\xb2\xa1\xe6\x9c\x89\xe5\xb4\xa9\xe6\xba\x83", "\xe6\xb2\xa1\xe5\xb4\xa9\xe6\xba\x83",
                          "\xe6\xb2\xa1\xe6\x9c\x89\xe8\x87\xaa\xe5\x8a\xa8\xe9\x80\x80\xe5\x87\xba",
                          "\xe6\xb2\xa1\xe6\x8c\x82"})) {
      continue;
    }
    // (zh: 报错 / 错误, an error; also the run told ending on its own: 自动退出 / 异常退出 (exits by itself /
    // abnormally), 闪退 (quits at once), 崩溃 (crashes), 挂掉 / 挂了 (dies): "我在微调训练时出现了自动退出问题")
    if (lo.find("error") != std::string::npos || lo.find("\xe6\x8a\xa5\xe9\x94\x99") != std::string::npos ||
        lo.find("\xe9\x94\x99\xe8\xaf\xaf") != std::string::npos ||
        contains_any(lo, {"\xe8\x87\xaa\xe5\x8a\xa8\xe9\x80\x80\xe5\x87\xba", "\xe5\xbc\x82\xe5\xb8\xb8\xe9\x80\x80\xe5\x87\xba",
                          "\xe9\x97\xaa\xe9\x80\x80", "\xe5\xb4\xa9\xe6\xba\x83", "\xe6\x8c\x82\xe6\x8e\x89",
                          "\xe6\x8c\x82\xe4\xba\x86"})) {
      error_told = true;
      break;
    }
  }
  // A printed exception ("...Error:") of a kind that can be the memory's: not a missing module, a
  // file not found, a syntax, import, key, name, attribute, type or decoding error ("ModuleNotFoundError:
  // No module named 'xformers'" below "How much RAM is used for inference?" tells no shortage).
  auto memory_kind_error_printed = [](std::string_view lo) {
    static constexpr std::string_view kNotMemory[] = {"modulenotfounderror", "importerror", "syntaxerror", "filenotfounderror",
                                                      "keyerror", "attributeerror", "nameerror", "indentationerror",
                                                      "permissionerror", "typeerror", "unicodedecodeerror", "jsondecodeerror",
                                                      "connectionerror", "notimplementederror"};
    for (size_t p = lo.find("error:"); p != std::string_view::npos; p = lo.find("error:", p + 6)) {
      size_t b = p;
      while (b > 0 && (is_alpha(lo[b - 1]) || lo[b - 1] == '_')) --b;
      const std::string_view name = lo.substr(b, p + 5 - b);
      if (std::none_of(std::begin(kNotMemory), std::end(kNotMemory), [&](std::string_view x) { return name == x; })) return true;
    }
    return false;
  };
  // A failure the post shows, for a title that asks what memory the work needs (memory_requirement_title(),
  // read in the third pass): a traceback, a printed exception of a kind that can be the memory's
  // ("RuntimeError: ...", memory_kind_error_printed()), "the following error", a crash, a kill or a
  // run told failed ("I failed to run the example"), on a line after the title, not asked or
  // supposed there.
  // (`run_only`: only the run told failed, for a title that names the requirement without asking it:
  // "GPU Memory requirement" over a traceback of "ImportError: cannot import name ..." tells no OOM.)
  auto failure_shown = [&](bool run_only) {
    static constexpr std::string_view kRunFailed[] = {"failed to run", "fails to run", "failed to train", "fails to train",
                                                      "cannot run", "can't run", "unable to run", "could not run",
                                                      "couldn't run"};
    static constexpr std::string_view kOtherFailure[] = {"crash", "crashes", "crashed", "killed", "failed to load"};
    auto told = [](std::string_view lo, std::string_view w) {
      for (size_t p = lo.find(w); p != std::string_view::npos; p = lo.find(w, p + 1)) {
        if (is_word_at(lo, p, w.size()) && !asked_at(lo, p) && !contains_word(clause_at(lo, p), "if")) return true;
      }
      return false;
    };
    for (size_t k = 1; k < lines.size(); ++k) {
      const std::string& lo = lowered[k];
      if (std::any_of(std::begin(kRunFailed), std::end(kRunFailed), [&](std::string_view w) { return told(lo, w); })) {
        return true;
      }
      if (run_only) continue;
      if (lo.find("traceback (most recent call last)") != std::string::npos || memory_kind_error_printed(lo) ||
          lo.find("exception:") != std::string::npos || lo.find("the following error") != std::string::npos ||
          std::any_of(std::begin(kOtherFailure), std::end(kOtherFailure), [&](std::string_view w) { return told(lo, w); })) {
        return true;
      }
    }
    return false;
  };
  // The log's first line (an issue's title: "GPU RAM Issue", "VRAM usage explodes") naming the GPU's
  // memory: a later line's bare "RAM" ("I faced ram issues") is that memory, not the host's.
  // (Not a title that names a RAM of its own beside it: "GPU memory fine, RAM explodes".)
  const bool title_gpu_memory = [&] {
    if (lines.empty()) return false;
    const std::string title = lower(lines.front().raw.substr(0, 300));
    if (!gpu_memory_named(title)) return false;
    for (size_t p = title.find("ram"); p != std::string::npos; p = title.find("ram", p + 3)) {
      if (!is_word_at(title, p, 3)) continue;
      const std::string_view before = std::string_view(title).substr(0, p);
      const bool gpus = (before.size() >= 4 && before.substr(before.size() - 4) == "gpu ") ||
                        (before.size() >= 6 && before.substr(before.size() - 6) == "gpu's ") ||
                        (before.size() >= 6 && before.substr(before.size() - 6) == "video ");
      if (!gpus) return false;
    }
    return true;
  }();
  for (int pass = 0; pass < 4; ++pass) {
    if (later_kill) return later_kill;
    if (deviceless) return deviceless;
    // (Without an error told, the fourth pass reads the title alone: memory_requirement_title().)
    for (const LineView& l : lines) {
      const std::string& lo = lowered[static_cast<size_t>(&l - lines.data())];
      // TensorRT's builder skipping a tactic whose workspace does not fit ("Skipping tactic ... due to
      // insufficient memory on requested size of N", "Device memory is insufficient to use tactic"):
      // it tries the next tactic; the build goes on.
      if (lo.find("skipping tactic") != std::string::npos || lo.find("to use tactic") != std::string::npos) continue;
      // TensorFlow's BFC warning that says it is no failure (tf_not_a_failure(); the family's head skips
      // it too), on the line or wrapped onto the next.
      if (const size_t idx = static_cast<size_t>(&l - lines.data());
          tf_not_a_failure(lo, 0, idx + 1 < lines.size() && lo.find("bfc") != std::string::npos ? lines[idx + 1].raw : "")) {
        continue;
      }
      // Docker's and Kubernetes' state saying no OOM kill ("OOMKilled":false, "OOMKilled: false"): the
      // word is the field's name, its value a denial.
      if (contains_any(lo, {"oomkilled\":false", "oomkilled\": false", "oomkilled: false", "oomkilled=false"})) continue;
      // Whether the named failure `ph` found at `at` is not told as this run's: for Python's MemoryError, the
      // memory told out, ENOMEM, bad_alloc and R's allocator words, the question, supposition or denial in
      // the name's own clause ("In that if I run it, I get a segfault. It gives me the -ENOMEM." tells it),
      // code and advice anywhere on the line, the error told gone; other phrases are told.
      auto not_told_as_failure = [&](std::string_view ph, size_t at) {
        // (The memory told short only supposed, asked or denied, "If the memory is insufficient, the
        // scheduler waits", as memory_told_not_sufficient() refuses one: memory_shortness_supposed().)
        if ((ph.rfind("memory is ", 0) == 0 || ph.rfind("memory was ", 0) == 0) &&
            (ph.find("sufficient") != std::string_view::npos || ph.find("enough") != std::string_view::npos)) {
          return memory_shortness_supposed(lo, at);
        }
        const bool memory_error = ph.find("memoryerror") != std::string_view::npos;
        const bool r_words = ph == "allocate vector of size" || ph == "allocate a vector of size";
        if (!memory_error && ph != "memory is out" && ph != "gpu memory out" && ph != "enomem" && ph != "bad_alloc" && !r_words) {
          return false;
        }
        const size_t after = at + ph.size();
        const bool out_of = (ph == "memory is out" || ph == "gpu memory out") && after < lo.size() &&
                            (lo[after] == '-' || lo.compare(after, 3, " of") == 0);
        const std::string_view cl = clause_at(lo, at);
        return out_of || cl.find('?') != std::string_view::npos || (lo.find('"') != std::string::npos && !r_words) ||
               contains_word(cl, "if") ||
               // (R's own words hold "cannot": only a denial of the telling counts)
               (r_words ? contains_any(cl, {"never", "no longer", "n't get", "not get", "n't see", "not see", "would", "might"})
                        : told_not_so(cl)) ||
               contains_any(lo, {"raise ", "print(", "avoid", "prevent", "to handle", "catch"}) ||
               // (Python's "except MemoryError", a test's expectation, not the English "except that"; the error
               // told gone: "the preprocessing now finishes without a MemoryError", "no more MemoryError")
               (memory_error ? contains_any(lo, {"except memoryerror", "except:", "except (", "import ", "class ", "expect",
                                                 "assert"}) ||
                                   contains_any(cl, {"without", "no more", "no longer", "never"})
                             : lo.find("except ") != std::string::npos) ||
               // (C++ around bad_alloc: "throw bad_alloc", "#include <new> // bad_alloc", a reference's '&',
               // a test's "expected exception of type bad_alloc")
               (ph == "bad_alloc" && contains_any(lo, {"throw", "#include", "&", "//", "(", "exception of type"}));
      };
      size_t at = std::string::npos;
      bool kernel_died = false;  // a notebook's kernel told dying (notebook_kernel_died())
      int64_t bfc_stats_limit = -1, bfc_stats_in_use = -1;  // a BFC "Stats:" block's Limit and InUse
      bool fit_on_gpu = false;   // the work told not fitting on a named GPU
      bool named = false;  // the OOM named in words (not the kill)
      if (pass == 0) {
        for (const char* phrase : {"cuda out of memory", "gpu out of memory", "cuda oom", "gpu oom", "out of memory error",
                                   "not enough gpu memory", "out of gpu memory", "oom error", "oom-killed", "oomkilled", "oomkiller",
                                   "out of memory", "out-of-memory", "memory exception", "insufficient memory",
                                   "not enough memory",
                                   // the memory told short in other words ("one A100 graphics memory is insufficient",
                                   // "the GPU memory is not enough")
                                   "memory is insufficient", "memory was insufficient", "memory is not enough",
                                   "memory was not enough", "memory is not sufficient", "memory was not sufficient",
                                   // TensorFlow's OOM exception named without its message ("Then I got
                                   // ResourceExhaustedError"); gRPC's StatusCode.RESOURCE_EXHAUSTED is no such name.
                                   "resourceexhaustederror",
                                   // ... the CUDA error cut short ("It fails with CUDA out of mem error")
                                   "out of mem error", "out-of-mem error", "out of mem.",
                                   // "we seem to get memory outage with the 152 layer model", "ran out of VRAM"
                                   "memory outage", "out of vram",
                                   // "reports memory overflow error", "a CPU memory overflow is always reported"
                                   // (内存溢出 / 显存溢出 in English)
                                   "memory overflow",
                                   // PyTorch's words quoted in a sentence ("it tried to allocate 172.00 MiB and
                                   // failed"), a size after them
                                   "tried to allocate ",
                                   // the advice PyTorch's caching allocator ends its OOM message with (1.10 ..
                                   // 2.1: "... try setting max_split_size_mb to avoid fragmentation"; 2.2 on:
                                   // "... try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid
                                   // fragmentation"), pasted without the message's head ("allocated memory try
                                   // setting max_split_size_mb to avoid fragmentation.  See documentation for
                                   // Memory Management and PYTORCH_CUDA_ALLOC_CONF"); not asked (below)
                                   "max_split_size_mb to avoid fragmentation", "expandable_segments:true to avoid fragmentation",
                                   // Python's exception named in a sentence ("keep getting MemoryError"); the
                                   // memory told gone ("the gpu memory is out", a title's "GPU memory out")
                                   "getting memoryerror", "get memoryerror", "got memoryerror", "gets memoryerror",
                                   "with memoryerror", "a memoryerror", "memory is out", "gpu memory out",
                                   // C++'s allocation failure named without "std::" ("GPU memory bad_alloc",
                                   // "confronting `bad_alloc` error"; std::bad_alloc itself is a family)
                                   "bad_alloc",
                                   // the kernel's errno for a failed allocation told ("I traced the binary, it
                                   // gives me the -ENOMEM"): a host allocation; its message retold with a space
                                   // ('finally caused "can not allocate memory" error')
                                   "enomem", "can not allocate memory",
                                   // Windows' commit limit reached: "OSError: [WinError 1455] The paging file is
                                   // too small for this operation to complete" (loading a model or a DLL)
                                   "paging file is too small",
                                   // named as what happened ("The MemoryError exception is occured in input_data.py",
                                   // a title's "input_data.py MemoryError with 512MB RAM")
                                   "the memoryerror", "memoryerror exception", "memoryerror with", "memoryerror when",
                                   "memoryerror while", "memoryerror in ", "memoryerror on ", "memoryerror after",
                                   "memoryerror during",
                                   // R's allocator's words told in a sentence ("R keeps saying cannot allocate
                                   // vector of size and then stops", 'the "cannot allocate vector of size" error')
                                   "allocate vector of size", "allocate a vector of size",
                                   // Korean: 메모리 부족 / 메모리가 부족 (memory short: Korean's "out of memory"),
                                   // 메모리 초과 / 메모리가 초과 (memory exceeded)
                                   "\xeb\xa9\x94\xeb\xaa\xa8\xeb\xa6\xac \xeb\xb6\x80\xec\xa1\xb1",
                                   "\xeb\xa9\x94\xeb\xaa\xa8\xeb\xa6\xac\xea\xb0\x80 \xeb\xb6\x80\xec\xa1\xb1",
                                   "\xeb\xa9\x94\xeb\xaa\xa8\xeb\xa6\xac \xec\xb4\x88\xea\xb3\xbc",
                                   "\xeb\xa9\x94\xeb\xaa\xa8\xeb\xa6\xac\xea\xb0\x80 \xec\xb4\x88\xea\xb3\xbc"}) {
          at = lo.find(phrase);
          while (at != std::string::npos && name_told_absent(lo, at)) at = lo.find(phrase, at + 1);
          // The memory's overflow as memory_short_or_taken() reads it: not denied, prevented or checked for
          // ("There is no memory overflow", "Paged attention prevents memory overflow", "The memory overflow
          // check passed").
          if (at != std::string::npos && std::string_view(phrase) == "memory overflow" && !memory_short_or_taken(lo)) {
            at = std::string::npos;
          }
          // The exception's name in Python code (exception_named_in_code()) is no report; "I got a
          // ResourceExhaustedError exception" is one.
          // (A title that is the name alone, "ResourceExhaustedError", names the failure: no code.)
          if (at != std::string::npos && std::string_view(phrase) == "resourceexhaustederror" && exception_named_in_code(lo) &&
              !(&l == lines.data() && title_names_resource_exhausted(lo))) {
            at = std::string::npos;
          }
          // MemoryError or the memory "out" told in a sentence: not "out of date / sync / band", not
          // denied, asked, supposed, over, or in code.
          const std::string_view ph = phrase;
          // Python's MemoryError itself, where a word starts: not the end of "OutOfMemoryError in ...".
          if (const size_t m = ph.find("memoryerror"); at != std::string::npos && m != std::string_view::npos &&
                                                       !word_starts_at(lo, at + m)) {
            at = std::string::npos;
          }
          // (Not the message of Intel's extension for PyTorch on Arc GPUs, "Current platform can NOT allocate
          // memory block with size larger than 4GB!", a per-allocation cap its own family reads.)
          if (at != std::string::npos && ph == "can not allocate memory" && lo.compare(at + ph.size(), 6, " block") == 0) {
            at = std::string::npos;
          }
          // (bad_alloc a word of its own, not std::bad_alloc nor a name holding it, "thrust_bad_alloc".)
          if (at != std::string::npos && ph == "bad_alloc" &&
              (!is_word_at(lo, at, 9) || (at > 0 && lo[at - 1] == ':'))) {
            at = std::string::npos;
          }
          if (at != std::string::npos && ph.find("to avoid fragmentation") != std::string_view::npos &&
              (lo.find('?') != std::string::npos || contains_any(clause_at(lo, at), {"should", "could", "would", "if i", "if you"}))) {
            at = std::string::npos;
          }
          if (at != std::string::npos && ph == "tried to allocate " &&
              !(at + ph.size() < lo.size() && is_digit(lo[at + ph.size()]))) {
            at = std::string::npos;
          }
          if (at != std::string::npos && ph == "enomem" &&
              (!word_starts_at(lo, at) || (at + 6 < lo.size() && is_alpha(lo[at + 6])) || error_code_in_source(lo))) {
            at = std::string::npos;
          }
          if (at != std::string::npos && not_told_as_failure(ph, at)) at = std::string::npos;
          if (at != std::string::npos) break;
        }
        // Python's MemoryError as the line's last word, a title's or a sentence's ("seq2seq MemoryError",
        // "training stops with MemoryError."), where a word starts, read as the phrases above
        // (not_told_as_failure()); not a fix's title ("Fix MemoryError").
        if (at == std::string::npos) {
          const std::string_view t = trim_view(std::string_view(lo));
          std::string_view body = t;
          while (!body.empty() && (body.back() == '.' || body.back() == '!')) body.remove_suffix(1);
          constexpr std::string_view kName = "memoryerror";
          if (body.size() > kName.size() && body.substr(body.size() - kName.size()) == kName &&
              t.rfind("fix", 0) != 0 && t.rfind("handle", 0) != 0 && t.rfind("avoid", 0) != 0) {
            const size_t m = static_cast<size_t>(body.data() - lo.data()) + body.size() - kName.size();
            if (word_starts_at(lo, m) && !not_told_as_failure(kName, m)) at = m;
          }
        }
        // PyTorch's "Tried to allocate" retold with an amount in words ("torch.cdist Tried to allocate huge
        // amount of GPU memory during the forward process"): the allocation failed, its size not printed.
        // (Not an allocation told expected or fitting: "XLA tried to allocate a huge amount of memory up front,
        // which is expected; the script runs fine".)
        for (std::string_view tried : {"tried to allocate ", "tries to allocate ", "trying to allocate ", "attempted to allocate ",
                                       "attempts to allocate ", "tried allocating ", "tries allocating "}) {
          for (size_t p = lo.find(tried); at == std::string::npos && p != std::string::npos; p = lo.find(tried, p + 1)) {
            const std::string_view rest = std::string_view(lo).substr(p + tried.size(), 24);
            if (contains_any(rest, {"huge", "too much", "so much", "a lot of", "lots of", "massive", "enormous",
                                    "large amount", "insane", "absurd"}) &&
                (contains_word(lo, "memory") || contains_word(lo, "vram")) && !asked_at(lo, p) &&
                !told_not_so(clause_at(lo, p)) &&
                !contains_any(lo, {"expected", "runs fine", "works fine", "it fits", "and fits", "by design", "preallocat",
                                   "up front", "upfront", "by default"})) {
              at = p;
            }
          }
        }
        if (at == std::string::npos) {
          at = out_of_some_memory(lo);
          if (at != std::string::npos && name_told_absent(lo, at)) at = std::string::npos;
        }
        // The work told not fitting on a GPU ("Products-GNN does not fit on a v100", "I can't fit it
        // into my 3090", "unable to fit the model in an A100 40GB"), or a setting the writer lowered to
        // make it fit (lowered_by_writer_to_fit(): "I decrease it to 8 to fit in my RTX card (24 GB)",
        // "we had to reduce the batch to 2 to fit the GPU memory"): the OOM in words, on that device.
        // Not supposed ("if" before it in its clause) nor asked (a question tacked on after it leaves
        // it told).
        for (size_t p = lo.find("fit "); at == std::string::npos && p != std::string::npos; p = lo.find("fit ", p + 1)) {
          if (!word_starts_at(lo, p)) continue;
          const std::string_view whole = clause_at(lo, p);
          const size_t in_clause = p - static_cast<size_t>(whole.data() - lo.data());
          const std::string_view before = std::string_view(lo).substr(p >= 16 ? p - 16 : 0, p >= 16 ? 16 : p);
          const bool lowered_to_fit = lowered_by_writer_to_fit(whole.substr(0, in_clause));
          if (!lowered_to_fit && !contains_any(before, {"not ", "n't ", "cannot ", "unable to ", "not able to "})) continue;
          const std::string_view after = std::string_view(lo).substr(p + 4, 48);
          size_t on = std::string_view::npos;
          for (std::string_view w : {" on ", " in ", " into ", "on ", "in ", "into "}) {
            const size_t q = after.find(w);
            if (q != std::string_view::npos && (q == 0 || w[0] == ' ') && q < on) on = q;
          }
          // (Lowered to fit the device itself, no preposition: "to fit the GPU memory", "to fit my 3090".)
          if (on == std::string_view::npos && !lowered_to_fit) continue;
          const std::string_view target = after.substr(on == std::string_view::npos ? 0 : on, 36);
          if ((gpu_named(target) || cuda_memory_named(target)) && !contains_word(whole.substr(0, in_clause), "if") &&
              !asked_at(lo, p)) {
            at = p;
            fit_on_gpu = true;
          }
        }
        if (at == std::string::npos) at = misspelled_out_of_memory(lo);
        if (at == std::string::npos) at = resource_exhausted_named(lo);
        if (at == std::string::npos) at = more_memory_than_had(lo);
        for (size_t p = lo.find("oom"); at == std::string::npos && p != std::string::npos; p = lo.find("oom", p + 3)) {
          // The word "OOM" ("But occurs OOM when ..."), also inflected: "Got OOMs", "it OOMed", "OOMing".
          for (const char* w : {"oom", "ooms", "oomed", "ooming"}) {
            if (at == std::string::npos && lo.compare(p, std::strlen(w), w) == 0 && is_word_at(lo, p, std::strlen(w)) &&
                !name_told_absent(lo, p)) {
              at = p;
            }
          }
        }
        // Written without spaces or without "of": "CUDA outofmemory error", "为什么会out memory"
        // (whole words: "about memory", "without memory", "layout memory" are none); or with
        // underscores, "ran into CUDA_OUT_OF_MEMORY error" (the CUDA error's name without its
        // "ERROR_": a word of its own, not a part of a longer name).
        for (const char* phrase : {"outofmemory", "out memory", "cuda_out_of_memory", "cuda_out_of_memory_error",
                                   "out_of_memory error"}) {
          for (size_t p = lo.find(phrase); at == std::string::npos && p != std::string::npos; p = lo.find(phrase, p + 1)) {
            // (Not a counter's name, "cuda_out_of_memory: 0".)
            const size_t end = p + std::strlen(phrase);
            size_t k = end;
            while (k < lo.size() && lo[k] == ' ') ++k;
            if (std::strchr(phrase, '_') != nullptr && k < lo.size() && (lo[k] == ':' || lo[k] == '=')) continue;
            // A word starts there ("OutOfMemoryError" counts); "out memory" also ends one ("about memory" does not start one).
            if (word_starts_at(lo, p) && (phrase[3] == 'o' || is_word_at(lo, p, std::strlen(phrase))) && !name_told_absent(lo, p)) at = p;
          }
        }
        // The memory told "out" or "exceeding" as a failure's name at a clause's end or before the trouble's
        // noun ("try to train 1024 resolution memory out", "Memory out 问题", "cpu memory exceed during
        // training", "a RAM exceeding problem"); not "memory out of ..." / "memory output", the memory
        // swapped or paged out, nor a sum compared ("free memory exceeds the request", "exceeds 8gb").
        for (std::string_view w : {"memory out", "memory exceed", "ram exceed", "vram exceed"}) {
          for (size_t p = lo.find(w); at == std::string::npos && p != std::string::npos; p = lo.find(w, p + 1)) {
            size_t e = p + w.size();
            const bool exceed = w.back() == 'd';
            if (exceed) {
              for (std::string_view tail : {"ing", "ed", "s"}) {
                if (lo.compare(e, tail.size(), tail) == 0) { e += tail.size(); break; }
              }
            }
            if (!word_starts_at(lo, p) || (e < lo.size() && is_alpha(lo[e]))) continue;
            const std::string_view next = std::string_view(lo).substr(e, 12);
            // (Chinese writes its problem's noun and its marks without a space: "memory out问题",
            // "memory out。", "memory out，".)
            const bool ends = e >= lo.size() || std::string_view(".,;:!)").find(lo[e]) != std::string_view::npos ||
                              next.rfind(" \xe9\x97\xae\xe9\xa2\x98", 0) == 0 ||  // 问题 (problem)
                              next.rfind("\xe9\x97\xae\xe9\xa2\x98", 0) == 0 ||
                              next.rfind("\xe3\x80\x82", 0) == 0 || next.rfind("\xef\xbc\x8c", 0) == 0 ||  // 。，
                              contains_any(next.substr(0, 10), {" error", " problem", " issue"}) ||
                              (exceed && contains_any(next.substr(0, 8), {" during", " when", " while", " at "}));
            const std::string_view before = std::string_view(lo).substr(p >= 12 ? p - 12 : 0, p >= 12 ? 12 : p);
            const std::string_view cl = clause_at(lo, p);
            // Not the memory moved out ("swapped / paged / spilled / evicted / flushed out"), a sum compared
            // ("free memory exceeds the request"), one only feared, warned of or advised for ("a warning before
            // memory exceeding issues happen", "If GPU memory exceeds during training, lower the batch size"),
            // an estimate's ("the calculator says memory exceeds at 32k context, but it runs fine"), nor one
            // told gone ("the RAM exceeding issue does not happen anymore").
            const std::string_view verb_before = std::string_view(lo).substr(p >= 32 ? p - 32 : 0, p >= 32 ? 32 : p);
            if (ends && !contains_any(before, {"free ", "before"}) &&
                !contains_any(verb_before, {"swap", "page", "paging", "offload", "copy", "move", "spill", "evict", "flush",
                                            "writ"}) &&
                !contains_any(cl, {"warn", "avoid", "prevent", "would be nice", "feature request", "says", "estimat",
                                   "calculat", "predict"}) &&
                !contains_word(cl, "if") && !told_not_so(cl) && !contains_any(lo, {"runs fine", "run fine", "works fine"}) &&
                !name_told_absent(lo, p) && !asked_at(lo, p)) {
              at = p;
            }
          }
        }
        named = at != std::string::npos;
        // The process killed, in words: "fails ... with message `killed`", "it ends with Killed error",
        // "exits with return code = -9" paraphrased, "已杀死" (zh_CN "Killed"), "被系统终止" / "被系统杀死" /
        // "被杀死" (zh: "terminated / killed by the system", "was killed"): SIGKILL, the OOM killer.
        // Not the idiom ("Killed two birds with one stone") nor the user's own kill ("I killed it because
        // it was too slow").
        for (size_t p = lo.find("killed"); at == std::string::npos && p != std::string::npos; p = lo.find("killed", p + 6)) {
          // (Asked whether, "Does the job get killed if it exceeded the memory limit?", it is no kill
          // told; asked why, "why does it get killed?", it is.)
          // (Nor "killed at" a place in the code, "Process is finally killed at https://.../heads.py#L422":
          // where it crashed, told in the user's words; "killed at epoch 3" is a kill.)
          const std::string_view at_place = std::string_view(lo).substr(p + 6, 48);
          if (at_place.rfind(" at ", 0) == 0 &&
              contains_any(at_place.substr(4, 44), {"http", ".py", "line ", "#l"})) {
            continue;
          }
          if (kill_not_the_failure(lo, p)) continue;  // (an object destroyed; the bound of a holding)
          if (name_told_absent(lo, p)) continue;            // ('I grepped dmesg for "Killed process" and found nothing')
          if (is_word_at(lo, p, 6) && lo.compare(p + 6, 10, " two birds") != 0 &&
              !(p >= 2 && (lo.compare(p - 2, 2, "i ") == 0 || (p >= 3 && lo.compare(p - 3, 3, "we ") == 0))) &&
              (!asked_at(lo, p) || contains_word(clause_at(lo, p), "why"))) {
            at = p;
          }
        }
        // The kill told without the participle's ending ("convertion of llama2 70b get kill", "the program will
        // get kill"): "get / got / gets kill" as the clause's last words or before a stop, not asked whether
        // (unless why), supposed or denied.
        // (At the clause's end: "gets kill signals", "got kill -9 support" name something else.)
        for (std::string_view phrase : {"get kill", "got kill", "gets kill", "getting kill"}) {
          for (size_t p = lo.find(phrase); at == std::string::npos && p != std::string::npos; p = lo.find(phrase, p + 1)) {
            size_t end = p + phrase.size();
            while (end < lo.size() && lo[end] == ' ') ++end;
            if (!word_starts_at(lo, p) ||
                (end < lo.size() && std::string_view(".,;!)").find(lo[end]) == std::string_view::npos)) {
              continue;
            }
            const std::string_view cl = clause_at(lo, p);
            if ((!asked_at(lo, p) || contains_word(cl, "why")) && !contains_word(cl, "if") && !told_not_so(cl)) at = p;
          }
        }
        // The killer named acting, in the present ("the OS kills the process", "Linux kills my
        // script", "zsh kills the process": the shell that ran it reports the SIGKILL), not denied,
        // supposed or asked whether ("Does the OS kill it?" has no "kills").
        // (Asked why in the infinitive, "why does the OS kill the process ...?", it is told.)
        for (const char* phrase : {"os kills", "kernel kills", "linux kills", "system kills", "macos kills", "zsh kills",
                                   "bash kills", "shell kills", "os kill ", "kernel kill ", "linux kill ", "system kill "}) {
          const bool infinitive = phrase[std::strlen(phrase) - 1] == ' ';
          if (infinitive && !contains_word(lo, "why")) continue;
          for (size_t p = lo.find(phrase); at == std::string::npos && p != std::string::npos; p = lo.find(phrase, p + 1)) {
            if (is_word_at(lo, p, std::strlen(phrase) - (infinitive ? 1 : 0)) && !told_not_so(lo) && !contains_word(lo, "if") &&
                (!asked_at(lo, p) || contains_word(clause_at(lo, p), "why"))) {
              at = p;
            }
          }
        }
        // The kill told without its killer ("the process kills itself after some time", "the script
        // eventually kills itself"): the program's noun a word or two before, not a condition, a plan or a
        // kill on purpose ("when no step finishes, the process kills itself so the launcher restarts it",
        // "a watchdog that kills itself"), not denied, not asked whether.
        for (size_t p = lo.find("kills itself"); at == std::string::npos && p != std::string::npos;
             p = lo.find("kills itself", p + 1)) {
          const std::string_view cl = clause_at(lo, p);
          const size_t from = static_cast<size_t>(cl.data() - lo.data());
          const std::string_view subject = cl.substr(0, p - from).substr(p - from > 32 ? p - from - 32 : 0);
          if (word_starts_at(lo, p) &&
              contains_any(subject, {"process ", "script ", "program ", "job ", "training ", "trainer ", "python "}) &&
              !contains_any(subject, {"watchdog", "supervisor", "launcher"}) && !contains_word(cl, "if") &&
              !contains_any(lo, {"so that", "so the ", "should", "proposal", "feature", "would", "could",
                                 "option", "on purpose", "deliberately", "intentionally", "by design"}) &&
              !told_not_so(cl) && (!asked_at(lo, p) || contains_word(cl, "why"))) {
            at = p;
          }
        }
        for (const char* phrase : {"return code = -9", "return code -9", "exit code -9", "exit code 137", "with code 137",
                                   "已杀死",
                                   "被系统终止", "被系统杀死", "被杀死", "被杀掉",
                                   // Colab's own notice: "Your session crashed after using all available RAM.",
                                   // and its clause as its localized pages print it: Korean "사용 가능한 RAM을 모두
                                   // 사용한 후 세션이 다운되었습니다", Japanese "使用可能な RAM をすべて使用した後で、
                                   // セッションがクラッシュしました", Spanish "... después de usar toda la RAM
                                   // disponible", Portuguese "... após usar toda a RAM disponível" (the whole clause:
                                   // not "¿cómo usar toda la RAM disponible?", "RAMをすべて使用したい")
                                   "crashed after using all available ram",
                                   "ram\xec\x9d\x84 \xeb\xaa\xa8\xeb\x91\x90 \xec\x82\xac\xec\x9a\xa9\xed\x95\x9c \xed\x9b\x84",
                                   "ram \xe3\x82\x92\xe3\x81\x99\xe3\x81\xb9\xe3\x81\xa6\xe4\xbd\xbf\xe7\x94\xa8\xe3\x81\x97\xe3\x81\x9f\xe5\xbe\x8c",
                                   "ram\xe3\x82\x92\xe3\x81\x99\xe3\x81\xb9\xe3\x81\xa6\xe4\xbd\xbf\xe7\x94\xa8\xe3\x81\x97\xe3\x81\x9f\xe5\xbe\x8c",
                                   "despu\xc3\xa9s de usar toda la ram disponible", "ap\xc3\xb3s usar toda a ram dispon\xc3\xadvel"}) {
          if (at == std::string::npos) at = lo.find(phrase);
        }
        // The same kill told in Chinese in other words ("40g的内存进程会自己kill掉" (with 40g of memory
        // the process gets killed by itself), "被kill", "被杀"): zh_kill_told()'s, not denied, not the
        // user's own kill, not on a line naming the GPU's memory (显存) or telling the memory growing
        // (the growth's own reading finds that report).
        if (at == std::string::npos && (lo.find("kill") != std::string::npos || lo.find('\xe6') != std::string::npos ||
                                        lo.find('\xe7') != std::string::npos)) {  // (杀 系 lead bytes)
          if (zh_kill_told(lo)) at = zh_kill_at(lo);
        }
        // SIGKILL received, not sent: "sent SIGTERM but had no SIGKILL fallback", "send SIGKILL after
        // 5 s" are a supervisor's signal to its child, not this process killed.
        for (size_t p = lo.find("sigkill"); at == std::string::npos && p != std::string::npos; p = lo.find("sigkill", p + 7)) {
          const std::string_view before = std::string_view(lo).substr(p > 12 ? p - 12 : 0, std::min<size_t>(p, 12));
          if (!contains_any(before, {"send", "sent", "no ", "a "}) && lo.compare(p + 7, 9, " fallback") != 0) at = p;
        }
        // SIGKILL's code told as an error or a status ("error -9 when training"), and a process told
        // dying with no message at all ("the process dies without an error message"): a kill leaves
        // no traceback (the OOM killer's SIGKILL cannot be caught), other deaths print theirs.
        for (const char* phrase : {"error -9", "status -9", "dies without", "died without", "dies silently", "died silently",
                                   "exits without an error", "exited without an error", "exits without any error",
                                   "exited without any error", "crashes without an error", "crashed without an error",
                                   "crashes without any error", "crashed without any error", "terminates without an error",
                                   "terminated without an error"}) {
          const size_t p = at == std::string::npos ? lo.find(phrase) : std::string::npos;
          const size_t e = p == std::string::npos ? p : p + std::strlen(phrase);
          if (p == std::string::npos || !word_starts_at(lo, p) || (e < lo.size() && is_digit(lo[e]))) continue;
          // A system call's errno -9 (EBADF: "ioctl(...) failed with error -9 (Bad file descriptor)")
          // is no signal; a crash told beside the death (a segfault, exit 139, a core dump) is no kill.
          if (contains_any(lo, {"bad file", "ebadf", "ioctl", "segmentation fault", "segfault", "sigsegv", "core dumped",
                                "139", "illegal instruction", "sigabrt", "abort"})) {
            continue;
          }
          // (Dying without an error told as what happens elsewhere, denied or asked whether is none; a
          // question tacked on after it leaves it told.)
          if (told_not_so(lo) || contains_word(lo, "if") || asked_at(lo, p)) continue;
          at = p;
        }
        // A notebook's kernel dying: host RAM the likely reason, not a kill the log shows.
        if (at == std::string::npos) {
          at = notebook_kernel_died(lo, notebook_log);
          kernel_died = at != std::string::npos;
        }
        // TensorFlow's BFC allocator dumps its chunk map only when an allocation failed
        // (BFCAllocator::DumpMemoryLog, called from AllocateRawInternal): "bfc_allocator.cc:1344]
        // InUse  at 2b673f109b00 of size 256 next 1553", "Next region of size ...", "Sum Total of
        // in-use chunks: ...", pasted without the "ran out of memory" line above it.
        // TensorFlow's BFC allocator's "Stats:" block pasted alone ("Limit:   536870912" then "InUse:
        // 536786944"): the allocator's limit and what it held when it ran out.
        if (at == std::string::npos && lo.find("limit:") != std::string::npos) {
          const size_t idx = static_cast<size_t>(&l - lines.data());
          const std::string squashed = squash(lo);
          if (squashed.rfind("limit:", 0) == 0 && squashed.size() > 6 &&
              std::all_of(squashed.begin() + 6, squashed.end(), is_digit) && idx + 1 < lines.size()) {
            const std::string next = squash(lower(lines[idx + 1].raw.substr(0, 200)));
            if (next.rfind("inuse:", 0) == 0 && next.size() > 6 && std::all_of(next.begin() + 6, next.end(), is_digit) &&
                squashed.size() - 6 <= 18 && next.size() - 6 <= 18) {
              const int64_t limit = std::stoll(squashed.substr(6)), in_use = std::stoll(next.substr(6));
              // (A summary printed at exit, far from its limit, tells no failure: it ran out only near it.)
              if (limit > 0 && static_cast<double>(in_use) >= 0.9 * static_cast<double>(limit)) {
                at = 0;
                named = true;
                bfc_stats_limit = limit;
                bfc_stats_in_use = in_use;
              }
            }
          }
        }
        if (at == std::string::npos && lo.find("bfc_allocator") != std::string::npos) {
          const std::string squashed = squash(lo);
          for (const char* dump : {"]inuseat", "]freeat", "]chunkat", "]nextregionofsize", "]sumtotalofin-usechunks",
                                   "]bin("}) {
            if (squashed.find(dump) != std::string::npos) {
              at = 0;
              named = true;
              break;
            }
          }
          // Its chunk-size summary ("bfc_allocator.cc:1034] 2 Chunks of size 335544320 totalling
          // 640.00MiB"), part of the same dump.
          if (at == std::string::npos && squashed.find("chunksofsize") != std::string::npos &&
              squashed.find("totalling") != std::string::npos) {
            at = 0;
            named = true;
          }
        }
      } else if (pass == 1   ? memory_growth_prose(lo)
                 : pass == 2 ? (memory_trouble_prose(lo) || gpu_memory_imbalance_prose(l.raw, lo) || fit_limit_told(lo) ||
                                zh_needs_more_than_it_has(lo))
                             : (error_told && memory_short_asked(lo)) || resource_exhausted_told(lo) ||
                                   (&l == &lines.front() && memory_requirement_title(lo) &&
                                    failure_shown(!memory_requirement_asked(lo)))) {
        // (Not a line whose failure names are all told absent or only supposed: "This isn't an out of
        // memory problem", "I don't think the memory is insufficient", "When the GPU memory is
        // insufficient, the scheduler preempts ...": names_all_denied().)
        if (!names_all_denied(lo)) {
          at = 0;
          named = true;
        }
      }
      if (at == std::string::npos) continue;
      // A CUDA GPU's memory named ("cuda", "gpu", "vram", 显存 zh: GPU memory): the report's device.
      // In Chinese, 显存 told to have room ("内存耗完了，但是显存还有很多": the RAM ran out, the GPU's
      // memory has plenty) is not where it ran out: the host's RAM named in trouble decides.
      // (Not a GPU told absent: "Out of Memory Error without GPU" ran out on the host.)
      const bool cuda_named = (cuda_memory_named(gpu_denials_blanked(lo)) && !zh_gpu_memory_only_fine(lo)) || fit_on_gpu;
      // Killed for running out of memory, the OOM named beside the kill ("the tasks were always killed
      // due to out of memory"): the kernel's OOM killer, unless an accelerator is named within 40
      // characters of the kill's reason: "gets killed (out of memory) while loading the checkpoint,
      // even though the GPU has 80GB free" is the host's; "killed due to out of memory on the GPU"
      // is the device's.
      size_t reason = std::string::npos, reason_len = 0;
      for (const char* why : {"due to out of memory", "due to out-of-memory", "due to oom", "because of oom",
                              "because of out of memory", "because it ran out of memory", "for running out of memory",
                              "killed (out of memory)"}) {
        if (const size_t p = lo.find(why); p != std::string::npos && p < reason) reason = p, reason_len = std::strlen(why);
      }
      const bool killed_for_memory = named && pass == 0 && contains_word(lo, "killed") && reason != std::string::npos &&
                                     !accelerator_near(lo, reason, reason_len);
      // Kubernetes' OOMKilled also as two words ("crash loop in OOM Killed", "the pod got OOM Killed"):
      // the cgroup's kill, over host RAM; not "the CUDA OOM killed my training" (an accelerator
      // within 40 characters), nor denied just before ("the pod was not OOM Killed"). The kills as a
      // noun too ("a spate of OOM kills on nsolid"), not asked of ("how do I avoid OOM kills?").
      size_t oom_killed_words = lo.find("oom killed");
      if (oom_killed_words == std::string::npos) {
        oom_killed_words = lo.find("oom kills");
        if (oom_killed_words != std::string::npos && (!is_word_at(lo, oom_killed_words, 9) || asked_at(lo, oom_killed_words))) {
          oom_killed_words = std::string::npos;
        }
      }
      if (oom_killed_words != std::string::npos) {
        const size_t from = oom_killed_words > 12 ? oom_killed_words - 12 : 0;
        const std::string_view before = std::string_view(lo).substr(from, oom_killed_words - from);
        if (contains_any(before, {"not ", "n't ", "never ", "no "})) oom_killed_words = std::string::npos;
      }
      // The kernel's OOM killer named acting ("the OOMKiller picks the operator pod", "the OOM-killer killed
      // the trainer"): not denied ("the OOMKiller never fired") nor asked.
      const size_t killer_at = std::min({lo.find("oomkiller"), lo.find("oom-killer"), lo.find("oom killer")});
      // (The verb after the name: "killer" itself holds "kill".)
      const size_t after_killer = killer_at == std::string::npos ? killer_at : lo.find("killer", killer_at) + 6;
      const bool killer_acts =
          killer_at != std::string::npos &&
          contains_any(std::string_view(lo).substr(after_killer, 48),
                       {"pick", "kill", "terminat", "sigkill", "chose", "chooses", "select", "reap", "took", "takes", "slay",
                        "slew", "shot", "\xe6\x9d\x80"}) &&  // 杀 (zh: kill: 杀掉, 杀死)
          !told_not_so(lo) && lo.find('?') == std::string::npos;
      // A kill told as what the GPU's memory running out did ("the gpu memory usage kept increasing until it
      // is used up which killed the training process"): the GPU's memory named in trouble on the kill's
      // line, no host memory named there, is the device's failure, not the kernel's OOM killer.
      const bool gpu_ran_out_and_killed =
          !named && !kernel_died && cuda_named && memory_trouble_prose(lo) &&
          !contains_any(lo, {" ram", "host memory", "system memory", "cpu memory", "main memory", "swap", "machine's memory",
                             "machine memory", "dataloader", "worker", "plenty", "free vram", "is ok", "enough vram"}) &&
          !fine_told(lo);  // (the GPU told fine: "GPU memory is fine (9 of 24 GB)"; not "fine-tuning")
      if (gpu_ran_out_and_killed) named = true;
      const bool killed = (!named && !kernel_died) || killed_for_memory || killer_acts ||
                          (lo.find("oom-killed") != std::string::npos || lo.find("oomkilled") != std::string::npos) ||
                          (oom_killed_words != std::string::npos && word_starts_at(lo, oom_killed_words) &&
                           !accelerator_near(lo, oom_killed_words, 10));
      OomRecord r;
      r.family = "mentioned";
      r.subsystem = "";
      r.line = l.number;
      r.complete = false;
      r.message = trim(strip_log_prefix(trim(strip_ansi(utf8_prefix(l.raw, 400)))));
      if (bfc_stats_limit >= 0) {  // TensorFlow's allocator's own figures: its limit, what it held
        r.family = "tensorflow";
        r.subsystem = "tensorflow_bfc";
        r.device = "gpu";
        r.allowed_bytes = bfc_stats_limit;
        r.allocated_bytes = bfc_stats_in_use;
        return r;
      }
      // The request told outside a message of PyTorch's, read in one pass over the log's lines, each
      // lowercased once; by rank, where several are told: (1) PyTorch's quoted "Tried to allocate", (2)
      // the failing allocation retold, (3) a native library's sized failure. The first of each kind
      // in the log is the one kept. (A kill's or a dead kernel's report has no request.)
      struct Told {
        const LineView* line = nullptr;
        size_t from = 0;
        PrintedSize size;
      };
      std::optional<Told> quoted, retold;
      std::optional<std::pair<int64_t, std::string>> native;  // (bytes, printed)
      // (The line before a program's check, a source location and the runtime's words at its end,
      // "kmcuda.cc:456 -> out of memory" or "... out of memory.": not a sentence that names the failure,
      // "k-means on 50M embeddings runs out of memory".)
      auto check_line = [](std::string_view x) {
        std::string t = trim(x);
        while (!t.empty() && (t.back() == '.' || t.back() == '!')) t.pop_back();
        if (t.size() < 13 || t.compare(t.size() - 13, 13, "out of memory") != 0) return false;
        for (const char* ext : {".cc:", ".cu:", ".cpp:", ".cxx:", ".c:", ".h:", ".cuh:", ".hpp:"}) {
          const size_t loc = t.find(ext);
          if (loc != std::string::npos && loc + std::strlen(ext) < t.size() && is_digit(t[loc + std::strlen(ext)])) return true;
        }
        return false;
      };
      std::string_view previous_lo;  // the line before's, lowercased
      for (size_t j = 0; j < lines.size() && !quoted && !killed && !kernel_died; ++j) {
        const LineView& q = lines[j];
        const std::string& ql = lowered[j];
        // (1) PyTorch's "Tried to allocate X" quoted in the user's prose ("It consistently crashed on MMLU
        // with \"Tried to allocate 31.50 GiB\""): the request, whatever line tells the failure.
        if (const size_t p = ql.find("tried to allocate "); p != std::string::npos) {
          if (const auto v = told_size_at(ql, p + 18)) {
            quoted = Told{&q, p + 18, *v};
            break;
          }
        }
        // (2) The failing allocation retold in the user's words on a line that names the OOM ("then i got
        // OOM on each gpu: allocate 372Mib but 367.12 left"): "allocate" and a size with its unit right
        // after it.
        if (!retold && (contains_word_start(ql, "oom") || ql.find("out of memory") != std::string::npos)) {
          for (size_t p = ql.find("allocate "); p != std::string::npos && !retold; p = ql.find("allocate ", p + 9)) {
            if (!word_starts_at(ql, p) || (p >= 9 && ql.compare(p - 9, 9, "tried to ") == 0)) continue;
            const std::string sq = squash(std::string_view(ql).substr(p + 9, 24));
            const auto v = size_at(sq, 0);
            if (!v || v->overflow || v->bytes <= 0 || !is_digit(sq[0])) continue;
            // (A unit of two letters or more must follow the number: "allocate 2 more buffers", "allocate 2
            // batches" are no size.)
            const size_t unit = v->printed.find_first_not_of("0123456789.,");
            if (unit == std::string::npos || v->printed.size() - unit < 2) continue;
            // (The allocation that failed: what was left told after it, "allocate 372Mib but 367.12 left",
            // or its failure or attempt before it, "unable to allocate 2GiB", "CUDA OOM: Trying to allocate
            // 2548.47 GiB"; not a budget meant, "vLLM should allocate 20GiB for the KV cache".)
            const std::string_view after = std::string_view(ql).substr(p + 9, 60);
            const std::string_view before = std::string_view(ql).substr(p >= 12 ? p - 12 : 0, p >= 12 ? 12 : p);
            const bool failed = contains_any(after, {" left", " free", " available", " remain"}) ||
                                contains_any(before, {"failed to ", "unable to ", "cannot ", "can't ", "could not ",
                                                      "couldn't ", "fails to ", "failing to ", "trying to ", "attempting to ",
                                                      "attempt to ", "tries to "});
            if (failed) retold = Told{&q, p + 9, *v};
          }
        }
        // (3) A native library's sized failure as a byte count on the line after its out-of-memory line,
        // or on that line itself ("kmcuda.cc:456 -> out of memory" then "failed to allocate 9453759777
        // bytes for device_bounds_yy": kmcuda's CUDA_CHECK, then its allocation's own line), wherever the
        // log holds it (the report told in words may be the title), in its first 4000 lines, each line's
        // first 400 bytes. Only a count of bytes in digits ("failed to allocate memory", a buffer of
        // another unit, are not read here).
        if (!native && j < 4000) {
          const std::string_view nl = std::string_view(ql).substr(0, 400);
          if (const size_t p = nl.find("failed to allocate "); p != std::string_view::npos) {
            const bool told_oom = check_line(nl) || (j > 0 && check_line(std::string_view(previous_lo).substr(0, 400)));
            const size_t from = p + 19;
            size_t d = from;
            while (d < nl.size() && is_digit(nl[d])) ++d;
            if (told_oom && d != from && d - from <= 18 && nl.compare(d, 6, " bytes") == 0) {
              const std::string digits(nl.substr(from, d - from));
              if (const int64_t count = std::stoll(digits); count > 0) native.emplace(count, digits + " bytes");
            }
          }
        }
        previous_lo = ql;
      }
      // A size read at `from` of line `q` as the request, its printed text from the line itself, its case
      // kept: as many non-space characters as the size read.
      if (const std::optional<Told>& t = quoted ? quoted : retold) {
        r.requested_bytes = t->size.bytes;
        const std::string_view raw = t->line->raw;
        size_t e = t->from, taken = 0;
        while (e < raw.size() && taken < t->size.printed.size()) taken += !is_space(raw[e++]);
        r.requested_printed = spaced_unit(trim(raw.substr(t->from, e - t->from)));
      } else if (native) {
        r.requested_bytes = native->first;
        r.requested_printed = native->second;
      }
      auto has_word = [&](const char* w) { return contains_word(lo, w); };
      if (killed) {
        r.family = "oom_killer";
        r.subsystem = "linux_oom_killer";
        r.device = "cpu";
      } else if (kernel_died) {
        r.device = "cpu";
      } else if ((lo.find("cpuallocator") != std::string::npos || lo.find("cpu allocator") != std::string::npos ||
                  lo.find("java heap space") != std::string::npos || lo.find("gc overhead limit exceeded") != std::string::npos) &&
                 // (not denied or over, "It's not the cpu allocator", "I no longer get ... Java heap space", nor
                 // set against the GPU's failure, "I already gave the Java heap space 32g, but the GPU ...")
                 !contains_any(lo, {" not ", "n't ", "no more", "no longer", " but ", "already"})) {
        // PyTorch's CPU allocator named as what failed ("it throws an error that cpuallocator cannot allocate
        // enough memory"), whatever GPU the line also names, or the JVM's heap ("OutOfMemoryError: Java heap
        // space", "GC overhead limit exceeded"): the host's.
        r.device = "cpu";
      } else if (cuda_named || (gpu_named(lo) && ram_only_as_spec(lo)) ||
                 // Only a bare "RAM" on a line below a title naming the GPU's memory: the GPU's (not the
                 // host's, the CPU's, the system's, a swap's or a machine's named on the line).
                 (title_gpu_memory && &l != &lines.front() && has_word("ram") && !cpu_memory_word(lo) &&
                  !has_word("host") && !has_word("cpu") && !has_word("system") && !has_word("swap") &&
                  !machine_runs_out(lo) && !host_sized_memory_named(lo) && !has_word("colab"))) {
        // (A GPU named beside the host's RAM as a listed size, "I'm using a 1080Ti 11GB and 32GB RAM":
        // a hardware listing, the GPU's run.)
        r.device = "cuda";
      } else if (has_word("ram") || cpu_memory_word(lo) || has_word("host") || machine_runs_out(lo) ||
                 // Python's MemoryError (a host malloc failed; numpy's "Unable to allocate" cut short): an
                 // accelerator's library says CUDA / GPU on the line (cuDF's "MemoryError: std::bad_alloc:
                 // CUDA error"), read above
                 has_word("memoryerror") || has_word("enomem") || lo.find("paging file") != std::string::npos ||
                 // ENOMEM's message retold ("can not allocate memory"), no accelerator named (above); not
                 // Intel's Arc cap, "can NOT allocate memory block ..."
                 (lo.find("can not allocate memory") != std::string::npos &&
                  lo.find("can not allocate memory block") == std::string::npos) ||
                 host_sized_memory_named(lo) ||
                 // OpenCV's own allocator (cv::OutOfMemoryError): host memory unless CUDA is named, above;
                 // the machine swapping
                 has_word("opencv") || has_word("cv2") || contains_word_start(lo, "swapping") ||
                 // SciPy's sparse solvers (UMFPACK's "UMFPACK_ERROR_out_of_memory", SuperLU under spsolve):
                 // the host's memory (not CuPy's or JAX's spsolve, cuSPARSE / cuSOLVER / cuDSS on the GPU)
                 lo.find("umfpack") != std::string::npos ||
                 ((has_word("superlu") || has_word("spsolve")) &&
                  !contains_any(lo, {"cupy", "cusparse", "cusolver", "cudss", "jax"})) ||
                 // the machine's own memory named ("it using all machine's memory"; not "system memory",
                 // also where a GPU's driver spills: "falls back to system memory", Windows' "shared
                 // GPU memory")
                 contains_any(lo, {"machine's memory", "machine memory", "computer's memory", "computer memory"}) ||
                 // the operating system's OOM ("it causes os OOM", "a system OOM"): the kernel's, over host RAM
                 // (as words: not macOS's or iOS's "... OOM")
                 contains_word_start(lo, "os oom") || contains_word_start(lo, "system oom") ||
                 zh_gpu_memory_only_fine(lo) ||  // 内存耗完了，但是显存还有很多: the host's
                 // "跑到一半就超内存了": the host's, no accelerator named; not growth told (pass 1: "训练过程中
                 // 内存占用一直增加" reports the growth, which the leak's reading weighs)
                 (pass != 1 && zh_host_memory_only(lo)) ||
                 // R's allocator's words told without its size ("seeing it cannot allocate vector of size
                 // error?"): an R session's host memory
                 contains_any(lo, {"allocate vector of size", "allocate a vector of size", "vector memory exhausted"}) ||
                 (container_memory_named(clause_at(lo, at)) && !gpu_named(lo) && !accelerator_named(lo))) {
        // "out of my 64G ram", "got CPU OOM", "on the host": host memory, in words; so is a pod's,
        // a container's or a Spark driver's / executor's memory limit (the cgroup's, over host RAM),
        // named in the clause that tells it ran out ("we run the tokenizer in a separate pod; the
        // training job runs out of memory" is not the pod's).
        r.device = "cpu";
      } else if (has_word("npu") || lo.find("ascend") != std::string::npos) {
        r.device = "npu";  // "the training task on the Ascend NPU ran out of memory"
      } else if (contains_word(clause_at(lo, at), "vulkan") && !contains_word(clause_at(lo, at), "cpu")) {
        r.device = "vulkan";  // "Vulkan ran out of memory!" (ncnn's, llama.cpp's Vulkan backend): the GPU's memory
      } else if (has_word("tpu") || has_word("xpu") || has_word("mps")) {
        r.device = has_word("tpu") ? "tpu" : has_word("xpu") ? "xpu" : "mps";
      }
      // (A kill's or a dead kernel's report has no request of its own: tcmalloc's, below, where it shows.)
      if (!r.requested_bytes && !killed && !kernel_died) prose_request_near(lines, static_cast<size_t>(&l - lines.data()), r);
      // tcmalloc's large allocation on `near`, a line as tcmalloc prints it (in lower case), where
      // `keep` takes it: its size the request, on the host (both readings below).
      auto take_tcmalloc = [&r](std::string_view near, auto&& keep) {
        const size_t t = near.find("tcmalloc: large alloc");
        if (t == std::string_view::npos || !keep(near, t + 21)) return;
        if (const auto n = tcmalloc_large_alloc_at(near, t + 21)) {
          r.device = "cpu";
          r.requested_bytes = n->first;
          r.requested_printed = std::to_string(n->first) + " bytes";
        }
      };
      // tcmalloc's warning of one large allocation on the report's line or the next three, told with
      // the host running out on its own line ("I'm running out of memory ... Colab notifies me 6 times,
      // with the following warning: tcmalloc: large alloc 2617409536 bytes") or failed ("== (nil)"):
      // the host's malloc's, the allocation the host could not hold. (Not a warning alone: Colab
      // prints it for large loads that succeed.)
      if ((r.device.empty() || r.device == "cpu") && !r.requested_bytes) {
        const size_t idx = static_cast<size_t>(&l - lines.data());
        for (size_t j = idx; j < lines.size() && j <= idx + 3 && !r.requested_bytes; ++j) {
          take_tcmalloc(lowered[j], [](std::string_view near, size_t from) {
            return tcmalloc_alloc_failed(near, from) ||
                   contains_any(near, {"out of memory", "running out", "ran out", "runs out", "run out"});
          });
        }
      }
      // The host's process killed or its kernel dead beside tcmalloc's warning of one large
      // allocation ("tcmalloc: large alloc 12884901888 bytes == 0x7f88... @"), the nearest within 40
      // lines either way (Colab's log viewer lists the newest record first): the allocation that
      // took the host's RAM, its size the request.
      if (r.device == "cpu" && (killed || kernel_died)) {
        const size_t idx = static_cast<size_t>(&l - lines.data());
        for (size_t d = 1; d <= 40 && !r.requested_bytes; ++d) {
          for (const size_t j : {idx >= d ? idx - d : lines.size(), idx + d}) {
            if (j >= lines.size() || r.requested_bytes) continue;
            take_tcmalloc(lines[j].raw.substr(0, 400), [](std::string_view, size_t) { return true; });
          }
        }
      }
      // A later line's failure told in a sentence, not code, a comment ("# but doesn't OOM") nor one
      // denied or supposed ("a would-be OOM"). Not told_not_so(): a later line is often a long
      // sentence whose "not" belongs to another clause ("is there any way I can make it not do
      // that?", "this does usually not cause OOM, but if ... on the same GPU it does"); only the
      // verb's own denials count here: from 24 characters before the failure's words to 40 after
      // their start ("it doesn't run out of memory", "CUDA out of memory doesn't occur with bf16";
      // "What I don't understand is that it runs out of 125gb ram" tells it).
      auto told_on_line = [&] {
        const std::string_view near = std::string_view(lo).substr(at >= 24 ? at - 24 : 0, (at >= 24 ? 24 : at) + 40);
        return !contains_any(lo, {"#", "print(", " = ", "import ", "would-be", "would be", "without"}) &&
               !contains_any(near, {"doesn't", "does not", "don't", "didn't", "won't", "no oom", "not oom", "do not think"});
      };
      if (pass == 0 && r.family == "mentioned") {
        if (!deviceless && r.device.empty()) {
          deviceless = std::move(r);
          continue;
        }
        if (deviceless) {
          if (!r.device.empty() && told_on_line()) {
            deviceless->device = r.device;
            return deviceless;
          }
          continue;
        }
      }
      if (deviceless) {
        // A kill for memory told later, not in code or denied ("training-operator memory limit too
        // small, OOM" over kubectl's "training-operator-8569f97489-zkxbt 0/1 OOMKilled"): the kill
        // is what the title named, on the host; it is the report, unless a later line names the OOM
        // on a device (read on, above). Only this run's kill: not beside an accelerator's OOM on its
        // line ("OOM kills on the ingest nodes; here the error is CUDA out of memory"), nor told of
        // another's or of the past ("a different pod got OOMKilled, unrelated", "it used to be
        // OOMKilled ... that is gone"). Another later reading (a kernel's death, a device named in
        // pass 1 or 2) leaves the title's report as it was.
        const bool this_runs_kill =
            !cuda_named && !accelerator_named(lo) &&
            !contains_any(lo, {"unrelated", "not related", "different", "another", "other pod", "other node", "used to",
                               "is gone", "was gone", "no longer", "yesterday", "previously", "in the past"});
        if (pass == 0 && r.family == "oom_killer" && told_on_line() && this_runs_kill) {
          if (!later_kill) later_kill = std::move(r);
          continue;
        }
        // Another's or a past kill beside this run's OOM on a device ("... OOM kills on the ingest
        // nodes; here the error is CUDA out of memory", "it used to be OOMKilled ... now the GPU throws
        // out of memory"): that device is the title's.
        if (pass == 0 && r.family == "oom_killer" && cuda_named && told_on_line()) {
          deviceless->device = "cuda";
          return deviceless;
        }
        if (pass == 0) continue;
        return deviceless;
      }
      return r;
    }
  }
  return deviceless;
}

bool looks_binary(std::string_view text) {
  const std::string_view head = text.substr(0, 64 * 1024);
  size_t control = 0;
  for (const char ch : head) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == 0) return true;
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b) ++control;
  }
  return !head.empty() && control * 10 > head.size();
}

nlohmann::json oom_record_to_json(const OomRecord& r) {
  nlohmann::json j{{"family", r.family},     {"device", r.device},         {"subsystem", r.subsystem},
                   {"line", r.line},         {"occurrences", r.occurrences}, {"message", r.message},
                   {"complete", r.complete}};
  // A size beyond int64 or printed negative is kept in the record as INT64_MAX (size_overflow): a
  // stand-in, not a number a reader of the JSON could use, so it is left out; requested_printed
  // holds the size as printed (its unit spaced as oomkit shows every size).
  auto put = [&](const char* key, const std::optional<int64_t>& v) {
    if (v && !(r.size_overflow && *v == std::numeric_limits<int64_t>::max())) j[key] = *v;
  };
  put("requested_bytes", r.requested_bytes);
  if (!r.requested_printed.empty()) j["requested_printed"] = spaced_unit(r.requested_printed);
  if (r.requested_is_lower_bound) j["requested_is_lower_bound"] = true;
  if (r.requested_is_truncated) j["requested_is_truncated"] = true;
  if (r.size_overflow) j["size_overflow"] = true;
  put("total_capacity_bytes", r.total_capacity_bytes);
  put("free_bytes", r.free_bytes);
  put("allocated_bytes", r.allocated_bytes);
  put("reserved_bytes", r.reserved_bytes);
  put("reserved_unallocated_bytes", r.reserved_unallocated_bytes);
  put("private_pool_bytes", r.private_pool_bytes);
  put("allowed_bytes", r.allowed_bytes);
  put("process_bytes", r.process_bytes);
  put("non_pytorch_bytes", r.non_pytorch_bytes);
  put("other_process_bytes", r.other_process_bytes);
  if (!r.processes.empty()) {
    j["processes"] = nlohmann::json::array();
    for (const auto& p : r.processes) j["processes"].push_back({{"pid", p.pid}, {"bytes", p.bytes}});
  }
  if (!r.tensor_shape.empty()) j["tensor_shape"] = r.tensor_shape;
  if (!r.dtype.empty()) j["dtype"] = r.dtype;
  if (r.dtype_assumed) j["dtype_assumed"] = true;
  put("rss_bytes", r.rss_bytes);
  put("killed_pid", r.killed_pid);
  put("max_model_len", r.max_model_len);
  put("kv_cache_tokens", r.kv_cache_tokens);
  put("laid_out_bytes", r.laid_out_bytes);
  put("largest_free_block_bytes", r.largest_free_block_bytes);
  put("max_allocation_bytes", r.max_allocation_bytes);
  return j;
}

}  // namespace oomkit
