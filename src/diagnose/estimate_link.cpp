// add_estimate_findings(): the estimator's view of the failed run. Static memory (parameters +
// gradients + optimizer state, the chapter's 14P/16P) against the capacity, the activation share
// of the predicted peak, the T^2 share (the difference an SDPA/flash kernel makes: it never
// materialises the (B,h,T,T) scores), and for each candidate fix the estimate re-run with that
// one change: saving = peak(before) - peak(after).
#include <algorithm>

#include <fmt/format.h>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"
#include "oomkit/diagnose/diagnosis.h"

namespace oomkit {

namespace {

struct FixOption {
  std::string flag;     // what to pass to oomkit train / estimate
  TrainingSetup setup;
  int64_t peak_bytes = 0;
  int64_t saving_bytes = 0;
  bool fits = false;
};

std::string setup_flags(const TrainingSetup& s) {
  return fmt::format("--batch-size {} --grad-accum {}", s.micro_batch_size, s.gradient_accumulation_steps);
}

FixOption try_fix(const RunSettings& run, const EstimateFn& estimate, const Estimate& base, int64_t capacity,
                  std::string flag, const TrainingSetup& changed) {
  FixOption o;
  o.flag = std::move(flag);
  o.setup = changed;
  const Estimate e = estimate(run.model, changed);
  o.peak_bytes = e.peak_bytes;
  o.saving_bytes = base.peak_bytes - e.peak_bytes;
  // A fix "fits" when it leaves the setup's safety margin free (the chapter: plan for 80-85% of
  // the capacity; fragmentation and framework overhead take the rest).
  const double margin = std::clamp(changed.safety_margin, 0.0, 0.9);
  o.fits = static_cast<double>(e.peak_bytes) <= static_cast<double>(capacity) * (1.0 - margin);
  return o;
}

std::string describe(const FixOption& o) {
  return fmt::format("{}: peak {} (saves {}){}", o.flag, format_bytes(o.peak_bytes), format_bytes(o.saving_bytes),
                     o.fits ? fmt::format(", fits with the {:.0f}% safety margin", 100.0 * o.setup.safety_margin)
                            : ", does not fit with the safety margin");
}

// The first option that fits, else the one with the largest saving.
const FixOption* pick(const std::vector<FixOption>& options) {
  for (const auto& o : options) {
    if (o.fits) return &o;
  }
  const FixOption* best = nullptr;
  for (const auto& o : options) {
    if (o.saving_bytes > 0 && (!best || o.saving_bytes > best->saving_bytes)) best = &o;
  }
  return best;
}

void fill(Finding& f, const std::vector<FixOption>& options) {
  for (const auto& o : options) f.evidence.push_back("fix " + describe(o));
  if (const FixOption* p = pick(options)) {
    f.fix = p->flag + (p->fits ? fmt::format(" (predicted peak {})", format_bytes(p->peak_bytes))
                                : fmt::format(" (predicted peak {}: still short of the margin; combine with the others)",
                                              format_bytes(p->peak_bytes)));
    f.saving_bytes = p->saving_bytes;
  }
}

}  // namespace

void add_estimate_findings(const RunSettings& run, const EstimateFn& estimate, int64_t capacity,
                           const OomRecord* oom, std::vector<Finding>& findings, std::vector<std::string>& notes) {
  if (capacity <= 0) throw InputError("--memory", "the capacity must be positive to compare with the estimate");
  const TrainingSetup& s = run.setup;
  const Estimate e = estimate(run.model, s);
  const int64_t params = e.total(Category::kParameters);
  const int64_t grads = e.total(Category::kGradients);
  const int64_t optim = e.total(Category::kOptimizerState);
  const int64_t acts = e.total(Category::kActivations);
  const int64_t overhead = e.total(Category::kOverhead);
  const int64_t static_bytes = params + grads + optim;
  const std::string base_ev = fmt::format("estimate for {} (B={}, T={}, {}, {}): peak {} at {} vs capacity {}",
                                          run.model.name, s.micro_batch_size, s.seq_len, to_string(s.precision),
                                          to_string(s.optimizer), format_bytes(e.peak_bytes), e.peak_phase,
                                          format_bytes(capacity));
  const std::string static_ev = fmt::format("static {} = parameters {} + gradients {} + optimizer state {} (+ overhead {})",
                                            format_bytes(static_bytes), format_bytes(params), format_bytes(grads),
                                            format_bytes(optim), format_bytes(overhead));
  const double act_share = e.peak_bytes > 0 ? static_cast<double>(acts) / static_cast<double>(e.peak_bytes) : 0.0;
  const std::string act_ev = fmt::format("activations {} ({:.0f}% of the predicted peak)", format_bytes(acts), 100.0 * act_share);

  auto make = [](OomCause c, double score, const char* title, int step) {
    Finding f;
    f.category = c;
    f.score = score;
    f.title = title;
    f.playbook_step = step;
    return f;
  };

  if (static_bytes + overhead > capacity) {
    Finding f = make(OomCause::kStaticModelTooLarge, 0.92, "Static memory alone exceeds the capacity", 3);
    f.evidence = {base_ev, static_ev};
    f.probe = "Micro-batch 1 will OOM too: no batch or checkpointing setting can fix this";
    std::vector<FixOption> options;
    if (s.precision != Precision::kBf16) {
      TrainingSetup t = s;
      t.precision = Precision::kBf16;
      options.push_back(try_fix(run, estimate, e, capacity, "--precision bf16", t));
    }
    if (s.optimizer == OptimizerKind::kAdamW) {
      TrainingSetup t = s;
      t.optimizer = OptimizerKind::kAdam8bit;
      options.push_back(try_fix(run, estimate, e, capacity, "--optimizer adam-8bit", t));
    }
    if (!s.parallel.offload_optimizer) {
      TrainingSetup t = s;
      t.parallel.offload_optimizer = true;
      options.push_back(try_fix(run, estimate, e, capacity, "--offload-optimizer", t));
    }
    // The chapter's order combined: low-precision weights with a small optimizer state, on one GPU.
    if (s.precision != Precision::kBf16 && s.optimizer == OptimizerKind::kAdamW) {
      TrainingSetup t = s;
      t.precision = Precision::kBf16;
      t.optimizer = OptimizerKind::kAdam8bit;
      options.push_back(try_fix(run, estimate, e, capacity, "--precision bf16 --optimizer adam-8bit", t));
    }
    if (s.precision != Precision::kBf16 && !s.parallel.offload_optimizer) {
      TrainingSetup t = s;
      t.precision = Precision::kBf16;
      t.parallel.offload_optimizer = true;
      options.push_back(try_fix(run, estimate, e, capacity, "--precision bf16 --offload-optimizer", t));
    }
    // Playbook step 8: ZeRO-3 / FSDP full-shard over N GPUs, the smallest N that fits (up to 64).
    for (int64_t n = std::max<int64_t>(2, s.parallel.data_parallel * 2); n <= 64; n *= 2) {
      TrainingSetup t = s;
      t.parallel.data_parallel = n;
      t.parallel.zero_stage = 3;
      FixOption o = try_fix(run, estimate, e, capacity, fmt::format("--dp {} --zero 3", n), t);
      if (o.fits || n == 64) {
        options.push_back(o);
        break;
      }
    }
    fill(f, options);
    f.playbook_step = 8;
    for (auto& other : findings) {  // the estimate settles it: the working-set guesses step back
      if (other.category == OomCause::kActivationsBatch || other.category == OomCause::kActivationsSeqlen) {
        other.score = std::max(0.0, other.score - 0.15);
      }
    }
    findings.push_back(std::move(f));
    return;
  }

  if (e.peak_bytes > capacity) {
    std::vector<FixOption> batch_options, seq_options;
    // Smaller micro-batch, same effective batch (step 5).
    for (int64_t b = s.micro_batch_size / 2; b >= 1; b /= 2) {
      if (s.micro_batch_size % b != 0) continue;
      TrainingSetup t = s;
      t.micro_batch_size = b;
      t.gradient_accumulation_steps = s.gradient_accumulation_steps * (s.micro_batch_size / b);
      FixOption o = try_fix(run, estimate, e, capacity, setup_flags(t), t);
      if (o.fits || b == 1) {
        batch_options.push_back(o);
        break;
      }
    }
    FixOption ckpt;
    bool have_ckpt = false;
    if (s.checkpointing != Checkpointing::kFull) {
      TrainingSetup t = s;
      t.checkpointing = Checkpointing::kFull;
      ckpt = try_fix(run, estimate, e, capacity, "--checkpointing full", t);
      have_ckpt = true;
    }
    FixOption sdpa;
    bool have_sdpa = false;
    if (s.attention == AttentionKernel::kEager) {
      TrainingSetup t = s;
      t.attention = AttentionKernel::kSdpa;
      sdpa = try_fix(run, estimate, e, capacity, "--attention sdpa", t);
      have_sdpa = true;
    }
    FixOption mixed;
    bool have_mixed = false;
    if (s.precision == Precision::kFp32) {
      TrainingSetup t = s;
      t.precision = Precision::kBf16Mixed;
      mixed = try_fix(run, estimate, e, capacity, "--precision bf16-mixed", t);
      have_mixed = true;
    }
    // The T^2 share: what the fused kernel removes, relative to all activations.
    const double t2_share = have_sdpa && acts > 0 ? static_cast<double>(sdpa.saving_bytes) / static_cast<double>(acts) : 0.0;
    const bool seqlen = t2_share >= 0.35;
    if (seqlen) {
      if (have_sdpa) seq_options.push_back(sdpa);
      if (have_ckpt) seq_options.push_back(ckpt);
      for (const auto& o : batch_options) seq_options.push_back(o);
      if (have_mixed) seq_options.push_back(mixed);
    } else {
      for (const auto& o : batch_options) seq_options.push_back(o);
      if (have_ckpt) seq_options.push_back(ckpt);
      if (have_mixed) seq_options.push_back(mixed);
      if (have_sdpa) seq_options.push_back(sdpa);
    }
    Finding f = seqlen ? make(OomCause::kActivationsSeqlen, 0.88, "Activations exceed what static memory leaves; the T^2 attention scores dominate", 5)
                       : make(OomCause::kActivationsBatch, 0.88, "Activations of the micro-batch exceed what static memory leaves", 5);
    f.evidence = {base_ev, static_ev, act_ev};
    f.evidence.push_back(fmt::format("capacity left after static memory and overhead: {}",
                                     format_bytes(capacity - static_bytes - overhead)));
    if (have_sdpa) f.evidence.push_back(fmt::format("the (B,h,T,T) attention terms are {:.0f}% of activations", 100.0 * t2_share));
    f.probe = "Micro-batch 1 should fit (static memory does); the probes confirm which fix works";
    fill(f, seq_options);
    findings.push_back(std::move(f));
    if (optim >= acts && static_cast<double>(optim) >= 0.3 * static_cast<double>(e.peak_bytes)) {
      Finding o = make(OomCause::kOptimizerState, 0.55, "Optimizer state is the largest single term", 8);
      o.evidence = {static_ev};
      std::vector<FixOption> opts;
      if (s.optimizer == OptimizerKind::kAdamW) {
        TrainingSetup t = s;
        t.optimizer = OptimizerKind::kAdam8bit;
        opts.push_back(try_fix(run, estimate, e, capacity, "--optimizer adam-8bit", t));
      }
      fill(o, opts);
      if (o.fix.empty()) o.fix = "--offload-optimizer";
      findings.push_back(std::move(o));
    }
    return;
  }

  // The estimate fits: the OOM needs memory the model's own step does not. Causes outside the
  // step move up, the step's own causes move down.
  notes.push_back(fmt::format("The estimate for this setup peaks at {}, {} below the capacity: look outside the "
                              "model's own step", format_bytes(e.peak_bytes), format_bytes(capacity - e.peak_bytes)));
  std::string over;
  if (oom && oom->allocated_bytes && static_cast<double>(*oom->allocated_bytes) > 1.25 * static_cast<double>(e.peak_bytes)) {
    over = fmt::format("PyTorch held {} at the OOM, {:.1f}x the estimate's peak {}", format_bytes(*oom->allocated_bytes),
                       static_cast<double>(*oom->allocated_bytes) / static_cast<double>(e.peak_bytes),
                       format_bytes(e.peak_bytes));
  }
  for (OomCause c : {OomCause::kLeakAcrossSteps, OomCause::kEvalWithoutNoGrad}) {
    const bool present = std::any_of(findings.begin(), findings.end(), [&](const Finding& f) { return f.category == c; });
    if (!present) findings.push_back(make_finding(c, c == OomCause::kLeakAcrossSteps ? 0.25 : 0.2));
  }
  for (auto& f : findings) {
    switch (f.category) {
      case OomCause::kLeakAcrossSteps:
      case OomCause::kEvalWithoutNoGrad:
      case OomCause::kGenerationKvCache:
        f.score = std::min(0.95, f.score + (over.empty() ? 0.2 : 0.3));
        if (!over.empty()) f.evidence.push_back(over);
        break;
      case OomCause::kFragmentation:
      case OomCause::kOtherProcess:
      case OomCause::kMultiGpuImbalance:
        f.score = std::min(0.95, f.score + 0.2);
        break;
      case OomCause::kActivationsBatch:
      case OomCause::kActivationsSeqlen:
      case OomCause::kStaticModelTooLarge:
      case OomCause::kOptimizerState:
        f.score = std::max(0.0, f.score - 0.25);
        f.evidence.push_back(base_ev + " (fits)");
        break;
      default:
        break;
    }
  }
}

}  // namespace oomkit
