#include "oomkit/core/model_config.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/executable.h"
#include "oomkit/core/hf_cache.h"
#include "oomkit/core/json_input.h"
#include "oomkit/core/model_lookup.h"
#include "oomkit/core/suggest.h"
#include "oomkit/core/units.h"

#ifndef OOMKIT_MODELS_FROM_BIN
#define OOMKIT_MODELS_FROM_BIN "../share/oomkit/models"
#endif
#ifndef OOMKIT_MODELS_DIR
#define OOMKIT_MODELS_DIR "models"
#endif

namespace oomkit {
namespace {

using nlohmann::json;

constexpr int64_t kMaxDim = int64_t{1} << 31;
// The largest config.json read: a Hugging Face config is a few KiB.
constexpr size_t kMaxConfigFileBytes = size_t{16} << 20;

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
  if (architecture == Architecture::kLlama) {
    if (!(rope_theta > 1.0) || !std::isfinite(rope_theta)) out.push_back("rope_theta: must be a finite number > 1");
    if (sliding_window < 0) out.push_back("sliding_window: must be positive or null");
    const RopeScaling& r = rope_scaling;
    if (!r.type.empty() && !(r.factor >= 1.0 && std::isfinite(r.factor))) {
      out.push_back("rope_scaling: factor must be a finite number >= 1");
    }
    if (r.type == "llama3") {
      if (!(r.low_freq_factor > 0.0 && r.high_freq_factor > r.low_freq_factor && std::isfinite(r.high_freq_factor))) {
        out.push_back("rope_scaling: llama3 needs 0 < low_freq_factor < high_freq_factor");
      }
      if (r.original_max_position_embeddings <= 0 || r.original_max_position_embeddings > kMaxDim) {
        out.push_back("rope_scaling: llama3 needs original_max_position_embeddings > 0");
      }
    }
  }
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
  const json j = parse_json_input(json_text, source);
  if (!j.is_object()) throw InputError(source, "a config.json must be a JSON object, got " + describe_json_value(j));
  const JsonFields f(j, source);

  ModelConfig c;
  std::string model_type = f.string_or("model_type", "");
  if (model_type.empty()) {
    if (j.contains("n_embd")) model_type = "gpt2";
    else if (j.contains("hidden_size")) model_type = "llama";
    else throw InputError(source, "missing key 'n_embd' (gpt2) or 'hidden_size' (llama/mistral)");
  }
  if (j.contains("_name_or_path") && j.at("_name_or_path").is_string()) c.name = j.at("_name_or_path").get<std::string>();
  else c.name = std::filesystem::path(source).stem().string();

