// diagnose_oom(): from one parsed OOM (plus clues from the log, plus the estimator when the run
// is known) to ranked findings. The message-level rules read the allocator's own numbers:
//   capacity C (allowed when a memory fraction caps it), requested Q (a rounded block), allocated
//   A, reserved R, reserved-but-unallocated U = R - A, free F, and what other processes hold.
// Each rule's threshold is explained where it is applied.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "oomkit/core/units.h"
#include "oomkit/diagnose/diagnosis.h"

namespace oomkit {

namespace {

std::string pct(double x) { return fmt::format("{:.0f}%", 100.0 * x); }

class Builder {
 public:
  Finding& add(OomCause cause, double score) {
    for (auto& f : findings_) {
      if (f.category == cause) {
        f.score = std::max(f.score, score);
        return f;
      }
    }
    findings_.push_back(make_finding(cause, score));
    return findings_.back();
  }
  void boost(OomCause cause, double delta, const std::string& evidence) {
    for (auto& f : findings_) {
      if (f.category == cause) {
        f.score = std::clamp(f.score + delta, 0.0, 0.95);
        if (!evidence.empty()) f.evidence.push_back(evidence);
        return;
      }
    }
    if (delta > 0) add(cause, std::min(0.95, 0.1 + delta)).evidence.push_back(evidence);
  }
  std::vector<Finding>& findings() { return findings_; }

