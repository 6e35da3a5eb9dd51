// OomHandler: `oomkit train --on-oom` (see include/oomkit/train/oom_recovery.h).
#include "oomkit/train/oom_recovery.h"

#include <c10/util/Exception.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <mutex>

#include "oomkit/core/error.h"
#include "oomkit/core/log.h"
#include "oomkit/core/phases.h"
#include "oomkit/core/units.h"
#include "oomkit/diagnose/oom_report.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/remedies.h"
#include "oomkit/train/rng_autocast.h"

namespace oomkit {

namespace {

namespace fs = std::filesystem;

// The marks of the step in progress: from its last step_start mark to the end.
std::vector<TimelineMark> current_step_marks(const std::vector<TimelineMark>& marks) {
  for (size_t i = marks.size(); i-- > 0;) {
    if (marks[i].phase == phase_name(Phase::kStepStart)) return {marks.begin() + static_cast<std::ptrdiff_t>(i), marks.end()};
  }
  return {};
}

// Lifts the backend's budget for its lifetime (snapshot writes and reloads are not part of the
// step being measured), then puts it back.
class LiftedLimit {
 public:
  LiftedLimit(MemoryBackend* backend, int64_t limit) : backend_(backend), limit_(limit) {
    if (limit_ > 0) backend_->set_limit_bytes(0);
  }
  ~LiftedLimit() {
    if (limit_ > 0) backend_->set_limit_bytes(limit_);
  }
  LiftedLimit(const LiftedLimit&) = delete;
  LiftedLimit& operator=(const LiftedLimit&) = delete;