  if (model_type == "gpt2") {
    c.architecture = Architecture::kGpt2;
    c.n_embd = f.int64("n_embd");
    c.n_layer = f.int64("n_layer");
    c.n_head = f.int64("n_head");
    c.n_kv_head = c.n_head;
    c.vocab_size = f.int64("vocab_size");
    c.n_positions = f.int64_or("n_positions", f.int64_or("n_ctx", 1024));
    // HF GPT2Config: n_inner null -> 4 * n_embd. Checked: n_embd is range-checked only in validate().
    c.d_ff = f.has("n_inner") ? f.int64("n_inner") : checked_mul(4, c.n_embd, source + ": n_embd");
    c.tie_word_embeddings = f.boolean_or("tie_word_embeddings", true);
    c.embd_pdrop = f.number_or("embd_pdrop", 0.1);
    c.attn_pdrop = f.number_or("attn_pdrop", 0.1);
    c.resid_pdrop = f.number_or("resid_pdrop", 0.1);
    c.norm_eps = f.number_or("layer_norm_epsilon", 1e-5);
  } else if (model_type == "llama" || model_type == "mistral") {
    c.architecture = Architecture::kLlama;
    c.n_embd = f.int64("hidden_size");
    c.n_layer = f.int64("num_hidden_layers");
    c.n_head = f.int64("num_attention_heads");
    c.n_kv_head = f.int64_or("num_key_value_heads", c.n_head);
    c.vocab_size = f.int64("vocab_size");
    c.d_ff = f.int64("intermediate_size");
    c.n_positions = f.int64_or("max_position_embeddings", 2048);
    c.tie_word_embeddings = f.boolean_or("tie_word_embeddings", false);
    c.attn_pdrop = f.number_or("attention_dropout", 0.0);
    c.embd_pdrop = 0.0;
    c.resid_pdrop = 0.0;
    c.norm_eps = f.number_or("rms_norm_eps", 1e-6);
    c.rope_theta = f.number_or("rope_theta", 10000.0);
    if (j.contains("sliding_window") && !j.at("sliding_window").is_null()) c.sliding_window = f.int64("sliding_window");
    if (j.contains("rope_scaling") && !j.at("rope_scaling").is_null()) {
      const json& rs = j.at("rope_scaling");
      if (!rs.is_object()) {
        throw InputError(source, "rope_scaling: must be an object or null, got " + describe_json_value(rs));
      }
      const JsonFields r(rs, source + ": rope_scaling");
      RopeScaling& s = c.rope_scaling;
      s.type = r.string_or("rope_type", r.string_or("type", ""));
      if (s.type.empty()) throw InputError(source, "rope_scaling: missing key 'rope_type'");
      if (s.type == "default") s.type.clear();
      s.factor = r.number_or("factor", 1.0);
      if (s.type == "llama3") {
        s.low_freq_factor = r.number("low_freq_factor");
        s.high_freq_factor = r.number("high_freq_factor");
        s.original_max_position_embeddings = r.int64("original_max_position_embeddings");
      } else if (s.type == "linear") {
        s.factor = r.number("factor");
      }
    }
  } else {
    throw InputError(source, "model_type '" + bounded_excerpt(model_type) + "' is not supported (gpt2, llama, mistral)");
  }
  c.validate(source);
  return c;
}

ModelConfig load_model_config(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(path, "no such model config file", "pass a Hugging Face config.json or a name from models/ (e.g. gpt2, llama-2-7b)");
  // Refuses directories, FIFOs and devices without blocking; a config.json is small.
  return parse_model_config(read_input_file(path, path, kMaxConfigFileBytes), path);
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
         {"rms_norm_eps", c.norm_eps}, {"rope_theta", c.rope_theta}, {"hidden_act", "silu"}};
    j["sliding_window"] = c.sliding_window > 0 ? json(c.sliding_window) : json(nullptr);
    const RopeScaling& r = c.rope_scaling;
    if (r.type.empty()) {
      j["rope_scaling"] = nullptr;
    } else {
      j["rope_scaling"] = {{"rope_type", r.type}, {"factor", r.factor}};
      if (r.type == "llama3") {
        j["rope_scaling"]["low_freq_factor"] = r.low_freq_factor;
        j["rope_scaling"]["high_freq_factor"] = r.high_freq_factor;
        j["rope_scaling"]["original_max_position_embeddings"] = r.original_max_position_embeddings;
      }
    }
  }
  return j.dump(2);
}

std::string models_dir() {
  if (const char* env = std::getenv("OOMKIT_MODELS_DIR"); env && *env) return env;
  std::error_code ec;
  // Installed: <prefix>/bin/oomkit -> <prefix>/share/oomkit/models (cmake --install).
  if (const std::string exe_dir = executable_dir(); !exe_dir.empty()) {
    const std::filesystem::path installed = std::filesystem::path(exe_dir) / OOMKIT_MODELS_FROM_BIN;
    if (std::filesystem::is_directory(installed, ec)) return installed.lexically_normal().string();
  }
  // The build tree: the source tree's models/, compiled in.
  if (std::filesystem::is_directory(OOMKIT_MODELS_DIR, ec)) return OOMKIT_MODELS_DIR;
  return "models";
}

