// Where a training step's time goes, per op (issue 15 item 3: "find where the time goes (per-op
// profile of one step; LibTorch's autograd profiler works from C++)" and "report the non-matmul
// share of a step from the per-op profile").
//
// Runs oomkit's Trainer (the code `oomkit train` runs, with the kernels it picks: OpenBLAS's core,
// ATen's CPU capability and oneDNN's ISA, threads.h and matmul_workspace.h) for --warm-steps
// steps, then --steps steps unprofiled (timed: the step without the profiler), then --steps steps
// under LibTorch's autograd profiler in the state Python's torch.autograd.profiler.profile() uses
// in 1.13 (ProfilerState::KINETO, CPU activity; torch/csrc/autograd/profiler_kineto.h): every
// dispatched ATen op and autograd node is one range, in microseconds. Self time = a range's time
// minus the ranges nested in it. It prints the ops with the largest self time per step and three
// shares of the profiled step's wall time:
//   - matmul: the self time of aten::mm, addmm, bmm, baddbmm and addbmm (OpenBLAS sgemm in fp32,
//     oneDNN in bf16; aten::linear and aten::matmul only reshape and call these);
//   - other ops: every other op's self time (elementwise, Sleef math, layer_norm, softmax,
//     embedding, the optimizer's update, copies, autograd nodes' own bookkeeping);
//   - outside ops: wall time no op covers (the trainer's C++ between ops, batch building).
// and how much the profiler added to the step (profiled against unprofiled wall time): its cost
// per recorded op inflates the many small ops (bmm's per-batch select/as_strided views) most.
// bench/op_profile_peer.py prints the same for the Python peer (../shared/peers/gpt_peer.py's
// model and loop).
//
//   build/op_profile --model gpt-nano --batch-size 16 --seq-len 128 --precision fp32 --threads 2
//   build/op_profile --model bench/gpt-d768-l4.json --batch-size 8 --precision bf16-mixed
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <torch/csrc/autograd/profiler_kineto.h>
#include <torch/torch.h>

#include "oomkit/core/error.h"
#include "oomkit/core/train_options.h"
#include "oomkit/core/training_setup.h"
#include "oomkit/estimate/matmul_workspace.h"
#include "oomkit/core/model_config.h"
#include "oomkit/profile/memory_backend.h"
#include "oomkit/train/threads.h"
#include "oomkit/train/trainer.h"

namespace {

namespace prof = torch::autograd::profiler;

struct OpTime {
  int64_t calls = 0;
  double self_us = 0.0;
};

bool is_matmul(const std::string& name) {
  return name == "aten::mm" || name == "aten::addmm" || name == "aten::bmm" || name == "aten::baddbmm" ||
         name == "aten::addbmm";
}

// With `by_shape`, an op's key also holds its input shapes ("aten::mul [16, 4, 128, 128] []").
std::string op_key(const prof::KinetoEvent& e, bool by_shape) {
  std::string key = e.name();
  if (!by_shape || !e.hasShapes()) return key;
  for (const auto& shape : e.shapes()) {
    key += " [";
    for (size_t i = 0; i < shape.size(); ++i) key += (i ? ", " : "") + std::to_string(shape[i]);
    key += "]";
  }
  return key;
}

// Self time per op (microseconds, the profiler's resolution, as Python's key_averages()): on each
// thread, ranges nest; a range's self time is its duration minus that of the ranges directly
// inside it. `covered_us` gets the time covered by outermost ranges (the rest of the wall time ran
// no op).
std::map<std::string, OpTime> self_times(const std::vector<prof::KinetoEvent>& events, bool by_shape, double& covered_us) {
  std::map<uint64_t, std::vector<const prof::KinetoEvent*>> by_thread;
  for (const prof::KinetoEvent& e : events) by_thread[e.startThreadId()].push_back(&e);
  std::map<std::string, OpTime> ops;
  covered_us = 0.0;
  for (auto& [thread, list] : by_thread) {
    std::sort(list.begin(), list.end(), [](const prof::KinetoEvent* a, const prof::KinetoEvent* b) {
      return a->startUs() != b->startUs() ? a->startUs() < b->startUs() : a->durationUs() > b->durationUs();
    });
    struct Open {
      const prof::KinetoEvent* e;
      uint64_t end_us;
      double child_us;
    };
    std::vector<Open> stack;
    auto close = [&](const Open& open) {
      OpTime& t = ops[op_key(*open.e, by_shape)];
      t.calls += 1;
      t.self_us += std::max(0.0, static_cast<double>(open.e->durationUs()) - open.child_us);
    };
    for (const prof::KinetoEvent* e : list) {
      const uint64_t start = e->startUs(), end = start + e->durationUs();
      while (!stack.empty() && stack.back().end_us <= start && !(stack.back().end_us == start && e->durationUs() == 0)) {
        close(stack.back());
        stack.pop_back();
      }
      if (stack.empty()) {
        covered_us += static_cast<double>(e->durationUs());
      } else {
        stack.back().child_us += static_cast<double>(e->durationUs());
      }
      stack.push_back({e, end, 0.0});
    }
    while (!stack.empty()) {
      close(stack.back());
      stack.pop_back();
    }
  }
  return ops;
}

}  // namespace

