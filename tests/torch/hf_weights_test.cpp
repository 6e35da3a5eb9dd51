// Hugging Face GPT-2 weights in and out (include/oomkit/train/hf_weights.h), against synthetic
// snapshots written by tests/data/hf/gpt2_snapshot.py (Python struct + json + math only): its
// names and shapes come from transformers' modeling_gpt2.py, and its GPT-2 forward (float64,
// Conv1D x @ W + b) is an independent computation of the logits the loaded module must give.
#include "oomkit/train/hf_weights.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/safetensors.h"

namespace oomkit {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kScript = std::string(OOMKIT_SOURCE_DIR) + "/tests/data/hf/gpt2_snapshot.py";

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(OOMKIT_BINARY_DIR) / "test-data" / ("hf-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  return dir;
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs gpt2_snapshot.py make into a fresh folder.
fs::path make_snapshot(const std::string& layout, const std::string& dtype, int seed, int vocab = 48) {
  const fs::path dir = scratch(layout + "-" + dtype + "-" + std::to_string(seed));
  const std::string cmd = "python3 '" + kScript + "' make '" + dir.string() + "' --layout " + layout + " --dtype " + dtype +
                          " --seed " + std::to_string(seed) + " --vocab " + std::to_string(vocab);
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return dir;
}

// Loads a snapshot as --init-from does: its config, then its weights into a fresh module.
Gpt load(const fs::path& dir, HfLoadReport* report = nullptr) {
  const ModelConfig config = load_hf_config(dir.string(), "--init-from");
  torch::manual_seed(99);  // a random init the snapshot must overwrite entirely
  Gpt model(config);
  const HfLoadReport r = load_hf_weights(*model, dir.string(), "--init-from");
  if (report) *report = r;
  model->eval();
  return model;
}

// Max |oomkit logits - reference logits| for the snapshot's reference tokens.
double max_logit_error(Gpt& model, const fs::path& dir) {
  const json ref = json::parse(read_all(dir / "reference.json"));
  const auto tokens = ref["tokens"].get<std::vector<int64_t>>();
  const torch::Tensor idx = torch::tensor(tokens, torch::kLong).unsqueeze(0);  // (1, T)
  torch::NoGradGuard no_grad;
  const torch::Tensor logits = model->forward(idx).squeeze(0).to(torch::kFloat64);  // (T, V)
  const auto want_rows = ref["logits"].get<std::vector<std::vector<double>>>();
  EXPECT_EQ(static_cast<size_t>(logits.size(0)), want_rows.size());
  std::vector<double> flat;
  for (const auto& r : want_rows) flat.insert(flat.end(), r.begin(), r.end());
  const torch::Tensor want = torch::tensor(flat, torch::kFloat64).view({logits.size(0), logits.size(1)});
  EXPECT_GT(want.abs().max().item<double>(), 0.5);  // the reference is not trivially small
  return (logits - want).abs().max().item<double>();
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

// The hub's gpt2 layout (GPT2Model names, no prefix, attention buffers bias/masked_bias in the
// file), GPT2LMHeadModel's (prefix, tied lm_head present) and a two-shard BF16 checkpoint all
// load into a module whose logits match the independent float64 forward of the same weights
// (fp32 compute: within 1e-4 on logits of magnitude ~1-5).
TEST(HfWeights, LoadedGpt2MatchesTheIndependentForward) {
  struct Case {
    const char* layout;
    const char* dtype;
    bool prefixed, lm_head;
    int64_t buffers, files;
  };
  for (const Case& c : {Case{"bare", "F32", false, false, 4, 1}, Case{"prefixed", "F16", true, true, 0, 1},
                        Case{"sharded", "BF16", true, true, 0, 2}}) {
    SCOPED_TRACE(c.layout);
    const fs::path dir = make_snapshot(c.layout, c.dtype, 7);
    HfLoadReport report;
    Gpt model = load(dir, &report);
    EXPECT_EQ(report.num_tensors, 2 + 12 * 2 + 2);  // wte, wpe, 12 per block (L=2), ln_f
    EXPECT_EQ(report.prefixed, c.prefixed);
    EXPECT_EQ(report.lm_head_present, c.lm_head);
    EXPECT_EQ(report.num_buffers_ignored, c.buffers);
    EXPECT_EQ(report.num_files, c.files);
    EXPECT_EQ(model->config().d_ff, 40);  // n_inner from config.json
    EXPECT_LT(max_logit_error(model, dir), 1e-4);
  }
}

// Conv1D weights are transposed on the way in: a snapshot that stores c_fc in nn.Linear's
// (out, in) layout is refused by shape; so are a missing weight, an unknown name and an untied
// lm_head. None of these is a crash or a silently wrong model.
TEST(HfWeights, LayoutErrorsAreOneInputError) {
  EXPECT_NE(error_of([&] { load(make_snapshot("linear_layout", "F32", 1)); })
                .find("h.0.mlp.c_fc.weight: shape [40, 16], but config.json gives [16, 40]"),
            std::string::npos);
  EXPECT_NE(error_of([&] { load(make_snapshot("missing", "F32", 1)); }).find("missing from the checkpoint: transformer.ln_f.bias"),
            std::string::npos);
  EXPECT_NE(error_of([&] { load(make_snapshot("extra", "F32", 1)); }).find("crossattention.q_attn.weight"), std::string::npos);
  EXPECT_NE(error_of([&] { load(make_snapshot("untied", "F32", 1)); }).find("lm_head.weight differs from transformer.wte.weight"),
            std::string::npos);
  const fs::path no_config = scratch("no-config");
  fs::create_directories(no_config);
  EXPECT_NE(error_of([&] { load_hf_config(no_config.string(), "--init-from"); }).find("has no config.json"), std::string::npos);
  // A config whose activation oomkit does not compute is refused by key.
  const fs::path relu = make_snapshot("prefixed", "F32", 2);
  json cfg = json::parse(read_all(relu / "config.json"));
  cfg["activation_function"] = "relu";
  std::ofstream(relu / "config.json") << cfg.dump();
  EXPECT_NE(error_of([&] { load_hf_config(relu.string(), "--init-from"); }).find("activation_function"), std::string::npos);
}

// Written by oomkit, read by oomkit: every parameter bit-exact, the logits identical; and the
// folder holds exactly GPT2LMHeadModel's state-dict names and shapes, format "pt" metadata and
// a gpt2 config.json, as the independent checker (gpt2_snapshot.py check) reads them.
TEST(HfWeights, SavedGpt2LoadsBackBitExactWithTransformersNames) {
  ModelConfig config = resolve_model_config("gpt-nano");
  config.n_layer = 2;
  torch::manual_seed(5);
  Gpt trained(config);
  {  // weights no init would give: every tensor distinct and non-zero
    torch::NoGradGuard no_grad;
    for (auto& p : trained->parameters()) p.add_(torch::randn_like(p) * 0.1);
  }
  const fs::path out = scratch("saved");
  const int64_t bytes = save_hf_weights(*trained, out.string(), "--save-hf");
  EXPECT_EQ(bytes, static_cast<int64_t>(fs::file_size(out / "model.safetensors")));
  EXPECT_GT(bytes, trained->num_parameters() * 4);  // fp32 data plus the header

  const std::string check = "python3 '" + kScript + "' check '" + out.string() + "'";
  EXPECT_EQ(std::system(check.c_str()), 0) << check;

  const SafetensorsFile file = SafetensorsFile::read((out / "model.safetensors").string(), "x");
  EXPECT_EQ(file.header().metadata.at("format"), "pt");
  const auto want = hf_gpt2_state_dict_shapes(config);
  ASSERT_EQ(file.header().tensors.size(), want.size());
  for (const auto& [name, shape] : want) {
    const SafetensorsTensorInfo* info = file.header().find(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_EQ(info->shape, shape) << name;
    EXPECT_EQ(info->dtype, SafetensorsDtype::kF32) << name;
  }
  // c_attn is stored (in, out) = (d, 3d): its stored row 0 is the Linear weight's column 0.
  const SafetensorsTensorInfo* c_attn = file.header().find("transformer.h.0.attn.c_attn.weight");
  const torch::Tensor stored = safetensors_to_tensor(*c_attn, file.data(*c_attn), "x");
  EXPECT_TRUE(torch::equal(stored, trained->transformer->h->ptr<BlockImpl>(0)->attn->c_attn->weight.t()));

  HfLoadReport report;
  Gpt back = load(out, &report);
  EXPECT_TRUE(report.prefixed);
  EXPECT_FALSE(report.lm_head_present);
  const auto a = trained->named_parameters(), b = back->named_parameters();
  ASSERT_EQ(a.size(), b.size());
  for (const auto& item : a) {
    EXPECT_TRUE(torch::equal(item.value(), b[item.key()])) << item.key();
  }
  trained->eval();
  torch::NoGradGuard no_grad;
  const torch::Tensor idx = torch::randint(0, config.vocab_size, {2, 9}, torch::kLong);
  EXPECT_TRUE(torch::equal(trained->forward(idx), back->forward(idx)));
}

// `oomkit train --init-from DIR --save-hf OUT` end to end: the run starts from the snapshot's
// config and weights (trained away from them, here), writes OUT in
// the layout the checker accepts, and OUT loads back; bad combinations exit 2 naming the flag.
TEST(HfWeights, TrainCliInitFromAndSaveHf) {
  const fs::path snap = make_snapshot("bare", "F32", 11, 256);  // V = 256: the byte corpus fits
  const fs::path out = scratch("cli-out"), run = scratch("cli-run"), err = scratch("cli-err");
  fs::create_directories(err);
  auto oomkit = [&](const std::string& args, std::string* stderr_text) {
    const std::string cmd = std::string(OOMKIT_EXE) + " -q train " + args + " > /dev/null 2> '" + (err / "e").string() + "'";
    const int status = std::system(cmd.c_str());
    *stderr_text = read_all(err / "e");
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  std::string text;
  const std::string common = " --steps 2 -b 2 -t 16 --eval-batches 1 --no-profile --run-dir '" + run.string() + "'";
  ASSERT_EQ(oomkit("--init-from '" + snap.string() + "' --save-hf '" + out.string() + "' --json" + common, &text), 0) << text;
  const std::string check = "python3 '" + kScript + "' check '" + out.string() + "' > /dev/null";
  EXPECT_EQ(std::system(check.c_str()), 0);
  Gpt trained = load(out);
  EXPECT_EQ(trained->config().n_embd, 16);
  EXPECT_EQ(trained->config().vocab_size, 256);
  Gpt initial = load(snap);
  EXPECT_FALSE(torch::equal(trained->transformer->wte->weight, initial->transformer->wte->weight));  // it trained

  EXPECT_EQ(oomkit("--init-from '" + (snap / "nope").string() + "'" + common, &text), 2);
  EXPECT_NE(text.find("error: --init-from"), std::string::npos) << text;
  EXPECT_EQ(oomkit("--model gpt-nano --init-from '" + snap.string() + "'" + common, &text), 2);
  EXPECT_NE(text.find("drop --model"), std::string::npos) << text;
  const fs::path blocker = scratch("blocker");
  fs::create_directories(blocker.parent_path());
  std::ofstream(blocker.string()) << "a file, not a folder";
  EXPECT_EQ(oomkit("--save-hf '" + blocker.string() + "'" + common, &text), 2);
  EXPECT_NE(text.find("error: --save-hf"), std::string::npos) << text;
}

// LLaMA (LlamaForCausalLM names: GQA with h_kv = h/2, untied and tied heads, a checkpoint with
// the rotary_emb.inv_freq buffers older transformers saved) loads into a module whose logits
// match tests/data/hf/llama_snapshot.py's independent float64 forward (RMSNorm, rotate_half
// RoPE, SwiGLU); written back it has exactly LlamaForCausalLM's names and shapes and reloads
// bit-exact. Skipped (reported by ctest) while the trainer builds GPT-2 only; passed against the
// LLaMA module of branch s3llama at d001ded.
TEST(HfWeights, LlamaMatchesTheIndependentForwardAndSavesBack) {
  const std::string script = std::string(OOMKIT_SOURCE_DIR) + "/tests/data/hf/llama_snapshot.py";
  for (const bool tied : {false, true}) {
    SCOPED_TRACE(tied ? "tied" : "untied");
    const fs::path dir = scratch(std::string("llama-") + (tied ? "tied" : "untied"));
    const std::string make = "python3 '" + script + "' make '" + dir.string() + "' --seed 3 --tied " + (tied ? "1" : "0") +
                             " --inv-freq " + (tied ? "0" : "1");
    ASSERT_EQ(std::system(make.c_str()), 0) << make;
    try {
      Gpt probe(load_hf_config(dir.string(), "--init-from"));
    } catch (const InputError& e) {  // until the trainer's LLaMA module lands on this branch
      GTEST_SKIP() << "the trainer does not build LLaMA here: " << e.what();
    }
    HfLoadReport report;
    Gpt model = load(dir, &report);
    ASSERT_FALSE(model->config().is_gpt2());
    EXPECT_EQ(model->config().n_kv_head, 2);
    EXPECT_EQ(report.num_tensors, 1 + 9 * 2 + 1 + (tied ? 0 : 1));  // embed, 9 per layer (L=2), norm, lm_head
    EXPECT_EQ(report.num_buffers_ignored, tied ? 0 : 2);
    EXPECT_LT(max_logit_error(model, dir), 1e-4);

    const fs::path out = scratch(std::string("llama-saved-") + (tied ? "tied" : "untied"));
    save_hf_weights(*model, out.string(), "--save-hf");
    const std::string check = "python3 '" + script + "' check '" + out.string() + "'";
    EXPECT_EQ(std::system(check.c_str()), 0) << check;
    Gpt back = load(out);
    const auto a = model->named_parameters(), b = back->named_parameters();
    ASSERT_EQ(a.size(), b.size());
    for (const auto& item : a) EXPECT_TRUE(torch::equal(item.value(), b[item.key()])) << item.key();
  }
}

// Removes this process's scratch folders.
class ScratchCleanup : public ::testing::Environment {
 public:
  void TearDown() override { fs::remove_all(fs::path(OOMKIT_BINARY_DIR) / "test-data" / ("hf-" + std::to_string(::getpid()))); }
};
const auto* const kCleanup = ::testing::AddGlobalTestEnvironment(new ScratchCleanup);

}  // namespace
}  // namespace oomkit
