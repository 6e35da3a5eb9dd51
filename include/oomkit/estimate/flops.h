// Model FLOPs of a training step and model FLOPs utilisation (MFU), as PaLM defines them
// (Chowdhery et al. 2022, "PaLM: Scaling Language Modeling with Pathways", appendix B). One
// implementation: `oomkit train`'s progress line and summary, and bench/train_throughput.py
// (which reads model_flops_per_token from the trainer's --json summary).
#pragma once

#include <cstdint>

#include "oomkit/core/model_config.h"
#include "oomkit/core/training_setup.h"

namespace oomkit {

/// N of the 6N term: the parameters that multiply activations, i.e. every parameter except
/// embedding lookup tables (GPT-2's wpe, LLaMA's embed_tokens), with a tied embedding counted
/// once as the output head's matmul weight (GPT-2's wte, LLaMA with tie_word_embeddings).
/// For GPT-2 this is nanoGPT's get_num_params(non_embedding=True) (all parameters minus wpe),
/// which its estimate_mfu() uses for appendix B's N: 123,653,376 for gpt2 (124M). Norm
/// weights and biases are included (they are in N; their FLOPs are negligible either way).
/// Throws InputError for an invalid config or an int64 overflow.
int64_t mfu_parameters(const ModelConfig& model);

/// Training (forward + backward) FLOPs per token, PaLM appendix B: 6·N + 12·L·H·Q·T, with
/// N = mfu_parameters(), L layers, H query heads, Q = d / H the head dimension, T the
/// sequence length of the run (tokens per sequence, not n_positions). 6N: a multiply-add
/// (2 FLOPs) per parameter per token forward, twice that backward; 12·L·H·Q·T: the attention
/// scores QKᵀ and the weighted sum AV over all T positions (2·2·H·Q·T per layer and token
/// forward, twice that backward), the full T x T as PaLM counts it (a causal kernel skips
/// about half). Grouped-query attention does not change it (every query head attends).
/// Activation checkpointing's recomputation is not counted: these are model FLOPs, not
/// hardware FLOPs. Throws InputError for seq_len < 1, an invalid config or int64 overflow.
int64_t model_flops_per_token(const ModelConfig& model, int64_t seq_len);

/// The same with LoRA adapters (lora.rank > 0; rank 0 is the overload above): the frozen base
/// computes no weight gradients, so its dense term is 4·N (forward 2N + the input gradients 2N)
/// and the adapters' is the full 6·N_lora (N_lora = count_parameters(model, lora).lora, the A
/// and B matrices; Hu et al. 2021, "LoRA", section 4.2, practical benefits: no gradients for
/// the frozen weights); the attention term is unchanged (no weights). Throws as the overload above, and
/// InputError for bad --lora-targets.
int64_t model_flops_per_token(const ModelConfig& model, int64_t seq_len, const LoraConfig& lora);

/// MFU = tokens_per_s · flops_per_token / peak_flops_per_s (a fraction; 0 when either rate is
/// not positive). tokens_per_s and peak_flops_per_s must count the same devices.
double model_flops_utilization(double tokens_per_s, int64_t flops_per_token, double peak_flops_per_s);

}  // namespace oomkit