int main(int argc, char** argv) {
  oomkit::exec_with_fitting_blas_core(argv);  // the kernels `oomkit train` runs (threads.h)
  oomkit::choose_aten_cpu_capability();
  CLI::App app{"Per-op self time of oomkit's training step (LibTorch's autograd profiler)"};
  std::string model = "gpt-nano", precision = "fp32";
  int64_t batch = 16, seq_len = 128, warm_steps = 3, steps = 3;
  int threads = 2, top = 20;
  bool by_shape = false;
  app.add_option("--model", model, "Shipped model name or config.json path")->capture_default_str();
  app.add_option("--batch-size", batch, "Micro-batch B")->capture_default_str()->check(CLI::Range(int64_t{1}, int64_t{4096}));
  app.add_option("--seq-len", seq_len, "Sequence length T")->capture_default_str()->check(CLI::Range(int64_t{1}, int64_t{1} << 20));
  app.add_option("--precision", precision, "fp32 | bf16-mixed | fp16-mixed | bf16")->capture_default_str();
  app.add_option("--threads", threads, "Intra-op threads")->capture_default_str()->check(CLI::Range(1, 256));
  app.add_option("--warm-steps", warm_steps, "Unprofiled steps first")->capture_default_str()->check(CLI::Range(int64_t{0}, int64_t{1000}));
  app.add_option("--steps", steps, "Profiled steps")->capture_default_str()->check(CLI::Range(int64_t{1}, int64_t{1000}));
  app.add_option("--top", top, "Ops listed")->capture_default_str()->check(CLI::Range(1, 1000));
  app.add_flag("--by-shape", by_shape, "One row per op and input shapes (the profiler records shapes: a little slower)");
  CLI11_PARSE(app, argc, argv);
  try {
    oomkit::TrainOptions options;
    options.model = model;
    options.setup.micro_batch_size = batch;
    options.setup.seq_len = seq_len;
    options.setup.precision = oomkit::parse_precision(precision);
    options.setup.cpu_threads = threads;
    options.steps = warm_steps + 2 * steps + 1;
    options.warmup_steps = 0;
    options.dropout = 0.0;   // as bench/peer_speed.sh and the peer
    options.grad_clip = 0.0;
    options.quiet = true;
    // oneDNN's kernels for bf16 matmuls as run_training() decides them: AMX unless a contraction
    // length of this model is ≡ 31 (mod 32) (amx_hazard(), matmul_workspace.h).
    const oomkit::ModelConfig config = oomkit::resolve_model_config(model);
    const std::string hazard = oomkit::amx_hazard(config, seq_len, 0);
    const std::string onednn_cap = oomkit::cap_onednn_isa(hazard.empty());
    const int used_threads = oomkit::configure_threads(threads);
    auto backend = oomkit::make_cpu_memory_backend();
    oomkit::Trainer trainer(options, backend.get(), nullptr);
    for (int64_t i = 0; i < warm_steps; ++i) trainer.step();
    // The same steps unprofiled first: what the profiler itself adds to a step.
    const auto u0 = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < steps; ++i) trainer.step();
    const double unprofiled_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - u0).count();
    // Python's torch.autograd.profiler.profile() in 1.13: ProfilerState::KINETO, CPU activity.
    const torch::profiler::impl::ProfilerConfig profiler_config(torch::profiler::impl::ProfilerState::KINETO,
                                                                /*report_input_shapes=*/by_shape);
    const std::set<torch::profiler::impl::ActivityType> activities = {torch::profiler::impl::ActivityType::CPU};
    prof::prepareProfiler(profiler_config, activities);
    prof::enableProfiler(profiler_config, activities);
    const auto t0 = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < steps; ++i) trainer.step();
    const double wall_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    const std::unique_ptr<prof::ProfilerResult> result = prof::disableProfiler();
    double covered_us = 0.0;
    const std::map<std::string, OpTime> ops = self_times(result->events(), by_shape, covered_us);
    std::vector<std::pair<std::string, OpTime>> sorted(ops.begin(), ops.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second.self_us > b.second.self_us; });
    const double per_step = static_cast<double>(steps);
    double matmul_us = 0.0, other_us = 0.0;
    for (const auto& [key, t] : sorted) (is_matmul(key.substr(0, key.find(' '))) ? matmul_us : other_us) += t.self_us;
    std::printf("oomkit %s B=%lld T=%lld %s, %d threads, ATen %s kernels, OpenBLAS %s, oneDNN ISA cap %s; %lld profiled "
                "steps after %lld warm\n",
                model.c_str(), static_cast<long long>(batch), static_cast<long long>(seq_len), precision.c_str(), used_threads,
                oomkit::aten_cpu_capability().c_str(), oomkit::blas_core_name().empty() ? "-" : oomkit::blas_core_name().c_str(),
                onednn_cap.empty() ? "none" : onednn_cap.c_str(), static_cast<long long>(steps),
                static_cast<long long>(warm_steps));
    const int width = by_shape ? 90 : 58;
    std::printf("%-*s %10s %14s %8s\n", width, "op (self time)", "calls/step", "self ms/step", "of step");
    for (int i = 0; i < top && i < static_cast<int>(sorted.size()); ++i) {
      const auto& [name, t] = sorted[static_cast<size_t>(i)];
      std::printf("%-*s %10.0f %14.3f %7.1f%%\n", width, name.substr(0, static_cast<size_t>(width)).c_str(),
                  static_cast<double>(t.calls) / per_step,
                  t.self_us / per_step / 1e3, 100.0 * t.self_us / wall_us);
    }
    const double outside_us = std::max(0.0, wall_us - covered_us);
    std::printf("step wall %.3f ms: matmul %.3f ms (%.1f%%), other ops %.3f ms (%.1f%%), outside ops %.3f ms (%.1f%%)\n",
                wall_us / per_step / 1e3, matmul_us / per_step / 1e3, 100.0 * matmul_us / wall_us, other_us / per_step / 1e3,
                100.0 * other_us / wall_us, outside_us / per_step / 1e3, 100.0 * outside_us / wall_us);
    std::printf("unprofiled step wall %.3f ms (the same number of steps just before): the profiler adds %.0f%%\n",
                unprofiled_us / per_step / 1e3, 100.0 * (wall_us / unprofiled_us - 1.0));
    return 0;
  } catch (const oomkit::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
