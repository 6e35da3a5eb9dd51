#include "oomkit/core/model_config.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"

#ifndef OOMKIT_MODELS_DIR
#define OOMKIT_MODELS_DIR "models"
#endif

namespace oomkit {
namespace {

using nlohmann::json;

constexpr int64_t kMaxDim = int64_t{1} << 31;

int64_t get_int(const json& j, const char* key, const std::string& source) {
  if (!j.contains(key)) throw InputError(source, std::string("missing key '") + key + "'");
  const json& v = j.at(key);
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d == static_cast<double>(static_cast<int64_t>(d))) return static_cast<int64_t>(d);
  }
  throw InputError(source, std::string("key '") + key + "' must be an integer, got " + v.dump());
}

int64_t get_int_or(const json& j, const char* key, int64_t fallback, const std::string& source) {
  if (!j.contains(key) || j.at(key).is_null()) return fallback;
  return get_int(j, key, source);
}

double get_double_or(const json& j, const char* key, double fallback, const std::string& source) {
  if (!j.contains(key) || j.at(key).is_null()) return fallback;
  const json& v = j.at(key);
  if (!v.is_number()) throw InputError(source, std::string("key '") + key + "' must be a number, got " + v.dump());
  return v.get<double>();
}

bool get_bool_or(const json& j, const char* key, bool fallback, const std::string& source) {
  if (!j.contains(key) || j.at(key).is_null()) return fallback;
  const json& v = j.at(key);
  if (!v.is_boolean()) throw InputError(source, std::string("key '") + key + "' must be true or false, got " + v.dump());
  return v.get<bool>();
}

}  // namespace

std::vector<std::string> ModelConfig::problems() const {
  std::vector<std::string> out;
  auto positive = [&](const char* field, int64_t v) {
    if (v <= 0) out.push_back(std::string(field) + ": must be positive, got " + std::to_string(v));
    else if (v > kMaxDim) out.push_back(std::string(field) + ": " + std::to_string(v) + " is too large (limit 2^31)");
  };
  positive("vocab_size", vocab_size);
  positive("n_embd", n_embd);
  positive("n_layer", n_layer);
  positive("n_head", n_head);
  positive("n_kv_head", n_kv_head);
  positive("d_ff", d_ff);
  positive("n_positions", n_positions);
  if (n_embd > 0 && n_head > 0 && n_embd % n_head != 0) {
    out.push_back("n_head: " + std::to_string(n_head) + " does not divide n_embd " + std::to_string(n_embd));
  }
  if (n_head > 0 && n_kv_head > 0 && n_head % n_kv_head != 0) {
    out.push_back("n_kv_head: " + std::to_string(n_kv_head) + " does not divide n_head " + std::to_string(n_head));
  }
  if (architecture == Architecture::kGpt2 && n_kv_head != n_head) {
    out.push_back("n_kv_head: gpt2 has no grouped-query attention (must equal n_head)");
  }
  auto probability = [&](const char* field, double p) {
    if (!(p >= 0.0 && p < 1.0)) out.push_back(std::string(field) + ": must be in [0, 1), got " + std::to_string(p));
  };
  probability("embd_pdrop", embd_pdrop);
  probability("attn_pdrop", attn_pdrop);
  probability("resid_pdrop", resid_pdrop);
  if (!(norm_eps > 0.0)) out.push_back("norm_eps: must be positive");
  return out;
}

void ModelConfig::validate(const std::string& source) const {
  const auto list = problems();
  if (list.empty()) return;
  std::string joined;
  for (const auto& p : list) joined += (joined.empty() ? "" : "; ") + p;
  throw InputError(source, joined);
}

