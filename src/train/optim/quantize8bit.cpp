// Block-wise 8-bit quantization (bitsandbytes' dynamic type). See
// include/oomkit/train/optim/quantize8bit.h.
#include "oomkit/train/optim/quantize8bit.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace oomkit {
namespace {

int64_t num_blocks(int64_t numel, int64_t block_size) { return (numel + block_size - 1) / block_size; }

// The flattened float32 tensor zero-padded to whole blocks, viewed as (blocks, block_size).
torch::Tensor as_blocks(const torch::Tensor& flat, int64_t block_size) {
  const int64_t n = flat.numel();
  const int64_t blocks = num_blocks(n, block_size);
  const int64_t pad = blocks * block_size - n;
  torch::Tensor padded = pad > 0 ? torch::cat({flat, torch::zeros({pad}, flat.options())}) : flat;
  return padded.view({blocks, block_size});
}

// NearestCode table layout: |t| in [2^-24, 1) is biased exponents [kMinExponent, 127).
constexpr int kMinExponent = 127 - 24;
constexpr int kNumExponents = 127 - kMinExponent;
constexpr int kMantissaBits = 8;  // top mantissa bits per bucket: relative width 2^-8
constexpr int kBucketShift = 23 - kMantissaBits;

uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

}  // namespace

torch::Tensor dynamic_quantization_map(bool is_signed) {
  // bitsandbytes functional.create_dynamic_map(signed, max_exponent_bits=7, total_bits=8):
  // 7 non-sign bits all usable by the exponent, so no extra linear items.
  constexpr int kMaxExponentBits = 7;
  std::vector<double> data;
  data.reserve(256);
  for (int i = 0; i < kMaxExponentBits; ++i) {
    const int64_t fraction_items = is_signed ? (int64_t{1} << i) + 1 : (int64_t{1} << (i + 1)) + 1;
    const double scale = std::pow(10.0, -(kMaxExponentBits - 1) + i);
    for (int64_t k = 0; k + 1 < fraction_items; ++k) {
      // midpoint of consecutive boundaries of linspace(0.1, 1, fraction_items)
      const double step = 0.9 / static_cast<double>(fraction_items - 1);
      const double mean = 0.1 + step * (static_cast<double>(k) + 0.5);
      data.push_back(scale * mean);
      if (is_signed) data.push_back(-scale * mean);
    }
  }
  data.push_back(0.0);
  data.push_back(1.0);
  TORCH_INTERNAL_ASSERT(data.size() == 256, "dynamic map has ", data.size(), " entries");
  std::sort(data.begin(), data.end());
  return torch::tensor(data, torch::kDouble).to(torch::kFloat);
}

BlockwiseQuantized quantize_blockwise(const torch::Tensor& x, const torch::Tensor& code, int64_t block_size) {
  TORCH_CHECK(block_size >= 1, "quantize_blockwise: block_size must be >= 1, got ", block_size);
  TORCH_CHECK(code.dim() == 1 && code.numel() == 256, "quantize_blockwise: code must have 256 entries");
  const int64_t n = x.numel();
  torch::Tensor blocks = as_blocks(x.reshape(-1).to(torch::kFloat), block_size);  // (blocks, block_size)
  torch::Tensor absmax = blocks.abs().amax(1);                                       // (blocks,)
  torch::Tensor safe = torch::where(absmax > 0, absmax, torch::ones_like(absmax));
  torch::Tensor normalized = blocks.div(safe.unsqueeze(1)).reshape(-1).narrow(0, 0, n);
  // Nearest map entry: count the midpoints between consecutive entries that lie below x.
  torch::Tensor midpoints = (code.narrow(0, 0, 255) + code.narrow(0, 1, 255)).mul_(0.5);
  torch::Tensor index = torch::searchsorted(midpoints, normalized, /*out_int32=*/true);
  return {index.to(torch::kUInt8).reshape(x.sizes()), absmax};
}

torch::Tensor dequantize_blockwise(const torch::Tensor& codes, const torch::Tensor& absmax, const torch::Tensor& code,
                                   int64_t block_size) {
  TORCH_CHECK(block_size >= 1, "dequantize_blockwise: block_size must be >= 1, got ", block_size);
  const int64_t n = codes.numel();
  TORCH_CHECK(absmax.numel() == num_blocks(n, block_size), "dequantize_blockwise: ", absmax.numel(),
              " scales for ", n, " elements in blocks of ", block_size);
  torch::Tensor values = code.index_select(0, codes.reshape(-1).to(torch::kLong));
  torch::Tensor blocks = as_blocks(values, block_size).mul(absmax.unsqueeze(1));
  return blocks.reshape(-1).narrow(0, 0, n).reshape(codes.sizes());
}

NearestCode::NearestCode(const torch::Tensor& map) {
  TORCH_CHECK(map.dim() == 1 && map.numel() == 256 && map.scalar_type() == torch::kFloat,
              "NearestCode: the map must be (256,) float32");
  const torch::Tensor mids = (map.narrow(0, 0, 255) + map.narrow(0, 1, 255)).mul_(0.5).contiguous();
  midpoints_.assign(mids.data_ptr<float>(), mids.data_ptr<float>() + 255);
  buckets_.resize(size_t{2} * kNumExponents << kMantissaBits);
  for (uint32_t sign = 0; sign < 2; ++sign) {
    for (int e = 0; e < kNumExponents; ++e) {
      for (uint32_t mant = 0; mant < (1u << kMantissaBits); ++mant) {
        const uint32_t lo_bits = (sign << 31) | (static_cast<uint32_t>(e + kMinExponent) << 23) | (mant << kBucketShift);
        const float a = bits_float(lo_bits);
        const float b = bits_float(lo_bits | ((1u << kBucketShift) - 1));
        const float t_min = std::min(a, b), t_max = std::max(a, b);
        const auto first = std::lower_bound(midpoints_.begin(), midpoints_.end(), t_min);  // first mid >= t_min
        const auto last = std::upper_bound(midpoints_.begin(), midpoints_.end(), t_max);   // first mid > t_max
        Bucket& bucket = buckets_[((sign * kNumExponents + e) << kMantissaBits) | mant];
        bucket.base = static_cast<uint8_t>(first - midpoints_.begin());  // mids < t_min
        bucket.ambiguous = (last - first) >= 2;
        bucket.midpoint = (last - first) == 1 ? *first : std::numeric_limits<float>::infinity();
      }
    }
  }
}

uint8_t NearestCode::search(float t) const {
  if (std::isnan(t)) t = 0.0f;
  return static_cast<uint8_t>(std::lower_bound(midpoints_.begin(), midpoints_.end(), t) - midpoints_.begin());
}

uint8_t NearestCode::operator()(float t) const {
  const uint32_t bits = float_bits(t);
  const int e = static_cast<int>((bits >> 23) & 0xffu) - kMinExponent;
  if (e < 0 || e >= kNumExponents) return search(t);
  const uint32_t sign = bits >> 31;
  const Bucket& bucket = buckets_[((sign * kNumExponents + e) << kMantissaBits) | ((bits >> kBucketShift) & 0xffu)];
  if (bucket.ambiguous) return search(t);
  return static_cast<uint8_t>(bucket.base + (t > bucket.midpoint ? 1 : 0));
}

}  // namespace oomkit
