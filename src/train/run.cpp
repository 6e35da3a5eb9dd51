// run_training(): the `oomkit train` run, top to bottom: check inputs, build, report, loop,
// summarise. Nothing is written before every input has been checked.
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>
#include <utility>

#include "oomkit/core/error.h"
#include "oomkit/core/write_file.h"
#include "oomkit/core/log.h"
#include "oomkit/core/units.h"
#include "oomkit/profile/static_memory.h"
#include "oomkit/profile/summary.h"
#include "oomkit/profile/tracking_allocator.h"
#include "oomkit/train/distributed.h"
#include "oomkit/estimate/flops.h"
#include "oomkit/estimate/matmul_workspace.h"
#include "oomkit/estimate/precision_auto.h"
#include "oomkit/train/hf_weights.h"
#include "oomkit/train/lora.h"
#include "oomkit/train/matmul_probe.h"
#include "oomkit/train/oom_recovery.h"
#include "oomkit/train/threads.h"
#include "oomkit/train/trainer.h"

namespace oomkit {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::atomic<int> g_stop_signal{0};

extern "C" void on_stop_signal(int sig) {
  g_stop_signal.store(sig);
  std::signal(sig, SIG_DFL);  // a second Ctrl-C kills at once
}

// Installs SIGINT/SIGTERM handlers for the run and restores the previous ones after it.
class SignalScope {
 public:
  SignalScope() {
    g_stop_signal.store(0);
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~SignalScope() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%d-%H%M%S", &tm);
  return buf;
}

std::string format_duration(double seconds) {
  const int64_t s = static_cast<int64_t>(std::llround(std::max(0.0, seconds)));
  if (s >= 3600) return fmt::format("{}h{:02d}m", s / 3600, (s % 3600) / 60);
  if (s >= 60) return fmt::format("{}m{:02d}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

// "step 4" or "steps 0..3": the 0-based indices of steps first .. last (trainer.h's numbering).
std::string step_range(int64_t first, int64_t last) {
  return first == last ? fmt::format("step {}", first) : fmt::format("steps {}..{}", first, last);
}

// Fails early (exit 2, nothing written) when PATH cannot be created: probes PATH.tmp.
void check_writable(const std::string& path, const char* field) {
  const fs::path parent = fs::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty() && !fs::is_directory(parent, ec)) {
    throw InputError(field, path + ": folder " + parent.string() + " does not exist");
  }
  if (fs::is_directory(path, ec)) throw InputError(field, path + ": is a directory");
  const std::string probe = path + ".tmp";
  const bool existed = fs::exists(probe, ec);
  std::ofstream out(probe, std::ios::app);
  if (!out) throw InputError(field, path + ": cannot be written (permission denied?)");
  out.close();
  if (!existed) fs::remove(probe, ec);
}

nlohmann::json options_json(const TrainOptions& o, const std::string& data_source) {
  return {{"model", o.model},           {"data", data_source},       {"val_data", o.val_data},       {"device", o.device_name()},
          {"batch_size", o.setup.micro_batch_size}, {"grad_accum", o.setup.gradient_accumulation_steps}, {"seq_len", o.setup.seq_len},
          {"steps", o.steps},           {"lr", o.lr},                {"warmup_steps", o.warmup_steps},
          {"min_lr", o.min_lr},         {"weight_decay", o.setup.weight_decay}, {"grad_clip", o.grad_clip},
          {"seed", o.seed},             {"precision", to_string(o.setup.precision)},
          {"optimizer", to_string(o.setup.optimizer)}, {"attention", to_string(o.setup.attention)},
          {"checkpointing", to_string(o.setup.checkpointing)}, {"checkpoint_every", o.setup.checkpoint_every},
          {"memory_limit_bytes", o.memory_limit_bytes}, {"threads", at::get_num_threads()},
          {"aten_cpu_capability", aten_cpu_capability()},
          {"backend", o.backend}, {"bucket_cap_mb", o.bucket_cap_mb}, {"zero_stage", o.zero_stage}};
}

// Rank r's copy of a per-run file: rank 0 keeps `path`, rank r writes <stem>.rank<r><ext>.
std::string rank_path(const std::string& path, int rank) {
  if (rank == 0) return path;
  const fs::path p(path);
  return (p.parent_path() / (p.stem().string() + ".rank" + std::to_string(rank) + p.extension().string())).string();
}

int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

// The collectives since the last call, as "collective" events on the timeline's clock.
void write_collectives(ProcessGroup* group, Profiler& profiler) {
  if (group == nullptr) return;
  const int64_t offset_ns = steady_now_ns() - profiler.elapsed_ns();  // steady clock at t_ns = 0
  for (const CollectiveRecord& c : group->take_collectives()) {
    nlohmann::json fields = {{"op", c.op}, {"what", c.what}, {"bytes", c.bytes}, {"begin_ns", c.launch_ns - offset_ns},
                             {"end_ns", c.done_ns > 0 ? c.done_ns - offset_ns : -1}};
    if (c.bucket >= 0) fields["bucket"] = c.bucket;
    profiler.write_event("collective", fields);
  }
}

}  // namespace

nlohmann::json TrainSummary::to_json() const {
  // A number measured over no step is null, not 0: a run stopped by an OOM before its first step
  // has no loss and no throughput.
  const auto measured = [](bool have, double value) { return have ? nlohmann::json(value) : nlohmann::json(); };
  const bool ran = steps_this_run > 0;
  nlohmann::json j = {{"exit_code", exit_code},
                      {"stop_reason", stop_reason},
                      {"completed", stop_reason == "completed"},
                      {"total_steps", total_steps},
                      {"first_step", first_step},
                      {"last_step", steps_done > 0 ? nlohmann::json(steps_done - 1) : nlohmann::json()},
                      {"steps", steps_done},
                      {"steps_this_run", steps_this_run},
                      {"first_loss", measured(steps_done > 0, first_loss)},
                      {"final_loss", measured(ran, final_loss)},
                      {"val_loss", val_loss >= 0.0 ? nlohmann::json(val_loss) : nlohmann::json()},
                      {"unigram_entropy_bits", unigram_entropy_bits},
                      {"unigram_entropy_nats", unigram_entropy_bits * std::log(2.0)},
                      {"tokens_per_s", measured(ran, tokens_per_s)},
                      {"ms_per_step", measured(ran, ms_per_step)},
                      {"tokens_per_cpu_s", measured(ran, tokens_per_cpu_s)},
                      {"model_flops_per_token", model_flops_per_token},
                      {"peak_flops_per_s", peak_flops_per_s > 0.0 ? nlohmann::json(peak_flops_per_s) : nlohmann::json()},
                      {"peak_probe", peak_probe},
                      {"mfu", measured(ran && peak_flops_per_s > 0.0 && mfu > 0.0, mfu)},
                      {"peak_allocated_bytes", ran ? nlohmann::json(peak_allocated_bytes) : nlohmann::json()},
                      {"estimated_peak_bytes", estimated_peak_bytes},
                      {"parameters", parameters},
                      {"run_dir", run_dir},
                      {"timeline", timeline},
                      {"checkpoint", checkpoint},
                      {"profiler_errors", profiler_errors},
                      {"oom_recoveries", oom_recoveries},
                      {"oom_report", oom_report}};
  if (oom) {
    j["oom"] = {{"step", oom->step},
                {"phase", oom->phase.empty() ? nlohmann::json() : nlohmann::json(oom->phase)},
                {"micro_step", oom->micro_step},
                {"allocated_bytes", oom->allocated_bytes >= 0 ? nlohmann::json(oom->allocated_bytes) : nlohmann::json()},
                {"requested_bytes", oom->requested_bytes >= 0 ? nlohmann::json(oom->requested_bytes) : nlohmann::json()},
                {"limit_bytes", oom->limit_bytes > 0 ? nlohmann::json(oom->limit_bytes) : nlohmann::json()},
                {"message", oom->message}};
  }
  if (!memory_snapshot.empty()) j["memory_snapshot"] = memory_snapshot;
  return j;
}

namespace {

// A --memory-limit below the model's parameter bytes cannot even build the model: said before
// anything is allocated (exit 2), instead of an OOM inside the model's constructor (exit 1).
// The parameter bytes are the estimator's (estimate_memory(), Category::kParameters: every
// parameter and buffer at the run's precision).
// The run's model and the estimator's numbers for it (overhead 0, T capped at n_positions), for
// the checks made before the model is built; nullopt when the model or a setting is bad (the
// Trainer names it).
std::optional<std::pair<ModelConfig, Estimate>> estimate_before_build(const TrainOptions& options) {
  try {
    ModelConfig config = options.init_from.empty() ? resolve_model_config(options.model)
                                                   : load_hf_config(options.init_from, "--init-from");
    TrainingSetup setup = options.setup;
    setup.seq_len = std::min(options.setup.seq_len, config.n_positions);
    setup.overhead_bytes = 0;
    Estimate estimate = estimate_memory(config, setup);
    return std::make_pair(std::move(config), std::move(estimate));
  } catch (const InputError&) {
    return std::nullopt;
  }
}

// oneDNN's ISA for the run's bf16 matmuls, decided before the first one (cap_onednn_isa(): AMX
// unless a contraction length of this model reaches oneDNN 2.6's AMX SIGILL, amx_hazard(); the
// estimator decides by the same rule). Returns what to say where it matters (a CPU run in a bf16
// precision on a CPU with AMX-BF16; `warn`: AMX kept off for this model), else an empty text.
struct OnednnIsaNote {
  std::string text;
  bool warn = false;
};
OnednnIsaNote decide_onednn_isa(const TrainOptions& options) {
  std::optional<std::string> hazard;  // nullopt: the config cannot be read (the Trainer names it)
  try {
    const ModelConfig config = options.init_from.empty() ? resolve_model_config(options.model)
                                                         : load_hf_config(options.init_from, "--init-from");
    hazard = amx_hazard(config, options.setup.seq_len, options.setup.lora.rank);
  } catch (const InputError&) {
  }
  const std::string cap = cap_onednn_isa(hazard && hazard->empty());
  if (!hazard || options.setup.cuda || options.setup.precision == Precision::kFp32 ||
      read_cpu_flags().count("amx_bf16") == 0) {
    return {};
  }
  const bool amx = onednn_cap_allows_amx(cap);
  const std::string origin = onednn_isa_cap_is_users() ? " (set before oomkit started)" : "";
  if (amx && !hazard->empty()) {
    return {fmt::format("oneDNN: ONEDNN_MAX_CPU_ISA={}{} lets AMX-BF16 kernels run, but {}, where Debian's oneDNN "
                        "2.6 AMX kernels die with SIGILL: set ONEDNN_MAX_CPU_ISA=AVX512_CORE_BF16",
                        cap, origin, *hazard),
            true};
  }
  if (!origin.empty()) {
    return {fmt::format("oneDNN: ONEDNN_MAX_CPU_ISA={}{} decides the bf16 matmul kernels", cap, origin)};
  }
  if (amx) return {"oneDNN: AMX-BF16 kernels run the bf16 matmuls"};
  return {fmt::format("oneDNN: AMX off (ONEDNN_MAX_CPU_ISA={}): {}, where Debian's oneDNN 2.6 AMX kernels die with "
                      "SIGILL; bf16 matmuls run on AVX-512 BF16 (about 3x slower here)",
                      cap, hazard->empty() ? std::string("an earlier run in this process decided") : *hazard),
          true};
}

void check_limit_holds_parameters(const TrainOptions& options) {
  if (options.memory_limit_bytes <= 0) return;
  const auto built = estimate_before_build(options);
  if (!built) return;
  const ModelConfig& config = built->first;
  const int64_t parameter_bytes = built->second.total(Category::kParameters);
  if (options.memory_limit_bytes < parameter_bytes) {
    throw InputError("--memory-limit",
                     format_bytes(options.memory_limit_bytes) + " is below the parameter bytes of " + config.name +
                         " (" + format_bytes(parameter_bytes) + " at " + to_string(options.setup.precision) +
                         "): the model cannot be built",
                     "raise --memory-limit above " + format_bytes(parameter_bytes) + " or pick a smaller --model");
  }
}

// A CPU run without --memory-limit whose estimated peak exceeds the host's available RAM is
// refused before anything is allocated (exit 2): the kernel's OOM killer would end it with
// SIGKILL, leaving no timeline, no diagnosis and no line saying why (a 7B model on a 24 GiB
// machine). With --memory-limit the budget stops it with oomkit's own OOM handling instead.
// The peak is the estimator's (estimate_memory(): parameters, gradients, optimizer state,
// activations and transients of the run's setup, overhead 0 on the CPU); the RAM is
// /proc/meminfo's MemAvailable (read_host_memory_info()). Data-parallel workers are not checked
// here (their launcher shares the machine among them).
void check_host_memory_holds_run(const TrainOptions& options) {
  if (options.setup.cuda || options.memory_limit_bytes > 0 || std::getenv("WORLD_SIZE") != nullptr) return;
  const HostMemoryInfo host = read_host_memory_info();
  if (host.available_bytes <= 0) return;
  const auto built = estimate_before_build(options);
  if (!built) return;
  const auto& [config, estimate] = *built;
  const int64_t peak_bytes = estimate.peak_bytes;
  if (peak_bytes <= host.available_bytes) return;
  const std::string model_flag = options.init_from.empty() ? "--model " + options.model : "--model " + options.init_from;
  throw InputError(options.init_from.empty() ? "--model" : "--init-from",
                   config.name + " at B=" + std::to_string(options.setup.micro_batch_size) +
                       " T=" + std::to_string(options.setup.seq_len) + " " + to_string(options.setup.precision) +
                       " needs an estimated " + format_bytes(peak_bytes) + " at its peak (parameters " +
                       format_bytes(estimate.total(Category::kParameters)) + ") and this machine has " +
                       format_bytes(host.available_bytes) + " of RAM available: the kernel would kill the run",
                   "size it with `oomkit estimate " + model_flag +
                       " --device cpu` (a smaller --batch-size or --seq-len, --checkpointing full, --precision bf16), "
                       "or set --memory-limit to stop it with oomkit's OOM handling");
}

// The end-of-run lines. Loss, throughput and peak are measured over the completed steps and
// said to be; a run stopped by an OOM says so first: at which step and phase, how many steps
// completed, and what the refused allocation met.
void log_summary(const TrainSummary& s, double train_seconds, double entropy_bits, int64_t estimated_peak_bytes) {
  const int64_t last = s.steps_done - 1;
  const std::string completed = s.steps_done > 0 ? " (" + step_range(0, last) + ")" : "";
  const std::string this_run =
      s.first_step > 0 ? fmt::format(", {} of them in this run ({})", s.steps_this_run,
                                     s.steps_this_run > 0 ? step_range(s.first_step, last) : "none")
                       : "";
  if (s.stop_reason == "completed") {
    log::info("done: {}/{} steps completed{}{} in {}", s.steps_done, s.total_steps, completed, this_run,
              format_duration(train_seconds));
  } else if (s.stop_reason == "oom") {
    std::string where = "an OOM";
    if (s.oom && s.oom->phase == "eval") {
      where = fmt::format("an OOM in the evaluation after step {}", s.oom->step);
    } else if (s.oom) {
      where = fmt::format("an OOM at step {}{}", s.oom->step, s.oom->phase.empty() ? "" : " (" + s.oom->phase + ")");
    }
    log::error("stopped by {}: {}/{} steps completed{}{}; the run did not finish", where, s.steps_done, s.total_steps,
               completed, this_run);
    if (s.oom) {
      log::error("at the OOM: {} allocated{}{}", s.oom->allocated_bytes >= 0 ? format_bytes(s.oom->allocated_bytes) : "?",
                 s.oom->requested_bytes >= 0 ? ", a request of " + format_bytes(s.oom->requested_bytes) + " refused" : "",
                 s.oom->limit_bytes > 0 ? " (limit " + format_bytes(s.oom->limit_bytes) + ")" : "");
    }
  } else {
    log::warn("stopped by {}{}: {}/{} steps completed{}{}", s.stop_reason,
              s.steps_done > 0 ? fmt::format(" after step {}", last) : "", s.steps_done, s.total_steps, completed,
              this_run);
  }
  if (s.steps_this_run == 0) {
    log::info("no step completed in this run: no loss, throughput or step peak to report");
    return;
  }
  const std::string over = s.stop_reason == "completed" ? "" : "over the completed steps: ";
  log::info("{}loss {:.4f} -> {:.4f} (step 0 -> step {})", over, s.first_loss, s.final_loss, last);
  if (s.val_loss >= 0.0) {
    const double entropy_nats = entropy_bits * std::log(2.0);
    log::info("val loss {:.4f} nats/token vs corpus unigram entropy {:.4f} nats ({:.3f} bits): {:.1f}% of it",
              s.val_loss, entropy_nats, entropy_bits, 100.0 * s.val_loss / entropy_nats);
  }
  log::info("{}throughput {:.0f} tok/s, {:.1f} ms/step{}; peak allocated {}{}", over, s.tokens_per_s, s.ms_per_step,
            s.peak_flops_per_s > 0.0 && s.mfu > 0.0
                ? fmt::format(", MFU {:.1f}% ({} FLOPs/token, peak {:.1f} GFLOP/s: {})", 100.0 * s.mfu,
                              s.model_flops_per_token, s.peak_flops_per_s / 1e9, s.peak_probe)
            : s.peak_flops_per_s > 0.0 ? std::string(", MFU not reported (the probe's peak was measured too low)")
                                       : std::string(),
            format_bytes(s.peak_allocated_bytes),
            estimated_peak_bytes > 0
                ? fmt::format(" (estimate {}, ratio {:.3f})", format_bytes(estimated_peak_bytes),
                              static_cast<double>(s.peak_allocated_bytes) / static_cast<double>(estimated_peak_bytes))
                : std::string());
}

}  // namespace

TrainSummary run_training(const TrainOptions& options_in) {
  TrainOptions options = options_in;
  options.validate();
  const OnednnIsaNote isa_note = decide_onednn_isa(options);  // before any estimate's scratchpad query
  check_limit_holds_parameters(options);
  check_host_memory_holds_run(options);
  // Data parallelism: the job's shape from torchrun's environment (launch.h sets it for
  // --nproc-per-node). Each local process computes with cores / local processes threads by
  // default, so N workers on one machine do not oversubscribe it.
  const DistEnv dist = dist_env_from_environment();
  if (options.zero_stage > 0 && !dist.distributed()) {
    throw InputError("--zero", "shards the optimizer state over data-parallel ranks; this run has one process",
                     "add --nproc-per-node N (N >= 2), or launch under torchrun");
  }
  if (dist.distributed()) {
    options.validate_data_parallel();
    if (options.setup.cpu_threads == 0) {
      options.setup.cpu_threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / dist.local_world_size);
    }
    if (dist.rank != 0) {
      options.quiet = true;  // rank 0 prints progress; the others only warnings and errors
      spdlog::set_level(spdlog::level::warn);
    }
  }
  if (isa_note.warn) log::warn("{}", isa_note.text);
  else if (!isa_note.text.empty()) log::info("{}", isa_note.text);
  const int threads = configure_threads(options.setup.cpu_threads);
  std::unique_ptr<ProcessGroup> group;
  if (dist.distributed()) {
    group = std::make_unique<ProcessGroup>(dist, options.backend, std::chrono::seconds(options.dist_timeout_s));
    if (options.on_oom == OnOom::kDiagnose && options.zero_stage != 2) {
      // The playbook's live probes run extra steps on the failing rank alone, whose collectives
      // the other ranks would never join: under DP an OOM ends the job (exit 3) with its event.
      // (Under --zero 2 the ranks agree on an OOM and report their numbers: Trainer::set_collective_oom.)
      if (dist.rank == 0) {
        log::info("--on-oom diagnose: under data parallelism without --zero 2 an OOM ends the job (exit 3) with "
                  "its event in the timeline (with --zero 2 every rank reports its numbers at the OOM); run `oomkit "
                  "diagnose` on the error line, or reproduce on one process");
      }
      options.on_oom = OnOom::kAbort;
    }
  }
  if (!configure_malloc()) {
    if (sanitizer_malloc()) log::debug("malloc: a sanitizer's allocator (mallopt has no effect): thresholds not set");
    else log::warn("malloc: glibc refused the mmap/trim thresholds; steps may page-fault more");
  }
  if (options.setup.cuda && !cuda_memory_backend_available()) {
    throw InputError("--device", "cuda requested, but oomkit was built without CUDA or no CUDA device is present",
                     "use --device cpu");
  }
  // The backend first: tensors allocated before its allocator is installed are not counted.
  std::unique_ptr<MemoryBackend> backend =
      options.setup.cuda ? make_cuda_memory_backend(0) : make_cpu_memory_backend();
  // MFU's peak: a short matmul probe in the run's compute dtype, before the budget applies and
  // with its peak forgotten (its 3 MiB belong to no step).
  MatmulProbe peak_probe;
  if (options.mfu_probe_seconds > 0.0) {
    backend->set_limit_bytes(0);  // the CPU budget is process-wide: an earlier run's may remain
    const torch::ScalarType dtype = options.setup.precision == Precision::kFp32        ? torch::kFloat
                                    : options.setup.precision == Precision::kFp16Mixed ? torch::kHalf
                                                                                       : torch::kBFloat16;
    peak_probe = probe_matmul_flops(options.setup.cuda ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU),
                                    dtype, 512, options.mfu_probe_seconds);
    backend->reset_peak();
  }
  backend->set_limit_bytes(options.memory_limit_bytes);
  // --memory-snapshot: recording starts before the model exists, so every storage of the run is
  // in the snapshot's segments (and the phase frames begin with "setup").
  const std::string snapshot_path = options.memory_snapshot.empty() ? "" : rank_path(options.memory_snapshot, dist.rank);
  if (!snapshot_path.empty()) {
    if (!backend->supports_memory_history()) {
      throw InputError("--memory-snapshot", backend->device() + " cannot record memory history");
    }
    backend->record_memory_history(true, options.memory_history);
    backend->set_allocation_phase("setup", 0);
  }
  // Every input file is checked here. An OOM while building the model or loading the data is a
  // budget too small for the run to start at all: bad input (exit 2), not a failed step.
  std::unique_ptr<Trainer> built;
  try {
    built = std::make_unique<Trainer>(options, backend.get(), nullptr, group.get());
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    const std::optional<std::string> oom = oom_message(e);
    if (!oom || options.memory_limit_bytes <= 0) throw;
    throw InputError("--memory-limit",
                     format_bytes(options.memory_limit_bytes) + " is too small to build the model and load the data (" +
                         *oom + ")",
                     "raise --memory-limit");
  }
  Trainer& trainer = *built;
  // A failed collective (a peer died, a timeout) leaves c10d's reducer and Gloo's pending work
  // in a state whose destructors are not safe to run (rank 0 aborted with glibc's "corrupted
  // size vs. prev_size" when a peer was killed): while an exception leaves this function, the
  // trainer (with its reducer) and the process group are left to the process's exit.
  struct KeepDistributedStateOnFailure {
    std::unique_ptr<ProcessGroup>& group;
    std::unique_ptr<Trainer>& trainer;
    int exceptions = std::uncaught_exceptions();
    ~KeepDistributedStateOnFailure() {
      if (group && std::uncaught_exceptions() > exceptions) {
        (void)trainer.release();
        (void)group.release();
      }
    }
  } keep_on_failure{group, built};
  const ModelConfig& config = trainer.config();
  if (!options.save.empty() && dist.rank == 0) check_writable(options.save, "--save");
  if (!options.save_hf.empty() && dist.rank == 0) {  // fail before training, not after it
    std::error_code dir_ec;
    fs::create_directories(options.save_hf, dir_ec);
    if (!fs::is_directory(options.save_hf, dir_ec)) throw InputError("--save-hf", options.save_hf + ": cannot create the folder");
    check_writable((fs::path(options.save_hf) / "model.safetensors").string(), "--save-hf");
  }

