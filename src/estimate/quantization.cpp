// Quantized frozen weights (QLoRA NF4 + double quantization, LLM.int8()). Sources: Dettmers et
// al. 2023, "QLoRA: Efficient Finetuning of Quantized LLMs", sec. 3; Dettmers et al. 2022,
// "LLM.int8()"; bitsandbytes functional.py quantize_4bit (blocksize 64, absmax per block,
// compress_statistics -> quantize_blockwise(absmax, blocksize=256) and the fp32 offset) and
// Linear8bitLt (CB int8 + SCB fp32 per row); artidoro/qlora qlora.py (norms in fp32, LoRA
// layers and embeddings in bf16).
#include "oomkit/estimate/quantization.h"

#include <cstdio>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"

namespace oomkit {
namespace {
int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }
}  // namespace

BaseQuantization parse_base_quantization(const std::string& s, const std::string& field) {
  if (s == "none") return BaseQuantization::kNone;
  if (s == "nf4") return BaseQuantization::kNf4;
  if (s == "int8") return BaseQuantization::kInt8;
  throw InputError(field, "unknown value '" + s + "'; valid: none, nf4, int8");
}

const char* to_string(BaseQuantization q) {
  switch (q) {
    case BaseQuantization::kNone: return "none";
    case BaseQuantization::kNf4: return "nf4";
    case BaseQuantization::kInt8: return "int8";
  }
  return "unknown";
}

double nf4_bits_per_parameter(const QuantizationOptions& q) {
  const double b1 = static_cast<double>(q.block_size), b2 = static_cast<double>(q.block_size2);
  return q.double_quant ? 4.0 + 8.0 / b1 + 32.0 / (b1 * b2) : 4.0 + 32.0 / b1;
}

int64_t quantized_weight_bytes(const QuantizationOptions& q, int64_t rows, int64_t cols) {
  const int64_t n = checked_mul(rows, cols, "parameters");
  switch (q.base) {
    case BaseQuantization::kNone: return 0;
    case BaseQuantization::kInt8: return checked_add(n, checked_mul(rows, 4, "parameters"), "parameters");
    case BaseQuantization::kNf4: {
      const int64_t blocks = ceil_div(n, q.block_size);
      const int64_t packed = ceil_div(n, 2);
      if (!q.double_quant) return checked_add(packed, checked_mul(blocks, 4, "parameters"), "parameters");
      // uint8 absmax per block + fp32 absmax per block_size2 absmax values + fp32 offset.
      return checked_add(checked_add(packed, blocks, "parameters"), 4 * ceil_div(blocks, q.block_size2) + 4, "parameters");
    }
  }
  return 0;
}

bool quantizes(const ParameterTensor& t) {
  return t.matrix && t.linear && (t.part == ParamPart::kAttention || t.part == ParamPart::kMlp);
}

int64_t frozen_tensor_bytes(const ParameterTensor& t, int64_t rows, int64_t cols, const TrainingSetup& s, int64_t default_bytes) {
  if (s.quantization.base == BaseQuantization::kNone) return checked_mul(checked_mul(rows, cols, "parameters"), default_bytes, "parameters");
  if (quantizes(t)) return quantized_weight_bytes(s.quantization, rows, cols);
  const int64_t width = t.part == ParamPart::kNorms ? 4 : default_bytes;
  return checked_mul(checked_mul(rows, cols, "parameters"), width, "parameters");
}

std::string frozen_base_formula(const TrainingSetup& s) {
  switch (s.quantization.base) {
    case BaseQuantization::kNone: return "LoRA: the frozen base in the compute dtype, no gradients or optimizer state";
    case BaseQuantization::kInt8:
      return "LoRA: Linear weights int8 + an fp32 scale per row (LLM.int8()), norms fp32, embeddings/head in the compute dtype";
    case BaseQuantization::kNf4: break;
  }
  char bits[32];
  std::snprintf(bits, sizeof bits, "%.3f", nf4_bits_per_parameter(s.quantization));
  return std::string("QLoRA: Linear weights NF4") + (s.quantization.double_quant ? " + double quantization" : "") + ", " + bits +
         " bits/param (Dettmers et al. 2023, sec. 3), norms fp32, embeddings/head in the compute dtype";
}

}  // namespace oomkit
