// The c10d side of data parallelism (distributed.h): environment, process group, reducer.
// The only file that includes c10d's headers (compiled with USE_C10D_GLOO, CMakeLists.txt).
#include "oomkit/train/distributed.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>
#include <unordered_map>

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/csrc/distributed/c10d/comm.hpp>
#include <torch/csrc/distributed/c10d/reducer.hpp>
#include <torch/csrc/utils/tensor_flatten.h>
#include <torch/version.h>

#include "oomkit/core/error.h"

namespace oomkit {

namespace {

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// An integer environment variable, or `fallback` when unset; InputError naming it otherwise.
int64_t env_int(const char* name, int64_t fallback, int64_t lo, int64_t hi) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0') {
    throw InputError(name, std::string("environment variable is not an integer: '") + text + "'");
  }
  if (v < lo || v > hi) {
    throw InputError(name, std::string("environment variable ") + text + " is outside [" + std::to_string(lo) + ", " +
                               std::to_string(hi) + "]");
  }
  return v;
}

bool loopback(const std::string& host) {
  return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1";
}

#if TORCH_VERSION_MAJOR >= 2
// c10d 2.x (torch/csrc/distributed/c10d/ProcessGroup.hpp, Backend.hpp): ProcessGroupGloo is a
// c10d::Backend, and collectives, broadcast_coalesced and the Reducer go through a
// c10d::ProcessGroup that dispatches each op to the backend registered for its tensors' device
// type, as torch.distributed's _new_process_group_helper builds it. The ProcessGroup's
// constructor took the backend's name in an Options object until it became
// (store, rank, size) with setDefaultBackend(); the variant this LibTorch has is picked at
// compile time.
template <typename PG, typename = void>
struct HasSetDefaultBackend : std::false_type {};
template <typename PG>
struct HasSetDefaultBackend<PG, std::void_t<decltype(std::declval<PG&>().setDefaultBackend(PG::BackendType::GLOO))>>
    : std::true_type {};

template <typename PG = c10d::ProcessGroup>
c10::intrusive_ptr<PG> process_group_over(const c10::intrusive_ptr<c10d::Store>& store, int rank, int size,
                                          const c10::intrusive_ptr<c10d::Backend>& gloo,
                                          std::chrono::milliseconds timeout) {
  (void)timeout;  // only the Options variant takes it
  c10::intrusive_ptr<PG> group;
  if constexpr (std::is_constructible_v<PG, const c10::intrusive_ptr<c10d::Store>&, int, int>) {
    group = c10::make_intrusive<PG>(store, rank, size);
    if constexpr (HasSetDefaultBackend<PG>::value) group->setDefaultBackend(PG::BackendType::GLOO);
  } else {
    group = c10::make_intrusive<PG>(store, rank, size, c10::make_intrusive<typename PG::Options>("gloo", timeout));
  }
  group->setBackend(c10::DeviceType::CPU, PG::BackendType::GLOO, gloo);
  return group;
}
#endif

// c10d::Reducer's constructor over the LibTorch releases (torch/csrc/distributed/c10d/reducer.hpp):
// 1.13 takes per-bucket size limits after the bucket indices; 2.x dropped them and appended
// skip_all_reduce_unused_params and use_python_reducer (false: the C++ reducer, as DDP without
// compiled autograd), then bucket_bytes_cap_list (per-bucket caps for rebuild_buckets(), which
// oomkit never calls; DDP passes its bucket_cap_mb_list, empty by default). The variant this
// LibTorch has is picked at compile time; every variant gets the same values otherwise.
template <typename R = c10d::Reducer>
std::shared_ptr<R> make_reducer(const std::vector<at::Tensor>& params, std::vector<std::vector<size_t>> buckets,
                                std::vector<size_t> limits, const c10::intrusive_ptr<c10d::ProcessGroup>& pg,
                                int64_t bucket_cap_bytes, int64_t first_bucket_bytes) {
  using Params = std::vector<at::Tensor>;
  using Buckets = std::vector<std::vector<size_t>>;
  using Limits = std::vector<size_t>;
  using Group = c10::intrusive_ptr<c10d::ProcessGroup>;
  using Sparse = std::vector<bool>;
  using Names = std::unordered_map<size_t, std::string>;
  const bool find_unused = false, as_view = false, skip_unused = false, python_reducer = false;
  if constexpr (std::is_constructible_v<R, Params, Buckets, Limits, Group, Sparse, int64_t, bool, bool, Names,
                                        int64_t>) {
    (void)skip_unused;
    (void)python_reducer;
    return std::make_shared<R>(params, std::move(buckets), std::move(limits), pg, Sparse(params.size(), false),
                               bucket_cap_bytes, find_unused, as_view, Names{}, first_bucket_bytes);
  } else if constexpr (std::is_constructible_v<R, Params, Buckets, Group, Sparse, int64_t, bool, bool, Names, int64_t,
                                               bool, bool, std::vector<int64_t>>) {
    return std::make_shared<R>(params, std::move(buckets), pg, Sparse(params.size(), false), bucket_cap_bytes,
                               find_unused, as_view, Names{}, first_bucket_bytes, skip_unused, python_reducer,
                               std::vector<int64_t>{});
  } else if constexpr (std::is_constructible_v<R, Params, Buckets, Group, Sparse, int64_t, bool, bool, Names, int64_t,
                                               bool, bool>) {
    return std::make_shared<R>(params, std::move(buckets), pg, Sparse(params.size(), false), bucket_cap_bytes,
                               find_unused, as_view, Names{}, first_bucket_bytes, skip_unused, python_reducer);
  } else {
    static_assert(std::is_constructible_v<R, Params, Buckets, Group, Sparse, int64_t, bool, bool, Names, int64_t>,
                  "oomkit: unknown c10d::Reducer constructor in this LibTorch (see reducer.hpp)");
    (void)skip_unused;
    (void)python_reducer;
    return std::make_shared<R>(params, std::move(buckets), pg, Sparse(params.size(), false), bucket_cap_bytes,
                               find_unused, as_view, Names{}, first_bucket_bytes);
  }
}

}  // namespace

