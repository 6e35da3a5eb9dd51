// Out-of-memory messages as structured records. parse_oom_log() finds every OOM report in any
// text (a console log, a traceback, a pasted issue) and returns one OomRecord per report, with
// every size converted to int64 bytes.
//
// Families (OomRecord::family), each printed by a different layer:
//   "pytorch1"   caching allocator, PyTorch 1.x: "Tried to allocate X (GPU n; Y total capacity;
//                Z already allocated; W free; [A allowed;] R reserved in total by PyTorch)"
//                (1.0-1.3 wrote "C cached" instead: C is the cached free part, reserved - allocated,
//                as THCCachingAllocator printed amount_cached - amount_allocated). Intel IPEX's XPU
//                uses the same shape. The head may be missing (pasted from "Tried to allocate").
//   "pytorch2"   caching allocator, PyTorch 2.x: "Tried to allocate X. GPU n has a total capacity
//                of Y of which W is free. [A allowed;] [Process p has M memory in use.]
//                [Including non-PyTorch memory, this process has M memory in use.] Of the
//                allocated memory Z is allocated by PyTorch, [with P allocated in private pools
//                (e.g., CUDA Graphs),] and U is reserved by PyTorch but unallocated." For CUDA,
//                HIP, XPU and the device-generic "Out of memory." wording; also Apple's "MPS
//                backend out of memory (MPS allocated: Z, other allocations: N, max allowed: A).
//                Tried to allocate X on private pool." (device "mps").
//   "pytorch"    a caching-allocator message cut off before its version can be told.
//   "pytorch_async"  the cudaMallocAsync backend: "Allocation on device n would exceed allowed
//                memory. (out of memory) Currently allocated: Z Requested: X Device limit: Y
//                Free (according to CUDA): W PyTorch limit (set by user-supplied memory
//                fraction): A" (A is 2^64 bytes when no fraction is set; then omitted); also
//                its head alone, "Allocation on device" at a message's head with nothing after it,
//                as ComfyUI's error report prints it (no size; complete false).
//   "pytorch_alloc_retry"  PyTorch 2.x's caching allocator when a cudaMalloc fails (alloc_block in
//                c10/cuda/CUDACachingAllocator.cpp, a LOG(WARNING)): "memory allocation failed with
//                OOM on device n while trying to allocate X bytes (free: W, total: Y)." It frees its
//                cached blocks and retries; the OutOfMemoryError of a failed retry, when it follows
//                within 40 lines, replaces this report. Under expandable_segments:True the same
//                warning reads "memory mapping failed with OOM on device n while trying to map X
//                bytes (...)" (X: a 2 or 20 MiB page; subsystem "expandable_segments"). Read over the
//                lines a paste wraps it onto.
//   "cuda_error_oom"   cudaErrorMemoryAllocation raised outside the caching allocator: "CUDA
//                error: out of memory" (context creation, cuBLAS/cuDNN workspaces, NCCL's "Cuda
//                failure 'out of memory'" / "Failed to CUDA calloc N bytes"), PyTorch 0.x's
//                "cuda runtime error (2) : out of memory", the driver's CUDA_ERROR_OUT_OF_MEMORY,
//                a library's "failed to cudaMalloc N bytes (error 2 out of memory)" (faiss), ggml's
//                CUDA / HIP backend's "allocating X MiB on device 0: cudaMalloc failed: out of memory".
//   "cublas_alloc_failed"  CUBLAS_STATUS_ALLOC_FAILED (cublasCreate or its workspace).
//   "cudnn_alloc_failed"   CUDNN_STATUS_ALLOC_FAILED (cuDNN's own workspace/handle).
//   "cpu_default_allocator"  c10's DefaultCPUAllocator: "can't allocate memory: you tried to
//                allocate N bytes" (Linux, posix_memalign) / "not enough memory: ..." (Windows).
//   "oomkit_cpu_budget"  oomkit's own CPU budget (--memory-limit), pytorch2-shaped:
//                "CPU out of memory (oomkit --memory-limit). Tried to allocate ...".
//   "th_cpu_allocator"  legacy TH (PyTorch <= 0.4): "$ Torch: not enough memory: you tried to
//                allocate 40GB. Buy new RAM!" (TH prints size / 2^30 truncated to whole "GB":
//                requested_is_truncated, the true size is in [N, N+1) GiB).
//   "xla"        XLA (PyTorch/XLA, JAX, TF on TPU or GPU): "Resource exhausted: Attempting to
//                allocate 512.00M. That was not possible. There are 300.25M free." (TPU HBM; M/G
//                are binary) and "RESOURCE_EXHAUSTED: Out of memory while trying to allocate N bytes".
//   "tensorflow" "OOM when allocating tensor with shape[64,256,128,128] and type float on
//                /job:.../device:GPU:0 by allocator GPU_0_bfc": requested = product(shape) x the
//                dtype's size; also the BFC allocator's "ran out of memory trying to allocate X" and
//                TF2 eager's "ResourceExhaustedError: failed to allocate memory [Op:...]" (no size).
//   "oom_killer" the Linux OOM killer / cgroup limit: "Out of memory: Killed process P (name)
//                total-vm:…kB, anon-rss:…kB", "Memory cgroup out of memory", a DataLoader worker
//                "killed by signal: Killed", a shell's bare "Killed", torchrun's "exitcode: -9",
//                a launcher's "exits with return code = -9" (DeepSpeed), exit code / status 137,
//                SLURM's "Detected N oom-kill event(s)" / "killed by the cgroup out-of-memory handler".
//   "vllm_kv_cache"  vLLM's KV-cache budget: "The model's max seq len (N) is larger than the
//                maximum number of tokens that can be stored in KV cache (M)", "No available
//                memory for the cache blocks", "… KV cache is needed, which is larger than the
//                available KV cache memory (X)".
//   "host_alloc" host-memory allocations outside PyTorch's allocators (device "cpu"; subsystem
//                says which): numpy's "Unable to allocate 7.45 GiB for an array with shape (...)"
//                (requested = that size; "123. GiB" as numpy's 3-digit format prints it), the
//                kernel's ENOMEM "[Errno 12] Cannot allocate memory", C++'s std::bad_alloc, Python's
//                "MemoryError" first on its line, OpenCV's "Insufficient memory (Failed to allocate N
//                bytes) in cv::OutOfMemoryError" (subsystem "opencv", with its size), ggml's "failed to
//                allocate CPU buffer of size N", "ggml_aligned_malloc: insufficient memory (attempted to
//                allocate X MB)" with X in MiB, "ggml_backend_cpu_buffer_type_alloc_buffer: failed to
//                allocate buffer of size N" ("ggml"), Vulkan's host-memory errors ("vulkan_host",
//                see "device_alloc"), the JVM's "java.lang.OutOfMemoryError: Java heap space" ("jvm"),
//                jemalloc's "Error in malloc(): out of memory. Requested: N, active: A" ("jemalloc":
//                requested N, allocated A), a program's "Failed attempt to allocate N bytes" ("malloc"),
//                R's "Error: cannot allocate vector of size 3.2 Gb" (binary Gb) and "vector memory
//                exhausted (limit reached?)" as R prints them, also in its Chinese locale ("错误:
//                无法分配大小为8.9 Gb的向量") and "cannot allocate vector of length N" (a count, no
//                size) ("r"), DuckDB's "Out of Memory Error: could not allocate block of N bytes" /
//                "failed to allocate data of size X (A/B used)" ("duckdb": requested, allocated A,
//                allowed B, its memory_limit), Ollama's "model requires more
//                system memory (18.5 GiB) than is available (12.1 GiB)" ("ollama": requested, free).
//                A DataLoader worker's "Unexpected bus error encountered in worker" is an "oom_killer"
//                record (subsystem shared_memory); PyTorch's
//                "Unable to find a valid cuDNN algorithm" a "cudnn_alloc_failed" one.
//   "paddle"     PaddlePaddle's "Out of memory error on GPU 0. Cannot allocate 18.062744MB memory on
//                GPU 0, [X memory has been allocated and] available memory is only 17.537501MB."
//                (device "cuda"; its kB/MB/GB are binary, as string::HumanReadableSize divides by
//                1024: requested, allocated and free read so). Paddle Fluid's start-up pool,
//                "enforce allocating <= available failed, 14802874401 > 12088311552" (GpuMaxChunkSize,
//                gpu_info.cc), is subsystem "fluid_pool": the pool it wants (requested) and the free
//                memory, plain byte counts.
//   "metal"      Apple's Metal command buffer: "Insufficient Memory (00000008:
//                kIOGPUCommandBufferCallbackErrorOutOfMemory)" (device "mps"; no size).
//   "model_offload"  transformers/accelerate: "Some modules are dispatched on the CPU or the disk.
//                Make sure you have enough GPU RAM to fit the quantized model." (device_map="auto"
//                could not place the whole model on the GPU); no size.
//   "mentioned"  (mentioned_oom(), used by diagnose_log() only) no message in the log, but the
//                text names an OOM in words ("I get CUDA out of memory during evaluation", "a
//                CUDA Memory Exception"); the kill in words ("fails with message `killed`",
//                "return code -9", zh "已杀死", "被系统终止") gives an "oom_killer" record instead; a log that names
//                none but describes memory growing without bound ("memory usage is growing ...",
//                "the cuda:0 memory explodes") is a report at that line; failing that, the first
//                line telling of memory trouble in other words ("a CUDA memory error", "crashed
//                due to low RAM", "RAM is not enough", zh "CUDA内存不足"; not a kernel's shared
//                memory).
//   "device_alloc"  an accelerator's own allocator outside CUDA; subsystem "vulkan" (ggml_vulkan's
//                "Device memory allocation of size N failed." and "vk::Device::allocateMemory:
//                ErrorOutOfDeviceMemory" (one report), its "Requested buffer size exceeds device
//                memory allocation limit", VK_ERROR_OUT_OF_DEVICE_MEMORY, ncnn's "vkAllocateMemory
//                failed -2"; device "vulkan"; Vulkan's host-memory error, ErrorOutOfHostMemory /
//                VK_ERROR_OUT_OF_HOST_MEMORY / "vkAllocateMemory failed -1", is a "host_alloc" report,
//                subsystem "vulkan_host"; a failure after "Failed to allocate pinned memory.", which
//                ggml recovers from, is none), "tt_metal" (Tenstorrent: "Out of Memory: Not enough
//                space to allocate N B DRAM buffer across K banks, where each bank needs to store X B,
//                but bank size is Y B (allocated: A B, free: F B, largest free block: L B)"; the bank
//                figures times K give laid_out (X), capacity, allocated, free and largest_free_block;
//                device "tt:" and the buffer's kind: "tt:dram", "tt:l1", "tt:l1_small"; read over the
//                lines a paste wraps it onto), "bmlib" (Sophon: "bm_alloc_gmem failed, dev_id = 0, size =
//                0x639c00"; device "sophon:0"), "ggml" (llama.cpp's graph allocator: "failed to allocate
//                CUDA0 buffer of size N"; device from the backend's name, "cuda:0", "hip:0", "vulkan";
//                after its backend's own failure, the same report), "ggml_context" (ggml's context
//                arena: "not enough space in the context's memory pool (needed N, available M)":
//                requested N, capacity M; device "ggml_context") and "opencl" (OpenVINO's GPU
//                plugin: "Exceeded max size of memory object allocation: requested N bytes, but max
//                alloc size supported by device is M bytes": max_allocation_bytes = M; device "gpu"),
//                "cupy" (CuPy's pool: "Out of memory allocating N bytes (allocated so far: H bytes,
//                limit set to: L bytes)": requested N, reserved H (the pool's blocks, cached free ones
//                too), allowed L; device "cuda"), "onnxruntime" (ONNX Runtime's BFC arena: "Failed to
//                allocate memory for requested buffer of size N"; requested N; device "cuda" when the
//                message, its line or the line before names CUDA, else unstated; the CPU provider's
//                arena is a "host_alloc" record, subsystem "onnxruntime", device "cpu"), "mlx"
//                (MLX: "[metal::malloc] Attempting to allocate N bytes which is greater than the
//                maximum allowed buffer size of M bytes.": requested N, max_allocation_bytes M;
//                "[malloc] Unable to allocate N bytes." / "[malloc_or_wait] ...": requested N;
//                "[metal::malloc] Resource limit (K) exceeded.": a count of buffers, no size; device
//                "mps" for Metal's words), "metal_buffer" (Metal's buffer validation: "newBufferWith*:
//                length 0x86004000 must not exceed 2048 MB.": requested the hex length,
//                max_allocation_bytes the limit; device "mps"). llama.cpp's loader, "error loading model: unable to
//                allocate CUDA0 buffer", is a "ggml" report with the device from the buffer type's
//                name (a CPU buffer type's is a "host_alloc" report).
//   "described"  (described_oom(), used by diagnose_log() with DiagnoseOptions::described only)
//                no report found, but the caller states the text reports an OOM: one numberless
//                record at the first non-blank line, message = that line; device unknown ("").
//
// A size beyond int64 (a corrupted request such as "17179869180.00 GiB") is kept as INT64_MAX
// with `size_overflow` set: in a log that is a finding, never a parse failure. So is a request
// printed negative ("you tried to allocate -8589934592 bytes", a size that wrapped past int64):
// `requested_printed` then starts with '-'.
//
// Units: bytes, KiB, MiB, GiB, TiB (powers of 2, as PyTorch prints them) and KB, MB, GB, TB
// (powers of 10) — except in MPS messages, whose allocator labels binary sizes "KB/MB/GB"
// (MPSAllocator's format_size divides by 1024), where they are read as binary.
// "Tried to allocate" is the allocator's segment/block size, not the tensor's exact size (CUDA:
// a 2 MiB segment for requests up to 1 MiB, 20 MiB up to 10 MiB, larger ones rounded up to 2 MiB).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace oomkit {

