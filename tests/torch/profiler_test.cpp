// Tests of the profiler (marks, peaks, deltas, timeline), static-memory measurement and the
// end-of-run summary. Sizes are chosen tensors (numel * 4 bytes for fp32), so every expected
// number is computed here from the sizes the test allocates, independently of the profiler.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include "oomkit/core/units.h"
#include "oomkit/profile/profiler.h"
#include "oomkit/profile/static_memory.h"
#include "oomkit/profile/summary.h"
#include "oomkit/train/optim/optimizers.h"

namespace oomkit {
namespace {

namespace fs = std::filesystem;

torch::Tensor mib_tensor(int64_t mib) { return torch::empty({mib * kMiB / 4}, torch::kFloat32); }

std::string temp_path(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("oomkit_profiler_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return (dir / name).string();
}

// A backend whose every call fails: the profiler must collect, never throw.
class FailingBackend final : public MemoryBackend {
 public:
  std::string device() const override { return "failing"; }
  MemoryStats snapshot() const override { throw std::runtime_error("snapshot failed"); }
  void reset_peak() override { throw std::runtime_error("reset failed"); }
  void set_limit_bytes(int64_t) override {}
};

// Marks: each carries allocated, delta from the previous mark and the peak of the interval
// since that mark; the step's peak is the highest of them and names its phase.
TEST(Profiler, MarksPeaksAndDeltasExact) {
  auto backend = make_cpu_memory_backend();
  const std::string path = temp_path("marks.jsonl");
  TimelineWriter writer(path);
  Profiler profiler(backend.get(), &writer);
  profiler.begin_step(1);
  const int64_t a0 = profiler.marks().back().allocated_bytes;
  torch::Tensor x = mib_tensor(1);
  profiler.mark(Phase::kAfterForward);
  {
    torch::Tensor tmp = mib_tensor(4);  // lives only inside the next interval
  }
  torch::Tensor y = mib_tensor(2);
  profiler.mark(Phase::kAfterLoss);
  x = torch::Tensor();
  y = torch::Tensor();
  profiler.mark(Phase::kAfterBackward);
  const StepMemory step = profiler.end_step();

  ASSERT_EQ(step.marks.size(), 4u);
  EXPECT_EQ(step.marks[0].phase, "step_start");
  EXPECT_EQ(step.marks[1].allocated_bytes, a0 + kMiB);
  EXPECT_EQ(step.marks[1].delta_bytes, kMiB);
  EXPECT_EQ(step.marks[1].peak_allocated_bytes, a0 + kMiB);
  EXPECT_EQ(step.marks[2].allocated_bytes, a0 + 3 * kMiB);
  EXPECT_EQ(step.marks[2].delta_bytes, 2 * kMiB);
  EXPECT_EQ(step.marks[2].peak_allocated_bytes, a0 + 5 * kMiB);  // x (1) + tmp (4)
  EXPECT_EQ(step.marks[3].allocated_bytes, a0);
  EXPECT_EQ(step.marks[3].delta_bytes, -3 * kMiB);
  EXPECT_EQ(step.marks[3].peak_allocated_bytes, a0 + 3 * kMiB);  // peak was reset at after_loss
  EXPECT_EQ(step.peak_bytes, a0 + 5 * kMiB);
  EXPECT_EQ(step.peak_phase, "after_loss");
  EXPECT_EQ(step.start_allocated_bytes, a0);
  EXPECT_TRUE(profiler.errors().empty());
  EXPECT_GT(profiler.overhead_ns(), 0);
  for (size_t i = 1; i < step.marks.size(); ++i) EXPECT_GE(step.marks[i].t_ns, step.marks[i - 1].t_ns);

  // The timeline holds the same marks, in order, as JSON Lines and as CSV rows.
  const auto records = read_timeline(path);
  ASSERT_EQ(records.size(), 4u);
  for (size_t i = 0; i < records.size(); ++i) {
    const TimelineMark m = mark_from_json(records[i]);
    EXPECT_EQ(records[i]["type"], "mark");
    EXPECT_EQ(m.phase, step.marks[i].phase);
    EXPECT_EQ(m.allocated_bytes, step.marks[i].allocated_bytes);
    EXPECT_EQ(m.peak_allocated_bytes, step.marks[i].peak_allocated_bytes);
    EXPECT_EQ(m.delta_bytes, step.marks[i].delta_bytes);
  }
  std::ifstream csv(writer.csv_path());
  int lines = 0;
  for (std::string line; std::getline(csv, line);) ++lines;
  EXPECT_EQ(lines, 1 + 4);
}

// Gradient accumulation: marks carry their micro-step; marks outside a step (eval) are kept
// but do not enter any step's peak.
TEST(Profiler, MicroStepsAndEvalOutsideStep) {
  auto backend = make_cpu_memory_backend();
  Profiler profiler(backend.get(), nullptr);
  profiler.begin_step(7);
  for (int64_t micro = 0; micro < 2; ++micro) {
    torch::Tensor act = mib_tensor(1);
    profiler.mark(Phase::kAfterForward, micro);
  }
  const StepMemory step = profiler.end_step();
  {
    torch::Tensor eval_buffer = mib_tensor(8);
  }
  profiler.mark(Phase::kEval);
  ASSERT_EQ(step.marks.size(), 3u);
  EXPECT_EQ(step.marks[2].micro_step, 1);
  EXPECT_EQ(profiler.steps().size(), 1u);
  EXPECT_EQ(profiler.marks().back().phase, "eval");
  EXPECT_EQ(profiler.marks().back().step, 7);
  EXPECT_GE(profiler.marks().back().peak_allocated_bytes, step.start_allocated_bytes + 8 * kMiB);
  EXPECT_LT(profiler.steps()[0].peak_bytes, step.start_allocated_bytes + 8 * kMiB);
}

// --no-profile: nothing recorded, nothing written.
TEST(Profiler, DisabledIsNoOp) {
  auto backend = make_cpu_memory_backend();
  const std::string path = temp_path("disabled.jsonl");
  TimelineWriter writer(path);
  Profiler profiler(backend.get(), &writer, /*enabled=*/false);
  profiler.begin_step(1);
  profiler.mark(Phase::kAfterForward);
  const StepMemory s = profiler.end_step();
  EXPECT_TRUE(profiler.marks().empty());
  EXPECT_TRUE(profiler.steps().empty());
  EXPECT_EQ(s.peak_bytes, 0);
  EXPECT_TRUE(read_timeline(path).empty());
}

// Collect, don't kill: a failing backend and misuse produce errors(), never exceptions.
TEST(Profiler, CollectsErrorsInsteadOfThrowing) {
  FailingBackend backend;
  Profiler profiler(&backend, nullptr);
  EXPECT_NO_THROW(profiler.begin_step(1));
  EXPECT_NO_THROW(profiler.mark(Phase::kAfterForward));
  EXPECT_NO_THROW(profiler.end_step());
  EXPECT_NO_THROW(profiler.end_step());  // without begin_step
  ASSERT_GE(profiler.errors().size(), 3u);
  EXPECT_NE(profiler.errors()[0].find("reset failed"), std::string::npos);
  // Repeated identical failures are kept once.
  for (int i = 0; i < 100; ++i) profiler.mark(Phase::kAfterLoss);
  EXPECT_LE(profiler.errors().size(), 33u);
}

// A timeline that stops accepting writes (file size limit: EFBIG) is reported once; the
// training side sees no exception.
TEST(Profiler, TimelineWriteFailureIsCollected) {
  auto backend = make_cpu_memory_backend();
  const std::string path = temp_path("full.jsonl");
  TimelineWriter writer(path);
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old;
  small.rlim_cur = 600;  // bytes: the CSV header plus about one JSON record
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  Profiler profiler(backend.get(), &writer);
  profiler.begin_step(1);
  for (int i = 0; i < 10; ++i) EXPECT_NO_THROW(profiler.mark(Phase::kAfterForward));
  profiler.end_step();
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old), 0);
  std::signal(SIGXFSZ, old_handler);
  ASSERT_EQ(profiler.errors().size(), 1u);
  EXPECT_NE(profiler.errors()[0].find("writing the timeline"), std::string::npos);
  EXPECT_EQ(profiler.marks().size(), 11u);  // marks are still kept in memory
}

// Events and step records go through the profiler's writer with the timeline's keys.
TEST(Profiler, EventAndStepRecords) {
  auto backend = make_cpu_memory_backend();
  const std::string path = temp_path("events.jsonl");
  TimelineWriter writer(path);
  Profiler profiler(backend.get(), &writer);
  profiler.begin_step(3);
  const StepMemory s = profiler.end_step();
  StepRecord step = Profiler::step_record(s);
  step.loss = 2.5;
  profiler.write_step(step);
  profiler.write_event("oom", {{"requested_bytes", 1234}});
  const auto records = read_timeline(path);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[1]["type"], "step");
  EXPECT_EQ(records[1]["step"], 3);
  EXPECT_EQ(records[1]["peak_bytes"], s.peak_bytes);
  EXPECT_EQ(records[1]["peak_phase"], "step_start");
  EXPECT_EQ(records[2]["type"], "event");
  EXPECT_EQ(records[2]["name"], "oom");
  EXPECT_EQ(records[2]["step"], 3);
  EXPECT_EQ(records[2]["requested_bytes"], 1234);
}