DistEnv dist_env_from_environment() {
  DistEnv env;
  const int64_t world = env_int("WORLD_SIZE", 1, 1, 1 << 20);
  if (world == 1) return env;
  if (std::getenv("RANK") == nullptr) {
    throw InputError("RANK", "WORLD_SIZE is " + std::to_string(world) + " but RANK is not set",
                     "launch with `oomkit train --nproc-per-node N`, torchrun or srun, which set both");
  }
  env.world_size = static_cast<int>(world);
  env.rank = static_cast<int>(env_int("RANK", 0, 0, world - 1));
  env.local_rank = static_cast<int>(env_int("LOCAL_RANK", env.rank, 0, world - 1));
  env.local_world_size = static_cast<int>(env_int("LOCAL_WORLD_SIZE", 1, 1, world));
  if (const char* addr = std::getenv("MASTER_ADDR"); addr != nullptr && *addr != '\0') env.master_addr = addr;
  env.master_port = static_cast<int>(env_int("MASTER_PORT", 29500, 1, 65535));
  const char* agent = std::getenv("TORCHELASTIC_USE_AGENT_STORE");
  env.agent_store = agent != nullptr && std::string(agent) == "True";
  return env;
}

struct ProcessGroup::Impl {
  c10::intrusive_ptr<c10d::TCPStore> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> gloo;
  // Every collective goes through `group`: LibTorch 1.x, the Gloo process group itself; 2.x, a
  // c10d::ProcessGroup with `gloo` as its CPU backend (process_group_over).
  c10::intrusive_ptr<c10d::ProcessGroup> group;
  // allreduce_sum's buffer, allocated with the group (before the run's memory backend, so not
  // counted). Gloo's worker thread drops its reference to a collective's tensors a moment after
  // wait() returns: a tensor allocated per call would sometimes still be alive at the next
  // profiler mark (8 B for the step loss, 16 B for the stop flags), on some ranks only.
  torch::Tensor small;  // (kSmallValues,) float64
  std::vector<uint8_t> blob;  // broadcast_blob's bytes (plain memory, outside the c10 allocator)
  static constexpr int64_t kSmallValues = 64;
};