ModelConfig parse_model_config(const std::string& json_text, const std::string& source) {
  json j;
  try {
    j = json::parse(json_text);
  } catch (const json::parse_error& e) {
    throw InputError(source, std::string("malformed JSON: ") + e.what());
  }
  if (!j.is_object()) throw InputError(source, "a config.json must be a JSON object");

  ModelConfig c;
  std::string model_type = j.value("model_type", std::string{});
  const bool gpt2_keys = j.contains("n_embd");
  const bool llama_keys = j.contains("hidden_size");
  if (model_type.empty()) {
    if (gpt2_keys) model_type = "gpt2";
    else if (llama_keys) model_type = "llama";
    else throw InputError(source, "missing key 'n_embd' (gpt2) or 'hidden_size' (llama/mistral)");
  }
  if (j.contains("_name_or_path") && j.at("_name_or_path").is_string()) c.name = j.at("_name_or_path").get<std::string>();
  else c.name = std::filesystem::path(source).stem().string();

  if (model_type == "gpt2") {
    c.architecture = Architecture::kGpt2;
    c.n_embd = get_int(j, "n_embd", source);
    c.n_layer = get_int(j, "n_layer", source);
    c.n_head = get_int(j, "n_head", source);
    c.n_kv_head = c.n_head;
    c.vocab_size = get_int(j, "vocab_size", source);
    c.n_positions = get_int_or(j, "n_positions", get_int_or(j, "n_ctx", 1024, source), source);
    c.d_ff = get_int_or(j, "n_inner", 4 * c.n_embd, source);
    c.tie_word_embeddings = get_bool_or(j, "tie_word_embeddings", true, source);
    c.embd_pdrop = get_double_or(j, "embd_pdrop", 0.1, source);
    c.attn_pdrop = get_double_or(j, "attn_pdrop", 0.1, source);
    c.resid_pdrop = get_double_or(j, "resid_pdrop", 0.1, source);
    c.norm_eps = get_double_or(j, "layer_norm_epsilon", 1e-5, source);
  } else if (model_type == "llama" || model_type == "mistral") {
    c.architecture = Architecture::kLlama;
    c.n_embd = get_int(j, "hidden_size", source);
    c.n_layer = get_int(j, "num_hidden_layers", source);
    c.n_head = get_int(j, "num_attention_heads", source);
    c.n_kv_head = get_int_or(j, "num_key_value_heads", c.n_head, source);
    c.vocab_size = get_int(j, "vocab_size", source);
    c.d_ff = get_int(j, "intermediate_size", source);
    c.n_positions = get_int_or(j, "max_position_embeddings", 2048, source);
    c.tie_word_embeddings = get_bool_or(j, "tie_word_embeddings", false, source);
    c.attn_pdrop = get_double_or(j, "attention_dropout", 0.0, source);
    c.embd_pdrop = 0.0;
    c.resid_pdrop = 0.0;
    c.norm_eps = get_double_or(j, "rms_norm_eps", 1e-6, source);
  } else {
    throw InputError(source, "model_type '" + model_type + "' is not supported (gpt2, llama, mistral)");
  }
  c.validate(source);
  return c;
}

ModelConfig load_model_config(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError(path, "no such model config file", "pass a Hugging Face config.json or a name from models/ (e.g. gpt2, llama-2-7b)");
  std::ifstream in(path);
  if (!in) throw InputError(path, "cannot read model config");
  std::stringstream buffer;
  buffer << in.rdbuf();
  ModelConfig c = parse_model_config(buffer.str(), path);
  return c;
}

std::string model_config_to_json(const ModelConfig& c) {
  json j;
  if (c.is_gpt2()) {
    j = {{"model_type", "gpt2"}, {"_name_or_path", c.name}, {"n_embd", c.n_embd}, {"n_layer", c.n_layer},
         {"n_head", c.n_head}, {"n_positions", c.n_positions}, {"vocab_size", c.vocab_size},
         {"n_inner", c.d_ff}, {"tie_word_embeddings", c.tie_word_embeddings},
         {"embd_pdrop", c.embd_pdrop}, {"attn_pdrop", c.attn_pdrop}, {"resid_pdrop", c.resid_pdrop},
         {"layer_norm_epsilon", c.norm_eps}};
  } else {
    j = {{"model_type", "llama"}, {"_name_or_path", c.name}, {"hidden_size", c.n_embd},
         {"num_hidden_layers", c.n_layer}, {"num_attention_heads", c.n_head},
         {"num_key_value_heads", c.n_kv_head}, {"intermediate_size", c.d_ff},
         {"vocab_size", c.vocab_size}, {"max_position_embeddings", c.n_positions},
         {"tie_word_embeddings", c.tie_word_embeddings}, {"attention_dropout", c.attn_pdrop},
         {"rms_norm_eps", c.norm_eps}};
  }
  return j.dump(2);
}

std::string models_dir() {
  if (const char* env = std::getenv("OOMKIT_MODELS_DIR"); env && *env) return env;
  std::error_code ec;
  if (std::filesystem::is_directory(OOMKIT_MODELS_DIR, ec)) return OOMKIT_MODELS_DIR;
  return "models";
}

ModelConfig resolve_model_config(const std::string& name_or_path) {
  std::error_code ec;
  if (std::filesystem::exists(name_or_path, ec)) return load_model_config(name_or_path);
  const std::filesystem::path shipped = std::filesystem::path(models_dir()) / (name_or_path + ".json");
  if (name_or_path.find('/') == std::string::npos && std::filesystem::is_regular_file(shipped, ec)) {
    ModelConfig c = load_model_config(shipped.string());
    c.name = name_or_path;
    return c;
  }
  throw InputError("--model", "no such file or shipped model: '" + name_or_path + "'",
                   "pass a config.json path or one of the names in " + models_dir());
}

}  // namespace oomkit
