// LoRA adapters (see lora.h for the formula, the layout and their sources).
#include "oomkit/train/lora.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "oomkit/core/error.h"
#include "oomkit/estimate/parameters.h"
#include "oomkit/train/llama.h"
#include "oomkit/train/model.h"

namespace oomkit {

namespace nn = torch::nn;

LoraAdapterImpl::LoraAdapterImpl(int64_t in, int64_t out, int64_t rank, double scale_) : scale(scale_) {
  lora_A = register_module("lora_A", nn::Linear(nn::LinearOptions(in, rank).bias(false)));
  lora_B = register_module("lora_B", nn::Linear(nn::LinearOptions(rank, out).bias(false)));
  torch::NoGradGuard no_grad;
  // PEFT LoraLayer.reset_lora_parameters (init_lora_weights=True): A as nn.Linear's default
  // (kaiming_uniform_, a = sqrt(5)), B zeros.
  torch::nn::init::kaiming_uniform_(lora_A->weight, std::sqrt(5.0));
  lora_B->weight.zero_();
}

torch::Tensor LoraAdapterImpl::forward(const torch::Tensor& x) {
  torch::Tensor h = lora_A(x);  // (B, T, r); mm saves x (autocast: its own compute-dtype copy)
  torch::Tensor y = lora_B(h);  // (B, T, out); mm saves h
  return y * scale;             // (B, T, out); a scalar mul saves nothing
}

torch::Tensor lora_delta(const nn::Linear& base, const char* name, const torch::Tensor& x) {
  const auto children = base->named_children();
  const auto* child = children.find(name);
  if (child == nullptr) return {};
  return (*child)->as<LoraAdapterImpl>()->forward(x);
}

torch::Tensor linear_with_lora(const nn::Linear& base, const torch::Tensor& x) {
  torch::Tensor y = base.ptr()->forward(x);
  torch::Tensor delta = lora_delta(base, "lora", x);
  if (!delta.defined()) return y;
  return y + delta;
}

bool is_lora_parameter(const std::string& name) { return name.find(".lora") != std::string::npos; }

namespace {

// One adapter site of a layer: the base Linear, the child's name and (GPT-2's q/k/v) the rows
// of the base's output it adds to.
struct Site {
  nn::Linear base{nullptr};
  std::string child = "lora";
  int64_t row0 = 0;
  int64_t rows = 0;  // 0: all of the base's output
};

Site gpt2_site(BlockImpl& block, const std::string& target, int64_t d) {
  auto& attn = *block.attn;
  auto& mlp = *block.mlp;
  if (target == "c_attn") return {attn.c_attn};
  if (target == "q") return {attn.c_attn, "lora_q", 0, d};
  if (target == "k") return {attn.c_attn, "lora_k", d, d};
  if (target == "v") return {attn.c_attn, "lora_v", 2 * d, d};
  if (target == "o" || target == "c_proj") return {attn.c_proj};
  if (target == "c_fc" || target == "up") return {mlp.c_fc};
  if (target == "mlp_c_proj" || target == "down") return {mlp.c_proj};
  return {};
}

Site llama_site(LlamaDecoderLayerImpl& layer, const std::string& target) {
  auto& attn = *layer.self_attn;
  auto& mlp = *layer.mlp;
  if (target == "q") return {attn.q_proj};
  if (target == "k") return {attn.k_proj};
  if (target == "v") return {attn.v_proj};
  if (target == "o") return {attn.o_proj};
  if (target == "gate") return {mlp.gate_proj};
  if (target == "up") return {mlp.up_proj};
  if (target == "down") return {mlp.down_proj};
  return {};
}

std::vector<Site> layer_sites(GptImpl& model, int64_t layer, const std::vector<std::string>& targets) {
  std::vector<Site> out;
  for (const auto& t : targets) {
    Site s = !model.transformer.is_empty() ? gpt2_site(*model.transformer->h[layer]->as<BlockImpl>(), t, model.config().n_embd)
                               : llama_site(*model.model->layers[layer]->as<LlamaDecoderLayerImpl>(), t);
    if (!s.base) throw std::logic_error("lora: no site for target " + t);
    out.push_back(s);
  }
  return out;
}

}  // namespace

void add_lora_adapters(GptImpl& model, const LoraConfig& lora, torch::ScalarType base_dtype) {
  const ModelConfig& config = model.config();
  if (lora.rank < 1) throw InputError("--lora-rank", "must be >= 1, got " + std::to_string(lora.rank));
  if (lora.rank > config.n_embd) {
    throw InputError("--lora-rank", std::to_string(lora.rank) + " exceeds n_embd " + std::to_string(config.n_embd));
  }
  if (!(lora.alpha > 0.0) || !std::isfinite(lora.alpha)) {
    throw InputError("--lora-alpha", "must be a finite number > 0, got " + std::to_string(lora.alpha));
  }
  if (lora.targets.empty()) throw InputError("--lora-targets", "empty", "e.g. --lora-targets q,k,v,o");
  const std::vector<std::string> valid = lora_target_names(config);
  std::string valid_list;
  for (const auto& v : valid) valid_list += (valid_list.empty() ? "" : ",") + v;
  for (const auto& t : lora.targets) {
    if (std::find(valid.begin(), valid.end(), t) == valid.end()) {
      throw InputError("--lora-targets", "unknown target '" + t + "' for this family; valid: " + valid_list);
    }
  }
  // Overlaps: two adapters on one module (o and c_proj), or c_attn with one of its slices.
  const std::vector<Site> first = layer_sites(model, 0, lora.targets);
  std::set<std::pair<const void*, std::string>> seen;
  bool whole_c_attn = false, slice_c_attn = false;
  for (size_t i = 0; i < first.size(); ++i) {
    if (!seen.insert({first[i].base.get(), first[i].child}).second) {
      throw InputError("--lora-targets", "'" + lora.targets[i] + "' adapts a module another target already adapts",
                       "name each module once");
    }
    if (lora.targets[i] == "c_attn") whole_c_attn = true;
    if (lora.targets[i] == "q" || lora.targets[i] == "k" || lora.targets[i] == "v") slice_c_attn = config.is_gpt2() || slice_c_attn;
  }
  if (whole_c_attn && slice_c_attn) {
    throw InputError("--lora-targets", "c_attn and its q/k/v slices overlap", "give c_attn or q,k,v");
  }

  torch::NoGradGuard no_grad;
  // The frozen base: every parameter before the adapters exist.
  for (auto& p : model.parameters()) {
    p.requires_grad_(false);
    if (p.scalar_type() != base_dtype) p.set_data(p.data().to(base_dtype));
  }
  const double scale = lora.alpha / static_cast<double>(lora.rank);
  for (int64_t layer = 0; layer < config.n_layer; ++layer) {
    for (const Site& s : layer_sites(model, layer, lora.targets)) {
      const int64_t in = s.base->weight.size(1);
      const int64_t out = s.rows > 0 ? s.rows : s.base->weight.size(0);
      s.base.ptr()->register_module(s.child, LoraAdapter(in, out, lora.rank, scale));
    }
  }
}

std::map<std::string, torch::Tensor> lora_merged_weights(const GptImpl& model) {
  std::map<std::string, torch::Tensor> merged;
  torch::NoGradGuard no_grad;
  for (const auto& item : model.named_modules()) {
    const auto* base = item.value()->as<nn::LinearImpl>();
    if (base == nullptr) continue;
    torch::Tensor w;  // fp32 (out, in), made on the first adapter of this base
    for (const auto& child : base->named_children()) {
      const auto* adapter = child.value()->as<LoraAdapterImpl>();
      if (adapter == nullptr) continue;
      if (!w.defined()) w = base->weight.detach().to(torch::kFloat).clone();
      const torch::Tensor delta = torch::matmul(adapter->lora_B->weight.to(torch::kFloat),
                                                adapter->lora_A->weight.to(torch::kFloat)) * adapter->scale;  // (out_a, in)
      const std::string& name = child.key();
      const int64_t d = delta.size(0);
      const int64_t row0 = name == "lora_k" ? d : name == "lora_v" ? 2 * d : 0;
      w.narrow(0, row0, d).add_(delta);
    }
    if (w.defined()) merged[item.key() + ".weight"] = w.to(base->weight.scalar_type());
  }
  return merged;
}

}  // namespace oomkit