ProcessGroup::ProcessGroup(const DistEnv& env, const std::string& backend, std::chrono::milliseconds timeout)
    : env_(env), impl_(std::make_unique<Impl>()) {
  if (backend == "nccl") {
    throw InputError("--backend",
                     "nccl needs a CUDA build of LibTorch with NCCL; this oomkit-train is built on a CPU-only "
                     "LibTorch (c10d's ProcessGroupNCCL is absent)",
                     "use --backend gloo");
  }
  if (backend != "gloo") throw InputError("--backend", "must be gloo or nccl, got '" + backend + "'");
  c10d::TCPStoreOptions store_options;
  store_options.port = static_cast<uint16_t>(env.master_port);
  store_options.isServer = env.rank == 0 && !env.agent_store;
  store_options.numWorkers = static_cast<size_t>(env.world_size);
  store_options.waitWorkers = true;
  store_options.timeout = timeout;
  const std::string where = env.master_addr + ":" + std::to_string(env.master_port);
  try {
    impl_->store = c10::make_intrusive<c10d::TCPStore>(env.master_addr, store_options);
  } catch (const std::exception& e) {
    throw std::runtime_error("rank " + std::to_string(env.rank) + ": TCPStore at " + where + " (timeout " +
                             std::to_string(timeout.count() / 1000) + " s): " + e.what());
  }
  auto options = c10d::ProcessGroupGloo::Options::create(timeout);
  // As torch.distributed picks Gloo's device: GLOO_SOCKET_IFNAME, else the loopback interface
  // for a job on this machine, else the interface this host name resolves to.
  if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME"); ifname != nullptr && *ifname != '\0') {
    options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(ifname));
  } else if (loopback(env.master_addr)) {
    options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  } else {
    options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  }
  impl_->small = torch::zeros({Impl::kSmallValues}, torch::kFloat64);
  try {
    impl_->gloo = c10::make_intrusive<c10d::ProcessGroupGloo>(impl_->store, env.rank, env.world_size, options);
#if TORCH_VERSION_MAJOR >= 2
    impl_->group = process_group_over(impl_->store, env.rank, env.world_size, impl_->gloo, timeout);
#else
    impl_->group = impl_->gloo;
#endif
  } catch (const std::exception& e) {
    throw std::runtime_error("rank " + std::to_string(env.rank) + ": Gloo process group of " +
                             std::to_string(env.world_size) + " ranks via " + where + ": " + e.what());
  }
}

ProcessGroup::~ProcessGroup() = default;

std::vector<double> ProcessGroup::allreduce_sum(const std::vector<double>& values, const std::string& what) {
  const int64_t n = static_cast<int64_t>(values.size());
  torch::Tensor t;  // (n,) float64
  if (n <= Impl::kSmallValues) {
    t = impl_->small.narrow(0, 0, n);  // a view: no allocation
    std::copy(values.begin(), values.end(), t.data_ptr<double>());
  } else {
    t = torch::tensor(values, torch::kFloat64);
  }
  CollectiveRecord record{"allreduce", what, -1, t.numel() * 8, steady_ns(), 0};
  std::vector<at::Tensor> tensors{t};
  impl_->group->allreduce(tensors)->wait();
  record.done_ns = steady_ns();
  record_collective(record);
  return std::vector<double>(t.data_ptr<double>(), t.data_ptr<double>() + t.numel());
}

namespace {

int64_t tensor_bytes(const std::vector<torch::Tensor>& tensors) {
  int64_t bytes = 0;
  for (const auto& t : tensors) bytes += t.numel() * static_cast<int64_t>(t.element_size());
  return bytes;
}

// One c10d op per tensor (`launch(t)` starts it and returns its work), all launched and then
// waited for, so no flat buffer is allocated; logged as one collective `op` named `what`.
template <typename Launch>
void per_tensor_collective(ProcessGroup& group, const char* op, const std::string& what,
                           const std::vector<torch::Tensor>& tensors, Launch launch) {
  torch::NoGradGuard no_grad;
  CollectiveRecord record{op, what, -1, tensor_bytes(tensors), steady_ns(), 0};
  std::vector<c10::intrusive_ptr<c10d::Work>> pending;
  pending.reserve(tensors.size());
  for (const auto& t : tensors) pending.push_back(launch(t));
  for (auto& work : pending) work->wait();
  record.done_ns = steady_ns();
  group.record_collective(record);
}

}  // namespace

void ProcessGroup::broadcast_from_rank0(const std::vector<torch::Tensor>& tensors) {
  torch::NoGradGuard no_grad;
  CollectiveRecord record{"broadcast", "broadcast_parameters", -1, tensor_bytes(tensors), steady_ns(), 0};
  std::vector<at::Tensor> data;
  data.reserve(tensors.size());
  for (const auto& t : tensors) data.push_back(t.detach());
  // c10d::broadcast_coalesced's buckets (one dtype each, up to 250 MiB), each broadcast through a
  // view that does not own its flat buffer: Gloo's worker thread drops its reference to a work's
  // tensors a moment after wait() returns, so a buffer the work owned could outlive this call and
  // show in the first step's step_start mark (one parameters' size, on some ranks, under load).
  c10d::BroadcastOptions options;
  options.rootRank = 0;
  for (auto& bucket : torch::utils::take_tensors(data, size_t{250} << 20)) {
    at::Tensor flat = torch::utils::flatten_dense_tensors(bucket.tensors);
    std::vector<at::Tensor> one{torch::from_blob(flat.data_ptr(), flat.sizes(), flat.options())};
    try {
      impl_->group->broadcast(one, options)->wait();
    } catch (...) {
      // A failed broadcast may still be writing into the buffer on Gloo's threads: it is kept for
      // the rest of the process (ending with this error) rather than freed under them.
      static auto* kept_alive = new std::vector<at::Tensor>();
      kept_alive->push_back(flat);
      throw;
    }
    if (env_.rank != 0) {
      const std::vector<at::Tensor> received = torch::utils::unflatten_dense_tensors(flat, bucket.tensors);
      for (size_t i = 0; i < received.size(); ++i) bucket.tensors[i].copy_(received[i]);
    }
  }
  record.done_ns = steady_ns();
  record_collective(record);
}

