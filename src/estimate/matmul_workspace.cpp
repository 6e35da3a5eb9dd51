#include "oomkit/estimate/matmul_workspace.h"

#include <dlfcn.h>

#include <cctype>
#include <cstdlib>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>

#include <fmt/format.h>

// The query uses oneDNN 2.x's C API (dnnl_matmul_desc_init; 3.x replaced the op descriptors),
// the version Debian's LibTorch 1.13 links. With other headers the query is compiled out.
#if __has_include(<oneapi/dnnl/dnnl.h>)
#include <oneapi/dnnl/dnnl.h>
#endif
#if defined(DNNL_VERSION_MAJOR) && DNNL_VERSION_MAJOR == 2
#define OOMKIT_HAVE_DNNL_HEADERS 1
#else
#define OOMKIT_HAVE_DNNL_HEADERS 0
#endif

namespace oomkit {
namespace {

#if OOMKIT_HAVE_DNNL_HEADERS
// The C API entry points used, resolved from libdnnl.so.2 at run time.
struct Dnnl {
  decltype(&dnnl_engine_create) engine_create = nullptr;
  decltype(&dnnl_memory_desc_init_by_tag) md_init_by_tag = nullptr;
  decltype(&dnnl_matmul_desc_init) matmul_desc_init = nullptr;
  decltype(&dnnl_primitive_attr_create) attr_create = nullptr;
  decltype(&dnnl_primitive_attr_destroy) attr_destroy = nullptr;
  decltype(&dnnl_primitive_attr_set_scratchpad_mode) attr_set_scratchpad_mode = nullptr;
  decltype(&dnnl_primitive_desc_create) pd_create = nullptr;
  decltype(&dnnl_primitive_desc_destroy) pd_destroy = nullptr;
  decltype(&dnnl_primitive_desc_query_md) pd_query_md = nullptr;
  decltype(&dnnl_memory_desc_get_size) md_get_size = nullptr;
  decltype(&dnnl_version) version = nullptr;
  int (*omp_get_max_threads)() = nullptr;
  void (*omp_set_num_threads)(int) = nullptr;
  dnnl_engine_t engine = nullptr;
  std::string status;
};

template <typename F>
bool resolve(void* lib, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  return fn != nullptr;
}

Dnnl load() {
  cap_onednn_isa();  // the ISA the trainer's kernels run with (must precede the first primitive)
  Dnnl d;
  void* lib = dlopen("libdnnl.so.2", RTLD_NOW | RTLD_GLOBAL);
  if (lib == nullptr) {
    const char* why = dlerror();
    d.status = fmt::format("libdnnl.so.2 not loadable ({})", why ? why : "unknown");
    return d;
  }
  const bool ok = resolve(lib, "dnnl_engine_create", d.engine_create) &&
                  resolve(lib, "dnnl_memory_desc_init_by_tag", d.md_init_by_tag) &&
                  resolve(lib, "dnnl_matmul_desc_init", d.matmul_desc_init) &&
                  resolve(lib, "dnnl_primitive_attr_create", d.attr_create) &&
                  resolve(lib, "dnnl_primitive_attr_destroy", d.attr_destroy) &&
                  resolve(lib, "dnnl_primitive_attr_set_scratchpad_mode", d.attr_set_scratchpad_mode) &&
                  resolve(lib, "dnnl_primitive_desc_create", d.pd_create) &&
                  resolve(lib, "dnnl_primitive_desc_destroy", d.pd_destroy) &&
                  resolve(lib, "dnnl_primitive_desc_query_md", d.pd_query_md) &&
                  resolve(lib, "dnnl_memory_desc_get_size", d.md_get_size) &&
                  resolve(lib, "dnnl_version", d.version);
  // oneDNN's OpenMP runtime (libgomp for Debian's build) is global once libdnnl is loaded.
  resolve(RTLD_DEFAULT, "omp_get_max_threads", d.omp_get_max_threads);
  resolve(RTLD_DEFAULT, "omp_set_num_threads", d.omp_set_num_threads);
  if (!ok || d.engine_create(&d.engine, dnnl_cpu, 0) != dnnl_success) {
    d.engine = nullptr;
    d.status = "libdnnl.so.2 loaded but its C API (oneDNN 2.x) is not usable";
    return d;
  }
  const dnnl_version_t* v = d.version();
  d.status = fmt::format("oneDNN {}.{}.{} (libdnnl.so.2)", v->major, v->minor, v->patch);
  return d;
}

Dnnl& dnnl() {
  static Dnnl d = load();
  return d;
}

std::optional<int64_t> query(Dnnl& d, const MatmulShape& s, int threads) {
  const bool batched = s.batch > 0;
  const int nd = batched ? 3 : 2;
  dnnl_dims_t src_dims = {s.m, s.k}, wei_dims = {s.k, s.n}, dst_dims = {s.m, s.n};
  if (batched) {
    src_dims[0] = s.batch; src_dims[1] = s.m; src_dims[2] = s.k;
    wei_dims[0] = s.batch; wei_dims[1] = s.k; wei_dims[2] = s.n;
    dst_dims[0] = s.batch; dst_dims[1] = s.m; dst_dims[2] = s.n;
  }
  const dnnl_format_tag_t tag = batched ? dnnl_abc : dnnl_ab;
  const dnnl_format_tag_t src_tag = !s.transposed_a ? tag : batched ? dnnl_acb : dnnl_ba;
  dnnl_memory_desc_t src, wei, dst;
  if (d.md_init_by_tag(&src, nd, src_dims, dnnl_bf16, src_tag) != dnnl_success ||
      d.md_init_by_tag(&wei, nd, wei_dims, dnnl_bf16, tag) != dnnl_success ||
      d.md_init_by_tag(&dst, nd, dst_dims, dnnl_bf16, tag) != dnnl_success) {
    return std::nullopt;
  }
  dnnl_matmul_desc_t desc;
  if (d.matmul_desc_init(&desc, &src, &wei, nullptr, &dst) != dnnl_success) return std::nullopt;
  dnnl_primitive_attr_t attr = nullptr;
  if (d.attr_create(&attr) != dnnl_success) return std::nullopt;
  d.attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user);  // as ideep sets it
  const int saved_threads = d.omp_get_max_threads ? d.omp_get_max_threads() : 0;
  if (threads > 0 && d.omp_set_num_threads) d.omp_set_num_threads(threads);
  dnnl_primitive_desc_t pd = nullptr;
  const dnnl_status_t st = d.pd_create(&pd, &desc, attr, d.engine, nullptr);
  if (threads > 0 && d.omp_set_num_threads && saved_threads > 0) d.omp_set_num_threads(saved_threads);
  d.attr_destroy(attr);
  if (st != dnnl_success) return std::nullopt;
  const dnnl_memory_desc_t* scratch = d.pd_query_md(pd, dnnl_query_scratchpad_md, 0);
  const int64_t bytes = scratch ? static_cast<int64_t>(d.md_get_size(scratch)) : 0;
  d.pd_destroy(pd);
  return bytes;
}
#endif

}  // namespace

