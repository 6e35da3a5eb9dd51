// The trainer side of the OOM playbook (issue 5): `oomkit train --on-oom abort|diagnose|recover`.
//
// OomHandler wraps Trainer::step() and Trainer::evaluate(). An out-of-memory error inside a step
// (c10::OutOfMemoryError, or any exception whose message parse_oom_log() reads as an OOM, such
// as the CPU budget's) is caught; the step's tensors are already released by Trainer::step()
// (locals, gradients set to none, data position rewound) and the handler puts the CPU/CUDA
// generator back to its state at the start of the step. Then:
//   - an "oom" event {"type":"event","name":"oom","step","phase","micro_step","message",
//     "allocated_bytes","limit_bytes"} goes to the timeline (flushed per record);
//   - abort: one error line, stop (kExitOom);
//   - diagnose / recover: run_playbook() (diagnose/playbook.h) with LIVE probes: each probe runs
//     one real optimizer step (two before the optimizer has state) of the modified setup on the
//     real model and optimizer, with the
//     profiler detached, then restores model, optimizer state, step counter, data position and
//     RNG exactly from a snapshot written before the first probe (Trainer::save_checkpoint to
//     <report dir>/.oom_snapshot.ckpt, reloaded with the budget lifted, removed at the end);
//     oom_report.json + oom_report.txt land next to the timeline;
//   - diagnose: the findings on stdout, stop (kExitOom);
//   - recover: when the playbook picked a fix a probe showed to work (the remedies catalogue's
//     cheapest plan among what a running trainer can switch: micro-batch/accumulation, fp32 ->
//     mixed precision, full activation checkpointing, sdpa where the build has it; micro-batch x
//     accumulation kept), apply it and retry the same step; the "recover" event goes to the timeline and the report says recovery.applied. An
//     OOM inside optimizer.step() is not recovered (some parameters may already be updated),
//     nor a leak or eval-without-no-grad (the fix is in code): those stop like diagnose.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>

#include "oomkit/diagnose/playbook.h"
#include "oomkit/core/train_options.h"
#include "oomkit/train/trainer.h"

namespace oomkit {

/// The OOM text of `e` when it is an out-of-memory error: c10::OutOfMemoryError, or any
/// exception whose message (c10::Error: without the C++ backtrace) holds an OOM report that
/// parse_oom_log() recognises (the CPU budget of --memory-limit, "CUDA out of memory",
/// DefaultCPUAllocator, CUBLAS_STATUS_ALLOC_FAILED...). nullopt for any other error.
std::optional<std::string> oom_message(const std::exception& e);

/// The playbook's input from a live run: the message parsed with parse_oom_log(), every
/// profiler mark so far (the failed step's last), a backend snapshot, the failed phase (from
/// the marks when `failed_phase` is empty), and the estimator for `model` / `setup` with the
/// budget as capacity (0: taken from the message). Never throws.
PlaybookInput live_playbook_input(const std::string& message, const Profiler& profiler, const MemoryBackend& backend,
                                  const ModelConfig& model, const TrainingSetup& setup, int64_t budget_bytes,
                                  const std::string& failed_phase = "", bool eval_grad_enabled = false);

/// Runs the trainer's steps and evaluations, handling OOMs as the file comment says.
class OomHandler {
 public:
  /// `trainer` (with its backend and profiler set) must outlive the handler. `report_dir`: where
  /// oom_report.json/.txt and the probe snapshot go (created when needed). `max_recoveries`
  /// bounds the OOM -> fix -> retry cycles of one run.
  OomHandler(Trainer& trainer, OnOom mode, std::string report_dir, int max_recoveries = 3);

  /// Trainer::step() with OOM handling. nullopt when an OOM stopped the run (exit code
  /// kExitOom, report written for diagnose/recover). Errors that are not OOMs pass through.
  std::optional<StepStats> step();
  /// Trainer::evaluate() with OOM handling (diagnose without probes: evaluation already runs
  /// under NoGradGuard; no recovery). nullopt when an OOM stopped the run.
  std::optional<double> evaluate();

  /// One probe: an optimizer step of `setup` on the real model with the profiler detached (two
  /// while the optimizer holds no state yet: the second step carries the lazily created state),
  /// their peak allocated bytes, then the exact restore from the snapshot (taken on first use).
  /// Never throws an OOM (reported as ok = false).
  ProbeResult probe(const TrainingSetup& setup);

  int recoveries() const { return recoveries_; }
  /// The last playbook result (nullopt before any OOM or after abort).
  const std::optional<PlaybookResult>& last_result() const { return last_; }
  /// Path of the last oom_report.json written ("" when none).
  const std::string& report_path() const { return report_path_; }
  /// One line for the log/summary about the last OOM ("" when none).
  const std::string& stop_message() const { return stop_message_; }
  /// The last OOM (step, phase, bytes); nullopt when none happened.
  const std::optional<OomPoint>& last_oom() const { return last_oom_; }

 private:
  bool handle(const std::string& message, bool in_eval, int64_t step, int64_t micro_step);
  // The oom event and last_oom_/stop_message_ of an OOM; returns the failed phase.
  std::string record_oom(const std::string& message, bool in_eval, int64_t step, int64_t micro_step);
  // Data parallelism (Trainer::set_collective_oom): every rank decides the retry together; see
  // oom_recovery.cpp. `message`: this rank's OOM, nullopt when another rank failed.
  bool handle_collective(const std::optional<std::string>& message, int64_t step, int64_t micro_step);
  // The largest micro-batch below the current one that keeps B·grad_accum and whose estimate fits
  // the budget (with the safety margin if one does); 0 when none. `why` says how it was chosen.
  // `reason`: kReason* below, shared with the other ranks.
  int64_t smaller_micro_batch(std::string& why, int& reason) const;
  // Under data parallelism, an OOM the ranks did not agree on (optimizer step, evaluation): the
  // oom event and one error line; the job ends as with abort.
  void abort_unagreed(const std::string& message, bool in_eval, int64_t step, int64_t micro_step);
  static constexpr int kReasonNone = 0, kReasonNoDivisor = 1, kReasonMicroBatchOne = 2, kReasonRecoveredEnough = 3,
                       kReasonNothingFits = 4;
  void take_snapshot();
  void restore_snapshot();
  void drop_snapshot();

  Trainer& trainer_;
  OnOom mode_;
  std::string report_dir_;
  int max_recoveries_;
  int recoveries_ = 0;
  std::string snapshot_path_;
  TrainingSetup snapshot_setup_;
  std::optional<PlaybookResult> last_;
  std::string report_path_;
  std::string stop_message_;
  std::optional<OomPoint> last_oom_;
};

}  // namespace oomkit