void ProcessGroup::broadcast_from(const std::vector<torch::Tensor>& tensors, int root, const std::string& what) {
  c10d::BroadcastOptions options;
  options.rootRank = root;
  per_tensor_collective(*this, "broadcast", what, tensors, [&](const torch::Tensor& t) {
    std::vector<at::Tensor> one{t.detach()};  // shares t's storage: received in place
    return impl_->group->broadcast(one, options);
  });
}

void ProcessGroup::reduce_to(const std::vector<torch::Tensor>& tensors, int root, const std::string& what) {
  c10d::ReduceOptions options;
  options.rootRank = root;
  options.reduceOp = c10d::ReduceOp::SUM;
  for (const auto& t : tensors) TORCH_CHECK(t.is_contiguous(), "reduce_to: a non-contiguous tensor");
  try {
    per_tensor_collective(*this, "reduce", what, tensors, [&](const torch::Tensor& t) {
      // A view of t's memory that does not own it: Gloo's worker thread drops its reference to a
      // work's tensors only after wait() has returned, so a tensor of t's storage could keep a
      // gradient the caller drops next alive past the caller's memory mark.
      std::vector<at::Tensor> one{torch::from_blob(t.data_ptr(), t.sizes(), t.options())};
      return impl_->group->reduce(one, options);
    });
  } catch (...) {
    // A failed collective (a peer died, a timeout) may leave other reduces running on Gloo's
    // threads, writing into these tensors: their storages are kept for the rest of the process
    // (which is ending with this error) rather than freed under them.
    static auto* kept_alive = new std::vector<torch::Tensor>();
    for (const auto& t : tensors) kept_alive->push_back(t);
    throw;
  }
}

std::string ProcessGroup::broadcast_blob(const std::string& payload, int root, const std::string& what) {
  c10d::BroadcastOptions options;
  options.rootRank = root;
  const int64_t launch_ns = steady_ns();
  int64_t length = static_cast<int64_t>(payload.size());
  std::vector<at::Tensor> one{torch::from_blob(&length, {1}, torch::kInt64)};  // (1,)
  impl_->group->broadcast(one, options)->wait();
  std::vector<uint8_t>& buffer = impl_->blob;
  buffer.resize(static_cast<size_t>(length));
  if (env_.rank == root && length > 0) std::memcpy(buffer.data(), payload.data(), static_cast<size_t>(length));
  if (length > 0) {
    one = {torch::from_blob(buffer.data(), {length}, torch::kUInt8)};  // (length,)
    impl_->group->broadcast(one, options)->wait();
  }
  record_collective({"broadcast", what, -1, length, launch_ns, steady_ns()});
  std::string out(reinterpret_cast<const char*>(buffer.data()), static_cast<size_t>(length));
  buffer.clear();
  buffer.shrink_to_fit();  // a share of the optimizer state: do not keep it between checkpoints
  return out;
}

std::string ProcessGroup::share_from_rank0(const std::string& key, const std::string& value) {
  const std::string full = "oomkit/" + key;
  if (env_.rank == 0) impl_->store->set(full, std::vector<uint8_t>(value.begin(), value.end()));
  const std::vector<uint8_t> got = impl_->store->get(full);  // waits up to the store's timeout
  return std::string(got.begin(), got.end());
}

void ProcessGroup::barrier() { impl_->group->barrier()->wait(); }

std::vector<CollectiveRecord> ProcessGroup::take_collectives() {
  std::lock_guard<std::mutex> lock(collectives_mutex_);
  std::vector<CollectiveRecord> out;
  out.swap(collectives_);
  std::sort(out.begin(), out.end(),
            [](const CollectiveRecord& a, const CollectiveRecord& b) { return a.launch_ns < b.launch_ns; });
  return out;
}

