// The 20 kinds of diagnosis failure found on real public OOM reports (issue 10,
// ../shared/cases/2026-11-30/diagnose-kinds.md): each kind's made-up example, with the answer it
// must get. Expected sizes are computed here from the printed text (2^10 units), not by the
// parser; expected causes follow the kinds file and the arithmetic in each comment.
#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "oomkit/core/units.h"
#include "oomkit/diagnose/diagnosis.h"
#include "oomkit/diagnose/oom_report.h"

using namespace oomkit;

namespace {

int64_t gib(double v) { return static_cast<int64_t>(std::llround(v * 1073741824.0)); }
int64_t mib(double v) { return static_cast<int64_t>(std::llround(v * 1048576.0)); }

Diagnosis one(const std::string& log) {
  const auto ds = diagnose_log(log);
  EXPECT_EQ(ds.size(), 1u) << log;
  return ds.empty() ? Diagnosis{} : ds.front();
}

OomCause top(const Diagnosis& d) { return d.findings.empty() ? OomCause::kOther : d.findings.front().category; }

bool has(const Diagnosis& d, OomCause c) {
  for (const auto& f : d.findings) {
    if (f.category == c) return true;
  }
  return false;
}

}  // namespace

// Kind 1: a PyTorch message pasted from "Tried to allocate", without its head. 10.76 - 0.018
// free - 0.059 reserved = 10.7 GiB is outside the allocator: another process.
TEST(DiagnoseKinds, K01HeadlessMessage) {
  const Diagnosis d = one("Tried to allocate 120.00 MiB (GPU 0; 10.76 GiB total capacity; 40.00 MiB already allocated; "
                          "18.00 MiB free; 60.00 MiB reserved in total by PyTorch)");
  ASSERT_TRUE(d.oom);
  EXPECT_EQ(d.oom->family, "pytorch1");
  EXPECT_EQ(d.oom->requested_bytes, mib(120));
  EXPECT_EQ(top(d), OomCause::kOtherProcess);
}

// Kind 2: legacy TH "Buy new RAM!": host RAM, 40 GiB (TH truncates size / 2^30).
TEST(DiagnoseKinds, K02LegacyThCpu) {
  const Diagnosis d = one("RuntimeError: $ Torch: not enough memory: you tried to allocate 40GB. Buy new RAM!");
  ASSERT_TRUE(d.oom);
  EXPECT_EQ(d.oom->family, "th_cpu_allocator");
  EXPECT_EQ(d.oom->requested_bytes, 40 * kGiB);
  EXPECT_TRUE(d.oom->requested_is_truncated);
  EXPECT_EQ(top(d), OomCause::kCpuRam);
  EXPECT_FALSE(d.ambiguous());
}

// Kind 3: XLA on TPU: "512.00M" and "300.25M" are binary (XLA's HumanReadableNumBytes).
TEST(DiagnoseKinds, K03XlaTpu) {
  const Diagnosis d = one("RuntimeError: Resource exhausted: Attempting to allocate 512.00M. That was not possible. "
                          "There are 300.25M free.; (0x1x0_HBM0)");
  ASSERT_TRUE(d.oom);
  EXPECT_EQ(d.oom->family, "xla");
  EXPECT_EQ(d.oom->device, "tpu");
  EXPECT_EQ(d.oom->requested_bytes, mib(512));
  EXPECT_EQ(d.oom->free_bytes, mib(300.25));
}

// Kind 4: XLA/JAX on GPU: an exact byte count.
TEST(DiagnoseKinds, K04XlaGpuBytes) {
  const Diagnosis d = one("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to "
                          "allocate 2147483648 bytes.");
  ASSERT_TRUE(d.oom);
  EXPECT_EQ(d.oom->family, "xla");
  EXPECT_EQ(d.oom->requested_bytes, 2147483648);
  EXPECT_EQ(d.framework, "jax");
}

