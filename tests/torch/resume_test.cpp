// Checkpoint and resume: an interrupted run continues bitwise equal to an uninterrupted one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <torch/torch.h>

#include "oomkit/core/error.h"
#include "oomkit/train/trainer.h"

namespace oomkit {
namespace {

namespace fs = std::filesystem;

class ResumeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    at::set_num_threads(1);  // bitwise reproducibility on CPU needs one intra-op thread
    dir_ = fs::temp_directory_path() / ("oomkit_resume_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "tiny.json") << R"({"model_type":"gpt2","_name_or_path":"tiny","vocab_size":256,
      "n_positions":32,"n_embd":32,"n_layer":2,"n_head":2,"n_inner":null,"embd_pdrop":0.1,
      "attn_pdrop":0.1,"resid_pdrop":0.1,"layer_norm_epsilon":1e-05})";
    std::string text;
    for (int i = 0; i < 200; ++i) text += "the quick brown fox " + std::to_string(i * 7919 % 1000) + " jumps. ";
    std::ofstream(dir_ / "data.txt") << text;
  }
  void TearDown() override { fs::remove_all(dir_); }

  TrainOptions options(OptimizerKind optimizer) const {
    TrainOptions o;
    o.model = (dir_ / "tiny.json").string();
    o.data = (dir_ / "data.txt").string();
    o.setup.micro_batch_size = 4;
    o.setup.seq_len = 16;
    o.setup.gradient_accumulation_steps = 2;
    o.steps = 8;
    o.warmup_steps = 2;
    o.lr = 1e-2;
    o.min_lr = 1e-3;
    o.setup.optimizer = optimizer;
    o.setup.cpu_threads = 1;
    return o;
  }
  fs::path dir_;
};

std::vector<torch::Tensor> snapshot(Trainer& t) {
  std::vector<torch::Tensor> out;
  for (auto& p : t.model()->trainable_parameters()) out.push_back(p.detach().clone());
  return out;
}

// Invariant: 4 steps + save + resume + 4 steps gives exactly (bitwise) the losses and weights of
// 8 uninterrupted steps: model, optimizer moments and step counts, dropout RNG state and data
// position all travel in the checkpoint. Checked for AdamW and SGD with momentum, dropout on.
TEST_F(ResumeTest, ResumedRunIsBitwiseEqual) {
  for (OptimizerKind kind : {OptimizerKind::kAdamW, OptimizerKind::kSgdMomentum}) {
    const TrainOptions o = options(kind);
    Trainer full(o, nullptr, nullptr);
    std::vector<double> full_losses;
    while (full.next_step() < o.steps) full_losses.push_back(full.step().loss);

    const std::string ckpt = (dir_ / "half.ckpt").string();
    std::vector<double> resumed_losses;
    {
      Trainer first(o, nullptr, nullptr);
      while (first.next_step() < 4) resumed_losses.push_back(first.step().loss);
      first.save_checkpoint(ckpt);
    }
    EXPECT_FALSE(fs::exists(ckpt + ".tmp"));
    TrainOptions ro = o;
    ro.resume = ckpt;
    ro.seed = o.seed;
    Trainer second(ro, nullptr, nullptr);
    EXPECT_EQ(second.next_step(), 4);
    EXPECT_EQ(second.dataset().position(), 4);  // one draw of B·grad_accum windows per optimizer step
    EXPECT_EQ(second.first_loss(), full_losses[0]);
    while (second.next_step() < o.steps) resumed_losses.push_back(second.step().loss);

    ASSERT_EQ(resumed_losses.size(), full_losses.size());
    for (size_t i = 0; i < full_losses.size(); ++i) EXPECT_EQ(resumed_losses[i], full_losses[i]) << "step " << i;
    const auto a = snapshot(full), b = snapshot(second);
    for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(torch::equal(a[i], b[i])) << "param " << i;
  }
}

std::string resume_error(const TrainOptions& o) {
  try {
    Trainer t(o, nullptr, nullptr);
  } catch (const InputError& e) {
    return e.field() + "|" + e.what();
  }
  return "no error";
}

// Invariant: a corrupted, truncated, foreign or mismatched checkpoint is an InputError naming
// --resume, and the file is left as it was.
TEST_F(ResumeTest, BadCheckpointsAreRefused) {
  TrainOptions o = options(OptimizerKind::kAdamW);
  const std::string ckpt = (dir_ / "good.ckpt").string();
  {
    Trainer t(o, nullptr, nullptr);
    t.step();
    t.save_checkpoint(ckpt);
  }
  std::string bytes;
  {
    std::ifstream in(ckpt, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  auto write = [&](const std::string& name, const std::string& content) {
    std::ofstream(dir_ / name, std::ios::binary) << content;
    return (dir_ / name).string();
  };
  std::string flipped = bytes;
  flipped[flipped.size() / 2] ^= 0x10;
  TrainOptions r = o;
  r.resume = write("flipped.ckpt", flipped);
  EXPECT_NE(resume_error(r).find("checksum"), std::string::npos);
  r.resume = write("torn.ckpt", bytes.substr(0, bytes.size() - 100));
  EXPECT_NE(resume_error(r).find("truncated"), std::string::npos);
  r.resume = write("foreign.ckpt", "PK\x03\x04 not a checkpoint");
  EXPECT_NE(resume_error(r).find("not an oomkit checkpoint"), std::string::npos);
  r.resume = (dir_ / "missing.ckpt").string();
  EXPECT_NE(resume_error(r).find("--resume|"), std::string::npos);
  r.resume = ckpt;
  r.setup.seq_len = 8;
  EXPECT_NE(resume_error(r).find("seq_len"), std::string::npos);
  r = o;
  r.resume = ckpt;
  r.setup.optimizer = OptimizerKind::kSgd;
  EXPECT_NE(resume_error(r).find("optimizer"), std::string::npos);
  // The good file is untouched by the failed attempts.
  std::ifstream in(ckpt, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()), bytes);
}

}  // namespace
}  // namespace oomkit
