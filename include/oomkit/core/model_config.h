// Transformer model configuration, read from a Hugging Face `config.json`.
//
// Letters used throughout oomkit (defined once here, as llm.c does):
//   B  micro-batch size            T  sequence length          d  hidden size (n_embd)
//   L  number of layers            h  attention heads          h_kv key/value heads (GQA)
//   d_ff  MLP inner size           V  vocabulary size          d_h = d / h  head size
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace oomkit {

/// The two families oomkit models exactly.
///  - kGpt2: learned position embeddings, LayerNorm with bias, biased Linear layers, GELU MLP
///    (d -> d_ff -> d), fused c_attn (d -> 3d), tied lm_head (Radford et al. 2019).
///  - kLlama: rotary positions (no parameters), RMSNorm (weight only), bias-free Linear layers,
///    SwiGLU MLP (gate, up: d -> d_ff; down: d_ff -> d), grouped-query attention with h_kv
///    key/value heads, lm_head untied unless tie_word_embeddings (Touvron et al. 2023).
///    Mistral uses the same parameter layout.
enum class Architecture { kGpt2, kLlama };

/// A config's `rope_scaling` object (Hugging Face modeling_rope_utils.py). `type` is its
/// `rope_type` (or the older `type` key): "" when the config has none, "linear" (positions
/// divided by `factor`), "llama3" (Llama-3.1: frequencies with wavelength above
/// original_max_position_embeddings / low_freq_factor divided by `factor`, below
/// .../high_freq_factor kept, smoothly interpolated between). Other types ("dynamic", "yarn",
/// ...) are read for the estimator (which does not depend on them) and refused by the trainer.
struct RopeScaling {
  std::string type;                               // "", "linear", "llama3", or another HF rope_type
  double factor = 1.0;                            // e.g. 8.0 (Llama-3.1)
  double low_freq_factor = 1.0;                   // llama3: e.g. 1.0
  double high_freq_factor = 4.0;                  // llama3: e.g. 4.0
  int64_t original_max_position_embeddings = 0;   // llama3: e.g. 8192
};

/// Plain aggregate; every field has a unit-free count or a probability. Defaults are GPT-2 small.
struct ModelConfig {
  std::string name = "gpt2";               // file stem or "_name_or_path", for display
  Architecture architecture = Architecture::kGpt2;
  int64_t vocab_size = 50257;              // V, e.g. 50257 (gpt2), 32000 (llama-2)
  int64_t n_embd = 768;                    // d
  int64_t n_layer = 12;                    // L
  int64_t n_head = 12;                     // h
  int64_t n_kv_head = 12;                  // h_kv; equals h without GQA
  int64_t d_ff = 3072;                     // MLP inner size; gpt2 `n_inner` (null -> 4d)
  int64_t n_positions = 1024;              // maximum T the model accepts
  bool tie_word_embeddings = true;         // lm_head shares wte's storage
  double embd_pdrop = 0.0;                 // dropout after the embedding sum
  double attn_pdrop = 0.0;                 // dropout on attention probabilities (B, h, T, T)
  double resid_pdrop = 0.0;                // dropout on each residual branch output
  double norm_eps = 1e-5;                  // layer_norm_epsilon / rms_norm_eps
  // LLaMA family only (rotary position embeddings, Su et al. 2021; Hugging Face's
  // modeling_rope_utils.py). Ignored for gpt2.
  double rope_theta = 10000.0;             // RoPE base: 10000 (llama-2), 500000 (llama-3)
  RopeScaling rope_scaling;                // `rope_scaling`; type "" when absent (null)
  int64_t sliding_window = 0;              // Mistral `sliding_window`; 0: none (full causal attention)

  int64_t head_dim() const { return n_embd / n_head; }  // d_h
  bool is_gpt2() const { return architecture == Architecture::kGpt2; }

  /// Every problem with the config, each "field: message" (e.g. "n_head: 7 does not divide
  /// n_embd 768"). Empty when valid. Checks positivity, divisibility (d % h, h % h_kv),
  /// probabilities in [0, 1), and an upper bound of 2^31 on each size so that byte counts
  /// built from them cannot overflow int64 silently.
  std::vector<std::string> problems() const;

  /// Throws InputError(source, all problems joined by "; ") when problems() is non-empty.
  void validate(const std::string& source = "model") const;
};

/// Parses a Hugging Face config.json text. gpt2 keys: n_embd, n_layer, n_head, n_positions,
/// vocab_size, n_inner, layer_norm_epsilon, *_pdrop. llama/mistral keys: hidden_size,
/// num_hidden_layers, num_attention_heads, num_key_value_heads, intermediate_size, vocab_size,
/// max_position_embeddings, tie_word_embeddings, rms_norm_eps, attention_dropout.
/// The family comes from `model_type` when present, else from which keys exist.
/// Throws InputError naming `source` and the key for malformed JSON, missing keys, wrong types
/// and invalid values (validate()).
ModelConfig parse_model_config(const std::string& json_text, const std::string& source);

/// Reads and parses a config.json file. Throws InputError if it cannot be read.
ModelConfig load_model_config(const std::string& path);

/// Serialises to Hugging Face keys of the config's family (parse_model_config round-trips it).
std::string model_config_to_json(const ModelConfig& config);

/// Looks `name_or_path` up: an existing file path, else `<models_dir>/<name>.json`. Lets
/// `--model gpt2` work as well as `--model models/gpt2.json`.
ModelConfig resolve_model_config(const std::string& name_or_path);

/// The folder holding the shipped configs: $OOMKIT_MODELS_DIR, else
/// <folder of the running executable>/../share/oomkit/models (an installed oomkit; the relative
/// path is CMake's, from GNUInstallDirs), else the source tree's models/ (compiled in: the build
/// tree), else ./models. Never throws.
std::string models_dir();

}  // namespace oomkit