// Kind 5: TensorFlow: the size is shape x dtype: 64*256*128*128 floats * 4 B = 1 GiB.
TEST(DiagnoseKinds, K05TensorFlowShape) {
  const Diagnosis d = one("tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor "
                          "with shape[64,256,128,128] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by "
                          "allocator GPU_0_bfc");
  ASSERT_TRUE(d.oom);
  EXPECT_EQ(d.oom->family, "tensorflow");
  EXPECT_EQ(d.oom->requested_bytes, int64_t{64} * 256 * 128 * 128 * 4);
  EXPECT_EQ(d.oom->requested_bytes, kGiB);
  EXPECT_EQ(d.oom->device, "gpu:0");
  EXPECT_EQ(d.oom->tensor_shape, "64,256,128,128");
  EXPECT_EQ(d.framework, "tensorflow");
}

// Kind 6: the Linux OOM killer: one report from the worker's and the kernel's line; host RAM;
// anon-rss 15,000,000 kB = 14.3 GiB; the fix names num_workers.
TEST(DiagnoseKinds, K06OomKiller) {
  const Diagnosis d = one("RuntimeError: DataLoader worker (pid 4711) is killed by signal: Killed.\n"
                          "[12345.678901] Out of memory: Killed process 4711 (python) total-vm:30000000kB, "
                          "anon-rss:15000000kB, file-rss:0kB, shmem-rss:0kB\n");
  ASSERT_TRUE(d.oom);
  EXPECT_EQ(d.oom->family, "oom_killer");
  EXPECT_EQ(d.oom->rss_bytes, int64_t{15000000} * 1024);
  EXPECT_EQ(d.oom->killed_pid, 4711);
  EXPECT_EQ(top(d), OomCause::kCpuRam);
  EXPECT_FALSE(d.ambiguous());
  EXPECT_NE(d.findings.front().fix.find("num_workers"), std::string::npos);
}

// Kind 7: vLLM's KV budget: 12000 tokens < max_model_len 32768.
TEST(DiagnoseKinds, K07VllmKvBudget) {
  const Diagnosis d = one("ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that "
                          "can be stored in KV cache (12000). Try increasing `gpu_memory_utilization` or decreasing "
                          "`max_model_len` when initializing the engine.");
  ASSERT_TRUE(d.oom);
  EXPECT_EQ(d.oom->family, "vllm_kv_cache");
  EXPECT_EQ(d.oom->max_model_len, 32768);
  EXPECT_EQ(d.oom->kv_cache_tokens, 12000);
  EXPECT_EQ(top(d), OomCause::kGenerationKvCache);
  EXPECT_FALSE(d.ambiguous());
  EXPECT_NE(d.findings.front().fix.find("max_model_len"), std::string::npos);
}

// Kind 8: 1.0-1.3 "cached" is the cached free part: reserved 10.20 + 3.90 = 14.10 GiB; 3.90 GiB
// cached > the 2.50 GiB request: fragmentation first; 15.90 - 14.10 - 1.10 = 0.70 GiB outside
// is a CUDA context, not another process.
TEST(DiagnoseKinds, K08OldCachedField) {
  const Diagnosis d = one("RuntimeError: CUDA out of memory. Tried to allocate 2.50 GiB (GPU 0; 15.90 GiB total "
                          "capacity; 10.20 GiB already allocated; 1.10 GiB free; 3.90 GiB cached)");
  ASSERT_TRUE(d.oom);
  EXPECT_EQ(d.oom->reserved_bytes, gib(10.20) + gib(3.90));
  EXPECT_EQ(d.oom->reserved_unallocated_bytes, gib(3.90));
  EXPECT_EQ(top(d), OomCause::kFragmentation);
  EXPECT_FALSE(has(d, OomCause::kOtherProcess));
}