  Estimate estimate;
  bool have_estimate = false;
  try {
    estimate = estimate_memory(config, trainer.training_setup());
    have_estimate = true;
  } catch (const std::exception& e) {
    log::warn("estimate unavailable for this run: {}", e.what());
  }

  // Inputs are good: create the run directory and the timeline.
  if (const std::string hint = blas_core_hint(); !hint.empty()) log::warn("{}", hint);
  std::string run_dir = options.run_dir.empty() ? "runs/" + config.name + "-" + timestamp() : options.run_dir;
  if (group) run_dir = group->share_from_rank0("run_dir", run_dir);  // one folder for the job
  std::error_code ec;
  fs::create_directories(run_dir, ec);
  if (ec) throw InputError("--run-dir", run_dir + ": cannot be created: " + ec.message());
  if (!snapshot_path.empty()) {
    // Its folder is created like --trace's; then the path is probed (fail before training).
    const fs::path snapshot_dir = fs::path(snapshot_path).parent_path();
    if (!snapshot_dir.empty()) fs::create_directories(snapshot_dir, ec);
    check_writable(snapshot_path, "--memory-snapshot");
  }
  std::unique_ptr<TimelineWriter> writer;
  if (options.profile) {
    // A resumed run appends to the timeline of the run it continues (the same --run-dir in a
    // job script); the reader drops that run's records past the checkpoint (timeline.h).
    const std::string timeline =
        rank_path(options.timeline.empty() ? run_dir + "/timeline.jsonl" : options.timeline, dist.rank);
    const bool append = !options.resume.empty() && fs::exists(timeline, ec);
    writer = std::make_unique<TimelineWriter>(timeline, append);
    if (group) writer->set_rank(dist.rank);
  }
  Profiler profiler(backend.get(), writer.get(), options.profile);
  trainer.set_profiler(&profiler);
  const TokenDataset& data = trainer.dataset();
  const double entropy_bits = unigram_entropy_bits(
      std::vector<Token>(data.data().tokens.begin(), data.data().tokens.begin() + data.train_tokens()));
  const double entropy_nats = entropy_bits * std::log(2.0);
  const MemoryStats start_stats = backend->snapshot();
  {
    RunHeader run;
    run.device = backend->device();
    run.model = nlohmann::json::parse(model_config_to_json(config));
    run.options = options_json(options, data.data().source);
    run.options["world_size"] = dist.world_size;
    run.options["rank"] = dist.rank;
    run.limit_bytes = options.memory_limit_bytes;
    if (have_estimate) run.estimate = nlohmann::json::parse(estimate_to_json(estimate));
    if (!options.resume.empty()) run.resumed_from_step = trainer.next_step();
    run.start_unix_ns = profiler.start_unix_ns();
    profiler.write_run(run);
  }

