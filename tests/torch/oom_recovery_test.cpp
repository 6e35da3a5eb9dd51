// `oomkit train --on-oom`: the live playbook on real OOMs raised by the CPU budget
// (--memory-limit), one scenario per cause, each asserting the top finding.
// The sixth scenario of issue 5, a message with large reserved-but-unallocated memory ->
// fragmentation, is tests/diagnose_test.cpp `Playbook.FragmentationFromMessage` (the CPU
// budget never fragments: reserved equals allocated, so it cannot be raised live here).
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include "oomkit/core/error.h"
#include "oomkit/core/timeline.h"
#include "oomkit/diagnose/playbook.h"
#include "oomkit/profile/memory_backend.h"
#include "oomkit/profile/profiler.h"
#include "oomkit/train/oom_recovery.h"
#include "oomkit/train/trainer.h"

namespace oomkit {
namespace {

namespace fs = std::filesystem;

class OomRecoveryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("oomkit_oom_recovery_test_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    make_cpu_memory_backend()->set_limit_bytes(0);  // the budget is process-wide: no test inherits one
    write_model("tiny", 32, 2, 2, 32);
    // Varied text (a linear congruential word salad), so different windows give different losses.
    std::string text;
    uint64_t x = 12345;
    const char* words[] = {"memory ", "tensor ", "the ", "graph ", "batch ", "of ", "step ", "a ", "loss. ", "grad "};
    for (int i = 0; i < 4000; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      text += words[(x >> 33) % 10];
    }
    std::ofstream(dir_ / "data.txt") << text;
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write_model(const std::string& name, int d, int L, int h, int n_positions) const {
    std::ofstream(dir_ / (name + ".json"))
        << "{\"model_type\":\"gpt2\",\"_name_or_path\":\"" << name << "\",\"vocab_size\":256,\"n_positions\":"
        << n_positions << ",\"n_embd\":" << d << ",\"n_layer\":" << L << ",\"n_head\":" << h
        << ",\"n_inner\":null,\"layer_norm_epsilon\":1e-05}";
  }
  TrainOptions options(const std::string& model, const std::string& run) const {
    TrainOptions o;
    o.model = (dir_ / (model + ".json")).string();
    o.data = (dir_ / "data.txt").string();
    o.setup.micro_batch_size = 8;
    o.setup.seq_len = 16;
    o.steps = 6;
    o.warmup_steps = 2;
    o.lr = 1e-2;
    o.min_lr = 1e-3;
    o.dropout = 0.0;  // with dropout, B=8 and 2x4 draw different masks (same distribution, other sample)
    o.setup.cpu_threads = 1;
    o.quiet = true;
    o.eval_every = 0;
    o.eval_batches = 2;
    o.run_dir = (dir_ / run).string();
    return o;
  }
  static nlohmann::json read_json(const fs::path& p) {
    std::ifstream in(p);
    return nlohmann::json::parse(in);
  }
  // step -> the timeline's "step" record.
  static std::map<int64_t, nlohmann::json> step_records(const std::string& timeline) {
    std::map<int64_t, nlohmann::json> out;
    for (const auto& r : read_timeline(timeline)) {
      if (r["type"] == "step") out[r["step"].get<int64_t>()] = r;
    }
    return out;
  }
  static std::vector<nlohmann::json> events(const std::string& timeline, const std::string& name) {
    std::vector<nlohmann::json> out;
    for (const auto& r : read_timeline(timeline)) {
      if (r["type"] == "event" && r["name"] == name) out.push_back(r);
    }
    return out;
  }
  fs::path dir_;
};

// Invariant: oom_message() accepts the CPU budget's c10::OutOfMemoryError and a plain exception
// carrying an OOM report, and nothing else; --on-oom takes exactly abort|diagnose|recover.
TEST_F(OomRecoveryTest, RecognisesOomErrorsOnly) {
  EXPECT_TRUE(oom_message(std::runtime_error("CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total "
                                             "capacity; 14.50 GiB already allocated; 3.19 MiB free; 14.90 GiB reserved "
                                             "in total by PyTorch)")));
  EXPECT_FALSE(oom_message(std::runtime_error("shape '[8, 16]' is invalid for input of size 100")));
  auto backend = make_cpu_memory_backend();
  backend->set_limit_bytes(backend->snapshot().allocated_bytes.current + 1024);
  try {
    torch::Tensor t = torch::ones({1024, 1024});
    FAIL() << "the budget did not raise";
  } catch (const std::exception& e) {
    const auto m = oom_message(e);
    ASSERT_TRUE(m);
    EXPECT_NE(m->find("oomkit --memory-limit"), std::string::npos);
  }
  backend->set_limit_bytes(0);
  EXPECT_EQ(parse_on_oom("recover"), OnOom::kRecover);
  EXPECT_THROW(parse_on_oom("retry"), InputError);
}

// Scenario (a), micro-batch too large. Invariant: a budget between the peak of step 0 and the
// peak of step 1 at B=8 (step 1 also holds Adam's two moments) makes step 1 OOM; --on-oom recover
// probes, finds micro-batch 4 x accumulation 2 fits, and continues step 1 with it. Because the
// trainer draws one window set of B x accum rows per optimizer step, the recovered run sees the
// same data as the uninterrupted B=8 run, and because the probes restore model, optimizer state,
// step counter, data position and RNG exactly, every later loss matches the uninterrupted run to
// float rounding (the mean over 8 rows vs the mean of two means over 4 rows).
TEST_F(OomRecoveryTest, MicroBatchTooLargeRecoversByAccumulationLosslessly) {
  const TrainSummary ref = run_training(options("tiny", "ref"));
  ASSERT_EQ(ref.exit_code, 0);
  auto ref_steps = step_records(ref.timeline);
  ASSERT_EQ(ref_steps.size(), 6u);
  const int64_t peak0 = ref_steps[0]["peak_bytes"].get<int64_t>();
  const int64_t peak1 = ref_steps[1]["peak_bytes"].get<int64_t>();
  ASSERT_GT(peak1, peak0) << "step 1 holds the optimizer state on top of step 0's activations";

  TrainOptions o = options("tiny", "rec");
  o.memory_limit_bytes = (peak0 + peak1) / 2;
  o.on_oom = OnOom::kRecover;
  const TrainSummary rec = run_training(o);
  ASSERT_EQ(rec.exit_code, 0) << rec.stop_reason;
  EXPECT_EQ(rec.steps_done, 6);
  EXPECT_EQ(rec.oom_recoveries, 1);
  EXPECT_NEAR(rec.final_loss, ref.final_loss, 1e-5 * std::abs(ref.final_loss));
  EXPECT_NEAR(rec.val_loss, ref.val_loss, 1e-5 * std::abs(ref.val_loss));
  auto rec_steps = step_records(rec.timeline);
  ASSERT_EQ(rec_steps.size(), 6u);
  for (int64_t s = 0; s < 6; ++s) {
    EXPECT_NEAR(rec_steps[s]["loss"].get<double>(), ref_steps[s]["loss"].get<double>(), 1e-5) << "step " << s;
  }
  // The losses differ from step to step by far more than the tolerance: a shifted data order fails.
  EXPECT_GT(std::abs(ref_steps[4]["loss"].get<double>() - ref_steps[5]["loss"].get<double>()), 1e-3);

  const auto oom = events(rec.timeline, "oom");
  ASSERT_EQ(oom.size(), 1u);
  EXPECT_EQ(oom[0]["step"], 1);
  EXPECT_NE(oom[0]["message"].get<std::string>().find("out of memory"), std::string::npos);
  // The typed live record (issue 9, item 5): the refused request did not fit next to what was
  // allocated at that moment, and the playbook read the record, not the message.
  ASSERT_TRUE(oom[0].contains("requested_bytes"));
  EXPECT_GT(oom[0]["allocated_bytes"].get<int64_t>() + oom[0]["requested_bytes"].get<int64_t>(), o.memory_limit_bytes);
  EXPECT_EQ(oom[0]["device"], "cpu");
  const auto recover = events(rec.timeline, "recover");
  ASSERT_EQ(recover.size(), 1u);
  EXPECT_EQ(recover[0]["to"], "--batch-size 4 --grad-accum 2");
  // Issue 13: the recover event carries the recovered setup's estimate (the report draws it from
  // this step on) and every probe step is a "probe" event inside the OOM's handling, with its
  // length, for the trace's probe slices.
  ASSERT_TRUE(recover[0].contains("estimate")) << recover[0].dump();
  EXPECT_GT(recover[0]["estimate"]["peak_bytes"].get<int64_t>(), 0);
  EXPECT_EQ(recover[0]["estimate"]["setup"]["micro_batch_size"], 4);
  const auto probes = events(rec.timeline, "probe");
  ASSERT_GE(probes.size(), 1u);
  for (const auto& p : probes) {
    EXPECT_GT(p["dur_ns"].get<int64_t>(), 0) << p.dump();
    EXPECT_GE(p["t_ns"].get<int64_t>() - p["dur_ns"].get<int64_t>(), oom[0]["t_ns"].get<int64_t>()) << p.dump();
    EXPECT_LE(p["t_ns"].get<int64_t>(), recover[0]["t_ns"].get<int64_t>()) << p.dump();
  }
  const auto run_header = read_timeline(rec.timeline).front();
  ASSERT_TRUE(run_header.contains("start_unix_ns"));
  const int64_t now_unix_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_LT(run_header["start_unix_ns"].get<int64_t>(), now_unix_ns);
  EXPECT_GT(run_header["start_unix_ns"].get<int64_t>(), now_unix_ns - int64_t{3600} * 1000000000);

  ASSERT_EQ(rec.oom_report, (dir_ / "rec" / "oom_report.json").string());
  const nlohmann::json report = read_json(rec.oom_report);
  EXPECT_EQ(report["findings"][0]["category"], "activations_batch");
  EXPECT_NE(report["oom"]["message"].get<std::string>().find("typed record"), std::string::npos);
  EXPECT_EQ(report["recovery"]["applied"], true);
  EXPECT_EQ(report["recovery"]["to"], "--batch-size 4 --grad-accum 2");
  bool probed_mb1 = false;
  for (const auto& p : report["probes"]) probed_mb1 |= p["name"] == "micro_batch_1" && p["ok"] == true;
  EXPECT_TRUE(probed_mb1);
  EXPECT_TRUE(fs::exists(dir_ / "rec" / "oom_report.txt"));
  EXPECT_FALSE(fs::exists(dir_ / "rec" / ".oom_snapshot.ckpt"));

  // abort: the same OOM stops the run at once with exit 3, the oom event in the timeline.
  o.on_oom = OnOom::kAbort;
  o.run_dir = (dir_ / "abort").string();
  const TrainSummary aborted = run_training(o);
  EXPECT_EQ(aborted.exit_code, kExitOom);
  EXPECT_EQ(aborted.stop_reason, "oom");
  EXPECT_EQ(aborted.steps_done, 1);
  EXPECT_EQ(events(aborted.timeline, "oom").size(), 1u);
  EXPECT_FALSE(fs::exists(dir_ / "abort" / "oom_report.json"));
}

// Scenario (b), model too large at batch 1. Invariant: with a budget of 3x the fp32 parameter
// bytes, forward and backward fit but AdamW's moments (2 x 4 bytes/param) do not: the micro-batch
// 1 probe fails too, the verdict is static memory, with the estimator's sharding / offload
// numbers; diagnose stops with exit 3 and saves no checkpoint.
TEST_F(OomRecoveryTest, ModelTooLargeAtBatchOneIsAStaticVerdictWithShardingAdvice) {
  write_model("wide", 128, 2, 4, 32);
  TrainOptions o = options("wide", "static");
  o.setup.micro_batch_size = 2;
  o.save = (dir_ / "static" / "model.ckpt").string();
  fs::create_directories(dir_ / "static");
  int64_t params = 0;
  {
    Trainer probe(o, nullptr, nullptr);
    params = probe.model()->num_parameters();
  }
  o.memory_limit_bytes = 3 * 4 * params;
  o.on_oom = OnOom::kDiagnose;
  const TrainSummary s = run_training(o);
  EXPECT_EQ(s.exit_code, kExitOom);
  EXPECT_EQ(s.steps_done, 0);
  EXPECT_FALSE(fs::exists(o.save));
  const nlohmann::json report = read_json(dir_ / "static" / "oom_report.json");
  EXPECT_EQ(report["findings"][0]["category"], "static_model_too_large");
  EXPECT_EQ(report["probes"][0]["name"], "micro_batch_1");
  EXPECT_EQ(report["probes"][0]["ok"], false);
  const std::string all = report["findings"][0].dump();
  EXPECT_NE(all.find("--zero 3"), std::string::npos) << all;
  EXPECT_NE(all.find("--offload-optimizer"), std::string::npos) << all;
  // find(), not operator[]: a const json's operator[] on a missing key is undefined behaviour.
  const auto recovery = report.find("recovery");
  EXPECT_TRUE(recovery == report.end() || !recovery->is_object() || !recovery->value("applied", false));
}

// Scenario (c), long sequence with eager attention. Invariant: at T=256 with 8 heads and d=32,
// the (B,h,T,T) scores and their softmax dominate the activations; a budget of 60% of the
// estimator's peak OOMs in the first step and the top finding is the sequence-length one.
TEST_F(OomRecoveryTest, LongSequenceWithEagerAttentionIsTheSequenceLengthFinding) {
  write_model("long", 32, 2, 8, 256);
  TrainOptions o = options("long", "seqlen");
  o.setup.micro_batch_size = 2;
  o.setup.seq_len = 256;
  o.steps = 2;
  int64_t peak = 0;
  {
    Trainer t(o, nullptr, nullptr);
    peak = estimate_memory(t.config(), t.training_setup()).peak_bytes;
  }
  o.memory_limit_bytes = peak * 6 / 10;
  o.on_oom = OnOom::kDiagnose;
  const TrainSummary s = run_training(o);
  EXPECT_EQ(s.exit_code, kExitOom);
  const nlohmann::json report = read_json(dir_ / "seqlen" / "oom_report.json");
  EXPECT_EQ(report["findings"][0]["category"], "activations_seqlen") << report["findings"].dump(2);
}

// Scenario (d), a leak. The test's own loop keeps each loss with its graph (backward with
// retain_graph, then losses.push_back(loss) without detach): every step keeps one graph's saved
// activations. Invariant: the OOM comes after a few steps and the playbook's top finding is the
// leak, with a growth per step equal to what one kept graph holds (measured independently by
// freeing the kept losses at the end: the drop divided by the number of kept graphs).
TEST_F(OomRecoveryTest, KeptLossGraphsAreALeakWithItsGrowthPerStep) {
  auto backend = make_cpu_memory_backend();
  TrainOptions o = options("tiny", "leak");
  Trainer t(o, backend.get(), nullptr);
  Profiler profiler(backend.get(), nullptr);
  Profiler warmup(backend.get(), nullptr, /*enabled=*/false);
  std::vector<torch::Tensor> losses;
  auto leaky_step = [&](Profiler& prof, int64_t step) {
    prof.begin_step(step);
    Batch b = t.dataset().next_train_batch(o.setup.micro_batch_size);
    torch::Tensor loss = GptImpl::loss(t.model()->forward(b.x), b.y);
    loss.backward({}, /*retain_graph=*/true);
    losses.push_back(loss);  // the bug: the graph stays alive with the loss
    t.optimizer().step();
    for (auto& p : t.model()->trainable_parameters()) p.mutable_grad() = torch::Tensor();
    prof.mark(Phase::kAfterZeroGrad);
    prof.end_step();
  };
  leaky_step(warmup, 0);  // creates Adam's state, unprofiled: later steps start from the same static memory
  const int64_t start = backend->snapshot().allocated_bytes.current;
  leaky_step(profiler, 1);
  const int64_t per_graph = backend->snapshot().allocated_bytes.current - start;
  ASSERT_GT(per_graph, 64 * 1024);
  const int64_t budget = start + 12 * per_graph;
  backend->set_limit_bytes(budget);
  std::string message;
  int64_t step = 2;
  for (; step < 60 && message.empty(); ++step) {
    try {
      leaky_step(profiler, step);
    } catch (const std::exception& e) {
      message = oom_message(e).value_or("");
      ASSERT_FALSE(message.empty()) << e.what();
    }
  }
  ASSERT_FALSE(message.empty()) << "no OOM in 60 leaking steps";
  profiler.abort_step();
  backend->set_limit_bytes(0);
  PlaybookInput in = live_playbook_input(message, profiler, *backend, t.config(), t.training_setup(), budget);
  const PlaybookResult r = run_playbook(in, {});
  ASSERT_FALSE(r.diagnosis.findings.empty());
  EXPECT_EQ(r.diagnosis.findings.front().category, OomCause::kLeakAcrossSteps);
  const auto fit = step_start_growth(profiler.marks(), 20);
  ASSERT_TRUE(fit);
  const int64_t kept = static_cast<int64_t>(losses.size());
  const int64_t before_free = backend->snapshot().allocated_bytes.current;
  losses.clear();
  const double freed_per_graph =
      static_cast<double>(before_free - backend->snapshot().allocated_bytes.current) / static_cast<double>(kept);
  EXPECT_NEAR(fit->slope_bytes_per_step, freed_per_graph, 0.02 * freed_per_graph);
  EXPECT_NE(r.diagnosis.findings.front().evidence.front().find("per step"), std::string::npos);
}

// Scenario (e), evaluation without no-grad. Invariant: an eval batch run with autograd on and its
// loss kept raises allocated at the profiler's eval mark by the saved activations of a forward
// (the same batch under NoGradGuard raises it by the loss scalar only); an eval loop doing that
// OOMs, and the playbook told the OOM came in eval with grad on flags eval_without_no_grad first.
TEST_F(OomRecoveryTest, EvaluationWithoutNoGradIsFlagged) {
  auto backend = make_cpu_memory_backend();
  TrainOptions o = options("tiny", "eval");
  Trainer t(o, backend.get(), nullptr);
  Profiler profiler(backend.get(), nullptr);
  t.step();
  t.model()->eval();
  auto eval_loss = [&](int64_t k) {
    Batch b = t.dataset().val_batch(k, o.setup.micro_batch_size);
    return GptImpl::loss(t.model()->forward(b.x), b.y);
  };
  profiler.mark(Phase::kEval);
  torch::Tensor kept_no_grad;
  {
    torch::NoGradGuard no_grad;
    kept_no_grad = eval_loss(0);
  }
  profiler.mark(Phase::kEval);
  torch::Tensor kept_grad = eval_loss(0);
  profiler.mark(Phase::kEval);
  const auto& marks = profiler.marks();
  const int64_t rise_no_grad = marks[marks.size() - 2].allocated_bytes - marks[marks.size() - 3].allocated_bytes;
  const int64_t rise_grad = marks.back().allocated_bytes - marks[marks.size() - 2].allocated_bytes;
  EXPECT_LT(rise_no_grad, 1024);
  EXPECT_GT(rise_grad, 64 * 1024);
  kept_grad = torch::Tensor();

  const int64_t budget = backend->snapshot().allocated_bytes.current + 8 * rise_grad;
  backend->set_limit_bytes(budget);
  std::string message;
  torch::Tensor total = torch::zeros({});
  for (int64_t k = 0; k < 100 && message.empty(); ++k) {
    try {
      total = total + eval_loss(k);  // the bug: no NoGradGuard, and the sum keeps every graph
    } catch (const std::exception& e) {
      message = oom_message(e).value_or("");
    }
  }
  backend->set_limit_bytes(0);
  ASSERT_FALSE(message.empty()) << "no OOM in 100 eval batches";
  PlaybookInput in = live_playbook_input(message, profiler, *backend, t.config(), t.training_setup(), budget, "eval",
                                         /*eval_grad_enabled=*/torch::GradMode::is_enabled());
  const PlaybookResult r = run_playbook(in, {});
  ASSERT_FALSE(r.diagnosis.findings.empty());
  EXPECT_EQ(r.diagnosis.findings.front().category, OomCause::kEvalWithoutNoGrad);
}

}  // namespace
}  // namespace oomkit
