// Bytes of quantized frozen weights: QLoRA's NF4 with double quantization and LLM.int8()'s
// 8-bit base, tensor by tensor as bitsandbytes stores them.
#pragma once

#include <cstdint>
#include <string>

#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/parameters.h"

namespace oomkit {

/// "none", "nf4", "int8"; parse throws InputError(field) listing them.
BaseQuantization parse_base_quantization(const std::string& s, const std::string& field = "--quantize-base");
const char* to_string(BaseQuantization q);

/// Bits per parameter of NF4 storage in the limit of large tensors (Dettmers et al. 2023,
/// sec. 3 "Double Quantization"): 4 + 32/64 = 4.5 without double quantization, 4 + 8/64 +
/// 32/(64·256) = 4.127 with it (blocks of 64 and 256).
double nf4_bits_per_parameter(const QuantizationOptions& q);

/// Bytes of one (rows x cols) weight stored quantized (per bitsandbytes functional.py):
///  NF4: ceil(n/2) packed nibbles + per 64-block absmax (fp32, or uint8 with double
///  quantization plus one fp32 per 256 absmax values and the fp32 offset);
///  int8: n int8 + rows fp32 scales (SCB).
/// n = rows·cols. Throws InputError("parameters") on overflow.
int64_t quantized_weight_bytes(const QuantizationOptions& q, int64_t rows, int64_t cols);

/// Whether bitsandbytes quantizes this frozen tensor: Linear weights of the blocks (attention
/// and MLP matrices). Embeddings, the output head (transformers keeps lm_head unquantized),
/// biases and norms are not.
bool quantizes(const ParameterTensor& t);

/// Bytes of one frozen base tensor of (rows x cols) on this GPU: quantized per the options,
/// else norms in fp32 when quantizing (QLoRA's qlora.py casts norm layers to float32) and the
/// rest in the compute dtype (`default_bytes` per element).
int64_t frozen_tensor_bytes(const ParameterTensor& t, int64_t rows, int64_t cols, const TrainingSetup& s, int64_t default_bytes);

/// The formula text of the parameters/frozen_base item under `s`.
std::string frozen_base_formula(const TrainingSetup& s);

}  // namespace oomkit
