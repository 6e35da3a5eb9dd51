// Hugging Face weights in and out of oomkit's models (`oomkit train --init-from DIR`,
// `--save-hf DIR`): safetensors (include/oomkit/core/safetensors.h) mapped by HF names. The
// module's named_parameters() are the names of transformers' *ForCausalLM state dict
// (GPT2LMHeadModel; LlamaForCausalLM for the LLaMA family: `model.embed_tokens.weight`,
// `model.layers.i.self_attn.q_proj.weight`, ..., `lm_head.weight` when untied, all nn.Linear
// (out, in), checkpoints before transformers 4.38 also carry the buffer
// `model.layers.i.self_attn.rotary_emb.inv_freq`, ignored).
//
// GPT-2:
// Names and shapes are those of transformers' modeling_gpt2.py (read at transformers
// 4.31.0.dev0; the layout has been the same across 4.x): GPT2LMHeadModel = {transformer:
// GPT2Model, lm_head: Linear(d, V, bias=False) tied to transformer.wte}, base_model_prefix
// "transformer". Per block i (letters of model_config.h):
//   h.i.ln_1.{weight,bias} (d)            h.i.attn.c_attn.weight (d, 3d)   .bias (3d)
//   h.i.attn.c_proj.weight (d, d) .bias (d)   h.i.ln_2.{weight,bias} (d)
//   h.i.mlp.c_fc.weight (d, d_ff) .bias (d_ff)   h.i.mlp.c_proj.weight (d_ff, d) .bias (d)
// plus wte.weight (V, d), wpe.weight (n_positions, d), ln_f.{weight,bias} (d).
// c_attn, c_proj and c_fc are transformers' Conv1D (pytorch_utils.py): weight stored
// (in, out), y = x @ W + b, the transpose of torch::nn::Linear's (out, in).
//
// Reading accepts both layouts found in the wild: GPT2Model's state dict (the hub's `gpt2`
// checkpoint: no prefix, with the attention buffers h.i.attn.bias (1, 1, n_positions,
// n_positions) and h.i.attn.masked_bias ()) and GPT2LMHeadModel's (`transformer.` prefix, as
// save_pretrained writes it, with or without lm_head.weight). The buffers are not weights and are
// ignored; lm_head.weight, when present, must equal wte.weight (oomkit's head is tied).
// Writing produces what GPT2LMHeadModel.save_pretrained writes: the `transformer.` names, no
// lm_head.weight (tied), no buffers, metadata {"format": "pt"} (transformers refuses a
// safetensors file without it), and a config.json with model_type gpt2.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <torch/torch.h>

#include "oomkit/core/model_config.h"
#include "oomkit/core/safetensors.h"
#include "oomkit/train/model.h"

namespace oomkit {

/// A CPU tensor holding a copy of `bytes` (little-endian, row-major) with `info`'s dtype and
/// shape. Throws InputError(source, "tensor \"name\": dtype X has no LibTorch type") for U16,
/// U32, U64, F8_* and C64, which LibTorch 1.13 cannot hold.
torch::Tensor safetensors_to_tensor(const SafetensorsTensorInfo& info, std::string_view bytes, const std::string& source);

/// The state-dict names and shapes a transformers GPT2LMHeadModel of `config` saves (prefix
/// "transformer.", Conv1D weights (in, out), no tied lm_head, no buffers), in module order.
std::vector<std::pair<std::string, std::vector<int64_t>>> hf_gpt2_state_dict_shapes(const ModelConfig& config);

/// Reads `<dir>/config.json` as a model config and refuses options oomkit's modules do not
/// compute: for GPT-2 activation_function other than gelu_new, scale_attn_weights false,
/// scale_attn_by_inverse_layer_idx, add_cross_attention, an untied head; for LLaMA hidden_act
/// other than silu, attention_bias, mlp_bias. InputError naming the file and the key. Throws
/// InputError(field, ...) when the file is missing. The config's name is the folder's name
/// unless config.json has `_name_or_path`.
ModelConfig load_hf_config(const std::string& dir, const std::string& field);

/// What load_hf_weights found.
struct HfLoadReport {
  int64_t num_tensors = 0;          // weights copied into the module
  int64_t num_buffers_ignored = 0;  // GPT-2 h.i.attn.bias / masked_bias, LLaMA rotary_emb.inv_freq
  bool prefixed = false;            // GPT-2 names carried "transformer." (GPT2LMHeadModel layout)
  bool lm_head_present = false;     // a tied lm_head.weight was in the file (and equal to the embedding)
  int64_t num_files = 0;            // safetensors files read (shards)
};

/// Copies the weights of the HF snapshot in `dir` (model.safetensors or the sharded index)
/// into `model`, converting to the module's dtype. Throws InputError (field or file) for a
/// missing or unknown tensor name (the first few listed), a shape that does not match the
/// module's config, a tied lm_head.weight that differs from the embedding, or any reader
/// error. The module is unchanged when it throws before copying (names and shapes are all
/// checked first).
HfLoadReport load_hf_weights(GptImpl& model, const std::string& dir, const std::string& field);

/// Writes `<dir>/model.safetensors` and `<dir>/config.json` (creating `dir`) in the layout
/// transformers' GPT2LMHeadModel / LlamaForCausalLM.from_pretrained loads (save_pretrained's:
/// no tied lm_head.weight, no buffers, metadata {"format": "pt"}). Returns the bytes of
/// model.safetensors. Throws InputError(field, ...) when the folder cannot be created or written.
int64_t save_hf_weights(const GptImpl& model, const std::string& dir, const std::string& field);

}  // namespace oomkit
