#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "oomkit/core/error.h"
#include "oomkit/core/hf_cache.h"
#include "oomkit/core/model_config.h"
#include "oomkit/core/model_lookup.h"

using namespace oomkit;
namespace fs = std::filesystem;

namespace {

// A synthetic Hugging Face hub cache in a fresh temporary folder, laid out as huggingface_hub
// writes it (models--ORG--NAME/{refs/main,snapshots/<hash>/config.json}). Each config carries a
// distinct n_layer so a test can tell which snapshot was read. Environment variables are per
// process and ctest runs every TEST in its own process (gtest_discover_tests).
class HfCache : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    root_ = fs::temp_directory_path() / ("oomkit_hf_cache_" + std::to_string(rd()));
    fs::create_directories(root_);
    hub_ = root_ / "hub";
    for (const char* v : {"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME"}) unsetenv(v);
    setenv("HF_HUB_CACHE", hub_.c_str(), 1);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  static std::string gpt2_config(int n_layer) {
    return R"({"model_type": "gpt2", "n_embd": 64, "n_head": 4, "n_positions": 128, "vocab_size": 256, "n_layer": )" +
           std::to_string(n_layer) + "}";
  }
  // Adds snapshot `hash` of `folder` (models--...) holding a config with n_layer; `main`: refs/main names it.
  fs::path add_snapshot(const std::string& folder, const std::string& hash, int n_layer, bool main) {
    const fs::path repo = hub_ / folder;
    fs::create_directories(repo / "snapshots" / hash);
    std::ofstream(repo / "snapshots" / hash / "config.json") << gpt2_config(n_layer);
    if (main) {
      fs::create_directories(repo / "refs");
      std::ofstream(repo / "refs" / "main") << hash;  // huggingface_hub writes it without a newline
    }
    return repo / "snapshots" / hash;
  }
  fs::path root_;
  fs::path hub_;
};

}  // namespace

// huggingface_hub's documented order: HF_HUB_CACHE, HF_HOME/hub, XDG_CACHE_HOME/huggingface/hub,
// ~/.cache/huggingface/hub.
TEST_F(HfCache, CacheFolderFollowsHuggingFaceHubRules) {
  EXPECT_EQ(hf_hub_cache_dir(), hub_.string());
  unsetenv("HF_HUB_CACHE");
  setenv("HF_HOME", "/x/hf", 1);
  setenv("XDG_CACHE_HOME", "/x/xdg", 1);
  EXPECT_EQ(hf_hub_cache_dir(), "/x/hf/hub");
  unsetenv("HF_HOME");
  EXPECT_EQ(hf_hub_cache_dir(), "/x/xdg/huggingface/hub");
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/x/home", 1);
  EXPECT_EQ(hf_hub_cache_dir(), "/x/home/.cache/huggingface/hub");
  setenv("HF_HUB_CACHE", "", 1);  // empty counts as unset
  EXPECT_EQ(hf_hub_cache_dir(), "/x/home/.cache/huggingface/hub");
}

// --model ORG/NAME reads the snapshot refs/main points to, not another one (the other snapshot
// sorts first and is newer on disk); names compare case-insensitively; the model is named NAME.
TEST_F(HfCache, OrgNameResolvesToRefsMain) {
  add_snapshot("models--Acme--Tiny-GPT", "fff0", 3, false);
  add_snapshot("models--Acme--Tiny-GPT", "0aaa", 5, true);
  add_snapshot("models--Acme--Tiny-GPT", "00ff", 4, false);
  const ModelConfig c = resolve_model_config("Acme/Tiny-GPT");
  EXPECT_EQ(c.n_layer, 5);
  EXPECT_EQ(c.name, "Tiny-GPT");
  EXPECT_EQ(resolve_model_config("acme/tiny-gpt").n_layer, 5);
  EXPECT_EQ(resolve_model_config("tiny-gpt").n_layer, 5);  // NAME alone: one repository has it
}