  // Startup report: config, model, data, estimate, device memory.
  const int64_t n_params = trainer.model()->num_parameters();  // trainable: with LoRA, the adapters
  int64_t base_params = 0;  // the model's own (a LoRA base frozen or not; buffers not counted)
  for (const auto& item : trainer.model()->named_parameters()) {
    if (!is_lora_parameter(item.key())) base_params += item.value().numel();
  }
  const int64_t tokens_per_step = options.setup.micro_batch_size * options.setup.seq_len * options.setup.gradient_accumulation_steps * dist.world_size;
  if (config.is_gpt2()) {
    log::info("model: {} (GPT-2: L={} d={} h={} d_ff={} V={} n_positions={}), {} parameters ({} fp32)", config.name,
              config.n_layer, config.n_embd, config.n_head, config.d_ff, config.vocab_size, config.n_positions, base_params,
              format_bytes(base_params * 4));
  } else {
    log::info("model: {} (LLaMA: L={} d={} h={} h_kv={} d_ff={} V={} n_positions={} rope_theta={:g}{}{}), {} parameters ({} fp32)",
              config.name, config.n_layer, config.n_embd, config.n_head, config.n_kv_head, config.d_ff, config.vocab_size,
              config.n_positions, config.rope_theta,
              config.rope_scaling.type.empty() ? "" : " rope_scaling=" + config.rope_scaling.type,
              config.tie_word_embeddings ? " tied" : "", base_params, format_bytes(base_params * 4));
  }
  if (options.setup.lora.rank > 0) {
    std::string targets;
    for (const auto& t : options.setup.lora.targets) targets += (targets.empty() ? "" : ",") + t;
    log::info("lora: r={} alpha={:g} (scale {:g}) on {} in every layer: {} trainable parameters, the base frozen in {} "
              "(--save-hf merges the adapters into it)",
              options.setup.lora.rank, options.setup.lora.alpha,
              options.setup.lora.alpha / static_cast<double>(options.setup.lora.rank), targets, n_params,
              options.setup.precision == Precision::kFp32        ? "fp32"
              : options.setup.precision == Precision::kFp16Mixed ? "fp16"
                                                                 : "bf16");
  }
  log::info("data: {}: {} tokens ({}), train {} / val {}; unigram entropy {:.3f} bits = {:.3f} nats/token",
            data.data().source, data.data().tokens.size(), to_string(data.data().format), data.train_tokens(),
            data.val_tokens(), entropy_bits, entropy_nats);
  log::info("run: B={} T={} grad_accum={} ({} tokens/step), steps {}, {} lr {:.1e} (warmup {}, cosine to {:.1e}), "
            "{}, {} attention, checkpointing {}, {} threads, seed {}",
            options.setup.micro_batch_size, options.setup.seq_len, options.setup.gradient_accumulation_steps, tokens_per_step, options.steps,
            to_string(options.setup.optimizer), options.lr, options.warmup_steps, options.min_lr,
            options.precision_auto.empty() ? std::string(to_string(options.setup.precision)) : options.precision_auto,
            to_string(options.setup.attention), to_string(options.setup.checkpointing), threads,
            options.seed);
  const LoraConfig& lora = options.setup.lora;
  log::info("mfu: {} = {} FLOPs/token (N = {} parameters{}, T = {}; PaLM appendix B); peak {}",
            lora.rank > 0 ? "4N + 6N_lora + 12·L·H·Q·T (frozen base: no weight gradients)" : "6N + 12·L·H·Q·T",
            model_flops_per_token(config, options.setup.seq_len, lora), mfu_parameters(config),
            lora.rank > 0 ? fmt::format(", N_lora = {}", count_parameters(config, lora).lora) : std::string(),
            options.setup.seq_len,
            peak_probe.n > 0 ? fmt::format("{:.1f} GFLOP/s ({} {}x{} matmul on {}, best of {} in {:.2f} s)",
                                           peak_probe.flops_per_s / 1e9, peak_probe.dtype, peak_probe.n, peak_probe.n,
                                           peak_probe.device, peak_probe.repetitions, peak_probe.seconds)
                             : std::string("not measured (--mfu-probe-seconds 0)"));
  if (have_estimate) {
    log::info("estimate: peak {} ({}): parameters {}, gradients {}, optimizer state {}, activations {}, transient {}",
              format_bytes(estimate.peak_bytes), estimate.peak_phase, format_bytes(estimate.total(Category::kParameters)),
              format_bytes(estimate.total(Category::kGradients)), format_bytes(estimate.total(Category::kOptimizerState)),
              format_bytes(estimate.total(Category::kActivations)), format_bytes(estimate.total(Category::kTransient)));
  }
  log::info("device: {}: total {}, free {}, limit {}, allocated now {}", backend->device(),
            format_bytes(start_stats.device_total_bytes), format_bytes(start_stats.device_free_bytes),
            options.memory_limit_bytes > 0 ? format_bytes(options.memory_limit_bytes) : std::string("none"),
            format_bytes(start_stats.allocated_bytes.current));
  if (group) {
    std::string reduction = "gradients reduced to their owners after backward (ZeRO-2, no buckets)";
    if (trainer.reducer() != nullptr) {
      const std::vector<int64_t> buckets = trainer.reducer()->bucket_bytes();
      int64_t bucket_total = 0;
      for (int64_t b : buckets) bucket_total += b;
      reduction = fmt::format("gradients all-reduced in {} buckets of {} (cap {} MiB)", buckets.size(),
                              format_bytes(bucket_total), options.bucket_cap_mb);
    }
    log::info("data parallel: {} ranks ({} on this machine, backend {}, MASTER {}:{}), {} threads per rank; global "
              "batch {} sequences = B {} x grad_accum {} x {} ranks; {}",
              dist.world_size, dist.local_world_size, options.backend, dist.master_addr, dist.master_port, threads,
              options.setup.micro_batch_size * options.setup.gradient_accumulation_steps * dist.world_size, options.setup.micro_batch_size, options.setup.gradient_accumulation_steps,
              dist.world_size, reduction);
    write_collectives(group.get(), profiler);  // the initial parameter broadcast
  }
  if (trainer.next_step() > 0) {
    log::info("resumed from {}: {} done, continuing at step {}", options.resume, step_range(0, trainer.next_step() - 1),
              trainer.next_step());
  }
  log::info("timeline: {}", writer ? writer->jsonl_path() : std::string("off (--no-profile)"));

