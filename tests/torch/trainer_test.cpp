// The trainer: schedule, learning, the step's memory contract, bad input at the CLI, signals.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include "oomkit/core/error.h"
#include "oomkit/core/timeline.h"
#include "oomkit/profile/memory_backend.h"
#include "oomkit/train/trainer.h"

namespace oomkit {
namespace {

namespace fs = std::filesystem;

// Invariant: warmup rises linearly to lr, cosine decay ends at min_lr, halfway is the mean.
// Hand values for lr 1, min 0.1, warmup 10, 111 steps (decay over steps 10..110).
TEST(LearningRate, WarmupAndCosine) {
  EXPECT_DOUBLE_EQ(learning_rate(0, 111, 1.0, 10, 0.1), 0.1);
  EXPECT_DOUBLE_EQ(learning_rate(9, 111, 1.0, 10, 0.1), 1.0);
  EXPECT_DOUBLE_EQ(learning_rate(10, 111, 1.0, 10, 0.1), 1.0);
  EXPECT_NEAR(learning_rate(60, 111, 1.0, 10, 0.1), 0.55, 1e-12);
  EXPECT_NEAR(learning_rate(110, 111, 1.0, 10, 0.1), 0.1, 1e-12);
}

class TrainerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("oomkit_trainer_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "tiny.json") << R"({"model_type":"gpt2","_name_or_path":"tiny","vocab_size":256,
      "n_positions":32,"n_embd":32,"n_layer":2,"n_head":2,"n_inner":null,"layer_norm_epsilon":1e-05})";
    std::string text;
    for (int i = 0; i < 300; ++i) text += "abcabcabd abcabd. ";
    std::ofstream(dir_ / "data.txt") << text;
  }
  void TearDown() override { fs::remove_all(dir_); }
  TrainOptions tiny() const {
    TrainOptions o;
    o.model = (dir_ / "tiny.json").string();
    o.data = (dir_ / "data.txt").string();
    o.setup.micro_batch_size = 8;
    o.setup.seq_len = 16;
    o.steps = 40;
    o.warmup_steps = 4;
    o.lr = 1e-2;
    o.min_lr = 1e-3;
    o.setup.cpu_threads = 1;
    o.quiet = true;
    o.eval_batches = 4;
    o.run_dir = (dir_ / "run").string();
    return o;
  }
  // Runs the oomkit executable; returns the exit status, stderr in `err`.
  int oomkit(const std::string& args, std::string* err = nullptr) const {
    const std::string err_path = (dir_ / "stderr.txt").string();
    const std::string cmd = std::string(OOMKIT_EXE) + " " + args + " > /dev/null 2> " + err_path;
    const int status = std::system(cmd.c_str());
    if (err) {
      std::ifstream in(err_path);
      err->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  fs::path dir_;
};

// Invariant: a short run on a repetitive text learns (final loss far below the first, which is
// near ln 256 = 5.55 for an untrained byte model), writes summary.json with first_loss,
// final_loss, tokens_per_s and peak memory, and a timeline with every phase of every step.
TEST_F(TrainerTest, ShortRunLearnsAndWritesTimeline) {
  const TrainSummary s = run_training(tiny());
  EXPECT_EQ(s.exit_code, 0);
  EXPECT_EQ(s.steps_done, 40);
  EXPECT_NEAR(s.first_loss, std::log(256.0), 0.3);
  EXPECT_LT(s.final_loss, 0.5 * s.first_loss);
  EXPECT_GT(s.val_loss, 0.0);
  EXPECT_LT(s.val_loss, s.unigram_entropy_bits * std::log(2.0));
  EXPECT_GT(s.tokens_per_s, 0.0);
  EXPECT_GT(s.peak_allocated_bytes, 0);
  std::ifstream in(dir_ / "run" / "summary.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["first_loss"].get<double>(), s.first_loss);
  EXPECT_EQ(j["final_loss"].get<double>(), s.final_loss);
  EXPECT_EQ(j["peak_allocated_bytes"].get<int64_t>(), s.peak_allocated_bytes);
  const auto records = read_timeline(s.timeline);
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(records.front()["type"], "run");
  EXPECT_EQ(records.back()["type"], "summary");
  int marks = 0, steps = 0;
  for (const auto& r : records) {
    if (r["type"] == "mark" && r["phase"] != "eval") ++marks;
    if (r["type"] == "step") {
      ++steps;
      EXPECT_TRUE(r.contains("loss"));
      EXPECT_GT(r["peak_bytes"].get<int64_t>(), 0);
    }
  }
  EXPECT_EQ(steps, 40);
  EXPECT_EQ(marks, 40 * 6);  // step_start, after_forward, after_loss, after_backward, after_optimizer_step, after_zero_grad
}

// Invariant: zero_grad(set_to_none=true): no gradient tensor survives a step.
TEST_F(TrainerTest, GradientsAreReleasedAfterEachStep) {
  Trainer t(tiny(), nullptr, nullptr);
  t.step();
  for (const auto& p : t.model()->trainable_parameters()) EXPECT_FALSE(p.grad().defined());
}

// Invariant: an OOM inside the step propagates as c10::OutOfMemoryError with the step's tensors
// released, gradients dropped and the data position rewound; the same step then runs once the
// budget allows it (what --on-oom recover relies on).
TEST_F(TrainerTest, OomInsideTheStepLeavesTheTrainerUsable) {
  auto backend = make_cpu_memory_backend();
  TrainOptions o = tiny();
  o.setup.micro_batch_size = 64;
  Trainer t(o, backend.get(), nullptr);
  const int64_t before = backend->snapshot().allocated_bytes.current;
  backend->set_limit_bytes(before + 256 * 1024);  // far below the activations of B=64
  EXPECT_THROW(t.step(), c10::OutOfMemoryError);
  EXPECT_EQ(t.dataset().position(), 0);
  EXPECT_EQ(t.next_step(), 0);
  EXPECT_EQ(backend->snapshot().allocated_bytes.current, before);
  for (const auto& p : t.model()->trainable_parameters()) EXPECT_FALSE(p.grad().defined());
  backend->set_limit_bytes(0);
  const StepStats s = t.step();
  EXPECT_EQ(s.step, 0);
  EXPECT_TRUE(std::isfinite(s.loss));
}

// Invariant: bad input gives exit code 2 and one "error: <field>: ..." line, writes nothing.
TEST_F(TrainerTest, BadInputExitsTwoNamingTheField) {
  const std::string base = "train --model " + (dir_ / "tiny.json").string() + " --steps 2 --run-dir " +
                           (dir_ / "bad-run").string() + " ";
  const std::string t16 = " --seq-len 16";
  std::string err;
  EXPECT_EQ(oomkit(base + "--data " + (dir_ / "missing.txt").string() + t16, &err), 2);
  EXPECT_EQ(err.rfind("error: --data:", 0), 0u) << err;
  std::ofstream(dir_ / "empty.txt").close();
  EXPECT_EQ(oomkit(base + "--data " + (dir_ / "empty.txt").string() + t16, &err), 2);
  EXPECT_NE(err.find("empty"), std::string::npos) << err;
  std::ofstream(dir_ / "short.txt") << "too short";
  EXPECT_EQ(oomkit(base + "--data " + (dir_ / "short.txt").string() + t16, &err), 2);
  EXPECT_NE(err.find("shorter than one sequence"), std::string::npos) << err;
  const std::string data = "--data " + (dir_ / "data.txt").string() + " ";
  EXPECT_EQ(oomkit(base + data + "--seq-len 64", &err), 2);
  EXPECT_EQ(err.rfind("error: --seq-len:", 0), 0u) << err;
  EXPECT_EQ(oomkit(base + data + "--batch-size 0" + t16, &err), 2);
  EXPECT_EQ(err.rfind("error: --batch-size:", 0), 0u) << err;
  EXPECT_EQ(oomkit(base + data + "--no-such-flag" + t16, &err), 2);
  EXPECT_EQ(oomkit(base + data + "--optimizer adamx" + t16, &err), 2);
  EXPECT_EQ(err.rfind("error: --optimizer:", 0), 0u) << err;
  EXPECT_EQ(oomkit(base + data + "--save /nonexistent-dir/x.ckpt" + t16, &err), 2);
  EXPECT_EQ(err.rfind("error: --save:", 0), 0u) << err;
  // Tokens beyond the vocabulary: an llm.c file holding GPT-2 token 50256 for a V=256 model.
  std::vector<int32_t> header(256, 0);
  header[0] = 20240520;
  header[1] = 1;
  header[2] = 100;
  std::vector<uint16_t> tokens(100, 50256);
  {
    std::ofstream out(dir_ / "gpt2.bin", std::ios::binary);
    out.write(reinterpret_cast<const char*>(header.data()), 1024);
    out.write(reinterpret_cast<const char*>(tokens.data()), 200);
  }
  EXPECT_EQ(oomkit(base + "--data " + (dir_ / "gpt2.bin").string() + t16, &err), 2);
  EXPECT_NE(err.find("vocab_size 256"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(dir_ / "bad-run"));
}

// Invariant: SIGTERM mid-run finishes the step, saves the checkpoint and exits 143; the
// checkpoint resumes.
TEST_F(TrainerTest, SigtermSavesAndExits143) {
  const std::string ckpt = (dir_ / "sig.ckpt").string();
  const std::string run_dir = (dir_ / "sig-run").string();
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string model = (dir_ / "tiny.json").string(), data = (dir_ / "data.txt").string();
    freopen("/dev/null", "w", stdout);
    freopen("/dev/null", "w", stderr);
    execl(OOMKIT_EXE, OOMKIT_EXE, "train", "--model", model.c_str(), "--data", data.c_str(), "--steps", "1000000",
          "--seq-len", "16", "--batch-size", "4", "--threads", "1", "--save", ckpt.c_str(), "--run-dir",
          run_dir.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait for the first step record in the timeline, then ask the run to stop.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool stepped = false;
  while (!stepped && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream in(run_dir + "/timeline.jsonl");
    std::string line;
    while (std::getline(in, line)) stepped = stepped || line.find("\"type\":\"step\"") != std::string::npos;
  }
  ASSERT_TRUE(stepped);
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 143);
  ASSERT_TRUE(fs::exists(ckpt));
  TrainOptions o = tiny();
  o.setup.micro_batch_size = 4;
  o.steps = 1000000;
  o.resume = ckpt;
  Trainer resumed(o, nullptr, nullptr);
  EXPECT_GT(resumed.next_step(), 0);
}

}  // namespace
}  // namespace oomkit
