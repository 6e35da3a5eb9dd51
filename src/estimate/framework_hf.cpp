// The hf profile: Hugging Face Transformers' eager modules differ from oomkit's trainer (whose op
// sequence the activation model counts) in two places that change memory; everything else
// (Conv1D = addmm, split/merge heads, softmax, dropout, the tied head; LlamaRMSNorm,
// repeat_kv, SiLU·up) is the same op sequence. Source: huggingface/transformers v4.44,
// src/transformers/activations.py and models/gpt2/modeling_gpt2.py, models/llama/modeling_llama.py.
#include <algorithm>
#include <string_view>
#include <vector>

#include "oomkit/estimate/activations.h"
#include "oomkit/estimate/framework.h"

namespace oomkit {

void apply_hf_differences(const ModelConfig& m, const TrainingSetup& s, ActivationModel& am) {
  const ActivationDtypes dt = activation_dtypes(s);
  const int64_t c = dt.compute, d_ff = m.d_ff;
  if (m.is_gpt2()) {
    // GPT-2's "gelu_new" is NewGELUActivation, written in Python ops:
    //   0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
    // Autograd saves x (pow; c_fc's output, already counted as gelu_input), tanh's output
    // (TanhBackward), and both operands of the last mul: 0.5·x and (1 + tanh) (MulBackward0):
    // three (B, T, d_ff) tensors beyond LibTorch's fused gelu(approximate='tanh').
    ActivationTerm extra;
    extra.scope = ActScope::kBlock;
    extra.name = "gelu_new_intermediates";
    extra.shape = "3·d_ff";
    extra.op = "HF NewGELUActivation: tanh saves its output, the final mul saves 0.5·x and 1 + tanh";
    extra.elements_per_token = 3 * d_ff;
    extra.bytes_per_element = c;
    extra.tp_sharded = true;
    auto it = std::find_if(am.terms.begin(), am.terms.end(),
                           [](const ActivationTerm& t) { return std::string_view(t.name) == "gelu_input"; });
    am.terms.insert(it == am.terms.end() ? it : it + 1, extra);
    // The block's end holds every saved term: it grows by the same amount.
    for (int i = 0; i < am.num_forward_moments; ++i) {
      if (std::string_view(am.forward_moments[i].where) == "block end") am.forward_moments[i].bytes_per_token += 3 * d_ff * c;
    }
    // Without autograd (eval, a checkpointed block's first forward) the last mul holds x,
    // 0.5·x, 1 + tanh and its output beside the residual and ln_2's output.
    am.block_moments_nograd.push_back({"HF gelu_new (no grad)", 2 * m.n_embd * dt.residual + 4 * d_ff * c, 0, {}});
    // Backward through it: MulBackward0 makes both operands' gradients (2·d_ff) before they are
    // combined into x's gradient.
    am.block_backward_mlp += 2 * d_ff * c;
  }
  // GPT2LMHeadModel / LlamaForCausalLM (v4.44) compute the loss on
  //   shift_logits = logits[..., :-1, :].contiguous()
  // a (B, T-1, V) copy of the logits that lives while cross_entropy runs (counted per token as
  // V, a 1/T overestimate).
  am.loss_transient += m.vocab_size * c;
}

}  // namespace oomkit
