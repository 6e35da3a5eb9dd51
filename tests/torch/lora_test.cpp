// LoRA in the trainer (train/lora.h). Invariants: a fresh adapter (B = 0) leaves the forward
// unchanged; only the adapters are trainable and have the estimator's shapes and names; a step
// moves only adapters; the merged weight is W + (alpha/r) B A (checked against an explicit
// matmul, the definition in Hu et al. 2021 sec. 4.1); --save-hf writes the merged model under
// transformers' names only, and it loads back into a plain model whose forward equals the
// adapted one; bad target lists are one InputError naming --lora-targets.
#include "oomkit/train/lora.h"

#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "oomkit/core/error.h"
#include "oomkit/core/model_config.h"
#include "oomkit/estimate/parameters.h"
#include "oomkit/train/hf_weights.h"
#include "oomkit/train/model.h"

namespace oomkit {
namespace {

namespace fs = std::filesystem;

ModelConfig small(const char* name) {
  ModelConfig c = resolve_model_config(name);
  c.n_layer = 2;
  c.embd_pdrop = c.resid_pdrop = c.attn_pdrop = 0.0;
  return c;
}

void perturb_adapters(GptImpl& model) {
  torch::NoGradGuard no_grad;
  for (const auto& item : model.named_parameters()) {
    if (is_lora_parameter(item.key())) item.value().add_(torch::randn_like(item.value()) * 0.05);
  }
}

// Adapter parameters: exactly the estimator's (parameter_tensors with the same LoraConfig), by
// element count, and the only trainable tensors; B starts at zero so the output is unchanged.
TEST(Lora, FreshAdaptersMatchTheEstimatorAndChangeNothing) {
  for (const char* name : {"gpt-nano", "llama-nano"}) {
    const ModelConfig config = small(name);
    torch::manual_seed(3);
    Gpt model(config);
    model->eval();
    const torch::Tensor idx = torch::randint(0, config.vocab_size, {2, 16}, torch::kLong);
    torch::Tensor before;
    {
      torch::NoGradGuard no_grad;
      before = model->forward(idx);
    }
    LoraConfig lora;
    lora.rank = 4;
    lora.targets = config.is_gpt2() ? std::vector<std::string>{"q", "v", "o", "c_fc"}
                                    : std::vector<std::string>{"q", "k", "v", "o", "gate", "up", "down"};
    add_lora_adapters(*model, lora, torch::kFloat);
    int64_t adapter_elements = 0;
    for (const auto& item : model->named_parameters()) {
      EXPECT_EQ(item.value().requires_grad(), is_lora_parameter(item.key())) << item.key();
      if (is_lora_parameter(item.key())) adapter_elements += item.value().numel();
      if (item.key().find("lora_B") != std::string::npos) {
        EXPECT_EQ(item.value().abs().max().item<float>(), 0.0f);
      }
    }
    EXPECT_EQ(adapter_elements, count_parameters(config, lora).lora) << name;  // the estimator's LoraConfig
    EXPECT_EQ(model->num_parameters(), adapter_elements) << name;
    torch::NoGradGuard no_grad;
    EXPECT_TRUE(torch::equal(model->forward(idx), before)) << name;
  }
}

// One SGD step moves the adapters and leaves every base tensor bit-identical.
TEST(Lora, AStepTrainsOnlyTheAdapters) {
  const ModelConfig config = small("llama-nano");
  torch::manual_seed(4);
  Gpt model(config);
  LoraConfig lora;
  lora.rank = 2;
  add_lora_adapters(*model, lora, torch::kFloat);
  std::map<std::string, torch::Tensor> before;
  for (const auto& item : model->named_parameters()) before[item.key()] = item.value().clone();
  torch::optim::SGD sgd(model->trainable_parameters(), torch::optim::SGDOptions(0.1));
  const torch::Tensor idx = torch::randint(0, config.vocab_size, {2, 16}, torch::kLong);
  for (int i = 0; i < 2; ++i) {  // the first step moves only B (A's gradient is B^T g = 0)
    sgd.zero_grad();
    GptImpl::loss(model->forward(idx), idx).backward();
    sgd.step();
  }
  for (const auto& item : model->named_parameters()) {
    const bool same = torch::equal(item.value(), before[item.key()]);
    EXPECT_EQ(same, !is_lora_parameter(item.key())) << item.key();
  }
}

// merge_and_unload: W + (alpha / r) B A, per adapter; GPT-2's q/k/v adapters land in their
// rows of c_attn; --save-hf writes the merged model (no adapter names), which loads back into
// a plain model computing the adapted model's logits.
TEST(Lora, SaveHfMergesTheAdapters) {
  for (const char* name : {"gpt-nano", "llama-nano"}) {
    const ModelConfig config = small(name);
    torch::manual_seed(6);
    Gpt model(config);
    model->eval();
    LoraConfig lora;
    lora.rank = 4;
    lora.alpha = 16.0;
    lora.targets = config.is_gpt2() ? std::vector<std::string>{"k", "v", "mlp_c_proj"} : std::vector<std::string>{"q", "down"};
    add_lora_adapters(*model, lora, torch::kFloat);
    perturb_adapters(*model);
    const auto merged = lora_merged_weights(*model);
    const std::string base = config.is_gpt2() ? "transformer.h.1.attn.c_attn" : "model.layers.1.self_attn.q_proj";
    const auto params = model->named_parameters();
    ASSERT_EQ(merged.count(base + ".weight"), 1u) << name;
    auto delta = [&](const std::string& adapter) {
      return torch::matmul(params[base + adapter + ".lora_B.weight"], params[base + adapter + ".lora_A.weight"]) * (16.0 / 4.0);
    };
    torch::Tensor want = params[base + ".weight"].detach().clone();
    const int64_t d = config.n_embd;
    if (config.is_gpt2()) {
      want.narrow(0, d, d).add_(delta(".lora_k"));
      want.narrow(0, 2 * d, d).add_(delta(".lora_v"));
    } else {
      want.add_(delta(".lora"));
    }
    EXPECT_TRUE(torch::allclose(merged.at(base + ".weight"), want, 1e-6, 1e-6)) << name;

    // Per process: parallel ctest runs (other build trees) never share the folder.
    const fs::path out = fs::path(::testing::TempDir()) / (std::string("lora_save_") + name + "_" + std::to_string(::getpid()));
    fs::remove_all(out);
    save_hf_weights(*model, out.string(), "--save-hf");
    Gpt plain(load_hf_config(out.string(), "--init-from"));
    load_hf_weights(*plain, out.string(), "--init-from");  // refuses any tensor the plain model lacks
    plain->eval();
    torch::NoGradGuard no_grad;
    const torch::Tensor idx = torch::randint(0, config.vocab_size, {2, 12}, torch::kLong);
    EXPECT_TRUE(torch::allclose(plain->forward(idx), model->forward(idx), 1e-4, 1e-4)) << name;
    fs::remove_all(out);
  }
}

// The frozen base in the compute dtype: bf16 base, fp32 adapters.
TEST(Lora, BaseInTheComputeDtype) {
  Gpt model(small("gpt-nano"));
  LoraConfig lora;
  lora.rank = 2;
  add_lora_adapters(*model, lora, torch::kBFloat16);
  for (const auto& item : model->named_parameters()) {
    EXPECT_EQ(item.value().scalar_type(), is_lora_parameter(item.key()) ? torch::kFloat : torch::kBFloat16) << item.key();
  }
}

TEST(Lora, BadTargetsAreOneInputError) {
  auto field_of = [](std::vector<std::string> targets, int64_t rank = 4) {
    Gpt model(small("gpt-nano"));
    LoraConfig lora;
    lora.rank = rank;
    lora.targets = std::move(targets);
    try {
      add_lora_adapters(*model, lora, torch::kFloat);
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("none");
  };
  EXPECT_EQ(field_of({"gate"}), "--lora-targets");        // a LLaMA name on GPT-2
  EXPECT_EQ(field_of({"o", "c_proj"}), "--lora-targets"); // one module twice
  EXPECT_EQ(field_of({"c_attn", "q"}), "--lora-targets"); // the fused module and its slice
  EXPECT_EQ(field_of({}), "--lora-targets");
  EXPECT_EQ(field_of({"q"}, 100000), "--lora-rank");
  EXPECT_EQ(field_of({"q"}), "none");
}

}  // namespace
}  // namespace oomkit