std::vector<std::string> shipped_model_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(models_dir(), ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".json") names.push_back(it->path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

bool same_name(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// The name shown and used for runs/<name>-<time>: a repository's NAME without its ORG.
std::string repo_name(const std::string& repo_id) { return repo_id.substr(repo_id.find('/') + 1); }

// A folder given as --model: a snapshot (config.json inside) or a cached repository
// (models--ORG--NAME, whose snapshot hf_snapshot_config() picks).
ModelConfig load_model_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  const std::filesystem::path config = dir / "config.json";
  const std::filesystem::path absolute = std::filesystem::absolute(dir, ec).lexically_normal();
  std::filesystem::path named = absolute.filename().empty() ? absolute.parent_path() : absolute;
  if (std::filesystem::is_regular_file(config, ec)) {
    ModelConfig c = load_model_config(config.string());
    // <hub>/models--ORG--NAME/snapshots/<hash>: the repository's NAME, not the hash.
    const std::string repo = named.parent_path().parent_path().filename().string();
    if (named.parent_path().filename() == "snapshots" && repo.rfind("models--", 0) == 0) {
      c.name = repo.substr(repo.rfind("--") + 2);
    } else {
      c.name = named.filename().string();
    }
    return c;
  }
  const std::string folder = named.filename().string();
  if (folder.rfind("models--", 0) == 0 && std::filesystem::is_directory(dir / "snapshots", ec)) {
    ModelConfig c = load_model_config(hf_snapshot_config(dir.string(), "--model"));
    c.name = folder.substr(folder.rfind("--") + 2);
    return c;
  }
  throw InputError("--model", "'" + dir.string() + "' is a directory without a config.json",
                   "pass a Hugging Face snapshot folder (config.json inside) or a config.json path");
}

}  // namespace

ModelConfig resolve_model_config(const std::string& name_or_path) {
  std::error_code ec;
  if (std::filesystem::is_directory(name_or_path, ec)) return load_model_folder(name_or_path);
  if (std::filesystem::exists(name_or_path, ec)) return load_model_config(name_or_path);
  const std::vector<std::string> shipped = shipped_model_names();
  if (name_or_path.find('/') == std::string::npos) {
    for (const auto& name : shipped) {
      if (!same_name(name, name_or_path)) continue;
      ModelConfig c = load_model_config((std::filesystem::path(models_dir()) / (name + ".json")).string());
      c.name = name;
      return c;
    }
  }
  // The Hugging Face cache: ORG/NAME, or NAME alone when one cached repository has that name.
  const std::string hub = hf_hub_cache_dir();
  const std::vector<HfCachedRepo> repos = hf_cached_repos(hub);
  std::vector<const HfCachedRepo*> matches;
  for (const auto& r : repos) {
    if (same_name(r.repo_id, name_or_path)) {
      matches = {&r};
      break;
    }
    if (name_or_path.find('/') == std::string::npos && same_name(repo_name(r.repo_id), name_or_path)) {
      matches.push_back(&r);
    }
  }
  if (matches.size() == 1) {
    ModelConfig c = load_model_config(hf_snapshot_config(matches.front()->folder, "--model"));
    c.name = repo_name(matches.front()->repo_id);
    return c;
  }
  if (matches.size() > 1) {
    std::string ids;
    for (const auto* r : matches) ids += (ids.empty() ? "" : " or ") + r->repo_id;
    throw InputError("--model", "'" + name_or_path + "' names " + std::to_string(matches.size()) +
                                    " repositories in the Hugging Face cache " + hub,
                     "give ORG/NAME: " + ids);
  }
  std::vector<std::string> candidates = shipped;
  for (const auto& r : repos) candidates.push_back(r.repo_id);
  std::string hint = did_you_mean(name_or_path, candidates);
  if (hint.empty()) {
    hint = "pass a config.json path, a folder holding one, a name in " + models_dir() +
           " or ORG/NAME from the Hugging Face cache " + (hub.empty() ? std::string("(no HOME)") : hub);
  }
  throw InputError("--model", "no such file, folder, shipped model or cached Hugging Face model: '" + name_or_path + "'",
                   hint);
}

}  // namespace oomkit
