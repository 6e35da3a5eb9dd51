// run_playbook(): the eight steps on a live OOM (see include/oomkit/diagnose/playbook.h).
#include "oomkit/diagnose/playbook.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/phases.h"
#include "oomkit/core/units.h"

namespace oomkit {

namespace {

constexpr int kMaxCatalogueProbes = 4;  // catalogue plans probed at most, cheapest first

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

// One probe candidate: a setup, the remedies that make it, and its cost in the catalogue's model.
struct Candidate {
  ProbeRequest request;
  std::vector<RemedyKind> remedies;
};

std::string probe_name(const std::vector<RemedyKind>& kinds, const TrainingSetup& s) {
  std::string name;
  for (RemedyKind k : kinds) {
    std::string part = k == RemedyKind::kMicroBatch
                           ? fmt::format("micro_batch_{}_accum_{}", s.micro_batch_size, s.gradient_accumulation_steps)
                           : remedy_name(k);
    name += (name.empty() ? "" : "+") + part;
  }
  return name;
}

// The probes the trainer runs, in order: micro-batch 1 first (does static memory fit?); then,
// with an estimator, the catalogue's fitting plans within recover_scope, cheapest first, until
// one completes; without one, the chapter's sequence: full checkpointing, micro-batches B/2,
// B/4, ... (divisors of B, the catalogue's rule) until one completes, bf16-mixed. The recovery
// is the cheapest probe that completed, by the catalogue's cost model (remedies.h).
void run_probes(const PlaybookInput& in, int64_t capacity, const LiveProbes& probes, std::vector<Finding>& findings,
                PlaybookResult& out) {
  const TrainingSetup& s = in.run.setup;
  std::vector<std::pair<Candidate, ProbeResult>> done;
  auto run = [&](Candidate c) {
    const ProbeResult r = probes.run_step(c.request);
    out.probes.push_back({c.request.name, r.ok, r.peak_bytes, c.request.change});
    done.emplace_back(std::move(c), r);
    return r;
  };
  auto candidate = [&](std::vector<RemedyKind> kinds, const TrainingSetup& t) {
    Candidate c;
    c.remedies = std::move(kinds);
    std::string from, to;
    if (t.micro_batch_size != s.micro_batch_size) {
      from = micro_batch_flags(s);
      to = micro_batch_flags(t);
    }
    auto add = [](std::string& a, const std::string& b) { a += (a.empty() ? "" : " ") + b; };
    if (t.checkpointing != s.checkpointing || t.checkpoint_every != s.checkpoint_every) {
      add(from, std::string("--checkpointing ") + to_string(s.checkpointing));
      add(to, std::string("--checkpointing ") + to_string(t.checkpointing));
    }
    if (t.precision != s.precision) {
      add(from, std::string("--precision ") + to_string(s.precision));
      add(to, std::string("--precision ") + to_string(t.precision));
    }
    if (t.attention != s.attention) {
      add(from, std::string("--attention ") + to_string(s.attention));
      add(to, std::string("--attention ") + to_string(t.attention));
    }
    c.request = {probe_name(c.remedies, t), t, from + " -> " + to, from, to};
    return c;
  };

  bool static_fails = false;
  std::optional<ProbeResult> mb1;
  if (s.micro_batch_size > 1) {
    Candidate c = candidate({RemedyKind::kMicroBatch}, with_micro_batch(s, 1));
    c.request.name = "micro_batch_1";
    mb1 = run(c);
    static_fails = !mb1->ok;
  }
  if (mb1 && mb1->ok) {
    Finding f = finding(OomCause::kActivationsBatch, 0.7, "Micro-batch 1 fits: activations scale with the micro-batch", 3);
    f.evidence.push_back(fmt::format("probe micro_batch_1 ok, peak {}", format_bytes(mb1->peak_bytes)));
    findings.push_back(std::move(f));
  }
  bool catalogue = false, catalogue_ok = false;
  if (in.estimate && capacity > 0) {
    RemedyRequest req;
    req.model = in.run.model;
    req.setup = s;
    req.capacity_bytes = capacity;
    req.resources = in.run.resources;
    req.scope = in.recover_scope;
    req.estimate = in.estimate;
    req.max_combinations = kMaxCatalogueProbes;
    try {
      const RemedyReport report = find_remedies(req);
      catalogue = !report.combinations.empty();
      for (const auto& plan : report.combinations) {
        if (mb1 && plan.setup.micro_batch_size == 1 && plan.remedies.size() == 1 && plan.has(RemedyKind::kMicroBatch)) {
          catalogue_ok = mb1->ok;  // the micro_batch_1 probe already ran this plan
          if (catalogue_ok) break;
          continue;
        }
        catalogue_ok = run(candidate(plan.remedies, plan.setup)).ok;
        if (catalogue_ok) break;
      }
    } catch (const InputError&) {
      catalogue = false;  // the estimator refuses the setup: the chapter's sequence below
    }
  }
  if (static_fails && !catalogue_ok) {
    Finding f = finding(OomCause::kStaticModelTooLarge, 0.95, "Micro-batch 1 also runs out of memory: static memory does not fit", 3);
    f.evidence.push_back("probe micro_batch_1 (same effective batch through accumulation) ran out of memory");
    f.fix = "--precision bf16, --optimizer adam-8bit, --offload-optimizer or ZeRO-3 sharding (see the estimator's numbers)";
    findings.push_back(std::move(f));
    return;
  }
  if (!catalogue) {
    if (s.checkpointing != Checkpointing::kFull && in.recover_scope.allows(RemedyKind::kCheckpointingFull)) {
      TrainingSetup t = s;
      t.checkpointing = Checkpointing::kFull;
      t.checkpoint_every = 1;
      run(candidate({RemedyKind::kCheckpointingFull}, t));
    }
    if (in.recover_scope.allows(RemedyKind::kMicroBatch)) {
      for (int64_t b : smaller_micro_batches(s.micro_batch_size)) {
        if (b == 1) break;  // b == 1 was the micro_batch_1 probe
        if (run(candidate({RemedyKind::kMicroBatch}, with_micro_batch(s, b))).ok) break;  // the largest that fits
      }
    }
    if (s.precision == Precision::kFp32 && in.recover_scope.allows(RemedyKind::kPrecisionBf16Mixed)) {
      TrainingSetup t = s;
      t.precision = Precision::kBf16Mixed;
      Candidate c = candidate({RemedyKind::kPrecisionBf16Mixed}, t);
      c.request.name = "bf16_mixed";
      run(c);
    }
  }
  // The cheapest probe that completed, by the catalogue's cost model (first probed on a tie).
  const Candidate* best = nullptr;
  RemedyCost best_cost;
  for (const auto& [c, r] : done) {
    if (!r.ok) continue;
    const RemedyCost cost = remedy_cost(in.run.model, s, c.remedies, c.request.setup, in.run.resources);
    if (!best || cheaper(cost, best_cost)) {
      best = &c;
      best_cost = cost;
    }
  }
  if (best) {
    out.recovery = Recovery{false, best->request.change, best->request.from, best->request.to, best->request.setup};
    for (auto& f : findings) {
      if (f.category == OomCause::kActivationsBatch || f.category == OomCause::kActivationsSeqlen) {
        f.evidence.push_back("probe " + best->request.name + " completed the step: " + best->request.change);
        f.fix = best->request.to + " (shown to work by the probe)";
      }
    }
  }
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
    const nlohmann::json& f = e.fields;
    auto integer = [&](const char* key) { return f.contains(key) && f[key].is_number_integer(); };
    if (integer("requested_bytes") && integer("allocated_bytes") && f.contains("device") && f["device"].is_string()) {
      LiveOom live;  // the trainer's typed record: no message parsing
      live.requested_bytes = f["requested_bytes"].get<int64_t>();
      live.allocated_bytes = f["allocated_bytes"].get<int64_t>();
      live.reserved_bytes = integer("reserved_bytes") ? f["reserved_bytes"].get<int64_t>() : live.allocated_bytes;
      live.limit_bytes = integer("limit_bytes") ? f["limit_bytes"].get<int64_t>() : 0;
      live.device = f["device"].get<std::string>();
      live.phase = f.contains("phase") && f["phase"].is_string() ? f["phase"].get<std::string>() : "";
      in.oom = oom_record_from_live(live);
    } else if (const auto m = f.find("message"); m != f.end() && m->is_string()) {
      auto parsed = parse_oom_log(m->get<std::string>());
      if (!parsed.empty()) in.oom = parsed.front();
    }
    if (const auto p = e.fields.find("phase"); p != e.fields.end() && p->is_string()) in.failed_phase = p->get<std::string>();
  }
  return in;
}

OomRecord oom_record_from_live(const LiveOom& live) {
  OomRecord r;
  const bool cpu = live.device == "cpu";
  r.family = cpu ? "oomkit_cpu_budget" : "pytorch2";
  r.subsystem = cpu ? "oomkit_budget" : "caching_allocator";
  r.device = live.device;
  r.message = fmt::format("{} out of memory (typed record from the memory backend{}): requested {}, limit {}, allocated {}, "
                          "reserved {}", cpu ? "CPU" : "CUDA", live.phase.empty() ? "" : ", phase " + live.phase,
                          live.requested_bytes, live.limit_bytes, live.allocated_bytes, live.reserved_bytes);
  r.requested_bytes = live.requested_bytes;
  r.allocated_bytes = live.allocated_bytes;
  r.reserved_bytes = std::max(live.reserved_bytes, live.allocated_bytes);
  r.reserved_unallocated_bytes = *r.reserved_bytes - live.allocated_bytes;
  if (live.limit_bytes > 0) {
    r.total_capacity_bytes = live.limit_bytes;
    r.free_bytes = std::max<int64_t>(0, live.limit_bytes - *r.reserved_bytes);
  }
  return r;
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
    run_probes(in, capacity, probes, findings, out);
  }
  rank_findings(findings);
  d.findings = std::move(findings);
  return out;
}

}  // namespace oomkit
