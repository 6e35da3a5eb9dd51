// Block-wise 8-bit quantization with bitsandbytes' dynamic (tree) data type (Dettmers et al.
// 2022, "8-bit Optimizers via Block-wise Quantization", §2.2-2.3; Dettmers 2016 for the
// dynamic type). Used by 8-bit Adam for its states.
#pragma once

#include <cstdint>
#include <vector>

#include <torch/torch.h>

namespace oomkit {

/// bitsandbytes' `create_dynamic_map(signed, max_exponent_bits=7, total_bits=8)`: 256 sorted
/// fp32 values in [-1, 1] (signed) or [0, 1] (unsigned). For each exponent i = 0..6, the
/// midpoints of linspace(0.1, 1, 2^i + 1) (signed; 2^(i+1) + 1 unsigned) scaled by 10^(i-6),
/// mirrored to negative for the signed map; plus 0 and 1. Shape (256,), float32.
torch::Tensor dynamic_quantization_map(bool is_signed);

/// Block-wise quantization of `x` (any shape, float) with the 256-entry `code` map.
struct BlockwiseQuantized {
  torch::Tensor codes;   // uint8, x's shape: index into `code` of the nearest value to x / absmax
  torch::Tensor absmax;  // float32, (ceil(numel / block_size),): max |x| of each block
};

/// Quantizes `x` block by block (blocks of `block_size` consecutive elements in row-major
/// order; the last may be partial). A block of zeros gets absmax 0 and the code of 0.
BlockwiseQuantized quantize_blockwise(const torch::Tensor& x, const torch::Tensor& code, int64_t block_size);

/// Inverse of quantize_blockwise: code[codes] · absmax of the element's block, float32,
/// `codes`' shape.
torch::Tensor dequantize_blockwise(const torch::Tensor& codes, const torch::Tensor& absmax, const torch::Tensor& code,
                                   int64_t block_size);

/// Exact nearest-entry lookup into a sorted 256-entry map, for the fused CPU kernel:
/// index(t) = the number of midpoints between consecutive map entries that are < t (the same
/// as torch::searchsorted on the float32 midpoints, which quantize_blockwise uses). A table
/// over the float bit pattern (sign, exponent, top 8 mantissa bits) for |t| in [2^-24, 1)
/// holds each bucket's first index and the one midpoint inside it; other values (and the
/// rare bucket holding two midpoints) fall back to a binary search. ~96 KiB per map.
class NearestCode {
 public:
  explicit NearestCode(const torch::Tensor& map);  // (256,) float32, sorted
  uint8_t operator()(float t) const;

 private:
  uint8_t search(float t) const;
  struct Bucket {
    float midpoint;    // the midpoint inside the bucket; +inf when none
    uint8_t base;      // index of the bucket's smallest value
    bool ambiguous;    // two or more midpoints inside: binary search
  };
  std::vector<float> midpoints_;  // 255, float32 (code[i] + code[i+1]) / 2
  std::vector<Bucket> buckets_;   // [sign][exponent - kMinExponent][top 8 mantissa bits]
};

}  // namespace oomkit