/// One "Process <pid> has <bytes> memory in use" entry of a PyTorch 2.x message.
struct ProcessUsage {
  int64_t pid = 0;
  int64_t bytes = 0;
};

/// One OOM report. Sizes are bytes; a field the message does not carry stays empty.
struct OomRecord {
  std::string family;                 // see the file comment
  std::string device;                 // "cuda:0", "xpu:0", "mps", "cpu", "tpu", "gpu:0" (TF/XLA); "" when not stated
  std::string subsystem;              // "caching_allocator", "nccl", "cublas", "cudnn", "cuda_runtime", "cpu_allocator",
                                      // "oomkit_budget", "xla", "tensorflow_bfc", "linux_oom_killer", "vllm"
                                      // ("expandable_segments": the allocator's page-mapping warning)
  int64_t line = 0;                   // 1-based line of the log where the report starts
  int64_t occurrences = 1;            // identical (or cut-off copies of the same) reports merged
  std::vector<int64_t> text_lines;    // the 1-based lines the report's text was read from: its head, the
                                      // line before it that a wrapped one-line report begins on, the lines
                                      // it continues on that hold a number (a sentence without one may be
                                      // the user's), and the same of the copies merged into it
                                      // (ascending; not in the JSON)
  std::string message;                // the report, cleaned: ANSI codes, log prefixes and line breaks removed
  bool complete = true;               // false when the message is cut off before its last field
  std::optional<int64_t> requested_bytes;             // "Tried to allocate" (rounded block) / "you tried to allocate"
  bool requested_is_lower_bound = false;              // "Tried to allocate more than 1EB memory"
  std::optional<int64_t> total_capacity_bytes;        // device capacity (oomkit_cpu_budget: the budget)
  std::optional<int64_t> free_bytes;                  // device free (cudaMemGetInfo) at the failure
  std::optional<int64_t> allocated_bytes;             // in live tensors (1.x "already allocated"; 2.x "allocated by PyTorch")
  std::optional<int64_t> reserved_bytes;              // held by the caching allocator (1.x "reserved in total"; 1.0-1.3 allocated + "cached"; 2.x allocated + unallocated)
  std::optional<int64_t> reserved_unallocated_bytes;  // reserved - allocated: cached blocks not in use (fragmentation; 1.0-1.3 "cached")
  std::optional<int64_t> private_pool_bytes;          // 2.x "allocated in private pools (e.g., CUDA Graphs)"
  std::optional<int64_t> allowed_bytes;               // memory-fraction cap ("A allowed"; MPS "max allowed")
  std::optional<int64_t> process_bytes;               // "this process has M memory in use" (incl. non-PyTorch: context, cuBLAS)
  std::optional<int64_t> non_pytorch_bytes;           // MPS "other allocations"
  std::vector<ProcessUsage> processes;                // "Process p has M memory in use", as printed
  std::optional<int64_t> other_process_bytes;         // sum of `processes`
  std::string requested_printed;                      // the request as the message prints it ("2.50 GiB", "shape[…] and type float")
  bool size_overflow = false;                         // a printed size exceeds int64 (or a request is negative): kept as INT64_MAX
  bool requested_is_truncated = false;                // TH: whole GiB, truncated (true size in [N, N+1) GiB)
  std::string tensor_shape;                           // TensorFlow: "64,256,128,128"
  std::string dtype;                                  // TensorFlow: "float"
  bool dtype_assumed = false;                         // TensorFlow 1.x printed no dtype: float (TF's default) assumed
  std::optional<int64_t> rss_bytes;                   // OOM killer: anon-rss of the killed process
  std::optional<int64_t> killed_pid;                  // OOM killer / DataLoader worker pid
  std::optional<int64_t> max_model_len;               // vLLM: the model's max seq len (tokens)
  std::optional<int64_t> kv_cache_tokens;             // vLLM: tokens the KV cache can hold
  std::optional<int64_t> laid_out_bytes;              // tt-metal: the buffer as laid out over the banks (each bank's share x banks)
  std::optional<int64_t> largest_free_block_bytes;    // tt-metal: the largest buffer that could be placed (a bank's largest free block x banks)
  std::optional<int64_t> max_allocation_bytes;        // the device's limit on one allocation (OpenCL's CL_DEVICE_MAX_MEM_ALLOC_SIZE, as OpenVINO prints it)