// Without refs/main: the only snapshot with a config.json; several -> an error naming them;
// none -> an error.
TEST_F(HfCache, SnapshotChoiceWithoutRefsMain) {
  add_snapshot("models--acme--one", "1111", 2, false);
  fs::create_directories(hub_ / "models--acme--one" / "snapshots" / "2222");  // no config.json
  EXPECT_EQ(resolve_model_config("acme/one").n_layer, 2);
  add_snapshot("models--acme--two", "1111", 2, false);
  add_snapshot("models--acme--two", "2222", 3, false);
  try {
    resolve_model_config("acme/two");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no refs/main"), std::string::npos) << e.what();
    EXPECT_NE(e.hint().find("1111"), std::string::npos) << e.hint();
    EXPECT_NE(e.hint().find("2222"), std::string::npos) << e.hint();
  }
  fs::create_directories(hub_ / "models--acme--none" / "snapshots" / "1111");
  EXPECT_THROW(resolve_model_config("acme/none"), InputError);
  // refs/main naming a snapshot that is not there
  fs::create_directories(hub_ / "models--acme--gone" / "refs");
  std::ofstream(hub_ / "models--acme--gone" / "refs" / "main") << "dead";
  add_snapshot("models--acme--gone", "beef", 2, false);
  EXPECT_THROW(resolve_model_config("acme/gone"), InputError);
}

// NAME alone matching two organisations' repositories is refused, the hint giving both ORG/NAME.
TEST_F(HfCache, AmbiguousNameIsRefused) {
  add_snapshot("models--a--tiny", "1", 2, true);
  add_snapshot("models--b--tiny", "2", 3, true);
  try {
    resolve_model_config("Tiny");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--model");
    EXPECT_NE(e.hint().find("a/tiny or b/tiny"), std::string::npos) << e.hint();
  }
  EXPECT_EQ(resolve_model_config("B/Tiny").n_layer, 3);
}

// --model DIR: a snapshot folder (named after its repository, not the commit hash), a plain
// folder holding config.json (named after the folder), a cached repository folder.
TEST_F(HfCache, FolderHoldingConfigJson) {
  const fs::path snap = add_snapshot("models--Acme--Tiny-GPT", "abc123", 6, true);
  ModelConfig c = resolve_model_config(snap.string());
  EXPECT_EQ(c.n_layer, 6);
  EXPECT_EQ(c.name, "Tiny-GPT");
  c = resolve_model_config((hub_ / "models--Acme--Tiny-GPT").string());
  EXPECT_EQ(c.n_layer, 6);
  const fs::path plain = root_ / "my-model";
  fs::create_directories(plain);
  std::ofstream(plain / "config.json") << gpt2_config(7);
  c = resolve_model_config(plain.string() + "/");
  EXPECT_EQ(c.n_layer, 7);
  EXPECT_EQ(c.name, "my-model");
  fs::create_directories(root_ / "empty");
  EXPECT_THROW(resolve_model_config((root_ / "empty").string()), InputError);
}

// Shipped names are case-insensitive and win over a cached repository of the same name; an
// unknown name is refused with the nearest shipped or cached names as the hint.
TEST_F(HfCache, ShippedNamesAndSuggestions) {
  add_snapshot("models--gpt2", "1", 2, true);
  const ModelConfig c = resolve_model_config("GPT2");
  EXPECT_EQ(c.n_layer, 12);  // models/gpt2.json, not the cached 2-layer one
  EXPECT_EQ(c.name, "gpt2");
  EXPECT_EQ(resolve_model_config("Llama-2-7B").n_layer, 32);
  auto hint_of = [](const std::string& name) {
    try {
      resolve_model_config(name);
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "--model");
      return e.hint();
    }
    return std::string("(no error)");
  };
  EXPECT_NE(hint_of("llama2-7b").find("did you mean llama-2-7b"), std::string::npos) << hint_of("llama2-7b");
  add_snapshot("models--Acme--Tiny-GPT", "1", 2, true);
  EXPECT_NE(hint_of("acme/tiny-gtp").find("Acme/Tiny-GPT"), std::string::npos) << hint_of("acme/tiny-gtp");
  EXPECT_NE(hint_of("zzzz-unrelated").find(hub_.string()), std::string::npos) << hint_of("zzzz-unrelated");
}