// Kind 9: PyTorch 2.1's "capacty" typo: device, capacity and free still read; then kind 13
// (20.12 GiB free, a 96 MiB request failed).
TEST(DiagnoseKinds, K09CapactyTypo) {
  const Diagnosis d = one(
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 96.00 MiB. GPU 1 has a total capacty of 39.39 "
      "GiB of which 20.12 GiB is free. Including non-PyTorch memory, this process has 19.20 GiB memory in use. Of the "
      "allocated memory 18.40 GiB is allocated by PyTorch, and 300.00 MiB is reserved by PyTorch but unallocated. If "
      "reserved but unallocated memory is large try setting max_split_size_mb to avoid fragmentation.  See documentation "
      "for Memory Management and PYTORCH_CUDA_ALLOC_CONF");
  ASSERT_TRUE(d.oom);
  EXPECT_EQ(d.oom->device, "cuda:1");
  EXPECT_EQ(d.oom->total_capacity_bytes, gib(39.39));
  EXPECT_EQ(d.oom->free_bytes, gib(20.12));
  EXPECT_EQ(top(d), OomCause::kOther);
}

// Kind 10: a request beyond int64 is kept (capped, flagged), never dropped; then kind 11.
TEST(DiagnoseKinds, K10HugeRequestKept) {
  const Diagnosis d = one("RuntimeError: CUDA out of memory. Tried to allocate 17179869180.00 GiB (GPU 0; 11.00 GiB "
                          "total capacity; 1.00 GiB already allocated; 9.50 GiB free; 1.20 GiB reserved in total by PyTorch)");
  ASSERT_TRUE(d.oom);
  EXPECT_EQ(d.oom->requested_bytes, std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(d.oom->size_overflow);
  EXPECT_EQ(d.oom->requested_printed, "17179869180.00GiB");
  EXPECT_EQ(top(d), OomCause::kOther);
  EXPECT_NE(d.findings.front().title.find("Impossible request size"), std::string::npos);
  // The text report shows the size as printed, flagged, never the cap's "8.00 EiB"; the title is
  // not prefixed with its category twice ("other: other: ...").
  const std::string text = oom_report_text(d);
  EXPECT_NE(text.find("requested 17179869180.00 GiB (beyond int64's range, over 8 EiB)"), std::string::npos) << text;
  EXPECT_EQ(text.find("8.00 EiB"), std::string::npos) << text;
  EXPECT_EQ(text.find("other: other:"), std::string::npos) << text;
}

// Kind 11: >= 1 EiB is a corrupted size (or a cascade), not memory pressure.
TEST(DiagnoseKinds, K11ImpossibleRequest) {
  const Diagnosis d = one("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate more than 1EB memory.");
  EXPECT_EQ(top(d), OomCause::kOther);
  EXPECT_FALSE(d.ambiguous());
  EXPECT_NE(d.findings.front().title.find("look at the error before it"), std::string::npos);
}

// Kind 12: "Process 4242 has 77.60 GiB" = capacity 79.10 - free 1.50 and >= reserved 74.50: this
// process under another PID. Fragmentation: 8.50 GiB cached >= 2 x 4.00 GiB and 10.7% of the device:
// ranked first at medium (0.7), not a verdict: the allocator's figures alone do not settle it (in
// the corpus, 1 in 4 reports they rated a verdict was fragmentation).
TEST(DiagnoseKinds, K12OwnProcessUnderAnotherPid) {
  const Diagnosis d = one(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 79.10 GiB "
      "of which 1.50 GiB is free. Process 4242 has 77.60 GiB memory in use. Of the allocated memory 66.00 GiB is "
      "allocated by PyTorch, and 8.50 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is "
      "large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.");
  EXPECT_FALSE(has(d, OomCause::kOtherProcess));
  EXPECT_EQ(top(d), OomCause::kFragmentation);
  EXPECT_STREQ(d.findings.front().confidence(), "medium");
}

// Kind 13: 12 GiB free yet 200 MiB failed: a cap or a driver problem (other), first.
TEST(DiagnoseKinds, K13FreeMuchLargerThanRequest) {
  const Diagnosis d = one("RuntimeError: CUDA out of memory. Tried to allocate 200.00 MiB (GPU 0; 23.65 GiB total "
                          "capacity; 9.00 GiB already allocated; 12.00 GiB free; 9.05 GiB reserved in total by PyTorch)");
  EXPECT_EQ(top(d), OomCause::kOther);
  EXPECT_NE(d.findings.front().title.find("free yet"), std::string::npos);
}

// Kind 14: memory growing every iteration over epochs: a leak, first.
TEST(DiagnoseKinds, K14LeakFromNarrative) {
  const Diagnosis d = one("Training ran fine for 3 epochs; GPU memory at the start of each iteration kept growing by "
                          "about 50 MB until:\nRuntimeError: CUDA error: out of memory\n");
  EXPECT_EQ(top(d), OomCause::kLeakAcrossSteps);
  ASSERT_FALSE(d.deciding.empty());
  EXPECT_EQ(d.deciding.front().line, 1);
}

// Kind 15: fails at batch size 1 inside model.to('cuda') before the first step: static memory.
TEST(DiagnoseKinds, K15StaticAtBatchOne) {
  const Diagnosis d = one("It fails already at batch size 1, inside model.to('cuda') before the first step:\n"
                          "RuntimeError: CUDA out of memory. Tried to allocate 128.00 MiB (GPU 0; 7.79 GiB total "
                          "capacity; 7.35 GiB already allocated; 60.00 MiB free; 7.40 GiB reserved in total by PyTorch)\n");
  EXPECT_EQ(top(d), OomCause::kStaticModelTooLarge);
}

// Kind 16: an inference-only test script whose memory rises per image: eval without no_grad.
TEST(DiagnoseKinds, K16InferenceWithoutNoGrad) {
  const Diagnosis d = one("Inference-only test script (no training); memory rises with every test image:\n"
                          "RuntimeError: cuda runtime error (2) : out of memory at "
                          "/pytorch/aten/src/THC/generic/THCStorage.cu:58\n");
  EXPECT_EQ(top(d), OomCause::kEvalWithoutNoGrad);
}

// Kind 17: single words in the surrounding text never decide: "image generation" is not an LLM's
// KV cache; "Evaluation is not the problem" is not eval; other users' jobs are other processes.
TEST(DiagnoseKinds, K17NoKeywordMisfire) {
  const Diagnosis d = one(
      "Stable Diffusion image generation on a 12 GB card:\n"
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 11.76 GiB "
      "of which 1.20 GiB is free. Including non-PyTorch memory, this process has 10.50 GiB memory in use. Of the "
      "allocated memory 10.10 GiB is allocated by PyTorch, and 100.00 MiB is reserved by PyTorch but unallocated.\n");
  EXPECT_TRUE(top(d) == OomCause::kActivationsBatch || top(d) == OomCause::kActivationsSeqlen ||
              top(d) == OomCause::kStaticModelTooLarge)
      << cause_name(top(d));
  EXPECT_NE(top(d), OomCause::kGenerationKvCache);
  const Finding* gen = nullptr;
  for (const auto& f : d.findings) {
    if (f.category == OomCause::kGenerationKvCache) gen = &f;
  }
  if (gen) {
    EXPECT_STREQ(gen->confidence(), "low");
  }
  const Diagnosis e = one("Evaluation is not the problem: the GPUs were already full with other users' jobs.\n"
                          "RuntimeError: CUDA error: out of memory\n");
  EXPECT_NE(top(e), OomCause::kEvalWithoutNoGrad);
  EXPECT_EQ(top(e), OomCause::kOtherProcess);
}

// Kind 18: one failure echoed on two lines is one report seen twice.
TEST(DiagnoseKinds, K18EchoedFailureIsOneReport) {
  const auto ds = diagnose_log("cuDNN failure 2: CUDNN_STATUS_ALLOC_FAILED ; GPU=0\n"
                               "EXCEPTION occurred: cuDNN failure 2: CUDNN_STATUS_ALLOC_FAILED ; GPU=0\n");
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].oom->occurrences, 2);
}

