// The causes: names (the cases README's terms), default title / playbook step / fix / probe,
// confidence levels, and ranking.
#include <algorithm>

#include "oomkit/diagnose/diagnosis.h"

namespace oomkit {

namespace {

struct CauseInfo {
  OomCause cause;
  const char* name;
  int step;
  const char* title;
  const char* fix;
  const char* probe;
};

// Default title, playbook step, fix and probe per cause; rules add the evidence and may
// replace the fix with a sized one.
const CauseInfo kCauses[] = {
    {OomCause::kFragmentation, "fragmentation", 1,
     "Fragmentation: the allocator holds free cached blocks, but none large enough",
     "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (PyTorch >= 2.1; on 1.x max_split_size_mb:128); "
     "keep tensor shapes fixed between steps (pad batches to one length)",
     "torch.cuda.memory_summary(): is inactive_split_bytes large? Does the OOM come only after hours with "
     "varying shapes rather than at the first step?"},
    {OomCause::kActivationsBatch, "activations_batch", 5,
     "Activations of the micro-batch do not fit",
     "oomkit train --batch-size <B/2> --grad-accum <2x> (same effective batch), or --checkpointing full",
     "Playbook step 3: run one step at micro-batch 1. If it fits, activations scale with B; if not, static "
     "memory does not fit."},
    {OomCause::kActivationsSeqlen, "activations_seqlen", 5,
     "Sequence length: activations grow with T, the eager attention scores with T^2",
     "oomkit train --attention sdpa (no (B,h,T,T) matrix), --checkpointing full, or a shorter --seq-len",
     "Halve T for one step: the failing request shrinks ~4x if it is the (B,h,T,T) attention term, ~2x if "
     "it is linear in T (logits, MLP)."},
    {OomCause::kStaticModelTooLarge, "static_model_too_large", 3,
     "Static memory (parameters + gradients + optimizer state) does not fit",
     "--precision bf16, --optimizer adam-8bit, ZeRO/FSDP sharding (oomkit estimate --zero 3 --dp N) or "
     "--offload-optimizer; check with `oomkit estimate --model ...`",
     "Playbook step 3: does one step at micro-batch 1 still OOM? Does the OOM happen while loading or "
     "moving the model (.to(device), load_state_dict)?"},
    {OomCause::kOptimizerState, "optimizer_state", 8,
     "Optimizer state: Adam's two fp32 moments (8 bytes/parameter) are created at the first step",
     "--optimizer adam-8bit (2 B/param) or lion/sgd (4 B/param), or --offload-optimizer",
     "Does the OOM happen in the first optimizer.step() (exp_avg/exp_avg_sq in the traceback)?"},
    {OomCause::kLeakAcrossSteps, "leak_across_steps", 7,
     "Leak across steps: memory at the start of each step keeps rising",
     "Keep numbers, not graphs: losses.append(loss.item()) instead of losses.append(loss); detach() "
     "tensors kept for logging; del references held across steps",
     "Log torch.cuda.memory_allocated() at each step start (oomkit train records step_start marks): "
     "steady growth per step is a leak."},
    {OomCause::kEvalWithoutNoGrad, "eval_without_no_grad", 7,
     "Evaluation without no-grad: every validation batch keeps its autograd graph",
     "Wrap evaluation in `with torch.no_grad():` (or torch.inference_mode()); model.eval() alone does not "
     "stop graph building",
     "Does memory rise on each validation batch and does the OOM come during validation?"},
    {OomCause::kOtherProcess, "other_process", 1,
     "Memory held outside this process's allocator",
     "Free the GPU: stop the other process (stale Jupyter kernels, a second run), or pick a free GPU "
     "with CUDA_VISIBLE_DEVICES",
     "Playbook step 1: nvidia-smi --query-compute-apps=pid,used_memory --format=csv before starting"},
    {OomCause::kMultiGpuImbalance, "multi_gpu_imbalance", 1,
     "Several ranks put memory on one GPU (usually cuda:0)",
     "torch.cuda.set_device(local_rank) before creating tensors; torch.load(path, map_location='cpu' or "
     "f'cuda:{local_rank}'); DistributedDataParallel instead of DataParallel",
     "nvidia-smi: do several processes sit on GPU 0 while the other GPUs are emptier?"},
    {OomCause::kGenerationKvCache, "generation_kv_cache", 5,
     "Generation: the KV cache grows with every generated token",
     "Cap max_new_tokens and the generation batch, run generation under torch.no_grad(), free the cache "
     "between calls",
     "Does memory grow with each generated token, and does the OOM come inside generate()?"},
    {OomCause::kCpuRam, "cpu_ram", 1,
     "Host (CPU) RAM is exhausted",
     "Use less host memory: fewer DataLoader workers, no per-sample features kept in Python lists, "
     "torch.load(..., mmap=True); oomkit train --memory-limit budgets the trainer",
     "free -h / /proc/meminfo during the run: does RSS grow through the epoch (accumulation) or jump "
     "at one allocation (one huge tensor)?"},
    {OomCause::kOther, "other", 1, "Other cause", "See the evidence", "See the evidence"},
};

const CauseInfo& info(OomCause c) {
  for (const auto& ci : kCauses) {
    if (ci.cause == c) return ci;
  }
  return kCauses[sizeof(kCauses) / sizeof(kCauses[0]) - 1];
}


// A short list: past six candidates the rest are noise.
constexpr size_t kMaxFindings = 6;

}  // namespace

const char* cause_name(OomCause c) { return info(c).name; }

std::optional<OomCause> cause_from_name(std::string_view name) {
  for (const auto& ci : kCauses) {
    if (name == ci.name) return ci.cause;
  }
  return std::nullopt;
}

Finding make_finding(OomCause cause, double score) {
  const CauseInfo& ci = info(cause);
  Finding f;
  f.category = cause;
  f.title = ci.title;
  f.playbook_step = ci.step;
  f.fix = ci.fix;
  f.probe = ci.probe;
  f.score = score;
  return f;
}

const char* Finding::confidence() const { return score >= 0.75 ? "high" : (score >= 0.5 ? "medium" : "low"); }

bool Diagnosis::ambiguous() const { return findings.empty() || findings.front().score < 0.75; }

void rank_findings(std::vector<Finding>& findings) {
  std::vector<Finding> merged;
  for (auto& f : findings) {
    auto it = std::find_if(merged.begin(), merged.end(), [&](const Finding& m) { return m.category == f.category; });
    if (it == merged.end()) {
      merged.push_back(std::move(f));
      continue;
    }
    const bool replace = f.score > it->score;
    std::vector<std::string> evidence = replace ? f.evidence : it->evidence;
    for (const auto& e : (replace ? it->evidence : f.evidence)) {
      if (std::find(evidence.begin(), evidence.end(), e) == evidence.end()) evidence.push_back(e);
    }
    auto saving = f.saving_bytes ? f.saving_bytes : it->saving_bytes;
    if (replace) *it = std::move(f);
    it->evidence = std::move(evidence);
    if (!it->saving_bytes) it->saving_bytes = saving;
  }
  for (auto& f : merged) {
    f.evidence.erase(std::remove_if(f.evidence.begin(), f.evidence.end(), [](const std::string& e) { return e.empty(); }),
                     f.evidence.end());
  }
  std::stable_sort(merged.begin(), merged.end(), [](const Finding& a, const Finding& b) { return a.score > b.score; });
  if (!merged.empty() && merged.front().score >= 0.75) {  // a verdict: keep only the real contenders
    merged.erase(std::remove_if(merged.begin() + 1, merged.end(), [](const Finding& f) { return f.score < 0.3; }),
                 merged.end());
  }
  if (merged.size() > kMaxFindings) merged.resize(kMaxFindings);
  findings = std::move(merged);
}


}  // namespace oomkit
