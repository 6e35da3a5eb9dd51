// add_estimate_findings(): the estimator's view of the failed run. Static memory (parameters +
// gradients + optimizer state, the chapter's 14P/16P) against the usable bytes, the activation
// share of the predicted peak, the T^2 share (the difference an SDPA/flash kernel makes: it never
// materialises the (B,h,T,T) scores), and the fixes: the remedies catalogue's (remedies.h), each
// alone and combined, ranked by its cost model.
#include <algorithm>

#include <fmt/format.h>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"
#include "oomkit/diagnose/diagnosis.h"

namespace oomkit {

namespace {

RemedyRequest remedy_request(const RunSettings& run, const EstimateFn& estimate, int64_t capacity) {
  RemedyRequest req;
  req.model = run.model;
  req.setup = run.setup;
  req.capacity_bytes = capacity;
  req.resources = run.resources;
  req.scope = run.scope;
  req.estimate = estimate;
  return req;
}

std::string describe(const RemedyPlan& p, double margin) {
  return fmt::format("{}: peak {} (saves {}){}; {}", p.flags, format_bytes(p.peak_bytes), format_bytes(p.saving_bytes),
                     p.fits ? fmt::format(", fits with the {:.0f}% safety margin", 100.0 * margin)
                            : ", does not fit with the safety margin",
                     describe_cost(p.cost));
}

std::string hardware_of(const RemedyPlan& p) {
  std::string out = fmt::format("{} GPU{}", p.gpus_needed, p.gpus_needed == 1 ? "" : "s");
  if (p.host_bytes_needed > 0) out += ", host RAM " + format_bytes(p.host_bytes_needed);
  return out;
}

// The catalogue's ranking as evidence; the fix is its best plan (else the more-hardware plan,
// else the single fix with the largest saving).
void fill(Finding& f, const RemedyReport& r, double margin) {
  for (const auto& p : r.single) f.evidence.push_back("fix " + describe(p, margin));
  for (const auto& p : r.combinations) f.evidence.push_back("combination " + describe(p, margin));
  for (const auto& p : r.more_hardware) {
    f.evidence.push_back(fmt::format("with more hardware ({}): {}", hardware_of(p), describe(p, margin)));
  }
  if (const RemedyPlan* best = r.best()) {
    f.fix = fmt::format("{} (predicted peak {}; {})", best->flags, format_bytes(best->peak_bytes), describe_cost(best->cost));
    f.saving_bytes = best->saving_bytes;
  } else if (!r.more_hardware.empty()) {
    const RemedyPlan& p = r.more_hardware.front();
    f.fix = fmt::format("{} (needs {}; predicted peak {})", p.flags, hardware_of(p), format_bytes(p.peak_bytes));
    f.saving_bytes = p.saving_bytes;
  } else {
    const RemedyPlan* most = nullptr;
    for (const auto& p : r.single) {
      if (!most || p.saving_bytes > most->saving_bytes) most = &p;
    }
    if (most) {
      f.fix = fmt::format("{} (predicted peak {}: still short of the margin, and no combination fits)", most->flags,
                          format_bytes(most->peak_bytes));
      f.saving_bytes = most->saving_bytes;
    }
  }
}

Finding make(OomCause c, double score, const char* title, int step) {
  Finding f;
  f.category = c;
  f.score = score;
  f.title = title;
  f.playbook_step = step;
  return f;
}

}  // namespace

void add_estimate_findings(const RunSettings& run, const EstimateFn& estimate, int64_t capacity,
                           const OomRecord* oom, std::vector<Finding>& findings, std::vector<std::string>& notes) {
  if (capacity <= 0) throw InputError("--memory", "the capacity must be positive to compare with the estimate");
  const TrainingSetup& s = run.setup;
  const Estimate e = estimate(run.model, s);
  const int64_t usable = usable_bytes(capacity, s.safety_margin);
  const int64_t params = e.total(Category::kParameters);
  const int64_t grads = e.total(Category::kGradients);
  const int64_t optim = e.total(Category::kOptimizerState);
  const int64_t acts = e.total(Category::kActivations);
  const int64_t overhead = e.total(Category::kOverhead);
  const int64_t static_bytes = params + grads + optim;
  const std::string base_ev = fmt::format("estimate for {} (B={}, T={}, {}, {}): peak {} at {} vs capacity {} (usable {})",
                                          run.model.name, s.micro_batch_size, s.seq_len, to_string(s.precision),
                                          to_string(s.optimizer), format_bytes(e.peak_bytes), e.peak_phase,
                                          format_bytes(capacity), format_bytes(usable));
  const std::string static_ev = fmt::format("static {} = parameters {} + gradients {} + optimizer state {} (+ overhead {})",
                                            format_bytes(static_bytes), format_bytes(params), format_bytes(grads),
                                            format_bytes(optim), format_bytes(overhead));
  const double act_share = e.peak_bytes > 0 ? static_cast<double>(acts) / static_cast<double>(e.peak_bytes) : 0.0;
  const std::string act_ev = fmt::format("activations {} ({:.0f}% of the predicted peak)", format_bytes(acts), 100.0 * act_share);

  if (static_bytes + overhead > usable) {
    Finding f = make(OomCause::kStaticModelTooLarge, 0.92, "Static memory alone exceeds the capacity", 8);
    f.evidence = {base_ev, static_ev};
    f.probe =
        "Playbook step 3: one step at micro-batch 1 OOMs too, since static memory alone is over the capacity. No batch or "
        "checkpointing setting alone fixes this: the fix must shrink parameters, gradients or optimizer state (a batch "
        "change beside it only makes room for the activations)";
    fill(f, find_remedies(remedy_request(run, estimate, capacity)), s.safety_margin);
    for (auto& other : findings) {  // the estimate settles it: the working-set guesses step back
      if (other.category == OomCause::kActivationsBatch || other.category == OomCause::kActivationsSeqlen) {
        other.score = std::max(0.0, other.score - 0.15);
      }
    }
    findings.push_back(std::move(f));
    return;
  }

  if (e.peak_bytes > usable) {
    const RemedyRequest req = remedy_request(run, estimate, capacity);
    const RemedyReport r = find_remedies(req);
    // The T^2 share: what the fused kernel removes, relative to all activations (measured whether
    // or not sdpa may be offered: it tells sequence length from batch).
    double t2_share = 0.0;
    if (s.attention == AttentionKernel::kEager && acts > 0) {
      try {
        t2_share = static_cast<double>(evaluate_remedies(req, {RemedyKind::kAttentionSdpa}).saving_bytes) /
                   static_cast<double>(acts);
      } catch (const InputError&) {
        t2_share = 0.0;
      }
    }
    const bool seqlen = t2_share >= 0.35;
    Finding f = seqlen ? make(OomCause::kActivationsSeqlen, 0.88, "Activations exceed what static memory leaves; the T^2 attention scores dominate", 5)
                       : make(OomCause::kActivationsBatch, 0.88, "Activations of the micro-batch exceed what static memory leaves", 5);
    f.evidence = {base_ev, static_ev, act_ev};
    f.evidence.push_back(fmt::format("usable bytes left after static memory and overhead: {}",
                                     format_bytes(usable - static_bytes - overhead)));
    if (s.attention == AttentionKernel::kEager) {
      f.evidence.push_back(fmt::format("the (B,h,T,T) attention terms are {:.0f}% of activations", 100.0 * t2_share));
    }
    f.probe = "Micro-batch 1 should fit (static memory does); the probes confirm which fix works";
    fill(f, r, s.safety_margin);
    findings.push_back(std::move(f));
    if (optim >= acts && static_cast<double>(optim) >= 0.3 * static_cast<double>(e.peak_bytes)) {
      Finding o = make(OomCause::kOptimizerState, 0.55, "Optimizer state is the largest single term", 8);
      o.evidence = {static_ev};
      for (const auto& p : r.single) {  // the catalogue's cheapest fix on the optimizer state
        const RemedyKind k = p.remedies.front();
        if (k == RemedyKind::kOptimizerAdam8bit || k == RemedyKind::kOptimizerAdafactor ||
            k == RemedyKind::kOffloadOptimizer || k == RemedyKind::kZero1) {
          o.evidence.push_back("fix " + describe(p, s.safety_margin));
          if (o.fix.empty()) {
            o.fix = p.flags;
            o.saving_bytes = p.saving_bytes;
          }
        }
      }
      if (o.fix.empty()) o.fix = "--offload-optimizer";
      findings.push_back(std::move(o));
    }
    return;
  }

  // The estimate fits: the OOM needs memory the model's own step does not. Causes outside the
  // step move up, the step's own causes move down.
  notes.push_back(fmt::format("The estimate for this setup peaks at {}, {} below the capacity (within the usable {}): "
                              "look outside the model's own step", format_bytes(e.peak_bytes),
                              format_bytes(capacity - e.peak_bytes), format_bytes(usable)));
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