std::optional<int64_t> onednn_bf16_matmul_scratchpad_bytes(const MatmulShape& shape, int threads) {
#if OOMKIT_HAVE_DNNL_HEADERS
  if (shape.batch < 0 || shape.m <= 0 || shape.k <= 0 || shape.n <= 0) return int64_t{0};
  // at::native::mkldnn_bf16_device_check() (LibTorch 1.13, ATen/native/mkldnn/Utils.h): without
  // AVX-512 BW/VL/DQ LibTorch runs bf16 matmuls in its own gemm, with no c10 scratchpad.
  if (!(__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))) {
    return int64_t{0};
  }
  static std::mutex mu;
  static std::map<std::tuple<int64_t, int64_t, int64_t, int64_t, bool, int>, std::optional<int64_t>> cache;
  const std::lock_guard<std::mutex> lock(mu);
  const auto key = std::make_tuple(shape.batch, shape.m, shape.k, shape.n, shape.transposed_a, threads);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  Dnnl& d = dnnl();
  std::optional<int64_t> r = d.engine ? query(d, shape, threads) : std::nullopt;
  cache.emplace(key, r);
  return r;
#else
  (void)shape;
  (void)threads;
  return std::nullopt;
#endif
}

std::string amx_hazard(const ModelConfig& model, int64_t seq_len, int64_t lora_rank) {
  if (model.n_positions > 0) seq_len = std::min(seq_len, model.n_positions);  // the T the model runs
  if (seq_len % 2 != 0) {
    return fmt::format("T = {} is odd, so B·T ≡ 31 (mod 32) for some micro-batch B (every weight gradient's K)", seq_len);
  }
  const int64_t d = model.n_embd, d_h = model.head_dim();
  const std::pair<const char*, int64_t> contractions[] = {
      {"d", d},
      {"d_ff", model.d_ff},
      {"V", model.vocab_size},
      {"h·d_h", model.n_head * d_h},
      {"h_kv·d_h", model.n_kv_head * d_h},
      {"3d (the fused QKV)", model.is_gpt2() ? 3 * d : 0},
      {"d_h", d_h},
      {"r (LoRA)", lora_rank},
  };
  for (const auto& [name, k] : contractions) {
    if (k > 0 && k % 32 == 31) return fmt::format("{} = {} ≡ 31 (mod 32)", name, k);
  }
  return "";
}

std::string onednn_isa_cap_in_environment() {
  for (const char* name : {"ONEDNN_MAX_CPU_ISA", "DNNL_MAX_CPU_ISA"}) {
    if (const char* set = std::getenv(name); set != nullptr && *set != '\0') return std::string(set);
  }
  return "";
}

namespace {

struct OnednnIsaChoice {
  std::string cap;
  bool users = false;
};

std::atomic<bool> onednn_isa_decided{false};

const OnednnIsaChoice& onednn_isa_choice(bool allow_amx) {
  static const OnednnIsaChoice choice = [allow_amx] {
    onednn_isa_decided = true;
    if (std::string set = onednn_isa_cap_in_environment(); !set.empty()) return OnednnIsaChoice{set, true};
    const char* chosen = allow_amx ? "ALL" : "AVX512_CORE_BF16";
    ::setenv("ONEDNN_MAX_CPU_ISA", chosen, 1);
    return OnednnIsaChoice{chosen, false};
  }();
  return choice;
}

}  // namespace

std::string cap_onednn_isa(bool allow_amx) { return onednn_isa_choice(allow_amx).cap; }

bool onednn_isa_cap_is_users() { return onednn_isa_decided && onednn_isa_choice(false).users; }

bool onednn_cap_allows_amx(const std::string& cap) {
  std::string c = cap;
  for (char& ch : c) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return c.empty() || c == "ALL" || c.find("AMX") != std::string::npos;
}

std::string onednn_status() {
#if OOMKIT_HAVE_DNNL_HEADERS
  return dnnl().status;
#else
  return "built without oneDNN's headers (libdnnl-dev)";
#endif
}

}  // namespace oomkit