 private:
  MemoryBackend* backend_;
  int64_t limit_;
};

std::string top_line(const PlaybookResult& r) {
  if (r.diagnosis.findings.empty()) return "no finding";
  const Finding& f = r.diagnosis.findings.front();
  return fmt::format("{} [{}]: {}", cause_name(f.category), f.confidence(), f.title);
}

}  // namespace

std::optional<std::string> oom_message(const std::exception& e) {
  std::string text;
  bool typed = false;
  if (const auto* oom = dynamic_cast<const c10::OutOfMemoryError*>(&e)) {
    text = oom->what_without_backtrace();
    typed = true;
  } else if (const auto* err = dynamic_cast<const c10::Error*>(&e)) {
    text = err->what_without_backtrace();
  } else {
    text = e.what();
  }
  if (typed || !parse_oom_log(text).empty()) return text;
  return std::nullopt;
}

void Trainer::set_memory_setup(const TrainingSetup& setup) {
  set_micro_batching(setup.micro_batch_size, setup.gradient_accumulation_steps);
  if (setup.seq_len != options_.setup.seq_len) throw InputError("--seq-len", "a running trainer keeps its sequence length");
  if (setup.precision != options_.setup.precision) {
    const auto autocast = [](Precision p) {
      return p == Precision::kFp32 || p == Precision::kBf16Mixed || p == Precision::kFp16Mixed;
    };
    if (!autocast(setup.precision) || !autocast(options_.setup.precision)) {
      throw InputError("--precision", "a running trainer switches only between fp32 and the mixed (autocast) modes");
    }
    if (setup.precision == Precision::kFp16Mixed && !device_.is_cuda()) {
      throw InputError("--precision", "fp16-mixed needs --device cuda");
    }
    options_.setup.precision = setup.precision;
  }
  if (setup.attention != options_.setup.attention) {
    model_->set_attention(setup.attention);  // InputError where the build lacks the kernel
    options_.setup.attention = setup.attention;
  }
  model_->set_checkpointing(setup.checkpointing, setup.checkpoint_every);
  options_.setup.checkpointing = setup.checkpointing;
  options_.setup.checkpoint_every = setup.checkpoint_every;
}

PlaybookInput live_playbook_input(const std::string& message, const Profiler& profiler, const MemoryBackend& backend,
                                  const ModelConfig& model, const TrainingSetup& setup, int64_t budget_bytes,
                                  const std::string& failed_phase, bool eval_grad_enabled) {
  PlaybookInput in;
  if (auto live = backend.last_oom()) {  // the backend's typed record: no message parsing
    live->phase = failed_phase.empty() ? crossing_phase(current_step_marks(profiler.marks())) : failed_phase;
    in.oom = oom_record_from_live(*live);
  } else {  // a CUDA OOM on LibTorch 1.x, or an OOM raised outside the allocator (cuBLAS, ...)
    const auto parsed = parse_oom_log(message);
    if (!parsed.empty()) in.oom = parsed.front();
  }
  in.marks = profiler.marks();
  in.stats = backend.snapshot();
  in.failed_phase = failed_phase;
  in.eval_grad_enabled = eval_grad_enabled;
  in.run.model = model;
  in.run.setup = setup;
  in.run.capacity_bytes = budget_bytes;
  // The fixes advised: the catalogue's, less the kernels this build's trainer refuses (no sdpa on
  // LibTorch 1.13); the probes: what a running trainer can switch (estimate/remedies.h).
  in.run.scope = RemedyScope::trainer_advice(sdpa_available());
  in.recover_scope = RemedyScope::running_trainer(sdpa_available(), setup.cuda);
  in.estimate = [](const ModelConfig& m, const TrainingSetup& s) { return estimate_memory(m, s); };
  return in;
}

OomHandler::OomHandler(Trainer& trainer, OnOom mode, std::string report_dir, int max_recoveries)
    : trainer_(trainer), mode_(mode), report_dir_(std::move(report_dir)), max_recoveries_(max_recoveries) {}

std::optional<StepStats> OomHandler::step() {
  const int cuda_device = trainer_.options().setup.cuda ? 0 : -1;
  while (true) {
    const int64_t step = trainer_.next_step();
    const RngState rng = capture_rng_state(cuda_device);  // dropout draws from the default generators
    if (MemoryBackend* b = trainer_.backend()) b->clear_last_oom();  // a record now belongs to this step
    // The failed step: its generators back to the start (its data position was rewound and its
    // gradients dropped by Trainer::step()), the profiler's open step closed; the micro-step of
    // its last mark.
    auto abandon_step = [&]() -> int64_t {
      restore_rng_state(rng);
      Profiler* profiler = trainer_.profiler();
      const auto marks = profiler ? current_step_marks(profiler->marks()) : std::vector<TimelineMark>{};
      if (profiler) profiler->abort_step();
      return marks.empty() ? 0 : marks.back().micro_step;
    };
    try {
      return trainer_.step();
    } catch (const PeerOutOfMemory&) {
      // Another rank ran out of memory in this step; every rank abandoned it (Trainer::step()).
      const int64_t micro = abandon_step();
      if (!handle_collective(std::nullopt, step, micro)) return std::nullopt;
    } catch (const std::exception& e) {
      const auto message = oom_message(e);
      if (!message) throw;
      const int64_t micro = abandon_step();
      if (trainer_.oom_agreed()) {
        if (!handle_collective(*message, step, micro)) return std::nullopt;
      } else if (trainer_.process_group() != nullptr) {
        abort_unagreed(*message, /*in_eval=*/false, step, micro);
        return std::nullopt;
      } else if (!handle(*message, /*in_eval=*/false, step, micro)) {
        return std::nullopt;
      }
    }
  }
}

std::optional<double> OomHandler::evaluate() {
  if (MemoryBackend* b = trainer_.backend()) b->clear_last_oom();
  try {
    return trainer_.evaluate();
  } catch (const std::exception& e) {
    const auto message = oom_message(e);
    if (!message) throw;
    trainer_.model()->train();
    // The evaluation follows step next_step() - 1: the OOM is numbered by that step.
    if (trainer_.process_group() != nullptr) abort_unagreed(*message, /*in_eval=*/true, trainer_.next_step() - 1, 0);
    else handle(*message, /*in_eval=*/true, trainer_.next_step() - 1, 0);
    return std::nullopt;
  }
}

void OomHandler::take_snapshot() {
  fs::create_directories(report_dir_.empty() ? "." : report_dir_);
  snapshot_path_ = (fs::path(report_dir_.empty() ? "." : report_dir_) / ".oom_snapshot.ckpt").string();
  snapshot_setup_ = trainer_.training_setup();
  LiftedLimit lifted(trainer_.backend(), trainer_.options().memory_limit_bytes);
  trainer_.save_checkpoint(snapshot_path_);
}

void OomHandler::restore_snapshot() {
  trainer_.set_memory_setup(snapshot_setup_);
  LiftedLimit lifted(trainer_.backend(), trainer_.options().memory_limit_bytes);
  trainer_.optimizer().state().clear();  // Optimizer::load() keeps states the snapshot lacks
  trainer_.load_checkpoint(snapshot_path_);
}

void OomHandler::drop_snapshot() {
  if (snapshot_path_.empty()) return;
  std::error_code ec;
  fs::remove(snapshot_path_, ec);
  snapshot_path_.clear();
}

ProbeResult OomHandler::probe(const TrainingSetup& setup) {
  if (snapshot_path_.empty()) take_snapshot();
  Profiler* profiler = trainer_.profiler();
  MemoryBackend* backend = trainer_.backend();
  trainer_.set_profiler(nullptr);
  ProbeResult r;
  // Before the first optimizer step the optimizer holds no state yet (Adam creates its moments
  // lazily): the probe then also runs the next step, whose activations sit on top of that state.
  const int steps = trainer_.optimizer().state().empty() ? 2 : 1;
  try {
    trainer_.set_memory_setup(setup);
    backend->empty_cache();
    backend->reset_peak();
    for (int k = 0; k < steps && trainer_.next_step() < trainer_.options().steps; ++k) trainer_.step();
    r.ok = true;
  } catch (const std::exception& e) {
    const auto message = oom_message(e);
    r.error = message ? *message : std::string("probe could not run: ") + e.what();
  }
  r.peak_bytes = backend->snapshot().allocated_bytes.peak;
  restore_snapshot();
  trainer_.set_profiler(profiler);
  return r;
}

std::string OomHandler::record_oom(const std::string& message, bool in_eval, int64_t step, int64_t micro_step) {
  MemoryBackend* backend = trainer_.backend();
  Profiler* profiler = trainer_.profiler();
  const MemoryStats stats = backend->snapshot();
  const int64_t budget = trainer_.options().memory_limit_bytes;
  const TrainingSetup setup = trainer_.training_setup();
  std::string phase = "eval";
  if (!in_eval) {
    phase = profiler ? crossing_phase(current_step_marks(profiler->marks())) : std::string();
    if (phase == "optimizer_step" && micro_step + 1 < setup.gradient_accumulation_steps) phase = "forward";
  }
  const std::string first_line = message.substr(0, message.find('\n'));
  if (profiler) {
    nlohmann::json event = {{"step", step},         {"phase", phase},
                            {"micro_step", micro_step}, {"message", message},
                            {"on_oom", to_string(mode_)}, {"allocated_bytes", stats.allocated_bytes.current},
                            {"limit_bytes", budget}};
    if (const auto live = backend->last_oom()) {  // the numbers at the refused allocation
      event["requested_bytes"] = live->requested_bytes;
      event["allocated_bytes"] = live->allocated_bytes;
      event["reserved_bytes"] = live->reserved_bytes;
      event["device"] = live->device;
      if (live->limit_bytes > 0) event["limit_bytes"] = live->limit_bytes;
    }
    profiler->write_event("oom", event);
  }
  OomPoint point;
  point.step = step;
  point.phase = phase;
  point.micro_step = micro_step;
  point.allocated_bytes = stats.allocated_bytes.current;
  point.limit_bytes = budget;
  point.message = first_line;
  if (const auto live = backend->last_oom()) {
    point.allocated_bytes = live->allocated_bytes;
    point.requested_bytes = live->requested_bytes;
    if (live->limit_bytes > 0) point.limit_bytes = live->limit_bytes;
  }
  last_oom_ = point;
  stop_message_ = in_eval ? fmt::format("out of memory in the evaluation after step {}: {}", step, first_line)
                          : fmt::format("out of memory at step {}{}: {}", step,
                                        phase.empty() ? "" : " (" + phase + ")", first_line);
  return phase;
}

void OomHandler::abort_unagreed(const std::string& message, bool in_eval, int64_t step, int64_t micro_step) {
  // Under data parallelism only an OOM in forward/backward is agreed on by the ranks (ZeRO-2,
  // Trainer::set_collective_oom); one in the optimizer step or the evaluation finds the other
  // ranks inside a collective. The playbook's probes would run steps on this rank alone and its
  // report files are the run directory's: the OOM ends the job as abort does (the launcher stops
  // the other ranks; under torchrun they fail at --dist-timeout).
  record_oom(message, in_eval, step, micro_step);
  log::error("{} (rank {} of {}: under data parallelism an OOM {} ends the job; the ranks agree only on one in "
             "forward or backward, with --zero 2)",
             stop_message_, trainer_.rank(), trainer_.world_size(), in_eval ? "in evaluation" : "outside forward and backward");
}

int64_t OomHandler::smaller_micro_batch(std::string& why, int& reason) const {
  reason = kReasonNone;
  const TrainingSetup setup = trainer_.training_setup();
  const int64_t B = setup.micro_batch_size, rows = B * setup.gradient_accumulation_steps;
  int64_t capacity = trainer_.options().memory_limit_bytes;
  if (capacity <= 0) capacity = trainer_.backend()->snapshot().device_total_bytes;
  // Micro-batches that keep B·grad_accum (divisors of it below B), largest first; the first
  // whose per-rank estimate fits with the safety margin, else without it. Without a capacity
  // (or an estimate), the largest divisor at most B/2.
  std::vector<int64_t> candidates;
  for (int64_t d = B - 1; d >= 1; --d) {
    if (rows % d == 0) candidates.push_back(d);
  }
  if (candidates.empty()) {
    why = "the micro-batch is already 1";
    reason = kReasonMicroBatchOne;
    return 0;
  }
  std::vector<std::pair<int64_t, int64_t>> peaks;  // (micro-batch, estimated peak bytes)
  if (capacity > 0) {
    for (int64_t d : candidates) {
      TrainingSetup s = setup;
      s.micro_batch_size = d;
      s.gradient_accumulation_steps = rows / d;
      try {
        peaks.emplace_back(d, estimate_memory(trainer_.config(), s).peak_bytes);
      } catch (const std::exception&) {
        peaks.clear();
        break;
      }
    }
  }
  if (!peaks.empty()) {
    const int64_t usable = usable_bytes(capacity, setup.safety_margin);
    for (const auto& [d, peak] : peaks) {
      if (peak <= usable) {
        why = fmt::format("its estimated peak {} fits {} with the {:.0f}% safety margin", format_bytes(peak),
                          format_bytes(capacity), 100.0 * setup.safety_margin);
        return d;
      }
    }
    for (const auto& [d, peak] : peaks) {
      if (peak <= capacity) {
        why = fmt::format("its estimated peak {} fits {} (not with the {:.0f}% safety margin)", format_bytes(peak),
                          format_bytes(capacity), 100.0 * setup.safety_margin);
        return d;
      }
    }
    why = fmt::format("no micro-batch below {} fits {} by the estimate (micro-batch 1: {})", B, format_bytes(capacity),
                      format_bytes(peaks.back().second));
    reason = kReasonNothingFits;
    return 0;
  }
  for (int64_t d : candidates) {
    if (2 * d <= B) {
      why = "no capacity to size it against: the largest divisor of B·grad_accum at most B/2";
      return d;
    }
  }
  why = "no divisor of B·grad_accum at most B/2";
  reason = kReasonNoDivisor;
  return 0;
}

bool OomHandler::handle_collective(const std::optional<std::string>& message, int64_t step, int64_t micro_step) {
  // Every rank is here for the same step (Trainer::step() agreed on the OOM before any gradient
  // moved). One all-reduce of four numbers per rank is the decision: each rank's proposed
  // micro-batch (the failing ranks a smaller one, the others their own), whether it ran out of
  // memory, its peak allocated bytes in the step and the request refused; every rank takes the
  // smallest proposal, so all keep the same B and grad_accum and B·grad_accum is unchanged.
  ProcessGroup* group = trainer_.process_group();
  MemoryBackend* backend = trainer_.backend();
  Profiler* profiler = trainer_.profiler();
  const TrainingSetup setup = trainer_.training_setup();
  const int64_t B = setup.micro_batch_size, A = setup.gradient_accumulation_steps;
  const int W = trainer_.world_size(), me = trainer_.rank();
  std::string why;
  // A rank that went through: its peak in the step. A failing rank: what it needed at the
  // refusal (allocated then + the refused request).
  int64_t proposal = B, bytes = backend->snapshot().allocated_bytes.peak, requested = 0;
  int reason = kReasonNone;
  if (message) {
    record_oom(*message, /*in_eval=*/false, step, micro_step);
    if (last_oom_) {
      requested = last_oom_->requested_bytes;
      bytes = last_oom_->allocated_bytes + requested;
    }
    if (recoveries_ >= max_recoveries_) {
      proposal = 0;
      reason = kReasonRecoveredEnough;
      why = fmt::format("already recovered {} times in this run", recoveries_);
    } else {
      proposal = smaller_micro_batch(why, reason);
    }
  }
  constexpr int kFields = 5;  // proposal, failed, bytes, requested, reason
  std::vector<double> mine(static_cast<size_t>(kFields * W), 0.0);
  mine[kFields * me] = static_cast<double>(proposal);
  mine[kFields * me + 1] = message ? 1.0 : 0.0;
  mine[kFields * me + 2] = static_cast<double>(bytes);
  mine[kFields * me + 3] = static_cast<double>(requested);
  mine[kFields * me + 4] = static_cast<double>(reason);
  const std::vector<double> all = group->allreduce_sum(mine, "oom_decision");
  int64_t agreed = B, others_max = 0, failed_max = 0;
  int max_reason = kReasonNone;
  std::vector<int> failed;
  nlohmann::json ranks = nlohmann::json::array();
  std::string lines;  // each rank's bytes, for the log line
  for (int r = 0; r < W; ++r) {
    const auto at = static_cast<size_t>(kFields * r);
    const auto proposed = static_cast<int64_t>(all[at]), rank_bytes = static_cast<int64_t>(all[at + 2]);
    const bool oom = all[at + 1] > 0.0;
    agreed = std::min(agreed, proposed);
    max_reason = std::max(max_reason, static_cast<int>(all[at + 4]));
    nlohmann::json row = {{"rank", r}, {"out_of_memory", oom}, {"proposed_micro_batch", proposed}};
    lines += fmt::format("{}rank {}: ", r == 0 ? "" : ", ", r);
    if (oom) {
      failed.push_back(r);
      failed_max = std::max(failed_max, rank_bytes);
      row["needed_bytes"] = rank_bytes;
      row["requested_bytes"] = static_cast<int64_t>(all[at + 3]);
      lines += fmt::format("needed {} (OOM: {} refused)", format_bytes(rank_bytes), format_bytes(static_cast<int64_t>(all[at + 3])));
    } else {
      others_max = std::max(others_max, rank_bytes);
      row["peak_bytes"] = rank_bytes;
      lines += fmt::format("peak {}", format_bytes(rank_bytes));
    }
    ranks.push_back(std::move(row));
  }
  // The other ranks' numbers decide between "this micro-batch is too large for every rank" and
  // "one rank holds more than the others" (multi_gpu_imbalance): a failing rank that needed more
  // than 10% above the highest peak of the ranks that went through.
  const bool all_failed = static_cast<int>(failed.size()) == W;
  const bool imbalance = !all_failed && static_cast<double>(failed_max) > 1.1 * static_cast<double>(others_max);
  // Micro-batch 1 over the budget by the estimate: the static memory (parameters, gradients,
  // optimizer state) is what does not fit, not the micro-batch.
  const bool static_too_large = max_reason == kReasonNothingFits;
  const OomCause cause = imbalance          ? OomCause::kMultiGpuImbalance
                         : static_too_large ? OomCause::kStaticModelTooLarge
                                            : OomCause::kActivationsBatch;
  const std::string reading =
      imbalance ? "a failing rank needed over 10% more than the ranks that went through peaked at (multi_gpu_imbalance)"
      : static_too_large ? "even micro-batch 1 is over the budget by the estimate: the model's static memory does not fit "
                           "(static_model_too_large)"
      : all_failed ? "every rank ran out of memory: the micro-batch is too large for each"
                            : "the ranks that went through peaked within 10% of what the failing one needed: the "
                              "micro-batch, not an imbalance";
  // The reason a failing rank proposed nothing, known to every rank (its text is rank-local).
  const char* reason_text = max_reason == kReasonRecoveredEnough ? "already recovered the most times a run allows"
                            : max_reason == kReasonNothingFits    ? "no micro-batch below the current one fits the budget by the estimate"
                            : max_reason == kReasonMicroBatchOne  ? "the micro-batch is already 1"
                            : max_reason == kReasonNoDivisor      ? "no divisor of B·grad_accum at most B/2"
                                                                  : "";
  if (why.empty()) why = reason_text;
  if (!message) {
    stop_message_ = fmt::format("rank{} {} ran out of memory at step {}", failed.size() == 1 ? "" : "s",
                                fmt::join(failed, ", "), step);
  }
  const bool recover = mode_ == OnOom::kRecover && agreed > 0 && agreed < B;
  // The failing ranks name their own OOM; rank 0 says what the ranks decided (the same on all).
  if (message) (recover ? log::warn("{}", stop_message_) : log::error("{}", stop_message_));
  const std::string what_failed =
      fmt::format("rank{} {} of {} ran out of memory at step {}", failed.size() == 1 ? "" : "s", fmt::join(failed, ", "), W, step);
  nlohmann::json fields = {{"step", step}, {"collective", true}, {"ranks", ranks}, {"finding", cause_name(cause)},
                           {"reading", reading}, {"ranks_out_of_memory", failed.size()}};
  if (!recover) {
    std::string after;
    if (mode_ != OnOom::kRecover) {
      after = agreed > 0 && agreed < B
                  ? fmt::format("stopping (--on-oom {}); --on-oom recover would retry at micro-batch {} x grad_accum {}{}",
                                to_string(mode_), agreed, B * A / agreed, why.empty() ? "" : " (" + why + ")")
                  : fmt::format("stopping (--on-oom {}){}", to_string(mode_), why.empty() ? "" : "; no smaller micro-batch: " + why);
    } else {
      after = fmt::format("stopping: no smaller micro-batch{}", why.empty() ? "" : ": " + why);
    }
    fields["decision"] = after;
    if (me == 0) log::error("{}; at the OOM {}; {}; {}", what_failed, lines, reading, after);
    if (profiler) profiler->write_event("oom_decision", fields);
    return false;
  }
  const int64_t new_A = B * A / agreed;
  TrainingSetup after = setup;
  after.micro_batch_size = agreed;
  after.gradient_accumulation_steps = new_A;
  trainer_.set_micro_batching(agreed, new_A);
  ++recoveries_;
  if (profiler) {
    fields["change"] = micro_batch_flags(after);
    fields["from"] = micro_batch_flags(setup);
    fields["to"] = micro_batch_flags(after);
    try {
      fields["estimate"] = nlohmann::json::parse(estimate_to_json(estimate_memory(trainer_.config(), trainer_.training_setup())));
    } catch (const std::exception& e) {
      fields["estimate_error"] = e.what();
    }
    profiler->write_event("recover", fields);
  }
  if (me == 0) {
    log::warn("{}; at the OOM {}; {}; every rank now runs micro-batch {} x grad_accum {} (was {} x {}{}), retrying "
              "step {} with the same global batch",
              what_failed, lines, reading, agreed, new_A, B, A, why.empty() ? "" : "; " + why, step);
  }
  return true;
}

bool OomHandler::handle(const std::string& message, bool in_eval, int64_t step, int64_t micro_step) {
  MemoryBackend* backend = trainer_.backend();
  Profiler* profiler = trainer_.profiler();
  const int64_t budget = trainer_.options().memory_limit_bytes;
  const TrainingSetup setup = trainer_.training_setup();
  const std::string phase = record_oom(message, in_eval, step, micro_step);
  if (mode_ == OnOom::kAbort) {
    log::error("{} (--on-oom abort)", stop_message_);
    return false;
  }

  log::warn("{}; running the OOM playbook (--on-oom {})", stop_message_, to_string(mode_));
  const Profiler no_marks(backend, nullptr, false);
  PlaybookInput in = live_playbook_input(message, profiler ? *profiler : no_marks, *backend,
                                         trainer_.config(), setup, budget, phase, in_eval && at::GradMode::is_enabled());
  LiveProbes probes;
  if (!in_eval) {
    probes.run_step = [this, profiler](const ProbeRequest& req) {
      log::info("probe {}: {}", req.name, req.change);
      const int64_t begin_ns = profiler ? profiler->elapsed_ns() : 0;
      ProbeResult r;
      try {
        r = probe(req.setup);
      } catch (const std::exception& e) {
        r.ok = false;
        r.error = std::string("probe could not run: ") + e.what();
      }
      if (profiler) {  // the probe's span, for the trace's probe slices (its t_ns is the end)
        nlohmann::json fields = {{"probe", req.name}, {"change", req.change}, {"ok", r.ok},
                                 {"peak_bytes", r.peak_bytes}, {"dur_ns", profiler->elapsed_ns() - begin_ns}};
        if (!r.ok) fields["error"] = r.error.substr(0, r.error.find('\n'));
        profiler->write_event("probe", fields);
      }
      log::info("probe {}: {} (peak allocated {})", req.name, r.ok ? "step completed" : "out of memory",
                format_bytes(r.peak_bytes));
      return r;
    };
  }
  PlaybookResult result;
  try {
    result = run_playbook(in, probes);
  } catch (const InputError& e) {  // the estimator refused the setup: the playbook without it
    log::warn("estimator unavailable for the playbook: {}", e.what());
    in.estimate = nullptr;
    result = run_playbook(in, probes);
  }
  drop_snapshot();
  backend->reset_peak();  // the probes' peaks belong to no step of the run

  bool recovered = false;
  std::string refused;
  if (mode_ == OnOom::kRecover) {
    if (in_eval) {
      refused = "the OOM came in evaluation";
    } else if (phase == "optimizer_step" || phase == "zero_grad") {
      refused = "the OOM came inside optimizer.step(), which may have updated part of the parameters; resume from a checkpoint";
    } else if (phase.empty()) {
      refused = "the failed phase is unknown without the profiler (--no-profile)";
    } else if (!result.recovery) {
      refused = "no probe found a setup that fits";
    } else if (recoveries_ >= max_recoveries_) {
      refused = fmt::format("already recovered {} times in this run", recoveries_);
    }
    if (refused.empty()) {
      trainer_.set_memory_setup(result.recovery->setup);
      result.recovery->applied = true;
      recovered = true;
      ++recoveries_;
    } else {
      result.diagnosis.notes.push_back("recovery not applied: " + refused);
    }
  }
  last_ = result;
  const std::string dir = report_dir_.empty() ? "." : report_dir_;
  try {
    write_oom_report(result, dir);
    report_path_ = (fs::path(dir) / "oom_report.json").string();
  } catch (const InputError& e) {
    log::error("could not write the OOM report: {}", e.what());
  }
  if (recovered) {
    const Recovery& r = *result.recovery;
    if (profiler) {
      nlohmann::json fields = {{"step", step}, {"change", r.change}, {"from", r.from}, {"to", r.to},
                               {"finding", result.diagnosis.findings.empty() ? std::string()
                                               : cause_name(result.diagnosis.findings.front().category)}};
      // The recovered setup's estimate: the report draws it from this step on.
      try {
        fields["estimate"] = nlohmann::json::parse(estimate_to_json(estimate_memory(trainer_.config(), r.setup)));
      } catch (const std::exception& e) {
        fields["estimate_error"] = e.what();
      }
      profiler->write_event("recover", fields);
    }
    log::warn("recovered: {} ({}); retrying step {} with the same effective batch; report {}", r.change,
              top_line(result), step, report_path_);
    return true;
  }
  if (!trainer_.options().quiet) {
    fmt::print("\n{}\n", oom_report_text(result));
    std::fflush(stdout);
  }
  log::error("stopped by an OOM: {}; report {}{}", top_line(result), report_path_,
             refused.empty() ? "" : " (recovery not applied: " + refused + ")");
  return false;
}

}  // namespace oomkit