// Static memory from storages: Linear(10 -> 20) has 20*10 + 20 = 220 fp32 parameters = 880 B;
// gradients after backward another 880 B; AdamW keeps exp_avg and exp_avg_sq (2 x 880 B);
// SGD with momentum one buffer (880 B), plain SGD none. A tied weight counts once.
struct TiedNet : torch::nn::Module {
  TiedNet() {
    emb = register_module("emb", torch::nn::Embedding(16, 8));    // 128 params
    fc = register_module("fc", torch::nn::Linear(10, 20));        // 220 params
    head = register_parameter("head_weight", emb->weight, true);  // tied: same storage
    mask = register_buffer("mask", torch::ones({4, 4}, torch::kBool));  // 16 B
  }
  torch::nn::Embedding emb{nullptr};
  torch::nn::Linear fc{nullptr};
  torch::Tensor head, mask;
};

TEST(StaticMemory, StoragesCountedOnce) {
  auto net = std::make_shared<TiedNet>();
  StaticMemory m = measure_static_memory(*net);
  EXPECT_EQ(m.parameters_bytes, (128 + 220) * 4);
  EXPECT_EQ(m.num_parameters, 128 + 220);
  EXPECT_EQ(m.buffers_bytes, 16);
  EXPECT_EQ(m.gradients_bytes, 0);

  torch::optim::AdamW adamw(net->parameters(), torch::optim::AdamWOptions(1e-3));
  auto loss = net->fc(torch::ones({2, 10})).sum() + net->head.sum();
  loss.backward();
  adamw.step();
  m = measure_static_memory(*net, &adamw);
  EXPECT_EQ(m.gradients_bytes, (128 + 220) * 4);
  EXPECT_EQ(m.optimizer_state_bytes, 2 * (128 + 220) * 4);
  EXPECT_EQ(m.unmeasured_optimizer_states, 0);
}