  TrainSummary summary;
  summary.total_steps = options.steps;
  summary.first_step = trainer.next_step();
  summary.unigram_entropy_bits = entropy_bits;
  summary.parameters = n_params;
  summary.run_dir = run_dir;
  summary.timeline = writer ? writer->jsonl_path() : std::string();
  summary.estimated_peak_bytes = have_estimate ? estimate.peak_bytes : 0;
  summary.model_flops_per_token = model_flops_per_token(config, options.setup.seq_len, options.setup.lora);
  summary.peak_flops_per_s = peak_probe.flops_per_s;
  if (peak_probe.n > 0) {
    summary.peak_probe = fmt::format("{} {}x{} matmul on {}", peak_probe.dtype, peak_probe.n, peak_probe.n, peak_probe.device);
  }
  // Every rank computes tokens_per_step / world_size of each step on its own device.
  const double peak_all_ranks = peak_probe.flops_per_s * static_cast<double>(dist.world_size);
  const int64_t log_every = options.log_every > 0 ? options.log_every : std::max<int64_t>(1, options.steps / 25);
  std::FILE* progress = options.progress_to_stderr ? stderr : stdout;
  double train_seconds = 0.0;
  bool mfu_warned = false;  // the MFU-above-100% warning, once per run
  double train_cpu_seconds = 0.0;
  int64_t steps_this_run = 0;
  int64_t run_peak = 0;
  StepStats last;