 private:
  std::vector<Finding> findings_;
};

std::string alloc_conf_var(const OomRecord& r) {
  return r.device.rfind("hip", 0) == 0 ? "PYTORCH_HIP_ALLOC_CONF" : "PYTORCH_CUDA_ALLOC_CONF";
}

// Which entries of "Process p has M memory in use" are other processes. PyTorch 2.x prints the
// current process as "this process has"; inside a container NVML reports it under the host PID
// instead, so a lone entry that covers what this allocator reserves (plus a CUDA context) is
// taken to be this process.
int64_t others_bytes(const OomRecord& r, std::vector<std::string>& notes) {
  if (r.processes.empty()) return 0;
  if (r.process_bytes) {
    if (*r.process_bytes == 0) {
      notes.push_back("'this process has 0 bytes memory in use': the driver (NVML) could not attribute "
                      "memory to this process (containers, WSL); per-process numbers are unreliable");
    }
    return r.other_process_bytes.value_or(0);
  }
  if (!r.reserved_bytes) return r.other_process_bytes.value_or(0);
  // The entry closest above reserved, within a CUDA context's size (<= 3 GiB), is this process.
  int64_t self_index = -1;
  for (size_t i = 0; i < r.processes.size(); ++i) {
    const int64_t slack = r.processes[i].bytes - *r.reserved_bytes;
    if (slack >= 0 && slack <= 3 * kGiB &&
        (self_index < 0 || r.processes[i].bytes < r.processes[static_cast<size_t>(self_index)].bytes)) {
      self_index = static_cast<int64_t>(i);
    }
  }
  int64_t sum = 0;
  for (size_t i = 0; i < r.processes.size(); ++i) {
    if (static_cast<int64_t>(i) != self_index) sum += r.processes[i].bytes;
  }
  if (self_index >= 0) {
    const auto& p = r.processes[static_cast<size_t>(self_index)];
    notes.push_back(fmt::format(
        "Process {} ({}) covers this allocator's reserved {} plus a CUDA context: it is most likely this "
        "process under another PID namespace (containers), not another job",
        p.pid, format_bytes(p.bytes), format_bytes(*r.reserved_bytes)));
  }
  return sum;
}

// The allocator families: numbers to reason with.
void classify_allocator(const OomRecord& r, Builder& b, std::vector<std::string>& notes) {
  const auto C = r.effective_capacity_bytes();
  const auto Q = r.requested_bytes;
  const auto A = r.allocated_bytes;
  const auto U = r.reserved_unallocated_bytes;
  const auto F = r.free_bytes;
  const bool cpu = r.device.rfind("cpu", 0) == 0;

  // CUDA asks for a 2 MiB segment for requests up to 1 MiB and 20 MiB up to 10 MiB: a failed
  // request of exactly that size was a small tensor, so the working set is full.
  if (Q && (*Q == 2 * kMiB || *Q == 20 * kMiB) && r.device.rfind("cuda", 0) == 0) {
    notes.push_back(fmt::format("A request of {} is the allocator's segment for a small tensor (<= {}): the failing "
                                "allocation is not one big activation; the working set filled the device",
                                format_bytes(*Q), *Q == 2 * kMiB ? "1 MiB" : "10 MiB"));
  }

  // MPS: "other allocations" are the driver's allocations beyond the tensors in use, mostly the
  // allocator's cached heaps; "max allowed" is the high-watermark cap on unified memory.
  if (r.device == "mps" && r.non_pytorch_bytes && r.allowed_bytes && Q) {
    const double other_share = static_cast<double>(*r.non_pytorch_bytes) / static_cast<double>(*r.allowed_bytes);
    if (*r.non_pytorch_bytes >= *Q && other_share >= 0.25) {
      Finding& f = b.add(OomCause::kFragmentation, other_share >= 0.5 ? 0.6 : 0.45);
      f.title = "MPS: memory held beyond the tensors in use (cached heaps, other Metal allocations)";
      f.evidence.push_back(fmt::format("other allocations {} ({} of the {} allowed) vs MPS allocated {}",
                                       format_bytes(*r.non_pytorch_bytes), pct(other_share),
                                       format_bytes(*r.allowed_bytes), format_bytes(A.value_or(0))));
      f.fix = "torch.mps.empty_cache() between phases; PYTORCH_MPS_HIGH_WATERMARK_RATIO raises the cap (0.0 removes it, "
              "at the risk of swapping)";
      f.probe = "torch.mps.driver_allocated_memory() vs torch.mps.current_allocated_memory() before the failing step";
    }
  }

  // Memory fraction: PyTorch may use only `allowed` of the device.
  if (r.allowed_bytes && r.total_capacity_bytes && *r.allowed_bytes < *r.total_capacity_bytes && r.device != "mps") {
    Finding& f = b.add(OomCause::kOther, F && Q && *F >= *Q ? 0.7 : 0.45);
    f.title = "A memory fraction caps PyTorch below the device's capacity";
    f.evidence.push_back(fmt::format("{} allowed of {} total capacity", format_bytes(*r.allowed_bytes),
                                     format_bytes(*r.total_capacity_bytes)));
    if (F) f.evidence.push_back(fmt::format("{} was still free on the device", format_bytes(*F)));
    f.fix = "Raise torch.cuda.set_per_process_memory_fraction() (or oomkit train --memory-limit), or fit the run in the cap";
    f.probe = "Is the fraction set on purpose (GPU shared with another job)?";
  }

  // A single request beyond the whole capacity: no setting of the allocator helps.
  if (Q && C && (*Q > *C || r.requested_is_lower_bound)) {
    if (r.requested_is_lower_bound) {
      Finding& f = b.add(OomCause::kOther, 0.8);
      f.title = "An absurd allocation size (more than 1 EiB): a corrupted shape, not memory pressure";
      f.evidence.push_back("Tried to allocate more than 1 EiB");
      f.fix = "Find the tensor whose size overflowed (a negative or garbage dimension, often after a failed collective)";
      f.probe = "Print the shapes entering the failing op; check for an earlier NCCL timeout or error";
      return;
    }
    const std::string ev = fmt::format("one request of {} exceeds the whole capacity {} ({:.1f}x)", format_bytes(*Q),
                                       format_bytes(*C), static_cast<double>(*Q) / static_cast<double>(*C));
    b.add(OomCause::kActivationsSeqlen, 0.55).evidence.push_back(ev);
    b.add(OomCause::kActivationsBatch, 0.5).evidence.push_back(ev);
    notes.push_back("A single tensor larger than the device cannot be served at any fragmentation or batch of "
                    "other tensors: shrink the tensor itself (B, T, or the input size)");
  }

  // Fragmentation: cached-but-free blocks at least as large as the request, yet it failed.
  // Strong when U is at least twice the request and at least 1 GiB: below that, a few hundred MiB
  // of cached blocks is the caching allocator's ordinary slack (20 MiB segments for requests
  // under 10 MiB, 2 MiB rounding of large blocks), and the working set is the likelier cause.
  if (U && Q && !cpu) {
    if (*U >= *Q) {
      const bool strong = *U >= 2 * *Q && *U >= kGiB;
      Finding& f = b.add(OomCause::kFragmentation, strong ? 0.8 : 0.4);
      f.evidence.push_back(fmt::format("reserved but unallocated {} is {:.1f}x the failed request {}",
                                       format_bytes(*U), static_cast<double>(*U) / static_cast<double>(*Q),
                                       format_bytes(*Q)));
      if (r.reserved_bytes && A) {
        f.evidence.push_back(fmt::format("reserved {} vs allocated {}", format_bytes(*r.reserved_bytes), format_bytes(*A)));
      }
      f.fix = r.family == "pytorch1"
                  ? alloc_conf_var(r) + "=max_split_size_mb:128 (PyTorch 1.10+; expandable_segments:True from 2.1); "
                                        "keep tensor shapes fixed between steps"
                  : alloc_conf_var(r) + "=expandable_segments:True; keep tensor shapes fixed between steps "
                                        "(pad batches to one length)";
    } else {
      notes.push_back(fmt::format("Reserved-but-unallocated {} is smaller than the request {}: defragmenting "
                                  "would not have served it", format_bytes(*U), format_bytes(*Q)));
    }
  }
  if (r.private_pool_bytes && Q && *r.private_pool_bytes >= *Q) {
    Finding& f = b.add(OomCause::kFragmentation, 0.5);
    f.evidence.push_back(fmt::format("{} sits in private pools (CUDA Graphs), unusable by eager allocations",
                                     format_bytes(*r.private_pool_bytes)));
  }

  // Memory outside this allocator: other processes, or everything the device lacks beyond
  // reserved + free (a CUDA context with cuBLAS/cuDNN workspaces takes ~0.3-1 GiB).
  const int64_t others = others_bytes(r, notes);
  const auto total = r.total_capacity_bytes;
  if (others > 0 && total) {
    const double share = static_cast<double>(others) / static_cast<double>(*total);
    const double score = share >= 0.25 ? 0.85 : (Q && others >= *Q && share >= 0.05 ? 0.6 : 0.3);
    Finding& f = b.add(OomCause::kOtherProcess, score);
    f.title = "Other processes hold memory on this device";
    f.evidence.push_back(fmt::format("other processes hold {} ({} of {})", format_bytes(others), pct(share),
                                     format_bytes(*total)));
    b.add(OomCause::kMultiGpuImbalance, score * 0.6).evidence.push_back(
        "the other processes may be this job's own ranks placing tensors on this GPU");
  } else if (total && F && r.reserved_bytes) {
    const int64_t outside = *total - *r.reserved_bytes - *F;
    const int64_t excess = outside - kGiB;
    if (excess > 0 && Q && excess >= *Q) {
      const bool large = static_cast<double>(excess) >= 0.2 * static_cast<double>(*total);
      const std::string ev = fmt::format(
          "{} of the {} device is outside PyTorch's allocator (capacity - reserved - free), {} more than a "
          "CUDA context needs", format_bytes(outside), format_bytes(*total), format_bytes(excess));
      b.add(OomCause::kOtherProcess, large ? 0.55 : 0.3).evidence.push_back(ev);
      b.add(OomCause::kMultiGpuImbalance, large ? 0.45 : 0.2).evidence.push_back(ev);
    }
  } else if (total && A && !r.reserved_bytes) {
    // A cut-off 1.x message, or the cudaMallocAsync backend's: reserved unknown. Little allocated, yet a request failed (so less
    // than it was free): the memory is held elsewhere (or cached in this allocator).
    const double held_share = static_cast<double>(*A) / static_cast<double>(*total);
    const int64_t free_bound = F ? *F : Q.value_or(0);
    if (held_share < 0.3 && static_cast<double>(*total - *A - free_bound) >= 0.5 * static_cast<double>(*total)) {
      const std::string ev = fmt::format("this process's tensors hold only {} ({} of {}) while {} is free",
                                         format_bytes(*A), pct(held_share), format_bytes(*total),
                                         F ? format_bytes(*F) : "less than the request");
      b.add(OomCause::kOtherProcess, 0.55).evidence.push_back(ev);
      Finding& m = b.add(OomCause::kMultiGpuImbalance, 0.5);
      m.evidence.push_back(ev);
      if (r.device == "cuda:0") m.evidence.push_back("the full device is GPU 0, where ranks land by default");
      Finding& fr = b.add(OomCause::kFragmentation, 0.3);
      fr.evidence.push_back("reserved is not in the message: cached blocks may hold the rest");
      if (r.family == "pytorch_async") {
        fr.title = "The cudaMallocAsync pool may hold freed memory";
        fr.fix = "torch.cuda.empty_cache() to trim the pool, or drop backend:cudaMallocAsync from PYTORCH_CUDA_ALLOC_CONF";
        fr.probe = "torch.cuda.memory_reserved() vs memory_allocated() just before the failing step";
      }
    }
  }

  // PyTorch's own tensors fill the capacity: the model's working set.
  if (A && C && *C > 0) {
    const double frac = static_cast<double>(*A) / static_cast<double>(*C);
    if (frac >= 0.5) {
      const std::string ev = fmt::format("PyTorch tensors hold {} of {} ({})", format_bytes(*A), format_bytes(*C), pct(frac));
      b.add(OomCause::kActivationsBatch, 0.45).evidence.push_back(ev);
      b.add(OomCause::kStaticModelTooLarge, 0.35).evidence.push_back(ev);
      b.add(OomCause::kActivationsSeqlen, 0.3).evidence.push_back(ev);
      b.add(OomCause::kOptimizerState, 0.25);
      b.add(OomCause::kLeakAcrossSteps, 0.2);
      b.add(OomCause::kEvalWithoutNoGrad, 0.15);
      if (Q && static_cast<double>(*Q) >= 0.1 * static_cast<double>(*C)) {
        b.boost(OomCause::kActivationsSeqlen, 0.15,
                fmt::format("the failed request alone is {} of capacity: one large activation (T^2 scores, B*T*V logits)",
                            pct(static_cast<double>(*Q) / static_cast<double>(*C))));
      }
    }
  }
  if (!A && !cpu) {
    b.add(OomCause::kActivationsBatch, 0.3);
    b.add(OomCause::kStaticModelTooLarge, 0.25);
    b.add(OomCause::kOtherProcess, 0.2);
  }
  if (cpu) b.add(OomCause::kCpuRam, 0.3).evidence.push_back("the budget is CPU memory (" + r.device + ")");
}

// The families without numbers: candidates ranked by how often each causes that error.
void classify_numberless(const OomRecord& r, Builder& b, std::vector<std::string>& notes) {
  notes.push_back("The message carries no sizes: these are candidates, ranked by how often each causes this "
                  "error and by clues in the log; the probes tell them apart");
  if (r.family == "cublas_alloc_failed" || r.family == "cudnn_alloc_failed") {
    Finding& f = b.add(OomCause::kOther, 0.45);
    f.title = r.family == "cublas_alloc_failed" ? "cuBLAS could not allocate its handle or workspace"
                                                : "cuDNN could not allocate its handle or workspace";
    f.evidence.push_back(r.family == "cublas_alloc_failed" ? "CUBLAS_STATUS_ALLOC_FAILED" : "CUDNN_STATUS_ALLOC_FAILED");
    f.fix = "Leave headroom outside the caching allocator (smaller batch; PYTORCH_NO_CUDA_MEMORY_CACHING=1 to "
            "test); if memory is not full, check the CUDA / cuBLAS / driver versions match the PyTorch build";
    f.probe = "Run one matmul on that device in a fresh process: if it fails with the GPU empty, it is the "
              "installation, not memory";
    b.add(OomCause::kActivationsBatch, 0.35);
    b.add(OomCause::kOtherProcess, 0.3);
    b.add(OomCause::kStaticModelTooLarge, 0.25);
    return;
  }
  if (r.subsystem == "nccl") {
    Finding& f = b.add(OomCause::kOther, 0.45);
    f.title = "NCCL could not allocate its communication buffers (outside the caching allocator)";
    if (r.requested_bytes) f.evidence.push_back("NCCL failed to allocate " + format_bytes(*r.requested_bytes));
    f.fix = "Leave headroom for NCCL: reserve less in the caching allocator (smaller batch), "
            "torch.cuda.empty_cache() before creating the process group, or a smaller NCCL_BUFFSIZE";
    f.probe = "Does it fail at process-group setup / the first collective while the GPU is nearly full?";
    b.add(OomCause::kMultiGpuImbalance, 0.4);
    b.add(OomCause::kActivationsBatch, 0.3);
    b.add(OomCause::kOtherProcess, 0.25);
    return;
  }
  if (r.requested_bytes) {
    b.add(OomCause::kActivationsBatch, 0.35).evidence.push_back("failed allocation of " + format_bytes(*r.requested_bytes));
  }
  // "CUDA error: out of memory" / "cuda runtime error (2)" / the driver's code / a cut-off message.
  b.add(OomCause::kActivationsBatch, 0.35);
  b.add(OomCause::kOtherProcess, r.subsystem == "cuda_runtime" && r.family == "cuda_error_oom" ? 0.35 : 0.25);
  b.add(OomCause::kStaticModelTooLarge, 0.3);
  b.add(OomCause::kLeakAcrossSteps, 0.25);
  b.add(OomCause::kEvalWithoutNoGrad, 0.2);
  b.add(OomCause::kMultiGpuImbalance, 0.15);
  b.add(OomCause::kFragmentation, 0.15);
}

void apply_context(const LogContext& c, Builder& b) {
  auto clue = [&](const char* what) {
    std::string s = std::string("log: ") + what;
    for (const auto& cl : c.clues) {
      if (cl.find(what) != std::string::npos) return cl;
    }
    return s;
  };
  if (c.eval && !c.no_grad_seen) b.boost(OomCause::kEvalWithoutNoGrad, 0.5, clue("eval"));
  else if (c.eval) b.boost(OomCause::kEvalWithoutNoGrad, 0.2, clue("eval"));
  if (c.generation) b.boost(OomCause::kGenerationKvCache, 0.5, clue("generat"));
  if (c.multi_gpu) b.boost(OomCause::kMultiGpuImbalance, 0.35, clue("multi-GPU"));
  if (c.loading) {
    b.boost(OomCause::kMultiGpuImbalance, c.multi_gpu ? 0.1 : 0.0, "");
    b.boost(OomCause::kStaticModelTooLarge, 0.25, clue("load"));
  }
  if (c.in_optimizer) b.boost(OomCause::kOptimizerState, 0.45, clue("optimizer"));
  if (c.in_attention) b.boost(OomCause::kActivationsSeqlen, 0.25, clue("attention"));
  if (c.in_backward) b.boost(OomCause::kActivationsBatch, 0.1, clue("backward"));
  if (c.growth_per_step_bytes && *c.growth_per_step_bytes > 0) {
    b.boost(OomCause::kLeakAcrossSteps, 0.55,
            fmt::format("memory in the log rises by {} per step over {} steps",
                        format_bytes(static_cast<int64_t>(*c.growth_per_step_bytes)), c.steps_seen));
  }
}

}  // namespace
Diagnosis diagnose_oom(const OomRecord& oom, const LogContext& context, const DiagnoseOptions& options) {
  Diagnosis d;
  d.oom = oom;
  Builder b;
  const bool allocator = oom.family == "pytorch1" || oom.family == "pytorch2" || oom.family == "oomkit_cpu_budget" ||
                         oom.family == "pytorch_async" ||
                         (oom.family == "pytorch" && (oom.allocated_bytes || oom.total_capacity_bytes));
  if (oom.family == "cpu_default_allocator") {
    Finding& f = b.add(OomCause::kCpuRam, 0.9);
    if (oom.requested_bytes) {
      f.evidence.push_back("DefaultCPUAllocator failed to allocate " + format_bytes(*oom.requested_bytes) + " of host RAM");
      if (*oom.requested_bytes >= kTiB) {
        Finding& o = b.add(OomCause::kOther, 0.8);
        o.title = "An absurd host allocation: a shape bug rather than too little RAM";
        o.evidence.push_back(format_bytes(*oom.requested_bytes) + " requested in one tensor");
        o.fix = "Print the shapes entering the failing op (an outer product or a wrong broadcast)";
        o.probe = "Is the requested size plausible for any tensor of this model?";
        f.score = 0.6;
      }
    }
  } else if (allocator) {
    classify_allocator(oom, b, d.notes);
  } else {
    classify_numberless(oom, b, d.notes);
  }
  if (b.findings().empty()) classify_numberless(oom, b, d.notes);  // sizes that settle nothing
  apply_context(context, b);
  if (!oom.complete) d.notes.push_back("The message is cut off; fields after the cut are unknown");
  if (oom.requested_bytes && !oom.requested_is_lower_bound && oom.subsystem == "caching_allocator") {
    d.notes.push_back("'Tried to allocate' is the allocator's rounded block size, not the tensor's exact size");
  }
  std::vector<Finding> findings = std::move(b.findings());
  if (options.run) {
    int64_t capacity = options.run->capacity_bytes;
    if (capacity <= 0) capacity = oom.effective_capacity_bytes().value_or(0);
    if (capacity > 0 && options.estimate) {
      add_estimate_findings(*options.run, options.estimate, capacity, &oom, findings, d.notes);
    } else {
      d.notes.push_back("Run settings given but no capacity: pass --memory to compare the estimate with the device");
    }
  }
  rank_findings(findings);
  d.findings = std::move(findings);
  return d;
}

std::vector<Diagnosis> diagnose_log(std::string_view log_text, const DiagnoseOptions& options) {
  std::vector<Diagnosis> out;
  for (const OomRecord& r : parse_oom_log(log_text)) {
    out.push_back(diagnose_oom(r, scan_context(log_text, r.line), options));
  }
  return out;
}

}  // namespace oomkit