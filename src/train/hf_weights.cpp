// Hugging Face GPT-2 weights in and out (include/oomkit/train/hf_weights.h for the layout).
#include "oomkit/train/hf_weights.h"
#include "oomkit/train/lora.h"

#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/json_input.h"
#include "oomkit/core/write_file.h"

namespace oomkit {

namespace {

namespace fs = std::filesystem;

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "safetensors data is little-endian; this host is not");

constexpr const char* kPrefix = "transformer.";

// transformers' Conv1D modules of GPT-2: weight (in, out), the transpose of nn::Linear's.
bool is_conv1d_weight(const std::string& name) {
  static const char* const kSuffixes[] = {".attn.c_attn.weight", ".attn.c_proj.weight", ".mlp.c_fc.weight",
                                          ".mlp.c_proj.weight"};
  for (const char* suffix : kSuffixes) {
    const size_t n = std::strlen(suffix);
    if (name.size() >= n && name.compare(name.size() - n, n, suffix) == 0) return true;
  }
  return false;
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

std::string shape_text(const std::vector<int64_t>& shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

std::string list_some(const std::vector<std::string>& names) {
  constexpr size_t kShown = 5;
  std::string out;
  for (size_t i = 0; i < names.size() && i < kShown; ++i) out += (i ? ", " : "") + bounded_excerpt(names[i]);
  if (names.size() > kShown) out += fmt::format(" and {} more", names.size() - kShown);
  return out;
}

torch::ScalarType torch_dtype(SafetensorsDtype dtype, bool* ok) {
  *ok = true;
  switch (dtype) {
    case SafetensorsDtype::kF32: return torch::kFloat32;
    case SafetensorsDtype::kF16: return torch::kFloat16;
    case SafetensorsDtype::kBF16: return torch::kBFloat16;
    case SafetensorsDtype::kF64: return torch::kFloat64;
    case SafetensorsDtype::kI64: return torch::kInt64;
    case SafetensorsDtype::kI32: return torch::kInt32;
    case SafetensorsDtype::kI16: return torch::kInt16;
    case SafetensorsDtype::kI8: return torch::kInt8;
    case SafetensorsDtype::kU8: return torch::kUInt8;
    case SafetensorsDtype::kBool: return torch::kBool;
    default: *ok = false; return torch::kFloat32;
  }
}

SafetensorsDtype safetensors_dtype(torch::ScalarType dtype, const std::string& name, const std::string& field) {
  switch (dtype) {
    case torch::kFloat32: return SafetensorsDtype::kF32;
    case torch::kFloat16: return SafetensorsDtype::kF16;
    case torch::kBFloat16: return SafetensorsDtype::kBF16;
    case torch::kFloat64: return SafetensorsDtype::kF64;
    default: throw InputError(field, "parameter " + name + " has dtype " + std::string(c10::toString(dtype)) +
                                         ", which the writer does not store");
  }
}

}  // namespace

torch::Tensor safetensors_to_tensor(const SafetensorsTensorInfo& info, std::string_view bytes, const std::string& source) {
  bool ok = false;
  const torch::ScalarType dtype = torch_dtype(info.dtype, &ok);
  if (!ok) {
    throw InputError(source, "tensor \"" + bounded_excerpt(info.name) + "\": dtype " +
                                 safetensors_dtype_name(info.dtype) + " has no LibTorch " TORCH_VERSION " type");
  }
  torch::Tensor t = torch::empty(info.shape, torch::TensorOptions().dtype(dtype));
  if (t.nbytes() != bytes.size()) {
    throw InputError(source, "tensor \"" + bounded_excerpt(info.name) + "\": data size does not match its shape");
  }
  if (!bytes.empty()) std::memcpy(t.data_ptr(), bytes.data(), bytes.size());
  return t;
}

std::vector<std::pair<std::string, std::vector<int64_t>>> hf_gpt2_state_dict_shapes(const ModelConfig& c) {
  const int64_t d = c.n_embd, V = c.vocab_size, d_ff = c.d_ff;
  std::vector<std::pair<std::string, std::vector<int64_t>>> out;
  const std::string p = kPrefix;
  out.push_back({p + "wte.weight", {V, d}});
  out.push_back({p + "wpe.weight", {c.n_positions, d}});
  for (int64_t i = 0; i < c.n_layer; ++i) {
    const std::string h = p + "h." + std::to_string(i) + ".";
    out.push_back({h + "ln_1.weight", {d}});
    out.push_back({h + "ln_1.bias", {d}});
    out.push_back({h + "attn.c_attn.weight", {d, 3 * d}});
    out.push_back({h + "attn.c_attn.bias", {3 * d}});
    out.push_back({h + "attn.c_proj.weight", {d, d}});
    out.push_back({h + "attn.c_proj.bias", {d}});
    out.push_back({h + "ln_2.weight", {d}});
    out.push_back({h + "ln_2.bias", {d}});
    out.push_back({h + "mlp.c_fc.weight", {d, d_ff}});
    out.push_back({h + "mlp.c_fc.bias", {d_ff}});
    out.push_back({h + "mlp.c_proj.weight", {d_ff, d}});
    out.push_back({h + "mlp.c_proj.bias", {d}});
  }
  out.push_back({p + "ln_f.weight", {d}});
  out.push_back({p + "ln_f.bias", {d}});
  return out;
}

ModelConfig load_hf_config(const std::string& dir, const std::string& field) {
  check_input_path(dir, field, /*allow_directory=*/true);
  const std::string path = (fs::path(dir) / "config.json").string();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    throw InputError(field, "'" + bounded_excerpt(dir, 4096) + "' has no config.json",
                     "point at a Hugging Face snapshot folder (config.json + model.safetensors)");
  }
  const nlohmann::json j = read_json_input_file(path, path);
  ModelConfig config = parse_model_config(j.dump(), path);
  if (!j.contains("_name_or_path") || config.name.empty()) {  // else "config", the file's stem
    fs::path folder = fs::path(dir).lexically_normal();
    if (folder.filename().empty()) folder = folder.parent_path();  // "dir/" -> "dir"
    config.name = folder.filename().string();
  }
  const JsonFields f(j, path);
  if (!config.is_gpt2()) {
    // LlamaConfig / MistralConfig: hidden_act "silu" is the SwiGLU the module computes.
    const std::string act = f.string_or("hidden_act", "silu");
    if (act != "silu") f.fail("hidden_act", "\"" + bounded_excerpt(act) + "\": oomkit's LLaMA computes silu (SwiGLU) only");
    if (f.boolean_or("attention_bias", false)) f.fail("attention_bias", "true is not supported (bias-free projections)");
    if (f.boolean_or("mlp_bias", false)) f.fail("mlp_bias", "true is not supported (bias-free projections)");
    return config;
  }
  // GPT2Config options that change what the module computes (configuration_gpt2.py defaults).
  const std::string act = f.string_or("activation_function", "gelu_new");
  if (act != "gelu_new") f.fail("activation_function", "\"" + bounded_excerpt(act) + "\": oomkit's GPT-2 computes gelu_new (tanh GELU) only");
  if (!f.boolean_or("scale_attn_weights", true)) f.fail("scale_attn_weights", "false is not supported (oomkit scales by 1/sqrt(d_h))");
  if (f.boolean_or("scale_attn_by_inverse_layer_idx", false)) f.fail("scale_attn_by_inverse_layer_idx", "true is not supported");
  if (f.boolean_or("add_cross_attention", false)) f.fail("add_cross_attention", "true is not supported (decoder-only GPT-2)");
  if (!config.tie_word_embeddings) f.fail("tie_word_embeddings", "false is not supported: oomkit's GPT-2 ties lm_head to wte");
  return config;
}

namespace {

// How a family's Hugging Face checkpoint names map onto the module's named_parameters(), which
// are already the names of transformers' *ForCausalLM state dict.
struct HfFamily {
  std::string optional_prefix;  // GPT-2: GPT2Model checkpoints (the hub's gpt2) omit "transformer."
  std::regex ignored;           // buffers some checkpoints carry; not weights
  std::string embedding;        // the tensor a tied lm_head.weight must equal
  bool conv1d;                  // GPT-2's Conv1D weights are stored (in, out)
  const char* architecture;     // config.json "architectures"
};

const HfFamily& hf_family(const ModelConfig& config) {
  // modeling_gpt2.py: GPT2Attention's bias (1, 1, n_positions, n_positions) and masked_bias ().
  static const HfFamily gpt2{kPrefix, std::regex(R"((transformer\.)?h\.\d+\.attn\.(bias|masked_bias))"),
                             "transformer.wte.weight", true, "GPT2LMHeadModel"};
  // modeling_llama.py (before 4.38): LlamaRotaryEmbedding's inv_freq buffer under each attention.
  static const HfFamily llama{"", std::regex(R"(model\.layers\.\d+\.self_attn\.rotary_emb\.inv_freq)"),
                              "model.embed_tokens.weight", false, "LlamaForCausalLM"};
  return config.is_gpt2() ? gpt2 : llama;
}

}  // namespace

HfLoadReport load_hf_weights(GptImpl& model, const std::string& dir, const std::string& field) {
  const SafetensorsCheckpoint ckpt = read_safetensors_checkpoint(dir, field);
  const HfFamily& family = hf_family(model.config());
  HfLoadReport report;
  report.num_files = static_cast<int64_t>(ckpt.files.size());

  std::map<std::string, torch::Tensor> params;  // the module's (HF) name -> parameter
  for (auto& item : model.named_parameters()) params[item.key()] = item.value();
  const bool head_is_tied = params.count("lm_head.weight") == 0;

  std::map<std::string, const SafetensorsCheckpoint::Entry*> found;  // module name -> entry
  const SafetensorsCheckpoint::Entry* tied_head = nullptr;
  std::vector<std::string> unknown;
  for (const auto& [name, entry] : ckpt.tensors) {
    if (name == "lm_head.weight" && head_is_tied) {
      tied_head = &entry;
      continue;
    }
    if (std::regex_match(name, family.ignored)) {
      ++report.num_buffers_ignored;
      continue;
    }
    std::string key;
    if (params.count(name) > 0) {
      key = name;
      report.prefixed = report.prefixed || (!family.optional_prefix.empty() && starts_with(name, family.optional_prefix.c_str()));
    } else if (!family.optional_prefix.empty() && params.count(family.optional_prefix + name) > 0) {
      key = family.optional_prefix + name;
    } else {
      unknown.push_back(name);
      continue;
    }
    if (!found.emplace(key, &entry).second) {
      throw InputError(ckpt.files[entry.file].source(), "tensor " + bounded_excerpt(name) + " appears both with and without the \"" +
                                                            family.optional_prefix + "\" prefix");
    }
  }
  const std::string where = bounded_excerpt(dir, 4096);
  if (!unknown.empty()) {
    throw InputError(field, fmt::format("'{}': {} tensor(s) that oomkit's {} ({} names) does not have: {}", where,
                                        unknown.size(), model.config().is_gpt2() ? "GPT-2" : "LLaMA", family.architecture,
                                        list_some(unknown)),
                     "--init-from loads checkpoints of the config's family (transformers GPT-2 or LLaMA/Mistral)");
  }
  std::vector<std::string> missing;
  for (const auto& [key, p] : params) {
    if (found.count(key) == 0) missing.push_back(key);
  }
  if (!missing.empty()) {
    throw InputError(field, fmt::format("'{}': {} weight(s) missing from the checkpoint: {}", where, missing.size(),
                                        list_some(missing)));
  }
  // Every shape first, so that a mismatch leaves the module untouched.
  for (const auto& [key, entry] : found) {
    const SafetensorsTensorInfo& info = ckpt.info(*entry);
    std::vector<int64_t> want = params.at(key).sizes().vec();
    if (family.conv1d && is_conv1d_weight(key) && want.size() == 2) std::swap(want[0], want[1]);  // Conv1D: (in, out)
    if (info.shape != want) {
      throw InputError(ckpt.files[entry->file].source(),
                       fmt::format("tensor {}: shape {}, but config.json gives {}", bounded_excerpt(info.name),
                                   shape_text(info.shape), shape_text(want)));
    }
  }
  torch::NoGradGuard no_grad;
  for (const auto& [key, entry] : found) {
    const SafetensorsTensorInfo& info = ckpt.info(*entry);
    torch::Tensor t = safetensors_to_tensor(info, ckpt.data(*entry), ckpt.files[entry->file].source());
    if (family.conv1d && is_conv1d_weight(key)) t = t.t();  // (in, out) -> nn::Linear's (out, in)
    torch::Tensor& p = params.at(key);
    p.copy_(t.to(p.device(), p.scalar_type()));
    ++report.num_tensors;
  }
  if (tied_head != nullptr) {
    report.lm_head_present = true;
    const SafetensorsTensorInfo& info = ckpt.info(*tied_head);
    const torch::Tensor& embedding = params.at(family.embedding);
    const torch::Tensor head = safetensors_to_tensor(info, ckpt.data(*tied_head), ckpt.files[tied_head->file].source());
    if (head.sizes() != embedding.sizes() || !torch::equal(head.to(embedding.device(), embedding.scalar_type()), embedding)) {
      throw InputError(ckpt.files[tied_head->file].source(),
                       "lm_head.weight differs from " + family.embedding + ", but the config ties them (tie_word_embeddings)",
                       "a checkpoint with an untied head needs tie_word_embeddings false in config.json (LLaMA) "
                       "and cannot be loaded into oomkit's GPT-2, whose head is always tied");
    }
  }
  return report;
}

int64_t save_hf_weights(const GptImpl& model, const std::string& dir, const std::string& field) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir, ec)) {
    throw InputError(field, "'" + bounded_excerpt(dir, 4096) + "': cannot create the folder: " + ec.message());
  }
  const HfFamily& family = hf_family(model.config());
  std::map<std::string, torch::Tensor> params;
  std::vector<std::pair<std::string, std::vector<int64_t>>> order;  // names in module order, HF shapes
  // LoRA (lora.h): the adapters are merged into their base weights, as PEFT's merge_and_unload
  // does, and written as the plain model transformers loads; the adapter tensors are not written.
  const std::map<std::string, torch::Tensor> merged = lora_merged_weights(model);
  for (const auto& item : model.named_parameters()) {
    if (is_lora_parameter(item.key())) continue;
    const auto m = merged.find(item.key());
    params[item.key()] = m != merged.end() ? m->second : item.value();
    order.push_back({item.key(), item.value().sizes().vec()});
  }
  if (family.conv1d) order = hf_gpt2_state_dict_shapes(model.config());
  std::vector<torch::Tensor> keep;  // owns the bytes the writer points at
  std::vector<SafetensorsWriteTensor> tensors;
  for (const auto& [name, shape] : order) {
    const auto it = params.find(name);
    if (it == params.end()) throw std::logic_error("save_hf_weights: the module has no parameter " + name);
    torch::Tensor t = it->second.detach();
    if (family.conv1d && is_conv1d_weight(name)) t = t.t();  // nn::Linear (out, in) -> Conv1D (in, out)
    t = t.to(torch::kCPU).contiguous();
    if (t.sizes().vec() != shape) throw std::logic_error("save_hf_weights: " + name + " has shape " + shape_text(t.sizes().vec()));
    keep.push_back(t);
    tensors.push_back({name, safetensors_dtype(t.scalar_type(), name, field), shape,
                       std::string_view(static_cast<const char*>(t.data_ptr()), t.nbytes())});
  }
  const std::string weights_path = (fs::path(dir) / "model.safetensors").string();
  write_safetensors_file(weights_path, tensors, {{"format", "pt"}}, field);

  nlohmann::json config = nlohmann::json::parse(model_config_to_json(model.config()));
  config["architectures"] = {family.architecture};
  if (family.conv1d) config["activation_function"] = "gelu_new";
  else config["hidden_act"] = "silu";
  const torch::ScalarType st = keep.front().scalar_type();
  config["torch_dtype"] = st == torch::kBFloat16 ? "bfloat16" : st == torch::kFloat16 ? "float16"
                          : st == torch::kFloat64 ? "float64" : "float32";
  const std::string config_text = config.dump(2) + "\n";
  write_file_durably((fs::path(dir) / "config.json").string(), {config_text}, field);
  return static_cast<int64_t>(fs::file_size(weights_path, ec));
}

}  // namespace oomkit
