// `--precision auto` (precision_auto.h): the resolver on injected CPU flags, oneDNN caps and GPU
// compute capabilities. Expected values follow the header's rule: bf16 from compute capability 8.0
// (NVIDIA's Ampere), on the CPU avx512_bf16 or amx_bf16 when the oneDNN cap lets oneDNN use them.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "oomkit/core/error.h"
#include "oomkit/estimate/matmul_workspace.h"
#include "oomkit/estimate/precision_auto.h"

namespace oomkit {
namespace {

AutoPrecisionInput cpu(std::set<std::string> flags, std::string cap) {
  AutoPrecisionInput in;
  in.cpu_flags = std::move(flags);
  in.onednn_isa_cap = std::move(cap);
  return in;
}

AutoPrecisionInput gpu(std::optional<ComputeCapability> cc) {
  AutoPrecisionInput in;
  in.gpu = true;
  in.gpu_capability = cc;
  in.gpu_name = "cuda:0";
  // CPU flags are ignored when the GPU runs the matmuls.
  in.cpu_flags = {"avx512_bf16", "amx_bf16"};
  return in;
}

// CPU: avx512_bf16 under oomkit's default cap (AVX512_CORE_BF16) is native; AMX is capped off
// there, so an AMX CPU resolves through its avx512_bf16; a cap below AVX512_CORE_BF16 is fp32.
TEST(PrecisionAuto, CpuFlagsAndOnednnCap) {
  const AutoPrecision avx = resolve_auto_precision(cpu({"avx2", "avx512f", "avx512_bf16"}, "AVX512_CORE_BF16"));
  EXPECT_EQ(avx.precision, Precision::kBf16Mixed);
  EXPECT_EQ(avx.reason, "avx512_bf16");
  const AutoPrecision spr = resolve_auto_precision(cpu({"avx512_bf16", "amx_bf16", "amx_tile"}, "AVX512_CORE_BF16"));
  EXPECT_EQ(spr.precision, Precision::kBf16Mixed);
  EXPECT_EQ(spr.reason, "avx512_bf16");
  const AutoPrecision amx = resolve_auto_precision(cpu({"avx512_bf16", "amx_bf16"}, "avx512_core_amx"));
  EXPECT_EQ(amx.precision, Precision::kBf16Mixed);
  EXPECT_EQ(amx.reason, "amx_bf16");
  const AutoPrecision capped = resolve_auto_precision(cpu({"avx512_bf16", "amx_bf16"}, "AVX2"));
  EXPECT_EQ(capped.precision, Precision::kFp32);
  EXPECT_EQ(capped.reason, "avx512_bf16 capped off by ONEDNN_MAX_CPU_ISA=AVX2");
  const AutoPrecision amx_only_capped = resolve_auto_precision(cpu({"amx_bf16"}, "AVX512_CORE_BF16"));
  EXPECT_EQ(amx_only_capped.precision, Precision::kFp32);
  const AutoPrecision skylake = resolve_auto_precision(cpu({"avx2", "avx512f", "avx512bw"}, "AVX512_CORE_BF16"));
  EXPECT_EQ(skylake.precision, Precision::kFp32);
  EXPECT_EQ(skylake.reason, "no avx512_bf16 or amx_bf16 in the CPU flags");
  EXPECT_EQ(resolve_auto_precision(cpu({}, "")).precision, Precision::kFp32);
  EXPECT_EQ(resolve_auto_precision(cpu({"avx512_bf16"}, "")).precision, Precision::kBf16Mixed);  // no cap
}

// GPU: compute capability >= 8.0 is bf16-mixed (A100 8.0, RTX 3090 8.6, H100 9.0), below it fp32
// (V100 7.0, T4 7.5), unknown capability fp32; the CPU's flags do not matter.
TEST(PrecisionAuto, GpuComputeCapability) {
  EXPECT_EQ(resolve_auto_precision(gpu(ComputeCapability{8, 0})).precision, Precision::kBf16Mixed);
  EXPECT_EQ(resolve_auto_precision(gpu(ComputeCapability{9, 0})).reason, "cuda:0: compute capability 9.0 >= 8.0");
  const AutoPrecision turing = resolve_auto_precision(gpu(ComputeCapability{7, 5}));
  EXPECT_EQ(turing.precision, Precision::kFp32);
  EXPECT_EQ(turing.reason, "cuda:0: compute capability 7.5 < 8.0, no bf16 tensor cores");
  EXPECT_EQ(resolve_auto_precision(gpu(std::nullopt)).precision, Precision::kFp32);
  EXPECT_EQ(format_auto_precision(resolve_auto_precision(gpu(ComputeCapability{8, 6}))),
            "precision auto -> bf16-mixed (cuda:0: compute capability 8.6 >= 8.0)");
}

// The GPU table's generations (NVIDIA's CUDA GPUs list): Ampere and later bf16, Volta/Turing not,
// non-NVIDIA entries have none; unknown names are refused naming --gpu.
TEST(PrecisionAuto, GpuTableCapabilities) {
  ASSERT_TRUE(gpu_compute_capability("a100-sxm4-80gb").has_value());
  EXPECT_EQ(gpu_compute_capability("a100-sxm4-80gb")->major, 8);
  EXPECT_EQ(gpu_compute_capability("t4")->minor, 5);
  EXPECT_EQ(gpu_compute_capability("rtx-5090")->major, 12);
  EXPECT_FALSE(gpu_compute_capability("mi300x").has_value());
  EXPECT_THROW(gpu_compute_capability("no-such-gpu"), InputError);
}

// read_cpu_flags takes the first "flags" line of a cpuinfo-format file; missing file: none.
TEST(PrecisionAuto, ReadCpuFlags) {
  const std::string path = ::testing::TempDir() + "precision_auto_cpuinfo";
  {
    std::ofstream f(path);
    f << "processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu avx2 avx512_bf16 amx_tile\nbugs\t\t: x\n"
      << "processor\t: 1\nflags\t\t: fpu\n";
  }
  const std::set<std::string> flags = read_cpu_flags(path);
  EXPECT_EQ(flags, (std::set<std::string>{"fpu", "avx2", "avx512_bf16", "amx_tile"}));
  std::remove(path.c_str());
  EXPECT_TRUE(read_cpu_flags(path).empty());
}

}  // namespace
}  // namespace oomkit