  int64_t checkpoint_step = -1;  // the step of the last checkpoint written
  auto save = [&](const char* why) {
    if (options.save.empty()) return;
    // DP: the ranks' states are identical and rank 0 writes; ZeRO-1: every rank sends its share of
    // the optimizer state to rank 0 (a collective), which writes the whole state.
    if (trainer.optimizer_sharded()) trainer.consolidate_optimizer_state();
    if (dist.rank != 0) {
      // Wait for rank 0's write: a rank that went on and exited (after a stop signal) would make
      // the launcher stop rank 0 in the middle of it.
      if (group) group->barrier();
      return;
    }
    trainer.save_checkpoint(options.save);
    if (group) group->barrier();
    summary.checkpoint = options.save;
    checkpoint_step = trainer.next_step();
    profiler.write_event("checkpoint", {{"path", options.save}, {"reason", why}, {"next_step", trainer.next_step()}});
    log::info("checkpoint: after step {} ({}/{} steps done) saved to {} ({})", trainer.next_step() - 1,
              trainer.next_step(), options.steps, options.save, why);
  };
  // --on-oom (oom_recovery.h): steps and evaluations go through the handler. Under ZeRO-2 the
  // ranks agree on an OOM in forward/backward and decide (diagnose: report, recover: retry) together.
  if (group && options.zero_stage == 2 && options.on_oom != OnOom::kAbort) trainer.set_collective_oom(true);
  OomHandler oom(trainer, options.on_oom,
                 writer ? fs::path(writer->jsonl_path()).parent_path().string() : run_dir);
  auto evaluate = [&]() -> std::optional<double> {
    const std::optional<double> evaluated = oom.evaluate();
    if (!evaluated) return std::nullopt;
    const double val = *evaluated;
    summary.val_loss = val;
    profiler.write_event("eval", {{"val_loss", val}, {"next_step", trainer.next_step()}});
    if (!options.quiet) {
      fmt::print(progress, "eval after step {:>5} ({}/{}) | val loss {:.4f} nats/token | unigram entropy {:.4f} nats ({:.3f} bits)\n",
                 trainer.next_step() - 1, trainer.next_step(), options.steps, val, entropy_nats, entropy_bits);
      std::fflush(progress);
    }
    return val;
  };

