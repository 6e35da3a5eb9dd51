#include <gtest/gtest.h>

#include "oomkit/core/error.h"
#include "oomkit/core/model_config.h"

using namespace oomkit;

static const std::string kModels = std::string(OOMKIT_SOURCE_DIR) + "/models/";

// The shipped configs parse into the published architecture numbers (HF config.json values).
TEST(ModelConfig, ShippedConfigsParse) {
  const ModelConfig gpt2 = load_model_config(kModels + "gpt2.json");
  EXPECT_TRUE(gpt2.is_gpt2());
  EXPECT_EQ(gpt2.n_embd, 768);
  EXPECT_EQ(gpt2.d_ff, 3072);  // n_inner null -> 4d
  EXPECT_EQ(gpt2.vocab_size, 50257);
  const ModelConfig l70 = load_model_config(kModels + "llama-2-70b.json");
  EXPECT_FALSE(l70.is_gpt2());
  EXPECT_EQ(l70.n_kv_head, 8);
  EXPECT_EQ(l70.d_ff, 28672);
  EXPECT_FALSE(l70.tie_word_embeddings);
  const ModelConfig micro = resolve_model_config("gpt-micro");
  EXPECT_EQ(micro.n_layer, 6);
  EXPECT_EQ(micro.n_embd, 384);
  EXPECT_EQ(micro.n_positions, 256);
}

// Serialising and parsing again gives the same config.
TEST(ModelConfig, JsonRoundTrip) {
  for (const char* name : {"gpt2-xl", "llama-3-8b", "mistral-7b"}) {
    const ModelConfig a = load_model_config(kModels + name + ".json");
    const ModelConfig b = parse_model_config(model_config_to_json(a), "roundtrip");
    EXPECT_EQ(a.n_embd, b.n_embd);
    EXPECT_EQ(a.n_layer, b.n_layer);
    EXPECT_EQ(a.n_kv_head, b.n_kv_head);
    EXPECT_EQ(a.d_ff, b.d_ff);
    EXPECT_EQ(a.vocab_size, b.vocab_size);
    EXPECT_EQ(a.tie_word_embeddings, b.tie_word_embeddings);
    EXPECT_EQ(a.architecture, b.architecture);
  }
}

static std::string error_of(const std::string& text) {
  try {
    parse_model_config(text, "cfg.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Each kind of bad config is one InputError naming the file and the key.
TEST(ModelConfig, BadInputNamesTheField) {
  EXPECT_NE(error_of("{ not json").find("malformed JSON"), std::string::npos);
  EXPECT_NE(error_of(R"({"n_embd": 768, "n_layer": 12, "vocab_size": 5})").find("n_head"), std::string::npos);
  EXPECT_NE(error_of(R"({"n_embd": 768, "n_layer": 12, "n_head": 7, "vocab_size": 5})").find("does not divide"), std::string::npos);
  EXPECT_NE(error_of(R"({"n_embd": 0, "n_layer": 12, "n_head": 1, "vocab_size": 5})").find("n_embd: must be positive"), std::string::npos);
  EXPECT_NE(error_of(R"({"n_embd": -5, "n_layer": -1, "n_head": 1, "vocab_size": 5})").find("n_layer"), std::string::npos);
  EXPECT_NE(error_of(R"({"n_embd": 1e15, "n_layer": 1, "n_head": 1, "vocab_size": 5})").find("too large"), std::string::npos);
  EXPECT_NE(error_of(R"({"n_embd": "big", "n_layer": 1, "n_head": 1, "vocab_size": 5})").find("must be an integer"), std::string::npos);
  EXPECT_NE(error_of(R"({"hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4, "num_key_value_heads": 3, "vocab_size": 5, "intermediate_size": 8})").find("n_kv_head"), std::string::npos);
  EXPECT_NE(error_of("[]").find("JSON object"), std::string::npos);
  EXPECT_THROW(load_model_config("/nonexistent/config.json"), InputError);
}

// LLaMA RoPE keys (Hugging Face LlamaConfig): rope_theta, rope_scaling (rope_type or the older
// `type`; llama3's four keys as Llama-3.1-8B's config.json has them), Mistral's sliding_window;
// they round-trip through model_config_to_json; malformed ones name rope_scaling.
TEST(ModelConfig, LlamaRopeKeys) {
  const std::string base =
      R"({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 100, "intermediate_size": 96, "max_position_embeddings": 131072, "rope_theta": 500000.0)";
  const ModelConfig c = parse_model_config(
      base + R"(, "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192, "rope_type": "llama3"}})",
      "llama31.json");
  EXPECT_DOUBLE_EQ(c.rope_theta, 500000.0);
  EXPECT_EQ(c.rope_scaling.type, "llama3");
  EXPECT_DOUBLE_EQ(c.rope_scaling.factor, 8.0);
  EXPECT_DOUBLE_EQ(c.rope_scaling.high_freq_factor, 4.0);
  EXPECT_EQ(c.rope_scaling.original_max_position_embeddings, 8192);
  EXPECT_EQ(c.sliding_window, 0);
  const ModelConfig back = parse_model_config(model_config_to_json(c), "back.json");
  EXPECT_EQ(back.rope_scaling.type, "llama3");
  EXPECT_EQ(back.rope_scaling.original_max_position_embeddings, 8192);
  EXPECT_DOUBLE_EQ(back.rope_theta, 500000.0);
  const ModelConfig linear = parse_model_config(base + R"(, "rope_scaling": {"type": "linear", "factor": 2.0}, "sliding_window": 4096})", "l.json");
  EXPECT_EQ(linear.rope_scaling.type, "linear");
  EXPECT_EQ(linear.sliding_window, 4096);
  EXPECT_EQ(parse_model_config(base + R"(, "rope_scaling": null})", "n.json").rope_scaling.type, "");
  EXPECT_NE(error_of(base + R"(, "rope_scaling": 3})").find("rope_scaling"), std::string::npos);
  EXPECT_NE(error_of(base + R"(, "rope_scaling": {"rope_type": "llama3", "factor": 8.0}})").find("low_freq_factor"), std::string::npos);
  EXPECT_NE(error_of(base + R"(, "rope_scaling": {"rope_type": "linear", "factor": 0.5}})").find("rope_scaling"), std::string::npos);
  EXPECT_NE(error_of(base + R"(, "rope_theta": 0})").find("rope_theta"), std::string::npos);
}
