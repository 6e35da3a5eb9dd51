// run_playbook(): the eight steps on a live OOM (see include/oomkit/diagnose/playbook.h).
#include "oomkit/diagnose/playbook.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "oomkit/core/phases.h"
#include "oomkit/core/units.h"

namespace oomkit {

namespace {

std::string batch_flags(const TrainingSetup& s) {
  return fmt::format("--batch-size {} --grad-accum {}", s.micro_batch_size, s.gradient_accumulation_steps);
}

Finding finding(OomCause c, double score, std::string title, int step) {
  Finding f;
  f.category = c;
  f.score = score;
  f.title = std::move(title);
  f.playbook_step = step;
  return f;
}

int64_t capacity_of(const PlaybookInput& in) {
  if (in.run.capacity_bytes > 0) return in.run.capacity_bytes;
  if (in.oom) {
    if (auto c = in.oom->effective_capacity_bytes()) return *c;
  }
  if (in.stats) return in.stats->limit_bytes > 0 ? in.stats->limit_bytes : in.stats->device_total_bytes;
  return 0;
}

}  // namespace

std::optional<GrowthFit> step_start_growth(const std::vector<TimelineMark>& marks, int window) {
  std::map<int64_t, int64_t> at_start;  // step -> allocated at its step_start mark
  for (const auto& m : marks) {
    if (m.phase == phase_name(Phase::kStepStart)) at_start[m.step] = m.allocated_bytes;
  }
  std::vector<std::pair<int64_t, int64_t>> pts(at_start.begin(), at_start.end());
  if (window > 0 && pts.size() > static_cast<size_t>(window)) pts.erase(pts.begin(), pts.end() - window);
  return fit_growth(pts);
}

std::string crossing_phase(const std::vector<TimelineMark>& marks) {
  if (marks.empty()) return "";
  const std::string& last = marks.back().phase;
  if (last == phase_name(Phase::kStepStart)) return "forward";
  if (last == phase_name(Phase::kAfterForward)) return "loss";
  if (last == phase_name(Phase::kAfterLoss)) return "backward";
  if (last == phase_name(Phase::kAfterBackward)) return "optimizer_step";
  if (last == phase_name(Phase::kAfterOptimizerStep)) return "zero_grad";
  if (last == phase_name(Phase::kAfterZeroGrad)) return "next_step";
  if (last == phase_name(Phase::kEval)) return "after_eval";
  return "";
}

PlaybookInput playbook_input_from_timeline(const RunRecords& records) {
  PlaybookInput in;
  in.marks = records.marks;
  if (records.run) in.run.capacity_bytes = records.run->limit_bytes;
  for (const EventRecord& e : records.events) {
    if (e.name != "oom") continue;
    if (const auto m = e.fields.find("message"); m != e.fields.end() && m->is_string()) {
      auto parsed = parse_oom_log(m->get<std::string>());
      if (!parsed.empty()) in.oom = parsed.front();
    }
    if (const auto p = e.fields.find("phase"); p != e.fields.end() && p->is_string()) in.failed_phase = p->get<std::string>();
  }
  return in;
}

PlaybookInput playbook_input_from_timeline(const std::vector<nlohmann::json>& records) {
  return playbook_input_from_timeline(parse_run_records(records, "timeline"));
}

PlaybookResult run_playbook(const PlaybookInput& in, const LiveProbes& probes) {
  PlaybookResult out;
  Diagnosis& d = out.diagnosis;
  std::vector<Finding> findings;
  if (in.oom) {
    d = diagnose_oom(*in.oom, LogContext{});
    findings = d.findings;
  }
  const int64_t capacity = capacity_of(in);
  const TrainingSetup& s = in.run.setup;

  // Step 1: device memory.
  if (in.stats) {
    const MemoryStats& m = *in.stats;
    d.notes.push_back(fmt::format("device: capacity {}, free {}, budget {}, allocated {} (peak {}), reserved {}, process RSS {}",
                                  format_bytes(m.device_total_bytes), format_bytes(m.device_free_bytes),
                                  m.limit_bytes > 0 ? format_bytes(m.limit_bytes) : std::string("none"),
                                  format_bytes(m.allocated_bytes.current), format_bytes(m.allocated_bytes.peak),
                                  format_bytes(m.reserved_bytes.current), format_bytes(m.process_rss_bytes)));
  }

  // Step 2: which phase crossed the limit.
  std::string phase = in.failed_phase.empty() ? crossing_phase(in.marks) : in.failed_phase;
  if (phase == "optimizer_step" && !in.marks.empty() && in.marks.back().micro_step + 1 < s.gradient_accumulation_steps) {
    phase = "forward";  // more micro-batches were due before the optimizer step
  }
  if (!phase.empty()) {
    std::string ev = "the failed step crossed the limit in its " + phase + " phase";
    if (!in.marks.empty()) {
      const auto& m = in.marks.back();
      ev += fmt::format(" (last mark: step {} {} with {} allocated)", m.step, m.phase, format_bytes(m.allocated_bytes));
    }
    d.notes.push_back(ev);
  }
  bool first_optimizer_step = true;
  for (const auto& m : in.marks) {
    if (m.phase == phase_name(Phase::kAfterOptimizerStep)) first_optimizer_step = false;
  }
  if (phase == "optimizer_step" && first_optimizer_step) {
    Finding f = finding(OomCause::kOptimizerState, 0.8, "The first optimizer step allocates the optimizer state and crosses the limit", 8);
    f.evidence.push_back("OOM inside the first optimizer.step(): Adam creates exp_avg and exp_avg_sq (8 bytes/parameter) lazily");
    f.fix = "--optimizer adam-8bit (2 B/param), lion or sgd (4 B/param), or --offload-optimizer";
    f.probe = "The step before the optimizer (forward + backward) completed";
    findings.push_back(std::move(f));
  }
  const bool eval_oom = in.eval_grad_enabled && (phase == "eval" || in.failed_phase == "eval");
  if (eval_oom) {
    Finding f = finding(OomCause::kEvalWithoutNoGrad, 0.92, "Evaluation ran with autograd on and kept every batch's graph", 7);
    f.evidence.push_back("the OOM came during evaluation while grad mode was enabled");
    f.fix = "Evaluate under torch::NoGradGuard / `with torch.no_grad():` (oomkit train does this unless told otherwise)";
    f.probe = "Memory rises on each validation batch and falls after evaluation";
    findings.push_back(std::move(f));
  }

  // Step 7: leak regression over step_start marks.
  bool leak = false;
  if (auto fit = step_start_growth(in.marks, in.leak_window_steps); fit && is_leak(*fit)) {
    leak = true;
    Finding f = finding(OomCause::kLeakAcrossSteps, 0.92, "Leak across steps: memory at each step start keeps rising", 7);
    f.evidence.push_back(fmt::format("allocated at step_start rose from {} to {} over {} steps: {} per step (R^2 {:.2f})",
                                     format_bytes(fit->first_bytes), format_bytes(fit->last_bytes), fit->points,
                                     format_bytes(static_cast<int64_t>(fit->slope_bytes_per_step)), fit->r2));
    f.fix = "losses.append(loss.item()) instead of losses.append(loss); detach() tensors kept across steps";
    f.probe = "Growth per step is constant: one graph (or tensor) kept per step";
    if (capacity > 0 && fit->slope_bytes_per_step > 0) {
      const int64_t rise = fit->last_bytes - fit->first_bytes;
      f.evidence.push_back(fmt::format("the steps measured leaked {} in all, {:.0f}% of the {} budget", format_bytes(rise),
                                       100.0 * static_cast<double>(rise) / static_cast<double>(capacity),
                                       format_bytes(capacity)));
    }
    findings.push_back(std::move(f));
  }

  // Step 3 and 8 from the estimator.
  if (in.estimate && capacity > 0) add_estimate_findings(in.run, in.estimate, capacity, in.oom ? &*in.oom : nullptr, findings, d.notes);

  // Steps 3-6: probes. Not for a leak or an eval graph: the fix is in the code, not the setup.
  if (probes.run_step && !leak && !eval_oom) {
    std::vector<ProbeRequest> fixes_ok;
    auto run = [&](ProbeRequest req) {
      const ProbeResult r = probes.run_step(req);
      out.probes.push_back({req.name, r.ok, r.peak_bytes, req.change});
      if (r.ok && req.cost_rank > 0) fixes_ok.push_back(req);
      return r;
    };
    const int64_t B = s.micro_batch_size;
    const int64_t GA = s.gradient_accumulation_steps;
    bool static_fails = false;
    std::optional<ProbeResult> mb1;
    if (B > 1) {
      TrainingSetup t = s;
      t.micro_batch_size = 1;
      t.gradient_accumulation_steps = GA * B;
      mb1 = run({"micro_batch_1", t, batch_flags(s) + " -> " + batch_flags(t), batch_flags(s), batch_flags(t), 1});
      static_fails = !mb1->ok;
    }
    if (static_fails) {
      Finding f = finding(OomCause::kStaticModelTooLarge, 0.95, "Micro-batch 1 also runs out of memory: static memory does not fit", 3);
      f.evidence.push_back("probe micro_batch_1 (same effective batch through accumulation) ran out of memory");
      f.fix = "--precision bf16, --optimizer adam-8bit, --offload-optimizer or ZeRO-3 sharding (see the estimator's numbers)";
      findings.push_back(std::move(f));
    } else {
      if (mb1 && mb1->ok) {
        Finding f = finding(OomCause::kActivationsBatch, 0.7, "Micro-batch 1 fits: activations scale with the micro-batch", 3);
        f.evidence.push_back(fmt::format("probe micro_batch_1 ok, peak {}", format_bytes(mb1->peak_bytes)));
        findings.push_back(std::move(f));
      }
      if (s.checkpointing != Checkpointing::kFull) {
        TrainingSetup t = s;
        t.checkpointing = Checkpointing::kFull;
        const std::string from = std::string("--checkpointing ") + to_string(s.checkpointing);
        run({"checkpointing_full", t, from + " -> --checkpointing full", from, "--checkpointing full", 2});
      }
      for (int64_t b = B / 2; b > 1; b /= 2) {  // b == 1 was the micro_batch_1 probe
        if (B % b != 0) continue;
        TrainingSetup t = s;
        t.micro_batch_size = b;
        t.gradient_accumulation_steps = GA * (B / b);
        const ProbeResult r = run({fmt::format("micro_batch_{}_accum_{}", b, t.gradient_accumulation_steps), t,
                                   batch_flags(s) + " -> " + batch_flags(t), batch_flags(s), batch_flags(t), 1});
        if (r.ok) break;  // the largest micro-batch that fits
      }
      if (s.precision == Precision::kFp32) {
        TrainingSetup t = s;
        t.precision = Precision::kBf16Mixed;
        run({"bf16_mixed", t, "--precision fp32 -> --precision bf16-mixed", "--precision fp32", "--precision bf16-mixed", 3});
      }
    }
    // The cheapest fix that worked; among accumulation fixes, the largest micro-batch.
    const ProbeRequest* best = nullptr;
    for (const auto& f : fixes_ok) {
      if (!best || f.cost_rank < best->cost_rank ||
          (f.cost_rank == best->cost_rank && f.setup.micro_batch_size > best->setup.micro_batch_size)) {
        best = &f;
      }
    }
    if (best) {
      out.recovery = Recovery{false, best->change, best->from, best->to, best->setup};
      for (auto& f : findings) {
        if (f.category == OomCause::kActivationsBatch || f.category == OomCause::kActivationsSeqlen) {
          f.evidence.push_back("probe " + best->name + " completed the step: " + best->change);
          f.fix = best->to + " (shown to work by the probe)";
        }
      }
    }
  }
  rank_findings(findings);
  d.findings = std::move(findings);
  return out;
}

}  // namespace oomkit