  SignalScope signals;
  bool stopped_by_oom = false;
  while (trainer.next_step() < options.steps) {
    const std::optional<StepStats> done = oom.step();
    if (!done) {  // an OOM stopped the run: nothing is saved (the state may be mid-step)
      stopped_by_oom = true;
      break;
    }
    write_collectives(group.get(), profiler);
    last = *done;
    const StepMemory& memory = last.memory;
    const MemoryStats stats = backend->snapshot();
    run_peak = std::max({run_peak, memory.peak_bytes, stats.allocated_bytes.peak});
    ++steps_this_run;
    train_seconds += last.ms / 1000.0;
    train_cpu_seconds += last.cpu_ms / 1000.0;
    if (last.step == 0) summary.first_loss = last.loss;
    summary.final_loss = last.loss;
    const double tok_s = static_cast<double>(last.tokens) / (last.ms / 1000.0);
    const bool last_step = trainer.next_step() == options.steps;
    std::optional<double> val;
    if ((options.eval_every > 0 && trainer.next_step() % options.eval_every == 0) || last_step) {
      val = evaluate();
      if (!val) {
        stopped_by_oom = true;
        break;
      }
    }
    {
      StepRecord rec = Profiler::step_record(memory);
      rec.step = last.step;
      rec.loss = last.loss;
      rec.lr = last.lr;
      rec.ms = last.ms;
      rec.tokens_per_s = tok_s;
      rec.grad_norm = last.grad_norm;
      rec.val_loss = val;
      rec.skipped = last.skipped;
      profiler.write_step(rec);
    }
    if (!options.quiet && (last.step % log_every == 0 || last_step)) {
      const double eta = (train_seconds / static_cast<double>(steps_this_run)) *
                         static_cast<double>(options.steps - trainer.next_step());
      const double step_mfu = model_flops_utilization(tok_s, summary.model_flops_per_token, peak_all_ranks);
      if (step_mfu > 1.0 && !mfu_warned) {
        // The step ran faster than the probe's peak allows: the probe ran while the CPU was busy
        // (or the probe's matmul is slower than the model's): no MFU is reported then.
        log::warn("MFU above 100% ({:.0f}%): the matmul probe's peak ({:.1f} GFLOP/s) was measured too low, "
                  "likely on a busy CPU; MFU is not reported (a longer --mfu-probe-seconds on an idle machine helps)",
                  100.0 * step_mfu, peak_all_ranks / 1e9);
        mfu_warned = true;
      }
      const std::string mfu = peak_all_ranks <= 0.0 ? std::string()
                              : step_mfu > 1.0      ? std::string(" | mfu   n/a ")
                                                    : fmt::format(" | mfu {:5.1f}%", 100.0 * step_mfu);
      fmt::print(progress, "step {:>5} ({}/{}) | loss {:.4f} | lr {:.2e} | {:7.1f} ms | {:7.0f} tok/s{} | alloc {} | peak {} | eta {}\n",
                 last.step, trainer.next_step(), options.steps, last.loss, last.lr, last.ms, tok_s, mfu,
                 format_bytes(stats.allocated_bytes.current), format_bytes(run_peak), format_duration(eta));
      std::fflush(progress);
    }
    if (options.save_every > 0 && trainer.next_step() % options.save_every == 0 && !last_step) save("every");
    int stop_signal = g_stop_signal.load();
    if (group) {
      // Every rank stops after the same step: one rank seeing SIGINT first must not leave the
      // others waiting in the next step's all-reduce. SIGTERM on any rank wins over SIGINT.
      const std::vector<double> seen =
          group->allreduce_sum({stop_signal == SIGINT ? 1.0 : 0.0, stop_signal == SIGTERM ? 1.0 : 0.0}, "stop_flag");
      stop_signal = seen[1] > 0 ? SIGTERM : seen[0] > 0 ? SIGINT : 0;
      write_collectives(group.get(), profiler);
    }
    if (const int sig = stop_signal) {
      summary.exit_code = sig == SIGINT ? kExitSigint : kExitSigterm;
      summary.stop_reason = sig == SIGINT ? "SIGINT" : "SIGTERM";
      log::warn("{} received: step {} finished, stopping", summary.stop_reason, last.step);
      break;
    }
  }
  if (!snapshot_path.empty()) {
    // Written at the end and after an OOM stop (then with the segments of the first OOM).
    try {
      const MemorySnapshotInfo info = backend->dump_memory_snapshot(snapshot_path, stopped_by_oom);
      summary.memory_snapshot = info.path;
      if (info.segments >= 0) {
        log::info("memory snapshot: {}: {} segments, reserved {} = allocated {} ({}), {} trace entries{}; open it in "
                  "https://pytorch.org/memory_viz",
                  info.path, info.segments, format_bytes(info.reserved_bytes), format_bytes(info.allocated_bytes),
                  info.segments_at == "oom" ? "at the first OOM" : "at the end", info.trace_entries,
                  info.dropped_entries > 0 ? fmt::format(" (the {} before them dropped: --memory-history {})",
                                                         info.dropped_entries, options.memory_history)
                                           : std::string());
      } else {
        log::info("memory snapshot: {}; open it in https://pytorch.org/memory_viz", info.path);
      }
    } catch (const std::exception& e) {
      if (!stopped_by_oom && summary.exit_code == 0) throw;
      log::error("memory snapshot: {}", e.what());  // the stop's own exit code stands
    }
  }
  if (stopped_by_oom) {
    summary.exit_code = kExitOom;
    summary.stop_reason = "oom";
    summary.oom = oom.last_oom();
  } else if (!options.save.empty()) {
    save(summary.exit_code == 0 ? "end" : "signal");
  } else if (summary.exit_code != 0) {
    options.save = run_dir + "/interrupted.ckpt";
    save("signal");
  }
  if (group) write_collectives(group.get(), profiler);