// Kind 19: --json carries the verdict per report.
TEST(DiagnoseKinds, K19JsonVerdict) {
  const Diagnosis d = one("RuntimeError: CUDA error: out of memory");
  const nlohmann::json j = oom_report_json(d);
  ASSERT_TRUE(j.contains("verdict"));
  EXPECT_EQ(j["verdict"], "ambiguous");
  EXPECT_TRUE(j.contains("confidence"));
  EXPECT_TRUE(j["deciding_evidence"].is_array());
  const nlohmann::json k = oom_report_json(one("DefaultCPUAllocator: can't allocate memory: you tried to allocate 1024 bytes."));
  EXPECT_EQ(k["verdict"], "cpu_ram");
  EXPECT_EQ(k["confidence"], "high");
}

// Kind 20 (arguable; decided): 1 GiB of cached blocks for a 20 MiB request is 51x the request but
// 4.2% of a 23.65 GiB device whose tensors hold 89%: expandable_segments would serve this
// allocation, yet the step very likely needs more than the 1 GiB it gives back. Fragmentation
// stays first (it is the only cause the numbers point at specifically) at medium confidence, with
// the working-set findings as the next candidates: an ambiguous verdict, not "fragmentation/high".
TEST(DiagnoseKinds, K20SmallRecoverableFragmentationIsMedium) {
  const Diagnosis d = one("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.65 GiB "
                          "total capacity; 21.00 GiB already allocated; 10.00 MiB free; 22.00 GiB reserved in total by "
                          "PyTorch)");
  EXPECT_EQ(top(d), OomCause::kFragmentation);
  EXPECT_STREQ(d.findings.front().confidence(), "medium");
  EXPECT_TRUE(d.ambiguous());
  EXPECT_TRUE(has(d, OomCause::kActivationsBatch));
}