TEST(StaticMemory, SgdStates) {
  torch::nn::Linear fc(10, 20);
  torch::optim::SGD momentum(fc->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  torch::optim::SGD plain(fc->parameters(), torch::optim::SGDOptions(0.1));
  fc(torch::ones({2, 10})).sum().backward();
  momentum.step();
  plain.step();
  EXPECT_EQ(measure_static_memory(*fc, &momentum).optimizer_state_bytes, 880);
  EXPECT_EQ(measure_static_memory(*fc, &plain).optimizer_state_bytes, 0);
}

// A custom optimizer state is counted through the OptimizerStateTensors mix-in, and a state of
// an unknown type is reported as unmeasured rather than guessed.
struct MixinState : torch::optim::OptimizerParamState, OptimizerStateTensors {
  torch::Tensor row, col;
  std::vector<torch::Tensor> state_tensors() const override { return {row, col}; }
};
struct OpaqueState : torch::optim::OptimizerParamState {};
class FakeOptimizer : public torch::optim::Optimizer {
 public:
  explicit FakeOptimizer(std::vector<torch::Tensor> params)
      : Optimizer({torch::optim::OptimizerParamGroup(params)}, std::make_unique<torch::optim::SGDOptions>(0.1)) {}
  torch::Tensor step(LossClosure) override { return {}; }
};

TEST(StaticMemory, MixinAndUnknownStates) {
  torch::nn::Linear fc(10, 20);
  FakeOptimizer opt(fc->parameters());
  auto mixin = std::make_unique<MixinState>();
  mixin->row = torch::zeros({20});  // 80 B
  mixin->col = torch::zeros({10});  // 40 B
  opt.state()[optimizer_state_key(fc->weight)] = std::move(mixin);
  opt.state()[optimizer_state_key(fc->bias)] = std::make_unique<OpaqueState>();
  const StaticMemory m = measure_static_memory(*fc, &opt);
  EXPECT_EQ(m.optimizer_state_bytes, 120);
  EXPECT_EQ(m.unmeasured_optimizer_states, 1);
}

// The summary's attribution: activations = after_forward - step_start of the last step;
// transient = the step peak - step_start - activations; ratios measured / estimated.
TEST(Summary, AttributionAndRatios) {
  auto mk = [](const std::string& phase, int64_t alloc, int64_t peak) {
    TimelineMark m;
    m.phase = phase;
    m.allocated_bytes = alloc;
    m.peak_allocated_bytes = peak;
    return m;
  };
  StepMemory s1;
  s1.step = 1;
  s1.marks = {mk("step_start", 1000, 1000), mk("after_forward", 1500, 1600), mk("after_backward", 1200, 2100)};
  s1.marks[1].delta_bytes = 500;
  s1.peak_bytes = 2100;
  s1.peak_phase = "after_backward";
  StepMemory s2 = s1;
  s2.step = 2;
  s2.marks[1].allocated_bytes = 1700;  // activations 700 in the steady step
  s2.peak_bytes = 2500;
  StaticMemory st;
  st.parameters_bytes = 400;
  st.gradients_bytes = 400;
  st.optimizer_state_bytes = 100;
  st.buffers_bytes = 50;
  Estimate e;
  e.totals[static_cast<int>(Category::kParameters)] = 400;
  e.totals[static_cast<int>(Category::kGradients)] = 400;
  e.totals[static_cast<int>(Category::kOptimizerState)] = 200;
  e.totals[static_cast<int>(Category::kActivations)] = 700;
  e.totals[static_cast<int>(Category::kTransient)] = 1000;
  e.totals[static_cast<int>(Category::kOverhead)] = 100;
  e.peak_bytes = 2600;
  e.setup.cuda = true;
  e.setup.overhead_bytes = 100;  // the CUDA context the estimate adds beyond its phase peak
  e.phases = {{"steady", "after_forward", 1750, 1800}};
  const MemorySummary sum = summarize_memory("cpu", {s1, s2}, st, &e);
  EXPECT_EQ(sum.peak_bytes, 2500);
  EXPECT_EQ(sum.peak_step, 2);
  ASSERT_EQ(sum.phases.size(), 6u);
  EXPECT_EQ(sum.phases[4].step_kind, "steady");
  EXPECT_EQ(sum.phases[4].predicted_allocated_bytes, 1750);
  EXPECT_EQ(sum.phases[1].predicted_allocated_bytes, -1);  // no "first" prediction given
  auto row = [&](const std::string& name) {
    for (const auto& c : sum.categories) {
      if (c.category == name) return c;
    }
    ADD_FAILURE() << "no row " << name;
    return CategoryRow{};
  };
  EXPECT_EQ(row("parameters").measured_bytes, 400 + 50);  // buffers counted with parameters
  EXPECT_EQ(row("gradients").measured_bytes, 400);
  EXPECT_EQ(row("activations").measured_bytes, 700);
  EXPECT_EQ(row("transient").measured_bytes, 2500 - 1000 - 700);  // peak - step_start - activations
  EXPECT_EQ(row("optimizer_state").estimated_bytes, 200);
  EXPECT_EQ(row("peak").estimated_bytes, 2500);  // 2600 minus the 100 of CUDA context
  {
    // On CPU the overhead items are ones the phase table counts (the OOM-retry RNG state, DDP's
    // gradient buckets): the c10 allocator sees them, so the estimated peak keeps them.
    Estimate cpu = e;
    cpu.setup.cuda = false;
    const MemorySummary on_cpu = summarize_memory("cpu", {s1, s2}, st, &cpu);
    bool found = false;
    for (const auto& c : on_cpu.categories) {
      if (c.category != "peak") continue;
      found = true;
      EXPECT_EQ(c.estimated_bytes, 2600);
    }
    EXPECT_TRUE(found);
  }
  const nlohmann::json j = memory_summary_to_json(sum);
  EXPECT_DOUBLE_EQ(j["categories"][2]["ratio"].get<double>(), 0.5);

  // Gradients freed by zero_grad(set_to_none) before the end: measured as the drop at the
  // steady step's after_zero_grad mark (here 400 B); transient does not depend on it.
  StepMemory s3 = s2;
  s3.marks.push_back(mk("after_zero_grad", 800, 1300));
  s3.marks.back().delta_bytes = -400;
  StaticMemory no_grads = st;
  no_grads.gradients_bytes = 0;
  const MemorySummary freed = summarize_memory("cpu", {s1, s3}, no_grads, &e);
  for (const auto& c : freed.categories) {
    if (c.category == "gradients") {
      EXPECT_EQ(c.measured_bytes, 400);
    }
    if (c.category == "transient") {
      EXPECT_EQ(c.measured_bytes, 2500 - 1000 - 700);
    }
  }
  EXPECT_EQ(j["static"]["buffers_bytes"], 50);
  const std::string text = format_memory_summary(sum);
  EXPECT_NE(text.find("optimizer_state"), std::string::npos);
  EXPECT_NE(text.find("0.500"), std::string::npos);
  EXPECT_NE(text.find("+500 B"), std::string::npos);  // first step's after_forward delta column
}

// No steps: empty tables, no exception.
TEST(Summary, EmptyRun) {
  const MemorySummary sum = summarize_memory("cpu", {}, StaticMemory{}, nullptr);
  EXPECT_TRUE(sum.phases.empty());
  EXPECT_TRUE(sum.categories.empty());
  EXPECT_NO_THROW(format_memory_summary(sum));
}

// Crash safety: `oomkit train` killed with SIGKILL mid-run leaves a timeline whose every line
// up to the last complete record parses (read_timeline skips only a torn last line), starting
// with the "run" record, with whole steps of marks, and a CSV whose complete rows have all 11
// columns. The run is stopped after at least 3 step records have been flushed.
TEST(ProfilerIntegration, KillMidRunLeavesValidTimeline) {
  const std::string dir = temp_path("killed");
  const std::string timeline = dir + "/timeline.jsonl";
  fs::remove_all(dir);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int devnull = ::open("/dev/null", O_WRONLY);
    ::dup2(devnull, STDOUT_FILENO);
    ::dup2(devnull, STDERR_FILENO);
    ::execl(OOMKIT_EXE, OOMKIT_EXE, "train", "--model", "gpt-nano", "--steps", "100000", "--batch-size", "2",
            "--seq-len", "32", "--threads", "1", "--eval-every", "0", "--run-dir", dir.c_str(), "--timeline",
            timeline.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  auto count_steps = [&] {
    std::ifstream in(timeline);
    int steps = 0;
    for (std::string line; std::getline(in, line);) steps += line.find("\"type\":\"step\"") != std::string::npos;
    return steps;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  int exited = 0;
  while (count_steps() < 3 && std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(pid, &exited, WNOHANG) == pid) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGKILL);
  int wstatus = 0;
  ::waitpid(pid, &wstatus, 0);
  ASSERT_TRUE(WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL) << "the run ended before it was killed";

  const auto records = read_timeline(timeline);  // throws on any bad line but a torn last one
  ASSERT_GE(records.size(), 1u + 3u * 7u);
  EXPECT_EQ(records.front()["type"], "run");
  int steps = 0;
  int marks_in_step = 0;
  for (const auto& r : records) {
    ASSERT_TRUE(r.contains("type"));
    if (r["type"] == "mark") {
      const TimelineMark m = mark_from_json(r);
      EXPECT_TRUE(phase_from_name(m.phase).has_value()) << m.phase;
      EXPECT_GT(m.allocated_bytes, 0);
      EXPECT_GE(m.peak_allocated_bytes, m.allocated_bytes);
      ++marks_in_step;
    } else if (r["type"] == "step") {
      EXPECT_EQ(marks_in_step, 6) << "step " << r["step"];  // step_start..after_zero_grad
      marks_in_step = 0;
      ++steps;
    }
  }
  EXPECT_GE(steps, 3);
  std::ifstream csv(fs::path(timeline).replace_extension(".csv"));
  std::vector<std::string> rows;
  for (std::string line; std::getline(csv, line);) rows.push_back(line);
  ASSERT_GE(rows.size(), 1u + 3u * 6u);
  for (size_t i = 0; i + 1 < rows.size(); ++i) {  // the last row may be torn
    EXPECT_EQ(std::count(rows[i].begin(), rows[i].end(), ','), 10) << "row " << i << ": " << rows[i];
  }
}

}  // namespace
}  // namespace oomkit