  if (!options.save_hf.empty() && summary.exit_code == 0 && dist.rank == 0) {
    const int64_t bytes = save_hf_weights(*trainer.model(), options.save_hf, "--save-hf");
    log::info("hf weights: {}/model.safetensors ({}) + config.json (transformers GPT2LMHeadModel layout)",
              options.save_hf, format_bytes(bytes));
  }
  if (summary.first_step > 0) summary.first_loss = trainer.first_loss();
  summary.steps_done = trainer.next_step();
  summary.steps_this_run = steps_this_run;
  summary.tokens_per_s = train_seconds > 0 ? static_cast<double>(steps_this_run * tokens_per_step) / train_seconds : 0.0;
  summary.tokens_per_cpu_s =
      train_cpu_seconds > 0 ? static_cast<double>(steps_this_run * tokens_per_step) / train_cpu_seconds : 0.0;
  summary.ms_per_step = steps_this_run > 0 ? 1000.0 * train_seconds / static_cast<double>(steps_this_run) : 0.0;
  summary.mfu = model_flops_utilization(summary.tokens_per_s, summary.model_flops_per_token, peak_all_ranks);
  if (summary.mfu > 1.0) summary.mfu = 0.0;  // the probe's peak was too low (warned above): not measured
  summary.peak_allocated_bytes = run_peak;
  summary.oom_recoveries = oom.recoveries();
  if (have_estimate && oom.recoveries() > 0) {
    // The run finished under the recovered setup: measured memory is compared with its estimate.
    try {
      estimate = estimate_memory(config, trainer.training_setup());
      summary.estimated_peak_bytes = estimate.peak_bytes;
    } catch (const std::exception& e) {
      log::warn("estimate for the recovered setup unavailable: {}", e.what());
    }
  }
  summary.oom_report = oom.report_path();
  summary.profiler_errors = profiler.errors();
  for (const auto& e : profiler.errors()) log::warn("profiler: {}", e);
  const MemorySummary memory = summarize_memory(
      backend->device(), profiler.steps(), measure_static_memory(*trainer.model(), &trainer.optimizer()),
      have_estimate ? &estimate : nullptr, profiler.errors());
  nlohmann::json summary_json = summary.to_json();
  if (group) {
    summary_json["rank"] = dist.rank;
    summary_json["world_size"] = dist.world_size;
  }
  summary_json["memory"] = memory_summary_to_json(memory);
  profiler.write_summary(summary_json);
  if (options.profile && !options.quiet && !memory.phases.empty()) {
    fmt::print(progress, "\n{}\n", format_memory_summary(memory));
    std::fflush(progress);
  }
  // Every file of the run checked: a full disk or a read-only folder ends in exit 2 naming
  // what was kept, never exit 0 with a truncated timeline and an empty summary.json.
  std::string write_failure;
  try {
    write_file_durably(rank_path(run_dir + "/summary.json", dist.rank), {summary_json.dump(2), "\n"}, "--run-dir");
  } catch (const InputError& e) {
    write_failure = e.what();
  }
  if ((writer && !writer->good()) || !write_failure.empty()) {
    std::string kept;
    if (writer) {
      kept = writer->last_step_written() >= 0
                 ? fmt::format("{} up to step {}", writer->jsonl_path(), writer->last_step_written())
                 : fmt::format("{} without any complete step", writer->jsonl_path());
    }
    if (!summary.checkpoint.empty()) {
      kept += (kept.empty() ? "" : "; ") +
              fmt::format("checkpoint {} after step {}", summary.checkpoint, checkpoint_step - 1);
    }
    throw InputError("--run-dir",
                     fmt::format("{}: writing the run's files failed ({}); kept: {}", run_dir,
                                 write_failure.empty() ? "timeline.jsonl: write failed" : write_failure,
                                 kept.empty() ? "nothing" : kept),
                     "free space on that disk (or make the folder writable) and resume with --resume");
  }
  log_summary(summary, train_seconds, entropy_bits, summary.estimated_peak_bytes);
  log::info("run dir: {} (timeline.jsonl, timeline.csv, summary.json{})", run_dir,
            summary.checkpoint.empty() ? "" : ", checkpoint " + summary.checkpoint);
  return summary;
}

}  // namespace oomkit