  /// The capacity the allocator had to live within: allowed_bytes when set and smaller than
  /// the capacity, else total_capacity_bytes; empty when neither is known.
  std::optional<int64_t> effective_capacity_bytes() const;

  /// True for PyTorch's own allocators' reports: every family named "pytorch..." above
  /// (pytorch1, pytorch2, pytorch, pytorch_async, pytorch_alloc_retry, ...).
  bool pytorch_family() const { return family.rfind("pytorch", 0) == 0; }
};

/// Finds every OOM report in `text` (any size, any bytes; never throws on content). Handles
/// tracebacks, ANSI colour codes, CRLF/CR line ends, log prefixes (timestamps, "[rank0]:",
/// levels) and messages wrapped over several lines, also mid-word. Identical reports, and
/// cut-off copies of an earlier one (pytest's summary line), merge into one record with
/// `occurrences` counting them. Garbage gives an empty vector.
std::vector<OomRecord> parse_oom_log(std::string_view text);

/// For a log where parse_oom_log() finds no message: the first line that names an OOM in words
/// ("I received a CUDA out of memory during evaluation", "Not enough GPU memory"), as a
/// numberless, incomplete record of family "mentioned" (or "oom_killer" for "OOMKilled", the word
/// "killed", "return code -9", "exit code 137", "SIGKILL"; device "cpu" when the words name host
/// RAM, "cuda" when they name the GPU). Only when no line names an OOM: the first line describing
/// memory growing without bound (a memory noun with a leak / explosion, or with a growth verb said
/// to go on: "memory usage is growing slowly over the epoch", "GPU memory keeps increasing",
/// "memory leak", "memory explodes"; not "a larger batch increases memory usage"). Linear in `text`.
/// diagnose_log() uses it so that a pasted issue without its message is still read as evidence.
std::optional<OomRecord> mentioned_oom(std::string_view text);

/// The text as one report when its reader states that it reports an OOM (`oomkit diagnose
/// --described`; DiagnoseOptions::described): a numberless, incomplete record of family
/// "described" at the first non-blank line (message: that line, at most 400 bytes, trimmed,
/// without ANSI escapes; device unknown). nullopt for a blank text. Linear in `text`.
std::optional<OomRecord> described_oom(std::string_view text);

/// True when `text` is not a text log: a NUL byte, or more than 10% control bytes other than
/// tab/LF/CR/FF/VT/ESC, in its first 64 KiB. (Invalid UTF-8 alone is text: logs carry it.)
bool looks_binary(std::string_view text);

/// {"family","device","subsystem","line","occurrences","message","complete",
///  "requested_bytes",...,"processes":[{"pid","bytes"}]}: sizes in bytes; fields the message
/// does not carry are omitted.
nlohmann::json oom_record_to_json(const OomRecord& record);

}  // namespace oomkit