void ProcessGroup::record_collective(const CollectiveRecord& record) {
  std::lock_guard<std::mutex> lock(collectives_mutex_);
  collectives_.push_back(record);
}

namespace {

// DDP's default communication hook (c10d::AllReduceCommHook: divide the bucket by W, then
// all-reduce it by sum), plus a record of when each bucket's all-reduce was launched and when
// it completed (the completion callback runs on Gloo's thread).
class TimedAllReduceHook : public c10d::CommHookInterface {
 public:
  TimedAllReduceHook(ProcessGroup& group, c10::intrusive_ptr<c10d::ProcessGroup> pg)
      : group_(group), pg_(std::move(pg)) {}

  c10::intrusive_ptr<c10::ivalue::Future> runHook(c10d::GradBucket& bucket) override {
    at::Tensor& buffer = bucket.getBufferRef();  // (numel of the bucket,) flat gradients
    buffer.div_(pg_->getSize());
    const int64_t index = static_cast<int64_t>(bucket.getIndex());
    const int64_t bytes = buffer.numel() * static_cast<int64_t>(buffer.element_size());
    const int64_t launch = steady_ns();
    std::vector<at::Tensor> tensors{buffer};
    c10::intrusive_ptr<c10::ivalue::Future> future = pg_->allreduce(tensors)->getFuture();
    ProcessGroup* group = &group_;
    // The Reducer waits on the future this hook returns. A callback added with addCallback()
    // may still be running when wait() returns (Future::markCompleted wakes waiters before it
    // runs callbacks), so the record would sometimes be missing right after backward; then()
    // returns a child future completed only after the record is written.
    return future->then(
        [group, index, bytes, launch](c10::ivalue::Future& done) -> c10::IValue {
          group->record_collective({"allreduce", "grad_bucket", index, bytes, launch, steady_ns()});
          return done.value();
        },
        future->elementType());
  }

  // The future's value: Gloo's all-reduce completes with the list of its (one) tensor.
  // (c10d::detail::parseCppCommHookResult does the same but is not exported by libtorch_cpu.)
  at::Tensor parseHookResult(const c10::IValue& result) override {
    return result.isTensor() ? result.toTensor() : result.toTensorVector().at(0);
  }

 private:
  ProcessGroup& group_;
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
};

}  // namespace

struct GradientReducer::Impl {
  std::shared_ptr<c10d::Reducer> reducer;
  std::vector<int64_t> bucket_bytes;
};

GradientReducer::GradientReducer(ProcessGroup& group, const std::vector<torch::Tensor>& params,
                                 int64_t bucket_cap_bytes)
    : impl_(std::make_unique<Impl>()) {
  if (bucket_cap_bytes < 1) throw InputError("--bucket-cap-mb", "must be > 0");
  c10::intrusive_ptr<c10d::ProcessGroup> pg = group.impl().group;
  const size_t first_bucket_bytes = std::min<size_t>(static_cast<size_t>(c10d::kDefaultFirstBucketBytes),
                                                     static_cast<size_t>(bucket_cap_bytes));
  // As DistributedDataParallel._ddp_init_helper (torch 1.13): assign in parameter order with
  // limits [1 MiB, cap], then reverse, so the first bucket holds the last parameters (the first
  // gradients backward produces).
  auto [buckets, limits] = c10d::compute_bucket_assignment_by_size(
      params, {first_bucket_bytes, static_cast<size_t>(bucket_cap_bytes)}, std::vector<bool>(params.size(), false),
      {}, {});
  std::reverse(buckets.begin(), buckets.end());
  std::reverse(limits.begin(), limits.end());
  for (const auto& bucket : buckets) {
    int64_t bytes = 0;
    for (size_t i : bucket) bytes += params[i].numel() * static_cast<int64_t>(params[i].element_size());
    impl_->bucket_bytes.push_back(bytes);
  }
  impl_->reducer = make_reducer(params, std::move(buckets), std::move(limits), pg, bucket_cap_bytes,
                                static_cast<int64_t>(first_bucket_bytes));
  impl_->reducer->register_comm_hook(std::make_unique<TimedAllReduceHook>(group, pg));
}

GradientReducer::~GradientReducer() = default;

void GradientReducer::prepare_for_backward() { impl_->reducer->prepare_for_backward({}); }

int64_t GradientReducer::num_buckets() const { return static_cast<int64_t>(impl_->bucket_bytes.size()); }

std::vector<int64_t> GradientReducer::bucket_bytes() const { return impl_->bucket_bytes; }

}  // namespace oomkit