namespace oomkit {
namespace {

// amx_hazard() (matmul_workspace.h): AMX is kept off exactly when a contraction length of the
// step is ≡ 31 (mod 32), the lengths where Debian's oneDNN 2.6 AMX kernels died with SIGILL
// (bench/amx_contraction_probe.py), or when T is odd (then some micro-batch's B·T is).
TEST(OnednnAmx, HazardNamesAContractionLengthCongruentTo31Mod32) {
  ModelConfig nano;  // gpt-nano's shape: d=128, h=4 (d_h=32), d_ff=512, V=256
  nano.n_embd = 128;
  nano.n_head = nano.n_kv_head = 4;
  nano.d_ff = 512;
  nano.vocab_size = 256;
  EXPECT_EQ(amx_hazard(nano, 128, 0), "");
  EXPECT_EQ(amx_hazard(nano, 64, 8), "");
  EXPECT_EQ(amx_hazard(nano, 127, 0).rfind("T = 127 is odd", 0), 0u);
  EXPECT_EQ(amx_hazard(nano, 128, 63), "r (LoRA) = 63 ≡ 31 (mod 32)");
  ModelConfig m = nano;
  m.d_ff = 191;
  EXPECT_EQ(amx_hazard(m, 128, 0), "d_ff = 191 ≡ 31 (mod 32)");
  m.d_ff = 95;  // ≡ 31 (mod 64) as well
  EXPECT_EQ(amx_hazard(m, 128, 0), "d_ff = 95 ≡ 31 (mod 32)");
  m.d_ff = 96;
  EXPECT_EQ(amx_hazard(m, 128, 0), "");
  m = nano;
  m.vocab_size = 50239;  // 785·64 - 1
  EXPECT_EQ(amx_hazard(m, 128, 0), "V = 50239 ≡ 31 (mod 32)");
  m = nano;
  m.n_embd = 126;  // d_h = 63
  m.n_head = m.n_kv_head = 2;
  EXPECT_EQ(amx_hazard(m, 128, 0), "d_h = 63 ≡ 31 (mod 32)");
  m = nano;
  m.n_embd = 21;  // GPT-2's fused QKV: 3d = 63; d_h = 7
  m.n_head = m.n_kv_head = 3;
  EXPECT_EQ(amx_hazard(m, 128, 0), "3d (the fused QKV) = 63 ≡ 31 (mod 32)");
  m.architecture = Architecture::kLlama;  // separate q/k/v projections: no 3d contraction
  EXPECT_EQ(amx_hazard(m, 128, 0), "");
  m = nano;
  m.n_embd = 190 * 2;  // 380; h = 2, d_h = 190; the key/value width 190·1 is not ≡ 31 (mod 32) either
  m.n_head = 2;
  m.n_kv_head = 1;
  EXPECT_EQ(amx_hazard(m, 128, 0), "");
  m.n_embd = 254;  // d_h = 127: the key/value width h_kv·d_h = 127 is named first
  EXPECT_EQ(amx_hazard(m, 128, 0), "h_kv·d_h = 127 ≡ 31 (mod 32)");
}

}  // namespace
}  // namespace oomkit