// Issue 12's diagnosis reproducers: valid OOM logs whose right outcome is a diagnosis with no
// negative or wrapped sizes (item 1: a >= 1 TiB DefaultCPUAllocator request used to free a
// Finding under a reference; item 5: two "7 EiB" figures overflowed the sums).
TEST(DiagnoseKinds, BadInputsDiagnoseWithoutWrapping) {
  // 1 TiB on the host: host RAM first, a shape bug (`other`) the runner-up (session 29, after
  // held28's OpenNE#112: an n x n array no host holds; it was `other` first).
  const Diagnosis cpu = one("DefaultCPUAllocator: can't allocate memory: you tried to allocate 1099511627776 bytes");
  EXPECT_EQ(top(cpu), OomCause::kCpuRam);
  EXPECT_TRUE(has(cpu, OomCause::kOther));
  const Diagnosis huge = one(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB "
      "of which 1.20 GiB is free. Of the allocated memory 7.00 EiB is allocated by PyTorch, and 7.00 EiB is reserved by "
      "PyTorch but unallocated.");
  ASSERT_TRUE(huge.oom);
  EXPECT_GE(*huge.oom->reserved_bytes, 0);
  EXPECT_TRUE(huge.oom->size_overflow);
  const std::string text = oom_report_text(huge);
  EXPECT_EQ(text.find("reserved -"), std::string::npos);
  const Diagnosis two = one(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB "
      "of which 1.20 GiB is free. Process 11 has 7.00 EiB memory in use. Process 12 has 7.00 EiB memory in use. "
      "Including non-PyTorch memory, this process has 70.00 GiB memory in use. Of the allocated memory 60.00 GiB is "
      "allocated by PyTorch, and 6.00 GiB is reserved by PyTorch but unallocated.");
  ASSERT_TRUE(two.oom);
  EXPECT_GE(*two.oom->other_process_bytes, 0);
  EXPECT_TRUE(has(two, OomCause::kOtherProcess));
}
